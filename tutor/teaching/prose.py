"""A lesson's prose on paper: its CommonMark as HTML and as safe Markdown.

The prose is parsed by markdown-it-py with raw HTML off, as on screen (``tutor.app.markdown``):
``<b>`` or ``<script>`` in a lesson is text, never markup.  Headings move down one level (the
page's own title is the only ``<h1>``), and inline code that reads as cards (`` `7H 7D` ``) is
shown as cards (7♥ 7♦).

:func:`prose_markdown` writes the same prose back as Markdown that cannot carry markup either:
every text run escaped (:func:`md_escape`), so a handout read by a Markdown tool with HTML on
shows a lesson's ``<script>`` as text.
"""

from __future__ import annotations

import re
from functools import lru_cache

from markupsafe import Markup, escape

from tutor.engine.cards import parse_cards, pretty_cards
from tutor.engine.errors import NotationError

__all__ = ["as_cards", "md_code", "md_escape", "prose_html", "prose_markdown"]

_CARD_CODE = re.compile(r"^(?:[A2-9TJQK]|10)[CDHS]$")


def as_cards(content: str) -> list[int] | None:
    """The cards ``content`` names in canonical codes (``7H 7D``, ``TS`` or ``10S``), or None
    (as the terminal reads a lesson's inline code)."""
    words = content.replace(",", " ").split()
    if not words or not all(_CARD_CODE.match(w) for w in words):
        return None
    try:
        return parse_cards(words)
    except NotationError:
        return None


@lru_cache(maxsize=1)
def _parser():
    from markdown_it import MarkdownIt
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def prose_html(text: str, symbols: bool = True) -> Markup:
    """``text`` (CommonMark) as an HTML fragment: raw HTML off, headings one level down (at
    most ``<h6>``), inline code that reads as cards shown as cards with suit symbols (or
    letters)."""
    md = _parser()
    tokens = md.parse(text)
    for t in tokens:
        if t.type in ("heading_open", "heading_close"):
            t.tag = f"h{min(6, int(t.tag[1]) + 1)}"
        if t.type == "inline" and t.children:
            for child in t.children:
                if child.type == "code_inline":
                    cards = as_cards(child.content)
                    if cards is not None:
                        child.type = "html_inline"         # our own escaped markup
                        child.content = (f'<span class="cards">'
                                         f"{escape(pretty_cards(cards, symbols))}</span>")
    return Markup(md.renderer.render(tokens, md.options, {}))


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


def md_code(words: str) -> str:
    """``words`` as a Markdown code span (a fence of backticks longer than any inside)."""
    ticks = "`" * (max((len(m) for m in re.findall(r"`+", words)), default=0) + 1)
    pad = " " if words.startswith("`") or words.endswith("`") else ""
    return f"{ticks}{pad}{words}{pad}{ticks}"


def prose_markdown(text: str, symbols: bool = True) -> str:
    """``text`` (CommonMark) written again as Markdown with every text run escaped: headings one
    level down, lists, quotations, tables, emphasis and code kept; cards in code shown as
    cards; a link as its words and its address in brackets."""
    from markdown_it.tree import SyntaxTreeNode
    tree = SyntaxTreeNode(_parser().parse(text))
    return "\n".join(_md_blocks(tree.children, symbols)).strip("\n") + "\n"


def _md_blocks(nodes, symbols: bool, prefix: str = "") -> list[str]:
    out: list[str] = []
    for node in nodes:
        out += [prefix + line if line else prefix.rstrip() for line in _md_block(node, symbols)]
        out.append(prefix.rstrip())
    return out


def _md_block(node, symbols: bool) -> list[str]:
    t = node.type
    if t == "paragraph":
        return _md_inline_lines(node, symbols)
    if t == "heading":
        level = min(6, int(node.tag[1]) + 1)
        return ["#" * level + " " + " ".join(_md_inline_lines(node, symbols))]
    if t in ("bullet_list", "ordered_list"):
        lines: list[str] = []
        start = int(node.attrs.get("start", 1)) if t == "ordered_list" else 1
        for i, item in enumerate(node.children):
            mark = f"{start + i}. " if t == "ordered_list" else "- "
            body = [line for line in _md_blocks(item.children, symbols)]
            while body and not body[-1]:
                body.pop()
            body = [line for line in body if line] if _tight(item) else body
            lines += [(mark if j == 0 else " " * len(mark)) + line if line else ""
                      for j, line in enumerate(body)]
        return lines
    if t == "blockquote":
        body = _md_blocks(node.children, symbols)
        while body and not body[-1]:
            body.pop()
        return ["> " + line if line else ">" for line in body]
    if t in ("fence", "code_block"):
        content = node.content.rstrip("\n")
        longest = max((len(m) for m in re.findall(r"`+", content)), default=0)
        fence = "`" * max(3, longest + 1)
        return [f"{fence}text", *content.splitlines(), fence]
    if t == "hr":
        return []
    if t == "table":
        rows = []
        for part in node.children:
            for row in part.children:
                rows.append([" ".join(_md_inline_lines(cell, symbols)) for cell in row.children])
        if not rows:
            return []
        out = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
        out += ["| " + " | ".join(r) + " |" for r in rows[1:]]
        return out
    if node.children:
        return [line for line in _md_blocks(node.children, symbols)]
    return [md_escape(node.content or "")]


def _tight(item) -> bool:
    return any(c.type == "paragraph" and c.hidden for c in item.children)


def _md_inline_lines(node, symbols: bool) -> list[str]:
    lines = [""]
    for child in node.children:
        if child.type == "inline":
            _md_inline(child.children, lines, symbols)
    return [line.strip() for line in lines if line.strip()] or [""]


def _md_inline(nodes, lines: list[str], symbols: bool) -> None:
    for n in nodes:
        t = n.type
        if t == "text":
            words = n.content
            lead = " " if words[:1].isspace() else ""
            trail = " " if words[-1:].isspace() else ""
            lines[-1] += lead + md_escape(words) + trail if words.strip() else words
        elif t == "softbreak":
            lines[-1] += " "
        elif t == "hardbreak":
            lines[-1] += "  "
            lines.append("")
        elif t in ("strong", "em"):
            mark = "**" if t == "strong" else "*"
            inner = [""]
            _md_inline(n.children, inner, symbols)
            lines[-1] += mark + " ".join(x.strip() for x in inner) + mark
        elif t == "code_inline":
            cards = as_cards(n.content)
            lines[-1] += md_escape(pretty_cards(cards, symbols)) if cards is not None \
                else md_code(n.content)
        elif t == "link":
            inner = [""]
            _md_inline(n.children, inner, symbols)
            href = n.attrs.get("href", "")
            lines[-1] += " ".join(inner) + (f" ({md_escape(str(href))})" if href else "")
        elif t == "image":
            lines[-1] += md_escape(f"[{n.content or n.attrs.get('alt', 'image')}]")
        elif n.children:
            _md_inline(n.children, lines, symbols)
        else:
            lines[-1] += md_escape(n.content or "")
