"""Helpers shared by the command modules: choosing a ruleset and player count, argument types,
the console, and the set-up of an interactive session."""

from __future__ import annotations

import argparse
import random

from tutor.app.io import make_io
from tutor.app.streams import make_console
from tutor.engine.errors import UsageError
from tutor.engine.sources import default_library
from tutor.teaching.progress import ProgressStore


def add_ruleset_options(p: argparse.ArgumentParser, default: str | None = "parlett",
                        players_default: int | None = None) -> None:
    """Add ``--ruleset R`` and ``--players N`` to a subcommand."""
    p.add_argument("--ruleset", "-r", default=default, metavar="R",
                   help="ruleset id (see `laugh rules`); default %(default)s")
    p.add_argument("--players", "-n", type=int, default=players_default, metavar="N",
                   help="player count (default: 5 where the ruleset covers it)")


def resolve(ruleset_id: str, players: int | None):
    """The ruleset and player count chosen on the command line.

    Raises :class:`UsageError` listing the valid ruleset ids, or the ruleset's player counts.
    """
    lib = default_library()
    rs = lib.ruleset(ruleset_id)
    if players is None:
        players = 5 if 5 in rs.counts else rs.player_counts[0]
    if players not in rs.counts:
        raise UsageError(f"ruleset {rs.id} does not cover {players} players; choose from "
                         f"{', '.join(map(str, rs.player_counts))}")
    return rs, players


def positive_int(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"{text} must be at least 1")
    return v


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
    :func:`tutor.app.streams.make_console`)."""
    return make_console(stderr=stderr)


def session_io(seed: int | None, save: bool, io=None):
    """The seed, the learner's terminal and the progress store of an interactive session
    (``laugh play``, ``laugh drill``, ``laugh match``): ``io`` (a
    :class:`tutor.teaching.io.LearnerIO`) taken from the caller where given (tests and the home
    screen pass their own), else :func:`tutor.app.io.make_io`'s (a terminal with real time, or
    piped input with none).

    ``seed`` None draws a fresh one from 1 to 999,999; ``save`` False opens no store.  Returns
    ``(seed, io, store_or_None)``; a notice from the store (a corrupt database moved aside) is
    said.
    """
    seed = seed if seed is not None else random.SystemRandom().randrange(1, 10 ** 6)
    io = io or make_io()
    store = None
    if save:
        store = ProgressStore()
        if store.notice:
            io.show(store.notice)
    return seed, io, store
