"""What an analysis can tell a person: whether a move is best or the moves are about equal, the
principle that separates a best move, and one sample play-out of two moves.

**Ties.**  :func:`verdict` reads an :class:`~tutor.engine.analysis.Analysis`: ``forced`` (one
play), ``identical`` (every option gave the same result in every deal played out), ``best``
(the best option's intervals separate it from every other play) or ``tie`` (some other play is
not told apart from it: :meth:`Analysis.alike`).  Only ``best`` names a best move.
:func:`more_samples_could_tell` says whether a tie is a matter of too few samples.

**Principles.**  :func:`principle` finds the advice that separates a best option from another,
from the engine's counting of the position (:meth:`Deal.capture_options`,
:meth:`Deal.movers_before`, :meth:`Deal.rank_count`): Willughby's advice as Parlett and du Coeur
report it (take a lone table card you can match before someone else does; hold back where two or
three of a rank lie on the table; take all three of a table prial), and two of its
consequences (keep a capture for later; stay in to be last in).  Each :class:`Principle`
names its advice, the source's quotation, and says it with the position's cards and counts.
None when no principle tells the two apart: then a person gets the figures only.

**A sample play-out.**  :func:`sample_playout` plays two options out from one deal of the cards
a seat cannot see, with the same random numbers (the analysis's own sampling), and returns the
actions and the seat's results: the refutation a learner is shown after a wrong answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tutor.engine.analysis.core import Analysis
from tutor.engine.analysis.random_streams import Stream, mix_seed, sample_keys
from tutor.engine.analysis.sampling import Determinizer, rollout
from tutor.engine.cards import RANK_NAMES, RANK_PLURALS, cards_of, pretty_cards
from tutor.engine.deal import Action, CaptureOption, Deal
from tutor.engine.rule_bots import rule_bot

__all__ = [
    "ADVICE",
    "Playout",
    "Principle",
    "more_samples_could_tell",
    "principle",
    "principles",
    "sample_playout",
    "verdict",
]

_CAPTURES = ("capture", "play_on_capture")

#: Each principle: the advice in words (ours, after the sources) and the quotation behind it.
ADVICE = {
    "take-at-risk": (
        "take a lone table card that you can match before someone else does",
        "parlett:capture-lone-card",
    ),
    "likelier-taken": (
        "of two lone table cards at risk, take first the one more likely to go",
        "parlett:capture-lone-card",
    ),
    "all-three": ("take all three of a rank on the table", "du-coeur:take-all-three"),
    "hold-back": ("hold back where two or three of a rank lie on the table", "parlett:hold-back"),
    "keep-for-later": ("keep a capture for later", "parlett:hold-back"),
    "stay-in": ("stay in to be last in", "parlett:object-last-in"),
}


# --- ties --------------------------------------------------------------------------------------


def verdict(an: Analysis) -> str:
    """``forced``, ``identical``, ``best`` or ``tie`` (see the module docstring)."""
    if an.forced:
        return "forced"
    if an.identical():
        return "identical"
    return "best" if an.separated else "tie"


def more_samples_could_tell(an: Analysis) -> bool:
    """True for a tie whose difference intervals are still wider than the analysis's target:
    more samples could tell the options apart (or show that they are worth the same)."""
    return any(o.diff_ci95 > an.target for o in an.alike()[1:])


# --- principles ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Principle:
    """Why one option beats another: ``key`` (one of :data:`ADVICE`), ``advice`` (its words),
    ``quote`` (the quotation id behind it) and ``text``, a sentence with the position's cards
    and counts."""

    key: str
    advice: str
    quote: str
    text: str


def _p(key: str, text: str) -> Principle:
    advice, quote = ADVICE[key]
    return Principle(key, advice, quote, text)


def _is_capture(a: Action | None) -> bool:
    return a is not None and a.kind in _CAPTURES


def _movers(d: Deal, seat: int, names: Sequence[str] | None) -> str:
    movers, _ = d.movers_before(seat)
    if not movers:
        return "nobody moves before your next turn"
    if names is None:
        return (
            f"{len(movers)} player{'s' if len(movers) > 1 else ''} "
            f"move{'s' if len(movers) == 1 else ''} before your next turn"
        )
    who = [names[q] for q in movers]
    said = who[0] if len(who) == 1 else ", ".join(who[:-1]) + " and " + who[-1]
    return f"{said} move{'s' if len(who) == 1 else ''} before your next turn"


def _count(k: int, rank: int) -> str:
    return f"{k} {RANK_NAMES[rank] if k == 1 else RANK_PLURALS[rank]}"


def _hand_after(d: Deal, seat: int, a: Action) -> int:
    """Cards the seat holds after its option ``a``."""
    return d.hands[seat].bit_count() - (len(a.cards) if a.kind != "end_turn" else 0)


def principle(
    d: Deal,
    seat: int,
    best: Action,
    other: Action,
    names: Sequence[str] | None = None,
    symbols: bool = True,
) -> Principle | None:
    """The principle that makes ``best`` better than ``other`` (two turn options of ``seat``,
    the seat to move at ``d``), or None when none tells them apart.  ``names`` names the seats
    (default: a count of players)."""
    opts: dict[int, CaptureOption] = {o.rank: o for o in d.capture_options(seat)}
    cb = opts.get(best.rank) if _is_capture(best) and best.rank is not None else None
    co = opts.get(other.rank) if _is_capture(other) and other.rank is not None else None
    if cb is not None and cb.at_risk and (co is None or not co.at_risk):
        if co is not None:
            later = f"the {RANK_PLURALS[co.rank]} can wait ({co.reason})"
        elif other.kind == "end_turn":
            later = "ending your turn keeps nothing safe"
        else:
            later = "a declaration can wait: nobody can take cards from your hand"
        return _p(
            "take-at-risk",
            f"The lone {RANK_NAMES[cb.rank]} on the table ({pretty_cards(best.table, symbols)}) "
            f"is at risk: {_count(cb.unseen, cb.rank)} unseen, and "
            f"{_movers(d, seat, names)}; {later}.",
        )
    if cb is not None and co is not None and cb.at_risk and co.at_risk and cb.unseen > co.unseen:
        return _p(
            "likelier-taken",
            f"Both lone cards are at risk ({_movers(d, seat, names)}), but "
            f"{_count(cb.unseen, cb.rank)} {'is' if cb.unseen == 1 else 'are'} unseen "
            f"against {_count(co.unseen, co.rank)}: the {RANK_NAMES[cb.rank]} is the "
            "likelier to be taken first.",
        )
    if cb is not None and co is not None and cb.rank == co.rank:
        if len(best.table) == 3 and len(other.table) == 1:
            return _p(
                "all-three",
                f"Three {RANK_PLURALS[cb.rank]} lie on the table: take all three with one "
                f"card; taking one leaves two that "
                + (
                    "another player may claim (a split prial)."
                    if d.would_split_prial(other)
                    else "another player may take."
                ),
            )
        if len(best.cards) < len(other.cards) and cb.table > len(best.table):
            left = cb.hand - len(best.cards)
            return _p(
                "keep-for-later",
                f"Taking {pretty_cards(best.table, symbols)} with one {RANK_NAMES[cb.rank]} "
                f"keeps {_count(left, cb.rank)} in your hand to take the "
                f"{'other' if cb.table - len(best.table) == 1 else 'others'} on a later "
                f"turn ({_count(cb.unseen, cb.rank)} unseen), and a card more in your hand, "
                "to stay in.",
            )
    if (
        cb is not None
        and co is not None
        and not cb.at_risk
        and not co.at_risk
        and cb.table == 1
        and co.table >= 2
    ):
        return _p(
            "hold-back",
            f"The {RANK_PLURALS[co.rank]} can wait ({co.reason}); take the lone "
            f"{RANK_NAMES[cb.rank]} now and keep the {RANK_PLURALS[co.rank]} for later.",
        )
    if (
        co is not None
        and not co.at_risk
        and (best.kind == "end_turn" or best.kind.startswith("declare"))
    ):
        what = "ending your turn" if best.kind == "end_turn" else "declaring uses this turn"
        return _p(
            "keep-for-later",
            f"The {RANK_PLURALS[co.rank]} can wait ({co.reason}); {what} and keeps that "
            "capture for later.",
        )
    hb, ho = _hand_after(d, seat, best), _hand_after(d, seat, other)
    if _is_capture(best) and _is_capture(other) and hb > ho and (co is None or not co.at_risk):
        return _p(
            "stay-in",
            f"After {pretty_cards(best.cards, symbols)} takes "
            f"{pretty_cards(best.table, symbols)} you hold {hb} cards; after "
            f"{pretty_cards(other.cards, symbols)} takes {pretty_cards(other.table, symbols)}, "
            f"{ho}: more cards in hand keep you in the deal longer, to be last in.",
        )
    return None


def principles(
    d: Deal, seat: int, an: Analysis, names: Sequence[str] | None = None, symbols: bool = True
) -> list[tuple[Action, Principle]] | None:
    """For the best option of ``an`` (turn options of the seat to move), the principle against
    each other play (one option of each class), or None when some other play has none."""
    best = an.best.action
    if best is None:
        return None
    out = []
    seen = {an.best.group}
    for o in an.options:
        if o.group in seen or o.action is None:
            continue
        seen.add(o.group)
        p = principle(d, seat, best, o.action, names, symbols)
        if p is None:
            return None
        out.append((o.action, p))
    return out


# --- a sample play-out ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Playout:
    """Two options played out from one deal of the unseen cards: ``lines[k]`` the actions after
    option ``k`` (the option first), ``results[k]`` the seat's final result (in the deal's unit),
    ``hands`` the opponents' hands dealt (seat -> cards), ``sample`` the sample's index."""

    options: tuple[Action | None, Action | None]
    lines: tuple[tuple[Action, ...], tuple[Action, ...]]
    results: tuple[int, int]
    hands: dict[int, tuple[int, ...]]
    sample: int


def sample_playout(
    d: Deal, seat: int, worse: Action, better: Action, seed: int, tries: int = 64
) -> Playout:
    """One deal of the cards ``seat`` cannot see (the analysis's sampling with ``seed``) on which
    ``better`` ends ahead of ``worse`` when both are played out by counter players with the same
    random numbers: the first of ``tries`` samples where it does, else the first sample.  Only
    random deals of the unseen cards are used, never the hands as they are."""
    det = Determinizer(d, seat)
    base_seed = mix_seed(seed, seat)
    first = None
    for i in range(tries):
        keys = sample_keys(base_seed, i, d.n)
        hands = det.hands(Stream(keys[0]))
        got = []
        for a in (worse, better):
            x = d.clone()
            for q, m in hands.items():
                x.hands[q] = m
            line = [a]
            x.apply_unchecked(a)
            rollout(
                x,
                [rule_bot("counter") for _ in range(d.n)],
                [Stream(k) for k in keys[1:]],
                observer=_recorder(line),
            )
            got.append((tuple(line), x.returns()[seat]))
        out = Playout(
            (worse, better),
            (got[0][0], got[1][0]),
            (got[0][1], got[1][1]),
            {q: tuple(cards_of(m)) for q, m in hands.items()},
            i,
        )
        if first is None:
            first = out
        if got[1][1] > got[0][1]:
            return out
    if first is None:
        raise ValueError("sample_playout needs at least one try")
    return first


def _recorder(line: list[Action]) -> Callable[[Deal, Action], None]:
    """An observer of a rollout that appends each action to ``line``."""
    return lambda _d, act: line.append(act)
