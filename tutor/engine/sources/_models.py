"""The shape of a source file (``sources/*.yaml``, schema in ``sources/README.md``) as models:
every key, whether it is required, and the type of its value, checked before the reader
(:mod:`tutor.engine.sources._parse`) checks what the values say (ids unique, quotations
defined, a reading's note).  A refusal is the project's one line, ``FILE:LINE: KEY.PATH: what
is wrong`` (:func:`tutor.engine.models.validate`).

The rulesets of a file are read by :mod:`tutor.engine.sources._rulesets`, whose keys are the
parameters of :mod:`tutor.engine.parameters` (data, not a schema written here); each record
of ``records`` is checked on its own (:class:`RecordEntry`), so a file's refused records are
all listed, one a line.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from tutor.engine.models import Model
from tutor.engine.sources._historical_records import RECORD_KINDS
from tutor.engine.sources._library import KINDS
from tutor.engine.sources._source_file import _ID_RE, _describe

__all__ = ["BasedOn", "Citation", "Dated", "Problem", "Quotation", "RecordEntry", "SourceFile"]


def _text(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    return value


def _ident(value: str) -> str:
    if not _ID_RE.match(value):
        raise ValueError(
            f"{_describe(value)} is not an id (lowercase letters and digits joined by dashes)"
        )
    return value


def _quotation_id(value: str) -> str:
    if not _ID_RE.match(value):
        raise ValueError("a quotation id must be lowercase letters and digits joined by dashes")
    return value


def _kind(value: str) -> str:
    if value not in KINDS:
        raise ValueError(f"{_describe(value)} is not one of {', '.join(KINDS)}")
    return value


def _record_kind(value: str) -> str:
    if value not in RECORD_KINDS:
        raise ValueError(
            f"{_describe(value)} is not one of "
            + ", ".join(f"{k} ({v})" for k, v in RECORD_KINDS.items())
        )
    return value


Text = Annotated[str, AfterValidator(_text)]
Ident = Annotated[str, AfterValidator(_ident)]
#: A page or a date a citation may give as a bare number (read as text).
TextOrNumber = Annotated[str, AfterValidator(_text)] | int


class Citation(Model):
    """A source's citation: the title, and the author, the book it is in, its date and its
    publisher where given."""

    title: Text
    author: Text | None = None
    in_: Text | None = Field(None, alias="in")
    date: Text | None = None
    published: Text | None = None


class Quotation(Model):
    """A quotation: the words verbatim, where they stand, and who speaks them where the text
    quotes someone."""

    text: Text
    where: Text
    speaker: Text | None = None
    in_: Text | None = Field(None, alias="in")


class _Grounds(Model):
    """What a date or a "based on" relation rests on: the source's words (``stated``) or our
    reading of them (``read``, with a note), and the quotations."""

    status: Literal["stated", "read"]
    quotes: list[str]
    note: Text | None = None


class Dated(_Grounds):
    """When the text was written: the year (and a date to show, if not the year)."""

    year: Annotated[int, Field(ge=1)]
    date: Text | None = None


class BasedOn(_Grounds):
    """A source this one is based on."""

    source: Ident


class Problem(Model):
    """A problem of reading the source: its id, our summary, the quotations it rests on and
    the rulesets that answer it."""

    id: Ident
    summary: Text
    quotes: list[str]
    rulesets: list[Ident] = []


class RecordCitation(Model):
    """Where a record of the game was found."""

    title: Text
    author: Text | None = None
    page: TextOrNumber | None = None


class ReporterCitation(RecordCitation):
    """Who reports a record, when not a source of the library."""

    date: TextOrNumber | None = None
    published: Text | None = None


class RecordEntry(Model):
    """One record of the game (``records:``): the date may be a year or text
    or null (:func:`tutor.engine.sources._historical_records.parse_date` reads it, and says what is
    wrong)."""

    id: Ident
    kind: Annotated[str, AfterValidator(_record_kind)]
    date: object
    citation: RecordCitation
    quote: Text | None = None
    reported_by: ReporterCitation | Ident | None = None
    report: Text | None = None
    note: Text | None = None


class SourceFile(Model):
    """A source file: its id, kind, citation and summary (required), and the text's file,
    quotations, records, problems, rulesets, date and lineage where given (a collection may be
    null: none)."""

    id: Ident
    kind: Annotated[str, AfterValidator(_kind)]
    citation: Citation
    summary: Text
    text: Text | None = None
    quotations: dict[Annotated[str, AfterValidator(_quotation_id)], Quotation] | None = None
    records: list[object] | None = None
    problems: list[Problem] | None = None
    rulesets: dict[str, object] | None = None
    dated: Dated | None = None
    based_on: list[BasedOn] | None = None
