"""``laugh drill KIND``: timed drills (oversights, count, settle) and weak spots.

The drills and their settings are the registry's (:data:`tutor.teaching.drills.registry.DRILLS`):
this module makes a subcommand of each, with an option per setting, and calls
:func:`tutor.app.sessions.run_drill` with a :class:`~tutor.app.sessions.DrillOptions`; the home
screen builds the options from the registry's menu entries (the same drills, the same
defaults).
"""

from __future__ import annotations

import argparse
from typing import Any

from tutor.app.commands._common import players_type, positive_int, ruleset_name, seed_type
from tutor.app.sessions import DrillOptions, run_drill
from tutor.teaching.drills.registry import DRILLS, Setting, drill_kind


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


def _off_or(lo: float, hi: float, what: str):
    """argparse type: 0 (no clock) or ``lo`` to ``hi``."""
    number = _number(0, hi, what)

    def parse(text: str) -> float:
        v = number(text)
        if 0 < v < lo:
            raise argparse.ArgumentTypeError(
                f"{what} must be 0 (no clock) or at least {lo:g}, not {text}"
            )
        return v

    return parse


def _add_setting(p: argparse.ArgumentParser, s: Setting) -> None:
    """The option of a drill's setting (see :class:`~tutor.teaching.drills.registry.Setting`)."""
    flag = f"--{s.name}"
    extra: dict[str, Any] = {"help": s.help} if s.help is not None else {}
    if s.switch:
        p.add_argument(flag, action="store_true", dest=s.dest, **extra)
        return
    if s.metavar is not None:
        extra["metavar"] = s.metavar
    if s.choices:
        p.add_argument(flag, choices=s.choices, default=s.default, dest=s.dest, **extra)
    elif s.whole:
        p.add_argument(flag, type=positive_int, default=s.default, dest=s.dest, **extra)
    else:
        kind = _off_or if s.off else _number
        assert s.lo is not None and s.hi is not None  # a number setting has its bounds
        p.add_argument(flag, type=kind(s.lo, s.hi, flag), default=s.default, dest=s.dest, **extra)


def _common(p) -> None:
    p.add_argument(
        "--ruleset",
        "-r",
        type=ruleset_name,
        default=None,
        metavar="R",
        help="ruleset id (default: a mixture of the rulesets)",
    )
    p.add_argument(
        "--players",
        "-n",
        type=players_type,
        default=None,
        metavar="N",
        help="player count (default: any the ruleset covers)",
    )
    p.add_argument(
        "--seed", type=seed_type, default=None, metavar="S", help="seed (default: a new one)"
    )
    p.add_argument("--no-save", action="store_true", help="do not record answers")


def register(sub, parent) -> None:
    """Add the ``drill`` subcommand and a subcommand for each drill of the registry."""
    p = sub.add_parser(
        "drill",
        parents=[parent],
        help="timed drills: oversights, count, settle",
        description="Timed drills. Every answer (right or wrong, and how long it "
        "took) is kept in your progress, and schedules the skill for "
        "review (FSRS).",
    )
    ds = p.add_subparsers(dest="drill_kind", metavar="KIND")
    for kind in DRILLS.values():
        k = ds.add_parser(kind.name, parents=[parent], help=kind.help, description=kind.description)
        for s in kind.settings:
            _add_setting(k, s)
        _common(k)
        k.set_defaults(handler=run)
    p.set_defaults(handler=lambda args: (p.print_help(), 2)[1])


def options_from(args: argparse.Namespace) -> DrillOptions:
    """The :class:`DrillOptions` that ``laugh drill KIND ...`` asks for."""
    kind = drill_kind(args.drill_kind)
    return DrillOptions(
        kind=kind.name,
        ruleset=args.ruleset,
        players=args.players,
        seed=args.seed,
        save=not args.no_save,
        settings={s.dest: getattr(args, s.dest) for s in kind.settings},
    )


def run(args: argparse.Namespace, *, io=None) -> int:
    """The ``laugh drill KIND`` handler: :func:`run_drill` with the options of the command line;
    ``io`` lets tests inject input, time and output."""
    return run_drill(options_from(args), io=io)
