"""The class pack's parts worked out from the sources (see :mod:`tutor.teaching.classpack`,
which prints them): the comparison table, the contested rules in the sources' own words, the
word-by-word comparison of two transcriptions, the family tree and the timeline of the texts."""

from __future__ import annotations

import difflib
import re
from typing import Literal, NotRequired, TypedDict

from tutor.engine.parameters import COUNT_PARAMETERS, PARAMETERS, value_short, value_words
from tutor.engine.sources import normalise, source_text
from tutor.teaching.blockdata import RecordView

__all__ = [
    "QUOTES_PER_READING",
    "STATUS_MARKS",
    "comparison",
    "contested",
    "family_tree",
    "timeline",
    "transcriptions",
    "word_diff",
]

#: The most quotations a source's reading of a contested rule shows (its provenance's first):
#: one where the source states the rule, two where we read it.
QUOTES_PER_READING = {"stated": 1, "read": 2, "chosen": 2}
#: The status marks of the comparison table (stated is unmarked).
STATUS_MARKS = {"stated": "", "read": "~", "chosen": "*"}


def _plain_words(text: str) -> str:
    """Text as words to compare: markup removed, quotation marks dropped, lower case."""
    from tutor.puzzles.quoted import quote_plain

    text = quote_plain(text)
    text = re.sub(r"[\"“”‘’']", "", text)
    return " ".join(text.lower().split())


# --------------------------------------------------------------------------------------------
# Worked out from the sources


def _short(library, q) -> str:
    """A quotation's citation in short, for a pack whose family tree gives every text in full:
    who wrote the text it stands in (quoting whom), and where in it."""
    owners = {s.text: s for s in library.sources.values() if s.text}
    owner = owners.get(q.in_) if q.in_ else None
    owner = owner or library.sources[q.source]
    who = _who(owner) + (f", quoting {q.quoting}" if q.quoting else "")
    return f"{who} ({q.where})"


#: A cell of the comparison: (value as text, status), None where a ruleset lacks the count.
Cell = tuple[str, str] | None
#: A quotation as shown: (stored text, short citation).
Shown = tuple[str, str]


class ComparisonRow(TypedDict):
    label: str
    cells: list[Cell]
    differs: bool


class Comparison(TypedDict):
    """Every parameter of some rulesets side by side (:func:`comparison`)."""

    columns: list[str]
    rows: list[ComparisonRow]


class Reading(TypedDict):
    """One source's reading of a contested parameter (:func:`contested`)."""

    source: str
    who: str
    rulesets: list[str]
    value: str
    status: str
    note: str | None
    quotes: list[Shown]


class Contested(TypedDict):
    """A whole-game parameter the rulesets differ on, with every reading (:func:`contested`)."""

    name: str
    label: str
    meaning: str
    readings: list[Reading]


class WordDiff(TypedDict):
    """Two quotations compared word by word (:func:`word_diff`)."""

    same: float
    differences: list[tuple[str, str, str]]


class Transcription(WordDiff):
    """One sentence in two transcriptions (:func:`transcriptions`)."""

    a: Shown
    b: Shown


class TreeNode(TypedDict):
    """A text in the family tree (:func:`family_tree`); a child also has the ``status``,
    ``note`` and ``quotes`` of its relation to its parent."""

    id: str
    who: str
    title: str
    citation: str
    date: str
    dated_status: str | None
    children: list[TreeNode]
    status: NotRequired[str]
    note: NotRequired[str | None]
    quotes: NotRequired[list[Shown]]


class EvidencePair(TypedDict):
    a: Shown
    b: Shown | None
    same: float
    verbatim: bool


class Evidence(TypedDict):
    child: str
    parent: str
    pairs: list[EvidencePair]
    note: str | None


class FamilyTree(TypedDict):
    """The texts and who drew on whom (:func:`family_tree`)."""

    roots: list[TreeNode]
    evidence: list[Evidence]


