"""Deal records: the JSON format of RULES.md 9, written and read back by replaying.

A record is one JSON object per deal (a ``.json`` file), or one object per line (JSON Lines,
``.jsonl``) for many.  Reading a record replays every action through the engine, so a record
that is not legal is refused with the index of the first bad action and the reason.

Whatever a file holds, reading it raises (or yields) a :class:`~tutor.engine.errors.RecordError`
whose message is one line naming the field (``ruleset: ...``, ``action 3: 'hand' ...``), never
a Python error: bytes that are not UTF-8, JSON nested too deeply, numbers too long for any
field, values of the wrong type and duplicate keys are all refused this way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from tutor.engine import jsonfile
from tutor.engine.cards import code, codes, parse_card
from tutor.engine.deal import ACTION_KINDS, Action, Deal
from tutor.engine.errors import LaughError, NotationError, RecordError
from tutor.engine.rulesets import OVERSIGHT_KINDS, Ruleset
from tutor.engine.sources import default_library

FORMAT = "laugh-and-lie-down/deal@1"

#: The top-level keys of a record, and of its ``result`` block (RULES.md 9).
RECORD_KEYS = ("format", "ruleset", "players", "dealer", "pack", "actions", "result")
RESULT_KEYS = ("last_in", "bonus_to", "won", "leftovers", "net", "points")

#: No number in a record needs more digits than this (Python refuses over 4,300 on its own,
#: with a ValueError; we refuse far sooner, with a RecordError).
_MAX_DIGITS = 30
#: Bytes that were not UTF-8, as ``surrogateescape`` decoding leaves them in the text.
_UNDECODED = re.compile("[\udc80-\udcff]")


def action_to_json(a: Action) -> dict[str, object]:
    """One action as a record object (cards as sorted codes)."""
    d: dict[str, Any] = {"player": a.player, "action": a.kind}
    if a.kind == "end_turn":
        return d
    if a.kind in ("capture", "play_on_capture"):
        d["hand"] = codes(a.cards)
        d["table"] = codes(a.table)
    else:
        if a.kind == "claim":
            d["oversight"] = a.oversight
        d["cards"] = codes(a.cards)
    return d


def _describe(value: Any) -> str:
    """A short, safe description of a JSON value for a message (never a long or deep repr)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _keys(keys) -> str:
    """Unexpected keys for a message: the first five, each cut to 20 characters."""
    ks = sorted(keys)
    shown = [k if len(k) <= 20 else k[:17] + "..." for k in ks[:5]]
    return repr(shown)[:-1] + (", ...]" if len(ks) > 5 else "]")


def _cards_field(d: dict, key: str, index: int) -> tuple[int, ...]:
    v = d.get(key)
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        got = "missing" if key not in d else f"got {_describe(v)}"
        raise RecordError(f"action {index}: {key!r} must be a list of card codes ({got})", index)
    try:
        return tuple(parse_card(x) for x in v)
    except NotationError as exc:
        raise RecordError(f"action {index}: {key!r}: {exc}", index) from None


def action_from_json(d: object, index: int) -> Action:
    """Read one record action; raises :class:`RecordError` naming ``index`` when malformed."""
    if not isinstance(d, dict):
        raise RecordError(f"action {index}: expected an object, got {type(d).__name__}", index)
    kind = d.get("action")
    if not isinstance(kind, str) or kind not in ACTION_KINDS:
        raise RecordError(f"action {index}: unknown action {_describe(kind)}; expected one of "
                          f"{', '.join(ACTION_KINDS)}", index)
    player = d.get("player")
    if not isinstance(player, int) or isinstance(player, bool):
        raise RecordError(f"action {index}: 'player' must be a seat number, got "
                          f"{_describe(player)}", index)
    if kind == "end_turn":
        allowed = {"player", "action"}
        act = Action(player, kind)
    elif kind in ("capture", "play_on_capture"):
        allowed = {"player", "action", "hand", "table"}
        hand, table = _cards_field(d, "hand", index), _cards_field(d, "table", index)
        act = Action.make(player, kind, hand, table)
    else:
        allowed = {"player", "action", "cards"} | ({"oversight"} if kind == "claim" else set())
        cards = _cards_field(d, "cards", index)
        ov = None
        if kind == "claim":
            ov = d.get("oversight")
            if not isinstance(ov, str) or ov not in OVERSIGHT_KINDS:
                raise RecordError(f"action {index}: unknown oversight {_describe(ov)}; expected one of "
                                  f"{', '.join(OVERSIGHT_KINDS)}", index)
        act = Action.make(player, kind, cards, (), ov)
    extra = set(d) - allowed
    if extra:
        raise RecordError(f"action {index}: unexpected keys {_keys(extra)}", index)
    return act


