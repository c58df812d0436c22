"""What the seats of a deal are called (RULES.md 9: seats 0..n-1 in turn order, each seat's
left-hand neighbour the next number).

One function, :func:`seat_names`, names every seat in one of three ways: by number for puzzles
and explanations ("Player 2", "you (Player 2)"), by name at a practice table (the learner "You",
the computer players :data:`SEAT_NAMES` in order to the learner's left), or by place relative to
the dealer for self-play studies ("dealer", "eldest", "dealer+2").
"""

from __future__ import annotations

from tutor.engine.errors import UsageError

__all__ = ["SEAT_NAMES", "SEAT_STYLES", "player_name", "seat_names"]

#: Names for the computer players, seat by seat after the learner (short for narrow terminals).
SEAT_NAMES = ("Anne", "Ralph", "Mary", "Tom", "Bess", "Will", "Kate")
#: The ways :func:`seat_names` can name the seats.
SEAT_STYLES = ("numbered", "named", "dealer")


def player_name(seat: int, you: int | None = None) -> str:
    """``Player 2``; ``you (Player 2)`` when ``seat`` is the learner's seat ``you``."""
    return f"you (Player {seat})" if seat == you else f"Player {seat}"


def seat_names(players: int, you: int | None = None, *, style: str = "numbered") -> list[str]:
    """A name for each of ``players`` seats, in seat order.

    ``style`` ``numbered``: :func:`player_name` of each seat ("Player 0", "you (Player 1)", ...);
    ``named``: "You" at seat ``you`` (required) and :data:`SEAT_NAMES` in turn order to its left;
    ``dealer``: places relative to the dealer rather than seats ("dealer", "eldest", "dealer+2",
    ...; ``you`` is ignored).  Raises :class:`UsageError` for another style, a ``named`` table
    without ``you``, or more computer players than :data:`SEAT_NAMES` holds.
    """
    if style == "numbered":
        return [player_name(q, you) for q in range(players)]
    if style == "dealer":
        return ["dealer", "eldest"][:players] + [f"dealer+{i}" for i in range(2, players)]
    if style != "named":
        raise UsageError(f"unknown seat style {style!r}; choose from {', '.join(SEAT_STYLES)}")
    if you is None or not 0 <= you < players:
        raise UsageError(f"name the learner's seat (0 to {players - 1}) for a named table")
    if players - 1 > len(SEAT_NAMES):
        raise UsageError(f"at most {len(SEAT_NAMES) + 1} players can be named")
    names = [""] * players
    names[you] = "You"
    for k in range(1, players):
        names[(you + k) % players] = SEAT_NAMES[k - 1]
    return names
