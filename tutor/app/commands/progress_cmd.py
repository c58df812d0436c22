"""``laugh progress export|import FILE.json`` (progress that travels between machines) and
``laugh class report FILES... [--html OUT] [--csv OUT]`` (several learners' exports for a
teacher).  The formats and the merge are :mod:`tutor.teaching.transfer`; the report is
:mod:`tutor.teaching.classreport`."""

from __future__ import annotations

from rich.text import Text

from tutor.app.commands.class_cmd import register_pack
from tutor.app.streams import echo, make_console
from tutor.engine.errors import DataError, LaughError, UsageError
from tutor.engine.outputs import check_output, write_text
from tutor.teaching import ratings as R
from tutor.teaching.progress import ProgressStore
from tutor.teaching.ratings import shown_rating


def register(sub, parent) -> None:
    """Add the ``progress`` and ``class`` subcommands."""
    p = sub.add_parser("progress", parents=[parent],
                       help="export your progress to a file, or import one",
                       description="Take your progress to another machine, or hand it to a "
                                   "teacher: 'export FILE.json' writes every answer, lesson "
                                   "and setting; 'import FILE.json' merges such a file into "
                                   "this machine's progress. Answers are keyed, so nothing is "
                                   "duplicated or lost (importing a file twice changes "
                                   "nothing), and the ratings are recomputed from the merged "
                                   "answers. A damaged file is refused whole.")
    ps = p.add_subparsers(dest="progress_command", metavar="ACTION", parser_class=type(p))
    e = ps.add_parser("export", parents=[parent], help="write your progress to FILE.json")
    e.add_argument("file", metavar="FILE.json", help="the file to write")
    e.add_argument("--name", metavar="NAME",
                   help="your name, for a teacher's class report (default: the file's name)")
    e.set_defaults(handler=run_export)
    i = ps.add_parser("import", parents=[parent], help="merge FILE.json into your progress")
    i.add_argument("file", metavar="FILE.json", help="a file written by laugh progress export")
    i.set_defaults(handler=run_import)
    p.set_defaults(handler=_missing("progress", "export FILE.json | import FILE.json"))

    c = sub.add_parser("class", parents=[parent], help="a class report from learners' exports",
                       description="Turn several learners' progress exports ('laugh progress "
                                   "export') into one grid of learners and themes (the share "
                                   "right and the answers in each cell, totals for each learner "
                                   "and the class, the class's weakest themes). Printed here, "
                                   "and written as HTML (printable) and CSV.")
    cs = c.add_subparsers(dest="class_command", metavar="ACTION", parser_class=type(c))
    r = cs.add_parser("report", parents=[parent], help="the report of FILES")
    r.add_argument("files", nargs="+", metavar="FILE.json",
                   help="learners' files written by laugh progress export")
    r.add_argument("--html", metavar="OUT.html", help="also write the report as HTML")
    r.add_argument("--csv", metavar="OUT.csv", help="also write the report as CSV")
    r.set_defaults(handler=run_report)
    register_pack(cs, parent)
    c.set_defaults(handler=_missing("class", "report FILE.json... [--html OUT] [--csv OUT] | "
                                             "pack --seed S --out FILE.html"))


def _missing(command: str, usage: str):
    def handler(args) -> int:
        raise UsageError(f"laugh {command} needs an action: laugh {command} {usage}")
    return handler


def run_export(args) -> int:
    """Write the progress (read without changing the file) to ``args.file``."""
    from tutor.teaching.transfer import write_export  # JSON writing: this command only
    check_output(args.file)                 # before the store is read
    store = ProgressStore(read_only=True)
    try:
        if store.notice:        # read-only, a notice means the file could not be read
            raise LaughError(f"nothing exported: {store.notice}")
        name = args.name or None
        n = write_export(store, args.file, learner=name)
        rating = store.rating(R.OVERALL)
        lessons = len(store.lesson_states())
    finally:
        store.close()
    said = f", rating {shown_rating(rating.rating.rating, rating.rating.rd)}" if rating else ""
    echo(f"Exported {n} answer{'s' if n != 1 else ''} and {lessons} lesson"
         f"{'s' if lessons != 1 else ''}{said} to {args.file}")
    return 0


def run_import(args) -> int:
    """Merge ``args.file`` into the progress store; a damaged file changes nothing."""
    from tutor.teaching.transfer import merge_export, read_export
    export = read_export(args.file)          # checked whole before the store is opened
    store = ProgressStore()
    try:
        if store.notice:
            echo(store.notice)
        if not store.saving:
            raise LaughError(f"nothing imported from {args.file}: your progress cannot be saved")
        before = store.rating(R.OVERALL)
        added, known = merge_export(store, export)
        after = store.rating(R.OVERALL)
    finally:
        store.close()
    line = (f"Imported {args.file}: {added} answer{'s' if added != 1 else ''} added, {known} "
            f"already here; {len(export.lessons)} lesson{'s' if len(export.lessons) != 1 else ''}"
            " merged")
    if after is not None:
        was = (f"{shown_rating(before.rating.rating, before.rating.rd)} -> "
               if before and added else "")
        line += (f"; rating {was}{shown_rating(after.rating.rating, after.rating.rd)} "
                 "(recomputed from every answer)")
    echo(line + ".")
    return 0


def run_report(args) -> int:
    """Print the class report of ``args.files``; write ``--html``/``--csv``.  A file that cannot
    be read is one line on stderr and left out; the status is then 1."""
    from tutor.app.class_view import report_view
    from tutor.teaching.classreport import build_report, render_csv, render_html
    from tutor.teaching.transfer import read_export
    for path in (args.html, args.csv):      # before the exports are read
        if path:
            check_output(path)
    exports, bad = [], 0
    for f in args.files:
        try:
            exports.append((f, read_export(f)))
        except DataError as exc:
            echo(f"laugh: {exc}", stderr=True)
            bad += 1
    if not exports:
        echo("laugh: no progress export could be read; no report written", stderr=True)
        return 1
    report = build_report(exports)
    written = []            # the files first: they are there even if the reader of the output goes
    for path, text, what in ((args.html, render_html, "HTML"), (args.csv, render_csv, "CSV")):
        if path:
            write_text(path, text(report))
            written.append(f"Wrote the {what} report to {path}")
    out = make_console()
    for renderable in report_view(report, out.width):
        out.print(renderable)
    for line in written:
        out.print(line, highlight=False)
    if bad:
        out.print(Text(f"{bad} file{'s' if bad != 1 else ''} left out (see above).",
                       style="yellow"))
    return 1 if bad else 0
