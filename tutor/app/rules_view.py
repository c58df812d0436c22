"""The rules' views: the rulesets, each parameter with its status, the sources' words and our notes.

:func:`rules_view` (and :func:`parameters_view`) build what ``laugh rules`` shows, as rich
renderables laid out for a width; :func:`ruleset_json`, :func:`compare_json` and
:func:`parameters_json` the same information for programs.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from rich import box
from rich.console import RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from tutor.engine.errors import UsageError
from tutor.engine.parameters import (
    COUNT_GROUPS,
    COUNT_PARAMETERS,
    PARAMETERS,
    RULESET_PARAMETERS,
    STATUS_MEANINGS,
    count_section,
    value_short,
    value_words,
)
from tutor.engine.rulesets import Ruleset
from tutor.engine.sources import Library, Parameter, display_path
from tutor.puzzles.quoted import quoted_text

#: One-word marks for the statuses in compact views (stated is the unmarked default).
STATUS_MARKS = {"stated": "", "read": "~", "chosen": "*"}
_STATUS_STYLES = {"stated": "green", "read": "yellow", "chosen": "magenta"}
_RANK = {"stated": 0, "read": 1, "chosen": 2}

#: Human labels for parameters (from the parameter table).
LABELS = {name: spec.label for name, spec in PARAMETERS.items()}


def chosen_rulesets(lib: Library, ids: list[str], players: int | None = None) -> list[str]:
    """The ruleset ids to show: ``ids`` as named (each checked for ``players``), or every ruleset
    (for ``players`` players, when given).

    Raises UsageError for an unknown ruleset or player count, or when no ruleset is for
    ``players`` players.
    """
    for rid in ids:
        lib.ruleset(rid, players)
    if ids:
        return ids
    ids = list(lib.rulesets)
    if players is None:
        return ids
    ids = [r for r in ids if players in lib.rulesets[r].counts]
    if not ids:
        counts = sorted({n for rs in lib.rulesets.values() for n in rs.counts})
        raise UsageError(
            f"no ruleset is for {players} players; player counts: " + ", ".join(map(str, counts))
        )
    return ids


def rules_view(
    lib: Library,
    ids: list[str],
    *,
    compare: bool = False,
    named: bool = False,
    players: int | None = None,
    width: int = 80,
) -> list[RenderableType]:
    """What ``laugh rules`` shows for the rulesets ``ids``, as renderables laid out for
    ``width`` columns: side by side with ``compare``, each in full when ``named`` (the rulesets
    were named on the command line), else the list; ``players`` keeps one player count."""
    if compare:
        return compare_view(lib, ids, players, width)
    if not named:
        return list_view(lib, ids, width)
    out: list[RenderableType] = []
    for i, rid in enumerate(ids):
        if i:
            out.append(Rule())
        out += ruleset_view(lib, rid, players, width)
    return out


# --------------------------------------------------------------------------------------------
# Formatting values


def format_value(name: str, value: object) -> str:
    """A parameter value in words: sets comma-separated, booleans yes/no, null as "none"."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if PARAMETERS[name].kind in ("payment", "match"):
        return value_short(name, value)
    if isinstance(value, (tuple, list, frozenset, set)):
        items = [x for x in PARAMETERS[name].values if x in value]
        return ", ".join(items) if items else "none"
    return "none" if value is None else str(value)


def short_value(name: str, value: object) -> str:
    """A parameter value in the compact codes of the comparison table."""
    return value_short(name, value, codes=True)


def gloss(name: str, value: object) -> str | None:
    """A few words on what a named value means (the parameter table's wording), or None."""
    spec = PARAMETERS[name]
    if spec.kind in ("set", "int"):
        return None
    return value_words(name, value)


def _pad(renderable: RenderableType, pad: tuple[int, int, int, int]) -> Padding:
    return Padding(renderable, pad, expand=False)


