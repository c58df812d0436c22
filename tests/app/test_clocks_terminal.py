"""Visible clocks (issue 14 items 1 and 2), on a terminal: a pseudo-terminal drawn by pyte at 80
columns without colour, and tmux, a real terminal, at 40 columns in colour (tests/terminals.py).  Every timed prompt (streak, storm, the timed count drill, the settle
drill, the watch in play) shows a live countdown: two captures of the screen a second apart,
with no key pressed, show different remaining times, and it is redrawn several times a second.
In play the watch is open after every action whether or not anything is claimable (issue 19):
the learner claims with the space bar at any moment, names the cards, and is told who was first
and by how much, the naming counted in the time; a claim of nothing is a false claim.  The tmux
cases are skipped where tmux is not installed."""

from __future__ import annotations

import re
import shutil
import time

import pytest
from terminals import COLOUR, PtyTerm, TmuxTerm

#: The two terminals of the width and colour cases: 80 columns without colour on a
#: pseudo-terminal, 40 in colour in tmux.
WIDTHS = [
    pytest.param(80, False, PtyTerm, id="80-False"),
    pytest.param(
        40,
        True,
        TmuxTerm,
        id="40-True",
        marks=pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    ),
]

LEFT = re.compile(r"(?:(\d+):)?(\d+\.\d)(?: s)? left")


def remaining(screen: str, label: str) -> float | None:
    """The seconds left shown by the countdown line holding ``label`` (None: no countdown)."""
    for line in reversed(screen.splitlines()):
        if label in line:
            m = LEFT.search(line)
            if m:
                return int(m.group(1) or 0) * 60 + float(m.group(2))
    return None


def wait_for(term, text: str, timeout: float = 30) -> str:
    """The screen once ``text`` is on it (also wrapped, at 40 columns)."""
    return term.wait_text(text, timeout)


def assert_counts_down(term, label: str, rate: bool = False) -> tuple[str, str]:
    """Two captures a second apart, no key pressed: the time left went down by about a second;
    with ``rate``, five captures a quarter of a second apart (the two, and three between them)
    show (nearly) five different times.  The countdown is waited for first: the prompt's line can show a moment before its
    clock is drawn on a busy machine."""
    try:
        first = term.wait_until(lambda screen: remaining(screen, label) is not None, 10)
    except AssertionError:
        first = term.screen()
    a = remaining(first, label)
    start = time.monotonic()
    seen = [a]
    for k in range(1, 4) if rate else ():  # the three captures between, a quarter second apart
        time.sleep(max(0.0, start + 0.25 * k - time.monotonic()))
        seen.append(remaining(term.screen(), label))
    time.sleep(max(0.0, start + 1.0 - time.monotonic()))
    second = term.screen()
    b = remaining(second, label)
    assert a is not None and b is not None, first
    assert 0.5 <= a - b <= 1.8, (a, b)
    if rate:
        seen.append(b)
        assert len(seen) == 5 and len(set(seen)) >= 4, seen  # redrawn at least four times a second
    assert all(len(line) <= term.width for line in second.splitlines())
    return first, second


@pytest.fixture
def term(tmp_path):
    made = []

    def make(args, width=80, colour=False, kind=PtyTerm):
        env = {"NO_COLOR": ""} if colour else {}
        t = kind(tmp_path, width=width, height=30, args=args, env=env)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


@pytest.mark.parametrize("width,colour,kind", WIDTHS)
def test_streak_shows_a_live_countdown(term, width, colour, kind):
    t = term(["drill", "oversights", "--seed", "2"], width=width, colour=colour, kind=kind)
    wait_for(t, "claim or pass>")
    wait_for(t, "Streak 0")
    assert_counts_down(t, "Streak 0", rate=True)
    escapes = t.screen(escapes=True)
    assert bool(COLOUR.search(escapes)) == colour  # NO_COLOR=1: no colour at all
    if kind is PtyTerm:  # nor ever sent
        assert bool(COLOUR.search(t.sent())) == colour
    t.keys("quit", "Enter")
    assert t.rc() == 0


