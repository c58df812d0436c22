"""The interactive sessions the command line and the home screen both start: choosing a
ruleset and player count (:func:`resolve`), the set-up of a session (:func:`session_io`), a
drill (:func:`run_drill`) and practice deals (:func:`start_play`).  ``laugh match`` is
:mod:`tutor.app.matches`; a lesson, :func:`tutor.app.runner.take_lesson`.

Light on purpose: the home screen imports it at start-up; the game loads only when a deal is
played.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tutor.app.learner_io import make_io
from tutor.engine.errors import UsageError
from tutor.engine.game import DEFAULT_RULESET
from tutor.engine.levels import level
from tutor.engine.outputs import check_output
from tutor.engine.sources import default_library
from tutor.teaching.drills.registry import DrillKind, DrillRequest, drill_kind
from tutor.teaching.progress import ProgressStore

#: The computer players of ``laugh play`` and ``laugh match`` unless another level is chosen.
DEFAULT_LEVEL = "casual"
#: The review's playouts per decision, as :data:`tutor.app.play.review.REVIEW_SAMPLES` (named
#: here for the help text without importing the game at start-up; a test keeps them equal).
REVIEW_SAMPLES_HELP = 4000


def resolve(ruleset_id: str, players: int | None):
    """The ruleset and player count chosen on the command line.

    Raises :class:`UsageError` listing the valid ruleset ids, or the ruleset's player counts.
    """
    lib = default_library()
    rs = lib.ruleset(ruleset_id)
    if players is None:
        players = 5 if 5 in rs.counts else rs.player_counts[0]
    if players not in rs.counts:
        raise UsageError(
            f"ruleset {rs.id} does not cover {players} players; choose from "
            f"{', '.join(map(str, rs.player_counts))}"
        )
    return rs, players


def session_io(seed: int | None, save: bool, io=None):
    """The seed, the learner's terminal and the progress store of an interactive session
    (``laugh play``, ``laugh drill``, ``laugh match``): ``io`` (a
    :class:`tutor.teaching.io.LearnerIO`) taken from the caller where given (tests and the home
    screen pass their own), else :func:`tutor.app.learner_io.make_io`'s (a terminal with real time, or
    piped input with none).

    ``seed`` None draws a fresh one from 1 to 999,999; ``save`` False opens no store.  Returns
    ``(seed, io, store_or_None)``; a notice from the store (a corrupt database moved aside) is
    said.
    """
    seed = seed if seed is not None else random.SystemRandom().randrange(1, 10**6)
    io = io or make_io()
    store = None
    if save:
        store = ProgressStore()
        if store.notice:
            io.show(store.notice)
    return seed, io, store


@dataclass
class DrillOptions:
    """One drill as chosen: ``kind`` (a name of :data:`~tutor.teaching.drills.registry.DRILLS`);
    ``ruleset`` (an id; None: a mixture) and ``players`` (None: any the ruleset covers); ``seed``
    (None: a new one); ``save`` (record the answers); ``settings`` (the drill's settings by
    key; those not given take the registry's defaults)."""

    kind: str
    ruleset: str | None = None
    players: int | None = None
    seed: int | None = None
    save: bool = True
    settings: dict = field(default_factory=dict)


def run_drill(opts: DrillOptions, *, io=None, next_line: bool = True) -> int:
    """Run the drill ``opts`` asks for; returns the exit status (0).  ``next_line``: end with
    the line on what next (from the command line; the home screen's menu comes back instead).

    ``io`` (a :class:`tutor.teaching.io.LearnerIO`) defaults to the terminal's (see
    :func:`session_io`).  Raises :class:`UsageError` for an unknown
    drill, a ruleset or player count that does not fit, or a request the drill refuses (its
    ``check``); ``EOFError``/``KeyboardInterrupt`` pass through (answers are already recorded).
    """
    kind, request = drill_request(opts)
    seed, io, store = session_io(request.seed, opts.save, io)
    try:
        kind.run(io, store, request)
    finally:
        if store is not None:
            store.close()
    if next_line:
        io.say(
            f"Next: laugh drill {opts.kind} for another set, or laugh for the home screen "
            "(what is due today, the next lesson, the drills).",
            style="dim",
        )
    return 0


def drill_request(opts: DrillOptions) -> tuple[DrillKind, DrillRequest]:
    """The drill ``opts`` asks for and its :class:`DrillRequest` (``laugh drill``, the home
    screen and the browser's drills, :mod:`tutor.app.web.drills`): the ruleset read, the
    player count checked, a fresh seed from :class:`random.SystemRandom` where none is given,
    the registry's defaults under the settings given.  Raises :class:`UsageError` for an
    unknown drill, a ruleset or player count that does not fit, or a request the drill
    refuses (its ``check``)."""
    kind = drill_kind(opts.kind)
    lib = default_library()
    rs = lib.ruleset(opts.ruleset) if opts.ruleset else None
    if opts.players is not None:
        counts = (
            rs.player_counts
            if rs
            else sorted({n for r in lib.rulesets.values() for n in r.player_counts})
        )
        if opts.players not in counts:
            who = f"ruleset {rs.id} does not cover" if rs else "no ruleset covers"
            raise UsageError(
                f"{who} {opts.players} players; choose from {', '.join(map(str, counts))}"
            )
    seed = opts.seed if opts.seed is not None else random.SystemRandom().randrange(1, 10**6)
    request = DrillRequest(
        rs,
        [r for _, r in sorted(lib.rulesets.items())],
        opts.players,
        seed,
        opts.save,
        {**kind.defaults(), **opts.settings},
    )
    problem = kind.check(request) if kind.check is not None else None
    if problem:
        raise UsageError(problem)
    return kind, request


def start_play(
    ruleset: str = DEFAULT_RULESET,
    players: int | None = None,
    *,
    deals: int = 1,
    seat: int = 0,
    level_name: str = DEFAULT_LEVEL,
    seed: int | None = None,
    pace: float = 1.0,
    export: str | None = None,
    save: bool = True,
    io=None,
    review_samples: int | None = None,
    next_line: bool = True,
) -> int:
    """Play a match of ``deals`` deals of ``ruleset`` (``players`` None: 5 where the ruleset
    covers it) at ``seat`` against computer players of level ``level_name``; ``seed`` None draws
    a new one; ``pace`` seconds before each computer player's move on a terminal; ``export`` a
    JSON Lines file for the records; ``save`` keeps the records and progress;
    ``next_line`` ends with the line on what next (from the command line, not from the home
    screen); ``review_samples`` the playouts per decision in the review after each deal (None: the
    default, :data:`tutor.app.play.review.REVIEW_SAMPLES`; 0: no analysis); ``io`` the
    learner's terminal (:class:`tutor.teaching.io.LearnerIO`; default the real one).  Returns
    the exit status (0).  Raises :class:`UsageError` for a choice that does not fit;
    ``EOFError`` and ``KeyboardInterrupt`` pass through (the deal so far is saved)."""
    # Heavy (the game, the screen, the score sheet): only when a deal is played (start-up benchmark)
    from tutor.app.play.session import PlayOptions, play_match

    rs, players = resolve(ruleset, players)
    lv = level(level_name)
    if not 0 <= seat < players:
        raise UsageError(f"--seat must be from 0 to {players - 1}")
    if export:
        check_output(export)  # before a deal is played
    seed, io, store = session_io(seed, save, io)
    try:
        opts = PlayOptions(rs, players, deals, seat, lv, seed, pace, export, save)
        if review_samples is not None:
            opts.review_samples = review_samples
        result = play_match(opts, io=io, store=store)
    finally:
        if store is not None:
            store.close()
    if result.quit:
        io.say(f"Replay this match with --seed {seed}.")
    if next_line:
        io.say(
            "Next: laugh play for another deal, laugh match for a match kept from one day "
            "to the next, or laugh for the home screen.",
            style="dim",
        )
    return 0
