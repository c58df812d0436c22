"""What the live tables' server sends: every table ticked to the moment, its outbox sent to the
connections it is for (each only its seat's observation, or a spectator's), the organiser's
log and overview (at most four times a second), and the wake-up for the tables' next event (a
part of :class:`tutor.app.tables.server.TableServer`)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tutor.app.tables import protocol as P
from tutor.app.tables._guard import Quiet
from tutor.app.tables._hints import HintService
from tutor.app.tables._limits import Bucket
from tutor.app.tables._server_files import ServerFiles
from tutor.app.tables.table import EVERYONE, LOG, PUBLIC, STATE, Message, Snapshot, Table
from tutor.app.tables.tournament import Tournament, teams
from tutor.engine.observe import Observation

if TYPE_CHECKING:
    from websockets.asyncio.server import ServerConnection

__all__ = ["HISTORY", "HISTORY_EVENTS", "MAX_QUEUE", "OVERVIEW_EVERY", "Conn", "Outgoing"]

log = logging.getLogger("tutor.tables")

#: Seconds between two overviews sent to the organiser.
OVERVIEW_EVERY = 0.25
#: Messages a connection may have waiting to be sent before it counts as not reading.
MAX_QUEUE = 5000
#: The events of the log kept for a newly opened organiser's view (the history since the
#: start: a computer player's moves for an absent person and each deal's beginning are in
#: the events file only).
HISTORY_EVENTS = frozenset(
    {
        "joined",
        "back",
        "left",
        "seated",
        "started",
        "released",
        "claim",
        "time_out",
        "deal_over",
        "match_over",
        "standings",
        "files",
    }
)
#: Lines of that history kept (the oldest go first).
HISTORY = 2000


@dataclass(eq=False)
class Conn:
    """One connection: its address, its table, seat and name once joined (``admin`` for the
    organiser), its rate limit, what it has been sent of the current deal, its send queue
    (encoded messages)."""

    ws: ServerConnection
    peer: str
    address: str
    limit: P.RateLimit
    table: Table | None = None
    seat: int | None = None
    name: str | None = None
    admin: bool = False
    deal: int = -1
    sent: int = 0
    seated_view: bool = False
    #: What this person was last told their table waits for (a ``waiting`` message).
    waiting: str | None = None
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    closing: bool = False

    def place(self) -> tuple[Table, int, str]:
        """The table, seat and name of a person's connection.  Raises
        :class:`~tutor.app.tables.protocol.Refused` when it has not joined a table (or is the
        organiser's)."""
        t, seat, name = self.table, self.seat, self.name
        if t is None or seat is None or name is None or self.admin:
            raise P.Refused("join a table first: send a join message with its code and your name")
        return t, seat, name


class Outgoing:
    """The sending part of :class:`~tutor.app.tables.server.TableServer`, which sets the
    attributes declared here (its state, as the part reads it)."""

    tables: list[Table]
    conns: set[Conn]
    tournament: Tournament
    loop: asyncio.AbstractEventLoop | None  # set by run()
    files: ServerFiles | None  # None: nothing is written
    pane: Callable[[str], None] | None
    quiet: Quiet
    hints: HintService
    exit_when_done: bool
    _stop: asyncio.Event | None
    _stopping: bool
    _wake: asyncio.TimerHandle | None
    _wake_at: float | None
    _overview_budget: Bucket  # the overview: at most four a second
    _overview_timer: asyncio.TimerHandle | None
    _paused_at: dict[int, float]  # a paused table's number: when it paused
    _overview_shown: dict[int, dict]  # each table's entry of the last overview
    #: The log since the start (:data:`HISTORY_EVENTS`), for a newly opened organiser's view.
    history: deque[Message]
    #: The last standings published (None before the first round is over).
    last_standings: Message | None

    @property
    def _running(self) -> asyncio.AbstractEventLoop:
        """The loop the server runs on (an error before :meth:`run`: a bug of the caller)."""
        loop = self.loop
        if loop is None:
            raise AssertionError("the server is not running")
        return loop

    def _send(self, conn: Conn, message: Message) -> None:
        """Queue ``message`` for ``conn`` (one that does not read its messages is closed)."""
        if conn.queue.qsize() >= MAX_QUEUE:
            if not conn.closing:
                conn.closing = True
                self.quiet.say(
                    "slow", logging.WARNING, f"{conn.peer}: not reading its messages: closed"
                )
                asyncio.ensure_future(conn.ws.close(1008, "not reading"))
            return
        conn.queue.put_nowait(P.encode(message))

    def _flush(self, now: float) -> None:
        """Tick every table to ``now``, send what they put out and the states that changed,
        and set the next wake-up (nothing once the server is stopping)."""
        if self._stopping:
            return
        for t in self.tables:
            if t.paused and self.files is not None and not self.files.blocked(t.number):
                self._go_on(t, now)  # saved again: what it held goes out
            t.tick(now)
        admins = [c for c in self.conns if c.admin and not c.closing]
        any_change = False
        for t in self.tables:
            if t.paused:  # nothing shown before it is on disk
                continue
            at = [c for c in self.conns if c.table is t and not c.admin and not c.closing]
            out, t.outbox = t.outbox, []
            for entry in out:
                if entry[0] == STATE:
                    self._states(t, at, now, entry[1])
                    any_change = True
                    continue
                target, message = entry
                if target == LOG:
                    message = self._logged(message)
                    for c in admins:
                        self._send(c, message)
                    continue
                for c in at:
                    seated = _seated(t, c)
                    if (
                        target == EVERYONE
                        or (target == PUBLIC and not seated)
                        or (target == c.seat and (seated or message["type"] == "reply"))
                    ):
                        self._send(c, message)
            waits = t.waits(now)
            for c in at:  # the table waits, or no longer: each person told, once
                if c.waiting != waits:
                    c.waiting = waits
                    self._send(c, {"type": "waiting", "table": t.number, "text": waits})
            if t.changed:
                any_change = True
                self._states(t, at, now)
                t.changed = False
                t.cause = None
        if any_change:
            self.hints.sweep()  # hints whose position moved on: dropped at once
        if any_change and admins:
            self._overview_soon(now)
        self._schedule()
        if self.exit_when_done and self._stop is not None and all(t.over for t in self.tables):
            self._running.call_later(0.2, self._stop.set)

    def _go_on(self, table: Table, now: float) -> None:
        """A paused table's files are written: it goes on, its clocks put back by the pause,
        and what it held goes out."""
        since = self._paused_at.pop(table.number, now)
        table.go_on(max(0.0, now - since))
        table.changed = True
        text = f"Table {table.number} is saved again: play goes on."
        table.outbox.insert(0, (EVERYONE, {"type": "say", "table": table.number, "text": text}))
        table._log("resumed", text + f" (paused {now - since:.0f} s)")

    def _overview_soon(self, now: float) -> None:
        """Send the organiser the overview now, or (at most four times a second) soon."""
        if self._overview_timer is not None:
            return
        wait = self._overview_budget.wait(now)
        if wait <= 0:
            self._send_overview()
        else:
            self._overview_timer = self._running.call_later(wait, self._send_overview)

    def _send_overview(self) -> None:
        self._overview_timer = None
        if self._stopping:
            return
        self._overview_budget.spend(self._running.time())
        admins = [c for c in self.conns if c.admin and not c.closing]
        if admins:
            ov = self._overview()
            for c in admins:
                self._send(c, ov)

    def _logged(self, message: Message) -> Message:
        """A line of the organiser's log: its time (``at``) set, to the events file, the
        server's log and pane, and the history a newly opened view is sent."""
        when = time.strftime("%H:%M:%S")
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
        message = {**message, "at": stamp}
        if message["event"] in HISTORY_EVENTS:
            self.history.append(message)
        if self.files is not None:
            self.files.event(message, stamp)
        text = f"table {message['table']}: {message['text']}"
        event = message["event"]
        if event not in ("deal", "deal_over", "claim", "stood_in"):
            log.info("%s", text)
        if self.pane is not None and event != "stood_in":
            self.pane(f"{when} {text}")
        return message

    def _states(
        self, t: Table, conns: list[Conn], now: float, snap: Snapshot | None = None
    ) -> None:
        """Each connection's state: its seat's observation (a spectator's where it has no
        seat yet), now or as ``snap`` (a table's :data:`STATE` entry) holds it."""
        views: dict[int | None, Observation | None] = dict(snap["views"]) if snap else {}
        number = snap["deal"] if snap else t.deal_number
        m = t.match
        game = m.next_game if t.playing else (m.games[len(m.deals) - 1] if m.deals else None)
        if snap:
            game = m.games[len(m.deals) - 1] if m.deals else None
        head = {
            "type": "state",
            "table": t.number,
            "deal": number,
            "game": game.label if game else "",
            "names": t.names,
            "totals": list(m.totals),
            "away": [s.name is not None and not s.connected for s in t.seats],
            "cause": snap["cause"] if snap else t.cause,
            "played": len(m.deals),
            "games": len(m.games),
            "clock": None if snap else t.clock(now),
        }
        for c in conns:
            seat = c.seat if _seated(t, c) else None
            if seat not in views:
                views[seat] = t.view(seat) if not snap else None
            obs = views[seat]
            if obs is None:
                continue
            if c.deal != number or c.seated_view != (seat is not None):
                c.deal, c.sent, c.seated_view = number, 0, seat is not None
            self._send(c, {**head, "seated": seat is not None, "obs": obs.to_json(c.sent)})
            c.sent = len(obs.history)

    def _overview(self) -> Message:
        """Every table's state for the organiser: public facts only (no hand while a deal is
        being played), the clocks, and the standings so far."""
        now = self.loop.time() if self.loop is not None else 0.0
        tables = []
        shown = self._overview_shown
        for t in self.tables:
            if t.paused and t.number in shown:  # what it showed last: nothing shown of a
                tables.append(shown[t.number])  # paused table before it is on disk
                continue
            obs = t.view(None)
            m = t.match
            tables.append(
                {
                    "table": t.number,
                    "names": t.names,
                    "persons": [t.person(q) for q in range(len(t.seats))],
                    "away": [s.name is not None and not s.connected for s in t.seats],
                    "liveries": [s.livery if s.name is not None else None for s in t.seats],
                    "codes": [
                        {"code": P.spaced(x[0]), "person": x[1]} if x else None
                        for x in t.given_codes()
                    ],
                    "game": (m.next_game.label if m.next_game else "over"),
                    "playing": t.playing,
                    "waiting": t.waiting(),
                    "played": len(m.deals),
                    "games": len(m.games),
                    "totals": list(m.totals),
                    "clock": t.clock(now),
                    "obs": obs.to_json(max(0, len(obs.history) - 4)) if obs is not None else None,
                }
            )
            shown[t.number] = tables[-1]
        rows = self.tournament.standings()
        return {
            "type": "overview",
            "tables": tables,
            "published": self.tournament.published,
            "rounds": self.tournament.rounds,
            "standings": rows,
            "teams": teams(rows),
            "duplicate": self.tournament.duplicate,
        }

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
            self._flush(self._running.time())
        except Exception as exc:  # the table goes on: say what went wrong, never die
            self.quiet.say(
                "clocks",
                logging.ERROR,
                f"error while the tables' clocks ran: {type(exc).__name__}: {exc}",
            )


def _seated(t: Table, c: Conn) -> bool:
    """Whether the person of connection ``c`` sits at their seat of ``t`` now (not waiting for
    the next deal)."""
    return c.seat is not None and c.name is not None and t.seated(c.seat, c.name)
