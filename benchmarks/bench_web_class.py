"""A class in the browser under load (issue 44): ``laugh class serve``'s pages on loopback, 30
simulated students (httpx) taking lesson 1 at once while the teacher's dashboard follows them.

Run: python benchmarks/bench_web_class.py [--students N] [--seconds S] [--think T] [--poll P]
     [--seed X]

The server runs in a process of its own (the pages of :mod:`tutor.app.web.server` on uvicorn,
as ``laugh class serve`` serves them, a fresh class folder), the students and the dashboard in
this one (asyncio, one httpx client each).  Each student joins by the class code, opens lesson
1 and goes through it as a page would: a page's first choice (next, finish, yes) after a think
of ``T`` seconds on average (uniform 0..2T), a puzzle's answer a random one of A-D, then
``show`` where that is not read or not right at the second try.  The dashboard asks
``/teacher/live`` every ``P`` seconds and loads ``/teacher`` when it moved, as its page does.
Bounded: every student stops after ``S`` seconds (default 20) wherever they are.

Reported:

- **answer-to-grade**: from sending a puzzle's answer to having the page with its grade (the
  POST, the server's learner loop grading it, the redirect's GET), p50 / p99 / max;
- **the dashboard's lag**: for each answer the students' stores keep, from when it was recorded
  (its ``at``) to when the dashboard first counted it (the grid's class total), p50 / p99 /
  max; it includes up to one polling interval;
- requests, errors, students who finished the lesson, the server's CPU time.

Each student's page also asks its version every 1.5 s while open, as ``static/follow.js`` does.

Measured on the shared two-core machine (load average 8-11 from other work), default
arguments, one run right after the other:

                             before (every request read      after (the course's index and
                             the course's lesson files)      lessons read once a server)
    answer-to-grade p50/p99  653 / 1387 ms                   103-156 / 271-432 ms
    dashboard lag p50/p99    2.80 / 5.16 s                   1.21-1.67 / 2.30-2.87 s
    finished in 20 s         0 of 30                         7-30 of 30 (all 30 in 21-25 s)

(before: without the pages' own polling; the dashboard's lag includes up to 1.5 s of polling.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SERVER = r"""
import json, socket, sys
from pathlib import Path
import uvicorn
from tutor.app.web.server import ClassRoom, WebApp
room = ClassRoom(Path(sys.argv[1]))
web = WebApp(room=room)
sock = socket.socket()
sock.bind(("127.0.0.1", 0))
sock.listen(256)
print(json.dumps({"port": sock.getsockname()[1], "code": room.code,
                  "teacher": room.teacher_code}), flush=True)
try:
    uvicorn.Server(uvicorn.Config(web.app, log_level="warning", lifespan="off",
                                  access_log=False)).run(sockets=[sock])
finally:
    web.close()
