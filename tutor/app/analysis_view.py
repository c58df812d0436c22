"""What ``laugh analyse`` shows: a deal record's decisions, each option's worth in stakes.

:func:`analyse_deal` runs the engine's analysis (with a progress bar on a terminal);
:func:`print_analysis` draws it as text, :func:`analysis_json` gives it to programs.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from tutor.engine.analysis import LOSS_CLASSES, annotate, describe_option

_CLASS_STYLE = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


@dataclass(frozen=True)
class Settings:
    """How a deal is analysed: the computer player that plays each option out (``policy``), the
    ``seed`` and the most random placements a decision (``samples``)."""

    policy: str
    seed: int
    samples: int


def analyse_deal(
    deal,
    seats: list[int] | None,
    at: int | None,
    settings: Settings,
    err: Console,
    *,
    bar: bool = True,
) -> list:
    """The engine's annotated decisions of ``deal`` (only ``seats``' and before action ``at``
    when given), with a progress bar on ``err`` when it is a terminal and ``bar`` is true."""
    if not err.is_terminal or not bar:
        return annotate(
            deal, seats, at, policy=settings.policy, seed=settings.seed, samples=settings.samples
        )
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("analysing decisions", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as progress_bar:
        task = progress_bar.add_task("analyse", total=None)

        def progress(done, total):
            progress_bar.update(task, completed=done, total=total)

        return annotate(
            deal,
            seats,
            at,
            policy=settings.policy,
            seed=settings.seed,
            samples=settings.samples,
            progress=progress,
        )


def _unit(deal) -> str:
    return deal.ruleset.unit


def analysis_json(deal, decisions: list, settings: Settings) -> dict[str, object]:
    """One deal's analysis for programs: the deal, the settings, every decision and a summary
    per seat (decisions, expected loss in the ruleset's unit, count of each loss class)."""
    summary = {}
    for q in range(deal.n):
        mine = [x for x in decisions if x.seat == q]
        summary[str(q)] = {
            "decisions": len(mine),
            "loss": round(sum(x.loss for x in mine), 4),
            **{name: sum(1 for x in mine if x.verdict == name) for name, _ in LOSS_CLASSES},
        }
    return {
        "ruleset": deal.ruleset.id,
        "players": deal.n,
        "dealer": deal.dealer,
        "unit": _unit(deal),
        "policy": settings.policy,
        "seed": settings.seed,
        "samples": settings.samples,
        "target": 0.1,
        "decisions": [x.to_json() for x in decisions],
        "summary": summary,
    }


def _count(k: int, name: str) -> str:
    """``1 mistake``, ``2 inaccuracies``."""
    if k == 1:
        return f"1 {name}"
    return f"{k} {name[:-1] + 'ies' if name.endswith('y') else name + 's'}"


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def print_analysis(
    out: Console, deal, decisions: list, settings: Settings, lineno: int | None
) -> None:
    """Draw one deal's analysis on ``out``: a heading (with the record's ``lineno`` when given),
    each decision with its options, and each seat's summary."""
    unit = _unit(deal)
    where = f" (record at line {lineno})" if lineno else ""
    out.print(
        Text.assemble(
            (f"{deal.ruleset.id}, {deal.n} players, dealer {deal.dealer}{where}", "bold"),
            f": expected final result of each option in {unit}, ± 95% interval, each option "
            f"played out by {settings.policy} players (seed {settings.seed}, up to "
            f"{settings.samples} samples "
            "a decision); best: separated from every other option by the 95% intervals; ≈: not "
            "told apart from the best",
        )
    )
    if not decisions:
        out.print("No decisions to analyse (every move was forced).")
        return
    for x in decisions:
        _print_decision(out, x)
    out.print()
    for q in sorted({x.seat for x in decisions}):
        mine = [x for x in decisions if x.seat == q]
        counts = ", ".join(
            _count(sum(1 for x in mine if x.verdict == name), name) for name, _ in LOSS_CLASSES
        )
        out.print(
            f"Player {q}: {_count(len(mine), 'decision')}, {counts}; expected loss "
            f"{sum(x.loss for x in mine):.2f} {unit}"
        )


def _print_decision(out: Console, x) -> None:
    an = x.analysis
    played = describe_option(x.played)
    if x.played is None:
        played = f"Player {x.seat} holds (makes no free action before the next turn)"
    style = _CLASS_STYLE.get(x.verdict)
    loss = f"loss {x.loss:.2f} ± {x.loss_ci95:.2f}, " if x.loss > 0 else ""
    then = ""
    if an.then is not None:
        then = f", then {describe_option(an.then)}"
    out.print(
        Text.assemble(
            "\n", (f"#{x.index}", "bold"), f" {played}{then}: {loss}", (x.verdict, style or "")
        )
    )
    classes: dict[int, list] = {}
    for o in an.options:
        classes.setdefault(o.group, []).append(o)
    for group, members in classes.items():
        out.print(_option_line(x, an, group, members))


def _option_line(x, an, group: int, members: list) -> str:
    mine = [o for o in members if o.action == x.played]
    o = mine[0] if mine else members[0]
    mark = "→" if mine else " "
    if group == an.best.group:
        diff = "best" if an.separated else "≈ best"
    else:
        diff = f"{_signed(o.diff)} ± {o.diff_ci95:.2f}" + (" ≈" if not o.separated else "")
    more = len(members) - 1
    same = f" (+{more} alike but for suits)" if more else ""
    return (
        f"  {mark} {_signed(o.mean)} ± {o.ci95:.2f}  {diff:>14}  {describe_option(o.action)}{same}"
    )
