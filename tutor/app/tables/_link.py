"""The network side of a live table's client: a WebSocket client (``websockets``) in a thread
of its own with an asyncio loop, every message the server sends read at the edge
(:func:`~tutor.app.tables.protocol.read_server`) and put in a queue for the player's side.

A player's link reconnects by itself once its seat is taken (``tries`` > 0): websockets' own
``connect`` iterator (``async for websocket in connect(...)``) tries again after the
connection drops, waiting by its backoff with jitter (:func:`retry_delays`), and each try
joins with the seat's token, so a restarted server gives the seat back."""

from __future__ import annotations

import asyncio
import queue
import re
import shlex
import threading
import time
from collections.abc import Collection, Generator, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from tutor.app.tables import protocol as P
from tutor.app.tables.messages import Closed, Incoming, Refusal, Retrying, Welcome
from tutor.teaching.io import LearnerIO

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

__all__ = [
    "BACKOFF_SETTINGS",
    "RETRY_FACTOR",
    "RETRY_FIRST",
    "RETRY_MIN",
    "RETRY_MOST",
    "SERVER_WAIT",
    "Link",
    "Linked",
    "Rejoining",
    "retry_delays",
    "shell_lines",
]

#: The waits between tries to reconnect (:func:`retry_delays`): the first drawn at random below
#: RETRY_FIRST seconds, then RETRY_MIN seconds growing by RETRY_FACTOR a try up to RETRY_MOST.
RETRY_FIRST, RETRY_MIN, RETRY_FACTOR, RETRY_MOST = 1.0, 0.5, 1.618, 30.0

#: websockets' own settings of its backoff (environment variables), read by :func:`retry_delays`
#: each time it starts, and the wait each one sets in place of ours.
BACKOFF_SETTINGS = {
    "WEBSOCKETS_BACKOFF_INITIAL_DELAY": "first",
    "WEBSOCKETS_BACKOFF_MIN_DELAY": "least",
    "WEBSOCKETS_BACKOFF_FACTOR": "factor",
    "WEBSOCKETS_BACKOFF_MAX_DELAY": "most",
}


def retry_delays() -> Generator[float]:
    """Seconds to wait before each try to reconnect: websockets' own backoff
    (:func:`websockets.client.backoff`, the ``reconnect_delays`` of the ``connect`` iterator
    a :class:`Link` reconnects by), scaled
    for a person waiting at a table: the first wait drawn at random below :data:`RETRY_FIRST`
    (RFC 6455 7.2.3: after a server's restart its clients come back spread out, not all in
    the same instant and again in step at every try), then :data:`RETRY_MIN` growing by
    :data:`RETRY_FACTOR` a try, at most :data:`RETRY_MOST`.

    websockets' documented environment variables of its backoff
    (:data:`BACKOFF_SETTINGS`: ``WEBSOCKETS_BACKOFF_INITIAL_DELAY``, ``_MIN_DELAY``,
    ``_FACTOR``, ``_MAX_DELAY``), where set, take the place of these four, read when the
    waits start (a value that is not a number of seconds from 0 to 3,600, or a factor from 1
    to 10, is passed over: ours stands)."""
    import os

    from websockets.client import backoff

    waits = {"first": RETRY_FIRST, "least": RETRY_MIN, "factor": RETRY_FACTOR, "most": RETRY_MOST}
    for name, key in BACKOFF_SETTINGS.items():
        text = os.environ.get(name)
        if text is None:
            continue
        try:
            value = float(text)
        except ValueError:
            continue
        low, high = (1.0, 10.0) if key == "factor" else (0.0, 3600.0)
        if low <= value <= high:  # NaN is neither
            waits[key] = value
    return backoff(
        initial_delay=waits["first"],
        min_delay=waits["least"],
        max_delay=waits["most"],
        factor=waits["factor"],
    )


#: What a refusal of a seat taken back says when the seat came back too often: the seconds to
#: wait before the next try.
SERVER_WAIT = re.compile(r"try again in (\d+) s")


