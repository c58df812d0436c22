"""``laugh`` (no arguments) and ``laugh tutor``: open the tutor's home screen.

The home screen reads only the lessons' front matter and the progress file before it appears.
"""

from __future__ import annotations

from tutor.app.commands._common import seed_type
from tutor.app.context import make_context, run_guarded
from tutor.app.home import Home


def register(sub, parent) -> None:
    """Add the ``tutor`` subcommand (the same as running ``laugh`` with no command)."""
    p = sub.add_parser(
        "tutor",
        parents=[parent],
        help="open the tutor (the default command)",
        description="Open the tutor: the course of lessons, puzzles, sources and "
        "statistics. The same as 'laugh' with no command. When "
        "standard input is not a terminal, choices and answers are "
        "read line by line.",
    )
    p.add_argument(
        "--seed",
        type=seed_type,
        metavar="S",
        help="seed for the puzzles of every lesson started here (a class can then "
        "script the whole course)",
    )
    p.set_defaults(handler=run_default)


def run_default(args) -> int:
    """Open the home screen and run it until the learner quits.

    Returns 0 on ``q`` and at the end of input (everything answered is already saved); 130 on
    Ctrl-C, without a traceback.
    """
    ctx = make_context()
    seed = getattr(args, "seed", None)
    return run_guarded(ctx, lambda: Home(ctx, seed=seed).run())
