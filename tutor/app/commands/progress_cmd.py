"""``laugh progress export|import FILE.json`` (progress that travels between machines) and
``laugh class report FILES... [--html OUT] [--csv OUT]`` (several learners' exports for a
teacher): the arguments only; what they do is :mod:`tutor.app.progress_files`'s."""

from __future__ import annotations

from tutor.app.commands.class_cmd import register_pack, register_serve
from tutor.app.progress_files import class_report, export_progress, import_progress
from tutor.engine.errors import UsageError


def register(sub, parent) -> None:
    """Add the ``progress`` and ``class`` subcommands."""
    p = sub.add_parser(
        "progress",
        parents=[parent],
        help="export your progress to a file, or import one",
        description="Take your progress to another machine, or hand it to a "
        "teacher: 'export FILE.json' writes every answer, lesson "
        "and setting; 'import FILE.json' merges such a file into "
        "this machine's progress. Answers are keyed, so nothing is "
        "duplicated or lost (importing a file twice changes "
        "nothing), and the ratings are recomputed from the merged "
        "answers. A damaged file is refused whole.",
    )
    ps = p.add_subparsers(dest="progress_command", metavar="ACTION", parser_class=type(p))
    e = ps.add_parser("export", parents=[parent], help="write your progress to FILE.json")
    e.add_argument("file", metavar="FILE.json", help="the file to write")
    e.add_argument(
        "--name",
        metavar="NAME",
        help="your name, for a teacher's class report (default: the file's name)",
    )
    e.set_defaults(handler=run_export)
    i = ps.add_parser("import", parents=[parent], help="merge FILE.json into your progress")
    i.add_argument("file", metavar="FILE.json", help="a file written by laugh progress export")
    i.set_defaults(handler=run_import)
    p.set_defaults(handler=_missing("progress", "export FILE.json | import FILE.json"))

    c = sub.add_parser(
        "class",
        parents=[parent],
        help="a class report from learners' exports",
        description="Turn several learners' progress exports ('laugh progress "
        "export') into one grid of learners and themes (the share "
        "right and the answers in each cell, totals for each learner "
        "and the class, the class's weakest themes). Printed here, "
        "and written as HTML (printable) and CSV.",
    )
    cs = c.add_subparsers(dest="class_command", metavar="ACTION", parser_class=type(c))
    r = cs.add_parser("report", parents=[parent], help="the report of FILES")
    r.add_argument(
        "files",
        nargs="+",
        metavar="FILE.json",
        help="learners' files written by laugh progress export",
    )
    r.add_argument("--html", metavar="OUT.html", help="also write the report as HTML")
    r.add_argument("--csv", metavar="OUT.csv", help="also write the report as CSV")
    r.set_defaults(handler=run_report)
    register_pack(cs, parent)
    register_serve(cs, parent)
    c.set_defaults(
        handler=_missing(
            "class", "report FILE.json... [--html OUT] [--csv OUT] | pack --seed S --out FILE.html"
        )
    )


def _missing(command: str, usage: str):
    def handler(args) -> int:
        raise UsageError(f"laugh {command} needs an action: laugh {command} {usage}")

    return handler


def run_export(args) -> int:
    """``laugh progress export FILE``: :func:`tutor.app.progress_files.export_progress`."""
    return export_progress(args.file, args.name)


def run_import(args) -> int:
    """``laugh progress import FILE``: :func:`tutor.app.progress_files.import_progress`."""
    return import_progress(args.file)


def run_report(args) -> int:
    """``laugh class report FILES``: :func:`tutor.app.progress_files.class_report`."""
    return class_report(args.files, args.html, args.csv)