class Link:
    """The network side: a WebSocket client in a thread of its own.  ``address`` is the
    server's (``ws://host:port``); ``first`` the message sent on connecting (a join or a
    watch).  Messages received go to :attr:`inbox` (read at the edge, as their models: a
    message the client cannot read as a :class:`~tutor.app.tables.messages.Refusal` saying
    why); a connection that ends puts a :class:`~tutor.app.tables.messages.Closed`.

    With ``tries`` (a player's link), once a welcome gives the seat's token a connection that
    drops is tried again by websockets' ``connect`` iterator, at most ``tries`` times in a row
    (each announced by a :class:`~tutor.app.tables.messages.Retrying`), every try a join
    with the token; the welcome that comes back is put in the inbox as any other.  A server
    that asks for a wait ("try again in N s") is waited for; a refusal of the seat, or
    ``tries`` failures, put a ``Closed`` (``gave_up`` for the second) and end the link."""

    def __init__(self, address: str, first: dict[str, Any], tries: int = 0):
        self.address = address
        self.first = first
        self.tries = tries
        self.inbox: queue.Queue[Incoming] = queue.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ws: ClientConnection | None = None
        self._task: asyncio.Task[Any] | None = None
        self._closing = False
        self._rejoin: dict[str, Any] | None = None  # the join with the token, once welcomed
        self._failed = 0  # tries in a row that found no server
        self._floor = 0.0  # the wait the server asked for before the next try
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
        from websockets.asyncio.client import connect, process_exception
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

        self._loop = asyncio.get_running_loop()
        self._task = asyncio.current_task()

        def delays() -> Generator[float]:
            """websockets' backoff (:func:`retry_delays`), each wait announced, and at least
            what the server asked for."""
            for delay in retry_delays():
                delay, self._floor = max(delay, self._floor), 0.0
                self._failed += 1
                self.inbox.put(Retrying(attempt=self._failed + 1, tries=self.tries, delay=delay))
                yield delay

        def transient(exc: Exception) -> Exception | None:
            """A try that failed: tried again (websockets' own judgement of what is
            transient) while tries are left and the seat is ours; else the end."""
            if self._rejoin is None or self._closing or self._failed + 1 >= self.tries:
                return exc
            return process_exception(exc)

        try:
            async for ws in connect(
                self.address,
                max_size=P.MAX_SERVER_BYTES,
                compression=None,
                open_timeout=10,
                close_timeout=2,
                reconnect_delays=delays,
                process_exception=transient,
            ):
                self._ws = ws
                await ws.send(P.encode(self._rejoin or self.first))
                self._up.set()
                wait = await self._read(ws, ConnectionClosed)
                if wait is None:
                    return
                if self._rejoin is None or self._closing:
                    reason = ws.close_reason or ""
                    self.inbox.put(
                        Closed(
                            code=ws.close_code,
                            text="the connection has ended" + (f": {reason}" if reason else ""),
                        )
                    )
                    return
                if wait:  # the seat came back too often: the server's wait, then again
                    self._failed += 1
                    if self._failed >= self.tries:
                        self.inbox.put(
                            Closed(text="the server kept the seat waiting", gave_up=True)
                        )
                        return
                    self.inbox.put(Retrying(attempt=self._failed + 1, tries=self.tries, delay=wait))
                    await asyncio.sleep(wait)
                else:  # the first try comes at once: a server that is back answers it
                    self._failed = 0
                    self.inbox.put(Retrying(attempt=1, tries=self.tries, delay=0.0))
        except asyncio.CancelledError:  # closed while waiting to try again
            self.inbox.put(Closed(text="the connection has ended"))
        except (TimeoutError, OSError, InvalidHandshake, InvalidURI) as exc:
            why = f"cannot reach {self.address}: {exc or type(exc).__name__}"
            self.inbox.put(Closed(text=why, gave_up=self._rejoin is not None and not self._closing))

    async def _read(self, ws: ClientConnection, closed: type[Exception]) -> float | None:
        """Read the connection's messages into the inbox until it ends.  Returns None when the
        link is over (a rejoin refused), else the seconds the server asked to wait before the
        next try (0: none)."""
        wait = 0.0
        try:
            async for data in ws:
                try:
                    msg = P.read_server(data)
                except P.Refused as exc:
                    self.inbox.put(Refusal(text=str(exc)))
                    continue
                if isinstance(msg, Welcome) and self.tries > 0:
                    self._failed = 0
                    self._rejoin = {"type": "join", "code": self.first.get("code")}
                    self._rejoin["token"] = msg.token
                if isinstance(msg, Refusal) and self._rejoin is not None:
                    again = SERVER_WAIT.search(msg.text)
                    if again is None:  # the seat is not given back: said, and the end
                        self.inbox.put(msg)
                        self.inbox.put(Closed(text="the server refused the seat back"))
                        await ws.close()
                        return None
                    wait = float(again.group(1))
                    continue
                self.inbox.put(msg)
        except closed:
            pass
        return wait

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
        """Close the connection (and stop trying again) and wait (briefly) for the thread."""
        self._closing = True
        if self._loop is not None and not self._loop.is_closed() and self._thread.is_alive():
            try:
                if self._ws is not None:
                    fut = asyncio.run_coroutine_threadsafe(self._ws.close(1000, "bye"), self._loop)
                    fut.result(timeout=3)
            except Exception:
                pass
            task = self._task
            if task is not None and self._thread.is_alive():
                try:
                    self._loop.call_soon_threadsafe(task.cancel)
                except RuntimeError:  # the loop has closed
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
    """What a player's client says while its link takes the seat back by itself (a part of
    :class:`tutor.app.tables.client.PlayerClient`, which sets the attributes declared here and
    defines ``handle``)."""

    io: LearnerIO
    link: Linked
    address: str  # the server's, ws://host:port
    code: str  # the table's join code
    name: str
    token: str | None  # the seat's, once joined
    livery: str | None
    tries: int  # tries to reconnect before giving up (the link's)
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

    def retrying(self, msg: Retrying) -> None:
        """The link tries again by itself (:class:`Link`): said, with the wait and the try;
        the state that follows a welcome back is drawn whole."""
        what = (
            "The server has stopped (the organiser may start it again)"
            if self.stopping
            else "The connection to the table has dropped"
        )
        self.deal = -1
        self.io.say(
            f"{what}: trying again in {msg.delay:.1f} s (try {msg.attempt} of {msg.tries}).",
            style="yellow",
        )

    def gave_up(self) -> None:
        """Every try failed: said, with the command that comes back later."""
        self.io.say(
            f"The server has stopped, or cannot be reached: no answer after {self.tries} "
            "tries. Your seat stays yours; once it runs again, this takes it back:",
            style="yellow",
        )
        self.say_rejoin(style="")