class TimelineRecord(RecordView):
    """A record of the game on the timeline (:func:`timeline`)."""

    entry: Literal["record"]
    key: tuple
    tag: str


class TimelineText(TypedDict):
    """A dated text of the rules on the timeline (:func:`timeline`)."""

    entry: Literal["text"]
    key: tuple
    date: str
    tag: str
    citation: str
    note: str | None


TimelineEntry = TimelineRecord | TimelineText


def _who(source) -> str:
    """A source named in a few words: its author, else the larger work or the place it
    appeared in, else its title."""
    return source.author or source.in_ or source.published or source.title


def comparison(library, rulesets: list[str]) -> Comparison:
    """Every parameter of ``rulesets`` side by side: ``columns`` (ruleset ids), ``rows`` of
    ``{label, cells: [(value, status) or None], differs}``: the whole-game parameters any of
    them sets, then a row for each player count any of them covers: its deal (hand/table),
    antes (dealer/others), bonus and breakeven in cards, marked with the weakest status of the
    four (None where a ruleset is not for that count)."""
    rows: list[tuple[str, list[Cell]]] = []
    from tutor.engine.parameters import RULESET_PARAMETERS

    for name in RULESET_PARAMETERS:
        ps = [library.parameter(r, name) for r in rulesets]
        if all(p.implicit for p in ps):
            continue
        rows.append((PARAMETERS[name].label, [(value_short(name, p.value), p.status) for p in ps]))
    counts = sorted({n for r in rulesets for n in library.ruleset(r).counts})
    groups = (("hand", "table"), ("ante_dealer", "ante_other"), ("last_in_bonus",), ("breakeven",))
    for n in counts:
        cells: list[Cell] = []  # None: the ruleset lacks the count
        for r in rulesets:
            if n not in library.ruleset(r).counts:
                cells.append(None)
                continue
            parts, statuses = [], []
            for names in groups:
                ps = [library.parameter(r, x, n) for x in names]
                statuses += [p.status for p in ps]
                parts.append(
                    "–"
                    if all(p.value is None for p in ps)
                    else "/".join("–" if p.value is None else str(p.value) for p in ps)
                )
            cells.append(("; ".join(parts), max(statuses, key=list(STATUS_MARKS).index)))
        rows.append((f"{n} players: hand/table; antes dealer/others; bonus; breakeven", cells))
    out: list[ComparisonRow] = []
    for label, cells in rows:
        values = {c[0] for c in cells if c is not None}
        out.append({"label": label, "cells": cells, "differs": len(values) > 1})
    return {"columns": list(rulesets), "rows": out}


def contested(library, rulesets: list[str]) -> list[Contested]:
    """Each whole-game parameter on which ``rulesets`` differ (the per-player-count numbers
    and the match format aside: the comparison table has them), with every reading of it:
    ``{name, label, meaning, readings}``, each reading ``{source, who, rulesets, value, status,
    quotes: [(text, short citation)], note}``: one a source, value and status (its rulesets
    that read it alike together), with the first
    :data:`QUOTES_PER_READING` of the source's own quotations their provenance cites and our
    note where it is read or chosen."""
    from tutor.engine.parameters import RULESET_PARAMETERS

    out: list[Contested] = []
    for name in RULESET_PARAMETERS:
        if name in COUNT_PARAMETERS or name == "match_format":
            continue
        ps = {r: library.parameter(r, name) for r in rulesets}
        if all(p.implicit for p in ps.values()):
            continue
        if len({repr(p.value) for p in ps.values()}) < 2:
            continue
        readings: dict[tuple, Reading] = {}
        refs_of: dict[tuple, list[str]] = {}  # a reading's quotations, its source's own
        for r, p in ps.items():
            src = library.source_of(r)
            key = (src.id, repr(p.value), p.status)
            got = readings.setdefault(
                key,
                {
                    "source": src.id,
                    "who": _who(src),
                    "rulesets": [],
                    "value": value_words(name, p.value),
                    "status": p.status,
                    "note": None,
                    "quotes": [],
                },
            )
            refs = refs_of.setdefault(key, [])
            got["rulesets"].append(r)
            for ref in p.quotes:
                if ref not in refs and ref.split(":")[0] == src.id:
                    refs.append(ref)
            if p.status != "stated" and got["note"] is None:
                got["note"] = p.note
        for key, got in readings.items():
            refs = refs_of[key][: QUOTES_PER_READING[got["status"]]]
            got["quotes"] = [(q.text, _short(library, q)) for q in library.quotations_of(refs)]
        spec = PARAMETERS[name]
        out.append(
            {
                "name": name,
                "label": spec.label,
                "meaning": spec.meaning,
                "readings": list(readings.values()),
            }
        )
    return out


