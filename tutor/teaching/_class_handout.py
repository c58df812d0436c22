"""The parts of the class pack made for students (see :mod:`tutor.teaching.classpack`): the
passages for groups to read, cut from the source texts exactly as their files hold them, the
notes on their markup, the glossary of the game's words, and the contested rules in the
sources' words without our readings."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, TypedDict

from tutor.engine.errors import DataError
from tutor.engine.sources import source_text
from tutor.teaching._class_data import GlossaryEntry, Passage, PassageEntry
from tutor.teaching._class_sources import Contested, Shown

__all__ = [
    "MAX_PASSAGE",
    "GlossaryItem",
    "Passage",
    "StudentsContested",
    "StudentsSource",
    "glossary",
    "markup_notes",
    "passages",
    "students_contested",
]

#: The longest passage (characters) a handout prints.
MAX_PASSAGE = 5000

#: Markup a collected text may hold, each with what it is (ours), in the order they are listed.
_MARKUP: list[tuple[re.Pattern, Any]] = [
    (
        re.compile(r"\{%-?\s*a\s+([^,%]*?)\s*,\s*(.*?)\s*-?%\}"),
        lambda m: (
            f"a template tag of the compendium's web site: its page shows the words "
            f"“{m.group(2)}” as a link to {m.group(1).strip()} (here, its glossary)."
        ),
    ),
    (
        re.compile(r"\[@([A-Za-z][A-Za-z0-9_]*)([^\]]*)\]"),
        lambda m: (
            f"a citation in the notation of the file (Pandoc's): it points to the work "
            f"filed as {m.group(1)}"
            + (f", at {m.group(2).strip(' ,')}" if m.group(2).strip(" ,") else "")
            + ". How the page prints it we do not know, so it is kept as it stands."
        ),
    ),
    (
        re.compile(r"<!--.*?-->", re.S),
        lambda m: "an HTML comment: a note in the file that the page does not show.",
    ),
    (
        re.compile(r"<(cite|i|em)>(.*?)</\1>"),
        lambda m: f"an HTML tag: the page shows “{m.group(2)}” in italics, as the title of a work.",
    ),
    (
        re.compile(r"<(?!/?(?:cite|i|em)\b)([a-z]+)[^>]*>"),
        lambda m: f"an HTML tag ({m.group(1)}): it shapes the page and is not shown.",
    ),
    (
        re.compile(r"\*\*([^*]+)\*\*"),
        lambda m: f"Markdown for bold type: the page shows “{m.group(1)}” in bold.",
    ),
    (
        re.compile(r"(?<![\w*])_([^_\n]+)_(?!\w)"),
        lambda m: f"Markdown for emphasis: the page shows “{m.group(1)}” in italics.",
    ),
    (
        re.compile(r"(?<![\w*])\*([^*\n]+)\*(?![\w*])"),
        lambda m: (
            f"an asterisk each side of “{m.group(1)}”: emphasis written in plain text, as a "
            "text without italics marks it."
        ),
    ),
    (
        re.compile(r"^(#{1,6}) (.+)$", re.M),
        lambda m: f"Markdown for a heading: the page shows “{m.group(2)}” as a heading.",
    ),
]


class GlossaryItem(TypedDict):
    """A word of the game with its meaning (ours) and its quotations (:func:`glossary`)."""

    term: str
    meaning: str
    quoted: list[Shown]


class StudentsSource(TypedDict):
    """A source's quotations on a contested rule, for students."""

    who: str
    quotes: list[Shown]


class StudentsContested(TypedDict):
    """A contested rule for students (:func:`students_contested`)."""

    label: str
    meaning: str
    sources: list[StudentsSource]


def markup_notes(text: str) -> list[tuple[str, str]]:
    """The markup in ``text``, each kind once: ``(the markup as the file holds it, what it is
    in our words)``, in the order of :data:`_MARKUP`."""
    out = []
    for rx, explain in _MARKUP:
        m = rx.search(text)
        if m:
            out.append((m.group(0), explain(m)))
    return out


def passages(library, entries: Sequence[PassageEntry], where) -> list[Passage]:
    """The class data's ``passages``, each cut from its source's text from its ``from`` words
    to the end of its ``to`` words, exactly as the file holds them: ``{title, source, who,
    citation, text, markup, note}`` (``markup`` its :func:`markup_notes`).  ``where(i, key)``
    names an entry's line for an error.  Raises DataError ``FILE:LINE: passages.I.KEY: ...``
    for an unknown source, a source without a text, words not found, or a passage longer than
    :data:`MAX_PASSAGE`."""
    out: list[Passage] = []
    for i, e in enumerate(entries):
        src = library.sources.get(e.source)
        if src is None:
            raise DataError(
                f"{where(i, 'source')}: unknown source {e.source!r} "
                f"(sources: {', '.join(library.sources)})"
            )
        raw = source_text(src)
        if raw is None:
            raise DataError(f"{where(i, 'source')}: {src.id} has no text to cut a passage from")
        raw = raw.replace("\r\n", "\n")
        start = raw.find(e.start)
        if start < 0:
            raise DataError(f"{where(i, 'from')}: {e.start!r} does not stand in {src.text}")
        end = raw.find(e.to, start)
        if end < 0:
            raise DataError(
                f"{where(i, 'to')}: {e.to!r} does not stand in {src.text} after the opening words"
            )
        text = raw[start : end + len(e.to)]
        if len(text) > MAX_PASSAGE:
            raise DataError(
                f"{where(i, 'to')}: the passage is {len(text)} characters, more "
                f"than {MAX_PASSAGE}: end it sooner"
            )
        text = "\n".join(line.rstrip() for line in text.split("\n"))
        text = re.sub(r"\n{3,}", "\n\n", text)
        out.append(
            {
                "title": e.title,
                "source": src.id,
                "who": src.who,
                "citation": src.citation_text,
                "text": text,
                "markup": markup_notes(text),
                "note": e.note,
            }
        )
    return out


def glossary(library, entries: Sequence[GlossaryEntry]) -> list[GlossaryItem]:
    """The class data's glossary: ``{term, meaning, quoted: [(text, short citation)]}``."""
    from tutor.teaching._class_sources import _short

    return [
        {
            "term": e.term,
            "meaning": e.meaning,
            "quoted": [(q.text, _short(library, q)) for q in library.quotations_of(e.quotes)],
        }
        for e in entries
    ]


def students_contested(contested: list[Contested]) -> list[StudentsContested]:
    """The contested rules for students: each rule's label and meaning, and each source's
    quotations on it (``{who, quotes}``, one entry a source: the first quotation of each of its
    readings, once), without the values, statuses and our readings the teacher's notes give
    (those are the answers)."""
    out: list[StudentsContested] = []
    for c in contested:
        by: dict[str, StudentsSource] = {}
        for r in c["readings"]:
            got = by.setdefault(r["source"], {"who": r["who"], "quotes": []})
            for q in r["quotes"][:1]:
                if q not in got["quotes"]:
                    got["quotes"].append(q)
        sources = [v for v in by.values() if v["quotes"]]
        if len(sources) >= 2:
            out.append({"label": c["label"], "meaning": c["meaning"], "sources": sources})
    return out
