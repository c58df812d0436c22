"""``laugh lesson ID`` (take one lesson) and ``laugh lessons list|check``.

``laugh lesson`` takes a lesson as the home screen does (:func:`tutor.teaching.lessons.open_lesson`,
:func:`tutor.app.runner.take_lesson`); :func:`course_table` is the course as ``laugh lessons
list`` shows it.
"""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from tutor.app.commands._common import seed_type, whole
from tutor.app.context import make_context, run_guarded
from tutor.app.std_streams import echo, make_console
from tutor.teaching.lessons import (
    CourseEntry,
    check_lessons,
    course_index,
    find_lesson,
    open_lesson,
)
from tutor.teaching.progress import ProgressStore


def register(sub, parent) -> None:
    """Add the ``lesson`` and ``lessons`` subcommands."""
    p = sub.add_parser(
        "lesson",
        parents=[parent],
        help="take one lesson",
        description="Take one lesson of the course. With --seed every student "
        "gets the same puzzles; without it, a lesson in progress "
        "resumes where it was left.",
    )
    p.add_argument(
        "id",
        metavar="LESSON",
        help="the lesson's number (8), file name (08-oversights) or id (oversights); "
        "see 'laugh lessons list'",
    )
    p.add_argument(
        "--seed",
        type=seed_type,
        metavar="S",
        help="seed for the lesson's puzzles (the same seed gives the same puzzles)",
    )
    p.add_argument("--restart", action="store_true", help="start again from the first page")
    p.set_defaults(handler=run_lesson)

    q = sub.add_parser(
        "lessons",
        parents=[parent],
        help="list or check the lessons",
        description="List the course, or check every lesson file.",
    )
    qsub = q.add_subparsers(dest="lessons_command", metavar="ACTION")
    c = qsub.add_parser(
        "check",
        parents=[parent],
        help="check every lesson file",
        description="Check lessons: front matter, blocks, quotations, puzzle "
        "kinds and rulesets. Each problem is one line naming the "
        "file and line. Exit status 1 if there are problems.",
    )
    c.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="lesson files, or lessons of the course by number, file name or id "
        "(default: the whole course)",
    )
    c.add_argument(
        "--draws",
        type=whole(1, 1000, "a number of draws"),
        default=None,
        metavar="N",
        help="lesson seeds each puzzle block is drawn at, every puzzle checked to "
        "serve its objective (default 50)",
    )
    c.set_defaults(handler=run_check)
    ls = qsub.add_parser(
        "list",
        parents=[parent],
        help="list the course",
        description="List the course with each lesson's state.",
    )
    ls.set_defaults(handler=run_list)
    q.set_defaults(handler=run_list)


def run_lesson(args) -> int:
    """Take one lesson (``args.id``, ``args.seed``, ``args.restart``)."""
    # Heavy (Markdown, the engine blocks, puzzles): only when a lesson is taken (start-up benchmark)
    from tutor.app.runner import take_lesson

    lesson = open_lesson(args.id)
    ctx = make_context()

    def body() -> int:
        take_lesson(ctx, lesson, args.seed, args.restart)
        return 0

    return run_guarded(ctx, body)


def run_check(args) -> int:
    """Check lesson files; print each problem and a summary; 0 when all are good, else 1."""
    files = [f if Path(f).exists() else find_lesson(f).path for f in args.files]
    count, problems = check_lessons(files or None, draws=args.draws)
    for p in problems:
        echo(p)
    noun = "lesson" if count == 1 else "lessons"
    if problems:
        echo(f"{count} {noun} checked: {len(problems)} problem{'s' if len(problems) != 1 else ''}")
        return 1
    echo(f"{count} {noun} checked: no problems")
    return 0 if count else 1


def run_list(args) -> int:
    """Print the course: number, file name, id, title, minutes, and the learner's state of
    each (a lesson may be named by any of the first three)."""
    entries = course_index()
    with ProgressStore() as store:
        states = store.lesson_states()
        notice = store.notice
    out = make_console()
    if notice:
        out.print(notice)
    out.print(course_table(entries, states))
    return 0


def course_table(entries: list[CourseEntry], states: dict) -> Table:
    """The course as a table: number, file name, id, title, minutes and the learner's state (``states``:
    lesson id -> :class:`tutor.teaching.progress.LessonState`)."""
    t = Table(title="The course", title_justify="left")
    t.add_column("#", justify="right")
    t.add_column("file")
    t.add_column("id")
    t.add_column("title", overflow="fold")
    t.add_column("min", justify="right")
    t.add_column("state")
    for e in entries:
        s = states.get(e.id)
        if s is not None and s.in_progress:
            state = f"page {s.page + 1}"
        elif s is not None and s.completed:
            state = f"done {s.right}/{s.total}" if s.total else "done"
        else:
            state = ""
        t.add_row(str(e.number), e.path.stem, e.id, e.title, str(e.minutes), state)
    return t
