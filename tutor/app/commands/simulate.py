"""``laugh simulate``: self-play studies between computer players (:func:`study_view` is the
summary it shows); ``laugh simulate --skill``: how much an expert seat gains, per ruleset
(:func:`tutor.app.blocks.skill_view`)."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

from tutor.app.commands._common import add_ruleset_options, console, rate, seed_type, whole
from tutor.app.sessions import resolve
from tutor.app.streams import echo_json
from tutor.engine.bots import BOT_NAMES
from tutor.engine.errors import UsageError
from tutor.engine.game import DEFAULT_RULESET
from tutor.engine.levels import LEVELS
from tutor.engine.limits import MAX_RECORDED_DEALS, MAX_SIMULATED_DEALS
from tutor.engine.names import find_name
from tutor.engine.outputs import cannot_write, check_output
from tutor.engine.records import write_records
from tutor.engine.simulate import (
    SKILL_OPPONENTS,
    Study,
    run_skill,
    run_study,
    seat_names,
    skill_json,
)
from tutor.engine.sources import default_library


def register(sub, parent) -> None:
    """Add the ``simulate`` subcommand."""
    p = sub.add_parser("simulate", parents=[parent], help="play many deals between computer players",
                       description="Play seeded deals between computer players and report, per "
                                   "seat relative to the dealer, the mean result with a 95% "
                                   "interval, how often each seat is last in, and the dealer's "
                                   "advantage.")
    add_ruleset_options(p, default=None, shown=STUDY_DEFAULTS["ruleset"])
    p.add_argument("--deals", "-k", type=whole(1, MAX_SIMULATED_DEALS, "a number of deals"),
                   default=1000, metavar="K",
                   help="deals to play (default %(default)s)")
    p.add_argument("--seed", type=seed_type, default=1, metavar="S", help="seed (default %(default)s)")
    p.add_argument("--bots", default=None, metavar="NAMES",
                   help="computer players by seat, comma-separated: random, willughby, counter "
                        f"(one name for all seats; default {STUDY_DEFAULTS['bots']})")
    p.add_argument("--mistakes", type=rate, default=None, metavar="P",
                   help="careless players' mistake rate from 0 to 1 (default 0)")
    p.add_argument("--records", metavar="FILE.jsonl",
                   help=f"write every deal record here (at most {MAX_RECORDED_DEALS:,} deals)")
    p.add_argument("--workers", type=whole(1, 64, "a number of workers"), default=1, metavar="W",
                   help="worker processes (results do not depend on it)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--skill", nargs="?", const="all", default=None, metavar="RULESETS",
                   help="instead: how much an expert seat gains over other players' seats, per "
                        "ruleset (comma-separated; default every ruleset), each at --players "
                        "or 5 (else its smallest count)")
    p.add_argument("--opponents", default=None, metavar="NAMES",
                   help="with --skill: the players an expert seat is measured against "
                        f"(default {SKILL_DEFAULTS['opponents']})")
    p.add_argument("--samples", type=whole(1, 1_000_000, "a number of samples"), default=None,
                   metavar="N",
                   help="with --skill: the expert's samples per decision (default "
                        f"{SKILL_DEFAULTS['samples']})")
    p.set_defaults(handler=run)


#: The options of a self-play study that --skill does not take, with their defaults.
STUDY_DEFAULTS: dict[str, Any] = {"ruleset": DEFAULT_RULESET, "bots": "willughby", "mistakes": 0.0, "records": None}
#: The options only --skill takes, with their defaults.
SKILL_DEFAULTS = {"opponents": "random,counter", "samples": 200}


def _options_for(args, skill: bool) -> None:
    """Refuse an option the chosen kind of run would ignore (one line, exit status 2), then
    fill in the defaults of the ones it takes."""
    mine, others = (SKILL_DEFAULTS, STUDY_DEFAULTS) if skill else (STUDY_DEFAULTS, SKILL_DEFAULTS)
    given = [f"--{k}" for k in others if getattr(args, k, None) is not None]
    them = "it" if len(given) == 1 else "them"
    if given and skill:
        raise UsageError(f"--skill does not take {', '.join(given)}: it names its rulesets "
                         "itself (--skill parlett,porges), chooses its own players and writes "
                         f"no deal records; leave {them} out")
    if given:
        raise UsageError(f"{', '.join(given)} only go{'es' if len(given) == 1 else ''} with "
                         f"--skill; leave {them} out, or add --skill")
    for k, v in mine.items():
        if getattr(args, k, None) is None:
            setattr(args, k, v)


def _progress_bar(err):
    """Rich's progress bar on ``err`` (only on a terminal), its description plain text."""
    from rich.progress import Progress, TextColumn
    return Progress(TextColumn("{task.description}", style="progress.description", markup=False),
                    *Progress.get_default_columns()[1:], console=err, transient=True)


