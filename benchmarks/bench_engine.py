"""Engine speed: complete five-player deals per second on one core, and ruleset loading time.

Run: python benchmarks/bench_engine.py [--deals N] [--ruleset R]
Targets (issue 2): at least 5,000 deals/s with random players and 2,000 with counter players.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time


def deals_per_second(ruleset, bot: str, deals: int, repeats: int = 3) -> float:
    from tutor.engine.bots import make_bot, play_out
    from tutor.engine.deal import new_deal

    best = 0.0
    for rep in range(repeats):
        rng = random.Random(rep)
        bots = [make_bot(bot) for _ in range(5)]
        t0 = time.perf_counter()
        for k in range(deals):
            play_out(new_deal(ruleset, 5, k % 5, rng), bots, rng)
        best = max(best, deals / (time.perf_counter() - t0))
    return best


def load_time(repeats: int = 5) -> float:
    from tutor.engine.sources import load_library

    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        load_library()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=5000)
    ap.add_argument("--ruleset", default="parlett")
    args = ap.parse_args()
    from tutor.engine.sources import load_library

    rs = load_library().rulesets[args.ruleset]
    print(f"load all rulesets: {load_time() * 1000:.1f} ms (median of 5)")
    for bot in ("random", "willughby", "counter"):
        print(
            f"{bot:>9}: {deals_per_second(rs, bot, args.deals):,.0f} five-player deals/s "
            f"({args.ruleset}, one core, best of 3 runs of {args.deals})"
        )


if __name__ == "__main__":
    main()
