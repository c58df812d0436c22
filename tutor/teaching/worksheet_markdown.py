"""Worksheet Markdown: the pieces a Markdown handout (a worksheet, the class pack) is built of.

Puzzle text and quotations on one line (code spans kept as code, the words escaped:
:func:`tutor.teaching.prose.md_escape`), tables, block quotations, and the lesson's blocks, the
records of the game and a score sheet as Markdown lines.  Split from
:mod:`tutor.teaching.worksheet`, which re-exports every public name here and puts the lines
together (``render_markdown``).
"""

from __future__ import annotations

import re

from tutor.puzzles.quoted import quote_spans
from tutor.teaching.blockdata import BlockView, RecordView
from tutor.teaching.prose import md_code as _md_code
from tutor.teaching.prose import md_escape
from tutor.teaching.scoresheet import Sheet

__all__ = [
    "PAGE_BREAK",
    "block_markdown",
    "md_fence",
    "md_inline",
    "md_paragraphs",
    "md_quotation",
    "md_table",
    "quote_markdown",
    "records_markdown",
    "sheet_markdown",
]


def md_inline(text: str) -> str:
    """Puzzle text as Markdown on one line: its code spans kept as code, the rest escaped
    (:func:`md_escape`)."""
    from tutor.teaching.html import code_spans

    out: list[str] = []
    for w, code in code_spans(" ".join(text.split())):
        if code:
            out.append(_md_code(w))
        elif w.strip():
            lead = " " if w[:1].isspace() else ""
            trail = " " if w[-1:].isspace() else ""
            out.append(lead + md_escape(w, start=not out) + trail)
        else:
            out.append(w)
    return "".join(out)


def quote_markdown(text: str) -> str:
    """A quotation's stored text as Markdown on one line: its bold, emphasis and code as
    ``**``, ``*`` and backticks; its words escaped (:func:`md_escape`)."""
    out = []
    for span in quote_spans(text):
        if span.code:
            out.append(_md_code(span.text))
            continue
        words = span.text
        core = words.strip()
        if not core:
            out.append(words)
            continue
        lead = " " if words[:1].isspace() else ""
        trail = " " if words[-1:].isspace() else ""
        piece = md_escape(core, start=False)  # after an opening quotation mark
        if span.italic:
            piece = f"*{piece}*"
        if span.bold:
            piece = f"**{piece}**"
        out.append(lead + piece + trail)
    return "".join(out)


#: The page break of a Markdown worksheet (kept by Markdown-to-HTML and Markdown-to-PDF tools).
PAGE_BREAK = '<div style="page-break-before: always"></div>'


def md_paragraphs(text: str) -> list[str]:
    """Paragraphs (blank-line separated) of lines (code spans kept, the rest escaped), each line
    ending in a hard break; a run of lines that start ``- `` (an explanation's list of moves)
    as a Markdown list, apart from the lines around it."""
    out: list[str] = []
    for para in text.split("\n\n"):
        runs: list[tuple[bool, list[str]]] = []
        for line in para.splitlines():
            if not line.strip():
                continue
            item = line.lstrip().startswith("- ")
            if runs and runs[-1][0] == item:
                runs[-1][1].append(line)
            else:
                runs.append((item, [line]))
        for item, lines in runs:
            if item:
                out += [f"- {md_inline(line.lstrip()[2:])}" for line in lines] + [""]
            else:
                body = [md_inline(line) for line in lines]
                out += [line + "  " for line in body[:-1]] + [body[-1], ""]
    return out


