"""``laugh`` on a terminal at 80x24 (and 40 columns) with ``NO_COLOR=1``.

The learner's moves are typed as keys: the home screen, a lesson page by page (with the ``more``
prompt of long pages), a hint, a mistyped card refused in place, a wrong answer, the retry at the
end, Ctrl-C.  The lesson and the tallest boards on a pseudo-terminal drawn by pyte (the flow and
what fits 80x24 are the point); 40 columns, Ctrl-C and Ctrl-D in tmux, a real terminal (skipped
where tmux is not installed).  Both from tests/terminals.py.
"""

from __future__ import annotations

import re
import shutil

import pytest
from terminals import COLOUR, PtyTerm, TmuxTerm

tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@pytest.fixture
def term_factory(tmp_path):
    """``make(kind=PtyTerm or TmuxTerm, width=, height=, args=)``: a terminal, closed after."""
    terms = []

    def make(kind=PtyTerm, **kw):
        t = kind(tmp_path, **kw)
        terms.append(t)
        return t

    yield make
    for t in terms:
        t.close()


PROMPTS = (
    r"(home>|answer>|more \(Enter; s skips, q stops\)>|\[(next|finish)/back/quit\]>|"
    r"Enter to go on>|\[yes/no\]>)\s*$"
)


def test_home_screen_lesson_and_quit_at_80x24(term_factory):
    from tutor.puzzles import from_id
    from tutor.puzzles.answers import wrong_answer

    t = term_factory(width=80, height=24)
    t.wait(r"home>")
    screen = t.screen()
    assert "Laugh and Lie Down" in screen and "0/11 lessons" in screen
    assert "Start: lesson 1, The game and its history" in screen
    assert all(len(line) <= 80 for line in screen.splitlines())
    assert not COLOUR.search(t.sent()), "NO_COLOR=1 but colours were sent"

    t.press("2", "Enter")
    answered = 0
    tried = None
    seen_more = seen_hint = seen_refusal = False
    for _ in range(200):
        line = t.wait(PROMPTS)
        if line.startswith("home>"):
            break
        if "more (Enter" in line:
            seen_more = True
            t.press("Enter")
        elif "answer>" in line:
            ids = re.findall(r"Puzzle ([a-z-]+\.[a-z0-9-]+\.\d+\.\d+)", t.screen(history=400))
            puzzle = from_id(ids[-1])
            if puzzle.has_position:  # the rules the answer rests on, in sight (issue 24)
                from tutor.puzzles.render import ruleset_line

                assert ruleset_line(puzzle) in " ".join(t.screen().split()), t.screen()
            if answered == 0 and not seen_hint:
                t.keys("hint", "Enter")
                t.wait_text("Hint 1 of")
                t.wait(PROMPTS)
                assert "Hint 1 of" in t.screen()
                seen_hint = True
                t.keys("7X", "Enter")  # mistyped: refused (the prompt stays as it was)
                t.wait_text("could not read")
                screen = t.wait_until(lambda s: s.rstrip().endswith("answer>"))
                assert "answer> 7X" in screen
                # the whole message, wrapped (never cut at the width), and a fresh empty line
                flat = " ".join(screen.split())
                assert "could not read '7X'" in flat and "for example 7H, 10♥ or qs" in flat
                assert t.last_line().rstrip() == "answer>"
                seen_refusal = True
                continue
            if answered == 2:  # the second try at the puzzle answered wrong
                assert puzzle.id == tried
                assert "One more try (or hint, show)." in t.screen()
            tried = puzzle.id
            if answered == 1:  # wrong: the nudge, and the same prompt again
                t.keys(wrong_answer(puzzle), "Enter")
                t.wait_text("One more try")
            else:
                t.press(puzzle.accepted[0], "Enter")
            answered += 1
        elif "[yes/no]>" in line:
            t.press("no", "Enter")
        else:
            t.press("Enter")
    else:
        raise AssertionError("the lesson did not end:\n" + t.screen())
    assert seen_more and seen_hint and seen_refusal and answered == 4  # 3 puzzles, a 2nd try
    screen = t.screen()
    assert "1/11 lessons" in screen and "Cards and terms" in screen
    assert not COLOUR.search(t.sent())  # nothing coloured, ever, under NO_COLOR=1
    t.keys("q", "Enter")
    assert t.rc() == 0


@tmux
def test_forty_columns(term_factory):
    t = term_factory(TmuxTerm, width=40, height=24)
    t.wait(r"home>")
    screen = t.screen()
    assert "Laugh and Lie Down" in screen
    assert all(len(line) <= 40 for line in screen.splitlines())
    t.press("1", "Enter")
    t.wait(PROMPTS)
    assert all(len(line) <= 40 for line in t.screen().splitlines())
    t.keys("C-c")  # Ctrl-C in a lesson: back to the home screen
    t.wait(r"home>")
    assert "Saved: lesson 1 at page" in " ".join(t.screen().split())
    t.keys("C-c")  # and from the home screen: leave
    assert t.rc() == 130


@tmux
def test_ctrl_c_and_end_of_input_leave_cleanly(term_factory):
    t = term_factory(TmuxTerm)
    t.wait(r"home>")
    t.keys("C-c")
    assert t.rc() == 130
    assert "Traceback" not in t.screen(history=100)
    u = term_factory(TmuxTerm)
    u.wait(r"home>")
    u.keys("C-d")
    assert u.rc() == 0
    assert "Traceback" not in u.screen(history=100)


#: The tallest boards of a sweep of every kind over every ruleset and player count (seven
#: players of Wolffauer's sheet with six listed moves, a settlement of seven, a spot-oversight
#: with its earlier actions): each fits 80x24 with its ruleset line in sight at the prompt.
TALL_BOARDS = (
    "legal-play.wolffauer.7.22",
    "settlement.wolffauer.7.5",
    "spot-oversight.inter-livery-2018.5.7",
    "end-of-play.inter-livery-2018.5.17",
)


@pytest.mark.parametrize("pid", TALL_BOARDS)
def test_the_tallest_boards_fit_80x24_with_the_ruleset_line_at_the_prompt(term_factory, pid):
    from tutor.puzzles import from_id
    from tutor.puzzles.render import ruleset_line

    p = from_id(pid)
    t = term_factory(width=80, height=24, args=("puzzle", "--id", pid))
    t.wait(r"Your answer \(hint, show, quit\):\s*$")
    screen = t.screen()
    flat = " ".join(screen.split())
    assert ruleset_line(p) in flat, screen  # the rules the answer rests on
    assert f"Puzzle {pid}" in flat and "You are Player" in flat, screen  # the whole board
    assert " ".join(p.question.replace("`", "").split())[-30:] in flat, screen
    t.keys("quit", "Enter")
    assert t.rc() == 0
