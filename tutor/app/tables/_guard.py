"""What keeps one guest from spoiling the evening for the others (a part of
:mod:`tutor.app.tables.server`): connections limited per address and in all, from the moment
they are accepted; guesses at the codes limited per address; refusals and errors logged one line
each, at most once a second for each kind, with a count of those left out.

The odds of guessing a code.  A join code has :data:`~tutor.app.tables.protocol.JOIN_CODE`
letters and digits of 31 (about 8.2 x 10^14 codes), the organiser's
:data:`~tutor.app.tables.protocol.ADMIN_CODE` (about 7.9 x 10^17).  An address may check
codes only while it has guesses left (:meth:`Guard.guess`: then no code is checked at all, so a
refusal says nothing), and each wrong code spends one (:meth:`Guard.missed`; a right one
spends none, so a class joining at once from one address is never refused): at most
:data:`GUESS_BURST` at once, then :data:`GUESS_RATE` a second.  An address guessing all
evening (five hours) makes at most 20 + 0.5 x 18,000 = 9,020 guesses: against 64 tables' codes
the chance that any guess is a join code is under 7.1 x 10^-10, that one is the organiser's code
under 1.2 x 10^-14; a thousand addresses guessing together, under 7.1 x 10^-7.  A wrong code
also ends its connection.
"""

from __future__ import annotations

import logging
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["GUESS_BURST", "GUESS_RATE", "Guard", "Limits", "OneLine", "Quiet"]

#: Guesses at a code an address may make at once, and a second after that.
GUESS_BURST, GUESS_RATE = 20, 0.5
#: Descriptors never given to connections: the files, the log, the hints' pipes, a margin for
#: connections accepted in one go before they are turned away.
SPARE_FDS = 160


@dataclass
class Limits:
    """The server's limits: connections from one address (``per_address``) and in all
    (``total``, lowered to what the descriptors allow), seconds a connection has to join or
    watch (``join_seconds``)."""

    per_address: int = 50
    total: int = 1000
    join_seconds: float = 10.0


@dataclass
class _Bucket:
    tokens: float
    last: float


@dataclass
class Guard:
    """Counts connections by address and the guesses each address makes.  ``now()`` is the
    clock (seconds)."""

    limits: Limits = field(default_factory=Limits)
    now: Callable[[], float] = time.monotonic
    open: dict[str, int] = field(default_factory=dict)
    guesses: dict[str, _Bucket] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.total = min(self.limits.total, _descriptor_room())

    @property
    def count(self) -> int:
        """Connections open now."""
        return sum(self.open.values())

    def admit(self, address: str) -> str | None:
        """A connection from ``address`` has been accepted: None when it may stay (it is
        counted until :meth:`gone`), else why not (it is not counted)."""
        if self.count >= self.total:
            return f"the server is full ({self.total} connections)"
        if self.open.get(address, 0) >= self.limits.per_address:
            return f"too many connections from {address} (at most {self.limits.per_address})"
        self.open[address] = self.open.get(address, 0) + 1
        return None

    def gone(self, address: str) -> None:
        """A connection :meth:`admit` let in has closed."""
        n = self.open.get(address, 0) - 1
        if n > 0:
            self.open[address] = n
        else:
            self.open.pop(address, None)

    def _bucket(self, address: str) -> _Bucket:
        now = self.now()
        b = self.guesses.get(address)
        if b is None:
            if len(self.guesses) > 10_000:          # forget addresses with a full bucket
                self.guesses = {a: x for a, x in self.guesses.items()
                                if x.tokens + (now - x.last) * GUESS_RATE < GUESS_BURST}
            b = self.guesses[address] = _Bucket(float(GUESS_BURST), now)
        b.tokens = min(float(GUESS_BURST), b.tokens + (now - b.last) * GUESS_RATE)
        b.last = now
        return b

    def guess(self, address: str) -> float | None:
        """``address`` would check a code now: None when it may, else the seconds until it may
        again (then no code is checked at all, right or wrong: a refusal says nothing of the
        code)."""
        b = self._bucket(address)
        return None if b.tokens >= 1 else (1 - b.tokens) / GUESS_RATE

    def missed(self, address: str) -> None:
        """A code ``address`` gave was wrong: it spends one of the address's guesses (a right
        code spends none, so a class joining at once from one address is never refused)."""
        b = self._bucket(address)
        b.tokens = max(0.0, b.tokens - 1)


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

    def __init__(self, log: logging.Logger, now: Callable[[], float] = time.monotonic,
                 every: float = 1.0):
        self.log = log
        self.now = now
        self.every = every
        self._last: dict[str, float] = {}
        self._left: dict[str, int] = {}

    def say(self, kind: str, level: int, text: str) -> bool:
        """Log ``text`` at ``level`` unless a line of ``kind`` went less than a second ago
        (then it is counted); True when it was logged."""
        now = self.now()
        last = self._last.get(kind)
        if last is not None and now - last < self.every:
            self._left[kind] = self._left.get(kind, 0) + 1
            return False
        n = self._left.pop(kind, 0)
        self._last[kind] = now
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
        self._last: dict[tuple[str, str], float] = {}
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
            return True             # the server's own lines: rate-limited where they are said
        key = (record.name, str(record.msg)[:80])
        now = self.now()
        last = self._last.get(key)
        if last is not None and now - last < self.every:
            self._left[key] = self._left.get(key, 0) + 1
            return False
        self._last[key] = now
        if len(self._last) > 1000:
            self._last = {key: now}
        n = self._left.pop(key, 0)
        if n:
            record.msg = f"{record.getMessage()} (and {n} more like it)"
            record.args = ()
        return True
