"""What a live table's client draws besides the board: the review of a player's deal, the
standings across tables (with the liveries' totals), and the score sheet at the end of a match
(the organiser's screen is :mod:`~tutor.app.tables._organiser`'s)."""

from __future__ import annotations

from typing import Literal

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from tutor.app.play.sheet import SettlementSheet, settlement_renderable
from tutor.app.tables.messages import DealOver, MatchOver, Review, Standings, TeamRow
from tutor.engine.cards import parse_cards
from tutor.engine.deal import SeatSettlement
from tutor.engine.errors import LaughError, RecordError
from tutor.engine.match import Match, plan_games
from tutor.engine.rulesets import Ruleset

__all__ = [
    "review_text",
    "scored_match",
    "settlement_view",
    "sheet_of_message",
    "standings_table",
    "teams_text",
]


def settlement_view(
    msg: DealOver, seat: int | None, names: list[str], rs: Ruleset, symbols: bool = True
) -> Group:
    """A deal's settlement (the server's ``deal_over``) drawn as offline play draws it
    (:func:`tutor.app.play.sheet.settlement_renderable`): each seat's working in cards and in
    the unit of the ruleset, the receiving seat marked, the match's totals.  Names set as plain
    text.  Raises :class:`~tutor.engine.errors.RecordError` (one line) for a settlement that
    does not fit the ruleset."""
    names = list(msg.names or names)
    title = f"Settlement · {msg.game}" + (" (practice: not scored)" if msg.practice else "")
    return settlement_renderable(
        sheet_of_message(msg, rs), names, symbols, title=title, you=seat, totals=msg.totals
    )


def sheet_of_message(msg: DealOver, rs: Ruleset) -> SettlementSheet:
    """The :class:`~tutor.app.play.sheet.SettlementSheet` a ``deal_over`` message carries: its
    ``settlement`` rows (:class:`~tutor.engine.deal.SeatSettlement`'s fields), ``result``
    (RULES.md 9: the last player in, the bonus, the leftovers and the lie-down payments),
    ``dealer``, ``pot_to``, ``set_aside`` and ``set_aside_to``.  Raises
    :class:`~tutor.engine.errors.RecordError` naming what does not fit the ruleset."""
    n = len(msg.settlement)
    try:
        game = rs.game(n)
    except LaughError as exc:
        raise RecordError(f"the settlement: {exc}") from None
    rows = tuple(SeatSettlement(**row.model_dump()) for row in msg.settlement)
    if [r.seat for r in rows] != list(range(n)):
        raise RecordError("the settlement's rows are not one a seat, in order")
    result = msg.result
    left_in = result.get("leftovers")
    left = left_in if isinstance(left_in, dict) else {}
    return SettlementSheet(
        game,
        _seat(msg.dealer, n) or 0,
        rows,
        _seat(result.get("last_in"), n),
        _seat(result.get("bonus_to"), n),
        tuple(q for q in (_seat(v, n) for v in msg.pot_to) if q is not None),
        bool(result.get("payments")),
        _cards(left.get("cards")),
        _seat(left.get("to"), n),
        _cards(msg.set_aside),
        _seat(msg.set_aside_to, n),
    )


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


