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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypedDict

from rich.console import Console, Group
from rich.text import Text

from tutor.engine.atomic import write_atomic
from tutor.engine.errors import UsageError
from tutor.engine.safetext import printable
from tutor.engine.sources import default_library
from tutor.puzzles import generate
from tutor.puzzles.model import definition
from tutor.puzzles.render import plain_suits, render_puzzle, shown_cards
from tutor.teaching.blockdata import BlockView
from tutor.teaching.html import inline_markup, quote_markup, render
from tutor.teaching.lessons import Block, Lesson, Segment, puzzle_seed
from tutor.teaching.prose import md_escape, prose_html, prose_markdown
from tutor.teaching.scoresheet import BlankSheet, blank_sheet
from tutor.teaching.worksheet_markdown import (
    PAGE_BREAK,
    block_markdown,
    md_fence,
    md_inline,
    md_paragraphs,
    md_quotation,
    md_table,
    quote_markdown,
    records_markdown,
    sheet_markdown,
)

__all__ = [
    "MAX_PER_PAGE",
    "PAGE_BREAK",
    "PAGE_LINES",
    "PageItem",
    "ProseItem",
    "Worksheet",
    "WorksheetPuzzle",
    "block_markdown",
    "build",
    "handout_format",
    "html_inline",
    "key_markdown",
    "md_document",
    "md_escape",
    "md_inline",
    "md_quotation",
    "md_table",
    "page_groups",
    "puzzle_markdown",
    "quote_html",
    "quote_markdown",
    "records_markdown",
    "render_html",
    "render_markdown",
    "sheet_markdown",
    "worksheet_puzzles",
    "write_worksheet",
]


class ProseItem(TypedDict):
    """A lesson's prose on a worksheet's page: ``text``, CommonMark."""

    kind: Literal["prose"]
    text: str


