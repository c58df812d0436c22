"""``laugh sources``: the sources with their citations, summaries and quotations, and the
attestations of the game's name from 1522 to c. 1825; ``laugh sources check`` checks that every
quotation stands verbatim in the collected texts.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.padding import Padding
from rich.text import Text

from tutor.engine.data import data_dir, source_texts_dir
from tutor.engine.sources import Library, Source, audit_quotations, default_library, display_path

#: The word that runs the quotation check instead of naming a source.
CHECK = "check"


def register(subparsers: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:
    """Add the ``sources`` command to ``subparsers`` (``parent`` holds the shared options)."""
    p = subparsers.add_parser(
        "sources", parents=[parent],
        help="the sources, their quotations, and the early records of the name",
        description="Show each source's citation, summary and quotations (with where they "
                    "stand), and the records of the game's name from 1522 to c. 1825. "
                    "'laugh sources check' checks every quotation against the source texts.")
    p.add_argument("id", nargs="?", metavar="ID|check",
                   help="one source to show, or 'check' to check every quotation")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``laugh sources``; raises UsageError (exit 2) for an unknown source id."""
    lib = default_library()
    if args.id == CHECK:
        return run_check(lib, args.json)
    selected = [lib.source(args.id)] if args.id else list(lib.sources.values())
    show_timeline = args.id is None or any(s.attestations for s in selected)
    if args.json:
        data: dict[str, Any] = {"sources": [source_json(s) for s in selected]}
        if show_timeline:
            data["attestations"] = [
                {**a, "text": lib.quotation(a["quote"]).text,
                 "citation": lib.quotation(a["quote"]).citation}
                for a in timeline(lib)]
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    console = Console(highlight=False)
    for i, src in enumerate(selected):
        if i:
            console.print()
        print_source(console, src)
    if show_timeline:
        console.print()
        print_timeline(console, lib)
    return 0


def run_check(lib: Library, as_json: bool = False) -> int:
    """Compare every quotation with its source text; print one line for each problem, each
    quotation not checked (no text), and each quotation that stands verbatim in more than one
    source text (a finding), then a summary.

    Returns 1 when a quotation is not verbatim or its text is missing, or a quotation of the
    project's own sources could not be checked; else 0 (a teacher's quotations without a text
    are listed, not failed; findings do not fail).
    """
    texts = source_texts_dir()
    audit = audit_quotations(lib, texts)
    builtin = data_dir("sources").resolve()
    own_unchecked = [ref for ref in audit.unchecked_refs
                     if lib.sources[ref.split(":", 1)[0]].path.resolve().parent == builtin]
    failed = bool(audit.problems or own_unchecked)
    if as_json:
        print(json.dumps({"texts": str(texts) if texts else None, "quotations": audit.total,
                          "verified": len(audit.verified), "problems": list(audit.problems),
                          "unchecked": list(audit.unchecked), "shared": list(audit.shared)},
                         indent=2, ensure_ascii=False))
        return 1 if failed else 0
    for line in audit.problems + audit.unchecked + audit.shared:
        print(line)
    where = f" in {texts}" if texts else " (no source-texts folder: set LAUGH_SOURCE_TEXTS)"
    if failed:
        parts = []
        if audit.problems:
            parts.append(f"{len(audit.problems)} could not be checked or are not verbatim{where}")
        if own_unchecked:
            parts.append(f"{len(own_unchecked)} of the project's own have no text to be "
                         "checked against")
        print(f"laugh: of {audit.total} quotations, {'; '.join(parts)}", file=sys.stderr)
        return 1
    n = len(audit.verified)
    head = f"all {n}" if n == audit.total else f"{n} of {audit.total}"
    tail = f"; {len(audit.unchecked)} not checked (no text)" if audit.unchecked else ""
    shared = (f"; {len(audit.shared)} stand{'s' if len(audit.shared) == 1 else ''} in more than "
              "one source text" if audit.shared else "")
    print(f"OK: {head} quotations of {len(lib.sources)} sources verified verbatim{where} "
          f"(whitespace normalised){tail}{shared}")
    return 0


def _pad(renderable: Any, left: int) -> Padding:
    return Padding(renderable, (0, 0, 0, left), expand=False)


def print_source(console: Console, src: Source) -> None:
    """Print one source: citation, kind, text file, rulesets, summary, quotations, problems."""
    head = Text()
    head.append(src.id, style="bold")
    head.append(f"  ({src.kind})", style="dim")
    console.print(head)
    console.print(_pad(Text(src.citation_text), 2))
    meta = Text()
    if src.text:
        meta.append("Text: ", style="bold")
        meta.append(src.text + "   ")
    meta.append("Rulesets: ", style="bold")
    meta.append(", ".join(src.rulesets) if src.rulesets else "none of its own")
    meta.append("   File: ", style="bold")
    meta.append(display_path(src.path))
    console.print(_pad(meta, 2))
    console.print(_pad(Text(src.summary), 2))
    if src.quotations:
        console.print(_pad(Text(f"Quotations ({len(src.quotations)})", style="bold"), 2))
        for q in src.quotations.values():
            t = Text()
            t.append(q.id, style="cyan")
            t.append(f"  {q.where}", style="dim")
            if q.in_ and q.in_ != src.text:
                t.append(f"  [in {q.in_}]", style="dim")
            console.print(_pad(t, 4))
            body = Text(f"\u201c{q.text}\u201d", style="italic")
            if q.quoting:
                body.append(f"  (quoting {q.quoting})", style="dim")
            console.print(_pad(body, 6))
    if src.problems:
        console.print(_pad(Text("Problems", style="bold"), 2))
        for p in src.problems:
            t = Text()
            t.append(p["id"], style="bold")
            t.append(f" ({', '.join(p['rulesets'])})" if p["rulesets"] else "", style="dim")
            t.append(": " + p["summary"])
            console.print(_pad(t, 4))


def timeline(lib: Library) -> list[dict[str, Any]]:
    """Every source's attestations, dated ones by year, then the undated."""
    items = [a for s in lib.sources.values() for a in s.attestations]
    return sorted(items, key=lambda a: (a["year"] is None, a["year"] or 0))


def print_timeline(console: Console, lib: Library) -> None:
    """Print the attestations of the name as a timeline, with each quotation and note."""
    items = timeline(lib)
    if not items:
        return
    dated = [a for a in items if a["year"] is not None]
    span = f", {dated[0]['date']} to {dated[-1]['date']}" if dated else ""
    console.print(Text(f"The name on record{span}", style="bold underline"))
    width = max(len(a["date"]) for a in items) + 2
    for a in items:
        q = lib.quotation(a["quote"])
        line = Text()
        line.append(a["date"].ljust(width), style="bold")
        line.append(f"{a['author']}, ")
        line.append(a["work"], style="italic")
        console.print(_pad(line, 2))
        console.print(_pad(Text(f"\u201c{q.text}\u201d", style="italic"), 2 + width))
        src = Text(f"as given by {q.cited_in}", style="dim")
        console.print(_pad(src, 2 + width))
        if a["note"]:
            console.print(_pad(Text(a["note"]), 2 + width))


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
        "attestations": src.attestations,
        "problems": [{**p, "quotes": list(p["quotes"]), "rulesets": list(p["rulesets"])}
                     for p in src.problems],
    }
