"""``laugh simulate``: self-play studies between computer players (:func:`study_view` is the
summary it shows); ``laugh simulate --skill``: how much an expert seat gains, per ruleset
(:func:`tutor.app.blocks.skill_view`)."""

from __future__ import annotations

from typing import Any

from tutor.app.commands._common import add_ruleset_options, rate, seed_type, whole
from tutor.app.simulating import skill_page, study_page
from tutor.engine.errors import UsageError
from tutor.engine.game import DEFAULT_RULESET
from tutor.engine.limits import MAX_RECORDED_DEALS, MAX_SIMULATED_DEALS


def register(sub, parent) -> None:
    """Add the ``simulate`` subcommand."""
    p = sub.add_parser(
        "simulate",
        parents=[parent],
        help="play many deals between computer players",
        description="Play seeded deals between computer players and report, per "
        "seat relative to the dealer, the mean result with a 95% "
        "interval, how often each seat is last in, and the dealer's "
        "advantage.",
    )
    add_ruleset_options(p, default=None, shown=STUDY_DEFAULTS["ruleset"])
    p.add_argument(
        "--deals",
        "-k",
        type=whole(1, MAX_SIMULATED_DEALS, "a number of deals"),
        default=1000,
        metavar="K",
        help="deals to play (default %(default)s)",
    )
    p.add_argument(
        "--seed", type=seed_type, default=1, metavar="S", help="seed (default %(default)s)"
    )
    p.add_argument(
        "--bots",
        default=None,
        metavar="NAMES",
        help="computer players by seat, comma-separated: random, willughby, counter "
        f"(one name for all seats; default {STUDY_DEFAULTS['bots']})",
    )
    p.add_argument(
        "--mistakes",
        type=rate,
        default=None,
        metavar="P",
        help="careless players' mistake rate from 0 to 1 (default 0)",
    )
    p.add_argument(
        "--records",
        metavar="FILE.jsonl",
        help=f"write every deal record here (at most {MAX_RECORDED_DEALS:,} deals)",
    )
    p.add_argument(
        "--workers",
        type=whole(1, 64, "a number of workers"),
        default=1,
        metavar="W",
        help="worker processes (results do not depend on it)",
    )
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument(
        "--skill",
        nargs="?",
        const="all",
        default=None,
        metavar="RULESETS",
        help="instead: how much an expert seat gains over other players' seats, per "
        "ruleset (comma-separated; default every ruleset), each at --players "
        "or 5 (else its smallest count)",
    )
    p.add_argument(
        "--opponents",
        default=None,
        metavar="NAMES",
        help="with --skill: the players an expert seat is measured against "
        f"(default {SKILL_DEFAULTS['opponents']})",
    )
    p.add_argument(
        "--samples",
        type=whole(1, 1_000_000, "a number of samples"),
        default=None,
        metavar="N",
        help="with --skill: the expert's samples per decision (default "
        f"{SKILL_DEFAULTS['samples']})",
    )
    p.set_defaults(handler=run)


#: The options of a self-play study that --skill does not take, with their defaults.
STUDY_DEFAULTS: dict[str, Any] = {
    "ruleset": DEFAULT_RULESET,
    "bots": "willughby",
    "mistakes": 0.0,
    "records": None,
}
#: The options only --skill takes, with their defaults.
SKILL_DEFAULTS = {"opponents": "random,counter", "samples": 200}


def _options_for(args, skill: bool) -> None:
    """Refuse an option the chosen kind of run would ignore (one line, exit status 2), then
    fill in the defaults of the ones it takes."""
    mine, others = (SKILL_DEFAULTS, STUDY_DEFAULTS) if skill else (STUDY_DEFAULTS, SKILL_DEFAULTS)
    given = [f"--{k}" for k in others if getattr(args, k, None) is not None]
    them = "it" if len(given) == 1 else "them"
    if given and skill:
        raise UsageError(
            f"--skill does not take {', '.join(given)}: it names its rulesets "
            "itself (--skill parlett,porges), chooses its own players and writes "
            f"no deal records; leave {them} out"
        )
    if given:
        raise UsageError(
            f"{', '.join(given)} only go{'es' if len(given) == 1 else ''} with "
            f"--skill; leave {them} out, or add --skill"
        )
    for k, v in mine.items():
        if getattr(args, k, None) is None:
            setattr(args, k, v)


def run(args) -> int:
    """Run a study and print its summary (:func:`tutor.app.simulating.study_page`), or with
    ``--skill`` the expert's paired deals (:func:`tutor.app.simulating.skill_page`).  Raises
    UsageError (exit status 2) for an option the run would ignore (``--records`` with
    ``--skill``, ``--samples`` without it)."""
    _options_for(args, args.skill is not None)
    if args.skill is not None:
        return skill_page(
            skill=args.skill,
            players=args.players,
            opponents=args.opponents,
            deals=args.deals,
            seed=args.seed,
            samples=args.samples,
            workers=args.workers,
            as_json=args.json,
        )
    return study_page(
        ruleset=args.ruleset,
        players=args.players,
        deals=args.deals,
        seed=args.seed,
        bots=args.bots,
        mistakes=args.mistakes,
        workers=args.workers,
        records=args.records,
        as_json=args.json,
    )
