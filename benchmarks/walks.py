"""The walks of the house (issues 29 and 43): where one input goes, file by file, on its way to
the engine.

    python benchmarks/walks.py [--tree DIR] [--verbose]

runs the real program five times (a copy of ``tutor`` at ``--tree``, default this checkout, so
an older commit's worktree can be measured with the same script) under a profile hook, and for
each walk prints the files entered and the calls that cross from one file to another, and
from one room (folder) to another:

- **a move**: ``laugh play --seed 7 --players 5`` piped, from the line ``ac ah`` read to the
  engine's ``Deal.apply`` of the learner's capture;
- **a claim**: the same deal with ``claim 9s 9h`` typed at the watch prompt, from the line read
  to the return of the claim watch's ``arrive`` (the engine's judgement);
- **a lesson puzzle**: ``laugh lesson 2`` piped, from the answer read to the next prompt
  (grading, recording, explaining);
- **a position puzzle answered**: ``laugh lesson 4 --seed 1`` piped, its first puzzle (a
  position: which moves may be made) answered wrong twice, the whole of its ``pose``
  (:func:`tutor.app.puzzling.pose`: drawn, read, graded twice, recorded, explained; the
  lesson-puzzle walk above answers a setup question with a word it cannot read, and no
  position is drawn);
- **a table intent**: ``laugh table serve`` (three seats, one person) with ``laugh table join``
  piped, on the server, from the client's message read to the engine's ``Deal.apply`` of that
  person's move.

The stops are every call from one file into another, in order, and the returns those into a
file the walk was in before (the file entered most is named).  The other counts are of
distinct files, rooms and crossings (a crossing is a call whose caller and callee are in
different files; a room crossing, in different folders of ``tutor``; the last count, in
different ones of the four rooms app, teaching, puzzles and engine).  Nothing is timed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

# The hook, run inside the program as ``python -c HOOK laugh-args...``: settings from WALK_*.
HOOK = r"""
import json, os, runpy, sys, threading
OUT = os.environ["WALK_OUT"]
KINDS = set(filter(None, os.environ.get("WALK_KINDS", "").split(",")))
SEAT = os.environ.get("WALK_SEAT", "")
GRADE = set(filter(None, os.environ.get("WALK_GRADE", "").split(",")))
READS = {"readline", "input"}
UNTIL_NEXT = os.environ.get("WALK_UNTIL") == "next"
START = os.environ.get("WALK_START", "")
FROM_CALL = os.environ.get("WALK_FROM_CALL") == "1"
seg = {"files": [], "cross": [], "open": None}

def rel(fn):
    return fn[fn.index("/tutor/") + 1:] if "/tutor/" in fn else None

def caller(frame):
    f = frame.f_back
    while f is not None:
        r = rel(f.f_code.co_filename)
        if r:
            return r, f.f_code.co_name
        f = f.f_back
    return None, None

def emit(tag):
    with open(OUT, "a") as fh:
        fh.write(json.dumps({"tag": tag, "files": seg["files"], "cross": seg["cross"]}) + "\n")
    seg["files"], seg["cross"] = [], []

def prof(frame, event, arg):
    if event == "c_call" and getattr(arg, "__name__", "") in READS and seg.get("done"):
        seg["done"] = False
        emit(seg.pop("tag"))
        return
    if event == "c_return" and getattr(arg, "__name__", "") in READS:
        if not (FROM_CALL and seg["open"] is not None):  # (a walk from a call keeps its reads)
            seg["files"], seg["cross"] = [], []
        return
    if event == "return" and seg["open"] is frame:
        seg["open"] = None
        if UNTIL_NEXT:
            seg["done"] = True
        else:
            emit(seg.pop("tag"))
        return
    if event != "call":
        return
    code = frame.f_code
    r = rel(code.co_filename)
    if r is None:
        return
    if START and code.co_name == START and seg["open"] is None:
        seg["files"], seg["cross"], seg["handler"] = [], [], frame.f_back.f_code
    if r not in seg["files"]:
        seg["files"].append(r)
    cr, cn = caller(frame)
    if cr is not None and cr != r:
        seg["cross"].append(f"{cr}:{cn} -> {r}:{code.co_name}")
    if seg["open"] is not None or seg.get("done"):
        return
    if code.co_name == "apply" and r.endswith(("engine/deal/_deal.py", "engine/deal/_state.py")):
        a = frame.f_locals.get("action")
        if a is None or (KINDS and a.kind not in KINDS) or (SEAT and a.player != int(SEAT)):
            return
        if START:
            f = frame.f_back
            while f is not None and f.f_code is not seg.get("handler"):
                f = f.f_back
            if f is None:
                return
        seg["open"], seg["tag"] = frame, f"apply:{a.kind}"
    elif code.co_name in GRADE:
        seg["open"], seg["tag"] = frame, f"call:{code.co_name}"
        if FROM_CALL:  # the walk starts at the call, not at the line read before it
            seg["files"], seg["cross"] = [r], []

sys.setprofile(prof)
threading.setprofile(prof)
sys.argv = ["laugh"] + sys.argv[1:]
try:
    runpy.run_module("tutor", run_name="__main__")
finally:
    sys.setprofile(None)
