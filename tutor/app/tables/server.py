"""The live tables' server: one or more :class:`~tutor.app.tables.table.Table` on an asyncio
WebSocket server (the ``websockets`` library), the referee of every deal.

Each connection sends JSON messages (:mod:`tutor.app.tables.protocol`); the server reads each
one at the edge (text, size, JSON, version, keys: :func:`~tutor.app.tables.protocol.
read_client`), under a rate limit per connection, and hands it to its table with the server's
clock time of its arrival (``loop.time()``, a monotonic clock): the table decides everything,
claim races and clocks included, by the engine.  What the tables put out is sent to each
connection in order through a queue of its own (a slow reader never holds up the others), and
each connection receives only its seat's observation (or a spectator's): never another hand,
never the pack.  A message that is malformed, too large, too frequent, or acts for another
seat is answered with one ``refused`` line; the table goes on.  A frame over
:data:`~tutor.app.tables.protocol.MAX_FRAME_BYTES` closes its connection (code 1009).

No guest slows another (:mod:`~tutor.app.tables._guard`, :mod:`~tutor.app.tables._hints`):
connections are counted in all from the moment they are accepted, and turned away beyond the
limit; those of one address that have not joined are limited too, its oldest closed to make
room for its newest; a connection that has not joined (or watched) within
:attr:`~tutor.app.tables._guard.Limits.join_seconds` is closed; every code is compared first
and a right one is never refused, while wrong ones, per address and over all, make the codes
that follow wait (behind the organiser's proxy, ``proxy``, each connection has the address it
forwards for); a seat taken back too often in a short while waits; hints are worked out in a
worker process, a few a deal; refusals and errors are logged one line each, at most once a
second for each kind (never a traceback); the organiser's overview goes out at most four times
a second.  Stopping (Ctrl-C, SIGTERM,
SIGHUP) stops at once: queued hints are dropped, every table is saved where it stands.

Files (:mod:`~tutor.app.tables._server_files`): ``server.json`` (0600), each table's journal of the
deal in play, records and match, ``events.jsonl`` (the organiser's log), ``sheets/``,
``server.log``.  :func:`~tutor.app.tables._state.load_state` reads them back for
``--resume``; ``pane(text)``, when given, is told of each event of the log as it happens (the
server's terminal).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
import signal
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutor.app.tables import protocol as P
from tutor.app.tables._guard import Guard, Limits, Quiet
from tutor.app.tables._hints import HintService
from tutor.app.tables._limits import Bucket
from tutor.app.tables._outgoing import HISTORY, HISTORY_EVENTS, OVERVIEW_EVERY, Outgoing
from tutor.app.tables._outgoing import Conn as _Conn
from tutor.app.tables._server_files import ServerFiles
from tutor.app.tables._state import STATE_FORMAT, load_state, state_json
from tutor.app.tables._web import WebFiles
from tutor.app.tables.protocol import code_words
from tutor.app.tables.table import EVERYONE, Message, Table
from tutor.app.tables.tournament import (
    StandingData,
    StandingsData,
    TeamData,
    Tournament,
    teams,
)
from tutor.engine.deal import Deal
from tutor.engine.errors import UsageError
from tutor.puzzles.board import ruleset_scoring_line as scoring_words

if TYPE_CHECKING:
    from websockets.asyncio.server import ServerConnection

__all__ = [
    "STATE_FORMAT",
    "CannotListen",
    "TableServer",
    "code_words",
    "load_state",
    "new_code",
]

log = logging.getLogger("tutor.tables")

#: Refused messages a connection may send before it is closed (code 1008).
MAX_REFUSED = 2000


def new_code(length: int = P.JOIN_CODE) -> str:
    """A fresh code: ``length`` letters and digits that cannot be misread
    (:data:`~tutor.app.tables.protocol.CODE_LETTERS`)."""
    return "".join(secrets.choice(P.CODE_LETTERS) for _ in range(length))


class CannotListen(UsageError):
    """The server could not listen on the address asked for (in use, not this machine's)."""


class TableServer(Outgoing):
    """The server of ``tables`` (played as one :class:`~tutor.app.tables.tournament.
    Tournament`) with the organiser's ``admin`` code, keeping its files in ``folder`` (None:
    nothing is written).  ``published``: standings rounds already out (a resumed server's);
    ``exit_when_done``: stop once every table's match is over; ``limits`` the connections'
    (:class:`~tutor.app.tables._guard.Limits`); ``pane(text)`` is told of every line of the
    log (the server's terminal); ``proxy``: the server is behind a proxy the organiser trusts,
    and each connection's address is the last its ``X-Forwarded-For`` names (else that header
    is ignored: anyone could write it)."""

    def __init__(
        self,
        tables: list[Table],
        admin: str,
        folder: Path | None,
        published: int = 0,
        exit_when_done: bool = False,
        *,
        limits: Limits | None = None,
        pane: Callable[[str], None] | None = None,
        origins: tuple[str, ...] = (),
        proxy: bool = False,
    ):
        self.exit_when_done = exit_when_done
        self.proxy = proxy
        self.tables = tables
        self.admin = admin
        self.folder = folder
        self.pane = pane
        self.tournament = Tournament(tables, published)
        self.conns: set[_Conn] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.guard = Guard(limits or Limits())
        self.quiet = Quiet(log)
        self.hints = HintService()
        self.files = ServerFiles(folder, self._problem, self._later) if folder else None
        self._wake: asyncio.TimerHandle | None = None
        self._wake_at: float | None = None
        #: The clock time each paused table paused at (:meth:`_pause`).
        self._paused_at: dict[int, float] = {}
        self._overview_shown: dict[int, dict] = {}
        self._stop: asyncio.Event | None = None
        self._stopping = False
        self._overview_budget = Bucket.every(OVERVIEW_EVERY, 0.0)
        self._overview_timer: asyncio.TimerHandle | None = None
        self.history: deque[Message] = deque(maxlen=HISTORY)
        self.last_standings: dict[str, Any] | None = None
        if folder is not None and any(t.match.deals for t in tables):  # resumed
            self.history.extend(_past_events(folder / "events.jsonl"))
            if published:
                self.last_standings = dict(self.tournament.message(published))
        self.address: str | None = None
        self.web = WebFiles(origins, lambda text: self.quiet.say("origin", logging.WARNING, text))
        for t in tables:
            t.gate = self.tournament.gate
            t.on_finished = self._finished
            t.on_progress = self._progress

    # -- running ------------------------------------------------------------------------------

    async def run(self, host: str, port: int, ready: Callable[[TableServer], None]) -> None:
        """Serve on ``host``:``port`` (0: a free port) until :meth:`stop` (or SIGINT/SIGTERM);
        ``ready(server)`` is called once listening (:attr:`address` is set).  Saves and says
        goodbye to every connection before returning."""
        from websockets.asyncio.server import serve

        self.loop = loop = asyncio.get_running_loop()
        loop.set_exception_handler(self._loop_error)
        self._stop = asyncio.Event()
        hup = getattr(signal, "SIGHUP", None)  # a closed terminal: stopped and saved too
        for sig in (signal.SIGINT, signal.SIGTERM, *([hup] if hup is not None else [])):
            try:
                loop.add_signal_handler(sig, self._stop.set)
            except (NotImplementedError, RuntimeError, ValueError):  # not the main thread
                pass
        now = loop.time()
        for t in self.tables:  # the tables' clocks were set when they were made
            if t.next_deal_at is not None:
                t.next_deal_at = (
                    now + (t.settings.start or 0.0) if t.deal is None else max(t.next_deal_at, now)
                )
            elif t.match.deals and not t.match.is_over or t._partial is not None:
                t.next_deal_at = now  # resumed: play on at once
        try:
            server = await serve(
                self._handler,
                host,
                port,
                max_size=P.MAX_FRAME_BYTES,
                max_queue=64,
                compression=None,
                ping_interval=20,
                ping_timeout=20,
                open_timeout=5,
                close_timeout=2,
                create_connection=self._gated(),
                process_request=self.web.process_request,
            )
        except OSError as exc:
            raise CannotListen(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        async with server:
            sock = next(iter(server.sockets))
            h, p = sock.getsockname()[:2]
            self.address = f"ws://{h if ':' not in h else '[' + h + ']'}:{p}"
            log.info("serving on %s", self.address)
            self._save_all()  # every file there before anything is played
            if any(t.settings.hint for t in self.tables):
                self.hints.warm()
            ready(self)
            self._flush(loop.time())
            await self._stop.wait()
            log.info("stopping")
            self._stopping = True  # the clocks stop and nothing more is taken, so
            self.hints.stop()  # what is saved now is where every table stands
            if self.hints.worked or self.hints.dropped:
                log.info(
                    "hints: %d worked out, %d dropped before a worker took them (their "
                    "position had moved on)",
                    self.hints.worked,
                    self.hints.dropped,
                )
            if self._wake is not None:
                self._wake.cancel()
            self._save_all()
            for c in list(self.conns):
                self._send(
                    c,
                    {
                        "type": "bye",
                        "reason": "stopping",
                        "text": "The server is stopping; the match is saved and "
                        "resumes with --resume.",
                    },
                )
                c.closing = True
            await asyncio.sleep(0.05)
            for c in list(self.conns):
                await c.ws.close(1001, "server stopping")
        if self._wake is not None:
            self._wake.cancel()
        self.quiet.flush()
        if self.files is not None:
            self.files.close()

    def stop(self) -> None:
        """Stop serving (thread-safe)."""
        if self.loop is not None and self._stop is not None:
            self.loop.call_soon_threadsafe(self._stop.set)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The loop's errors (an accept that found no descriptor, a callback that failed):
        one line each, at most once a second for each kind, never a traceback."""
        exc = context.get("exception")
        text = context.get("message", "error")
        if exc is not None:
            text += f": {type(exc).__name__}: {exc}"
        self.quiet.say(f"loop:{context.get('message', '')[:40]}", logging.ERROR, text)

    def _gated(self) -> type[ServerConnection]:
        """The connection class of :func:`websockets.asyncio.server.serve`: each connection
        counted by the guard from the moment it is accepted, and cut at once beyond the
        limits (before its handshake)."""
        from websockets.asyncio.server import ServerConnection

        srv = self

        class Gated(ServerConnection):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                super().connection_made(transport)
                peer = transport.get_extra_info("peername")
                self.laugh_address = str(peer[0]) if peer else "?"
                # behind a trusted proxy, a connection waits under its own address, once its
                # request has said it (_handler): the proxy's address is everyone's
                why = srv.guard.admit(
                    self.laugh_address, None if srv.proxy else self, srv._close_waiting
                )
                self.laugh_counted = why is None
                if why is not None:
                    srv.quiet.say("turned away", logging.WARNING, f"turned away: {why}")
                    self.transport.abort()

            def connection_lost(self, exc: Exception | None) -> None:
                if getattr(self, "laugh_counted", False):
                    self.laugh_counted = False
                    srv.guard.gone(self.laugh_address, self)
                super().connection_lost(exc)

        return Gated

    def _close_waiting(self, ws: Any) -> None:
        """The oldest connection of an address that has not joined, closed to make room for
        its newest (:meth:`~tutor.app.tables._guard.Guard.admit`)."""
        if ws is None:
            return
        self.quiet.say(
            "made room",
            logging.WARNING,
            f"{getattr(ws, 'laugh_address', '?')}: "
            "the oldest connection that had not joined closed to make room",
        )
        transport = getattr(ws, "transport", None)
        if transport is not None:
            transport.abort()

    def _forwarded(self, ws: ServerConnection, address: str) -> str:
        """The address a trusted proxy forwards for (the last of ``X-Forwarded-For``, the one
        the proxy itself added), counted from now on; ``address`` without ``proxy``."""
        request = getattr(ws, "request", None)
        if not self.proxy or request is None:
            return address
        given = request.headers.get_all("X-Forwarded-For")
        last = given[-1].split(",")[-1].strip() if given else ""
        real = last[:64] if last and last.isprintable() else address
        if getattr(ws, "laugh_counted", False):
            self.guard.moved(ws, getattr(ws, "laugh_address", address), real, self._close_waiting)
            ws.laugh_address = real  # type: ignore[attr-defined]  # connection_lost reads it
        return real

    # -- connections ------------------------------------------------------------------------

    async def _handler(self, ws: ServerConnection) -> None:
        from websockets.exceptions import ConnectionClosed
        from websockets.protocol import State

        loop = self._running
        peer = _peer(ws)
        address = self._forwarded(ws, getattr(ws, "laugh_address", peer.rsplit(":", 1)[0]))
        if address != peer.rsplit(":", 1)[0]:
            peer = f"{address} (via {peer})"
        conn = _Conn(ws, peer, address, P.RateLimit(now=loop.time()))
        self.conns.add(conn)
        writer = asyncio.create_task(self._writer(conn))
        timer = loop.call_later(self.guard.limits.join_seconds, self._no_join, conn)
        try:
            async for data in ws:
                if self._stopping:  # saved already: nothing more is played
                    continue
                now = loop.time()
                if not conn.limit.allow(now):
                    n = conn.limit.notice_due(now)
                    if n:
                        self._refuse(
                            conn, f"too many messages: at most {P.RATE:g} a second ({n} refused)"
                        )
                    if conn.limit.total_refused > MAX_REFUSED:
                        self.quiet.say(
                            "flood",
                            logging.WARNING,
                            f"{peer}: closed after {conn.limit.total_refused} messages refused",
                        )
                        await ws.close(1008, "too many messages")
                        break
                    continue
                try:
                    msg = P.read_client(data)
                    if msg.type in ("join", "watch") and conn.table is None and not conn.admin:
                        timer.cancel()  # a code given: compared, late if need be
                        wait = self.guard.delay(conn.address)
                        if wait:
                            await asyncio.sleep(wait)
                            if self._stopping or ws.state is not State.OPEN:
                                break  # closed while it waited: never checked
                            now = loop.time()
                    if self._handle(conn, msg, now):
                        conn.limit.refund()  # a move taken: the deal's pace, not a flood
                except Exception as exc:  # the table goes on, whatever came
                    if not isinstance(exc, P.Refused):
                        self.quiet.say(
                            "handle",
                            logging.ERROR,
                            f"{peer}: a message could not be handled: {type(exc).__name__}: {exc}",
                        )
                        exc = P.Refused("the server could not take that message")
                    self._refuse(conn, str(exc))
                    if conn.closing:
                        await asyncio.sleep(0.05)
                        await ws.close(1008, "refused")
                        break
                self._flush(loop.time())
        except ConnectionClosed as exc:
            if exc.rcvd is None and exc.sent is not None and exc.sent.code == 1009:
                self.quiet.say(
                    "frame",
                    logging.WARNING,
                    f"{peer}: a frame over {P.MAX_FRAME_BYTES} bytes: connection closed",
                )
        except Exception as exc:  # never a traceback per connection
            self.quiet.say(
                "connection",
                logging.ERROR,
                f"{peer}: connection ended: {type(exc).__name__}: {exc}",
            )
        finally:
            timer.cancel()
            self.conns.discard(conn)
            writer.cancel()
            if (
                conn.table is not None
                and conn.seat is not None
                and not conn.admin
                and not any(c.table is conn.table and c.seat == conn.seat for c in self.conns)
            ):
                conn.table.leave(conn.seat, loop.time())
                log.info("%s: %s left table %d", peer, conn.name, conn.table.number)
                if not self._stopping:
                    self._flush(loop.time())

    def _no_join(self, conn: _Conn) -> None:
        if conn.table is None and not conn.admin and not conn.closing:
            conn.closing = True
            self.quiet.say(
                "no join",
                logging.INFO,
                f"{conn.peer}: closed: no join within {self.guard.limits.join_seconds:g} s",
            )
            asyncio.ensure_future(conn.ws.close(1008, "no join"))

    async def _writer(self, conn: _Conn) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            while True:
                text = await conn.queue.get()
                await conn.ws.send(text)
        except (ConnectionClosed, asyncio.CancelledError, OSError):
            return

    def _refuse(self, conn: _Conn, text: str) -> None:
        self.quiet.say(f"refused:{text[:24]}", logging.WARNING, f"{conn.peer}: refused: {text}")
        self._send(conn, {"type": "refused", "text": text})

    # -- messages ---------------------------------------------------------------------------

    def _handle(self, conn: _Conn, msg: P.ClientMessage, now: float) -> bool:
        """Act on one checked message, dispatched once on its model (the tagged union
        :data:`~tutor.app.tables.protocol.ClientMessage`); True when its table took it as a
        move of the deal (not counted by the rate limit)."""
        match msg:
            case P.PingMessage():
                self._send(conn, {"type": "pong", "seq": msg.seq})
            case P.JoinMessage():
                self._join(conn, msg, now)
            case P.WatchMessage():
                self._watch(conn, msg)
            case P.StartMessage() | P.ReleaseMessage() | P.EmptyMessage():
                if not conn.admin:
                    raise P.Refused(
                        f"only the organiser may {msg.type} (watch with the organiser's code first)"
                    )
                self._organise(conn, msg, now)
            case P.LeaveMessage():
                t, seat, name = conn.place()
                conn.closing = True
                t.leave(seat, now, meant=True)
                log.info("%s: %s leaves table %d", conn.peer, name, t.number)
                asyncio.ensure_future(conn.ws.close(1000, "left"))
            case P.HintMessage():
                self._seated(conn)
                self._hint(conn, msg)
            case P.ActMessage():
                t, seat = self._seated(conn)
                return self._took(t, seat, t.act(seat, msg, now))
            case P.ClaimMessage():
                t, seat = self._seated(conn)
                return self._took(t, seat, t.claim(seat, msg, now))
            case P.ReadyMessage():
                t, seat = self._seated(conn)
                return self._took(t, seat, t.ready(seat, msg, now))
        return False

    def _watch(self, conn: _Conn, msg: P.WatchMessage) -> None:
        """The organiser's ``watch``: the history since the start, then where it stands."""
        if conn.table is not None or conn.admin:
            raise P.Refused("this connection has joined already")
        if not hmac.compare_digest(code_words(msg.admin).encode(), self.admin.encode()):
            self._missed(conn)
            raise P.Refused("that is not the organiser's code")
        conn.admin = True
        self.guard.settled(conn.address, conn.ws)
        log.info("%s: the organiser watches", conn.peer)
        for past in self.history:
            self._send(conn, {**past, "past": True})
        if self.last_standings is not None:
            self._send(conn, self.last_standings)
        self._send(conn, self._overview())

    def _seated(self, conn: _Conn) -> tuple[Table, int]:
        """The table and seat of a person who may play now (a hint, a move, a claim,
        ``ready``); else Refused: not joined, the table paused, or seated only from the next
        deal."""
        t, seat, name = conn.place()
        if t.paused:
            raise P.Refused(
                f"table {t.number} is paused until the server can save its play: "
                "nothing of yours was taken; send it again when it goes on"
            )
        if not t.seated(seat, name):
            raise P.Refused("you take your seat at the next deal: until then you watch")
        return t, seat

    @staticmethod
    def _took(t: Table, seat: int, taken: bool) -> bool:
        """``taken``: a move the table took, its person at the table (the seat is not
        squatted)."""
        if taken:
            t.seats[seat].played = True
        return taken

    def _missed(self, conn: _Conn) -> None:
        """A wrong code: it spends a guess and ends its connection."""
        conn.closing = True
        self.guard.missed(conn.address)

    def _join(self, conn: _Conn, msg: P.JoinMessage, now: float) -> None:
        if conn.table is not None or conn.admin:
            raise P.Refused("this connection has joined already")
        code = code_words(msg.code).encode()
        table = None
        for t in self.tables:  # every code compared, in constant time
            if hmac.compare_digest(code, t.code.encode()):
                table = t
        if table is None:
            self._missed(conn)
            raise P.Refused("no table has that code")
        try:
            joined = table.join(msg.name, msg.token, now, msg.livery)
        except P.WrongSeatCode:
            self._missed(conn)  # a guess at a seat code, as at a table's code
            raise
        except P.Refused:
            conn.closing = True  # one join a connection: a refused one ends it
            raise
        self.guard.settled(conn.address, conn.ws)
        for c in list(self.conns):
            if c is not conn and c.table is table and c.seat == joined.seat and not c.admin:
                c.closing = True  # the same person on a new connection: the old one goes
                self._send(
                    c,
                    {
                        "type": "bye",
                        "reason": "replaced",
                        "text": "You joined from another connection.",
                    },
                )
                asyncio.ensure_future(c.ws.close(1000, "replaced"))
                c.table = None
        conn.table, conn.seat = table, joined.seat
        st = table.seats[joined.seat]
        conn.name = st.name if joined.now else st.incoming
        if not joined.quiet:
            log.info(
                "%s: %s %s table %d seat %d",
                conn.peer,
                conn.name,
                "is back at" if joined.back else "at",
                table.number,
                joined.seat,
            )
        s = table.settings
        self._send(
            conn,
            {
                "type": "welcome",
                "table": table.number,
                "seat": joined.seat,
                "token": joined.token,
                "name": conn.name,
                "seated": joined.now,
                "back": joined.back,
                "names": table.names,
                "ruleset": s.ruleset.id,
                "players": s.players,
                "level": s.level.name,
                "hint": s.hint,
                "hints": s.hints,
                "wait": s.wait,
                "move_time": s.move_time,
                "reserve": s.reserve,
                "games": len(table.match.games),
                "played": len(table.match.deals),
                "duplicate": s.duplicate,
                "livery": st.livery,
                "scoring": scoring_words(s.ruleset, s.players),
            },
        )
        if joined.back:  # nothing saved has changed; a quiet one tells nobody else
            if joined.quiet:
                self._states(table, [conn], now)
            else:
                table.changed = True
            return
        table.changed = True
        self._save_state()

    def _organise(
        self, conn: _Conn, msg: P.StartMessage | P.ReleaseMessage | P.EmptyMessage, now: float
    ) -> None:
        """The organiser's ``start``, ``release`` and ``empty``."""
        if msg.table is not None and msg.table > len(self.tables):
            raise P.Refused(f"table: from 1 to {len(self.tables)}")
        if not isinstance(msg, P.StartMessage):  # release, empty: a table and a seat
            t, seat = self.tables[msg.table - 1], msg.seat
            if seat >= len(t.seats):
                raise P.Refused(f"seat: from 0 to {len(t.seats) - 1}")
            if isinstance(msg, P.ReleaseMessage):
                who, code = t.release(seat)
                t._log(
                    "released",
                    f"the organiser released seat {seat} ({who}): a new seat "
                    "code takes it back now",
                    seat=seat,
                )
                self._send(
                    conn,
                    {
                        "type": "reply",
                        "ok": True,
                        "to": "release",
                        "seq": None,
                        "text": f"Seat {seat} of table {t.number} ({who}): the new "
                        f"seat code is {P.spaced(code)}.",
                    },
                )
            else:
                who = t.empty(seat, now)
                t._log(
                    "emptied",
                    f"the organiser emptied seat {seat} ({who}): a computer player takes it",
                    seat=seat,
                )
                for c in list(self.conns):
                    if c.table is t and c.seat == seat and not c.admin:
                        c.closing = True
                        self._send(
                            c,
                            {
                                "type": "bye",
                                "reason": "emptied",
                                "text": "The organiser gave your seat to a computer player.",
                            },
                        )
                        asyncio.ensure_future(c.ws.close(1000, "emptied"))
                        c.table = None
            self._save_state()
            return
        started = [
            t
            for t in (self.tables if msg.table is None else [self.tables[msg.table - 1]])
            if t.start(now)
        ]
        if not started and msg.table is not None:
            raise P.Refused(f"table {msg.table} has begun already")

    def _hint(self, conn: _Conn, msg: P.HintMessage) -> None:
        t, seat, _ = conn.place()

        def reply(ok: bool, text: str) -> None:
            self._send(
                conn, {"type": "reply", "ok": ok, "to": "hint", "seq": msg.seq, "text": text}
            )

        why = t.hint_refusal(seat)
        if why is None and self.hints.busy:
            why = "The hints are busy: ask again in a moment."
        if why is not None:
            reply(False, why)
            return
        asked = (t.deal_number, t.turn_index)

        def done(text: str | None) -> None:
            if conn.closing or conn not in self.conns or self._stopping:
                return
            if (t.deal_number, t.turn_index) != asked or not t.playing:
                reply(False, "The hint came after the position changed: it is dropped.")
            elif text is None:
                reply(False, "No hint could be worked out.")
            else:
                reply(True, "Hint: " + text)

        pos = t.hint_position(seat)
        if pos is None:  # the refusal above says why; nothing to work out
            reply(False, "No hint now: it is not your turn.")
            return
        if self.hints.ask(
            pos, seat, t.names, done, lambda: (t.deal_number, t.turn_index) == asked and t.playing
        ):
            t.hint_taken(seat)
        else:
            reply(False, "The hints are busy: ask again in a moment.")

    # -- files --------------------------------------------------------------------------------

    def _problem(self, text: str) -> None:
        """A save that failed, or succeeded after failing: logged and on the pane."""
        log.error("%s", text)
        if self.pane is not None:
            self.pane(f"{time.strftime('%H:%M:%S')} {text}")

    def _later(self, seconds: float, fn: Callable[[], Any]) -> None:
        """Run ``fn`` (a retry of the saves) after ``seconds``, then play on: a paused table
        whose files are written now goes on (:meth:`_flush`)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():

            def run() -> None:
                fn()
                self._flush(loop.time())

            loop.call_later(seconds, run)

    def _progress(self, table: Table, deal: Deal, new: bool) -> None:
        if self.files is not None and not self.files.journal(
            table.number, len(table.match.deals), deal, new
        ):
            self._pause(table)

    def _pause(self, table: Table) -> None:
        """Table ``table``'s files cannot be written: it plays nothing and shows nothing new
        (what it has done stays in its outbox) until they are; its players and the organiser
        are told at once (issue 41: no action shown to a player before it is on disk)."""
        if table.paused:
            return
        table.paused = True
        self._paused_at[table.number] = self._running.time() if self.loop else 0.0
        text = (
            f"Table {table.number} is paused: the server cannot save its play (its disk "
            "may be full). Nothing is lost; it goes on by itself once it can save."
        )
        for c in self.conns:
            if not c.closing and (c.admin or c.table is table):
                self._send(c, {"type": "say", "table": table.number, "text": text})
        for c in self.conns:
            if c.admin and not c.closing:
                self._send(
                    c,
                    {
                        "type": "log",
                        "table": table.number,
                        "event": "paused",
                        "text": text,
                        "game": len(table.match.deals),
                    },
                )

    def _finished(self, table: Table, deal: Deal, t: float) -> None:
        if self.files is not None:
            if not self.files.finished(table.number, deal, table.match.dumps):
                self._pause(table)
            if table.match.is_over:
                self._sheets(table)
        standings = self.tournament.finished(table)
        if standings is not None:
            self.last_standings = dict(standings)
            for c in self.conns:  # the organiser: once, not once a table
                if c.admin and not c.closing:
                    self._send(c, standings)
            for other in self.tables:
                other.outbox.append((EVERYONE, standings))
                if other.next_deal_at is not None:
                    other.next_deal_at = max(other.next_deal_at, t + other.settings.gap)
            table._log("standings", _standings_line(standings))
            if standings["final"]:
                self._standings_files(table, standings)
        self._save_state()

    def _standings_files(self, table: Table, standings: StandingsData) -> None:
        """The final standings written as ``standings.csv`` and ``standings.html`` in the
        server's folder, and said in the log (where they are)."""
        from tutor.app.tables._standings_files import standings_csv, standings_html

        if self.files is None or self.folder is None:
            return
        rows, tms, dup = standings["rows"], standings["teams"], standings["duplicate"]
        s = self.tables[0].settings
        head = (
            f"{s.ruleset.title}: {len(self.tables)} table{'s' if len(self.tables) > 1 else ''}"
            f" of {s.players}{', duplicate play' if dup else ''}; written "
            f"{time.strftime('%Y-%m-%d %H:%M')}."
        )
        written = [
            p
            for p, text in (
                (self.folder / "standings.csv", standings_csv(rows, tms, dup)),
                (self.folder / "standings.html", standings_html(rows, tms, dup, head)),
            )
            if self.files.write(p, text)
        ]
        if written:
            table._log(
                "files",
                f"The final standings are written in {self.folder}: "
                + " and ".join(p.name for p in written),
            )

    def _sheets(self, table: Table) -> None:
        from tutor.app.match_sheet import sheet_html

        if self.files is None or self.folder is None:
            return
        names = table.names
        since = [st.since if st.name is not None else 0 for st in table.seats]
        liveries = [st.livery if st.name is not None else None for st in table.seats]
        totals = {r["livery"]: r["score"] for r in teams(self.tournament.standings())}
        written = []
        for q in range(len(table.seats)):
            if table.person(q):
                path = self.folder / "sheets" / f"table-{table.number}-seat-{q}.html"
                if self.files.write(
                    path,
                    sheet_html(table.match, names, q, since=since, liveries=liveries, teams=totals),
                ):
                    written.append(path.name)
        if written:
            table._log(
                "files",
                f"Table {table.number}'s score sheets are written in "
                f"{self.folder / 'sheets'}: " + ", ".join(written),
            )

    def state(self) -> dict[str, object]:
        """What ``server.json`` holds (:func:`~tutor.app.tables._state.state_json`)."""
        return state_json(self.tables, self.admin, self.tournament.published)

    def _save_state(self) -> None:
        if self.files is not None:
            self.files.save_state(self.state())

    def _save_all(self) -> None:
        """Everything, as the server stops: the state and each match (the deal in play is in
        its journal already)."""
        if self.files is None:
            return
        for t in self.tables:
            self.files.save_match(t.number, t.match.dumps)
        self._save_state()


def _standings_line(st: StandingsData) -> str:
    """The log's line of a round's standings: the first six people (ranked apart from the
    computer players; by the score against those dealt the same cards under duplicate play),
    then the liveries' totals."""
    dup = st["duplicate"]
    people = [r for r in st["rows"] if r["person"]] or st["rows"]

    def score(r: StandingData | TeamData) -> str:
        return f"{r.get('dup', 0.0):+g} vs same cards ({r['score']})" if dup else str(r["score"])

    text = f"standings after round {st['round']} of {st['rounds']}: " + "; ".join(
        f"{r.get('place')}. {r['name']} (table {r['table']}) {score(r)}" for r in people[:6]
    )
    if st["teams"]:
        text += "; liveries: " + "; ".join(
            f"{x.get('place')}. {x['livery']} {score(x)}" for x in st["teams"]
        )
    return text


#: The keys of a line of ``events.jsonl`` a ``log`` message carries.
_LOG_KEYS = ("table", "event", "text", "game", "seat", "action", "ms", "winner", "margin", "at")


def _past_events(path: Path, most: int = HISTORY) -> list[Message]:
    """The last ``most`` lines of the organiser's log kept in ``events.jsonl`` (of
    :data:`~tutor.app.tables._outgoing.HISTORY_EVENTS`) as ``log`` messages: the history a
    resumed server sends a newly opened view.  A line that cannot be read is left out; a file
    that cannot be read gives none (the evening goes on)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(max(0, size - 4_000_000))
            data = f.read().decode("utf-8", "replace")
    except OSError:
        return []
    from tutor.app.tables.messages import Log

    out: list[Message] = []
    for line in data.splitlines()[-4 * most :]:
        try:
            raw = json.loads(line)
        except ValueError:
            continue
        if (
            not isinstance(raw, dict)
            or raw.get("event") not in HISTORY_EVENTS
            or not isinstance(raw.get("table"), int)
            or not isinstance(raw.get("text"), str)
        ):
            continue
        msg = {"type": "log", "game": None, **{k: raw[k] for k in _LOG_KEYS if k in raw}}
        try:
            Log.model_validate(msg)  # as the organiser's view will read it
        except ValueError:
            continue
        out.append(msg)
    return out[-most:]


def _peer(ws: ServerConnection) -> str:
    try:
        addr = ws.remote_address
        return f"{addr[0]}:{addr[1]}"
    except (AttributeError, TypeError, IndexError):
        return "?"
