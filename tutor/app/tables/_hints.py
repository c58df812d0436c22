"""Hints at a live table, worked out where they cannot slow the table (a part of
:mod:`tutor.app.tables.server`).

A hint is an analysis (thousands of playouts, about a second): it runs in a worker process of
its own, started fresh (it holds none of the server's sockets or files) and at a lower
priority, never on the server's loop; the loop only sends it the position and reads the
answer.  Each person has a budget (:meth:`tutor.app.tables.table.Table.hint_refusal`: one hint
a turn, a few a deal).  The positions asked about wait in the server, not in the worker: the
worker is given one position at a time, and a position that has moved on (the player moved, or
their time ran out) is dropped from the queue as soon as the table moves (:meth:`HintService.
sweep`) and answered at once as dropped, never worked out (a hint waits :data:`GRACE` seconds
before a worker takes it, so that one asked with the move sent at once is never begun); so
players who ask and then move without waiting never fill the queue nor keep the worker busy
for nothing (issue 41, finding 8).  The queue holds :data:`QUEUE` hints at most, then "busy"; a hint that comes back after
the position changed is dropped too (the table says so, without a card).

The worker ends with the server however the server ends: stopping the server ends it at once,
whatever it was doing; and the worker watches its parent (the kernel's parent-death signal on
Linux, and a check of its parent's id every :data:`WATCH_EVERY` seconds everywhere), so a
server killed with ``kill -9`` or a closed terminal's SIGHUP leaves no worker behind (nor the
multiprocessing resource tracker, which ends once no process holds its pipe).  The worker
sits in a process group of its own: a Ctrl-C at the server's terminal is the server's to
handle, never a traceback from the worker.

The hint's seed is drawn from what the seat can see alone (:func:`tutor.app.play.review.
view_seed`): two positions that look the same from the seat get the same hint.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tutor.engine.deal import Deal

__all__ = ["GRACE", "QUEUE", "WATCH_EVERY", "HintService"]

log = logging.getLogger("tutor.tables")

#: Hints waiting or being worked out at once, over every table; more are refused as busy.
QUEUE = 8
#: The worker's niceness: the server's loop comes first.
NICE = 10
#: Seconds between two looks of the worker at its parent (where no parent-death signal is).
WATCH_EVERY = 0.5
#: Seconds a hint waits in the queue before a worker takes it: a player who asks and moves
#: at once has moved by then, and their hint is dropped without being worked out.
GRACE = 0.05
#: Linux's ``prctl`` option that sends a signal to a process when its parent ends.
_PR_SET_PDEATHSIG = 1


def _start_worker(parent: int) -> None:
    """The worker's start: a process group of its own, a lower priority, and the end of the
    worker when its ``parent`` (the server's process id) ends, however it ends."""
    try:
        os.setpgid(0, 0)
    except OSError:
        pass
    try:
        os.nice(NICE)
    except OSError:
        pass
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the server ended before the signal was asked for
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(WATCH_EVERY)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _warm_up() -> bool:
    """Load what a hint needs (the review, the analysis, the compiled kernel where it is ready,
    its compilation started in the background where it is not), so the first hint is not the
    one that waits for it.  True when the kernel runs."""
    from tutor.app.play import review  # noqa: F401
    from tutor.engine.analysis import compiled

    return compiled()


def _work(pos: Deal, seat: int, names: list[str]) -> str:
    """The hint's words for ``seat`` at ``pos`` (in the worker), seeded from what the seat can
    see (:func:`tutor.app.play.review.view_seed`)."""
    from tutor.app.play.review import hint

    return hint(pos, seat, names).text


@dataclass(eq=False)
class _Ask:
    """One hint asked for: the position, seat and names it is worked out with, ``done`` (told
    the words, or None), and ``current`` (True while the position is still the one asked
    about)."""

    pos: Deal
    seat: int
    names: list[str]
    done: Callable[[str | None], None]
    current: Callable[[], bool]


class HintService:
    """Hints worked out in ``workers`` processes, one position each at a time (see the module
    docstring).  ``worked`` counts the hints handed to a worker, ``dropped`` those dropped
    from the queue because their position moved on."""

    def __init__(self, workers: int = 1):
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._queue: deque[_Ask] = deque()
        self._running: dict[Future, _Ask] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self.stopped = False
        self._pump_due = False
        self.worked = 0
        self.dropped = 0

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            import multiprocessing

            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._pool

    def warm(self) -> None:
        """Start the worker now and load what hints need in it (a table with hints on)."""
        if self.stopped:
            return
        try:
            self._executor().submit(_warm_up)
        except RuntimeError:
            self._pool = None

    def processes(self) -> list[int]:
        """The process ids of the workers running now (none before the first hint or warm-up,
        nor after :meth:`stop`)."""
        pool = self._pool
        return (
            [p.pid for p in getattr(pool, "_processes", {}).values() if p.pid is not None]
            if pool is not None
            else []
        )

    @property
    def busy(self) -> bool:
        """True when the queue is full (positions that have moved on dropped first)."""
        self.sweep()
        return len(self._queue) + len(self._running) >= QUEUE

    def ask(
        self,
        pos: Deal,
        seat: int,
        names: list[str],
        done: Callable[[str | None], None],
        current: Callable[[], bool] = lambda: True,
    ) -> bool:
        """Work out a hint for ``seat`` at ``pos`` (a deal the worker may read; no open
        oversight in it); ``done(text)`` is called on the server's loop with the hint's words,
        or None when none could be worked out or the position moved on before its turn in the
        worker (``current()`` False: the caller says which).  Call on the server's loop.
        False (nothing asked) when the queue is full or the service has stopped."""
        if self.stopped or self.busy:
            return False
        self._loop = loop = asyncio.get_running_loop()
        self._queue.append(_Ask(pos, seat, list(names), done, current))
        if not self._pump_due:
            self._pump_due = True
            loop.call_later(GRACE, self._pump_later)
        return True

    def _pump_later(self) -> None:
        self._pump_due = False
        self._pump()

    def sweep(self) -> int:
        """Drop every queued hint whose position has moved on, each answered at once
        (``done(None)``); returns how many.  The server calls it after every change of its
        tables (cheap: a look at each queued hint)."""
        if not self._queue:
            return 0
        keep: deque[_Ask] = deque()
        gone: list[_Ask] = []
        for a in self._queue:
            (keep if a.current() else gone).append(a)
        self._queue = keep
        self.dropped += len(gone)
        for a in gone:
            a.done(None)
        return len(gone)

    def _pump(self) -> None:
        """Give the workers the next positions still current (one each at a time)."""
        while not self.stopped and self._queue and len(self._running) < self.workers:
            a = self._queue.popleft()
            if not a.current():
                self.dropped += 1
                a.done(None)
                continue
            try:
                fut = self._executor().submit(_work, a.pos, a.seat, a.names)
            except RuntimeError:  # shut down, or a worker died: a new pool next time
                self._pool = None
                a.done(None)
                continue
            self.worked += 1
            self._running[fut] = a
            loop = self._loop

            def finished(f: Future, loop: asyncio.AbstractEventLoop | None = loop) -> None:
                if loop is None:
                    return
                try:
                    loop.call_soon_threadsafe(self._landed, f)
                except RuntimeError:  # the loop has closed: the server has stopped
                    pass

            fut.add_done_callback(finished)

    def _landed(self, f: Future) -> None:
        """A hint back from the worker (on the server's loop): its asker told, the next one
        given to the worker."""
        a = self._running.pop(f, None)
        if a is None or self.stopped or f.cancelled():
            return
        exc = f.exception()
        if exc is not None:
            log.warning("a hint could not be worked out: %s: %s", type(exc).__name__, exc)
            if type(exc).__name__ == "BrokenProcessPool":
                self._pool = None
        a.done(None if exc is not None else f.result())
        self._pump()

    def stop(self) -> None:
        """Stop at once: queued hints dropped, the worker ended whatever it is doing."""
        self.stopped = True
        self._queue.clear()
        for f in list(self._running):
            f.cancel()
        self._running.clear()
        pool, self._pool = self._pool, None
        if pool is None:
            return
        procs = list(getattr(pool, "_processes", {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            try:
                p.terminate()
            except Exception:
                pass
        for p in procs:
            try:
                p.join(1.0)
            except Exception:
                pass
