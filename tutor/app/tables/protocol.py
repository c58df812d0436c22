"""The live table's messages: a versioned JSON schema, every shape in this one place, read at
the server's edge with caps.

Every message is one JSON object in one WebSocket text frame, with ``"v"`` (the protocol
version, :data:`VERSION`) and ``"type"``.  A client sends (:data:`CLIENT_TYPES`; the keys each
may carry are :data:`CLIENT_KEYS`):

===========  ================================================================================
``join``     ``code`` (a table's join code), ``name`` (1-24 printable characters), ``token``
             (optional: the seat code a join gave, or the organiser gave; it alone takes a
             seat back, under the name it was given, and the name may then be left out; case,
             spaces and dashes do not matter), ``livery`` (optional: a club or livery company,
             1-40 characters)
``act``      a turn action or a declaration: ``text`` as the learner types it (``7h 7s``,
             ``declare qc qd``, ``take``, ``lie down``, ``end turn``) or ``action`` (a
             deal-record action, RULES.md 9, whose ``player`` must be the sender's seat);
             ``seq`` optional
``claim``    ``text`` (the cards or the rank: ``9s 9d``, ``nines``) or ``action``; ``seq``
``ready``    the dealer lets play begin (no table mournival to take); ``seq``
``hint``     the best move now (where the table allows hints: one a turn, a few a deal);
             ``seq``
``leave``    the player leaves the table (between deals the seat is free again; during a
             deal, once it ends)
``watch``    ``admin`` (the organiser's code): every table's state, the log, the standings
``start``    (the organiser) ``table``: begin that table's first deal now (no ``table``: every
             table waiting for its people or for the organiser)
``release``  (the organiser) ``table``, ``seat``: that seat's code no longer takes it back;
             a new one does, said to the organiser (``reply``) and shown in ``overview`` until
             it is used (a lost code)
``empty``    (the organiser) ``table``, ``seat``: the person leaves that seat; a computer
             player takes it and it is free for the next person
``ping``     nothing (the server answers ``pong``); ``seq``
===========  ================================================================================

The server sends (:data:`SERVER_TYPES`; the keys of each are :data:`SERVER_KEYS`, a test
holds every message the server sends to them):

- ``welcome``: ``table``, ``seat``, ``token`` (the seat code, to this connection only, never
  to another: a person types it back to take the seat again),
  ``name``, ``seated`` (False: a computer player keeps the seat until the deal ends),
  ``back``, ``names``, ``ruleset``, ``players``, ``level``, ``hint``, ``hints`` (a deal),
  ``wait``, ``move_time`` and ``reserve`` (seconds; 0: no clock), ``games``, ``played``,
  ``duplicate``, ``livery``; ``scoring`` (the ruleset's stake, bonus and breakeven in
  words, the line a terminal shows above the table, for a page that has no engine).
- ``state``: ``table``, ``deal`` (the deal's number since the server started: a new number is
  a new deal), ``game`` (its label), ``names``, ``totals``, ``away`` (per seat), ``cause``
  (``[seat, seq]`` of the intent that led to it, or null), ``played``, ``games``, ``seated``,
  ``clock`` and ``obs`` (the seat's :class:`~tutor.engine.observe.Observation` as
  :meth:`~tutor.engine.observe.Observation.to_json` writes it, the new actions only).
- ``clock`` (in ``state`` and each table of ``overview``): null when no person's move is
  waited for, else ``seat`` (to move), ``kind`` (``move``: on their move time, then their
  reserve; ``away``: gone, until a computer player moves for them), ``deadline`` (the server's
  clock, seconds: only differences mean anything), ``left`` (seconds from the moment the
  message was sent: a page counts down from its arrival), ``move_left`` (of the move time
  alone; null when away), ``reserve`` (each seat's reserve left this deal, seconds).
- ``say``: ``table``, ``text`` (a line for everyone at the table: who joined, who left, a
  computer player moving for an absent person or one whose time ran out, a claim's race in
  milliseconds).
- ``waiting``: ``table``, ``text`` (what the table waits for, and whom: the organiser's start,
  more people (those seated named), the other tables; null once it waits no longer), sent to
  the table's people when it changes, and after a ``welcome`` while the table waits.
- ``reply``: the answer to one client's intent: ``ok``, ``text``, ``seq``, ``to`` (the
  intent's type), ``choices`` (optional: the moves an ambiguous one could be).
- ``deal_over``: ``table``, ``game``, ``practice``, ``names``, ``result`` (RULES.md 9),
  ``settlement`` (a row a seat), ``unit``, ``totals``, ``deals``, ``of``, ``dealer``, ``pot_to``
  (the seats that shared the pot), ``set_aside`` (the set-aside table mournival's cards, if
  any: they are in ``result``'s won cards too) and ``set_aside_to``, and ``review`` (the
  receiving seat's own review only, to a person).
- ``standings``: ``round``, ``rounds``, ``final``, ``duplicate``, ``rows`` (``place``,
  ``name``, ``table``, ``seat``, ``person``, ``livery``, ``score``, ``games``, and ``dup``
  under duplicate play) and ``teams`` (``place``, ``livery``, ``score``, ``people``, ``dup``).
- ``match_over``: ``table``, ``names``, ``totals``, ``ruleset``, ``players``, ``plan``,
  ``deals``; to a person also ``seat``, ``since`` (the game they first played) and ``scores``
  (their result in each game, null before ``since``), ``livery``.
- ``overview`` (the organiser): ``tables`` (each: ``table``, ``names``, ``persons``,
  ``away``, ``liveries``, ``codes`` (each seat's code the organiser gives and nobody has used
  yet, a named first dealer's or a released seat's, as ``code`` and the ``person`` it is for,
  else null), ``game``, ``playing``,
  ``waiting`` (why the first deal has not begun, or null), ``played``, ``games``, ``totals``, ``clock``, ``obs``: the public view,
  never a hand), ``published``, ``rounds``, ``standings``, ``teams``, ``duplicate``.
- ``log`` (the organiser): ``table``, ``event`` (``joined``, ``back``, ``left``, ``seated``,
  ``started``, ``released``, ``emptied``, ``deal``, ``deal_over``, ``claim``, ``time_out``,
  ``stood_in``, ``match_over``, ``standings``, ``paused``: its files cannot be written and it
  plays nothing until they are, ``resumed``, ``files``: the score sheets or the final standings
  written, and where), ``text``,
  ``game`` and, where they apply, ``seat``, ``action`` (the action's index in the deal),
  ``ms`` (a claim's time), ``winner`` and ``margin`` (a claim that came after another
  player's took the same cards: the winner's seat, the milliseconds between), ``at`` (the
  server's wall-clock time, ``YYYY-MM-DDTHH:MM:SS``), ``past`` (true on the history since the
  start that a newly opened organiser's view is sent before its first ``overview``).
- ``refused``: ``text`` (one line: a message the server would not take, and why).
- ``pong``: ``seq``; ``bye``: ``text``, ``reason`` (``stopping``: the server stops, and a
  client may come back when it is resumed; ``replaced``: the same seat joined from another
  connection; ``emptied``: the organiser gave the seat to a computer player).

:func:`read_client` checks a client's message whole: text (not binary), at most
:data:`MAX_MESSAGE_BYTES`, JSON through :func:`tutor.engine.jsonfile.loads` (depth and number
caps), the version, the type, every key and its value; it raises :class:`Refused` whose message
is the one line said to the client.  What it returns is one model of the tagged union
:data:`ClientMessage` (one a ``type``), on which the server dispatches once; a claim is told
from a move there, once (:func:`client_message`: an ``act`` that is a claim is read as a
``claim``, whose reply says ``"to": "claim"``).  :class:`RateLimit` is a token bucket per
connection (:class:`~tutor.app.tables._limits.Bucket`, the server's one rate limiter), timed by
the caller's clock: it counts what a client sends unasked (pings, hints, claims that take
nothing, moves refused, anything unreadable), not the moves the table takes, which come at the
deal's pace (a script answering its turn at once is never refused).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    PlainValidator,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from tutor.app.play.inputs import classify
from tutor.app.tables._limits import Bucket
from tutor.app.tables.messages import Incoming, read_server_message, server_keys
from tutor.engine.deal import Action
from tutor.engine.errors import LaughError, RecordError
from tutor.engine.jsonfile import JSONError, loads
from tutor.engine.models import Model, key_path, problem
from tutor.engine.records import action_from_json
from tutor.engine.safetext import has_controls

__all__ = [
    "ADMIN_CODE",
    "CLIENT_KEYS",
    "CLIENT_TYPES",
    "CODE_LETTERS",
    "COMPUTER",
    "JOIN_CODE",
    "MAX_FRAME_BYTES",
    "MAX_LIVERY",
    "MAX_MESSAGE_BYTES",
    "MAX_NAME",
    "MAX_TEXT",
    "SERVER_KEYS",
    "SERVER_TYPES",
    "VERSION",
    "ClientMessage",
    "ClientModel",
    "ActMessage",
    "ClaimMessage",
    "EmptyMessage",
    "HintMessage",
    "JoinMessage",
    "LeaveMessage",
    "PingMessage",
    "ReadyMessage",
    "ReleaseMessage",
    "StartMessage",
    "WatchMessage",
    "client_message",
    "SEAT_CODE",
    "RateLimit",
    "Refused",
    "WrongSeatCode",
    "code_words",
    "encode",
    "read_client",
    "read_server",
    "seat_code",
    "spaced",
]

#: What a computer player's name ends in (``Ralph (computer)``); no person's name may.
COMPUTER = "(computer)"
#: The protocol version every message carries.
VERSION = 1
#: The most bytes a client's message may have; a longer one is refused with a line.
MAX_MESSAGE_BYTES = 4096
#: The most bytes a WebSocket frame may have at all: the connection is closed (code 1009).
MAX_FRAME_BYTES = 64 * 1024
#: The most bytes a server's message may have when a client reads it.
MAX_SERVER_BYTES = 4 * 1024 * 1024
#: The most characters of a typed move, claim or code.
MAX_TEXT = 200
#: The most characters of a player's name.
MAX_NAME = 24
#: The most characters of a livery (a club or livery company).
MAX_LIVERY = 40
#: Letters of a code: no 0/O, 1/I/L, so a code read aloud is typed right.
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Characters of a table's join code, of a seat's code and of the organiser's code (31**10,
#: 31**10 and 31**12 codes: see :mod:`tutor.app.tables._guard` for the odds of guessing one).
JOIN_CODE, SEAT_CODE, ADMIN_CODE = 10, 10, 12
#: Messages a connection may send a second, on average, and in a burst.
RATE, BURST = 20.0, 40

CLIENT_TYPES = (
    "join",
    "act",
    "claim",
    "ready",
    "hint",
    "leave",
    "watch",
    "start",
    "release",
    "empty",
    "ping",
)
SERVER_TYPES = (
    "welcome",
    "state",
    "say",
    "reply",
    "deal_over",
    "standings",
    "match_over",
    "overview",
    "log",
    "refused",
    "pong",
    "bye",
    "waiting",
)
#: The keys each client message may have besides ``v`` and ``type``.
CLIENT_KEYS = {
    "join": {"code", "name", "token", "livery"},
    "act": {"text", "action", "seq"},
    "claim": {"text", "action", "seq"},
    "ready": {"seq"},
    "hint": {"seq"},
    "leave": set(),
    "watch": {"admin"},
    "start": {"table"},
    "release": {"table", "seat"},
    "empty": {"table", "seat"},
    "ping": {"seq"},
}
_KEYS = CLIENT_KEYS
#: The keys of each server message besides ``v`` and ``type``: (always, sometimes), read from
#: its model (:mod:`tutor.app.tables.messages`: the one table of the server's shapes).
SERVER_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = server_keys()
_MAX_SEQ = 2**31 - 1


class Refused(LaughError):
    """A client's message the server will not take; the message is the one line said to the
    client (and logged)."""


class WrongSeatCode(Refused):
    """A seat code that takes back no seat at the table: a guess, counted as a wrong code
    is (:mod:`tutor.app.tables._guard`)."""


def seat_code() -> str:
    """A new seat code: :data:`SEAT_CODE` letters and digits that cannot be misread
    (:data:`CODE_LETTERS`), from :mod:`secrets` (about 8.2 x 10^14 codes)."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(SEAT_CODE))


