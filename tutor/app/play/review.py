"""What the learner's decisions in a practice deal were worth, in stakes, and why.

After each deal of ``laugh play`` the engine's analysis (:func:`tutor.engine.analysis.analyse`)
weighs every decision the learner made (:func:`tutor.engine.analysis.decision_points` for the
learner's seat only: forced moves are left out; a claim or declaration is weighed on its timing,
"now, then the turn action you made" against "that turn action now, it later", never against a
turn action as if one excluded the other).  Each decision is analysed from the learner's own view
until every option's difference from the best is known to ±0.1 stake, or the budget
(:data:`REVIEW_SAMPLES` determinizations) is spent, with a seed mixed from the deal's shuffled
pack, its dealer and the decision's place in the deal (:func:`review_seed`, then as
:func:`tutor.engine.analysis.annotate` does), so the review of a deal is the same on every run
and every machine, and ``laugh analyse RECORD --seat S --seed SEED --samples N`` gives the very
same figures.  (Before the analysis kernel is compiled on a new machine, a time budget of
:data:`REVIEW_SECONDS` a decision bounds the review on the pure engine.)

:func:`review_deal` returns a :class:`DealReview`: the three costliest decisions (the loss
classes of :data:`tutor.engine.analysis.LOSS_CLASSES`: a loss of at least 0.2 stakes whose 95%
interval excludes zero), each with its loss and a sentence of why: the principle that separates
the better option (:func:`tutor.engine.analysis.principle`), else the counting facts of the
position as the learner saw it, all from the engine.  The better option is called best only when
the analysis separates it from every other (:attr:`Analysis.separated`).

:func:`hint` answers ``hint`` at the learner's prompt: the best move now (or which moves are about
equal), its margin over the next best, the principle behind it, and whether a declaration or
claim open to the learner is better made now or after the turn.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypedDict, TypeGuard

from tutor.engine.analysis import (
    LOSS_CLASSES,
    Analysis,
    NoDecision,
    analyse,
    analyse_point,
    compiled,
    decision_points,
    judge,
    mix_seed,
    principle,
)
from tutor.engine.analysis.explain import more_samples_could_tell, verdict
from tutor.engine.cards import RANK_NAMES, RANK_PLURALS, pretty_cards
from tutor.engine.deal import CAPTURE_KINDS, DECLARATIONS, Action, Deal
from tutor.engine.errors import UsageError
from tutor.engine.observe import observe

__all__ = [
    "COSTLIEST",
    "HINT_SAMPLES",
    "REVIEW_SAMPLES",
    "Costly",
    "DealReview",
    "hint",
    "review_deal",
    "review_seed",
    "view_seed",
    "why",
]

#: Determinizations per decision at most in the review after a deal: each decision is analysed
#: until every option's difference from the best is known to ±0.1 stake, or this budget is spent
#: (benchmarks/bench_review.py).
REVIEW_SAMPLES = 4000
#: Seconds a decision at most, when the analysis kernel is not compiled yet (pure engine).
REVIEW_SECONDS = 1.0
#: Determinizations at most for a ``hint`` at the prompt (analysed to ±0.1 stake, as the review).
HINT_SAMPLES = 6000
#: Seconds at most for each analysis of a hint on the pure engine (see :data:`REVIEW_SECONDS`).
HINT_SECONDS = 0.8
#: How many of the costliest decisions the review lists.
COSTLIEST = 3
#: The verdicts that make a decision costly (the loss classes of the analysis).
COSTLY_VERDICTS = tuple(name for name, _ in LOSS_CLASSES)


def _time_cap(seconds: float) -> float | None:
    """A time budget only where the kernel cannot run yet (so that figures are reproducible
    wherever it runs)."""
    return None if compiled() else seconds


@dataclass(frozen=True)
class Costly:
    """One costly decision of the learner: ``index`` is the history index of the action made
    next (the position is the one before it); ``played`` what the learner did (None: held a free
    action) and ``best`` the analysis's best option (None: hold); ``then`` the turn action a
    question of timing was played with (None for other decisions); ``clear`` whether ``best``
    is separated from every other option (else other options are about as good: ``alike``);
    ``loss`` and ``loss_ci95`` in ``unit`` (stakes, or points under pairs scoring); ``verdict``
    a loss class (``inaccuracy``, ``mistake``, ``blunder``); ``why`` a sentence from the
    principle or the counting facts; ``analysis`` the figures of every option."""

    index: int
    played: Action | None
    best: Action | None
    loss: float
    loss_ci95: float
    verdict: str
    unit: str
    why: str
    analysis: Analysis
    then: Action | None = None
    clear: bool = True
    alike: tuple[Action | None, ...] = ()


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
    pack (:func:`tutor.engine.analysis.mix_seed`), so the same deal is reviewed the same way.
    Raises :class:`UsageError` for a position set by hand (it has no shuffled pack)."""
    if deal.pack is None:
        raise UsageError("a position set by hand has no shuffled pack to seed its review")
    return mix_seed(deal.n, deal.dealer, *deal.pack) & ((1 << 63) - 1)


