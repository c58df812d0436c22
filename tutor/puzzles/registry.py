"""The one place the puzzle kinds are listed.

Adding a kind means: a module in :mod:`tutor.puzzles.kinds` with its
:class:`~tutor.puzzles.base.PuzzleKind` subclass, a line here, and ``puzzles/<kind>.yaml``.

:func:`taught_in` reads the teaching order from the kinds' YAML: each kind names the lesson that
first teaches its question (``lesson:``) and each theme the lesson that teaches it
(``themes:``), by lesson file name without ``.md`` (``04-capturing``), which sorts in course
order.
"""

from __future__ import annotations

from tutor.engine.errors import UsageError
from tutor.puzzles.base import PuzzleKind
from tutor.puzzles.kinds.best_move import BestMove
from tutor.puzzles.kinds.capture_now import CaptureNow
from tutor.puzzles.kinds.claim_window import ClaimWindow
from tutor.puzzles.kinds.count import Count
from tutor.puzzles.kinds.dead_pair import DeadPair
from tutor.puzzles.kinds.deal_setup import DealSetup
from tutor.puzzles.kinds.end_of_play import EndOfPlay
from tutor.puzzles.kinds.keep import Keep
from tutor.puzzles.kinds.legal_play import LegalPlay
from tutor.puzzles.kinds.reading import Reading
from tutor.puzzles.kinds.score_sheet import ScoreSheet
from tutor.puzzles.kinds.settlement import Settlement
from tutor.puzzles.kinds.source_quiz import SourceQuiz
from tutor.puzzles.kinds.spot_oversight import SpotOversight
from tutor.puzzles.kinds.timeline import Timeline
from tutor.puzzles.model import definition

#: Every kind, in the order lessons and menus list them.
REGISTRY: dict[str, PuzzleKind] = {
    k.name: k
    for k in (
        SpotOversight(),
        CaptureNow(),
        Settlement(),
        LegalPlay(),
        DeadPair(),
        Count(),
        DealSetup(),
        SourceQuiz(),
        Reading(),
        BestMove(),
        Timeline(),
        EndOfPlay(),
        ScoreSheet(),
        ClaimWindow(),
        Keep(),
    )
}

#: The puzzle kinds' names, in menu order.
KINDS: tuple[str, ...] = tuple(REGISTRY)


def kind_of(name: str) -> PuzzleKind:
    """The :class:`PuzzleKind` named ``name``; UsageError listing the kinds if there is none."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise UsageError(f"unknown puzzle kind {name!r}; choose from {', '.join(KINDS)}") from None


def themes_of(kind: str) -> dict[str, str | None]:
    """The themes of ``kind`` and the lesson that teaches each (None: no lesson does)."""
    kind_of(kind)
    return dict(definition(kind).themes)


def taught_in(kind: str, theme: str | None = None) -> str | None:
    """The lesson (file name without ``.md``, such as ``04-capturing``) that teaches a puzzle of
    ``kind`` on ``theme``: the later of the lesson that first teaches the kind's question and the
    theme's own lesson.  Without a theme: the lesson by which every theme of the kind that the
    course teaches is taught.  None for a theme that no lesson teaches (a house rule).  Raises
    UsageError for an unknown kind or theme."""
    kind_of(kind)
    defn = definition(kind)
    if theme is not None and theme not in defn.themes:
        raise UsageError(
            f"puzzles of kind {kind} have no theme {theme!r}; themes: " + ", ".join(defn.themes)
        )
    return defn.lesson_of(theme)
