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
the HTML is a Jinja2 template (:mod:`tutor.teaching.html`, autoescaped), so every name is
escaped; the sheet's layout is :func:`tutor.teaching.scoresheet.sheet_layout`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from rich.console import Group
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from tutor.engine.match import Game, Match
from tutor.teaching.html import render
from tutor.teaching.scoresheet import over_words, sheet_layout

__all__ = ["round_scores", "sheet_renderable", "deals_renderable", "DealByDeal", "sheet_html"]


def round_scores(
    match: Match, seat: int, since: int = 0, *, scores: Sequence[int | None] | None = None
) -> list[list[tuple[Game, int | None]]]:
    """``seat``'s scores by round: for each round of the plan, its games in order with the
    seat's result (None for a game not yet played, and for one before game index ``since``,
    which a computer player played before the person took the seat).  ``scores``: the seat's
    result in each game played, given (a table's client has no deals), else the match's
    deals'."""
    results = (
        list(scores)
        if scores is not None
        else [None if k < since else d.returns()[seat] for k, d in enumerate(match.deals)]
    )
    rounds: dict[int, list] = {}
    for g in match.games:
        score = results[g.index] if g.index < len(results) else None
        rounds.setdefault(g.round or 1, []).append((g, score))
    return [rounds[r] for r in sorted(rounds)]


def _total(games) -> int:
    return sum(score for g, score in games if score is not None and not g.practice)


def _cell(game: Game, score: int | None) -> str:
    if score is None:
        return ""
    return f"({score}) practice" if game.practice else str(score)


def sheet_renderable(
    match: Match,
    seat: int,
    name: str,
    livery: str | None = None,
    *,
    scores: Sequence[int | None] | None = None,
) -> Group:
    """``name``'s score sheet (the player at ``seat``, of ``livery`` if given) in the
    Inter-Livery layout: two rounds side by side, each game's score, each round's total, the
    cumulative score; ``scores`` as :func:`round_scores` takes them."""
    rounds = round_scores(match, seat, scores=scores)
    played = len(match.deals) if scores is None else len(scores)
    lines: list = [
        Text(f"Score sheet: {name}" + (f", {livery}" if livery else ""), style="bold"),
        Text(
            f"{match.ruleset.title}, {match.players} players; {played} of "
            f"{len(match.games)} games played",
            style="dim",
        ),
    ]
    if any(g.practice for g in match.games):
        lines.append(Text("The first game is for practice only and is not scored.", style="dim"))
    cumulative = 0
    for b in range(0, len(rounds), 2):
        pair = rounds[b : b + 2]
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
    over = over_words(len(rounds))
    lines.append(Text(f"Cumulative score over {over}: {cumulative}", style="bold"))
    return Group(*lines)


def deals_renderable(match: Match, names: list[str]) -> Group:
    """Every deal's result per player (net stakes or points), the dealer marked, and the totals,
    laid out for the console's width (:class:`DealByDeal`)."""
    return Group(Text("Deal by deal", style="bold"), DealByDeal(match, names))


