"""The story of a ``spot-oversight`` position's table (a part of
:mod:`tutor.puzzles.kinds.spot_oversight`): the seat's claims now, grouped, and every tempting
group of cards on the table with the reason, from the engine's record of the deal, why it is or
is not open to a claim."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TypedDict

from tutor.engine.cards import RANK_PLURALS, rank_of
from tutor.engine.deal import Action, Deal, LaidDown, Oversight
from tutor.engine.errors import RecordError
from tutor.engine.parameters import spec
from tutor.engine.records import replay
from tutor.engine.rulesets import Ruleset
from tutor.engine.values import OversightKind
from tutor.puzzles.base import player_name

__all__ = ["COUNTING", "RULESET", "TableGroup", "claim_groups", "decided_by", "table_story"]

#: What :func:`decided_by` says decides a position: a count of the won cards, the ruleset.
COUNTING, RULESET = "counting", "ruleset"


class TableGroup(TypedDict):
    """A tempting group on the table (:func:`table_story`): its ``rank`` (0-12), its
    ``cards``, the seat's ``claim`` actions on it now (engine), the ``history`` indices it rests
    on and ``why`` it is or is not open to the seat's claim (words)."""

    rank: int
    cards: list[int]
    claim: list[Action]
    history: list[int]
    why: str


def claim_groups(deal: Deal, seat: int) -> list[list[Action]]:
    """The seat's claims now (engine), grouped by oversight and rank: each group is one thing to
    claim, its actions the card choices that claim it."""
    groups: dict[tuple[str | None, int | None], list[Action]] = {}
    for a in deal.legal_actions(seat):
        if a.kind == "claim":
            groups.setdefault((a.oversight, a.rank), []).append(a)
    return list(groups.values())


def table_story(deal: Deal, seat: int, record: Mapping[str, object]) -> list[TableGroup]:
    """The tempting groups on the table and why each is or is not open to ``seat``'s claim.

    A group is the cards of one rank on the table when at least two of them came from one hand
    laid down, or all four lie there.  Each entry: ``rank``, ``cards``, ``claim`` (the seat's
    claim actions on them now, engine), ``why`` (the reason in words, from the engine's record of
    the deal: the oversight the lie-down made or not, whose mistake it is) and ``history`` (the
    indices of the actions it rests on).
    """
    rs = deal.ruleset
    out: list[TableGroup] = []
    hist = deal.history
    laid_facts = _lie_down_facts(deal, record)
    names = {q: player_name(q, seat) for q in range(deal.players)}
    claims = {g[0].rank: g for g in claim_groups(deal, seat)}
    ended = deal.phase != "play"
    open_by_rank: dict[int, list[Oversight]] = {}
    for o in deal.open_oversights():
        open_by_rank.setdefault(o.rank, []).append(o)
    for r in range(13):
        on = [c for c in deal.table_cards() if rank_of(c) == r]
        if len(on) < 2:
            continue
        laid = [
            (i, a)
            for i, a in enumerate(hist)
            if a.kind == "lie_down" and sum(1 for c in a.cards if c in on) >= 2
        ]
        if not laid and len(on) < 4:
            continue
        history = [i for i, _ in laid]
        mine = [o for o in open_by_rank.get(r, []) if seat not in deal.claimants(o)]
        if r in claims:
            why = "open to your claim"
        elif mine:
            why = (
                f"that is your own mistake ({mine[0].kind.replace('_', ' ')}), and "
                "you may not claim it; the others may"
            )
        elif laid:
            i, a = laid[-1]
            who = "you" if a.player == seat else names[a.player]
            why = _laid_down_why(laid_facts[i], r, who, ended)
        else:
            took = [i for i, a in enumerate(hist) if a.kind == "take_table_mournival"]
            if not rs.game().claimable(OversightKind.OVERLOOKED_TABLE_MOURNIVAL):
                why = (
                    "dealt to the table; under this ruleset a table mournival the "
                    "dealer leaves is not a mistake anyone may claim"
                )
            elif not deal.started:
                why = (
                    "dealt to the table; play has not begun, and the dealer may still take "
                    "them, so nothing is overlooked yet"
                )
            elif ended:
                why = f"dealt to the table and left there by the dealer; {_LAPSED}"
            else:
                why = "dealt to the table, but no claim is open on them now"
            history += took
        out.append(
            {"rank": r, "cards": on, "claim": claims.get(r, []), "history": history, "why": why}
        )
    return out


#: Why a mistake is no longer open once play has ended (RULES.md 3.4; lesson 8: the engine's
#: rule, the sources being silent).
_LAPSED = "play has ended, and every mistake still unclaimed then lapses"


