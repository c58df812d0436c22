"""What ``laugh sources`` does once its arguments are read: the sources shown or given as JSON
(:func:`show_sources`), every quotation checked against the collected source texts
(:func:`check_quotations`), and the commented templates of a new source file or file of records
written (:func:`write_source_template`, :func:`write_records_template`).  The command line
(:mod:`tutor.app.commands.sources_cmd`) only parses arguments and calls these.
"""

from __future__ import annotations

from pathlib import Path

from tutor.app.source_pages import sources_view
from tutor.app.std_streams import echo, echo_json
from tutor.engine.data import laugh_home, source_texts_dir
from tutor.engine.errors import UsageError
from tutor.engine.outputs import check_output, write_text
from tutor.engine.sources import Library, Record, Source, audit_quotations
from tutor.engine.template import records_template, source_template

__all__ = [
    "check_quotations",
    "record_json",
    "show_sources",
    "source_json",
    "write_records_template",
    "write_source_template",
]


def show_sources(lib: Library, source_id: str | None, as_json: bool) -> int:
    """``laugh sources [ID]``: source ``source_id`` (every source when None) and, when all are
    shown or the one shown has records, the timeline of the name, a screenful at a time at a
    terminal (:func:`tutor.app.source_pages.sources_view`), or as JSON (with the files left out
    as ``refused``).  Raises UsageError for an unknown source id."""
    selected = [lib.source(source_id)] if source_id else list(lib.sources.values())
    show_timeline = source_id is None or any(s.records for s in selected)
    if as_json:
        data: dict[str, object] = {"sources": [source_json(s) for s in selected]}
        if show_timeline:
            data["records"] = [record_json(lib, r) for r in lib.timeline()]
        if lib.refused:
            data["refused"] = list(lib.refused)
        echo_json(data, indent=2)
        return 0
    view = sources_view(lib, source_id)
    from tutor.app.context import make_context  # the screen and its pager: only when shown

    ctx = make_context()
    try:
        ctx.page(*view)  # a screenful at a time at a terminal, as lessons are shown
    finally:
        ctx.close()
    return 0


def write_source_template(new_id: str | None, out: str | None) -> int:
    """Write the template of a new source file (:func:`tutor.engine.template.source_template`)
    to ``out`` (default ``NEW_ID.yaml``); refuse to overwrite a file."""
    if not new_id:
        raise UsageError("laugh sources new NEW_ID: give the new source's id, e.g. tuesday-club")
    path = Path(out) if out else Path(f"{new_id}.yaml")
    if path.exists() and not path.is_dir():
        raise UsageError(f"{path} exists; choose another file with --out")
    check_output(path)
    text = source_template(new_id)
    write_text(path, text)
    echo(f"Wrote {path}: a source file with every ruleset parameter, ready to fill in.")
    echo(
        f"Try it with: laugh --sources {path} rules {new_id}   (or copy it into "
        f"{laugh_home() / 'sources'}, read at every start)"
    )
    return 0


def write_records_template(name: str, out: str | None) -> int:
    """Write a commented file of records (:func:`tutor.engine.template.records_template`) called
    ``NAME.yaml`` into the teacher's folder (``LAUGH_HOME/sources``), or to ``out``; refuse to
    overwrite a file."""
    text = records_template(name)  # UsageError for a name that is not an id
    folder = laugh_home() / "sources"
    path = Path(out) if out else folder / f"{name}.yaml"
    if path.exists() and not path.is_dir():
        raise UsageError(f"{path} exists; choose another name, or another file with --out")
    if not out:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"cannot make {folder}: {exc.strerror or exc}") from None
    check_output(path)
    write_text(path, text)
    echo(
        f"Wrote {path}: a file of records of the game, with one example of each date form; "
        "fill it in."
    )
    where = (
        "It is read at every start"
        if not out
        else f"Put it in {folder} and it is read at every start"
    )
    echo(
        f"{where}: laugh sources shows your records in the timeline, laugh sources check "
        "checks the file."
    )
    return 0


