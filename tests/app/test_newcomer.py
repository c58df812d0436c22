"""What a newcomer tripped on (issue 14 item 8), each driven through the real program: the odds
table at 80 columns, the simulate summary, a source's file, the statistics' empty state, the
storm's minutes, and the counting drill's questions."""

from __future__ import annotations

import os

import pytest
from support import ROOT, laugh_process, run_laugh

from tutor.engine.sources import default_library


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("columns", [80, 78, 100])
def test_odds_table_keeps_every_ruleset_whole_within_the_width(tmp_path, columns):
    proc = run_laugh(["odds"], "", tmp_path, columns=columns)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert all(len(line) <= columns for line in lines)
    # the rulesets column: every name whole (never cut inside a name), each where it belongs
    names = set(default_library().rulesets)
    col = lines[[i for i, x in enumerate(lines) if "rulesets" in x][0]].index("rulesets")
    words = " ".join(x[col:] for x in lines if len(x) > col and x[col - 2 : col] == "  ")
    found = {w.strip(",") for w in words.split()} - {"rulesets"}
    assert found == names, found ^ names


def test_odds_narrow_is_a_paragraph_each(tmp_path):
    proc = run_laugh(["odds"], "", tmp_path, columns=60)
    assert proc.returncode == 0
    assert all(len(line) <= 60 for line in proc.stdout.splitlines())
    assert "5 players, 8 each, 12 on the table" in proc.stdout


def test_simulate_names_players_as_play_does_and_says_the_advantage_once(tmp_path):
    proc = run_laugh(["simulate", "--deals", "300", "--seed", "2"], "", tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = flat(proc.stdout)
    assert "Players: willughby" not in text
    assert (
        "Computer players at every seat: willughby (laugh play's club level; beginner "
        "careless at 0.35, casual careless at 0.15)."
    ) in text
    assert text.count("advantage") == 2  # the sentence's head and its meaning, once each
    assert "Dealer's advantage over the mean of the others:" in text
    proc = run_laugh(
        ["simulate", "--deals", "50", "--bots", "counter", "--mistakes", "0.15"], "", tmp_path
    )
    # laugh play's expert level plays the expert computer player, so counter is no level
    assert "counter (no level of laugh play), careless at 0.15." in flat(proc.stdout)


def test_a_sources_file_is_named_where_the_project_keeps_it(tmp_path):
    # run from another folder (as an installed program would be): never a path into the
    # program's own install, but the project's sources/ name
    env = dict(
        os.environ,
        LAUGH_HOME=str(tmp_path / "home"),
        COLUMNS="100",
        PYTHONPATH=str(ROOT),
        PYTHONIOENCODING="utf-8",
    )
    proc = laugh_process(["sources", "willughby"], None, env, cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "File: sources/willughby.yaml (one of the program's own)" in flat(proc.stdout)
    assert str(ROOT) not in proc.stdout and "site-packages" not in proc.stdout


def test_statistics_empty_state_names_commands_at_the_shell_and_keys_at_home(tmp_path):
    proc = run_laugh(["stats"], "", tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = flat(proc.stdout)
    assert "laugh lesson 1" in text and "laugh puzzle" in text
    assert " p for puzzles" not in text
    home = run_laugh([], "t\nq\n", tmp_path)
    assert "p for puzzles" in flat(home.stdout)


def test_storm_says_minute_for_one(tmp_path):
    proc = run_laugh(
        [
            "drill",
            "oversights",
            "--mode",
            "storm",
            "--minutes",
            "1",
            "--seed",
            "2",
            "--positions",
            "1",
        ],
        "pass\n",
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Oversight storm: 1 minute;" in proc.stdout and "1 minutes" not in proc.stdout


def test_count_drill_gives_an_example_and_says_why_your_cards_are_played(tmp_path):
    proc = run_laugh(
        ["drill", "count", "--seed", "3", "--rounds", "1", "--ruleset", "parlett"],
        "\n9 9\nnone\nnone\n",
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    text = flat(proc.stdout)
    assert "are unseen? One number for each," in text and "for example 2 1." in text
    assert "A computer player plays your seat too" in text and "not choosing" in text
    assert "The pace rises only after 3 perfect rounds in a row" in text
