"""Printable worksheets: a lesson's quotations and puzzles, with the answer key on its own page.

``laugh worksheet LESSON --seed S --out FILE.html`` (or ``.md``) writes the same puzzles that
``laugh lesson LESSON --seed S`` poses (see :func:`tutor.teaching.lessons.puzzle_seed`).  Everything taken
from a lesson, a source or a puzzle is escaped (HTML: ``html.escape``; Markdown: entities and
backslash escapes, positions in a fence longer than any backtick run), so no lesson file can
inject markup into the handout.  Two kinds of markup are rendered, never passed through: a
quotation's own bold, emphasis and code (its source's Markdown or HTML, read by
:func:`tutor.puzzles.quoted.quote_spans`), and the code spans of a puzzle's question and
explanation.

Printed (``render_html`` in a browser, or Chromium's ``--print-to-pdf``), the title, objectives
and quotations come first; then the puzzles, two or three to a page (:func:`page_groups`), none
split across pages; then the answer key on a page of its own.
"""

from __future__ import annotations

import html
import io
import re
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console, Group
from rich.text import Text

from tutor.engine.errors import UsageError
from tutor.engine.sources import default_library
from tutor.puzzles import generate
from tutor.puzzles.model import definition
from tutor.puzzles.quoted import quote_spans
from tutor.puzzles.render import plain_suits, render_puzzle
from tutor.teaching.lessons import Lesson, puzzle_seed

__all__ = ["MAX_PER_PAGE", "PAGE_BREAK", "PAGE_LINES", "Worksheet", "WorksheetPuzzle", "build",
           "html_inline", "md_escape", "md_inline", "page_groups", "quote_html", "quote_markdown",
           "render_html", "render_markdown", "write_worksheet"]


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
    (stored text, citation) pairs, and its puzzles."""

    lesson_id: str
    number: int
    title: str
    objectives: list[str]
    seed: int
    quotations: list[tuple[str, str]]
    puzzles: list[WorksheetPuzzle]

    @property
    def pages(self) -> list[list[WorksheetPuzzle]]:
        """The puzzles as printed pages: see :func:`page_groups`."""
        return page_groups(self.puzzles)


#: How many lines of puzzles fit on a printed page, counted as :attr:`WorksheetPuzzle.lines`
#: (lines of 7.5pt monospace at 1.15, the print CSS of :func:`render_html`).  US Letter with
#: 12 mm margins holds about 92 such lines (measured with Chromium) and A4 more; 86 leaves a
#: margin for error, and ``tests/teaching/test_worksheet.py`` prints a worksheet to check it.
PAGE_LINES = 86
#: Lines allowed for a puzzle's heading, kind line, answer space and spacing (about 70pt).
_PUZZLE_OVERHEAD = 8
#: Puzzles to a printed page: at most three, and two wherever three would not fit.
MAX_PER_PAGE = 3


def page_groups(puzzles: list[WorksheetPuzzle], page_lines: int = PAGE_LINES,
                per_page: int = MAX_PER_PAGE) -> list[list[WorksheetPuzzle]]:
    """The puzzles, in order, grouped into printed pages of two or three.

    A page takes the next puzzle while it holds fewer than ``per_page`` and the puzzles'
    estimated heights (:attr:`WorksheetPuzzle.lines`) fit ``page_lines``; a last page of one
    puzzle takes the last puzzle of a page of three before it when both fit.  So a page holds
    one puzzle only when the next one would not fit beside it (or there is only one).
    """
    pages: list[list[WorksheetPuzzle]] = []
    page: list[WorksheetPuzzle] = []
    used = 0
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
            force_terminal=False, legacy_windows=False).print(renderable)
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
    ♣♦♥♠ (else letters).  Raises what :func:`tutor.puzzles.generate` raises.
    """
    if library is None:
        library = default_library()

    def quote(ref: str) -> tuple[str, str]:
        q = library.quotation(ref)
        return q.text, f"{q.citation} ({q.where})"

    puzzles = []
    for block in lesson.blocks("puzzle"):
        d = block.data
        for n in range(d["count"]):
            p = generate(d["kind"], ruleset=d["ruleset"], players=d["players"],
                         seed=puzzle_seed(seed, lesson.id, block.index, n),
                         difficulty=d["difficulty"])
            question = plain_suits(p.question, symbols)
            title = definition(p.kind).title
            shown, headless, apart = _split_puzzle(render_puzzle(p, symbols=symbols), title,
                                                   question)
            position = _plain(shown)
            stars = ("★" * p.difficulty + "☆" * (5 - p.difficulty)) if symbols else \
                f"{p.difficulty}/5"
            about = (f"{title} · {library.rulesets[p.ruleset].title}, {p.players} players · "
                     f"difficulty {stars}") if headless else ""
            quotes = []
            for ref in p.quotes:
                try:
                    quotes.append(quote(ref))
                except KeyError:
                    continue
            puzzles.append(WorksheetPuzzle(len(puzzles) + 1, position, question if apart else "",
                                           p.expected_answer_text(), p.explanation, quotes,
                                           p.id, about))
    return Worksheet(lesson.id, lesson.number, lesson.title, list(lesson.objectives), seed,
                     [quote(r) for r in lesson.quotes], puzzles)


