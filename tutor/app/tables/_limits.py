"""The one rate limiter of the live tables: a token bucket (a part of
:mod:`tutor.app.tables.server`).

Every limit of the server is one :class:`Bucket`, timed by the caller's clock (seconds; a test
passes its own times): what a connection sends (:class:`~tutor.app.tables.protocol.RateLimit`,
and its "too many messages" notice, at most one a second), the wrong codes of an address and
of every address together (:class:`~tutor.app.tables._guard.Guard`), a seat taken back
(:meth:`~tutor.app.tables.table.Table.join`), the organiser's overview (at most four a
second), and the log's lines of one kind (:class:`~tutor.app.tables._guard.Quiet`,
:class:`~tutor.app.tables._guard.OneLine`: a bucket of one token is "at most once every so
many seconds").
"""

from __future__ import annotations

__all__ = ["Bucket"]

#: Slack in comparing a level with a cost: the refill of exactly the time a token takes may
#: come out a hair under one in floating point.
_EPS = 1e-9


class Bucket:
    """A token bucket: at most ``burst`` tokens, ``rate`` tokens a second flowing back in;
    full at ``now`` when made (or holding ``tokens``).  ``take`` spends a token if there is
    one, ``spend`` whether or not there is (never below none), ``give`` puts one back (never
    above ``burst``), ``wait`` says in how many seconds one will be there."""

    __slots__ = ("burst", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: float, now: float, tokens: float | None = None):
        if rate <= 0 or burst < 1:
            raise ValueError(
                f"a bucket needs a rate above 0 and a burst of 1 or more, got "
                f"rate {rate}, burst {burst}"
            )
        self.rate = float(rate)
        self.burst = float(burst)
        self.tokens = self.burst if tokens is None else float(tokens)
        self.last = now

    @classmethod
    def every(cls, seconds: float, now: float) -> Bucket:
        """At most one a ``seconds`` (a bucket of one token): a log line of one kind, a
        notice, the organiser's overview."""
        return cls(1.0 / seconds, 1, now)

    def level(self, now: float) -> float:
        """The tokens there at ``now`` (refilled since the last look; a clock that went back
        refills nothing)."""
        if now > self.last:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
            self.last = now
        return self.tokens

    def take(self, now: float, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens at ``now`` if they are there (True), else spend nothing
        (False)."""
        if self.level(now) + _EPS >= cost:
            self.tokens = max(0.0, self.tokens - cost)
            return True
        return False

    def spend(self, now: float, cost: float = 1.0) -> None:
        """Spend ``cost`` tokens at ``now``, what is there if fewer (never below none)."""
        self.tokens = max(0.0, self.level(now) - cost)

    def give(self, n: float = 1.0) -> None:
        """Put ``n`` tokens back (a message taken that should not have counted)."""
        self.tokens = min(self.burst, self.tokens + n)

    def wait(self, now: float, cost: float = 1.0) -> float:
        """Seconds from ``now`` until ``cost`` tokens are there (0: they are now)."""
        short = cost - self.level(now)
        return 0.0 if short <= _EPS else short / self.rate

    def full(self, now: float) -> bool:
        """True when the bucket is full at ``now`` (nothing spent that has not come back)."""
        return self.level(now) + _EPS >= self.burst
