"""A match's score sheet, in the terminal (rich) and as printable HTML.

Under a ruleset with a ``match_format`` the sheet is laid out as the Inter-Livery 2018 score
sheet ("Game Number | Round 1 scores | Game Number | Round 2 scores", a "Total score" under each
round, then "Cumulative Score over both rounds"), one sheet a player.  The games and which is
the practice game come from the engine's plan (:func:`tutor.engine.match.plan_games`): under
``inter-livery-2018`` the practice game is game 1 of round 1, as the ruleset's note reads the
sheet; its score is shown in brackets and left out of the totals ("The first game is for practice
only and is not scored").  Without a match format the sheet is a table of every deal's result per
player with the running totals.

Every number is the engine's (:meth:`tutor.engine.deal.Deal.returns`, :attr:`Match.totals`);
every name in the HTML is escaped (``html.escape``).
"""

from __future__ import annotations

import html
import time

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tutor.engine.match import Game, Match

__all__ = ["round_scores", "sheet_renderable", "deals_renderable", "sheet_html"]


def round_scores(match: Match, seat: int) -> list[list[tuple[Game, int | None]]]:
    """``seat``'s scores by round: for each round of the plan, its games in order with the
    seat's result (None for a game not yet played)."""
    results = [d.returns()[seat] for d in match.deals]
    rounds: dict[int, list] = {}
    for g in match.games:
        score = results[g.index] if g.index < len(results) else None
        rounds.setdefault(g.round or 1, []).append((g, score))
    return [rounds[r] for r in sorted(rounds)]


def _over(rounds: int) -> str:
    """``both rounds``, ``the round``, ``3 rounds``."""
    return {1: "the round", 2: "both rounds"}.get(rounds, f"{rounds} rounds")


def _total(games) -> int:
    return sum(score for g, score in games if score is not None and not g.practice)


def _cell(game: Game, score: int | None) -> str:
    if score is None:
        return ""
    return f"({score}) practice" if game.practice else str(score)


def sheet_renderable(match: Match, seat: int, name: str) -> Group:
    """``name``'s score sheet (the player at ``seat``) in the Inter-Livery layout: two rounds
    side by side, each game's score, each round's total, the cumulative score."""
    rounds = round_scores(match, seat)
    played = len(match.deals)
    lines: list = [Text(f"Score sheet: {name}", style="bold"),
                   Text(f"{match.ruleset.title}, {match.players} players; {played} of "
                        f"{len(match.games)} games played", style="dim")]
    if any(g.practice for g in match.games):
        lines.append(Text("The first game is for practice only and is not scored.", style="dim"))
    cumulative = 0
    for b in range(0, len(rounds), 2):
        pair = rounds[b:b + 2]
        t = Table(show_edge=True, pad_edge=True)
        for r in range(len(pair)):
            t.add_column("Game", justify="right")
            t.add_column(f"Round {b + r + 1} scores", justify="right")
        for i in range(max(len(games) for games in pair)):
            row: list = []
            for games in pair:
                if i < len(games):
                    g, score = games[i]
                    row += [str(g.number or i + 1), _cell(g, score)]
                else:
                    row += ["", ""]
            t.add_row(*row)
        t.add_section()
        row = []
        for games in pair:
            row += [Text("Total score", style="bold"), Text(str(_total(games)), style="bold")]
            cumulative += _total(games)
        t.add_row(*row)
        lines.append(t)
    over = _over(len(rounds))
    lines.append(Text(f"Cumulative score over {over}: {cumulative}", style="bold"))
    return Group(*lines)


def deals_renderable(match: Match, names: list[str]) -> Group:
    """Every deal's result per player (net stakes or points), the dealer marked, and the totals."""
    stakes = match.ruleset.has_stakes
    t = Table(box=None, pad_edge=False, header_style="bold underline")
    t.add_column("deal", no_wrap=True)
    for n in names:
        t.add_column(n, justify="right", no_wrap=True)
    for g, d in zip(match.games, match.deals):
        label = g.label + (" (not scored)" if g.practice else "")
        t.add_row(f"{label}, {names[g.dealer]} dealt",
                  *[f"{v:+d}" if stakes else str(v) for v in d.returns()])
    t.add_section()
    t.add_row(Text("Total", style="bold"),
              *[Text(f"{v:+d}" if stakes else str(v), style="bold") for v in match.totals])
    return Group(Text("Deal by deal", style="bold"), t)


