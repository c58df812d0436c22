"""Self-play studies: many seeded deals between computer players, summarised per seat.

Deal ``k`` of a study with seed ``S`` is played with its own ``random.Random(f"{S}/{k}")`` and
dealt by seat ``k % players`` (the deal passing left), so a study gives the same figures whatever
the number of worker processes.  Seats are reported relative to the dealer (0 = dealer, 1 =
eldest, ...), which answers du Coeur's open question: "I believe that the dealer has a slight
advantage, but that needs testing."

:func:`run_skill` measures how much skill each reconstruction rewards: the same deals played
with an ``expert`` seat and with another computer player in that seat (:class:`SkillStudy`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tutor.engine.analysis import mix_seed
from tutor.engine.bots import make_bot, play_out
from tutor.engine.deal import new_deal
from tutor.engine.errors import UsageError
from tutor.engine.expert import ExpertBot
from tutor.engine.records import to_record
from tutor.engine.rulesets import Ruleset, scoring_unit
from tutor.engine.seats import seat_names as _seat_names


@dataclass
class SeatStats:
    """Running sums for one seat relative to the dealer (returns in stakes or points)."""

    n: int = 0
    total: float = 0.0
    total_sq: float = 0.0
    last_in: int = 0

    def add(self, value: float, last_in: bool) -> None:
        """Add one deal's return for this seat."""
        self.n += 1
        self.total += value
        self.total_sq += value * value
        self.last_in += last_in

    def merge(self, other: SeatStats) -> None:
        """Add another worker's sums."""
        self.n += other.n
        self.total += other.total
        self.total_sq += other.total_sq
        self.last_in += other.last_in

    @property
    def mean(self) -> float:
        """Mean return per deal."""
        return self.total / self.n if self.n else 0.0

    @property
    def ci95(self) -> float:
        """Half-width of the 95% confidence interval of the mean (normal approximation)."""
        if self.n < 2:
            return float("inf")
        var = (self.total_sq - self.total * self.total / self.n) / (self.n - 1)
        return 1.96 * math.sqrt(max(var, 0.0) / self.n)


@dataclass
class Study:
    """The outcome of a study: per relative seat stats, and the dealer's advantage (dealer's return
    minus the mean of the other seats' returns, per deal)."""

    ruleset: str
    players: int
    deals: int
    seed: int
    bots: list[str]
    mistakes: float
    scoring: str
    seats: list[SeatStats] = field(default_factory=list)
    advantage: SeatStats = field(default_factory=SeatStats)

    @property
    def unit(self) -> str:
        """``stakes`` or ``points``: what the results are counted in."""
        return scoring_unit(self.scoring)

    def merge(self, other: Study) -> None:
        """Add another worker's part of the same study."""
        for mine, theirs in zip(self.seats, other.seats):
            mine.merge(theirs)
        self.advantage.merge(other.advantage)

    def to_json(self) -> dict[str, Any]:
        """A machine-readable summary."""
        names = seat_names(self.players)
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "deals": self.deals,
            "seed": self.seed,
            "bots": self.bots,
            "mistakes": self.mistakes,
            "measure": "net stakes" if self.unit == "stakes" else "points",
            "seats": [
                {
                    "seat": names[i],
                    "offset": i,
                    "mean": round(s.mean, 4),
                    "ci95": round(s.ci95, 4),
                    "last_in_rate": round(s.last_in / s.n, 4) if s.n else 0,
                }
                for i, s in enumerate(self.seats)
            ],
            "dealer_advantage": {
                "mean": round(self.advantage.mean, 4),
                "ci95": round(self.advantage.ci95, 4),
                "verdict": self.verdict(),
            },
        }

    def verdict(self) -> str:
        """One sentence on the dealer's advantage."""
        a = self.advantage
        unit = self.unit
        if a.n < 2:
            return "too few deals to say"
        lo, hi = a.mean - a.ci95, a.mean + a.ci95
        if lo > 0:
            return f"the dealer has an advantage of {a.mean:+.3f} {unit} a deal over the others"
        if hi < 0:
            return f"the dealer is at a disadvantage of {a.mean:+.3f} {unit} a deal"
        return "no advantage to the dealer can be told apart from chance at this many deals"


def seat_names(players: int) -> list[str]:
    """Names of seats relative to the dealer: dealer, eldest, then +2, +3...
    (:func:`tutor.engine.seats.seat_names`, ``dealer``)."""
    return _seat_names(players, style="dealer")


