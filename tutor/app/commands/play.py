"""``laugh play``: practice deals against computer players."""

from __future__ import annotations

import argparse

from tutor.app.commands._common import add_ruleset_options, positive_int, resolve, session_io


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= v <= 30:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 30 seconds")
    return v


def register(sub, parent) -> None:
    """Add the ``play`` subcommand."""
    from tutor.engine.levels import LEVELS
    levels = "; ".join(f"{lv.name}: {lv.summary}" for lv in LEVELS.values())
    p = sub.add_parser(
        "play", parents=[parent], help="play practice deals against computer players",
        description="Play a deal, or a match of K deals with the deal passing left, against "
                    "computer players. You make every choice: captures (7h, or 7h 7s), "
                    "declarations (declare qc qd), claims (claim, or the space bar) and lying "
                    "down (ld). Computer players claim an oversight after a reaction time for "
                    "their level; claim first to win it. After each deal: the settlement and a "
                    "review of your mistakes. Piped input has no real time: after an action, a "
                    "line is read whenever you could claim, and a claim typed there comes first.",
        epilog=f"Levels: {levels}.")
    add_ruleset_options(p)
    p.add_argument("--deals", "-k", type=positive_int, default=1, metavar="K",
                   help="deals in the match (default 1)")
    p.add_argument("--seat", type=int, default=0, metavar="S",
                   help="your seat, 0 to players-1 (default 0)")
    p.add_argument("--level", "-l", default="casual", metavar="L",
                   help=f"computer players: {', '.join(LEVELS)} (default %(default)s)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="seed for the deals and the computer players (default: a new one)")
    p.add_argument("--pace", type=_seconds, default=1.0, metavar="SEC",
                   help="seconds before each computer player's move on a terminal (default 1)")
    p.add_argument("--export", metavar="FILE.jsonl", help="also write the deal records here")
    p.add_argument("--no-save", action="store_true",
                   help="do not save deal records or progress")
    p.set_defaults(handler=run)


def run(args, *, asker=None, clock=None, console=None) -> int:
    """Play; the keyword arguments let tests inject input, time and output."""
    from tutor.engine.errors import UsageError
    from tutor.engine.levels import level
    from tutor.app.play.session import PlayOptions, play_match
    from tutor.puzzles.terminal import suit_symbols
    rs, players = resolve(args.ruleset, args.players)
    lv = level(args.level)
    if not 0 <= args.seat < players:
        raise UsageError(f"--seat must be from 0 to {players - 1}")
    seed, asker, clock, console, store = session_io(args, asker, clock, console)
    try:
        result = play_match(PlayOptions(rs, players, args.deals, args.seat, lv, seed, args.pace,
                                        args.export, not args.no_save),
                            asker=asker, clock=clock, console=console, symbols=suit_symbols(),
                            store=store)
    finally:
        if store is not None:
            store.close()
    if result.quit:
        console.print(f"Replay this match with --seed {seed}.")
    return 0
