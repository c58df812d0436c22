"""Building the :class:`~tutor.engine.sources.Library` from the files read: ids unique across
files, every quotation reference and problem's ruleset resolved, each quotation given its
citation, and each ruleset made a :class:`tutor.engine.rulesets.Ruleset` for the engine."""

from __future__ import annotations

from typing import Any

from tutor.engine.errors import DataError
from tutor.engine.rulesets import (
    COUNT_PARAMETERS,
    RULESET_PARAMETERS,
    LieDownPayment,
    PlayerCount,
    Ruleset,
)
from tutor.engine.sources._library import Library, Quotation, Source, _split_ref
from tutor.engine.sources._source_file import _RawRuleset, _RawSource, display_path


def _build(raws: list[_RawSource]) -> Library:
    """The library of the files ``raws`` (in load order, the project's own first).  Raises
    DataError for a duplicate source, ruleset or record id, an unknown quotation reference, a
    problem's unknown ruleset or a record's unknown reporter, or a quotation given as the words
    of two records.

    Whose words a quotation is cannot be changed by a later file: a text file name belongs to
    the first source that names it as its ``text`` (so a teacher's file naming Parlett's text
    never takes Parlett's quotations for its own), a speaker of the project's quotations is
    looked up among the project's sources alone, and a record's words are a quotation of its
    own file.  A record's words that stand in no text are cited as the record's reporter gives
    them, else as the record itself (never as the file that lists it)."""
    source_at = _check_across_files(raws)
    by_text: dict[str, _RawSource] = {}
    for raw in raws:
        if raw.text:
            by_text.setdefault(raw.text, raw)
    own_at = {sid: raw for sid, raw in source_at.items() if raw.origin == "own"}
    bound = _record_words(raws, source_at)
    problems_for: dict[str, list[dict[str, Any]]] = {}
    for raw in raws:
        for p in raw.problems:
            for rid in p["rulesets"]:
                problems_for.setdefault(rid, []).append(p)

    lib = Library()
    for raw in raws:
        speakers = own_at if raw.origin == "own" else source_at
        quotations = {
            qid: _with_citation(q, raw, by_text, speakers, bound.get(q.ref))
            for qid, q in raw.quotations.items()
        }
        c = raw.citation
        lib.sources[raw.id] = Source(
            id=raw.id,
            kind=raw.kind,
            author=c["author"],
            title=c["title"],
            in_=c["in"],
            date=c["date"],
            published=c["published"],
            text=raw.text,
            summary=raw.summary,
            quotations=quotations,
            records=list(raw.records),
            problems=raw.problems,
            rulesets=tuple(rr.id for rr in raw.rulesets),
            path=raw.path,
            dated=raw.dated,
            based_on=tuple(
                {k: v for k, v in b.items() if k not in ("line", "path")} for b in raw.based_on
            ),
            origin=raw.origin,
        )
        for rec in raw.records:
            lib.records[rec.id] = rec
        for rr in raw.rulesets:
            lib.rulesets[rr.id] = _make_ruleset(raw, rr, tuple(problems_for.get(rr.id, ())))
            lib.ruleset_source[rr.id] = raw.id
            entries = list(rr.params.values())
            for cp in rr.counts.values():
                entries.extend(cp.values())
            lib.parameters[rr.id] = entries
    return lib


def _check_across_files(raws: list[_RawSource]) -> dict[str, _RawSource]:
    """Every source and ruleset id used once, every reference to a quotation or ruleset naming
    a loaded one; returns the files by source id."""
    source_at: dict[str, _RawSource] = {}
    ruleset_at: dict[str, tuple[_RawSource, int]] = {}
    for raw in raws:
        if raw.id in source_at:
            first = source_at[raw.id]
            raise DataError(
                f"{display_path(raw.path)}:{raw.id_line}: id: duplicate source id "
                f"'{raw.id}' (already defined in {display_path(first.path)}:{first.id_line})"
            )
        source_at[raw.id] = raw
        for rr in raw.rulesets:
            if rr.id in ruleset_at:
                first, line = ruleset_at[rr.id]
                raise DataError(
                    f"{display_path(raw.path)}:{rr.line}: rulesets.{rr.id}: duplicate "
                    f"ruleset id '{rr.id}' (already defined in "
                    f"{display_path(first.path)}:{line})"
                )
            ruleset_at[rr.id] = (raw, rr.line)

    for raw in raws:
        for r in raw.refs:
            src, qid = _split_ref(r.ref, raw.id)
            target = source_at.get(src)
            if target is None:
                raise DataError(
                    f"{display_path(raw.path)}:{r.line}: {r.path}: unknown source "
                    f"'{src}' in quotation reference '{r.ref}' (sources: "
                    f"{', '.join(source_at)})"
                )
            if qid not in target.quotations:
                raise DataError(
                    f"{display_path(raw.path)}:{r.line}: {r.path}: quotation '{qid}' is "
                    f"not defined in {display_path(target.path)}"
                )
        for rid, line, path in raw.problem_rulesets:
            if rid not in ruleset_at:
                raise DataError(
                    f"{display_path(raw.path)}:{line}: {path}: unknown ruleset '{rid}' "
                    f"(rulesets: {', '.join(ruleset_at)})"
                )
        for b in raw.based_on:
            if b["source"] not in source_at:
                raise DataError(
                    f"{display_path(raw.path)}:{b['line']}: {b['path']}: unknown "
                    f"source '{b['source']}' (sources: {', '.join(source_at)})"
                )
        for sid, line, path in raw.record_sources:
            if sid not in source_at:
                raise DataError(
                    f"{display_path(raw.path)}:{line}: {path}: unknown source "
                    f"'{sid}' (sources: {', '.join(source_at)}; or give a citation: "
                    "{author: ..., title: ...})"
                )
    _check_lineage(raws)
    return source_at


