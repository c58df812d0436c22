"""``laugh coach`` (the course's first deal with a coach) and ``laugh track [NAME]`` (a track:
the lessons, puzzles and deals one kind of learner needs, under one ruleset, ending with a
practice match).  Both are also on the home screen (``f`` and ``r``)."""

from __future__ import annotations

from tutor.app.commands._common import ruleset_name, seed_type
from tutor.app.commands.match import _seconds as _pace
from tutor.app.context import make_context, run_guarded


def register(sub, parent) -> None:
    """Add the ``coach`` and ``track`` subcommands."""
    p = sub.add_parser(
        "coach",
        parents=[parent],
        help="a first deal with a coach, then one on your own",
        description="Play a real deal against computer players with a coach beside you: the "
        "first time something new happens (a capture, a prial on the table, a dead "
        "pair, lying down, a claim, the settlement) the coach shows what the course "
        "says of it and on which page, and what the engine says you may do now. "
        "Then a second deal, the coach silent unless you type why (or coach). "
        "The deals are not recorded.",
    )
    p.add_argument(
        "--ruleset",
        "-r",
        type=ruleset_name,
        default=None,
        metavar="R",
        help="play the coached deal set for ruleset R (default: the course's first)",
    )
    p.add_argument(
        "--pace",
        type=_pace,
        default=1.0,
        metavar="SEC",
        help="seconds before each computer player's move on a terminal (default 1)",
    )
    p.set_defaults(handler=run_coach)
    t = sub.add_parser(
        "track",
        parents=[parent],
        help="a track through the course (default: tournament)",
        description="Take a track: the lessons and puzzles one kind of learner needs, every "
        "puzzle and deal under one ruleset, ending with a practice match "
        "(tournament: under inter-livery-2018).",
    )
    t.add_argument(
        "name",
        nargs="?",
        default="tournament",
        metavar="NAME",
        help="the track (default tournament)",
    )
    t.add_argument(
        "--seed",
        type=seed_type,
        metavar="S",
        help="seed for the puzzles of every step (and the match)",
    )
    t.set_defaults(handler=run_track)


def run_coach(args) -> int:
    """Play the course's coached deals (``args.ruleset``, ``args.pace``)."""
    from tutor.app.coached_deal import home_coached_deals

    ctx = make_context()

    def coached() -> int:
        home_coached_deals(ctx, args.ruleset, pace=args.pace)
        return 0

    return run_guarded(ctx, coached)


def run_track(args) -> int:
    """Open the track ``args.name`` (``args.seed`` seeds its puzzles)."""
    from tutor.app.track import TrackScreen

    ctx = make_context()
    return run_guarded(ctx, lambda: TrackScreen(ctx, args.name, seed=args.seed).run())
