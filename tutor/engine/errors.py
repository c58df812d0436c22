"""The one rooted error hierarchy of the tutor.

Every error the program raises on purpose derives from :class:`LaughError`, so the command line
can turn any of them into a one-line message instead of a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tutor.engine.reasons import Reason, as_reason


class LaughError(Exception):
    """Root of every error this package raises deliberately."""


class NotationError(LaughError, ValueError):
    """A card or answer could not be read; the message names the input and what was expected.

    ``detail`` is what is wrong without the input (``'X' is not a suit; expected ...`` of
    ``'7X' is not a card: 'X' is not a suit; expected ...``), for a screen that names the input
    itself; the whole message where there is nothing to leave off.
    """

    def __init__(self, message: str = "", *, detail: str | None = None):
        super().__init__(message)
        self.detail = message if detail is None else detail


class ActionError(LaughError):
    """A move that cannot be made as written (python-chess style): the base of
    :class:`InvalidAction`, :class:`IllegalAction`, :class:`AmbiguousAction`.

    ``text`` is the input as typed (None when the action was built by a program), ``seat`` the
    seat it was read for, ``reason`` the explanation without the input (a
    :class:`~tutor.engine.reasons.Reason`: a screen says it with :meth:`Reason.words`), and
    ``candidates`` the legal actions it could mean (ambiguous or incomplete input), else empty.
    """

    def __init__(
        self,
        reason: str,
        text: str | None = None,
        seat: int | None = None,
        candidates: Iterable[Any] = (),
    ):
        super().__init__(f"{text!r}: {reason}" if text is not None else reason)
        self.reason: Reason = as_reason(reason)
        self.text = text
        self.seat = seat
        self.candidates = tuple(candidates)


class InvalidAction(ActionError, NotationError):
    """The input cannot be read as a move at all (not a card, an unknown word)."""


class IllegalAction(ActionError):
    """An action that the rules do not allow at this point of the deal; ``reason`` says why
    (the card is not in the hand, not on the table, it is not the player's turn, ...)."""


class AmbiguousAction(ActionError):
    """The input fits several legal actions; ``candidates`` lists them."""


class IncompleteAction(AmbiguousAction):
    """The input names some but not all of the cards of the action it means (a claim or
    declaration names all its cards, or its rank alone): "which cards?"."""


class RecordError(LaughError):
    """A deal record that is malformed or not legal; the message gives the index of the first
    bad action.

    ``index`` is that action's index (None for a problem of the record as a whole), ``problem``
    the message without the place (``hand: '7X' is not a card`` of ``action 0: hand: '7X' is not
    a card``), for a screen that names the place itself (one action read alone).
    """

    def __init__(self, message: str, index: int | None = None, *, problem: str | None = None):
        super().__init__(message)
        self.index = index
        self.problem = message if problem is None else problem


class DataError(LaughError):
    """A malformed data file (source, lesson or puzzle definition): names the file, line and key."""


class UsageError(LaughError):
    """A malformed command-line choice (unknown ruleset, unsupported player count, bad option)."""
