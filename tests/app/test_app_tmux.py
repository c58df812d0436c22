"""``laugh`` on a real terminal: tmux at 80x24 (and 40 columns) with ``NO_COLOR=1``.

The learner's moves are typed as keys: the home screen, a lesson page by page (with the ``more``
prompt of long pages), a hint, a mistyped card refused in place, a wrong answer, the retry at the
end, Ctrl-C.  Skipped where tmux is not installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
import uuid

import pytest
from support import ROOT

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

COLOUR = re.compile(r"\x1b\[[0-9;]*(?:3[0-7]|38;|4[0-7]|48;|9[0-7])[0-9;]*m")


class Term:
    """One tmux session running a command."""

    def __init__(self, tmp_path, width=80, height=24, args=(), env=None):
        self.name = f"laugh-{uuid.uuid4().hex[:8]}"
        self.socket = ["-L", self.name]  # a private tmux server: nobody else's sessions
        self.rc_file = tmp_path / f"rc-{self.name}"
        self.width = width
        envs = {
            "LAUGH_HOME": str(tmp_path / "home"),
            "NO_COLOR": "1",
            "PYTHONPATH": str(ROOT),
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            **(env or {}),
        }
        exports = " ".join(f"{k}={_q(v)}" for k, v in envs.items())
        # `trap : INT`: a Ctrl-C sent to the pane reaches the shell too; trapped (not ignored,
        # so the program still gets its own Ctrl-C), the shell lives on to write the exit status
        # instead of dying with the session now and then (CI: "capture-pane ... status 1")
        cmd = (
            f"trap : INT; cd {_q(str(ROOT))} && env -u COLUMNS -u LINES {exports} {_q(sys.executable)} -m tutor "
            f"{' '.join(args)}; echo $? > {_q(str(self.rc_file))}; sleep 60"
        )
        subprocess.run(
            [
                "tmux",
                *self.socket,
                "new-session",
                "-d",
                "-s",
                self.name,
                "-x",
                str(width),
                "-y",
                str(height),
                "sh",
                "-c",
                cmd,
            ],
            check=True,
        )

    def screen(self, escapes: bool = False, history: int = 0) -> str:
        args = ["tmux", *self.socket, "capture-pane", "-p", "-t", self.name]
        if escapes:
            args.append("-e")
        if history:
            args += ["-S", f"-{history}"]
        return subprocess.run(args, capture_output=True, text=True, check=True).stdout

    def last_line(self) -> str:
        lines = [line for line in self.screen().splitlines() if line.strip()]
        return lines[-1] if lines else ""

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", *self.socket, "send-keys", "-t", self.name, *keys], check=True)

    def press(self, *keys: str, timeout: float = 20) -> None:
        """Send keys, then wait until the program has reacted: the last line is neither the
        prompt we answered nor that prompt with our typing on it."""
        before = self.last_line().rstrip()
        self.keys(*keys)
        deadline = time.time() + timeout
        while time.time() < deadline:
            now = self.last_line().rstrip()
            if now != before and not now.startswith(before):
                return
            time.sleep(0.03)

    def wait(self, pattern: str, timeout: float = 20) -> str:
        deadline = time.time() + timeout
        while time.time() < deadline:
            line = self.last_line()
            if re.search(pattern, line):
                return line
            time.sleep(0.05)
        raise AssertionError(f"waited for {pattern!r}; the screen is:\n{self.screen()}")

    def rc(self, timeout: float = 20) -> int:
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.rc_file.exists() and self.rc_file.read_text().strip():
                return int(self.rc_file.read_text())
            time.sleep(0.05)
        raise AssertionError("the program did not exit:\n" + self.screen())

    def close(self) -> None:
        subprocess.run(["tmux", *self.socket, "kill-server"], capture_output=True)


def _q(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


@pytest.fixture
def term_factory(tmp_path):
    terms = []

    def make(**kw):
        t = Term(tmp_path, **kw)
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
    assert not COLOUR.search(t.screen(escapes=True)), "NO_COLOR=1 but colours were sent"

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
                deadline = time.time() + 20
                while "Hint 1 of" not in t.screen() and time.time() < deadline:
                    time.sleep(0.03)
                t.wait(PROMPTS)
                assert "Hint 1 of" in t.screen()
                seen_hint = True
                t.keys("7X", "Enter")  # mistyped: refused
                deadline = time.time() + 20  # (the prompt stays as it was)
                while "could not read" not in t.screen() and time.time() < deadline:
                    time.sleep(0.03)
                time.sleep(0.1)
                screen = t.screen()
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
                deadline = time.time() + 20
                while "One more try" not in t.screen() and time.time() < deadline:
                    time.sleep(0.03)
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
    assert not COLOUR.search(t.screen(escapes=True))
    t.keys("q", "Enter")
    assert t.rc() == 0


def test_forty_columns(term_factory):
    t = term_factory(width=40, height=24)
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


def test_ctrl_c_and_end_of_input_leave_cleanly(term_factory):
    t = term_factory()
    t.wait(r"home>")
    t.keys("C-c")
    assert t.rc() == 130
    assert "Traceback" not in t.screen(history=100)
    u = term_factory()
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
    t.wait(r"Your answer \(hint, answer, quit\):\s*$")
    screen = t.screen()
    flat = " ".join(screen.split())
    assert ruleset_line(p) in flat, screen  # the rules the answer rests on
    assert f"Puzzle {pid}" in flat and "You are Player" in flat, screen  # the whole board
    assert " ".join(p.question.replace("`", "").split())[-30:] in flat, screen
    t.keys("quit", "Enter")
    assert t.rc() == 0
