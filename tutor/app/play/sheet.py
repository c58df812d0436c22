"""After a deal: the settlement table, the review of the learner's mistakes, the match totals and,
for rulesets that keep a written score of points (``scoring: pairs``), the score sheet laid out
as the Inter-Livery 2018 sheet: a practice game first (not scored), then rounds of five games,
two rounds side by side, each with its total, and the cumulative score over the rounds.

Every number comes from the engine's :class:`~tutor.engine.DealResult` and the ruleset's
parameters.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tutor.engine.deal import Deal
from tutor.app.play.game import Mistake
from tutor.puzzles.board import cards_text, settlement_words

__all__ = ["settlement_table", "review_renderable", "totals_table", "score_sheet",
           "sheet_games", "ROUND"]

#: Games in a round of the Inter-Livery sheet.
ROUND = 5


def settlement_table(deal: Deal, names: Sequence[str], symbols: bool) -> Group:
    """The settlement of a finished deal (RULES.md 3.5), with the leftovers and the bonus."""
    res = deal.result
    assert res is not None, "the deal is not over"
    rs, pc = deal.ruleset, deal.rules
    stakes = res.net is not None
    t = Table(box=None, pad_edge=False, header_style="bold underline")
    t.add_column("player", no_wrap=True)
    t.add_column("won", justify="right")
    if stakes:
        t.add_column("ante", justify="right")
        t.add_column("bonus", justify="right")
        t.add_column("cards", justify="right")
        t.add_column("net", justify="right")
    else:
        if pc.last_in_bonus:
            t.add_column("bonus", justify="right")
        t.add_column("points", justify="right")
    for q in range(deal.n):
        won = len(res.won[q])
        name = names[q] + (" D" if q == deal.dealer else "")
        bonus = pc.last_in_bonus if res.bonus_to == q and pc.last_in_bonus else 0
        if stakes:
            t.add_row(name, str(won), f"-{pc.ante(q, deal.dealer)}", f"+{bonus}" if bonus else "",
                      f"{(won - pc.breakeven) // 2:+d}", Text(f"{res.net[q]:+d}", style="bold"))
        else:
            row = [name, str(won)]
            if pc.last_in_bonus:
                row.append(f"+{bonus}" if bonus else "")
            row.append(Text(str(res.points[q]), style="bold"))
            t.add_row(*row)
    lines: list = [Text("Settlement", style="bold"), t]
    notes = []
    if stakes:
        notes.append(f"Cards: (won - {pc.breakeven}) / 2 stakes.")
    if res.last_in is not None:
        notes.append(f"Last in: {names[res.last_in]}.")
    if res.bonus_to is not None and pc.last_in_bonus:
        why = "last in" if rs.bonus_to == "last_in" else "last capture"
        notes.append(f"Bonus {pc.last_in_bonus} to {names[res.bonus_to]} ({why}).")
    if notes:
        lines.append(Text(" ".join(notes)))
    if res.leftovers:
        lt = Text(f"Leftovers to {settlement_words(deal)}"
                  + (f" ({names[res.leftovers_to]})" if res.leftovers_to is not None else "")
                  + ": ")
        lt.append_text(cards_text(res.leftovers, symbols))
        lines.append(lt)
    return Group(*lines)


def review_renderable(mistakes: Sequence[Mistake], claimed: int, claimable: int) -> Group:
    """The review of the learner's mistakes, each with the engine's reason; ``claimed`` of
    ``claimable`` oversights were claimed by the learner."""
    lines: list = [Text("Review of your play", style="bold")]
    if claimable:
        lines.append(Text(f"Oversights you could claim: {claimable}; you claimed {claimed}.",
                          style="dim"))
    if not mistakes:
        lines.append(Text("No mistakes: every claim made, every declaration in time, every "
                          "at-risk capture taken first.", style="green"))
        return Group(*lines)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column()
    for i, m in enumerate(mistakes, 1):
        t = Text()
        t.append(m.title[0].upper() + m.title[1:], style="bold yellow")
        t.append(f" (action {m.index + 1}): ")
        t.append(m.text)
        grid.add_row(Text(f"{i}.", style="bold"), Group(t, Text(m.reason, style="dim")))
    lines.append(grid)
    return Group(*lines)


def totals_table(names: Sequence[str], totals: Sequence[int], deals: int, stakes: bool,
                 practice: bool = False) -> Group:
    """Match totals after ``deals`` deals (``practice``: the first deal is not counted)."""
    title = f"Match totals after {deals} deal{'s' if deals != 1 else ''}"
    if practice:
        title += " (the practice game not scored)"
    t = Table(box=None, pad_edge=False, header_style="bold underline")
    t.add_column("player", no_wrap=True)
    t.add_column("net stakes" if stakes else "points", justify="right")
    order = sorted(range(len(names)), key=lambda q: -totals[q])
    for q in order:
        t.add_row(names[q], f"{totals[q]:+d}" if stakes else str(totals[q]))
    return Group(Text(title, style="bold"), t)


def sheet_games(points: Sequence[int]) -> tuple[int | None, list[list[int]]]:
    """Split one player's points per deal into the practice game and rounds of five."""
    if not points:
        return None, []
    practice, games = points[0], list(points[1:])
    return practice, [games[i:i + ROUND] for i in range(0, len(games), ROUND)]


def score_sheet(name: str, points: Sequence[int]) -> Group:
    """One player's score sheet in the Inter-Livery layout (points per deal, in order)."""
    practice, rounds = sheet_games(points)
    lines: list = [Text(f"Score sheet: {name}", style="bold"),
                   Text(f"Practice game (the first game is for practice only and is not scored): "
                        f"{practice if practice is not None else '-'}", style="dim")]
    if not rounds:
        rounds = [[]]
    blocks = [rounds[i:i + 2] for i in range(0, len(rounds), 2)]
    cumulative = 0
    for b, pair in enumerate(blocks):
        t = Table(show_edge=True, pad_edge=True, show_lines=False)
        for r, games in enumerate(pair):
            number = 2 * b + r + 1
            t.add_column("Game", justify="right")
            t.add_column(f"Round {number} scores", justify="right")
        for g in range(ROUND):
            row = []
            for games in pair:
                row += [str(g + 1), str(games[g]) if g < len(games) else ""]
            t.add_row(*row)
        row = []
        for games in pair:
            row += [Text("Total", style="bold"), Text(str(sum(games)), style="bold")]
            cumulative += sum(games)
        t.add_section()
        t.add_row(*row)
        lines.append(t)
    label = "over both rounds" if len(rounds) <= 2 else f"over {len(rounds)} rounds"
    lines.append(Text(f"Cumulative score {label}: {cumulative}", style="bold"))
    return Group(*lines)