_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.4em; margin: 0 0 0.2em; }
p { margin: 0.3em 0; }
.sheet { page-break-after: always; margin-bottom: 2em; }
.sheet:last-child { page-break-after: auto; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #333; padding: 0.25em 0.9em; min-width: 3em; }
th { background: #eee; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
td.practice { color: #555; font-style: italic; }
tr.total td { font-weight: bold; }
.blank { display: inline-block; min-width: 12em; border-bottom: 1px dotted #333; }
@media print { body { margin: 0; } }
"""


def sheet_html(match: Match, names: list[str], seat: int) -> str:
    """The match as one printable HTML page: under a match format, one score sheet a player (the
    player at ``seat`` first, each on a page of its own); otherwise the deal-by-deal table.
    Every name is escaped."""
    esc = html.escape
    rs = match.ruleset
    title = f"Laugh and Lie Down: {rs.title}"
    head = (f"{esc(rs.title)}, {match.players} players, seed {esc(str(match.seed))}; "
            f"{len(match.deals)} of {len(match.games)} games played; printed "
            f"{esc(time.strftime('%Y-%m-%d'))}")
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{esc(title)}</title>", f"<style>{_CSS}</style>", "</head><body>"]
    if rs.match_format:
        for q in [seat] + [q for q in range(match.players) if q != seat]:
            parts.append(_sheet_html(match, q, names[q], head))
    else:
        parts.append(f'<div class="sheet"><h1>{esc(title)}</h1><p>{head}</p>')
        stakes = rs.has_stakes
        parts.append("<table><thead><tr><th>deal</th><th>dealer</th>"
                     + "".join(f"<th>{esc(n)}</th>" for n in names) + "</tr></thead><tbody>")
        for g, d in zip(match.games, match.deals):
            parts.append(f"<tr><td>{esc(g.label)}</td><td>{esc(names[g.dealer])}</td>"
                         + "".join(f'<td class="n">{v:+d}</td>' if stakes else
                                   f'<td class="n">{v}</td>' for v in d.returns()) + "</tr>")
        parts.append('<tr class="total"><td>Total</td><td></td>'
                     + "".join(f'<td class="n">{v:+d}</td>' if stakes else
                               f'<td class="n">{v}</td>' for v in match.totals)
                     + "</tr></tbody></table></div>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _sheet_html(match: Match, seat: int, name: str, head: str) -> str:
    esc = html.escape
    rounds = round_scores(match, seat)
    out = ['<div class="sheet">',
           "<h1>Score sheet (The first game is for practice only and is not scored)</h1>"
           if any(g.practice for g in match.games) else "<h1>Score sheet</h1>",
           f'<p>Name: <b>{esc(name)}</b> &nbsp; Livery: <span class="blank"></span></p>',
           f"<p>{head}</p>"]
    cumulative = 0
    for b in range(0, len(rounds), 2):
        pair = rounds[b:b + 2]
        out.append("<table><thead><tr>" + "".join(
            f"<th>Game Number</th><th>Round {b + r + 1} scores</th>" for r in range(len(pair)))
            + "</tr></thead><tbody>")
        for i in range(max(len(games) for games in pair)):
            cells = []
            for games in pair:
                if i < len(games):
                    g, score = games[i]
                    cls = "n practice" if g.practice else "n"
                    cells.append(f'<td class="n">{g.number or i + 1}</td>'
                                 f'<td class="{cls}">{esc(_cell(g, score))}</td>')
                else:
                    cells.append("<td></td><td></td>")
            out.append("<tr>" + "".join(cells) + "</tr>")
        out.append('<tr class="total">' + "".join(
            f'<td>Total score</td><td class="n">{_total(games)}</td>' for games in pair) + "</tr>")
        cumulative += sum(_total(games) for games in pair)
        out.append("</tbody></table>")
    over = _over(len(rounds))
    out.append(f"<p><b>Cumulative Score over {over}: {cumulative}</b></p></div>")
    return "\n".join(out)
