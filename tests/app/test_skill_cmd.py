"""`laugh simulate --skill`: how much an expert seat gains, per ruleset, driven as a user would."""

import json

import pytest

from tutor.app.cli import main


def test_skill_table_and_json(capsys):
    args = [
        "simulate",
        "--skill",
        "porges,parlett-13",
        "--deals",
        "2",
        "--samples",
        "6",
        "--opponents",
        "counter,random",
        "--seed",
        "4",
    ]
    assert main(args + ["--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["format"] == "laugh-and-lie-down/skill@1"
    assert (figures["deals"], figures["seed"], figures["samples"]) == (2, 4, 6)
    rows = [(r["ruleset"], r["players"], r["opponent"]) for r in figures["rows"]]
    assert rows == [
        ("porges", 5, "counter"),
        ("porges", 5, "random"),
        ("parlett-13", 4, "counter"),
        ("parlett-13", 4, "random"),
    ]
    for r in figures["rows"]:
        gains = [e - b for e, b in r["results"]]
        assert len(gains) == 2 and r["gain"]["mean"] == pytest.approx(sum(gains) / 2, abs=1e-4)
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "over counter" in text and "over random" in text and "parlett-13" in text
    first = figures["rows"][0]["gain"]
    assert f"{first['mean']:+.2f} ± {first['ci95']:.2f}" in text


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--skill", "nosuch"], "unknown ruleset 'nosuch'"),
        (["--skill", "parlett", "--opponents", "expert"], "unknown opponent 'expert'"),
        (["--skill", "parlett-13", "--players", "5"], "does not cover 5 players"),
        (["--skill", "parlett", "--samples", "0"], "must be at least 1"),
    ],
)
def test_bad_skill_runs_say_why_in_one_line(argv, needle, capsys):
    assert main(["simulate", *argv]) != 0
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1
