"""What ``laugh progress export|import FILE.json`` (progress that travels between machines) and
``laugh class report FILES... [--html OUT] [--csv OUT]`` (several learners' exports for a
teacher) do once their arguments are read.  The formats and the merge are
:mod:`tutor.teaching.transfer`; the report is :mod:`tutor.teaching.classreport` and its page
:mod:`tutor.app.class_view`."""

from __future__ import annotations

from rich.text import Text

from tutor.app.std_streams import echo, make_console
from tutor.engine.errors import DataError, LaughError
from tutor.engine.outputs import check_output, write_text
from tutor.teaching import ratings as R
from tutor.teaching.progress import ProgressStore
from tutor.teaching.ratings import shown_rating

__all__ = ["class_report", "export_progress", "import_progress"]


def export_progress(file: str, name: str | None = None) -> int:
    """Write the progress (read without changing the file) to ``file``, as ``name``'s (None:
    no name); one line says what was written.  Returns the exit status; raises CannotWrite for
    a file that cannot be written (before the store is read) and LaughError when the progress
    cannot be read."""
    from tutor.teaching.transfer import write_export  # JSON writing: this command only

    check_output(file)  # before the store is read
    store = ProgressStore(read_only=True)
    try:
        if store.notice:  # read-only, a notice means the file could not be read
            raise LaughError(f"nothing exported: {store.notice}")
        n = write_export(store, file, learner=name or None)
        rating = store.rating(R.OVERALL)
        lessons = len(store.lesson_states())
    finally:
        store.close()
    said = f", rating {shown_rating(rating.rating.rating, rating.rating.rd)}" if rating else ""
    echo(
        f"Exported {n} answer{'s' if n != 1 else ''} and {lessons} lesson"
        f"{'s' if lessons != 1 else ''}{said} to {file}"
    )
    return 0


def import_progress(file: str) -> int:
    """Merge the progress export ``file`` into the progress store; one line says what was
    added and how the rating moved.  A damaged file changes nothing (DataError, one line);
    LaughError when the progress cannot be saved.  Returns the exit status."""
    from tutor.teaching.transfer import merge_export, read_export

    export = read_export(file)  # checked whole before the store is opened
    store = ProgressStore()
    try:
        if store.notice:
            echo(store.notice)
        if not store.saving:
            raise LaughError(f"nothing imported from {file}: your progress cannot be saved")
        before = store.rating(R.OVERALL)
        added, known = merge_export(store, export)
        after = store.rating(R.OVERALL)
    finally:
        store.close()
    line = (
        f"Imported {file}: {added} answer{'s' if added != 1 else ''} added, {known} "
        f"already here; {len(export.lessons)} lesson{'s' if len(export.lessons) != 1 else ''}"
        " merged"
    )
    if after is not None:
        was = (
            f"{shown_rating(before.rating.rating, before.rating.rd)} -> "
            if before and added
            else ""
        )
        line += (
            f"; rating {was}{shown_rating(after.rating.rating, after.rating.rd)} "
            "(recomputed from every answer)"
        )
    echo(line + ".")
    return 0


def class_report(files: list[str], html: str | None = None, csv: str | None = None) -> int:
    """Print the class report of the progress exports ``files``; write it as HTML to ``html``
    and as CSV to ``csv`` (each None: not written).  A file that cannot be read is one line on
    stderr and left out; the status is then 1 (1 too when none can be read).  Raises
    CannotWrite, before the exports are read, for an output that cannot be written."""
    from tutor.app.class_view import report_view
    from tutor.teaching.classreport import build_report, render_csv, render_html
    from tutor.teaching.transfer import read_export

    for path in (html, csv):  # before the exports are read
        if path:
            check_output(path)
    exports, bad = [], 0
    for f in files:
        try:
            exports.append((f, read_export(f)))
        except DataError as exc:
            echo(f"laugh: {exc}", stderr=True)
            bad += 1
    if not exports:
        echo("laugh: no progress export could be read; no report written", stderr=True)
        return 1
    report = build_report(exports)
    written = []  # the files first: they are there even if the reader of the output goes
    for path, text, what in ((html, render_html, "HTML"), (csv, render_csv, "CSV")):
        if path:
            write_text(path, text(report))
            written.append(f"Wrote the {what} report to {path}")
    out = make_console()
    for renderable in report_view(report, out.width):
        out.print(renderable)
    for line in written:
        out.print(line, highlight=False)
    if bad:
        out.print(
            Text(f"{bad} file{'s' if bad != 1 else ''} left out (see above).", style="yellow")
        )
    return 1 if bad else 0
