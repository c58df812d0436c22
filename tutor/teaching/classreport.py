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
for is left out.  The one every report offers is :data:`SPOTTING`: each learner's figures of
spotting oversights in play, matches and drills (claimed first, missed, false claims, the
median time of timed hits), as ``laugh stats`` shows them.

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

__all__ = [
    "COLUMN_GROUPS",
    "SPOTTING",
    "Cell",
    "ClassReport",
    "ColumnGroup",
    "Learner",
    "WEAK_BELOW",
    "band",
    "build_report",
    "csv_columns",
    "one_learner_each",
    "render_csv",
    "render_html",
]

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
    return Cell(
        len(answers),
        sum(a.correct for a in answers),
        statistics.median(times) if times else None,
        len(times),
    )


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


def _spotting(export: Export, store: ProgressStore) -> dict[str, str] | None:
    """A learner's figures of spotting oversights, all kinds together (None without any)."""
    import statistics

    sightings = store.sightings()
    if not sightings:
        return None
    times = [s.seconds for s in sightings if s.outcome == "hit" and s.seconds is not None]
    count = {o: sum(s.outcome == o for s in sightings) for o in ("hit", "miss", "false_claim")}
    return {
        "claimed first": str(count["hit"]),
        "missed": str(count["miss"]),
        "false claims": str(count["false_claim"]),
        "median time": f"{statistics.median(times):.1f} s" if times else "-",
    }


#: The learner's figures of spotting oversights (see the module docstring).
SPOTTING = ColumnGroup(
    "oversights",
    "Spotting oversights",
    ("claimed first", "missed", "false claims", "median time"),
    _spotting,
    note="In play, matches and drills: an oversight claimed first, one that was the learner's "
    "to claim and was not, a claim of nothing claimable; the median time from claimable "
    "to named of the hits typed at a terminal.",
)

#: The column groups every report offers (see the module docstring).
COLUMN_GROUPS: list[ColumnGroup] = [SPOTTING]