# --------------------------------------------------------------------------------------------
# Text with markup: quotations (their source's Markdown and HTML) and puzzle text (code spans)

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)


def _code_spans(text: str) -> list[tuple[str, bool]]:
    """``text`` split into (words, is_code) runs at its backtick code spans."""
    out: list[tuple[str, bool]] = []
    pos = 0
    for m in _CODE_SPAN.finditer(text):
        if m.start() > pos:
            out.append((text[pos:m.start()], False))
        out.append((m.group(2).strip() or m.group(2), True))
        pos = m.end()
    if pos < len(text):
        out.append((text[pos:], False))
    return out


def html_inline(text: str) -> str:
    """Puzzle text (a question, an explanation line) as HTML: its code spans as ``<code>``,
    everything else escaped."""
    return "".join(f"<code>{html.escape(w)}</code>" if code else html.escape(w)
                   for w, code in _code_spans(text))


def md_inline(text: str) -> str:
    """Puzzle text as Markdown on one line: its code spans kept as code, the rest escaped
    (:func:`md_escape`)."""
    out = []
    for w, code in _code_spans(" ".join(text.split())):
        if code:
            out.append(_md_code(w))
        elif w.strip():
            lead = " " if w[:1].isspace() else ""
            trail = " " if w[-1:].isspace() else ""
            out.append(lead + md_escape(w) + trail)
        else:
            out.append(w)
    return "".join(out)


def _md_code(words: str) -> str:
    ticks = "`" * (max((len(m) for m in re.findall(r"`+", words)), default=0) + 1)
    pad = " " if words.startswith("`") or words.endswith("`") else ""
    return f"{ticks}{pad}{words}{pad}{ticks}"


def quote_html(text: str) -> str:
    """A quotation's stored text as HTML: its own bold, emphasis (and cited titles) and code as
    ``<strong>``, ``<em>`` and ``<code>`` (:func:`tutor.puzzles.quoted.quote_spans`); the words
    escaped; no other markup from the source."""
    out = []
    for span in quote_spans(text):
        piece = html.escape(span.text)
        if span.code:
            piece = f"<code>{piece}</code>"
        if span.italic:
            piece = f"<em>{piece}</em>"
        if span.bold:
            piece = f"<strong>{piece}</strong>"
        out.append(piece)
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
        piece = md_escape(core)
        if span.italic:
            piece = f"*{piece}*"
        if span.bold:
            piece = f"**{piece}**"
        out.append(lead + piece + trail)
    return "".join(out)


# --------------------------------------------------------------------------------------------
# HTML

_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 46em; margin: 2em auto;
       padding: 0 1em; line-height: 1.45; color: #111; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h3 { margin: 0.4em 0 0.3em 0; }