def check_quotations(lib: Library, as_json: bool = False) -> int:
    """Compare every quotation with its source text; print one line for each problem, each
    quotation cited, not checked (no text), and each quotation that stands verbatim in more than one
    source text (a finding), then a summary.

    Returns 1 when a quotation is not verbatim or its text is missing, or a quotation of the
    project's own sources could not be checked; else 0 (a teacher's quotations without a text
    are listed, not failed; findings do not fail).
    """
    texts = source_texts_dir()
    audit = audit_quotations(lib, texts)
    own_unchecked = [
        ref for ref in audit.unchecked_refs if lib.sources[ref.split(":", 1)[0]].origin == "own"
    ]
    refused = list(lib.refused)
    failed = bool(audit.problems or own_unchecked or refused)
    if as_json:
        echo_json(
            {
                "texts": str(texts) if texts else None,
                "quotations": audit.total,
                "verified": len(audit.verified),
                "problems": list(audit.problems),
                "refused": refused,
                "unchecked": list(audit.unchecked),
                "shared": list(audit.shared),
            },
            indent=2,
        )
        return 1 if failed else 0
    for line in refused:  # a record left out on its own says so itself
        echo(line if line.endswith("file are kept)") else f"{line} (the file is left out)")
    for line in audit.problems + audit.unchecked + audit.shared:
        echo(line)
    where = f" in {texts}" if texts else " (no source-texts folder: set LAUGH_SOURCE_TEXTS)"
    if failed:
        parts = []
        if refused:
            parts.append(
                f"{len(refused)} problem{'s' if len(refused) != 1 else ''} in your "
                "own files, which are left out"
            )
        if audit.problems:
            parts.append(f"{len(audit.problems)} could not be checked or are not verbatim{where}")
        if own_unchecked:
            parts.append(
                f"{len(own_unchecked)} of the project's own have no text to be checked against"
            )
        echo(f"laugh: of {audit.total} quotations, {'; '.join(parts)}", stderr=True)
        return 1
    n = len(audit.verified)
    head = f"all {n}" if n == audit.total else f"{n} of {audit.total}"
    tail = f"; {len(audit.unchecked)} cited, not checked (no text)" if audit.unchecked else ""
    shared = (
        f"; {len(audit.shared)} stand{'s' if len(audit.shared) == 1 else ''} in more than "
        "one source text"
        if audit.shared
        else ""
    )
    echo(
        f"OK: {head} quotations of {len(lib.sources)} sources verified verbatim{where} "
        f"(whitespace normalised){tail}{shared}"
    )
    return 0


def record_json(lib: Library, r: Record) -> dict[str, object]:
    """A record as a JSON-ready dict."""
    q = lib.quotation(r.quote) if r.quote else None
    rep = lib.quotation(r.report) if r.report else None
    return {
        "id": r.id,
        "kind": r.kind,
        "date": r.date.text,
        "date_form": r.date.form,
        "earliest": r.date.lo,
        "latest": r.date.hi,
        "author": r.author,
        "title": r.title,
        "page": r.page,
        "citation": r.citation_text,
        "quote": r.quote,
        "text": q.text if q else None,
        "given_by": lib.reporter(r),
        "report": rep.text if rep else None,
        "note": r.note,
        "file": r.source,
    }


def source_json(src: Source) -> dict[str, object]:
    """A source as a JSON-ready dict (citation fields, summary, quotations, problems)."""
    return {
        "id": src.id,
        "kind": src.kind,
        "citation": src.citation_text,
        "author": src.author,
        "title": src.title,
        "in": src.in_,
        "date": src.date,
        "published": src.published,
        "text": src.text,
        "summary": src.summary,
        "file": str(src.path),
        "rulesets": list(src.rulesets),
        "quotations": [
            {
                "id": q.id,
                "ref": q.ref,
                "text": q.text,
                "where": q.where,
                "speaker": q.speaker,
                "in": q.in_,
                "citation": q.citation,
            }
            for q in src.quotations.values()
        ],
        "records": [r.id for r in src.records],
        "problems": [
            {**p, "quotes": list(p["quotes"]), "rulesets": list(p["rulesets"])}
            for p in src.problems
        ],
    }
