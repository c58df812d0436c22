"""Matches: the first dealer found by the ruleset's cut, the deal passing left, running totals,
the ruleset's match format (rounds, practice games), and a match record that saves and resumes.

RULES.md 3.5: a match is a run of deals with the deal passing left, a multiple of the player count
so that each player deals equally often.  A ruleset's ``match_format`` parameter lays out a
tournament sheet instead (``inter-livery-2018``: two rounds of five games, the first a practice
game that is not scored).  Parlett: "Whoever cuts the lowest card (Ace low) from the 52-card pack
deals first"; du Coeur recommends that high card deals; other sources leave the first dealer to
the players (``chosen``).

Every random source of a match comes from its seed, one stream per use (the cut, each deal's
shuffle), so a match saved after any deal and resumed plays on exactly as if it had never
stopped.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from tutor.engine.bots import Bot, play_out
from tutor.engine.deal import Deal, new_deal
from tutor.engine.errors import RecordError, UsageError
from tutor.engine.records import replay, to_record
from tutor.engine.rulesets import Ruleset

__all__ = ["Cut", "Game", "Match", "MATCH_FORMAT", "first_dealer", "plan_games"]

#: The format name of a saved match.
MATCH_FORMAT = "laugh-and-lie-down/match@1"


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
    made (empty for ``chosen``).  Raises :class:`~tutor.engine.errors.UsageError` for a
    ``chosen`` seat out of range.
    """
    rule = ruleset.first_dealer
    if rule == "chosen" or chosen is not None:
        if chosen is None:
            return rng.randrange(players), []
        if not 0 <= chosen < players:
            raise UsageError(f"the chosen dealer must be a seat from 0 to {players - 1}")
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


@dataclass(frozen=True)
class Game:
    """One deal of a match: its ``index`` (0-based), ``dealer``, whether it is a ``practice``
    game (not scored), and its ``round`` and ``number`` in the round (1-based; None without a
    match format)."""

    index: int
    dealer: int
    practice: bool
    round: int | None
    number: int | None

    @property
    def label(self) -> str:
        """``Game 3, round 1``, ``Practice game``, or ``Deal 4``."""
        if self.round is None:
            return f"Deal {self.index + 1}"
        if self.practice:
            return "Practice game"
        return f"Game {self.number}, round {self.round}"


