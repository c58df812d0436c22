"""Time to generate one verified puzzle of each kind (generate = play real deals, find a
suitable position, replay its record and recompute the answer from the replayed position).

    python benchmarks/bench_puzzles.py [--count N] [--seed S]

Prints, per kind, the median, 99th percentile and maximum in milliseconds over N seeds (the
ruleset and player count drawn from each seed, as `laugh puzzle KIND` does).  Target: p99 under
20 ms, median under 5 ms, so a timed drill never waits.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=500, help="puzzles per kind (default 500)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    args = ap.parse_args(argv)

    import tutor.puzzles as P
    P.generate("count", seed=10**9)              # load sources and definitions first
    print(f"{'kind':<16}{'n':>6}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}")
    worst_p99 = worst_median = 0.0
    for kind in P.KINDS:
        times = []
        for s in range(args.seed, args.seed + args.count):
            t0 = time.perf_counter()
            P.generate(kind, seed=s)
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        med = statistics.median(times)
        p99 = times[min(len(times) - 1, int(round(0.99 * len(times))) - 1)]
        worst_p99, worst_median = max(worst_p99, p99), max(worst_median, med)
        print(f"{kind:<16}{len(times):>6}{med:>11.2f}{p99:>9.2f}{times[-1]:>9.2f}")
    ok = worst_p99 < 20 and worst_median < 5
    print(f"worst median {worst_median:.2f} ms, worst p99 {worst_p99:.2f} ms: "
          f"{'within' if ok else 'OVER'} the target (p99 < 20 ms, median < 5 ms)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
