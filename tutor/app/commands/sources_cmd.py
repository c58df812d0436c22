"""``laugh sources``: the sources with their citations, summaries and quotations, and the
records of the game (its name in old books from 1522, Willughby's description, and any a
teacher adds in their own folder) as a timeline; ``laugh sources check`` checks that every
quotation stands verbatim in the collected texts, and names the file, line and key of every
problem of a teacher's file; ``laugh sources new`` writes a commented template of a source
file, or with ``--records NAME`` of a file of records, into the teacher's folder.

:func:`sources_view` builds what ``laugh sources [ID]`` shows, as rich renderables; the command
prints them and the home screen's sources view shows them a screenful at a time.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.padding import Padding
from rich.text import Text

from tutor.app.streams import echo, echo_json
from tutor.engine.data import data_dir, laugh_home, source_texts_dir
from tutor.engine.errors import UsageError
from tutor.engine.outputs import check_output, write_text
from tutor.engine.sources import (
    Library,
    Record,
    Source,
    audit_quotations,
    default_library,
    display_path,
    set_notice,
)
from tutor.engine.template import records_template, source_template
from tutor.puzzles.quoted import quoted_text

#: The word that runs the quotation check instead of naming a source.
CHECK = "check"
#: The word that writes a template of a new source file.
NEW = "new"


def register(subparsers: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:
    """Add the ``sources`` command to ``subparsers`` (``parent`` holds the shared options)."""
    p = subparsers.add_parser(
        "sources", parents=[parent],
        help="the sources, their quotations, and the records of the game",
        description="Show each source's citation, summary and quotations (with where they "
                    "stand), and the records of the game as a timeline, those in your own "
                    "folder (LAUGH_HOME/sources) too. 'laugh sources check' checks every "
                    "quotation against the source texts and names the file, line and key of "
                    "every problem. 'laugh sources new --records NAME' writes a commented "
                    "file of records into your folder, read at every start.")
    p.add_argument("id", nargs="?", metavar="ID|check|new",
                   help="one source to show, 'check' to check every quotation, or 'new NEW_ID' "
                        "to write a commented template of a source file")
    p.add_argument("new_id", nargs="?", metavar="NEW_ID", help=argparse.SUPPRESS)
    p.add_argument("--records", metavar="NAME",
                   help="with 'new': write a file of records of the game (names in old "
                        "books, descriptions of play) called NAME into your own folder")
    p.add_argument("--out", metavar="FILE",
                   help="with 'new': where to write the template (default: NEW_ID.yaml here; "
                        "with --records, NAME.yaml in your folder)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``laugh sources``; raises UsageError (exit 2) for an unknown source id."""
    new_id = getattr(args, "new_id", None)
    records = getattr(args, "records", None)
    if args.id == NEW:
        if records is not None:
            if new_id is not None:
                raise UsageError(f"unexpected {new_id!r}: laugh sources new --records NAME")
            return run_new_records(records, getattr(args, "out", None))
        return run_new(new_id, getattr(args, "out", None))
    if new_id is not None:
        raise UsageError(f"unexpected {new_id!r}: laugh sources [ID | check | new NEW_ID]")
    if records is not None:
        raise UsageError("--records goes with 'new': laugh sources new --records NAME")
    if getattr(args, "out", None) is not None:
        raise UsageError("--out goes with 'new' only (laugh sources new NEW_ID --out FILE); to "
                         "keep what laugh sources shows, redirect it: laugh sources ID > FILE")
    if args.id == CHECK:
        set_notice(None)            # the check lists the problems of the teacher's files itself
    lib = default_library(verify=args.id != CHECK)   # the check reports every problem itself
    if args.id == CHECK:
        return run_check(lib, args.json)
    selected = [lib.source(args.id)] if args.id else list(lib.sources.values())
    show_timeline = args.id is None or any(s.records for s in selected)
    if args.json:
        data: dict[str, Any] = {"sources": [source_json(s) for s in selected]}
        if show_timeline:
            data["records"] = [record_json(lib, r) for r in lib.timeline()]
        if lib.refused:
            data["refused"] = list(lib.refused)
        echo_json(data, indent=2)
        return 0
    view = sources_view(lib, args.id)
    from tutor.app.context import make_context  # the screen and its pager: only when shown
    ctx = make_context()
    try:
        ctx.page(*view)         # a screenful at a time at a terminal, as lessons are shown
    finally:
        ctx.close()
    return 0


