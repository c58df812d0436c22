"""Matches: the first dealer found by the ruleset's cut, the deal passing left, running totals.

RULES.md 3.5: a match is a run of deals with the deal passing left, a multiple of the player count
so that each player deals equally often.  Parlett: "Whoever cuts the lowest card (Ace low) from
the 52-card pack deals first"; du Coeur recommends that high card deals; other sources leave the
first dealer to the players (``chosen``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tutor.engine.bots import Bot, play_out
from tutor.engine.deal import Deal, new_deal
from tutor.engine.rulesets import Ruleset


@dataclass(frozen=True)
class Cut:
    """One round of cutting for the deal: each listed seat's cut card (an int card)."""

    cards: dict[int, int]


def first_dealer(ruleset: Ruleset, players: int, rng: random.Random,
                 chosen: int | None = None) -> tuple[int, list[Cut]]:
    """Find the first dealer by the ruleset's ``first_dealer`` rule.

    ``lowest_cut``: each player cuts a card, the lowest rank (ace low) deals; ``highest_cut``: the
    highest rank (king high) deals; players tied for it cut again.  ``chosen``: the players choose
    (``chosen`` seat if given, else one drawn by ``rng``).  Returns the dealer's seat and the cuts
    made (empty for ``chosen``).  Raises ``ValueError`` for a ``chosen`` seat out of range.
    """
    rule = ruleset.first_dealer
    if rule == "chosen" or chosen is not None:
        if chosen is None:
            return rng.randrange(players), []
        if not 0 <= chosen < players:
            raise ValueError(f"the chosen dealer must be a seat from 0 to {players - 1}")
        return chosen, []
    cuts: list[Cut] = []
    seats = list(range(players))
    while True:
        cards = rng.sample(range(52), len(seats))
        cut = dict(zip(seats, cards))
        cuts.append(Cut(cut))
        ranks = {s: c >> 2 for s, c in cut.items()}
        best = min(ranks.values()) if rule == "lowest_cut" else max(ranks.values())
        tied = [s for s in seats if ranks[s] == best]
        if len(tied) == 1:
            return tied[0], cuts
        seats = tied


@dataclass
class Match:
    """A run of deals under one ruleset with the deal passing left, and the running totals.

    ``totals`` holds net stakes (stakes scoring) or points (pairs scoring) per seat; ``deals``
    the finished :class:`~tutor.engine.Deal` objects, in order.
    """

    ruleset: Ruleset
    players: int
    first: int
    totals: list[int] = field(default_factory=list)
    deals: list[Deal] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.totals:
            self.totals = [0] * self.players

    def dealer_of(self, k: int) -> int:
        """The dealer of the ``k``-th deal (0-based): the deal passes left each time."""
        return (self.first + k) % self.players

    def record_deal(self, deal: Deal) -> None:
        """Add a finished deal to the totals."""
        for seat, v in enumerate(deal.returns()):
            self.totals[seat] += v
        self.deals.append(deal)

    def play(self, deals: int, bots: list[Bot], rng: random.Random) -> "Match":
        """Play ``deals`` deals with one bot per seat; returns self."""
        for k in range(deals):
            deal = new_deal(self.ruleset, self.players, self.dealer_of(k), rng)
            play_out(deal, bots, rng)
            self.record_deal(deal)
        return self
