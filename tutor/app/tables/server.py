"""The live tables' server: one or more :class:`~tutor.app.tables.table.Table` on an asyncio
WebSocket server (the ``websockets`` library), the referee of every deal.

Each connection sends JSON messages (:mod:`tutor.app.tables.protocol`); the server reads each
one at the edge (text, size, JSON, version, keys: :func:`~tutor.app.tables.protocol.
read_client`), under a rate limit per connection, and hands it to its table with the server's
clock time of its arrival (``loop.time()``, a monotonic clock): the table decides everything,
claim races included, by the engine.  What the tables put out is sent to each connection in
order through a queue of its own (a slow reader never holds up the others), and each
connection receives only its seat's observation (or a spectator's): never another hand, never
the pack.  A message that is malformed, too large, too frequent, or acts for another seat is
answered with one ``refused`` line and logged; the table goes on.  A frame over
:data:`~tutor.app.tables.protocol.MAX_FRAME_BYTES` closes its connection (code 1009).

Files, in the server's folder: ``server.json`` (the settings, the codes, who sits where, the
standings published), ``table-N.jsonl`` (every finished deal's record, RULES.md 9, appended as
it ends), ``table-N.match.json`` (the match after every deal, written whole),
``table-N.unfinished.json`` (the deal in play when the server stopped), ``sheets/`` (each
person's score sheet as HTML at the end of a match), ``server.log`` (joins, leaves,
refusals).  :func:`load_state` reads them back for ``--resume``.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
import signal
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tutor.app.tables import protocol as P
from tutor.app.tables.table import EVERYONE, PUBLIC, STATE, SeatState, Settings, Table
from tutor.app.tables.tournament import Tournament
from tutor.engine.atomic import write_atomic
from tutor.engine.deal import Deal
from tutor.engine.errors import LaughError, RecordError, UsageError
from tutor.engine.jsonfile import load
from tutor.engine.levels import level
from tutor.engine.match import Match
from tutor.engine.records import dumps, replay, to_record

__all__ = ["CannotListen", "STATE_FORMAT", "TableServer", "code_words", "load_state", "new_code"]

log = logging.getLogger("tutor.tables")

#: The format name of ``server.json``.
STATE_FORMAT = "laugh-and-lie-down/tables@1"
#: Letters of a join code: no 0/O, 1/I/L, so a code read aloud is typed right.
_CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Messages a connection may have waiting to be sent before it counts as not reading.
MAX_QUEUE = 5000
#: Refused messages a connection may send before it is closed (code 1008).
MAX_REFUSED = 2000


def new_code(length: int = 8) -> str:
    """A fresh join code: ``length`` letters and digits that cannot be misread."""
    return "".join(secrets.choice(_CODE_LETTERS) for _ in range(length))


def code_words(code: str) -> str:
    """A code as it is typed (case and spaces do not matter)."""
    return "".join(code.split()).upper()


@dataclass(eq=False)
class _Conn:
    """One connection: its table, seat and name once joined (``admin`` for the organiser),
    its rate limit, what it has been sent of the current deal, and its send queue."""

    ws: Any
    peer: str
    limit: P.RateLimit
    table: Table | None = None
    seat: int | None = None
    name: str | None = None
    admin: bool = False
    deal: int = -1
    sent: int = 0
    seated_view: bool = False
    queue: asyncio.Queue = field(default_factory=asyncio.Queue)
    closing: bool = False


class CannotListen(UsageError):
    """The server could not listen on the address asked for (in use, not this machine's)."""


class TableServer:
    """The server of ``tables`` (played as one :class:`~tutor.app.tables.tournament.
    Tournament`) with the organiser's ``admin`` code, keeping its files in ``folder``
    (None: nothing is written).  ``published``: standings rounds already out (a resumed
    server's); ``exit_when_done``: stop once every table's match is over."""

    def __init__(self, tables: list[Table], admin: str, folder: Path | None,
                 published: int = 0, exit_when_done: bool = False):
        self.exit_when_done = exit_when_done
        self.tables = tables
        self.admin = admin
        self.folder = folder
        self.tournament = Tournament(tables, published)
        self.conns: set[_Conn] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.TimerHandle | None = None
        self._wake_at: float | None = None
        self._stop: asyncio.Event | None = None
        self._stopping = False
        self._hints: set[asyncio.Future] = set()
        self.address: str | None = None
        for t in tables:
            t.gate = self.tournament.gate
            t.on_finished = self._finished

    # -- running ------------------------------------------------------------------------------

    async def run(self, host: str, port: int, ready: Callable[["TableServer"], None]) -> None:
        """Serve on ``host``:``port`` (0: a free port) until :meth:`stop` (or SIGINT/SIGTERM);
        ``ready(server)`` is called once listening (:attr:`address` is set).  Saves and says
        goodbye to every connection before returning."""
        from websockets.asyncio.server import serve
        self.loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                self.loop.add_signal_handler(sig, self._stop.set)
            except (NotImplementedError, RuntimeError, ValueError):   # not the main thread
                pass
        now = self.loop.time()
        for t in self.tables:       # the tables' clocks were set when they were made
            if t.next_deal_at is not None:
                t.next_deal_at = now + (t.settings.start or 0.0) if t.deal is None \
                    else max(t.next_deal_at, now)
            elif t.match.deals and not t.match.is_over:     # resumed: play on at once
                t.next_deal_at = now
        try:
            server = await serve(self._handler, host, port, max_size=P.MAX_FRAME_BYTES,
                                 max_queue=64, compression=None, ping_interval=20,
                                 ping_timeout=20, open_timeout=10, close_timeout=2)
        except OSError as exc:
            raise CannotListen(f"cannot listen on {host}:{port}: {exc.strerror or exc}") \
                from None
        async with server:
            sock = next(iter(server.sockets))
            h, p = sock.getsockname()[:2]
            self.address = f"ws://{h if ':' not in h else '[' + h + ']'}:{p}"
            log.info("serving on %s", self.address)
            self._save_state()
            ready(self)
            self._flush(self.loop.time())
            await self._stop.wait()
            log.info("stopping")
            self._stopping = True           # the clocks stop and nothing more is taken, so
            if self._wake is not None:      # what is saved now is where every table stands
                self._wake.cancel()
            self._save_all()
            for c in list(self.conns):
                self._send(c, {"type": "bye", "text": "The server is stopping; the match is "
                                                      "saved and resumes with --resume."})
                c.closing = True
            await asyncio.sleep(0.05)
            for c in list(self.conns):
                await c.ws.close(1001, "server stopping")
        if self._wake is not None:
            self._wake.cancel()

    def stop(self) -> None:
        """Stop serving (thread-safe)."""
        if self.loop is not None and self._stop is not None:
            self.loop.call_soon_threadsafe(self._stop.set)

    # -- connections ------------------------------------------------------------------------

    async def _handler(self, ws) -> None:
        from websockets.exceptions import ConnectionClosed
        loop = self.loop
        peer = _peer(ws)
        conn = _Conn(ws, peer, P.RateLimit(now=loop.time()))
        self.conns.add(conn)
        writer = asyncio.create_task(self._writer(conn))
        try:
            async for data in ws:
                if self._stopping:          # saved already: nothing more is played
                    continue
                now = loop.time()
                if not conn.limit.allow(now):
                    n = conn.limit.notice_due(now)
                    if n:
                        self._refuse(conn, f"too many messages: at most {P.RATE:g} a second "
                                           f"({n} refused)")
                    if conn.limit.total_refused > MAX_REFUSED:
                        log.warning("%s: closed after %d messages refused", peer,
                                    conn.limit.total_refused)
                        await ws.close(1008, "too many messages")
                        break
                    continue
                try:
                    msg = P.read_client(data)
                    if self._handle(conn, msg, now):
                        conn.limit.refund()         # a move taken: the deal's pace, not a flood
                except Exception as exc:            # the table goes on, whatever came
                    if not isinstance(exc, P.Refused):
                        log.exception("%s: a message could not be handled", peer)
                        exc = P.Refused("the server could not take that message")
                    self._refuse(conn, str(exc))
                    if conn.closing:
                        await asyncio.sleep(0.05)
                        await ws.close(1008, "refused")
                        break
                self._flush(loop.time())
        except ConnectionClosed as exc:
            rcvd = exc.rcvd
            if rcvd is None and exc.sent is not None and exc.sent.code == 1009:
                log.warning("%s: a frame over %d bytes: connection closed", peer,
                            P.MAX_FRAME_BYTES)
        finally:
            self.conns.discard(conn)
            writer.cancel()
            if conn.table is not None and conn.seat is not None and not conn.admin and not any(
                    c.table is conn.table and c.seat == conn.seat for c in self.conns):
                conn.table.leave(conn.seat, loop.time())
                log.info("%s: %s left table %d", peer, conn.name, conn.table.number)
                self._flush(loop.time())

    async def _writer(self, conn: _Conn) -> None:
        from websockets.exceptions import ConnectionClosed
        try:
            while True:
                text = await conn.queue.get()
                await conn.ws.send(text)
        except (ConnectionClosed, asyncio.CancelledError):
            return

    def _send(self, conn: _Conn, message: dict[str, Any]) -> None:
        if conn.queue.qsize() >= MAX_QUEUE:
            if not conn.closing:
                conn.closing = True
                log.warning("%s: not reading its messages: closed", conn.peer)
                asyncio.ensure_future(conn.ws.close(1008, "not reading"))
            return
        conn.queue.put_nowait(P.encode(message))

    def _refuse(self, conn: _Conn, text: str) -> None:
        log.warning("%s: refused: %s", conn.peer, text)
        self._send(conn, {"type": "refused", "text": text})

    # -- messages ---------------------------------------------------------------------------

    def _handle(self, conn: _Conn, msg: P.ClientMessage, now: float) -> bool:
        """Act on one checked message; True when its table took it as a move of the deal (not
        counted by the rate limit)."""
        kind = msg.type
        if kind == "ping":
            self._send(conn, {"type": "pong", "seq": msg.seq})
            return False
        if kind == "join":
            self._join(conn, msg, now)
            return False
        if kind == "watch":
            if conn.table is not None or conn.admin:
                raise P.Refused("this connection has joined already")
            if not hmac.compare_digest(code_words(msg.admin or "").encode(),
                                       self.admin.encode()):
                conn.closing = True
                raise P.Refused("that is not the organiser's code")
            conn.admin = True
            log.info("%s: the organiser watches", conn.peer)
            self._send(conn, self._overview())
            return False
        t = conn.table
        if t is None or conn.admin:
            raise P.Refused("join a table first: send a join message with its code and your "
                            "name")
        if kind == "leave":
            conn.closing = True
            t.leave(conn.seat, now)
            log.info("%s: %s leaves table %d", conn.peer, conn.name, t.number)
            asyncio.ensure_future(conn.ws.close(1000, "left"))
            return False
        if not t.seated(conn.seat, conn.name):
            raise P.Refused("you take your seat at the next deal: until then you watch")
        if kind == "hint":
            self._hint(conn, msg)
            return False
        return t.intent(conn.seat, msg, now)

    def _join(self, conn: _Conn, msg: P.ClientMessage, now: float) -> None:
        if conn.table is not None or conn.admin:
            raise P.Refused("this connection has joined already")
        code = code_words(msg.code or "").encode()
        table = None
        for t in self.tables:
            if hmac.compare_digest(code, t.code.encode()):
                table = t
        if table is None:
            conn.closing = True
            raise P.Refused("no table has that code")
        joined = table.join(msg.name, msg.token, now)
        for c in list(self.conns):
            if c is not conn and c.table is table and c.seat == joined.seat and not c.admin:
                c.closing = True        # the same person on a new connection: the old one goes
                self._send(c, {"type": "bye", "text": "You joined from another connection."})
                asyncio.ensure_future(c.ws.close(1000, "replaced"))
                c.table = None
        conn.table, conn.seat = table, joined.seat
        st = table.seats[joined.seat]
        conn.name = st.name if joined.now else st.incoming
        log.info("%s: %s %s table %d seat %d", conn.peer, conn.name,
                 "is back at" if joined.back else "joins", table.number, joined.seat)
        s = table.settings
        self._send(conn, {
            "type": "welcome", "table": table.number, "seat": joined.seat,
            "token": joined.token, "name": conn.name, "seated": joined.now,
            "back": joined.back, "names": table.names, "ruleset": s.ruleset.id,
            "players": s.players, "level": s.level.name, "hint": s.hint, "wait": s.wait,
            "games": len(table.match.games), "played": len(table.match.deals)})
        table.changed = True

    def _hint(self, conn: _Conn, msg: P.ClientMessage) -> None:
        t = conn.table
        if not t.settings.hint:
            self._send(conn, {"type": "reply", "ok": False, "to": "hint", "seq": msg.seq,
                              "text": "Hints are off at this table."})
            return
        pos = t.hint_position(conn.seat)
        if pos is None:
            self._send(conn, {"type": "reply", "ok": False, "to": "hint", "seq": msg.seq,
                              "text": "A hint answers your move when it is your turn (a claim "
                                      "is yours to find)."})
            return
        names, seat = t.names, conn.seat

        def work() -> str:
            from tutor.app.play.review import hint
            return hint(pos, seat, names).text

        fut = asyncio.ensure_future(self.loop.run_in_executor(None, work))
        self._hints.add(fut)

        def done(f: asyncio.Future) -> None:
            self._hints.discard(f)
            text = "Hint: " + f.result() if not f.cancelled() and f.exception() is None \
                else "No hint could be worked out."
            self._send(conn, {"type": "reply", "ok": True, "to": "hint", "seq": msg.seq,
                              "text": text})
        fut.add_done_callback(done)

    # -- what goes out -------------------------------------------------------------------------

    def _flush(self, now: float) -> None:
        """Tick every table to ``now``, send what they put out and the states that changed,
        and set the next wake-up (nothing once the server is stopping)."""
        if self._stopping:
            return
        for t in self.tables:
            t.tick(now)
        admins = [c for c in self.conns if c.admin and not c.closing]
        any_change = False
        for t in self.tables:
            at = [c for c in self.conns if c.table is t and not c.admin and not c.closing]
            out, t.outbox = t.outbox, []
            for target, message in out:
                if target == STATE:
                    self._states(t, at, message)
                    any_change = True
                    continue
                for c in at:
                    seated = t.seated(c.seat, c.name)
                    if target == EVERYONE or (target == PUBLIC and not seated) or (
                            target == c.seat and (seated or message["type"] == "reply")):
                        self._send(c, message)
                if target in (EVERYONE, PUBLIC) and message["type"] != "reply":
                    for c in admins:
                        self._send(c, message)
            if t.changed:
                any_change = True
                self._states(t, at)
                t.changed = False
                t.cause = None
        if any_change and admins:
            ov = self._overview()
            for c in admins:
                self._send(c, ov)
        self._schedule()
        if self.exit_when_done and self._stop is not None and all(t.over for t in self.tables):
            self.loop.call_later(0.2, self._stop.set)

    def _states(self, t: Table, conns: list[_Conn], snap: dict | None = None) -> None:
        """Each connection's state: its seat's observation (a spectator's where it has no
        seat yet), now or as ``snap`` (a table's :data:`STATE` entry) holds it."""
        views: dict[int | None, Any] = dict(snap["views"]) if snap else {}
        number = snap["deal"] if snap else t.deal_number
        m = t.match
        game = m.next_game if t.playing else (m.games[len(m.deals) - 1] if m.deals else None)
        if snap:
            game = m.games[len(m.deals) - 1] if m.deals else None
        head = {"type": "state", "table": t.number, "deal": number,
                "game": game.label if game else "", "names": t.names,
                "totals": list(m.totals), "away": [s.name is not None and not s.connected
                                                   for s in t.seats],
                "cause": snap["cause"] if snap else t.cause, "played": len(m.deals),
                "games": len(m.games)}
        for c in conns:
            seat = c.seat if t.seated(c.seat, c.name) else None
            if seat not in views:
                views[seat] = t.view(seat) if not snap else None
            obs = views[seat]
            if obs is None:
                continue
            if c.deal != number or c.seated_view != (seat is not None):
                c.deal, c.sent, c.seated_view = number, 0, seat is not None
            self._send(c, {**head, "seated": seat is not None, "obs": obs.to_json(c.sent)})
            c.sent = len(obs.history)

    def _overview(self) -> dict[str, Any]:
        """Every table's state for the organiser: public facts only (no hand while a deal is
        being played), and the standings so far."""
        tables = []
        for t in self.tables:
            obs = t.view(None)
            m = t.match
            tables.append({
                "table": t.number, "names": t.names, "persons": [t.person(q) for q in
                                                                 range(len(t.seats))],
                "away": [s.name is not None and not s.connected for s in t.seats],
                "game": (m.next_game.label if m.next_game else "over"),
                "playing": t.playing, "played": len(m.deals), "games": len(m.games),
                "totals": list(m.totals),
                "obs": obs.to_json(max(0, len(obs.history) - 4)) if obs is not None else None})
        return {"type": "overview", "tables": tables,
                "published": self.tournament.published, "rounds": self.tournament.rounds,
                "standings": self.tournament.standings()}

    def _schedule(self) -> None:
        times = [w for w in (t.next_wake() for t in self.tables) if w is not None]
        at = min(times) if times else None
        if at == self._wake_at:
            return
        if self._wake is not None:
            self._wake.cancel()
        self._wake, self._wake_at = None, at
        if at is not None and self.loop is not None:
            self._wake = self.loop.call_at(at, self._woken)

    def _woken(self) -> None:
        self._wake = self._wake_at = None
        try:
            self._flush(self.loop.time())
        except Exception:           # the table goes on: log what went wrong, never die
            log.exception("error while the tables' clocks ran")

    # -- files --------------------------------------------------------------------------------

    def _finished(self, table: Table, deal: Deal, t: float) -> None:
        if self.folder is not None:
            try:
                with open(self.folder / f"table-{table.number}.jsonl", "a",
                          encoding="utf-8") as f:
                    f.write(dumps(to_record(deal)) + "\n")
                self._save_match(table)
                (self.folder / f"table-{table.number}.unfinished.json").unlink(missing_ok=True)
                if table.match.is_over:
                    self._sheets(table)
            except OSError as exc:
                log.error("could not save table %d: %s", table.number, exc)
        standings = self.tournament.finished(table)
        if standings is not None:
            for other in self.tables:
                other.outbox.append((EVERYONE, standings))
                if other.next_deal_at is not None:
                    other.next_deal_at = max(other.next_deal_at, t + other.settings.gap)
        if self.folder is not None:
            self._save_state()

    def _save_match(self, table: Table) -> None:
        write_atomic(self.folder / f"table-{table.number}.match.json",
                     table.match.dumps() + "\n")

    def _sheets(self, table: Table) -> None:
        from tutor.app.match_sheet import sheet_html
        folder = self.folder / "sheets"
        folder.mkdir(exist_ok=True)
        names = table.names
        for q in range(len(table.seats)):
            if table.person(q):
                write_atomic(folder / f"table-{table.number}-seat-{q}.html",
                             sheet_html(table.match, names, q))

    def state(self) -> dict[str, Any]:
        """What ``server.json`` holds (see the module docstring)."""
        s = self.tables[0].settings
        return {"format": STATE_FORMAT,
                "settings": {"ruleset": s.ruleset.id, "players": s.players,
                             "level": s.level.name, "deals": s.deals, "hint": s.hint,
                             "wait": s.wait, "pace": s.pace, "gap": s.gap, "before": s.before,
                             "seed": s.seed, "start": s.start},
                "admin": self.admin, "published": self.tournament.published,
                "tables": [{"table": t.number, "code": t.code,
                            "seats": [{"name": st.name, "token": st.token} for st in t.seats]}
                           for t in self.tables]}

    def _save_state(self) -> None:
        if self.folder is None:
            return
        try:
            write_atomic(self.folder / "server.json",
                         json.dumps(self.state(), ensure_ascii=False, indent=1) + "\n")
        except OSError as exc:
            log.error("could not save the server's state: %s", exc)

    def _save_all(self) -> None:
        """Everything, as the server stops: the state, each match, each deal in play."""
        if self.folder is None:
            return
        for t in self.tables:
            try:
                self._save_match(t)
                path = self.folder / f"table-{t.number}.unfinished.json"
                if t.playing:
                    write_atomic(path, dumps(to_record(t.deal, with_result=False)) + "\n")
                else:
                    path.unlink(missing_ok=True)
            except OSError as exc:
                log.error("could not save table %d: %s", t.number, exc)
        self._save_state()


def _peer(ws) -> str:
    try:
        addr = ws.remote_address
        return f"{addr[0]}:{addr[1]}"
    except (AttributeError, TypeError, IndexError):
        return "?"


# -- resuming ---------------------------------------------------------------------------------

def load_state(folder: Path, rulesets: dict) -> tuple[list[Table], str, int]:
    """The tables of a server saved in ``folder`` (``server.json``, each ``table-N.match.json``
    and any ``table-N.unfinished.json``), their admin code and the standings rounds published.
    Raises :class:`~tutor.engine.errors.UsageError` when there is nothing to resume, and
    :class:`~tutor.engine.errors.RecordError` (one line, naming the file) for a damaged file."""
    path = folder / "server.json"
    if not path.exists():
        raise UsageError(f"nothing to resume in {folder} (no server.json)")
    obj = load(path, what="a saved table server")
    try:
        if not isinstance(obj, dict) or obj.get("format") != STATE_FORMAT:
            raise RecordError(f"not a saved table server (format must be {STATE_FORMAT!r})")
        st = obj["settings"]
        rs = rulesets.get(st["ruleset"])
        if rs is None:
            raise RecordError(f"settings.ruleset: unknown ruleset {st['ruleset']!r}")
        settings = Settings(rs, int(st["players"]), level(st["level"]), st["deals"],
                            bool(st["hint"]), float(st["wait"]), float(st["pace"]),
                            float(st["gap"]), float(st["before"]), st["seed"],
                            st.get("start"))
        tables = []
        for entry in obj["tables"]:
            n = int(entry["table"])
            mpath = folder / f"table-{n}.match.json"
            match = Match.from_json(load(mpath, what="a saved match"), rulesets)
            seats = [SeatState(name=x.get("name"), token=x.get("token"))
                     for x in entry["seats"]]
            if len(seats) != settings.players:
                raise RecordError(f"tables: table {n} has {len(seats)} seats, not "
                                  f"{settings.players}")
            t = Table(n, str(entry["code"]), settings, match, seats=seats)
            upath = folder / f"table-{n}.unfinished.json"
            if upath.exists():
                rec = load(upath, what="a deal record")
                deal = replay(rec, rulesets)
                if not deal.is_terminal():
                    t.resume_deal(deal)
            tables.append(t)
        return tables, str(obj["admin"]), int(obj.get("published", 0))
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"{path}: not a saved table server ({exc})") from None
    except LaughError as exc:
        if isinstance(exc, (RecordError, UsageError)):
            raise RecordError(f"{folder}: {exc}") from None
        raise


def settings_dict(settings: Settings) -> dict[str, Any]:
    """The settings as plain values (for messages and files)."""
    d = asdict(settings)
    d["ruleset"] = settings.ruleset.id
    d["level"] = settings.level.name
    return d
