"""The review of one person's deal at a live table: their claims won, missed, false and too
late, their own oversights, their declarations missed (for that person alone, at the end of
each deal).  Each slip is a :class:`tutor.app.play.mistakes.Mistake` worded where a practice
deal's are (:mod:`tutor.app.play.mistakes`): one review of a deal, offline and at a table."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from tutor.app.play.mistakes import (
    Mistake,
    false_claim_mistake,
    held_declaration,
    laid_down_holding,
    missed_claim,
    own_oversight,
    too_late,
)
from tutor.engine import race as R
from tutor.engine.deal import Action

__all__ = ["FALSE_CLAIM_WHY", "Notes", "review"]

#: Why a false claim counts, at a table: the same whatever was open (a claim is refereed
#: blind: nothing tells a person whether an oversight is open).
FALSE_CLAIM_WHY = (
    "A claim names an open oversight of another player; a claim of nothing counts against you"
)


@dataclass
class Notes:
    """What the review of one person's deal needs beyond the watch: declarations they lay down
    holding, the words of their false claims with the history index of each, and how often
    their time ran out."""

    laid_down: list[Action] = field(default_factory=list)
    false_claims: list[tuple[str, int]] = field(default_factory=list)
    timed_out: int = 0


def review(table, seat: int) -> dict[str, object]:
    """The review of ``seat``'s play in ``table``'s deal just finished, for that person alone:
    ``hits`` (oversight kind and seconds), ``misses``, ``false_claims``, ``median_hit``
    (seconds, or None) and ``items`` (each ``{"kind", "title", "index", "text", "why"}``, in the
    order of the deal: a missed claim, a false claim, a claim too late, an oversight of theirs,
    a declaration missed), with ``stood_in`` the moves a computer player made for them while
    away."""
    hits = [
        (o.watched.oversight.kind, round(o.seconds, 3))
        for o in table.watch.outcomes
        if o.seat == seat and o.result == R.HIT
    ]
    slips = sorted(_slips(table, seat), key=lambda m: m.index)
    items = [
        {"kind": m.kind, "title": m.title, "index": m.index, "text": m.text, "why": m.reason}
        for m in slips
    ]
    times = [s for _, s in hits]
    return {
        "hits": hits,
        "misses": sum(m.kind == "missed_claim" for m in slips),
        "false_claims": len(table.notes[seat].false_claims),
        "median_hit": round(statistics.median(times), 3) if times else None,
        "items": items,
        "stood_in": table.seats[seat].stood_in,
        "timed_out": table.notes[seat].timed_out,
    }


def _slips(table, seat: int) -> list[Mistake]:
    """``seat``'s slips in ``table``'s deal, each worded as a practice deal words it."""
    d, w, names, notes = table.deal, table.watch, table.names, table.notes[seat]
    out = [
        too_late(o.watched, o.reason.words(seat, names), True)
        for o in w.outcomes
        if o.seat == seat and o.result == R.TOO_LATE
    ]
    out += [
        false_claim_mistake(typed, FALSE_CLAIM_WHY, index) for typed, index in notes.false_claims
    ]
    for x in w.closed + list(w.open.values()):
        if x.missed_by(seat):
            out.append(missed_claim(x, names, True))
        if seat not in d.claimants(x.oversight):  # (the engine's: its own mistake)
            out.append(own_oversight(x, names, seat, True))
    lay = next(
        (i for i, a in enumerate(d.history) if a.kind == "lie_down" and a.player == seat),
        len(d.history) - 1,
    )
    out += [laid_down_holding(a, lay) for a in notes.laid_down]
    if d.result is not None:  # (held at a cost only where they went to another)
        out += [
            held_declaration(held.action, len(d.history) - 1, d.game.leftovers_words)
            for held in d.result.held_declarations
            if held.action.player == seat and held.cost
        ]
    return out
