"""The coached deal on a terminal at 80x24 with ``NO_COLOR=1`` (issue 24): a pseudo-terminal
drawn by pyte (tests/terminals.py), the coach's flow being the point, not the terminal.  The coach
stops before the first move (a prial on the table, the first capture, ...), pages its words so
nothing scrolls away, hands the table back with the prompt in sight; the learner types a capture
the engine calls legal, and Ctrl-C leaves cleanly."""

from __future__ import annotations

import random
import re
import time

import pytest
from terminals import COLOUR, PtyTerm

from tutor.app.coached_deal import NEXT, PAUSE, course_coach_block
from tutor.engine.deal import new_deal
from tutor.engine.sources import default_library

PROMPTS = (
    r"(more \(Enter; s skips, q stops\)>|Enter: back to the table>|Enter: the coach's next box>|"
    r"Before play \(Enter starts\)>|Your move>|watch>|"
    r"The coach asks: anything to claim\? \(name the cards, or Enter\)>)\s*$"
)


def _first_capture():
    """A capture the engine offers the learner (seat 0, eldest) at the coached deal's first
    turn, as typed: the deal is dealt as the session deals it (seed, dealer to the right)."""
    _, block = course_coach_block()
    rid, seed = next(iter(block.data["deals"].items()))
    rs = default_library().ruleset(rid, block.data["players"])
    deal = new_deal(rs, block.data["players"], block.data["players"] - 1, random.Random(seed))
    caps = [a for a in deal.legal_actions() if a.kind == "capture"]
    return caps[0].notation()


@pytest.fixture
def term(tmp_path):
    t = PtyTerm(tmp_path, width=80, height=24, args=("coach", "--pace", "0.2"))
    yield t
    t.close()


def test_the_coached_deal_at_80x24(term):
    t = term
    spoke = paused = paged = False
    boxes = 0
    for _ in range(60):
        line = t.wait(PROMPTS, timeout=30)
        screen = t.screen()
        assert all(len(row) <= 80 for row in screen.splitlines())
        if "The coach ·" in screen:
            spoke = True
        if "more (Enter" in line:  # the same prompt again after the next page
            paged = True
            t.keys("Enter")
            t.wait_until(lambda now, before=screen: now != before)
        elif line.startswith(NEXT.strip()):
            boxes += 1
            if boxes == 1:  # the screen looked at late, as on a busy machine: the next box
                t._pause = lambda: time.sleep(0.3)  # ends with this same prompt, its first
            assert t.press("Enter"), t.screen()  # lines drawn over at once (a 20 s wait)
            vars(t).pop("_pause", None)
        elif line.startswith(PAUSE.strip()):
            paused = True
            assert t.press("Enter"), t.screen()
        elif line.startswith("Before play"):
            assert t.press("Enter"), t.screen()
        elif line.startswith("Your move>"):
            break
    else:
        raise AssertionError("never reached the learner's move:\n" + t.screen())
    assert spoke and paused
    # one box at a time, each on the screen whole: no box needs the pager at 80x24
    assert boxes >= 1 and not paged
    history = " ".join(t.screen(history=400).split())
    assert "The coach · Your first capture" in history
    assert "Lesson 4, Capturing, page 1: A turn: you must capture" in history
    # the table is back, with the prompt in sight
    screen = t.screen()
    assert "Table (" in screen and "Your hand:" in screen
    assert not COLOUR.search(t.sent()), "NO_COLOR=1 but colours were sent"
    # the learner acts: a capture the engine offers
    move = _first_capture()
    assert t.press(*move.split(" ")[0], " ", *move.split(" ")[1], "Enter"), t.screen()
    t.wait(PROMPTS, timeout=30)
    history = t.screen(history=400)
    assert re.search(r"You capture", history) or "You take" in history or "You:" in history, (
        history[-1500:]
    )
    t.keys("C-c")
    assert t.rc() == 130
    after = t.screen(history=400)
    assert "Traceback" not in after
