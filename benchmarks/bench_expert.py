"""Strength of the ``expert`` computer player: one expert seat against ``counter`` seats and
against ``willughby`` seats, in every stakes ruleset.

Run: python benchmarks/bench_expert.py [--deals K] [--samples N] [--seed S] [--workers W]
     [--rulesets R,R] [--opponents O,O]

Deal ``k`` of a study is dealt by seat ``k % players`` from a pack shuffled by
``random.Random(f"{seed}/{k}")``; the expert always sits in seat 0, so it holds every seat
relative to the dealer equally often.  Its result per deal is its net stakes minus the mean of
all seats' nets (0 under stakes scoring), so 0 is the result of an average seat.  The same deal
is also played with the opponents' kind of player in seat 0 (same pack, same random source):
the paired difference (expert's result minus that seat's result in the same deal) has the same
expectation, because the baseline seat's mean over the dealer's rotation is 0, and a much
smaller variance.  Both are reported with 95% intervals (normal approximation); the expert plays
with a sample budget per decision (``--samples``), so every figure is reproducible.

Target (issue 10): the interval of the expert's mean result excludes zero in every stakes
ruleset.  Issue 20: a stronger expert with the time the compiled kernel saves, at no more
thinking time (CPU) per decision than before.

Measured before (main at 5d63031, ``--deals 1000 --samples 200 --seed 7``, one process; stakes a
deal, expert's mean result; the paired figure is the one whose interval is shortest):

    ruleset        opponents   expert          paired with the opponents' player
    du-coeur 5p    counter     +0.229 ± 0.226  +0.126 ± 0.079
    du-coeur 5p    willughby   +0.707 ± 0.231  +0.593 ± 0.120
    parlett 5p     counter     +0.323 ± 0.229  +0.205 ± 0.087
    parlett 5p     willughby   +0.762 ± 0.234  +0.608 ± 0.133
    parlett-13 4p  counter     +0.576 ± 0.307  +0.680 ± 0.145
    parlett-13 4p  willughby   +1.354 ± 0.314  +1.361 ± 0.215
    porges 5p      counter     +0.076 ± 0.225  +0.148 ± 0.103
    porges 5p      willughby   +0.490 ± 0.232  +0.571 ± 0.152
    wolffauer 5p   counter     +0.300 ± 0.225  +0.208 ± 0.083
    wolffauer 5p   willughby   +0.907 ± 0.224  +0.747 ± 0.146

About 3-4.5 analysed decisions a deal, 0.13-0.23 s a deal pair; 30 ms of CPU a decision (21 ms
at 120 samples).

After (the compiled kernel; ``--deals 1000 --seed 7 --rulesets parlett``: 4000 samples a
decision, :data:`tutor.engine.expert.SAMPLES`, at least 64 before an early stop, every option
sampled to the end; shared two-core machine, load about 4):

    parlett 5p     counter     +0.406 ± 0.229  +0.288 ± 0.090   9.3 ms of CPU a decision
    parlett 5p     willughby   +0.814 ± 0.235  +0.660 ± 0.143   9.1 ms of CPU a decision

A third of the thinking time, and ahead of the old expert by 0.08 and 0.05 stakes a deal, each
within its interval.  Played on the same 2000 deals against counters (seed 7, deals 0-1999; 196
of them played differently), the new expert's result minus the old's: +0.034 ± 0.051 stakes a
deal: stronger, if at all, by less than these runs can show.  Item 5 (a stronger expert with
the time saved): benchmarks/bench_expert_vs.py plays one expert against another on the same
deals; again against counters (2000 deals) +0.026 ± 0.037 and against willughbys (2000 deals)
+0.028 ± 0.049 over the old expert, and no variant tried (more samples, a lower bar for
leaving the policy, analysing every declaration, hands inferred from the opponents' turns) is
ahead of today's: its docstring has the figures.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _mean_ci(xs):
    n = len(xs)
    m = sum(xs) / n
    v = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else math.inf
    return m, 1.96 * math.sqrt(v / n)


def play_pair(rid: str, players: int, opponent: str, samples: int, seed: int, k: int):
    """Deal ``k`` with the expert in seat 0, then with ``opponent`` there: (expert's result
    relative to the seats' mean, the baseline seat's, expert decisions analysed, CPU seconds
    the expert spent in them)."""
    from tutor.engine.bots import make_bot, play_out
    from tutor.engine.deal import new_deal
    from tutor.engine.expert import ExpertBot
    from tutor.engine.sources import default_library

    rs = default_library().rulesets[rid]
    out = []
    expert = ExpertBot(samples=samples, seed=seed * 1_000_003 + k)
    for first in (expert, make_bot(opponent)):
        rng = random.Random(f"{seed}/{k}")
        deal = new_deal(rs, players, k % players, rng)
        bots = [first] + [make_bot(opponent) for _ in range(players - 1)]
        play_out(deal, bots, rng)
        ret = deal.returns()
        out.append(ret[0] - sum(ret) / players)
    return out[0], out[1], expert.decisions, getattr(expert, "thinking", 0.0)


def _job(args):
    return args, play_pair(*args)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000, help="deals per ruleset and opponent")
    from tutor.engine.expert import SAMPLES

    ap.add_argument("--samples", type=int, default=SAMPLES, help="expert's samples per decision")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--rulesets", default=None, help="comma-separated (default: every stakes one)")
    ap.add_argument("--opponents", default="counter,willughby")
    args = ap.parse_args()
    from tutor.engine.sources import default_library

    lib = default_library()
    if args.rulesets:
        rids = args.rulesets.split(",")
    else:
        rids = sorted(r for r, rs in lib.rulesets.items() if rs.scoring == "stakes")
    print(
        f"expert (samples {args.samples} per decision) in seat 0, {args.deals} deals each, "
        f"seed {args.seed}"
    )
    for rid in rids:
        rs = lib.rulesets[rid]
        players = 5 if 5 in rs.counts else rs.player_counts[0]
        for opp in args.opponents.split(","):
            jobs = [(rid, players, opp, args.samples, args.seed, k) for k in range(args.deals)]
            t0 = time.perf_counter()
            if args.workers > 1:
                import multiprocessing as mp

                with mp.get_context("fork").Pool(args.workers) as pool:
                    results = [r for _, r in pool.imap(_job, jobs, chunksize=4)]
            else:
                results = [play_pair(*j) for j in jobs]
            el = time.perf_counter() - t0
            raw = [r[0] for r in results]
            paired = [r[0] - r[1] for r in results]
            base = [r[1] for r in results]
            m, h = _mean_ci(raw)
            pm, ph = _mean_ci(paired)
            bm, bh = _mean_ci(base)
            dec = sum(r[2] for r in results)
            think = sum(r[3] for r in results)
            verdict = "excludes 0" if (pm - ph > 0 or pm + ph < 0) else "includes 0"
            print(
                f"{rid:>11} {players}p vs {opp:<9}: expert {m:+.3f} ± {h:.3f} stakes/deal; "
                f"paired with a {opp} seat {pm:+.3f} ± {ph:.3f} ({verdict}); "
                f"{opp} seat alone {bm:+.3f} ± {bh:.3f}; {dec / len(results):.1f} analyses "
                f"a deal, {1000 * think / max(dec, 1):.1f} ms of CPU a decision, "
                f"{el / len(results):.2f} s a deal",
                flush=True,
            )


if __name__ == "__main__":
    main()
