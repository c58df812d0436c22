"""Quotations as their readers see them: the markup of a source's own text, rendered.

A quotation is stored verbatim, markup and all (``sources/README.md``): the Inter-Livery sheet's
Markdown bold (``**pair**``), the compendium's HTML (``<cite>Book of Games</cite>``), its template
links (``{%a glossary#mournival,murnivall %}``) and du Coeur's plain-text emphasis
(``*instead*``).  ``laugh sources check`` compares that stored text with the source text; every
view shows it *rendered*, as the source's page shows it.  :func:`quote_spans` turns the stored text
into styled runs of plain words, which :func:`quote_text` makes a rich ``Text`` for the terminal
and :mod:`tutor.teaching.worksheet` writes as HTML or Markdown.

What is rendered: Markdown emphasis (``*em*``, ``_em_``, ``**strong**``), code spans, autolinks and
links (their words), images (their alt text), the inline HTML tags ``cite i em var dfn`` (italic),
``b strong`` (bold), ``code kbd samp tt`` (code) and ``br``, and the compendium's template links
``{% a target, words %}`` (their words).  Its citations ``[@FrancisWillughby p. 138]`` are kept
as they stand, set as code (markup, shown faithfully: we do not know how its page writes them,
and a quotation is never rewritten inside its quotation marks).  Any other tag is dropped and its
words kept, so a quotation never carries markup of its own into a page (no ``<script>``, no
attributes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from rich.text import Text

__all__ = ["Span", "quote_plain", "quote_spans", "quote_text", "quoted_text"]

_ITALIC_TAGS = frozenset({"cite", "i", "em", "var", "dfn"})
_BOLD_TAGS = frozenset({"b", "strong"})
_CODE_TAGS = frozenset({"code", "kbd", "samp", "tt"})
_TAG_RE = re.compile(r"^<\s*(/?)\s*([A-Za-z][A-Za-z0-9]*)\b[^>]*?(/?)\s*>$")
#: ``{% a target, words %}`` (and ``{%a target,words %}``): a template link; its words are shown.
_TEMPLATE_LINK_RE = re.compile(r"\{%-?\s*a\s+[^,%]*,\s*(.*?)\s*-?%\}")
#: ``[@FrancisWillughby p. 138]``: a citation in the page's source (Pandoc's syntax), kept as it
#: stands and set as code.
_CITATION_RE = re.compile(r"\[@([A-Za-z][A-Za-z0-9_]*)(?:[,\s]+([^\]`]*))?\]")


def _citation(m: re.Match[str]) -> str:
    """A Pandoc citation kept word for word, as a code span (markup the page's file holds)."""
    return f"`{m.group(0)}`"


@dataclass(frozen=True)
class Span:
    """A run of quoted words, ``text``, in one style: ``bold``, ``italic`` (emphasis or a cited
    title) and ``code``."""

    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    # markdown_it is imported lazily: it costs start-up time that most commands never need.
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True})


def quote_spans(text: str) -> list[Span]:
    """The stored ``text`` of a quotation as styled runs (see the module docstring for what is
    rendered).  Adjacent runs of one style are merged; whitespace runs (line breaks included)
    become single spaces; the words themselves are never changed."""
    text = _TEMPLATE_LINK_RE.sub(lambda m: m.group(1), text)
    text = _CITATION_RE.sub(_citation, text)
    tokens = _parser().parseInline(" ".join(text.split()))
    children = tokens[0].children if tokens and tokens[0].children else []
    out: list[Span] = []
    bold = italic = code = 0

    def add(words: str, is_code: bool = False) -> None:
        if not is_code:
            words = re.sub(r"\s+", " ", words)
            if not out or out[-1].text.endswith(" "):
                words = words.lstrip(" ")
        if not words:
            return
        span = Span(words, bold > 0, italic > 0, is_code or code > 0)
        if out and (out[-1].bold, out[-1].italic, out[-1].code) == (
            span.bold,
            span.italic,
            span.code,
        ):
            out[-1] = Span(out[-1].text + words, span.bold, span.italic, span.code)
        else:
            out.append(span)

    for tok in children:
        t = tok.type
        if t == "text":
            add(tok.content)
        elif t in ("softbreak", "hardbreak"):
            add(" ")
        elif t == "strong_open":
            bold += 1
        elif t == "strong_close":
            bold = max(0, bold - 1)
        elif t == "em_open":
            italic += 1
        elif t == "em_close":
            italic = max(0, italic - 1)
        elif t == "code_inline":
            add(tok.content, is_code=True)
        elif t == "image":
            add(tok.content or str(tok.attrs.get("alt", "")))
        elif t == "html_inline":
            m = _TAG_RE.match(tok.content.strip())
            if m is None:
                continue  # a comment or declaration: not words
            closing, name, self_closing = m.group(1), m.group(2).lower(), m.group(3)
            if name == "br":
                add(" ")
                continue
            step = -1 if closing else (0 if self_closing else 1)
            if name in _ITALIC_TAGS:
                italic = max(0, italic + step)
            elif name in _BOLD_TAGS:
                bold = max(0, bold + step)
            elif name in _CODE_TAGS:
                code = max(0, code + step)
        elif t in ("link_open", "link_close"):
            continue
        elif tok.content:
            add(tok.content)
    if out and out[-1].text.endswith(" ") and not out[-1].code:
        last = out.pop()
        if last.text.rstrip(" "):
            out.append(Span(last.text.rstrip(" "), last.bold, last.italic, last.code))
    return out


def quote_plain(text: str) -> str:
    """The words of a quotation without their markup (``**pair**`` -> ``pair``)."""
    return "".join(s.text for s in quote_spans(text))


def quote_text(text: str, style: str = "italic") -> Text:
    """The quotation as a rich ``Text`` in ``style``: bold runs bold, code bold, and emphasis
    set off from ``style`` (upright inside an italic quotation, italic otherwise)."""
    from rich.text import Text

    base_italic = "italic" in style.split() and "not" not in style.split()
    out = Text(style=style)
    for span in quote_spans(text):
        parts = []
        if span.bold or span.code:
            parts.append("bold")
        if span.italic:
            parts.append("not italic" if base_italic else "italic")
        out.append(span.text, style=" ".join(parts) or None)
    return out


def quoted_text(text: str, style: str = "italic") -> Text:
    """:func:`quote_text` between curly quotation marks: a quotation as every listing shows it
    (``laugh sources``, ``laugh rules``); the stored verbatim text is for ``laugh sources
    check`` and ``--json``."""
    from rich.text import Text

    out = Text("\u201c", style=style)
    out.append_text(quote_text(text, style=style))
    out.append("\u201d", style=style)
    return out
