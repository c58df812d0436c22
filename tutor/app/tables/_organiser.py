"""The organiser's evening: one screen of every table, redrawn in place, with the log of claims,
time-outs, leaves and rejoins and the standings (``laugh table watch``); and the organiser's
commands (``laugh table admin``: start a table, release a seat).

The screen fits 80 columns and 24 rows for six tables (two lines a table, the clock of the
move being waited for beside the player's name, the standings with table numbers and the
liveries' totals, the last lines of the log); with more tables it grows past the terminal and
scrolls.  Every name is set as plain text (never read as markup).  Piped (not a terminal), the
log's lines and each round's standings are printed as they come, one line each, never the whole
screen at every change.  A view opened late (or ``--once``) is sent the log since the start
(each line at the time it happened) and the last standings first.  The standings rank the
people among themselves, the computer players apart; under ``--duplicate`` by the score
against those dealt the same cards, with the liveries' totals.
"""

from __future__ import annotations

import queue
import time
from collections import deque
from typing import Any

from rich.console import Group
from rich.text import Text

from tutor.app.learner_io import ConsoleIO
from tutor.app.tables._link import Link
from tutor.app.tables._screens import standings_table, teams_text
from tutor.app.tables.messages import (
    Bye,
    ClockState,
    Closed,
    Log,
    Overview,
    Refusal,
    Reply,
    Standings,
)
from tutor.engine.cards import parse_card, pretty_cards
from tutor.engine.errors import LaughError
from tutor.teaching.io import LearnerIO

__all__ = ["LOG_LINES", "organise", "overview_text", "watch_tables"]

#: Lines of the log the screen keeps.
LOG_LINES = 6
#: The events of the log the organiser is shown (a computer player's moves for an absent
#: person, and each deal's beginning, are in the events file only).
SHOWN = frozenset(
    {
        "joined",
        "back",
        "left",
        "seated",
        "started",
        "released",
        "emptied",
        "claim",
        "time_out",
        "deal_over",
        "match_over",
        "paused",
        "resumed",
        "files",
    }
)


def _short(name: str, width: int) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def _clock(c: ClockState | None, elapsed: float) -> str:
    """A clock's time left now (it was ``left`` when the overview came, ``elapsed`` seconds
    ago)."""
    if c is None:
        return ""
    left = max(0.0, float(c.left) - elapsed)
    return f"{int(left // 60)}:{int(left % 60):02d}" if left >= 60 else f"{left:.0f}s"


