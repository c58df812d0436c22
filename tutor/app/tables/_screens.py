"""What a live table's client draws besides the board: the review of a player's deal, the
standings across tables, the score sheet at the end of a match, and the organiser's overview
(:func:`watch_tables`)."""

from __future__ import annotations

import queue
from typing import Any

from rich.table import Table as RichTable
from rich.text import Text

from tutor.app.tables._link import Link
from tutor.engine.cards import pretty_cards
from tutor.engine.errors import LaughError
from tutor.engine.rulesets import Ruleset
from tutor.teaching.io import LearnerIO

__all__ = ["overview_text", "review_text", "scored_match", "standings_table", "watch_tables"]


def review_text(review: dict) -> Any:
    """The review of one player's deal (the server's ``review``), for the terminal."""
    from rich.console import Group
    lines: list = [Text("Review of your play", style="bold")]
    hits, misses, false = len(review.get("hits") or []), review.get("misses", 0), \
        review.get("false_claims", 0)
    med = review.get("median_hit")
    lines.append(Text(f"Claims: {hits} won, {misses} missed, {false} false"
                      + (f"; median time of a claim won {med:.2f} s" if med is not None
                         else ""), style="dim"))
    items = review.get("items") or []
    if not items:
        lines.append(Text("No slips: every claim open to you was yours, and no declaration "
                          "was missed.", style="green"))
    for item in items:
        t = Text(f"- {item.get('title', '')}: ", style="bold yellow")
        t.append(str(item.get("text", "")))
        lines.append(t)
        if item.get("why"):
            lines.append(Text(f"  {item['why']}", style="dim"))
    if review.get("stood_in"):
        lines.append(Text(f"A computer player moved {review['stood_in']} times for you while "
                          "you were away.", style="dim"))
    return Group(*lines)


def standings_table(msg: dict) -> Any:
    """The standings across every table after a round."""
    from rich.console import Group
    r, rounds = msg.get("round"), msg.get("rounds")
    head = Text(("Final standings" if msg.get("final") else f"Standings after round {r}")
                + f" (of {rounds})", style="bold")
    t = RichTable(show_edge=False, pad_edge=False)
    for col, just in (("", "right"), ("Player", "left"), ("table", "right"),
                      ("score", "right")):
        t.add_column(col, justify=just)
    for row in msg.get("rows") or []:
        t.add_row(str(row.get("place")), str(row.get("name")), str(row.get("table")),
                  str(row.get("score")))
    return Group(head, t)


class _Scores:
    """A finished game's results (all a score sheet asks of a deal)."""

    def __init__(self, score: int, seat: int, players: int):
        self._r = tuple(score if q == seat else 0 for q in range(players))

    def returns(self) -> tuple[int, ...]:
        return self._r


def scored_match(rs: Ruleset, msg: dict):
    """The match as the score sheet needs it, from the server's ``match_over``: the engine's
    plan, and this seat's score in each game played."""
    from tutor.engine.match import Match, plan_games
    players, seat = int(msg["players"]), int(msg["seat"])
    plan = msg.get("plan") or {}
    total = int(plan.get("total", len(msg["scores"])))
    games = plan_games(rs, players, int(plan.get("first", 0)),
                       None if rs.match_format else total)
    m = Match(rs, players, int(plan.get("first", 0)), games=games)
    m.deals = [_Scores(int(s), seat, players) for s in msg["scores"]]
    return m


def watch_tables(io: LearnerIO, address: str, admin: str, once: bool = False) -> int:
    """The organiser's view: every table's state (public facts only) and the standings,
    printed as they change, until Ctrl-C (or at once, with ``once``).  Returns the exit
    status (1 when the server refuses the code)."""
    link = Link(address, {"type": "watch", "admin": admin})
    link.start()
    status = 0
    last = None
    try:
        while True:
            try:
                msg = link.inbox.get(timeout=1.0)
            except queue.Empty:
                continue
            kind = msg.get("type")
            if kind == "overview":
                text = overview_text(msg, io.symbols)
                if text.plain != last:
                    io.say()
                    io.show(text)
                    last = text.plain
                if once:
                    break
            elif kind == "standings":
                io.show(standings_table(msg))
            elif kind == "refused":
                io.say(f"Refused: {msg.get('text')}", style="yellow")
                status = 1
            elif kind in ("closed", "bye"):
                if last is None and not status:
                    link.close()
                    raise LaughError(str(msg.get("text")))
                io.say(str(msg.get("text")), style="yellow")
                break
    except KeyboardInterrupt:
        link.close()
        return 130
    link.close()
    return status


def overview_text(msg: dict, symbols: bool) -> Text:
    """Every table in a few lines: game, who is to move, hand sizes, the table's cards,
    totals (no hand: the organiser never sees one while a deal is being played)."""
    out = Text()
    for tb in msg.get("tables") or []:
        names = tb.get("names") or []
        out.append(f"Table {tb.get('table')} · {tb.get('game')} · {tb.get('played')} of "
                   f"{tb.get('games')} games played\n", style="bold")
        obs = tb.get("obs") or {}
        to_move = obs.get("to_move")
        away = tb.get("away") or []
        for q, name in enumerate(names):
            mark = "▶ " if q == to_move and tb.get("playing") else "  "
            size = (obs.get("hand_sizes") or [0] * len(names))[q] if obs else 0
            total = (tb.get("totals") or [0] * len(names))[q]
            out.append(f"{mark}{name}{' (away)' if q < len(away) and away[q] else ''}: hand "
                       f"{size}, total {total}\n")
        if obs and tb.get("playing"):
            from tutor.engine.cards import parse_card
            cards = [parse_card(c) for c in obs.get("table") or []]
            out.append(f"  Table: {pretty_cards(cards, symbols) or 'empty'}\n", style="dim")
    rows = msg.get("standings") or []
    if rows:
        out.append("Standings: " + "; ".join(
            f"{r.get('place')}. {r.get('name')} {r.get('score')}" for r in rows[:10]) + "\n")
    return out
