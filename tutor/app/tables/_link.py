"""The network side of a live table's client: a WebSocket client (``websockets``) in a thread
of its own with an asyncio loop, every message the server sends read at the edge
(:func:`~tutor.app.tables.protocol.read_server`) and put in a queue for the player's side."""

from __future__ import annotations

import asyncio
import queue
import re
import shlex
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from tutor.app.tables import protocol as P
from tutor.app.tables.messages import Closed, Incoming, Refusal, Welcome
from tutor.teaching.io import LearnerIO

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

__all__ = [
    "RETRY_FACTOR",
    "RETRY_FIRST",
    "RETRY_MIN",
    "RETRY_MOST",
    "Link",
    "Linked",
    "Rejoining",
    "retry_delays",
    "shell_lines",
]

#: The waits between tries to reconnect (:func:`retry_delays`): the first drawn at random below
#: RETRY_FIRST seconds, then RETRY_MIN seconds growing by RETRY_FACTOR a try up to RETRY_MOST.
RETRY_FIRST, RETRY_MIN, RETRY_FACTOR, RETRY_MOST = 1.0, 0.5, 1.618, 30.0


def retry_delays() -> Iterator[float]:
    """Seconds to wait before each try to reconnect: websockets' own backoff
    (:func:`websockets.client.backoff`, which its ``connect`` iterator reconnects by), scaled
    for a person waiting at a table: the first wait drawn at random below :data:`RETRY_FIRST`
    (RFC 6455 7.2.3: after a server's restart its clients come back spread out, not all in
    the same instant and again in step at every try), then :data:`RETRY_MIN` growing by
    :data:`RETRY_FACTOR` a try, at most :data:`RETRY_MOST`."""
    from websockets.client import backoff

    return backoff(
        initial_delay=RETRY_FIRST, min_delay=RETRY_MIN, max_delay=RETRY_MOST, factor=RETRY_FACTOR
    )


