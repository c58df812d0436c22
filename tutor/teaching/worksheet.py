"""Printable worksheets: the lesson itself, its puzzles, and the answer key on its own page.

``laugh worksheet LESSON --seed S --out FILE.html`` (or ``.md``) writes the lesson as it reads
on screen, its explanations, tables, figures and quotations (every figure from the engine:
:mod:`tutor.teaching.blockdata`), then the same puzzles that ``laugh lesson LESSON --seed S``
poses (see :func:`tutor.teaching.lessons.puzzle_seed`), a blank score sheet for a ruleset with
a match format that its puzzles are set under (lesson 11: the Inter-Livery sheet), and the
answer key.

The HTML is a Jinja2 template (``worksheet.html.j2``, :mod:`tutor.teaching.html`, autoescaped);
the lesson's prose is CommonMark with raw HTML off (:mod:`tutor.teaching.prose`), so no lesson
file can inject markup into the handout.  Two kinds of markup are rendered, never passed
through: a quotation's own bold, emphasis and code (its source's Markdown or HTML, read by
:func:`tutor.puzzles.quoted.quote_spans`), and the code spans of a puzzle's question and
explanation.  The Markdown is escaped the same way (entities and backslash escapes,
positions in a fence longer than any backtick run).

Printed (``render_html`` in a browser, or Chromium's ``--print-to-pdf``), the title, objectives
and the lesson come first and fill the first pages; then the puzzles, two or three to a page
(:func:`page_groups`), none split across pages; then any score sheet; then the answer key on a
page of its own.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.text import Text

from tutor.engine.atomic import write_atomic
from tutor.engine.errors import UsageError
from tutor.engine.safetext import printable
from tutor.engine.sources import default_library
from tutor.puzzles import generate
from tutor.puzzles.model import definition
from tutor.puzzles.quoted import quote_spans
from tutor.puzzles.render import plain_suits, render_puzzle, shown_cards
from tutor.teaching.html import inline_markup, quote_markup, render
from tutor.teaching.lessons import Block, Lesson, Segment, puzzle_seed
from tutor.teaching.prose import md_code as _md_code
from tutor.teaching.prose import md_escape, prose_html, prose_markdown

__all__ = ["MAX_PER_PAGE", "PAGE_BREAK", "PAGE_LINES", "Worksheet", "WorksheetPuzzle",
           "block_markdown", "build", "handout_format", "html_inline", "key_markdown",
           "md_document", "md_escape", "md_inline", "md_quotation", "md_table", "page_groups",
           "puzzle_markdown", "quote_html", "quote_markdown", "render_html", "render_markdown",
           "sheet_markdown", "worksheet_puzzles", "write_worksheet"]


@dataclass
class WorksheetPuzzle:
    """One puzzle as printed: ``number`` (1-based), ``position`` (the position as plain text, as
    the terminal shows it, without its title lines and the question), ``question`` (its code
    spans in backticks, as the puzzle writes it), ``answer`` (as a learner would type it),
    ``explanation``, ``quotes`` (stored quotation text, citation) pairs, ``id``, and ``about``
    (one line for the heading: the kind of puzzle, the ruleset and players, the difficulty)."""

    number: int
    position: str
    question: str
    answer: str
    explanation: str
    quotes: list[tuple[str, str]]
    id: str
    about: str = ""

    @property
    def lines(self) -> int:
        """The printed height of the puzzle in lines of its position (see :data:`PAGE_LINES`):
        the position, four for every three lines of the question (9pt at 1.25, about 100
        characters a line), and a fixed allowance for the heading and the answer space."""
        question = sum(max(1, -(-len(line) // 100)) for line in self.question.splitlines() if
                       line.strip())
        return len(self.position.splitlines()) + -(-4 * question // 3) + _PUZZLE_OVERHEAD


@dataclass
class Worksheet:
    """What a worksheet holds: the lesson's number, title, objectives, the seed, its quotations as
    (stored text, citation) pairs, its puzzles; ``items``, the lesson's pages, each a list of
    ``{"kind": "prose", "text": CommonMark}`` and block views
    (:func:`tutor.teaching.blockdata.block_view`); and ``score_sheets``, blank sheets
    (:func:`tutor.teaching.scoresheet.blank_sheet`, with ``ruleset_title``) for the rulesets
    with a match format that its puzzles are set under."""

    lesson_id: str
    number: int
    title: str
    objectives: list[str]
    seed: int
    quotations: list[tuple[str, str]]
    puzzles: list[WorksheetPuzzle]
    items: list[list[dict[str, Any]]] = field(default_factory=list)
    score_sheets: list[dict[str, Any]] = field(default_factory=list)
    instructions: list[str] = field(default_factory=list)

    @property
    def instruction_lines(self) -> int:
        """The printed height of :attr:`instructions` in the units of
        :attr:`WorksheetPuzzle.lines`: a line of 9.5pt prose at 1.3 (about 115 characters) is
        about one and a half lines of the positions' type, and a paragraph's spacing over half
        one.  (The heading above them is counted apart: :data:`_HEADING_LINES`.)"""
        paras = [p for text in self.instructions for p in _without_heading(text).split("\n\n")
                 if p.strip()]
        return round(sum(1.45 * -(-len(" ".join(p.split())) // 115) + 0.6 for p in paras))

    @property
    def pages(self) -> list[list[WorksheetPuzzle]]:
        """The puzzles as printed pages: see :func:`page_groups` (the first page also holds the
        instructions)."""
        return page_groups(self.puzzles, first_used=self.instruction_lines + _HEADING_LINES)


#: How many lines of puzzles fit on a printed page, counted as :attr:`WorksheetPuzzle.lines`
#: (lines of 7.5pt monospace at 1.15, the print CSS of :func:`render_html`).  Measured with
#: Chromium on US Letter with 12 mm margins (A4 holds more): three puzzles of 83 such lines in
#: all fit a page and 85 do not; on the first puzzle page, under the heading (counted as
#: :data:`_HEADING_LINES`) and the instructions, 82 fit and 83 do not.
#: ``tests/teaching/test_worksheet.py`` prints worksheets either side of the edge to check it.
PAGE_LINES = 83
#: The first puzzle page's heading, in those lines, beside :attr:`Worksheet.instruction_lines`.
_HEADING_LINES = 1
#: Lines allowed for a puzzle's heading, kind line, answer space and spacing (about 70pt).
_PUZZLE_OVERHEAD = 8
#: Puzzles to a printed page: at most three, and two wherever three would not fit.
MAX_PER_PAGE = 3


def page_groups(puzzles: list[WorksheetPuzzle], page_lines: int = PAGE_LINES,
                per_page: int = MAX_PER_PAGE, first_used: int = 0) -> list[list[WorksheetPuzzle]]:
    """The puzzles, in order, grouped into printed pages of two or three.

    A page takes the next puzzle while it holds fewer than ``per_page`` and the puzzles'
    estimated heights (:attr:`WorksheetPuzzle.lines`) fit ``page_lines`` (on the first page,
    less ``first_used`` lines already taken by the instructions); a last page of one puzzle
    takes the last puzzle of a page of three before it when both fit.  So a page holds one
    puzzle only when the next one would not fit beside it (or there is only one).
    """
    pages: list[list[WorksheetPuzzle]] = []
    page: list[WorksheetPuzzle] = []
    used = first_used
    for p in puzzles:
        if page and (len(page) >= per_page or used + p.lines > page_lines):
            pages.append(page)
            page, used = [], 0
        page.append(p)
        used += p.lines
    if page:
        pages.append(page)
    if len(pages) >= 2 and len(pages[-1]) == 1 and len(pages[-2]) > 2:
        moved = pages[-2][-1]
        if moved.lines + pages[-1][0].lines <= page_lines:
            pages[-2] = pages[-2][:-1]
            pages[-1] = [moved] + pages[-1]
    return pages


def _plain(renderable, width: int = 76) -> str:
    """A rich renderable as plain text (no colour, no escape codes)."""
    buf = io.StringIO()
    Console(file=buf, width=width, no_color=True, color_system=None, highlight=False,
            force_terminal=False, legacy_windows=False, markup=False, emoji=False,
            ).print(renderable)
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines()).strip("\n")


def _split_puzzle(renderable, title: str, question: str):
    """The position part of the puzzle's renderable, as :func:`tutor.puzzles.render.render_puzzle`
    draws it (title lines, position, question): without the title lines when the first part
    starts with ``title``, and without the question when it is the last part.  Returns
    ``(renderable, title_removed, question_removed)``."""

    def blank(part) -> bool:
        return isinstance(part, Text) and not part.plain.strip()

    parts = list(getattr(renderable, "renderables", []))
    if not parts:
        return renderable, False, False
    head = isinstance(parts[0], Text) and parts[0].plain.startswith(title)
    if head:
        parts = parts[1:]
        while parts and blank(parts[0]):
            parts.pop(0)
    tail = bool(parts) and isinstance(parts[-1], Text) and \
        parts[-1].plain.strip() in (question.strip(), question.replace("`", "").strip())
    if tail:
        parts = parts[:-1]
        while parts and blank(parts[-1]):
            parts.pop()
    return Group(*parts), head, tail


def build(lesson: Lesson, seed: int, library=None, symbols: bool = True) -> Worksheet:
    """Generate the worksheet of ``lesson`` for ``seed`` (the puzzles of ``laugh lesson --seed``).

    ``library`` defaults to :func:`tutor.engine.sources.default_library`; ``symbols`` writes suits as
    ♣♦♥♠ (else letters).  The lesson's blocks are worked out as on screen (a ``simulate`` block
    from its cached study, or run now: about a second for 2,000 deals).  Raises what
    :func:`tutor.puzzles.generate` raises, and what the engine raises for a block's figures.
    """
    if library is None:
        library = default_library()

    generated = [generate(b.data["kind"], ruleset=b.data["ruleset"], players=b.data["players"],
                          seed=puzzle_seed(seed, lesson.id, b.index, n),
                          difficulty=b.data["difficulty"])
                 for b, n in lesson.puzzle_slots()]
    puzzles = worksheet_puzzles(generated, library, symbols)

    def quote(ref: str) -> tuple[str, str]:
        q = library.quotation(ref)
        return q.text, f"{q.citation} ({q.where})"

    items, instructions = lesson_items(lesson, library, symbols)
    return Worksheet(lesson.id, lesson.number, lesson.title, list(lesson.objectives), seed,
                     [quote(r) for r in lesson.quotes], puzzles, items,
                     blank_sheets(lesson, library), instructions)


def worksheet_puzzles(generated: list, library, symbols: bool = True) -> list[WorksheetPuzzle]:
    """Puzzles (:class:`tutor.puzzles.Puzzle`) as printed, numbered from 1: each position as the
    terminal shows it, its question, answer, explanation and the quotations it cites."""
    puzzles: list = []
    for p in generated:
        question = plain_suits(p.question, symbols)
        title = definition(p.kind).title
        shown, headless, apart = _split_puzzle(render_puzzle(p, symbols=symbols), title,
                                               question)
        position = _plain(shown)
        stars = ("★" * p.difficulty + "☆" * (5 - p.difficulty)) if symbols else \
            f"{p.difficulty}/5"
        # a puzzle about the sources names no ruleset before its answer (hide_id): its
        # title may give the answer away, or name the source that is the answer
        under = "" if p.data.get("hide_id") else \
            f"{library.rulesets[p.ruleset].title}, {p.players} players · "
        about = f"{title} · {under}difficulty {stars}" if headless else ""
        quotes = []
        for ref in p.quotes:
            try:
                q = library.quotation(ref)
            except KeyError:
                continue
            quotes.append((q.text, f"{q.citation} ({q.where})"))
        puzzles.append(WorksheetPuzzle(len(puzzles) + 1, position, question if apart else "",
                                       shown_cards(p.expected_answer_text(), symbols), p.explanation,
                                       quotes, p.id,
                                       about))
    return puzzles


def lesson_items(lesson: Lesson, library,
                 symbols: bool = True) -> tuple[list[list[dict[str, Any]]], list[str]]:
    """The lesson's pages for paper: prose as ``{"kind": "prose", "text": ...}``, each block as
    its :func:`tutor.teaching.blockdata.block_view` (a puzzle block as the numbers of its
    puzzles on the worksheet); and the instructions for the puzzles: the prose of a page that
    holds nothing but prose and then puzzles (the course's closing "Puzzles" page), printed
    above the puzzles instead of on a page of its own."""
    from tutor.teaching.blockdata import block_view
    numbers: dict[int, list[int]] = {}
    for i, (block, _) in enumerate(lesson.puzzle_slots(), 1):
        numbers.setdefault(block.index, []).append(i)
    pages = []
    instructions: list[str] = []
    for page in lesson.pages:
        kinds = [getattr(item, "kind", "prose") for item in page]
        first_puzzle = kinds.index("puzzle") if "puzzle" in kinds else None
        if first_puzzle is not None and all(k == "prose" for k in kinds[:first_puzzle]) and \
                all(k == "puzzle" for k in kinds[first_puzzle:]):
            instructions += [item.text for item in page[:first_puzzle]
                             if isinstance(item, Segment) and item.text.strip()]
            continue
        items: list[dict[str, Any]] = []
        for item in page:
            if isinstance(item, Block):
                items.append(block_view(item, library, symbols, numbers.get(item.index)))
            elif item.text.strip():
                items.append({"kind": "prose", "text": item.text})
        if items:
            pages.append(items)
    return pages, instructions


def blank_sheets(lesson: Lesson, library) -> list[dict[str, Any]]:
    """A blank score sheet for each ruleset with a match format that the lesson's score-sheet
    puzzle blocks name (lesson 11: the Inter-Livery sheet), for its smallest player count: a
    sheet only where the lesson asks the learner to fill one in (a blank sheet beside other
    puzzles would answer their questions about the match)."""
    from tutor.teaching.scoresheet import blank_sheet
    out = []
    seen: set[str] = set()
    for block in lesson.blocks("puzzle"):
        rid = block.data.get("ruleset")
        if block.data["kind"].partition("/")[0].partition("@")[0] != "score-sheet":
            continue
        if not rid or rid in seen:
            continue
        seen.add(rid)
        rs = library.ruleset(rid)
        if rs.match_format:
            players = block.data.get("players") or min(rs.player_counts)
            out.append({**blank_sheet(rs, players), "ruleset_title": rs.title})
    return out


# --------------------------------------------------------------------------------------------
# Text with markup: quotations (their source's Markdown and HTML) and puzzle text (code spans)


def html_inline(text: str) -> str:
    """Puzzle text (a question, an explanation line) as HTML: its code spans as ``<code>``,
    everything else escaped (:func:`tutor.teaching.html.inline_markup`)."""
    return str(inline_markup(text))


def quote_html(text: str) -> str:
    """A quotation's stored text as HTML: its own bold, emphasis (and cited titles) and code as
    ``<strong>``, ``<em>`` and ``<code>``; the words escaped; no other markup from the source
    (:func:`tutor.teaching.html.quote_markup`)."""
    return str(quote_markup(text))


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
        piece = md_escape(core, start=False)      # after an opening quotation mark
        if span.italic:
            piece = f"*{piece}*"
        if span.bold:
            piece = f"**{piece}**"
        out.append(lead + piece + trail)
    return "".join(out)


# --------------------------------------------------------------------------------------------
# HTML


def render_html(ws: Worksheet, symbols: bool = True) -> str:
    """The worksheet as a standalone HTML page (``worksheet.html.j2``); every text from data is
    escaped, and only a quotation's own bold, emphasis and code become tags.

    Printed, the first pages hold the title, objectives and the lesson; the puzzles follow in
    ``<section class="sheet">`` pages of two or three (:func:`page_groups`), each starting a
    new page and no puzzle split across pages; then any blank score sheet; the answer key is a
    last ``<section class="key">`` on a page of its own.
    """
    items = [[dict(it, html=prose_html(it["text"], symbols)) if it["kind"] == "prose" else it
              for it in page] for page in ws.items]
    instructions = [prose_html(_without_heading(text), symbols) for text in ws.instructions]
    return render("worksheet.html.j2", ws=ws, title=_title(ws), items=items, pages=ws.pages,
                  instructions=instructions)


# --------------------------------------------------------------------------------------------
# Markdown

#: The page break of a Markdown worksheet (kept by Markdown-to-HTML and Markdown-to-PDF tools).
PAGE_BREAK = '<div style="page-break-before: always"></div>'


def _md_paragraphs(text: str) -> list[str]:
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


def _fence(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def md_table(head: list[str], rows: list[list[str]], caption: str | None = None) -> list[str]:
    """A Markdown table of escaped cells (and an escaped caption line in italics after it)."""
    out = ["| " + " | ".join(md_escape(h, start=False) or " " for h in head) + " |",
           "|" + "---|" * len(head)]
    out += ["| " + " | ".join(md_escape(str(c), start=False) or " " for c in r) + " |"
            for r in rows]
    if caption:
        out += ["", f"*{md_escape(caption)}*"]
    return out + [""]


def md_quotation(text: str, cite: str) -> list[str]:
    """A quotation as a Markdown block quotation: its words (own markup kept) and citation."""
    return [f"> “{quote_markdown(text)}”  ", f"> — {md_escape(cite)}", ""]


def block_markdown(b: dict[str, Any]) -> list[str]:
    """A block view (:func:`tutor.teaching.blockdata.block_view`) as Markdown lines."""
    kind = b["kind"]
    if kind == "quote":
        return [line for text, cite in b["quotes"] for line in md_quotation(text, cite)]
    if kind == "rules":
        rows = [[label] + [v + (f" ({st})" if st in ("read", "chosen") else "")
                           for v, st in cells] for label, cells in b["rows"]]
        return md_table([""] + b["columns"], rows, b["caption"])
    if kind == "odds":
        if b.get("sentence"):
            return [f"**{md_escape(b['sentence'])}**", ""]
        return md_table(b["columns"], b["rows"], "Exact odds (from the engine)")
    if kind == "simulate":
        return md_table(["seat", "mean", "±", "last in"], [list(r) for r in b["seats"]],
                        b["title"]) + [f"**{md_escape(b['sentence'])}**", ""]
    if kind == "skill":
        return md_table(b["columns"], b["rows"], b["title"]) + [md_escape(b["note"]), ""]
    if kind == "cards":
        return md_table(["", "cards"], [list(r) for r in b["rows"]], b.get("caption"))
    if kind == "records":
        return records_markdown(b["records"])
    if kind == "puzzle" and b.get("numbers"):
        nums = b["numbers"]
        return [f"*→ Puzzle{'s' if len(nums) > 1 else ''} {', '.join(map(str, nums))}, on the "
                "puzzle pages below.*", ""]
    return []


def records_markdown(items: list[dict[str, Any]]) -> list[str]:
    """The records of the game (:func:`tutor.teaching.blockdata.records_view`) as a Markdown
    list: each date, its own citation and kind, its words or that it is cited only, who gives
    it, the reporter's words, and our note (each a paragraph of the item)."""
    out = []
    for r in items:
        parts = [f"- **{md_escape(r['date'])}**: *{md_escape(r['citation'])}* "
                 f"({md_escape(r['kind_words'])})"]
        parts.append(f"  > “{quote_markdown(r['words'])}”" if r["words"] is not None else
                     "  *cited, with none of its words given*")
        if r["given_by"]:
            parts.append(f"  as given by {md_escape(r['given_by'])}")
        if r["report"]:
            parts.append(f"  {md_escape(r['report'][1])} writes: "
                         f"“{quote_markdown(r['report'][0])}”")
        if not r["checked"]:
            parts.append("  cited, not checked: no text here to check its words against")
        if r["note"]:
            parts.append(f"  *{md_escape(r['note'])}*")
        for part in parts:
            out += [part, ""]
    return out


def sheet_markdown(s: dict[str, Any]) -> list[str]:
    """A score sheet (:func:`tutor.teaching.scoresheet.sheet_layout`) as Markdown."""
    out = [f"## {md_escape(s['title'])}", "",
           f"Name: {md_escape(s['name']) if s['name'] else '______________________'}  "
           "Livery: ______________", ""]
    for t in s["tables"]:
        head = [h for r in t["rounds"] for h in ("Game Number", f"Round {r} scores")]
        rows = [[x for cell in row for x in ((str(cell["number"]), cell["text"]) if cell
                                               else ("", ""))] for row in t["rows"]]
        rows.append([x for total in t["totals"]
                     for x in ("Total score", "" if total is None else str(total))])
        out += md_table(head, rows)
    cumulative = "______" if s["cumulative"] is None else str(s["cumulative"])
    return out + [f"**Cumulative Score over {md_escape(s['over'])}: {cumulative}**", ""]


def render_markdown(ws: Worksheet, symbols: bool = True) -> str:
    """The worksheet as Markdown: the lesson (its prose escaped, :func:`prose_markdown`, and
    its blocks), then each page of puzzles (:func:`page_groups`), any blank score sheet and
    the answer key after a page break (:data:`PAGE_BREAK`); quotations with their own bold
    and emphasis."""
    m = md_escape
    out = [f"# {m(_title(ws))}", "",
           f"Laugh and Lie Down worksheet · lesson id {m(ws.lesson_id)} · seed {ws.seed} (the "
           f"same puzzles as `laugh lesson {ws.lesson_id} --seed {ws.seed}`)", "",
           "Name: ______________________", "", "## You will learn to", ""]
    out += [f"- {m(o)}" for o in ws.objectives] + [""]
    for page in ws.items:
        for item in page:
            if item["kind"] == "prose":
                out += [prose_markdown(item["text"], symbols)]
            else:
                out += block_markdown(item)
    if not ws.puzzles:
        out += ["## Puzzles", "", "This lesson has no puzzles.", ""]
    for i, puzzle_page in enumerate(ws.pages):
        out += [PAGE_BREAK, ""]
        if i == 0:
            out += ["## Puzzles", ""]
            out += [prose_markdown(_without_heading(text), symbols) for text in ws.instructions]
        for p in puzzle_page:
            out += puzzle_markdown(p)
    for sheet in ws.score_sheets:
        out += [PAGE_BREAK, ""] + sheet_markdown(sheet)
    if ws.puzzles:
        out += [PAGE_BREAK, ""] + key_markdown(ws.puzzles, _title(ws))
    return md_document(out)


def md_document(lines: list[str]) -> str:
    """A handout's Markdown lines as one text, every control, bidi or format character that a
    source, an export or a name brought in written as an escape
    (:func:`tutor.engine.safetext.printable`; tab and newline stay): the one way a Markdown
    handout (a worksheet, the class pack) is finished."""
    return printable("\n".join(lines))


def puzzle_markdown(p: WorksheetPuzzle) -> list[str]:
    """One printed puzzle as Markdown lines: its heading, what it is about, its position in a
    fence, its question and a line for the answer (a worksheet's and the class pack's quiz)."""
    out = [f"### Puzzle {p.number}", ""]
    if p.about:
        out += [f"*{md_escape(p.about)}*", ""]
    if p.position.strip():                  # a source or score-sheet puzzle has none
        out += [_fence(p.position), ""]
    if p.question:
        out += _md_paragraphs(p.question)
    return out + ["Your answer: ______________________", ""]


def key_markdown(puzzles: list[WorksheetPuzzle], title: str) -> list[str]:
    """The answer key as Markdown: each puzzle's answer, explanation, quotations and id."""
    out = [f"## Answer key: {md_escape(title)}", ""]
    for p in puzzles:
        out += [f"### Puzzle {p.number}: {md_inline(p.answer)}", ""] + \
            _md_paragraphs(p.explanation)
        for text, cite in p.quotes:
            out += md_quotation(text, cite)
        out += [f"*puzzle {md_escape(p.id)}*", ""]
    return out


def _without_heading(text: str) -> str:
    """Prose without a heading on its first line (the puzzle pages have their own)."""
    lines = text.strip("\n").splitlines()
    if lines and lines[0].startswith("#"):
        lines = lines[1:]
    return "\n".join(lines)


def _title(ws: Worksheet) -> str:
    return f"Lesson {ws.number}: {ws.title}" if ws.number else ws.title


def handout_format(path: Path, what: str) -> str:
    """``"html"`` or ``"md"``: the format a handout is written in, from ``path``'s suffix
    (``.html``/``.htm``, ``.md``/``.markdown``, any case); :class:`UsageError` naming ``what``
    for another."""
    suffix = path.suffix.lower()
    if suffix in (".html", ".htm"):
        return "html"
    if suffix in (".md", ".markdown"):
        return "md"
    raise UsageError(f"{path.name}: {what} is written as .html or .md")


def write_worksheet(lesson: Lesson, seed: int, out_path, library=None) -> str:
    """Build and write the worksheet; the format follows the suffix (``.html``/``.htm`` or
    ``.md``).  Returns the format written.  Raises :class:`tutor.engine.errors.UsageError`
    for another suffix and ``OSError`` when the file cannot be written."""
    path = Path(out_path)
    fmt = handout_format(path, "the worksheet")
    ws = build(lesson, seed, library)
    text = render_html(ws) if fmt == "html" else render_markdown(ws)
    write_atomic(path, text)                # whole or not at all, through a link
    return fmt
