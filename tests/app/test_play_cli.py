"""``laugh play`` as a learner runs it: piped lines through a real process, the terminal prompt
with a time limit, and the screen in tmux at 80x24 and at 40 columns."""

from __future__ import annotations

import io as io_
import json
import os
import re
import shutil
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from support import laugh_process
from test_play import run_match

from tutor.app.clock import TerminalClock
from tutor.app.learner_io import TerminalIO
from tutor.app.play import LEVELS


def laugh(args, home, stdin="", timeout=60):
    env = dict(os.environ, LAUGH_HOME=str(home), PYTHONIOENCODING="utf-8")
    return laugh_process(list(args), stdin, env, cwd=Path.cwd(), timeout=timeout)


def test_piped_laugh_play_reaches_settlement(tmp_path, rulesets):
    # The learner's answers, worked out by the engine in-process with the same seed (piped
    # input has no real time, so the same lines give the same game), then piped to laugh play.
    rs = rulesets["porges"]
    res, out, learner = run_match(rs, 5, LEVELS["beginner"], seed=1, deals=2)
    assert all(d.is_terminal() for d in res.deals)
    assert any(r.winner == 0 for p in res.players for r in p.races)  # a claim won, piped
    export = tmp_path / "match.jsonl"
    proc = laugh(
        [
            "play",
            "--ruleset",
            "porges",
            "--players",
            "5",
            "--deals",
            "2",
            "--level",
            "beginner",
            "--seed",
            "1",
            "--export",
            str(export),
        ],
        tmp_path,
        "\n".join(learner.answers) + "\n",
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = proc.stdout
    assert text.count("Settlement") == 2 and text.count("Review of your play") == 2
    assert text.count("Your costliest decisions (the engine's analysis of your") == 2
    assert "You claimed first (piped input: no real time" in text
    assert "Match totals after 2 deals" in text
    recs = [json.loads(x) for x in export.read_text().splitlines()]
    assert len(recs) == 2 and all("result" in r for r in recs)
    saved = list((tmp_path / "records").glob("play-*.jsonl"))
    assert len(saved) == 1 and len(saved[0].read_text().splitlines()) == 2
    check = laugh(["records", "check", str(export)], tmp_path)
    assert check.returncode == 0 and "2 good, 0 bad" in check.stdout
    db = sqlite3.connect(tmp_path / "progress.sqlite3")
    kinds = {k for (k,) in db.execute("SELECT kind FROM answers")}
    assert "spot-oversight" in kinds


def test_piped_input_running_out_saves_the_deal_so_far(tmp_path):
    proc = laugh(["play", "--seed", "2"], tmp_path, "\n")
    assert proc.returncode == 0  # end of input: save and leave as a finished session
    assert "Traceback" not in proc.stderr
    saved = list((tmp_path / "records").glob("play-*.jsonl"))
    rec = json.loads(saved[0].read_text().splitlines()[0])
    assert "result" not in rec and rec["ruleset"] == "parlett"
    # one line says what was saved (Ctrl-D at a terminal is the same end of input)
    line = next(x for x in proc.stdout.splitlines() if x.startswith("Saved deal 1 so far"))
    assert str(saved[0]) in " ".join(proc.stdout.split()) and "action" in line


def test_the_expert_level_through_the_real_program(tmp_path, rulesets):
    # the learner's lines worked out in-process against the same expert players (a sample
    # budget, so the same seed gives the same game), then piped; the review counts
    rs = rulesets["parlett"]
    res, _, learner = run_match(rs, 3, LEVELS["expert"], seed=2, review_samples=0)
    assert res.deals[0].is_terminal()
    proc = laugh(
        ["play", "--players", "3", "--level", "expert", "--seed", "2", "--no-save"],
        tmp_path,
        "\n".join(learner.answers) + "\n",
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = " ".join(proc.stdout.split())
    assert "against experts: every move weighed by playing it out" in text
    assert "Settlement" in text and "Your costliest decisions (the engine's analysis" in text
    nets = re.findall(r"^(You|Anne|Ralph)\b.* ([+-]\d+)\s*$", proc.stdout, re.M)
    assert [int(v) for _, v in nets] == list(res.deals[0].returns())  # the very same game


def test_the_review_budget_is_checked_and_its_help_is_the_programs(tmp_path):
    from tutor.app.play.review import REVIEW_SAMPLES
    from tutor.app.sessions import REVIEW_SAMPLES_HELP

    assert REVIEW_SAMPLES_HELP == REVIEW_SAMPLES
    proc = laugh(["play", "--review-samples", "many"], tmp_path)
    assert proc.returncode == 2 and "'many' is not a whole number" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_bad_choices_are_one_line(tmp_path):
    for args, needle in (
        (["play", "--level", "grandmaster"], "levels: beginner, casual"),
        (["play", "--seat", "7"], "--seat must be from 0 to 4"),
        (["play", "--players", "9"], "choose from"),
        (
            ["play", "-r", "inter-livery-2018", "-k", "11"],
            "2 rounds of 5 games (10 deals): play at most 10 deals",
        ),
    ):
        proc = laugh(args, tmp_path)
        assert proc.returncode == 2 and needle in proc.stderr
        assert "Traceback" not in proc.stderr


# -- the terminal prompt with a time limit --------------------------------------------------------


def test_timed_prompt_times_out_answers_and_claims_with_the_space_bar():
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from rich.console import Console

    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        clock = TerminalClock()
        io = TerminalIO(Console(file=io_.StringIO()), clock, True)
        t0 = time.monotonic()
        assert io.read("> ", 0.2) is None
        assert time.monotonic() - t0 >= 0.19
        inp.send_text("claim 7h 7s\r")
        before = clock.now()
        reply = io.read("> ", 5.0)
        assert (reply.text, reply.key) == ("claim 7h 7s", None)
        assert before <= reply.at <= clock.now()  # timed by the injected clock
        inp.send_text(" ")
        reply = io.read("> ", 5.0, erase=True, keys={" ": "claim"})
        assert (reply.text, reply.key) == ("claim", " ") and reply.at <= clock.now()
        inp.send_text(" 7h\r")  # elsewhere the space bar is a space
        assert io.read("> ", 5.0).text == "7h"
        # an event fires above the prompt; one that returns True closes it
        fired = []
        inp.send_text("7")
        assert (
            io.read(
                "> ",
                5.0,
                events=[
                    (clock.now() + 0.1, lambda: fired.append(1)),
                    (clock.now() + 0.2, lambda: True),
                ],
                label="Claim window",
                deadline=clock.now() + 3,
            )
            is None
        )
        assert fired == [1]
        # a half-typed line keeps a pace window open until Enter
        inp.send_text("7h")
        threading.Timer(0.5, lambda: inp.send_text("\r")).start()
        assert io.read("> ", 0.1, extend_while_typing=True).text == "7h"


# -- on a terminal ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "width,kind",
    [
        pytest.param(80, "pty", id="80"),
        pytest.param(
            40,
            "tmux",
            id="40",
            marks=pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
        ),
    ],
)
def test_a_terminal_shows_the_table(tmp_path, width, kind):
    """The table before play, 80x24 on a pseudo-terminal drawn by pyte, 40x24 in tmux, a real
    terminal (tests/terminals.py): every seat's row, the table, the hand, the pot, within the
    width."""
    from terminals import PtyTerm, TmuxTerm

    t = (PtyTerm if kind == "pty" else TmuxTerm)(
        tmp_path, width, 24, args=["play", "--seed", "3", "--no-save"], env={"NO_COLOR": ""}
    )
    try:
        try:
            screen = t.wait_text("Before play", timeout=30)
        except AssertionError:
            screen = t.screen()
    finally:
        t.close()
    lines = screen.splitlines()
    assert "Before play (Enter starts)>" in screen, screen
    assert all(len(x) <= width for x in lines)
    for name in ("You", "Anne", "Ralph", "Mary", "Tom"):
        assert any(x.lstrip("▶ ").startswith(name) and "hand 8" in x for x in lines), screen
    assert "Table (12):" in screen and "Your hand:" in screen
    assert "♥" in screen or "H" in screen
    assert "Pot 11" in screen


@pytest.mark.parametrize("argv", [["drill", "settle", "--seed", "3", "--rounds", "1"]])
def test_a_drill_ends_with_what_next(tmp_path, argv):
    """Issue 45, finding 4: ``drill count`` and ``drill settle`` ended at the shell prompt with
    no word of what next (every drill ends through ``sessions.run_drill``)."""
    from support import run_laugh

    proc = run_laugh(argv, "0\n" * 40, tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    flat = " ".join(proc.stdout.split())
    assert flat.endswith(
        f"Next: laugh drill {argv[1]} for another set, or laugh for the home "
        "screen (what is due today, the next lesson, the drills)."
    ), flat[-300:]