def _quote_text(lib: Library, ref: str, own_citation: str) -> Text:
    q = lib.quotation(ref)
    t = quoted_text(q.text)  # its markup rendered, as in lessons
    t.append(f"  \u2014 {q.where}", style="dim")
    if q.citation != own_citation:
        t.append(f"; {q.citation}", style="dim")
    if lib.unchecked and ref in lib.unchecked:
        t.append(
            " (not checked: the source file gives no text to check it against)", style="yellow"
        )
    return t


# --------------------------------------------------------------------------------------------
# The list


def list_view(lib: Library, ids: list[str], width: int = 80) -> list[RenderableType]:
    """The rulesets: id, source, player counts and the one-line summary (title)."""
    out: list[RenderableType] = []
    if width >= 64:
        table = Table(box=box.SIMPLE_HEAD, safe_box=True, pad_edge=False, show_edge=False)
        table.add_column("ruleset", no_wrap=True, style="bold")
        table.add_column("source", no_wrap=True)
        table.add_column("players", no_wrap=True)
        table.add_column("summary", ratio=1)
        for rid in ids:
            rs = lib.ruleset(rid)
            table.add_row(rid, rs.source, _counts(rs), rs.title)
        out.append(table)
    else:  # narrow: one ruleset to a paragraph
        for rid in ids:
            rs = lib.ruleset(rid)
            t = Text()
            t.append(rid, style="bold")
            t.append(f"  {_counts(rs)} players, from {rs.source}", style="dim")
            out.append(t)
            out.append(_pad(Text(rs.title), (0, 0, 0, 2)))
    out.append(
        Text(
            "Show one with: laugh rules RULESET;  side by side: laugh rules --compare", style="dim"
        )
    )
    return out


def _counts(rs: Ruleset) -> str:
    c = rs.player_counts
    if len(c) > 2 and list(c) == list(range(c[0], c[-1] + 1)):
        return f"{c[0]}-{c[-1]}"
    return ", ".join(map(str, c))


# --------------------------------------------------------------------------------------------
# One ruleset in full


def ruleset_view(
    lib: Library, rid: str, players: int | None = None, width: int = 80
) -> list[RenderableType]:
    """Ruleset ``rid`` in full: every parameter with value, status, quotations and note."""
    out: list[RenderableType] = []
    rs = lib.ruleset(rid)
    src = lib.source_of(rid)
    own = src.citation_text
    head = Text()
    head.append(rid, style="bold")
    head.append(f": {rs.title}")
    out.append(head)
    out.append(_pad(Text(rs.summary), (0, 0, 0, 2)))
    meta = Text()
    meta.append("Source: ", style="bold")
    meta.append(own)
    meta.append("\nPlayers: ", style="bold")
    meta.append(_counts(rs))
    meta.append("\nDefined in: ", style="bold")
    meta.append(display_path(rs.origin))
    out.append(_pad(meta, (0, 0, 0, 2)))
    out.append(
        _pad(
            Text(
                "Quotations are from the source above unless another is named. "
                + "; ".join(f"{s}: {m}" for s, m in STATUS_MEANINGS.items())
                + ".",
                style="dim",
            ),
            (0, 0, 0, 2),
        )
    )

    out.append(Text(""))
    out.append(Text("The game", style="bold underline"))
    defaults = []
    for name in RULESET_PARAMETERS:
        p = lib.parameter(rid, name)
        if p.implicit:
            defaults.append(p)
            continue
        out += _entries(lib, [p], own)
    if defaults:
        t = Text("Not named in the source file, so the rules model's default: ", style="dim")
        t.append(
            "; ".join(f"{p.name}: {format_value(p.name, p.value)}" for p in defaults), style="dim"
        )
        out.append(_pad(t, (0, 0, 0, 2)))

    counts = [players] if players is not None else list(rs.player_counts)
    out.append(Text(""))
    out.append(Text("By number of players", style="bold underline"))
    out += _count_table(lib, rs, counts, width)
    shown_notes: set[str] = set()
    for n in counts:
        out.append(Text(f"{n} players", style="bold"))
        groups: list[list[Parameter]] = []
        for name in COUNT_PARAMETERS:
            p = lib.parameter(rid, name, n)
            for g in groups:
                if (g[0].status, g[0].quotes, g[0].note) == (p.status, p.quotes, p.note):
                    g.append(p)
                    break
            else:
                groups.append([p])
        for g in groups:
            out += _entries(lib, g, own, shown_notes)

    if rs.problems:
        out.append(Text(""))
        out.append(Text("Problems in the sources", style="bold underline"))
        for prob in rs.problems:
            t = Text()
            t.append(prob["id"], style="bold")
            if prob["source"] != rs.source:
                t.append(f" ({prob['source']})", style="dim")
            t.append(": " + prob["summary"])
            out.append(_pad(t, (0, 0, 0, 2)))
            for ref in prob["quotes"]:
                out.append(_pad(_quote_text(lib, ref, own), (0, 0, 0, 6)))
    return out


