"""``laugh drill KIND``: timed drills (oversights, count, settle) and weak spots.

:func:`run_drill` runs one drill from a :class:`DrillOptions`; the ``laugh drill`` handler builds
the options from the command line and the home screen builds them from :data:`DRILLS` (the same
kinds, the same defaults).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from tutor.app.commands._common import players_type, positive_int, seed_type, session_io
from tutor.engine.errors import UsageError
from tutor.engine.sources import default_library
from tutor.puzzles.terminal import suit_symbols

#: The drill kinds and what each is, in the order ``laugh drill`` and the home screen list them.
DRILLS = (("oversights", "spot and claim, or pass, against a clock"),
          ("count", "the card-counting trainer"),
          ("settle", "rapid settlement arithmetic"),
          ("weak", "practise weak spots (FSRS)"))

#: Rounds of a session when not given: ``count`` and ``settle``.
DEFAULT_ROUNDS = {"count": 5, "settle": 10}
#: Seconds when ``--limit`` is not given: a streak's position, a count answer, a settlement
#: question (the first; it tightens with runs of right answers).
DEFAULT_LIMIT = {"oversights": 20.0, "count": 30.0, "settle": 60.0}

#: The drills menu of the home screen: (number, letter, words, label, options).
MENU = (("1", "o", ("streak", "oversights"), "oversight streak: one miss ends it",
         {"kind": "oversights", "mode": "streak"}),
        ("2", "m", ("storm",), "oversight storm: three minutes on the clock",
         {"kind": "oversights", "mode": "storm"}),
        ("3", "c", ("count",), "the card-counting trainer", {"kind": "count"}),
        ("4", "s", ("settle",), "rapid settlement arithmetic", {"kind": "settle"}),
        ("5", "w", ("weak",), "practise weak spots (FSRS)", {"kind": "weak"}))


@dataclass
class DrillOptions:
    """One drill as chosen: ``kind`` (a name of :data:`DRILLS`); ``ruleset`` (None: a mixture)
    and ``players`` (None: any the ruleset covers); ``seed`` (None: a new one); ``save``
    (record the answers).  Per kind: ``mode`` (``streak`` or ``storm``), ``limit`` (seconds a
    position, streak), ``minutes`` (storm), ``positions`` (stop after N) for ``oversights``;
    ``speed`` (cards a second) and ``run`` (perfect rounds before the speed rises) for ``count``;
    ``rounds`` for ``count`` and ``settle`` (None: :data:`DEFAULT_ROUNDS`); ``items`` and
    ``list_only`` for ``weak``; ``limit`` (None: :data:`DEFAULT_LIMIT`; 0: no clock) is the
    seconds a streak position, a count answer or a settlement question has."""

    kind: str
    ruleset: str | None = None
    players: int | None = None
    seed: int | None = None
    save: bool = True
    mode: str = "streak"
    limit: float | None = None
    minutes: float = 3.0
    positions: int | None = None
    speed: float = 2.0
    run: int = 3
    rounds: int | None = None
    items: int = 5
    list_only: bool = False


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


def _limit(text: str) -> float:
    """argparse type: 0 (no clock) or 3 to 600 seconds."""
    v = _number(0, 600, "--limit")(text)
    if 0 < v < 3:
        raise argparse.ArgumentTypeError(f"--limit must be 0 (no clock) or at least 3, not {text}")
    return v


def _common(p) -> None:
    p.add_argument("--ruleset", "-r", default=None, metavar="R",
                   help="ruleset id (default: a mixture of the rulesets)")
    p.add_argument("--players", "-n", type=players_type, default=None, metavar="N",
                   help="player count (default: any the ruleset covers)")
    p.add_argument("--seed", type=seed_type, default=None, metavar="S",
                   help="seed (default: a new one)")
    p.add_argument("--no-save", action="store_true", help="do not record answers")


def register(sub, parent) -> None:
    """Add the ``drill`` subcommand and its kinds."""
    d = DrillOptions("")
    helps = dict(DRILLS)
    p = sub.add_parser("drill", parents=[parent], help="timed drills: oversights, count, settle",
                       description="Timed drills. Every answer (right or wrong, and how long it "
                                   "took) is kept in your progress, and schedules the skill for "
                                   "review (FSRS).")
    ds = p.add_subparsers(dest="drill_kind", metavar="KIND")
    o = ds.add_parser("oversights", parents=[parent], help=helps["oversights"],
                      description="Positions in a stream: claim what can be claimed (claim 9s 9d, "
                                  "or claim 9) or pass (Enter). Streak: one miss ends it. Storm: "
                                  "three minutes, 10 s lost per mistake, time back for runs.")
    o.add_argument("--mode", choices=("streak", "storm"), default=d.mode)
    o.add_argument("--limit", type=_number(3, 300, "--limit"), default=None, metavar="SEC",
                   help=f"streak: seconds for each position (default "
                        f"{DEFAULT_LIMIT['oversights']:g})")
    o.add_argument("--minutes", type=_number(0.5, 30, "--minutes"), default=d.minutes,
                   metavar="M", help="storm: minutes on the clock (default %(default)g)")
    o.add_argument("--positions", type=positive_int, default=None, metavar="N",
                   help="stop after N positions")
    _common(o)
    c = ds.add_parser("count", parents=[parent], help=helps["count"],
                      description="A deal scrolls past at a chosen speed; when it stops, say how "
                                  "many of two ranks are unseen, which of your pairs are dead and "
                                  "which captures are at risk. The speed rises after a run of "
                                  "perfect rounds.")
    c.add_argument("--speed", type=_number(0.2, 50, "--speed"), default=d.speed, metavar="CPS",
                   help="cards a second (default %(default)g)")
    c.add_argument("--rounds", type=positive_int, default=DEFAULT_ROUNDS["count"], metavar="N")
    c.add_argument("--run", type=positive_int, default=d.run, metavar="R",
                   help="perfect rounds in a row before the speed rises (default %(default)s)")
    c.add_argument("--limit", type=_limit, default=None, metavar="SEC",
                   help=f"seconds for each answer, 0 for no clock (default "
                        f"{DEFAULT_LIMIT['count']:g})")
    _common(c)
    s = ds.add_parser("settle", parents=[parent], help=helps["settle"],
                      description="Finished deals as numbers: give one player's net stakes or "
                                  "points under the ruleset, as fast as you can.")
    s.add_argument("--rounds", type=positive_int, default=DEFAULT_ROUNDS["settle"], metavar="N")
    s.add_argument("--limit", type=_limit, default=None, metavar="SEC",
                   help=f"seconds for the first question, 0 for no clock; it tightens after "
                        f"runs of right answers (default {DEFAULT_LIMIT['settle']:g})")
    _common(s)
    w = ds.add_parser("weak", parents=[parent], help=helps["weak"],
                      description="A set on your weakest skills (puzzle kinds and themes), "
                                  "scheduled by FSRS from your graded answers.")
    w.add_argument("--items", type=positive_int, default=d.items, metavar="N")
    w.add_argument("--list", action="store_true", help="only list the skills, weakest first")
    _common(w)
    for kind_parser in (o, c, s, w):
        kind_parser.set_defaults(handler=run)
    p.set_defaults(handler=lambda args: (p.print_help(), 2)[1])


def options_from(args: argparse.Namespace) -> DrillOptions:
    """The :class:`DrillOptions` that ``laugh drill KIND ...`` asks for."""
    return DrillOptions(
        kind=args.drill_kind, ruleset=args.ruleset, players=args.players, seed=args.seed,
        save=not args.no_save, mode=getattr(args, "mode", "streak"),
        limit=getattr(args, "limit", None), minutes=getattr(args, "minutes", 3.0),
        positions=getattr(args, "positions", None), speed=getattr(args, "speed", 2.0),
        run=getattr(args, "run", 3), rounds=getattr(args, "rounds", None),
        items=getattr(args, "items", 5), list_only=getattr(args, "list", False))


def run(args: argparse.Namespace, *, asker=None, clock=None, console=None) -> int:
    """The ``laugh drill KIND`` handler: :func:`run_drill` with the options of the command line;
    the keyword arguments let tests inject input, time and output."""
    return run_drill(options_from(args), asker=asker, clock=clock, console=console)


def run_drill(opts: DrillOptions, *, asker=None, clock=None, console=None) -> int:
    """Run the drill ``opts`` asks for; returns the exit status (0).

    ``asker``, ``clock`` and ``console`` default to the terminal's (see
    :func:`tutor.app.commands._common.session_io`).  Raises :class:`UsageError` for an unknown
    kind, a ruleset or player count that does not fit, or ``list_only`` without saving;
    ``EOFError``/``KeyboardInterrupt`` pass through (answers are already recorded).
    """
    # Heavy (every drill, FSRS): only when a drill runs (start-up benchmark)
    from tutor.teaching.drills import CountDrill, DrillIO, OversightDrill, SettleDrill, practise_weak_spots
    from tutor.teaching.review import ReviewBook, render_weak_skills
    if opts.kind not in dict(DRILLS):
        raise UsageError(f"unknown drill {opts.kind!r}; choose from "
                         f"{', '.join(k for k, _ in DRILLS)}")
    lib = default_library()
    rs = lib.ruleset(opts.ruleset) if opts.ruleset else None
    if opts.players is not None:
        counts = rs.player_counts if rs else sorted({n for r in lib.rulesets.values()
                                                     for n in r.player_counts})
        if opts.players not in counts:
            who = f"ruleset {rs.id} does not cover" if rs else "no ruleset covers"
            raise UsageError(f"{who} {opts.players} players; choose from "
                             f"{', '.join(map(str, counts))}")
    if opts.kind == "oversights" and rs is not None and not rs.oversights:
        raise UsageError(f"ruleset {rs.id} lists no oversights: choose another for this drill")
    if opts.kind == "weak" and opts.list_only and not opts.save:
        raise UsageError("--list needs the progress store (leave out --no-save)")
    seed, asker, clock, console, store = session_io(opts.seed, opts.save, asker, clock, console)
    io = DrillIO(asker, clock, console, suit_symbols(), store)
    rulesets = [r for _, r in sorted(lib.rulesets.items())]
    rounds = opts.rounds if opts.rounds is not None else DEFAULT_ROUNDS.get(opts.kind)
    limit = opts.limit if opts.limit is not None else DEFAULT_LIMIT.get(opts.kind)
    try:
        if opts.kind == "oversights":
            drill = OversightDrill(io, rs.id if rs else None, opts.players, seed)
            if opts.mode == "streak":
                drill.streak(limit, opts.positions)
            else:
                drill.storm(opts.minutes, opts.positions)
        elif opts.kind == "count":
            CountDrill(io, rulesets, rs, opts.players, opts.speed, seed, opts.run,
                       limit).session(rounds)
        elif opts.kind == "settle":
            SettleDrill(io, rulesets, rs, opts.players, seed, limit).session(rounds)
        elif opts.list_only:
            skills = ReviewBook(store).skills()
            if not skills:
                io.say("No graded answers yet.")
            else:
                io.say("Skills, weakest first (FSRS):", style="bold")
                io.show(render_weak_skills(skills, width=console.width))
        else:
            practise_weak_spots(io, rulesets, opts.items, seed, rs)
    finally:
        if store is not None:
            store.close()
    return 0