def run_chunk(
    ruleset: Ruleset,
    players: int,
    bots: list[str],
    mistakes: float,
    seed: int,
    start: int,
    count: int,
    want_records: bool,
    progress: Callable[[int], None] | None = None,
) -> tuple[Study, list[dict[str, Any]]]:
    """Play deals ``start`` .. ``start+count-1`` of a study; returns its partial Study and, when
    ``want_records``, the deal records in order."""
    study = Study(
        ruleset.id,
        players,
        count,
        seed,
        bots,
        mistakes,
        ruleset.scoring,
        [SeatStats() for _ in range(players)],
    )
    if not want_records and mistakes == 0 and set(bots) == {"counter"}:
        if _counter_chunk(study, ruleset, players, seed, start, count, progress):
            return study, []
    seat_bots = [make_bot(bots[s % len(bots)], mistakes) for s in range(players)]
    records = []
    for k in range(start, start + count):
        rng = random.Random(f"{seed}/{k}")
        dealer = k % players
        deal = new_deal(ruleset, players, dealer, rng)
        play_out(deal, seat_bots, rng)
        ret = deal.returns()
        assert deal.result is not None  # played out: settled
        last = deal.result.last_in
        for off in range(players):
            seat = (dealer + off) % players
            study.seats[off].add(ret[seat], seat == last)
        others = (sum(ret) - ret[dealer]) / (players - 1)
        study.advantage.add(ret[dealer] - others, False)
        if want_records:
            records.append(to_record(deal))
        if progress is not None and (k - start) % 200 == 199:
            progress(200)
    if progress is not None:
        progress(count % 200)
    return study, records


def _counter_chunk(
    study: Study,
    ruleset: Ruleset,
    players: int,
    seed: int,
    start: int,
    count: int,
    progress: Callable[[int], None] | None,
) -> bool:
    """Deals between counter players, results only, on the analysis's compiled kernel
    (:func:`tutor.engine.analysis.fast.counter_selfplay`: the very deals :func:`play_out` plays,
    held equal by the tests), added to ``study``; False (nothing added) where the kernel cannot
    run them."""
    from tutor.engine.analysis import fast

    step = 5000
    for at in range(start, start + count, step):
        n = min(step, start + count - at)
        got = fast.counter_selfplay(ruleset, players, seed, at, n)
        if got is None:
            if at == start:
                return False
            raise RuntimeError("the analysis kernel stopped in the middle of a study")
        for k, (ret, last) in enumerate(zip(*got), start=at):
            dealer = k % players
            for off in range(players):
                seat = (dealer + off) % players
                study.seats[off].add(ret[seat], seat == last)
            others = (sum(ret) - ret[dealer]) / (players - 1)
            study.advantage.add(ret[dealer] - others, False)
        if progress is not None:
            progress(n)
    return True


def _worker(args: tuple[Any, ...]) -> tuple[Study, list[dict[str, Any]]]:
    return run_chunk(*args)


