"""The live table's server messages as typed models: one per type the server sends
(:data:`tutor.app.tables.protocol.SERVER_TYPES`), the shapes the protocol's docstring gives in
words, checked by pydantic.

A client reads every message through :func:`read_server_message` (the frame's size and JSON
first, in :func:`tutor.app.tables.protocol.read_server`), so what the player's side handles is
a typed value, never a dict to probe: a message of the wrong shape is refused in one line that
names its key (``state: clock.left: must be a number``), as a client's message is refused by
the server.  What a seat may see is the server's to decide (:mod:`~tutor.app.tables._outgoing`);
an observation and a deal's result stay the engine's JSON (``obs``, ``result``), read by
:meth:`tutor.engine.observe.Observation.from_json` and the settlement's reader.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, get_args

from pydantic import BeforeValidator, Field, JsonValue, TypeAdapter, ValidationError

from tutor.engine.models import Model, key_path, listed, problem

__all__ = [
    "Bye",
    "ClockState",
    "Closed",
    "DealOver",
    "Incoming",
    "LineCame",
    "Retrying",
    "Log",
    "MatchOver",
    "Overview",
    "OverviewTable",
    "Pong",
    "Refusal",
    "Reply",
    "Review",
    "ReviewItem",
    "Say",
    "SeatCode",
    "ServerMessage",
    "SettlementRow",
    "Standings",
    "StandingRow",
    "State",
    "TeamRow",
    "Waiting",
    "Welcome",
    "read_server_message",
    "server_keys",
    "shape_refusal",
]

#: A JSON object as the engine writes one (an observation, a deal's result).
JSONObject = dict[str, JsonValue]
Number = float | int
#: A claim taken: the oversight's kind and the seconds it took.
Hit = Annotated[tuple[str, Number], BeforeValidator(listed)]


class _Server(Model):
    """A server message: the protocol's version (checked first by the reader) and its type."""

    v: Literal[1] = 1


class ClockState(Model):
    """The clock of the move being waited for (seconds, the server's clock): ``seat`` to move,
    ``kind`` (``move`` or ``away``), ``deadline``, ``left`` (from the message's sending),
    ``move_left`` (of the move time alone; None when away), ``reserve`` (each seat's)."""

    seat: int
    kind: Literal["move", "away"]
    deadline: Number
    left: Number
    move_left: Number | None
    reserve: list[Number]


class Welcome(_Server):
    """``welcome``: the seat this connection has, its token (to it alone), the table's
    settings (seconds for the clocks) and the ruleset's scoring in words."""

    type: Literal["welcome"] = "welcome"
    table: int
    seat: int
    token: str
    name: str
    seated: bool
    back: bool
    names: list[str]
    ruleset: str
    players: int
    level: str
    hint: bool
    hints: int | None
    wait: Number
    move_time: Number
    reserve: Number
    games: int
    played: int
    duplicate: bool
    livery: str | None
    scoring: str | None = None


class State(_Server):
    """``state``: the table as this connection's seat sees it (``obs``: the engine's
    observation, the new actions only), the names, totals, who is away, the clock."""

    type: Literal["state"] = "state"
    table: int
    deal: int
    game: str
    names: list[str]
    totals: list[int]
    away: list[bool]
    cause: list[int] | None
    played: int
    games: int
    seated: bool
    clock: ClockState | None
    obs: JSONObject


class Say(_Server):
    """``say``: a line for everyone at the table."""

    type: Literal["say"] = "say"
    table: int
    text: str


class Waiting(_Server):
    """``waiting``: what the table waits for, and whom (null: it waits no longer)."""

    type: Literal["waiting"] = "waiting"
    table: int
    text: str | None


class Reply(_Server):
    """``reply``: the answer to one intent of this client (``seq`` its number, ``to`` its
    type); ``choices`` the moves an ambiguous one could be; ``unreadable`` True when a word of
    a refused move was not read (a terminal points to ``help``)."""

    type: Literal["reply"] = "reply"
    ok: bool
    text: str
    seq: int | None
    to: str
    choices: list[str] | None = None
    unreadable: bool = False


class SettlementRow(Model):
    """One seat's settlement (:class:`~tutor.engine.deal.SeatSettlement`'s fields: cards and
    stakes)."""

    seat: int
    won_in_play: int
    leftovers: int
    set_aside: int
    won: int
    ante: int
    bonus: int
    for_cards: int
    paid: int
    received: int
    pot_share: int
    net: int | None
    points: int | None


class ReviewItem(Model):
    """A slip of the review: its kind, title, the action's index, the words and why."""

    kind: str
    title: str
    index: int | None
    text: str
    why: str


class Review(Model):
    """The review of one person's deal (to that person alone): claims taken (``hits``, their
    times), missed, false; the median time of a hit (seconds); the slips."""

    hits: list[Hit]
    misses: int
    false_claims: int
    median_hit: Number | None
    items: list[ReviewItem]
    stood_in: int
    timed_out: int


class DealOver(_Server):
    """``deal_over``: the settlement of the deal just finished (all public once it is over),
    the match's totals, and to a person their own review."""

    type: Literal["deal_over"] = "deal_over"
    table: int
    game: str
    practice: bool
    names: list[str]
    result: JSONObject
    settlement: list[SettlementRow]
    unit: str
    totals: list[int]
    deals: int
    of: int
    dealer: int
    pot_to: list[int]
    set_aside: list[str]
    set_aside_to: int | None
    review: Review | None = None


class StandingRow(Model):
    """A seat in the standings: its place, name, table and seat, whether a person holds it,
    their livery, score and games (``dup`` under duplicate play)."""

    place: int
    name: str
    table: int
    seat: int
    person: bool
    livery: str | None
    score: int
    games: int
    dup: Number | None = None