class Link:
    """The network side: a WebSocket client in a thread of its own.  ``address`` is the
    server's (``ws://host:port``); ``first`` the message sent on connecting (a join or a
    watch).  Messages received go to :attr:`inbox` (read at the edge, as their models: a
    message the client cannot read as a :class:`~tutor.app.tables.messages.Refusal` saying
    why); a connection that ends puts a :class:`~tutor.app.tables.messages.Closed`."""

    def __init__(self, address: str, first: dict[str, Any]):
        self.address = address
        self.first = first
        self.inbox: queue.Queue[Incoming] = queue.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ws: ClientConnection | None = None
        self._up = threading.Event()
        self._thread = threading.Thread(target=self._run, name="laugh-table-link", daemon=True)

    def start(self, timeout: float = 15.0) -> None:
        """Connect (waits at most ``timeout`` seconds; a failure arrives as ``closed``)."""
        self._thread.start()
        self._up.wait(timeout)

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception as exc:  # whatever ends the thread is said, never a traceback
            self.inbox.put(Closed(text=f"the connection failed: {exc}"))
        finally:
            self._up.set()

    async def _main(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

        self._loop = asyncio.get_running_loop()
        try:
            async with connect(
                self.address,
                max_size=P.MAX_SERVER_BYTES,
                compression=None,
                open_timeout=10,
                close_timeout=2,
            ) as ws:
                self._ws = ws
                await ws.send(P.encode(self.first))
                self._up.set()
                try:
                    async for data in ws:
                        try:
                            self.inbox.put(P.read_server(data))
                        except P.Refused as exc:
                            self.inbox.put(Refusal(text=str(exc)))
                except ConnectionClosed:
                    pass
                reason = ws.close_reason or ""
                self.inbox.put(
                    Closed(
                        code=ws.close_code,
                        text="the connection has ended" + (f": {reason}" if reason else ""),
                    )
                )
        except (TimeoutError, OSError, InvalidHandshake, InvalidURI) as exc:
            self.inbox.put(Closed(text=f"cannot reach {self.address}: {exc or type(exc).__name__}"))

    def wait_for(self, kinds: Collection[str], seconds: float) -> Incoming | None:
        """The first message of the inbox whose ``type`` is one of ``kinds``, waiting at most
        ``seconds`` for it (the messages of other types before it are passed over); None when
        none came in time."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                msg = self.inbox.get(timeout=left)
            except queue.Empty:
                return None
            if msg.type in kinds:
                return msg
        return None

    def send(self, message: Mapping[str, object]) -> None:
        """Send one message (from any thread); nothing happens once the connection is gone."""
        if self._loop is None or self._ws is None or self._loop.is_closed():
            return
        try:
            asyncio.run_coroutine_threadsafe(self._ws.send(P.encode(message)), self._loop)
        except RuntimeError:  # the loop has closed
            pass

    def close(self) -> None:
        """Close the connection and wait (briefly) for the thread."""
        if (
            self._loop is not None
            and self._ws is not None
            and not self._loop.is_closed()
            and self._thread.is_alive()
        ):
            try:
                fut = asyncio.run_coroutine_threadsafe(self._ws.close(1000, "bye"), self._loop)
                fut.result(timeout=3)
            except Exception:
                pass
        self._thread.join(timeout=3)


def shell_lines(words: list[str], width: int, indent: str = "  ") -> list[str]:
    """A command (its ``words``, quoted for a shell) as lines of at most ``width`` columns where
    it can be: one line where it fits, else lines ending in `` \\`` (the shell's line
    continuation) with the words after the first indented further; a word is never broken (one
    too wide stands whole on its line)."""
    quoted = [shlex.quote(w) for w in words]
    one = indent + " ".join(quoted)
    if len(one) <= width:
        return [one]
    lines: list[str] = []
    line = indent + quoted[0]
    for w in quoted[1:]:
        if len(line) + 1 + len(w) + 2 <= width:
            line += " " + w
        else:
            lines.append(line + " \\")
            line = indent + "  " + w
    lines.append(line)
    return lines


class Linked(Protocol):
    """What a player's client asks of its network side: a :class:`Link` (a test's stand-in has
    the same): the ``inbox`` of messages received, ``start``, ``send`` and ``close``."""

    inbox: queue.Queue[Incoming]

    def start(self, timeout: float = 15.0) -> None: ...

    def send(self, message: Mapping[str, object]) -> None: ...

    def close(self) -> None: ...


class Rejoining:
    """A player's client taking its seat back by itself when the connection drops (a part of
    :class:`tutor.app.tables.client.PlayerClient`, which sets the attributes declared here and
    defines ``handle``)."""

    io: LearnerIO
    link: Linked
    address: str  # the server's, ws://host:port
    code: str  # the table's join code
    name: str
    token: str | None  # the seat's, once joined
    livery: str | None
    tries: int  # tries to reconnect before giving up
    connect: Callable[[dict[str, Any]], Link]  # a link sending this first message
    lost: bool  # the connection dropped
    deal: int  # the deal's number on the wire (-1: none)
    stopping: bool  # the server said it stops (a bye)

    if TYPE_CHECKING:

        def handle(self, msg: Incoming) -> None: ...  # PlayerClient

    def rejoin_command(self) -> list[str]:
        """The command that takes this seat back, as words (the seat code alone does it: the
        seat keeps its name and livery)."""
        if self.token:
            return [
                "laugh",
                "table",
                "join",
                self.address,
                self.code,
                "--seat-code",
                P.spaced(self.token),
            ]
        return ["laugh", "table", "join", self.address, self.code, "--name", self.name]

    def say_rejoin(self, style: str = "dim") -> None:
        """Print the command that takes the seat back: on one line where it fits, else on
        lines continued with a backslash (a shell reads them as one command), never a word of
        it (an address, a code, a token) broken."""
        for line in shell_lines(self.rejoin_command(), self.io.width):
            self.io.say(line, style=style, wrap=False)

    def reconnect(self) -> bool:
        """The connection has dropped: try again with the token, ``tries`` times, waiting
        before each try as :func:`retry_delays` says (a first wait drawn at random, then
        longer each time, at most :data:`RETRY_MOST`; at least as long as the server asks
        when the seat came back too often).  True when the seat is taken back; False (said,
        with the command that comes back later) when the server refuses it or every try
        fails."""
        io = self.io
        self.lost = False
        try:
            self.link.close()
        except Exception:
            pass
        delays = retry_delays()
        floor = 0.0  # the wait the server asked for, if it did
        what = (
            "The server has stopped (the organiser may start it again)"
            if self.stopping
            else "The connection to the table has dropped"
        )
        for k in range(1, self.tries + 1):
            delay, floor = max(next(delays), floor), 0.0
            io.say(
                f"{what}: trying again in {delay:.1f} s (try {k} of {self.tries}).", style="yellow"
            )
            time.sleep(delay)
            first = {"type": "join", "code": self.code, "token": self.token}
            link = self.connect(first)
            link.start()
            msg = link.wait_for(("welcome", "refused", "closed", "bye"), 15)
            if isinstance(msg, Welcome):
                self.link = link
                self.stopping = False
                self.deal = -1  # the state that follows is drawn whole
                self.handle(msg)
                return True
            link.close()
            again = (
                re.search(r"try again in (\d+) s", msg.text) if isinstance(msg, Refusal) else None
            )
            if again is not None:  # the seat came back too often: wait, then again
                floor = float(again.group(1))
                continue
            if isinstance(msg, Refusal):
                io.say(f"Refused: {msg.text}", style="yellow")
                return False
        io.say(
            f"The server has stopped, or cannot be reached: no answer after {self.tries} "
            "tries. Your seat stays yours; once it runs again, this takes it back:",
            style="yellow",
        )
        self.say_rejoin(style="")
        return False
