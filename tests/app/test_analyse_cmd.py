"""`laugh analyse FILE`: every example record annotated, as text and as JSON."""

import json
from pathlib import Path

import pytest

from tutor.app.cli import main
from tutor.engine.records import replay

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "data" / "examples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_analyse_json_annotates_every_example(path, capsys):
    assert main(["analyse", str(path), "--samples", "12", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    doc = json.loads(lines[0])
    rec = json.loads(path.read_text())
    assert doc["ruleset"] == rec["ruleset"] and doc["players"] == rec["players"]
    assert doc["unit"] in ("stakes", "points") and doc["decisions"]
    for dec in doc["decisions"]:
        played = dec["played"]
        if played != "hold":
            assert played == rec["actions"][dec["index"]]
        listed = [o["action"] for o in dec["options"]]
        assert played in listed and dec["best"] in listed
        assert len({o["group"] for o in dec["options"]}) > 1  # forced moves skipped
        assert dec["verdict"] in ("best", "good", "inaccuracy", "mistake", "blunder")
        assert dec["loss"] >= 0
        best = max(o["mean"] for o in dec["options"])
        assert dec["options"][0]["mean"] == best
    assert sum(v["decisions"] for v in doc["summary"].values()) == len(doc["decisions"])


def test_analyse_text_for_one_seat_at_one_point(capsys):
    path = next(p for p in EXAMPLES if p.name == "parlett-5-oversights.json")
    deal = replay(json.loads(path.read_text()))
    k = next(
        i
        for i, a in enumerate(deal.history)
        if a.kind == "claim" and a.oversight == "laid_down_dead_pair"
    )
    seat = next(
        q
        for q in range(5)
        if q != deal.history[k].player
        and q != deal.history[k - 1].player
        and any(
            a.kind == "claim"
            for a in replay(json.loads(path.read_text()), upto=k - 1).free_actions(q)
        )
    )
    assert (
        main(["analyse", str(path), "--seat", str(seat), "--at", str(k - 1), "--samples", "40"])
        == 0
    )
    out = capsys.readouterr().out
    assert f"#{k - 1} Player {seat} holds" in out and "blunder" in out
    assert "claims" in out and f"Player {seat}: 1 decision," in out.replace("\n", " ")


def test_analyse_is_reproducible(capsys):
    path = str(EXAMPLES[0])
    main(["analyse", path, "--samples", "20", "--seed", "3", "--json", "--seat", "1"])
    one = json.loads(capsys.readouterr().out)
    main(["analyse", path, "--samples", "20", "--seed", "3", "--json", "--seat", "1"])
    two = json.loads(capsys.readouterr().out)
    for d in one["decisions"] + two["decisions"]:
        d.pop("seconds", None)
    assert one == two


@pytest.mark.parametrize(
    "argv,code,needle",
    [
        (["--seat", "9"], 2, "--seat must be a player"),
        (["--at", "999"], 2, "--at must be an action index"),
        (["--policy", "expert"], 2, "unknown policy"),
        (["--samples", "0"], 2, "must be at least 1"),
    ],
)
def test_analyse_refuses_bad_choices_in_one_line(argv, code, needle, capsys):
    assert main(["analyse", str(EXAMPLES[0]), *argv]) == code
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_analyse_reports_a_bad_record(tmp_path, capsys):
    rec = json.loads(EXAMPLES[0].read_text())
    rec["actions"][1]["player"] = (rec["actions"][1]["player"] + 1) % rec["players"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec))
    assert main(["analyse", str(bad), "--json"]) == 1
    assert "action 1" in capsys.readouterr().err
    assert main(["analyse", str(tmp_path / "missing.json")]) == 1
    assert "missing.json: cannot be read (No such file" in capsys.readouterr().err
