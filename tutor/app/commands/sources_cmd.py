"""``laugh sources``: the sources with their citations, summaries and quotations, and the
records of the game (its name in old books from 1522, Willughby's description, and any a
teacher adds in their own folder) as a timeline; ``laugh sources check`` checks that every
quotation stands verbatim in the collected texts, and names the file, line and key of every
problem of a teacher's file; ``laugh sources new`` writes a commented template of a source
file, or with ``--records NAME`` of a file of records, into the teacher's folder.

The arguments only: what the command does is :mod:`tutor.app.source_files`'s, and what ``laugh
sources [ID]`` shows is :func:`tutor.app.source_pages.sources_view` (the home screen's sources
view shows it too).
"""

from __future__ import annotations

import argparse

from tutor.app.source_files import (
    check_quotations,
    show_sources,
    write_records_template,
    write_source_template,
)
from tutor.engine.errors import UsageError
from tutor.engine.sources import default_library, set_notice

#: The word that runs the quotation check instead of naming a source.
CHECK = "check"
#: The word that writes a template of a new source file.
NEW = "new"


def register(subparsers: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:
    """Add the ``sources`` command to ``subparsers`` (``parent`` holds the shared options)."""
    p = subparsers.add_parser(
        "sources",
        parents=[parent],
        help="the sources, their quotations, and the records of the game",
        description="Show each source's citation, summary and quotations (with where they "
        "stand), and the records of the game as a timeline, those in your own "
        "folder (LAUGH_HOME/sources) too. 'laugh sources check' checks every "
        "quotation against the source texts and names the file, line and key of "
        "every problem. 'laugh sources new --records NAME' writes a commented "
        "file of records into your folder, read at every start.",
    )
    p.add_argument(
        "id",
        nargs="?",
        metavar="ID|check|new",
        help="one source to show, 'check' to check every quotation, or 'new NEW_ID' "
        "to write a commented template of a source file",
    )
    p.add_argument("new_id", nargs="?", metavar="NEW_ID", help=argparse.SUPPRESS)
    p.add_argument(
        "--records",
        metavar="NAME",
        help="with 'new': write a file of records of the game (names in old "
        "books, descriptions of play) called NAME into your own folder",
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        help="with 'new': where to write the template (default: NEW_ID.yaml here; "
        "with --records, NAME.yaml in your folder)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``laugh sources``; raises UsageError (exit 2) for an unknown source id."""
    new_id = getattr(args, "new_id", None)
    records = getattr(args, "records", None)
    if args.id == NEW:
        if records is not None:
            if new_id is not None:
                raise UsageError(f"unexpected {new_id!r}: laugh sources new --records NAME")
            return write_records_template(records, getattr(args, "out", None))
        return write_source_template(new_id, getattr(args, "out", None))
    if new_id is not None:
        raise UsageError(f"unexpected {new_id!r}: laugh sources [ID | check | new NEW_ID]")
    if records is not None:
        raise UsageError("--records goes with 'new': laugh sources new --records NAME")
    if getattr(args, "out", None) is not None:
        raise UsageError(
            "--out goes with 'new' only (laugh sources new NEW_ID --out FILE); to "
            "keep what laugh sources shows, redirect it: laugh sources ID > FILE"
        )
    if args.id == CHECK:
        set_notice(None)  # the check lists the problems of the teacher's files itself
    lib = default_library(verify=args.id != CHECK)  # the check reports every problem itself
    if args.id == CHECK:
        return check_quotations(lib, args.json)
    return show_sources(lib, args.id, args.json)
