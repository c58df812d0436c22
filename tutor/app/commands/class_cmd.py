"""``laugh class pack --seed S --out FILE.html|.md``: the teacher's pack for one class on source
criticism (:mod:`tutor.teaching.classpack`).  ``laugh class report`` is in
:mod:`tutor.app.commands.progress_cmd`, beside the exports it reads."""

from __future__ import annotations

from tutor.app.commands._common import seed_type
from tutor.app.streams import echo
from tutor.engine.outputs import cannot_write, check_output


def register_pack(actions, parent) -> None:
    """Add ``pack`` to the actions of ``laugh class``."""
    p = actions.add_parser("pack", parents=[parent],
                           help="a printable pack for one class on source criticism",
                           description="Write the teacher's pack for one 50-minute class on "
                                       "source criticism, worked out from the sources and the "
                                       "engine: the timeline and family tree of the texts, "
                                       "one sentence of Willughby's in two transcriptions, the "
                                       "contested rules in each source's own words, every rule "
                                       "source by source with its status, a plan, discussion "
                                       "questions and open tasks with notes for the teacher "
                                       "(ours, and marked so), and a quiz with its key (the "
                                       "same seed gives every student the same quiz). The "
                                       "format follows the file name: .html or .md.")
    p.add_argument("--seed", type=seed_type, default=1, metavar="S",
                   help="seed for the quiz (default %(default)s)")
    p.add_argument("--out", "-o", required=True, metavar="FILE",
                   help="where to write it: FILE.html or FILE.md")
    p.set_defaults(handler=run_pack)


def run_pack(args) -> int:
    """Write the pack; UsageError for a bad suffix, CannotWrite (exit status 1) for a file that
    cannot be written (checked before the pack is worked out)."""
    from tutor.teaching.classpack import write_pack     # this command only (start-up time)
    check_output(args.out)                  # before the pack is worked out
    try:
        fmt = write_pack(args.seed, args.out)
    except OSError as exc:
        raise cannot_write(args.out, exc) from None
    echo(f"Wrote the {fmt.upper()} class pack (quiz seed {args.seed}) to {args.out}")
    return 0
