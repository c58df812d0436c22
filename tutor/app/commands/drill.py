"""``laugh drill KIND``: timed drills (oversights, count, settle) and weak spots."""

from __future__ import annotations

import argparse

from tutor.app.commands._common import positive_int, session_io


def _number(lo: float, hi: float, what: str):
    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"{what} must be from {lo:g} to {hi:g}, not {text}")
        return v
    return parse


def _common(p) -> None:
    p.add_argument("--ruleset", "-r", default=None, metavar="R",
                   help="ruleset id (default: a mixture of the rulesets)")
    p.add_argument("--players", "-n", type=int, default=None, metavar="N",
                   help="player count (default: any the ruleset covers)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="seed (default: a new one)")
    p.add_argument("--no-save", action="store_true", help="do not record answers")


def register(sub, parent) -> None:
    """Add the ``drill`` subcommand and its kinds."""
    p = sub.add_parser("drill", parents=[parent], help="timed drills: oversights, count, settle",
                       description="Timed drills. Every answer (right or wrong, and how long it "
                                   "took) is kept in your progress, and schedules the skill for "
                                   "review (FSRS).")
    ds = p.add_subparsers(dest="drill_kind", metavar="KIND")
    o = ds.add_parser("oversights", parents=[parent],
                      help="spot and claim, or pass, against a clock",
                      description="Positions in a stream: claim what can be claimed (claim 9s 9d, "
                                  "or claim 9) or pass (Enter). Streak: one miss ends it. Storm: "
                                  "three minutes, 10 s lost per mistake, time back for runs.")
    o.add_argument("--mode", choices=("streak", "storm"), default="streak")
    o.add_argument("--limit", type=_number(3, 300, "--limit"), default=20.0, metavar="SEC",
                   help="streak: seconds for each position (default 20)")
    o.add_argument("--minutes", type=_number(0.5, 30, "--minutes"), default=3.0, metavar="M",
                   help="storm: minutes on the clock (default 3)")
    o.add_argument("--positions", type=positive_int, default=None, metavar="N",
                   help="stop after N positions")
    _common(o)
    o.set_defaults(handler=run)
    c = ds.add_parser("count", parents=[parent], help="the card-counting trainer",
                      description="A deal scrolls past at a chosen speed; when it stops, say how "
                                  "many of two ranks are unseen, which of your pairs are dead and "
                                  "which captures are at risk. The speed rises after a run of "
                                  "perfect rounds.")
    c.add_argument("--speed", type=_number(0.2, 50, "--speed"), default=2.0, metavar="CPS",
                   help="cards a second (default 2)")
    c.add_argument("--rounds", type=positive_int, default=5, metavar="N")
    c.add_argument("--run", type=positive_int, default=3, metavar="R",
                   help="perfect rounds before the speed rises (default 3)")
    _common(c)
    c.set_defaults(handler=run)
    s = ds.add_parser("settle", parents=[parent], help="rapid settlement arithmetic",
                      description="Finished deals as numbers: give one player's net stakes or "
                                  "points under the ruleset, as fast as you can.")
    s.add_argument("--rounds", type=positive_int, default=10, metavar="N")
    _common(s)
    s.set_defaults(handler=run)
    w = ds.add_parser("weak", parents=[parent], help="practise weak spots (FSRS)",
                      description="A set on your weakest skills (puzzle kinds and themes), "
                                  "scheduled by FSRS from your graded answers.")
    w.add_argument("--items", type=positive_int, default=5, metavar="N")
    w.add_argument("--list", action="store_true", help="only list the skills, weakest first")
    _common(w)
    w.set_defaults(handler=run)
    p.set_defaults(handler=lambda args: (p.print_help(), 2)[1])


def run(args, *, asker=None, clock=None, console=None) -> int:
    """Run a drill; the keyword arguments let tests inject input, time and output."""
    from tutor.teaching.drills import CountDrill, DrillIO, OversightDrill, SettleDrill, practise_weak_spots
    from tutor.engine.errors import UsageError
    from tutor.engine.sources import default_library
    from tutor.puzzles.terminal import suit_symbols
    lib = default_library()
    rs = lib.ruleset(args.ruleset) if args.ruleset else None
    if args.players is not None:
        counts = rs.player_counts if rs else sorted({n for r in lib.rulesets.values()
                                                     for n in r.player_counts})
        if args.players not in counts:
            raise UsageError(f"{'ruleset ' + rs.id if rs else 'no ruleset'} does not cover "
                             f"{args.players} players; choose from {', '.join(map(str, counts))}")
    seed, asker, clock, console, store = session_io(args, asker, clock, console)
    io = DrillIO(asker, clock, console, suit_symbols(), store)
    rulesets = [r for _, r in sorted(lib.rulesets.items())]
    try:
        kind = args.drill_kind
        if kind == "oversights":
            if rs is not None and not rs.oversights:
                raise UsageError(f"ruleset {rs.id} lists no oversights: choose another for this "
                                 "drill")
            drill = OversightDrill(io, rs.id if rs else None, args.players, seed)
            if args.mode == "streak":
                drill.streak(args.limit, args.positions)
            else:
                drill.storm(args.minutes, args.positions)
        elif kind == "count":
            drill = CountDrill(io, rulesets, rs, args.players, args.speed, seed, args.run)
            drill.session(args.rounds)
        elif kind == "settle":
            SettleDrill(io, rulesets, rs, args.players, seed).session(args.rounds)
        elif kind == "weak":
            if args.list:
                from tutor.teaching.review import ReviewBook, render_weak_skills
                if store is None:
                    raise UsageError("--list needs the progress store (leave out --no-save)")
                skills = ReviewBook(store).skills()
                if not skills:
                    io.say("No graded answers yet.")
                else:
                    io.say("Skills, weakest first (FSRS):", style="bold")
                    io.show(render_weak_skills(skills, width=console.width))
            else:
                practise_weak_spots(io, rulesets, args.items, seed, rs)
    finally:
        if store is not None:
            store.close()
    return 0
