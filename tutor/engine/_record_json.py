"""The shape of a deal record (RULES.md 9) and of a saved match, as models: what
:func:`tutor.engine.records.replay` and :meth:`tutor.engine.match.Match.from_json` check before
the engine replays a single action.  Loaded only when a record is read, so that the engine and
``laugh`` start without pydantic.

A refusal is one :class:`~tutor.engine.errors.RecordError` line naming the key and the value
given (``players: must be a whole number from 1 to 52, got '5'``); a refusal inside an action
names the action by its index (``action 3: hand: '7X' is not a card``) and sets the error's
``index``, as the engine's own refusal of an illegal action does.
"""

from __future__ import annotations

import math
from typing import Annotated, Literal, get_args

from pydantic import (
    BeforeValidator,
    Discriminator,
    Field,
    JsonValue,
    PlainValidator,
    Tag,
    TypeAdapter,
    ValidationError,
)

from tutor.engine.cards import codes, parse_card
from tutor.engine.deal import ACTION_KINDS, Action
from tutor.engine.errors import NotationError, RecordError
from tutor.engine.limits import MAX_MATCH_DEALS, MAX_SEED
from tutor.engine.models import (
    Model,
    describe,
    first_error,
    key_path,
    listed,
    problem,
    whole_number,
)
from tutor.engine.parameters import OVERSIGHT_KINDS

__all__ = ["MatchIn", "RecordIn", "ResultIn", "read_action", "read_match", "read_record"]

#: The format names (as :data:`tutor.engine.records.FORMAT` and
#: :data:`tutor.engine.match.MATCH_FORMAT`: a test holds them equal).
FORMAT = "laugh-and-lie-down/deal@1"
MATCH_FORMAT = "laugh-and-lie-down/match@1"
#: The most actions a record holds (far more than any deal makes).
MAX_ACTIONS = 10_000


def _cards(value: object) -> tuple[int, ...]:
    """A list of record card codes (``7H``) as cards, in the order given."""
    if not isinstance(value, list):
        raise ValueError(f"must be a list of card codes, got {describe(value)}")
    if len(value) > 52:
        raise ValueError(f"must be a list of at most 52 card codes, got {len(value)} entries")
    for i, c in enumerate(value):
        if not isinstance(c, str) or len(c) > 3:  # a code is 2 or 3 characters: 7H, 10♥
            raise ValueError(f"must be a list of card codes, got {describe(c)} at [{i}]")
    try:
        return tuple(parse_card(c) for c in value)
    except NotationError as exc:
        raise ValueError(str(exc)) from None


def sorted_cards(value: object) -> tuple[int, ...]:
    """A list of record card codes as sorted cards (an observation's hand, table, piles);
    ValueError naming what is wrong."""
    return tuple(sorted(_cards(value)))


def _sorted_codes(value: object) -> list[str]:
    """A list of card codes as the replay writes it: sorted, each in its one spelling."""
    return codes(_cards(value))


def _pack(value: object) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise ValueError(f"must be a list of 52 card codes, got {describe(value)}")
    if len(value) > 52:
        raise ValueError(f"must be the 52 distinct cards, got {len(value)} entries")
    try:
        pack = tuple(parse_card(c) for c in value)
    except NotationError as exc:
        raise ValueError(str(exc)) from None
    if len(pack) != 52 or len(set(pack)) != 52:
        raise ValueError(
            f"must be the 52 distinct cards, got {len(pack)} cards, {len(set(pack))} distinct"
        )
    return pack


def _oversight(value: object) -> str:
    if not isinstance(value, str) or value not in OVERSIGHT_KINDS:
        raise ValueError(
            f"unknown oversight {describe(value)}; expected one of {', '.join(OVERSIGHT_KINDS)}"
        )
    return value


Cards = Annotated[tuple[int, ...], PlainValidator(_cards)]
SortedCodes = Annotated[list[str], PlainValidator(_sorted_codes)]
Seat = Annotated[int, PlainValidator(whole_number(0, 51))]
Stakes = Annotated[int, PlainValidator(whole_number(-1_000_000, 1_000_000))]
#: A lie-down payment: payer, payee (a seat, or "pot"), stakes.
Payment = Annotated[tuple[Seat, Seat | Literal["pot"], Stakes], BeforeValidator(listed)]


