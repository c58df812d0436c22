"""Fuzzing puzzle definitions (``puzzles/<kind>.yaml``): each kind's file mutated (lines
dropped, duplicated, swapped, re-indented; values rewritten; YAML tags, anchors, alias bombs,
deep nesting; the text cut short).  Reading gives a definition or one DataError line
``FILE:LINE: ...``, never a traceback.

Short by default; ``pytest -m fuzz`` runs the long profile (see tests/conftest.py)."""

from __future__ import annotations

import re

import pytest
from fuzzing import fuzz_settings, mutate_yaml
from hypothesis import given
from hypothesis import strategies as st

from tutor.engine.errors import DataError
from tutor.puzzles.model import Definition, load_definition, puzzles_dir
from tutor.puzzles.registry import KINDS

pytestmark = pytest.mark.fuzz

SEEDS = {kind: (puzzles_dir() / f"{kind}.yaml").read_text(encoding="utf-8") for kind in KINDS}


@fuzz_settings(cost=0.004, short=20)
@given(st.data())
def test_mutated_puzzle_definitions_are_refused_in_one_line(tmp_path, data):
    kind = data.draw(st.sampled_from(KINDS), label="kind")
    path = tmp_path / f"{kind}.yaml"
    path.write_text(mutate_yaml(data, SEEDS[kind]), encoding="utf-8", errors="surrogatepass")
    try:
        definition = load_definition(path)
    except DataError as exc:
        msg = str(exc)
        assert "\n" not in msg and len(msg) < 600, msg
        assert re.match(rf"{re.escape(path.name)}:\d+: \S", msg), msg
    else:
        assert isinstance(definition, Definition) and definition.kind in KINDS
