"""Analysis speed (issue 20): every option of five-player parlett positions from self-play,
analysed until the 95% interval on each option's difference from the best is within ±0.1 stake;
the ``hint`` at the prompt; the review of a whole deal; ``laugh analyse`` of whole deals.

Run: python benchmarks/bench_analysis.py [--positions N] [--seed S] [--target T] [--policy P]
     [--ruleset R] [--profile] [--hints H] [--reviews D] [--deals D] [--engine kernel|pure]

Targets (issue 20, one core): positions median ≤ 0.25 s and p90 ≤ 1 s; ``hint`` ≤ 1 s at p90;
the review of a whole deal ≤ 5 s.  Reported: wall and CPU time (the machine may be shared: CPU
time is the process's own), the samples drawn and the widest difference interval achieved.

Positions: deal ``k`` of a seeded self-play study between ``counter`` players (dealer ``k % 5``);
from each deal one decision is drawn at random among those where the player had at least two
options that are not the same play up to suits (forced moves are not analysed).  The analysis
runs with a sample budget (so the figures are reproducible) and without the early stop on a
clearly best option, so every difference interval reaches the target (or the budget ends).
``--hints H``: :func:`tutor.app.play.review.hint` for the deciding seat of the first H positions
(and once in a fresh process, the first hint of a session: numba's import and cache load
included).  ``--reviews D``: :func:`tutor.app.play.review.review_deal` of seat 0 in D deals
played by a casual learner against counters (as ``laugh play`` reviews each deal).  ``--deals
D``: ``laugh analyse``'s work on D whole deals (every decision of every player).

Measured on a shared two-core machine (load average 4-5 from other work, so CPU times, the
process's own, are the fairer figures), before (the pure-Python analysis of main at 5d63031) and
after (the compiled kernel), each run right after the other:

    --positions 30 --seed 3            before                        after
      all 30, median                   0.78 s (cpu 0.74)             0.03 s (cpu 0.02)
      all 30, p90                      5.68 s (cpu 4.02)             0.24 s (cpu 0.14)
      the 22 with a real choice        median 1.70 s (cpu 1.18)      0.06 s (cpu 0.04), p90 0.27
      within ±0.1                      30/30                         30/30
    default (100 positions, seed 1), --hints 100 --reviews 30 --deals 6
      all 100, median / p90            0.02 / 3.41 s (cpu 2.53)      0.00 / 0.08 s (cpu 0.06)
      the ~50 with a real choice       median 1.11 s (cpu 0.97)      0.03 s (cpu 0.02), p90 0.13
      hint, median / p90 / max         0.02 / 0.20 / 0.45 s *        0.00 / 0.11 / 0.20 s
      first hint of a session                                        0.75 s (cpu 0.46)
      review of a deal, median / max   0.27 / 1.04 s *               0.11 / 0.24 s
      laugh analyse, a whole deal      4.5 s, max 7.0 (cpu 3.0) *    0.5 s, max 0.6 (cpu 0.3)

    * before, the hint stopped at 200 samples and the review at 400, and both (and laugh analyse,
      at 1000) as soon as the best looked clearly ahead: figures of ±0.3 stake and worse.  After,
      every one of them analyses to ±0.1 stake (or 6000, 4000 and 4000 samples).

The kernel is compiled once a machine (about 15-20 s) and loaded from numba's cache after that
(``kernel loaded ... in`` the first line: 0.4 s).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def sample_positions(ruleset, count: int, seed: int, players: int = 5):
    """``count`` (deal, seat) decision positions from seeded counter self-play."""
    from tutor.engine.analysis import decision_options, option_class
    from tutor.engine.bots import make_bot, play_out
    from tutor.engine.deal import new_deal

    out = []
    k = 0
    while len(out) < count:
        rng = random.Random(f"bench-analysis/{seed}/{k}")
        deal = new_deal(ruleset, players, k % players, rng)
        k += 1
        spots = []

        def observe(d, a, spots=spots, before=[deal.clone()]):  # noqa: B006, B008 (one per deal)
            prev = before[0]
            opts = decision_options(prev, a.player)
            if len({option_class(prev, o) for o in opts}) >= 2:
                spots.append((prev, a.player))
            before[0] = d.clone()

        play_out(deal, [make_bot("counter") for _ in range(players)], rng, observer=observe)
        if spots:
            out.append(spots[rng.randrange(len(spots))])
    return out


def _p90(xs):
    xs = sorted(xs)
    return xs[max(0, int(round(0.9 * len(xs))) - 1)]


def time_positions(positions, args) -> None:
    from tutor.engine.analysis import analyse

    rows = []
    for i, (d, seat) in enumerate(positions):
        t0, c0 = time.perf_counter(), time.process_time()
        an = analyse(
            d,
            seat,
            policy=args.policy,
            seed=i,
            samples=args.samples,
            target=args.target,
            stop_when_clear=False,
            engine=args.engine,
        )
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        rows.append((wall, cpu, an))
        if not args.quiet:
            print(
                f"{i:3d} actions so far {len(d.history):2d}  options {len(an.options):2d} "
                f"(classes {len({o.group for o in an.options})})  samples {an.samples:5d}  "
                f"widest ±{an.max_diff_ci95():.3f}  {an.stopped:8s} {wall:6.2f} s "
                f"(cpu {cpu:.2f} s) {an.engine}",
                flush=True,
            )
    walls = [r[0] for r in rows]
    cpus = [r[1] for r in rows]
    widths = [r[2].max_diff_ci95() for r in rows]
    met = sum(1 for w in widths if w <= args.target + 1e-9)
    print(
        f"{len(rows)} positions ({args.ruleset}, 5 players, policy {args.policy}, target "
        f"±{args.target}): median {statistics.median(walls):.2f} s, p90 {_p90(walls):.2f} s "
        f"(cpu: median {statistics.median(cpus):.2f} s, p90 {_p90(cpus):.2f} s); widest "
        f"difference interval: median ±{statistics.median(widths):.3f}, max "
        f"±{max(widths):.3f}; {met}/{len(rows)} positions within ±{args.target}; "
        f"samples median {statistics.median(r[2].samples for r in rows):.0f}"
    )
    hard = [r for r in rows if r[2].samples > 32]
    if hard:
        print(
            f"{len(rows) - len(hard)} positions settled within the first 32 samples; the other "
            f"{len(hard)}: median {statistics.median(r[0] for r in hard):.2f} s "
            f"(cpu {statistics.median(r[1] for r in hard):.2f} s), p90 "
            f"{_p90([r[0] for r in hard]):.2f} s (cpu {_p90([r[1] for r in hard]):.2f} s), "
            f"samples median {statistics.median(r[2].samples for r in hard):.0f}"
        )


_COLD = """
import sys, time
t0, c0 = time.perf_counter(), time.process_time()
sys.path.insert(0, {root!r})
sys.path.insert(0, {bench!r})
from bench_analysis import sample_positions
from tutor.engine.sources import load_library
from tutor.app.play.review import hint
from tutor.engine.levels import seat_names
rs = load_library().rulesets[{ruleset!r}]
d, seat = sample_positions(rs, 1, {seed})[0]
t1, c1 = time.perf_counter(), time.process_time()
hint(d, seat, seat_names(5, seat))
print(time.perf_counter() - t1, time.process_time() - c1)
"""


def time_hints(positions, args) -> None:
    from tutor.app.play.review import hint
    from tutor.engine.levels import seat_names

    walls, cpus = [], []
    for d, seat in positions[: args.hints]:
        t0, c0 = time.perf_counter(), time.process_time()
        got = hint(d, seat, seat_names(5, seat))
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        if not args.quiet:
            print(
                f"hint {len(walls) - 1:3d}: {walls[-1]:.2f} s (cpu {cpus[-1]:.2f} s): "
                f"{got.text.splitlines()[0][:90]}",
                flush=True,
            )
    print(
        f"{len(walls)} hints: median {statistics.median(walls):.2f} s, p90 {_p90(walls):.2f} s, "
        f"max {max(walls):.2f} s (cpu: median {statistics.median(cpus):.2f} s, p90 "
        f"{_p90(cpus):.2f} s)"
    )
    code = _COLD.format(
        root=str(ROOT), bench=str(ROOT / "benchmarks"), ruleset=args.ruleset, seed=args.seed
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=600,
    )
    if r.returncode == 0:
        wall, cpu = map(float, r.stdout.split()[-2:])
        print(
            f"the first hint of a fresh process (numba's import and cache load included): "
            f"{wall:.2f} s (cpu {cpu:.2f} s)"
        )
    else:
        print("the first hint of a fresh process failed:", r.stderr.strip().splitlines()[-1:])


def time_reviews(rs, deals: int, seed: int) -> None:
    """The review after a practice deal: seat 0 (a casual learner) against counters."""
    from tutor.app.play.review import review_deal
    from tutor.engine.bots import make_bot, play_out
    from tutor.engine.deal import new_deal
    from tutor.engine.levels import LEVELS, seat_names

    walls, cpus, decisions = [], [], []
    for k in range(deals):
        rng = random.Random(f"{seed}/{k}")
        deal = new_deal(rs, 5, k % 5, rng)
        play_out(deal, [LEVELS["casual"].make()] + [make_bot("counter") for _ in range(4)], rng)
        t0, c0 = time.perf_counter(), time.process_time()
        review = review_deal(deal, 0, seat_names(5, 0))
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        decisions.append(review.decisions)
    print(
        f"{deals} reviews of a whole deal (seat 0, casual, against counters): median "
        f"{statistics.median(walls):.2f} s, p90 {_p90(walls):.2f} s, max {max(walls):.2f} s "
        f"(cpu: median {statistics.median(cpus):.2f} s, max {max(cpus):.2f} s); "
        f"{statistics.mean(decisions):.1f} decisions a deal"
    )


def time_whole_deals(rs, deals: int, seed: int, policy: str) -> None:
    """Annotate whole self-play deals as ``laugh analyse`` does (its default budget)."""
    from tutor.engine.analysis import annotate
    from tutor.engine.bots import make_bot, play_out
    from tutor.engine.deal import new_deal

    walls, cpus = [], []
    for k in range(deals):
        rng = random.Random(f"bench-analysis-deal/{seed}/{k}")
        deal = play_out(new_deal(rs, 5, k % 5, rng), [make_bot("counter") for _ in range(5)], rng)
        t0, c0 = time.perf_counter(), time.process_time()
        decisions = annotate(deal, policy=policy, seed=k)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        print(
            f"deal {k}: {len(deal.history)} actions, {len(decisions)} decisions analysed, "
            f"{walls[-1]:.1f} s (cpu {cpus[-1]:.1f} s)",
            flush=True,
        )
    print(
        f"{deals} whole deals (laugh analyse, every player): median "
        f"{statistics.median(walls):.1f} s, max {max(walls):.1f} s (cpu: median "
        f"{statistics.median(cpus):.1f} s, max {max(cpus):.1f} s)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--target", type=float, default=0.1)
    ap.add_argument("--samples", type=int, default=20000, help="sample budget per position")
    ap.add_argument("--policy", default="counter")
    ap.add_argument("--ruleset", default="parlett")
    ap.add_argument(
        "--engine",
        default=None,
        choices=("kernel", "pure"),
        help="the implementation (default: the kernel where it runs)",
    )
    ap.add_argument("--profile", action="store_true", help="profile the run with cProfile")
    ap.add_argument("--quiet", action="store_true", help="no line per position")
    ap.add_argument("--hints", type=int, default=0, help="also time H hints")
    ap.add_argument("--reviews", type=int, default=0, help="also time D reviews of a deal")
    ap.add_argument("--deals", type=int, default=0, help="also time D whole-deal annotations")
    args = ap.parse_args()
    from tutor.engine.analysis import fast
    from tutor.engine.sources import load_library

    if args.engine != "pure" and os.environ.get(fast.ENV_PURE) is None:
        t0 = time.perf_counter()
        fast.kernel(wait=True)
        print(f"kernel loaded (or compiled) in {time.perf_counter() - t0:.2f} s")
    rs = load_library().rulesets[args.ruleset]
    positions = sample_positions(rs, max(args.positions, args.hints), args.seed)
    if args.positions > 0:
        if args.profile:
            import cProfile
            import pstats

            prof = cProfile.Profile()
            prof.runcall(time_positions, positions[: args.positions], args)
            pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        else:
            time_positions(positions[: args.positions], args)
    if args.hints:
        time_hints(positions, args)
    if args.reviews:
        time_reviews(rs, args.reviews, args.seed)
    if args.deals:
        time_whole_deals(rs, args.deals, args.seed, args.policy)


if __name__ == "__main__":
    main()
