"""``laugh records check``: validate deal records by replaying them (the arguments only; the
check is :mod:`tutor.app.record_check`'s)."""

from __future__ import annotations

from tutor.app.record_check import check_records


def register(sub, parent) -> None:
    """Add the ``records`` subcommand."""
    p = sub.add_parser(
        "records",
        parents=[parent],
        help="check deal records",
        description="Work with deal records (RULES.md 9).",
    )
    rsub = p.add_subparsers(dest="records_command", metavar="ACTION")
    c = rsub.add_parser(
        "check",
        parents=[parent],
        help="replay and validate records",
        description="Replay every record in FILE (a .json deal or JSON Lines) and "
        "report each bad one on its own line. A record without a "
        "result, or whose actions stop before the deal is over, is "
        "reported as unfinished unless --positions is given.",
    )
    c.add_argument(
        "file", metavar="FILE", nargs="+", help="deal records: JSON Lines, one record a line"
    )
    c.add_argument(
        "--positions",
        action="store_true",
        help="accept records that stop before the deal is over (positions, as puzzles store them)",
    )
    c.set_defaults(handler=run_check)
    p.set_defaults(handler=lambda args: (p.print_help(), 2)[1])


def run_check(args) -> int:
    """``laugh records check FILE...``: :func:`tutor.app.record_check.check_records`."""
    return check_records(args.file, bool(getattr(args, "positions", False)))
