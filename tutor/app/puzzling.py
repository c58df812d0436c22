"""Posing one puzzle on a screen of the program (a lesson, the track, the home screen's practice
sets): the learner loop of :mod:`tutor.teaching.loop` with the screen's context.

Everything about a puzzle comes from :mod:`tutor.puzzles`, and the dialogue (the answer prompt,
hints, ``show``, a second try after a nudge, recording, the explanation, the words that leave)
from :func:`tutor.teaching.loop.ask`, as for ``laugh puzzle`` and every drill.  The stars shown
are the puzzle's own difficulty, so an id always shows the same stars (and a lesson's puzzles
never more than its place allows); after a rated answer (a first try) the learner's rating and
the band's are shown as they moved.
"""

from __future__ import annotations

from tutor import puzzles
from tutor.teaching.loop import Outcome, PuzzleQuestion, ask

__all__ = ["Outcome", "Quit", "generate", "pose"]


class Quit(Exception):
    """The learner asked to leave (a quit word); progress so far is saved."""


def generate(
    kind: str,
    ruleset: str | None = None,
    players: int | None = None,
    seed: int | None = None,
    difficulty: int | None = None,
):
    """A puzzle from :func:`tutor.puzzles.generate` (the same one for the same arguments)."""
    return puzzles.generate(
        kind, ruleset=ruleset, players=players, seed=seed, difficulty=difficulty
    )


def pose(
    ctx,
    puzzle,
    *,
    heading: str | None = None,
    lesson: str | None = None,
    slot: str | None = None,
    retry: bool = False,
    taught: str | None = None,
) -> Outcome:
    """Pose ``puzzle`` to the learner in ``ctx`` (:class:`tutor.app.context.Context`) until it is
    over, under ``heading``: :func:`tutor.teaching.loop.ask` with the progress store, the lesson
    and slot the answer counts for (``retry``: a fresh puzzle after a miss, every try a retry),
    and a pause to read the explanation on a terminal.  The :class:`Outcome`: its ``left`` is
    set when the learner typed a quit word (before answering, or at the pause); its
    ``answered`` says whether the puzzle's answer was recorded first.  ``EOFError`` and
    ``KeyboardInterrupt`` pass through (a graded try is recorded and, at the end of input,
    explained).  ``taught``: where the point is taught, as this screen says it (None: the
    course's lesson, :func:`tutor.puzzles.render.taught_line`)."""
    return ask(
        ctx.io,
        PuzzleQuestion(puzzle, heading, taught=taught),
        store=ctx.store,
        lesson=lesson,
        slot=slot,
        retry=retry,
        pause=True,
    )
