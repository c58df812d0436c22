"""The estimator: every option of a seat played out over many determinizations (see
:mod:`tutor.engine.analysis` for the method, the unit and the intervals).

Each sample ``i`` deals the cards the seat cannot see afresh (stream 0 of sample ``i``,
:mod:`tutor.engine.analysis.random_streams`) and plays every option out from that deal with the same
random numbers seat by seat.  The same loop runs the samples on the compiled kernel
(:class:`tutor.engine.analysis.fast.KernelRun`) or on the pure engine (:class:`PureRun`); both
give the same results, sample by sample, so the figures depend only on the seat's view, the
seed and the budget, never on which ran them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tutor.engine import kernelcache
from tutor.engine.analysis import fast
from tutor.engine.analysis.options import (
    NoDecision,
    decision_options,
    describe_option,
    option_class,
    option_to_json,
)
from tutor.engine.analysis.random_streams import Stream, mix_seed, sample_keys
from tutor.engine.analysis.sampling import Determinizer, rollout
from tutor.engine.deal import Action, Deal
from tutor.engine.errors import UsageError
from tutor.engine.rule_bots import RULE_BOT_NAMES, rule_bot

__all__ = ["Analysis", "ENGINES", "OptionValue", "POLICIES", "PureRun", "Z95", "analyse"]

#: Rollout policies: the computer players that follow fixed rules (``expert`` analyses by
#: rollouts itself).
POLICIES = RULE_BOT_NAMES
#: Which implementation plays the rollouts: ``kernel`` (compiled), ``pure`` (the engine).
ENGINES = ("kernel", "pure")
#: Samples a batch while the kernel is being compiled in the background: the analysis looks for
#: it after each batch and moves to it once it is ready.
_AWAIT_STEP = 4
Z95 = 1.96


# --- results -----------------------------------------------------------------------------


@dataclass(frozen=True)
class OptionValue:
    """One option's figures, in the deal's unit (net stakes, or points under pairs scoring).

    ``action`` is the option (None: hold).  ``mean`` is its expected final result for the seat
    and ``ci95`` the half-width of its 95% interval; ``diff`` its mean difference from the best
    option (0 for the best, negative otherwise) and ``diff_ci95`` that difference's half-width
    (paired samples); ``samples`` the rollouts behind them; ``group`` the index of its class of
    options that differ only by suits (they share their figures).
    """

    action: Action | None
    mean: float
    ci95: float
    diff: float
    diff_ci95: float
    samples: int
    group: int

    @property
    def loss(self) -> float:
        """Expected loss against the best option (>= 0)."""
        return max(0.0, -self.diff)

    @property
    def separated(self) -> bool:
        """True when this option is clearly worse than the best: the 95% interval of its
        difference from the best lies below zero."""
        return self.diff + self.diff_ci95 < 0

    def to_json(self) -> dict[str, Any]:
        """A machine-readable summary."""
        return {
            "action": option_to_json(self.action),
            "mean": round(self.mean, 4),
            "ci95": round(self.ci95, 4),
            "diff": round(self.diff, 4),
            "diff_ci95": round(self.diff_ci95, 4),
            "samples": self.samples,
            "group": self.group,
        }


@dataclass(frozen=True)
class Analysis:
    """The analysis of one seat's options at one position.

    ``options`` are :class:`OptionValue` best first (ties in the engine's order); ``unit`` is
    ``stakes`` or ``points``; ``samples`` the determinizations drawn; ``rollouts`` the deals
    played out; ``seconds`` the time taken; ``stopped`` why sampling stopped: ``forced`` (one
    option), ``clear`` (the best clearly ahead), ``precise`` (every difference interval within
    the target), ``budget`` (samples or time ran out).  ``then``: for a question of timing (the
    seat's free actions while it is to move), the turn action each option is played with
    (:func:`analyse`).  ``engine``: ``kernel`` or ``pure`` (the figures are the same).
    """

    seat: int
    policy: str
    seed: int
    unit: str
    options: tuple[OptionValue, ...]
    samples: int
    rollouts: int
    seconds: float
    stopped: str
    target: float
    then: Action | None = None
    engine: str = field(default="pure", compare=False)

    @property
    def best(self) -> OptionValue:
        """The option with the highest expected result (a best move only if
        :attr:`separated`)."""
        return self.options[0]

    @property
    def forced(self) -> bool:
        """True when every option is the same play (one class of options, or one option)."""
        return len({o.group for o in self.options}) == 1

    @property
    def runner_up(self) -> OptionValue | None:
        """The best option that is not the same play as :attr:`best` (None if forced)."""
        return next((o for o in self.options if o.group != self.best.group), None)

    @property
    def separated(self) -> bool:
        """True when the best option is clearly the best: every other play's difference interval
        lies below zero (so it may be called best)."""
        return not self.forced and all(
            o.separated for o in self.options if o.group != self.best.group
        )

    def alike(self) -> list[OptionValue]:
        """The options about as good as the best: :attr:`best` and one of each other play whose
        difference interval reaches zero (the analysis cannot tell them apart)."""
        out, seen = [self.best], {self.best.group}
        for o in self.options:
            if o.group not in seen and not o.separated:
                seen.add(o.group)
                out.append(o)
        return out

    def identical(self) -> bool:
        """True when every option gave the same result in every sample played (each difference
        exactly 0 ± 0): they are worth the same here, whatever more samples would say."""
        return all(o.diff == 0 and o.diff_ci95 == 0 for o in self.options)

    def value_of(self, action: Action | None) -> OptionValue:
        """The figures of ``action`` (None: hold); raises :class:`NoDecision` if it is not an
        option here."""
        if action is not None:
            action = Action.make(
                action.player, action.kind, action.cards, action.table, action.oversight
            )
        for o in self.options:
            if o.action == action:
                return o
        raise NoDecision(f"{describe_option(action)} is not an option of player {self.seat} here")

    def max_diff_ci95(self) -> float:
        """The widest difference interval (half-width) among the options, 0 if forced."""
        return max((o.diff_ci95 for o in self.options if o.group != self.best.group), default=0.0)

    def to_json(self) -> dict[str, Any]:
        """A machine-readable summary."""
        out = {
            "seat": self.seat,
            "policy": self.policy,
            "seed": self.seed,
            "unit": self.unit,
            "samples": self.samples,
            "rollouts": self.rollouts,
            "seconds": round(self.seconds, 3),
            "stopped": self.stopped,
            "target": self.target,
            "best": option_to_json(self.best.action),
            "separated": self.separated,
            "options": [o.to_json() for o in self.options],
        }
        if self.then is not None:
            out["then"] = option_to_json(self.then)
        return out


def _stats(xs: list[float]) -> tuple[float, float]:
    """Mean and 95% half-width (normal approximation) of ``xs``."""
    n = len(xs)
    if n == 0:
        return 0.0, math.inf
    m = sum(xs) / n
    if n < 2:
        return m, math.inf
    v = sum((x - m) * (x - m) for x in xs) / (n - 1)
    return m, Z95 * math.sqrt(max(v, 0.0) / n)


def _diff_stats(xs: list[float], ys: list[float]) -> tuple[float, float]:
    k = min(len(xs), len(ys))
    return _stats([a - b for a, b in zip(xs[:k], ys[:k])])


#: How an option is played (:func:`_plan`): the action now, the turn action after the races,
#: and whether the seat holds its free actions.
Plan = tuple[Action | None, Action | None, bool]


# --- the runs ----------------------------------------------------------------------------


class PureRun:
    """One analysis on the pure engine (:func:`tutor.engine.analysis.sampling.rollout` with the
    rule-following players of ``policy``); :meth:`run` as :class:`fast.KernelRun`'s."""

    def __init__(
        self, d: Deal, seat: int, det: Determinizer, plans: list[Plan], seed_base: int, policy: str
    ):
        self.d = d
        self.seat = seat
        self.det = det
        self.plans = plans
        self.seed_base = seed_base
        self.bots = [rule_bot(policy) for _ in range(d.n)]

    def play(self, keys: list[int], base: Deal, plan: Plan) -> Deal:
        """One option ``plan`` = (pre, then, hold) played out from ``base`` (a copy is played)."""
        pre, then, hold = plan
        x = base.clone()
        if pre is not None:
            x.apply_unchecked(pre)
        rollout(
            x,
            self.bots,
            [Stream(k) for k in keys[1:]],
            self.seat if hold else None,
            then,
            self.seat,
        )
        return x

    def run(self, i0: int, i1: int, active: list[int]) -> list[list[int]]:
        seat = self.seat
        rows = []
        for i in range(i0, i1):
            keys = sample_keys(self.seed_base, i, self.d.n)
            base = self.det.deal(Stream(keys[0]))
            row = [0] * len(self.plans)
            for j in active:
                row[j] = self.play(keys, base, self.plans[j]).returns()[seat]
            rows.append(row)
        return rows


def _plan(d: Deal, seat: int, a: Action | None, then: Action | None) -> Plan:
    """How option ``a`` is played: (action now, turn action after the races, hold)."""
    if a is None:
        return (then, None, False) if then is not None else (None, None, True)
    if (
        d.to_move == seat
        and a.kind in ("capture", "play_on_capture", "lie_down", "end_turn")
        or not d.declarations_are_free
        and a.kind.startswith("declare")
    ):
        return (a, None, False)
    return (a, then, False)


# --- the analysis ------------------------------------------------------------------------


def analyse(
    d: Deal,
    seat: int,
    *,
    policy: str = "counter",
    seed: int = 0,
    samples: int | None = None,
    seconds: float | None = None,
    target: float = 0.1,
    min_samples: int = 32,
    stop_when_clear: bool = True,
    prune: bool = False,
    which: str = "all",
    options: list[Action | None] | None = None,
    then: Action | None = None,
    progress: Callable[[int], None] | None = None,
    engine: str | None = None,
    undeclared: bool = False,
) -> Analysis:
    """Analyse ``seat``'s options at position ``d`` from its own view (see
    :mod:`tutor.engine.analysis` for the estimator, its unit and its intervals).

    ``policy``: the rollout player (:data:`POLICIES`).  ``seed``: any whole number; the same
    view, seed and sample budget give the same figures.  ``samples``: the most determinizations
    to draw (default 4000 when no ``seconds`` either); ``seconds``: a time budget instead (or as
    well).  ``target``: the half-width in the deal's unit at which a difference interval is
    precise enough.  ``min_samples``: samples before any early stop.  ``stop_when_clear``: stop
    once the best option is clearly ahead.  ``prune``: stop sampling an option once it is clearly
    worse than the best (its figures then rest on fewer samples).  ``which``/``options``: the
    options to compare (:func:`decision_options`; default all).  ``then``: a turn action of the
    seat to move: each free action is played as "it now, then ``then``", and hold as "``then``
    now, the free actions later" (a question of timing, never of one against the other).
    ``progress(k)`` is called with the samples done after each batch.  ``engine``: ``kernel``
    or ``pure`` to choose the implementation (default: the kernel where it can run,
    :mod:`tutor.engine.analysis.fast`).  ``undeclared``: deal the unseen cards only so that no
    opponent could declare anything now (the opponents declare as soon as they may, as
    ``counter`` and ``willughby`` do: :class:`Determinizer`); the ``expert`` assumes it at its
    turns, the analysis of hints, reviews and puzzles never.

    Raises :class:`NoDecision` when ``seat`` has no option now, :class:`UsageError` for a bad
    argument.
    """
    if not 0 <= seat < d.n:
        raise UsageError(f"there is no player {seat} in a {d.n}-player deal")
    if target <= 0:
        raise UsageError("the target half-width must be above 0")
    if samples is not None and samples < 1:
        raise UsageError("the sample budget must be at least 1")
    if policy not in POLICIES:
        raise UsageError(f"unknown rollout policy {policy!r}; choose from {', '.join(POLICIES)}")
    if engine not in (None,) + ENGINES:
        raise UsageError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if then is not None and (d.to_move != seat or d.why_illegal(then) is not None):
        raise UsageError("then must be a legal turn action of the seat to move")
    if samples is None and seconds is None:
        samples = 4000
    opts = decision_options(d, seat, which) if options is None else list(options)
    if not opts:
        raise NoDecision(f"player {seat} has nothing to decide now")
    t0 = time.perf_counter()

    keys: dict[tuple[object, ...] | None, int] = {}
    group_of: list[int] = []
    reps: list[Action | None] = []
    for a in opts:
        key = option_class(d, a)
        if key not in keys:
            keys[key] = len(reps)
            reps.append(a)
        group_of.append(keys[key])
    g = len(reps)
    plans = [_plan(d, seat, a, then) for a in reps]
    det = Determinizer(d, seat, undeclared=undeclared)
    seed_base = mix_seed(seed, seat)
    k = fast.kernel() if engine != "pure" and fast.supported(d, policy) else None
    if engine == "kernel" and k is None:
        raise UsageError("the compiled kernel cannot run this analysis here")
    # the kernel being compiled in the background: the pure engine meanwhile, in short
    # batches, and the kernel from the batch after it is ready (each sample is seeded by its
    # index, so the figures are the same whichever runs it)
    awaiting = (
        k is None
        and engine != "pure"
        and fast.supported(d, policy)
        and kernelcache.compiling() is not None
    )
    if awaiting and seconds is None:
        kernelcache.announce()  # a fixed budget, slower until the kernel is compiled
    runner = (
        fast.KernelRun(k, d, seat, det, plans, seed_base)
        if k is not None
        else PureRun(d, seat, det, plans, seed_base, policy)
    )
    values: list[list[float]] = [[] for _ in range(g)]
    active = list(range(g))
    rollouts = 0
    stopped = "budget"
    i = 0
    min_n = min(min_samples, samples) if samples is not None else min_samples
    check_at = min_n
    while True:
        if samples is not None and i >= samples:
            break
        elapsed = time.perf_counter() - t0
        if seconds is not None and i >= 1 and elapsed >= seconds:
            break
        stop = check_at if samples is None else min(check_at, samples)
        if awaiting:
            k = fast.kernel()  # ready now? (a few stat calls)
            if k is not None:
                awaiting = False
                runner = fast.KernelRun(k, d, seat, det, plans, seed_base)
            else:
                stop = min(stop, i + _AWAIT_STEP)
        if seconds is not None:  # batches no longer than the time left, at the pace so far
            room = 2 if i == 0 else int((seconds - elapsed) * i / max(elapsed, 1e-9)) + 1
            stop = min(stop, i + max(1, room))
        for row in runner.run(i, stop, active):
            for j in active:
                values[j].append(row[j])
        rollouts += len(active) * (stop - i)
        i = stop
        if g == 1 and i >= min_n:
            stopped = "forced"
            break
        if i >= check_at:
            if progress is not None:
                progress(i)
            check_at = i + max(8, i // 6)
            verdict = _check(values, active, target, stop_when_clear, prune)
            if verdict:
                stopped = verdict
                break
    seconds_taken = time.perf_counter() - t0
    if progress is not None:
        progress(i)
    return _summarise(
        opts,
        group_of,
        values,
        active,
        policy,
        seed,
        d.ruleset.unit,
        seat,
        i,
        rollouts,
        seconds_taken,
        stopped,
        target,
        then,
        "kernel" if k is not None else "pure",
    )


def _best(values: list[list[float]], active: list[int]) -> int:
    means = {j: sum(values[j]) / len(values[j]) for j in active}
    top = max(means.values())
    return min(j for j in active if means[j] == top)


def _check(
    values: list[list[float]], active: list[int], target: float, stop_when_clear: bool, prune: bool
) -> str | None:
    """After a batch: the reason to stop, or None; drops clearly worse options from ``active``
    when ``prune``."""
    b = _best(values, active)
    clear = True
    precise = True
    worse = []
    for j in range(len(values)):
        if j == b:
            continue
        m, h = _diff_stats(values[j], values[b])
        if m + h >= 0:
            clear = False
        elif j in active:
            worse.append(j)
        if h > target and (j in active or not prune):
            precise = False
    if stop_when_clear and clear:
        return "clear"
    if precise:
        return "precise"
    if prune and worse and len(active) - len(worse) >= 1:
        for j in worse:
            active.remove(j)
        if len(active) == 1 and stop_when_clear:
            return "clear"
    return None


def _summarise(
    opts: list[Action | None],
    group_of: list[int],
    values: list[list[float]],
    active: list[int],
    policy: str,
    seed: int,
    unit: str,
    seat: int,
    samples: int,
    rollouts: int,
    seconds: float,
    stopped: str,
    target: float,
    then: Action | None,
    engine: str,
) -> Analysis:
    b = _best(values, active)
    per_group = []
    for j, xs in enumerate(values):
        m, h = _stats(xs)
        if j == b:
            dm, dh = 0.0, 0.0
        else:
            dm, dh = _diff_stats(xs, values[b])
        per_group.append((m, h, dm, dh, len(xs)))
    out = []
    for idx, a in enumerate(opts):
        j = group_of[idx]
        m, h, dm, dh, k = per_group[j]
        out.append((idx, OptionValue(a, m, h, dm, dh, k, j)))
    out.sort(key=lambda t: (t[1].group != b, -t[1].mean, t[0]))
    return Analysis(
        seat,
        policy,
        seed,
        unit,
        tuple(o for _, o in out),
        samples,
        rollouts,
        seconds,
        stopped,
        target,
        then,
        engine,
    )
