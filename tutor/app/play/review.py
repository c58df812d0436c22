"""What the learner's decisions in a practice deal were worth, in stakes, and why.

After each deal of ``laugh play`` the engine's analysis (:func:`tutor.engine.analysis.analyse`)
weighs every decision the learner made (:func:`tutor.engine.analysis.decision_points` for the
learner's seat only: forced moves are left out, and a claim or declaration left while the turn
went on is a decision to hold it).  Each decision is analysed from the learner's own view with a
sample budget (:data:`REVIEW_SAMPLES` determinizations, stopping early once the best option is
clearly ahead) and a seed mixed from the deal's shuffled pack, its dealer and the decision's
place in the deal (:func:`review_seed`, then ``mix_seed(seed, index, seat)`` as
:func:`tutor.engine.analysis.annotate` does), so the review of a deal is the same on every run
and every machine, and ``laugh analyse RECORD --seat S --seed SEED --samples N`` gives the very
same figures.

:func:`review_deal` returns a :class:`DealReview`: the three costliest decisions (the loss
classes of :data:`tutor.engine.analysis.LOSS_CLASSES`: a loss of at least 0.2 stakes whose 95%
interval excludes zero), each with its loss and a sentence of why, built from the counting facts
of the position as the learner saw it, all from the engine: the cards unseen
(:meth:`Deal.rank_count`, :meth:`Deal.view`), who moves before the learner's next turn
(:meth:`Deal.movers_before`) and what was at risk (:meth:`Deal.capture_options`).

:func:`hint` answers ``hint`` at the learner's prompt: the best option now and its margin over
the next best, by the same analysis within a short budget (:data:`HINT_SAMPLES`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tutor.engine.analysis import (LOSS_CLASSES, Analysis, NoDecision, analyse, classify,
                                   decision_points, mix_seed)
from tutor.engine.cards import RANK_NAMES, RANK_PLURALS, pretty_cards
from tutor.engine.deal import CAPTURE_KINDS, DECLARATIONS, Action, Deal

__all__ = ["COSTLIEST", "HINT_SAMPLES", "REVIEW_SAMPLES", "Costly", "DealReview", "hint",
           "review_deal", "review_seed", "why"]

#: Determinizations per decision in the review after a deal (the analysis stops sooner once the
#: best option is clearly ahead).  Measured on a shared two-core machine: a whole five-player
#: deal's review in 0.2-0.3 s at the median, at most about 1 s (benchmarks/bench_review.py).
REVIEW_SAMPLES = 400
#: Determinizations for a ``hint`` at the prompt (a short budget: well under a second).
HINT_SAMPLES = 200
#: How many of the costliest decisions the review lists.
COSTLIEST = 3
#: The verdicts that make a decision costly (the loss classes of the analysis).
COSTLY_VERDICTS = tuple(name for name, _ in LOSS_CLASSES)


@dataclass(frozen=True)
class Costly:
    """One costly decision of the learner: ``index`` is the history index of the action made
    next (the position is the one before it); ``played`` what the learner did (None: held a free
    action while the turn went on) and ``best`` the analysis's best option (None: hold);
    ``loss`` and ``loss_ci95`` in ``unit`` (stakes, or points under pairs scoring); ``verdict``
    a loss class (``inaccuracy``, ``mistake``, ``blunder``); ``why`` a sentence from the
    counting facts; ``analysis`` the figures of every option."""

    index: int
    played: Action | None
    best: Action | None
    loss: float
    loss_ci95: float
    verdict: str
    unit: str
    why: str
    analysis: Analysis


@dataclass(frozen=True)
class DealReview:
    """The analysis of the learner's decisions in one deal: ``decisions`` analysed, ``costly``
    the costliest (at most :data:`COSTLIEST`, costliest first), ``total_loss`` the expected loss
    over every decision (``unit``), ``samples`` the budget per decision, ``seed`` the review's
    seed (:func:`review_seed`) and ``seconds`` the time it took."""

    decisions: int
    costly: tuple[Costly, ...]
    total_loss: float
    unit: str
    samples: int
    seed: int
    seconds: float


def review_seed(deal: Deal) -> int:
    """The seed of a deal's review: mixed from its player count, its dealer and its shuffled
    pack (:func:`tutor.engine.analysis.mix_seed`), so the same deal is reviewed the same way."""
    return mix_seed(deal.n, deal.dealer, *deal.pack) & ((1 << 63) - 1)


def review_deal(deal: Deal, seat: int, names: Sequence[str], *, samples: int = REVIEW_SAMPLES,
                symbols: bool = True, progress: Callable[[int, int, int], None] | None = None,
                ) -> DealReview:
    """Analyse every decision ``seat`` made in ``deal`` (finished or not) and find the costliest.

    ``names`` names the seats (``You`` at ``seat``); ``samples`` is the budget of
    determinizations per decision (at least 1); ``progress(done, total, samples_done)`` is called
    as the work goes on (decisions done of ``total``, and samples done in the current one).
    Raises :class:`tutor.engine.errors.UsageError` for a bad budget or seat.
    """
    t0 = time.perf_counter()
    seed = review_seed(deal)
    unit = deal.ruleset.unit
    points = decision_points(deal, [seat])
    total = len(points)
    found: list[Costly] = []
    total_loss = 0.0
    if progress is not None:
        progress(0, total, 0)
    for i, (k, q, played, pos) in enumerate(points):
        tick = None if progress is None else (lambda s, i=i: progress(i, total, s))
        an = analyse(pos, q, seed=mix_seed(seed, k, q), samples=samples, progress=tick)
        mine = an.value_of(played)
        loss = max(0.0, -mine.diff) if mine.group != an.best.group else 0.0
        ci = mine.diff_ci95 if loss else 0.0
        total_loss += loss
        verdict = classify(loss, ci)
        if verdict in COSTLY_VERDICTS:
            found.append(Costly(k, played, an.best.action, loss, ci, verdict, unit,
                                why(pos, seat, played, an, names, symbols), an))
        if progress is not None:
            progress(i + 1, total, 0)
    found.sort(key=lambda c: (-c.loss, c.index))
    return DealReview(total, tuple(found[:COSTLIEST]), total_loss, unit, samples, seed,
                      time.perf_counter() - t0)


# --- why: the counting facts ---------------------------------------------------------------------

def _names_list(seats: Sequence[int], names: Sequence[str]) -> str:
    who = [names[q] for q in seats]
    if not who:
        return "nobody"
    if len(who) == 1:
        return who[0]
    return ", ".join(who[:-1]) + " and " + who[-1]


def _rank_words(rank: int, k: int) -> str:
    return f"{k} {RANK_NAMES[rank] if k == 1 else RANK_PLURALS[rank]}"


def _movers(pos: Deal, seat: int, names: Sequence[str]) -> str:
    movers, _ = pos.movers_before(seat)
    if not movers:
        return "nobody moves before your next turn"
    verb = "moves" if len(movers) == 1 else "move"
    return f"{_names_list(movers, names)} {verb} before your next turn"


def _rank_facts(pos: Deal, seat: int, rank: int, names: Sequence[str]) -> str:
    """Where the cards of ``rank`` are, as ``seat`` sees them, and (if any are unseen) who moves
    before its next turn."""
    rc = pos.rank_count(seat, rank)
    facts = (f"Of the {RANK_PLURALS[rank]}: {rc.hand} in your hand, {sum(rc.won)} won, "
             f"{rc.table} on the table, {rc.unseen} unseen")
    if rc.unseen:
        return facts + f"; {_movers(pos, seat, names)}."
    return facts + ": nobody else holds one."


def _captured(a: Action) -> int:
    return len(a.table)


def _is_capture(a: Action | None) -> bool:
    return a is not None and a.kind in CAPTURE_KINDS


def _option_words(a: Action | None, symbols: bool) -> str:
    """An option in the second person: ``capture 7♠ with 7♥``, ``hold``."""
    if a is None:
        return "holding (no claim or declaration yet)"
    k = a.kind
    cs = pretty_cards(a.cards, symbols)
    if k in CAPTURE_KINDS:
        return f"capturing {pretty_cards(a.table, symbols)} with {cs}"
    if k == "lie_down":
        return "lying down"
    if k == "end_turn":
        return "ending your turn"
    if k == "claim":
        return f"claiming {cs}"
    if k == "take_table_mournival":
        return f"taking the table mournival {cs}"
    what = {"declare_prial": "a pair of your prial", "declare_mournival": "your mournival",
            "declare_dead_pair": "your dead pair", "declare_pair": "a pair"}.get(k, "")
    return f"declaring {what} ({cs})"


def why(pos: Deal, seat: int, played: Action | None, an: Analysis, names: Sequence[str],
        symbols: bool = True) -> str:
    """A sentence on why the best option at ``pos`` beat what ``seat`` ``played``, from the
    counting facts as the seat saw them (engine queries only: :meth:`Deal.capture_options` for
    what was at risk and why, :meth:`Deal.movers_before` for who moves before the seat's next
    turn, :meth:`Deal.rank_count` for where the cards of a rank are); where none of these tells
    the options apart, the analysis's figures for both options, with the cards unseen and who
    moves before the seat's next turn."""
    best = an.best.action
    opts = {o.rank: o for o in pos.capture_options(seat)}
    facts = ""
    if _is_capture(played) and _is_capture(best) and played.rank != best.rank:
        r1, r2 = played.rank, best.rank
        c1, c2 = opts.get(r1), opts.get(r2)
        if c2 is not None and c2.at_risk and not (c1 is not None and c1.at_risk):
            facts = (f"The lone {RANK_NAMES[r2]} was at risk: {c2.unseen} unseen, and "
                     f"{_movers(pos, seat, names)}; the {RANK_PLURALS[r1]} could wait"
                     + (f" ({c1.reason})" if c1 is not None else "") + ".")
        elif c1 is not None and c2 is not None and c1.at_risk and c2.at_risk:
            facts = f"Both were at risk ({_movers(pos, seat, names)})"
            if c2.unseen > c1.unseen:
                facts += (f": {_rank_words(r2, c2.unseen)} unseen against "
                          f"{_rank_words(r1, c1.unseen)}, so the {RANK_NAMES[r2]} was the likelier "
                          "to be taken.")
            else:
                facts += (f", with {_rank_words(r2, c2.unseen)} and {_rank_words(r1, c1.unseen)} "
                          f"unseen; the {RANK_NAMES[r2]} was worth more taken first.")
        elif c1 is not None and c2 is not None and not c1.at_risk and not c2.at_risk:
            facts = (f"Neither was at risk (the {RANK_PLURALS[r1]}: {c1.reason}; the "
                     f"{RANK_PLURALS[r2]}: {c2.reason}), so the choice was which safe capture to "
                     "keep for later.")
        elif c1 is not None and c1.at_risk:
            facts = (f"The {RANK_NAMES[r1]} was at risk ({c1.reason}), yet the "
                     f"{RANK_PLURALS[r2]} were worth more taken now.")
    elif _is_capture(played) and _is_capture(best):
        rc = pos.rank_count(seat, best.rank)
        facts = (f"With {_rank_words(best.rank, rc.table)} on the table, {rc.hand} in your hand "
                 f"and {rc.unseen} unseen, the best capture takes {_captured(best)} table "
                 f"card{'s' if _captured(best) != 1 else ''} where yours took "
                 f"{_captured(played)}.")
    elif _is_capture(best) and played is not None and played.kind in ("end_turn", "lie_down"):
        c2 = opts.get(best.rank)
        if c2 is not None:
            state = "at risk" if c2.at_risk else "safe"
            facts = (f"You still could capture the {RANK_PLURALS[best.rank]} ({state}: "
                     f"{c2.reason}).")
    elif best is not None and best.kind == "end_turn" and _is_capture(played):
        c1 = opts.get(played.rank)
        if c1 is not None and not c1.at_risk:
            facts = f"The {RANK_PLURALS[played.rank]} were safe to keep for a later turn ({c1.reason})."
    elif best is not None and best.kind == "claim":
        target = pos.claim_target(seat, best.cards, kind=best.oversight)   # the engine's
        rivals = [q for q in range(pos.n) if q not in (seat, target.offender)]
        facts = (f"The claim of {pretty_cards(best.cards, symbols)} was open, and the first claim "
                 "takes the cards: " + (f"{_names_list(rivals, names)} could claim "
                                        "it too." if rivals else "nobody else could claim it."))
    elif best is not None and best.kind in DECLARATIONS:
        facts = _rank_facts(pos, seat, best.rank, names)
        if played is not None and played.kind == "lie_down":
            facts = f"You lay down holding {_option_words(best, symbols)[10:]}. " + facts
    elif played is not None and played.kind in DECLARATIONS and best is None:
        facts = _rank_facts(pos, seat, played.rank, names)
    elif best is not None and best.kind == "take_table_mournival":
        facts = "The table mournival was yours to take before play began."
    if facts:
        return facts
    mine = an.value_of(played)
    unit = pos.ruleset.unit
    unseen = sum(pos.view(seat).unseen.values())
    return (f"Played out {an.samples} times over placements of the {unseen} cards you could "
            f"not see ({_movers(pos, seat, names)}), {_option_words(best, symbols)} averaged "
            f"{an.best.mean:+.2f} {unit} for you, {_option_words(played, symbols)} "
            f"{mine.mean:+.2f}.")


