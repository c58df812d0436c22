"""The review of one person's deal at a live table: their claims won, missed, false and too
late, their own oversights, their declarations missed (for that person alone, at the end of
each deal)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from tutor.app.tables._intents import explain
from tutor.engine import race as R
from tutor.engine.cards import RANK_PLURALS, pretty_cards, rank_of
from tutor.engine.deal import Action
from tutor.engine.parameters import rule_words, value_words

__all__ = ["Notes", "review"]


@dataclass
class Notes:
    """What the review of one person's deal needs beyond the watch: declarations they lay down
    holding, the words of their false claims, and how often their time ran out."""

    laid_down: list[Action] = field(default_factory=list)
    false_claims: list[str] = field(default_factory=list)
    timed_out: int = 0


def review(table, seat: int) -> dict[str, Any]:
    """The review of ``seat``'s play in ``table``'s deal just finished, for that person alone:
    ``hits`` (oversight kind and seconds), ``misses``, ``false_claims``, ``median_hit``
    (seconds, or None) and ``items`` (each ``{"title", "text", "why"}``: a missed claim, a
    false claim, a claim too late, an oversight of theirs, a declaration missed), with
    ``stood_in`` the moves a computer player made for them while away."""
    d, w = table.deal, table.watch
    names = table.names
    items: list[dict[str, str]] = []
    hits = [(o.watched.oversight.kind, round(o.seconds, 3)) for o in w.outcomes
            if o.seat == seat and o.result == R.HIT]
    for o in w.outcomes:
        if o.seat == seat and o.result == R.TOO_LATE:
            items.append({"title": "claim too late",
                          "text": f"You claimed {pretty_cards(o.watched.oversight.cards)}: "
                                  "too late.",
                          "why": explain(o.reason, seat, names) + "."})
    for typed in table.notes[seat].false_claims:
        items.append({"title": "false claim",
                      "text": f"You claimed {typed!r}: nothing of that was claimable.",
                      "why": "A claim names an open oversight of another player; a claim "
                             "of nothing counts against you."})
    misses = 0
    for x in w.closed + list(w.open.values()):
        ov = x.oversight
        if x.missed_by(seat):
            misses += 1
            who = names[ov.offender]
            took = (f"{names[x.taken_by]} claimed it" if x.taken_by is not None else
                    "nobody claimed it before play ended" if x.how == "ended" else
                    "it stayed open until the cards were captured")
            items.append({"title": "missed claim",
                          "text": f"You did not claim {pretty_cards(ov.cards)} "
                                  f"({ov.kind.replace('_', ' ')}, {who}'s): {took}.",
                          "why": f"Claimable from action {ov.index + 1}: "
                                 f"{rule_words('oversights', ov.kind, who=who)}."})
        if ov.offender == seat:
            took = (f"{names[x.taken_by]} claimed it" if x.taken_by is not None
                    else "nobody claimed it")
            items.append({"title": "your oversight",
                          "text": f"You left {pretty_cards(ov.cards)} claimable "
                                  f"({ov.kind.replace('_', ' ')}): {took}.",
                          "why": f"{value_words('oversights', ov.kind)}: "
                                 f"{rule_words('oversights', ov.kind, who='you')}."})
    for a in table.notes[seat].laid_down:
        items.append({"title": "missed declaration",
                      "text": f"You lay down holding {_decl_words(a)}.",
                      "why": f"{_decl_words(a)[0].upper()}{_decl_words(a)[1:]} could "
                             "have been declared before you lay down."})
    if d.result is not None:        # (held at a cost only where they went to another)
        for held in d.result.held_declarations:
            if held.action.player == seat and held.cost:
                items.append({"title": "missed declaration",
                              "text": f"Play ended with {_decl_words(held.action)} in your "
                                      "hand.",
                              "why": f"Left in hand, they were leftovers: "
                                     f"{d.game.leftovers_words}."})
    times = [s for _, s in hits]
    return {"hits": hits, "misses": misses,
            "false_claims": len(table.notes[seat].false_claims),
            "median_hit": round(statistics.median(times), 3) if times else None,
            "items": items, "stood_in": table.seats[seat].stood_in,
            "timed_out": table.notes[seat].timed_out}


def _decl_words(a: Action) -> str:
    what = {"declare_prial": "a prial", "declare_mournival": "a mournival",
            "declare_dead_pair": "a dead pair", "declare_pair": "a pair"}[a.kind]
    return f"{what} of {RANK_PLURALS[rank_of(a.cards[0])]}"

