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
from tutor.engine.cards import code, codes
from tutor.engine.deal import Action, Deal
from tutor.engine.errors import LaughError, RecordError
from tutor.engine.jsonfile import describe
from tutor.engine.rulesets import Ruleset
from tutor.engine.sources import default_library

FORMAT = "laugh-and-lie-down/deal@1"

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


def action_from_json(d: object, index: int) -> Action:
    """Read one record action (a parsed JSON object, RULES.md 9).

    Raises :class:`RecordError` naming ``index`` (``action 3: hand: '7X' is not a card``),
    with ``.index`` set, when it is malformed; whether it is legal is the deal's to say.
    """
    from tutor.engine._record_json import read_action  # pydantic: only when a record is read

    return read_action(d, index)


def result_to_json(deal: Deal) -> dict[str, object] | None:
    """The ``result`` block of a finished deal, or None while it is in progress."""
    r = deal.result
    if r is None:
        return None
    out: dict[str, object] = {
        "last_in": r.last_in,
        "bonus_to": r.bonus_to,
        "won": [codes(w) for w in r.won],
        "leftovers": {"to": r.leftovers_to, "cards": codes(r.leftovers)},
        "net": list(r.net) if r.net is not None else None,
        "points": list(r.points) if r.points is not None else None,
    }
    if deal.ruleset.lie_down_pays is not None:  # RULES.md 3.6: only where lying down pays
        out["payments"] = [
            [payer, "pot" if payee is None else payee, stakes]
            for payer, payee, stakes in r.payments
        ]
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
        raise RecordError(
            "a position built by hand has no pack: it cannot be written as a deal record"
        )
    return deal.pack


def _lookup_ruleset(rid: str, rulesets: dict[str, Ruleset] | None) -> Ruleset:
    known = rulesets if rulesets is not None else default_library().rulesets
    if rid not in known:
        raise RecordError(
            f"ruleset: unknown ruleset {describe(rid)}; known: {', '.join(sorted(known))}"
        )
    return known[rid]


def replay(
    record: object,
    rulesets: dict[str, Ruleset] | None = None,
    *,
    check_result: bool = True,
    upto: int | None = None,
) -> Deal:
    """Replay a record (parsed JSON, RULES.md 9) and return the deal state after its actions
    (the first ``upto`` only, if given).

    The record's shape is checked first, whole (:class:`tutor.engine._record_json.RecordIn`:
    every key, its type and range, every card code and action), then every action is applied
    through the engine.  ``rulesets`` maps ids to rulesets (default: the loaded library).
    Raises :class:`RecordError` for a malformed record, an illegal action (``.index`` is the
    index of the first bad action), or, when ``check_result`` is true and the record has a
    ``result``, a result that differs from the replay's.
    """
    from tutor.engine._record_json import read_record  # pydantic: only when a record is read

    rec = read_record(record)
    ruleset = _lookup_ruleset(rec.ruleset, rulesets)
    players = rec.players
    if players not in ruleset.counts:
        raise RecordError(
            f"players: ruleset {ruleset.id} does not cover {players} players "
            f"(it covers {', '.join(map(str, ruleset.player_counts))})"
        )
    if rec.dealer >= players:
        raise RecordError(f"dealer: must be a seat from 0 to {players - 1}, got {rec.dealer}")
    try:
        deal = Deal(ruleset, players, rec.dealer, list(rec.pack))
    except LaughError as exc:
        raise RecordError(str(exc)) from None
    for i, a in enumerate(rec.actions):
        if upto is not None and i >= upto:
            break
        act = a.to_action()
        why = deal.why_illegal(act)
        if why is not None:
            raise RecordError(
                f"action {i} ({act.kind} by player {act.player}) is illegal: {why}", i
            )
        deal.apply_unchecked(act)
    if check_result and upto is None and rec.result is not None:
        theirs = rec.result.as_json()
        if deal.result is None:
            raise RecordError(
                "result: the record has a result but its actions do not finish "
                f"the deal (it stops after {len(rec.actions)} actions)"
            )
        mine = result_to_json(deal)
        assert mine is not None  # the deal has a result
        for key in mine:
            if theirs.get(key) != mine[key]:
                raise RecordError(
                    f"result.{key} is {describe(theirs.get(key))} but the replay "
                    f"gives {mine[key]!r}"
                )
    return deal


class UnfinishedRecord(RecordError):
    """A record that is legal as far as it goes but is not a whole deal with its result."""


def check_record(
    record: object, rulesets: dict[str, Ruleset] | None = None, *, positions: bool = False
) -> Deal:
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
    if not isinstance(record, dict):  # replay has read it as an object already
        raise RecordError("a deal record must be an object")
    if deal.result is None:
        n = len(deal.history)
        raise UnfinishedRecord(
            f"unfinished: the actions stop before the deal is over "
            f"({n} action{'s' if n != 1 else ''}; player {deal.to_move} to "
            "move); check positions with --positions"
        )
    if record.get("result") is None:
        raise UnfinishedRecord(
            "unfinished: the record has no result block; check positions with --positions"
        )
    return deal


#: File name endings read as JSON Lines, one record a line, whatever the first line holds.
LINES_SUFFIXES = (".jsonl", ".ndjson")
#: What :func:`load_records` found when a file is not one JSON value: read it line by line.
_AS_LINES = object()


def load_records(path: str | Path) -> Iterator[tuple[int, object]]:
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
            whole = jsonfile.loads(
                text if bad is None else "", max_digits=_MAX_DIGITS, what="a record"
            )
        except jsonfile.JSONError as exc:
            if suffix == ".json" and not exc.more:
                yield exc.line or 1, RecordError(exc.reason)
                return
            whole = _AS_LINES  # not one value: JSON Lines (under a .json name: a value, more)
        if isinstance(whole, dict):
            yield 1, whole
            return
        if isinstance(whole, list):
            yield from enumerate(whole, 1)
            return
        if suffix == ".json" and whole is not _AS_LINES:
            yield 1, RecordError(f"a deal record is a JSON object, not {describe(whole)}")
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


def loads(text: str) -> object:
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
    """Write records as JSON Lines, whole or not at all (:func:`~tutor.engine.atomic.
    open_atomic`: a write that fails leaves no part of a file); returns how many were
    written.  Raises OSError when the file cannot be written."""
    from tutor.engine.atomic import open_atomic

    n = 0
    with open_atomic(path) as fh:
        for rec in records:
            fh.write(dumps(rec) + "\n")
            n += 1
    return n
