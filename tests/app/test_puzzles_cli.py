"""``laugh puzzle`` with piped input, ``laugh puzzle --id ID --json``, ``laugh puzzles export``
(each exported line replays legally and its answer matches a fresh engine computation), and bad
input giving one line and status 2."""

from __future__ import annotations

import io
import json

import pytest
from support import JSON_KEYS, engine_answer

import tutor.puzzles as P
from tutor.app.cli import main
from tutor.engine.records import replay

ID = "spot-oversight.parlett.5.101"  # one with something to claim (v6; .100 before set_place)


def run(monkeypatch, capsys, argv, stdin=""):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    monkeypatch.setenv("LAUGH_ASCII", "1")
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def test_piped_puzzle_hint_then_right_answer(monkeypatch, capsys):
    p = P.from_id(ID)
    rc, out, err = run(
        monkeypatch, capsys, ["puzzle", "--id", ID], f"hint\nhint\n{p.accepted[0]}\n"
    )
    assert rc == 0, err
    assert "Hint 1 of" in out and "Hint 2 of" in out
    assert "Right" in out and p.id in out
    assert "Answer:" in out
    q = P.from_id(ID)
    from tutor.engine.sources import default_library

    first_quote = default_library().quotation(q.quotes[0])
    assert first_quote.text.split()[0] in out  # the quotation, with its citation
    assert "Parlett" in out


def test_piped_puzzle_unreadable_answer_is_asked_again(monkeypatch, capsys):
    p = P.from_id(ID)
    rc, out, err = run(monkeypatch, capsys, ["puzzle", "--id", ID], f"what?\n{p.accepted[0]}\n")
    assert rc == 0
    # said as a lesson says it (issue 29: one loop): the reading's own words, not graded
    assert "could not read 'what'" in out and "Could not read that" not in out
    assert out.count("Your answer") == 2
    assert "Right" in out


def test_piped_puzzle_wrong_answer_still_explains(monkeypatch, capsys):
    p = P.from_id(ID)
    rc, out, _ = run(monkeypatch, capsys, ["puzzle", "--id", ID], "nothing\n")
    assert rc == 0
    assert "There was something to claim" in out
    assert p.expected_answer_text() in out


def test_piped_puzzle_a_second_try_before_the_answer(monkeypatch, capsys, tmp_path):
    # a wrong first answer gets the nudge, not the answer; the second try is graded as try 2,
    # and both tries are recorded (the second as a retry, which moves no rating)
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path))
    p = P.from_id(ID)
    nudge = p.grade("nothing").retry
    assert nudge and not p.grade("nothing").final and p.grade("nothing", 2).final
    rc, out, _ = run(monkeypatch, capsys, ["puzzle", "--id", ID], f"nothing\n{p.accepted[0]}\n")
    assert rc == 0
    flat = " ".join(out.split())
    assert " ".join(nudge.split()) in flat and "One more try (or hint, show)." in flat
    assert out.index("One more try") < out.index("Answer:")
    assert "There was something to claim" not in out and "Right" in out
    from tutor.teaching.progress import ProgressStore

    with ProgressStore(tmp_path / "progress.sqlite3") as store:
        tries = [(a.puzzle_id, a.correct, a.retry) for a in store.answers()]
    assert tries == [(ID, False, False), (ID, True, True)]


@pytest.mark.parametrize("stdin", ["quit\n", "", "hint\n"])
def test_quit_and_end_of_input_leave_cleanly(monkeypatch, capsys, stdin):
    rc, out, err = run(monkeypatch, capsys, ["puzzle", "count", "--seed", "3"], stdin)
    assert rc == 0 and "Traceback" not in out + err


def test_every_kind_poses_and_grades_in_the_terminal(monkeypatch, capsys):
    for kind in P.KINDS:
        p = P.generate(kind, seed=11)
        rc, out, err = run(monkeypatch, capsys, ["puzzle", "--id", p.id], f"{p.accepted[-1]}\n")
        assert rc == 0, (kind, err)
        assert "Right" in out, (kind, out)
        assert "♥" not in out and "♠" not in out  # LAUGH_ASCII honoured


def test_json_output(monkeypatch, capsys):
    rc, out, _ = run(monkeypatch, capsys, ["puzzle", "--id", ID, "--json"])
    assert rc == 0
    obj = json.loads(out)
    assert set(obj) == JSON_KEYS
    assert obj == P.from_id(ID).to_json()


