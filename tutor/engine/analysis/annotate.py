"""Annotating a deal: every decision a seat made, analysed and classed by what it cost.

A decision is one of (:func:`decision_points`):

- a **turn**: the seat made a turn action where it had options that are not all the same play;
- a **free action made**: a declaration, claim or table mournival taken, against holding it.
  When the seat was to move, the question is its timing: "it now, then the turn action the seat
  made next" against "that turn action now, it later" (never one against the other);
- a **hold**: a free action open to the seat that it did not make before its own turn action
  (timed as above), or newly open to it and not made before another player's turn action.  A
  claim another player makes first is a race, not a decision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from tutor.engine.analysis.core import Analysis, analyse
from tutor.engine.analysis.options import HOLD, decision_options, option_class, option_to_json
from tutor.engine.analysis.random_streams import mix_seed
from tutor.engine.deal import Action, Deal

__all__ = [
    "LOSS_CLASSES",
    "Decision",
    "Point",
    "annotate",
    "classify",
    "decision_points",
    "is_turn_action",
    "judge",
]

#: Loss thresholds in the deal's unit (stakes, or points under pairs scoring), lowest first: a
#: chosen option that is worse than the best by at least this much, with a 95% interval on the
#: difference that excludes zero, is an inaccuracy, a mistake or a blunder.  A stake is one pair
#: of won cards: a blunder gives away at least a pair's worth, a mistake half a pair's worth
#: (a pair lost one time in two), an inaccuracy a fifth of one.
LOSS_CLASSES = (("inaccuracy", 0.2), ("mistake", 0.5), ("blunder", 1.0))

_TURN_KINDS = ("capture", "play_on_capture", "lie_down", "end_turn")


def classify(loss: float, loss_ci95: float) -> str:
    """``best``, ``good``, ``inaccuracy``, ``mistake`` or ``blunder`` for a chosen option that is
    ``loss`` (>= 0, with 95% half-width ``loss_ci95``) below the best (:data:`LOSS_CLASSES`).

    ``best``: no loss at all (the best option, or the same play up to suits); ``good``: a loss
    below the first threshold, or one whose interval reaches zero (not told apart from the
    best)."""
    if loss <= 0:
        return "best"
    verdict = "good"
    if loss - loss_ci95 > 0:
        for name, at in LOSS_CLASSES:
            if loss >= at:
                verdict = name
    return verdict


def is_turn_action(d: Deal, a: Action) -> bool:
    """True when ``a`` is a turn action at ``d`` (a capture, lying down, ending a turn, or a
    declaration where each one is a turn), False for a free action."""
    return a.kind in _TURN_KINDS or (a.kind.startswith("declare") and not d.declarations_are_free)


class Point(NamedTuple):
    """A decision of a deal: ``position`` (a copy of the deal before action ``index``), the
    deciding ``seat``, what it ``played`` (None: it held its free actions) and, for a question of
    timing, ``then``: the turn action the seat made next (see :mod:`~tutor.engine.analysis.annotate`)."""

    index: int  # type: ignore[assignment]  # a NamedTuple field may shadow tuple.index
    seat: int
    played: Action | None
    position: Deal
    then: Action | None

    @property
    def which(self) -> str:
        """``turn`` or ``free``: which options the decision compares (:func:`decision_options`)."""
        if self.played is not None and is_turn_action(self.position, self.played):
            return "turn"
        return "free"


def _free_keys(d: Deal, seat: int) -> set[tuple[str, str | None, tuple[int, ...]]]:
    return {(a.kind, a.oversight, a.cards) for a in d.free_actions(seat)}


def _next_turn_action(deal: Deal, k: int, seat: int, pos: Deal) -> Action | None:
    """The turn action ``seat`` (to move at ``pos``, before action ``k``) made next in its turn,
    if it is legal at ``pos``."""
    for b in deal.history[k + 1 :]:
        if is_turn_action(pos, b):
            if b.player == seat and pos.why_illegal(b) is None:
                return b
            return None
    return None


def decision_points(
    deal: Deal, seats: Iterable[int] | None = None, at: int | None = None
) -> list[Point]:
    """The decisions of a finished or partial deal worth analysing (:class:`Point`, in the order
    of the deal; forced turns are left out).  ``seats`` limits the seats (default all); ``at``
    keeps only the decisions at action ``at``."""
    if seats is None:
        seats = range(deal.n)
    seats = sorted(set(seats))
    d = Deal(deal.ruleset, deal.n, deal.dealer, deal.pack)
    offered: list[set[tuple[str, str | None, tuple[int, ...]]]] = [set() for _ in range(deal.n)]
    out: list[Point] = []
    for k, a in enumerate(deal.history):
        if at is None or k == at:
            turn = is_turn_action(d, a)
            for q in seats:
                free_now = _free_keys(d, q)
                new = free_now - offered[q]
                if q == a.player:
                    if not turn:
                        then = _next_turn_action(deal, k, q, d) if d.to_move == q else None
                        out.append(Point(k, q, a, d.clone(), then))
                    else:
                        opts = decision_options(d, q, "turn")
                        if len({option_class(d, o) for o in opts}) > 1:
                            out.append(Point(k, q, a, d.clone(), None))
                        if free_now:  # it held its free actions through its turn
                            out.append(Point(k, q, HOLD, d.clone(), a))
                    offered[q] |= free_now
                elif turn and new:
                    offered[q] |= new
                    out.append(Point(k, q, HOLD, d.clone(), None))
        d.apply_unchecked(a)
    return out


@dataclass(frozen=True)
class Decision:
    """One decision of a seat in a deal, annotated.

    ``index`` is the index in the record's actions of the action made next (the position is the
    one before it); ``seat`` the deciding player; ``played`` what it did (an action, or None
    when it held a free action while the turn went on); ``analysis`` its options' figures (with
    ``analysis.then`` for a question of timing); ``loss`` the played option's expected loss
    against the best, with ``loss_ci95``, in the deal's unit; ``verdict`` from :func:`classify`.
    """

    index: int
    seat: int
    played: Action | None
    analysis: Analysis
    loss: float
    loss_ci95: float
    verdict: str

    def to_json(self) -> dict[str, Any]:
        """A machine-readable summary."""
        an = self.analysis
        out = {
            "index": self.index,
            "seat": self.seat,
            "played": option_to_json(self.played),
            "best": option_to_json(an.best.action),
            "separated": an.separated,
            "loss": round(self.loss, 4),
            "loss_ci95": round(self.loss_ci95, 4),
            "verdict": self.verdict,
            "samples": an.samples,
            "stopped": an.stopped,
            "options": [o.to_json() for o in an.options],
        }
        if an.then is not None:
            out["then"] = option_to_json(an.then)
        return out


def judge(an: Analysis, played: Action | None) -> tuple[float, float, str]:
    """The loss of ``played`` against the best of ``an``, its 95% half-width, and its class."""
    mine = an.value_of(played)
    loss = max(0.0, -mine.diff) if mine.group != an.best.group else 0.0
    ci = mine.diff_ci95 if loss else 0.0
    return loss, ci, classify(loss, ci)


def analyse_point(
    p: Point,
    *,
    policy: str = "counter",
    seed: int = 0,
    samples: int = 4000,
    target: float = 0.1,
    seconds: float | None = None,
    stop_when_clear: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Analysis:
    """The analysis of decision ``p`` (:func:`analyse` with the seed mixed from ``seed``, its
    index and seat, and for a question of timing a 1): every option's difference from the best
    known to ``target``, or ``samples`` (or ``seconds``) spent; ``stop_when_clear`` stops sooner,
    once the best option is clearly ahead (its loss figures are then rougher)."""
    extra = (1,) if p.then is not None else ()
    return analyse(
        p.position,
        p.seat,
        policy=policy,
        seed=mix_seed(seed, p.index, p.seat, *extra),
        samples=samples,
        seconds=seconds,
        target=target,
        which=p.which,
        then=p.then,
        stop_when_clear=stop_when_clear,
        progress=progress,
    )


def annotate(
    deal: Deal,
    seats: Iterable[int] | None = None,
    at: int | None = None,
    *,
    policy: str = "counter",
    seed: int = 0,
    samples: int = 4000,
    target: float = 0.1,
    stop_when_clear: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> list[Decision]:
    """Analyse every decision of ``deal`` (:func:`decision_points`) and class each played option
    by its loss (:func:`classify`).

    ``policy``, ``seed``, ``samples``, ``target`` and ``stop_when_clear`` go to
    :func:`analyse_point` (each decision analysed until its differences are known to
    ``target``, or the budget is spent); the seed of each decision is mixed from ``seed``, its
    index and seat.  ``progress(done, total)`` is called after each decision.  Returns the
    decisions in the order of the deal.
    """
    points = decision_points(deal, seats, at)
    out = []
    if progress is not None:
        progress(0, len(points))
    for i, p in enumerate(points):
        an = analyse_point(
            p,
            policy=policy,
            seed=seed,
            samples=samples,
            target=target,
            stop_when_clear=stop_when_clear,
        )
        out.append(Decision(p.index, p.seat, p.played, an, *judge(an, p.played)))
        if progress is not None:
            progress(i + 1, len(points))
    return out
