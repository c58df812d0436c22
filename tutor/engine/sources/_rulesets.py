"""Reading one ruleset of a source file: each parameter's entry (value, status, quotations,
note) checked against the parameter table (:mod:`tutor.engine.parameters`), the deal of each
player count, and the combinations whose settlement could not balance (RULES.md 3.6, 7)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from yaml.nodes import Node, ScalarNode

from tutor.engine.parameters import PARAMETERS, ParameterSpec
from tutor.engine.rulesets import BONUS_TO, COUNT_PARAMETERS, PAY_TO, RULESET_PARAMETERS, STATUSES
from tutor.engine.sources._library import PACK_SIZE, Parameter, _qualify
from tutor.engine.sources._source_file import (
    _ID_RE,
    _NULL_TAG,
    _describe,
    _File,
    _RawRuleset,
    _RawSource,
    _refs,
)

_STAKE_PARAMETERS = ("ante_dealer", "ante_other", "last_in_bonus", "breakeven")

_RULESET_REQUIRED = ("title", "summary", "players") + tuple(
    n for n in RULESET_PARAMETERS if PARAMETERS[n].required
)
_RULESET_OPTIONAL = tuple(n for n in RULESET_PARAMETERS if not PARAMETERS[n].required)
_ENTRY_REQUIRED = ("value", "status")
_ENTRY_OPTIONAL = ("quotes", "note", "source_value")


def _parse_ruleset(f: _File, raw: _RawSource, rid: Any, knode: Node, rnode: Node) -> _RawRuleset:
    """The ruleset ``rid`` of ``raw``'s file: its whole-ruleset parameters (a default, status
    chosen, for each one left out), then each player count's."""
    rpath = f"rulesets.{rid}"
    if not isinstance(rid, str) or not _ID_RE.match(rid):
        raise f.error(
            knode, rpath, "a ruleset id must be lowercase letters and digits joined by dashes"
        )
    e = f.keys(rnode, rpath, _RULESET_REQUIRED, _RULESET_OPTIONAL, at=knode, unknown=_no_such_rule)
    params: dict[str, Parameter] = {}
    for name in RULESET_PARAMETERS:
        if name in e:
            params[name] = _parse_entry(f, raw, rid, name, None, e[name], f"{rpath}.{name}")
        else:
            params[name] = Parameter(
                ruleset=rid,
                name=name,
                players=None,
                value=PARAMETERS[name].default,
                status="chosen",
                note="Not named in the file: the default of the rules model (RULES.md 3.6).",
                line=knode.start_mark.line + 1,
                implicit=True,
            )
    _check_settles(f, e, rpath, params)

    counts: dict[int, dict[str, Parameter]] = {}
    players_node = e["players"][1]
    pentries = f.mapping(players_node, f"{rpath}.players")
    if not pentries:
        raise f.error(players_node, f"{rpath}.players", "needs at least one player count")
    for key, (pknode, cnode) in pentries.items():
        n = _count(f, key, pknode, f"{rpath}.players.{key}")
        counts[n] = _parse_count(f, raw, rid, n, pknode, cnode, f"{rpath}.players.{n}", params)
    return _RawRuleset(
        id=rid,
        line=knode.start_mark.line + 1,
        title=f.string(e["title"][1], f"{rpath}.title"),
        summary=f.string(e["summary"][1], f"{rpath}.summary"),
        counts=dict(sorted(counts.items())),
        params=params,
    )


def _count(f: _File, n: object, pknode: Node, cpath: str) -> int:
    """A key of ``players``: a player count, a whole number from 2 to 26."""
    if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= PACK_SIZE // 2:
        raise f.error(
            pknode, cpath, f"a player count must be a whole number from 2 to {PACK_SIZE // 2}"
        )
    return n


def _parse_count(
    f: _File,
    raw: _RawSource,
    rid: str,
    n: int,
    pknode: Node,
    cnode: Node,
    cpath: str,
    params: dict[str, Parameter],
) -> dict[str, Parameter]:
    """The parameters of player count ``n``: a deal of 52 cards, and stakes that fit the
    ruleset's scoring."""
    ce = f.keys(cnode, cpath, COUNT_PARAMETERS, at=pknode, unknown=_no_such_rule)
    cp = {
        name: _parse_entry(f, raw, rid, name, n, ce[name], f"{cpath}.{name}")
        for name in COUNT_PARAMETERS
    }
    hand, table = cp["hand"].value, cp["table"].value
    if hand * n + table != PACK_SIZE:
        raise f.error(
            ce["table"][0],
            f"{cpath}.table",
            f"{n} players x {hand} cards + {table} on the table = "
            f"{hand * n + table}, not {PACK_SIZE}",
        )
    _check_stakes(
        f,
        ce,
        cpath,
        n,
        {k: cp[k].value for k in _STAKE_PARAMETERS},
        params["scoring"].value,
        params["bonus_to"].value,
    )
    return cp