def spaced(code: str) -> str:
    """A code in groups of five for reading aloud and typing: ``ABCDE-FGHJK``."""
    return "-".join(code[k : k + 5] for k in range(0, len(code), 5))


def code_words(code: str) -> str:
    """A code as it is typed (case, spaces and dashes do not matter)."""
    return "".join(code.replace("-", " ").split()).upper()


def encode(message: Mapping[str, object]) -> str:
    """One message as compact JSON text, with the protocol version."""
    return json.dumps({"v": VERSION, **message}, separators=(",", ":"), ensure_ascii=False)


def _short(text: str, width: int = 40) -> str:
    text = text if len(text) <= width else text[: width - 3] + "..."
    return text.encode("ascii", "backslashreplace").decode("ascii")


# -- the client's messages as models: one per type, a union told apart by "type" ---------------


def _seq(v: object) -> object:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= _MAX_SEQ:
        raise ValueError(f"must be a whole number from 0 to {_MAX_SEQ}")
    return v


def _text(limit: int) -> BeforeValidator:
    def check(v: object) -> object:
        if not isinstance(v, str):
            raise ValueError("must be text")
        if len(v) > limit:
            raise ValueError(f"at most {limit} characters")
        if has_controls(v):
            raise ValueError("control characters are not allowed")
        return v

    return BeforeValidator(check)


