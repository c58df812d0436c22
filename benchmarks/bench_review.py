"""Time of the review after a practice deal (issue 10 item 3, issue 20): the engine's analysis of
every decision the learner made (:func:`tutor.app.play.review.review_deal`), as ``laugh play``
runs it after each deal: each decision analysed until every option's difference from the best is
known to ±0.1 stake (or the budget is spent).

Run: python benchmarks/bench_review.py [--deals K] [--samples N] [--seed S] [--rulesets R,R]
     [--learner L] [--opponents O]

Deal ``k`` is dealt by seat ``k % players`` from a pack shuffled by ``random.Random(f"{seed}/{k}")``
and played to its end with the learner's stand-in in seat 0 (``--learner``: a computer player
with ``laugh play``'s casual mistakes by default, so that there are decisions worth reviewing)
and ``--opponents`` in the other seats; then seat 0's decisions are reviewed with the review's
budget.  Reported per ruleset: the median, 90th percentile and longest review of a deal, and the
decisions analysed a deal.

Target (issue 20): the review of a whole deal in at most 5 s.

Measured (``--deals 30 --seed 1``, one process on a shared two-core machine, load average about
4), before (main at 5d63031: 400 samples a decision, stopping as soon as the best looked clearly
ahead) and after (the compiled kernel: to ±0.1 stake, at most 4000 samples, the default):

    ruleset                 before: median    p90    max    after: median    p90    max  cpu max
    du-coeur 5p                      0.16s  0.58s  0.71s           0.09s  0.20s  0.53s   0.28s
    inter-livery-2018 5p             0.20s  0.68s  0.78s           0.04s  0.07s  0.09s   0.09s
    parlett 5p                       0.26s  0.74s  0.86s           0.08s  0.13s  0.15s   0.15s
    parlett-13 4p                    0.32s  0.77s  1.06s           0.12s  0.25s  0.32s   0.31s
    parlett-tournament 5p            0.12s  0.48s  0.50s           0.04s  0.07s  0.09s   0.09s
    porges 5p                        0.24s  0.49s  0.56s           0.09s  0.20s  0.24s   0.23s
    wolffauer 5p                     0.22s  0.50s  0.86s           0.06s  0.15s  0.18s   0.17s

About 3-5 decisions a deal (a few more after: a declaration held through a turn is a decision).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    from tutor.app.play.review import REVIEW_SAMPLES, review_deal
    from tutor.engine.analysis import fast
    from tutor.engine.bots import make_bot, play_out
    from tutor.engine.deal import new_deal
    from tutor.engine.levels import LEVELS, seat_names
    from tutor.engine.sources import default_library

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=60, help="deals per ruleset")
    ap.add_argument(
        "--samples",
        type=int,
        default=REVIEW_SAMPLES,
        help="samples per decision (default: the review's)",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rulesets", default=None, help="comma-separated (default: every one)")
    ap.add_argument("--learner", default="casual", help="a level of laugh play for seat 0")
    ap.add_argument("--opponents", default="counter", help="computer player in the other seats")
    args = ap.parse_args()
    lib = default_library()
    fast.kernel(wait=True)
    rids = args.rulesets.split(",") if args.rulesets else sorted(lib.rulesets)
    print(
        f"review of seat 0 ({args.learner}) against {args.opponents}, {args.samples} samples "
        f"a decision, {args.deals} deals each, seed {args.seed}"
    )
    print(f"{'ruleset':<22} {'median':>8} {'p90':>8} {'max':>8} {'cpu max':>8}  decisions a deal")
    for rid in rids:
        rs = lib.rulesets[rid]
        players = 5 if 5 in rs.counts else rs.player_counts[0]
        names = seat_names(players, 0)
        times, cpus, decisions = [], [], []
        for k in range(args.deals):
            rng = random.Random(f"{args.seed}/{k}")
            deal = new_deal(rs, players, k % players, rng)
            bots = [LEVELS[args.learner].make()] + [
                make_bot(args.opponents) for _ in range(players - 1)
            ]
            play_out(deal, bots, rng)
            t0, c0 = time.perf_counter(), time.process_time()
            review = review_deal(deal, 0, names, samples=args.samples)
            times.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
            decisions.append(review.decisions)
        times.sort()
        med = times[len(times) // 2]
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(
            f"{rid + f' {players}p':<22} {med:>7.2f}s {p90:>7.2f}s {times[-1]:>7.2f}s "
            f"{max(cpus):>7.2f}s  {sum(decisions) / len(decisions):.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
