"""Head to head: one ``expert`` against another, each in seat 0 of the same deals.

Run: python benchmarks/bench_expert_vs.py --a SPEC --b SPEC [--deals K] [--seed S]
     [--first F] [--workers W] [--rulesets R,R] [--opponents O,O]

SPEC is ``name`` or ``key=value,...`` of :class:`tutor.engine.expert.ExpertBot`'s keywords
(``samples``, ``seconds``, ``target``, ``min_samples``, ``prune``, ``z``, ``policy``) or
``main`` (the expert of main before issue 20's item 5) or ``old`` (the expert before the
compiled kernel: 200 samples, 16 before an early stop, pruning).  Deal ``k`` (from ``--first``)
is dealt as in benchmarks/bench_expert.py and played twice from the same random source, with
expert A in seat 0 and then expert B there, the other seats ``opponent`` players; both experts
get the same seed.  The figure is A's result minus B's in the same deal (stakes a deal), with
its 95% interval (normal approximation); deals both play alike add 0.  Also: how many deals
were played differently, and each expert's CPU time per analysed decision (on whichever engine
runs: set ``LAUGH_PURE_PYTHON=1`` to time the pure engine).  ``oracle=1``: an expert that
sees every hand (an upper bound on what knowing the hidden cards is worth; never a player);
``free_all=1``: an expert that also analyses the declarations it otherwise makes at once;
``infer=1``: the expert's own ``infer`` (inference from declarations, below).

Issue 20, item 5 (a stronger expert with the time the compiled kernel saves, at no more
thinking time a decision).  Measured on a shared two-core machine (load 4-8), parlett, five
players, seed 7, stakes a deal, A minus B with its 95% interval:

Thinking time a decision (CPU): the expert before the kernel (``old``: 200 samples, pure
engine; ``LAUGH_PURE_PYTHON=1 ... --a old --b old --deals 60``) 34 ms; the expert of main
(``main``: 4000 samples on the kernel) 9-12 ms.  So a variant may spend about three times
main's samples.

    A                                  B     opponents  deals  played differently  A - B
    main                               old   counter    2000   266                +0.026 ± 0.037
    main                               old   willughby  2000   307                +0.028 ± 0.049
    samples=4000,target=0.05 (12 ms)   main  counter     600    13                -0.010 ± 0.011
    samples=4000,z=1.0 (10 ms)         main  counter     600    68                -0.035 ± 0.062
    samples=4000,z=0,target=0.05       main  counter     600   202                -0.048 ± 0.117
      (13 ms: always the estimated best)
    samples=4000,free_all=1 (10 ms)    main  counter    1000    13                -0.007 ± 0.015
    samples=4000,free_all=1            main  willughby  1000    11                +0.001 ± 0.006
    inferred hands, 300 samples, pure  the same without  counter     300    17    -0.003 ± 0.074
      (49 ms on the pure engine)                         willughby   300    15    -0.037 ± 0.117
    samples=4000,oracle=1 (3 ms)       main  counter     600   251                +0.533 ± 0.151

"Inferred hands" (commit 39e851d, reverted): the determinizations kept what the opponents'
turns prove they do not hold if they play as ``counter`` or ``willughby`` do (a turn spent on
any capture but a lone table card or all three of a rank shows the player held no card of a rank
with one or three cards on the table).  Sound (no violation in 1045 checks over 30 counter
deals), but it rarely says anything: 86% of captures take a lone card, and at the expert's turns
it excluded half a card on average of 13.5 unseen.

"Inference from declarations" (``infer=1``, kept as an expert setting, off by default): counter
and willughby players declare as soon as the rules let them, so at the expert's turn no opponent
holds a prial, mournival or dead pair, nor held a prial at the deal's first turn (its hand now
plus the cards it has played from hand since).  The determinizations (kernel and pure engine
alike) keep only such hands, by rejection.  Sound: no violation in 4,281 turns of 200 deals each
of parlett, du-coeur and inter-livery-2018 against counter and against willughby; it rejects
40% of the plain determinizations.  But it is about correlations, not who holds which card: over
the expert-seat turns of 40 counter deals the mean chance a determinization gives an unseen card
to its true holder is 0.3271 plain, 0.3275 with it (0.3324 with the inferred absences above; the
oracle's is 1).  Seed 7, the same thinking time (9 ms):

    A                          B     ruleset    opponents  deals  played differently  A - B
    samples=4000,infer=1       main  parlett    counter    2000   274                +0.002 ± 0.042
    samples=4000,infer=1       main  parlett    willughby  2000   326                -0.003 ± 0.056
    samples=4000,infer=1       main  du-coeur   counter    1000   113                -0.010 ± 0.049
    samples=4000,infer=1       main  du-coeur   willughby  1000   136                +0.009 ± 0.077

(The du-coeur rows are of a first version without the first-turn part; on parlett both
versions give the same figures to the last digit: +0.0015 ± 0.0417 and -0.0030 ± 0.0562.)

So none of these plays measurably stronger than main's expert, and main's is not measurably
stronger than the expert before the kernel: the expert stays as it is.  Knowing the hidden
cards would be worth half a stake a deal (the oracle), but what the opponents' play shows about
them is little; the rollouts' own limit (every seat, the expert's own included, played by
``counter`` after the first move) is what more samples cannot lift.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PRESETS = {
    "main": "samples=4000,min_samples=64,prune=0,target=0.1,z=1.96",
    "old": "samples=200,min_samples=16,prune=1,target=0.1,z=1.96",
}


def parse_spec(spec: str) -> dict:
    """``key=value,...`` (or a preset name) as ExpertBot keywords."""
    spec = PRESETS.get(spec, spec)
    out: dict = {}
    for part in filter(None, spec.split(",")):
        k, v = part.split("=")
        if k in ("samples", "min_samples"):
            out[k] = int(v)
        elif k == "prune":
            out[k] = bool(int(v))
        elif k in ("oracle", "free_all", "infer"):
            out[k] = bool(int(v))
        elif k == "policy":
            out[k] = v
        else:
            out[k] = float(v)
    if "samples" in out and "seconds" not in out:
        out["seconds"] = None
    return out


def _mean_ci(xs):
    n = len(xs)
    m = sum(xs) / n
    v = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else math.inf
    return m, 1.96 * math.sqrt(v / n)


def _oracle_class():
    """An expert that sees every hand (``oracle=1``): an upper bound on what inference about the
    hidden cards could add, never a player."""
    from tutor.engine.analysis import core
    from tutor.engine.expert import ExpertBot

    class Seeing(core.Determinizer):
        def __init__(self, d, seat):
            super().__init__(d, seat)
            self.cards, self.opponents, self.needs = [], [], []

    class Oracle(ExpertBot):
        def _best(self, *a, **kw):
            keep = core.Determinizer
            core.Determinizer = Seeing
            try:
                return super()._best(*a, **kw)
            finally:
                core.Determinizer = keep

    return Oracle


def _free_all_class():
    """An expert that analyses every declaration (``free_all=1``), also those it otherwise makes
    at once when it is not to move and more than three players are in play."""
    from tutor.engine.analysis import decision_options
    from tutor.engine.expert import ExpertBot

    class FreeAll(ExpertBot):
        def free_action(self, deal, seat, rng):
            if not deal.free_possible(seat):
                return None
            if not deal.free_actions(seat):
                return None
            default = self._base.free_action(deal, seat, rng)
            return self._best(deal, seat, "free", decision_options(deal, seat, "free"), default)

    return FreeAll


def play_pair(rid, players, opponent, a_spec, b_spec, seed, k):
    """Deal ``k`` with expert A in seat 0, then expert B: (A's net, B's net, A's decisions,
    A's CPU seconds, B's decisions, B's CPU seconds, records differ)."""
    from tutor.engine.bots import make_bot, play_out
    from tutor.engine.deal import new_deal
    from tutor.engine.expert import ExpertBot
    from tutor.engine.sources import default_library

    _Oracle = _oracle_class()
    _FreeAll = _free_all_class()
    rs = default_library().rulesets[rid]
    nets, bots0, hists = [], [], []
    for spec in (a_spec, b_spec):
        kw = parse_spec(spec)
        cls = (
            _Oracle
            if kw.pop("oracle", False)
            else _FreeAll
            if kw.pop("free_all", False)
            else ExpertBot
        )
        e = cls(seed=seed * 1_000_003 + k, **kw)
        rng = random.Random(f"{seed}/{k}")
        deal = new_deal(rs, players, k % players, rng)
        play_out(deal, [e] + [make_bot(opponent) for _ in range(players - 1)], rng)
        nets.append(deal.returns()[0])
        bots0.append(e)
        hists.append(tuple(deal.history))
    a, b = bots0
    return (
        nets[0],
        nets[1],
        a.decisions,
        a.thinking,
        b.decisions,
        b.thinking,
        hists[0] != hists[1],
    )


def _job(args):
    return play_pair(*args)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", default="main")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--rulesets", default="parlett")
    ap.add_argument("--opponents", default="counter")
    args = ap.parse_args()
    from tutor.engine.sources import default_library

    lib = default_library()
    print(
        f"A = {args.a}; B = {args.b}; deals {args.first}-{args.first + args.deals - 1}, "
        f"seed {args.seed}",
        flush=True,
    )
    for rid in args.rulesets.split(","):
        rs = lib.rulesets[rid]
        players = 5 if 5 in rs.counts else rs.player_counts[0]
        for opp in args.opponents.split(","):
            jobs = [
                (rid, players, opp, args.a, args.b, args.seed, k)
                for k in range(args.first, args.first + args.deals)
            ]
            t0 = time.perf_counter()
            if args.workers > 1:
                import multiprocessing as mp

                with mp.get_context("fork").Pool(args.workers) as pool:
                    res = list(pool.imap(_job, jobs, chunksize=8))
            else:
                res = [play_pair(*j) for j in jobs]
            el = time.perf_counter() - t0
            m, h = _mean_ci([r[0] - r[1] for r in res])
            diff = sum(r[6] for r in res)
            da, ta = sum(r[2] for r in res), sum(r[3] for r in res)
            db, tb = sum(r[4] for r in res), sum(r[5] for r in res)
            verdict = "A stronger" if m - h > 0 else "B stronger" if m + h < 0 else "not separated"
            print(
                f"{rid:>11} {players}p vs {opp:<9}: A - B {m:+.4f} ± {h:.4f} stakes/deal "
                f"({verdict}); {len(res)} deals, {diff} played differently; "
                f"A {1000 * ta / max(da, 1):.1f} ms CPU/decision ({da / len(res):.2f} a deal), "
                f"B {1000 * tb / max(db, 1):.1f} ms ({db / len(res):.2f} a deal); "
                f"{el:.0f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()
