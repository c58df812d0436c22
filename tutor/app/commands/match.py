"""``laugh match``: a whole match against computer players, saved after every deal and resumable.

``laugh match --ruleset R --players N [--deals K] [--level L] [--seat S] [--seed S]`` starts a
match; ``laugh match --resume`` (or ``--resume FILE``) plays on from the next deal; ``--sheet
FILE.html`` also writes the score sheet, kept with the match.  This module parses the command
line; the match is :func:`tutor.app.matches.play_saved_match` (see :mod:`tutor.app.matches`).
"""

from __future__ import annotations

import argparse

from tutor.app.commands._common import (
    add_ruleset_options,
    seat_type,
    seed_type,
    whole,
)
from tutor.app.commands.play import _samples
from tutor.app.matches import LONGEST_PACE, play_saved_match
from tutor.app.sessions import DEFAULT_LEVEL, REVIEW_SAMPLES_HELP
from tutor.engine.game import DEFAULT_RULESET
from tutor.engine.levels import LEVELS
from tutor.engine.limits import MAX_MATCH_DEALS
from tutor.engine.safetext import clip


def register(sub, parent) -> None:
    """Add the ``match`` subcommand."""
    levels = "; ".join(f"{lv.name}: {lv.summary}" for lv in LEVELS.values())
    p = sub.add_parser(
        "match",
        parents=[parent],
        help="a whole match, saved after every deal and resumable",
        description="Play a match against computer players: the deal passes left, the running "
        "totals follow every deal, and the match is saved after every deal. Under "
        "a ruleset with a match format (inter-livery-2018: two rounds of five games, "
        "the first a practice game) the match follows it and ends with the "
        "tournament score sheet. Quit at any prompt (quit, Ctrl-D): what is "
        "finished is kept; 'laugh match --resume' plays on.",
        epilog=f"Levels: {levels}.",
    )
    add_ruleset_options(p, default=None, shown=DEFAULT_RULESET)
    p.add_argument(
        "--deals",
        "-k",
        type=whole(1, MAX_MATCH_DEALS, "a number of deals"),
        default=None,
        metavar="K",
        help="deals in the match (default: the ruleset's match format, else one deal per player)",
    )
    p.add_argument(
        "--seat",
        type=seat_type,
        default=None,
        metavar="S",
        help="your seat, 0 to players-1 (default 0)",
    )
    p.add_argument(
        "--level",
        "-l",
        default=None,
        metavar="L",
        help=f"computer players: {', '.join(LEVELS)} (default {DEFAULT_LEVEL})",
    )
    p.add_argument(
        "--seed",
        type=seed_type,
        default=None,
        metavar="S",
        help="seed for the cut, the deals and the computer players (default: new)",
    )
    p.add_argument(
        "--pace",
        type=_seconds,
        default=None,
        metavar="SEC",
        help="seconds before each computer player's move on a terminal (default 1)",
    )
    p.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="FILE",
        help="play on the last unfinished match (or the saved match FILE)",
    )
    p.add_argument(
        "--sheet",
        metavar="FILE.html",
        help="also write the score sheet as printable HTML, rewritten after every "
        "deal (kept with the match: a resumed match goes on rewriting it)",
    )
    p.add_argument(
        "--review-samples",
        type=_samples,
        default=REVIEW_SAMPLES_HELP,
        metavar="N",
        help="most playouts per decision in the review of your costliest decisions "
        f"after each deal (default {REVIEW_SAMPLES_HELP}; 0 leaves the analysis "
        "out)",
    )
    p.set_defaults(handler=run)


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= v <= LONGEST_PACE:
        raise argparse.ArgumentTypeError(
            f"{clip(text, 20)} is not between 0 and {LONGEST_PACE:g} seconds"
        )
    return v


def run(args: argparse.Namespace, *, io=None, make_player=None) -> int:
    """The ``laugh match`` handler (:func:`tutor.app.matches.play_saved_match` with the options
    of the command line); the keyword arguments let tests inject input, time and output
    (``io``, a :class:`tutor.teaching.io.LearnerIO`) and the deal player."""
    return play_saved_match(
        ruleset=args.ruleset,
        players=args.players,
        deals=args.deals,
        seat=args.seat,
        level_name=args.level,
        seed=args.seed,
        pace=args.pace,
        resume=args.resume,
        sheet=args.sheet,
        review_samples=getattr(args, "review_samples", REVIEW_SAMPLES_HELP),
        io=io,
        make_player=make_player,
    )
