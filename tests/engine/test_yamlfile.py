"""One YAML loading path (tutor.engine.yamlfile) for sources, lessons and puzzle definitions:
the safe loader only, the same limits everywhere, duplicate keys refused, FILE:LINE: KEY.PATH."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tutor.engine import sources, yamlfile
from tutor.engine.errors import DataError
from tutor.puzzles.model import load_definition


def bomb(levels: int = 9, width: int = 9) -> str:
    """A "billion laughs" mapping: ``width ** levels`` strings once its aliases are expanded."""
    lines = ["l0: &l0 [" + ", ".join(["lol"] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def _error(text: str, **kw) -> str:
    with pytest.raises(DataError) as exc:
        yamlfile.load(text, "f.yaml", **kw)
    msg = str(exc.value)
    assert "\n" not in msg
    return msg


def test_an_alias_bomb_is_refused_at_its_line_before_anything_is_built():
    msg = _error(bomb())
    assert re.match(r"f\.yaml:6: l5\.0: more than 100,000 values once aliases are expanded", msg)
    # Sharing an anchor a few times is fine.
    data, _ = yamlfile.load(bomb(levels=3, width=3), "f.yaml")
    assert data["l2"] == [[["lol"] * 3] * 3] * 3


@pytest.mark.parametrize(
    "text,pattern",
    [
        # The path is there when the events reach the depth check; libyaml 0.2.6 and later refuse
        # 1,000 open brackets while scanning, before any event, so the path may not be known.
        ("[" * 100_000, r"f\.yaml:1: (0\.0\.0.*: )?nested more than 40 levels deep"),
        ("[" * 500, r"f\.yaml:1: 0\.0\.0.*: nested more than 40 levels deep"),
        ("- " * 100_000 + "x", r"f\.yaml:1: .*nested more than 40 levels deep"),
        ("a: &a [1, *a]\n", r"f\.yaml:1: a\.1: the alias \*a refers to a value that holds it"),
        ("a: *nowhere\n", r"f\.yaml:1: a: the alias \*nowhere names no anchor before it"),
        ("a: 1\nb:\n  c: 1\n  c: 2\n", r"f\.yaml:4: b\.c: duplicate key \(first at line 3\)"),
        ("? [a]\n: 1\n", r"f\.yaml:1: a key must be a single value"),
        ("a: 2018-13-45\n", r"f\.yaml:1: a: cannot read the value '2018-13-45'"),
        ("a: " + "9" * 5000 + "\n", r"f\.yaml:1: a: cannot read the value .*too many digits"),
        (
            "a: !!python/object/apply:os.system [ls]\n",
            r"f\.yaml:1: a: the tag !!python/object/apply:os\.system is not allowed \(plain data only\)",
        ),
        (
            "a: !!python/name:os.system x\n",
            r"f\.yaml:1: a: the tag !!python/name:os\.system is not",
        ),
        ("a: [b\n", r"f\.yaml:1: YAML syntax error: "),
        ("a: 1\n---\nb: 2\n", r"f\.yaml:\d: YAML syntax error: .*single document"),
    ],
)
def test_every_refusal_is_one_line_naming_file_line_and_key(text, pattern):
    assert re.match(pattern, _error(text)), _error(text)


def test_lines_and_paths_count_from_where_the_text_stands_in_its_file():
    msg = _error("kind: count\ncount: 2\ncount: 3\n", first_line=17, prefix="puzzle")
    assert msg == "f.yaml:19: puzzle.count: duplicate key (first at line 18)"
    data, doc = yamlfile.load("a: 1\nb: {c: 2}\n", "f.yaml", first_line=5)
    assert data == {"a": 1, "b": {"c": 2}}
    assert doc.key_lines() == {"a": 5, "b": 6} and doc.line_of("b", "c") == 6


def test_merge_keys_still_work_and_own_keys_win():
    data, _ = yamlfile.load("base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3\n", "f.yaml")
    assert data["d"] == {"x": 1, "y": 3}


def test_read_text_drops_a_byte_order_mark_and_names_the_line_of_a_bad_byte(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert yamlfile.read_text(path) == "a: 1\n"
    path.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(DataError, match=r"a\.yaml:2: not UTF-8 text"):
        yamlfile.read_text(path)
    path.write_bytes(b"a: 1\n" * (yamlfile.MAX_BYTES // 5 + 1))
    with pytest.raises(DataError, match=r"a\.yaml:1: the file is larger than 1,000,000 bytes"):
        yamlfile.read_text(path)


# --- every reader of YAML goes through it ----------------------------------------------------


def _source_error(tmp_path: Path, text: str) -> str:
    folder = tmp_path / "extra"
    folder.mkdir(exist_ok=True)
    (folder / "house.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as exc:
        sources.load_library([folder])
    return str(exc.value)


def test_a_source_file_is_read_within_the_limits(tmp_path):
    assert "alias bomb" in _source_error(tmp_path, "id: x\n" + bomb())
    # libyaml's composer crashed the interpreter (SIGSEGV) on nesting this deep.
    assert "nested more than 40 levels deep" in _source_error(tmp_path, "id: " + "[" * 100_000)


def test_a_puzzle_definition_is_read_through_the_same_path(tmp_path):
    path = tmp_path / "count.yaml"
    real = (Path(__file__).resolve().parents[2] / "puzzles" / "count.yaml").read_text()
    path.write_text(real + bomb(levels=7), encoding="utf-8")
    with pytest.raises(DataError, match=r"count\.yaml:\d+: l5\.0: more than 100,000 values"):
        load_definition(path)
    path.write_text(
        real.replace("generator_version:", "title: again\ngenerator_version:", 1), encoding="utf-8"
    )
    with pytest.raises(DataError, match=r"count\.yaml:\d+: title: duplicate key \(first at line"):
        load_definition(path)
    path.write_text(
        real.replace("generator_version: ", "generator_version: x", 1), encoding="utf-8"
    )
    line = next(
        i
        for i, t in enumerate(path.read_text().splitlines(), 1)
        if t.startswith("generator_version:")
    )
    with pytest.raises(
        DataError,
        match=rf"count\.yaml:{line}: generator_version: must be a "
        "whole number",
    ):
        load_definition(path)
