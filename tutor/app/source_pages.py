"""What ``laugh sources [ID]`` shows, as rich renderables (:func:`sources_view`): the command
prints them and the home screen's sources view shows them a screenful at a time."""

from __future__ import annotations

from pathlib import Path

from rich.console import RenderableType
from rich.padding import Padding
from rich.text import Text

from tutor.engine.data import data_dir
from tutor.engine.sources import Library, Source, display_path
from tutor.puzzles.quoted import quoted_text


def sources_view(lib: Library, source_id: str | None = None) -> list[RenderableType]:
    """What ``laugh sources [ID]`` shows, as rich renderables: source ``source_id`` (every
    source when None) and, when all are shown or the one shown has records, the timeline of
    the name.  Raises :class:`tutor.engine.errors.UsageError` for an unknown source id."""
    selected = [lib.source(source_id)] if source_id else list(lib.sources.values())
    out: list[RenderableType] = []
    for i, src in enumerate(selected):
        if i:
            out.append(Text(""))
        out += source_renderables(src)
    if source_id is None or any(s.records for s in selected):
        timeline_view = timeline_renderables(lib)
        if timeline_view:
            out += [Text("")] + timeline_view
    return out


def _pad(renderable: RenderableType, left: int) -> Padding:
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


def source_renderables(src: Source) -> list[RenderableType]:
    """One source as renderables: citation, kind, text file, rulesets, summary, quotations,
    problems."""
    out: list[RenderableType] = []
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
            body = quoted_text(q.text)  # its markup rendered, as in lessons
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


def timeline_renderables(lib: Library) -> list[RenderableType]:
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
