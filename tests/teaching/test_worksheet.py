"""Worksheets: the lesson's quotations and puzzles, the answer key on its own page, the same
puzzles as ``laugh lesson --seed``, and everything from data escaped."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import lesson_puzzles

from tutor.app.cli import main
from tutor.engine.errors import UsageError
from tutor.teaching.lessons import find_lesson, load_lesson
from tutor.teaching.worksheet import (
    _HEADING_LINES,
    PAGE_BREAK,
    PAGE_LINES,
    WorksheetPuzzle,
    build,
    md_escape,
    page_groups,
    quote_html,
    quote_markdown,
    render_html,
    render_markdown,
    write_worksheet,
)

HOSTILE = """\
---
id: hostile
title: "Tricks <script>alert('t')</script> & <b>bold</b>"
objectives:
  - id: hostile
    text: "Close the tag </li><li onclick=x> and *emphasise* [a link](javascript:alert(1))"
prerequisites: []
sources: [parlett]
minutes: 5
---

# <img src=x onerror=alert(1)>

```quote
parlett:deal-eight
```

```puzzle
objective: hostile
kind: count
count: 2
ruleset: parlett
```
"""


def course_lesson(key):
    entry = find_lesson(key)
    lesson = load_lesson(entry.path)
    lesson.number = entry.number
    return lesson


@pytest.fixture
def hostile(tmp_path, library):
    path = tmp_path / "hostile.md"
    path.write_text(HOSTILE, encoding="utf-8")
    return load_lesson(path, library)


def test_html_worksheet_escapes_everything_from_the_lesson(hostile, library):
    page = render_html(build(hostile, 1, library))
    assert "<script>" not in page and "onclick" not in page.replace("onclick=x", "")
    assert "&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page  # the lesson's own heading
    assert "&lt;/li&gt;&lt;li onclick=x&gt;" in page
    assert "<b>bold</b>" not in page and "&lt;b&gt;bold&lt;/b&gt;" in page
    assert "href=" not in page
    # the only tags are the worksheet's own
    tags = set(re.findall(r"<\s*([a-zA-Z0-9]+)", page))
    assert tags <= {
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "h1",
        "h2",
        "h3",
        "h4",
        "p",
        "code",
        "span",
        "ul",
        "ol",
        "li",
        "blockquote",
        "cite",
        "div",
        "pre",
        "section",
        "br",
        "strong",
        "em",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "caption",
        "b",
    }


def test_markdown_worksheet_escapes_everything_from_the_lesson(hostile, library):
    text = render_markdown(build(hostile, 1, library))
    assert "<script>" not in text and "</li>" not in text and "<img" not in text
    assert "&lt;script>" in text and "&lt;img src=x onerror=alert(1)>" in text
    assert "\\*emphasise\\*" in text and "\\[a link](" in text
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").render(text)
    assert "<script>" not in html and "<em>emphasise" not in html and "<a " not in html


@pytest.mark.parametrize(
    "text, safe",
    [
        ("<b>x</b> & y", "&lt;b>x&lt;/b> & y"),
        ("&amp; &#60;", "&amp;amp; &amp;#60;"),
        ("# not a heading", "\\# not a heading"),
        ("1. not a list", "1\\. not a list"),
        ("- not an item", "\\- not an item"),
        ("a | b `c`", "a \\| b \\`c\\`"),
        ("*not* _emphasis_ x_y_z 2 * 3", "\\*not\\* \\_emphasis\\_ x_y_z 2 * 3"),
        ("[a link](x) ~~struck~~", "\\[a link](x) \\~\\~struck\\~\\~"),
        # what needs no escape gets none (issue 34: they were backslashed or entities on paper)
        ("+1.09", "+1.09"),
        ("Play from hand >", "Play from hand >"),
        ("lowest cut~", "lowest cut~"),
        ("A) 9♥ takes 9♦", "A) 9♥ takes 9♦"),
        ("[A] or [B]", "[A] or [B]"),
    ],
)
def test_md_escape(text, safe):
    assert md_escape(text) == safe


def _md_reads(source: str, cell: bool = False) -> str | None:
    """What a Markdown reader with HTML on (and GFM's tables and strikethrough) shows of
    ``source``, one paragraph (or a table's one ``cell``): its text, tags and entities undone;
    None when it is not that."""
    import html

    from markdown_it import MarkdownIt

    out = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).render(source)
    m = (
        re.search(r"<td>(.*)</td>", out, re.S)
        if cell
        else re.fullmatch(r"<p>(.*)</p>\n", out, re.S)
    )
    return None if m is None else html.unescape(m.group(1))


@given(st.text(alphabet=list("ab1 .)#>-+*_=`|~[]()!:\\<&;/?\n\tx9♥"), max_size=16))
def test_md_escape_reads_back_as_the_text_and_nothing_else(text):
    """Whatever the text, a Markdown reader reads the escaped text as exactly the text (its
    spaces collapsed): at the start of a line, after other words, and in a table's cell."""
    want = " ".join(text.split())
    if want:
        assert _md_reads(md_escape(text)) == want
        assert _md_reads("a " + md_escape(text, start=False)) == "a " + want
        assert (
            _md_reads("| h |\n|---|\n| " + md_escape(text, start=False) + " |\n", cell=True) == want
        )


def test_handouts_have_no_empty_box_no_line_for_the_terminal_and_no_stray_escape(tmp_path):
    """Issue 34, finding 9: a source puzzle (lesson 1) and a score-sheet puzzle (lesson 11)
    have no position, and print none (no empty ``<pre>`` or fence); no lesson tells paper to
    type ``hint``; a table of signed figures and a quotation's "a > b" print as written."""
    for key in ("history", "tournament", "sources-compared"):
        ws = build(course_lesson(key), 3)
        empty = [p for p in ws.puzzles if not p.position.strip()]
        assert empty, key  # source / score-sheet puzzles: nothing to draw
        page, text = render_html(ws), render_markdown(ws)
        assert not re.search(r"<pre>\s*</pre>", page)
        assert not re.search(r"```text\n\s*\n?```", text)
        assert page.count("<pre>") == len(ws.puzzles) - len(empty)
        for out in (page, text):
            assert "hint" not in out.lower().replace("hints", "")
        assert "&gt;" not in text and "\\~" not in text and "\\+" not in text
        assert not re.search(r"\| \\[-+]\d|\d\\\.\d", text)  # "\+1.09", "0\.18"
    # every lesson's prose, which goes on paper too, leaves the terminal's words to the
    # program: no "Type `hint`"
    from tutor.teaching.lessons import lesson_files

    for path in lesson_files():
        assert "`hint`" not in path.read_text(encoding="utf-8"), path.name


def test_answer_key_on_a_separate_page_and_the_same_puzzles_as_the_lesson(tmp_path):
    lesson = course_lesson("oversights")
    out = tmp_path / "sheet.html"
    assert main(["worksheet", lesson.id, "--seed", "8", "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    puzzles = [p for _, p in lesson_puzzles(lesson, 8)]
    head, key = page.split('<section class="key">')
    assert ".key { break-before: page; page-break-before: always; }" in head
    for i, p in enumerate(puzzles, 1):
        assert f"<h3>Puzzle {i}</h3>" in head
        assert p.id in key and p.id not in head.split("<h2>Puzzles</h2>")[0]
        assert f"<h3>Puzzle {i}: " in key
    # the lesson's quotations, verbatim (escaped), with citations
    for ref in lesson.quotes:
        from tutor.engine.sources import default_library

        q = default_library().quotation(ref)
        assert __import__("html").escape(q.text) in head
    assert "Lesson 8: Oversights" in head


def test_markdown_file_and_page_break(tmp_path):
    out = tmp_path / "sheet.md"
    assert main(["worksheet", "7", "--seed", "2", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Lesson 7: ")
    intro, *pages, key = text.split(PAGE_BREAK)
    ws = build(course_lesson("7"), 2)
    assert len(pages) == len(ws.pages) >= 1
    # the lesson itself first: its prose and its quotations; no puzzle before the page break
    assert "## Settling the pot" in intro or "## " in intro.split("## You will learn to")[1]
    assert "> “" in intro and "### Puzzle" not in intro
    assert pages[0].lstrip().startswith("## Puzzles")
    for page, group in zip(pages, ws.pages):
        assert re.findall(r"^### Puzzle (\d+)$", page, re.M) == [str(p.number) for p in group]
        # a fence for each position; a question with none shows no empty box (issue 33)
        assert page.count("```text") == sum(1 for p in group if p.position.strip())
    assert key.lstrip().startswith("## Answer key") and "```text" not in key


def test_bad_suffix_and_unknown_lesson(tmp_path, capsys):
    assert main(["worksheet", "3", "--out", str(tmp_path / "x.pdf")]) == 2
    assert "x.pdf: the worksheet is written as .html or .md" in capsys.readouterr().err
    assert main(["worksheet", "nope", "--out", str(tmp_path / "x.html")]) == 2
    assert "unknown lesson 'nope'" in capsys.readouterr().err
    with pytest.raises(UsageError):
        write_worksheet(course_lesson("terms"), 1, tmp_path / "x.txt")


def test_a_lesson_without_puzzles(tmp_path):
    # every lesson of the course tests its objectives with puzzles; a lesson taken without its
    # puzzle blocks still makes a worksheet
    import dataclasses

    from tutor.teaching.lessons import Block

    history = course_lesson("history")
    bare = dataclasses.replace(
        history,
        pages=[
            [i for i in page if not (isinstance(i, Block) and i.kind == "puzzle")]
            for page in history.pages
        ],
    )
    text = render_markdown(build(bare, 1))
    assert "This lesson has no puzzles." in text
    assert "> “There is no other Game at cards that is any thing a kin to this.”" in text


# --------------------------------------------------------------------------------------------
# Quotations' own markup, rendered


def test_quotation_markup_becomes_tags_never_literal_markup():
    assert (
        quote_html("Willughby’s <cite>Book of Games</cite>.")
        == "Willughby’s <em>Book of Games</em>."
    )
    assert (
        quote_html("a **pair** by **matching** one")
        == "a <strong>pair</strong> by <strong>matching</strong> one"
    )
    assert quote_html("winning 6 *instead* of 1") == "winning 6 <em>instead</em> of 1"
    assert quote_html("(a ‘{%a glossary#mournival,murnivall %}’)") == "(a ‘murnivall’)"
    # no other markup from a source passes: tags dropped (their words kept), text escaped
    assert (
        quote_html('<script>alert(1)</script> <b onclick="x">b</b> & a < b')
        == "alert(1) <strong>b</strong> &amp; a &lt; b"
    )
    assert (
        quote_markdown("a **pair** & *instead* <cite>Book</cite> [x]")
        == r"a **pair** & *instead* *Book* [x]"
    )
    assert quote_markdown("**YOU DO NOT WIN A POINT** with") == "**YOU DO NOT WIN A POINT** with"


def test_worksheets_show_quotations_formatted_and_puzzle_code_as_code(library):
    from markdown_it import MarkdownIt

    lesson = course_lesson("tournament")
    ws = build(lesson, 3, library)
    page = render_html(ws)
    assert "**" not in page and "&lt;cite&gt;" not in page and "`" not in page
    assert "<strong>PAIRS</strong>" in page  # inter-livery-2018:object
    text = render_markdown(ws)
    html = MarkdownIt("commonmark").render(text)
    assert "<strong>PAIRS</strong>" in html and "\\*\\*" not in text
    # lesson 1 quotes the compendium's <cite> and template link: shown as the page shows them
    first = render_html(build(course_lesson("history"), 1, library))
    assert "<em>Book of Games</em>" in first and "&lt;cite&gt;" not in first
    # a question's code spans are code, on screen and on paper (no literal backticks)
    sheet = render_html(build(course_lesson("oversights"), 3, library))
    assert "`" not in sheet and "<code>nothing</code>" in sheet


def test_terminal_lesson_view_renders_quotation_markup():
    from tutor.puzzles.quoted import quote_text

    t = quote_text("a **pair** and <cite>Book of Games</cite> and *instead*", style="italic")
    assert t.plain == "a pair and Book of Games and instead"
    styles = {t.plain[s.start : s.end]: str(s.style) for s in t.spans}
    assert styles == {"pair": "bold", "Book of Games": "not italic", "instead": "not italic"}


# --------------------------------------------------------------------------------------------
# Printing: two or three puzzles to a page, the key on a page of its own


def _sheet(lines: list[int]) -> list[WorksheetPuzzle]:
    return [
        WorksheetPuzzle(i + 1, "\n".join(["x"] * (n - 8)), "", "a", "", [], f"id{i}")
        for i, n in enumerate(lines)
    ]


@pytest.mark.parametrize(
    "lines, pages",
    [
        ([30, 30, 30], [2, 1]),  # three do not fit (90 > 83): two, then one
        ([28, 28, 28], [2, 1]),  # (84 > 83)
        ([27, 28, 28], [3]),
        ([20] * 4, [2, 2]),  # never three then one
        ([20] * 7, [3, 2, 2]),
        ([12] * 9, [3, 3, 3]),
        ([50, 50], [1, 1]),  # a puzzle taller than half a page stands alone
        ([20], [1]),
        ([], []),
    ],
)
def test_page_groups(lines, pages):
    puzzles = _sheet(lines)
    assert [p.lines for p in puzzles] == lines
    groups = page_groups(puzzles)
    assert [len(g) for g in groups] == pages
    assert [p for g in groups for p in g] == puzzles
    assert all(sum(p.lines for p in g) <= PAGE_LINES or len(g) == 1 for g in groups)


def _printed_structure(page: str):
    """The worksheet's page-break rules and its sections as printed: (css rules, intro html,
    [puzzle numbers of each sheet], key html)."""
    css = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    rules: dict[str, str] = {}
    for sel, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        rules[sel.strip()] = rules.get(sel.strip(), "") + body
    intro, rest = page.split('<section class="sheet">', 1)
    sections = re.findall(
        r'<section class="(sheet|key)">(.*?)</section>', '<section class="sheet">' + rest, re.S
    )
    kinds = [k for k, _ in sections]
    assert kinds == ["sheet"] * (len(kinds) - 1) + ["key"]  # the key comes last
    sheets = [
        [int(n) for n in re.findall(r"<h3>Puzzle (\d+)</h3>", body)]
        for k, body in sections
        if k == "sheet"
    ]
    return rules, intro, sheets, sections[-1][1]


@pytest.mark.parametrize("key, seed", [("oversights", 3), ("capturing", 1), ("terms", 2)])
def test_printed_worksheet_structure(key, seed, library):
    ws = build(course_lesson(key), seed, library)
    rules, intro, sheets, key_html = _printed_structure(render_html(ws))
    # page breaks: each sheet and the key start a page; no puzzle is split across pages
    assert "break-before: page" in rules[".sheet"] and "break-before: page" in rules[".key"]
    assert "break-inside: avoid" in rules[".puzzle"]
    # the title page holds no puzzle; every puzzle is on exactly one sheet, in order
    assert "<h3>Puzzle" not in intro
    assert [n for s in sheets for n in s] == list(range(1, len(ws.puzzles) + 1))
    # the sheets are the pages counted (page_groups): two or three to a page, the first under
    # the heading and instructions; a single puzzle only when it would not fit the page before
    assert sheets == [[p.number for p in g] for g in ws.pages]
    used = [sum(ws.puzzles[n - 1].lines for n in s) for s in sheets]
    used[0] += ws.instruction_lines + _HEADING_LINES
    for i, s in enumerate(sheets):
        assert 1 <= len(s) <= 3 and (used[i] <= PAGE_LINES or len(s) == 1)
        if len(s) == 1 and i > 0:
            assert len(sheets[i - 1]) == 3 or used[i - 1] + used[i] > PAGE_LINES
    # the key: every answer, no puzzle position
    assert "<pre>" not in key_html
    assert re.findall(r"<h3>Puzzle (\d+): ", key_html) == [
        str(n) for n in range(1, len(ws.puzzles) + 1)
    ]


def _chromium():
    import shutil

    return next(
        (
            shutil.which(n)
            for n in ("chromium", "chromium-browser", "google-chrome")
            if shutil.which(n)
        ),
        None,
    )


def _lesson_with_counts(tmp_path, key, count):
    """Lesson ``key`` of the course with every puzzle block asking ``count`` puzzles (a copy
    in ``tmp_path``): since issue 24 made the boards compact (every board fits 80x24), no
    course lesson's own puzzles come to the far side of either edge of a page."""
    entry = find_lesson(key)
    text = re.sub(
        r"(```puzzle\n(?:[a-z_]+: .*\n)*?count: )\d+",
        lambda m: m.group(1) + str(count),
        entry.path.read_text(encoding="utf-8"),
    )
    path = tmp_path / entry.path.name
    path.write_text(text, encoding="utf-8")
    lesson = load_lesson(path)
    lesson.number = entry.number
    return lesson


@pytest.mark.parametrize(
    "lesson, count, seed, groups",
    [
        ("05-declarations", None, 27, [3, 3]),  # 82 lines under the heading and instructions
        ("09-strategy", 1, 1, [2, 1]),  # the third does not fit under them: on its own
        ("09-strategy", None, 98, [3, 2]),  # 82 there too, and the rest on a later page
        ("09-strategy", 2, 8, [3, 2, 1]),  # the sixth does not fit a later page: on its own
    ],
)
@pytest.mark.chromium
@pytest.mark.skipif(_chromium() is None, reason="Chromium is not installed")
def test_worksheet_puzzle_pages_print_as_counted(tmp_path, lesson, count, seed, groups):
    """Print worksheets with headless Chromium, either side of the edge of a page
    (:data:`PAGE_LINES`): the title and the lesson on two pages, the puzzles on the pages
    :func:`page_groups` counts (the first under the lesson's instructions for them), and the
    answer key after them (where ``pdftotext`` is installed, each puzzle is found on the page
    counted; else the pages are counted, the key taken to fill one).  ``count``: every puzzle block of the lesson set to
    ask that many (None: the lesson as it is, written by ``laugh worksheet``)."""
    import subprocess

    from tutor.teaching.worksheet import write_worksheet

    html_file = tmp_path / "sheet.html"
    pdf = tmp_path / "sheet.pdf"
    if count is None:
        assert main(["worksheet", lesson, "--seed", str(seed), "--out", str(html_file)]) == 0
        ws = build(course_lesson(lesson), seed)
    else:
        ws = build(_lesson_with_counts(tmp_path, lesson, count), seed)
        write_worksheet(_lesson_with_counts(tmp_path, lesson, count), seed, html_file)
    assert [len(g) for g in ws.pages] == groups
    subprocess.run(
        [
            _chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            html_file.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    data = pdf.read_bytes()
    pages = len(re.findall(rb"/Type\s*/Page(?![s\w])", data))
    assert pages >= 2 + len(groups) + 1
    import shutil

    if shutil.which("pdftotext") is None:  # poppler-utils: the puzzles page by page
        assert pages == 2 + len(groups) + 1  # (a key of one page assumed)
        return
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True, timeout=60
    ).stdout
    printed = [
        [int(n) for n in re.findall(r"^Puzzle (\d+)$", page, re.M)] for page in text.split("\f")
    ]
    first = next(i for i, page in enumerate(printed) if page)
    assert printed[:first] == [[], []]  # the title and the lesson
    assert printed[first : first + len(groups)] == [[p.number for p in g] for g in ws.pages]
    assert "Answer key" in text.split("\f")[first + len(groups)]  # the key on a page of its own
