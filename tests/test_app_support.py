"""Helpers for the tutor's tests: running ``laugh`` with piped input, and scripting a lesson's
answers from the same puzzles the lesson poses.  (Also a few checks of the helpers themselves.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ESC = "\x1b"


def run_laugh(args: list[str], stdin: str, home: Path, columns: int = 80, timeout: float = 120,
              extra_env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``python -m tutor ARGS`` with ``stdin`` piped in and ``LAUGH_HOME=home``."""
    env = dict(os.environ)
    env.update({"LAUGH_HOME": str(home), "COLUMNS": str(columns), "LINES": "24",
                "PYTHONPATH": str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
                "PYTHONIOENCODING": "utf-8"})
    env.pop("NO_COLOR", None)
    if extra_env:
        env.update(extra_env)
    return subprocess.run([sys.executable, "-m", "tutor", *args], input=stdin, text=True,
                          capture_output=True, env=env, cwd=str(ROOT), timeout=timeout,
                          encoding="utf-8")


def lesson_puzzles(lesson, seed: int):
    """Every puzzle of ``lesson`` for ``seed``, in the order the lesson poses them, with its page:
    a list of (page index, puzzle)."""
    from tutor.lessons import Block, puzzle_seed
    from tutor.puzzles import generate
    out = []
    for i, page in enumerate(lesson.pages):
        for item in page:
            if isinstance(item, Block) and item.kind == "puzzle":
                d = item.data
                for n in range(d["count"]):
                    out.append((i, generate(d["kind"], ruleset=d["ruleset"], players=d["players"],
                                            seed=puzzle_seed(seed, lesson.id, item.index, n),
                                            difficulty=d["difficulty"])))
    return out


def lesson_script(lesson, seed: int, answer=None, retry: str = "no") -> list[str]:
    """The lines that take ``lesson`` (seed ``seed``) from its first page to the end: at each page,
    the answers to its puzzles (``answer(puzzle, k)`` for the k-th puzzle; default the expected
    answer), then Enter; at the end ``retry`` if any answer was wrong."""
    answer = answer or (lambda p, k: p.accepted[0])
    by_page: dict[int, list] = {}
    for page, p in lesson_puzzles(lesson, seed):
        by_page.setdefault(page, []).append(p)
    lines: list[str] = []
    wrong = False
    k = 0
    for i in range(len(lesson.pages)):
        for p in by_page.get(i, []):
            a = answer(p, k)
            k += 1
            lines.append(a)
            if a.lower() in ("show",) or not p.grade(a).correct:
                wrong = True
        lines.append("")
    if wrong:
        lines.append(retry)
    return lines


def wrong_answer(p) -> str:
    """An answer to ``p`` that reads but is graded wrong."""
    from tutor.puzzles.answers import wrong_answer as w
    text = w(p)
    assert text is not None and not p.grade(text).correct
    return text


def test_lesson_script_answers_every_puzzle_right():
    from tutor.lessons import find_lesson, load_lesson
    lesson = load_lesson(find_lesson("capturing").path)
    lines = lesson_script(lesson, 3)
    answers = [p.accepted[0] for _, p in lesson_puzzles(lesson, 3)]
    assert [x for x in lines if x] == answers
    assert all(p.grade(p.accepted[0]).correct for _, p in lesson_puzzles(lesson, 3))