def _number(low: int, high: int) -> BeforeValidator:
    def check(v: object) -> object:
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise ValueError(f"must be a whole number from {low} to {high}")
        return v

    return BeforeValidator(check)


def _name(v: object) -> str:
    if not isinstance(v, str):
        raise ValueError("must be text")
    name = " ".join(v.split())
    if not 1 <= len(name) <= MAX_NAME:
        raise ValueError(f"1 to {MAX_NAME} characters")
    if has_controls(name) or not name.isprintable():
        raise ValueError("control characters are not allowed")
    if name.lower().endswith(COMPUTER):
        raise ValueError(f"a person's name cannot end in {COMPUTER}")
    return name


def _livery(v: str) -> str:
    v = " ".join(v.split())
    if not v or not v.isprintable():
        raise ValueError(f"1 to {MAX_LIVERY} printable characters")
    return v


def _action(v: object) -> Action:
    if isinstance(v, Action):  # (a message made in-process: a test's, a bench's)
        return v
    try:
        return action_from_json(v, 0)
    except RecordError as exc:
        raise ValueError(exc.problem) from None


Seq = Annotated[int | None, BeforeValidator(lambda v: v if v is None else _seq(v))]
Code = Annotated[str, _text(64)]
Text = Annotated[str, _text(MAX_TEXT)]
Name = Annotated[str, BeforeValidator(_name)]
Livery = Annotated[str, AfterValidator(_livery), _text(MAX_LIVERY)]
ActionField = Annotated[Action, PlainValidator(_action)]


