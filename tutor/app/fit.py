"""Renderables that fit the width they are drawn at, cutting nothing (issue 34: a column
heading folded as ``parlett-tournamen`` / ``t``, a page number cut to ``· pag…``).

- :class:`TitledRule`: a rule with a title, as rich draws it when the title fits on the rule;
  a longer title goes above a plain rule, wrapped at spaces.
- :class:`FitTable`: a table when every column fits whole beside the others (a column as wide
  as its widest cell, or, where its cells may wrap, its longest word; a heading never broken
  inside a word), else one block a row: the row's first cell, then each other column's heading
  and value on a line of its own.

Both decide when they are drawn (a terminal resized between screens gets the right one), and
never cut: a word longer than the whole width stands on a line of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rich.cells import cell_len
from rich.console import Group
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

__all__ = ["FitTable", "TitledRule"]


def _longest_word(text: str) -> int:
    return max((cell_len(w) for w in text.split()), default=0)


class TitledRule:
    """A rule titled ``title`` (``style``, ``align`` as :class:`rich.rule.Rule`), or, where the
    title and a short rule either side do not fit, the title (wrapped at spaces) above a
    plain rule."""

    def __init__(
        self, title: str, style: str = "dim", align: Literal["left", "center", "right"] = "center"
    ):
        self.title = title
        self.style = style
        self.align = align

    def __rich_console__(self, console, options):
        if cell_len(self.title) + 6 <= options.max_width:
            yield Rule(self.title, style=self.style, align=self.align)
        else:
            yield Text(self.title, style=self.style)
            yield Rule(style=self.style)


class FitTable:
    """``rows`` under ``columns`` (headings), drawn as a table where it fits and as one block a
    row where it does not (see the module docstring).  ``wrap``: the columns whose cells may
    wrap at spaces (the others are kept on one line); ``right``: the columns set right;
    ``title`` above either; ``lines``: rules between the table's rows."""

    def __init__(
        self,
        columns: Sequence[str],
        rows: Sequence[Sequence],
        *,
        title: str = "",
        wrap: Sequence[int] = (),
        right: Sequence[int] = (),
        lines: bool = False,
    ):
        self.columns = list(columns)
        self.rows = [[c if isinstance(c, Text) else Text(str(c)) for c in r] for r in rows]
        self.title = title
        self.wrap = set(wrap)
        self.right = set(right)
        self.lines = lines

    def widths(self) -> list[int]:
        """Each column's narrowest whole width: its heading's longest word, and its cells
        whole (or their longest word, in a column that wraps)."""
        out = []
        for i, heading in enumerate(self.columns):
            cells = [r[i].plain for r in self.rows]
            fit = _longest_word if i in self.wrap else cell_len
            out.append(max([_longest_word(heading), 1] + [fit(c) for c in cells]))
        return out

    def laid_out(self, max_width: int) -> list[int] | None:
        """The columns' widths in a table of at most ``max_width`` cells: each at least its
        :meth:`widths`, the room left shared out (a column that needs little to hold its cells
        on one line gets it whole; the rest share alike); None when the narrowest widths do not
        fit."""
        widths = self.widths()
        room = max_width - (3 * len(widths) + 1) - sum(widths)  # borders, padding
        if room < 0:
            return None
        want = [
            max([cell_len(h)] + [cell_len(r[i].plain) for r in self.rows])
            for i, h in enumerate(self.columns)
        ]
        short = [max(0, want[i] - w) for i, w in enumerate(widths)]
        order = sorted(range(len(widths)), key=lambda k: short[k])
        for done, k in enumerate(order):  # the least short first, then fair shares
            give = min(short[k], room // (len(order) - done))
            widths[k] += give
            room -= give
        return widths

    def __rich_console__(self, console, options):
        widths = self.laid_out(options.max_width)
        if widths is not None:
            t = Table(title=self.title or None, title_justify="left", show_lines=self.lines)
            for i, (heading, w) in enumerate(zip(self.columns, widths)):
                t.add_column(
                    heading,
                    width=w,
                    overflow="fold",
                    justify="right" if i in self.right else "left",
                )
            for r in self.rows:
                t.add_row(*r)
            yield t
            return
        parts: list = [Text(self.title, style="bold")] if self.title else []
        for r in self.rows:
            head = r[0].copy()
            head.stylize("bold")
            parts.append(head)
            grid = Table.grid(padding=(0, 1))
            grid.add_column(style="dim", no_wrap=True, overflow="fold")
            grid.add_column(ratio=1, overflow="fold")
            for heading, cell in zip(self.columns[1:], r[1:]):
                grid.add_row(Text("  " + heading), cell)
            parts.append(grid)
        yield Group(*parts)
