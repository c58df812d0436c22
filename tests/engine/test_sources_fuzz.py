"""Fuzzing source files: a real source, renamed so it can load beside the project's own, mutated
(lines dropped, duplicated, swapped, re-indented; values rewritten; YAML tags, anchors, alias
bombs, deep nesting, bad bytes inserted; the text cut short).  Loading gives a library or one
DataError line ``FILE:LINE: ...`` naming the mutated file, and ``laugh sources check --sources``
exits 0 or 1 with the same line, never a traceback.

Short by default; ``pytest -m fuzz`` runs the long profile (see tests/conftest.py)."""

from __future__ import annotations

import re

import pytest
from fuzzing import fuzz_settings, mutate_yaml
from hypothesis import given
from hypothesis import strategies as st

from tutor.app.cli import main
from tutor.engine import data, sources
from tutor.engine.errors import DataError
from tutor.engine.sources._parse import _parse_file

pytestmark = pytest.mark.fuzz

SEEDS = {
    name: (data.data_dir("sources") / f"{name}.yaml")
    .read_text(encoding="utf-8")
    .replace(f"id: {name}\n", f"id: fuzz-{name}\n", 1)
    .replace(f"\n  {name}:\n", f"\n  fuzz-{name}:\n")
    for name in ("porges", "wolffauer")
}


@pytest.fixture(scope="module")
def own_sources():
    """The project's own source files, parsed once."""
    return [_parse_file(p) for p in sorted(data.data_dir("sources").glob("*.yaml"))]


@fuzz_settings(cost=0.08, short=12)
@given(st.data())
def test_mutated_source_files_are_refused_in_one_line(own_sources, tmp_path, capsys, data):
    name = data.draw(st.sampled_from(sorted(SEEDS)), label="seed")
    folder = tmp_path / "extra"
    folder.mkdir(exist_ok=True)
    path = folder / "house.yaml"
    text = mutate_yaml(data, SEEDS[name])
    if data.draw(st.booleans(), label="as bytes"):
        raw = text.encode("utf-8", "surrogatepass")
        at = data.draw(st.integers(0, len(raw)), label="at")
        path.write_bytes(raw[:at] + data.draw(st.binary(max_size=3), label="bytes") + raw[at:])
    else:
        path.write_text(text, encoding="utf-8", errors="surrogatepass")

    try:
        lib = sources._build(own_sources + [_parse_file(path)])
    except DataError as exc:
        msg = str(exc)
        assert "\n" not in msg and len(msg) < 600, msg
        assert re.match(rf"{re.escape(str(path))}:\d+: \S", msg), msg
        expected = msg
    else:
        assert f"fuzz-{name}" in lib.sources or any(s.path == path for s in lib.sources.values())
        expected = None

    sources.set_extra_dirs(())
    capsys.readouterr()
    try:
        code = main(["sources", "check", "--sources", str(folder)])
    finally:
        sources.set_extra_dirs(())
    out, err = capsys.readouterr()
    assert code in (0, 1), (code, out, err)
    if expected is not None:
        assert code == 1 and err.strip() == f"laugh: {expected}"