def _entries(
    lib: Library, group: list[Parameter], own: str, shown_notes: set[str] | None = None
) -> list[RenderableType]:
    out: list[RenderableType] = []
    p0 = group[0]
    line = Text()
    for i, p in enumerate(group):
        if i:
            line.append(", ")
        line.append(
            LABELS.get(p.name, p.name) if p.players is not None else p.name,
            style="bold" if p.players is None else "",
        )
        line.append(" " if p.players is not None else ": ")
        line.append(format_value(p.name, p.value), style="bold cyan")
        if p.has_source_value:
            line.append(f" (the text gives {format_value(p.name, p.source_value)})")
        said = gloss(p.name, p.value) if p.players is None else None
        if said:
            line.append(f" ({said})", style="dim")
    line.append("  ")
    line.append(f"[{p0.status}]", style=_STATUS_STYLES[p0.status])
    out.append(_pad(line, (0, 0, 0, 2)))
    for ref in p0.quotes:
        out.append(_pad(_quote_text(lib, ref, own), (0, 0, 0, 6)))
    if p0.note:
        if shown_notes is not None and p0.note in shown_notes:
            out.append(_pad(Text("Note: as above.", style="dim"), (0, 0, 0, 6)))
        else:
            if shown_notes is not None:
                shown_notes.add(p0.note)
            t = Text()
            t.append("Note: ", style="bold")
            t.append(p0.note)
            out.append(_pad(t, (0, 0, 0, 6)))
    return out


def _count_cell(lib: Library, rid: str, names: tuple[str, ...], n: int) -> str:
    ps = [lib.parameter(rid, name, n) for name in names]
    if all(p.value is None for p in ps):
        return "–"
    status = max((p.status for p in ps), key=_RANK.__getitem__)
    return "/".join(str(p.value) for p in ps) + STATUS_MARKS[status]


#: The per-player-count figures as columns: the parameter table's grouping.
_COUNT_COLUMNS = tuple((g.label, g.parameters) for g in COUNT_GROUPS)


def _count_table(lib: Library, rs: Ruleset, counts: list[int], width: int) -> list[RenderableType]:
    out: list[RenderableType] = []
    legend = Text(
        "ante is dealer/others; ~ read, * chosen, unmarked stated; – no stakes", style="dim"
    )
    if width >= 50:
        table = Table(box=box.SIMPLE_HEAD, safe_box=True, pad_edge=False, show_edge=False)
        table.add_column("players", justify="right")
        for label, _ in _COUNT_COLUMNS:
            table.add_column(label, justify="right")
        for n in counts:
            table.add_row(
                str(n), *(_count_cell(lib, rs.id, names, n) for _, names in _COUNT_COLUMNS)
            )
        out.append(_pad(table, (0, 0, 0, 2)))
    else:  # narrow: one line a player count
        for n in counts:
            t = Text(f"{n} players: ", style="bold")
            t.append(
                ", ".join(
                    f"{label} {_count_cell(lib, rs.id, names, n)}"
                    for label, names in _COUNT_COLUMNS
                )
            )
            out.append(_pad(t, (0, 0, 0, 2)))
    out.append(_pad(legend, (0, 0, 0, 2)))
    return out


# --------------------------------------------------------------------------------------------
# Side by side