def test_storm_shows_the_storms_clock(term):
    t = term(["drill", "oversights", "--mode", "storm", "--seed", "2"])
    wait_for(t, "Storm · score 0")
    first, _ = assert_counts_down(t, "Storm · score 0")
    assert re.search(r"Storm · score 0 · 2:5\d\.\d left [█]+", first), first
    t.keys("quit", "Enter")
    assert t.rc() == 0


def test_the_timed_count_drill_shows_a_countdown_and_the_set(term):
    t = term(["drill", "count", "--seed", "3", "--speed", "50"], width=40)
    wait_for(t, "Enter to start>")
    t.keys("Enter")
    wait_for(t, "count>")
    first, _ = assert_counts_down(t, "Round 1 ·")
    assert "1 of 5" in first
    t.keys("quit", "Enter")
    assert t.rc() == 0


def test_the_settle_drill_has_a_clock(term):
    t = term(["drill", "settle", "--seed", "3"])
    wait_for(t, "settle>")
    screen = wait_for(t, "Settle ·")
    assert "1 of 10" in screen
    assert_counts_down(t, "Settle")
    t.keys("quit", "Enter")
    assert t.rc() == 0


WATCH = re.compile(r"space claims · \d+\.\d s left")


def wait_watch(term, timeout: float = 30) -> str:
    """The screen once the watch prompt is drawn with its countdown."""
    return term.wait_until(lambda screen: "watch>" in screen and WATCH.search(screen), timeout)


def pass_the_watch(term, name: str) -> None:
    """At the watch before ``name``'s move (its countdown drawn), Enter: a pass, which lets the
    moment go by at once instead of after the deal's pace."""
    label = re.compile(rf"\b{name}\b.*space claims · \d+\.\d s left")
    term.wait_until(lambda screen: "watch>" in screen and label.search(screen))
    term.keys("Enter")


@pytest.mark.parametrize("width,colour,kind", WIDTHS)
def test_the_watch_in_play_claims_at_any_moment_and_times_the_naming(term, width, colour, kind):
    # seed 72 at beginner level: nothing is claimable before Anne's first move; Mary splits the
    # table prial of sixes before the learner's first turn, and no beginner claims within 2 s
    t = term(
        ["play", "--seed", "72", "--level", "beginner", "--no-save", "--pace", "1.5"],
        width=width,
        colour=colour,
        kind=kind,
    )
    wait_for(t, "Before play (Enter starts)>")
    t.keys("Enter")
    wait_watch(t)  # the deal's pace, nothing claimable
    t.keys("Space")  # a claim is possible: and it is false
    wait_for(t, "claim: which cards?>")
    t.keys("9c 9h", "Enter")
    wait_for(t, "A false claim: nothing of that is claimable")
    for name in ("Anne", "Ralph", "Mary"):  # Enter lets each moment go (the deal's own pass)
        pass_the_watch(t, name)
    wait_for(t, "Mary captures 6", timeout=30)
    screen = wait_watch(t)  # the same kind of screen
    assert "claim window" not in screen.lower()
    t.keys("Space")
    wait_for(t, "claim: which cards?>")
    time.sleep(0.6)  # naming takes time, and it counts
    t.keys("6h 6s", "Enter")
    screen = wait_for(t, "You claimed first, in")
    flat = " ".join(screen.split())
    m = re.search(
        r"You claimed first, in (\d+\.\d\d) s.*timed from the moment it could be "
        r"claimed until you pressed Enter",
        flat,
    )
    assert m and float(m.group(1)) >= 0.6, flat
    assert all(len(line) <= width for line in screen.splitlines())
    assert bool(COLOUR.search(t.screen(escapes=True))) == colour
    if kind is PtyTerm:
        assert bool(COLOUR.search(t.sent())) == colour
    t.keys("C-c")
    assert t.rc() == 130


def test_ctrl_d_at_your_move_saves_and_says_so(term, tmp_path):
    t = term(["play", "--seed", "3", "--pace", "0"])  # the computer players move at once
    wait_for(t, "Before play (Enter starts)>")
    t.keys("Enter")
    wait_for(t, "Your move>", timeout=60)
    t.keys("C-d")
    assert t.rc() == 0
    screen = t.screen(history=200)
    assert re.search(r"Saved deal 1 so far \(\d+ actions?\) to\s", screen), screen
    assert "Traceback" not in screen