class _Act(Model):
    player: Seat

    def to_action(self) -> Action:
        """The engine's action (cards sorted)."""
        raise NotImplementedError


class EndTurnIn(_Act):
    """``end_turn``: the player ends a turn of captures."""

    action: Literal["end_turn"]

    def to_action(self) -> Action:
        return Action(self.player, self.action)


class CaptureIn(_Act):
    """``capture`` or ``play_on_capture``: hand cards for table cards."""

    action: Literal["capture", "play_on_capture"]
    hand: Cards
    table: Cards

    def to_action(self) -> Action:
        return Action.make(self.player, self.action, self.hand, self.table)


class ClaimIn(_Act):
    """``claim``: an oversight named, with the cards it concerns."""

    action: Literal["claim"]
    oversight: Annotated[str, PlainValidator(_oversight)]
    cards: Cards

    def to_action(self) -> Action:
        return Action.make(self.player, self.action, self.cards, (), self.oversight)


class CardsIn(_Act):
    """Every other action: the cards it moves or shows."""

    action: Literal[
        "take_table_mournival",
        "declare_prial",
        "declare_mournival",
        "declare_dead_pair",
        "declare_pair",
        "lie_down",
    ]
    cards: Cards

    def to_action(self) -> Action:
        return Action.make(self.player, self.action, self.cards)


_MODEL_OF = {
    "end_turn": "[end_turn]",
    "capture": "[capture]",
    "play_on_capture": "[capture]",
    "claim": "[claim]",
}
if set(ACTION_KINDS) != set(_MODEL_OF) | set(get_args(CardsIn.model_fields["action"].annotation)):
    raise AssertionError("every kind of action has its model")  # pragma: no cover


def _kind(value: object) -> str | None:
    """The tag of the action model for ``value`` (tags hold brackets, so that a refusal's key
    path leaves them out); None for an unknown kind; not an object: any model, to refuse it."""
    if not isinstance(value, dict):
        return "[end_turn]"
    kind = value.get("action")
    if not isinstance(kind, str) or kind not in ACTION_KINDS:
        return None
    return _MODEL_OF.get(kind, "[cards]")


ActionIn = Annotated[
    Annotated[EndTurnIn, Tag("[end_turn]")]
    | Annotated[CaptureIn, Tag("[capture]")]
    | Annotated[ClaimIn, Tag("[claim]")]
    | Annotated[CardsIn, Tag("[cards]")],
    Discriminator(_kind, custom_error_type="unknown_action", custom_error_message="unknown action"),
]


class LeftoversIn(Model):
    """A result's leftovers: the seat they went to (or null) and the cards."""

    to: Seat | None = None
    cards: SortedCodes


class ResultIn(Model):
    """A record's ``result`` block (RULES.md 9), read to be compared with the replay's: a key
    left out reads as null, and differs from the replay's value if that is not null."""

    last_in: Seat | None = None
    bonus_to: Seat | None = None
    won: Annotated[list[SortedCodes], Field(max_length=52)] | None = None
    leftovers: LeftoversIn | None = None
    net: Annotated[list[Stakes], Field(max_length=52)] | None = None
    points: Annotated[list[Stakes], Field(max_length=52)] | None = None
    payments: Annotated[list[Payment], Field(max_length=1_000)] | None = None

    def as_json(self) -> dict[str, object]:
        """The block as :func:`tutor.engine.records.result_to_json` writes it (card lists sorted,
        payments as lists)."""
        out = self.model_dump(mode="json")
        if self.payments is not None:
            out["payments"] = [list(p) for p in self.payments]
        return out


class RecordIn(Model):
    """A deal record (RULES.md 9): format, ruleset, players, dealer, the pack, the actions, and
    the result once the deal is over."""

    format: Literal["laugh-and-lie-down/deal@1"]
    ruleset: Annotated[str, Field(max_length=100)]
    players: Annotated[int, PlainValidator(whole_number(1, 52))]
    dealer: Seat
    pack: Annotated[tuple[int, ...], PlainValidator(_pack)]
    actions: Annotated[list[ActionIn], Field(max_length=MAX_ACTIONS)]
    result: ResultIn | None = None


