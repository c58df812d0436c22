"""Hints at a live table, worked out where they cannot slow the table (a part of
:mod:`tutor.app.tables.server`).

A hint is an analysis (thousands of playouts): it runs in a worker process of its own, started
fresh (it holds none of the server's sockets or files) and at a lower priority, never on the
server's loop; the loop only sends it the position and reads the answer.  Each person has a
budget (:meth:`tutor.app.tables.table.Table.hint_refusal`: one hint a turn, a few a deal); a
position waits in a short queue (:data:`QUEUE` hints at most, then "busy"); a hint that comes
back after the position has changed is dropped (the table says so, without a card); and stopping
the server stops the worker at once, whatever it was doing.

The hint's seed is drawn from what the seat can see alone (:func:`tutor.app.play.review.
view_seed`): two positions that look the same from the seat get the same hint.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tutor.engine.deal import Deal

__all__ = ["QUEUE", "HintService"]

log = logging.getLogger("tutor.tables")

#: Hints waiting or being worked out at once, over every table; more are refused as busy.
QUEUE = 8
#: The worker's niceness: the server's loop comes first.
NICE = 10


def _start_worker() -> None:
    try:
        os.nice(NICE)
    except OSError:
        pass


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


class HintService:
    """Hints worked out in ``workers`` processes (see the module docstring)."""

    def __init__(self, workers: int = 1):
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._pending: set[Future] = set()
        self.stopped = False

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            import multiprocessing
            self._pool = ProcessPoolExecutor(self.workers,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_start_worker)
        return self._pool

    def warm(self) -> None:
        """Start the worker now and load what hints need in it (a table with hints on)."""
        if self.stopped:
            return
        try:
            self._executor().submit(_warm_up)
        except RuntimeError:
            self._pool = None

    @property
    def busy(self) -> bool:
        """True when the queue is full."""
        return len(self._pending) >= QUEUE

    def ask(self, pos: Deal, seat: int, names: list[str],
            done: Callable[[str | None], None]) -> bool:
        """Work out a hint for ``seat`` at ``pos`` (a deal the worker may read; no open
        oversight in it); ``done(text)`` is called on the server's loop with the
        hint's words, or None when none could be worked out.  False (nothing asked) when the
        queue is full or the service has stopped."""
        if self.stopped or self.busy:
            return False
        loop = asyncio.get_running_loop()
        try:
            fut = self._executor().submit(_work, pos, seat, list(names))
        except RuntimeError:            # shut down, or a worker died: a new pool next time
            self._pool = None
            return False
        self._pending.add(fut)

        def finished(f: Future) -> None:
            self._pending.discard(f)
            if self.stopped or f.cancelled():
                return
            exc = f.exception()
            if exc is not None:
                log.warning("a hint could not be worked out: %s: %s", type(exc).__name__, exc)
                if type(exc).__name__ == "BrokenProcessPool":
                    self._pool = None
            text = None if exc is not None else f.result()
            try:
                loop.call_soon_threadsafe(done, text)
            except RuntimeError:        # the loop has closed: the server has stopped
                pass
        fut.add_done_callback(finished)
        return True

    def stop(self) -> None:
        """Stop at once: queued hints dropped, the worker ended whatever it is doing."""
        self.stopped = True
        for f in list(self._pending):
            f.cancel()
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
