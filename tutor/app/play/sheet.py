"""After a deal: the settlement table, the review of the learner's play and the match totals.

Every number comes from the engine's :class:`~tutor.engine.DealResult`, the ruleset's parameters
and the engine's analysis (:mod:`tutor.app.play.review`).  The score sheet of a match under a
ruleset's ``match_format`` is :func:`tutor.app.match_sheet.sheet_renderable`, the one ``laugh
match`` prints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Group
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from tutor.app.play.mistakes import FALSE_CLAIM, HIT, MISS, Mistake, Sighting
from tutor.app.play.review import DealReview
from tutor.engine.analysis import LOSS_CLASSES
from tutor.engine.deal import Deal
from tutor.engine.errors import IllegalAction
from tutor.engine.parameters import value_words
from tutor.puzzles.board import action_text, cards_text

__all__ = ["settlement_table", "review_renderable", "slips_grid", "spotting_line", "totals_table"]


def settlement_table(deal: Deal, names: Sequence[str], symbols: bool) -> Group:
    """The settlement of a finished deal (RULES.md 3.5, 3.6), read from the engine's breakdown
    (:attr:`tutor.engine.deal.DealResult.settlement`): per seat the cards won in play and at the
    end, and under stakes the ante, lie-down payments, bonus, stakes for cards, share of the pot
    and net; under pairs the bonus and points (and the payment balance where lying down pays)."""
    res = deal.result
    if res is None:
        raise IllegalAction("the deal is not over: there is no settlement yet")
    rs, pc = deal.ruleset, deal.rules
    rows = res.settlement
    stakes = rs.has_stakes
    pays = bool(res.payments)
    end = any(r.leftovers or r.set_aside for r in rows)
    t = Table(box=None, pad_edge=False, header_style="bold underline")
    t.add_column("player", no_wrap=True)
    cols: list[tuple[str, Callable[[Any], str]]] = []
    if end:
        cols += [("in play", lambda r: str(r.won_in_play)),
                 ("end", lambda r: f"+{r.leftovers + r.set_aside}" if r.leftovers + r.set_aside
                  else "")]
    cols.append(("won", lambda r: str(r.won)))
    if stakes:
        cols.append(("ante", lambda r: f"-{r.ante}" if r.ante else "0"))
    if pays:
        cols.append(("paid", lambda r: f"-{r.paid}" if r.paid else ""))
        cols.append(("got", lambda r: f"+{r.received}" if r.received else ""))
    game = deal.game
    if game.has_bonus:
        cols.append(("bonus", lambda r: f"+{r.bonus}" if r.bonus else ""))
    if game.settles_by_breakeven:
        cols.append(("cards", lambda r: f"{r.for_cards:+d}"))
    if game.pot_to_one_winner:
        cols.append(("pot", lambda r: f"+{r.pot_share}" if r.pot_share else ""))
    for label, _ in cols:
        t.add_column(label, justify="right")
    if stakes:
        t.add_column("net", justify="right")
    else:
        t.add_column("points", justify="right")
        if pays:
            t.add_column("stakes", justify="right")
    stacked = []
    for r in rows:
        who = names[r.seat] + (" D" if r.seat == deal.dealer else "")
        row: list = [who]
        row += [fn(r) for _, fn in cols]
        last = ([("net", f"{r.net:+d}")] if stakes else
                [("points", str(r.points))] + ([("stakes", f"{r.net:+d}")] if pays else []))
        row += [Text(last[0][1], style="bold")] + [v for _, v in last[1:]]
        t.add_row(*row)
        line = Text(f"{who}: ", style="bold")
        line.append(", ".join(f"{label} {fn(r)}" for label, fn in cols if fn(r)))
        line.append(", " + ", ".join(f"{label} {v}" for label, v in last), style="bold")
        stacked.append(line)
    lines: list = [Text("Settlement", style="bold"), _Fitted(t, Group(*stacked))]
    notes = []
    formula = game.settlement_formula(bonus=not stakes and game.has_bonus)
    if formula is not None:
        notes.append(f"Cards: {formula} stakes." if stakes else f"Points: {formula}.")
    if res.last_in is not None:
        notes.append(f"Last in: {names[res.last_in]}.")
    if res.bonus_to is not None and pc.last_in_bonus:
        notes.append(f"Bonus {pc.last_in_bonus} to {names[res.bonus_to]}: "
                     f"{value_words('bonus_to', rs.bonus_to)}.")
    if game.pot_to_one_winner and res.pot_to:
        share = sum(r.pot_share for r in rows)
        notes.append(f"Pot {share} to {', '.join(names[q] for q in res.pot_to)}: "
                     f"{value_words('pot_to', rs.pot_to)}.")
    if pays:
        notes.append(value_words("lie_down_pays", rs.value("lie_down_pays")).capitalize() + ".")
    lines.append(Text(" ".join(notes)))
    if res.leftovers:
        lt = Text(value_words("leftovers_to", rs.leftovers_to).capitalize()
                  + (f" ({names[res.leftovers_to]})" if res.leftovers_to is not None else "")
                  + ": ")
        lt.append_text(cards_text(res.leftovers, symbols))
        lines.append(lt)
    if res.set_aside:
        st = Text(f"The set-aside mournival to {names[res.set_aside_to]}: "
                  if res.set_aside_to is not None else "The set-aside mournival: ")
        st.append_text(cards_text(res.set_aside, symbols))
        lines.append(st)
    return Group(*lines)


class _Fitted:
    """``wide`` where it fits the width it is given, else ``narrow`` (a table that would squeeze
    its figures to ellipses becomes a line a seat)."""

    def __init__(self, wide, narrow):
        self.wide = wide
        self.narrow = narrow

    def __rich_console__(self, console, options):
        need = Measurement.get(console, options.update(width=10_000), self.wide).maximum
        yield self.wide if need <= options.max_width else self.narrow


def review_renderable(mistakes: Sequence[Mistake], sightings: Sequence[Sighting] = (), *,
                      review: DealReview | None = None, names: Sequence[str] | None = None,
                      seat: int = 0, symbols: bool = True, set_aside: bool = False) -> Group:
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
        lines.append(Text("No mistakes: every claim made, every declaration in time, every "
                          "at-risk capture taken first.", style="green"))
    else:
        lines.append(slips_grid([(m.title, m.index, m.text, m.reason) for m in mistakes]))
    if review is not None:
        lines += costly_lines(review, names or [f"Player {q}" for q in range(64)], seat, symbols,
                              set_aside)
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
        parts.append(f"Oversights you could claim: {hits + misses}; you claimed {hits} first "
                     f"and missed {misses}.")
    if false:
        parts.append(f"False claims (claims of nothing claimable): {false}.")
    return " ".join(parts)


def costly_lines(review: DealReview, names: Sequence[str], seat: int, symbols: bool,
                 set_aside: bool = False) -> list:
    """The costliest decisions of a :class:`~tutor.app.play.review.DealReview` as renderables:
    a heading with how many decisions were analysed and the expected loss over them, then each
    costly decision's action number, loss class and loss, what was played and what was best,
    and why."""
    unit = review.unit
    n = review.decisions
    head = Text("Your costliest decisions", style="bold")
    head.append(f" (the engine's analysis of your {n} decision{'s' if n != 1 else ''}, up to "
                f"{review.samples} playouts each; expected loss over the deal "
                f"{review.total_loss:.2f} {unit})", style="dim")
    out: list = [head]
    if not review.costly:
        least = LOSS_CLASSES[0][1]
        out.append(Text(f"None cost {least:g} {unit} or more: each was the best option or close "
                        "to it." if n else "No decision to weigh: every move was forced.",
                        style="green"))
        return out
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column()
    minus = "−" if symbols else "-"
    for i, c in enumerate(review.costly, 1):
        top = Text()
        top.append(f"Action {c.index + 1}: ", style="bold")
        top.append(f"{c.verdict}, {minus}{c.loss:.2f} {unit}",
                   style=_VERDICT_STYLE.get(c.verdict, "bold"))
        top.append(f" (± {c.loss_ci95:.2f})", style="dim")
        did = Text()
        did.append_text(_option_text(c.played, names, seat, symbols, set_aside))
        if c.then is not None:          # a question of timing: held through the turn action
            then = action_text(c.then, names, seat, symbols, set_aside)
            did.append(", then ")
            did.append(then.plain[0].lower() + then.plain[1:] if then.plain else "")
        # "best" only when the analysis separates it from every other option
        did.append("; best: " if c.clear else "; better: ")
        best = _option_text(c.best, names, seat, symbols, set_aside)
        best.plain = best.plain[0].lower() + best.plain[1:] if best.plain else best.plain
        did.append_text(best)
        if c.then is not None and c.best is not None:
            did.append(" first")
        if not c.clear and c.alike:
            did.append(" (or about as good: " + "; ".join(
                _option_text(a, names, seat, symbols, set_aside).plain.lower()
                for a in c.alike) + ")")
        did.append(".")
        grid.add_row(Text(f"{i}.", style="bold"), Group(top, did, Text(c.why, style="dim")))
    out.append(grid)
    return out


_VERDICT_STYLE = {"inaccuracy": "yellow", "mistake": "bold dark_orange", "blunder": "bold red"}


def _option_text(a, names: Sequence[str], seat: int, symbols: bool, set_aside: bool) -> Text:
    """An option as the learner's own action in words (``You capture 7♠ with 7♥``), or the
    hold."""
    if a is None:
        return Text("You neither claim nor declare")
    return action_text(a, names, seat, symbols, set_aside)


def totals_table(names: Sequence[str], totals: Sequence[int], deals: int, stakes: bool,
                 practice: bool = False, balances: Sequence[int] | None = None,
                 title: str | None = None) -> Group:
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