def _laid_down_why(findings: tuple[LaidDown, ...], rank: int, who: str, ended: bool = False) -> str:
    """Why the cards of ``rank`` that ``who`` laid down are not open to a claim now, from the
    engine's findings when they were laid down (:meth:`~tutor.engine.deal.Deal.
    lie_down_oversights`: the oversight they made, or why none); ``ended``: play has ended."""
    found = next(f for f in findings if f.rank == rank)
    what = {2: "a pair", 3: "a prial", 4: "a mournival"}[found.held]
    if found.claimable:
        return f"{who} laid them down as {what} by mistake ({found.kind.replace('_', ' ')}), " + (
            f"but {_LAPSED}"
            if ended
            else "but the claim has lapsed: fewer of them are left on the table than it takes"
        )
    if found.why == "no_declaration":
        return (
            f"{who} laid down {'a dead pair' if found.held == 2 else what}, but no "
            "declaration under this ruleset could have taken it, so it is no mistake"
        )
    if found.why == "live_pair":
        return (
            f"{who} laid them down as {what}, but it was not a dead pair then (the other two "
            f"{RANK_PLURALS[rank]} were not both among the won cards), so it is no mistake: "
            "they are ordinary table cards now"
        )
    return (
        f"{who} laid them down as {what}; under this ruleset "
        f"{spec('oversights').words[found.kind]} is not a mistake anyone may claim, so they "
        "are ordinary table cards now"
    )


def _lie_down_facts(deal: Deal, record: Mapping[str, object]) -> dict[int, tuple[LaidDown, ...]]:
    """For each lie-down in ``deal``'s history (by index): what the engine found it would make
    of each rank its player held two or more of, just before (:meth:`~tutor.engine.deal.Deal.
    lie_down_oversights`).  One pass over the deal's actions from its record's first position."""
    facts: dict[int, tuple[LaidDown, ...]] = {}
    if not any(a.kind == "lie_down" for a in deal.history):
        return facts
    d = replay(record, upto=0)
    for i, a in enumerate(deal.history):
        if a.kind == "lie_down":
            facts[i] = d.lie_down_oversights(a.player)
        d.apply(a)
    return facts


def _claimed_ranks(deal: Deal, seat: int) -> frozenset[int | None]:
    return frozenset(g[0].rank for g in claim_groups(deal, seat))


def decided_by(
    deal: Deal, seat: int, record: Mapping[str, object], readings: Iterable[Ruleset] = ()
) -> str:
    """What decides the position for ``seat``, asked of the engine (issue 42): ``"counting"``
    (:data:`COUNTING`) where a lie-down (the last action, or one of the two before a capture
    that is the last action and left its cards open to a claim: :meth:`~tutor.engine.deal.Deal.
    laid_down_still_open`, nothing else open to the seat then), had the count of one of its pairs gone the other way
    (:meth:`~tutor.engine.deal.Deal.lie_down_oversights` with ``counted_otherwise``: the other
    two of the rank among the won cards, or not), would give the seat the other answer on it now
    (a claim where there is none, or none where there is one); ``"ruleset"`` (:data:`RULESET`)
    where the same deal, replayed from ``record`` under another reading of the rules (each of
    ``readings``: rulesets whose ``oversights``, ``declarations`` and ``captures`` are taken),
    gives the seat other claims; else ``""``: the answer is the same whatever the count and the
    reading, and the board's look and who acted may tell it.
    """
    hist = deal.history
    last = len(hist) - 1
    # the last action, or a lie-down of the two before a capture that is the last action
    looked = [
        i
        for i in range(max(0, last - 2), last + 1)
        if hist[i].kind == "lie_down" and (i == last or hist[last].kind == "capture")
    ]
    now = _claimed_ranks(deal, seat)
    if looked:
        d = replay(record, upto=looked[0])
        for i in range(looked[0], last + 1):
            a = hist[i]
            if i in looked:
                p = a.player
                as_is = d.lie_down_oversights(p)
                other = d.lie_down_oversights(p, counted_otherwise=True)
                for x, y in zip(as_is, other):
                    # who may claim it depends on who lay down alone (the engine's claimants);
                    # before a capture, the pair alone decides: nothing else open to the seat
                    if (
                        x.claimable != y.claimable
                        and deal.laid_down_still_open(i, x.rank)
                        and seat in deal.claimants(Oversight(x.kind, p, 0, 0, i))
                        and (i == last or not now - {x.rank})
                    ):
                        return COUNTING
            d.apply(a)
    rs = deal.ruleset
    seen = {(rs.oversights, rs.declarations, rs.captures)}
    for reading in readings:
        key = (reading.oversights, reading.declarations, reading.captures)
        if key in seen:
            continue
        seen.add(key)
        variant = replace(
            rs,
            oversights=reading.oversights,
            declarations=reading.declarations,
            captures=reading.captures,
        )
        try:
            d = replay(record, {rs.id: variant}, check_result=False)
        except RecordError:
            continue  # a move of this deal that reading does not allow
        if _claimed_ranks(d, seat) != now:
            return RULESET
    return ""