def run(args) -> int:
    """Run a study and print its summary.  Raises UsageError (exit status 2) for an option the
    run would ignore (``--records`` with ``--skill``, ``--samples`` without it), or more deals
    with ``--records`` than it keeps; CannotWrite (exit status 1), before the study is played,
    for a ``--records`` file that cannot be written."""
    _options_for(args, args.skill is not None)
    if args.skill is not None:
        return run_skill_table(args)
    rs, players = resolve(args.ruleset, args.players)
    if args.records:
        if args.deals > MAX_RECORDED_DEALS:
            raise UsageError(f"--records keeps every record until the study ends: at most "
                             f"{MAX_RECORDED_DEALS:,} deals with it, not {args.deals:,} (run "
                             "several seeds to record more)")
        check_output(args.records)          # before the deals are played
    bots = [find_name(b.strip(), BOT_NAMES, "computer player")
            for b in args.bots.split(",") if b.strip()]
    if not bots:
        raise UsageError(f"--bots names no computer player; choose from {', '.join(BOT_NAMES)}")
    if len(bots) not in (1, players):
        raise UsageError(f"--bots names {len(bots)} players; give one name, or {players}")
    out = console()
    err = console(stderr=True)
    progress_cb = None
    bar = None
    if err.is_terminal and args.deals >= 2000 and not args.json:
        bar = _progress_bar(err)
        bar.start()
        task = bar.add_task(f"{rs.id}, {players} players", total=args.deals)
        progress_cb = lambda k: bar.advance(task, k)  # noqa: E731
    try:
        study, records = run_study(rs, players, args.deals, args.seed, bots, args.mistakes,
                                   args.workers, bool(args.records), progress_cb)
    finally:
        if bar is not None:
            bar.stop()
    if args.records:
        try:
            write_records(args.records, records)
        except OSError as exc:
            raise cannot_write(args.records, exc) from None
    if args.json:
        echo_json(study.to_json(), indent=1)
        return 0
    for renderable in study_view(study, rs.id, players, args.deals, args.seed, bots,
                                 args.mistakes):
        out.print(renderable)
    if args.records:
        out.print(f"Wrote {len(records)} deal records to {args.records}")
    return 0


def study_view(study: Study, ruleset_id: str, players: int, deals: int, seed: int,
               bots: list[str], mistakes: float = 0.0) -> list[Any]:
    """A study's summary as renderables: per seat the mean result, its 95% interval and how
    often the seat is last in; the dealer's advantage, said once with what it means; the
    computer players, named as here and as the levels of ``laugh play``."""
    unit = "net stakes" if study.unit == "stakes" else "points"
    t = Table(title=f"{ruleset_id}, {players} players, {deals} deals, seed {seed}",
              title_justify="left")
    t.add_column("seat")
    t.add_column(f"mean {unit}", justify="right")
    t.add_column("95% ±", justify="right")
    t.add_column("last in", justify="right")
    for name, s in zip(seat_names(players), study.seats):
        t.add_row(name, f"{s.mean:+.3f}", f"{s.ci95:.3f}", f"{100 * s.last_in / s.n:.1f}%")
    a = study.advantage
    if a.n < 2:
        meaning = "too few deals to say"
    elif a.mean - a.ci95 > 0:
        meaning = "an advantage (the whole interval is above 0)"
    elif a.mean + a.ci95 < 0:
        meaning = "a disadvantage (the whole interval is below 0)"
    else:
        meaning = "not told apart from chance at this many deals (the interval holds 0)"
    return [t,
            Text(f"Dealer's advantage over the mean of the others: {a.mean:+.3f} ± {a.ci95:.3f} "
                 f"{unit} a deal (95% interval): {meaning}."),
            Text(players_line(bots, mistakes))]


