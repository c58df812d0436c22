"""Grading a learner's answer, its completion words, and a plausible wrong answer, by kind.

Each kind reads and grades its own answers (:meth:`~tutor.puzzles.base.PuzzleKind.check`), always
through the exact reader of :mod:`tutor.puzzles.reader`: an answer is read completely or not at
all, and one that cannot be read raises :class:`~tutor.puzzles.model.AnswerError` (never graded).
"""

from __future__ import annotations

from collections.abc import Hashable

from tutor.puzzles.model import AnswerError, Grade, Puzzle
from tutor.puzzles.reader import FILLER, listening, read, tokens
from tutor.puzzles.registry import kind_of

__all__ = ["grade", "answer_words", "meaning", "wrong_answer", "read", "tokens", "FILLER"]


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


def meaning(p: Puzzle, text: str) -> Hashable | None:
    """What ``text`` says as an answer to ``p``, as the puzzle's own grader reads it: a key
    equal for two answers read alike and graded alike (``b`` and ``B``; ``7h, 7s`` and
    ``7H 7S``), so that answers can be counted by what they mean.  None when ``text`` cannot
    be read (an answer never graded).  The key holds the readings the grader made
    (:func:`tutor.puzzles.reader.listening`) and its verdict (right or not, its words, its
    credit); a kind that noted no reading keeps each typed answer apart (spaces aside): two
    answers are one only where the reader says so."""
    with listening() as notes:
        try:
            g = grade(p, text)
        except AnswerError:
            return None
    if not notes:
        return ("typed", " ".join(text.split()))
    return ("read", tuple(notes), g.correct, g.message, g.credit)