class _Message(Model):
    v: Literal[1]


class JoinMessage(_Message):
    """``join``: a join code, a name (may be left out with a token), a token, a livery."""

    type: Literal["join"]
    code: Code
    name: Name | None = None
    token: Annotated[str, _text(64)] | None = None
    livery: Livery | None = None

    @model_validator(mode="after")
    def _named(self) -> JoinMessage:
        if self.name is None and self.token is None:
            raise ValueError("name: must be text")
        return self


class _Move(_Message):
    text: Text | None = None
    action: ActionField | None = None
    seq: Seq = None

    @model_validator(mode="before")
    @classmethod
    def _one(cls, obj: Any) -> Any:
        if isinstance(obj, dict) and (obj.get("text") is None) == (obj.get("action") is None):
            raise ValueError(
                f'a {obj.get("type")} message carries "text" (as typed) or '
                '"action" (a deal-record action), one of them'
            )
        return obj


class ActMessage(_Move):
    """``act``: a turn action or declaration, as typed (``text``) or as an ``action``."""

    type: Literal["act"]


class ClaimMessage(_Move):
    """``claim``: an oversight claimed, as typed (``text``) or as an ``action``."""

    type: Literal["claim"]

    @model_validator(mode="after")
    def _claim(self) -> ClaimMessage:
        if self.action is not None and self.action.kind != "claim":
            raise ValueError(f"a claim message carries a claim, not {self.action.kind}")
        return self


