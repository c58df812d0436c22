"""The network side of a live table's client: a WebSocket client (``websockets``) in a thread
of its own with an asyncio loop, every message the server sends read at the edge
(:func:`~tutor.app.tables.protocol.read_server`) and put in a queue for the player's side."""

from __future__ import annotations

import asyncio
import queue
import threading
from typing import Any

from tutor.app.tables import protocol as P

__all__ = ["Link"]


class Link:
    """The network side: a WebSocket client in a thread of its own.  ``address`` is the
    server's (``ws://host:port``); ``first`` the message sent on connecting (a join or a
    watch).  Messages received go to :attr:`inbox` (read at the edge); a connection that ends
    puts ``{"type": "closed", "text": ...}``."""

    def __init__(self, address: str, first: dict[str, Any]):
        self.address = address
        self.first = first
        self.inbox: queue.Queue = queue.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ws = None
        self._up = threading.Event()
        self._thread = threading.Thread(target=self._run, name="laugh-table-link", daemon=True)

    def start(self, timeout: float = 15.0) -> None:
        """Connect (waits at most ``timeout`` seconds; a failure arrives as ``closed``)."""
        self._thread.start()
        self._up.wait(timeout)

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception as exc:        # whatever ends the thread is said, never a traceback
            self.inbox.put({"type": "closed", "text": f"the connection failed: {exc}"})
        finally:
            self._up.set()

    async def _main(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
        self._loop = asyncio.get_running_loop()
        try:
            async with connect(self.address, max_size=P.MAX_SERVER_BYTES, compression=None,
                               open_timeout=10, close_timeout=2) as ws:
                self._ws = ws
                await ws.send(P.encode(self.first))
                self._up.set()
                try:
                    async for data in ws:
                        try:
                            self.inbox.put(P.read_server(data))
                        except P.Refused as exc:
                            self.inbox.put({"type": "refused", "text": str(exc)})
                except ConnectionClosed:
                    pass
                reason = ws.close_reason or ""
                self.inbox.put({"type": "closed", "code": ws.close_code,
                                "text": "the connection has ended" + (f": {reason}" if reason
                                                                      else "")})
        except (OSError, InvalidHandshake, InvalidURI, asyncio.TimeoutError) as exc:
            self.inbox.put({"type": "closed", "text": f"cannot reach {self.address}: "
                                                      f"{exc or type(exc).__name__}"})

    def send(self, message: dict[str, Any]) -> None:
        """Send one message (from any thread); nothing happens once the connection is gone."""
        if self._loop is None or self._ws is None or self._loop.is_closed():
            return
        try:
            asyncio.run_coroutine_threadsafe(self._ws.send(P.encode(message)), self._loop)
        except RuntimeError:        # the loop has closed
            pass

    def close(self) -> None:
        """Close the connection and wait (briefly) for the thread."""
        if self._loop is not None and self._ws is not None and not self._loop.is_closed() \
                and self._thread.is_alive():
            try:
                fut = asyncio.run_coroutine_threadsafe(self._ws.close(1000, "bye"), self._loop)
                fut.result(timeout=3)
            except Exception:
                pass
        self._thread.join(timeout=3)