def _check_stakes(
    f: _File,
    ce: dict[str, tuple[Node, Node]],
    cpath: str,
    n: int,
    stakes: dict[str, int | None],
    scoring: str,
    bonus_to: str | None,
) -> None:
    """Refuse a player count's antes, bonus and breakeven where the scoring has no use for
    them or needs them, and a pot that does not balance (RULES.md 7)."""
    if scoring == "stakes":
        for k in _STAKE_PARAMETERS:
            if stakes[k] is None:
                raise f.error(
                    ce[k][1], f"{cpath}.{k}.value", "must be a whole number under stakes scoring"
                )
        _check_pot(
            f,
            ce["breakeven"][0],
            f"{cpath}.breakeven",
            n,
            **{k: v for k, v in stakes.items() if v is not None},
        )
    elif scoring == "pot":
        for k in ("ante_dealer", "ante_other"):
            if stakes[k] is None:
                raise f.error(
                    ce[k][1],
                    f"{cpath}.{k}.value",
                    "must be a whole number under pot scoring (the antes make the pot)",
                )
        for k in ("last_in_bonus", "breakeven"):
            if stakes[k] is not None:
                raise f.error(
                    ce[k][1],
                    f"{cpath}.{k}.value",
                    f"must be null under pot scoring: the whole pot goes to one "
                    f"winner (pot_to), so there is no {PARAMETERS[k].label}",
                )
    else:
        for k in ("ante_dealer", "ante_other", "breakeven"):
            if stakes[k] is not None:
                raise f.error(
                    ce[k][1],
                    f"{cpath}.{k}.value",
                    "must be null under pairs scoring (there is no pot)",
                )
    bonus = stakes["last_in_bonus"]
    if bonus_to is None and bonus:
        raise f.error(
            ce["last_in_bonus"][1],
            f"{cpath}.last_in_bonus.value",
            f"a bonus of {bonus} needs bonus_to (one of {', '.join(BONUS_TO)})",
        )
    if bonus_to is not None and bonus is None:
        raise f.error(
            ce["last_in_bonus"][1],
            f"{cpath}.last_in_bonus.value",
            f"must be a whole number, as bonus_to is {bonus_to}",
        )


def _no_such_rule(key: Any, valid: Sequence[str]) -> str:
    """The message for an unknown key in a ruleset or player-count mapping."""
    return (
        f"the rules model has no parameter {key!r}; `laugh rules --parameters` lists every "
        f"parameter with its values (valid keys here: {', '.join(valid)})"
    )


def _check_settles(
    f: _File, e: dict[str, tuple[Node, Node]], rpath: str, params: dict[str, Parameter]
) -> None:
    """Refuse combinations of whole-ruleset parameters whose settlement cannot balance
    (RULES.md 3.6, 7), naming the parameters."""
    v = {k: p.value for k, p in params.items()}
    scoring, pays = v["scoring"], v["lie_down_pays"]

    def at(name: str) -> tuple[Node, str]:
        node = e[name][1] if name in e else e["scoring"][1]
        return node, f"{rpath}.{name}"

    if scoring == "stakes" and v["leftovers_to"] == "nobody":
        raise f.error(
            *at("leftovers_to"),
            "scoring: stakes with leftovers_to: nobody cannot "
            "settle: discarded cards leave the won piles, so the pot cannot end at 0 "
            "(give the leftovers to the dealer or the last player in, or score pairs)",
        )
    if scoring == "pot":
        if v["pot_to"] is None:
            raise f.error(
                *at("scoring"),
                "scoring: pot needs pot_to (last_in or most_won): who takes the whole pot",
            )
        if v["bonus_to"] is not None:
            raise f.error(
                *at("bonus_to"),
                "scoring: pot gives the whole pot to one winner, so "
                "bonus_to must be null (there is no bonus)",
            )
    elif v["pot_to"] is not None:
        raise f.error(
            *at("pot_to"), f"pot_to is only for scoring: pot (this ruleset scores {scoring})"
        )
    if pays is not None and pays["to"] == "pot" and scoring in ("stakes", "pairs"):
        why = (
            "its pot could never empty: breakeven settles only the antes"
            if scoring == "stakes"
            else "pairs scoring has no pot"
        )
        raise f.error(
            *at("lie_down_pays"),
            f"lie_down_pays into the pot cannot settle under "
            f"scoring: {scoring} ({why}); pay each player in instead",
        )


def _check_pot(
    f: _File,
    node: Node,
    path: str,
    n: int,
    ante_dealer: int,
    ante_other: int,
    last_in_bonus: int,
    breakeven: int,
) -> None:
    antes = ante_dealer + (n - 1) * ante_other
    left = antes - last_in_bonus
    above = PACK_SIZE - n * breakeven
    if 2 * left != above:
        won = f"{above // 2}" if above % 2 == 0 else f"{above / 2:g}"
        raise f.error(
            node,
            path,
            f"pot balance fails for {n} players: antes {antes} - bonus {last_in_bonus}"
            f" = {left} stakes, but ({PACK_SIZE} - {n}x{breakeven})/2 = {won} stakes"
            " are won above breakeven",
        )


