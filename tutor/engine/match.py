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

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from tutor.engine.bots import Bot, play_out
from tutor.engine.deal import Deal, new_deal
from tutor.engine.errors import RecordError, UsageError
from tutor.engine.jsonfile import describe
from tutor.engine.limits import MAX_MATCH_DEALS
from tutor.engine.records import replay, to_record
from tutor.engine.rulesets import Ruleset

__all__ = ["Cut", "Game", "Match", "MATCH_FORMAT", "Plan", "first_dealer", "plan_games"]

#: The format name of a saved match.
MATCH_FORMAT = "laugh-and-lie-down/match@1"


@dataclass(frozen=True)
class Cut:
    """One round of cutting for the deal: each listed seat's cut card (an int card)."""

    cards: dict[int, int]


def first_dealer(
    ruleset: Ruleset, players: int, rng: random.Random, chosen: int | None = None
) -> tuple[int, list[Cut]]:
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


class Plan(Sequence[Game]):
    """The games of a match in order, each worked out when asked for: a plan holds no list of
    its games (its length is bounded by :data:`~tutor.engine.limits.MAX_MATCH_DEALS` anyway).

    ``total`` games, the deal passing left from ``first`` among ``players``; under a match
    format, rounds of ``per_round`` games whose first ``practice`` games are not scored.
    Indexing and slicing work as on a list (a slice is a list of games)."""

    def __init__(
        self, players: int, first: int, total: int, per_round: int | None = None, practice: int = 0
    ):
        self.players = players
        self.first = first
        self.total = total
        self.per_round = per_round
        self.practice = practice

    def __len__(self) -> int:
        return self.total

    @overload
    def __getitem__(self, k: int) -> Game: ...
    @overload
    def __getitem__(self, k: slice) -> list[Game]: ...

    def __getitem__(self, k: int | slice) -> Game | list[Game]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(self.total))]
        if k < 0:
            k += self.total
        if not 0 <= k < self.total:
            raise IndexError(f"game {k} is not in a plan of {self.total}")
        dealer = (self.first + k) % self.players
        if self.per_round is None:
            return Game(k, dealer, False, None, None)
        return Game(k, dealer, k < self.practice, k // self.per_round + 1, k % self.per_round + 1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __repr__(self) -> str:
        return f"Plan({self.total} games, first dealer {self.first} of {self.players})"


def plan_games(ruleset: Ruleset, players: int, first: int, deals: int | None = None) -> Plan:
    """The games of a match: under the ruleset's ``match_format``, its rounds (``deals`` must be
    None or the format's length); otherwise ``deals`` deals (default one round of deals, one
    per player).  The deal passes left from ``first``.  Returns a :class:`Plan` (a sequence
    of :class:`Game`, made as each is asked for).

    Raises :class:`~tutor.engine.errors.UsageError` for a number of deals the format does not
    allow, fewer than one, or more than :data:`~tutor.engine.limits.MAX_MATCH_DEALS`."""
    fmt = ruleset.match_format
    if fmt:
        total = fmt["rounds"] * fmt["games"]
        if deals not in (None, total):
            raise UsageError(
                f"a {ruleset.id} match is {fmt['rounds']} rounds of {fmt['games']} "
                f"games ({total} deals), not {deals}"
            )
        return Plan(players, first, total, fmt["games"], fmt.get("practice", 0))
    deals = players if deals is None else deals
    if isinstance(deals, bool) or not isinstance(deals, int):
        raise UsageError(f"the number of deals must be a whole number, not {deals!r:.20}")
    if deals < 1:
        raise UsageError("a match has at least one deal")
    if deals > MAX_MATCH_DEALS:
        raise UsageError(f"a match has at most {MAX_MATCH_DEALS:,} deals, not {deals:,}")
    return Plan(players, first, deals)


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
    games: Sequence[Game] = field(default_factory=list)
    seed: int | str = 0
    cuts: list[Cut] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    #: The records of finished deals already written out, with the deal each is of: a match
    #: saved after every deal converts only its new deal (a finished deal does not change).
    _records: list[tuple[Deal, dict[str, Any], str]] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if not self.totals:
            self.totals = [0] * self.players
        if not self.games:
            self.games = plan_games(
                self.ruleset,
                self.players,
                self.first,
                None if self.ruleset.match_format else self.players,
            )

    @classmethod
    def start(
        cls,
        ruleset: Ruleset,
        players: int,
        seed: int | str,
        deals: int | None = None,
        chosen: int | None = None,
        meta: dict[str, Any] | None = None,
    ) -> Match:
        """A new match: the first dealer by the ruleset's rule (the cut drawn from ``seed``),
        and its games (:func:`plan_games`)."""
        ruleset.count(players)
        first, cuts = first_dealer(ruleset, players, random.Random(f"{seed}:cut"), chosen)
        return cls(
            ruleset,
            players,
            first,
            games=plan_games(ruleset, players, first, deals),
            seed=seed,
            cuts=cuts,
            meta=dict(meta or {}),
        )

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

    def play(self, deals: int, bots: list[Bot], rng: random.Random) -> Match:
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

    def to_json(self) -> dict[str, object]:
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
            "deals": self._deal_records(),
        }

    def dumps(self) -> str:
        """:meth:`to_json` as one line of JSON text (``json.dumps(..., ensure_ascii=False)``,
        exactly), each finished deal's record encoded once however often the match is saved."""
        head = dict(self.to_json(), deals=[])
        text = json.dumps(head, ensure_ascii=False)
        if not text.endswith("[]}"):  # "deals" is the last key
            raise AssertionError("a saved match ends with its deals")
        return text[:-3] + "[" + ", ".join(t for _, _, t in self._cached()) + "]}"

    def _deal_records(self) -> list[dict[str, Any]]:
        return [r for _, r, _ in self._cached()]

    def _cached(self) -> list[tuple[Deal, dict[str, Any], str]]:
        """Every finished deal with its record (:func:`~tutor.engine.records.to_record`) and
        that record as JSON text, each made once: kept while its deal is the one at its place
        (a finished deal does not change)."""
        cache = self._records
        for i, d in enumerate(self.deals):
            if i < len(cache) and cache[i][0] is d:
                continue
            del cache[i:]
            r = to_record(d)
            cache.append((d, r, json.dumps(r, ensure_ascii=False)))
        del cache[len(self.deals) :]
        return cache

    @classmethod
    def from_json(cls, obj: object, rulesets: dict[str, Ruleset]) -> Match:
        """A match read back from :meth:`to_json`, checked whole: every key present with a
        value of its type and range (a seed as :meth:`start` takes it, the first dealer and the
        cuts as the seed makes them, the plan's length as :func:`plan_games` allows, ``meta``
        an object of plain values), and every deal replayed through the engine, finished, of
        the match's ruleset and players, and dealt as the match's seed deals it.

        Raises :class:`~tutor.engine.errors.RecordError` whose message is one line naming the
        key (``deals_planned: must be a whole number from 1 to 1,000, got '6'``)."""
        from tutor.engine._record_json import read_match  # pydantic: only when a match is read

        saved = read_match(obj)
        rid = saved.ruleset
        if rid not in rulesets:
            raise RecordError(f"ruleset: unknown ruleset {describe(rid)}")
        rs = rulesets[rid]
        players, seed, first = saved.players, saved.seed, saved.first_dealer
        if players not in rs.counts:
            raise RecordError(f"players: ruleset {rid} does not cover {players} players")
        if first >= players:
            raise RecordError(f"first_dealer: must be a seat from 0 to {players - 1}, got {first}")
        for i, cut in enumerate(saved.cuts):
            for seat in cut:
                if seat >= players:
                    raise RecordError(f"cuts[{i}]: '{seat}' is not a seat from 0 to {players - 1}")
        cuts = [Cut(cards) for cards in saved.cuts]
        if cuts:
            expect_first, expect_cuts = first_dealer(rs, players, random.Random(f"{seed}:cut"))
            if (expect_first, expect_cuts) != (first, cuts):
                raise RecordError("cuts: not the cuts for the deal that this match's seed makes")
        planned = saved.deals_planned
        try:
            games = plan_games(rs, players, first, None if rs.match_format else planned)
        except UsageError as exc:
            raise RecordError(f"deals_planned: {exc}") from None
        if len(games) != planned:
            raise RecordError(
                f"deals_planned: a {rid} match plans {len(games)} deals, not {planned}"
            )
        meta = dict(saved.meta)
        records = saved.deals
        if len(records) > len(games):
            raise RecordError(f"deals: {len(records)} deals, more than the {len(games)} planned")
        m = cls(rs, players, first, games=games, seed=seed, cuts=cuts, meta=meta)
        for k, rec in enumerate(records):
            try:
                deal = replay(rec, rulesets)
            except RecordError as exc:
                raise RecordError(f"deals: deal {k + 1}: {exc}") from None
            if deal.ruleset is not rs or deal.n != players:
                raise RecordError(
                    f"deals: deal {k + 1}: a deal of {deal.ruleset.id} for "
                    f"{deal.n} players in a match of {rid} for {players}"
                )
            if not deal.is_terminal():
                raise RecordError(
                    f"deals: deal {k + 1}: unfinished (a match keeps finished deals only)"
                )
            expect = m.new_deal()
            if deal.pack != expect.pack or deal.dealer != expect.dealer:
                raise RecordError(f"deals: deal {k + 1}: not the deal this match's seed deals")
            m.record_deal(deal)
        return m
