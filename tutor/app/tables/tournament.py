"""Several tables at once, as a club or class tournament: rounds kept together across tables,
and the standings after each round (no sockets here).

Under a ruleset with a ``match_format`` (``inter-livery-2018``: two rounds of five games, the
first a practice game; the engine's plan, :func:`tutor.engine.match.plan_games`) a table that
has finished a round waits until every table has (:meth:`Tournament.gate`); then the standings
across every table are published (:meth:`Tournament.finished`), and the next round begins.
Without a match format the whole match is one round.  A player's score is the engine's
(:meth:`tutor.engine.deal.Deal.returns`), practice games left out, as on the score sheet, and a
person's counts from the game they first played (the deals before were a computer player's).

Duplicate play (``--duplicate``, our option, as duplicate bridge plays boards): every table is
dealt the same cards (one seed), no table begins a game before every table has finished the one
before, and each seat's result in a game is compared with the average result of the same seat,
dealt the same cards, at every table (``dup`` in the standings): the luck of the deal taken out.
Liveries: each person may give theirs at join; the standings carry each livery's total.

Seats.  The Inter-Livery 2018 sheet says who deals and how the deal moves: "The Team Leader
will be the first dealer; the deal passes to the left for each subsequent game" (quote
``team-leader`` of ``sources/inter-livery-2018.yaml``).  It says nothing about where the
players sit, nor about changing seats or tables between games or between the two rounds.  Our
choice, not the sheet's: a person's seat is drawn by the server once, when they first join
(:meth:`tutor.app.tables.table.Table.join`), and kept for the whole tournament, both
rounds; the deal passes to the left from game to game across the round's end, as the engine's
plan has it (:func:`tutor.engine.match.plan_games`), so every player deals in turn around the
same neighbours.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from tutor.app.tables.table import Table
from tutor.engine.match import Game

__all__ = ["StandingData", "StandingsData", "TeamData", "Tournament", "teams"]


class StandingData(TypedDict):
    """A seat in the standings as the server sends it (:class:`~tutor.app.tables.messages.
    StandingRow`): place, name, table, seat, whether a person holds it, their livery, score,
    games counted, and ``dup`` under duplicate play."""

    name: str
    table: int
    seat: int
    person: bool
    livery: str | None
    score: int
    games: int
    place: NotRequired[int]
    dup: NotRequired[float]


class StandingsData(TypedDict):
    """The standings message (:class:`~tutor.app.tables.messages.Standings`)."""

    type: Literal["standings"]
    round: int
    rounds: int
    final: bool
    duplicate: bool
    rows: list[StandingData]
    teams: list[TeamData]


class TeamData(TypedDict):
    """A livery's total (:class:`~tutor.app.tables.messages.TeamRow`)."""

    livery: str
    score: int
    people: int
    place: NotRequired[int]
    dup: NotRequired[float]