def review_text(review: Review) -> Group:
    """The review of one player's deal (the server's ``review``), for the terminal: drawn as a
    practice deal's review is (:func:`tutor.app.play.sheet.spotting_line`,
    :func:`~tutor.app.play.sheet.slips_grid`); whatever the server sent is set as plain text."""

    from tutor.app.play.mistakes import FALSE_CLAIM, HIT, MISS, Sighting
    from tutor.app.play.sheet import slips_grid, spotting_line

    lines: list[RenderableType] = [Text("Review of your play", style="bold")]
    sightings = (
        [Sighting(HIT, "", None, 0)] * min(len(review.hits), _MOST)
        + [Sighting(MISS, "", None, 0)] * _count(review.misses)
        + [Sighting(FALSE_CLAIM, "", None, 0)] * _count(review.false_claims)
    )
    said = spotting_line(sightings)
    if review.median_hit is not None:
        said += f" Median time of a claim won: {review.median_hit:.2f} s."
    if said:
        lines.append(Text(said.strip(), style="dim"))
    if not review.items:
        lines.append(
            Text(
                "No slips: every claim open to you was yours, and no declaration was missed.",
                style="green",
            )
        )
    else:
        lines.append(slips_grid([(i.title, _index(i.index), i.text, i.why) for i in review.items]))
    timed = _count(review.timed_out)
    if timed:
        lines.append(
            Text(
                f"Your time ran out {timed} time{'s' if timed != 1 else ''}: a "
                "computer player moved for you.",
                style="yellow",
            )
        )
    away = _count(review.stood_in) - timed
    if away > 0:
        lines.append(
            Text(
                f"A computer player moved {away} time{'s' if away != 1 else ''} "
                "for you while you were away.",
                style="dim",
            )
        )
    return Group(*lines)


#: The most of anything a deal's review counts (a server's larger figure is cut to it).
_MOST = 1000


def _count(value: int) -> int:
    """A count the server sent, from 0 to :data:`_MOST`."""
    return min(max(value, 0), _MOST)


def _index(value: int | None) -> int | None:
    """A history index the server sent, or None."""
    return value if value is not None and 0 <= value < 10_000 else None


def standings_table(msg: Standings) -> Group:
    """The standings across every table after a round: place, player, table, livery, score
    (and under duplicate play the score against the same cards at the other tables), then the
    liveries' totals.  Names are set as plain text."""
    dup = msg.duplicate
    head = Text(
        ("Final standings" if msg.final else f"Standings after round {msg.round} (of {msg.rounds})")
        + (
            " · duplicate: 'vs same cards' is the score less the average of those dealt "
            "the same cards"
            if dup
            else ""
        ),
        style="bold",
    )
    liveries = any(row.livery for row in msg.rows)
    t = RichTable(show_edge=False, pad_edge=False)
    cols: list[tuple[str, Literal["left", "right"]]] = [
        ("", "right"),
        ("Player", "left"),
        ("table", "right"),
    ]
    cols += [("livery", "left")] if liveries else []
    cols += [("vs same cards", "right")] if dup else []
    cols += [("score", "right")]
    for col, just in cols:
        t.add_column(col, justify=just)
    for row in msg.rows:
        cells = [Text(str(row.place)), Text(row.name), Text(str(row.table))]
        if liveries:
            cells.append(Text(row.livery or ""))
        if dup:
            cells.append(Text(f"{row.dup or 0:+g}"))
        cells.append(Text(str(row.score)))
        t.add_row(*cells)
    parts: list[RenderableType] = [head, t]
    if msg.teams:
        parts.append(teams_text(msg.teams, 200))
    return Group(*parts)


def teams_text(teams: list[TeamRow], width: int) -> Text:
    """The liveries' totals in one line (cut to ``width``): place, livery, score (and the
    duplicate score), people."""
    line = "; ".join(
        f"{x.place}. {x.livery} {x.score}"
        + (f" ({x.dup:+g} vs same cards)" if x.dup is not None else "")
        + f", {x.people} {'person' if x.people == 1 else 'people'}"
        for x in teams
    )
    text = Text("Liveries: ", style="bold")
    text.append(line)
    text.truncate(width)
    return text


def scored_match(rs: Ruleset, msg: MatchOver) -> tuple[Match, list[int | None]]:
    """The match as the score sheet needs it, from the server's ``match_over``: the engine's
    plan (no deals: a client has none), and this seat's score in each game played (None
    before the person took the seat: :func:`tutor.app.match_sheet.sheet_renderable`'s
    ``scores``)."""
    scores = msg.scores or []
    total = msg.plan.get("total", len(scores))
    first = msg.plan.get("first", 0)
    games = plan_games(rs, msg.players, first, None if rs.game().has_match_format else total)
    m = Match(rs, msg.players, first, games=games)
    return m, list(scores)