class DealByDeal:
    """The deal-by-deal table of a match, as wide as the console allows.

    Where it fits, one row a deal (``Game 2, round 1, Anne dealt``) and a column a player.
    Narrower (40 columns), the same table abbreviated: a deal as ``1.2`` (round 1, game 2),
    ``P`` (the practice game) or its number, the dealer's result marked ``*``, names cut to
    fit, and a key below it.  Narrower still (many players), one line a deal (``1.2 Anne
    dealt: You +1, Anne -4, ...``), wrapped, and the totals the same way."""

    def __init__(self, match: Match, names: list[str]):
        self.match = match
        self.names = names
        self.stakes = match.ruleset.has_stakes

    def _value(self, v: int) -> str:
        return f"{v:+d}" if self.stakes else str(v)

    def _rows(self):
        return list(zip(self.match.games, self.match.deals))

    def full(self) -> Table:
        """One row a deal with its whole label, a column a player."""
        t = Table(box=None, pad_edge=False, header_style="bold underline")
        t.add_column("deal", no_wrap=True)
        for n in self.names:
            t.add_column(n, justify="right", no_wrap=True)
        for g, d in self._rows():
            label = g.label + (" (not scored)" if g.practice else "")
            t.add_row(
                f"{label}, {self.names[g.dealer]} dealt", *[self._value(v) for v in d.returns()]
            )
        t.add_section()
        t.add_row(
            Text("Total", style="bold"),
            *[Text(self._value(v), style="bold") for v in self.match.totals],
        )
        return t

    @staticmethod
    def short_label(g: Game) -> str:
        """``P`` (the practice game), ``1.2`` (round 1, game 2), or the deal's number."""
        if g.round is None:
            return str(g.index + 1)
        return "P" if g.practice else f"{g.round}.{g.number}"

    def compact(self, name_width: int) -> Table:
        """The table abbreviated: short deal labels, the dealer's result marked ``*``, names cut
        to ``name_width`` characters."""
        t = Table(box=None, pad_edge=False, header_style="bold underline", padding=(0, 1))
        t.add_column("deal", no_wrap=True)
        for n in self.names:
            t.add_column(
                n if len(n) <= name_width else n[: name_width - 1] + "…",
                justify="right",
                no_wrap=True,
            )
        for g, d in self._rows():
            t.add_row(
                self.short_label(g),
                *[
                    self._value(v) + ("*" if q == g.dealer else " ")
                    for q, v in enumerate(d.returns())
                ],
            )
        t.add_section()
        t.add_row(
            Text("Total", style="bold"),
            *[Text(self._value(v) + " ", style="bold") for v in self.match.totals],
        )
        return t

    def key(self) -> Text:
        """What the abbreviations of :meth:`compact` and :meth:`lines` mean."""
        parts = ["* dealt"]
        if any(g.round is not None for g, _ in self._rows()):
            parts.append("1.2: round 1, game 2")
        if any(g.practice for g, _ in self._rows()):
            parts.append("P: the practice game (not scored)")
        return Text("; ".join(parts) + ".", style="dim")

    def lines(self) -> list[Text]:
        """One line a deal: its short label, the dealer, each player's result; then the
        totals."""
        out = []
        for g, d in self._rows():
            t = Text(f"{self.short_label(g)} ", style="bold")
            t.append(f"{self.names[g.dealer]} dealt: ")
            t.append(", ".join(f"{n} {self._value(v)}" for n, v in zip(self.names, d.returns())))
            out.append(t)
        total = Text("Total: ", style="bold")
        total.append(
            ", ".join(f"{n} {self._value(v)}" for n, v in zip(self.names, self.match.totals)),
            style="bold",
        )
        return out + [total]

    def __rich_console__(self, console, options):
        width = options.max_width
        wide = options.update_width(10_000)  # the natural width, uncut

        def fits(table: Table) -> bool:
            return Measurement.get(console, wide, table).maximum <= width

        full = self.full()
        if fits(full):
            yield full
            return
        for name_width in (6, 5, 4, 3):
            compact = self.compact(name_width)
            if fits(compact):
                yield compact
                yield self.key()
                return
        yield from self.lines()
        key = self.key()
        if "round" in key.plain or "P:" in key.plain:
            yield Text(key.plain.replace("* dealt; ", ""), style="dim")

    def __rich_measure__(self, console, options):
        return Measurement(1, options.max_width)


def sheet_html(
    match: Match,
    names: list[str],
    seat: int,
    *,
    since: list[int] | None = None,
    liveries: list[str | None] | None = None,
    teams: dict[str, int] | None = None,
) -> str:
    """The match as one printable HTML page (the template ``match_sheet.html.j2``, autoescaped):
    under a match format, one score sheet a player (the player at ``seat`` first, each on a page
    of its own); otherwise the deal-by-deal table.  ``since``: per seat, the game from which its
    person played it (the games before are left blank on their sheet); ``liveries``: per seat,
    the person's livery (on the sheet's "Livery" line), and ``teams`` each livery's total (on
    the sheet beside it)."""
    since = since or [0] * match.players
    liveries = liveries or [None] * match.players
    teams = teams or {}
    rs = match.ruleset
    title = f"Laugh and Lie Down: {rs.title}"
    head = (
        f"{rs.title}, {match.players} players, seed {match.seed}; {len(match.deals)} of "
        f"{len(match.games)} games played; printed {time.strftime('%Y-%m-%d')}"
    )
    stakes = rs.has_stakes

    def shown(v: int) -> str:
        return f"{v:+d}" if stakes else str(v)

    sheets = None
    if rs.game().has_match_format:
        sheets = [
            sheet_layout(
                round_scores(match, q, since[q]),
                names[q],
                head,
                livery=liveries[q],
                team=teams.get(liveries[q] or ""),
            )
            for q in [seat] + [q for q in range(match.players) if q != seat]
        ]
    deals = [
        (g.label, names[g.dealer], [shown(v) for v in d.returns()])
        for g, d in zip(match.games, match.deals)
    ]
    return render(
        "match_sheet.html.j2",
        title=title,
        head=head,
        sheets=sheets,
        names=names,
        deals=deals,
        totals=[shown(v) for v in match.totals],
    )
