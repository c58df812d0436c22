"""``laugh class pack [--for teacher|students] --seed S --out FILE.html|.md``: the teacher's
notes or the students' handout for one class on source criticism
(:mod:`tutor.teaching.classpack`).  ``laugh class report`` is in
:mod:`tutor.app.commands.progress_cmd`, beside the exports it reads."""

from __future__ import annotations

from tutor.app.commands._common import seed_type
from tutor.app.std_streams import echo
from tutor.engine.outputs import cannot_write, check_output


def register_pack(actions, parent) -> None:
    """Add ``pack`` to the actions of ``laugh class``."""
    p = actions.add_parser(
        "pack",
        parents=[parent],
        help="a printable pack for one class on source criticism",
        description="Write the pack for one 50-minute class on source "
        "criticism, worked out from the sources and the engine "
        "(a teacher's own records too), in two parts. For the "
        "teacher (the default): the plan, the timeline and "
        "family tree of the texts, one sentence of Willughby's "
        "in two transcriptions, where the passages come from "
        "and what their markup is, the contested rules with "
        "our readings, every rule source by source with its "
        "status, the discussion questions and open tasks with "
        "notes, and the quiz's key. For the students (--for "
        "students): the game's words, the timeline, passages "
        "long enough for a group to read, the transcriptions, "
        "the contested rules in the sources' own words, the "
        "questions and tasks and the quiz, with room to write. "
        "The same seed gives the same quiz. The format follows "
        "the file name: .html or .md.",
    )
    p.add_argument(
        "--seed",
        type=seed_type,
        default=1,
        metavar="S",
        help="seed for the quiz (default %(default)s)",
    )
    p.add_argument(
        "--for",
        dest="audience",
        choices=("teacher", "students"),
        default="teacher",
        help="the teacher's notes (default) or the students' handout",
    )
    p.add_argument(
        "--out", "-o", required=True, metavar="FILE", help="where to write it: FILE.html or FILE.md"
    )
    p.set_defaults(handler=run_pack)


def run_pack(args) -> int:
    """Write the pack; UsageError for a bad suffix, CannotWrite (exit status 1) for a file that
    cannot be written (checked before the pack is worked out)."""
    from tutor.teaching.classpack import write_pack  # this command only (start-up time)

    check_output(args.out)  # before the pack is worked out
    audience = getattr(args, "audience", "teacher")
    try:
        fmt = write_pack(args.seed, args.out, audience=audience)
    except OSError as exc:
        raise cannot_write(args.out, exc) from None
    what = "students' handout" if audience == "students" else "teacher's notes"
    echo(f"Wrote the {fmt.upper()} class pack, the {what} (quiz seed {args.seed}), to {args.out}")
    if audience == "teacher":
        echo(
            f"The students' handout: laugh class pack --for students --seed {args.seed} --out FILE"
        )
    return 0


def register_serve(actions, parent) -> None:
    """Add ``serve`` to the actions of ``laugh class`` (:mod:`tutor.app.commands.web`)."""
    from tutor.app.commands.web import register_class_serve

    register_class_serve(actions, parent)
