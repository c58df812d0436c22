"""Lesson prose as rich renderables.

The prose is CommonMark parsed by markdown-it-py with raw HTML off, so ``<b>`` or ``<script>`` in a
lesson is shown as the text it is, never interpreted.  Headings are bold, emphasis italic,
``inline code`` that reads as cards (`` `7H 7D` ``) is shown as coloured cards, lists and block
quotations are indented, tables become rich tables.  Widths follow the console, so 40 columns
works.
"""

from __future__ import annotations

from functools import lru_cache

from rich.console import Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from tutor.puzzles.board import cards_text
from tutor.teaching.prose import as_cards


@lru_cache(maxsize=1)
def parser():
    """The markdown-it parser used for every lesson: CommonMark, raw HTML off, tables on."""
    # markdown-it only when a lesson page is shown: the home screen never needs it
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table")


def render_markdown(text: str, symbols: bool = True, bullet: str = "•"):
    """``text`` (CommonMark) as one rich renderable (a ``Group``) of its blocks, with a blank
    line between blocks.  ``symbols`` chooses suit symbols or letters for inline cards."""
    from markdown_it.tree import SyntaxTreeNode  # lazily, as in parser()

    tree = SyntaxTreeNode(parser().parse(text))
    return Group(*_blocks(tree.children, symbols, bullet, spaced=True))


def _blocks(nodes, symbols: bool, bullet: str, spaced: bool) -> list:
    out: list = []
    for node in nodes:
        r = _block(node, symbols, bullet)
        if r is None:
            continue
        if out and spaced:
            out.append(Text(""))
        out.append(r)
    return out


def _block(node, symbols: bool, bullet: str):
    t = node.type
    if t == "paragraph":
        return _inline_of(node, symbols)
    if t == "heading":
        text = _inline_of(node, symbols)
        level = int(node.tag[1]) if node.tag[1:].isdigit() else 2
        text.stylize("bold underline" if level == 1 else "bold" if level == 2 else "bold italic")
        return text
    if t in ("bullet_list", "ordered_list"):
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column(ratio=1)
        start = int(node.attrs.get("start", 1)) if t == "ordered_list" else 1
        for i, item in enumerate(node.children):
            mark = f"{start + i}." if t == "ordered_list" else bullet
            grid.add_row(
                mark, Group(*_blocks(item.children, symbols, bullet, spaced=not _tight(item)))
            )
        return grid
    if t == "blockquote":
        return Padding(
            Group(*_blocks(node.children, symbols, bullet, spaced=True)),
            (0, 0, 0, 2),
            style="italic",
        )
    if t in ("fence", "code_block"):
        return Padding(Text(node.content.rstrip("\n"), style="dim"), (0, 0, 0, 2))
    if t == "hr":
        return Text("")
    if t == "table":
        table = Table(show_lines=False, expand=False)
        head = [n for n in node.children if n.type == "thead"]
        body = [n for n in node.children if n.type == "tbody"]
        if head:
            for cell in head[0].children[0].children:
                table.add_column(_inline_of(cell, symbols))
        for part in body:
            for row in part.children:
                table.add_row(*[_inline_of(c, symbols) for c in row.children])
        return table
    if t in ("html_block",):  # never produced with html off; kept as text if it were
        return Text(node.content)
    # Unknown container: render its children.
    if node.children:
        return Group(*_blocks(node.children, symbols, bullet, spaced=True))
    return Text(node.content or "")


def _tight(item) -> bool:
    """True for an item of a tight list (its paragraphs are marked hidden: no blank lines)."""
    return any(c.type == "paragraph" and c.hidden for c in item.children)


def _inline_of(node, symbols: bool = True):
    """The inline content of a block node (paragraph, heading, table cell) as ``Text``."""
    text = Text()
    for child in node.children:
        if child.type == "inline":
            _inline(child.children, text, symbols, "")
    return text


def _inline(nodes, text, symbols: bool, style: str) -> None:
    for n in nodes:
        t = n.type
        if t == "text":
            text.append(n.content, style=style or None)
        elif t == "softbreak":
            text.append(" ")
        elif t == "hardbreak":
            text.append("\n")
        elif t == "strong":
            _inline(n.children, text, symbols, (style + " bold").strip())
        elif t == "em":
            _inline(n.children, text, symbols, (style + " italic").strip())
        elif t == "code_inline":
            cards = as_cards(n.content)  # lower-case or symbols stay code: how to type them
            if cards is not None:
                text.append_text(cards_text(cards, symbols))
            else:
                text.append(n.content, style=(style + " bold").strip())
        elif t == "link":
            _inline(n.children, text, symbols, (style + " underline").strip())
            href = n.attrs.get("href", "")
            label = "".join(c.content for c in n.children if c.type == "text")
            if href and href != label:
                text.append(f" ({href})", style="dim")
        elif t == "image":
            text.append(f"[{n.content or n.attrs.get('alt', 'image')}]", style="dim")
        elif n.children:
            _inline(n.children, text, symbols, style)
        else:
            text.append(n.content or "", style=style or None)
