"""``laugh stats``: the learner's rating and its history, accuracy and speed by theme and kind
over time, weakest first."""

from __future__ import annotations

from tutor.app.context import make_context, run_guarded


def register(sub, parent) -> None:
    """Add the ``stats`` subcommand."""
    p = sub.add_parser(
        "stats",
        parents=[parent],
        help="your accuracy and speed, weakest first",
        description="Your rating (Glicko-2, moved by first tries at puzzles) "
        "with its deviation and history; accuracy and median time "
        "per theme and per kind of puzzle, weakest first, drawn as "
        "bars, and by day; spotting oversights per kind (claimed "
        "first, missed, false claims, median time) and the "
        "oversight drill's personal bests; skills as FSRS schedules "
        "them for review. "
        "On a terminal the weakest themes are offered as a practice "
        "set.",
    )
    p.add_argument(
        "--practice",
        action="store_true",
        help="go straight to a practice set of the weakest themes",
    )
    p.set_defaults(handler=run)


def run(args) -> int:
    """Print the statistics; offer (or, with ``--practice``, start) the practice set."""
    # Heavy (FSRS, puzzles, rendering): only for this command (start-up benchmark)
    from tutor.app.views import practice_themes, stats_view, weakest_themes
    from tutor.teaching.progress import ProgressStore

    ctx = make_context()
    if not args.practice and not ctx.interactive:
        # Statistics alone need no write access: read the file into memory, never change it.
        # (Practice records answers, so it opens the store for writing, on first use.)
        ctx._store = ProgressStore(read_only=True)
        if ctx._store.notice:
            ctx.say(ctx._store.notice, style="yellow")

    def body() -> int:
        if args.practice:
            weak = weakest_themes(ctx.store)
            if not weak:
                ctx.say("No weak themes yet: answer some puzzles first.")
                return 0
            practice_themes(ctx, weak)
            return 0
        stats_view(ctx, offer_practice=ctx.interactive, at_home=False)
        return 0

    return run_guarded(ctx, body)
