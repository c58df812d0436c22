"""Helpers shared by the command modules: the ruleset and player options, argument types and
the console.  (Choosing a ruleset and player count and setting up a session:
:mod:`tutor.app.sessions`.)"""

from __future__ import annotations

import argparse

from tutor.app.std_streams import make_console
from tutor.engine.errors import NotationError
from tutor.engine.game import DEFAULT_RULESET
from tutor.engine.limits import seed_number, whole_number
from tutor.engine.sources import default_library


def add_ruleset_options(
    p: argparse.ArgumentParser,
    default: str | None = DEFAULT_RULESET,
    players_default: int | None = None,
    shown: str | None = None,
) -> None:
    """Add ``--ruleset R`` and ``--players N`` to a subcommand.  ``shown`` is the default the
    help names when ``default`` is None (the command chooses it later, as ``laugh match`` does
    so that ``--resume`` can tell an option given from one left out)."""
    p.add_argument(
        "--ruleset",
        "-r",
        type=ruleset_name,
        default=default,
        metavar="R",
        help=f"ruleset id (see laugh rules); default {shown or default}",
    )
    p.add_argument(
        "--players",
        "-n",
        type=players_type,
        default=players_default,
        metavar="N",
        help="player count (default: 5 where the ruleset covers it)",
    )


class LibraryName(str):
    """A ruleset or source id as typed on the command line (``what`` says which), read
    against the library once the command line is parsed and ``--sources`` is known
    (:func:`resolve_names`): argparse cannot load the library itself, which ``--sources``
    changes and which the start-up time leaves unloaded."""

    what = "ruleset"


class _SourceName(LibraryName):
    what = "source"


def ruleset_name(text: str) -> LibraryName:
    """argparse type of every ruleset typed on the command line (see :class:`LibraryName`)."""
    return LibraryName(text)


def source_name(text: str) -> LibraryName:
    """argparse type of a source id typed on the command line (see :class:`LibraryName`)."""
    return _SourceName(text)


def resolve_names(args: argparse.Namespace) -> None:
    """Every ruleset and source id typed on the command line (:class:`LibraryName`, alone or
    in a list) replaced by the id it names in the library, in any case
    (:func:`tutor.engine.names.find_name`), so a command sees only the library's own ids.
    Raises :class:`UsageError` (did you mean ...) for an id the library does not have."""
    lib = None
    for key, value in vars(args).items():
        values = value if isinstance(value, list) else [value]
        if not any(isinstance(v, LibraryName) for v in values):
            continue
        lib = lib or default_library()
        found = [
            (lib.ruleset(v).id if v.what == "ruleset" else lib.source(v).id)
            if isinstance(v, LibraryName)
            else v
            for v in values
        ]
        setattr(args, key, found if isinstance(value, list) else found[0])


def whole(low: int, high: int, what: str = "a whole number"):
    """An argparse type: a whole number from ``low`` to ``high`` in ASCII digits
    (:func:`tutor.engine.limits.whole_number`); anything else is one line naming what is
    allowed (exit status 2), never a traceback or the whole of a long input."""

    def parse(text: str) -> int:
        try:
            return whole_number(text, low, high, what)
        except NotationError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = what
    return parse


def seed_type(text: str) -> int:
    """The argparse type of every ``--seed``: 0 to :data:`tutor.engine.limits.MAX_SEED`, digits
    alone (:func:`tutor.engine.limits.seed_number`: ``" 5"`` is refused)."""
    try:
        return seed_number(text)
    except NotationError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


seed_type.__name__ = "a seed"
#: argparse type of a count (deals, samples, rounds, items): 1 to a million.
positive_int = whole(1, 1_000_000, "a count")
#: argparse type of ``--players``: whether the ruleset covers the count is checked later.
players_type = whole(1, 52, "a player count")
#: argparse type of ``--seat``: whether the table has the seat is checked later.
seat_type = whole(0, 51, "a seat")


def rate(text: str) -> float:
    """argparse type: a probability from 0 to 1."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number from 0 to 1") from None
    if not 0 <= v <= 1:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 1")
    return v


def console(stderr: bool = False):
    """A rich console (honours NO_COLOR and the terminal width; see
    :func:`tutor.app.std_streams.make_console`)."""
    return make_console(stderr=stderr)
