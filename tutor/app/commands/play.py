"""``laugh play``: practice deals against computer players.

:func:`start` plays a match with explicit choices (each defaulting as ``laugh play`` does); the
``laugh play`` handler and the home screen both call it.
"""

from __future__ import annotations

import argparse

from tutor.app.commands._common import (
    add_ruleset_options,
    resolve,
    seat_type,
    seed_type,
    session_io,
    whole,
)
from tutor.engine.errors import UsageError
from tutor.engine.game import DEFAULT_RULESET
from tutor.engine.levels import LEVELS, level
from tutor.engine.limits import MAX_MATCH_DEALS
from tutor.engine.outputs import check_output

DEFAULT_LEVEL = "casual"
#: The review's playouts per decision, as :data:`tutor.app.play.review.REVIEW_SAMPLES` (named
#: here for the help text without importing the game at start-up; a test keeps them equal).
REVIEW_SAMPLES_HELP = 4000


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
        "play", parents=[parent], help="play practice deals against computer players",
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
        epilog=f"Levels: {levels}.")
    add_ruleset_options(p, default=DEFAULT_RULESET)
    p.add_argument("--deals", "-k", type=whole(1, MAX_MATCH_DEALS, "a number of deals"),
                   default=1, metavar="K",
                   help="deals in the match (default 1)")
    p.add_argument("--seat", type=seat_type, default=0, metavar="S",
                   help="your seat, 0 to players-1 (default 0)")
    p.add_argument("--level", "-l", default=DEFAULT_LEVEL, metavar="L",
                   help=f"computer players: {', '.join(LEVELS)} (default %(default)s)")
    p.add_argument("--seed", type=seed_type, default=None, metavar="S",
                   help="seed for the deals and the computer players (default: a new one)")
    p.add_argument("--pace", type=_seconds, default=1.0, metavar="SEC",
                   help="seconds before each computer player's move on a terminal (default 1)")
    p.add_argument("--review-samples", type=_samples, default=None, metavar="N",
                   help="most playouts per decision in the review of your costliest decisions "
                        f"after each deal (default {REVIEW_SAMPLES_HELP}; 0 leaves the analysis "
                        "out)")
    p.add_argument("--export", metavar="FILE.jsonl", help="also write the deal records here")
    p.add_argument("--no-save", action="store_true",
                   help="do not save deal records or progress")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace, *, io=None) -> int:
    """The ``laugh play`` handler; ``io`` lets tests inject input, time and output."""
    return start(args.ruleset, args.players, deals=args.deals, seat=args.seat,
                 level_name=args.level, seed=args.seed, pace=args.pace, export=args.export,
                 save=not args.no_save, io=io, review_samples=args.review_samples)


def start(ruleset: str = DEFAULT_RULESET, players: int | None = None, *, deals: int = 1,
          seat: int = 0, level_name: str = DEFAULT_LEVEL, seed: int | None = None,
          pace: float = 1.0, export: str | None = None, save: bool = True,
          io=None, review_samples: int | None = None) -> int:
    """Play a match of ``deals`` deals of ``ruleset`` (``players`` None: 5 where the ruleset
    covers it) at ``seat`` against computer players of level ``level_name``; ``seed`` None draws
    a new one; ``pace`` seconds before each computer player's move on a terminal; ``export`` a
    JSON Lines file for the records; ``save`` keeps the records and progress;
    ``review_samples`` the playouts per decision in the review after each deal (None: the
    default, :data:`tutor.app.play.review.REVIEW_SAMPLES`; 0: no analysis); ``io`` the
    learner's terminal (:class:`tutor.teaching.io.LearnerIO`; default the real one).  Returns
    the exit status (0).  Raises :class:`UsageError` for a choice that does not fit;
    ``EOFError`` and ``KeyboardInterrupt`` pass through (the deal so far is saved)."""
    # Heavy (the game, the screen, the score sheet): only when a deal is played (start-up benchmark)
    from tutor.app.play.session import PlayOptions, play_match
    rs, players = resolve(ruleset, players)
    lv = level(level_name)
    if not 0 <= seat < players:
        raise UsageError(f"--seat must be from 0 to {players - 1}")
    if export:
        check_output(export)            # before a deal is played
    seed, io, store = session_io(seed, save, io)
    try:
        opts = PlayOptions(rs, players, deals, seat, lv, seed, pace, export, save)
        if review_samples is not None:
            opts.review_samples = review_samples
        result = play_match(opts, io=io, store=store)
    finally:
        if store is not None:
            store.close()
    if result.quit:
        io.say(f"Replay this match with --seed {seed}.")
    return 0
