"""Deal records: the JSON format of RULES.md 9, written and read back by replaying.

A record is one JSON object per deal (a ``.json`` file), or one object per line (JSON Lines,
``.jsonl``) for many.  Reading a record replays every action through the engine, so a record
that is not legal is refused with the index of the first bad action and the reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from tutor.engine.cards import code, codes, parse_card
from tutor.engine.deal import ACTION_KINDS, Action, Deal
from tutor.engine.errors import LaughError, NotationError, RecordError
from tutor.engine.rulesets import OVERSIGHT_KINDS, Ruleset

FORMAT = "laugh-and-lie-down/deal@1"


def action_to_json(a: Action) -> dict[str, Any]:
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


def _cards_field(d: dict, key: str, index: int) -> tuple[int, ...]:
    v = d.get(key)
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise RecordError(f"action {index}: {key!r} must be a list of card codes", index)
    try:
        return tuple(parse_card(x) for x in v)
    except NotationError as exc:
        raise RecordError(f"action {index}: {exc}", index) from None


def action_from_json(d: Any, index: int) -> Action:
    """Read one record action; raises :class:`RecordError` naming ``index`` when malformed."""
    if not isinstance(d, dict):
        raise RecordError(f"action {index}: expected an object, got {type(d).__name__}", index)
    kind = d.get("action")
    if kind not in ACTION_KINDS:
        raise RecordError(f"action {index}: unknown action {kind!r}; expected one of "
                          f"{', '.join(ACTION_KINDS)}", index)
    player = d.get("player")
    if not isinstance(player, int) or isinstance(player, bool):
        raise RecordError(f"action {index}: 'player' must be a seat number", index)
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
            if ov not in OVERSIGHT_KINDS:
                raise RecordError(f"action {index}: unknown oversight {ov!r}; expected one of "
                                  f"{', '.join(OVERSIGHT_KINDS)}", index)
        act = Action.make(player, kind, cards, (), ov)
    extra = set(d) - allowed
    if extra:
        raise RecordError(f"action {index}: unexpected keys {sorted(extra)}", index)
    return act


def result_to_json(deal: Deal) -> dict[str, Any] | None:
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


def to_record(deal: Deal, with_result: bool = True) -> dict[str, Any]:
    """The deal record of ``deal`` (its pack and every action so far), with its result once over."""
    rec: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": deal.ruleset.id,
        "players": deal.n,
        "dealer": deal.dealer,
        "pack": [code(c) for c in deal.pack],
        "actions": [action_to_json(a) for a in deal.history],
    }
    if with_result and deal.result is not None:
        rec["result"] = result_to_json(deal)
    return rec


def _lookup_ruleset(rid: str, players: int, rulesets: dict[str, Ruleset] | None) -> Ruleset:
    if rulesets is not None:
        if rid not in rulesets:
            raise RecordError(f"unknown ruleset {rid!r}; known: {', '.join(sorted(rulesets))}")
        return rulesets[rid]
    from tutor.engine.sources import default_library
    lib = default_library()
    if rid not in lib.rulesets:
        raise RecordError(f"unknown ruleset {rid!r}; known: {', '.join(sorted(lib.rulesets))}")
    return lib.rulesets[rid]


def replay(record: Any, rulesets: dict[str, Ruleset] | None = None, *,
           check_result: bool = True, upto: int | None = None) -> Deal:
    """Replay a record and return the deal state after its actions (the first ``upto`` only,
    if given).

    ``rulesets`` maps ids to rulesets (default: the loaded library).  Raises
    :class:`RecordError` for a malformed record, an illegal action (``.index`` is the index of the
    first bad action), or, when ``check_result`` is true and the record has a ``result``, a result
    that differs from the replay's.
    """
    if not isinstance(record, dict):
        raise RecordError("a deal record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"'format' must be {FORMAT!r}, got {record.get('format')!r}")
    for key in ("ruleset", "players", "dealer", "pack", "actions"):
        if key not in record:
            raise RecordError(f"missing key {key!r}")
    extra = set(record) - {"format", "ruleset", "players", "dealer", "pack", "actions", "result"}
    if extra:
        raise RecordError(f"unexpected keys {sorted(extra)}")
    players, dealer = record["players"], record["dealer"]
    if not isinstance(players, int) or not isinstance(dealer, int):
        raise RecordError("'players' and 'dealer' must be whole numbers")
    ruleset = _lookup_ruleset(record["ruleset"], players, rulesets)
    if players not in ruleset.counts:
        raise RecordError(f"ruleset {ruleset.id} does not cover {players} players "
                          f"(it covers {', '.join(map(str, ruleset.player_counts))})")
    pack_codes = record["pack"]
    if not isinstance(pack_codes, list):
        raise RecordError("'pack' must be a list of 52 card codes")
    try:
        pack = [parse_card(c) for c in pack_codes]
    except NotationError as exc:
        raise RecordError(f"pack: {exc}") from None
    try:
        deal = Deal(ruleset, players, dealer, pack)
    except LaughError as exc:
        raise RecordError(str(exc)) from None
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RecordError("'actions' must be a list")
    for i, d in enumerate(actions):
        if upto is not None and i >= upto:
            break
        act = action_from_json(d, i)
        why = deal.why_illegal(act)
        if why is not None:
            raise RecordError(f"action {i} ({act.kind} by player {act.player}) is illegal: {why}", i)
        deal.apply_unchecked(act)
    if check_result and upto is None and record.get("result") is not None:
        if deal.result is None:
            raise RecordError("the record has a result but its actions do not finish the deal")
        mine = result_to_json(deal)
        theirs = _normalise_result(record["result"])
        for key in mine:
            if theirs.get(key) != mine[key]:
                raise RecordError(f"result.{key} is {theirs.get(key)!r} but the replay gives "
                                  f"{mine[key]!r}")
    return deal


def _normalise_result(res: Any) -> dict[str, Any]:
    if not isinstance(res, dict):
        raise RecordError("'result' must be an object")
    out = dict(res)
    try:
        if isinstance(out.get("won"), list):
            out["won"] = [codes(parse_card(c) for c in w) for w in out["won"]]
        lo = out.get("leftovers")
        if isinstance(lo, dict) and isinstance(lo.get("cards"), list):
            out["leftovers"] = {"to": lo.get("to"), "cards": codes(parse_card(c) for c in lo["cards"])}
    except (NotationError, TypeError) as exc:
        raise RecordError(f"result: {exc}") from None
    return out


def load_records(path: str | Path) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, parsed_json_or_RecordError)`` for every record in a file.

    A ``.json`` file holding one object (or a list of objects) yields it with line 1 (list items
    with their position); otherwise every non-blank line is a JSON object.  A line that is not
    JSON yields a :class:`RecordError` in place of the object.  Raises :class:`LaughError` if the
    file cannot be read.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise LaughError(f"cannot read {p}: {exc.strerror or exc}") from None
    stripped = text.strip()
    if stripped.startswith("{") or stripped.startswith("["):
        try:
            whole = json.loads(stripped)
        except json.JSONDecodeError:
            whole = None
        if isinstance(whole, dict):
            yield 1, whole
            return
        if isinstance(whole, list):
            for i, obj in enumerate(whole, 1):
                yield i, obj
            return
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield lineno, json.loads(line)
        except json.JSONDecodeError as exc:
            yield lineno, RecordError(f"not JSON: {exc.msg} at column {exc.colno}")


def dumps(record: dict[str, Any]) -> str:
    """One record as a single JSON line."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def write_records(path: str | Path, records: Iterable[dict[str, Any]]) -> int:
    """Write records as JSON Lines; returns how many were written."""
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(dumps(rec) + "\n")
            n += 1
    return n
