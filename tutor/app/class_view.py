"""The class report at a terminal (``laugh class report``): tables that fit the width they are
given, whatever the number of learners.

Every table here has a first column of names (learners, or themes by group) and columns of
figures.  :func:`paged_columns` lays such a table out to a width: each column of figures as wide
as its widest figure (its heading wrapped at spaces to that width), the names' column the rest,
and, when the columns do not fit beside the names, as many pages of columns as it takes, the
names repeated on each.  Nothing is cut: a name or heading too long for its column goes on over
more lines.  So the grid of themes × learners reads at 80 columns (and at 40) with any number of
learners, each learner's name above their column.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from tutor.engine.safetext import one_line
from tutor.teaching.ratings import shown_rating

__all__ = ["Column", "paged_columns", "report_view"]

#: The narrowest the names' column is made before the figures go on another page.
NAMES_MIN = 12

#: Cells between two columns.
GAP = 2


@dataclass(frozen=True)
class Column:
    """A column of figures: its ``heading`` and one ``cells`` entry a row (text; a row of a
    group heading gets ``""``)."""

    heading: str
    cells: list[Text]


def _widest_word(text: str) -> int:
    return max((cell_len(w) for w in text.split()), default=0)


def paged_columns(
    heading: str, names: list[Text], columns: list[Column], width: int, names_min: int = NAMES_MIN
) -> list[tuple[range, Table]]:
    """The table of ``names`` (the first column, headed ``heading``) and ``columns``, laid out
    to ``width`` cells: a list of (the columns it shows, as a range of indexes into
    ``columns``; the table).  A column is as wide as its widest cell or the longest word of
    its heading; the names' column takes what is left, at least ``names_min`` cells (or its
    longest name, if shorter); columns that do not fit beside it go to the next page.  A
    column wider than a page on its own is a page of its own."""
    want = max([cell_len(n.plain) for n in names] + [cell_len(heading)])
    floor = min(want, names_min)
    widths = [
        max([cell_len(c.plain) for c in col.cells] + [_widest_word(col.heading), 1])
        for col in columns
    ]
    pages: list[range] = []
    start = 0
    while start < len(columns):
        used, stop = floor, start
        while stop < len(columns) and (stop == start or used + GAP + widths[stop] <= width):
            used += GAP + widths[stop]
            stop += 1
        pages.append(range(start, stop))
        start = stop
    out = []
    for page in pages or [range(0)]:
        room = width - sum(GAP + widths[i] for i in page)
        t = Table(
            box=None,
            pad_edge=False,
            padding=(0, GAP // 2),
            header_style="bold underline",
            show_edge=False,
            collapse_padding=False,
        )
        t.add_column(heading, width=max(1, min(want, room)), overflow="fold")
        for i in page:
            t.add_column(columns[i].heading, justify="right", width=widths[i], overflow="fold")
        for r, name in enumerate(names):
            t.add_row(name, *[columns[i].cells[r] for i in page])
        out.append((page, t))
    return out


def _cell(cell) -> Text:
    if cell is None or not cell.answers:
        return Text("·", style="dim")
    return Text(
        f"{100 * cell.accuracy:.0f}% {cell.right}/{cell.answers}",
        style="red" if cell.accuracy < 0.5 else "",
    )


def _rating(rating: float | None, rd: float | None) -> str:
    if rating is None or rd is None:
        return "-"
    return f"{shown_rating(rating, rd)} ± {rd:.0f}"


def _pages(title: str, tables: list[tuple[range, Table]]) -> list:
    """``title`` then each table, each of several headed with its page number."""
    parts: list = [Text(""), Text(title, style="bold")]
    for k, (_, table) in enumerate(tables):
        if len(tables) > 1:
            parts.append(Text(f"(page {k + 1} of {len(tables)})", style="dim"))
        parts.append(table)
        if k + 1 < len(tables):
            parts.append(Text(""))
    return parts


def report_view(report, width: int) -> list:
    """The class report (:class:`tutor.teaching.classreport.ClassReport`) as rich renderables
    that fit ``width`` cells: a line for each export counted with another as one learner's;
    the learners with their answers (share right, right of answered) and ratings, then each
    group of figures per learner (spotting oversights); the grid of themes (rows, in plain
    words, by group) × learners (columns, then the class), each cell the share right and right
    of answered, weak cells in red as a second cue, in pages of learners when they do not all
    fit; then the weakest themes of the class."""
    n = len(report.learners)
    parts: list = [
        Text(
            f"Class report: {n} learner{'s' if n != 1 else ''}, "
            f"{report.total.answers} answer{'s' if report.total.answers != 1 else ''}",
            style="bold",
        )
    ]
    parts += [Text(note, style="yellow") for note in report.notes]
    names = [Text(one_line(lr.name)) for lr in report.learners]
    figures = [
        Column("answers", [_cell(lr.total) for lr in report.learners]),
        Column("rating", [Text(_rating(lr.rating, lr.rd)) for lr in report.learners]),
    ]
    parts += _pages(
        "Learners: share right, right/answered, rating",
        paged_columns("learner", names, figures, width),
    )
    for g in report.groups:
        columns = [
            Column(c, [Text(lr.extra.get(g.id, {}).get(c, "")) for lr in report.learners])
            for c in g.columns
        ]
        parts += _pages(g.title, paged_columns("learner", names, columns, width))
    rows: list[Text] = []
    cells: list[list[Text]] = [[] for _ in range(n + 1)]
    for label, themes in report.theme_groups():
        rows.append(Text(label, style="bold underline"))
        for col in cells:
            col.append(Text(""))
        for th in themes:
            rows.append(Text(th.label))
            for col, lr in zip(cells, report.learners):
                col.append(_cell(lr.cells.get(th.id)))
            cells[n].append(_cell(report.totals[th.id]))
    rows.append(Text("All", style="bold"))
    for col, lr in zip(cells, report.learners):
        col.append(_cell(lr.total))
    cells[n].append(_cell(report.total))
    grid = [Column(one_line(lr.name), col) for lr, col in zip(report.learners, cells)]
    grid.append(Column("class", cells[n]))
    parts += _pages(
        "By theme: share right, right/answered",
        paged_columns("theme", rows, grid, width, names_min=14),
    )
    if report.weakest:
        parts += [Text(""), Text("The weakest themes of the class", style="bold")]
        for th, c, low in report.weakest:
            line = f"  {th.label}: {100 * c.accuracy:.0f}% of {c.answers}"
            parts.append(Text(line + (f"; below half: {', '.join(low)}" if low else "")))
    return parts
