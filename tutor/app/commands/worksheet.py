"""``laugh worksheet LESSON --seed S --out FILE.html|.md``: a printable handout."""

from __future__ import annotations

from tutor.app.commands._common import seed_type
from tutor.app.commands.lesson import open_lesson
from tutor.app.std_streams import echo
from tutor.engine.outputs import cannot_write, check_output


def register(sub, parent) -> None:
    """Add the ``worksheet`` subcommand."""
    p = sub.add_parser(
        "worksheet",
        parents=[parent],
        help="a printable worksheet for a lesson",
        description="Write a printable handout for a lesson: its quotations, its "
        "puzzles (the same ones 'laugh lesson ID --seed S' poses) "
        "and an answer key on a separate page. The format follows "
        "the file name: .html or .md.",
    )
    p.add_argument(
        "lesson",
        metavar="LESSON",
        help="the lesson's number (8), file name (08-oversights) or id (oversights)",
    )
    p.add_argument(
        "--seed",
        type=seed_type,
        default=1,
        metavar="S",
        help="seed for the puzzles (default %(default)s)",
    )
    p.add_argument(
        "--out", "-o", required=True, metavar="FILE", help="where to write it: FILE.html or FILE.md"
    )
    p.set_defaults(handler=run)


def run(args) -> int:
    """Write the worksheet; UsageError for an unknown lesson or a bad suffix, CannotWrite (exit
    status 1) for a file that cannot be written."""
    # The handout writers (HTML, Markdown, page layout) load only for this command: every
    # other command's start-up would pay for them (benchmarks/bench_startup.py)
    from tutor.teaching.worksheet import write_worksheet

    lesson = open_lesson(args.lesson)
    check_output(args.out)  # before the puzzles are made
    try:
        fmt = write_worksheet(lesson, args.seed, args.out)
    except OSError as exc:
        raise cannot_write(args.out, exc) from None
    echo(
        f"Wrote the {fmt.upper()} worksheet for lesson {lesson.number} ({lesson.id}), seed "
        f"{args.seed}, to {args.out}"
    )
    return 0
