"""``laugh records check``: validate deal records by replaying them."""

from __future__ import annotations

from tutor.app.streams import echo
from tutor.engine.errors import LaughError
from tutor.engine.records import UnfinishedRecord, check_record, load_records


def register(sub, parent) -> None:
    """Add the ``records`` subcommand."""
    p = sub.add_parser("records", parents=[parent], help="check deal records",
                       description="Work with deal records (RULES.md 9).")
    rsub = p.add_subparsers(dest="records_command", metavar="ACTION")
    c = rsub.add_parser("check", parents=[parent], help="replay and validate records",
                        description="Replay every record in FILE (a .json deal or JSON Lines) and "
                                    "report each bad one on its own line. A record without a "
                                    "result, or whose actions stop before the deal is over, is "
                                    "reported as unfinished unless --positions is given.")
    c.add_argument("file", metavar="FILE", nargs="+",
                   help="deal records: JSON Lines, one record a line")
    c.add_argument("--positions", action="store_true",
                   help="accept records that stop before the deal is over (positions, as "
                        "puzzles store them)")
    c.set_defaults(handler=run_check)
    p.set_defaults(handler=lambda args: (p.print_help(), 2)[1])


def run_check(args) -> int:
    """Check every record; print ``FILE:LINE: message`` for each bad or unfinished one (``FILE:
    message`` for a file that cannot be read at all) and a summary line.  Returns 0 when every
    record is good (and there is at least one), else 1."""
    positions = bool(getattr(args, "positions", False))
    good = bad = unfinished = unreadable = 0
    for path in args.file:
        for lineno, rec in _iter(path):
            if lineno is None:
                unreadable += 1
                echo(rec)
                continue
            try:
                if isinstance(rec, Exception):
                    raise rec
                check_record(rec, positions=positions)
                good += 1
            except UnfinishedRecord as exc:
                unfinished += 1
                echo(f"{path}:{lineno}: {exc}")
            except LaughError as exc:
                bad += 1
                echo(f"{path}:{lineno}: {exc}")
    total = good + bad + unfinished
    tail = f", {unfinished} unfinished" if unfinished else ""
    if unreadable:
        tail += f"; {unreadable} file{'s' if unreadable != 1 else ''} could not be read"
    echo(f"{total} record{'s' if total != 1 else ''} checked: {good} good, {bad} bad{tail}")
    return 0 if bad == unfinished == unreadable == 0 and total > 0 else 1


def _iter(path):
    """``load_records(path)``; a file that cannot be read at all yields ``(None, error)``
    (its message names the file)."""
    try:
        yield from load_records(path)
    except LaughError as exc:
        yield None, exc