def test_generated_puzzle_json_matches_its_id(monkeypatch, capsys):
    rc, out, _ = run(
        monkeypatch,
        capsys,
        ["puzzle", "legal-play", "--ruleset", "porges", "--players", "4", "--seed", "9", "--json"],
    )
    obj = json.loads(out)
    assert obj["id"] == "legal-play.porges.4.9"
    assert obj == P.from_id(obj["id"]).to_json()


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["puzzle", "nokind"], "spot-oversight"),
        (["puzzle", "count", "--ruleset", "nope"], "parlett"),
        (["puzzle", "count", "--ruleset", "parlett", "--players", "9"], "3/4/5/6"),
        (["puzzle", "--id", "count.parlett"], "KIND.RULESET.PLAYERS.SEED"),
        (["puzzle", "--id", "count.parlett.5.x"], "KIND.RULESET.PLAYERS.SEED"),
        (["puzzle", "--id", "count.parlett.5.1", "--ruleset", "porges"], "--id"),
        (["puzzle", "spot-oversight", "--ruleset", "wolffauer"], "du-coeur"),
        (["puzzle", "count", "--difficulty", "0"], "1 to 5"),
        (["puzzles", "export", "--kind", "nope", "--out", "-"], "settlement"),
        (["puzzles", "export", "--out", "-"], "--kind"),
        (["puzzles", "export", "--set", "nope", "--out", "-"], "classroom"),
    ],
)
def test_bad_input_one_line_status_2(monkeypatch, capsys, argv, needle):
    rc, out, err = run(monkeypatch, capsys, argv)
    assert rc == 2
    assert err.count("\n") == 1 and needle in err
    assert "Traceback" not in err


@pytest.mark.parametrize("kind", P.KINDS)
def test_export_round_trip(monkeypatch, capsys, tmp_path, kind):
    out_file = tmp_path / f"{kind}.jsonl"
    count = 3 if P.generators.kind_of(kind).analysed else 12  # best-move analyses positions
    rc, _, err = run(
        monkeypatch,
        capsys,
        [
            "puzzles",
            "export",
            "--kind",
            kind,
            "--count",
            str(count),
            "--seed",
            "40",
            "--out",
            str(out_file),
        ],
    )
    assert rc == 0, err
    lines = out_file.read_text(encoding="utf-8").splitlines()
    assert len(lines) == count
    ids = set()
    for line in lines:
        obj = json.loads(line)
        assert set(obj) == JSON_KEYS and obj["format"] == "laugh-and-lie-down/puzzle@1"
        assert obj["kind"] == kind
        ids.add(obj["id"])
        deal = replay(obj["record"])  # legal, and cut at the position
        assert len(deal.history) == len(obj["record"]["actions"])
        assert "result" not in obj["record"]
        assert engine_answer(obj) == obj["answer"]
        assert obj == P.from_id(obj["id"]).to_json()
    assert len(ids) == count


def test_export_with_ruleset_and_players_to_stdout(monkeypatch, capsys):
    rc, out, _ = run(
        monkeypatch,
        capsys,
        [
            "puzzles",
            "export",
            "--kind",
            "capture-now",
            "--count",
            "3",
            "--seed",
            "1",
            "--ruleset",
            "du-coeur",
            "--players",
            "4",
        ],
    )
    assert rc == 0
    objs = [json.loads(x) for x in out.splitlines()]
    assert [o["id"] for o in objs] == [f"capture-now.du-coeur.4.{s}" for s in (1, 2, 3)]


def test_export_curated_set(monkeypatch, capsys, tmp_path):
    f = tmp_path / "class.jsonl"
    rc, _, _ = run(
        monkeypatch, capsys, ["puzzles", "export", "--set", "classroom", "--out", str(f)]
    )
    assert rc == 0
    ids = [json.loads(x)["id"] for x in f.read_text(encoding="utf-8").splitlines()]
    assert ids == P.curated_set("classroom")["ids"]


def test_puzzles_list(monkeypatch, capsys):
    rc, out, _ = run(monkeypatch, capsys, ["puzzles", "list", "--json"])
    assert rc == 0
    obj = json.loads(out)
    assert [k["kind"] for k in obj["kinds"]] == list(P.KINDS)
    assert "classroom" in obj["sets"]
    rc, out, _ = run(monkeypatch, capsys, ["puzzles"])
    assert rc == 0 and "spot-oversight" in out


def test_a_refused_answer_shows_what_to_type_without_backticks_or_markup(tmp_path):
    """The one-line refusal names what to type as the questions do (no literal backticks), and
    what the learner typed is never read as rich markup."""
    from support import run_laugh

    proc = run_laugh(
        ["puzzle", "deal-setup", "--seed", "3"],
        "zz\n[/x] [b]1\nquit\n",
        tmp_path,
        extra_env={"NO_COLOR": "1"},
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    flat = " ".join(proc.stdout.split())
    assert "could not read 'zz'; give numbers (or none) in the order asked" in flat
    assert "`" not in proc.stdout
    lesson = run_laugh(["lesson", "2", "--seed", "1"], "\n" * 12 + "zz\nquit\n", tmp_path)
    refusal = next(line for line in lesson.stdout.splitlines() if "could not read 'zz'" in line)
    assert "`" not in refusal