def _record_words(
    raws: list[_RawSource], source_at: dict[str, _RawSource]
) -> dict[str, tuple[Any, _RawSource | None]]:
    """Each quotation that is a record's own words, with the record and the file of the source
    that reports it (or None): ``{ref: (record, reporter file)}``.  Raises DataError for a
    record id used twice, or a quotation given as the words of two records."""
    seen: dict[str, tuple[_RawSource, int]] = {}
    bound: dict[str, tuple[Any, _RawSource | None]] = {}
    for raw in raws:
        for rec in raw.records:
            if rec.id in seen:
                first, line = seen[rec.id]
                raise DataError(
                    f"{display_path(raw.path)}:{rec.line}: records: duplicate "
                    f"record id '{rec.id}' (already defined in "
                    f"{display_path(first.path)}:{line})"
                )
            seen[rec.id] = (raw, rec.line)
            if rec.quote is None:
                continue
            if rec.quote in bound:
                other = bound[rec.quote][0]
                raise DataError(
                    f"{display_path(raw.path)}:{rec.line}: records: the quotation "
                    f"'{rec.quote}' is already the words of record '{other.id}'"
                )
            bound[rec.quote] = (rec, source_at.get(rec.reported_by) if rec.reported_by else None)
    return bound


def _check_lineage(raws: list[_RawSource]) -> None:
    """No source is, through its "based on" relations, based on itself."""
    based = {raw.id: raw for raw in raws}
    for raw in raws:
        for b in raw.based_on:
            todo, seen = [b["source"]], set()
            while todo:
                sid = todo.pop()
                if sid == raw.id:
                    raise DataError(
                        f"{display_path(raw.path)}:{b['line']}: {b['path']}: "
                        f"'{raw.id}' would be based on itself (through "
                        f"'{b['source']}')"
                    )
                if sid not in seen and sid in based:
                    seen.add(sid)
                    todo += [nxt["source"] for nxt in based[sid].based_on]


def _cite(c: dict[str, Any]) -> str:
    parts = [c["author"], f'"{c["title"]}"', c["in"], c["date"], c["published"]]
    return ", ".join(p for p in parts if p)


def _with_citation(
    q: Quotation,
    raw: _RawSource,
    by_text: dict[str, _RawSource],
    source_at: dict[str, _RawSource],
    record: tuple[Any, _RawSource | None] | None = None,
) -> Quotation:
    citing = by_text.get(q.in_, raw) if q.in_ else raw
    cited_in = _cite(citing.citation)
    if record is not None and not q.in_ and not raw.text:
        rec, reporter = record  # a record's words that stand in no text here
        if reporter is not None:
            cited_in = _cite(reporter.citation)
        elif rec.reporter:
            cited_in = rec.reporter
        else:
            cited_in = rec.citation_text
        if (reporter is not None or rec.reporter) and not q.speaker:
            return Quotation(
                source=q.source,
                id=q.id,
                text=q.text,
                where=q.where,
                speaker=q.speaker,
                in_=q.in_,
                cited_in=cited_in,
                quoting=rec.who,
                line=q.line,
            )
    who = None
    if q.speaker:
        if q.speaker == "willughby":
            who = "Willughby"
        elif q.speaker in source_at:
            sp = source_at[q.speaker].citation
            who = sp["author"] or sp["title"]
        else:
            who = q.speaker
    return Quotation(
        source=q.source,
        id=q.id,
        text=q.text,
        where=q.where,
        speaker=q.speaker,
        in_=q.in_,
        cited_in=cited_in,
        quoting=who,
        line=q.line,
    )


def _make_ruleset(
    raw: _RawSource, rr: _RawRuleset, problems: tuple[dict[str, Any], ...]
) -> Ruleset:
    counts = {}
    for n, cp in rr.counts.items():
        counts[n] = PlayerCount(
            players=n,
            **{name: cp[name].value for name in COUNT_PARAMETERS},
            provenance={name: cp[name].provenance for name in COUNT_PARAMETERS},
        )
    p = rr.params
    pays = p["lie_down_pays"].value
    return Ruleset(
        id=rr.id,
        source=raw.id,
        title=rr.title,
        summary=rr.summary,
        counts=counts,
        first_dealer=p["first_dealer"].value,
        table_mournival=p["table_mournival"].value,
        captures=frozenset(p["captures"].value),
        hand_plays=p["hand_plays"].value,
        bonus_to=p["bonus_to"].value,
        last_in_plays_on=p["last_in_plays_on"].value,
        leftovers_to=p["leftovers_to"].value,
        scoring=p["scoring"].value,
        oversights=frozenset(p["oversights"].value),
        captures_per_turn=p["captures_per_turn"].value,
        declarations=frozenset(p["declarations"].value),
        lie_down_pays=LieDownPayment(pays["stakes"], pays["to"]) if pays else None,
        pot_to=p["pot_to"].value,
        match_format=p["match_format"].value,
        provenance={name: p[name].provenance for name in RULESET_PARAMETERS},
        problems=problems,
        origin=str(raw.path),
    )