def _plain(value: object) -> JsonValue:
    if isinstance(value, (dict, list)) or (isinstance(value, float) and not math.isfinite(value)):
        raise ValueError("must be a plain value (text, a number, true, false or null)")
    return value  # type: ignore[return-value]     # text, a number, a boolean or null


def _cut(value: object) -> dict[int, int]:
    if not isinstance(value, dict) or not value:
        raise ValueError("must be an object of seats and cards")
    out = {}
    for seat, card in value.items():
        if not (isinstance(seat, str) and seat.isascii() and seat.isdigit() and len(seat) <= 2):
            raise ValueError(f"{describe(seat)} is not a seat")
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 52:
            raise ValueError(
                f"seat {seat}'s card must be a card number from 0 to 51, got {describe(card)}"
            )
        out[int(seat)] = card
    return out


def _seed(value: object) -> int | str:
    if isinstance(value, str):
        if not 0 < len(value) <= 100:
            raise ValueError("a seed written as text has 1 to 100 characters")
        return value
    return whole_number(0, MAX_SEED)(value)


class MatchIn(Model):
    """A saved match (:meth:`tutor.engine.match.Match.to_json`): every key required; the deals
    are deal records, each read by :func:`read_record` when the match replays it."""

    format: Literal["laugh-and-lie-down/match@1"]
    ruleset: Annotated[str, Field(max_length=100)]
    players: Annotated[int, PlainValidator(whole_number(1, 52))]
    seed: Annotated[int | str, PlainValidator(_seed)]
    first_dealer: Seat
    cuts: Annotated[list[Annotated[dict[int, int], PlainValidator(_cut)]], Field(max_length=52)]
    deals_planned: Annotated[int, PlainValidator(whole_number(1, MAX_MATCH_DEALS))]
    meta: dict[Annotated[str, Field(max_length=100)], Annotated[JsonValue, PlainValidator(_plain)]]
    deals: Annotated[list[dict[str, JsonValue]], Field(max_length=MAX_MATCH_DEALS)]


_ACTION = TypeAdapter(ActionIn)


def _refusal(exc: ValidationError, lead: tuple[int | str, ...] = ()) -> RecordError:
    """One line for the first problem of ``exc``: an action's by its index."""
    err = first_error(exc)
    loc, message = problem(exc, given=True)
    loc = lead + loc
    if err["type"] == "unknown_action":
        got = err["input"].get("action") if isinstance(err["input"], dict) else None
        message = f"unknown action {describe(got)}; expected one of {', '.join(ACTION_KINDS)}"
    if err["type"] == "missing" and loc == ("format",):
        message = f"must be {FORMAT!r}, got nothing"
    if len(loc) >= 2 and loc[0] == "actions" and isinstance(loc[1], int):
        place = key_path(loc[2:])
        what = ": ".join(p for p in (place, message) if p)
        return RecordError(
            ": ".join(p for p in (f"action {loc[1]}", what) if p), loc[1], problem=what
        )
    if not loc:
        return RecordError(f"must be an object, got {describe(err['input'])}")
    return RecordError(f"{key_path(loc)}: {message}")


def read_record(value: object) -> RecordIn:
    """``value`` (parsed JSON) checked as a deal record.  Raises
    :class:`~tutor.engine.errors.RecordError`: one line naming the key and the value given
    (``.index`` set for a malformed action)."""
    try:
        return RecordIn.model_validate(value)
    except ValidationError as exc:
        raise _refusal(exc) from None


def read_action(value: object, index: int) -> Action:
    """``value`` (parsed JSON) read as the action at ``index`` of a record.  Raises
    :class:`~tutor.engine.errors.RecordError` naming the index (``action 3: hand: '7X' is not a
    card``), with ``.index`` set."""
    try:
        return _ACTION.validate_python(value).to_action()
    except ValidationError as exc:
        raise _refusal(exc, ("actions", index)) from None


def read_match(value: object) -> MatchIn:
    """``value`` (parsed JSON) checked as a saved match (its deals still to be replayed).
    Raises :class:`~tutor.engine.errors.RecordError`, one line naming the key."""
    if not isinstance(value, dict) or value.get("format") != MATCH_FORMAT:
        raise RecordError(f"not a saved match (format must be {MATCH_FORMAT!r})")
    try:
        return MatchIn.model_validate(value)
    except ValidationError as exc:
        raise _refusal(exc) from None