class ReadyMessage(_Message):
    """``ready``: the dealer lets play begin."""

    type: Literal["ready"]
    seq: Seq = None


class HintMessage(_Message):
    """``hint``: the best move now, where the table allows it."""

    type: Literal["hint"]
    seq: Seq = None


class PingMessage(_Message):
    """``ping``: the server answers ``pong``."""

    type: Literal["ping"]
    seq: Seq = None


class LeaveMessage(_Message):
    """``leave``: the player leaves the table (the seat stays theirs)."""

    type: Literal["leave"]


class WatchMessage(_Message):
    """``watch``: the organiser's code; every table's state, the log, the standings."""

    type: Literal["watch"]
    admin: Code


class StartMessage(_Message):
    """``start``: (the organiser) begin a table's first deal (no ``table``: every table)."""

    type: Literal["start"]
    table: Annotated[int, _number(1, 64)] | None = None


class ReleaseMessage(_Message):
    """``release``: (the organiser) a seat's token no longer takes it back."""

    type: Literal["release"]
    table: Annotated[int, _number(1, 64)]
    seat: Annotated[int, _number(0, 51)]


class EmptyMessage(_Message):
    """``empty``: (the organiser) a seat's person leaves it; a computer player takes it."""

    type: Literal["empty"]
    table: Annotated[int, _number(1, 64)]
    seat: Annotated[int, _number(0, 51)]


#: Every message a client may send, one model a ``type``: the tagged union the server
#: dispatches on once (a ``match`` on the model's class).
ClientMessage = (
    JoinMessage
    | ActMessage
    | ClaimMessage
    | ReadyMessage
    | HintMessage
    | LeaveMessage
    | WatchMessage
    | StartMessage
    | ReleaseMessage
    | EmptyMessage
    | PingMessage
)
#: The union read from JSON, told apart by its ``type`` (pydantic's discriminated union).
ClientModel = Annotated[ClientMessage, Field(discriminator="type")]
_CLIENT: TypeAdapter[ClientMessage] = TypeAdapter(ClientModel)


