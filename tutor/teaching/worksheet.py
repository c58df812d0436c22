"""Printable worksheets: a lesson's quotations and puzzles, with the answer key on its own page.

``laugh worksheet LESSON --seed S --out FILE.html`` (or ``.md``) writes the same puzzles that
``laugh lesson LESSON --seed S`` poses (see :func:`tutor.teaching.lessons.puzzle_seed`).  Everything taken
from a lesson, a source or a puzzle is escaped (HTML: ``html.escape``; Markdown: entities and
backslash escapes, positions in a fence longer than any backtick run), so no lesson file can
inject markup into the handout.
"""

from __future__ import annotations

import html
import io
import re
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from tutor.engine.errors import UsageError
from tutor.engine.sources import default_library
from tutor.puzzles import generate
from tutor.puzzles.render import render_puzzle
from tutor.teaching.lessons import Lesson, puzzle_seed

__all__ = ["Worksheet", "WorksheetPuzzle", "build", "render_html", "render_markdown",
           "write_worksheet"]


@dataclass
class WorksheetPuzzle:
    """One puzzle as printed: ``number`` (1-based), ``position`` (the position and question as
    plain text, as the terminal shows it), ``question``, ``answer`` (as a learner would type
    it), ``explanation``, ``quotes`` (verbatim text, citation) pairs, and ``id``."""

    number: int
    position: str
    question: str
    answer: str
    explanation: str
    quotes: list[tuple[str, str]]
    id: str


@dataclass
class Worksheet:
    """What a worksheet holds: the lesson's number, title, objectives, the seed, its quotations as
    (text, citation) pairs, and its puzzles."""

    lesson_id: str
    number: int
    title: str
    objectives: list[str]
    seed: int
    quotations: list[tuple[str, str]]
    puzzles: list[WorksheetPuzzle]


def _plain(renderable, width: int = 76) -> str:
    """A rich renderable as plain text (no colour, no escape codes)."""
    buf = io.StringIO()
    Console(file=buf, width=width, no_color=True, color_system=None, highlight=False,
            force_terminal=False, legacy_windows=False).print(renderable)
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines()).strip("\n")


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
            position = _plain(render_puzzle(p, symbols=symbols))
            quotes = []
            for ref in p.quotes:
                try:
                    quotes.append(quote(ref))
                except KeyError:
                    continue
            puzzles.append(WorksheetPuzzle(len(puzzles) + 1, position, p.question,
                                           p.expected_answer_text(), p.explanation, quotes,
                                           p.id))
    return Worksheet(lesson.id, lesson.number, lesson.title, list(lesson.objectives), seed,
                     [quote(r) for r in lesson.quotes], puzzles)


# --------------------------------------------------------------------------------------------
# HTML

_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 46em; margin: 2em auto;
       padding: 0 1em; line-height: 1.45; color: #111; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
.meta { color: #555; font-size: 0.9em; }
blockquote { margin: 0.8em 0 0.8em 1.2em; font-style: italic; }
blockquote cite { display: block; font-style: normal; font-size: 0.85em; color: #444; }
pre { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 0.85em;
      white-space: pre-wrap; background: #f6f6f6; padding: 0.5em; border: 1px solid #ddd; }
.puzzle { break-inside: avoid; page-break-inside: avoid; margin-bottom: 1.2em; }
.answer-line { border-bottom: 1px solid #999; height: 1.6em; margin-bottom: 0.4em; }
.key { break-before: page; page-break-before: always; }
.id { color: #777; font-size: 0.8em; }
@media print { body { margin: 0; } pre { background: none; } }
"""


def render_html(ws: Worksheet) -> str:
    """The worksheet as a standalone HTML page; every text from data is escaped."""
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
            out.append(f"<blockquote>“{e(text)}”<cite>— {e(cite)}</cite></blockquote>")
    out.append("<h2>Puzzles</h2>")
    if not ws.puzzles:
        out.append("<p>This lesson has no puzzles.</p>")
    for p in ws.puzzles:
        out.append('<div class="puzzle">')
        out.append(f"<h3>Puzzle {p.number}</h3>")
        out.append(f"<pre>{e(p.position)}</pre>")
        out.append('<p>Your answer:</p><div class="answer-line"></div>')
        out.append("</div>")
    out.append('<section class="key">')
    out.append(f"<h2>Answer key: {e(_title(ws))}</h2>")
    for p in ws.puzzles:
        out.append('<div class="puzzle">')
        out.append(f"<h3>Puzzle {p.number}: {e(p.answer)}</h3>")
        out.extend(_html_paragraphs(p.explanation))
        for text, cite in p.quotes:
            out.append(f"<blockquote>“{e(text)}”<cite>— {e(cite)}</cite></blockquote>")
        out.append(f'<p class="id">puzzle {e(p.id)}</p>')
        out.append("</div>")
    out.append("</section>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out)


# --------------------------------------------------------------------------------------------
# Markdown

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
_MD_LINE_START = re.compile(r"^(\s*)([#>+=-]|\d+[.)])")


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
    """Paragraphs (blank-line separated) of escaped lines, each line ending in a hard break."""
    out: list[str] = []
    for para in text.split("\n\n"):
        lines = [md_escape(line) for line in para.splitlines() if line.strip()]
        if lines:
            out += [line + "  " for line in lines[:-1]] + [lines[-1], ""]
    return out


def _html_paragraphs(text: str) -> list[str]:
    """Paragraphs of escaped lines joined by ``<br>``."""
    out = []
    for para in text.split("\n\n"):
        lines = [html.escape(line) for line in para.splitlines() if line.strip()]
        if lines:
            out.append("<p>" + "<br>\n".join(lines) + "</p>")
    return out


def _fence(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def render_markdown(ws: Worksheet) -> str:
    """The worksheet as Markdown (a page break before the answer key for printing)."""
    m = md_escape
    out = [f"# {m(_title(ws))}", "",
           f"Laugh and Lie Down worksheet · lesson id {m(ws.lesson_id)} · seed {ws.seed} (the "
           f"same puzzles as `laugh lesson {ws.lesson_id} --seed {ws.seed}`)", "",
           "Name: ______________________", "", "## You will learn to", ""]
    out += [f"- {m(o)}" for o in ws.objectives] + [""]
    if ws.quotations:
        out += ["## From the sources", ""]
        for text, cite in ws.quotations:
            out += [f"> “{m(text)}”  ", f"> — {m(cite)}", ""]
    out += ["## Puzzles", ""]
    if not ws.puzzles:
        out += ["This lesson has no puzzles.", ""]
    for p in ws.puzzles:
        out += [f"### Puzzle {p.number}", "", _fence(p.position), "",
                "Your answer: ______________________", ""]
    out += ['<div style="page-break-before: always"></div>', "",
            f"## Answer key: {m(_title(ws))}", ""]
    for p in ws.puzzles:
        out += [f"### Puzzle {p.number}: {m(p.answer)}", ""] + _md_paragraphs(p.explanation)
        for text, cite in p.quotes:
            out += [f"> “{m(text)}”  ", f"> — {m(cite)}", ""]
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
