"""What keeps one guest from spoiling the evening for the others (a part of
:mod:`tutor.app.tables.server`): connections limited in all from the moment they are accepted,
and those that have not yet joined limited per address (the oldest of an address's waiting
connections is closed to make room for its newest, so idle sockets never keep a right code
out); guesses at the codes limited per address and over all addresses; refusals and errors
logged one line each, at most once a second for each kind, with a count of those left out.
Every one of these limits is a :class:`~tutor.app.tables._limits.Bucket`.

A right code is never refused.  Every join code, the organiser's code and every seat code is
compared first (in constant time); a right one is taken whatever the address did before.  A
wrong one spends a guess of its address (:meth:`Guard.missed`: at most :data:`GUESS_BURST` at
once, then :data:`GUESS_RATE` a second) and, while its address has one, one of all addresses
together (:data:`ALL_BURST`, :data:`ALL_RATE`: a guess beyond its own address's spends none of
them, so one address cannot empty them).  Once either has none left, every code from that address
(from every address, for the second) is compared only after :data:`GUESS_DELAY` seconds
(:meth:`Guard.delay`): a right code then still gets in, late, and a guesser's checks are bounded
by the connections it may hold waiting.

The odds of guessing a code.  A join code has :data:`~tutor.app.tables.protocol.JOIN_CODE`
letters and digits of 31 (about 8.2 x 10^14 codes), a seat code
:data:`~tutor.app.tables.protocol.SEAT_CODE` (the same), the organiser's
:data:`~tutor.app.tables.protocol.ADMIN_CODE` (about 7.9 x 10^17).  Each connection checks one
code and is closed when it is wrong.  Over budget, a check waits :data:`GUESS_DELAY` (5) s, and
an address holds at most ``per_address`` (50) connections waiting: at most 10 checks a second
from one address, at most ``total`` / 5 (200, at the default 1,000 connections) from every
address together once the shared budget is spent (a connection closed while it waits is
never checked).  A whole evening (five hours) of the most the server takes, 200 + 5 x 18,000
checks at once and 200 x 18,000 late, under 3.7 x 10^6: the chance that any is one of 64
tables' join codes is under 2.9 x 10^-7, one of a table's five seat codes (a guest who has the
table's code) under 2.3 x 10^-8, the organiser's code under 4.7 x 10^-12.  Behind a proxy, every
player has the proxy's address unless the organiser trusts its ``X-Forwarded-For``
(``--proxy``): then each has their own.
"""

from __future__ import annotations

import logging
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tutor.app.tables._limits import Bucket

__all__ = [
    "ALL_BURST",
    "ALL_RATE",
    "GUESS_BURST",
    "GUESS_DELAY",
    "GUESS_RATE",
    "Guard",
    "Limits",
    "OneLine",
    "Quiet",
]

#: Wrong codes an address may give at once, and a second after that, before its checks wait.
GUESS_BURST, GUESS_RATE = 20, 0.5
#: Wrong codes every address together may give at once, and a second after that.
ALL_BURST, ALL_RATE = 200, 5.0
#: Seconds a code waits before it is compared once its address (or every address) has no
#: guesses left.
GUESS_DELAY = 5.0
#: Descriptors never given to connections: the files, the log, the hints' pipes, a margin for
#: connections accepted in one go before they are turned away.
SPARE_FDS = 160


@dataclass
class Limits:
    """The server's limits: connections from one address that have not joined yet
    (``per_address``: beyond it the oldest of them is closed) and in all (``total``, lowered to
    what the descriptors allow), seconds a connection has to join or watch (``join_seconds``;
    a code that must wait :data:`GUESS_DELAY` is given that much longer)."""

    per_address: int = 50
    total: int = 1000
    join_seconds: float = 10.0


