"""How fast the tutor's home screen appears.

Measures, with a fresh ``LAUGH_HOME`` each run:

1. time to the home screen: from starting ``python -m tutor`` until its ``home>`` prompt is on
   standard output (piped), median and best of N runs;
2. wall time of ``printf 'q\\n' | laugh`` (start, home screen, quit), median and best;
3. ``python -X importtime``: the cumulative import time of ``tutor.app.commands.tutor_app`` (what
   ``laugh`` with no command needs of the tutor itself), and the slowest imports of a whole
   ``laugh`` run, so a regression can be pinned on a module.

4. the reference: wall time of ``python -c "import rich.console, rich.table, prompt_toolkit,
   yaml"`` (the libraries the tutor cannot start without), measured in turn with (1) so that both
   see the same load; the home screen must appear within :data:`LIMIT` times the reference.

Usage: ``python benchmarks/bench_startup.py [--runs N]``.  The target is 0.3 s to the home screen
on an idle machine, and within 1.5x the reference on any.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.3
LIMIT = 1.5
REFERENCE = "import rich.console, rich.table, prompt_toolkit, yaml"


#: Where PYTHONDONTWRITEBYTECODE is set (it is on the machines CI runs on), the checkout would be
#: compiled from source at every start, while the libraries of the reference were compiled when
#: pip installed them, as an installed tutor is.  The runs below measure the installed case:
#: bytecode allowed, kept in a folder of this run (nothing is written in the checkout), and
#: compiled once before the first timed run.  ``--source`` compiles everything, the tutor and the
#: libraries of the reference alike, from source at every start.
_PYCACHE = tempfile.mkdtemp(prefix="laugh-bench-pycache-")
_EMPTY = tempfile.mkdtemp(prefix="laugh-bench-no-pycache-")
FROM_SOURCE = False


def _env(home: str) -> dict:
    env = dict(os.environ, LAUGH_HOME=home, COLUMNS="80")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    if FROM_SOURCE:  # an empty cache folder, never written: no bytecode
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONPYCACHEPREFIX"] = _EMPTY
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = _PYCACHE
    return env


def time_to_home(runs: int, reference: list[float] | None = None) -> list[float]:
    """Seconds from process start to the ``home>`` prompt on stdout, per run; with a list in
    ``reference``, each run is followed by one of :func:`reference_time` appended to it."""
    out = []
    for _ in range(runs):
        if reference is not None:
            reference.extend(reference_time(1))
        with tempfile.TemporaryDirectory() as home:
            start = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "-m", "tutor"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=_env(home),
                cwd=str(ROOT),
            )
            seen = b""
            while b"home>" not in seen:
                chunk = proc.stdout.read1(65536)
                if not chunk:
                    break
                seen += chunk
            out.append(time.perf_counter() - start)
            proc.communicate(b"q\n", timeout=30)
    return out


def reference_time(runs: int) -> list[float]:
    """Seconds for ``python -c REFERENCE`` (importing rich, prompt_toolkit and yaml), per run."""
    out = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as home:
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-c", REFERENCE],
                env=_env(home),
                cwd=str(ROOT),
                capture_output=True,
                check=True,
            )
            out.append(time.perf_counter() - start)
    return out


def wall_quit(runs: int) -> list[float]:
    """Seconds for ``printf 'q\\n' | laugh`` to start, show the home screen and quit."""
    out = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as home:
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "tutor"],
                input=b"q\n",
                env=_env(home),
                cwd=str(ROOT),
                capture_output=True,
                check=True,
            )
            out.append(time.perf_counter() - start)
    return out


def importtime(code: list[str], stdin: bytes = b"") -> list[tuple[int, int, str]]:
    """(self µs, cumulative µs, module) for every import of ``python -X importtime CODE``."""
    with tempfile.TemporaryDirectory() as home:
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", *code],
            input=stdin,
            env=_env(home),
            cwd=str(ROOT),
            capture_output=True,
        )
    rows = []
    for line in proc.stderr.decode(errors="replace").splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        parts = line[len("import time:") :].split("|")
        try:
            rows.append((int(parts[0]), int(parts[1]), parts[2].rstrip()))
        except ValueError:
            continue
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument(
        "--source",
        action="store_true",
        help="compile everything (the tutor and the reference's libraries) from source "
        "at every start",
    )
    args = ap.parse_args()
    global FROM_SOURCE
    FROM_SOURCE = args.source
    print(
        "measuring "
        + (
            "with everything compiled from source at every start"
            if args.source
            else "with bytecode compiled once, as an installed tutor has it"
        )
    )
    time_to_home(1)  # compile once, untimed

    ref: list[float] = []
    home = time_to_home(args.runs, ref)
    quit_ = wall_quit(args.runs)
    print(
        f"time to the home screen (python -m tutor, piped), {args.runs} runs: "
        f"median {statistics.median(home):.3f} s, best {min(home):.3f} s "
        f"(target {TARGET} s: {'met' if statistics.median(home) <= TARGET else 'NOT met'})"
    )
    ratio = statistics.median(home) / statistics.median(ref)
    print(
        f"reference, python -c '{REFERENCE}', run in turn: median "
        f"{statistics.median(ref):.3f} s, best {min(ref):.3f} s; home screen / reference: "
        f"{ratio:.2f} (limit {LIMIT}: {'met' if ratio <= LIMIT else 'NOT met'})"
    )
    print(
        f"printf 'q\\n' | laugh, wall time: median {statistics.median(quit_):.3f} s, "
        f"best {min(quit_):.3f} s"
    )

    rows = importtime(["-c", "import tutor.app.commands.tutor_app"])
    top = [r for r in rows if r[2].strip() == "tutor.app.commands.tutor_app"]
    if top:
        print(
            f"python -X importtime -c 'import tutor.app.commands.tutor_app': "
            f"{top[0][1] / 1000:.1f} ms cumulative"
        )
    rows = importtime(["-m", "tutor"], b"q\n")
    total = sum(r[0] for r in rows)
    print(
        f"python -X importtime -m tutor (home screen, then q): {total / 1000:.1f} ms of imports;"
        " slowest top-level imports (cumulative):"
    )
    tops = sorted((r for r in rows if not r[2].startswith("  ")), key=lambda r: -r[1])[:12]
    for _self_us, cum_us, name in tops:
        print(f"  {cum_us / 1000:7.1f} ms  {name.strip()}")
    deferred = ("markdown_it", "tutor.puzzles", "tutor.engine.sources", "prompt_toolkit")
    loaded = {r[2].strip() for r in rows}
    print(
        "deferred until needed (not imported by the home screen itself): "
        + ", ".join(
            f"{m} {'(imported by another command module!)' if m in loaded else 'ok'}"
            for m in deferred
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
