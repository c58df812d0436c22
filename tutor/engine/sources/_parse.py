"""Reading one source file (``sources/*.yaml``, schema in ``sources/README.md``) into a
:class:`~tutor.engine.sources._source_file._RawSource`: its id, kind, citation, quotations,
records, problems and rulesets, every shape checked, the first problem raised as a
:class:`~tutor.engine.errors.DataError` ``FILE:LINE: KEY.PATH: what is wrong`` (each record is
checked on its own: a file's refused records are all listed, one a line)."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutor.engine.errors import DataError
from tutor.engine.models import key_path, refusal, validate
from tutor.engine.sources._historical_records import Record, parse_date
from tutor.engine.sources._library import Quotation, _qualify, _split_ref
from tutor.engine.sources._rulesets import _parse_ruleset
from tutor.engine.sources._source_file import (
    _ID_RE,
    _File,
    _RawSource,
    _Ref,
    display_path,
    read_source_text,
)

if TYPE_CHECKING:
    from tutor.engine.sources._models import BasedOn, Problem, RecordEntry, _Grounds


#: The source files read whole in this process, pickled, by ``(path, name shown, origin, text)``:
#: every library loaded (each teacher's folder, each ``--sources``, each cleared cache) reads the
#: project's six files again, and composing and checking them is nine-tenths of a load (60 ms),
#: unpickling a copy a fiftieth of it.  A copy each time: nothing a library is built from is
#: shared with another library.  Kept only for files read without a problem; keyed by the text
#: read afresh each time, so an edited file is read again.
_parsed: dict[tuple[str, str, str, str], bytes] = {}
#: Files kept at most (the project's six, and a few of the teacher's or ``--sources``).
_PARSED_MAX = 64


def _parse_file(path: Path, origin: str = "own", left_out: list[str] | None = None) -> _RawSource:
    """Read and check the source file ``path`` (references to other files' quotations and
    rulesets are resolved later, when the library is built); ``origin`` says where it was found
    (``own``, ``home`` or ``extra``).  The file's shape is checked by its model
    (:class:`~tutor.engine.sources._models.SourceFile`), then what its values say.  Raises
    DataError for the first problem, or for every refused record, one a line; with
    ``left_out`` (a teacher's file) a refused record is left out on its own instead, its line
    added to ``left_out``, and the file kept with its other records.

    A text read before in this process (same path, name shown, origin and text:
    :data:`_parsed`) is not checked again: its result is the one it had."""
    if left_out is not None:  # a teacher's file: its refused records are said each time
        return _parse_text(path, origin, left_out, None, None)
    display = display_path(path)
    text = read_source_text(path, display)
    key = (str(path), display, origin, text)  # display: the name its messages and places give
    kept = _parsed.get(key)
    if kept is not None:
        raw: _RawSource = pickle.loads(kept)
        return raw
    raw = _parse_text(path, origin, None, text, display)
    if len(_parsed) >= _PARSED_MAX:
        _parsed.clear()
    _parsed[key] = pickle.dumps(raw, pickle.HIGHEST_PROTOCOL)
    return raw


def _parse_text(
    path: Path, origin: str, left_out: list[str] | None, text: str | None, display: str | None
) -> _RawSource:
    """:func:`_parse_file` of ``path``'s ``text`` (None: read it)."""
    from tutor.engine.sources._models import SourceFile  # pydantic: once the files are read

    f = _File(path, text, display)
    if f.root is None:
        raise DataError(
            f"{f.display}:1: the file is empty; expected a source mapping (see sources/README.md)"
        )
    m = validate(SourceFile, f.doc.value(), doc=f.doc, given=True)
    c = m.citation
    raw = _RawSource(
        path=path,
        id=m.id,
        id_line=f.doc.line_of("id"),
        kind=m.kind,
        citation={
            "title": c.title,
            "author": c.author,
            "in": c.in_,
            "date": c.date,
            "published": c.published,
        },
        text=m.text,
        summary=m.summary,
        quotations={},
        records=[],
        problems=[],
        problem_rulesets=[],
        rulesets=[],
        origin=origin,
    )
    if m.dated is not None:
        d = m.dated
        raw.dated = {
            "year": d.year,
            "date": d.date or str(d.year),
            **_grounds(f, d, ("dated",), raw),
        }
    _parse_based_on(f, m.based_on or [], raw)
    for qid, q in (m.quotations or {}).items():
        raw.quotations[qid] = Quotation(
            source=raw.id,
            id=qid,
            text=q.text,
            where=q.where,
            speaker=q.speaker,
            in_=q.in_,
            line=f.doc.line_of("quotations", qid),
        )
    refused = _parse_records(f, m.records or [], raw)
    _parse_problems(f, m.problems or [], raw)
    node = f.doc.find("rulesets")
    if m.rulesets and node is not None:
        for rid, (knode, rnode) in f.mapping(node, "rulesets").items():
            raw.rulesets.append(_parse_ruleset(f, raw, rid, knode, rnode))
    if refused and left_out is not None:
        left_out += [
            f"{line} (this record is left out; the other records of the file are kept)"
            for line in refused
        ]
    elif refused:
        raise DataError("\n".join(refused))
    return raw


def _refs(f: _File, refs: list[str], at: tuple[int | str, ...], raw: _RawSource) -> list[str]:
    """The quotation references listed at the key path ``at``, each noted in ``raw.refs``
    (where it stands) to be resolved once every file is read."""
    for i, ref in enumerate(refs):
        src, qid = _split_ref(ref, raw.id)
        if not (src and _ID_RE.match(src) and _ID_RE.match(qid)):
            raise refusal(f.doc, f"'{ref}' is not a quotation id (an id, or source:id)", *at, i)
        raw.refs.append(_Ref(ref, f.doc.line_of(*at, i), key_path((*at, i))))
    return refs


def _grounds(f: _File, g: _Grounds, at: tuple[int | str, ...], raw: _RawSource) -> dict[str, Any]:
    """``status``, ``quotes`` (at least one) and ``note`` (required when ``read``) of a date or
    a "based on" relation: what it rests on."""
    quotes = _refs(f, g.quotes, (*at, "quotes"), raw)
    if not quotes:
        raise refusal(f.doc, "give at least one quotation: the words it rests on", *at, "quotes")
    if g.status == "read" and not g.note:
        raise refusal(
            f.doc,
            "a reading needs a note (our words: how the quotations show it)",
            *at,
            "note",
            line=f.doc.line_of(*at, "status"),
        )
    return {
        "status": g.status,
        "quotes": tuple(_qualify(r, raw.id) for r in quotes),
        "note": g.note,
    }


def _parse_based_on(f: _File, based_on: list[BasedOn], raw: _RawSource) -> None:
    """Each ``{source, status, quotes, note}``; the source id is checked against the loaded
    sources when the library is built (:func:`tutor.engine.sources._build._build`)."""
    seen: dict[str, int] = {}
    for i, b in enumerate(based_on):
        at = ("based_on", i, "source")
        line = f.doc.line_of(*at)
        if b.source == raw.id:
            raise refusal(f.doc, "a source is not based on itself", *at)
        if b.source in seen:
            raise refusal(
                f.doc, f"'{b.source}' is listed twice (first at line {seen[b.source]})", *at
            )
        seen[b.source] = line
        raw.based_on.append(
            {
                "source": b.source,
                "line": line,
                "path": key_path(at),
                **_grounds(f, b, ("based_on", i), raw),
            }
        )


def _parse_problems(f: _File, problems: list[Problem], raw: _RawSource) -> None:
    seen: dict[str, int] = {}
    for i, p in enumerate(problems):
        if p.id in seen:
            raise refusal(
                f.doc,
                f"duplicate problem id '{p.id}' (first at line {seen[p.id]})",
                "problems",
                i,
                "id",
            )
        seen[p.id] = f.doc.line_of("problems", i, "id")
        quotes = _refs(f, p.quotes, ("problems", i, "quotes"), raw)
        for j, rid in enumerate(p.rulesets):
            at = ("problems", i, "rulesets", j)
            raw.problem_rulesets.append((rid, f.doc.line_of(*at), key_path(at)))
        raw.problems.append(
            {
                "id": p.id,
                "source": raw.id,
                "summary": p.summary,
                "quotes": tuple(_qualify(r, raw.id) for r in quotes),
                "rulesets": tuple(p.rulesets),
            }
        )


# --------------------------------------------------------------------------------------------
# Records of the game (records:, see _records)


def _parse_records(f: _File, records: list[object], raw: _RawSource) -> list[str]:
    """Each entry of ``records`` into ``raw.records``; returns a line ``FILE:LINE: KEY: what is
    wrong`` for each entry that is refused (every entry is checked, so a teacher sees every
    problem at once), the good ones kept."""
    from tutor.engine.sources._models import RecordEntry

    problems: list[str] = []
    seen: dict[str, int] = {}
    for i, value in enumerate(records):
        try:
            entry = validate(RecordEntry, value, doc=f.doc, at=("records", i), given=True)
            rec = _parse_record(f, entry, ("records", i), raw, seen)
        except DataError as exc:
            problems.append(str(exc))
            continue
        raw.records.append(rec)
    return problems


def _parse_record(
    f: _File, e: RecordEntry, at: tuple[int | str, ...], raw: _RawSource, seen: dict[str, int]
) -> Record:
    line = f.doc.line_of(*at, "id")
    if e.id in seen:
        raise refusal(
            f.doc, f"duplicate record id '{e.id}' (first at line {seen[e.id]})", *at, "id"
        )
    try:
        date = parse_date(e.date)
    except ValueError as exc:
        raise refusal(f.doc, str(exc), *at, "date") from None
    quote = _own_quote(f, e.quote, (*at, "quote"), raw)
    report = _own_quote(f, e.report, (*at, "report"), raw)
    reported_by = reporter = None
    if isinstance(e.reported_by, str):
        reported_by = e.reported_by
        where = (*at, "reported_by")
        raw.record_sources.append((reported_by, f.doc.line_of(*where), key_path(where)))
    elif e.reported_by is not None:
        who = e.reported_by
        parts = [who.author, who.title, _str(who.date), who.published, _str(who.page)]
        reporter = ", ".join(p for p in parts if p)
    if report and not (reported_by or reporter):
        raise refusal(
            f.doc,
            "a report is the words of whoever reports the record: name them "
            "(reported_by: a source id, or {author: ..., title: ...})",
            *at,
            "reported_by",
        )
    seen[e.id] = line
    c = e.citation
    return Record(
        id=e.id,
        kind=e.kind,
        date=date,
        author=c.author,
        title=c.title,
        page=_str(c.page),
        quote=quote,
        reported_by=reported_by,
        reporter=reporter,
        report=report,
        note=e.note,
        source=raw.id,
        line=line,
    )


def _str(value: str | int | None) -> str | None:
    """A page or a date given as a bare number, as text."""
    return None if value is None else str(value)


def _own_quote(f: _File, ref: str | None, at: tuple[int | str, ...], raw: _RawSource) -> str | None:
    """The reference at ``at`` (a quotation of this file: a record's words are never another
    file's quotation, so nothing a file adds can change whose words a quotation is), or None."""
    if ref is None:
        return None
    src, _, qid = ref.rpartition(":")
    if src and src != raw.id:
        raise refusal(
            f.doc,
            f"'{ref}' is another file's quotation: a record's words must be a "
            "quotation of its own file (quotations:)",
            *at,
        )
    if not _ID_RE.match(qid):
        raise refusal(f.doc, f"'{ref}' is not a quotation id", *at)
    raw.refs.append(_Ref(qid, f.doc.line_of(*at), key_path(at)))
    return f"{raw.id}:{qid}"
