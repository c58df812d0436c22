"""Grading a learner's answer, its completion words, and a plausible wrong answer, by kind.

Each kind reads and grades its own answers (:meth:`~tutor.puzzles.base.PuzzleKind.check`), always
through the exact reader of :mod:`tutor.puzzles.reader`: an answer is read completely or not at
all, and one that cannot be read raises :class:`~tutor.puzzles.model.AnswerError` (never graded).
"""

from __future__ import annotations

from tutor.puzzles.model import Grade, Puzzle
from tutor.puzzles.reader import FILLER, read, tokens
from tutor.puzzles.registry import kind_of

__all__ = ["grade", "answer_words", "wrong_answer", "read", "tokens", "FILLER"]


def grade(p: Puzzle, text: str, attempt: int = 1) -> Grade:
    """Grade ``text`` for puzzle ``p`` at try ``attempt`` (see :meth:`Puzzle.grade`); raises
    AnswerError when it cannot be read."""
    return kind_of(p.kind).grade(p, text, attempt)


def answer_words(p: Puzzle) -> list[str]:
    """Completion vocabulary for the answer prompt."""
    return kind_of(p.kind).answer_words(p)


def wrong_answer(p: Puzzle) -> str | None:
    """A plausible wrong answer to ``p`` that reads (for tests and drills), or None if none can
    be formed."""
    return kind_of(p.kind).wrong_answer(p)
