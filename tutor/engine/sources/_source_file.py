"""Reading one source file: the YAML node tree with helpers that check each node's shape and
report ``FILE:LINE: KEY.PATH: what is wrong``, and the raw records a file parses into before
the library is built from them."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, overload

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from tutor.engine import yamlfile
from tutor.engine.errors import DataError
from tutor.engine.sources._library import Parameter, Quotation, _split_ref

_ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_MERGE_TAG = "tag:yaml.org,2002:merge"
_NULL_TAG = "tag:yaml.org,2002:null"


@dataclass
class _Ref:
    """A quotation reference in a file, kept with where it stands for error messages."""

    ref: str
    line: int
    path: str


@dataclass
class _RawRuleset:
    """One ruleset as its file gives it: whole-ruleset ``params`` and, per player count,
    ``counts`` (each parameter's :class:`Parameter` entry)."""

    id: str
    line: int
    title: str
    summary: str
    counts: dict[int, dict[str, Parameter]]
    params: dict[str, Parameter]


@dataclass
class _RawSource:
    """One source file as read, before references across files are resolved."""

    path: Path
    id: str
    id_line: int
    kind: str
    citation: dict[str, Any]
    text: str | None
    summary: str
    quotations: dict[str, Quotation]
    records: list[Any]
    problems: list[dict[str, Any]]
    problem_rulesets: list[tuple[str, int, str]]
    rulesets: list[_RawRuleset]
    refs: list[_Ref] = field(default_factory=list)
    dated: dict[str, Any] | None = None
    based_on: list[dict[str, Any]] = field(default_factory=list)
    #: The sources the records name as their reporters: (id, line, key path).
    record_sources: list[tuple[str, int, str]] = field(default_factory=list)
    #: Where the file was found: ``own`` (the project's), ``home`` (the teacher's folder) or
    #: ``extra`` (a ``--sources`` folder).
    origin: str = "own"


class _File:
    """One YAML file being read: the composed node tree and helpers that check shapes."""

    def __init__(self, path: Path, text: str | None = None, display: str | None = None):
        """Read ``path`` (or take its ``text``, read by :func:`read_source_text`, and its
        ``display`` name) and compose it; raises DataError as :func:`~tutor.engine.yamlfile.
        compose` and :func:`~tutor.engine.yamlfile.read_text`."""
        self.path = path
        self.display = display if display is not None else display_path(path)
        if text is None:
            text = read_source_text(path, self.display)
        self.doc = yamlfile.compose(text, self.display)
        self.loader = self.doc.loader
        self.root = self.doc.root

    def error(self, node: Node | None, path: str, message: str) -> DataError:
        return self.doc.error(node, path, message)

    def scalar(self, node: Node, path: str) -> object:
        """The Python value of a scalar node (mappings and lists are refused)."""
        if not isinstance(node, ScalarNode):
            raise self.error(node, path, f"expected a single value, got {_kind(node)}")
        return self.loader.construct_object(node)  # built (and cached) by yamlfile.compose

    def mapping(self, node: Node, path: str) -> dict[object, tuple[Node, Node]]:
        """The entries of a mapping node as ``{key: (key_node, value_node)}``.

        Merge keys (``<<: *anchor``) are applied; a key given twice is an error.
        """
        if not isinstance(node, MappingNode):
            raise self.error(node, path, f"expected a mapping, got {_kind(node)}")
        own: dict[Any, tuple[Node, Node]] = {}
        merged: dict[Any, tuple[Node, Node]] = {}
        for knode, vnode in node.value:
            if knode.tag == _MERGE_TAG:
                sources = vnode.value if isinstance(vnode, SequenceNode) else [vnode]
                for sub in sources:
                    for k, kv in self.mapping(sub, _join(path, "<<")).items():
                        merged.setdefault(k, kv)
                continue
            key = self.scalar(knode, path)
            if key is None:
                raise self.error(knode, path, "a key must be a name or a number")
            own[key] = (knode, vnode)  # a key given twice was refused by yamlfile.compose
        return {**merged, **own}

    def keys(
        self,
        node: Node,
        path: str,
        required: Sequence[str],
        optional: Sequence[str] = (),
        at: Node | None = None,
        unknown: Callable[[Any, Sequence[str]], str] | None = None,
    ) -> dict[str, tuple[Node, Node]]:
        """A mapping with exactly the ``required`` keys and some of the ``optional`` ones.

        A missing key is reported at ``at`` (the mapping's own key, where it has one); an
        unknown key with ``unknown(key, valid)``'s message when given.
        """
        entries = self.mapping(node, path)
        valid = tuple(required) + tuple(optional)
        for key, (knode, _) in entries.items():
            if key not in valid:
                raise self.error(
                    knode,
                    _join(path, key),
                    unknown(key, valid)
                    if unknown
                    else f"unknown key (valid keys: {', '.join(valid)})",
                )
        for key in required:
            if key not in entries:
                raise self.error(at or node, _join(path, key), "missing key")
        return {k: v for k, v in entries.items() if isinstance(k, str)}  # every key is valid

    def sequence(self, node: Node, path: str) -> list[Node]:
        if not isinstance(node, SequenceNode):
            raise self.error(node, path, f"expected a list, got {_kind(node)}")
        return list(node.value)

    @overload
    def string(self, node: Node, path: str, nullable: Literal[False] = False) -> str: ...
    @overload
    def string(self, node: Node, path: str, nullable: bool) -> str | None: ...

    def string(self, node: Node, path: str, nullable: bool = False) -> str | None:
        value = self.scalar(node, path)
        if value is None and nullable:
            return None
        if not isinstance(value, str):
            raise self.error(
                node,
                path,
                f"expected {'a string or null' if nullable else 'a string'}"
                f", got {_describe(value)}",
            )
        if not value.strip():
            raise self.error(node, path, "must not be empty")
        return value

    @overload
    def integer(
        self, node: Node, path: str, nullable: Literal[False] = False, minimum: int = 0
    ) -> int: ...
    @overload
    def integer(self, node: Node, path: str, nullable: bool, minimum: int = 0) -> int | None: ...

    def integer(
        self, node: Node, path: str, nullable: bool = False, minimum: int = 0
    ) -> int | None:
        value = self.scalar(node, path)
        if value is None and nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(
                node,
                path,
                f"expected {'a whole number or null' if nullable else 'a whole number'}"
                f", got {_describe(value)}",
            )
        if value < minimum:
            raise self.error(node, path, f"must be at least {minimum}, got {value}")
        return value


def _refs(f: _File, node: Node, path: str, raw: _RawSource) -> list[str]:
    """The quotation references listed at ``node``, each noted in ``raw.refs`` (where it
    stands) to be resolved once every file is read."""
    refs = []
    for i, rnode in enumerate(f.sequence(node, path)):
        ref = f.string(rnode, f"{path}.{i}")
        src, qid = _split_ref(ref, raw.id)
        if not (src and _ID_RE.match(src) and _ID_RE.match(qid)):
            raise f.error(
                rnode, f"{path}.{i}", f"'{ref}' is not a quotation id (an id, or source:id)"
            )
        raw.refs.append(_Ref(ref, rnode.start_mark.line + 1, f"{path}.{i}"))
        refs.append(ref)
    return refs


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def _kind(node: Node) -> str:
    if isinstance(node, MappingNode):
        return "a mapping"
    if isinstance(node, SequenceNode):
        return "a list"
    return "a single value"


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (int, float)):
        return f"the number {value}"
    return f"a {type(value).__name__} ({value})"


def read_source_text(path: Path, display: str) -> str:
    """The text of the source file ``path`` (``display`` names it in messages): a symbolic link
    is refused, and whatever :func:`~tutor.engine.yamlfile.read_text` refuses."""
    return yamlfile.read_text(path, display, follow_links=False)


def display_path(path: Path | str) -> str:
    """``path`` relative to the working folder when it is inside it, else as given."""
    try:
        return (
            os.path.relpath(path) if Path(path).resolve().is_relative_to(Path.cwd()) else str(path)
        )
    except (ValueError, OSError):
        return str(path)