def _parse_entry(
    f: _File,
    raw: _RawSource,
    rid: str,
    name: str,
    players: int | None,
    nodes: tuple[Node, Node],
    path: str,
) -> Parameter:
    """One parameter's entry: ``value``, ``status`` and the ``quotes`` and ``note`` its status
    asks for (RULES.md 5), and any ``source_value``."""
    key, node = nodes
    e = f.keys(node, path, _ENTRY_REQUIRED, _ENTRY_OPTIONAL, at=key)
    value = _parse_value(f, name, e["value"][1], f"{path}.value")
    status = f.scalar(e["status"][1], f"{path}.status")
    if status not in STATUSES:
        raise f.error(
            e["status"][1],
            f"{path}.status",
            f"{_describe(status)} is not one of {', '.join(STATUSES)}",
        )
    quotes = _refs(f, e["quotes"][1], f"{path}.quotes", raw) if "quotes" in e else []
    note = f.string(e["note"][1], f"{path}.note", nullable=True) if "note" in e else None
    if status != "stated" and not note:
        raise f.error(key, f"{path}.note", f"a note is required when the status is {status}")
    if status in ("stated", "read") and not quotes:
        raise f.error(key, f"{path}.quotes", f"a {status} value must cite at least one quotation")
    has_sv = "source_value" in e
    source_value = (
        _parse_value(f, name, e["source_value"][1], f"{path}.source_value") if has_sv else None
    )
    return Parameter(
        ruleset=rid,
        name=name,
        players=players,
        value=value,
        status=status,
        quotes=tuple(_qualify(r, raw.id) for r in quotes),
        note=note,
        source_value=source_value,
        has_source_value=has_sv,
        line=key.start_mark.line + 1,
    )


def _parse_value(f: _File, name: str, node: Node, path: str) -> Any:
    """One parameter value, checked against the parameter table (:mod:`tutor.engine.parameters`)."""
    s = PARAMETERS[name]
    parse = _VALUE_PARSERS.get(s.kind)
    if parse is not None:
        return parse(f, name, s, node, path)
    return f.integer(node, path, nullable=s.nullable, minimum=s.minimum or 0)


def _parse_set(f: _File, name: str, s: ParameterSpec, node: Node, path: str) -> tuple[str, ...]:
    items = []
    for i, inode in enumerate(f.sequence(node, path)):
        v = f.scalar(inode, f"{path}.{i}")
        if v not in s.values:
            raise f.error(
                inode, f"{path}.{i}", f"{_describe(v)} is not one of {', '.join(s.values)}"
            )
        if v in items:
            raise f.error(inode, f"{path}.{i}", f"'{v}' is listed twice")
        items.append(v)
    if name == "captures" and not items:
        raise f.error(node, path, "at least one capture form is needed")
    return tuple(x for x in s.values if x in items)


def _parse_enum(f: _File, name: str, s: ParameterSpec, node: Node, path: str) -> str | None:
    v = f.scalar(node, path)
    if v is None and s.nullable:
        return None
    if v not in s.values:
        choices = ", ".join(s.values) + (", or null" if s.nullable else "")
        raise f.error(node, path, f"{_describe(v)} is not one of {choices}")
    return v


def _parse_bool(f: _File, name: str, s: ParameterSpec, node: Node, path: str) -> bool:
    v = f.scalar(node, path)
    if not isinstance(v, bool):
        raise f.error(node, path, f"expected true or false, got {_describe(v)}")
    return v


def _parse_payment(
    f: _File, name: str, s: ParameterSpec, node: Node, path: str
) -> dict[str, Any] | None:
    if isinstance(node, ScalarNode) and node.tag == _NULL_TAG:
        return None
    e = f.keys(node, path, ("stakes", "to"))
    stakes = f.integer(e["stakes"][1], f"{path}.stakes", minimum=1)
    to = f.scalar(e["to"][1], f"{path}.to")
    if to not in PAY_TO:
        raise f.error(
            e["to"][1], f"{path}.to", f"{_describe(to)} is not one of {', '.join(PAY_TO)}"
        )
    return {"stakes": stakes, "to": to}


def _parse_match(
    f: _File, name: str, s: ParameterSpec, node: Node, path: str
) -> dict[str, int] | None:
    if isinstance(node, ScalarNode) and node.tag == _NULL_TAG:
        return None
    e = f.keys(node, path, ("rounds", "games"), ("practice",))
    value = {
        "rounds": f.integer(e["rounds"][1], f"{path}.rounds", minimum=1),
        "games": f.integer(e["games"][1], f"{path}.games", minimum=1),
        "practice": (f.integer(e["practice"][1], f"{path}.practice") if "practice" in e else 0),
    }
    if value["practice"] >= value["rounds"] * value["games"]:
        raise f.error(
            e["practice"][1],
            f"{path}.practice",
            "a match needs at least one scored game after its practice games",
        )
    return value


#: How each kind of value is read (``int`` and any other kind: a whole number).
_VALUE_PARSERS = {
    "set": _parse_set,
    "enum": _parse_enum,
    "bool": _parse_bool,
    "payment": _parse_payment,
    "match": _parse_match,
}
