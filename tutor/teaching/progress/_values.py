"""The store's edge: every value a caller hands the store is checked before it reaches SQLite,
so that nothing SQLite cannot hold (an integer beyond 64 bits: ``OverflowError``) and nothing the
damage checks would later call damage (a time past the year 3000, a band of 7) is ever written
(private: see :mod:`tutor.teaching.progress`)."""

from __future__ import annotations

import math

from tutor.engine.errors import LaughError
from tutor.teaching.progress._schema import _LATEST, CONTEXTS, OUTCOMES

#: The whole numbers SQLite keeps (64-bit signed).
SMALLEST, LARGEST = -(2**63), 2**63 - 1


class StoreValueError(LaughError, ValueError):
    """A value the progress store refuses to keep (the message names it and says what it may
    be); nothing was written."""


def shown(value) -> str:
    """A value as an error message shows it: a long number by its first digits and length."""
    text = repr(value)
    if isinstance(value, int) and len(text) > 24:
        return f"{text[:12]}... ({len(text.lstrip('-'))} digits)"
    return text if len(text) <= 60 else text[:57] + "..."


def whole(value, what: str, low: int = SMALLEST, high: int = LARGEST) -> int:
    """``value`` as an int from ``low`` to ``high``; :class:`StoreValueError` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise StoreValueError(
            f"the progress store cannot keep {what} {shown(value)}: it must be "
            f"a whole number from {low} to {high}"
        )
    return value


def moment(value, what: str = "the time") -> float:
    """``value`` as a Unix time from 0 to the year 3000 (the damage checks' bound)."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if ok and isinstance(value, int):
        ok = 0 <= value <= _LATEST
    if not ok or not (math.isfinite(value) and 0 <= value <= _LATEST):
        raise StoreValueError(
            f"the progress store cannot keep {what} {shown(value)}: it must be "
            f"a Unix time from 0 to {_LATEST}"
        )
    return float(value)


def text(value, what: str, optional: bool = False) -> str | None:
    """``value`` as text (None allowed when ``optional``)."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise StoreValueError(
            f"the progress store cannot keep {what} {shown(value)}: it must be text"
        )
    return value


def band(value) -> int | None:
    """A difficulty band: None or 1 to 5."""
    return None if value is None else whole(value, "the difficulty", 1, 5)


def outcome(value) -> str:
    """A sighting's outcome: one of :data:`~tutor.teaching.progress._schema.OUTCOMES`."""
    if value not in OUTCOMES:
        raise StoreValueError(
            f"the progress store cannot keep the outcome {shown(value)}: it "
            f"must be one of {', '.join(OUTCOMES)}"
        )
    return value


def context(value) -> str:
    """Where a sighting was made: one of :data:`~tutor.teaching.progress._schema.CONTEXTS`."""
    if value not in CONTEXTS:
        raise StoreValueError(
            f"the progress store cannot keep the context {shown(value)}: it "
            f"must be one of {', '.join(CONTEXTS)}"
        )
    return value
