"""What a seat may decide now: its options, and which of them are the same play up to suits.

A seat decides one of two things at a time, never both at once:

- its **turn** (when it is to move): which of the engine's legal turn actions to make
  (:meth:`Deal.legal_actions`);
- its **free actions** (declarations, claims, taking a table mournival: RULES.md 3.4): make one
  now, or :data:`HOLD` (make none yet).  A free action is not an alternative to the turn: the seat
  may do both.  When the seat is also to move, the question is *when*: "the free action now, then
  the turn action X" against "X now, the free action later", for one X (the ``then`` of
  :func:`tutor.engine.analysis.analyse`).
"""

from __future__ import annotations

from tutor.engine.deal import Action, Deal
from tutor.engine.errors import LaughError, UsageError
from tutor.engine.records import action_to_json

__all__ = [
    "HOLD",
    "NoDecision",
    "decision_options",
    "describe_option",
    "option_class",
    "option_to_json",
]

#: The option of making no free action now (holding it), in option lists.
HOLD = None


class NoDecision(LaughError):
    """The seat has nothing to choose at this position (not its turn and no free action)."""


def decision_options(d: Deal, seat: int, which: str = "all") -> list[Action | None]:
    """The options of ``seat`` now, in the engine's order.

    ``which``: ``turn``: the turn actions when the seat is to move (:meth:`Deal.legal_actions`),
    else none; ``free``: the free actions (:meth:`Deal.free_actions`) and :data:`HOLD` (None),
    or none when it has no free action; ``all``: the turn actions when the seat is to move (its
    free actions are then a question of timing, asked with ``which="free"``), else its free
    actions and :data:`HOLD`.  Empty when the deal is over.  Raises :class:`UsageError` for
    another ``which``.
    """
    if which not in ("all", "turn", "free"):
        raise UsageError(f"which must be all, turn or free, not {which!r}")
    if d.is_terminal():
        return []
    to_move = d.to_move == seat
    if which == "turn" or (which == "all" and to_move):
        return list(d.legal_actions()) if to_move else []
    free: list[Action | None] = list(d.free_actions(seat))
    if free:
        free.append(HOLD)
    return free


def option_class(d: Deal, a: Action | None) -> tuple[object, ...] | None:
    """A key for the option ``a`` (None: hold) at ``d``: options with equal keys are the same play
    up to suits (the same ranks from the same places, touching the same open oversights), and
    so worth exactly the same under rules that never look at suits."""
    if a is None:
        return None
    ovs = d.oversights

    def where(c: int) -> tuple[int, tuple[int, ...]]:
        bit = 1 << c
        return (c >> 2, tuple(i for i, o in enumerate(ovs) if o.mask & bit))

    return (
        a.player,
        a.kind,
        a.oversight,
        tuple(sorted(map(where, a.cards))),
        tuple(sorted(map(where, a.table))),
    )


def describe_option(a: Action | None, symbols: bool = True, names: list[str] | None = None) -> str:
    """An option in words: the action's sentence, or ``hold`` for no free action now."""
    if a is None:
        return "hold (no free action now)"
    return a.describe(symbols, names)


def option_to_json(a: Action | None) -> str | dict[str, object]:
    """An option as a record action object, or the string ``"hold"``."""
    return "hold" if a is None else action_to_json(a)
