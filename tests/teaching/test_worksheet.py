"""Worksheets: the lesson's quotations and puzzles, the answer key on its own page, the same
puzzles as ``laugh lesson --seed``, and everything from data escaped."""

from __future__ import annotations

import re

import pytest

from tutor.app.cli import main
from tutor.engine.errors import UsageError
from tutor.teaching.lessons import find_lesson, load_lesson
from tutor.teaching.worksheet import build, md_escape, render_html, render_markdown, write_worksheet

from support import lesson_puzzles

HOSTILE = """\
---
id: hostile
title: "Tricks <script>alert('t')</script> & <b>bold</b>"
objectives:
  - "Close the tag </li><li onclick=x> and *emphasise* [a link](javascript:alert(1))"
prerequisites: []
sources: [parlett]
minutes: 5
---

# <img src=x onerror=alert(1)>

```quote
parlett:deal-eight
```

```puzzle
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
    assert "&lt;script&gt;alert(&#x27;t&#x27;)&lt;/script&gt;" in page
    assert "&lt;/li&gt;&lt;li onclick=x&gt;" in page
    assert "<b>bold</b>" not in page and "&lt;b&gt;bold&lt;/b&gt;" in page
    assert "href=" not in page
    # the only tags are the worksheet's own
    tags = set(re.findall(r"<\s*([a-zA-Z0-9]+)", page))
    assert tags <= {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p",
                    "code", "span", "ul", "li", "blockquote", "cite", "div", "pre", "section",
                    "br"}


def test_markdown_worksheet_escapes_everything_from_the_lesson(hostile, library):
    text = render_markdown(build(hostile, 1, library))
    assert "<script>" not in text and "</li>" not in text
    assert "&lt;script&gt;" in text
    assert "\\*emphasise\\*" in text and "\\[a link\\]" in text
    from markdown_it import MarkdownIt
    html = MarkdownIt("commonmark").render(text)
    assert "<script>" not in html and "<em>emphasise" not in html and "<a " not in html


@pytest.mark.parametrize("text, safe", [
    ("<b>x</b> & y", "&lt;b&gt;x&lt;/b&gt; &amp; y"),
    ("# not a heading", "\\# not a heading"),
    ("1. not a list", "1\\. not a list"),
    ("a | b `c`", "a \\| b \\`c\\`"),
])
def test_md_escape(text, safe):
    assert md_escape(text) == safe


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
    before, after = text.split('<div style="page-break-before: always"></div>')
    assert "## Puzzles" in before and "## Answer key" in after
    assert "```text" in before


def test_bad_suffix_and_unknown_lesson(tmp_path, capsys):
    assert main(["worksheet", "3", "--out", str(tmp_path / "x.pdf")]) == 2
    assert "x.pdf: the worksheet is written as .html or .md" in capsys.readouterr().err
    assert main(["worksheet", "nope", "--out", str(tmp_path / "x.html")]) == 2
    assert "no lesson 'nope'" in capsys.readouterr().err
    with pytest.raises(UsageError):
        write_worksheet(course_lesson("terms"), 1, tmp_path / "x.txt")


def test_a_lesson_without_puzzles(tmp_path):
    text = render_markdown(build(course_lesson("history"), 1))
    assert "This lesson has no puzzles." in text
    assert "> “There is no other Game at cards that is any thing a kin to this.”" in text