.meta { color: #555; font-size: 0.9em; }
blockquote { margin: 0.8em 0 0.8em 1.2em; font-style: italic; }
blockquote em { font-style: normal; }
blockquote cite { display: block; font-style: normal; font-size: 0.85em; color: #444; }
pre { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 0.85em;
      white-space: pre-wrap; background: #f6f6f6; padding: 0.5em; border: 1px solid #ddd;
      margin: 0.3em 0; }
code { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 0.9em; }
.about { color: #555; font-size: 0.85em; margin: 0 0 0.2em 0; }
.question { font-weight: bold; margin: 0.4em 0; }
.question code { white-space: nowrap; }
.answer { margin: 0.4em 0 0 0; }
.puzzle { break-inside: avoid; page-break-inside: avoid; margin-bottom: 1.2em; }
.sheet { break-before: page; page-break-before: always; }
.answer-line { border-bottom: 1px solid #999; height: 1.6em; margin-bottom: 0.4em; }
.key { break-before: page; page-break-before: always; }
.id { color: #777; font-size: 0.8em; }
@page { margin: 12mm; }
@media print {
  body { margin: 0; max-width: none; font-size: 10pt; line-height: 1.3; }
  h2 { font-size: 13pt; margin: 0 0 0.4em 0; }
  h3 { font-size: 11pt; margin: 0 0 0.1em 0; }
  .about { font-size: 8pt; }
  pre { background: none; font-size: 7.5pt; line-height: 1.15; padding: 0.25em 0.5em;
        margin: 0.15em 0; }
  .question { font-size: 9pt; line-height: 1.25; margin: 0.25em 0; }
  .answer { font-size: 9pt; margin: 0.2em 0 0 0; }
  .answer-line { height: 1.4em; margin-bottom: 0; }
  .puzzle { margin-bottom: 1.1em; }
  .key { font-size: 8.5pt; line-height: 1.25; columns: 2; column-gap: 1.6em; }
  .key h2 { column-span: all; }
  .key h3 { font-size: 1.1em; }
  .key .puzzle { margin-bottom: 0.6em; }
  .key blockquote { margin: 0.3em 0 0.3em 0.8em; }
  .key blockquote cite { font-size: 0.9em; }
  .key p { margin: 0.25em 0; }
}
"""


def render_html(ws: Worksheet) -> str:
    """The worksheet as a standalone HTML page; every text from data is escaped, and only a
    quotation's own bold, emphasis and code become tags (:func:`quote_html`).

    Printed, the first page holds the title, objectives and quotations; the puzzles follow in
    ``<section class="sheet">`` pages of two or three (:func:`page_groups`), each starting a
    new page and no puzzle split across pages; the answer key is a last ``<section
    class="key">`` on a page of its own.
    """
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{e(_title(ws))}</title>", f"<style>{_CSS}</style>", "</head>", "<body>"]
    out.append(f"<h1>{e(_title(ws))}</h1>")
    out.append(f'<p class="meta">Laugh and Lie Down worksheet · lesson id {e(ws.lesson_id)} · '
               f"seed {ws.seed} (the same puzzles as <code>laugh lesson {e(ws.lesson_id)} "
               f"--seed {ws.seed}</code>)</p>")
    out.append('<p>Name: <span class="answer-line" style="display:inline-block;width:20em">'
               "</span></p>")
    out.append("<h2>You will learn to</h2><ul>")
    out.extend(f"<li>{e(o)}</li>" for o in ws.objectives)
    out.append("</ul>")
    if ws.quotations:
        out.append("<h2>From the sources</h2>")
        for text, cite in ws.quotations:
            out.append(f"<blockquote>“{quote_html(text)}”<cite>— {e(cite)}</cite></blockquote>")
    if not ws.puzzles:
        out.append("<h2>Puzzles</h2>")
        out.append("<p>This lesson has no puzzles.</p>")
    for i, page in enumerate(ws.pages):
        out.append('<section class="sheet">')
        out.append("<h2>Puzzles</h2>" if i == 0 else
                   f'<p class="meta">{e(_title(ws))} · puzzles {page[0].number} to '
                   f"{page[-1].number}</p>" if len(page) > 1 else
                   f'<p class="meta">{e(_title(ws))} · puzzle {page[0].number}</p>')
        for p in page:
            out.append('<div class="puzzle">')
            out.append(f"<h3>Puzzle {p.number}</h3>")
            if p.about:
                out.append(f'<p class="about">{e(p.about)}</p>')
            out.append(f"<pre>{e(p.position)}</pre>")
            if p.question:
                out.append('<p class="question">' + "<br>\n".join(
                    html_inline(line) for line in p.question.splitlines() if line.strip())
                    + "</p>")
            out.append('<p class="answer">Your answer:</p><div class="answer-line"></div>')
            out.append("</div>")
        out.append("</section>")
    if ws.puzzles:
        out.append('<section class="key">')
        out.append(f"<h2>Answer key: {e(_title(ws))}</h2>")
        for p in ws.puzzles:
            out.append('<div class="puzzle">')
            out.append(f"<h3>Puzzle {p.number}: {html_inline(p.answer)}</h3>")
            out.extend(_html_paragraphs(p.explanation))
            for text, cite in p.quotes:
                out.append(f"<blockquote>“{quote_html(text)}”<cite>— {e(cite)}</cite>"
                           "</blockquote>")
            out.append(f'<p class="id">puzzle {e(p.id)}</p>')
            out.append("</div>")
        out.append("</section>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out)


# --------------------------------------------------------------------------------------------
# Markdown

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
_MD_LINE_START = re.compile(r"^(\s*)([#>+=-]|\d+[.)])")
#: The page break of a Markdown worksheet (kept by Markdown-to-HTML and Markdown-to-PDF tools).
PAGE_BREAK = '<div style="page-break-before: always"></div>'


def md_escape(text: str) -> str:
    """``text`` safe inside Markdown, on one line: ``& < >`` as entities, the characters that
    make emphasis, code, links and tables backslashed, and a start that would make a heading,
    list or quotation escaped."""
    text = " ".join(text.split())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_SPECIAL.sub(r"\\\1", text)
    def start(m: re.Match) -> str:
        mark = m.group(2)
        if mark[0].isdigit():           # "1." -> "1\.": a backslash only escapes punctuation
            return m.group(1) + mark[:-1] + "\\" + mark[-1]
        return m.group(1) + "\\" + mark
    return _MD_LINE_START.sub(start, text)


def _md_paragraphs(text: str) -> list[str]:
    """Paragraphs (blank-line separated) of lines (code spans kept, the rest escaped), each line
    ending in a hard break."""
    out: list[str] = []
    for para in text.split("\n\n"):
        lines = [md_inline(line) for line in para.splitlines() if line.strip()]
        if lines:
            out += [line + "  " for line in lines[:-1]] + [lines[-1], ""]
    return out


def _html_paragraphs(text: str) -> list[str]:
    """Paragraphs of lines (code spans as ``<code>``, the rest escaped) joined by ``<br>``."""
    out = []
    for para in text.split("\n\n"):
        lines = [html_inline(line) for line in para.splitlines() if line.strip()]
        if lines:
            out.append("<p>" + "<br>\n".join(lines) + "</p>")
    return out


def _fence(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def render_markdown(ws: Worksheet) -> str:
    """The worksheet as Markdown: each page of puzzles (:func:`page_groups`) and the answer key
    after a page break (:data:`PAGE_BREAK`); quotations with their own bold and emphasis."""
    m = md_escape
    out = [f"# {m(_title(ws))}", "",
           f"Laugh and Lie Down worksheet · lesson id {m(ws.lesson_id)} · seed {ws.seed} (the "
           f"same puzzles as `laugh lesson {ws.lesson_id} --seed {ws.seed}`)", "",
           "Name: ______________________", "", "## You will learn to", ""]
    out += [f"- {m(o)}" for o in ws.objectives] + [""]
    if ws.quotations:
        out += ["## From the sources", ""]
        for text, cite in ws.quotations:
            out += [f"> “{quote_markdown(text)}”  ", f"> — {m(cite)}", ""]
    if not ws.puzzles:
        out += ["## Puzzles", "", "This lesson has no puzzles.", ""]
    for i, page in enumerate(ws.pages):
        out += [PAGE_BREAK, ""]
        if i == 0:
            out += ["## Puzzles", ""]
        for p in page:
            out += [f"### Puzzle {p.number}", ""]
            if p.about:
                out += [f"*{m(p.about)}*", ""]
            out += [_fence(p.position), ""]
            if p.question:
                out += _md_paragraphs(p.question)
            out += ["Your answer: ______________________", ""]
    if ws.puzzles:
        out += [PAGE_BREAK, "", f"## Answer key: {m(_title(ws))}", ""]
        for p in ws.puzzles:
            out += [f"### Puzzle {p.number}: {md_inline(p.answer)}", ""] + \
                _md_paragraphs(p.explanation)
            for text, cite in p.quotes:
                out += [f"> “{quote_markdown(text)}”  ", f"> — {m(cite)}", ""]
            out += [f"*puzzle {m(p.id)}*", ""]
    return "\n".join(out)


def _title(ws: Worksheet) -> str:
    return f"Lesson {ws.number}: {ws.title}" if ws.number else ws.title


def write_worksheet(lesson: Lesson, seed: int, out_path, library=None) -> str:
    """Build and write the worksheet; the format follows the suffix (``.html``/``.htm`` or
    ``.md``).  Returns the format written.  Raises :class:`tutor.engine.errors.UsageError`
    for another suffix and ``OSError`` when the file cannot be written."""
    path = Path(out_path)
    suffix = path.suffix.lower()
    if suffix in (".html", ".htm"):
        fmt = "html"
    elif suffix in (".md", ".markdown"):
        fmt = "md"
    else:
        raise UsageError(f"{path.name}: the worksheet is written as .html or .md")
    ws = build(lesson, seed, library)
    text = render_html(ws) if fmt == "html" else render_markdown(ws)
    path.write_text(text, encoding="utf-8")
    return fmt