def _tokens(text: str) -> list[str]:
    from tutor.puzzles.quoted import quote_plain

    return re.findall(r"\w+(?:['’]\w+)*|[^\w\s]", quote_plain(text))


def word_diff(a: str, b: str) -> WordDiff:
    """Two quotations compared word by word (markup as the page shows it): ``same``, the share
    of their words in common (0..1), and ``differences``, each ``(kind, words in a, words in
    b)`` with kind ``capital`` (only the case differs), ``punctuation``, ``missing`` (only in
    a), ``added`` (only in b) or ``words``."""
    ta, tb = _tokens(a), _tokens(b)
    sm = difflib.SequenceMatcher(
        a=[t.lower() for t in ta], b=[t.lower() for t in tb], autojunk=False
    )
    diffs: list[tuple[str, str, str]] = []
    same = 0
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        wa, wb = " ".join(ta[i1:i2]), " ".join(tb[j1:j2])
        if op == "equal":
            same += i2 - i1
            for x, y in zip(ta[i1:i2], tb[j1:j2]):
                if x != y:
                    diffs.append(("capital", x, y))
            continue
        letters = re.compile(r"\w")
        if not letters.search(wa + wb):
            kind = "punctuation"
        elif op == "delete":
            kind = "missing"
        elif op == "insert":
            kind = "added"
        else:
            kind = "words"
        diffs.append((kind, wa, wb))
    words = max(len(ta), len(tb)) or 1
    return {"same": same / words, "differences": diffs}


def transcriptions(library) -> list[Transcription]:
    """Every sentence of Willughby's that two texts quote: the quotations whose ``speaker`` is
    Willughby, from different texts, alike in most of their words (three in four), each pair
    ``{a, b: (text, citation), same, differences}`` (:func:`word_diff`)."""
    quotes = [
        q
        for s in library.sources.values()
        for q in s.quotations.values()
        if q.speaker == "willughby"
    ]
    out = []
    for i, qa in enumerate(quotes):
        for qb in quotes[i + 1 :]:
            if (qa.in_ or qa.source) == (qb.in_ or qb.source):
                continue
            d = word_diff(qa.text, qb.text)
            if d["same"] >= 0.75:
                out.append(
                    Transcription(
                        a=(qa.text, _short(library, qa)), b=(qb.text, _short(library, qb)), **d
                    )
                )
    return out


