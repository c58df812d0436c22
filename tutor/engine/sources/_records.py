"""Records of the game: its name in old books, descriptions of play, and mentions with another
meaning, each with its own citation, a date in any of the forms a historian writes one, an
optional quotation of its own words, and who reports it (``records:`` of a source file, see
``sources/README.md``).

A date is read by :func:`parse_date` into a :class:`RecordDate`: a year (``1522``), a year
about which (``c. 1665``), a range (``1590-1600``), a decade (``1590s``), a century (``18th
century``, ``late 16th century``), a latest year (``by 1784``) or an earliest (``after 2004``),
or none (``null``: undated).  Each is the span of years it may stand for, so records sort by
date (:attr:`RecordDate.key`: ``by 1784`` just before 1784, a century at its middle) and two
records are put in order only where their spans do not meet (:meth:`RecordDate.before`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from yaml.nodes import MappingNode, Node

from tutor.engine.sources._files import _ID_RE, _NULL_TAG, _describe, _File, _RawSource, _Ref

__all__ = ["CIRCA_SPAN", "RECORD_KINDS", "Record", "RecordDate", "parse_date"]

#: The kinds of record, with what each is in a few words.
RECORD_KINDS = {"name": "a record of the name", "play": "a description of play",
                "other": "a mention with another meaning"}
#: The years either side of a year written "c. YEAR" that it may stand for.
CIRCA_SPAN = 10
#: The earliest and latest year a record may be dated (a guard against typing slips).
_FIRST_YEAR, _LAST_YEAR = 1000, 2199

_ORDINAL = re.compile(r"^(?:(early|mid|late)[- ])?(\d{1,2})(st|nd|rd|th)[- ]century$")
_RANGE = re.compile(r"^(\d{4})\s*(?:-|–|—|to)\s*(\d{4})$")
_CIRCA = re.compile(r"^(?:c\.|ca\.|circa|about)\s*(\d{4})$")
_BY = re.compile(r"^(by|before|after)\s+(\d{4})$")
_DECADE = re.compile(r"^(\d{3})0s$")
_YEAR = re.compile(r"^(\d{4})$")
_THIRDS = {"early": (0, 32), "mid": (33, 66), "late": (67, 99)}


@dataclass(frozen=True)
class RecordDate:
    """When a record was made, as written (``text``) and as the span of years it may stand for:
    ``lo`` to ``hi`` inclusive, either open (None) for ``by``/``after`` dates, both None when
    undated.  ``form`` is ``year``, ``circa``, ``range``, ``decade``, ``century``, ``by``,
    ``after`` or ``undated``; ``qualifier`` ``early``/``mid``/``late`` for a part of a century."""

    text: str
    form: str
    lo: int | None
    hi: int | None
    anchor: int | None = None
    qualifier: str | None = None

    @property
    def dated(self) -> bool:
        return self.form != "undated"

    @property
    def key(self) -> tuple[int, float]:
        """Where it sorts: undated last; ``by YEAR`` just before YEAR, ``after YEAR`` just after
        it, a span at its middle."""
        if not self.dated:
            return (1, 0.0)
        if self.form == "by":
            return (0, self.hi - 0.5)
        if self.form == "after":
            return (0, self.lo + 0.5)
        return (0, (self.lo + self.hi) / 2)

    def before(self, other: RecordDate) -> bool:
        """True when this record certainly came before ``other``: its latest year is earlier
        than the other's earliest (spans that meet, and undated records, are never ordered)."""
        return self.hi is not None and other.lo is not None and self.hi < other.lo

    def apart(self, other: RecordDate) -> bool:
        """True when the two are certainly in one order or the other."""
        return self.before(other) or other.before(self)

    def like(self, year: int) -> RecordDate | None:
        """A date in this date's form about ``year`` (a distractor that looks like the answer):
        ``c. 1634`` for a ``c.`` date, the century of ``year`` for a century, a range of the same
        width, ...  None for the forms that a wrong date cannot take (``by``, ``after``,
        undated: "by 1900" would be true of a record made by 1784)."""
        if self.form == "year":
            return parse_date(year)
        if self.form == "circa":
            return parse_date(f"c. {year}")
        if self.form == "decade":
            return parse_date(f"{year // 10 * 10}s")
        if self.form == "century":
            q = f"{self.qualifier} " if self.qualifier else ""
            return parse_date(f"{q}{_ordinal(year // 100 + 1)} century")
        if self.form == "range":
            width = self.hi - self.lo
            lo = year - width // 2
            return parse_date(f"{lo}-{lo + width}")
        return None


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def parse_date(value: Any) -> RecordDate:
    """A record's date from its file: a whole number (a year), a string in one of the forms of
    the module docstring, or None (undated).  Raises ValueError with what is wrong."""
    if value is None:
        return RecordDate("undated", "undated", None, None)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(f"expected a year or a date such as 'c. 1665', 'by 1784', '1590-1600' "
                         f"or '18th century', got {_describe(value)}")
    text = " ".join(str(value).split())
    low = text.lower()
    m = _YEAR.match(low)
    if m:
        y = _year(int(m.group(1)))
        return RecordDate(str(y), "year", y, y, y)
    m = _CIRCA.match(low)
    if m:
        y = _year(int(m.group(1)))
        return RecordDate(f"c. {y}", "circa", y - CIRCA_SPAN, y + CIRCA_SPAN, y)
    m = _BY.match(low)
    if m:
        y = _year(int(m.group(2)))
        if m.group(1) == "after":
            return RecordDate(f"after {y}", "after", y, None, y)
        return RecordDate(f"{m.group(1)} {y}", "by", None, y if m.group(1) == "by" else y - 1, y)
    m = _RANGE.match(low)
    if m:
        lo, hi = _year(int(m.group(1))), _year(int(m.group(2)))
        if hi <= lo:
            raise ValueError(f"the range {text!r} must run from an earlier year to a later one")
        return RecordDate(f"{lo}–{hi}", "range", lo, hi, (lo + hi) // 2)
    m = _DECADE.match(low)
    if m:
        lo = _year(int(m.group(1)) * 10)
        return RecordDate(f"{lo}s", "decade", lo, lo + 9, lo + 5)
    m = _ORDINAL.match(low)
    if m:
        n = int(m.group(2))
        if not 1 <= n <= 22 or _ordinal(n) != f"{n}{m.group(3)}":
            raise ValueError(f"{text!r} is not a century (write it like '18th century')")
        lo, hi = (n - 1) * 100, (n - 1) * 100 + 99
        qualifier = m.group(1)
        if qualifier:
            a, b = _THIRDS[qualifier]
            lo, hi = (n - 1) * 100 + a, (n - 1) * 100 + b
        _year(hi)
        shown = f"{qualifier} {_ordinal(n)} century" if qualifier else f"{_ordinal(n)} century"
        return RecordDate(shown, "century", lo, hi, (lo + hi) // 2, qualifier)
    raise ValueError(f"{text!r} is not a date: write a year (1522), 'c. 1665', 'by 1784', "
                     "'after 1700', '1590-1600', '1590s', '18th century' or 'late 16th "
                     "century', or null for undated")


def _year(y: int) -> int:
    if not _FIRST_YEAR <= y <= _LAST_YEAR:
        raise ValueError(f"{y} is not a year from {_FIRST_YEAR} to {_LAST_YEAR}")
    return y


@dataclass(frozen=True)
class Record:
    """One record of the game (``records:`` of a source file).

    ``kind`` is a key of :data:`RECORD_KINDS`; ``date`` a :class:`RecordDate`; ``author`` (or
    None), ``title`` and ``page`` (or None) its own citation; ``quote`` the qualified reference
    of a quotation of its own words (None: known only from a citation, and never given words);
    ``reported_by`` the id of the source that reports it, or None; ``reporter`` a citation of
    whoever reports it when that is not a loaded source (one line), or None; ``report`` a
    quotation of the reporter's own words about it (None); ``note`` our words; ``source`` the id
    of the file that lists it and ``line`` the line of its entry.
    """

    id: str
    kind: str
    date: RecordDate
    author: str | None
    title: str
    page: str | None = None
    quote: str | None = None
    reported_by: str | None = None
    reporter: str | None = None
    report: str | None = None
    note: str | None = None
    source: str = ""
    line: int = 0

    @property
    def citation_text(self) -> str:
        """``author, title, page`` (the parts it has)."""
        return ", ".join(p for p in (self.author, self.title, self.page) if p)

    @property
    def who(self) -> str:
        """The record's maker in a few words: its author, else its title."""
        return self.author or self.title


_RECORD_REQUIRED = ("id", "kind", "date", "citation")
_RECORD_OPTIONAL = ("quote", "reported_by", "report", "note")
_RECORD_CITATION = (("title",), ("author", "page"))
_REPORTER_CITATION = (("title",), ("author", "page", "date", "published"))


def _parse_records(f: _File, node: Node, raw: _RawSource) -> list[str]:
    """Each entry of ``records`` into ``raw.records``; returns a line ``FILE:LINE: KEY: what is
    wrong`` for each entry that is refused (every entry is checked, so a teacher sees every
    problem at once), the good ones kept."""
    from tutor.engine.errors import DataError
    problems: list[str] = []
    seen: dict[str, int] = {}
    for i, rnode in enumerate(f.sequence(node, "records")):
        try:
            rec = _parse_record(f, rnode, f"records.{i}", raw, seen)
        except DataError as exc:
            problems.append(str(exc))
            continue
        raw.records.append(rec)
    return problems


def _parse_record(f: _File, rnode: Node, rpath: str, raw: _RawSource,
                  seen: dict[str, int]) -> Record:
    e = f.keys(rnode, rpath, _RECORD_REQUIRED, _RECORD_OPTIONAL)
    rid = f.ident(e["id"][1], f"{rpath}.id")
    line = e["id"][1].start_mark.line + 1
    if rid in seen:
        raise f.error(e["id"][1], f"{rpath}.id",
                      f"duplicate record id '{rid}' (first at line {seen[rid]})")
    kind = f.scalar(e["kind"][1], f"{rpath}.kind")
    if kind not in RECORD_KINDS:
        raise f.error(e["kind"][1], f"{rpath}.kind", f"{_describe(kind)} is not one of "
                      + ", ".join(f"{k} ({v})" for k, v in RECORD_KINDS.items()))
    try:
        date = parse_date(f.scalar(e["date"][1], f"{rpath}.date"))
    except ValueError as exc:
        raise f.error(e["date"][1], f"{rpath}.date", str(exc)) from None
    cite = _citation(f, e["citation"], f"{rpath}.citation", _RECORD_CITATION)
    quote = _own_quote(f, e, "quote", rpath, raw)
    report = _own_quote(f, e, "report", rpath, raw)
    reported_by = reporter = None
    if "reported_by" in e:
        knode, vnode = e["reported_by"]
        if vnode.tag == _NULL_TAG:
            pass
        elif isinstance(vnode, MappingNode):
            who = _citation(f, e["reported_by"], f"{rpath}.reported_by", _REPORTER_CITATION)
            parts = [who.get("author"), who["title"], who.get("date"), who.get("published"),
                     who.get("page")]
            reporter = ", ".join(p for p in parts if p)
        else:
            reported_by = f.ident(vnode, f"{rpath}.reported_by")
            raw.record_sources.append((reported_by, vnode.start_mark.line + 1,
                                       f"{rpath}.reported_by"))
    if report and not (reported_by or reporter):
        raise f.error(e["report"][0], f"{rpath}.reported_by",
                      "a report is the words of whoever reports the record: name them "
                      "(reported_by: a source id, or {author: ..., title: ...})")
    note = f.string(e["note"][1], f"{rpath}.note", True) if "note" in e else None
    seen[rid] = line
    return Record(id=rid, kind=kind, date=date, author=cite.get("author"), title=cite["title"],
                  page=cite.get("page"), quote=quote, reported_by=reported_by,
                  reporter=reporter, report=report, note=note, source=raw.id, line=line)


def _citation(f: _File, nodes: tuple[Node, Node], path: str,
              keys: tuple[tuple[str, ...], tuple[str, ...]]) -> dict[str, str | None]:
    e = f.keys(nodes[1], path, keys[0], keys[1], at=nodes[0])
    out: dict[str, str | None] = {"title": f.string(e["title"][1], f"{path}.title")}
    for k in keys[1]:
        if k in e:
            v = f.scalar(e[k][1], f"{path}.{k}")
            if isinstance(v, int) and not isinstance(v, bool):
                v = str(v)            # a page or a date given as a bare number
                out[k] = v
                continue
            out[k] = f.string(e[k][1], f"{path}.{k}", nullable=True)
    return out


def _own_quote(f: _File, e: dict, key: str, rpath: str, raw: _RawSource) -> str | None:
    """The reference at ``key`` (a quotation of this file: a record's words are never another
    file's quotation, so nothing a file adds can change whose words a quotation is), or None."""
    if key not in e or e[key][1].tag == _NULL_TAG:
        return None
    node = e[key][1]
    ref = f.string(node, f"{rpath}.{key}")
    src, _, qid = ref.rpartition(":")
    if src and src != raw.id:
        raise f.error(node, f"{rpath}.{key}", f"'{ref}' is another file's quotation: a "
                      "record's words must be a quotation of its own file (quotations:)")
    if not _ID_RE.match(qid):
        raise f.error(node, f"{rpath}.{key}", f"'{ref}' is not a quotation id")
    raw.refs.append(_Ref(qid, node.start_mark.line + 1, f"{rpath}.{key}"))
    return f"{raw.id}:{qid}"