class Tournament:
    """The tables of one server, played as one tournament.  ``published`` is the last round
    whose standings have been published (0: none yet)."""

    def __init__(self, tables: list[Table], published: int = 0):
        self.tables = tables
        self.published = published

    @property
    def per_round(self) -> int:
        """Games in a round: the plan's, or the whole match without a match format."""
        games = self.tables[0].match.games
        return getattr(games, "per_round", None) or len(games)

    @property
    def rounds(self) -> int:
        """Rounds in the match."""
        return -(-len(self.tables[0].match.games) // self.per_round)

    @property
    def duplicate(self) -> bool:
        """True when every table plays the same deals (``--duplicate``)."""
        return self.tables[0].settings.duplicate

    def gate(self, table: Table, game: Game) -> bool:
        """Whether ``table`` may begin ``game``: its round's first game waits until every table
        has finished the round before (and its standings are out); under duplicate play, every
        game waits until every table has finished the game before."""
        r = game.index // self.per_round + 1
        if r > self.published + 1:
            return False
        return not self.duplicate or all(len(t.match.deals) >= game.index for t in self.tables)

    def finished(self, table: Table) -> StandingsData | None:
        """After a deal of ``table`` is recorded: the standings message when that deal completed
        a round at every table (and it was not published yet), else None."""
        r = self.published + 1
        if r > self.rounds:
            return None
        need = min(r * self.per_round, len(table.match.games))
        if all(len(t.match.deals) >= need for t in self.tables):
            self.published = r
            return self.message(r)
        return None

    def message(self, r: int) -> StandingsData:
        """The standings message after round ``r`` (1 to :attr:`rounds`)."""
        rows = self.standings(r)
        return {
            "type": "standings",
            "round": r,
            "rounds": self.rounds,
            "final": r == self.rounds,
            "duplicate": self.duplicate,
            "rows": rows,
            "teams": teams(rows),
        }

    def standings(self, upto: int | None = None) -> list[StandingData]:
        """Every seat of every table, best first: ``name``, ``table``, ``seat``, ``person``,
        ``livery``, ``score`` (practice games left out; a person's from the game they first
        played, :attr:`~tutor.app.tables.table.SeatState.since`: the deals before were a
        computer player's) over the rounds up to ``upto`` (None: every game played),
        ``games`` counted; under duplicate play ``dup``, the sum over those games of the
        seat's result less the average result of the same seat (the same cards) at every
        table, and the order is by it (as duplicate bridge scores boards: the luck of the
        cards taken out); ties share a ``place``.  The people first, ranked among themselves
        (``place`` from 1), then the computer players, ranked apart (``place`` from 1 again):
        a prize is a person's, and a computer player's score is no rival's."""
        rows: list[StandingData] = []
        last = None if upto is None else upto * self.per_round
        average = self._averages() if self.duplicate else {}
        for t in self.tables:
            m = t.match
            for q, name in enumerate(t.names):
                st = t.seats[q]
                since = st.since if st.name is not None else 0
                score = games = 0
                dup = 0.0
                for g, d in zip(m.games, m.deals):
                    if last is not None and g.index >= last:
                        break
                    if not g.practice and g.index >= since:
                        v = d.returns()[q]
                        score += v
                        games += 1
                        if (g.index, q) in average:
                            dup += v - average[(g.index, q)]
                row: StandingData = {
                    "name": name,
                    "table": t.number,
                    "seat": q,
                    "person": t.person(q),
                    "livery": st.livery if st.name is not None else None,
                    "score": score,
                    "games": games,
                }
                if self.duplicate:
                    row["dup"] = round(dup, 2)
                rows.append(row)

        def key(r: StandingData) -> tuple[float, ...]:
            return (-r.get("dup", 0.0), -r["score"]) if self.duplicate else (-r["score"],)

        rows.sort(key=lambda r: (not r["person"], *key(r), r["table"], r["seat"]))
        place = 0
        prev: tuple[object, ...] | None = None
        first = 0
        for i, r in enumerate(rows, 1):
            if prev is None or prev[0] != r["person"]:
                first = i - 1  # the computer players ranked apart, from 1
            if (r["person"], *key(r)) != prev:
                place, prev = i - first, (r["person"], *key(r))
            r["place"] = place
        return rows

    def _averages(self) -> dict[tuple[int, int], float]:
        """Under duplicate play: ``(game index, seat)`` -> the seat's average result over every
        table, for each game that every table has finished."""
        done = min(len(t.match.deals) for t in self.tables)
        out = {}
        for k in range(done):
            results = [t.match.deals[k].returns() for t in self.tables]
            for q in range(len(results[0])):
                out[(k, q)] = sum(r[q] for r in results) / len(results)
        return out


def teams(rows: list[StandingData]) -> list[TeamData]:
    """The liveries' totals from standings ``rows``: each livery (the people who gave it at
    join) with ``score`` (and ``dup`` under duplicate play) summed over its people, and
    ``people``; best first, ties sharing a ``place``."""
    out: dict[str, TeamData] = {}
    for r in rows:
        livery = r["livery"]
        if not r["person"] or not livery:
            continue
        team = out.setdefault(livery, {"livery": livery, "score": 0, "people": 0})
        team["score"] += r["score"]
        team["people"] += 1
        if "dup" in r:
            team["dup"] = round(team.get("dup", 0.0) + r["dup"], 2)
    ranked = sorted(out.values(), key=lambda x: (-x.get("dup", 0.0), -x["score"], x["livery"]))
    prev, place = None, 0
    for i, team in enumerate(ranked, 1):
        tie = (team.get("dup"), team["score"])
        if tie != prev:
            place, prev = i, tie
        team["place"] = place
    return ranked