def sources_view(lib: Library, source_id: str | None = None) -> list[Any]:
    """What ``laugh sources [ID]`` shows, as rich renderables: source ``source_id`` (every
    source when None) and, when all are shown or the one shown has records, the timeline of
    the name.  Raises :class:`tutor.engine.errors.UsageError` for an unknown source id."""
    selected = [lib.source(source_id)] if source_id else list(lib.sources.values())
    out: list[Any] = []
    for i, src in enumerate(selected):
        if i:
            out.append(Text(""))
        out += source_renderables(src)
    if source_id is None or any(s.records for s in selected):
        timeline_view = timeline_renderables(lib)
        if timeline_view:
            out += [Text("")] + timeline_view
    return out


def run_new(new_id: str | None, out: str | None) -> int:
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
    echo(f"Try it with: laugh --sources {path} rules {new_id}   (or copy it into "
          f"{laugh_home() / 'sources'}, read at every start)")
    return 0


def run_new_records(name: str, out: str | None) -> int:
    """Write a commented file of records (:func:`tutor.engine.template.records_template`) called
    ``NAME.yaml`` into the teacher's folder (``LAUGH_HOME/sources``), or to ``out``; refuse to
    overwrite a file."""
    text = records_template(name)          # UsageError for a name that is not an id
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
    echo(f"Wrote {path}: a file of records of the game, with one example of each date form; "
          "fill it in.")
    where = "It is read at every start" if not out else \
        f"Put it in {folder} and it is read at every start"
    echo(f"{where}: laugh sources shows your records in the timeline, laugh sources check "
          "checks the file.")
    return 0


def run_check(lib: Library, as_json: bool = False) -> int:
    """Compare every quotation with its source text; print one line for each problem, each
    quotation cited, not checked (no text), and each quotation that stands verbatim in more than one
    source text (a finding), then a summary.

    Returns 1 when a quotation is not verbatim or its text is missing, or a quotation of the
    project's own sources could not be checked; else 0 (a teacher's quotations without a text
    are listed, not failed; findings do not fail).
    """
    texts = source_texts_dir()
    audit = audit_quotations(lib, texts)
    own_unchecked = [ref for ref in audit.unchecked_refs
                     if lib.sources[ref.split(":", 1)[0]].origin == "own"]
    refused = list(lib.refused)
    failed = bool(audit.problems or own_unchecked or refused)
    if as_json:
        echo_json({"texts": str(texts) if texts else None, "quotations": audit.total,
                   "verified": len(audit.verified), "problems": list(audit.problems),
                   "refused": refused,
                   "unchecked": list(audit.unchecked), "shared": list(audit.shared)},
                  indent=2)
        return 1 if failed else 0
    for line in refused:
        echo(f"{line} (the file is left out)")
    for line in audit.problems + audit.unchecked + audit.shared:
        echo(line)
    where = f" in {texts}" if texts else " (no source-texts folder: set LAUGH_SOURCE_TEXTS)"
    if failed:
        parts = []
        if refused:
            parts.append(f"{len(refused)} problem{'s' if len(refused) != 1 else ''} in your "
                         "own files, which are left out")
        if audit.problems:
            parts.append(f"{len(audit.problems)} could not be checked or are not verbatim{where}")
        if own_unchecked:
            parts.append(f"{len(own_unchecked)} of the project's own have no text to be "
                         "checked against")
        echo(f"laugh: of {audit.total} quotations, {'; '.join(parts)}", stderr=True)
        return 1
    n = len(audit.verified)
    head = f"all {n}" if n == audit.total else f"{n} of {audit.total}"
    tail = (f"; {len(audit.unchecked)} cited, not checked (no text)" if audit.unchecked
            else "")
    shared = (f"; {len(audit.shared)} stand{'s' if len(audit.shared) == 1 else ''} in more than "
              "one source text" if audit.shared else "")
    echo(f"OK: {head} quotations of {len(lib.sources)} sources verified verbatim{where} "
         f"(whitespace normalised){tail}{shared}")
    return 0


def _pad(renderable: Any, left: int) -> Padding:
    return Padding(renderable, (0, 0, 0, left), expand=False)