#: One item of a worksheet's lesson pages: prose or a block view.
PageItem = ProseItem | BlockView


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
        question = sum(
            max(1, -(-len(line) // 100)) for line in self.question.splitlines() if line.strip()
        )
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
    items: list[list[PageItem]] = field(default_factory=list)
    score_sheets: list[BlankSheet] = field(default_factory=list)
    instructions: list[str] = field(default_factory=list)

    @property
    def instruction_lines(self) -> int:
        """The printed height of :attr:`instructions` in the units of
        :attr:`WorksheetPuzzle.lines`: a line of 9.5pt prose at 1.3 (about 115 characters) is
        about one and a half lines of the positions' type, and a paragraph's spacing over half
        one.  (The heading above them is counted apart: :data:`_HEADING_LINES`.)"""
        paras = [
            p
            for text in self.instructions
            for p in _without_heading(text).split("\n\n")
            if p.strip()
        ]
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


def page_groups(
    puzzles: list[WorksheetPuzzle],
    page_lines: int = PAGE_LINES,
    per_page: int = MAX_PER_PAGE,
    first_used: int = 0,
) -> list[list[WorksheetPuzzle]]:
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
    Console(
        file=buf,
        width=width,
        no_color=True,
        color_system=None,
        highlight=False,
        force_terminal=False,
        legacy_windows=False,
        markup=False,
        emoji=False,
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
    tail = (
        bool(parts)
        and isinstance(parts[-1], Text)
        and parts[-1].plain.strip() in (question.strip(), question.replace("`", "").strip())
    )
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

    generated = [
        generate(
            b.puzzle()["kind"],
            ruleset=b.puzzle()["ruleset"],
            players=b.puzzle()["players"],
            seed=puzzle_seed(seed, lesson.id, b.index, n),
            difficulty=b.puzzle()["difficulty"],
        )
        for b, n in lesson.puzzle_slots()
    ]
    puzzles = worksheet_puzzles(generated, library, symbols)

    def quote(ref: str) -> tuple[str, str]:
        q = library.quotation(ref)
        return q.text, f"{q.citation} ({q.where})"

    items, instructions = lesson_items(lesson, library, symbols)
    return Worksheet(
        lesson.id,
        lesson.number,
        lesson.title,
        list(lesson.objectives),
        seed,
        [quote(r) for r in lesson.quotes],
        puzzles,
        items,
        blank_sheets(lesson, library),
        instructions,
    )


def worksheet_puzzles(generated: list, library, symbols: bool = True) -> list[WorksheetPuzzle]:
    """Puzzles (:class:`tutor.puzzles.Puzzle`) as printed, numbered from 1: each position as the
    terminal shows it, its question, answer, explanation and the quotations it cites."""
    puzzles: list = []
    for p in generated:
        question = plain_suits(p.question, symbols)
        title = definition(p.kind).title
        shown, headless, apart = _split_puzzle(render_puzzle(p, symbols=symbols), title, question)
        position = _plain(shown)
        stars = ("★" * p.difficulty + "☆" * (5 - p.difficulty)) if symbols else f"{p.difficulty}/5"
        # a puzzle about the sources names no ruleset before its answer (hide_id): its
        # title may give the answer away, or name the source that is the answer
        under = (
            ""
            if p.data.get("hide_id")
            else f"{library.rulesets[p.ruleset].title}, {p.players} players · "
        )
        about = f"{title} · {under}difficulty {stars}" if headless else ""
        quotes = []
        for ref in p.quotes:
            try:
                q = library.quotation(ref)
            except KeyError:
                continue
            quotes.append((q.text, f"{q.citation} ({q.where})"))
        puzzles.append(
            WorksheetPuzzle(
                len(puzzles) + 1,
                position,
                question if apart else "",
                shown_cards(p.expected_answer_text(), symbols),
                p.explanation,
                quotes,
                p.id,
                about,
            )
        )
    return puzzles


def lesson_items(
    lesson: Lesson, library, symbols: bool = True
) -> tuple[list[list[PageItem]], list[str]]:
    """The lesson's pages for paper: prose as ``{"kind": "prose", "text": ...}``, each block as
    its :func:`tutor.teaching.blockdata.block_view` (a puzzle block as the numbers of its
    puzzles on the worksheet); and the instructions for the puzzles: the prose of a page that
    holds nothing but prose and then puzzles (the course's closing "Puzzles" page), printed
    above the puzzles instead of on a page of its own."""
    from tutor.teaching.blockdata import block_view

    numbers: dict[int, list[int]] = {}
    for i, (block, _) in enumerate(lesson.puzzle_slots(), 1):
        numbers.setdefault(block.index, []).append(i)
    pages: list[list[PageItem]] = []
    instructions: list[str] = []
    for page in lesson.pages:
        kinds = [getattr(item, "kind", "prose") for item in page]
        first_puzzle = kinds.index("puzzle") if "puzzle" in kinds else None
        if (
            first_puzzle is not None
            and all(k == "prose" for k in kinds[:first_puzzle])
            and all(k == "puzzle" for k in kinds[first_puzzle:])
        ):
            instructions += [
                item.text
                for item in page[:first_puzzle]
                if isinstance(item, Segment) and item.text.strip()
            ]
            continue
        items: list[PageItem] = []
        for item in page:
            if isinstance(item, Block):
                items.append(block_view(item, library, symbols, numbers.get(item.index)))
            elif item.text.strip():
                items.append({"kind": "prose", "text": item.text})
        if items:
            pages.append(items)
    return pages, instructions


def blank_sheets(lesson: Lesson, library) -> list[BlankSheet]:
    """A blank score sheet for each ruleset with a match format that the lesson's score-sheet
    puzzle blocks name (lesson 11: the Inter-Livery sheet), for its smallest player count: a
    sheet only where the lesson asks the learner to fill one in (a blank sheet beside other
    puzzles would answer their questions about the match)."""
    out: list[BlankSheet] = []
    seen: set[str] = set()
    for block in lesson.blocks("puzzle"):
        rid = block.puzzle()["ruleset"]
        if block.puzzle()["kind"].partition("/")[0].partition("@")[0] != "score-sheet":
            continue
        if not rid or rid in seen:
            continue
        seen.add(rid)
        rs = library.ruleset(rid)
        if rs.game().has_match_format:
            players = block.puzzle()["players"] or min(rs.player_counts)
            out.append(BlankSheet(**blank_sheet(rs, players), ruleset_title=rs.title))
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
    items = [
        [
            dict(it, html=prose_html(it["text"], symbols)) if it["kind"] == "prose" else it
            for it in page
        ]
        for page in ws.items
    ]
    instructions = [prose_html(_without_heading(text), symbols) for text in ws.instructions]
    return render(
        "worksheet.html.j2",
        ws=ws,
        title=_title(ws),
        items=items,
        pages=ws.pages,
        instructions=instructions,
    )


# --------------------------------------------------------------------------------------------
# Markdown


def render_markdown(ws: Worksheet, symbols: bool = True) -> str:
    """The worksheet as Markdown: the lesson (its prose escaped, :func:`prose_markdown`, and
    its blocks), then each page of puzzles (:func:`page_groups`), any blank score sheet and
    the answer key after a page break (:data:`PAGE_BREAK`); quotations with their own bold
    and emphasis."""
    m = md_escape
    out = [
        f"# {m(_title(ws))}",
        "",
        f"Laugh and Lie Down worksheet · lesson id {m(ws.lesson_id)} · seed {ws.seed} (the "
        f"same puzzles as `laugh lesson {ws.lesson_id} --seed {ws.seed}`)",
        "",
        "Name: ______________________",
        "",
        "## You will learn to",
        "",
    ]
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
    if p.position.strip():  # a source or score-sheet puzzle has none
        out += [md_fence(p.position), ""]
    if p.question:
        out += md_paragraphs(p.question)
    return out + ["Your answer: ______________________", ""]


def key_markdown(puzzles: list[WorksheetPuzzle], title: str) -> list[str]:
    """The answer key as Markdown: each puzzle's answer, explanation, quotations and id."""
    out = [f"## Answer key: {md_escape(title)}", ""]
    for p in puzzles:
        out += [f"### Puzzle {p.number}: {md_inline(p.answer)}", ""] + md_paragraphs(p.explanation)
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
    write_atomic(path, text)  # whole or not at all, through a link
    return fmt
