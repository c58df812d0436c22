"""What ``laugh simulate`` does once its arguments are read: a study of seeded deals between
computer players (per seat the mean result with a 95% interval, how often each seat is last in,
the dealer's advantage) or ``--skill``'s paired deals of the expert against other players, with
a progress bar on a terminal, as a table or JSON.  The command line
(:mod:`tutor.app.commands.simulate`) only parses arguments and calls these.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tutor.app.sessions import resolve
from tutor.app.std_streams import echo_json, make_console
from tutor.engine.bots import BOT_NAMES
from tutor.engine.errors import UsageError
from tutor.engine.levels import LEVELS
from tutor.engine.limits import MAX_RECORDED_DEALS
from tutor.engine.names import find_name
from tutor.engine.outputs import cannot_write, check_output
from tutor.engine.records import write_records
from tutor.engine.rulesets import Ruleset
from tutor.engine.simulate import (
    SKILL_OPPONENTS,
    Study,
    run_skill,
    run_study,
    seat_names,
    skill_json,
)
from tutor.engine.sources import default_library

__all__ = ["players_line", "skill_page", "skill_plan", "study_page", "study_view"]


def _progress_bar(err):
    """Rich's progress bar on ``err`` (only on a terminal), its description plain text."""
    from rich.progress import Progress, TextColumn

    return Progress(
        TextColumn("{task.description}", style="progress.description", markup=False),
        *Progress.get_default_columns()[1:],
        console=err,
        transient=True,
    )


def study_page(
    *,
    ruleset: str,
    players: int | None,
    deals: int,
    seed: int,
    bots: str,
    mistakes: float,
    workers: int,
    records: str | None,
    as_json: bool,
) -> int:
    """Play a study of ``deals`` seeded deals (:func:`tutor.engine.simulate.run_study`) of
    ``ruleset`` for ``players`` between the computer players ``bots`` (comma-separated, one for
    every seat or one a seat), careless at ``mistakes``, and print its summary
    (:func:`study_view`) or JSON; ``records`` a JSON Lines file for every deal record.  Returns
    the exit status.  Raises UsageError (exit status 2) for unknown players or more deals with
    ``records`` than it keeps; CannotWrite (exit status 1), before the study is played, for a
    ``records`` file that cannot be written."""
    rs, n = resolve(ruleset, players)
    if records:
        if deals > MAX_RECORDED_DEALS:
            raise UsageError(
                f"--records keeps every record until the study ends: at most "
                f"{MAX_RECORDED_DEALS:,} deals with it, not {deals:,} (run "
                "several seeds to record more)"
            )
        check_output(records)  # before the deals are played
    seats = [
        find_name(b.strip(), BOT_NAMES, "computer player") for b in bots.split(",") if b.strip()
    ]
    if not seats:
        raise UsageError(f"--bots names no computer player; choose from {', '.join(BOT_NAMES)}")
    if len(seats) not in (1, n):
        raise UsageError(f"--bots names {len(seats)} players; give one name, or {n}")
    out = make_console()
    err = make_console(stderr=True)
    progress_cb = None
    bar = None
    if err.is_terminal and deals >= 2000 and not as_json:
        bar = _progress_bar(err)
        bar.start()
        task = bar.add_task(f"{rs.id}, {n} players", total=deals)
        progress_cb = lambda k: bar.advance(task, k)  # noqa: E731
    try:
        study, kept = run_study(
            rs, n, deals, seed, seats, mistakes, workers, bool(records), progress_cb
        )
    finally:
        if bar is not None:
            bar.stop()
    if records:
        try:
            write_records(records, kept)
        except OSError as exc:
            raise cannot_write(records, exc) from None
    if as_json:
        echo_json(study.to_json(), indent=1)
        return 0
    for renderable in study_view(study, rs.id, n, deals, seed, seats, mistakes):
        out.print(renderable)
    if records:
        out.print(f"Wrote {len(kept)} deal records to {records}")
    return 0


def study_view(
    study: Study,
    ruleset_id: str,
    players: int,
    deals: int,
    seed: int,
    bots: list[str],
    mistakes: float = 0.0,
) -> list[RenderableType]:
    """A study's summary as renderables: per seat the mean result, its 95% interval and how
    often the seat is last in; the dealer's advantage, said once with what it means; the
    computer players, named as here and as the levels of ``laugh play``."""
    unit = "net stakes" if study.unit == "stakes" else "points"
    t = Table(
        title=f"{ruleset_id}, {players} players, {deals} deals, seed {seed}", title_justify="left"
    )
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
    return [
        t,
        Text(
            f"Dealer's advantage over the mean of the others: {a.mean:+.3f} ± {a.ci95:.3f} "
            f"{unit} a deal (95% interval): {meaning}."
        ),
        Text(players_line(bots, mistakes)),
    ]


