"""Self-play studies: many seeded deals between computer players, summarised per seat.

Deal ``k`` of a study with seed ``S`` is played with its own ``random.Random(f"{S}/{k}")`` and
dealt by seat ``k % players`` (the deal passing left), so a study gives the same figures whatever
the number of worker processes.  Seats are reported relative to the dealer (0 = dealer, 1 =
eldest, ...), which answers du Coeur's open question: "I believe that the dealer has a slight
advantage, but that needs testing."
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from tutor.engine.bots import make_bot, play_out
from tutor.engine.deal import new_deal
from tutor.engine.records import to_record
from tutor.engine.rulesets import Ruleset


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

    def merge(self, other: "SeatStats") -> None:
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

    def merge(self, other: "Study") -> None:
        """Add another worker's part of the same study."""
        for mine, theirs in zip(self.seats, other.seats):
            mine.merge(theirs)
        self.advantage.merge(other.advantage)

    def to_json(self) -> dict:
        """A machine-readable summary."""
        names = seat_names(self.players)
        return {
            "ruleset": self.ruleset, "players": self.players, "deals": self.deals,
            "seed": self.seed, "bots": self.bots, "mistakes": self.mistakes,
            "measure": "points" if self.scoring == "pairs" else "net stakes",
            "seats": [{"seat": names[i], "offset": i, "mean": round(s.mean, 4),
                       "ci95": round(s.ci95, 4), "last_in_rate": round(s.last_in / s.n, 4) if s.n else 0}
                      for i, s in enumerate(self.seats)],
            "dealer_advantage": {"mean": round(self.advantage.mean, 4),
                                 "ci95": round(self.advantage.ci95, 4),
                                 "verdict": self.verdict()},
        }

    def verdict(self) -> str:
        """One sentence on the dealer's advantage."""
        a = self.advantage
        unit = "points" if self.scoring == "pairs" else "stakes"
        if a.n < 2:
            return "too few deals to say"
        lo, hi = a.mean - a.ci95, a.mean + a.ci95
        if lo > 0:
            return f"the dealer has an advantage of {a.mean:+.3f} {unit} a deal over the others"
        if hi < 0:
            return f"the dealer is at a disadvantage of {a.mean:+.3f} {unit} a deal"
        return "no advantage to the dealer can be told apart from chance at this many deals"


def seat_names(players: int) -> list[str]:
    """Names of seats relative to the dealer: dealer, eldest, then +2, +3..."""
    return ["dealer", "eldest"] + [f"dealer+{i}" for i in range(2, players)]


def run_chunk(ruleset: Ruleset, players: int, bots: list[str], mistakes: float, seed: int,
              start: int, count: int, want_records: bool,
              progress: Callable[[int], None] | None = None) -> tuple[Study, list[dict]]:
    """Play deals ``start`` .. ``start+count-1`` of a study; returns its partial Study and, when
    ``want_records``, the deal records in order."""
    study = Study(ruleset.id, players, count, seed, bots, mistakes, ruleset.scoring,
                  [SeatStats() for _ in range(players)])
    seat_bots = [make_bot(bots[s % len(bots)], mistakes) for s in range(players)]
    records = []
    for k in range(start, start + count):
        rng = random.Random(f"{seed}/{k}")
        dealer = k % players
        deal = new_deal(ruleset, players, dealer, rng)
        play_out(deal, seat_bots, rng)
        ret = deal.returns()
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


def _worker(args):
    return run_chunk(*args)


def run_study(ruleset: Ruleset, players: int, deals: int, seed: int, bots: list[str],
              mistakes: float = 0.0, workers: int = 1, want_records: bool = False,
              progress: Callable[[int], None] | None = None) -> tuple[Study, list[dict]]:
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
        chunks.append((ruleset, players, bots, mistakes, seed, start, min(size, deals - start),
                       want_records))
    study = Study(ruleset.id, players, deals, seed, bots, mistakes, ruleset.scoring,
                  [SeatStats() for _ in range(players)])
    records: list[dict] = []
    ctx = mp.get_context("fork") if hasattr(mp, "get_context") else mp
    with ctx.Pool(workers) as pool:
        for part, recs in pool.imap(_worker, chunks):
            study.merge(part)
            records.extend(recs)
            if progress is not None:
                progress(part.seats[0].n)
    return study, records