def result_to_json(deal: Deal) -> dict[str, object] | None:
    """The ``result`` block of a finished deal, or None while it is in progress."""
    r = deal.result
    if r is None:
        return None
    out = {
        "last_in": r.last_in,
        "bonus_to": r.bonus_to,
        "won": [codes(w) for w in r.won],
        "leftovers": {"to": r.leftovers_to, "cards": codes(r.leftovers)},
        "net": list(r.net) if r.net is not None else None,
        "points": list(r.points) if r.points is not None else None,
    }
    if deal.ruleset.lie_down_pays is not None:     # RULES.md 3.6: only where lying down pays
        out["payments"] = [[payer, "pot" if payee is None else payee, stakes]
                           for payer, payee, stakes in r.payments]
    return out


def to_record(deal: Deal, with_result: bool = True) -> dict[str, object]:
    """The deal record of ``deal`` (its pack and every action so far), with its result once over."""
    rec: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": deal.ruleset.id,
        "players": deal.n,
        "dealer": deal.dealer,
        "pack": [code(c) for c in _pack(deal)],
        "actions": [action_to_json(a) for a in deal.history],
    }
    if with_result and deal.result is not None:
        rec["result"] = result_to_json(deal)
    return rec


def _pack(deal: Deal) -> tuple[int, ...]:
    """The pack of a dealt deal; a hand-made position has none to write."""
    if deal.pack is None:
        raise RecordError("a position built by hand has no pack: it cannot be written as a "
                          "deal record")
    return deal.pack


def _lookup_ruleset(rid: str, players: int, rulesets: dict[str, Ruleset] | None) -> Ruleset:
    known = rulesets if rulesets is not None else default_library().rulesets
    if rid not in known:
        raise RecordError(f"ruleset: unknown ruleset {_describe(rid)}; known: "
                          f"{', '.join(sorted(known))}")
    return known[rid]


