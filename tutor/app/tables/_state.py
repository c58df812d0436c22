"""A saved table server read back for ``laugh table serve --resume``: ``server.json`` checked
whole, as a saved match is (every key present with a value of its type and range; anything
else refused in one line naming the file and the key), then each table's match, its records
and its journal brought into agreement (a part of :mod:`tutor.app.tables.server`).

The files are written in an order that makes agreement possible whatever moment the server
was stopped at (:mod:`~tutor.app.tables._server_files`): a deal's record is appended before the match
that holds it is written, and the journal of the deal in play goes only once both are out.  So
on reading back:

- records past the match's deals are finished deals whose match was not written: each is
  checked (replayed, dealt as the table's seed deals that game) and taken into the match;
- a match with deals the records file lacks (a records file cut short by hand) has them
  appended again;
- a journal of the next game is the deal in play: replayed action by action (a last line cut
  short by the stop is left out) and played on from its last action, or, when it is finished,
  recorded as any finished deal; a journal of a game already recorded is stale and dropped.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, model_validator

from tutor.app.tables._server_files import JOURNAL_FORMAT, _append, journal_path, records_path
from tutor.app.tables.protocol import CODE_LETTERS, COMPUTER, MAX_LIVERY, MAX_NAME
from tutor.app.tables.table import SeatState, Settings, Table
from tutor.engine.errors import LaughError, RecordError, UsageError
from tutor.engine.jsonfile import JSONError, load, loads
from tutor.engine.levels import LEVELS, level
from tutor.engine.limits import MAX_MATCH_DEALS, MAX_SEED
from tutor.engine.match import Match
from tutor.engine.models import Model, validate
from tutor.engine.records import action_from_json, dumps, replay, to_record

__all__ = ["SECRET_SEED_DIGITS", "STATE_FORMAT", "load_state", "secret_seed", "state_json"]

log = logging.getLogger("tutor.tables")

#: The format name of ``server.json``.
STATE_FORMAT = "laugh-and-lie-down/tables@2"
#: The format an older server wrote (its settings lack the keys added since; they take their
#: defaults).
OLD_FORMAT = "laugh-and-lie-down/tables@1"
#: The most tables a server holds.
MAX_TABLES = 64
#: Hex digits of a seed drawn in secret (:func:`secret_seed`): 128 bits.
SECRET_SEED_DIGITS = 32
_SEAT = ("name", "token", "incoming", "incoming_token", "since", "livery")


def secret_seed() -> str:
    """A server's seed when the organiser gives none: :data:`SECRET_SEED_DIGITS` hex digits
    from the operating system's generator (:mod:`secrets`, 128 bits), so that no player can
    find it from the cards they see by trying seeds (before, a number from 1 to 10**6 was
    found from one hand in seconds: issue 41).  Every table's seed, its deals and its computer
    players' choices and reaction times are drawn from it (:meth:`Settings.table_seed`)."""
    import secrets

    return secrets.token_hex(SECRET_SEED_DIGITS // 2)


def state_json(tables: list[Table], admin: str, published: int) -> dict[str, object]:
    """What ``server.json`` holds: the settings, the organiser's code, the standings rounds
    published, and each table's number, code and seats (``name``, ``token``, ``incoming``,
    ``incoming_token``, ``since``, ``livery``)."""
    s = tables[0].settings
    return {
        "format": STATE_FORMAT,
        "settings": {
            "ruleset": s.ruleset.id,
            "players": s.players,
            "level": s.level.name,
            "deals": s.deals,
            "hint": s.hint,
            "wait": s.wait,
            "pace": s.pace,
            "gap": s.gap,
            "before": s.before,
            "seed": s.seed,
            "start": s.start,
            "move_time": s.move_time,
            "reserve": s.reserve,
            "hints": s.hints,
            "people": s.people,
            "hold": s.hold,
            "duplicate": s.duplicate,
            "first_dealers": list(s.first_dealers),
        },
        "admin": admin,
        "published": published,
        "tables": [
            {
                "table": t.number,
                "code": t.code,
                "seats": [{k: getattr(st, k) for k in _SEAT} for st in t.seats],
            }
            for t in tables
        ],
    }


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 30 else text[:27] + "..."


def _text(high: int, code: bool = False) -> Callable[[str], str]:
    """A check of text as the server writes it: 1 to ``high`` printable characters, no space
    doubled or at an end; a ``code``: only :data:`CODE_LETTERS`."""

    def check(v: str) -> str:
        if not 1 <= len(v) <= high or not v.isprintable() or v != " ".join(v.split()):
            raise ValueError(f"must be text of 1 to {high} printable characters, got {_short(v)}")
        if code and not all(c in CODE_LETTERS for c in v):
            raise ValueError(f"must be a code of the letters {CODE_LETTERS}, got {_short(v)}")
        return v

    return check


def _token(v: str) -> str:
    if not 10 <= len(v) <= 64 or not all(c.isascii() and (c.isalnum() or c in "-_") for c in v):
        raise ValueError(
            f"must be a seat code (10 to 64 letters, digits, - and _) or null, got {_short(v)}"
        )
    return v


def _secret(v: str) -> str:
    if not (len(v) == SECRET_SEED_DIGITS and all(c in "0123456789abcdef" for c in v)):
        raise ValueError(
            f"must be a whole number or {SECRET_SEED_DIGITS} hex digits (a seed "
            f"drawn in secret), got {_short(v)}"
        )
    return v


def _level(v: str) -> str:
    if v not in LEVELS:
        raise ValueError(f"unknown level {_short(v)}; one of {', '.join(LEVELS)}")
    return v


_Name = Annotated[str, AfterValidator(_text(MAX_NAME))]
_Code = Annotated[str, AfterValidator(_text(40, code=True))]
_Token = Annotated[str, AfterValidator(_token)]


_Players = Annotated[int, Field(ge=1, le=52)]
_Deals = Annotated[int, Field(ge=0, le=MAX_MATCH_DEALS)]
_Seed = Annotated[int, Field(ge=0, le=MAX_SEED)] | Annotated[str, AfterValidator(_secret)]
_Hints = Annotated[int, Field(ge=0, le=1000)]
_People = Annotated[int, Field(ge=0, le=52)]
_Hour = Annotated[float, Field(ge=0, le=3600)]
_Minute = Annotated[float, Field(ge=0, le=60)]
_Gap = Annotated[float, Field(ge=0, le=600)]
_Day = Annotated[float, Field(ge=0, le=86400)]
_Firsts = Annotated[list[_Name | None], Field(max_length=MAX_TABLES)]


class _Seat(Model):
    """A seat as ``server.json`` holds it (see :class:`SeatState`)."""

    name: _Name | None
    token: _Token | None
    incoming: _Name | None
    incoming_token: _Token | None
    since: _Deals
    livery: Annotated[str, AfterValidator(_text(MAX_LIVERY))] | None

    @model_validator(mode="after")
    def _people(self) -> _Seat:
        for who in (self.name, self.incoming):
            if who is not None and who.casefold().endswith(COMPUTER):
                raise ValueError(f"a person's name cannot end in {COMPUTER}")
        if self.incoming is None and self.incoming_token is not None:
            raise ValueError("incoming_token: a token for nobody incoming")
        if self.name is None and self.incoming is not None and self.token is not None:
            raise ValueError("token: a token for a seat a person takes only at the next deal")
        return self


class _TableEntry(Model):
    table: Annotated[int, Field(ge=1, le=MAX_TABLES)]
    code: _Code
    seats: list[_Seat]


class _Settings(Model):
    """The settings as ``server.json`` holds them (see :class:`Settings`); every key given."""

    ruleset: str
    players: _Players
    level: Annotated[str, AfterValidator(_level)]
    deals: Annotated[int, Field(ge=1, le=MAX_MATCH_DEALS)] | None
    hint: bool
    wait: _Hour
    pace: _Minute
    gap: _Gap
    before: _Minute
    seed: _Seed
    start: _Day | None
    move_time: _Hour
    reserve: _Hour
    hints: _Hints
    people: _People
    hold: bool
    duplicate: bool
    first_dealers: _Firsts


class _OldSettings(_Settings):
    """The settings an older server wrote: the keys added since take their defaults."""

    move_time: _Hour = 30.0
    reserve: _Hour = 120.0
    hints: _Hints = 3
    people: _People = 1
    hold: bool = False
    duplicate: bool = False
    first_dealers: _Firsts = []


class _State(Model):
    """``server.json`` as the server writes it (see :func:`state_json`)."""

    format: Literal["laugh-and-lie-down/tables@2"]
    settings: _Settings
    admin: _Code
    published: _Deals
    tables: Annotated[list[_TableEntry], Field(min_length=1, max_length=MAX_TABLES)]


class _OldState(_State):
    format: Literal["laugh-and-lie-down/tables@1"]  # type: ignore[assignment]
    settings: _OldSettings


def _read(obj: Any, where: str, rulesets: dict) -> tuple[Settings, str, int, list[_TableEntry]]:
    """``server.json``'s value checked whole: the settings, the admin code, the rounds
    published and the tables.  Raises RecordError ``WHERE: KEY: why``."""

    def bad(key: str, why: str) -> RecordError:
        return RecordError(f"{where}: {key}: {why}")

    form = obj.get("format") if isinstance(obj, dict) else None
    if form not in (STATE_FORMAT, OLD_FORMAT):
        raise bad(
            "format",
            f"must be {STATE_FORMAT!r}, got {_short(form)}"
            if isinstance(obj, dict)
            else "a saved table server is a JSON object",
        )
    state = validate(
        _State if form == STATE_FORMAT else _OldState, obj, where=where, error=RecordError
    )
    st = state.settings
    rs = rulesets.get(st.ruleset)
    if rs is None:
        raise bad("settings.ruleset", f"unknown ruleset {_short(st.ruleset)}")
    if st.players not in rs.counts:
        raise bad("settings.players", f"ruleset {rs.id} does not cover {st.players} players")
    codes = {state.admin}
    for i, entry in enumerate(state.tables):
        if entry.table != i + 1:
            raise bad(f"tables[{i}].table", f"must be {i + 1}")
        if entry.code in codes:
            raise bad(f"tables[{i}].code", "the same code as another table or the organiser")
        codes.add(entry.code)
        if len(entry.seats) != st.players:
            raise bad(
                f"tables[{i}].seats",
                f"must be a list of {st.players} seats, got {len(entry.seats)}",
            )
    settings = Settings(
        rs,
        st.players,
        level(st.level),
        st.deals,
        st.hint,
        st.wait,
        st.pace,
        st.gap,
        st.before,
        st.seed,
        st.start,
        st.move_time,
        st.reserve,
        st.hints,
        st.people,
        st.hold,
        st.duplicate,
        tuple(st.first_dealers),
    )
    return settings, state.admin, state.published, state.tables


def load_state(folder: Path, rulesets: dict) -> tuple[list[Table], str, int]:
    """The tables of a server saved in ``folder``, their admin code and the standings rounds
    published (see the module docstring).  Raises :class:`~tutor.engine.errors.UsageError`
    when there is nothing to resume, and :class:`~tutor.engine.errors.RecordError` (one line,
    naming the file and the key) for a damaged file."""
    path = folder / "server.json"
    if not path.exists():
        raise UsageError(f"nothing to resume in {folder} (no server.json)")
    settings, admin, published, entries = _read(
        load(path, what="a saved table server"), str(path), rulesets
    )
    tables = []
    for n, entry in enumerate(entries, 1):
        mpath = folder / f"table-{n}.match.json"
        try:
            match = Match.from_json(load(mpath, what="a saved match"), rulesets)
        except JSONError as exc:  # names the file already
            raise RecordError(str(exc)) from None
        except RecordError as exc:
            raise RecordError(f"{mpath}: {exc}") from None
        if (
            match.players != settings.players
            or match.ruleset is not settings.ruleset
            or match.seed != settings.table_seed(n)
        ):
            raise RecordError(
                f"{mpath}: not table {n}'s match "
                "(its ruleset, players or seed differ from server.json's)"
            )
        for q, x in enumerate(entry.seats):
            if x.since > len(match.games):
                raise RecordError(
                    f"{path}: tables[{n - 1}].seats[{q}].since: must be a whole "
                    f"number from 0 to {len(match.games)}, got {x.since}"
                )
        states = [
            SeatState(
                name=x.name,
                token=x.token,
                incoming=x.incoming,
                incoming_token=x.incoming_token,
                since=x.since,
                livery=x.livery,
            )
            for x in entry.seats
        ]
        t = Table(n, entry.code, settings, match, seats=states)
        _agree(folder, t, rulesets)
        tables.append(t)
    return tables, admin, published


def _agree(folder: Path, t: Table, rulesets: dict) -> None:
    """Bring table ``t``'s records and journal into agreement with its match (see the module
    docstring).  Raises RecordError naming the file for one that cannot be."""
    m = t.match
    rpath = records_path(folder, t.number)
    lines = _lines(rpath)
    for k, line in enumerate(lines):
        if k < len(m.deals):
            continue
        where = f"{rpath}:{k + 1}"
        try:
            deal = replay(loads(line, what="a deal record"), rulesets)
        except (RecordError, JSONError) as exc:
            raise RecordError(f"{where}: {exc}") from None
        _same_deal(deal, m, where)
        if not deal.is_terminal():
            raise RecordError(f"{where}: an unfinished deal")
        m.record_deal(deal)
        log.info(
            "table %d: game %d taken from its record (its match was not saved)", t.number, k + 1
        )
    if len(lines) < len(m.deals):
        _append(rpath, "".join(dumps(to_record(d)) + "\n" for d in m.deals[len(lines) :]))
        log.warning(
            "table %d: %d records written again from the match", t.number, len(m.deals) - len(lines)
        )
    jpath = journal_path(folder, t.number)
    if not jpath.exists() or m.is_over:
        jpath.unlink(missing_ok=True)
        return
    deal, game = _journal(jpath, rulesets)
    if deal is None or game < len(m.deals):
        jpath.unlink(missing_ok=True)  # a deal recorded already
        return
    if game > len(m.deals):
        raise RecordError(
            f"{jpath}: game {game + 1}, but the match has {len(m.deals)} games played"
        )
    _same_deal(deal, m, str(jpath))
    if deal.is_terminal():  # ended before its record was written
        _append(rpath, dumps(to_record(deal)) + "\n")
        m.record_deal(deal)
        jpath.unlink(missing_ok=True)
    else:
        t.resume_deal(deal)


def _same_deal(deal, m: Match, where: str) -> None:
    expect = m.new_deal()
    if (
        deal.ruleset is not m.ruleset
        or deal.n != m.players
        or deal.pack != expect.pack
        or deal.dealer != expect.dealer
    ):
        raise RecordError(
            f"{where}: not the deal this table's seed deals for game {len(m.deals) + 1}"
        )


def _lines(path: Path) -> list[str]:
    """The whole lines of a records file; a last line cut short (a stop in the middle of a
    write) is cut off the file."""
    if not path.exists():
        return []
    raw = path.read_bytes()
    end = raw.rfind(b"\n") + 1
    if end < len(raw):
        with open(path, "r+b") as f:
            f.truncate(end)
        log.warning("%s: a last line cut short was dropped", path.name)
    try:
        text = raw[:end].decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not UTF-8 text") from None
    return [x for x in text.split("\n") if x.strip()]


def _journal(path: Path, rulesets: dict):
    """The deal a journal holds, replayed to its last whole action, and its game index; (None,
    -1) for a journal with no whole first line."""
    raw = path.read_bytes()
    end = raw.rfind(b"\n") + 1
    try:
        lines = raw[:end].decode("utf-8").split("\n")[:-1]
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not UTF-8 text") from None
    if not lines:
        return None, -1
    try:
        head = loads(lines[0], what="a journal's first line")
        if not isinstance(head, dict) or head.get("format") != JOURNAL_FORMAT:
            raise RecordError(f"format must be {JOURNAL_FORMAT!r}")
        game = head.get("game")
        if isinstance(game, bool) or not isinstance(game, int) or not 0 <= game <= MAX_MATCH_DEALS:
            raise RecordError("game: must be a whole number")
        record = head.get("record")
        deal = replay(record, rulesets)
        for k, line in enumerate(lines[1:], 2):
            try:
                action = action_from_json(loads(line, what="an action"), k - 2)
                deal.apply(action)
            except LaughError as exc:
                raise RecordError(f"line {k}: {exc}") from None
    except (RecordError, JSONError) as exc:
        raise RecordError(f"{path}: {exc}") from None
    return deal, game