def review_deal(
    deal: Deal,
    seat: int,
    names: Sequence[str],
    *,
    samples: int = REVIEW_SAMPLES,
    symbols: bool = True,
    progress: Callable[[int, int, int], None] | None = None,
) -> DealReview:
    """Analyse every decision ``seat`` made in ``deal`` (finished or not) and find the costliest.

    ``names`` names the seats (``You`` at ``seat``); ``samples`` is the most determinizations
    per decision (at least 1; each decision stops sooner once its figures are known to ±0.1);
    ``progress(done, total, samples_done)`` is called as the work goes on (decisions done of
    ``total``, and samples done in the current one).  Raises
    :class:`tutor.engine.errors.UsageError` for a bad budget or seat, or a position set by hand.
    """
    t0 = time.perf_counter()
    seed = review_seed(deal)
    unit = deal.ruleset.unit
    points = decision_points(deal, [seat])
    total = len(points)
    found: list[Costly] = []
    total_loss = 0.0
    cap = _time_cap(REVIEW_SECONDS)
    if progress is not None:
        progress(0, total, 0)
    for i, p in enumerate(points):
        tick = None if progress is None else (lambda s, i=i: progress(i, total, s))
        an = analyse_point(p, seed=seed, samples=samples, seconds=cap, progress=tick)
        loss, ci, verdict_ = judge(an, p.played)
        total_loss += loss
        if verdict_ in COSTLY_VERDICTS:
            alike = tuple(o.action for o in an.alike()[1:])
            found.append(
                Costly(
                    p.index,
                    p.played,
                    an.best.action,
                    loss,
                    ci,
                    verdict_,
                    unit,
                    why(p.position, seat, p.played, an, names, symbols),
                    an,
                    p.then,
                    an.separated,
                    alike,
                )
            )
        if progress is not None:
            progress(i + 1, total, 0)
    found.sort(key=lambda c: (-c.loss, c.index))
    return DealReview(
        total, tuple(found[:COSTLIEST]), total_loss, unit, samples, seed, time.perf_counter() - t0
    )


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
    facts = (
        f"Of the {RANK_PLURALS[rank]}: {rc.hand} in your hand, {sum(rc.won)} won, "
        f"{rc.table} on the table, {rc.unseen} unseen"
    )
    if rc.unseen:
        return facts + f"; {_movers(pos, seat, names)}."
    return facts + ": nobody else holds one."


def _captured(a: Action) -> int:
    return len(a.table)


def _is_capture(a: Action | None) -> TypeGuard[Action]:
    return a is not None and a.kind in CAPTURE_KINDS


def _rank(a: Action) -> int:
    """The rank of the cards a capture or declaration moves (every such action has one)."""
    rank = a.rank
    if rank is None:
        raise AssertionError(f"{a.notation()} moves no cards of a rank")
    return rank


def _option_words(a: Action | None, symbols: bool) -> str:
    """An option in the second person: ``capture 7♠ with 7♥``, ``hold``."""
    if a is None:
        return "neither claiming nor declaring"
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
    return f"declaring {_declared(a, symbols)}"


