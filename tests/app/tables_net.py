"""Helpers of the live tables' network tests: a ``laugh table serve`` process on 127.0.0.1 and
a free port, raw WebSocket clients that play at once (the protocol as a script speaks it), and
piped ``laugh table join`` processes answered line by line as a person would."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import threading
import time
from pathlib import Path

from support import ROOT, LaughProcess

from tutor.engine.observe import Observation


def env(home: Path) -> dict:
    e = dict(
        os.environ,
        LAUGH_HOME=str(home),
        COLUMNS="80",
        LINES="24",
        PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        PYTHONIOENCODING="utf-8",
    )
    e.pop("NO_COLOR", None)
    return e


#: websockets' backoff settings (read by the client's ``retry_delays``) for a client whose
#: server a test restarts: tries again within a second, not after waits growing to 30 s.
QUICK_BACKOFF = {
    "WEBSOCKETS_BACKOFF_INITIAL_DELAY": "0.2",
    "WEBSOCKETS_BACKOFF_MIN_DELAY": "0.1",
    "WEBSOCKETS_BACKOFF_FACTOR": "1.618",
    "WEBSOCKETS_BACKOFF_MAX_DELAY": "1",
}


class Server:
    """``laugh table serve --port 0 --json ARGS`` in ``folder``; :attr:`info` is its JSON line
    (address, codes, admin)."""

    def __init__(self, home: Path, folder: Path, *args: str, resume: bool = False):
        self.folder = folder
        if not resume and not {"--people", "--hold", "--start"} & set(args):
            args = (*args, "--people", "1")  # these tests begin once one person sits
        argv = ["table", "serve", "--port", "0", "--json", "--dir", str(folder), *args] + (
            ["--resume"] if resume else []
        )
        self.proc = LaughProcess(
            argv, env(home), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        ready, _, _ = select.select([self.proc.stdout], [], [], 30)
        assert ready, "the server did not start"
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read()
        self.info = json.loads(line)
        self.address = self.info["address"]
        self.code = self.info["tables"][0]["code"]

    def stop(self, sig=signal.SIGTERM, timeout: float = 20) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()  # never left running: the test fails, and says so
            self.proc.wait(5)
            raise
        finally:
            self.proc.stdout.close()
            self.proc.stderr.close()

    def log(self) -> str:
        path = self.folder / "server.log"
        return path.read_text(encoding="utf-8") if path.exists() else ""


class RawClient:
    """A script at the table through the protocol itself: every message it receives is kept
    (the text as it came); with ``play`` it makes its first legal move whenever it is to move,
    and lets play begin when it deals.  Runs in a thread until the match is over, the
    connection ends, or :meth:`close`."""

    def __init__(
        self,
        address: str,
        first: dict | None,
        play: bool = True,
        on_message=None,
        idle_from_deal: int | None = None,
    ):
        from websockets.sync.client import connect

        self._cm = connect(address, max_size=8 * 1024 * 1024, open_timeout=10)
        self.ws = self._cm.__enter__()
        self.texts: list[str] = []
        self.messages: list[dict] = []
        self.play = play
        self.idle_from_deal = idle_from_deal
        self.on_message = on_message
        self.obs: Observation | None = None
        self.deal = None
        self.seat = None
        self.token = None
        self.done = threading.Event()
        self.closed_code = None
        self.seq = 0
        self.sent_at: dict[int, float] = {}
        if first is not None:
            self.send(first)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps({"v": 1, **message}))

    def _run(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            for text in self.ws:
                self.texts.append(text)
                m = json.loads(text)
                self.messages.append(m)
                self._take(m)
                if self.on_message:
                    self.on_message(self, m)
                if m["type"] in ("match_over", "bye") and (m["type"] == "bye" or "seat" in m):
                    break
        except ConnectionClosed as exc:
            self.closed_code = exc.rcvd.code if exc.rcvd else None
        finally:
            self.done.set()

    def _take(self, m: dict) -> None:
        if m["type"] == "welcome":
            self.seat, self.token = m["seat"], m["token"]
        elif m["type"] == "state":
            earlier = () if m["deal"] != self.deal or self.obs is None else self.obs.history
            self.obs = Observation.from_json(m["obs"], earlier)
            self.deal = m["deal"]
            if (
                self.play
                and m["seated"]
                and (self.idle_from_deal is None or m["deal"] < self.idle_from_deal)
            ):
                o = self.obs
                if o.my_turn and o.turn_moves():
                    from tutor.engine.records import action_to_json

                    self.seq += 1
                    self.sent_at[self.seq] = time.monotonic()
                    self.send(
                        {
                            "type": "act",
                            "action": action_to_json(o.turn_moves()[0]),
                            "seq": self.seq,
                        }
                    )
                elif not o.started and o.seat == o.dealer and o.free_moves():
                    self.send({"type": "ready"})

    def of(self, kind: str) -> list[dict]:
        return [m for m in self.messages if m["type"] == kind]

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:
            pass
        self.thread.join(5)


_PROMPTS = (
    "Your move> ",
    "Before play (take, or Enter starts)> ",
    "Which? > ",
    "claim: which cards?> ",
)


class PipedPlayer:
    """``laugh table join ADDRESS CODE --name NAME`` with piped input, answered as its prompts
    come: at each turn ``moves`` first, then the first move it lists (``extra`` lines are
    typed at the turns after its first move, before that: a claim, ``hand``, ...); ``environ``:
    variables added to its environment."""

    def __init__(
        self,
        home: Path,
        address: str,
        code: str,
        name: str,
        extra: list[str] | None = None,
        args: list[str] | None = None,
        environ: dict[str, str] | None = None,
    ):
        self.proc = LaughProcess(
            ["table", "join", address, code, "--name", name, *(args or [])],
            {**env(home), **(environ or {})},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.out = ""
        self.extra = list(extra or [])
        self.lines_sent: list[str] = []
        self.moved = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _write(self, line: str) -> None:
        self.lines_sent.append(line)
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def _run(self) -> None:
        fd = self.proc.stdout.fileno()
        asked = False
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            self.out += chunk.decode("utf-8", "replace")
            if self.out.endswith("Your move> "):
                if self.extra and self.moved:
                    self._write(self.extra.pop(0))
                elif not asked:
                    asked = True
                    self._write("moves")
                else:
                    asked = False
                    listed = re.findall(r"Your moves: (.*)\n", self.out)
                    self._write(listed[-1].split(" | ")[0] if listed else "ld")
                    self.moved = True
            elif self.out.endswith("Before play (take, or Enter starts)> "):
                self._write("take")
            elif self.out.endswith("Which? > "):
                self._write("1")
            elif self.out.endswith("claim: which cards?> "):
                self._write("")

    def wait(self, timeout: float = 60) -> int:
        rc = self.proc.wait(timeout)
        self.thread.join(5)
        self.err = self.proc.stderr.read().decode("utf-8", "replace")
        return rc

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
