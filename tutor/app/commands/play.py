"""``laugh play``: practice deals against computer players.

The handler parses the command line and calls :func:`tutor.app.sessions.start_play`, as the
home screen does.
"""

from __future__ import annotations

import argparse

from tutor.app.commands._common import (
    add_ruleset_options,
    seat_type,
    seed_type,
    whole,
)
from tutor.app.sessions import DEFAULT_LEVEL, REVIEW_SAMPLES_HELP, start_play
from tutor.engine.game import DEFAULT_RULESET
from tutor.engine.levels import LEVELS
from tutor.engine.limits import MAX_MATCH_DEALS


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= v <= 30:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 30 seconds")
    return v


#: argparse type of ``--review-samples``: 0 (no analysis) to 100,000.
_samples = whole(0, 100_000, "a number of samples")


def register(sub, parent) -> None:
    """Add the ``play`` subcommand."""
    levels = "; ".join(f"{lv.name}: {lv.summary}" for lv in LEVELS.values())
    p = sub.add_parser(
        "play",
        parents=[parent],
        help="play practice deals against computer players",
        description="Play a deal, or a match of K deals with the deal passing left, against "
        "computer players. You make every choice: captures (7h, or 7h 7s), "
        "declarations (declare qc qd), claims and lying down (ld). You may claim at "
        "any moment (the space bar, or claim), whether or not anything is "
        "claimable: name the cards or the rank (claim 9s 9d, claim nines, claim "
        "aces); a claim of nothing claimable is a false claim. Computer players "
        "claim an oversight after a reaction time for their level (careless ones "
        "sometimes miss it); the first claim to be named takes the cards, timed "
        "from the moment it could be claimed. At your prompt, hint shows the best "
        "move and its margin. After each deal: the settlement and a review of your "
        "mistakes (misses and false claims among them), with your costliest "
        "decisions in stakes by the engine's analysis (reproducible: seeded from "
        "the deal). Piped input has no real time: a line is read before each "
        "computer player's move and at your turn, and a claim typed there comes "
        "first.",
        epilog=f"Levels: {levels}.",
    )
    add_ruleset_options(p, default=DEFAULT_RULESET)
    p.add_argument(
        "--deals",
        "-k",
        type=whole(1, MAX_MATCH_DEALS, "a number of deals"),
        default=1,
        metavar="K",
        help="deals in the match (default 1)",
    )
    p.add_argument(
        "--seat",
        type=seat_type,
        default=0,
        metavar="S",
        help="your seat, 0 to players-1 (default 0)",
    )
    p.add_argument(
        "--level",
        "-l",
        default=DEFAULT_LEVEL,
        metavar="L",
        help=f"computer players: {', '.join(LEVELS)} (default %(default)s)",
    )
    p.add_argument(
        "--seed",
        type=seed_type,
        default=None,
        metavar="S",
        help="seed for the deals and the computer players (default: a new one)",
    )
    p.add_argument(
        "--pace",
        type=_seconds,
        default=1.0,
        metavar="SEC",
        help="seconds before each computer player's move on a terminal (default 1)",
    )
    p.add_argument(
        "--review-samples",
        type=_samples,
        default=None,
        metavar="N",
        help="most playouts per decision in the review of your costliest decisions "
        f"after each deal (default {REVIEW_SAMPLES_HELP}; 0 leaves the analysis "
        "out)",
    )
    p.add_argument("--export", metavar="FILE.jsonl", help="also write the deal records here")
    p.add_argument("--no-save", action="store_true", help="do not save deal records or progress")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, *, io=None) -> int:
    """The ``laugh play`` handler; ``io`` lets tests inject input, time and output."""
    return start_play(
        args.ruleset,
        args.players,
        deals=args.deals,
        seat=args.seat,
        level_name=args.level,
        seed=args.seed,
        pace=args.pace,
        export=args.export,
        save=not args.no_save,
        io=io,
        review_samples=args.review_samples,
    )
