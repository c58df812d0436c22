"""A teacher's class report: several learners' progress exports in one table per puzzle kind and
per theme (``laugh class report FILES... [--html OUT] [--csv OUT]``).

Each export (:mod:`tutor.teaching.transfer`) is read into a store in memory, so every number is
the one the learner's own ``laugh stats`` shows: answers, accuracy (right of answered), the
median time of the answers typed at a terminal (none when none was), and the learner's
Glicko-2 rating on that kind or theme, recomputed from the answers as an import does
(:mod:`tutor.teaching.ratings`), with its deviation.

The HTML is one self-contained, printable page; every name and value taken from a file is
escaped (``html.escape``), so no export can inject markup.  The CSV has one row per learner and
kind or theme.
"""

from __future__ import annotations

import csv
import html
import io
import time
from dataclasses import dataclass, field

from tutor.engine.safetext import csv_cell
from tutor.teaching import ratings as R
from tutor.teaching.progress import ProgressStore
from tutor.teaching.transfer import Export

__all__ = ["Cell", "Learner", "ClassReport", "build_report", "render_csv", "render_html",
           "CSV_COLUMNS"]

CSV_COLUMNS = ("group", "name", "learner", "answers", "right", "accuracy", "median_seconds",
               "timed", "rating", "rating_deviation", "rated")


@dataclass(frozen=True)
class Cell:
    """One learner on one kind or theme: ``answers``, ``right``, ``median`` seconds (None when
    no answer was timed), ``timed`` answers, ``rating`` and ``rd`` (None when never rated) and
    ``rated`` answers."""

    answers: int
    right: int
    median: float | None
    timed: int
    rating: float | None
    rd: float | None
    rated: int

    @property
    def accuracy(self) -> float:
        """Share right, 0..1."""
        return self.right / self.answers if self.answers else 0.0


@dataclass
class Learner:
    """One learner of the report: ``name``, the ``file`` it came from, answers in all, the overall
    rating (None when never rated) with its deviation, and ``cells``: (group, name) -> Cell,
    group ``kind`` or ``theme``."""

    name: str
    file: str
    answers: int
    right: int
    rating: float | None
    rd: float | None
    cells: dict[tuple[str, str], Cell] = field(default_factory=dict)


@dataclass
class ClassReport:
    """The learners, and the kinds and themes any of them answered (sorted)."""

    learners: list[Learner]
    kinds: list[str]
    themes: list[str]
    made_at: float

    def rows(self):
        """``(group, name, learner, cell)`` for every learner who answered each kind, then each
        theme, in the order of the tables."""
        for group, names in (("kind", self.kinds), ("theme", self.themes)):
            for name in names:
                for lr in self.learners:
                    cell = lr.cells.get((group, name))
                    if cell is not None:
                        yield group, name, lr, cell


def build_report(exports: list[tuple[str, Export]]) -> ClassReport:
    """The report of ``exports`` (file name, export read by
    :func:`tutor.teaching.transfer.read_export`).  A learner is named by the export's
    ``learner`` or else its file name; two of one name are told apart by their files."""
    learners = []
    names = [e.learner or _stem(f) for f, e in exports]
    for (file, export), name in zip(exports, names):
        if names.count(name) > 1:
            name = f"{name} ({_stem(file)})"
        learners.append(_learner(name, file, export))
    kinds = sorted({k for lr in learners for g, k in lr.cells if g == "kind"})
    themes = sorted({k for lr in learners for g, k in lr.cells if g == "theme"})
    return ClassReport(learners, kinds, themes, time.time())


def _stem(file: str) -> str:
    base = file.replace("\\", "/").rsplit("/", 1)[-1]
    return base[:-5] if base.lower().endswith(".json") else base


def _learner(name: str, file: str, export: Export) -> Learner:
    store = ProgressStore.in_memory()
    try:
        store.merge(export.answers, export.lessons, export.meta)
        overall = store.rating(R.OVERALL)
        lr = Learner(name, file, store.answer_count(), sum(a.correct for a in store.answers()),
                     overall.rating.rating if overall else None,
                     overall.rating.rd if overall else None)
        for group in ("kind", "theme"):
            rated = store.ratings(f"{group}:")
            for t in store.tallies(group):
                got = rated.get(f"{group}:{t.name}")
                lr.cells[(group, t.name)] = Cell(
                    t.n, t.right, t.median_seconds, t.timed,
                    got.rating.rating if got else None, got.rating.rd if got else None,
                    got.games if got else 0)
        return lr
    finally:
        store.close()