@dataclass
class Guard:
    """Counts connections by address (those not joined yet apart, oldest first) and the wrong
    codes each address and every address give.  ``now()`` is the clock (seconds)."""

    limits: Limits = field(default_factory=Limits)
    now: Callable[[], float] = time.monotonic
    open: dict[str, int] = field(default_factory=dict)
    waiting: dict[str, list[Any]] = field(default_factory=dict)
    guesses: dict[str, Bucket] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.total = min(self.limits.total, _descriptor_room())
        self.shared = Bucket(ALL_RATE, ALL_BURST, self.now())

    @property
    def count(self) -> int:
        """Connections open now."""
        return sum(self.open.values())

    def admit(
        self, address: str, conn: Any = None, close: Callable[[Any], None] | None = None
    ) -> str | None:
        """A connection ``conn`` from ``address`` has been accepted: None when it may stay (it
        is counted until :meth:`gone`, and as waiting until :meth:`settled`; ``conn`` None:
        counted, not as waiting), else why not (it is not counted).  When ``address`` has
        ``per_address`` connections waiting already, the oldest of them is closed
        (``close(oldest)``) to make room: idle sockets never keep out a connection that
        joins."""
        if self.count >= self.total:
            return f"the server is full ({self.total} connections)"
        self.open[address] = self.open.get(address, 0) + 1
        self._wait(address, conn, close)
        return None

    def _wait(self, address: str, conn: Any, close: Callable[[Any], None] | None) -> None:
        if conn is None:  # not yet known as waiting (a proxy's, before its request)
            return
        waiting = self.waiting.setdefault(address, [])
        while len(waiting) >= self.limits.per_address:
            oldest = waiting.pop(0)
            if close is not None:
                close(oldest)
        waiting.append(conn)

    def moved(
        self, conn: Any, old: str, new: str, close: Callable[[Any], None] | None = None
    ) -> None:
        """``conn`` (admitted from ``old``) is counted from ``new`` from now on: a trusted
        proxy's connection, under the address it forwards for."""
        if old == new:
            return
        self._drop(old, conn)
        self.open[new] = self.open.get(new, 0) + 1
        self._wait(new, conn, close)

    def settled(self, address: str, conn: Any) -> None:
        """``conn`` has joined (or watches): it no longer counts as waiting."""
        waiting = self.waiting.get(address)
        if waiting is not None and conn in waiting:
            waiting.remove(conn)
            if not waiting:
                del self.waiting[address]

    def _drop(self, address: str, conn: Any) -> None:
        self.settled(address, conn)
        n = self.open.get(address, 0) - 1
        if n > 0:
            self.open[address] = n
        else:
            self.open.pop(address, None)

    def gone(self, address: str, conn: Any = None) -> None:
        """A connection :meth:`admit` let in has closed."""
        self._drop(address, conn)

    def _bucket(self, address: str) -> Bucket:
        b = self.guesses.get(address)
        if b is None:
            now = self.now()
            if len(self.guesses) > 10_000:  # forget addresses with a full bucket
                self.guesses = {a: x for a, x in self.guesses.items() if not x.full(now)}
            b = self.guesses[address] = Bucket(GUESS_RATE, GUESS_BURST, now)
        return b

    def delay(self, address: str) -> float:
        """Seconds a code from ``address`` waits before it is compared: 0 while the address
        and every address together have wrong guesses left, else :data:`GUESS_DELAY`.  The
        code is then compared, right or wrong: a right one is never refused."""
        now = self.now()
        return (
            0.0
            if self._bucket(address).level(now) >= 1 and self.shared.level(now) >= 1
            else GUESS_DELAY
        )

    def missed(self, address: str) -> None:
        """A code ``address`` gave was wrong: it spends one of the address's guesses and, while
        the address had one left, one of every address's (a right code spends none, so a class
        joining at once from one address is never slowed).  A code given when the address had
        none left (compared :data:`GUESS_DELAY` late) spends none of every address's: one
        address guessing flat out, at most ``per_address`` / GUESS_DELAY (10) a second, would
        otherwise outrun :data:`ALL_RATE` and make every other guest's join wait."""
        now = self.now()
        own = self._bucket(address)
        had = own.level(now) >= 1
        own.spend(now)
        if had:
            self.shared.spend(now)


def _descriptor_room() -> int:
    """Connections the descriptor limit leaves room for (its soft limit raised to the hard one
    first, where the hard one allows more, up to 65,536), less :data:`SPARE_FDS`."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = hard if hard != resource.RLIM_INFINITY else 65536
        want = min(want, 65536)
        if soft != resource.RLIM_INFINITY and soft < want:
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
                soft = want
            except (ValueError, OSError):
                pass
        room = (soft if soft != resource.RLIM_INFINITY else 65536) - SPARE_FDS
    except (OSError, ValueError):
        room = 1024 - SPARE_FDS
    return max(8, room)


class Quiet:
    """Lines logged at most once a second for each kind; the number left out is said with the
    next line of that kind (``(and 412 more like it)``), or by :meth:`flush`."""

    def __init__(
        self, log: logging.Logger, now: Callable[[], float] = time.monotonic, every: float = 1.0
    ):
        self.log = log
        self.now = now
        self.every = every
        self._budget: dict[str, Bucket] = {}
        self._left: dict[str, int] = {}

    def say(self, kind: str, level: int, text: str) -> bool:
        """Log ``text`` at ``level`` unless a line of ``kind`` went less than a second ago
        (then it is counted); True when it was logged."""
        now = self.now()
        budget = self._budget.get(kind)
        if budget is None:
            budget = self._budget[kind] = Bucket.every(self.every, now)
        if not budget.take(now):
            self._left[kind] = self._left.get(kind, 0) + 1
            return False
        n = self._left.pop(kind, 0)
        self.log.log(level, "%s", text + (f" (and {n} more like it)" if n else ""))
        return True

    def flush(self) -> None:
        """Say how many lines of each kind were left out since its last."""
        for kind, n in sorted(self._left.items()):
            self.log.warning("(and %d more like the last %r line)", n, kind)
        self._left.clear()


class OneLine(logging.Filter):
    """A logging filter that writes a record's exception as one line (its type and message,
    never a traceback) and, for a library's records, lets through at most one a second for each
    message, counting the rest (an error repeated for every connection of a flood; the server's
    own lines are limited where they are said, :class:`Quiet`)."""

    def __init__(self, every: float = 1.0, now: Callable[[], float] = time.monotonic):
        super().__init__()
        self.every = every
        self.now = now
        self._budget: dict[tuple[str, str], Bucket] = {}
        self._left: dict[tuple[str, str], int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info:
            exc = record.exc_info[1]
            if exc is not None:
                record.msg = f"{record.getMessage()}: {type(exc).__name__}: {exc}"
                record.args = ()
            record.exc_info = None
            record.exc_text = None
        if record.name.startswith("tutor."):
            return True  # the server's own lines: rate-limited where they are said
        key = (record.name, str(record.msg)[:80])
        now = self.now()
        budget = self._budget.get(key)
        if budget is None:
            if len(self._budget) >= 1000:
                self._budget = {}
            budget = self._budget[key] = Bucket.every(self.every, now)
        if not budget.take(now):
            self._left[key] = self._left.get(key, 0) + 1
            return False
        n = self._left.pop(key, 0)
        if n:
            record.msg = f"{record.getMessage()} (and {n} more like it)"
            record.args = ()
        return True
