"""What a live table's client draws besides the board: the review of a player's deal, the
standings across tables (with the liveries' totals), and the score sheet at the end of a match
(the organiser's screen is :mod:`~tutor.app.tables._organiser`'s)."""

from __future__ import annotations

from typing import Any, Literal

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from tutor.app.play.sheet import SettlementSheet, settlement_renderable
from tutor.engine.cards import parse_cards
from tutor.engine.deal import SeatSettlement
from tutor.engine.errors import LaughError, RecordError
from tutor.engine.match import Match, plan_games
from tutor.engine.rulesets import Ruleset

__all__ = ["review_text", "scored_match", "settlement_view", "sheet_of_message", "standings_table", "teams_text"]


def settlement_view(msg: dict[str, Any], seat: int | None, names: list[str],
                    rs: Ruleset, symbols: bool = True) -> Group:
    """A deal's settlement (the server's ``deal_over``) drawn as offline play draws it
    (:func:`tutor.app.play.sheet.settlement_renderable`): each seat's working in cards and in
    the unit of the ruleset, the receiving seat marked, the match's totals.  Names set as plain
    text.  Raises :class:`~tutor.engine.errors.RecordError` (one line) for a message that does
    not hold a settlement."""
    names = [str(n) for n in (msg.get("names") or names)]
    title = f"Settlement · {msg.get('game', '')}" + (" (practice: not scored)"
                                                    if msg.get("practice") else "")
    totals = msg.get("totals")
    return settlement_renderable(sheet_of_message(msg, rs), names, symbols, title=title,
                                 you=seat, totals=[v if _is_int(v) else 0 for v in totals]
                                 if isinstance(totals, list) else None)


def sheet_of_message(msg: dict[str, Any], rs: Ruleset) -> SettlementSheet:
    """The :class:`~tutor.app.play.sheet.SettlementSheet` a ``deal_over`` message carries: its
    ``settlement`` rows (:class:`~tutor.engine.deal.SeatSettlement`'s fields), ``result``
    (RULES.md 9), ``dealer``, ``pot_to``, ``set_aside`` and ``set_aside_to``.  Raises
    :class:`~tutor.engine.errors.RecordError` naming the first field it cannot read."""
    rows_in = msg.get("settlement")
    result = msg.get("result")
    if not isinstance(rows_in, list) or not rows_in or not isinstance(result, dict):
        raise RecordError("the settlement has no rows or no result")
    n = len(rows_in)
    try:
        game = rs.game(n)
    except LaughError as exc:
        raise RecordError(f"the settlement: {exc}") from None
    rows = [_row(i, row) for i, row in enumerate(rows_in)]
    left_in, pot_in = result.get("leftovers"), msg.get("pot_to")
    left: dict[str, Any] = left_in if isinstance(left_in, dict) else {}
    pot_to: list[Any] = pot_in if isinstance(pot_in, list) else []
    return SettlementSheet(
        game, _seat(msg.get("dealer"), n) or 0, tuple(rows), _seat(result.get("last_in"), n),
        _seat(result.get("bonus_to"), n), tuple(q for q in (_seat(v, n) for v in pot_to)
                                                if q is not None),
        bool(result.get("payments")), _cards(left.get("cards")), _seat(left.get("to"), n),
        _cards(msg.get("set_aside")), _seat(msg.get("set_aside_to"), n))


def _row(i: int, row: object) -> SeatSettlement:
    """Row ``i`` of a settlement: every field of a seat's settlement, each a whole number
    (``net`` and ``points`` may be null); raises RecordError naming the row."""
    if not isinstance(row, dict) or set(row) != set(SeatSettlement._fields):
        raise RecordError(f"settlement row {i}: not a seat's settlement")
    for k in SeatSettlement._fields:
        if not (_is_int(row[k]) or (row[k] is None and k in ("net", "points"))):
            raise RecordError(f"settlement row {i}: {k} is not a whole number")
    return SeatSettlement(**{k: row[k] for k in SeatSettlement._fields})


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(value: object, players: int) -> int | None:
    """A seat number of a message, or None (none given, or not a seat of the table)."""
    return value if isinstance(value, int) and _is_int(value) and 0 <= value < players else None


def _cards(value: object) -> tuple[int, ...]:
    """Card codes of a message as cards; raises RecordError for one it cannot read."""
    if not value:
        return ()
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise RecordError("the settlement's cards are not card codes")
    try:
        return tuple(parse_cards(value))
    except LaughError as exc:
        raise RecordError(f"the settlement's cards: {exc}") from None