def replay(record: object, rulesets: dict[str, Ruleset] | None = None, *,
           check_result: bool = True, upto: int | None = None) -> Deal:
    """Replay a record and return the deal state after its actions (the first ``upto`` only,
    if given).

    ``rulesets`` maps ids to rulesets (default: the loaded library).  Raises
    :class:`RecordError` for a malformed record, an illegal action (``.index`` is the index of the
    first bad action), or, when ``check_result`` is true and the record has a ``result``, a result
    that differs from the replay's.
    """
    if not isinstance(record, dict):
        raise RecordError(f"a deal record is a JSON object, not {_describe(record)}")
    if record.get("format") != FORMAT:
        raise RecordError(f"format: must be {FORMAT!r}, got {_describe(record.get('format'))}")
    for key in RECORD_KEYS[1:-1]:
        if key not in record:
            raise RecordError(f"missing key {key!r}")
    extra = set(record) - set(RECORD_KEYS)
    if extra:
        raise RecordError(f"unexpected keys {_keys(extra)}")
    rid = record["ruleset"]
    if not isinstance(rid, str):
        raise RecordError(f"ruleset: must be a ruleset id (text), got {_describe(rid)}")
    players, dealer = record["players"], record["dealer"]
    for key, value in (("players", players), ("dealer", dealer)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise RecordError(f"{key}: must be a whole number, got {_describe(value)}")
    ruleset = _lookup_ruleset(rid, players, rulesets)
    if players not in ruleset.counts:
        raise RecordError(f"players: ruleset {ruleset.id} does not cover {players} players "
                          f"(it covers {', '.join(map(str, ruleset.player_counts))})")
    if not 0 <= dealer < players:
        raise RecordError(f"dealer: must be a seat from 0 to {players - 1}, got {dealer}")
    pack_codes = record["pack"]
    if not isinstance(pack_codes, list):
        raise RecordError(f"pack: must be a list of 52 card codes, got {_describe(pack_codes)}")
    try:
        pack = [parse_card(c) for c in pack_codes]
    except NotationError as exc:
        raise RecordError(f"pack: {exc}") from None
    if len(pack) != 52 or len(set(pack)) != 52:
        raise RecordError(f"pack: must be the 52 distinct cards, got {len(pack)} cards, "
                          f"{len(set(pack))} distinct")
    try:
        deal = Deal(ruleset, players, dealer, pack)
    except LaughError as exc:
        raise RecordError(str(exc)) from None
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RecordError(f"actions: must be a list, got {_describe(actions)}")
    for i, d in enumerate(actions):
        if upto is not None and i >= upto:
            break
        act = action_from_json(d, i)
        why = deal.why_illegal(act)
        if why is not None:
            raise RecordError(f"action {i} ({act.kind} by player {act.player}) is illegal: {why}", i)
        deal.apply_unchecked(act)
    if check_result and upto is None and record.get("result") is not None:
        theirs = _normalise_result(record["result"])
        if deal.result is None:
            raise RecordError("result: the record has a result but its actions do not finish "
                              f"the deal (it stops after {len(actions)} actions)")
        mine = result_to_json(deal)
        assert mine is not None             # the deal has a result
        for key in mine:
            if theirs.get(key) != mine[key]:
                raise RecordError(f"result.{key} is {_describe(theirs.get(key))} but the replay "
                                  f"gives {mine[key]!r}")
    return deal


class UnfinishedRecord(RecordError):
    """A record that is legal as far as it goes but is not a whole deal with its result."""


def check_record(record: object, rulesets: dict[str, Ruleset] | None = None, *,
                 positions: bool = False) -> Deal:
    """Replay ``record`` as :func:`replay` does and require a whole deal.

    A record is *unfinished* when it has no ``result`` block, or when its actions stop before
    the deal is over; such a record raises :class:`UnfinishedRecord` (a :class:`RecordError`)
    unless ``positions`` is true (a position cut from a deal, as puzzles store them, is then
    accepted).  Raises :class:`RecordError` as :func:`replay` for anything malformed or illegal.
    Returns the replayed deal.
    """
    deal = replay(record, rulesets)
    if positions:
        return deal
    if not isinstance(record, dict):        # replay has read it as an object already
        raise RecordError("a deal record must be an object")
    if deal.result is None:
        n = len(record["actions"])
        raise UnfinishedRecord(f"unfinished: the actions stop before the deal is over "
                               f"({n} action{'s' if n != 1 else ''}; player {deal.to_move} to "
                               "move); check positions with --positions")
    if record.get("result") is None:
        raise UnfinishedRecord("unfinished: the record has no result block; check positions "
                               "with --positions")
    return deal


def _normalise_result(res: Any) -> dict[str, Any]:
    """The ``result`` block with its card lists sorted, for comparison with the replay's."""
    if not isinstance(res, dict):
        raise RecordError(f"result: must be an object, got {_describe(res)}")
    extra = set(res) - set(RESULT_KEYS) - {"payments"}
    if extra:
        raise RecordError(f"result: unexpected keys {_keys(extra)}")
    out = dict(res)
    won = out.get("won")
    if won is not None:
        if not isinstance(won, list) or not all(isinstance(w, list) for w in won):
            raise RecordError(f"result.won: must be a list of card lists, got {_describe(won)}")
        out["won"] = [_result_cards(w, f"result.won.{i}") for i, w in enumerate(won)]
    lo = out.get("leftovers")
    if lo is not None:
        if not isinstance(lo, dict) or set(lo) - {"to", "cards"}:
            raise RecordError("result.leftovers: must be an object {to, cards}")
        out["leftovers"] = {"to": lo.get("to"),
                            "cards": _result_cards(lo.get("cards"), "result.leftovers.cards")}
    return out


def _result_cards(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise RecordError(f"{where}: must be a list of card codes, got {_describe(value)}")
    try:
        return codes(parse_card(c) for c in value)
    except NotationError as exc:
        raise RecordError(f"{where}: {exc}") from None


#: File name endings read as JSON Lines, one record a line, whatever the first line holds.
LINES_SUFFIXES = (".jsonl", ".ndjson")
#: What :func:`load_records` found when a file is not one JSON value: read it line by line.
_AS_LINES = object()


def load_records(path: str | Path) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, parsed_json_or_RecordError)`` for every record in a file.

    A ``.jsonl`` (or ``.ndjson``) file is read one line at a time (any length, in bounded
    memory; every non-blank line a JSON object, a line over
    :data:`tutor.engine.jsonfile.MAX_LINE_BYTES` stops the reading).  A ``.json`` file is one
    JSON document, an object (yielded with line 1) or a list of objects (yielded with their
    positions); if it cannot be parsed, that is one :class:`RecordError` at the line where the
    parser stopped (a half-cut file is one error, not one per line), unless a whole value is
    followed by more (JSON Lines written under a ``.json`` name), which is read line by line.
    A file of any other name
    is read as one document when it parses as one, else line by line.  Whole documents are read
    within :data:`tutor.engine.jsonfile.MAX_BYTES`.

    A line (or document) that cannot be read yields a :class:`RecordError` in place of the
    object, saying why in one line: bytes that are not UTF-8 (with the column), not JSON, nested
    too deeply, a number longer than any field needs, ``NaN`` or ``Infinity``, or a key given
    twice.  A UTF-8 byte-order mark is skipped.  Raises :class:`RecordError` if the file cannot
    be read at all, or is larger than the limit (``/dev/zero``).
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in LINES_SUFFIXES:
        try:
            for lineno, raw in jsonfile.iter_lines(p, str(path)):
                text = raw.decode("utf-8", errors="surrogateescape")
                if lineno == 1:
                    text = text.removeprefix("\ufeff")
                found = _line(text)
                if found is not None:
                    yield lineno, found
        except jsonfile.JSONError as exc:
            if exc.line is None:
                raise RecordError(str(exc)) from None
            yield exc.line, RecordError(exc.reason)
        return
    try:
        data = jsonfile.read_bytes(p, str(path))
    except jsonfile.JSONError as exc:
        raise RecordError(str(exc)) from None
    text = data.decode("utf-8", errors="surrogateescape").removeprefix("\ufeff")
    stripped = text.strip()
    whole: Any = None
    if suffix == ".json" or stripped.startswith("{") or stripped.startswith("["):
        bad = _UNDECODED.search(text)
        if bad is not None and suffix == ".json":
            line = text.count("\n", 0, bad.start()) + 1
            yield line, _not_utf8(text, bad.start())
            return
        try:
            whole = jsonfile.loads(text if bad is None else "", max_digits=_MAX_DIGITS,
                                   what="a record")
        except jsonfile.JSONError as exc:
            if suffix == ".json" and not exc.more:
                yield exc.line or 1, RecordError(exc.reason)
                return
            whole = _AS_LINES    # not one value: JSON Lines (under a .json name: a value, more)
        if isinstance(whole, dict):
            yield 1, whole
            return
        if isinstance(whole, list):
            yield from enumerate(whole, 1)
            return
        if suffix == ".json" and whole is not _AS_LINES:
            yield 1, RecordError(f"a deal record is a JSON object, not {_describe(whole)}")
            return
    for lineno, text_line in enumerate(text.splitlines(), 1):
        found = _line(text_line)
        if found is not None:
            yield lineno, found


def _line(line: str) -> Any:
    """One line of JSON Lines read: its value, a RecordError saying why not, or None when
    blank."""
    if not line.strip():
        return None
    bad = _UNDECODED.search(line)
    if bad is not None:
        return _not_utf8(line, bad.start())
    try:
        return loads(line)
    except RecordError as exc:
        return exc


def _not_utf8(text: str, pos: int) -> RecordError:
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return RecordError(f"not UTF-8 text: byte 0x{ord(text[pos]) - 0xDC00:02X} at column {column}")


def loads(text: str) -> Any:
    """Parse one JSON text of a record (a line, or a whole ``.json`` file) through
    :func:`tutor.engine.jsonfile.loads`.

    Raises :class:`RecordError` (one line) for text that is not JSON, nested too deeply, a
    number longer than any field of a record needs, ``NaN``/``Infinity``, or a key given twice
    in one object.
    """
    try:
        return jsonfile.loads(text, max_digits=_MAX_DIGITS, what="a record")
    except jsonfile.JSONError as exc:
        raise RecordError(exc.reason) from None


def dumps(record: Mapping[str, object]) -> str:
    """One record as a single JSON line."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def write_records(path: str | Path, records: Iterable[Mapping[str, object]]) -> int:
    """Write records as JSON Lines; returns how many were written."""
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(dumps(rec) + "\n")
            n += 1
    return n