def _num(value: float | None, digits: int = 0) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def render_csv(report: ClassReport) -> str:
    """One row per learner and kind or theme (:data:`CSV_COLUMNS`); accuracy 0..1 to three
    places, times to one place, ratings whole; empty where there is no value.  Every text cell
    passes through :func:`tutor.engine.safetext.csv_cell`, so a name or kind taken from an
    export (``=HYPERLINK(...)``, ``@SUM(...)``, ``+``, ``-``, tab, CR) cannot start a formula
    when the file is opened in a spreadsheet."""
    out = io.StringIO()
    w = csv.writer(out)         # lines end CR LF (RFC 4180), so a CR in a name is quoted too
    w.writerow(CSV_COLUMNS)
    for group, name, lr, c in report.rows():
        w.writerow([csv_cell(v) for v in (
            group, name, lr.name, c.answers, c.right, f"{c.accuracy:.3f}", _num(c.median, 1),
            c.timed, _num(c.rating), _num(c.rd), c.rated)])
    return out.getvalue()


_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.15em; margin: 1.2em 0 0.3em; page-break-after: avoid; }
p.note { color: #444; font-size: 0.9em; max-width: 50em; }
table { border-collapse: collapse; margin-bottom: 0.8em; page-break-inside: avoid; }
th, td { border: 1px solid #999; padding: 0.15em 0.6em; }
th { background: #eee; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
td.weak { background: #fde0dc; }
@media print { body { margin: 0; } h2 { page-break-after: avoid; } }
"""


def render_html(report: ClassReport) -> str:
    """The report as one printable HTML page: the learners, then one table per kind and per
    theme (learner, answers, accuracy, median time, rating); accuracy under 50% is shaded."""
    esc = html.escape
    made = time.strftime("%Y-%m-%d %H:%M", time.localtime(report.made_at))
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             "<title>Laugh and Lie Down: class report</title>", f"<style>{_CSS}</style>",
             "</head><body>", "<h1>Laugh and Lie Down: class report</h1>",
             f'<p class="note">{len(report.learners)} learner'
             f'{"s" if len(report.learners) != 1 else ""}, made {esc(made)}. Accuracy is right '
             "of answered; time is the median of the answers typed at a terminal (blank when "
             "none was); the rating is the learner's Glicko-2 rating (first tries at puzzles "
             "only), ± its deviation.</p>",
             "<h2>Learners</h2>",
             "<table><thead><tr><th>learner</th><th>file</th><th>answers</th><th>accuracy</th>"
             "<th>rating</th></tr></thead><tbody>"]
    for lr in report.learners:
        acc = lr.right / lr.answers if lr.answers else 0.0
        parts.append(f"<tr><td>{esc(lr.name)}</td><td>{esc(lr.file)}</td>"
                     f'<td class="n">{lr.answers}</td><td class="n">{100 * acc:.0f}%</td>'
                     f'<td class="n">{_rating_html(lr.rating, lr.rd)}</td></tr>')
    parts.append("</tbody></table>")
    for group, names in (("Kind", report.kinds), ("Theme", report.themes)):
        for name in names:
            parts.append(f"<h2>{group}: {esc(name)}</h2>")
            parts.append("<table><thead><tr><th>learner</th><th>answers</th><th>accuracy</th>"
                         "<th>median time</th><th>rating</th></tr></thead><tbody>")
            for lr in report.learners:
                c = lr.cells.get((group.lower(), name))
                if c is None:
                    continue
                weak = ' weak' if c.accuracy < 0.5 else ''
                median = "" if c.median is None else f"{c.median:.1f} s"
                parts.append(f"<tr><td>{esc(lr.name)}</td><td class=\"n\">{c.answers}</td>"
                             f'<td class="n{weak}">{100 * c.accuracy:.0f}%</td>'
                             f'<td class="n">{median}</td>'
                             f'<td class="n">{_rating_html(c.rating, c.rd)}</td></tr>')
            parts.append("</tbody></table>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _rating_html(rating: float | None, rd: float | None) -> str:
    if rating is None:
        return ""
    return f"{rating:.0f} ± {rd:.0f}"
