"""The one declared shape of a live table's state (private to :mod:`tutor.app.tables`).

:class:`~tutor.app.tables.table.Table` is put together from parts (the seats,
:mod:`~tutor.app.tables._people`; people's intents, :mod:`~tutor.app.tables._intents`; the
clock and the deals, :mod:`~tutor.app.tables.table`), each reading and changing the same
state.  :class:`_TableState` is their common base, as :mod:`tutor.engine.deal._shape` is the
deal's: it declares every attribute of that state with its type, and the methods one part
calls on another, so that each part is checked (mypy) against one shape instead of names it
merely hopes the others define.  It holds no behaviour but the narrowings :attr:`_live`,
:attr:`_watch` and :attr:`_mover` (the deal being played, its claim watch, the seat to move:
an error when there is none, a bug of the caller); the attributes are set by
:meth:`Table.__init__`, and the methods are declared for the checker only (each is defined by
exactly one part).

The outbox's entries are declared here too: ``(target, message)``, the target a seat number,
:data:`EVERYONE`, :data:`PUBLIC` or :data:`LOG` with a message as the protocol sends it, or
:data:`STATE` with a :class:`Snapshot` (the states of one moment, made into messages per
connection by the server).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, Literal, TypedDict

if TYPE_CHECKING:
    from tutor.app.tables._people import SeatState, Settings
    from tutor.app.tables._review import Notes
    from tutor.app.tables.table import Table
    from tutor.engine.deal import Action, Deal
    from tutor.engine.match import Game, Match
    from tutor.engine.observe import Observation
    from tutor.engine.race import ClaimWatch, Outcome
    from tutor.engine.rule_bots import Bot

__all__ = ["EVERYONE", "LOG", "PUBLIC", "STATE", "Clock", "Entry", "Message", "Snapshot",
           "Target"]

#: Targets of the outbox besides a seat number: every connection at the table, and the
#: spectators only (people waiting for a seat, the organiser).
EVERYONE: Final = "everyone"
PUBLIC: Final = "public"
#: The organiser's log (and the server's pane and events file): public facts only.
LOG: Final = "log"
#: An outbox entry holding the states of one moment (a :class:`Snapshot`).
STATE: Final = "state"

#: A message as the server sends it: a JSON object of the shape its type's model gives
#: (:mod:`tutor.app.tables.messages`; every message of the network tests is checked by it).
Message = Mapping[str, object]
#: Whom a message of the outbox is for: a seat (0-based), everyone, the spectators, the log.
Target = int | Literal["everyone", "public", "log"]


class Snapshot(TypedDict):
    """The states of one moment (an outbox entry for :data:`STATE`): ``views`` each seat's
    observation (None: a spectator's), ``deal`` the deal's number on the wire, ``cause``
    ``[seat, seq]`` of the intent that led to it (None: the table's own)."""

    views: dict[int | None, Observation]
    deal: int
    cause: list[int | None] | None


#: One entry of a table's outbox (see the module docstring).
Entry = tuple[Target, Message] | tuple[Literal["state"], Snapshot]


class Clock(TypedDict):
    """The clock of the move being waited for, as the messages carry it (seconds, the server's
    clock): see :meth:`tutor.app.tables.table.Table.clock`."""

    seat: int
    kind: Literal["move", "away"]
    deadline: float
    left: float
    move_left: float | None
    reserve: list[float]


class _TableState:
    """The state of one live table: seats 0..n-1, times on the clock the table is given
    (seconds).  See :class:`~tutor.app.tables.table.Table` for what each part means."""

    # -- who and what ---------------------------------------------------------------------------
    number: int                     # 1-based
    code: str                       # its join code
    settings: Settings
    match: Match
    seats: list[SeatState]
    gate: Callable[[Table, Game], bool] | None
    on_finished: Callable[[Table, Deal, float], None] | None
    on_progress: Callable[[Table, Deal, bool], None] | None
    _token: Callable[[], str]
    rejoins: dict[int, tuple[float, float]]     # seat -> (rejoins allowed now, when counted)
    rng: random.Random              # draws free seats
    bots: list[Bot]                 # a computer player for every seat (those without a person)
    bot_rng: random.Random
    reaction_rng: random.Random

    # -- the deal ------------------------------------------------------------------------------
    deal: Deal | None               # None before the first deal
    watch: ClaimWatch | None
    _partial: Deal | None           # a resumed server's unfinished deal
    deal_number: int                # deals begun since the table opened
    _journaled: int                 # actions journaled of the deal (-1: not yet begun)
    notes: dict[int, Notes]         # what each person's review needs, this deal

    # -- the clock -----------------------------------------------------------------------------
    turn_since: float
    before_until: float             # a dealer who is a person may take a table mournival
    next_deal_at: float | None
    reserve_left: list[float]
    turn_index: int                 # turns begun since the table opened
    _hinted: dict[int, int]         # seat -> the turn it had a hint
    _hints_used: dict[int, int]     # seat -> hints had this deal

    # -- what goes out -------------------------------------------------------------------------
    outbox: list[Entry]
    changed: bool
    cause: list[int | None] | None  # [seat, seq] of the intent behind the latest change

    @property
    def _live(self) -> Deal:
        """The deal (an error before the first: a bug of the caller)."""
        d = self.deal
        if d is None:
            raise AssertionError("no deal has begun at this table")
        return d

    @property
    def _watch(self) -> ClaimWatch:
        """The deal's claim watch (an error before the first deal: a bug of the caller)."""
        w = self.watch
        if w is None:
            raise AssertionError("no deal has begun at this table")
        return w

    @property
    def _mover(self) -> int:
        """The seat to move in the deal being played (an error when none is: a bug of the
        caller)."""
        q = self._live.to_move
        if q is None:
            raise AssertionError("the deal is over: nobody is to move")
        return q

    if TYPE_CHECKING:
        # The methods one part calls on another (each defined by one part, named beside it).
        @property
        def names(self) -> list[str]: ...                                       # Seating
        def person(self, seat: int) -> bool: ...                                # Seating
        def _computer(self, seat: int) -> bool: ...                             # Seating
        @property
        def playing(self) -> bool: ...                                          # Table
        def tick(self, now: float, *, before: bool = False,                     # Table
                 most: int = 25) -> None: ...
        def _apply(self, a: Action, t: float, by_table: bool = False) -> None: ...  # Table
        def _after(self, t: float) -> None: ...                                 # Table
        def _say(self, target: Target, text: str) -> None: ...                  # Table
        def _snapshot(self) -> None: ...                                        # Table
        def _log(self, event: str, text: str, **data: Any) -> None: ...         # Table
        def _race_line(self, o: Outcome) -> None: ...                           # Intents
