"""A puzzle definition (``puzzles/<kind>.yaml``) is read as a typed model: a wrong type, a
missing key, an unknown key and the rules across keys are each one line naming the file, the
line and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.engine.errors import DataError
from tutor.puzzles.model import Definition, load_definition, puzzles_dir

REAL = (puzzles_dir() / "count.yaml").read_text(encoding="utf-8")


def _error(tmp_path: Path, text: str, name: str = "count.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load_definition(path)
    assert "\n" not in str(exc.value)
    return str(exc.value)


def _line(text: str, start: str) -> int:
    return next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith(start))


def test_a_shipped_definition_reads_as_the_model():
    defn = load_definition(puzzles_dir() / "spot-oversight.yaml")
    assert isinstance(defn, Definition) and defn.path.name == "spot-oversight.yaml"
    assert defn.decoy_rate == 0.34 and defn.difficulty.weights["split_prial"] == 1.5
    assert defn.problem_specs("laid_down_dead_pair")[1] == {"id": "pair-royal-mistake"}


def test_a_wrong_type_names_the_file_the_line_and_the_key(tmp_path):
    text = REAL.replace("generator_version: 2", "generator_version: '2'", 1)
    assert _error(tmp_path, text) == (
        f"count.yaml:{_line(text, 'generator_version')}: generator_version: must be a whole number"
    )
    text = REAL.replace("  base: 0\n", "  base: high\n", 1)
    assert _error(tmp_path, text) == (
        f"count.yaml:{_line(text, '  base:')}: difficulty.base: must be a number"
    )
    text = REAL.replace("    - Every rank has four", "    - {a: b}\n    - Every rank has four", 1)
    assert _error(tmp_path, text) == (
        f"count.yaml:{_line(text, '    - {a: b}')}: hints.default[0]: must be text"
    )


def test_a_missing_key_names_the_file_and_the_key(tmp_path):
    text = "".join(t for t in REAL.splitlines(keepends=True) if not t.startswith("title:"))
    assert _error(tmp_path, text) == "count.yaml:1: title: is missing"


def test_an_unknown_key_is_told_the_keys(tmp_path):
    text = REAL + "colour: red\n"
    msg = _error(tmp_path, text)
    assert msg.startswith(
        f"count.yaml:{_line(text, 'colour')}: colour: is not a key here "
        "(keys: kind, title, generator_version, lesson, "
    )
    text = REAL.replace("  base: 0\n", "  base: 0\n  bias: 1\n", 1)
    assert _error(tmp_path, text) == (
        f"count.yaml:{_line(text, '  bias:')}: difficulty.bias: "
        "is not a key here (keys: base, weights, formula)"
    )


def test_the_projects_words_are_kept(tmp_path):
    text = REAL.replace("lesson: 09-strategy", "lesson: strategy", 1)
    assert _error(tmp_path, text) == (
        f"count.yaml:{_line(text, 'lesson:')}: lesson: must be a "
        "lesson file name without .md, such as 04-capturing, not "
        "'strategy'"
    )
    text = REAL.replace("lesson:", "decoy_rate: 1.5\nlesson:", 1)
    assert _error(tmp_path, text) == (
        f"count.yaml:{_line(text, 'decoy_rate')}: decoy_rate: must be at most 1"
    )
    text = REAL.replace("pages:\n", "pages:\n  odd: nowhere\n", 1)
    assert _error(tmp_path, text).startswith(
        f"count.yaml:{_line(text, '  odd:')}: pages.odd: "
        "must be a lesson page, `NN-name#Page heading`"
    )
    text = REAL.replace("pages:\n", "pages: 5\nx:\n", 1)
    assert _error(tmp_path, text) == (
        f"count.yaml:{_line(text, 'pages:')}: pages: must be a "
        "lesson page, or a mapping of variant to a lesson page"
    )
    text = REAL.replace("generator_version: 2", "generator_version: 0", 1)
    assert _error(tmp_path, text) == (
        f"count.yaml:{_line(text, 'generator_version')}: generator_version: must be at least 1"
    )


def test_a_definition_of_another_kind_is_refused_at_kind(tmp_path):
    msg = _error(tmp_path, REAL, name="other.yaml")
    assert msg == (
        f"other.yaml:{_line(REAL, 'kind:')}: kind: 'count' is not this file's kind: "
        "expected 'other' (the file name)"
    )


def test_a_bare_value_is_the_default_variants(tmp_path):
    path = tmp_path / "count.yaml"
    path.write_text(REAL.replace('pages:\n  default: "09', 'pages: "09', 1), encoding="utf-8")
    assert load_definition(path).pages == {"default": "09-strategy#Counting unseen cards"}


def test_the_board_table_is_read_as_a_model(tmp_path):
    from tutor.puzzles.model import board_features_table

    shipped = board_features_table()
    assert shipped and all(f.words for f in shipped.values())
    path = tmp_path / "board.yaml"
    for text, said in (
        (
            "features:\n  story:\n    lesson: 08-oversights\n    words: 3\n",
            "board.yaml:4: features.story.words: must be text",
        ),
        (
            "features:\n  story:\n    lesson: 08-oversights\n",
            "board.yaml:2: features.story.words: is missing",
        ),
        (
            "features:\n  story:\n    lesson: null\n    words: w\n    stars: 2\n",
            "board.yaml:5: features.story.stars: is not a key here (keys: lesson, words)",
        ),
        ("features: {}\n", "board.yaml:1: features: must not be empty"),
    ):
        path.write_text(text, encoding="utf-8")
        with pytest.raises(DataError) as exc:
            board_features_table(path)
        assert str(exc.value).startswith(said), str(exc.value)


def test_a_quotation_spec_and_a_word_are_read_as_their_shapes(tmp_path):
    """A quotation spec is a model (a misspelt key is one line naming it); a piece of wording is
    asked for in its shape, and an entry of another shape is refused, never used."""
    text = REAL.replace(
        "{parameter: captures, among: [], fallback:",
        "{parameter: captures, amongst: [], fallback:",
        1,
    )
    assert _error(tmp_path, text) == (
        f"count.yaml:{_line(text, '    - {parameter')}: "
        "quotes.default[3].amongst: is not a key here (keys: "
        "parameter, among, limit, fallback)"
    )
    text = REAL.replace('    - "parlett:hold-back"\n', "    - 7\n", 1)
    assert _error(tmp_path, text) == (
        f"count.yaml:{_line(text, '    - 7')}: quotes.default[2]: must be text"
    )
    defn = load_definition(puzzles_dir() / "deal-setup.yaml")
    assert defn.word_list("eldest_named") and all(
        isinstance(w, str) for w in defn.word_list("eldest_named")
    )
    with pytest.raises(DataError, match="words.eldest_named must be text"):
        defn.word("eldest_named")
    with pytest.raises(DataError, match="words.eldest_named must be a mapping"):
        defn.word_map("eldest_named")
    assert defn.word("no-such-word", "fallback") == "fallback" and defn.word_map("none") == {}
