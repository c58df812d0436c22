"""A saved table server read back for ``laugh table serve --resume``: ``server.json`` checked
whole, as a saved match is (every key present with a value of its type and range; anything
else refused in one line naming the file and the key), then each table's match, its records
and its journal brought into agreement (a part of :mod:`tutor.app.tables.server`).

The files are written in an order that makes agreement possible whatever moment the server
was stopped at (:mod:`~tutor.app.tables._files`): a deal's record is appended before the match
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
from pathlib import Path
from typing import Any

from tutor.app.tables._files import JOURNAL_FORMAT, _append, journal_path, records_path
from tutor.app.tables._people import SeatState, Settings
from tutor.app.tables.protocol import CODE_LETTERS, COMPUTER, MAX_LIVERY, MAX_NAME
from tutor.app.tables.table import Table
from tutor.engine.errors import LaughError, RecordError, UsageError
from tutor.engine.jsonfile import JSONError, load, loads
from tutor.engine.levels import LEVELS, level
from tutor.engine.limits import MAX_MATCH_DEALS, MAX_SEED
from tutor.engine.match import Match
from tutor.engine.records import action_from_json, dumps, replay, to_record

__all__ = ["STATE_FORMAT", "load_state", "state_json"]

log = logging.getLogger("tutor.tables")

#: The format name of ``server.json``.
STATE_FORMAT = "laugh-and-lie-down/tables@2"
#: The format an older server wrote (its settings lack the keys added since; they take their
#: defaults).
OLD_FORMAT = "laugh-and-lie-down/tables@1"
#: The most tables a server holds.
MAX_TABLES = 64
_TOP = ("format", "settings", "admin", "published", "tables")
_SEAT = ("name", "token", "incoming", "incoming_token", "since", "livery")
#: Each setting: (its check, whether a server of the old format wrote it).
_NEW_SETTINGS = {"move_time": 30.0, "reserve": 120.0, "hints": 3, "people": 1, "hold": False,
                 "duplicate": False, "first_dealers": []}


def state_json(tables: list[Table], admin: str, published: int) -> dict[str, Any]:
    """What ``server.json`` holds: the settings, the organiser's code, the standings rounds
    published, and each table's number, code and seats (``name``, ``token``, ``incoming``,
    ``incoming_token``, ``since``, ``livery``)."""
    s = tables[0].settings
    return {"format": STATE_FORMAT,
            "settings": {"ruleset": s.ruleset.id, "players": s.players, "level": s.level.name,
                         "deals": s.deals, "hint": s.hint, "wait": s.wait, "pace": s.pace,
                         "gap": s.gap, "before": s.before, "seed": s.seed, "start": s.start,
                         "move_time": s.move_time, "reserve": s.reserve, "hints": s.hints,
                         "people": s.people, "hold": s.hold, "duplicate": s.duplicate,
                         "first_dealers": list(s.first_dealers)},
            "admin": admin, "published": published,
            "tables": [{"table": t.number, "code": t.code,
                        "seats": [{k: getattr(st, k) for k in _SEAT} for st in t.seats]}
                       for t in tables]}


class _Bad(Exception):
    """A value of ``server.json`` that is not as the server writes it: ``key`` and why."""

    def __init__(self, key: str, why: str):
        super().__init__(f"{key}: {why}")


def _short(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 30 else text[:27] + "..."


def _keys(obj: Any, key: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
    if not isinstance(obj, dict):
        raise _Bad(key, f"must be an object, got {_short(obj)}")
    for k in keys:
        if k not in obj and k not in optional:
            raise _Bad(f"{key}.{k}" if key else k, "missing")
    extra = sorted(str(k) for k in obj if k not in keys)
    if extra:
        name = extra[0] if len(extra[0]) <= 30 else extra[0][:27] + "..."
        raise _Bad(f"{key}.{name}" if key else name, "not a key of a saved table server")
    return obj


def _whole(obj: dict, key: str, where: str, low: int, high: int, none: bool = False):
    v = obj[key]
    if v is None and none:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise _Bad(f"{where}.{key}", f"must be a whole number from {low:,} to {high:,}"
                   + (" or null" if none else "") + f", got {_short(v)}")
    return v


def _seconds(obj: dict, key: str, where: str, high: float, none: bool = False):
    v = obj[key]
    if v is None and none:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= high:
        raise _Bad(f"{where}.{key}", f"must be a number of seconds from 0 to {high:g}"
                   + (" or null" if none else "") + f", got {_short(v)}")
    return float(v)


def _flag(obj: dict, key: str, where: str) -> bool:
    v = obj[key]
    if not isinstance(v, bool):
        raise _Bad(f"{where}.{key}", f"must be true or false, got {_short(v)}")
    return v


def _text(v: Any, key: str, high: int, none: bool = False, code: bool = False):
    if v is None and none:
        return None
    if not isinstance(v, str) or not 1 <= len(v) <= high or not v.isprintable() \
            or v != " ".join(v.split()):
        raise _Bad(key, f"must be text of 1 to {high} printable characters"
                   + (" or null" if none else "") + f", got {_short(v)}")
    if code and not all(c in CODE_LETTERS for c in v):
        raise _Bad(key, f"must be a code of the letters {CODE_LETTERS}, got {_short(v)}")
    return v


def _token(v: Any, key: str) -> str | None:
    if v is None:
        return None
    if not isinstance(v, str) or not 16 <= len(v) <= 64 or not all(
            c.isascii() and (c.isalnum() or c in "-_") for c in v):
        raise _Bad(key, f"must be a seat token (16 to 64 letters, digits, - and _) or null, "
                        f"got {_short(v)}")
    return v


def _settings(obj: Any, rulesets: dict, old: bool) -> Settings:
    keys = ("ruleset", "players", "level", "deals", "hint", "wait", "pace", "gap", "before",
            "seed", "start", *_NEW_SETTINGS)
    st = _keys(obj, "settings", keys, tuple(_NEW_SETTINGS) if old else ())
    if old:
        st = {**_NEW_SETTINGS, **st}
    rid = st["ruleset"]
    if not isinstance(rid, str) or rid not in rulesets:
        raise _Bad("settings.ruleset", f"unknown ruleset {_short(rid)}")
    rs = rulesets[rid]
    players = _whole(st, "players", "settings", 1, 52)
    if players not in rs.counts:
        raise _Bad("settings.players", f"ruleset {rid} does not cover {players} players")
    if not isinstance(st["level"], str) or st["level"] not in LEVELS:
        raise _Bad("settings.level", f"unknown level {_short(st['level'])}; one of "
                                     f"{', '.join(LEVELS)}")
    deals = _whole(st, "deals", "settings", 1, MAX_MATCH_DEALS, none=True)
    seed = _whole(st, "seed", "settings", 0, MAX_SEED)
    leads = st["first_dealers"]
    if not isinstance(leads, list) or len(leads) > MAX_TABLES:
        raise _Bad("settings.first_dealers", f"must be a list of names (or null) a table, got "
                                             f"{_short(leads)}")
    firsts = tuple(_text(x, f"settings.first_dealers.{i}", MAX_NAME, none=True)
                   for i, x in enumerate(leads))
    return Settings(rs, players, level(st["level"]), deals, _flag(st, "hint", "settings"),
                    _seconds(st, "wait", "settings", 3600), _seconds(st, "pace", "settings", 60),
                    _seconds(st, "gap", "settings", 600), _seconds(st, "before", "settings", 60),
                    seed, _seconds(st, "start", "settings", 86400, none=True),
                    _seconds(st, "move_time", "settings", 3600),
                    _seconds(st, "reserve", "settings", 3600),
                    _whole(st, "hints", "settings", 0, 1000),
                    _whole(st, "people", "settings", 0, 52),
                    _flag(st, "hold", "settings"), _flag(st, "duplicate", "settings"), firsts)


def _seat(obj: Any, key: str, deals: int) -> SeatState:
    x = _keys(obj, key, _SEAT)
    st = SeatState(name=_text(x["name"], f"{key}.name", MAX_NAME, none=True),
                   token=_token(x["token"], f"{key}.token"),
                   incoming=_text(x["incoming"], f"{key}.incoming", MAX_NAME, none=True),
                   incoming_token=_token(x["incoming_token"], f"{key}.incoming_token"),
                   since=_whole(x, "since", key, 0, deals),
                   livery=_text(x["livery"], f"{key}.livery", MAX_LIVERY, none=True))
    for who in (st.name, st.incoming):
        if who is not None and who.casefold().endswith(COMPUTER):
            raise _Bad(key, f"a person's name cannot end in {COMPUTER}")
    if st.incoming is None and st.incoming_token is not None:
        raise _Bad(f"{key}.incoming_token", "a token for nobody incoming")
    if st.name is None and st.token is not None:
        raise _Bad(f"{key}.token", "a token for an empty seat")
    return st


def load_state(folder: Path, rulesets: dict) -> tuple[list[Table], str, int]:
    """The tables of a server saved in ``folder``, their admin code and the standings rounds
    published (see the module docstring).  Raises :class:`~tutor.engine.errors.UsageError`
    when there is nothing to resume, and :class:`~tutor.engine.errors.RecordError` (one line,
    naming the file and the key) for a damaged file."""
    path = folder / "server.json"
    if not path.exists():
        raise UsageError(f"nothing to resume in {folder} (no server.json)")
    obj = load(path, what="a saved table server")
    try:
        if not isinstance(obj, dict) or obj.get("format") not in (STATE_FORMAT, OLD_FORMAT):
            raise _Bad("format", f"must be {STATE_FORMAT!r}, got {_short(obj.get('format'))}"
                       if isinstance(obj, dict) else "a saved table server is a JSON object")
        old = obj["format"] == OLD_FORMAT
        _keys(obj, "", _TOP)
        settings = _settings(obj["settings"], rulesets, old)
        admin = _text(obj["admin"], "admin", 40, code=True)
        published = _whole(obj, "published", "", 0, MAX_MATCH_DEALS)
        entries = obj["tables"]
        if not isinstance(entries, list) or not 1 <= len(entries) <= MAX_TABLES:
            raise _Bad("tables", f"must be a list of 1 to {MAX_TABLES} tables, got "
                                 f"{_short(entries)}")
        specs, codes = [], set()
        for i, entry in enumerate(entries):
            key = f"tables.{i}"
            _keys(entry, key, ("table", "code", "seats"))
            if _whole(entry, "table", key, i + 1, i + 1) != i + 1:
                raise _Bad(f"{key}.table", f"must be {i + 1}")
            code = _text(entry["code"], f"{key}.code", 40, code=True)
            if code in codes or code == admin:
                raise _Bad(f"{key}.code", "the same code as another table or the organiser")
            codes.add(code)
            seats = entry["seats"]
            if not isinstance(seats, list) or len(seats) != settings.players:
                raise _Bad(f"{key}.seats", f"must be a list of {settings.players} seats, got "
                                           f"{_short(seats)}")
            specs.append((i + 1, code, seats))
    except _Bad as exc:
        raise RecordError(f"{path}: {exc}") from None
    tables = []
    for n, code, seats in specs:
        mpath = folder / f"table-{n}.match.json"
        try:
            match = Match.from_json(load(mpath, what="a saved match"), rulesets)
        except JSONError as exc:                # names the file already
            raise RecordError(str(exc)) from None
        except RecordError as exc:
            raise RecordError(f"{mpath}: {exc}") from None
        if match.players != settings.players or match.ruleset is not settings.ruleset \
                or match.seed != settings.table_seed(n):
            raise RecordError(f"{mpath}: not table {n}'s match "
                              "(its ruleset, players or seed differ from server.json's)")
        try:
            states = [_seat(x, f"tables.{n - 1}.seats.{q}", len(match.games))
                      for q, x in enumerate(seats)]
        except _Bad as exc:
            raise RecordError(f"{path}: {exc}") from None
        t = Table(n, code, settings, match, seats=states)
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
        log.info("table %d: game %d taken from its record (its match was not saved)",
                 t.number, k + 1)
    if len(lines) < len(m.deals):
        _append(rpath, "".join(dumps(to_record(d)) + "\n" for d in m.deals[len(lines):]))
        log.warning("table %d: %d records written again from the match", t.number,
                    len(m.deals) - len(lines))
    jpath = journal_path(folder, t.number)
    if not jpath.exists() or m.is_over:
        jpath.unlink(missing_ok=True)
        return
    deal, game = _journal(jpath, rulesets)
    if deal is None or game < len(m.deals):
        jpath.unlink(missing_ok=True)         # a deal recorded already
        return
    if game > len(m.deals):
        raise RecordError(f"{jpath}: game {game + 1}, but the match has {len(m.deals)} "
                          "games played")
    _same_deal(deal, m, str(jpath))
    if deal.is_terminal():                   # ended before its record was written
        _append(rpath, dumps(to_record(deal)) + "\n")
        m.record_deal(deal)
        jpath.unlink(missing_ok=True)
    else:
        t.resume_deal(deal)


def _same_deal(deal, m: Match, where: str) -> None:
    expect = m.new_deal()
    if deal.ruleset is not m.ruleset or deal.n != m.players or deal.pack != expect.pack \
            or deal.dealer != expect.dealer:
        raise RecordError(f"{where}: not the deal this table's seed deals for game "
                          f"{len(m.deals) + 1}")


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
        if isinstance(game, bool) or not isinstance(game, int) or not 0 <= game <= \
                MAX_MATCH_DEALS:
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