def read_client(data: str | bytes) -> ClientMessage:
    """Check and read one client message (see the module docstring): the size and the JSON's
    depth and digits first, then the version, then the message's model
    (:func:`client_message`).  Raises :class:`Refused` with the one line that says why, for
    anything else."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        raise Refused("binary frames are not messages: send one JSON object as text")
    size = len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise Refused(f"message too large: {size:,} bytes (at most {MAX_MESSAGE_BYTES:,})")
    try:
        obj = loads(data, max_depth=4, max_digits=12, what="a message")
    except JSONError as exc:
        raise Refused(f"not a message: {exc.reason}") from None
    if not isinstance(obj, dict):
        raise Refused('not a message: send one JSON object with "v" and "type"')
    v = obj.get("v")
    if type(v) is not int or v != VERSION:
        raise Refused(f"protocol version {_short(repr(v))}: this server speaks version {VERSION}")
    return client_message(obj)


def client_message(obj: Mapping[str, object]) -> ClientMessage:
    """One client message (a JSON object, read) as its model, and a claim told from a move
    once, here: an ``act`` whose ``action`` is a claim, or whose ``text`` is a claim line
    (``claim 9s 9d``, ``c nines``, read by :func:`tutor.app.play.inputs.classify`, the one
    reading of a typed line, the terminal client's too), is a ``claim``; a claim's ``text``
    is what it names (the words after ``claim``, read the same way).  Raises
    :class:`Refused` with the one line that says what is wrong (the key at fault)."""
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _KEYS:
        raise Refused(
            f"unknown message type {_short(repr(kind))}; expected one of {', '.join(CLIENT_TYPES)}"
        )
    try:
        m = _CLIENT.validate_python(obj)
    except ValidationError as exc:
        raise Refused(_refusal(kind, exc)) from None
    if isinstance(m, ActMessage | ClaimMessage):
        if m.text is not None:
            it = classify(m.text)
            if it.kind == "claim" or isinstance(m, ClaimMessage):
                return ClaimMessage.model_construct(
                    v=1, type="claim", text=it.name, action=None, seq=m.seq
                )
        elif isinstance(m, ActMessage) and m.action is not None and m.action.kind == "claim":
            return ClaimMessage.model_construct(
                v=1, type="claim", text=None, action=m.action, seq=m.seq
            )
    return m


def _refusal(kind: str, exc: ValidationError) -> str:
    extra = sorted(
        str(e["loc"][-1]) for e in exc.errors(include_url=False) if e["type"] == "extra_forbidden"
    )
    if extra:
        return f"a {kind} message has no key {_short(repr(extra[0]))}"
    loc, message = problem(exc)
    path = key_path(loc[1:] if loc and loc[0] == kind else loc)
    return f"{path}: {message}" if path else message


def read_server(data: str | bytes) -> Incoming:
    """A server's message as the client reads it: one JSON object of a known type, within
    :data:`MAX_SERVER_BYTES`, of its type's shape (:mod:`tutor.app.tables.messages`), as its
    model.  Raises :class:`Refused` naming what is wrong (the key at fault)."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        raise Refused("the server sent a binary frame")
    if len(data) > MAX_SERVER_BYTES:
        raise Refused("the server sent a message too large to read")
    try:
        obj = loads(data, max_depth=12, what="a table message")
    except JSONError as exc:
        raise Refused(f"the server sent {exc.reason}") from None
    if not isinstance(obj, dict) or obj.get("v") != VERSION:
        raise Refused(f"the server speaks another protocol (this client speaks version {VERSION})")
    if obj.get("type") not in SERVER_TYPES:
        raise Refused(f"the server sent an unknown message {_short(repr(obj.get('type')))}")
    try:
        return read_server_message(obj)
    except ValueError as exc:
        raise Refused(f"the server sent a message this client cannot read: {exc}") from None


class RateLimit:
    """What one connection may send: ``rate`` messages a second on average, ``burst`` at once
    (a :class:`~tutor.app.tables._limits.Bucket`: every message spends a token; :meth:`refund`
    gives back that of a move the table took), and a notice of those refused at most once a
    second.  Timed by the caller's clock (seconds), so a test passes its own times."""

    def __init__(self, rate: float = RATE, burst: int = BURST, now: float = 0.0):
        self.bucket = Bucket(rate, burst, now)
        self._notices = Bucket.every(1.0, now)
        #: Messages refused since the last notice, and since the connection opened.
        self.refused = 0
        self.total_refused = 0

    def allow(self, now: float) -> bool:
        """Whether a message arriving at ``now`` may be taken (it spends a token)."""
        if self.bucket.take(now):
            return True
        self.refused += 1
        self.total_refused += 1
        return False

    def refund(self) -> None:
        """Give back the token of a message just taken: one the table took as a move of the
        deal (a turn action applied, a claim that took cards, the dealer's ``ready``), which
        comes at the deal's own pace, however fast a player answers."""
        self.bucket.give()

    def notice_due(self, now: float) -> int:
        """How many messages were refused since the last notice, when a notice is due now (at
        most one a second), else 0; a notice given resets the count."""
        if self.refused and self._notices.take(now):
            n, self.refused = self.refused, 0
            return n
        return 0