def players_line(bots: list[str], mistakes: float = 0.0) -> str:
    """The computer players in words: their names here (``--bots``) and the level of ``laugh
    play`` that plays each (:data:`tutor.engine.levels.LEVELS`)."""
    def level_of(name: str) -> str:
        levels = [lv for lv in LEVELS.values() if lv.bot == name]
        if not levels:
            return "no level of laugh play"
        same = [lv.name for lv in levels if lv.mistakes == mistakes]
        others = [f"{lv.name} careless at {lv.mistakes:g}" if lv.mistakes else f"{lv.name} without "
                  "mistakes" for lv in levels if lv.name not in same]
        head = f"laugh play's {same[0]} level" if same else "as in laugh play"
        return head + (f"; {', '.join(others)}" if others else "")
    kinds = list(dict.fromkeys(bots))
    where = "at every seat" if len(bots) == 1 or len(kinds) == 1 else "by seat"
    care = f", careless at {mistakes:g}" if mistakes else ""
    return (f"Computer players {where}: " + "; ".join(f"{b} ({level_of(b)})" for b in kinds)
            + care + ".")


# --- --skill ---------------------------------------------------------------------------------

def skill_plan(skill: str, players: int | None, opponents: str) -> tuple[list, list[str]]:
    """The ``(ruleset, players)`` pairs and the opponents a ``--skill`` run measures.

    ``skill`` is ``all`` or comma-separated ruleset ids; ``players`` None takes 5 where a
    ruleset covers five, else its smallest count.  Raises :class:`UsageError` for an unknown
    ruleset or opponent, or a player count a chosen ruleset does not cover."""
    lib = default_library()
    rids = list(lib.rulesets) if skill == "all" else [r.strip() for r in skill.split(",")
                                                       if r.strip()]
    if not rids:
        raise UsageError("--skill names no ruleset")
    pairs = []
    for rid in rids:
        rs = lib.ruleset(rid)
        n = players if players is not None else (5 if 5 in rs.counts else rs.player_counts[0])
        if n not in rs.counts:
            raise UsageError(f"ruleset {rs.id} does not cover {n} players; choose from "
                             f"{', '.join(map(str, rs.player_counts))}")
        pairs.append((rs, n))
    opps = [find_name(o.strip(), SKILL_OPPONENTS, "opponent")
            for o in opponents.split(",") if o.strip()]
    if not opps:
        raise UsageError(f"--opponents names none; choose from {', '.join(SKILL_OPPONENTS)}")
    return pairs, list(dict.fromkeys(opps))


def run_skill_table(args) -> int:
    """``laugh simulate --skill``: play the paired deals of every ruleset and opponent
    (:func:`tutor.engine.simulate.run_skill`) and print the table, or JSON
    (:func:`tutor.engine.simulate.skill_json`, every deal's figures included)."""
    pairs, opps = skill_plan(args.skill, args.players, args.opponents)
    err = console(stderr=True)
    bar = None
    progress_cb = None
    if err.is_terminal and not args.json:
        bar = _progress_bar(err)
        bar.start()
        task = bar.add_task("expert seats", total=args.deals * len(pairs) * len(opps))
        progress_cb = lambda k: bar.advance(task, k)  # noqa: E731
    studies = []
    try:
        for rs, n in pairs:
            for opp in opps:
                studies.append(run_skill(rs, n, args.deals, args.seed, opp, args.samples,
                                         args.workers, progress_cb))
    finally:
        if bar is not None:
            bar.stop()
    if args.json:
        echo_json(skill_json(studies, args.deals, args.seed, args.samples, opps))
        return 0
    from tutor.app.blocks import skill_view  # the lessons' view of the same figures
    out = console()
    for renderable in skill_view(skill_json(studies, args.deals, args.seed, args.samples,
                                            opps, per_deal=False)):
        out.print(renderable)
    return 0
