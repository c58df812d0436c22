"""The story of a ``spot-oversight`` position's table (a part of
:mod:`tutor.puzzles.kinds.spot_oversight`): the seat's claims now, grouped, and every tempting
group of cards on the table with the reason, from the engine's record of the deal, why it is or
is not open to a claim."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TypedDict

from tutor.engine.cards import rank_of
from tutor.engine.deal import Action, Deal, LaidDown, Oversight
from tutor.engine.errors import RecordError
from tutor.engine.records import replay
from tutor.engine.rulesets import Ruleset
from tutor.engine.seats import seat_names

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
    out: list[TableGroup] = []
    hist = deal.history
    laid_facts = _lie_down_facts(deal, record)
    names = seat_names(deal.players)
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
        refused = [
            why
            for why in (deal.why_not_claimant(o, seat) for o in open_by_rank.get(r, []))
            if why is not None
        ]
        opened = deal.claim_open(seat, r) if r in claims else None
        if opened is not None:
            why = opened.words(seat, names)
        elif refused:
            why = refused[0].words(seat, names)
        elif laid:
            i, a = laid[-1]
            found = next(f for f in laid_facts[i] if f.rank == r)
            why = found.why_closed(a.player, ended).words(seat, names)
        else:
            history += [i for i, a in enumerate(hist) if a.kind == "take_table_mournival"]
            why = deal.table_mournival_closed().words(seat, names)
        out.append(
            {"rank": r, "cards": on, "claim": claims.get(r, []), "history": history, "why": why}
        )
    return out


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