def overview_text(
    msg: Overview,
    symbols: bool,
    *,
    width: int = 80,
    log: list[str] | None = None,
    at: float | None = None,
    now: float | None = None,
) -> Text:
    """Every table in two lines (its game, played of planned, the table's cards; each seat's
    name, the one to move marked with its clock, away or a computer player marked, and its
    total), then the standings so far with table numbers and the liveries' totals, then the
    last lines of ``log``.  Public facts only: the organiser never sees a hand."""
    elapsed = now - at if now is not None and at is not None else 0.0
    out = Text()
    for tb in msg.tables:
        names = tb.names
        obs = tb.obs or {}
        head = f"Table {tb.table} · {tb.game} · {tb.played} of {tb.games} played"
        if tb.waiting:
            head += f" · waiting {tb.waiting}"
        elif tb.playing and obs:
            on_table = obs.get("table")
            cards = [
                parse_card(c)
                for c in (on_table if isinstance(on_table, list) else [])
                if isinstance(c, str)
            ]
            head += f" · table {pretty_cards(cards, symbols) or 'empty'}"
        out.append(_short(head, width) + "\n", style="bold")
        clock = tb.clock
        to_move = obs.get("to_move") if tb.playing else None
        per = max(8, (width - 2) // max(1, len(names)) - 4)
        line = Text("  ")
        for q, name in enumerate(names):
            person = tb.persons[q] if q < len(tb.persons) else True
            away = tb.away[q] if q < len(tb.away) else False
            shown = _short(name.removesuffix(" (computer)") + ("" if person else "*"), per)
            mark = "▶" if q == to_move else ""
            style = "bold" if q == to_move else ("dim" if away else "")
            line.append(mark + shown, style=style)
            if q == to_move and clock is not None and clock.seat == q:
                line.append(" " + _clock(clock, elapsed), style="yellow")
            if away:
                line.append("(away)", style="dim")
            total = tb.totals[q] if q < len(tb.totals) else 0
            line.append(f" {total}")
            if q < len(names) - 1:
                line.append(" · ", style="dim")
        line.truncate(width)
        out.append_text(line)
        out.append("\n")
        for q, given in enumerate(tb.codes):  # given by the organiser to that person alone
            if given:
                out.append(
                    _short(f"  seat {q}: code {given.code} for {given.person} alone", width) + "\n",
                    style="cyan",
                )
    rows = [r for r in msg.standings if r.person] or msg.standings  # people ranked apart
    if rows:
        out.append("Standings (vs same cards): " if msg.duplicate else "Standings: ", style="bold")
        parts = []
        for r in rows[:8]:
            who = _short(r.name.removesuffix(" (computer)"), 12) + ("" if r.person else "*")
            score = f"{r.dup or 0:+g}" if msg.duplicate else str(r.score)
            parts.append(f"{r.place}. {who} (T{r.table}) {score}")
        out.append(_fit("; ".join(parts), width - (27 if msg.duplicate else 11)) + "\n")
        if msg.teams:
            out.append_text(teams_text(msg.teams, width))
            out.append("\n")
    if msg.tables:
        out.append("* a computer player; ▶ to move, with the time left", style="dim")
        out.append("\n")
    for entry in (log or [])[-LOG_LINES:]:
        out.append(_short(entry, width) + "\n", style="dim")
    return out


def _fit(text: str, width: int) -> str:
    """``text`` cut at the last ``; `` that fits ``width``."""
    if len(text) <= width:
        return text
    cut = text[:width].rfind("; ")
    return text[:cut] + " …" if cut > 0 else text[: width - 1] + "…"


def watch_tables(io: LearnerIO, address: str, admin: str, once: bool = False) -> int:
    """The organiser's view (see the module docstring) until Ctrl-C (or at once, with
    ``once``: the log since the start and the last standings, then the screen as it stands,
    printed once).  Returns the exit status (1 when the
    server refuses the code, or the connection is lost)."""
    link = Link(address, {"type": "watch", "admin": admin})
    link.start()
    status = 0
    log: deque[str] = deque(maxlen=200)
    live = None
    last: Overview | None = None
    at = 0.0
    interactive = io.interactive and not once
    try:
        while True:
            try:
                msg = link.inbox.get(timeout=0.25)
            except queue.Empty:
                msg = None
            if msg is None:
                if live is not None and last is not None:
                    live.update(_screen(io, last, list(log), at), refresh=True)
                continue
            if isinstance(msg, Overview):
                last, at = msg, time.monotonic()
                if once:
                    io.show(overview_text(msg, io.symbols, width=io.width))
                    break
                if interactive:
                    if live is None:
                        from rich.live import Live

                        console = io.console if isinstance(io, ConsoleIO) else None
                        live = Live(
                            console=console,
                            auto_refresh=False,
                            transient=False,
                            vertical_overflow="visible",
                        )
                        live.start()
                    live.update(_screen(io, msg, list(log), at), refresh=True)
            elif isinstance(msg, Log):
                if msg.event not in SHOWN:
                    continue
                when = msg.at[11:19] if msg.at and len(msg.at) >= 19 else time.strftime("%H:%M:%S")
                line = f"{when} T{msg.table} {msg.text}"
                log.append(line)
                if not interactive:  # piped, or once: the history since the start
                    io.say(line, wrap=once)  # once: to the width (a path kept whole)
            elif isinstance(msg, Standings):
                if not interactive:
                    io.show(standings_table(msg))
                else:
                    log.append(
                        f"{time.strftime('%H:%M:%S')} standings after round "
                        f"{msg.round} of {msg.rounds}"
                    )
            elif isinstance(msg, Refusal):
                if live is not None:
                    live.stop()
                    live = None
                io.say(f"Refused: {msg.text}", style="yellow")
                status = 1
            elif isinstance(msg, (Closed, Bye)):
                if live is not None:
                    live.stop()
                    live = None
                if last is None and not status:
                    link.close()
                    raise LaughError(msg.text)
                io.say(msg.text, style="yellow")
                if isinstance(msg, Closed) and not status:
                    status = 1
                break
    except KeyboardInterrupt:
        if live is not None:
            live.stop()
        link.close()
        return 130
    if live is not None:
        live.stop()
    link.close()
    return status


def _screen(io: LearnerIO, msg: Overview, log: list[str], at: float) -> Group:
    return Group(
        Text(
            f"Laugh and Lie Down · the organiser's view · {time.strftime('%H:%M:%S')}"
            " · Ctrl-C leaves",
            style="bold reverse",
        ),
        overview_text(msg, io.symbols, width=io.width, log=log, at=at, now=time.monotonic()),
    )


def organise(
    io: LearnerIO, address: str, admin: str, action: str, table: int | None, seat: int | None
) -> int:
    """One of the organiser's commands (``start`` a table, ``release`` or ``empty`` a seat)
    sent as the organiser; its outcome said in one line (a release's: the seat's new code).  Returns 0, or 1 when it was refused."""
    link = Link(address, {"type": "watch", "admin": admin})
    link.start()
    try:
        msg = link.wait_for(("overview", "refused", "closed", "bye"), 15)
        if isinstance(msg, Overview):
            out: dict[str, Any] = {"type": action}
            if table is not None:
                out["table"] = table
            if seat is not None:
                out["seat"] = seat
            link.send(out)
            link.send({"type": "ping", "seq": 1})
            msg = link.wait_for(("pong", "reply", "refused", "closed", "bye"), 15)
        if msg is None:
            raise LaughError("the server did not answer")
        if isinstance(msg, Refusal):
            io.say(f"Refused: {msg.text}", style="yellow")
            return 1
        if isinstance(msg, (Closed, Bye)):
            raise LaughError(msg.text)
        if isinstance(msg, Reply):  # a release: the new seat code, for its person
            io.say(f"Released. {msg.text} Give it to the seat's person alone.")
            return 0
        io.say(
            f"Emptied seat {seat} of table {table}: a computer player takes it."
            if action == "empty"
            else f"Started table {table}."
            if table
            else "Started every waiting table."
        )
        return 0
    finally:
        link.close()
