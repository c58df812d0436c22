"""Names as a person types them (issue 34, finding 11): every name on the command line (a
command, a ruleset, a source, a lesson, a puzzle kind, a drill and its mode, a level, a track, a
policy) read without regard to case, and a name we do not know answered in one line with the
nearest names; every option with help; ``laugh --help`` naming what ``puzzles`` does; every
oversight the engine knows in the practice menu's "Mistakes to claim"."""

from __future__ import annotations

import argparse

import pytest

from tutor.app.cli import build_parser, main
from tutor.engine.errors import UsageError
from tutor.engine.names import find_name, name_key, nearest


def test_find_name_reads_case_spaces_and_separators_alike():
    names = ["parlett", "parlett-13", "inter-livery-2018", "du-coeur"]
    for typed in ("Inter-Livery-2018", "INTER_LIVERY_2018", " inter livery 2018 "):
        assert find_name(typed, names, "ruleset") == "inter-livery-2018"
    assert find_name("Parlett", names, "ruleset") == "parlett"
    assert name_key("Du_Coeur") == "du-coeur"
    with pytest.raises(UsageError) as exc:
        find_name("parlet", names, "ruleset")
    assert str(exc.value) == (
        "unknown ruleset 'parlet'; did you mean parlett or parlett-13? "
        "(rulesets: parlett, parlett-13, inter-livery-2018, du-coeur)"
    )
    assert nearest("inter", names) == ["inter-livery-2018"]  # what it begins with
    with pytest.raises(UsageError, match="could be a-b or a_b"):
        find_name("A B", ["a-b", "a_b"], "thing")
    with pytest.raises(UsageError) as exc:  # a long paste is not echoed
        find_name("x" * 500, names, "ruleset")
    assert len(str(exc.value)) < 200


@pytest.mark.parametrize(
    "args",
    [
        ["rules", "Parlett"],
        ["rules", "--compare", "PARLETT", "Du_Coeur"],
        ["sources", "Parlett"],
        ["lesson", "Oversights", "--help"],
        ["Rules", "parlett"],
        ["odds", "-r", "Inter-Livery-2018"],
        ["puzzle", "Spot-Oversight", "--seed", "1", "--json"],
        ["puzzle", "count", "-r", "Inter-Livery-2018", "--seed", "1", "--json"],
        ["drill", "Oversights", "--mode", "Storm", "--help"],
        ["track", "Tournament", "--help"],
    ],
)
def test_a_name_in_another_case_is_the_name(args, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path))
    try:
        rc = main(args)
    except SystemExit as exc:  # --help
        rc = exc.code
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert out and not err


@pytest.mark.parametrize(
    "args, said",
    [
        (["sources", "parlet"], "unknown source 'parlet'; did you mean parlett?"),
        (["rules", "parlet"], "unknown ruleset 'parlet'; did you mean parlett"),
        (
            ["play", "-r", "inter-livery", "--deals", "1"],
            "unknown ruleset 'inter-livery'; did you mean inter-livery-2018?",
        ),
        (["lesson", "oversite"], "unknown lesson 'oversite'; did you mean oversights?"),
        (["ply"], "unknown command 'ply'; did you mean play?"),
        (["drill", "ovresights"], "unknown drill kind 'ovresights'; did you mean oversights?"),
        (["drill", "oversights", "--mode", "strom"], "unknown mode 'strom'; did you mean storm?"),
        (["puzzle", "spot"], "unknown puzzle kind 'spot'; did you mean spot-oversight?"),
        (
            ["play", "--level", "expret", "--deals", "1"],
            "unknown level 'expret'; did you mean expert?",
        ),
        (["track", "turnament"], "unknown track 'turnament'; did you mean tournament?"),
        (
            ["simulate", "--bots", "countr", "--deals", "1"],
            "unknown computer player 'countr'; did you mean counter?",
        ),
        (["puzzles", "export", "--set", "Nope"], "unknown puzzle set 'Nope'"),
    ],
)
def test_a_name_we_do_not_know_is_one_line_with_the_nearest(
    args, said, capsys, monkeypatch, tmp_path
):
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path))
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1 and said in err, err


def _options(parser, path=("laugh",)):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helped = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                yield path + (name,), "(the command)", helped.get(name)
                yield from _options(sub, path + (name,))
        else:
            yield path, "/".join(action.option_strings) or action.dest, action.help


def test_every_option_and_command_has_help():
    missing = [
        (" ".join(path), option) for path, option, text in _options(build_parser()) if not text
    ]
    assert missing == []


def test_laugh_help_says_what_puzzles_lists(capsys):
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    line = " ".join(text[text.index("    puzzles ") :].split("\n    play")[0].split())
    parser = build_parser()
    puzzles = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[
        "puzzles"
    ]
    actions = next(a for a in puzzles._actions if isinstance(a, argparse._SubParsersAction))
    for name in actions.choices:  # export, list (kinds and sets), themes
        assert (
            name in line or {"export": "export", "list": "kinds", "themes": "themes"}[name] in line
        ), line


def test_every_oversight_of_the_engine_is_practised_among_mistakes_to_claim():
    from tutor.app.views import practisable_themes
    from tutor.engine.parameters import OVERSIGHT_KINDS
    from tutor.puzzles.themes import theme_id, theme_table

    groups = practisable_themes()
    table = theme_table()
    mistakes = next(g for g in groups if g == table["oversight"].group_label)
    ids = [t.id for t in groups[mistakes]]
    for kind in OVERSIGHT_KINDS:
        assert theme_id(kind) in ids, (kind, ids)


def test_the_readme_says_how_to_run_laugh_and_its_play_line_is_short():
    """A new user copies the README's first two commands (unchanged: they install on a fresh
    machine) and is told how ``laugh …`` then runs; ``laugh play`` in full is a few lines, not a
    paragraph (docs/COMMANDS.md)."""
    from support import ROOT

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = text.split("```sh\n")
    assert (
        blocks[1].split("\n```")[0]
        == "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/laugh"
    )
    assert (
        blocks[2].split("\n```")[0]
        == "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest"
    )
    first_command = text.index("- `laugh")
    assert ". .venv/bin/activate" in text[:first_command]
    assert "`.venv/bin/laugh …`" in text[:first_command]
    commands = (ROOT / "docs" / "COMMANDS.md").read_text(encoding="utf-8")
    play = commands.split("\n## laugh play\n", 1)[1].split("\nOther options", 1)[0]
    assert len(play) < 800, len(play)
