"""Several tables at once, as a club or class tournament: rounds kept together across tables,
and the standings after each round (no sockets here).

Under a ruleset with a ``match_format`` (``inter-livery-2018``: two rounds of five games, the
first a practice game; the engine's plan, :func:`tutor.engine.match.plan_games`) a table that
has finished a round waits until every table has (:meth:`Tournament.gate`); then the standings
across every table are published (:meth:`Tournament.finished`), and the next round begins.
Without a match format the whole match is one round.  A player's score is the engine's
(:meth:`tutor.engine.deal.Deal.returns`), practice games left out, as on the score sheet.

Seats.  The Inter-Livery 2018 sheet says who deals and how the deal moves: "The Team Leader
will be the first dealer; the deal passes to the left for each subsequent game" (quote
``team-leader`` of ``sources/inter-livery-2018.yaml``).  It says nothing about where the
players sit, nor about changing seats or tables between games or between the two rounds.  Our
choice, not the sheet's: a person's seat is drawn by the server once, when they first join
(:meth:`tutor.app.tables._people.Seating.join`), and kept for the whole tournament, both
rounds; the deal passes to the left from game to game across the round's end, as the engine's
plan has it (:func:`tutor.engine.match.plan_games`), so every player deals in turn around the
same neighbours.
"""

from __future__ import annotations

from typing import Any

from tutor.app.tables.table import Table
from tutor.engine.match import Game

__all__ = ["Tournament"]


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

    def gate(self, table: Table, game: Game) -> bool:
        """Whether ``table`` may begin ``game``: its round's first game waits until every table
        has finished the round before (and its standings are out)."""
        r = game.index // self.per_round + 1
        return r <= self.published + 1

    def finished(self, table: Table) -> dict[str, Any] | None:
        """After a deal of ``table`` is recorded: the standings message when that deal completed
        a round at every table (and it was not published yet), else None."""
        r = self.published + 1
        if r > self.rounds:
            return None
        need = min(r * self.per_round, len(table.match.games))
        if all(len(t.match.deals) >= need for t in self.tables):
            self.published = r
            return {"type": "standings", "round": r, "rounds": self.rounds,
                    "final": r == self.rounds, "rows": self.standings(r)}
        return None

    def standings(self, upto: int | None = None) -> list[dict[str, Any]]:
        """Every seat of every table, best first: ``name``, ``table``, ``seat``, ``person``,
        ``score`` (practice games left out) over the rounds up to ``upto`` (None: every game
        played), ``games`` counted; ties share a ``place``."""
        rows = []
        last = None if upto is None else upto * self.per_round
        for t in self.tables:
            m = t.match
            for q, name in enumerate(t.names):
                score = games = 0
                for g, d in zip(m.games, m.deals):
                    if last is not None and g.index >= last:
                        break
                    if not g.practice:
                        score += d.returns()[q]
                        games += 1
                rows.append({"name": name, "table": t.number, "seat": q,
                             "person": t.person(q), "score": score, "games": games})
        rows.sort(key=lambda r: (-r["score"], r["table"], r["seat"]))
        place = 0
        prev = None
        for i, r in enumerate(rows, 1):
            if r["score"] != prev:
                place, prev = i, r["score"]
            r["place"] = place
        return rows
