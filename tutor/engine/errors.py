"""The one rooted error hierarchy of the tutor.

Every error the program raises on purpose derives from :class:`LaughError`, so the command line
can turn any of them into a one-line message instead of a traceback.
"""

from __future__ import annotations


class LaughError(Exception):
    """Root of every error this package raises deliberately."""


class NotationError(LaughError, ValueError):
    """A card or answer could not be read; the message names the input and what was expected."""


class IllegalAction(LaughError):
    """An action that the rules do not allow at this point of the deal; the message says why."""


class RecordError(LaughError):
    """A deal record that is malformed or not legal; the message gives the index of the first bad action."""

    def __init__(self, message: str, index: int | None = None):
        super().__init__(message)
        self.index = index


class DataError(LaughError):
    """A malformed data file (source, lesson or puzzle definition): names the file, line and key."""


class UsageError(LaughError):
    """A malformed command-line choice (unknown ruleset, unsupported player count, bad option)."""
