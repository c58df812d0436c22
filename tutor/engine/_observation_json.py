"""The shape of an observation on the wire (:meth:`tutor.engine.observe.Observation.to_json`),
as a model: what :meth:`~tutor.engine.observe.Observation.from_json` checks before it builds
the observation.  Loaded only when an observation is read (a table's client), so that the
engine starts without pydantic."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, JsonValue

from tutor.engine._record_json import sorted_cards
from tutor.engine.models import Model, listed

__all__ = ["ObservationIn"]

#: The most actions a deal's history holds on the wire (far more than any deal makes).
MAX_ACTIONS = 10_000


Seat = Annotated[int, Field(ge=0, le=51)]
Cards = Annotated[tuple[int, ...], BeforeValidator(sorted_cards)]
#: A lie-down payment: payer, payee (a seat, or "pot"), stakes.
Payment = Annotated[
    tuple[Seat, Seat | Literal["pot"], Annotated[int, Field(ge=0, le=10_000)]],
    BeforeValidator(listed),
]
ActionIn = dict[str, JsonValue]


class ObservationIn(Model):
    """An observation as :meth:`~tutor.engine.observe.Observation.to_json` writes it: cards as
    record codes, actions as deal-record actions (RULES.md 9), read by the engine after this
    model has checked the shape."""

    ruleset: Annotated[str, Field(min_length=1, max_length=100)]
    players: Annotated[int, Field(ge=1, le=52)]
    dealer: Seat
    seat: Seat | None
    phase: Annotated[str, Field(max_length=20)]
    started: bool
    to_move: Seat | None
    turn_captures: Annotated[int, Field(ge=0, le=52)]
    hand: Cards
    table: Cards
    won: Annotated[list[Cards], Field(max_length=52)]
    set_aside: Cards
    hand_sizes: Annotated[list[Annotated[int, Field(ge=0, le=52)]], Field(max_length=52)]
    out: Annotated[list[bool], Field(max_length=52)]
    history_from: Annotated[int, Field(ge=0, le=MAX_ACTIONS)]
    actions: Annotated[int, Field(ge=0, le=MAX_ACTIONS)]
    history: Annotated[list[ActionIn], Field(max_length=MAX_ACTIONS)]
    pot: Annotated[int, Field(ge=-10_000, le=10_000)]
    payments: Annotated[list[Payment], Field(max_length=52)]
    moves: Annotated[list[ActionIn], Field(max_length=MAX_ACTIONS)]
    turn_count: Annotated[int, Field(ge=0, le=MAX_ACTIONS)]
    result: dict[str, JsonValue] | None