@dataclass
class Learner:
    """One learner of the report: ``name``, the ``file`` it came from (the files, joined by
    ``", "``, when one learner's exports were merged), ``total`` (every answer
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
    ``weakest`` the weakest themes of the class (:meth:`weakest_themes`); ``made_at``;
    ``notes``: one line for each export counted with another as one learner's
    (:func:`one_learner_each`)."""

    learners: list[Learner]
    themes: list[Theme]
    totals: dict[str, Cell]
    total: Cell
    groups: list[ColumnGroup]
    made_at: float
    weakest: list[tuple[Theme, Cell, list[str]]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

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
            low = [
                lr.name
                for lr in self.learners
                if t.id in lr.cells and lr.cells[t.id].accuracy < WEAK_BELOW
            ]
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


def build_report(
    exports: list[tuple[str, Export]], groups: list[ColumnGroup] | None = None
) -> ClassReport:
    """The report of ``exports`` (file name, export read by
    :func:`tutor.teaching.transfer.read_export`).  A learner is named by the export's
    ``learner`` or else its file name; two of one name are told apart by their files.

    Exports of one learner make one learner of the report (:func:`one_learner_each`): the
    same file given twice, or two files that share an answer or a sighting (one learner's
    progress exported twice, or a copy), are merged as an import merges them, each answer
    counted once, and ``notes`` says so, one line each.  ``groups`` defaults to
    :data:`COLUMN_GROUPS`."""
    groups = COLUMN_GROUPS if groups is None else groups
    gathered, notes = one_learner_each(exports)
    names = [_name(es[0]) for es in gathered]
    learners = []
    by_theme: dict[str, list[Answer]] = {}
    everything: list[Answer] = []
    for es, name in zip(gathered, names):
        if names.count(name) > 1:
            name = f"{name} ({', '.join(dict.fromkeys(_stem(f) for f, _ in es))})"
        learner, answers = _learner(
            name, ", ".join(dict.fromkeys(f for f, _ in es)), [e for _, e in es], groups
        )
        learners.append(learner)
        everything += answers
        for a in answers:
            for t in dict.fromkeys(a.themes):
                by_theme.setdefault(t, []).append(a)
    themes = sorted((theme(t) for t in by_theme), key=lambda t: (t.order, t.id))
    used = [g for g in groups if any(g.id in lr.extra for lr in learners)]
    report = ClassReport(
        learners,
        themes,
        {t: _cell(a) for t, a in by_theme.items()},
        _cell(everything),
        used,
        time.time(),
        notes=notes,
    )
    report.weakest = report.weakest_themes()
    return report


def one_learner_each(
    exports: list[tuple[str, Export]],
) -> tuple[list[list[tuple[str, Export]]], list[str]]:
    """``exports`` (file name, export) gathered by learner, in the order given: a file given
    twice (by the same name or another path to it) and files that share an answer or a
    sighting (by ``uid``, the key an import merges by) are one learner's.  Returns the groups
    (each in the order given, the groups by their first file) and a note for each file
    gathered into an earlier one: the two files, the learners' names where the exports name
    them differently, and how much they share."""
    parent = list(range(len(exports)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    def join(i: int, j: int) -> None:
        a, b = root(i), root(j)
        if a != b:
            parent[max(a, b)] = min(a, b)  # a group's root is its first file

    said: dict[int, tuple[int, int]] = {}  # file -> (earlier file, items shared; -1: same)
    first_of: dict[object, int] = {}
    owner: dict[str, int] = {}  # uid -> the first file that holds it
    for i, (file, export) in enumerate(exports):
        key = _file_key(file)
        if key in first_of:
            join(i, first_of[key])
            said[i] = (first_of[key], -1)
            continue
        first_of[key] = i
        shared: dict[int, int] = {}
        for uid in [a.uid for a in export.answers] + [s.uid for s in export.sightings]:
            j = owner.setdefault(uid, i)
            if j != i:
                shared[j] = shared.get(j, 0) + 1
        for j in shared:
            join(i, j)
        if shared:
            said[i] = max(shared.items(), key=lambda js: (js[1], -js[0]))
    gathered: dict[int, list[tuple[str, Export]]] = {}
    for i, item in enumerate(exports):
        gathered.setdefault(root(i), []).append(item)
    notes = []
    for i, (j, count) in sorted(said.items()):
        file, earlier = exports[i][0], exports[j][0]
        if count < 0:
            again = "was given twice" if file == earlier else f"is {earlier} again"
            notes.append(f"{file} {again}: counted once.")
            continue
        name, as_name = _name(gathered[root(i)][0]), _name(exports[i])
        also = f" (named {as_name})" if as_name != name else ""
        what = "answer or sighting" if count == 1 else "answers or sightings"
        notes.append(
            f"{file}{also} shares {count} {what} with {earlier}: one learner's "
            f"progress, merged as {name}, each answer counted once."
        )
    return list(gathered.values()), notes


def _name(item: tuple[str, Export]) -> str:
    return item[1].learner or _stem(item[0])


def _file_key(file: str) -> object:
    """What names one file however its path is written: its device and inode where it can be
    read, else its absolute path."""
    import os

    try:
        st = os.stat(file)
    except (OSError, ValueError):
        return os.path.abspath(file)
    return (st.st_dev, st.st_ino)


def _stem(file: str) -> str:
    base = file.replace("\\", "/").rsplit("/", 1)[-1]
    return base[:-5] if base.lower().endswith(".json") else base


def _learner(
    name: str, file: str, exports: list[Export], groups: list[ColumnGroup]
) -> tuple[Learner, list[Answer]]:
    """One learner of ``exports`` (one learner's, merged by uid as an import merges them)."""
    store = ProgressStore.in_memory()
    try:
        for export in exports:
            store.merge(export.answers, export.lessons, export.meta, export.sightings)
        answers = store.answers()  # themes in their one spelling
        overall = store.rating(R.OVERALL)
        by_theme: dict[str, list[Answer]] = {}
        for a in answers:
            for t in dict.fromkeys(a.themes):
                by_theme.setdefault(t, []).append(a)
        lr = Learner(
            name,
            file,
            _cell(answers),
            overall.rating.rating if overall else None,
            overall.rating.rd if overall else None,
            {t: _cell(a) for t, a in by_theme.items()},
        )
        for g in groups:
            values = g.read(exports[0], store)
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
    head = [
        "learner",
        "file",
        "all: answers",
        "all: right",
        "all: accuracy",
        "rating",
        "rating deviation",
    ]
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
    w = csv.writer(out)  # lines end CR LF (RFC 4180), so a CR in a name is quoted too
    w.writerow([csv_cell(c) for c in csv_columns(report)])
    for lr in report.learners:
        row = [
            lr.name,
            lr.file,
            lr.total.answers,
            lr.total.right,
            _acc(lr.total),
            _num(lr.rating),
            _num(lr.rd),
        ]
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
    return render(
        "classreport.html.j2",
        report=report,
        made=made,
        band=band,
        weak_below=WEAK_BELOW,
        shown_rating=R.shown_rating,
        provisional=R.PROVISIONAL_NOTE if provisional else "",
    )