# --- hint ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Hint:
    """The answer to ``hint``: ``analysis`` of the learner's options now (None when there was
    nothing to decide), and ``text``, the best option and its margin in words."""

    analysis: Analysis | None
    text: str


def hint(deal: Deal, seat: int, names: Sequence[str], *, samples: int = HINT_SAMPLES,
         symbols: bool = True) -> Hint:
    """The best option of ``seat`` now and its margin over the next best (in stakes, or points
    under pairs scoring), from the seat's own view (:func:`tutor.engine.analysis.analyse` with
    ``samples`` determinizations and a seed mixed from the deal's pack and the actions so far,
    so the same position gives the same hint)."""
    try:
        an = analyse(deal, seat, seed=mix_seed(review_seed(deal), len(deal.history), seat),
                     samples=samples)
    except NoDecision:
        return Hint(None, "Nothing to decide now.")
    unit = deal.ruleset.unit
    best = an.best
    head = f"Best: {_option_words(best.action, symbols)}, expected {best.mean:+.2f} {unit}"
    if an.forced:
        return Hint(an, head + " (every option here is the same play).")
    second = next(o for o in an.options if o.group != best.group)
    margin = -second.diff
    return Hint(an, f"{head}; {margin:.2f} ± {second.diff_ci95:.2f} {unit} better than the next "
                    f"best, {_option_words(second.action, symbols)} (by {an.samples} playouts "
                    "from what you can see).")