def review_text(review: dict[str, Any]) -> Group:
    """The review of one player's deal (the server's ``review``), for the terminal: drawn as a
    practice deal's review is (:func:`tutor.app.play.sheet.spotting_line`,
    :func:`~tutor.app.play.sheet.slips_grid`); whatever the server sent is set as plain text."""

    from tutor.app.play.mistakes import FALSE_CLAIM, HIT, MISS, Sighting
    from tutor.app.play.sheet import slips_grid, spotting_line
    lines: list[RenderableType] = [Text("Review of your play", style="bold")]
    hits = review.get("hits") or []
    sightings = ([Sighting(HIT, "", None, 0)] * len(hits)
                 + [Sighting(MISS, "", None, 0)] * _count(review.get("misses"))
                 + [Sighting(FALSE_CLAIM, "", None, 0)] * _count(review.get("false_claims")))
    said = spotting_line(sightings)
    med = review.get("median_hit")
    if isinstance(med, (int, float)) and not isinstance(med, bool):
        said += f" Median time of a claim won: {med:.2f} s."
    if said:
        lines.append(Text(said.strip(), style="dim"))
    items = [i for i in review.get("items") or [] if isinstance(i, dict)]
    if not items:
        lines.append(Text("No slips: every claim open to you was yours, and no declaration "
                          "was missed.", style="green"))
    else:
        lines.append(slips_grid([(str(i.get("title", "")), _index(i.get("index")),
                                  str(i.get("text", "")), str(i.get("why") or ""))
                                 for i in items]))
    timed = review.get("timed_out") or 0
    if timed:
        lines.append(Text(f"Your time ran out {timed} time{'s' if timed != 1 else ''}: a "
                          "computer player moved for you.", style="yellow"))
    away = (review.get("stood_in") or 0) - timed
    if away > 0:
        lines.append(Text(f"A computer player moved {away} time{'s' if away != 1 else ''} "
                          "for you while you were away.", style="dim"))
    return Group(*lines)


def _count(value: object) -> int:
    """A count the server sent (anything else: 0), at most a deal's worth."""
    return min(value, 1000) if isinstance(value, int) and not isinstance(value, bool) \
        and value > 0 else 0


def _index(value: object) -> int | None:
    """A history index the server sent, or None."""
    return value if isinstance(value, int) and not isinstance(value, bool) \
        and 0 <= value < 10_000 else None


def standings_table(msg: dict[str, Any]) -> Group:
    """The standings across every table after a round: place, player, table, livery, score
    (and under duplicate play the score against the same cards at the other tables), then the
    liveries' totals.  Names are set as plain text."""
    r, rounds = msg.get("round"), msg.get("rounds")
    dup = bool(msg.get("duplicate"))
    head = Text(("Final standings" if msg.get("final") else
                 f"Standings after round {r} (of {rounds})")
                + (" · duplicate: 'vs same cards' is the score less the average of those dealt "
                   "the same cards" if dup else ""), style="bold")
    rows = msg.get("rows") or []
    liveries = any(row.get("livery") for row in rows)
    t = RichTable(show_edge=False, pad_edge=False)
    cols: list[tuple[str, Literal["left", "right"]]] = [
        ("", "right"), ("Player", "left"), ("table", "right")]
    cols += [("livery", "left")] if liveries else []
    cols += [("vs same cards", "right")] if dup else []
    cols += [("score", "right")]
    for col, just in cols:
        t.add_column(col, justify=just)
    for row in rows:
        cells = [Text(str(row.get("place"))), Text(str(row.get("name"))),
                 Text(str(row.get("table")))]
        if liveries:
            cells.append(Text(str(row.get("livery") or "")))
        if dup:
            cells.append(Text(f"{row.get('dup', 0):+g}"))
        cells.append(Text(str(row.get("score"))))
        t.add_row(*cells)
    parts: list[RenderableType] = [head, t]
    teams = msg.get("teams") or []
    if teams:
        parts.append(teams_text(teams, 200))
    return Group(*parts)


def teams_text(teams: list[dict[str, Any]], width: int) -> Text:
    """The liveries' totals in one line (cut to ``width``): place, livery, score (and the
    duplicate score), people."""
    line = "; ".join(
        f"{x.get('place')}. {x.get('livery')} {x.get('score')}"
        + (f" ({x['dup']:+g} vs same cards)" if "dup" in x else "")
        + f", {x.get('people')} {'person' if x.get('people') == 1 else 'people'}"
        for x in teams)
    text = Text("Liveries: ", style="bold")
    text.append(line)
    text.truncate(width)
    return text


def scored_match(rs: Ruleset, msg: dict[str, Any]) -> tuple[Match, list[int | None]]:
    """The match as the score sheet needs it, from the server's ``match_over``: the engine's
    plan (no deals: a client has none), and this seat's score in each game played (None
    before the person took the seat: :func:`tutor.app.match_sheet.sheet_renderable`'s
    ``scores``)."""
    players = int(msg["players"])
    plan = msg.get("plan") or {}
    total = int(plan.get("total", len(msg["scores"])))
    games = plan_games(rs, players, int(plan.get("first", 0)),
                       None if rs.match_format else total)
    m = Match(rs, players, int(plan.get("first", 0)), games=games)
    return m, [None if s is None else int(s) for s in msg["scores"]]
