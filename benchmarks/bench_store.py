"""The progress store with many answers (issue 23 item 14): ``laugh stats`` after importing 10⁵
or 10⁶ answers.

Run: python benchmarks/bench_store.py [--answers N] [--rated R] [--seed S] [--no-stats]

Builds a progress file of ``N`` answers in a fresh ``LAUGH_HOME`` (merged as ``laugh progress
import`` merges them: 8 kinds, 1 to 3 of 24 themes each, two thirds timed, spread over 400 days,
one in ``R`` a first try of a known band, so rated), then measures in this process the store's
calls the statistics make (:meth:`tallies` by theme and by kind, :meth:`timeline`, each the
median of 3), and the whole ``laugh stats`` as a learner runs it (piped: the store read into
memory without writing; wall time and the peak memory of that process).

Measured on the shared two-core machine (other sessions running: load average 3 to 5),
``--rated 50``, before (issue 23 item 14: tallies JSON-decoded every answer once per tally asked
for, timeline grouped by UTC day, ``laugh stats`` read every answer again to see whether any
was a week old, and folded every answer into the review schedules again at every showing,
because the import had dropped them) and after (counts in SQL, the import rebuilds the
schedules):

                       import   tallies theme   tallies kind   timeline   laugh stats   peak
    10⁵ answers before   1.8 s          1.16 s         1.09 s     1.27 s         9.6 s   141 MB
    10⁵ answers after    6.0 s          0.80 s         0.19 s     0.24 s         1.9 s    54 MB
    10⁶ answers before  18.8 s         11.04 s         9.95 s    10.33 s        77.5 s  1141 MB
    10⁶ answers after   43.8 s          6.68 s         2.34 s     4.55 s        20.4 s   246 MB

The import is slower by the review schedules it now rebuilds once (py-fsrs, an answer's kind
and themes each); what is left of ``laugh stats`` at 10⁶ is the counting itself and the
checks every store makes when it opens (SQLite's integrity check, the damage checks: about 5 s).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KINDS = [
    "count",
    "settlement",
    "capture-now",
    "dead-pair",
    "capture-choice",
    "declaration",
    "spot-oversight",
    "legal-play",
]
THEMES = [f"theme-{i}" for i in range(24)]


def answers(n: int, rated_one_in: int, seed: int) -> list:
    """``n`` answers as another machine's export would bring them."""
    from tutor.teaching.progress import Answer

    rng = random.Random(seed)
    t0 = 1_700_000_000.0
    out = []
    for i in range(n):
        kind = rng.choice(KINDS)
        rated = rated_one_in and i % rated_one_in == 0
        out.append(
            Answer(
                at=t0 + i * (400 * 86400 / n),
                puzzle_id=f"{kind}.bench.{i}",
                kind=kind,
                themes=tuple(rng.sample(THEMES, rng.randint(1, 3))),
                correct=rng.random() < 0.7,
                seconds=round(rng.uniform(1, 30), 2) if rng.random() < 0.67 else None,
                uid=f"bench-{seed}-{i}",
                difficulty=rng.randint(1, 5) if rated else None,
            )
        )
    return out


def merge(store, given: list) -> tuple[int, int]:
    """What ``laugh progress import`` does with the answers of an export (before the import
    also rebuilt the review schedules, a merge alone)."""
    try:
        from tutor.teaching.transfer import Export, merge_export
    except ImportError:
        return store.merge(given, [], {})
    return merge_export(store, Export(None, given, [], {}, {}, 0.0))


def _median_time(fn, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


#: ``laugh stats`` run so that it reports its own peak resident memory at exit (Linux's VmHWM:
#: the peak since exec, so the benchmark's own memory, which a forked child would count, is not).
_STATS = (
    "import atexit, runpy, sys\n"
    "def peak():\n"
    "    with open('/proc/self/status') as fh:\n"
    "        kb = [line.split()[1] for line in fh if line.startswith('VmHWM')]\n"
    "    sys.stderr.write(f'PEAK {kb[0] if kb else 0}\\n')\n"
    "atexit.register(peak)\n"
    "sys.argv = ['laugh', 'stats']\n"
    "runpy.run_module('tutor', run_name='__main__')\n"
)


def laugh_stats(home: str) -> tuple[float, float]:
    """Wall seconds and peak resident MB of ``laugh stats`` (piped)."""
    env = dict(
        os.environ,
        LAUGH_HOME=home,
        COLUMNS="80",
        PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    )
    t = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _STATS],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=env,
        cwd=str(ROOT),
    )
    wall = time.perf_counter() - t
    if b"Traceback" in proc.stderr:
        raise SystemExit(f"laugh stats failed: {proc.stderr.decode(errors='replace')[-2000:]}")
    if not proc.stdout.startswith(b"Statistics:"):
        raise SystemExit(f"laugh stats said: {proc.stdout[:300]!r}")
    peak = [line for line in proc.stderr.decode().splitlines() if line.startswith("PEAK ")]
    return wall, int(peak[-1].split()[1]) / 1024 if peak else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--answers", type=int, default=100_000)
    ap.add_argument("--rated", type=int, default=50, help="one answer in R is rated")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-stats", action="store_true", help="leave out the laugh stats run")
    args = ap.parse_args()
    from tutor.teaching.progress import FILE_NAME, ProgressStore

    with tempfile.TemporaryDirectory(prefix="laugh-bench-store-") as home:
        given = answers(args.answers, args.rated, args.seed)
        t = time.perf_counter()
        with ProgressStore(Path(home) / FILE_NAME) as store:
            added, _ = merge(store, given)
        build = time.perf_counter() - t
        del given
        assert added == args.answers
        with ProgressStore(Path(home) / FILE_NAME, read_only=True) as store:
            theme = _median_time(lambda: store.tallies("theme"))
            kind = _median_time(lambda: store.tallies("kind"))
            line = _median_time(lambda: store.timeline())
        print(
            f"{args.answers} answers: build (import) {build:.1f} s; tallies theme {theme:.2f} s, "
            f"kind {kind:.2f} s, timeline {line:.2f} s",
            flush=True,
        )
        if not args.no_stats:
            wall, peak = laugh_stats(home)
            print(f"laugh stats: {wall:.1f} s, peak {peak:.0f} MB", flush=True)


if __name__ == "__main__":
    main()
