"""The live table's messages: a versioned JSON schema, every shape in this one place, read at
the server's edge with caps.

Every message is one JSON object in one WebSocket text frame, with ``"v"`` (the protocol
version, :data:`VERSION`) and ``"type"``.  A client sends (:data:`CLIENT_TYPES`; the keys each
may carry are :data:`CLIENT_KEYS`):

===========  ================================================================================
``join``     ``code`` (a table's join code), ``name`` (1-24 printable characters), ``token``
             (optional: the token a join gave; it alone takes a seat back, under the name it
             was given, and the name may then be left out), ``livery`` (optional: a club or
             livery company, 1-40 characters)
``act``      a turn action or a declaration: ``text`` as the learner types it (``7h 7s``,
             ``declare qc qd``, ``take``, ``lie down``, ``end turn``) or ``action`` (a
             deal-record action, RULES.md 9, whose ``player`` must be the sender's seat);
             ``seq`` optional
``claim``    ``text`` (the cards or the rank: ``9s 9d``, ``nines``) or ``action``; ``seq``
``ready``    the dealer lets play begin (no table mournival to take); ``seq``
``hint``     the best move now (where the table allows hints: one a turn, a few a deal);
             ``seq``
``leave``    the player leaves the table (the seat stays theirs)
``watch``    ``admin`` (the organiser's code): every table's state, the log, the standings
``start``    (the organiser) ``table``: begin that table's first deal now (no ``table``: every
             table waiting for its people or for the organiser)
``release``  (the organiser) ``table``, ``seat``: that seat's token no longer takes it back;
             its person takes it back by name (a lost token)
``ping``     nothing (the server answers ``pong``); ``seq``
===========  ================================================================================

The server sends (:data:`SERVER_TYPES`; the keys of each are :data:`SERVER_KEYS`, a test
holds every message the server sends to them):

- ``welcome``: ``table``, ``seat``, ``token`` (to this connection only, never to another),
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
- ``reply``: the answer to one client's intent: ``ok``, ``text``, ``seq``, ``to`` (the
  intent's type), ``choices`` (optional: the moves an ambiguous one could be).
- ``deal_over``: ``table``, ``game``, ``practice``, ``names``, ``result`` (RULES.md 9),
  ``settlement`` (a row a seat), ``unit``, ``totals``, ``deals``, ``of``, and ``review`` (the
  receiving seat's own review only, to a person).
- ``standings``: ``round``, ``rounds``, ``final``, ``duplicate``, ``rows`` (``place``,
  ``name``, ``table``, ``seat``, ``person``, ``livery``, ``score``, ``games``, and ``dup``
  under duplicate play) and ``teams`` (``place``, ``livery``, ``score``, ``people``, ``dup``).
- ``match_over``: ``table``, ``names``, ``totals``, ``ruleset``, ``players``, ``plan``,
  ``deals``; to a person also ``seat``, ``since`` (the game they first played) and ``scores``
  (their result in each game, null before ``since``), ``livery``.
- ``overview`` (the organiser): ``tables`` (each: ``table``, ``names``, ``persons``,
  ``away``, ``liveries``, ``game``, ``playing``, ``waiting`` (why the first deal has not
  begun, or null), ``played``, ``games``, ``totals``, ``clock``, ``obs``: the public view,
  never a hand), ``published``, ``rounds``, ``standings``, ``teams``, ``duplicate``.
- ``log`` (the organiser): ``table``, ``event`` (``joined``, ``back``, ``left``, ``seated``,
  ``started``, ``released``, ``deal``, ``deal_over``, ``claim``, ``time_out``, ``stood_in``,
  ``match_over``, ``standings``), ``text``,
  ``game`` and, where they apply, ``seat``, ``action`` (the action's index in the deal),
  ``ms`` (a claim's time).
- ``refused``: ``text`` (one line: a message the server would not take, and why).
- ``pong``: ``seq``; ``bye``: ``text``, ``reason`` (``stopping``: the server stops, and a
  client may come back when it is resumed; ``replaced``: the same seat joined from another
  connection).

:func:`read_client` checks a client's message whole: text (not binary), at most
:data:`MAX_MESSAGE_BYTES`, JSON through :func:`tutor.engine.jsonfile.loads` (depth and number
caps), the version, the type, every key and its value; it raises :class:`Refused` whose message
is the one line said to the client.  :class:`RateLimit` is a token bucket per connection, timed
by the caller's clock: it counts what a client sends unasked (pings, hints, claims that take
nothing, moves refused, anything unreadable), not the moves the table takes, which come at the
deal's pace (a script answering its turn at once is never refused).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tutor.engine.deal import Action
from tutor.engine.errors import LaughError, RecordError
from tutor.engine.jsonfile import JSONError, loads
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
    "RateLimit",
    "Refused",
    "code_words",
    "encode",
    "read_client",
    "read_server",
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
#: Characters of a table's join code and of the organiser's code (31**10 and 31**12 codes:
#: see :mod:`tutor.app.tables._guard` for the odds of guessing one).
JOIN_CODE, ADMIN_CODE = 10, 12
#: Messages a connection may send a second, on average, and in a burst.
RATE, BURST = 20.0, 40

CLIENT_TYPES = ("join", "act", "claim", "ready", "hint", "leave", "watch", "start", "release",
                "ping")
SERVER_TYPES = ("welcome", "state", "say", "reply", "deal_over", "standings", "match_over",
                "overview", "log", "refused", "pong", "bye")
#: The keys each client message may have besides ``v`` and ``type``.
CLIENT_KEYS = {"join": {"code", "name", "token", "livery"}, "act": {"text", "action", "seq"},
               "claim": {"text", "action", "seq"}, "ready": {"seq"}, "hint": {"seq"},
               "leave": set(), "watch": {"admin"}, "start": {"table"},
               "release": {"table", "seat"}, "ping": {"seq"}}
_KEYS = CLIENT_KEYS
#: The keys of each server message besides ``v`` and ``type``: (always, sometimes).
SERVER_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    k: (frozenset(a.split()), frozenset(b.split())) for k, (a, b) in {
        "welcome": ("table seat token name seated back names ruleset players level hint hints "
                    "wait move_time reserve games played duplicate livery", "scoring"),
        "state": ("table deal game names totals away cause played games seated clock obs", ""),
        "say": ("table text", ""),
        "reply": ("ok text seq to", "choices"),
        "deal_over": ("table game practice names result settlement unit totals deals of",
                      "review"),
        "standings": ("round rounds final duplicate rows teams", ""),
        "match_over": ("table names totals ruleset players plan deals",
                       "seat since scores livery"),
        "overview": ("tables published rounds standings teams duplicate", ""),
        "log": ("table event text game", "seat action ms"),
        "refused": ("text", ""), "pong": ("seq", ""), "bye": ("text", "reason")}.items()}
_MAX_SEQ = 2 ** 31 - 1


class Refused(LaughError):
    """A client's message the server will not take; the message is the one line said to the
    client (and logged)."""


@dataclass(frozen=True)
class ClientMessage:
    """One checked client message: ``type`` (one of :data:`CLIENT_TYPES`) and what it carries:
    ``text`` (a typed move or claim), ``action`` (a deal-record action read by the engine),
    ``seq`` (the client's number for it, echoed in replies), ``code``, ``name``, ``token``,
    ``admin``."""

    type: str
    text: str | None = None
    action: Action | None = None
    seq: int | None = None
    code: str | None = None
    name: str | None = None
    token: str | None = None
    admin: str | None = None
    livery: str | None = None
    table: int | None = None
    seat: int | None = None


def code_words(code: str) -> str:
    """A code as it is typed (case, spaces and dashes do not matter)."""
    return "".join(code.replace("-", " ").split()).upper()


def encode(message: dict[str, Any]) -> str:
    """One message as compact JSON text, with the protocol version."""
    return json.dumps({"v": VERSION, **message}, separators=(",", ":"), ensure_ascii=False)


def _short(text: str, width: int = 40) -> str:
    text = text if len(text) <= width else text[:width - 3] + "..."
    return text.encode("ascii", "backslashreplace").decode("ascii")


def read_client(data: str | bytes) -> ClientMessage:
    """Check and read one client message (see the module docstring).  Raises :class:`Refused`
    with the one line that says why, for anything else."""
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
        raise Refused("not a message: send one JSON object with \"v\" and \"type\"")
    v = obj.get("v")
    if v != VERSION:
        raise Refused(f"protocol version {_short(repr(v))}: this server speaks version "
                      f"{VERSION}")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _KEYS:
        raise Refused(f"unknown message type {_short(repr(kind))}; expected one of "
                      f"{', '.join(CLIENT_TYPES)}")
    extra = sorted(str(k) for k in obj if k not in _KEYS[kind] and k not in ("v", "type"))
    if extra:
        raise Refused(f"a {kind} message has no key {_short(repr(extra[0]))}")
    seq = obj.get("seq")
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)
                            or not 0 <= seq <= _MAX_SEQ):
        raise Refused("seq: must be a whole number from 0 to 2147483647")
    if kind == "join":
        livery = _text(obj, "livery", MAX_LIVERY, required=False)
        if livery is not None:
            livery = " ".join(livery.split())
            if not livery or not livery.isprintable():
                raise Refused(f"livery: 1 to {MAX_LIVERY} printable characters")
        token = _text(obj, "token", 64, required=False)
        name = None if obj.get("name") is None and token is not None else _name(obj.get("name"))
        return ClientMessage("join", code=_text(obj, "code", 64), name=name, token=token,
                             livery=livery)
    if kind == "watch":
        return ClientMessage("watch", admin=_text(obj, "admin", 64))
    if kind in ("start", "release"):
        table = _number(obj, "table", 1, 64, required=kind == "release")
        seat = _number(obj, "seat", 0, 51) if kind == "release" else None
        return ClientMessage(kind, table=table, seat=seat)
    if kind in ("act", "claim"):
        text, act = obj.get("text"), obj.get("action")
        if (text is None) == (act is None):
            raise Refused(f"a {kind} message carries \"text\" (as typed) or \"action\" (a "
                          "deal-record action), one of them")
        if text is not None:
            return ClientMessage(kind, text=_text(obj, "text", MAX_TEXT), seq=seq)
        try:
            action = action_from_json(act, 0)
        except RecordError as exc:
            raise Refused(f"action: {str(exc).removeprefix('action 0: ')}") from None
        if kind == "claim" and action.kind != "claim":
            raise Refused(f"a claim message carries a claim, not {action.kind}")
        return ClientMessage(kind, action=action, seq=seq)
    return ClientMessage(kind, seq=seq)


def _text(obj: dict, key: str, limit: int, required: bool = True) -> str | None:
    v = obj.get(key)
    if v is None and not required:
        return None
    if not isinstance(v, str):
        raise Refused(f"{key}: must be text")
    if len(v) > limit:
        raise Refused(f"{key}: at most {limit} characters")
    if has_controls(v):
        raise Refused(f"{key}: control characters are not allowed")
    return v


def _number(obj: dict, key: str, low: int, high: int, required: bool = True) -> int | None:
    v = obj.get(key)
    if v is None and not required:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise Refused(f"{key}: must be a whole number from {low} to {high}")
    return v


def _name(v: Any) -> str:
    if not isinstance(v, str):
        raise Refused("name: must be text")
    name = " ".join(v.split())
    if not 1 <= len(name) <= MAX_NAME:
        raise Refused(f"name: 1 to {MAX_NAME} characters")
    if has_controls(name) or not name.isprintable():
        raise Refused("name: control characters are not allowed")
    if name.lower().endswith(COMPUTER):
        raise Refused(f"name: a person's name cannot end in {COMPUTER}")
    return name


def read_server(data: str | bytes) -> dict[str, Any]:
    """A server's message as the client reads it: one JSON object of a known type, within
    :data:`MAX_SERVER_BYTES`.  Raises :class:`Refused` naming what is wrong."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        raise Refused("the server sent a binary frame")
    if len(data) > MAX_SERVER_BYTES:
        raise Refused("the server sent a message too large to read")
    try:
        obj = loads(data, max_depth=12, what="a table message")
    except JSONError as exc:
        raise Refused(f"the server sent {exc.reason}") from None
    if not isinstance(obj, dict) or obj.get("v") != VERSION:
        raise Refused(f"the server speaks another protocol (this client speaks version "
                      f"{VERSION})")
    if obj.get("type") not in SERVER_TYPES:
        raise Refused(f"the server sent an unknown message {_short(repr(obj.get('type')))}")
    return obj


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once (every message
    spends a token; :meth:`refund` gives back that of a move the table took).  Timed by the
    caller's clock (seconds), so a test passes its own times."""

    def __init__(self, rate: float = RATE, burst: int = BURST, now: float = 0.0):
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = now
        #: Messages refused since the last notice, and when the last notice went.
        self.refused = 0
        self.total_refused = 0
        self.noticed: float | None = None

    def allow(self, now: float) -> bool:
        """Whether a message arriving at ``now`` may be taken (it spends a token)."""
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        self.total_refused += 1
        return False

    def refund(self) -> None:
        """Give back the token of a message just taken: one the table took as a move of the
        deal (a turn action applied, a claim that took cards, the dealer's ``ready``), which
        comes at the deal's own pace, however fast a player answers."""
        self.tokens = min(self.burst, self.tokens + 1)

    def notice_due(self, now: float) -> int:
        """How many messages were refused since the last notice, when a notice is due now (at
        most one a second), else 0; a notice given resets the count."""
        if self.refused and (self.noticed is None or now - self.noticed >= 1.0):
            n, self.refused, self.noticed = self.refused, 0, now
            return n
        return 0