def compare_rows(
    lib: Library, ids: list[str], players: int | None = None
) -> list[tuple[str, tuple[str, ...], int | None]]:
    """The rows of the comparison table: ``(label, parameter names, player count or None)``.

    Whole-game parameters first, then for each player count any of ``ids`` covers (or just
    ``players``): the deal (hand/table), the antes (dealer/others), the bonus and the breakeven.
    """
    rows: list[tuple[str, tuple[str, ...], int | None]] = [
        (LABELS[name], (name,), None)
        for name in RULESET_PARAMETERS
        if not all(lib.parameter(r, name).implicit for r in ids)
    ]
    counts = sorted({n for r in ids for n in lib.ruleset(r).counts})
    if players is not None:
        counts = [players]
    for n in counts:
        rows.append((f"{n}p deal", count_section("deal"), n))
        rows += [
            (f"{n}p {g.label}", g.parameters, n) for g in COUNT_GROUPS if g.section == "stakes"
        ]
    return rows


def _cell(lib: Library, rid: str, names: tuple[str, ...], n: int | None) -> tuple[str, str] | None:
    """(short value, weakest status) of a row for one ruleset, or None if it lacks the count."""
    if n is not None and n not in lib.rulesets[rid].counts:
        return None
    ps = [lib.parameter(rid, name, n) for name in names]
    if n is not None and all(p.value is None for p in ps):
        value = "–"
    else:
        value = "/".join(short_value(p.name, p.value) for p in ps)
    status = max((p.status for p in ps), key=_RANK.__getitem__)
    return value, status


def _majority(values: list[str]) -> str:
    counts = Counter(values)
    best = max(counts.values())
    return next(v for v in values if counts[v] == best)