def _declared(a: Action, symbols: bool) -> str:
    """A declaration's cards in the second person: ``your dead pair (9♠ 9♦)``."""
    what = {
        "declare_prial": "a pair of your prial",
        "declare_mournival": "your mournival",
        "declare_dead_pair": "your dead pair",
        "declare_pair": "a pair",
    }.get(a.kind, "")
    return f"{what} ({pretty_cards(a.cards, symbols)})"


def _turn_words(a: Action | None) -> str:
    return "the turn" if a is None else _option_words(a, True)


def why(
    pos: Deal,
    seat: int,
    played: Action | None,
    an: Analysis,
    names: Sequence[str],
    symbols: bool = True,
) -> str:
    """A sentence on why the best option at ``pos`` beat what ``seat`` ``played``: the principle
    that separates them (:func:`tutor.engine.analysis.principle`: Willughby's advice with the
    position's cards and counts), else the counting facts as the seat saw them (engine queries
    only: :meth:`Deal.capture_options`, :meth:`Deal.movers_before`, :meth:`Deal.rank_count`);
    where none of these tells the options apart, the analysis's figures for both options, with
    the cards unseen and who moves before the seat's next turn."""
    best = an.best.action
    if (
        played is not None
        and best is not None
        and pos.to_move == seat
        and an.then is None
        and played.kind != "lie_down"
    ):
        p = principle(pos, seat, best, played, names, symbols)
        if p is not None:
            return f"{p.advice[0].upper()}{p.advice[1:]}. {p.text}"
    facts = _counting_facts(pos, seat, played, an, names, symbols)
    if facts:
        return facts
    mine = an.value_of(played)
    unit = pos.ruleset.unit
    unseen = sum(observe(pos, seat).unseen.values())
    return (
        f"Played out {an.samples} times over placements of the {unseen} cards you could "
        f"not see ({_movers(pos, seat, names)}), {_option_words(best, symbols)} averaged "
        f"{an.best.mean:+.2f} {unit} for you, {_option_words(played, symbols)} "
        f"{mine.mean:+.2f}."
    )


def _counting_facts(
    pos: Deal, seat: int, played: Action | None, an: Analysis, names: Sequence[str], symbols: bool
) -> str:
    """The counting facts behind the best option against ``played`` (empty when none say)."""
    best = an.best.action
    then = an.then
    opts = {o.rank: o for o in pos.capture_options(seat)}
    facts = ""
    if _is_capture(played) and _is_capture(best):
        rc = pos.rank_count(seat, _rank(best))
        facts = (
            f"With {_rank_words(_rank(best), rc.table)} on the table, {rc.hand} in your hand "
            f"and {rc.unseen} unseen, the best capture takes {_captured(best)} table "
            f"card{'s' if _captured(best) != 1 else ''} where yours took "
            f"{_captured(played)}."
        )
    elif _is_capture(best) and played is not None and played.kind in ("end_turn", "lie_down"):
        c2 = opts.get(_rank(best))
        if c2 is not None:
            state = "at risk" if c2.at_risk else "safe"
            facts = (
                f"You still could capture the {RANK_PLURALS[_rank(best)]} ({state}: {c2.reason})."
            )
    elif best is not None and best.kind == "end_turn" and _is_capture(played):
        c1 = opts.get(_rank(played))
        if c1 is not None and not c1.at_risk:
            facts = (
                f"The {RANK_PLURALS[_rank(played)]} were safe to keep for a later turn "
                f"({c1.reason})."
            )
    elif best is not None and best.kind == "claim":
        target = pos.claim_target(seat, best.cards, kind=best.oversight)  # the engine's
        rivals = [q for q in pos.claimants(target) if q != seat]
        facts = (
            f"The claim of {pretty_cards(best.cards, symbols)} was open, and "
            f"{pos.game.claim_rule}: "
            + (
                f"{_names_list(rivals, names)} could claim it too."
                if rivals
                else "nobody else could claim it."
            )
        )
    elif best is not None and best.kind in DECLARATIONS:
        facts = _rank_facts(pos, seat, _rank(best), names)
        if played is None and then is not None and then.kind == "lie_down":
            facts = f"You lay down holding {_declared(best, symbols)}. " + facts
        elif played is not None and played.kind == "lie_down":
            facts = f"You lay down holding {_declared(best, symbols)}. " + facts
        elif then is not None:
            facts = (
                f"Declared before {_turn_words(then)}, the cards were safe; held through "
                f"it, they were not. " + facts
            )
    elif played is not None and played.kind in DECLARATIONS and best is None:
        facts = _rank_facts(pos, seat, _rank(played), names)
        if then is not None:
            facts = (
                f"Holding the declaration until after {_turn_words(then)} was worth more. " + facts
            )
    elif best is not None and best.kind == "take_table_mournival":
        facts = "The table mournival was yours to take before play began."
    return facts


