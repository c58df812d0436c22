"""Fuzzing lesson files: a lesson of the course mutated in its front matter, its blocks and its
fences (lines dropped, duplicated, swapped, re-indented; values rewritten; YAML tags, anchors,
alias bombs, deep nesting, fences opened and never closed; bad bytes; the text cut short).
Checking gives problems of one line each, ``FILE:LINE: KEY: ...`` naming the file, and
``laugh lessons check`` exits 0 or 1 with those lines, never a traceback.

Short by default; ``pytest -m fuzz`` runs the long profile (see tests/conftest.py)."""

from __future__ import annotations

import re

import pytest
from fuzzing import fuzz_settings, mutate_yaml
from hypothesis import given
from hypothesis import strategies as st

from tutor.app.cli import main
from tutor.engine.data import data_dir
from tutor.engine.errors import DataError
from tutor.teaching.lessons import Lesson, check_lessons, load_lesson

pytestmark = pytest.mark.fuzz

SEED = (data_dir("lessons") / "09-strategy.md").read_text(encoding="utf-8")
FENCES = [
    "```",
    "```puzzle",
    "```quote",
    "```cards",
    "```odds",
    "```rules",
    "```simulate",
    "~~~",
    "---",
    "kind: count",
    "count: 99",
    "ruleset: [parlett]",
    "players: 2",
    "parlett:nosuch",
    "Your hand: 7H 7H",
    "figure: hand_prial",
    "parameters: pot",
]


@fuzz_settings(cost=0.025, short=15)
@given(st.data())
def test_mutated_lessons_give_one_line_problems_naming_file_and_line(
    library, tmp_path, capsys, data
):
    text = mutate_yaml(data, SEED)
    for _ in range(data.draw(st.integers(0, 2), label="fence edits")):
        lines = text.split("\n")
        i = data.draw(st.integers(0, len(lines)), label="fence line")
        lines.insert(i, data.draw(st.sampled_from(FENCES), label="fence"))
        text = "\n".join(lines)
    path = tmp_path / "09-strategy.md"
    raw = text.encode("utf-8", "surrogatepass")
    if data.draw(st.booleans(), label="bad bytes"):
        at = data.draw(st.integers(0, len(raw)), label="at")
        raw = raw[:at] + data.draw(st.binary(min_size=1, max_size=3), label="bytes") + raw[at:]
    if data.draw(st.booleans(), label="byte-order mark"):
        raw = b"\xef\xbb\xbf" + raw
    path.write_bytes(raw)

    count, problems = check_lessons([path], library)
    assert count == 1
    for line in problems:
        assert "\n" not in line and len(line) < 600, line
        assert re.match(rf"{re.escape(str(path))}:\d+: \S", line), line
    try:
        lesson = load_lesson(path, library)
    except DataError as exc:
        assert problems and str(exc) == problems[0]
    else:
        assert isinstance(lesson, Lesson) and not problems

    capsys.readouterr()
    code = main(["lessons", "check", str(path)])
    out, err = capsys.readouterr()
    assert code == (1 if problems else 0), (code, out, err)
    assert out.splitlines()[:-1] == problems
    assert out.splitlines()[-1].startswith("1 lesson checked: ")
