"""Bounds on the numbers the tutor takes from outside (the command line, ids, saved files), and
the one reader of a whole number typed or stored as text.

A seed is kept in the progress store (SQLite stores 64-bit integers), written into puzzle ids
and deal records, and searched onward from (``seed + k``); :data:`MAX_SEED` leaves room for all
of that.  A match is played and saved deal by deal; :data:`MAX_MATCH_DEALS` bounds its plan.
"""

from __future__ import annotations

from tutor.engine.errors import NotationError

__all__ = [
    "MAX_SEED",
    "MAX_ID_SEED",
    "MAX_MATCH_DEALS",
    "MAX_SIMULATED_DEALS",
    "MAX_RECORDED_DEALS",
    "whole_number",
    "seed_number",
]

#: The largest seed (18 digits): a seed plus any search offset still fits a 64-bit integer.
MAX_SEED = 10**18 - 1
#: The largest seed a puzzle id may carry: a seed searched onward from :data:`MAX_SEED` stays
#: below it, and SQLite stores it (a 64-bit integer).
MAX_ID_SEED = 2**63 - 1
#: The most deals a match may plan (a match is played and saved deal by deal).
MAX_MATCH_DEALS = 1000
#: The most deals one ``laugh simulate`` study may play.
MAX_SIMULATED_DEALS = 1_000_000
#: The most deals whose records one study may keep (every record is held until it is written).
MAX_RECORDED_DEALS = 10_000


def whole_number(text: str, low: int, high: int, what: str = "a whole number") -> int:
    """The whole number ``text`` says (ASCII digits, an optional leading ``-``, surrounding
    space ignored), from ``low`` to ``high``.

    Only ASCII digits count: ``²``, ``١٢`` (Arabic-Indic) and ``1_000`` are refused, and a text
    longer than ``high`` could be is refused before it is converted (so 5,000 digits cost
    nothing).  Raises :class:`~tutor.engine.errors.NotationError` whose message says what is
    allowed (``what``, say ``a seed``), quoting at most 20 characters of ``text``.
    """
    t = str(text).strip()
    digits = t[1:] if t.startswith("-") else t
    longest = max(len(str(abs(low))), len(str(abs(high))))
    shown = t if len(t) <= 20 else t[:17] + "..."
    allowed = f"{what} is a whole number from {low:,} to {high:,}"
    if not digits or not (digits.isascii() and digits.isdigit()):
        raise NotationError(f"{shown!r} is not a whole number in digits 0-9; {allowed}")
    big = len(digits.lstrip("0")) > longest
    value = 0 if big else int(t)
    if (big and t.startswith("-")) or (not big and value < low):
        raise NotationError(
            f"{shown!r} is too small: {what} must be at least {low:,} (from {low:,} to {high:,})"
        )
    if big or value > high:
        raise NotationError(
            f"{shown!r} is too large: {what} must be at most {high:,} (from {low:,} to {high:,})"
        )
    return value


def seed_number(text: str) -> int:
    """A seed read from ``text``: :func:`whole_number` from 0 to :data:`MAX_SEED`, given as
    digits alone (a seed is copied, never typed as an answer: ``" 5"`` is refused, as a seed
    with a space in it would name another deal to whoever copies it)."""
    if str(text) != str(text).strip():
        raise NotationError(
            f"{str(text)[:20]!r} has spaces around it; a seed is a whole number "
            f"from 0 to {MAX_SEED:,}, digits alone"
        )
    return whole_number(text, 0, MAX_SEED, "a seed")
