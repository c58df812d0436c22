"""The one way the tutor reads YAML: source files, lesson front matter and blocks, puzzle
definitions and puzzle sets.

Every YAML text goes through :func:`compose` (or :func:`load`), which

- reads with PyYAML's safe loader only (``yaml.CSafeLoader`` where PyYAML was built with
  libyaml, else ``yaml.SafeLoader``): plain data, never Python objects;
- refuses, before building anything, a text over :data:`MAX_BYTES`, nesting deeper than
  :data:`MAX_DEPTH`, or more than :data:`MAX_VALUES` values once aliases are expanded (so an
  alias bomb, "billion laughs", is refused in a few milliseconds instead of filling memory), and
  an alias that refers to the node holding it;
- refuses a key given twice in one mapping, and a key that is a list or mapping;
- builds every value up front, so a value that cannot be built (an impossible date, an integer
  of thousands of digits) is refused at its line rather than failing later.

Every refusal is a :class:`~tutor.engine.errors.DataError` with one line,
``FILE:LINE: KEY.PATH: what is wrong``, the line counted in the file even when the YAML is a
part of it (a lesson's front matter, a block).  :func:`read_text` reads a data file within the
same size limit, as UTF-8 with an optional byte-order mark.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    MappingStartEvent,
    NodeEvent,
    ScalarEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from tutor.engine.errors import DataError
from tutor.engine.infile import open_input

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_VALUES",
    "Document",
    "LOADER",
    "compose",
    "load",
    "read_text",
]

#: The largest data file (or YAML text) read, in bytes.  The largest of the project's is ~20 kB.
MAX_BYTES = 1_000_000
#: The deepest nesting of lists and mappings (a source's deepest value is 7 levels down).
MAX_DEPTH = 40
#: The most values (scalars, lists and mappings) a text may hold with its aliases expanded.
MAX_VALUES = 100_000

#: The safe loader: libyaml's where PyYAML was built with it (about ten times faster), else the
#: pure-Python one.  Both build plain data only.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_MERGE_TAG = "tag:yaml.org,2002:merge"


def read_text(path: Path | str, display: str | None = None, *, follow_links: bool = True) -> str:
    """The text of a data file: UTF-8, a leading byte-order mark dropped.

    ``display`` is the name messages use (default ``path`` as given); ``follow_links`` False
    refuses a symbolic link (a file that is a link to another, say a system file, is never
    read, so no line of it is ever quoted in an error).  Raises
    :class:`DataError` (``FILE:LINE: ...`` for bytes that are not UTF-8, the line of the first
    bad byte) when the file cannot be read (missing, no permission, not a regular file: a FIFO,
    a socket, a device; see :mod:`tutor.engine.infile`), is larger than :data:`MAX_BYTES`, or is
    not UTF-8.
    """
    p = Path(path)
    name = display if display is not None else str(path)
    try:
        with open_input(p, follow_links=follow_links) as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise DataError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise DataError(
            f"{name}:1: the file is larger than {MAX_BYTES:,} bytes; a data file is far smaller"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DataError(
            f"{name}:{line}: not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None
    return text.removeprefix("\ufeff")


class Document:
    """A YAML text composed within the limits: its node tree and helpers that name places.

    ``root`` is the top node (None for an empty text); ``display`` the file name for messages;
    ``first_line`` the file line of the text's first line; ``prefix`` the key path of the text
    within a larger whole (a lesson block's kind), prepended to every path in messages.
    """

    def __init__(self, loader: Any, root: Node | None, display: str, first_line: int, prefix: str):
        self.loader = loader
        self.root = root
        self.display = display
        self.first_line = first_line
        self.prefix = prefix

    def line(self, node: Node | None) -> int:
        """The file line (1-based) where ``node`` starts (the text's first line for None)."""
        return self.first_line + (node.start_mark.line if node is not None else 0)

    def path(self, path: str = "") -> str:
        """``path`` with the document's prefix."""
        if self.prefix and path:
            return f"{self.prefix}.{path}"
        return self.prefix or path

    def error(self, node: Node | None, path: str, message: str) -> DataError:
        """A :class:`DataError` ``FILE:LINE: PATH: message`` at ``node``."""
        return DataError(_message(self.display, self.line(node), self.path(path), message))

    def value(self, node: Node | None = None) -> object:
        """The plain Python data of ``node`` (default the whole document; None when empty).

        Every scalar was already built by :func:`compose`, so this raises only for a malformed
        merge key (``<<``), as a :class:`DataError` at its line.
        """
        node = self.root if node is None else node
        if node is None:
            return None
        try:
            if node is self.root:
                return self.loader.construct_document(node)
            return self.loader.construct_object(node, deep=True)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = self.first_line + (mark.line if mark else 0)
            raise DataError(
                _message(self.display, line, self.path(), _one_line(exc.problem or str(exc)))
            ) from None

    def entries(self, node: Node) -> dict[object, tuple[Node, Node]]:
        """A mapping node's entries as ``{key: (key node, value node)}`` (merge keys applied,
        a document's own keys winning); {} for any other node."""
        if not isinstance(node, MappingNode):
            return {}
        own: dict[Any, tuple[Node, Node]] = {}
        merged: dict[Any, tuple[Node, Node]] = {}
        for knode, vnode in node.value:
            if knode.tag == _MERGE_TAG:
                for sub in vnode.value if isinstance(vnode, SequenceNode) else [vnode]:
                    for k, kv in self.entries(sub).items():
                        merged.setdefault(k, kv)
                continue
            own.setdefault(self.loader.construct_object(knode), (knode, vnode))
        return {**merged, **own}

    def key_lines(self, node: Node | None = None) -> dict[object, int]:
        """Each key of a mapping node (default the root) -> the file line of that key."""
        node = self.root if node is None else node
        return (
            {k: self.line(kn) for k, (kn, _) in self.entries(node).items()}
            if node is not None
            else {}
        )

    def find(self, *keys: int | str) -> Node | None:
        """The node at ``keys`` (mapping keys and list indexes) from the root, or None."""
        node = self.root
        for k in keys:
            if isinstance(node, MappingNode):
                entry = self.entries(node).get(k)
                node = entry[1] if entry else None
            elif isinstance(node, SequenceNode) and isinstance(k, int) and 0 <= k < len(node.value):
                node = node.value[k]
            else:
                return None
        return node

    def line_of(self, *keys: int | str) -> int:
        """The file line of the key (or list item) at ``keys``, else of the nearest enclosing
        one found, else the text's first line."""
        node = self.root
        line = self.first_line
        for k in keys:
            if isinstance(node, MappingNode):
                entry = self.entries(node).get(k)
                if entry is None:
                    break
                line, node = self.line(entry[0]), entry[1]
            elif isinstance(node, SequenceNode) and isinstance(k, int) and 0 <= k < len(node.value):
                node = node.value[k]
                line = self.line(node)
            else:
                break
        return line


def compose(text: str, display: str, first_line: int = 1, prefix: str = "") -> Document:
    """Compose ``text`` into a :class:`Document` within the limits (see the module docstring).

    ``display`` names the file in messages; ``first_line`` is the file line of the text's first
    line; ``prefix`` is a key path put before every path in messages.  Raises
    :class:`DataError` (``FILE:LINE: PATH: what is wrong``) for a text too large, too deep, with
    too many values once aliases are expanded, a recursive or undefined alias, a YAML syntax
    error, a duplicate or non-scalar key, or a value that cannot be built.
    """
    text = text.removeprefix("\ufeff")
    if len(text) > MAX_BYTES:
        raise DataError(
            _message(display, first_line, prefix, f"longer than {MAX_BYTES:,} characters")
        )
    try:
        _check_events(text, display, first_line, prefix)
        loader = LOADER(text)
        root = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        # The context mark is where the broken construct began (an unclosed bracket's line);
        # the problem mark where the parser gave up.  The first is the line to fix.
        mark = exc.context_mark or exc.problem_mark
        line = first_line + (mark.line if mark else 0)
        if exc.problem and "nesting depth" in exc.problem:
            # libyaml 0.2.6 and later (PyYAML 6.0.4) refuse 1,000 open brackets while scanning,
            # before a single event reaches the depth check: say it in the same words.
            raise DataError(
                _message(display, line, prefix, f"nested more than {MAX_DEPTH} levels deep")
            ) from None
        what = " ".join(str(x) for x in (exc.context, exc.problem) if x) or _one_line(str(exc))
        raise DataError(
            _message(
                display,
                line,
                prefix,
                ("not valid YAML: " if prefix else "YAML syntax error: ") + what,
            )
        ) from None
    except yaml.YAMLError as exc:
        raise DataError(
            _message(display, first_line, prefix, f"YAML error: {_one_line(str(exc))}")
        ) from None
    doc = Document(loader, root, display, first_line, prefix)
    if root is not None:
        _check_nodes(doc, root, "", set())
    return doc


def load(text: str, display: str, first_line: int = 1, prefix: str = "") -> tuple[object, Document]:
    """``(data, document)``: the plain data of ``text`` and its :class:`Document` (for lines).

    Raises :class:`DataError` as :func:`compose`.
    """
    doc = compose(text, display, first_line, prefix)
    return doc.value(), doc


# --------------------------------------------------------------------------------------------
# The checks


class _Frame:
    """One open list or mapping while the events stream by."""

    __slots__ = (
        "mapping",
        "path",
        "key",
        "expect_key",
        "index",
        "anchor",
        "start",
        "level",
        "deepest",
    )

    def __init__(self, mapping: bool, path: str, anchor: str | None, start: int, level: int):
        self.mapping = mapping
        self.path = path
        self.key: str = "?"
        self.expect_key = True
        self.index = 0
        self.anchor = anchor
        self.start = start
        self.level = level
        self.deepest = level


def _check_events(text: str, display: str, first_line: int, prefix: str) -> None:
    """Stream the parser's events (libyaml's parser keeps no Python stack, so any depth is
    safe) and refuse excess depth, alias expansion and recursive aliases before composing."""
    loader = LOADER(text)
    stack: list[_Frame] = []
    anchors: dict[str, tuple[int, int]] = {}  # closed anchor -> (values, depth)
    open_anchors: set[str] = set()
    total = 0

    def fail(event: Any, path: str, message: str) -> DataError:
        return DataError(
            _message(
                display,
                first_line + event.start_mark.line,
                _join(prefix, path) if path else prefix,
                message,
            )
        )

    def child_path() -> str:
        if not stack:
            return ""
        top = stack[-1]
        if top.mapping:
            return top.path if top.expect_key else _join(top.path, top.key)
        return _join(top.path, top.index)

    def done_child(value_text: str | None) -> None:
        if not stack:
            return
        top = stack[-1]
        if top.mapping:
            if top.expect_key:
                top.key = value_text if value_text is not None else "?"
            top.expect_key = not top.expect_key
        else:
            top.index += 1

    try:
        while loader.check_event():
            event = loader.get_event()
            if not isinstance(event, (NodeEvent, CollectionEndEvent)):
                continue
            if isinstance(event, CollectionEndEvent):
                frame = stack.pop()
                if stack:
                    stack[-1].deepest = max(stack[-1].deepest, frame.deepest)
                if frame.anchor is not None:
                    open_anchors.discard(frame.anchor)
                    anchors[frame.anchor] = (total - frame.start, frame.deepest - frame.level + 1)
                done_child(None)
                continue
            level = len(stack) + 1
            path = child_path()
            if isinstance(event, AliasEvent):
                if event.anchor in open_anchors:
                    raise fail(
                        event, path, f"the alias *{event.anchor} refers to a value that holds it"
                    )
                if event.anchor not in anchors:
                    raise fail(event, path, f"the alias *{event.anchor} names no anchor before it")
                values, depth = anchors[event.anchor]
                total += values
                reach = level + depth - 1
            else:
                total += 1
                reach = level
            if total > MAX_VALUES:
                raise fail(
                    event,
                    path,
                    f"more than {MAX_VALUES:,} values once aliases are expanded (an alias bomb?)",
                )
            if reach > MAX_DEPTH:
                raise fail(event, path, f"nested more than {MAX_DEPTH} levels deep")
            if stack:
                stack[-1].deepest = max(stack[-1].deepest, reach)
            if isinstance(event, CollectionStartEvent):
                anchor = event.anchor
                if anchor is not None:
                    open_anchors.add(anchor)
                stack.append(
                    _Frame(isinstance(event, MappingStartEvent), path, anchor, total - 1, level)
                )
                continue
            if isinstance(event, ScalarEvent) and event.anchor is not None:
                anchors[event.anchor] = (1, 1)
            done_child(event.value if isinstance(event, ScalarEvent) else None)
    finally:
        dispose = getattr(loader, "dispose", None)
        if dispose is not None:
            dispose()


def _check_nodes(doc: Document, node: Node, path: str, seen: set[int]) -> None:
    """Build every scalar (caching it in the loader) and refuse duplicate or non-scalar keys.

    Each distinct node is visited once, so aliases cost nothing; the depth is bounded by
    :func:`_check_events`, so recursion is safe.
    """
    if id(node) in seen:
        return
    seen.add(id(node))
    if node.tag not in doc.loader.yaml_constructors:
        tag = node.tag.replace("tag:yaml.org,2002:", "!!")
        raise doc.error(node, path, f"the tag {tag} is not allowed (plain data only)")
    if isinstance(node, ScalarNode):
        _build(doc, node, path)
        return
    if isinstance(node, SequenceNode):
        for i, item in enumerate(node.value):
            _check_nodes(doc, item, _join(path, i), seen)
        return
    first: dict[Any, Node] = {}
    for knode, vnode in node.value:
        if knode.tag == _MERGE_TAG:
            _check_nodes(doc, vnode, _join(path, "<<"), seen)
            continue
        if not isinstance(knode, ScalarNode):
            raise doc.error(knode, path, "a key must be a single value, not a list or mapping")
        key = _build(doc, knode, path)
        try:
            earlier = first.get(key)
        except TypeError:  # unhashable: cannot happen for a scalar, but be sure
            raise doc.error(knode, path, "a key must be a name or a number") from None
        if earlier is not None:
            raise doc.error(
                knode, _join(path, key), f"duplicate key (first at line {doc.line(earlier)})"
            )
        first[key] = knode
        _check_nodes(doc, vnode, _join(path, key), seen)


def _build(doc: Document, node: ScalarNode, path: str) -> Any:
    try:
        return doc.loader.construct_object(node)
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or str(exc)
        raise doc.error(node, path, f"cannot read the value: {_one_line(problem)}") from None
    except (ValueError, OverflowError, TypeError) as exc:  # e.g. 2018-13-45, 5,000 digits
        why = _one_line(str(exc))
        if "digits" in why:
            why = "too many digits"
        raise doc.error(
            node, path, f"cannot read the value {_short(node.value)}: {why[:80]}"
        ) from None


def _message(display: str, line: int, path: str, message: str) -> str:
    if len(path) > 60:
        path = path[:28] + "..." + path[-28:]
    return f"{display}:{line}: {path}: {message}" if path else f"{display}:{line}: {message}"


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def _short(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())