def family_tree(library) -> FamilyTree:
    """The texts and who drew on whom: ``roots`` (sources based on none, each
    ``{id, who, title, date, children: [...]}``, a child with the ``status``, ``note`` and
    ``quotes`` of its relation), and ``evidence``: for each relation read from copied words,
    its sentences side by side (``{child, parent, pairs: [{a, b, same}]}``: each quotation of
    the child beside the parent's most alike, or the note that it stands word for word in the
    parent's text)."""
    sources = library.sources
    children: dict[str, list] = {}
    for s in sources.values():
        for b in s.based_on:
            if s.kind != "records":
                children.setdefault(b["source"], []).append((s, b))

    def node(s, relation=None, seen=()) -> TreeNode:
        n: TreeNode = {
            "id": s.id,
            "who": _who(s),
            "title": s.title,
            "citation": s.citation_text,
            "date": s.dated["date"] if s.dated else "undated",
            "dated_status": s.dated["status"] if s.dated else None,
            "children": [],
        }
        if relation is not None:
            shown = [] if relation["status"] == "read" else relation["quotes"]
            n["status"] = relation["status"]
            n["note"] = relation["note"]
            n["quotes"] = [(q.text, _short(library, q)) for q in library.quotations_of(shown)]
        for child, rel in sorted(
            children.get(s.id, []), key=lambda x: (x[0].dated or {}).get("year") or 9999
        ):
            if child.id not in seen:
                n["children"].append(node(child, rel, seen + (s.id,)))
        return n

    roots = [node(s) for s in sources.values() if not s.based_on and s.kind != "records"]
    evidence: list[Evidence] = []
    for s in sources.values():
        for b in s.based_on:
            if b["status"] != "read":
                continue
            parent = sources[b["source"]]
            qs = library.quotations_of(b["quotes"])
            mine = [q for q in qs if q.source == s.id]
            theirs = [q for q in qs if q.source == parent.id]
            text = source_text(parent)
            text = normalise(text) if text is not None else None
            pairs: list[EvidencePair] = []
            for q in mine:
                best = max(theirs, key=lambda t: word_diff(q.text, t.text)["same"], default=None)
                d = word_diff(q.text, best.text) if best is not None else {"same": 0}
                if best is not None and d["same"] >= 0.5:
                    pairs.append(
                        {
                            "a": (q.text, _short(library, q)),
                            "b": (best.text, _short(library, best)),
                            "same": d["same"],
                            "verbatim": False,
                        }
                    )
                elif text is not None and _plain_words(q.text) in _plain_words(text):
                    pairs.append(
                        {
                            "a": (q.text, _short(library, q)),
                            "b": None,
                            "same": 1.0,
                            "verbatim": True,
                        }
                    )
            evidence.append(
                {"child": _who(s), "parent": _who(parent), "pairs": pairs, "note": b["note"]}
            )
    return {"roots": roots, "evidence": evidence}


def timeline(library) -> list[TimelineEntry]:
    """The records of the game and the dated texts of its rules, oldest first (undated ones
    last): each record a :func:`tutor.teaching.blockdata.record_view` with ``entry: "record"``
    and ``tag`` (what kind of record it is: only a record of the name is tagged so), each text
    ``{entry: "text", date, tag, citation, note}`` (our note where its date is our reading).  A
    file of records is no text of the rules, and is not listed as one."""
    from tutor.teaching.blockdata import record_view

    out: list[TimelineEntry] = []
    for r in library.timeline():
        out.append(
            TimelineRecord(
                **record_view(library, r), entry="record", key=r.date.key, tag=_RECORD_TAGS[r.kind]
            )
        )
    for s in library.sources.values():
        if not s.is_text_of_rules:
            continue
        d = s.dated
        key = _text_key(d)
        out.append(
            {
                "entry": "text",
                "key": key,
                "date": d["date"] if d else "undated",
                "tag": "a text of the rules",
                "citation": f"{_who(s)}, {s.title}",
                "note": d["note"] if d and d["status"] == "read" else None,
            }
        )
    return sorted(out, key=lambda e: (e["key"], e["entry"] != "text"))


def _text_key(dated) -> tuple:
    """Where a text's date sorts: as written where that is a date ("after 2004"), else its
    year."""
    from tutor.engine.sources import parse_date

    if not dated:
        return (1, 0.0)
    try:
        return parse_date(dated["date"]).key
    except ValueError:
        return parse_date(dated["year"]).key


#: How the timeline tags each kind of record.
_RECORD_TAGS = {
    "name": "the name",
    "play": "a description of play",
    "other": "another meaning: not a record of this game",
}