def source_file_label(path) -> str:
    """Where a source file is, for people: the program's own sources as ``sources/NAME.yaml``
    (the folder they have in the project, wherever the program is installed: never a path into
    site-packages), any other file (a teacher's) by its path, relative to the working folder
    where it is inside it."""
    own = data_dir("sources").resolve()
    try:
        rel = Path(path).resolve().relative_to(own)
    except (ValueError, OSError):
        return display_path(path)
    return f"sources/{rel.as_posix()} (one of the program's own)"


def source_renderables(src: Source) -> list[Any]:
    """One source as renderables: citation, kind, text file, rulesets, summary, quotations,
    problems."""
    out: list[Any] = []
    head = Text()
    head.append(src.id, style="bold")
    head.append(f"  ({src.kind})", style="dim")
    out.append(head)
    out.append(_pad(Text(src.citation_text), 2))
    meta = Text()
    if src.text:
        meta.append("Text: ", style="bold")
        meta.append(src.text + "   ")
    meta.append("Rulesets: ", style="bold")
    meta.append(", ".join(src.rulesets) if src.rulesets else "none of its own")
    meta.append("   File: ", style="bold")
    meta.append(source_file_label(src.path))
    out.append(_pad(meta, 2))
    out.append(_pad(Text(src.summary), 2))
    if src.quotations:
        out.append(_pad(Text(f"Quotations ({len(src.quotations)})", style="bold"), 2))
        for q in src.quotations.values():
            t = Text()
            t.append(q.id, style="cyan")
            t.append(f"  {q.where}", style="dim")
            if q.in_ and q.in_ != src.text:
                t.append(f"  [in {q.in_}]", style="dim")
            out.append(_pad(t, 4))
            body = quoted_text(q.text)                   # its markup rendered, as in lessons
            if q.quoting:
                body.append(f"  (quoting {q.quoting})", style="dim")
            out.append(_pad(body, 6))
    if src.problems:
        out.append(_pad(Text("Problems", style="bold"), 2))
        for p in src.problems:
            t = Text()
            t.append(p["id"], style="bold")
            t.append(f" ({', '.join(p['rulesets'])})" if p["rulesets"] else "", style="dim")
            t.append(": " + p["summary"])
            out.append(_pad(t, 4))
    return out


def timeline_renderables(lib: Library) -> list[Any]:
    """The records of the game as a timeline (:meth:`Library.timeline`), each with its date as
    written, its own citation, what kind of record it is, its words (or that it is known only
    from a citation), who gives it, the reporter's own words where there are some, and our
    note ([] when there are none)."""
    from tutor.app.blocks import records_grid
    from tutor.teaching.blockdata import records_view
    views = records_view(lib)
    if not views:
        return []
    dated = [v for v in views if v["date"] != "undated"]
    span = f", {dated[0]['date']} to {dated[-1]['date']}" if dated else ""
    return [Text(f"The game on record{span}", style="bold underline"), records_grid(views)]


def record_json(lib: Library, r: Record) -> dict[str, Any]:
    """A record as a JSON-ready dict."""
    q = lib.quotation(r.quote) if r.quote else None
    rep = lib.quotation(r.report) if r.report else None
    return {"id": r.id, "kind": r.kind, "date": r.date.text, "date_form": r.date.form,
            "earliest": r.date.lo, "latest": r.date.hi, "author": r.author, "title": r.title,
            "page": r.page, "citation": r.citation_text, "quote": r.quote,
            "text": q.text if q else None, "given_by": lib.reporter(r),
            "report": rep.text if rep else None, "note": r.note, "file": r.source}


def source_json(src: Source) -> dict[str, Any]:
    """A source as a JSON-ready dict (citation fields, summary, quotations, problems)."""
    return {
        "id": src.id, "kind": src.kind, "citation": src.citation_text,
        "author": src.author, "title": src.title, "in": src.in_, "date": src.date,
        "published": src.published, "text": src.text, "summary": src.summary,
        "file": str(src.path), "rulesets": list(src.rulesets),
        "quotations": [{"id": q.id, "ref": q.ref, "text": q.text, "where": q.where,
                        "speaker": q.speaker, "in": q.in_, "citation": q.citation}
                       for q in src.quotations.values()],
        "records": [r.id for r in src.records],
        "problems": [{**p, "quotes": list(p["quotes"]), "rulesets": list(p["rulesets"])}
                     for p in src.problems],
    }
