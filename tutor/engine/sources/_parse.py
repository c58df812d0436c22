"""Reading one source file (``sources/*.yaml``, schema in ``sources/README.md``) into a
:class:`~tutor.engine.sources._files._RawSource`: its id, kind, citation, quotations,
records, problems and rulesets, every shape checked, the first problem raised as a
:class:`~tutor.engine.errors.DataError` ``FILE:LINE: KEY.PATH: what is wrong`` (each record is
checked on its own: a file's refused records are all listed, one a line)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from yaml.nodes import MappingNode, Node

from tutor.engine.errors import DataError
from tutor.engine.sources._files import _ID_RE, _NULL_TAG, _describe, _File, _RawSource, _Ref, _refs
from tutor.engine.sources._library import KINDS, Quotation, _qualify
from tutor.engine.sources._records import RECORD_KINDS, Record, parse_date
from tutor.engine.sources._rulesets import _parse_ruleset

_TOP_REQUIRED = ("id", "kind", "citation", "summary")
_TOP_OPTIONAL = ("text", "quotations", "records", "problems", "rulesets", "dated",
                 "based_on")
_CITATION_REQUIRED = ("title",)
_CITATION_OPTIONAL = ("author", "in", "date", "published")
_QUOTATION_REQUIRED = ("text", "where")
_QUOTATION_OPTIONAL = ("speaker", "in")
_DATED_REQUIRED = ("year", "status", "quotes")
_DATED_OPTIONAL = ("date", "note")
_BASED_ON_REQUIRED = ("source", "status", "quotes")
_BASED_ON_OPTIONAL = ("note",)
#: What a date or a "based on" relation may rest on: the source's words, or our reading of them.
_LINEAGE_STATUSES = ("stated", "read")
_PROBLEM_REQUIRED = ("id", "summary", "quotes")
_PROBLEM_OPTIONAL = ("rulesets",)


def _parse_file(path: Path, origin: str = "own") -> _RawSource:
    """Read and check the source file ``path`` (references to other files' quotations and
    rulesets are resolved later, when the library is built); ``origin`` says where it was found
    (``own``, ``home`` or ``extra``).  Raises DataError for the first problem, or for every
    refused record, one a line."""
    f = _File(path)
    if f.root is None:
        raise DataError(f"{f.display}:1: the file is empty; expected a source mapping "
                        "(see sources/README.md)")
    top = f.keys(f.root, "", _TOP_REQUIRED, _TOP_OPTIONAL)
    sid = f.ident(top["id"][1], "id")
    kind = f.scalar(top["kind"][1], "kind")
    if kind not in KINDS:
        raise f.error(top["kind"][1], "kind", f"{_describe(kind)} is not one of {', '.join(KINDS)}")
    citation = _parse_citation(f, top["citation"])
    text = f.string(top["text"][1], "text", nullable=True) if "text" in top else None
    summary = f.string(top["summary"][1], "summary")
    raw = _RawSource(path=path, id=sid, id_line=top["id"][1].start_mark.line + 1, kind=kind,
                     citation=citation, text=text, summary=summary, quotations={},
                     records=[], problems=[], problem_rulesets=[], rulesets=[],
                     origin=origin)

    # The optional collections may also be given as null (empty).
    top = {k: v for k, v in top.items()
           if not (k in _TOP_OPTIONAL[1:] and v[1].tag == _NULL_TAG)}
    if "dated" in top:
        raw.dated = _parse_dated(f, top["dated"], raw)
    if "based_on" in top:
        _parse_based_on(f, top["based_on"][1], raw)
    if "quotations" in top:
        _parse_quotations(f, top["quotations"][1], raw)
    refused: list[str] = []
    if "records" in top:
        refused = _parse_records(f, top["records"][1], raw)
    if "problems" in top:
        _parse_problems(f, top["problems"][1], raw)
    if "rulesets" in top:
        for rid, (knode, rnode) in f.mapping(top["rulesets"][1], "rulesets").items():
            raw.rulesets.append(_parse_ruleset(f, raw, rid, knode, rnode))
    if refused:
        raise DataError("\n".join(refused))
    return raw


def _parse_citation(f: _File, nodes: tuple[Node, Node]) -> dict[str, Any]:
    """``{author, title, in, date, published}`` (None where not given)."""
    centries = f.keys(nodes[1], "citation", _CITATION_REQUIRED, _CITATION_OPTIONAL, at=nodes[0])
    citation: dict[str, str | None] = {"title": f.string(centries["title"][1], "citation.title")}
    for key in _CITATION_OPTIONAL:
        citation[key] = (f.string(centries[key][1], f"citation.{key}", nullable=True)
                         if key in centries else None)
    return citation


def _parse_quotations(f: _File, node: Node, raw: _RawSource) -> None:
    for qid, (knode, qnode) in f.mapping(node, "quotations").items():
        qpath = f"quotations.{qid}"
        if not isinstance(qid, str) or not _ID_RE.match(qid):
            raise f.error(knode, qpath, "a quotation id must be lowercase letters and digits "
                                        "joined by dashes")
        e = f.keys(qnode, qpath, _QUOTATION_REQUIRED, _QUOTATION_OPTIONAL, at=knode)
        raw.quotations[qid] = Quotation(
            source=raw.id, id=qid,
            text=f.string(e["text"][1], f"{qpath}.text"),
            where=f.string(e["where"][1], f"{qpath}.where"),
            speaker=f.string(e["speaker"][1], f"{qpath}.speaker", True) if "speaker" in e else None,
            in_=f.string(e["in"][1], f"{qpath}.in", True) if "in" in e else None,
            line=knode.start_mark.line + 1)


def _grounds(f: _File, e: dict, path: str, raw: _RawSource) -> dict[str, Any]:
    """``status``, ``quotes`` (at least one) and ``note`` (required when ``read``) of a date or
    a "based on" relation: what it rests on."""
    status = f.scalar(e["status"][1], f"{path}.status")
    if status not in _LINEAGE_STATUSES:
        raise f.error(e["status"][1], f"{path}.status",
                      f"{_describe(status)} is not one of {', '.join(_LINEAGE_STATUSES)}")
    quotes = _refs(f, e["quotes"][1], f"{path}.quotes", raw)
    if not quotes:
        raise f.error(e["quotes"][1], f"{path}.quotes",
                      "give at least one quotation: the words it rests on")
    note = f.string(e["note"][1], f"{path}.note", True) if "note" in e else None
    if status == "read" and not note:
        raise f.error(e["status"][1], f"{path}.note",
                      "a reading needs a note (our words: how the quotations show it)")
    return {"status": status, "quotes": tuple(_qualify(r, raw.id) for r in quotes),
            "note": note}


def _parse_dated(f: _File, nodes: tuple[Node, Node], raw: _RawSource) -> dict[str, Any]:
    """``{year, date, status, quotes, note}``: when the text was written."""
    e = f.keys(nodes[1], "dated", _DATED_REQUIRED, _DATED_OPTIONAL, at=nodes[0])
    year = f.integer(e["year"][1], "dated.year", minimum=1)
    date = f.string(e["date"][1], "dated.date", True) if "date" in e else None
    return {"year": year, "date": date or str(year), **_grounds(f, e, "dated", raw)}


def _parse_based_on(f: _File, node: Node, raw: _RawSource) -> None:
    """Each ``{source, status, quotes, note}``; the source id is checked against the loaded
    sources when the library is built (:func:`tutor.engine.sources._build._build`)."""
    seen: dict[str, int] = {}
    for i, bnode in enumerate(f.sequence(node, "based_on")):
        bpath = f"based_on.{i}"
        e = f.keys(bnode, bpath, _BASED_ON_REQUIRED, _BASED_ON_OPTIONAL)
        sid = f.ident(e["source"][1], f"{bpath}.source")
        line = e["source"][1].start_mark.line + 1
        if sid == raw.id:
            raise f.error(e["source"][1], f"{bpath}.source", "a source is not based on itself")
        if sid in seen:
            raise f.error(e["source"][1], f"{bpath}.source",
                          f"'{sid}' is listed twice (first at line {seen[sid]})")
        seen[sid] = line
        raw.based_on.append({"source": sid, "line": line, "path": f"{bpath}.source",
                             **_grounds(f, e, bpath, raw)})


def _parse_problems(f: _File, node: Node, raw: _RawSource) -> None:
    seen: dict[str, int] = {}
    for i, pnode in enumerate(f.sequence(node, "problems")):
        ppath = f"problems.{i}"
        e = f.keys(pnode, ppath, _PROBLEM_REQUIRED, _PROBLEM_OPTIONAL)
        pid = f.ident(e["id"][1], f"{ppath}.id")
        if pid in seen:
            raise f.error(e["id"][1], f"{ppath}.id",
                          f"duplicate problem id '{pid}' (first at line {seen[pid]})")
        seen[pid] = e["id"][1].start_mark.line + 1
        quotes = _refs(f, e["quotes"][1], f"{ppath}.quotes", raw)
        rulesets = []
        if "rulesets" in e:
            for j, rnode in enumerate(f.sequence(e["rulesets"][1], f"{ppath}.rulesets")):
                rid = f.ident(rnode, f"{ppath}.rulesets.{j}")
                rulesets.append(rid)
                raw.problem_rulesets.append((rid, rnode.start_mark.line + 1,
                                             f"{ppath}.rulesets.{j}"))
        raw.problems.append({
            "id": pid, "source": raw.id,
            "summary": f.string(e["summary"][1], f"{ppath}.summary"),
            "quotes": tuple(_qualify(r, raw.id) for r in quotes),
            "rulesets": tuple(rulesets),
        })


# --------------------------------------------------------------------------------------------
# Records of the game (records:, see _records)

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
    title = cite["title"]
    assert title is not None                # a citation's title is required
    return Record(id=rid, kind=kind, date=date, author=cite.get("author"), title=title,
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