class TeamRow(Model):
    """A livery's total: place, livery, score, people (``dup`` under duplicate play)."""

    place: int
    livery: str
    score: int
    people: int
    dup: Number | None = None


class Standings(_Server):
    """``standings``: the standings after a round (``final`` after the last)."""

    type: Literal["standings"] = "standings"
    round: int
    rounds: int
    final: bool
    duplicate: bool
    rows: list[StandingRow]
    teams: list[TeamRow]


class MatchOver(_Server):
    """``match_over``: the match's totals and plan; to a person also their seat, the game
    they first played (``since``), their result in each game and their livery."""

    type: Literal["match_over"] = "match_over"
    table: int
    names: list[str]
    totals: list[int]
    ruleset: str
    players: int
    plan: dict[str, int]
    deals: int
    seat: int | None = None
    since: int | None = None
    scores: list[int | None] | None = None
    livery: str | None = None


class SeatCode(Model):
    """A seat's code the organiser hands to its ``person`` alone (``ABCDE-FGHJK``)."""

    code: str
    person: str


class OverviewTable(Model):
    """One table for the organiser: public facts only (``obs`` the public view, never a
    hand), the clock and the totals."""

    table: int
    names: list[str]
    persons: list[bool]
    away: list[bool]
    liveries: list[str | None]
    codes: list[SeatCode | None]
    game: str
    playing: bool
    waiting: str | None
    played: int
    games: int
    totals: list[int]
    clock: ClockState | None
    obs: JSONObject | None


class Overview(_Server):
    """``overview`` (the organiser): every table, the rounds published, the standings."""

    type: Literal["overview"] = "overview"
    tables: list[OverviewTable]
    published: int
    rounds: int
    standings: list[StandingRow]
    teams: list[TeamRow]
    duplicate: bool


class Log(_Server):
    """``log`` (the organiser): an event of a table in words, with the game's index and,
    where they apply, the seat, the action's index and a claim's milliseconds; for a claim
    that came after another player's took the same cards, the ``winner``'s seat and the
    ``margin`` (milliseconds); ``at`` the server's wall-clock time of the event
    (``YYYY-MM-DDTHH:MM:SS``), and ``past`` on the history a newly opened view is sent."""

    type: Literal["log"] = "log"
    table: int
    event: str
    text: str
    game: int | None
    seat: int | None = None
    action: int | None = None
    ms: Number | None = None
    winner: int | None = None
    margin: Number | None = None
    at: str | None = None
    past: bool | None = None


class Refusal(_Server):
    """``refused``: a message the server would not take, and why."""

    type: Literal["refused"] = "refused"
    text: str


class Pong(_Server):
    """``pong``: the answer to a ping."""

    type: Literal["pong"] = "pong"
    seq: int | None


class Bye(_Server):
    """``bye``: the server stops (``stopping``) or the seat joined from elsewhere
    (``replaced``)."""

    type: Literal["bye"] = "bye"
    text: str
    reason: str | None = None


#: Every message a server sends, told apart by its ``type``.
ServerMessage = Annotated[
    Welcome
    | State
    | Say
    | Reply
    | DealOver
    | Standings
    | MatchOver
    | Overview
    | Log
    | Refusal
    | Pong
    | Bye
    | Waiting,
    Field(discriminator="type"),
]
_SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def server_keys() -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """Each server message's keys besides ``v`` and ``type``, read from its model: (those it
    always carries, those it may carry)."""
    out = {}
    for cls in get_args(get_args(ServerMessage)[0]):
        fields = {k: f for k, f in cls.model_fields.items() if k not in ("v", "type")}
        out[cls.model_fields["type"].default] = (
            frozenset(k for k, f in fields.items() if f.is_required()),
            frozenset(k for k, f in fields.items() if not f.is_required()),
        )
    return out


def read_server_message(obj: Mapping[str, object]) -> Incoming:
    """A parsed server message (a JSON object of a known type) as its model.  Raises
    :class:`ValueError` with one line naming the type and the key at fault (see
    :func:`shape_refusal`)."""
    try:
        return _SERVER.validate_python(obj)
    except ValidationError as exc:
        raise ValueError(shape_refusal(str(obj.get("type")), exc)) from None


def shape_refusal(kind: str, exc: ValidationError) -> str:
    """A model's refusal of a ``kind`` message as one line: ``state: clock.left: must be a
    number``."""
    loc, message = problem(exc)
    path = key_path(loc[1:] if loc and loc[0] == kind else loc)
    return f"{kind}: {path}: {message}" if path else f"{kind}: {message}"


# -- what else reaches a client's inbox: its own connection's events --------------------------


class Closed(Model):
    """The connection has ended (never sent by a server: the client's link puts it in the
    inbox): ``text`` says why, ``code`` the WebSocket close code where there was one."""

    type: Literal["closed"] = "closed"
    text: str
    code: int | None = None
    gave_up: bool = False  # the link tried again ``tries`` times, and no server answered


class Retrying(Model):
    """The connection has dropped and the link tries again by itself (never sent by a server:
    the client's link puts it in the inbox): try ``attempt`` of ``tries``, after ``delay``
    seconds (websockets' own backoff: :func:`tutor.app.tables._link.retry_delays`)."""

    type: Literal["retrying"] = "retrying"
    attempt: int
    tries: int
    delay: float


class LineCame(Model):
    """A piped line of the player's has arrived (the reader wakes the client's loop)."""

    type: Literal["input"] = "input"


#: What a client's inbox holds: a server's message (read and checked) or its link's event.
Incoming = (
    Welcome
    | State
    | Say
    | Reply
    | DealOver
    | Standings
    | MatchOver
    | Overview
    | Log
    | Refusal
    | Pong
    | Bye
    | Waiting
    | Closed
    | Retrying
    | LineCame
)