def compare_view(
    lib: Library, ids: list[str], players: int | None = None, width: int = 80
) -> list[RenderableType]:
    """The rulesets ``ids`` side by side, as many per table as ``width`` columns allow.

    Rows where the rulesets differ are marked ``≠`` and the cells that differ from the most
    common value are highlighted; each value carries its status mark; a legend follows.
    """
    rows = compare_rows(lib, ids, players)
    cells = {rid: [_cell(lib, rid, names, n) for _, names, n in rows] for rid in ids}
    differs: list[bool] = []
    majority: list[str | None] = []
    for i in range(len(rows)):
        vals = [c[0] for c in (cells[rid][i] for rid in ids) if c is not None]
        differs.append(len(set(vals)) > 1)
        majority.append(_majority(vals) if vals else None)

    # Columns: a 1-character difference mark, the parameter label, then the rulesets, as many
    # to a table as the width allows (at least two, so that even 40 columns compare something).
    out: list[RenderableType] = []
    col_w, gap = 10, 3
    label_w = 16
    per_table = max(1, (width - 1 - gap - label_w) // (col_w + gap))
    if per_table < 2 and len(ids) > 1:
        label_w = max(8, width - 1 - gap - 2 * (col_w + gap))
        per_table = 2 if width - 1 - gap - label_w >= 2 * (col_w + gap) else 1
    per_table = min(per_table, len(ids))
    n_tables = -(-len(ids) // per_table)
    per_table = -(-len(ids) // n_tables)  # spread evenly: 4 + 3 rather than 5 + 2
    for start in range(0, len(ids), per_table):
        chunk = ids[start : start + per_table]
        table = Table(
            box=box.SIMPLE_HEAD,
            safe_box=True,
            pad_edge=False,
            show_edge=False,
            collapse_padding=True,
        )
        table.add_column("", width=1, no_wrap=True)
        table.add_column("", max_width=label_w, overflow="fold")
        for rid in chunk:
            table.add_column(
                _wrap_id(rid, col_w), max_width=col_w, overflow="fold", header_style="bold"
            )
        prev_n: int | None = None
        for i, (label, _, n) in enumerate(rows):
            if all(cells[rid][i] is None for rid in chunk):
                continue  # no ruleset of this table is for that many players
            if n != prev_n:
                table.add_section()
                prev_n = n
            row = [
                Text("≠" if differs[i] else "", style="bold"),
                Text(label, style="bold" if differs[i] else ""),
            ]
            for rid in chunk:
                c = cells[rid][i]
                if c is None:
                    row.append(Text("·", style="dim"))
                    continue
                value, status = c
                t = Text(value, style="bold yellow" if differs[i] and value != majority[i] else "")
                mark = STATUS_MARKS[status]
                if mark:
                    t.append(mark, style=_STATUS_STYLES[status])
                row.append(t)
            table.add_row(*row)
        out.append(table)
    legend = Text()
    legend.append("Status: ", style="bold")
    legend.append(
        "unmarked stated (the source says it); ~ read (a close reading of its words); "
        "* chosen (the source is silent or contradicts itself: the tutor's choice).\n"
    )
    legend.append("≠ ", style="bold")
    legend.append(
        "the rulesets differ on this row; values unlike the most common one are "
        "highlighted. · the ruleset is not for that many players; – no stakes.\n"
    )
    legend.append("Captures: ", style="bold")
    legend.append("1:1 one for one, 1:3 one for three, 2:2 pair for pair, 3:1 prial for one.\n")
    legend.append("Oversights: ", style="bold")
    legend.append(
        "TM overlooked table mournival, SP split prial, DP laid-down dead pair, "
        "LP laid-down prial, LM laid-down mournival.\n"
    )
    legend.append(
        "Deal is hand/table cards; ante is dealer/others; bonus and breakeven as in "
        "the sources (breakeven in cards). Details: laugh rules RULESET.",
        style="dim",
    )
    out.append(legend)
    return out


def _wrap_id(rid: str, width: int) -> str:
    """Break a ruleset id after dashes so that each header line fits ``width``."""
    lines: list[str] = []
    cur = ""
    for part in rid.split("-"):
        piece = part if not cur else "-" + part
        if cur and len(cur) + len(piece) + 1 > width:
            lines.append(cur + "-")
            cur = part
        else:
            cur += piece
    lines.append(cur)
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# JSON


def _param_json(lib: Library, p: Parameter) -> dict[str, object]:
    value = list(p.value) if isinstance(p.value, tuple) else p.value
    out: dict[str, Any] = {
        "value": value,
        "status": p.status,
        "note": p.note,
        "quotes": [
            {"ref": q.ref, "text": q.text, "where": q.where, "citation": q.citation}
            for q in lib.quotations_of(p.quotes)
        ],
    }
    if p.has_source_value:
        sv = p.source_value
        out["source_value"] = list(sv) if isinstance(sv, tuple) else sv
    return out


def ruleset_json(lib: Library, rid: str, players: int | None = None) -> dict[str, object]:
    """Ruleset ``rid`` as a JSON-ready dict: id, source, citation, title, summary, origin,
    player_counts, parameters (name → {value, status, note, quotes, [source_value]}), counts
    (player count as a string → the same per parameter) and problems."""
    rs = lib.ruleset(rid)
    counts = [players] if players is not None else list(rs.player_counts)
    return {
        "id": rid,
        "source": rs.source,
        "citation": lib.source_of(rid).citation_text,
        "title": rs.title,
        "summary": rs.summary,
        "origin": rs.origin,
        "player_counts": list(rs.player_counts),
        "parameters": {
            name: _param_json(lib, lib.parameter(rid, name)) for name in RULESET_PARAMETERS
        },
        "counts": {
            str(n): {
                name: _param_json(lib, lib.parameter(rid, name, n)) for name in COUNT_PARAMETERS
            }
            for n in counts
        },
        "problems": [
            {
                "id": p["id"],
                "source": p["source"],
                "summary": p["summary"],
                "quotes": list(p["quotes"]),
            }
            for p in rs.problems
        ],
    }


def compare_json(lib: Library, ids: list[str], players: int | None = None) -> dict[str, object]:
    """The comparison as a JSON-ready dict: ``{"rulesets": [...], "rows": [{"parameter",
    "players", "differs", "values": {ruleset: value or null}, "statuses": {...}}]}``; a
    ruleset without that player count is left out of a row's values."""
    rows = []
    for name in RULESET_PARAMETERS:
        ps = {rid: lib.parameter(rid, name) for rid in ids}
        if all(p.implicit for p in ps.values()):
            continue
        rows.append(_json_row(name, None, ps))
    counts = (
        [players]
        if players is not None
        else sorted({n for r in ids for n in lib.rulesets[r].counts})
    )
    for n in counts:
        for name in COUNT_PARAMETERS:
            ps = {rid: lib.parameter(rid, name, n) for rid in ids if n in lib.rulesets[rid].counts}
            rows.append(_json_row(name, n, ps))
    return {"rulesets": ids, "rows": rows}


def parameters_json() -> dict[str, object]:
    """Every ruleset parameter of the parameter table as a JSON-ready dict."""
    out = []
    for name, spec in PARAMETERS.items():
        out.append(
            {
                "name": name,
                "scope": spec.scope,
                "kind": spec.kind,
                "label": spec.label,
                "meaning": spec.meaning,
                "values": list(spec.values),
                "nullable": spec.nullable,
                "required": spec.required,
                "default": list(spec.default) if isinstance(spec.default, tuple) else spec.default,
                "value_words": {str(k): v for k, v in spec.words.items()},
            }
        )
    return {"parameters": out}


def parameters_view() -> list[RenderableType]:
    """Every ruleset parameter: its values and what it means (the parameter table)."""
    out: list[RenderableType] = []
    out.append(
        Text(
            "The ruleset parameters (RULES.md 3): each has a value, a status "
            "(stated, read or chosen), quotations and a note in a source file.",
            style="dim",
        )
    )
    for scope, title in (("ruleset", "The game"), ("count", "Per number of players")):
        out.append(Text(""))
        out.append(Text(title, style="bold underline"))
        for name, spec in PARAMETERS.items():
            if spec.scope != scope:
                continue
            head = Text()
            head.append(name, style="bold")
            head.append(f" ({spec.label})" if spec.label != name else "")
            head.append(": " + spec.meaning)
            out.append(_pad(head, (0, 0, 0, 2)))
            if spec.kind in ("enum", "set"):
                kind = "one of" if spec.kind == "enum" else "a list of any of"
                vals = Text(f"{kind}: ", style="dim")
                for i, v in enumerate(spec.values):
                    if i:
                        vals.append("; ")
                    vals.append(v, style="cyan")
                    vals.append(f" ({spec.words.get(v, '')})" if spec.words.get(v) else "")
                if spec.nullable:
                    vals.append("; or null")
                out.append(_pad(vals, (0, 0, 0, 6)))
            elif spec.kind == "bool":
                out.append(_pad(Text("true or false", style="dim"), (0, 0, 0, 6)))
            elif spec.kind == "payment":
                out.append(
                    _pad(
                        Text(
                            "null, or {stakes: N, to: each_in_play} or {stakes: N, to: pot}",
                            style="dim",
                        ),
                        (0, 0, 0, 6),
                    )
                )
            elif spec.kind == "match":
                out.append(
                    _pad(
                        Text("null, or {rounds: R, games: G, practice: P}", style="dim"),
                        (0, 0, 0, 6),
                    )
                )
            else:
                out.append(
                    _pad(
                        Text("a whole number" + (" or null" if spec.nullable else ""), style="dim"),
                        (0, 0, 0, 6),
                    )
                )
            if not spec.required:
                out.append(
                    _pad(
                        Text(f"optional; default {format_value(name, spec.default)}", style="dim"),
                        (0, 0, 0, 6),
                    )
                )
    return out


def _json_row(name: str, n: int | None, ps: dict[str, Parameter]) -> dict[str, object]:
    values = {
        rid: (list(p.value) if isinstance(p.value, tuple) else p.value) for rid, p in ps.items()
    }
    distinct = {json.dumps(v) for v in values.values()}
    return {
        "parameter": name,
        "players": n,
        "differs": len(distinct) > 1,
        "values": values,
        "statuses": {rid: p.status for rid, p in ps.items()},
    }