"""


def _run(
    tree: Path,
    home: Path,
    out: Path,
    args: list[str],
    stdin: str,
    timeout: float = 120,
    **walk: str,
) -> subprocess.CompletedProcess:
    env = dict(
        os.environ,
        PYTHONPATH=str(tree),
        LAUGH_HOME=str(home),
        NO_COLOR="1",
        WALK_OUT=str(out),
        **{f"WALK_{k.upper()}": v for k, v in walk.items()},
    )
    return subprocess.run(
        [sys.executable, "-c", HOOK, *args],
        input=stdin,
        text=True,
        env=env,
        cwd=tree,
        capture_output=True,
        timeout=timeout,
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _table(tree: Path, home: Path, out: Path) -> None:
    port = _free_port()
    env = dict(
        os.environ,
        PYTHONPATH=str(tree),
        LAUGH_HOME=str(home),
        NO_COLOR="1",
        WALK_OUT=str(out),
        WALK_START="read_client",
        WALK_SEAT="0",
        WALK_KINDS="capture,trail,play_on_capture,lie_down",
    )
    log = home / "serve.out"
    with open(log, "w") as fh:
        server = subprocess.Popen(
            [
                sys.executable,
                "-c",
                HOOK,
                "table",
                "serve",
                "--port",
                str(port),
                "--players",
                "3",
                "--deals",
                "1",
                "--seed",
                "3",
                "--pace",
                "0",
                "--gap",
                "0",
                "--people",
                "1",
            ],
            env=env,
            cwd=tree,
            stdout=fh,
            stderr=subprocess.STDOUT,
        )
    try:
        code = None
        for _ in range(300):
            m = re.search(r"ws://\S+ ([A-Z0-9]+)", log.read_text())
            if m:
                code = m.group(1)
                break
            time.sleep(0.1)
        if code is None:
            raise SystemExit(f"walks: the server did not start: {log.read_text()[-300:]}")
        cards = "".join(f"{r}{s}\n" for r in "2 3 4 5 6 7 8 9 10 j q k a".split() for s in "cdhs")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "tutor",
                "table",
                "join",
                f"ws://127.0.0.1:{port}",
                code,
                "--name",
                "Ann",
            ],
            input=cards,
            text=True,
            cwd=tree,
            env=dict(env, WALK_OUT=""),
            capture_output=True,
            timeout=120,
        )
    finally:
        server.terminate()
        server.wait(timeout=30)


def _summary(path: Path, verbose: bool) -> str:
    if not path.exists() or not path.read_text().strip():
        return "not measured (the walk's end was never reached)"
    d = json.loads(path.read_text().splitlines()[0])
    files = d["files"]
    rooms = list(dict.fromkeys(os.path.dirname(f).replace("tutor/", "", 1) for f in files))
    cross = list(dict.fromkeys(d["cross"]))
    room_cross = [
        c
        for c in cross
        if os.path.dirname(c.split(" -> ")[0]) != os.path.dirname(c.split(" -> ")[1])
    ]

    def top(c: str) -> str:
        return c.split("/")[1]

    house = [c for c in cross if top(c.split(" -> ")[0]) != top(c.split(" -> ")[1])]
    # the stops: every call into another file, in order (not distinct); a return, a stop in a
    # file the walk had been in before
    entered: dict[str, int] = {}
    seen = set(files[:1])
    returns = 0
    for c in d["cross"]:
        callee = c.split(" -> ")[1].split(":")[0]
        entered[callee] = entered.get(callee, 0) + 1
        returns += callee in seen
        seen.add(callee)
    most = max(entered.items(), key=lambda x: x[1]) if entered else ("", 0)
    text = (
        f"{len(d['cross'])} stops, {returns} returns "
        f"(most entered: {os.path.basename(most[0])} x{most[1]}); "
        f"{len(files)} files, {len(rooms)} rooms ({', '.join(rooms)}), "
        f"{len(cross)} file crossings, {len(room_cross)} room crossings, "
        f"{len(house)} between app, teaching, puzzles and engine"
    )
    if verbose:
        top = sorted(entered.items(), key=lambda x: -x[1])[:8]
        text += "\n    entered: " + ", ".join(f"{os.path.basename(f)} x{n}" for f, n in top)
        text += "".join(f"\n      {c}" for c in room_cross)
    return text


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--tree",
        type=Path,
        default=HERE.parent,
        help="a checkout whose tutor/ is walked (default this one)",
    )
    ap.add_argument("--verbose", "-v", action="store_true", help="list the room crossings")
    a = ap.parse_args(argv)
    tree = a.tree.resolve()
    with tempfile.TemporaryDirectory(prefix="walks-") as tmp:
        t = Path(tmp)
        for name in ("move", "claim", "lesson", "table"):
            (t / name).mkdir()
        _run(
            tree,
            t / "move",
            t / "move.jsonl",
            ["play", "--seed", "7", "--players", "5"],
            "\nac ah\n8c\n8d\nquit\n",
            seat="0",
            kinds="capture,trail,play_on_capture",
        )
        _run(
            tree,
            t / "claim",
            t / "claim.jsonl",
            ["play", "--seed", "7", "--players", "5"],
            "\nac ah\nclaim 9s 9h\n8c\nquit\n",
            kinds="nothing",
            grade="arrive",
        )
        _run(
            tree,
            t / "lesson",
            t / "lesson.jsonl",
            ["lesson", "2"],
            "\na\n" * 30,
            kinds="nothing",
            grade="grade",
            until="next",
        )
        _run(
            tree,
            t / "position",
            t / "position.jsonl",
            ["lesson", "4", "--seed", "1"],
            "\n" * 3 + "a\na\nquit\n",
            kinds="nothing",
            grade="pose",
            from_call="1",
        )
        _table(tree, t / "table", t / "table.jsonl")
        for name, label in (
            ("move", "a move"),
            ("claim", "a claim"),
            ("lesson", "a lesson puzzle"),
            ("table", "a table intent"),
            ("position", "a position puzzle answered"),
        ):
            print(f"{label}: {_summary(t / f'{name}.jsonl', a.verbose)}")


if __name__ == "__main__":
    main()