def players_line(bots: list[str], mistakes: float = 0.0) -> str:
    """The computer players in words: their names here (``--bots``) and the level of ``laugh
    play`` that plays each (:data:`tutor.engine.levels.LEVELS`)."""

    def level_of(name: str) -> str:
        levels = [lv for lv in LEVELS.values() if lv.bot == name]
        if not levels:
            return "no level of laugh play"
        same = [lv.name for lv in levels if lv.mistakes == mistakes]
        others = [
            f"{lv.name} careless at {lv.mistakes:g}"
            if lv.mistakes
            else f"{lv.name} without mistakes"
            for lv in levels
            if lv.name not in same
        ]
        head = f"laugh play's {same[0]} level" if same else "as in laugh play"
        return head + (f"; {', '.join(others)}" if others else "")

    kinds = list(dict.fromkeys(bots))
    where = "at every seat" if len(bots) == 1 or len(kinds) == 1 else "by seat"
    care = f", careless at {mistakes:g}" if mistakes else ""
    return (
        f"Computer players {where}: "
        + "; ".join(f"{b} ({level_of(b)})" for b in kinds)
        + care
        + "."
    )


def skill_plan(
    skill: str, players: int | None, opponents: str
) -> tuple[list[tuple[Ruleset, int]], list[str]]:
    """The ``(ruleset, players)`` pairs and the opponents a ``--skill`` run measures.

    ``skill`` is ``all`` or comma-separated ruleset ids; ``players`` None takes 5 where a
    ruleset covers five, else its smallest count.  Raises :class:`UsageError` for an unknown
    ruleset or opponent, or a player count a chosen ruleset does not cover."""
    lib = default_library()
    rids = (
        list(lib.rulesets) if skill == "all" else [r.strip() for r in skill.split(",") if r.strip()]
    )
    if not rids:
        raise UsageError("--skill names no ruleset")
    pairs = []
    for rid in rids:
        rs = lib.ruleset(rid)
        n = players if players is not None else (5 if 5 in rs.counts else rs.player_counts[0])
        if n not in rs.counts:
            raise UsageError(
                f"ruleset {rs.id} does not cover {n} players; choose from "
                f"{', '.join(map(str, rs.player_counts))}"
            )
        pairs.append((rs, n))
    opps = [
        find_name(o.strip(), SKILL_OPPONENTS, "opponent") for o in opponents.split(",") if o.strip()
    ]
    if not opps:
        raise UsageError(f"--opponents names none; choose from {', '.join(SKILL_OPPONENTS)}")
    return pairs, list(dict.fromkeys(opps))


def skill_page(
    *,
    skill: str,
    players: int | None,
    opponents: str,
    deals: int,
    seed: int,
    samples: int,
    workers: int,
    as_json: bool,
) -> int:
    """``laugh simulate --skill``: play the paired deals of every ruleset and opponent
    (:func:`tutor.engine.simulate.run_skill`, ``samples`` rollouts a decision) and print the
    table, or JSON (:func:`tutor.engine.simulate.skill_json`, every deal's figures included).
    Returns the exit status; raises UsageError as :func:`skill_plan` does."""
    pairs, opps = skill_plan(skill, players, opponents)
    err = make_console(stderr=True)
    bar = None
    progress_cb = None
    if err.is_terminal and not as_json:
        bar = _progress_bar(err)
        bar.start()
        task = bar.add_task("expert seats", total=deals * len(pairs) * len(opps))
        progress_cb = lambda k: bar.advance(task, k)  # noqa: E731
    studies = []
    try:
        for rs, n in pairs:
            for opp in opps:
                studies.append(run_skill(rs, n, deals, seed, opp, samples, workers, progress_cb))
    finally:
        if bar is not None:
            bar.stop()
    if as_json:
        echo_json(skill_json(studies, deals, seed, samples, opps))
        return 0
    from tutor.app.blocks import skill_view  # the lessons' view of the same figures

    out = make_console()
    for renderable in skill_view(skill_json(studies, deals, seed, samples, opps, per_deal=False)):
        out.print(renderable)
    return 0
