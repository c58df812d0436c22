"""The one place the drills are listed, as :mod:`tutor.puzzles.registry` lists the puzzle kinds.

Each drill registers a :class:`DrillKind`: its name (``laugh drill NAME``), a line of help, a
description, the settings it takes (``--limit``, ``--rounds``, ...: each an option of
``laugh drill NAME`` and a default for the home screen), its entries in the home screen's drill
menu, any check of a request it cannot run, and the module whose ``run(io, store, request)``
runs it.  ``laugh drill`` (:mod:`tutor.app.commands.drill`) builds its subcommands from
:data:`DRILLS` and the home screen its menu; neither names a drill.

The entries are light: a drill's module (its generators, the puzzles, FSRS) is imported only
when it runs, so that the command line starts quickly (``benchmarks/bench_startup.py``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import NamedTuple

from tutor.engine.rulesets import Ruleset

__all__ = ["DRILLS", "DrillKind", "DrillRequest", "MenuEntry", "Setting", "drill_kind", "register"]


class Setting(NamedTuple):
    """One setting of a drill: the option ``--NAME`` of ``laugh drill KIND``, and the value
    ``request.settings[key]`` (``key`` defaults to ``name``).

    What it takes: a number from ``lo`` to ``hi`` (with ``off``, 0 too: no clock), a ``whole``
    number of at least 1, one of ``choices``, or a ``switch`` (present or not).  ``default`` is
    what ``laugh drill`` and the home screen use when it is not given; ``help`` may name it as
    ``%(default)g`` or ``%(default)s``.  (Tuples rather than dataclasses throughout this
    module: it is read at every start.)
    """

    name: str
    default: object = None
    help: str | None = None
    metavar: str | None = None
    lo: float | None = None
    hi: float | None = None
    off: bool = False
    whole: bool = False
    choices: tuple[str, ...] = ()
    switch: bool = False
    key: str | None = None

    @property
    def dest(self) -> str:
        """The key of the value in a request's settings."""
        return self.key or self.name


class MenuEntry(NamedTuple):
    """An entry of the home screen's drill menu: its ``letter``, the ``words`` it answers to
    (the first is shown), its ``label``, and the ``settings`` it sets (the others default)."""

    letter: str
    words: tuple[str, ...]
    label: str
    settings: Mapping[str, object] = MappingProxyType({})


class DrillRequest(NamedTuple):
    """A drill as asked for: ``ruleset`` (a :class:`~tutor.engine.rulesets.Ruleset`, or None: a
    mixture of ``rulesets``, every ruleset in id order), ``players`` (None: any the ruleset
    covers), ``seed``, ``save`` (answers are recorded), and ``settings`` (every setting of the
    drill, by key, defaults filled in)."""

    ruleset: Ruleset | None
    rulesets: list[Ruleset]
    players: int | None
    seed: int
    save: bool = True
    settings: Mapping[str, object] = MappingProxyType({})


class DrillKind(NamedTuple):
    """A drill: ``name``; ``help`` (one line: ``laugh drill --help``); ``description``
    (``laugh drill NAME --help``); ``module``, whose ``run(io, store, request)`` runs it
    (``io`` a :class:`tutor.teaching.io.LearnerIO`, ``store`` a progress store or None,
    ``request`` a :class:`DrillRequest`); its ``settings``; its ``menu`` entries (none: one
    entry with its name and help); and ``check(request)``, the reason it cannot run as asked (or
    None), asked before anything is opened."""

    name: str
    help: str
    description: str
    module: str
    settings: tuple[Setting, ...] = ()
    menu: tuple[MenuEntry, ...] = ()
    check: Callable[[DrillRequest], str | None] | None = None

    def defaults(self) -> dict[str, object]:
        """Every setting's default, by key."""
        return {s.dest: s.default for s in self.settings}

    def entries(self) -> tuple[MenuEntry, ...]:
        """The home screen's entries for this drill."""
        return self.menu or (MenuEntry(self.name[0], (self.name,), self.help),)

    def run(self, io, store, request: DrillRequest) -> None:
        """Run the drill (its module is imported now).  ``EOFError`` and ``KeyboardInterrupt``
        pass through, with every answer already recorded."""
        importlib.import_module(self.module).run(io, store, request)


_DRILLS: dict[str, DrillKind] = {}
#: Every drill by name, in the order ``laugh drill`` and the home screen list them.
DRILLS: Mapping[str, DrillKind] = MappingProxyType(_DRILLS)