def run_study(
    ruleset: Ruleset,
    players: int,
    deals: int,
    seed: int,
    bots: list[str],
    mistakes: float = 0.0,
    workers: int = 1,
    want_records: bool = False,
    progress: Callable[[int], None] | None = None,
) -> tuple[Study, list[dict[str, Any]]]:
    """Play ``deals`` seeded deals and summarise them.

    ``bots`` names one computer player per seat (cycled if shorter); ``mistakes`` is the careless
    rate (0-1); ``workers`` processes share the deals (results do not depend on it).  Returns the
    :class:`Study` and the deal records (empty unless ``want_records``).
    """
    if workers <= 1 or deals < 200:
        return run_chunk(ruleset, players, bots, mistakes, seed, 0, deals, want_records, progress)
    import multiprocessing as mp

    chunks = []
    size = max(100, deals // (workers * 8))
    for start in range(0, deals, size):
        chunks.append(
            (ruleset, players, bots, mistakes, seed, start, min(size, deals - start), want_records)
        )
    study = Study(
        ruleset.id,
        players,
        deals,
        seed,
        bots,
        mistakes,
        ruleset.scoring,
        [SeatStats() for _ in range(players)],
    )
    records: list[dict[str, Any]] = []
    ctx = mp.get_context("fork") if hasattr(mp, "get_context") else mp
    with ctx.Pool(workers) as pool:
        for part, recs in pool.imap(_worker, chunks):
            study.merge(part)
            records.extend(recs)
            if progress is not None:
                progress(part.seats[0].n)
    return study, records


# --- skill: an expert seat against the same seat played by another computer player ---------

#: The computer players an expert seat may be measured against.
SKILL_OPPONENTS = ("random", "willughby", "counter")
#: The format name of the figures of several skill studies (:func:`skill_json`).
SKILL_FORMAT = "laugh-and-lie-down/skill@1"


@dataclass
class SkillStudy:
    """How much an ``expert`` seat gains over another computer player in the same seat.

    Deal ``k`` is the deal ``k`` of :func:`run_study` with the same seed (the same pack from
    ``random.Random(f"{seed}/{k}")``, dealt by seat ``k % players``), played twice: once with
    an :class:`~tutor.engine.expert.ExpertBot` in seat 0 and ``opponent`` players in the other
    seats, once with an ``opponent`` player in seat 0 too, from the same random source (common
    random numbers: the two games are the same until the seat first chooses differently, and
    the expert draws on the game's random numbers exactly as its rollout player ``counter``
    would).  Seat 0 holds every seat relative to the dealer equally often.

    ``results`` holds, per deal in order, ``(expert, baseline)``: seat 0's final result (net
    stakes, or points under pairs scoring) minus the mean of all seats' results in that game
    (the minus changes nothing under stakes scoring, where results sum to 0).  The *gain* of a
    deal is ``expert - baseline``; :attr:`gain` is its mean with a 95% interval (normal
    approximation), far narrower than either result's own because the two games share the deal.
    ``decisions`` counts the expert's analysed decisions.  The expert plays with ``samples``
    determinizations per decision and a seed mixed from ``seed`` and ``k``, so every figure is
    reproducible on any machine.
    """

    ruleset: str
    players: int
    deals: int
    seed: int
    opponent: str
    samples: int
    scoring: str
    results: list[tuple[float, float]] = field(default_factory=list)
    decisions: int = 0

    def _stats(self, f: Callable[[float, float], float]) -> SeatStats:
        s = SeatStats()
        for e, b in self.results:
            s.add(f(e, b), False)
        return s

    @property
    def gain(self) -> SeatStats:
        """The expert's gain per deal over the baseline seat (paired), with its interval."""
        return self._stats(lambda e, b: e - b)

    @property
    def expert(self) -> SeatStats:
        """The expert seat's result per deal relative to the seats' mean."""
        return self._stats(lambda e, b: e)

    @property
    def baseline(self) -> SeatStats:
        """The baseline seat's result per deal relative to the seats' mean."""
        return self._stats(lambda e, b: b)

    @property
    def unit(self) -> str:
        """``stakes`` or ``points``."""
        return scoring_unit(self.scoring)

    def merge(self, other: SkillStudy) -> None:
        """Add the next deals of the same study (another worker's part, in order)."""
        self.results.extend(other.results)
        self.decisions += other.decisions

    def verdict(self) -> str:
        """One sentence on the gain: above, below or not told apart from zero."""
        g = self.gain
        if g.n < 2:
            return "too few deals to say"
        if g.mean - g.ci95 > 0:
            return f"the expert gains {g.mean:.2f} {self.unit} a deal over a {self.opponent} player"
        if g.mean + g.ci95 < 0:
            return (
                f"the expert loses {-g.mean:.2f} {self.unit} a deal against a "
                f"{self.opponent} player"
            )
        return (
            f"no gain over a {self.opponent} player can be told apart from chance at this many "
            "deals"
        )

    def to_json(self, per_deal: bool = True) -> dict[str, Any]:
        """A machine-readable summary; with ``per_deal``, every deal's ``[expert, baseline]``
        too (so the summary can be checked and any deal replayed)."""
        out = {
            "ruleset": self.ruleset,
            "players": self.players,
            "opponent": self.opponent,
            "deals": len(self.results),
            "seed": self.seed,
            "samples": self.samples,
            "measure": "net stakes" if self.unit == "stakes" else "points",
            "unit": self.unit,
            "decisions_per_deal": round(self.decisions / len(self.results), 3)
            if self.results
            else 0.0,
        }
        for name in ("gain", "expert", "baseline"):
            s = getattr(self, name)
            out[name] = {"mean": round(s.mean, 4), "ci95": round(s.ci95, 4) if s.n > 1 else None}
        out["verdict"] = self.verdict()
        if per_deal:
            out["results"] = [[round(e, 4), round(b, 4)] for e, b in self.results]
        return out


def play_skill_deal(
    ruleset: Ruleset, players: int, opponent: str, samples: int, seed: int, k: int
) -> tuple[float, float, int]:
    """Deal ``k`` of a skill study (see :class:`SkillStudy`), played with the expert in seat 0
    and then with ``opponent`` there: ``(expert's result, baseline's result, the expert's
    analysed decisions)``, results relative to the seats' mean."""
    expert = ExpertBot(samples=samples, seed=mix_seed(seed, k))
    out = []
    for first in (expert, make_bot(opponent)):
        rng = random.Random(f"{seed}/{k}")
        deal = new_deal(ruleset, players, k % players, rng)
        play_out(deal, [first] + [make_bot(opponent) for _ in range(players - 1)], rng)
        ret = deal.returns()
        out.append(ret[0] - sum(ret) / players)
    return out[0], out[1], expert.decisions


def skill_chunk(
    ruleset: Ruleset,
    players: int,
    opponent: str,
    samples: int,
    seed: int,
    start: int,
    count: int,
    progress: Callable[[int], None] | None = None,
) -> SkillStudy:
    """Deals ``start`` .. ``start+count-1`` of a skill study, as a partial :class:`SkillStudy`."""
    study = SkillStudy(ruleset.id, players, count, seed, opponent, samples, ruleset.scoring)
    for k in range(start, start + count):
        e, b, n = play_skill_deal(ruleset, players, opponent, samples, seed, k)
        study.results.append((e, b))
        study.decisions += n
        if progress is not None:
            progress(1)
    return study


def _skill_worker(args: tuple[Any, ...]) -> SkillStudy:
    return skill_chunk(*args)


def run_skill(
    ruleset: Ruleset,
    players: int,
    deals: int,
    seed: int,
    opponent: str,
    samples: int = 200,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> SkillStudy:
    """How much an expert seat gains over an ``opponent`` seat under ``ruleset`` with
    ``players``, over ``deals`` paired deals (:class:`SkillStudy`).

    ``samples``: the expert's determinizations per decision; ``workers`` processes share the
    deals (the figures do not depend on it); ``progress(k)`` is called as deals are done.
    Raises :class:`UsageError` for an opponent not in :data:`SKILL_OPPONENTS`, a player count the
    ruleset does not cover, or a budget below 1.
    """
    if opponent not in SKILL_OPPONENTS:
        raise UsageError(
            f"an expert seat is measured against {', '.join(SKILL_OPPONENTS)}, not {opponent!r}"
        )
    if players not in ruleset.counts:
        raise UsageError(
            f"ruleset {ruleset.id} does not cover {players} players; choose from "
            f"{', '.join(map(str, ruleset.player_counts))}"
        )
    if deals < 1 or samples < 1:
        raise UsageError("a skill study needs at least one deal and one sample a decision")
    if workers <= 1 or deals < 8:
        study = skill_chunk(ruleset, players, opponent, samples, seed, 0, deals, progress)
        study.deals = deals
        return study
    import multiprocessing as mp

    size = max(2, deals // (workers * 8))
    chunks = [
        (ruleset, players, opponent, samples, seed, start, min(size, deals - start))
        for start in range(0, deals, size)
    ]
    study = SkillStudy(ruleset.id, players, deals, seed, opponent, samples, ruleset.scoring)
    ctx = mp.get_context("fork") if hasattr(mp, "get_context") else mp
    with ctx.Pool(workers) as pool:
        for part in pool.imap(_skill_worker, chunks):
            study.merge(part)
            if progress is not None:
                progress(len(part.results))
    return study


def skill_json(
    studies: list[SkillStudy],
    deals: int,
    seed: int,
    samples: int,
    opponents: list[str],
    per_deal: bool = True,
) -> dict[str, Any]:
    """The figures of several skill studies (``laugh simulate --skill --json``, and the lessons'
    precomputed table) as one JSON object: ``format`` (:data:`SKILL_FORMAT`), ``deals``,
    ``seed``, ``samples``, ``opponents`` and ``rows`` (:meth:`SkillStudy.to_json` each, with
    every deal's figures when ``per_deal``)."""
    return {
        "format": SKILL_FORMAT,
        "deals": deals,
        "seed": seed,
        "samples": samples,
        "opponents": list(opponents),
        "rows": [s.to_json(per_deal) for s in studies],
    }
