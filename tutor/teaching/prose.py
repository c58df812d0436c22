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

__all__ = ["as_cards", "cards_in_text", "md_code", "md_escape", "prose_html", "prose_markdown"]

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


#: A card code standing as a word of plain text (``3C``, ``TD``, ``10S``).
_CODE_WORD = re.compile(r"(?<![\w-])(?:[A2-9TJQK]|10)[CDHS](?![\w-])")


def cards_in_text(text: str, symbols: bool = True) -> str:
    """Plain text (a figure's caption) with each card code written as the figures write cards:
    ``3C 8D join the table`` -> ``3♣ 8♦ join the table`` (``3C 8D`` without ``symbols``, as
    the figures then write them)."""
    return _CODE_WORD.sub(lambda m: pretty_cards([parse_cards([m.group(0)])[0]], symbols), text)


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
                        child.type = "html_inline"  # our own escaped markup
                        child.content = (
                            f'<span class="cards">{escape(pretty_cards(cards, symbols))}</span>'
                        )
    return Markup(md.renderer.render(tokens, md.options, {}))


# --------------------------------------------------------------------------------------------
# Markdown

_ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: What makes a block at the start of a line: a heading, a quotation, a list item, a setext
#: underline (group 1: the digits of an ordered item, group 2: the mark to backslash).
_MD_LINE_START = re.compile(
    r"^(?:()(#{1,6}(?=\s|$)|>|[-+*](?=\s|$)|[=-](?=[=-]*\s*$))"
    r"|(\d{1,9})([.)])(?=\s|$))"
)
_ENTITY = re.compile(r"#?[0-9A-Za-z]+;")


def md_escape(text: str, start: bool = True) -> str:
    """``text`` safe inside Markdown, on one line, escaped only where Markdown would read it
    otherwise, so the file reads as the words (``+1.09``, ``lowest cut~``, ``hand >`` stay as
    they are): a backtick, a pipe, an asterisk or underscore that could open or close emphasis
    (not one between two spaces, nor an underscore inside a word), two or more tildes
    (strikethrough), a bracket that would open a link, a backslash before punctuation or at
    the end, backslashed; ``<`` before a tag or autolink and ``&`` before an entity as
    entities.  With ``start`` (the text begins a line), also a start that would make a heading,
    quotation, list item or setext underline.  CommonMark (and GFM's tables and
    strikethrough) read the result as exactly ``text``, its spaces collapsed."""
    text = " ".join(text.split())
    tildes = text.count("~") > 1
    brackets = re.search(r"\][(\[:]", text) is not None  # a link or a reference
    closing = re.search(r"(?:^|\s)(#+)$", text)  # a heading's closing #s
    out = []
    n = len(text)
    for i, ch in enumerate(text):
        before = text[i - 1] if i else ""
        after = text[i + 1] if i + 1 < n else ""
        if (
            ch in "`|"
            or (ch == "~" and tildes)
            or (ch == "[" and brackets)
            or (closing is not None and i == closing.start(1))
        ):
            ch = "\\" + ch
        elif ch == "\\":
            if not after or after in _ASCII_PUNCT:
                ch = "\\\\"
        elif ch in "*_":
            spaced = before.isspace() and after.isspace()
            inside = ch == "_" and before.isalnum() and after.isalnum()
            if not (spaced or inside):
                ch = "\\" + ch
        elif ch == "<":
            if after.isalpha() or after in "/!?":
                ch = "&lt;"
        elif ch == "&":
            if _ENTITY.match(text, i + 1):
                ch = "&amp;"
        out.append(ch)
    if start and text:
        m = _MD_LINE_START.match(text)
        if m and m.group(2) is not None and not out[0].startswith("\\"):
            out[0] = "\\" + out[0]
        elif m and m.group(3) is not None:
            k = len(m.group(3))
            out[k] = "\\" + out[k]
    return "".join(out)


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
        return ["#" * level + " " + " ".join(_md_inline_lines(node, symbols, start=False))]
    if t in ("bullet_list", "ordered_list"):
        lines: list[str] = []
        start = int(node.attrs.get("start", 1)) if t == "ordered_list" else 1
        for i, item in enumerate(node.children):
            mark = f"{start + i}. " if t == "ordered_list" else "- "
            body = [line for line in _md_blocks(item.children, symbols)]
            while body and not body[-1]:
                body.pop()
            body = [line for line in body if line] if _tight(item) else body
            lines += [
                (mark if j == 0 else " " * len(mark)) + line if line else ""
                for j, line in enumerate(body)
            ]
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
                rows.append(
                    [
                        " ".join(_md_inline_lines(cell, symbols, start=False))
                        for cell in row.children
                    ]
                )
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


def _md_inline_lines(node, symbols: bool, start: bool = True) -> list[str]:
    lines = [""]
    for child in node.children:
        if child.type == "inline":
            _md_inline(child.children, lines, symbols, start)
    return [line.strip() for line in lines if line.strip()] or [""]


def _md_inline(nodes, lines: list[str], symbols: bool, start: bool = True) -> None:
    """Append ``nodes`` (inline tokens) to ``lines``, escaped; ``start``: the text may begin a
    line (not inside emphasis or a link, which their marks begin)."""
    for n in nodes:
        t = n.type
        at_start = start and not lines[-1].strip()
        if t == "text":
            words = n.content
            lead = " " if words[:1].isspace() else ""
            trail = " " if words[-1:].isspace() else ""
            lines[-1] += lead + md_escape(words, at_start) + trail if words.strip() else words
        elif t == "softbreak":
            lines[-1] += " "
        elif t == "hardbreak":
            lines[-1] += "  "
            lines.append("")
        elif t in ("strong", "em"):
            mark = "**" if t == "strong" else "*"
            inner = [""]
            _md_inline(n.children, inner, symbols, start=False)
            lines[-1] += mark + " ".join(x.strip() for x in inner) + mark
        elif t == "code_inline":
            cards = as_cards(n.content)
            lines[-1] += (
                md_escape(pretty_cards(cards, symbols), at_start)
                if cards is not None
                else md_code(n.content)
            )
        elif t == "link":
            inner = [""]
            _md_inline(n.children, inner, symbols, start=at_start)
            href = n.attrs.get("href", "")
            lines[-1] += " ".join(inner) + (f" ({md_escape(str(href), False)})" if href else "")
        elif t == "image":
            lines[-1] += md_escape(f"[{n.content or n.attrs.get('alt', 'image')}]", at_start)
        elif n.children:
            _md_inline(n.children, lines, symbols, start)
        else:
            lines[-1] += md_escape(n.content or "", at_start)