def register(kind: DrillKind) -> DrillKind:
    """Add ``kind`` to :data:`DRILLS` (after those already there)."""
    if kind.name in _DRILLS:
        raise ValueError(f"a drill named {kind.name!r} is already registered")
    _DRILLS[kind.name] = kind
    return kind


def drill_kind(name: str) -> DrillKind:
    """The drill named ``name``; UsageError listing the drills if there is none."""
    from tutor.engine.names import find_name

    return DRILLS[find_name(name, DRILLS, "drill")]


# -- the drills --------------------------------------------------------------------------------


def _has_oversights(req: DrillRequest) -> str | None:
    rs = req.ruleset
    if rs is not None and not rs.game().lists_oversights:
        return f"ruleset {rs.id} lists no oversights: choose another for this drill"
    return None


def _list_needs_store(req: DrillRequest) -> str | None:
    if req.settings.get("list_only") and not req.save:
        return "--list needs the progress store (leave out --no-save)"
    return None


register(
    DrillKind(
        "oversights",
        "spot and claim, or pass, against a clock",
        "Positions in a stream: claim what can be claimed (claim 9s 9d, or claim 9) or pass "
        "(Enter). Streak: one miss ends it. Storm: three minutes, 10 s lost per mistake, time back "
        "for runs.",
        "tutor.teaching.drills.oversights",
        settings=(
            Setting(
                "mode",
                "streak",
                "streak: one miss ends the run; storm: as many as you "
                "can before the clock runs out (default %(default)s)",
                choices=("streak", "storm"),
            ),
            Setting(
                "limit",
                20.0,
                "streak: seconds for each position (default %(default)g)",
                "SEC",
                lo=3,
                hi=300,
            ),
            Setting(
                "minutes",
                3.0,
                "storm: minutes on the clock (default %(default)g)",
                "M",
                lo=0.5,
                hi=30,
            ),
            Setting("positions", None, "stop after N positions", "N", whole=True),
        ),
        menu=(
            MenuEntry(
                "o",
                ("streak", "oversights"),
                "oversight streak: one miss ends it",
                {"mode": "streak"},
            ),
            MenuEntry(
                "m", ("storm",), "oversight storm: three minutes on the clock", {"mode": "storm"}
            ),
        ),
        check=_has_oversights,
    )
)

register(
    DrillKind(
        "count",
        "the card-counting trainer",
        "A deal scrolls past at a chosen speed; when it stops, say how many of two ranks are "
        "unseen, which of your pairs are dead and which captures are at risk. The speed rises "
        "after a run of perfect rounds.",
        "tutor.teaching.drills.count",
        settings=(
            Setting("speed", 2.0, "cards a second (default %(default)g)", "CPS", lo=0.2, hi=50),
            Setting("rounds", 5, "deals to count (default %(default)s)", "N", whole=True),
            Setting(
                "run",
                3,
                "perfect rounds in a row before the speed rises (default %(default)s)",
                "R",
                whole=True,
            ),
            Setting(
                "limit",
                30.0,
                "seconds for each answer, 0 for no clock (default %(default)g)",
                "SEC",
                lo=3,
                hi=600,
                off=True,
            ),
        ),
    )
)

register(
    DrillKind(
        "settle",
        "rapid settlement arithmetic",
        "Finished deals as numbers: give one player's net stakes or points under the ruleset, as "
        "fast as you can.",
        "tutor.teaching.drills.settle",
        settings=(
            Setting("rounds", 10, "questions (default %(default)s)", "N", whole=True),
            Setting(
                "limit",
                60.0,
                "seconds for the first question, 0 for no clock; it "
                "tightens after runs of right answers (default "
                "%(default)g)",
                "SEC",
                lo=3,
                hi=600,
                off=True,
            ),
        ),
    )
)

register(
    DrillKind(
        "weak",
        "practise weak spots, as they come due",
        "A set on your weakest skills (puzzle kinds and themes), scheduled by FSRS from your "
        "graded answers.",
        "tutor.teaching.drills.weak",
        settings=(
            Setting("items", 5, "skills in the set (default %(default)s)", "N", whole=True),
            Setting(
                "list", False, "only list the skills, weakest first", switch=True, key="list_only"
            ),
        ),
        check=_list_needs_store,
    )
)
