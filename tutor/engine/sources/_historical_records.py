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

__all__ = ["CIRCA_SPAN", "RECORD_KINDS", "Record", "RecordDate", "parse_date"]

#: The kinds of record, with what each is in a few words.
RECORD_KINDS = {
    "name": "a record of the name",
    "play": "a description of play",
    "other": "a mention with another meaning",
}
#: The years either side of a year written "c. YEAR" that it may stand for.
CIRCA_SPAN = 10
#: The earliest and latest year a record may be dated (a guard against typing slips).
_FIRST_YEAR, _LAST_YEAR = 1000, 2199

_ORDINAL = re.compile(r"^(?:(early|mid|late)[- ])?(\d{1,2})(st|nd|rd|th)[- ]century$")
_RANGE = re.compile(r"^(?:(c\.|ca\.|circa|about)\s*)?(\d{4})\s*(?:-|–|—|to)\s*(\d{4}|\d{2})$")
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
        lo, hi = self.lo, self.hi
        if not self.dated:
            return (1, 0.0)
        if self.form == "by" and hi is not None:
            return (0, hi - 0.5)
        if self.form == "after" and lo is not None:
            return (0, lo + 0.5)
        assert lo is not None and hi is not None  # a dated span has both ends
        return (0, (lo + hi) / 2)

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
        if self.form == "range" and self.hi is not None and self.lo is not None:
            width = self.hi - self.lo
            lo = year - width // 2
            return parse_date(f"{lo}-{lo + width}")
        return None


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def parse_date(value: object) -> RecordDate:
    """A record's date from its file: a whole number (a year), a string in one of the forms of
    the module docstring, or None (undated).  Raises ValueError with what is wrong."""
    if value is None:
        return RecordDate("undated", "undated", None, None)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(
            f"expected a year or a date such as 'c. 1665', 'by 1784', '1590-1600' "
            f"or '18th century', got {_describe(value)}"
        )
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
        lo = _year(int(m.group(2)))
        end = m.group(3)  # "1665-70", as historians write it: the same century
        hi = _year(lo // 100 * 100 + int(end) if len(end) == 2 else int(end))
        if hi <= lo:
            raise ValueError(f"the range {text!r} must run from an earlier year to a later one")
        if m.group(1):  # "c. 1665-70": about those years
            return RecordDate(
                f"c. {lo}–{hi}", "range", lo - CIRCA_SPAN, hi + CIRCA_SPAN, (lo + hi) // 2
            )
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
    raise ValueError(
        f"{text!r} is not a date: write a year (1522), 'c. 1665', 'by 1784', "
        "'before 1600', 'after 1700', '1590-1600', '1665-70', 'c. 1665-70', "
        "'1590s', '18th century' or 'late 16th "
        "century', or null for undated"
    )


def _describe(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"the number {value}" if isinstance(value, (int, float)) else f"a {type(value).__name__}"


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