def md_fence(text: str) -> str:
    """``text`` (a position) in a ``text`` code fence longer than any backtick run in it."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def md_table(head: list[str], rows: list[list[str]], caption: str | None = None) -> list[str]:
    """A Markdown table of escaped cells (and an escaped caption line in italics after it)."""
    out = [
        "| " + " | ".join(md_escape(h, start=False) or " " for h in head) + " |",
        "|" + "---|" * len(head),
    ]
    out += [
        "| " + " | ".join(md_escape(str(c), start=False) or " " for c in r) + " |" for r in rows
    ]
    if caption:
        out += ["", f"*{md_escape(caption)}*"]
    return out + [""]


def md_quotation(text: str, cite: str) -> list[str]:
    """A quotation as a Markdown block quotation: its words (own markup kept) and citation."""
    return [f"> “{quote_markdown(text)}”  ", f"> — {md_escape(cite)}", ""]


def block_markdown(b: BlockView) -> list[str]:
    """A block view (:func:`tutor.teaching.blockdata.block_view`) as Markdown lines."""
    if b["kind"] == "quote":
        return [line for text, cite in b["quotes"] for line in md_quotation(text, cite)]
    if b["kind"] == "rules":
        rows = [
            [label] + [v + (f" ({st})" if st in ("read", "chosen") else "") for v, st in cells]
            for label, cells in b["rows"]
        ]
        return md_table([""] + b["columns"], rows, b["caption"])
    if b["kind"] == "odds":
        sentence = b["sentence"]
        if sentence:
            return [f"**{md_escape(sentence)}**", ""]
        return md_table(b["columns"], b["rows"], "Exact odds (from the engine)")
    if b["kind"] == "simulate":
        return md_table(
            ["seat", "mean", "±", "last in"], [[str(c) for c in r] for r in b["seats"]], b["title"]
        ) + [f"**{md_escape(b['sentence'])}**", ""]
    if b["kind"] == "skill":
        return md_table(b["columns"], b["rows"], b["title"]) + [md_escape(b["note"]), ""]
    if b["kind"] == "cards":
        return md_table(["", "cards"], [list(r) for r in b["rows"]], b.get("caption"))
    if b["kind"] == "records":
        return records_markdown(b["records"]) + (
            [md_escape(b["summary"]), ""] if b.get("summary") else []
        )
    if b["kind"] == "puzzle" and b["numbers"]:
        nums = b["numbers"]
        return [
            f"*→ Puzzle{'s' if len(nums) > 1 else ''} {', '.join(map(str, nums))}, on the "
            "puzzle pages below.*",
            "",
        ]
    return []


def records_markdown(items: list[RecordView]) -> list[str]:
    """The records of the game (:func:`tutor.teaching.blockdata.records_view`) as a Markdown
    list: each date, its own citation and kind, its words or that it is cited only, who gives
    it, the reporter's words, and our note (each a paragraph of the item)."""
    out = []
    for r in items:
        parts = [
            f"- **{md_escape(r['date'])}**: *{md_escape(r['citation'])}* "
            f"({md_escape(r['kind_words'])})"
        ]
        parts.append(
            f"  > “{quote_markdown(r['words'])}”"
            if r["words"] is not None
            else "  *cited, with none of its words given*"
        )
        if r["given_by"]:
            parts.append(f"  as given by {md_escape(r['given_by'])}")
        if r["report"]:
            parts.append(
                f"  {md_escape(r['report'][1])} writes: “{quote_markdown(r['report'][0])}”"
            )
        if not r["checked"]:
            parts.append("  cited, not checked: no text here to check its words against")
        if r["note"]:
            parts.append(f"  *{md_escape(r['note'])}*")
        for part in parts:
            out += [part, ""]
    return out


def sheet_markdown(s: Sheet) -> list[str]:
    """A score sheet (:func:`tutor.teaching.scoresheet.sheet_layout`) as Markdown."""
    out = [
        f"## {md_escape(s['title'])}",
        "",
        f"Name: {md_escape(s['name']) if s['name'] else '______________________'}  "
        "Livery: ______________",
        "",
    ]
    for t in s["tables"]:
        head = [h for r in t["rounds"] for h in ("Game Number", f"Round {r} scores")]
        rows = [
            [x for cell in row for x in ((str(cell["number"]), cell["text"]) if cell else ("", ""))]
            for row in t["rows"]
        ]
        rows.append(
            [
                x
                for total in t["totals"]
                for x in ("Total score", "" if total is None else str(total))
            ]
        )
        out += md_table(head, rows)
    cumulative = "______" if s["cumulative"] is None else str(s["cumulative"])
    return out + [f"**Cumulative Score over {md_escape(s['over'])}: {cumulative}**", ""]
