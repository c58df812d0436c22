"""``laugh records check``: validate deal records by replaying them."""

from __future__ import annotations

import sys

from tutor.engine.errors import LaughError, RecordError
from tutor.engine.records import load_records, replay


def register(sub, parent) -> None:
    """Add the ``records`` subcommand."""
    p = sub.add_parser("records", parents=[parent], help="check deal records",
                       description="Work with deal records (RULES.md 9).")
    rsub = p.add_subparsers(dest="records_command", metavar="ACTION")
    c = rsub.add_parser("check", parents=[parent], help="replay and validate records",
                        description="Replay every record in FILE (a .json deal or JSON Lines) and "
                                    "report each bad one on its own line.")
    c.add_argument("file", metavar="FILE", nargs="+")
    c.set_defaults(handler=run_check)
    p.set_defaults(handler=lambda args: (p.print_help(), 2)[1])


def run_check(args) -> int:
    """Check every record; exit 0 when all are good, 1 otherwise."""
    good = bad = 0
    for path in args.file:
        for lineno, rec in _iter(path):
            try:
                if isinstance(rec, Exception):
                    raise rec
                replay(rec)
                good += 1
            except RecordError as exc:
                bad += 1
                print(f"{path}:{lineno}: {exc}")
            except LaughError as exc:
                bad += 1
                print(f"{path}:{lineno}: {exc}")
    total = good + bad
    print(f"{total} record{'s' if total != 1 else ''} checked: {good} good, {bad} bad")
    return 0 if bad == 0 and total > 0 else 1


def _iter(path):
    try:
        yield from load_records(path)
    except LaughError as exc:
        yield 0, exc
