"""After a deal: the settlement table, the review of the learner's play and the match totals.

Every number comes from the engine's :class:`~tutor.engine.DealResult`, the ruleset's parameters
and the engine's analysis (:mod:`tutor.app.play.review`).  The score sheet of a match under a
ruleset's ``match_format`` is :func:`tutor.app.match_sheet.sheet_renderable`, the one ``laugh
match`` prints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from tutor.app.play.mistakes import FALSE_CLAIM, HIT, MISS, Mistake, Sighting
from tutor.app.play.review import DealReview
from tutor.engine.analysis import LOSS_CLASSES
from tutor.engine.deal import Deal, SeatSettlement
from tutor.engine.errors import IllegalAction
from tutor.engine.game import Game
from tutor.engine.parameters import value_words
from tutor.puzzles.board import action_text, cards_text

__all__ = [
    "SettlementSheet",
    "settlement_renderable",
    "settlement_table",
    "review_renderable",
    "slips_grid",
    "spotting_line",
    "totals_table",
]


@dataclass(frozen=True)
class SettlementSheet:
    """What a drawing of a finished deal's settlement shows, all read from the engine: the game
    (ruleset x players, :class:`~tutor.engine.game.Game`), the dealer's seat, the breakdown per
    seat (:class:`~tutor.engine.deal.SeatSettlement`, cards and stakes), the last player in,
    the seats that took the bonus and the pot, whether lying down paid, the leftovers (cards)
    and the seat they went to, the set-aside table mournival (cards) and its taker.  Made from a
    finished deal (:meth:`of_deal`) or from a live table's ``deal_over`` message
    (:func:`tutor.app.tables._screens.settlement_view`): one drawing for both."""

    game: Game
    dealer: int
    rows: tuple[SeatSettlement, ...]
    last_in: int | None = None
    bonus_to: int | None = None
    pot_to: tuple[int, ...] = ()
    payments: bool = False
    leftovers: tuple[int, ...] = ()
    leftovers_to: int | None = None
    set_aside: tuple[int, ...] = ()
    set_aside_to: int | None = None

    @classmethod
    def of_deal(cls, deal: Deal) -> SettlementSheet:
        """The settlement of a finished ``deal`` (RULES.md 3.5, 3.6); raises
        :class:`~tutor.engine.errors.IllegalAction` before the deal is over."""
        res = deal.result
        if res is None:
            raise IllegalAction("the deal is not over: there is no settlement yet")
        return cls(
            deal.game,
            deal.dealer,
            tuple(res.settlement),
            res.last_in,
            res.bonus_to,
            tuple(res.pot_to or ()),
            bool(res.payments),
            tuple(res.leftovers),
            res.leftovers_to,
            tuple(res.set_aside),
            res.set_aside_to,
        )


def settlement_table(deal: Deal, names: Sequence[str], symbols: bool) -> Group:
    """The settlement of a finished deal (RULES.md 3.5, 3.6), read from the engine's breakdown
    (:attr:`tutor.engine.deal.DealResult.settlement`): see :func:`settlement_renderable`.
    Raises :class:`~tutor.engine.errors.IllegalAction` before the deal is over."""
    return settlement_renderable(SettlementSheet.of_deal(deal), names, symbols)


#: A column of the settlement: its heading and a seat's entry (empty: nothing to say).
_Column = tuple[str, Callable[[SeatSettlement], str]]


def settlement_renderable(
    sheet: SettlementSheet,
    names: Sequence[str],
    symbols: bool,
    *,
    title: str = "Settlement",
    you: int | None = None,
    totals: Sequence[int] | None = None,
) -> Group:
    """The one drawing of a settlement, for offline play, matches, the coach and a live table's
    client: per seat the cards won in play and at the end, and under stakes the ante, lie-down
    payments, bonus, stakes for cards, share of the pot and net; under pairs the bonus and
    points (and the payment balance where lying down pays); then the working in words (the
    engine's formula and parameter words) and the cards moved at the end.  ``you`` marks a seat
    (``▶``); ``totals`` (stakes or points per seat) adds the match's running totals.  A table
    where it fits the width, else a line a seat.  Names are set as plain text."""
    cols = _columns(sheet)
    last = _last_columns(sheet)
    t = Table(box=None, pad_edge=False, header_style="bold underline")
    t.add_column("player", no_wrap=True)
    for label, _ in cols + last:
        t.add_column(label, justify="right")
    if totals is not None:
        t.add_column("total", justify="right")
    stacked = []
    for r in sheet.rows:
        who = _who(sheet, names, r.seat, you)
        extra = _total(totals, r.seat)
        t.add_row(
            Text(who),
            *[fn(r) for _, fn in cols],
            Text(last[0][1](r), style="bold"),
            *[fn(r) for _, fn in last[1:]],
            *extra,
        )
        stacked.append(_stacked_line(who, r, cols, last, extra))
    lines: list[RenderableType] = [Text(title, style="bold"), _Fitted(t, Group(*stacked))]
    notes = _notes(sheet, names, sheet.game.ruleset.has_stakes)
    if notes:
        lines.append(Text(notes))
    lines += _end_lines(sheet, names, symbols)
    return Group(*lines)


def _total(totals: Sequence[int] | None, seat: int) -> list[str]:
    """The match's running total of ``seat`` as the table's last cell (none without totals)."""
    if totals is None:
        return []
    return [str(totals[seat]) if seat < len(totals) else ""]


def _stacked_line(
    who: str, r: SeatSettlement, cols: list[_Column], last: list[_Column], extra: list[str]
) -> Text:
    """A seat's settlement as one line, for a width too narrow for the table: the working's
    non-empty entries, then the result (bold) and the running total."""
    line = Text(f"{who}: ", style="bold")
    line.append(", ".join(f"{label} {fn(r)}" for label, fn in cols if fn(r)))
    line.append(", " + ", ".join(f"{label} {fn(r)}" for label, fn in last), style="bold")
    if extra:
        line.append(f", total {extra[0]}")
    return line


def _who(sheet: SettlementSheet, names: Sequence[str], seat: int, you: int | None) -> str:
    """A seat's name in the first column: the dealer marked ``D``, ``you`` marked ``▶``."""
    name = names[seat] if 0 <= seat < len(names) else f"Player {seat}"
    mark = "" if you is None else "▶ " if seat == you else "  "
    return mark + name + (" D" if seat == sheet.dealer else "")


def _signed(sign: str, v: int) -> str:
    """``v`` with its ``sign`` (``+`` or ``-``), or empty for nothing."""
    return f"{sign}{v}" if v else ""


_IN_PLAY: _Column = ("in play", lambda r: str(r.won_in_play))
_END: _Column = ("end", lambda r: _signed("+", r.won_at_end))
_WON: _Column = ("won", lambda r: str(r.won))
_ANTE: _Column = ("ante", lambda r: _signed("-", r.ante) or "0")
_PAID: _Column = ("paid", lambda r: _signed("-", r.paid))
_GOT: _Column = ("got", lambda r: _signed("+", r.received))
_BONUS: _Column = ("bonus", lambda r: _signed("+", r.bonus))
_CARDS: _Column = ("cards", lambda r: f"{r.for_cards:+d}")
_POT: _Column = ("pot", lambda r: _signed("+", r.pot_share))
_NET: _Column = ("net", lambda r: f"{r.net or 0:+d}")
_POINTS: _Column = ("points", lambda r: str(r.points))
_STAKES: _Column = ("stakes", lambda r: f"{r.net or 0:+d}")


def _columns(sheet: SettlementSheet) -> list[_Column]:
    """The columns of the working that apply under the game's parameters: the cards moved at
    the end only where some were."""
    game = sheet.game
    moved = any(r.leftovers or r.set_aside for r in sheet.rows)
    wanted = [
        (moved, _IN_PLAY),
        (moved, _END),
        (True, _WON),
        (game.ruleset.has_stakes, _ANTE),
        (sheet.payments, _PAID),
        (sheet.payments, _GOT),
        (game.has_bonus, _BONUS),
        (game.settles_by_breakeven, _CARDS),
        (game.pot_to_one_winner, _POT),
    ]
    return [col for applies, col in wanted if applies]


def _last_columns(sheet: SettlementSheet) -> list[_Column]:
    """The result columns (in bold): net stakes, or points (and the stakes paid where lying
    down pays)."""
    if sheet.game.ruleset.has_stakes:
        return [_NET]
    return [_POINTS, _STAKES] if sheet.payments else [_POINTS]


def _notes(sheet: SettlementSheet, names: Sequence[str], stakes: bool) -> str:
    """The working in words: the engine's formula for the cards, the last player in, who took
    the bonus and the pot and why (the parameters' words), what lying down paid."""
    game, rs = sheet.game, sheet.game.ruleset
    notes = []
    formula = game.settlement_formula(bonus=not stakes and game.has_bonus)
    if formula is not None:
        notes.append(f"Cards: {formula} stakes." if stakes else f"Points: {formula}.")
    if sheet.last_in is not None:
        notes.append(f"Last in: {_name(names, sheet.last_in)}.")
    notes += _bonus_and_pot(sheet, names)
    if sheet.payments:
        notes.append(value_words("lie_down_pays", rs.value("lie_down_pays")).capitalize() + ".")
    return " ".join(notes)


def _bonus_and_pot(sheet: SettlementSheet, names: Sequence[str]) -> list[str]:
    """Who took the last-in bonus and the pot, with the parameters' words for why."""
    game, rs = sheet.game, sheet.game.ruleset
    out = []
    bonus = game.count.last_in_bonus if game.players is not None else 0
    if sheet.bonus_to is not None and bonus:
        out.append(
            f"Bonus {bonus} to {_name(names, sheet.bonus_to)}: "
            f"{value_words('bonus_to', rs.bonus_to)}."
        )
    if game.pot_to_one_winner and sheet.pot_to:
        share = sum(r.pot_share for r in sheet.rows)
        out.append(
            f"Pot {share} to {', '.join(_name(names, q) for q in sheet.pot_to)}: "
            f"{value_words('pot_to', rs.pot_to)}."
        )
    return out


def _end_lines(sheet: SettlementSheet, names: Sequence[str], symbols: bool) -> list[Text]:
    """The cards moved at the end: the leftovers (and to whom, in the parameter's words) and
    the set-aside table mournival."""
    lines = []
    rs = sheet.game.ruleset
    if sheet.leftovers:
        lt = Text(
            value_words("leftovers_to", rs.leftovers_to).capitalize()
            + (f" ({_name(names, sheet.leftovers_to)})" if sheet.leftovers_to is not None else "")
            + ": "
        )
        lt.append_text(cards_text(sheet.leftovers, symbols))
        lines.append(lt)
    if sheet.set_aside:
        st = Text(
            f"The set-aside mournival to {_name(names, sheet.set_aside_to)}: "
            if sheet.set_aside_to is not None
            else "The set-aside mournival: "
        )
        st.append_text(cards_text(sheet.set_aside, symbols))
        lines.append(st)
    return lines


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Player {seat}"


class _Fitted:
    """``wide`` where it fits the width it is given, else ``narrow`` (a table that would squeeze
    its figures to ellipses becomes a line a seat)."""

    def __init__(self, wide, narrow):
        self.wide = wide
        self.narrow = narrow

    def __rich_console__(self, console, options):
        need = Measurement.get(console, options.update(width=10_000), self.wide).maximum
        yield self.wide if need <= options.max_width else self.narrow


def review_renderable(
    mistakes: Sequence[Mistake],
    sightings: Sequence[Sighting] = (),
    *,
    review: DealReview | None = None,
    names: Sequence[str] | None = None,
    seat: int = 0,
    symbols: bool = True,
    set_aside: bool = False,
) -> Group:
    """The review of the learner's play: how the learner spotted oversights (``sightings``:
    hits, misses and false claims, :func:`spotting_line`), the rule-based slips, each with the
    engine's reason (every miss and false claim among them), then, when ``review`` is given, the costliest decisions by the engine's analysis, each with its loss, what was
    best and why (``names`` names the seats, ``seat`` is the learner's; ``set_aside``: a table
    mournival is set aside rather than taken)."""
    lines: list = [Text("Review of your play", style="bold")]
    said = spotting_line(sightings)
    if said:
        lines.append(Text(said, style="dim"))
    if not mistakes:
        lines.append(
            Text(
                "No mistakes: every claim made, every declaration in time, every "
                "at-risk capture taken first.",
                style="green",
            )
        )
    else:
        lines.append(slips_grid([(m.title, m.index, m.text, m.reason) for m in mistakes]))
    if review is not None:
        lines += costly_lines(
            review, names or [f"Player {q}" for q in range(64)], seat, symbols, set_aside
        )
    return Group(*lines)


def slips_grid(slips: Sequence[tuple[str, int | None, str, str]]) -> Table:
    """The slips of a review, numbered: each ``(title, index, text, why)`` (``index`` the
    history index it belongs to, or None) as "1. Title (action N): text" with the why beneath.
    One drawing for a practice deal's review and a live table's (text is set as plain text)."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column()
    for i, (title, index, text, why) in enumerate(slips, 1):
        t = Text()
        t.append(title[:1].upper() + title[1:], style="bold yellow")
        t.append(f" (action {index + 1}): " if index is not None else ": ")
        t.append(text)
        grid.add_row(Text(f"{i}.", style="bold"), Group(t, Text(why, style="dim")))
    return grid


def spotting_line(sightings: Sequence[Sighting]) -> str:
    """One line of the deal's spotting: how many oversights were the learner's to claim, how
    many claimed first and missed, and the false claims; empty when there was none of these."""
    hits = sum(s.outcome == HIT for s in sightings)
    misses = sum(s.outcome == MISS for s in sightings)
    false = sum(s.outcome == FALSE_CLAIM for s in sightings)
    parts = []
    if hits + misses:
        parts.append(
            f"Oversights you could claim: {hits + misses}; you claimed {hits} first "
            f"and missed {misses}."
        )
    if false:
        parts.append(f"False claims (claims of nothing claimable): {false}.")
    return " ".join(parts)


def costly_lines(
    review: DealReview, names: Sequence[str], seat: int, symbols: bool, set_aside: bool = False
) -> list:
    """The costliest decisions of a :class:`~tutor.app.play.review.DealReview` as renderables:
    a heading with how many decisions were analysed and the expected loss over them, then each
    costly decision's action number, loss class and loss, what was played and what was best,
    and why."""
    unit = review.unit
    n = review.decisions
    head = Text("Your costliest decisions", style="bold")
    head.append(
        f" (the engine's analysis of your {n} decision{'s' if n != 1 else ''}, up to "
        f"{review.samples} deals played out each; expected loss over the deal "
        f"{review.total_loss:.2f} {unit})",
        style="dim",
    )
    out: list = [head]
    if not review.costly:
        least = LOSS_CLASSES[0][1]
        out.append(
            Text(
                f"None cost {least:g} {unit} or more: each was the best option or close to it."
                if n
                else "No decision to weigh: every move was forced.",
                style="green",
            )
        )
        return out
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column()
    minus = "−" if symbols else "-"
    for i, c in enumerate(review.costly, 1):
        top = Text()
        top.append(f"Action {c.index + 1}: ", style="bold")
        top.append(
            f"{c.verdict}, {minus}{c.loss:.2f} {unit}", style=_VERDICT_STYLE.get(c.verdict, "bold")
        )
        top.append(f" (± {c.loss_ci95:.2f})", style="dim")
        did = Text()
        did.append_text(_option_text(c.played, names, seat, symbols, set_aside))
        if c.then is not None:  # a question of timing: held through the turn action
            then = action_text(c.then, names, seat, symbols, set_aside)
            did.append(", then ")
            did.append(_mid_sentence(then.plain))
        # "best" only when the analysis separates it from every other option
        did.append("; best: " if c.clear else "; better: ")
        best = _option_text(c.best, names, seat, symbols, set_aside)
        best.plain = _mid_sentence(best.plain)
        did.append_text(best)
        if c.then is not None and c.best is not None:
            did.append(" first")
        if not c.clear and c.alike:
            did.append(
                " (or about as good: "
                + "; ".join(
                    _mid_sentence(_option_text(a, names, seat, symbols, set_aside).plain)
                    for a in c.alike
                )
                + ")"
            )
        did.append(".")
        grid.add_row(Text(f"{i}.", style="bold"), Group(top, did, Text(c.why, style="dim")))
    out.append(grid)
    return out


_VERDICT_STYLE = {"inaccuracy": "yellow", "mistake": "bold dark_orange", "blunder": "bold red"}


def _mid_sentence(text: str) -> str:
    """An action's words within a sentence: "You capture A♦ with A♣" -> "you capture A♦ with
    A♣" (only the first letter lowered: a card's rank letter keeps its case)."""
    return text[:1].lower() + text[1:]


def _option_text(a, names: Sequence[str], seat: int, symbols: bool, set_aside: bool) -> Text:
    """An option as the learner's own action in words (``You capture 7♠ with 7♥``), or the
    hold."""
    if a is None:
        return Text("You neither claim nor declare")
    return action_text(a, names, seat, symbols, set_aside)


def totals_table(
    names: Sequence[str],
    totals: Sequence[int],
    deals: int,
    stakes: bool,
    practice: bool = False,
    balances: Sequence[int] | None = None,
    title: str | None = None,
) -> Group:
    """Match totals after ``deals`` deals (``practice``: the first deal is not counted):
    ``totals`` are net stakes (``stakes``: stakes and pot scoring) or points; ``balances`` the
    stakes paid and received on lying down under points scoring (RULES.md 3.6), if any;
    ``title`` another heading (a round's totals)."""
    if title is None:
        title = f"Match totals after {deals} deal{'s' if deals != 1 else ''}"
        if practice:
            title += " (the practice game not scored)"
    t = Table(box=None, pad_edge=False, header_style="bold underline")
    t.add_column("player", no_wrap=True)
    t.add_column("net stakes" if stakes else "points", justify="right")
    if balances is not None:
        t.add_column("stakes", justify="right")
    order = sorted(range(len(names)), key=lambda q: -totals[q])
    for q in order:
        row = [names[q], f"{totals[q]:+d}" if stakes else str(totals[q])]
        if balances is not None:
            row.append(f"{balances[q]:+d}")
        t.add_row(*row)
    return Group(Text(title, style="bold"), t)