# --- hint ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hint:
    """The answer to ``hint``: ``analysis`` of the learner's options now (its turn, or its free
    actions when it is not to move; None when there was nothing to decide), ``timing`` the
    analysis of its free actions' timing when it is also to move (None otherwise), and
    ``text``, the verdict in words (a line for each analysis)."""

    analysis: Analysis | None
    text: str
    timing: Analysis | None = None


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _signed(x: float, unit: str) -> str:
    return f"{x:+.2f} {unit}"


def _verdict_words(
    an: Analysis, pos: Deal, names: Sequence[str], seat: int, symbols: bool, what: str
) -> str:
    """One analysis of position ``pos`` in words: a best option only when the intervals separate
    it (with the principle behind it, if one separates it from the next best), else which
    options are about equal (``what``: ``move`` or ``choice``)."""
    unit = an.unit
    best = an.best
    v = verdict(an)
    if v == "forced":
        return (
            f"Only one {what} here (up to suits): {_option_words(best.action, symbols)}, "
            f"expected {_signed(best.mean, unit)}."
        )
    if v == "identical":
        if what == "choice":
            free = [o.action for o in an.options if o.action is not None]
            said = _join([_option_words(a, symbols) for a in free])
            return (
                f"{said[0].upper()}{said[1:]}: now or later gives the same result in every "
                f"one of {an.samples} deals played out (expected {_signed(best.mean, unit)})."
            )
        return (
            f"Every {what} here gives the same result in every one of {an.samples} deals "
            f"played out: they are worth the same (expected {_signed(best.mean, unit)})."
        )
    if v == "best":
        second = an.runner_up
        if second is None:
            raise AssertionError("a best option is separated from a runner-up")
        text = (
            f"Best: {_option_words(best.action, symbols)}, expected "
            f"{_signed(best.mean, unit)}; {-second.diff:.2f} ± {second.diff_ci95:.2f} {unit} "
            f"better than the next best, {_option_words(second.action, symbols)} (by "
            f"{an.samples} deals played out from what you can see)."
        )
        if (
            pos.to_move == seat
            and best.action is not None
            and second.action is not None
            and an.then is None
        ):
            p = principle(pos, seat, best.action, second.action, names, symbols)
            if p is not None:
                text += f" Why: {p.advice}. {p.text}"
        return text
    alike = an.alike()
    words = _join([f"{_option_words(o.action, symbols)} ({_signed(o.mean, unit)})" for o in alike])
    if all(o.diff == 0 and o.diff_ci95 == 0 for o in alike[1:]):
        return (
            f"No {what} is clearly best: {words} give the same result in every one of "
            f"{an.samples} deals played out; the others are worse."
        )
    widest = max(o.diff_ci95 for o in alike[1:])
    gap = max(0.0, max(-o.diff for o in alike[1:]))
    more = (
        ", and more deals played out could tell them apart"
        if more_samples_could_tell(an)
        else f": they are worth the same to within ±{an.target:g} {unit}"
    )
    if len(alike) == 2:
        said = (
            f"The difference, {gap:.2f} ± {widest:.2f} {unit} over {an.samples} deals "
            "played out from what you can see, is within its 95% interval"
        )
    else:
        said = (
            f"The differences, up to {gap:.2f} ± {widest:.2f} {unit} over {an.samples} "
            "deals played out from what you can see, are within their 95% intervals"
        )
    return f"No {what} is clearly best: {words} are about equal. {said}{more}."