def plan_games(ruleset: Ruleset, players: int, first: int, deals: int | None = None) -> list[Game]:
    """The games of a match: under the ruleset's ``match_format``, its rounds (``deals`` must be
    None or the format's length); otherwise ``deals`` deals (default one round of deals, one
    per player).  The deal passes left from ``first``.

    Raises :class:`~tutor.engine.errors.UsageError` for a number of deals the format does not
    allow, or fewer than one."""
    fmt = ruleset.match_format
    if fmt:
        total = fmt["rounds"] * fmt["games"]
        if deals not in (None, total):
            raise UsageError(f"a {ruleset.id} match is {fmt['rounds']} rounds of {fmt['games']} "
                             f"games ({total} deals), not {deals}")
        return [Game(k, (first + k) % players, k < fmt.get("practice", 0),
                     k // fmt["games"] + 1, k % fmt["games"] + 1) for k in range(total)]
    deals = players if deals is None else deals
    if deals < 1:
        raise UsageError("a match has at least one deal")
    return [Game(k, (first + k) % players, False, None, None) for k in range(deals)]


@dataclass
class Match:
    """A run of deals under one ruleset with the deal passing left, and the running totals.

    ``totals`` holds net stakes (stakes and pot scoring) or points (pairs scoring) per seat,
    practice games left out; ``deals`` the finished :class:`~tutor.engine.deal.Deal` objects,
    in order; ``games`` the plan (:func:`plan_games`); ``seed`` drives the cut and every
    shuffle; ``cuts`` the cuts made for the first dealer; ``meta`` anything the caller keeps with
    a saved match (the learner's seat, the level, names).
    """

    ruleset: Ruleset
    players: int
    first: int
    totals: list[int] = field(default_factory=list)
    deals: list[Deal] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    seed: int | str = 0
    cuts: list[Cut] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.totals:
            self.totals = [0] * self.players
        if not self.games:
            self.games = plan_games(self.ruleset, self.players, self.first,
                                    None if self.ruleset.match_format else self.players)

    @classmethod
    def start(cls, ruleset: Ruleset, players: int, seed: int | str, deals: int | None = None,
              chosen: int | None = None, meta: dict | None = None) -> "Match":
        """A new match: the first dealer by the ruleset's rule (the cut drawn from ``seed``),
        and its games (:func:`plan_games`)."""
        ruleset.count(players)
        first, cuts = first_dealer(ruleset, players, random.Random(f"{seed}:cut"), chosen)
        return cls(ruleset, players, first, games=plan_games(ruleset, players, first, deals),
                   seed=seed, cuts=cuts, meta=dict(meta or {}))

    def dealer_of(self, k: int) -> int:
        """The dealer of the ``k``-th deal (0-based): the deal passes left each time."""
        return (self.first + k) % self.players

    @property
    def next_game(self) -> Game | None:
        """The next game to play, or None when the match is over."""
        k = len(self.deals)
        return self.games[k] if k < len(self.games) else None

    @property
    def is_over(self) -> bool:
        """True when every game of the plan has been played."""
        return len(self.deals) >= len(self.games)

    def new_deal(self) -> Deal:
        """The next game's deal, shuffled by its own stream of the match's seed (so a resumed
        match deals the same cards).  Raises UsageError when the match is over."""
        game = self.next_game
        if game is None:
            raise UsageError("the match is over")
        rng = random.Random(f"{self.seed}:deal:{game.index}")
        return new_deal(self.ruleset, self.players, game.dealer, rng)

    def record_deal(self, deal: Deal) -> None:
        """Add a finished deal to the match, and to the totals unless it is a practice game.

        Raises UsageError for a deal that is not over."""
        if not deal.is_terminal():
            raise UsageError("only a finished deal counts in a match")
        game = self.games[len(self.deals)] if len(self.deals) < len(self.games) else None
        if game is None or not game.practice:
            for seat, v in enumerate(deal.returns()):
                self.totals[seat] += v
        self.deals.append(deal)

    def scores(self, seat: int) -> list[tuple[Game, int]]:
        """``seat``'s result in each finished game, with its game (practice games included)."""
        return [(g, d.returns()[seat]) for g, d in zip(self.games, self.deals)]

    def play(self, deals: int, bots: list[Bot], rng: random.Random) -> "Match":
        """Play ``deals`` more deals (at most to the end of the plan) with one bot per seat;
        ``rng`` drives their choices and reaction times.  Returns self."""
        for _ in range(deals):
            if self.is_over:
                break
            deal = self.new_deal()
            play_out(deal, bots, rng)
            self.record_deal(deal)
        return self

    # -- saving and resuming ------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The match as a JSON-ready record: format, ruleset, players, seed, first dealer, cuts,
        the plan's length, ``meta``, and every finished deal's record (RULES.md 9)."""
        return {
            "format": MATCH_FORMAT,
            "ruleset": self.ruleset.id,
            "players": self.players,
            "seed": self.seed,
            "first_dealer": self.first,
            "cuts": [{str(s): c for s, c in cut.cards.items()} for cut in self.cuts],
            "deals_planned": len(self.games),
            "meta": self.meta,
            "deals": [to_record(d) for d in self.deals],
        }

    @classmethod
    def from_json(cls, obj: Any, rulesets: dict[str, Ruleset]) -> "Match":
        """A match read back from :meth:`to_json`; every deal is replayed through the engine and
        must be finished and dealt as the match's seed deals it.

        Raises :class:`~tutor.engine.errors.RecordError` naming what is wrong."""
        if not isinstance(obj, dict) or obj.get("format") != MATCH_FORMAT:
            raise RecordError(f"not a saved match (format must be {MATCH_FORMAT!r})")
        try:
            rid, players, seed = obj["ruleset"], obj["players"], obj["seed"]
            first, planned = obj["first_dealer"], obj["deals_planned"]
            cuts = [Cut({int(s): int(c) for s, c in cut.items()}) for cut in obj["cuts"]]
            records, meta = obj["deals"], obj.get("meta") or {}
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RecordError(f"a saved match is missing or has a bad field: {exc}") from None
        if not isinstance(rid, str) or rid not in rulesets:
            raise RecordError(f"unknown ruleset {rid!r} in the saved match")
        rs = rulesets[rid]
        if not isinstance(players, int) or players not in rs.counts:
            raise RecordError(f"ruleset {rid} does not cover {players!r} players")
        if not isinstance(first, int) or not 0 <= first < players:
            raise RecordError(f"bad first dealer {first!r}")
        if not isinstance(records, list) or not isinstance(meta, dict):
            raise RecordError("'deals' must be a list and 'meta' an object")
        try:
            games = plan_games(rs, players, first, None if rs.match_format else planned)
        except UsageError as exc:
            raise RecordError(str(exc)) from None
        m = cls(rs, players, first, games=games, seed=seed, cuts=cuts, meta=meta)
        for k, rec in enumerate(records):
            try:
                deal = replay(rec, rulesets)
            except RecordError as exc:
                raise RecordError(f"deal {k + 1}: {exc}") from None
            if k >= len(games) or not deal.is_terminal():
                raise RecordError(f"deal {k + 1} is unfinished or beyond the match's plan")
            expect = m.new_deal()
            if deal.pack != expect.pack or deal.dealer != expect.dealer:
                raise RecordError(f"deal {k + 1} is not the deal this match's seed deals")
            m.record_deal(deal)
        return m
