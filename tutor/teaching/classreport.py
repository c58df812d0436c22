"""A teacher's class report: several learners' progress exports as one grid of learners ×
themes (``laugh class report FILES... [--html OUT] [--csv OUT]``).

Each export (:mod:`tutor.teaching.transfer`) is read into a store in memory, so every number is
the one the learner's own ``laugh stats`` shows.  A cell of the grid is one learner on one theme:
accuracy (right of answered) and how many answers; the grid has a total column (each learner's
answers, each counted once, with the learner's Glicko-2 rating) and a total row (the class on
each theme).  Themes are named in plain words (:mod:`tutor.puzzles.themes`), grouped as the
theme table groups them, spelt one way whatever spelling an export used.  The weakest themes of
the class come after the grid.

More columns per learner come from :data:`COLUMN_GROUPS`: each :class:`ColumnGroup` reads its
values from a learner's export (and the store made from it) and adds a group of columns to the
right of the grid, in the HTML, the CSV and the terminal alike.  A group no export has values
for is left out.  (The oversight figures per learner, hits, misses, false claims and the median
time of hits, are to be such a group once exports carry them.)

The HTML is a Jinja2 template (:mod:`tutor.teaching.html`, autoescaped: a learner's name, a
file name or a theme from an export is text, never markup); colour marks a cell's accuracy only
as a second cue, after its number; a provisional rating is marked ``?``
(:func:`tutor.teaching.ratings.shown_rating`).  The CSV holds the same grid and totals, and no
cell of it can start a formula (:func:`tutor.engine.safetext.csv_cell`).
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tutor.engine.safetext import csv_cell
from tutor.puzzles.themes import Theme, theme
from tutor.teaching import ratings as R
from tutor.teaching.progress import Answer, ProgressStore
from tutor.teaching.transfer import Export

__all__ = ["COLUMN_GROUPS", "Cell", "ClassReport", "ColumnGroup", "Learner", "WEAK_BELOW",
           "band", "build_report", "csv_columns", "render_csv", "render_html"]

#: A cell whose accuracy is below this share is weak (shaded, and the class's weakest themes
#: are counted by it).
WEAK_BELOW = 0.5


@dataclass(frozen=True)
class Cell:
    """One learner (or the class) on one theme, or in all: ``answers``, ``right``, ``median``
    seconds of the timed answers (None when none was timed), ``timed`` answers."""

    answers: int
    right: int
    median: float | None = None
    timed: int = 0

    @property
    def accuracy(self) -> float:
        """Share right, 0..1."""
        return self.right / self.answers if self.answers else 0.0


def _cell(answers: list[Answer]) -> Cell:
    import statistics
    times = [a.seconds for a in answers if a.seconds is not None]
    return Cell(len(answers), sum(a.correct for a in answers),
                statistics.median(times) if times else None, len(times))


@dataclass(frozen=True)
class ColumnGroup:
    """A group of columns after the themes, one value a learner in each: ``id``, ``title`` (the
    group's heading), ``columns`` (the headings), ``note`` (how to read them, in our words) and
    ``read``: ``read(export, store)`` gives the learner's values by column heading (text), or
    None when the export carries none (``store`` holds the export's answers, in memory)."""

    id: str
    title: str
    columns: tuple[str, ...]
    read: Callable[[Export, ProgressStore], dict[str, str] | None]
    note: str = ""


#: The column groups every report offers (see the module docstring): the place where the
#: oversight figures per learner (hits, misses, false claims, median time of hits) join the
#: report, read from the export once the progress store records them.
COLUMN_GROUPS: list[ColumnGroup] = []


@dataclass
class Learner:
    """One learner of the report: ``name``, the ``file`` it came from, ``total`` (every answer
    once), the overall ``rating`` and its deviation ``rd`` (None when never rated), ``cells``
    by theme id, and ``extra`` values by column group id (then column heading)."""

    name: str
    file: str
    total: Cell
    rating: float | None
    rd: float | None
    cells: dict[str, Cell] = field(default_factory=dict)
    extra: dict[str, dict[str, str]] = field(default_factory=dict)

    @property
    def answers(self) -> int:
        return self.total.answers


@dataclass
class ClassReport:
    """The report: ``learners``; ``themes`` answered by any of them, in the theme table's order
    (:class:`tutor.puzzles.themes.Theme`; an unknown theme last, by its id); ``totals`` the
    class on each theme (by id) and ``total`` in all; ``groups`` the column groups with values;
    ``weakest`` the weakest themes of the class (:meth:`weakest_themes`); ``made_at``."""

    learners: list[Learner]
    themes: list[Theme]
    totals: dict[str, Cell]
    total: Cell
    groups: list[ColumnGroup]
    made_at: float
    weakest: list[tuple[Theme, Cell, list[str]]] = field(default_factory=list)

    def theme_groups(self) -> list[tuple[str, list[Theme]]]:
        """The themes by group, in order: (group label, themes)."""
        out: dict[str, list[Theme]] = {}
        for t in self.themes:
            out.setdefault(t.group_label, []).append(t)
        return list(out.items())

    def weakest_themes(self, limit: int = 5) -> list[tuple[Theme, Cell, list[str]]]:
        """Up to ``limit`` themes the class answered least well: those whose class accuracy is
        below :data:`WEAK_BELOW` or that some learner has below it, lowest class accuracy
        first (then more answers first, then the table's order); each with its class cell and
        the names of the learners below it."""
        out = []
        for t in self.themes:
            total = self.totals[t.id]
            low = [lr.name for lr in self.learners
                   if t.id in lr.cells and lr.cells[t.id].accuracy < WEAK_BELOW]
            if total.accuracy < WEAK_BELOW or low:
                out.append((t, total, low))
        out.sort(key=lambda x: (x[1].accuracy, -x[1].answers, x[0].order, x[0].id))
        return out[:limit]


def band(cell: Cell | None) -> str:
    """The shade of a cell, a second cue after its number: ``weak`` (below half right),
    ``middle`` (below 80%), ``strong``, or ``none`` (no answers)."""
    if cell is None or not cell.answers:
        return "none"
    if cell.accuracy < WEAK_BELOW:
        return "weak"
    return "middle" if cell.accuracy < 0.8 else "strong"


def build_report(exports: list[tuple[str, Export]],
                 groups: list[ColumnGroup] | None = None) -> ClassReport:
    """The report of ``exports`` (file name, export read by
    :func:`tutor.teaching.transfer.read_export`).  A learner is named by the export's
    ``learner`` or else its file name; two of one name are told apart by their files.
    ``groups`` defaults to :data:`COLUMN_GROUPS`."""
    groups = COLUMN_GROUPS if groups is None else groups
    learners = []
    names = [e.learner or _stem(f) for f, e in exports]
    by_theme: dict[str, list[Answer]] = {}
    everything: list[Answer] = []
    for (file, export), name in zip(exports, names):
        if names.count(name) > 1:
            name = f"{name} ({_stem(file)})"
        learner, answers = _learner(name, file, export, groups)
        learners.append(learner)
        everything += answers
        for a in answers:
            for t in dict.fromkeys(a.themes):
                by_theme.setdefault(t, []).append(a)
    themes = sorted((theme(t) for t in by_theme), key=lambda t: (t.order, t.id))
    used = [g for g in groups if any(g.id in lr.extra for lr in learners)]
    report = ClassReport(learners, themes, {t: _cell(a) for t, a in by_theme.items()},
                         _cell(everything), used, time.time())
    report.weakest = report.weakest_themes()
    return report


def _stem(file: str) -> str:
    base = file.replace("\\", "/").rsplit("/", 1)[-1]
    return base[:-5] if base.lower().endswith(".json") else base


def _learner(name: str, file: str, export: Export,
             groups: list[ColumnGroup]) -> tuple[Learner, list[Answer]]:
    store = ProgressStore.in_memory()
    try:
        store.merge(export.answers, export.lessons, export.meta)
        answers = store.answers()                  # themes in their one spelling
        overall = store.rating(R.OVERALL)
        by_theme: dict[str, list[Answer]] = {}
        for a in answers:
            for t in dict.fromkeys(a.themes):
                by_theme.setdefault(t, []).append(a)
        lr = Learner(name, file, _cell(answers),
                     overall.rating.rating if overall else None,
                     overall.rating.rd if overall else None,
                     {t: _cell(a) for t, a in by_theme.items()})
        for g in groups:
            values = g.read(export, store)
            if values is not None:
                lr.extra[g.id] = {c: str(values.get(c, "")) for c in g.columns}
        return lr, answers
    finally:
        store.close()


# --------------------------------------------------------------------------------------------
# CSV

def _acc(cell: Cell | None) -> str:
    return "" if cell is None or not cell.answers else f"{cell.accuracy:.3f}"


def _num(value: float | None, digits: int = 0) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def csv_columns(report: ClassReport) -> list[str]:
    """The CSV's header: the learner, the file, the totals, each theme's accuracy and answers
    (named in plain words and by id), then each column group's columns."""
    head = ["learner", "file", "all: answers", "all: right", "all: accuracy", "rating",
            "rating deviation"]
    for t in report.themes:
        head += [f"{t.label} [{t.id}]: accuracy", f"{t.label} [{t.id}]: answers"]
    for g in report.groups:
        head += [f"{g.title}: {c}" for c in g.columns]
    return head


def render_csv(report: ClassReport) -> str:
    """The grid as CSV (:func:`csv_columns`): a row a learner, then a last row ``Class`` of the
    totals; accuracy 0..1 to three places, ratings whole, empty where there is no value.  Every
    cell passes through :func:`tutor.engine.safetext.csv_cell`, so a name, file or theme taken
    from an export (``=HYPERLINK(...)``, ``@SUM(...)``, ``+``, ``-``, tab, CR) cannot start a
    formula when the file is opened in a spreadsheet."""
    out = io.StringIO()
    w = csv.writer(out)         # lines end CR LF (RFC 4180), so a CR in a name is quoted too
    w.writerow([csv_cell(c) for c in csv_columns(report)])
    for lr in report.learners:
        row = [lr.name, lr.file, lr.total.answers, lr.total.right, _acc(lr.total),
               _num(lr.rating), _num(lr.rd)]
        for t in report.themes:
            c = lr.cells.get(t.id)
            row += [_acc(c), c.answers if c else ""]
        for g in report.groups:
            values = lr.extra.get(g.id, {})
            row += [values.get(c, "") for c in g.columns]
        w.writerow([csv_cell(v) for v in row])
    row = ["Class", "", report.total.answers, report.total.right, _acc(report.total), "", ""]
    for t in report.themes:
        c = report.totals[t.id]
        row += [_acc(c), c.answers]
    row += [""] * sum(len(g.columns) for g in report.groups)
    w.writerow([csv_cell(v) for v in row])
    return out.getvalue()


# --------------------------------------------------------------------------------------------
# HTML


def render_html(report: ClassReport) -> str:
    """The report as one printable HTML page (``classreport.html.j2``, landscape): the grid of
    learners × themes with its totals (each learner's rating marked ``?`` while provisional,
    and a line saying what ``?`` means), the weakest themes of the class, how to read it."""
    from tutor.teaching.html import render
    made = time.strftime("%Y-%m-%d %H:%M", time.localtime(report.made_at))
    provisional = any(lr.rd is not None and lr.rd > R.PROVISIONAL_RD for lr in report.learners)
    return render("classreport.html.j2", report=report, made=made, band=band,
                  weak_below=WEAK_BELOW, shown_rating=R.shown_rating,
                  provisional=R.PROVISIONAL_NOTE if provisional else "")