def _timing_words(an: Analysis, symbols: bool) -> str:
    """The timing of the free actions of a seat to move, in words."""
    unit = an.unit
    then = _option_words(an.then, symbols)
    free = [o for o in an.options if o.action is not None]
    hold = an.value_of(None)
    first = max(free, key=lambda o: o.mean)
    what = _option_words(first.action, symbols)
    d = first.mean - hold.mean
    ci = (first if first.group != an.best.group else hold).diff_ci95
    v = verdict(an)
    if v in ("identical", "forced"):
        return (
            f"{what[0].upper()}{what[1:]}: now or after {then}, the same result in every "
            f"one of {an.samples} deals played out."
        )
    if not an.separated:
        return (
            f"{what[0].upper()}{what[1:]}: now or after {then}, about the same "
            f"({d:+.2f} ± {ci:.2f} {unit} for now)."
        )
    if an.best.action is None:
        return (
            f"{what[0].upper()}{what[1:]} can wait: after {then} it is {-d:.2f} ± {ci:.2f} "
            f"{unit} better than now."
        )
    return (
        f"{what[0].upper()}{what[1:]} now, before {then}: {d:.2f} ± {ci:.2f} {unit} better "
        f"than after it."
    )


def view_seed(deal: Deal, seat: int) -> int:
    """A seed drawn from what ``seat`` can see of ``deal`` alone (its
    :class:`~tutor.engine.observe.Observation`: its own hand, the table, the won piles, every
    action so far), never from a card hidden from it: two positions that look the same from
    the seat give the same seed (a 63-bit whole number)."""
    view = json.dumps(observe(deal, seat).to_json(), sort_keys=True, ensure_ascii=True)
    digest = hashlib.blake2b(view.encode("ascii"), digest_size=8).digest()
    return int.from_bytes(digest, "big") & ((1 << 63) - 1)


class _Budget(TypedDict):
    """What one analysis of a hint may spend (:func:`tutor.engine.analysis.analyse`'s
    arguments): ``samples`` (determinizations at most), ``seconds`` (a time budget, or None),
    and ``stop_when_clear`` (stop once the best option is clearly ahead)."""

    samples: int
    seconds: float | None
    stop_when_clear: bool


def hint(
    deal: Deal,
    seat: int,
    names: Sequence[str],
    *,
    samples: int = HINT_SAMPLES,
    symbols: bool = True,
    seed: int | None = None,
) -> Hint:
    """The best option of ``seat`` now, or the options about equal, in stakes (or points under
    pairs scoring), from the seat's own view (:func:`tutor.engine.analysis.analyse` to ±0.1
    stake with at most ``samples`` determinizations, and ``seed``, by default drawn from what
    the seat can see alone, :func:`view_seed`: the same position gives the same hint, and no
    hidden card changes it).  When the seat is to move and may also make a free action (a
    declaration, a claim), a second line says whether to make it now or after the best move
    (its timing, never one against the other)."""
    seed = view_seed(deal, seat) if seed is None else seed
    cap = _time_cap(HINT_SECONDS)
    budget = _Budget(samples=samples, seconds=cap, stop_when_clear=False)
    to_move = deal.to_move == seat and not deal.is_terminal()
    try:
        if to_move:
            turn = analyse(deal, seat, seed=seed, which="turn", **budget)
            lines = [_verdict_words(turn, deal, names, seat, symbols, "move")]
            timing = None
            if deal.free_actions(seat):
                timing = analyse(
                    deal,
                    seat,
                    seed=mix_seed(seed, 1),
                    which="free",
                    then=turn.best.action,
                    **budget,
                )
                lines.append(_timing_words(timing, symbols))
            return Hint(turn, "\n".join(lines), timing)
        an = analyse(deal, seat, seed=seed, which="free", **budget)
    except NoDecision:
        return Hint(None, "Nothing to decide now.")
    return Hint(an, _verdict_words(an, deal, names, seat, symbols, "choice"))