"""

FORM = re.compile(
    r'<form method="post" action="([^"]+)" class="prompt"[^>]*>\s*'
    r'<input type="hidden" name="n" value="(\d+)">'
)
FIRST_WORD = re.compile(r'<button type="submit" name="text" value="([^"]*)"')
HEADING = re.compile(r"(Puzzle \d+ of \d+|Again, \d+ of \d+|Puzzle\b)")
TOTAL = re.compile(r'<td id="class-total">(\d+)/(\d+)</td>')


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


class Run:
    def __init__(self, args, base: str, code: str, teacher: str):
        self.args, self.base, self.code, self.teacher = args, base, code, teacher
        self.end = time.monotonic() + args.seconds
        self.grade_times: list[float] = []
        self.requests = 0
        self.errors: list[str] = []
        self.finished = 0
        self.seen: list[tuple[float, int]] = []  # (epoch, answers the dashboard counted)
        self.loads: list[float] = []  # seconds to load the dashboard
        self.gone = 0  # students who stopped
        self.rng = random.Random(args.seed)

    async def student(self, i: int) -> None:
        try:
            await self._student(i)
        finally:
            self.gone += 1

    async def _student(self, i: int) -> None:
        import httpx

        async with httpx.AsyncClient(base_url=self.base, timeout=60, follow_redirects=True) as c:
            r = await c.post("/join", data={"code": self.code, "name": f"Student {i + 1}"})
            self.requests += 2
            token = str(r.url).split("/s/")[1].split("/")[0]
            r = await c.get(f"/s/{token}/lesson/history")
            self.requests += 1
            html = r.text
            follow = asyncio.create_task(self.follow(c, token))
            try:
                await self._through(c, token, html)
            finally:
                follow.cancel()
                await asyncio.gather(follow, return_exceptions=True)

    async def follow(self, c, token: str) -> None:
        """What the student's page asks while open (``static/follow.js``): its version, every
        1.5 seconds."""
        while True:
            await asyncio.sleep(1.5)
            await c.get(f"/s/{token}/lesson/history/v")
            self.requests += 1

    async def _through(self, c, token: str, html: str) -> None:
        """Lesson 1 to its end, or until the time is up."""
        tries: dict[str, int] = {}
        while time.monotonic() < self.end:
            if "What comes next" in html:
                self.finished += 1
                return
            m = FORM.search(html)
            if m is None:  # the lesson being set: look again
                await asyncio.sleep(0.2)
                html = (await c.get(f"/s/{token}/lesson/history")).text
                self.requests += 1
                continue
            action, n = m.group(1), int(m.group(2))
            await asyncio.sleep(self.rng.uniform(0, 2 * self.args.think))
            if 'id="answer"' in html:
                heads = HEADING.findall(html)
                key = heads[-1] if heads else ""
                tries[key] = tries.get(key, 0) + 1
                text = self.rng.choice("ABCD") if tries[key] == 1 else "show"
                t0 = time.perf_counter()
                r = await c.post(action, data={"n": str(n), "text": text})
                self.grade_times.append(time.perf_counter() - t0)
            else:
                word = FIRST_WORD.search(html)
                r = await c.post(action, data={"n": str(n), "text": word.group(1) if word else ""})
            self.requests += 2
            if r.status_code != 200:
                self.errors.append(f"{r.status_code} at {action}")
                return
            html = r.text

    async def dashboard(self) -> None:
        import httpx

        async with httpx.AsyncClient(base_url=self.base, timeout=60, follow_redirects=True) as c:
            await c.post("/teacher", data={"code": self.teacher})
            shown = None
            last = None
            while time.monotonic() < self.end + 2 * self.args.poll:
                if self.gone >= self.args.students:  # everyone stopped: one look more
                    last = time.monotonic() if last is None else last
                    if time.monotonic() - last > 2 * self.args.poll:
                        return
                v = (await c.get("/teacher/live")).json()["v"]
                self.requests += 1
                if v != shown:
                    t0 = time.perf_counter()
                    html = (await c.get("/teacher")).text
                    self.loads.append(time.perf_counter() - t0)
                    self.requests += 1
                    m = TOTAL.search(html)
                    self.seen.append((time.time(), int(m.group(2)) if m else 0))
                    shown = v
                await asyncio.sleep(self.args.poll)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument(
        "--think",
        type=float,
        default=0.3,
        help="a student's mean think time before each answer, seconds",
    )
    ap.add_argument(
        "--poll", type=float, default=1.5, help="the dashboard's polling, seconds (its page: 1.5)"
    )
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-web-class-") as tmp:
        env = {**os.environ, "LAUGH_HOME": str(Path(tmp) / "home")}
        folder = Path(tmp) / "class"
        proc = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(folder)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert proc.stdout is not None
            info = json.loads(proc.stdout.readline())
            run = Run(args, f"http://127.0.0.1:{info['port']}", info["code"], info["teacher"])

            async def everyone():
                await asyncio.gather(
                    run.dashboard(), *(run.student(i) for i in range(args.students))
                )

            t0 = time.monotonic()
            asyncio.run(everyone())
            wall = time.monotonic() - t0
        finally:
            import resource

            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        from tutor.teaching.progress import ProgressStore

        recorded = []
        for path in sorted((folder / "students").glob("*.sqlite3")):
            with ProgressStore(path, read_only=True) as store:
                recorded += [a.at for a in store.answers()]
        recorded.sort()
    lags = []
    for k, at in enumerate(recorded, 1):
        when = next((t for t, total in run.seen if total >= k), None)
        if when is not None:
            lags.append(max(0.0, when - at))
    g = run.grade_times
    print(
        f"{args.students} students, lesson 1, {wall:.1f} s (bound {args.seconds:.0f} s), "
        f"think {args.think} s, dashboard polling every {args.poll} s"
    )
    print(
        f"  requests {run.requests}, errors {len(run.errors)}, finished the lesson "
        f"{run.finished}/{args.students}, answers recorded {len(recorded)}"
    )
    print(
        f"  answer-to-grade: n={len(g)} p50 {1000 * pct(g, 0.5):.0f} ms, "
        f"p99 {1000 * pct(g, 0.99):.0f} ms, max {1000 * max(g, default=float('nan')):.0f} ms"
    )
    print(
        f"  dashboard lag:   n={len(lags)} p50 {pct(lags, 0.5):.2f} s, "
        f"p99 {pct(lags, 0.99):.2f} s, max {max(lags, default=float('nan')):.2f} s; "
        f"{len(recorded) - len(lags)} answers never shown"
    )
    print(
        f"  dashboard loads: n={len(run.loads)} p50 {1000 * pct(run.loads, 0.5):.0f} ms, "
        f"max {1000 * max(run.loads, default=float('nan')):.0f} ms"
    )
    used = cpu.ru_utime + cpu.ru_stime
    print(f"  server CPU {used:.1f} s, {used / wall:.2f} cores on average over the run")
    for e in run.errors[:5]:
        print("  error:", e)
    return 1 if run.errors else 0


if __name__ == "__main__":
    sys.exit(main())
