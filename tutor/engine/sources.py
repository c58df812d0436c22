"""Sources and rulesets as data: loading and validating ``sources/*.yaml``.

Each YAML file describes one source (a reconstruction, a rules sheet, a teacher's house rules):
its citation, short verbatim quotations, the problems it raises, and the rulesets it gives (see
``sources/README.md`` for the schema).  :func:`load_library` reads the project's files, then the
learner's ``LAUGH_HOME/sources``, then any extra folders, validates everything, and builds
:class:`tutor.engine.rulesets.Ruleset` objects for the engine.

Every malformed file is refused with a :class:`~tutor.engine.errors.DataError` whose message is one line,
``FILE:LINE: KEY.PATH: what is wrong``.  YAML is read through :mod:`tutor.engine.yamlfile` (the
safe loader only, with limits on size, depth and alias expansion, and duplicate keys refused),
composing the node tree so that every key's line is known.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from tutor.engine.data import data_dir, laugh_home, source_texts_dir
from tutor.engine import yamlfile
from tutor.engine.errors import DataError, UsageError
from tutor.engine.parameters import PARAMETERS
from tutor.engine.rulesets import (BONUS_TO, COUNT_PARAMETERS, PAY_TO, RULESET_PARAMETERS, STATUSES,
                                   LieDownPayment, PlayerCount, Provenance, Ruleset)

__all__ = [
    "KINDS", "PACK_SIZE", "Library", "Parameter", "Quotation", "QuotationAudit", "Source",
    "UnknownQuotation", "audit_quotations", "check_quotations", "clear_cache", "default_library", "display_path", "get_ruleset",
    "load_library", "normalise", "ruleset_ids", "set_extra_dirs",
]

#: The kinds of source a file may describe.
KINDS = ("primary", "reconstruction", "rules-sheet", "house")
PACK_SIZE = 52

_ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_MERGE_TAG = "tag:yaml.org,2002:merge"
_NULL_TAG = "tag:yaml.org,2002:null"
_STAKE_PARAMETERS = ("ante_dealer", "ante_other", "last_in_bonus", "breakeven")

_TOP_REQUIRED = ("id", "kind", "citation", "summary")
_TOP_OPTIONAL = ("text", "quotations", "attestations", "problems", "rulesets")
_CITATION_REQUIRED = ("author", "title")
_CITATION_OPTIONAL = ("in", "date", "published")
_QUOTATION_REQUIRED = ("text", "where")
_QUOTATION_OPTIONAL = ("speaker", "in")
_ATTESTATION_REQUIRED = ("year", "author", "work", "quote")
_ATTESTATION_OPTIONAL = ("date", "note")
_PROBLEM_REQUIRED = ("id", "summary", "quotes")
_PROBLEM_OPTIONAL = ("rulesets",)
_RULESET_REQUIRED = ("title", "summary", "players") + tuple(
    n for n in RULESET_PARAMETERS if PARAMETERS[n].required)
_RULESET_OPTIONAL = tuple(n for n in RULESET_PARAMETERS if not PARAMETERS[n].required)
_ENTRY_REQUIRED = ("value", "status")
_ENTRY_OPTIONAL = ("quotes", "note", "source_value")

# --------------------------------------------------------------------------------------------
# Public data classes


class UnknownQuotation(DataError, KeyError):
    """A quotation reference that names no loaded quotation (a :class:`DataError` and a ``KeyError``)."""

    __str__ = Exception.__str__  # a plain message, not KeyError's repr of it


@dataclass(frozen=True)
class Quotation:
    """One short verbatim quotation from a source text.

    ``source`` is the id of the source file that records it and ``id`` its quotation id (so its
    reference is ``source:id``, see :attr:`ref`); ``text`` is verbatim; ``where`` names the section
    it stands in; ``speaker`` is ``"willughby"`` when the source is quoting Willughby, another
    name for other quoted authors, or None; ``in_`` is the text file it is found in when that is
    not the source's own ``text``.  ``cited_in`` is the one-line citation of the source whose
    text holds the words, ``quoting`` the display name of the speaker (``"Willughby"``) or None,
    and ``citation`` the two together (``..., quoting Willughby``).  ``line`` is the line of its
    entry in the YAML file.
    """

    source: str
    id: str
    text: str
    where: str
    speaker: str | None = None
    in_: str | None = None
    cited_in: str = ""
    quoting: str | None = None
    line: int = 0

    @property
    def citation(self) -> str:
        """The citation on one line, ending ``, quoting NAME`` when the source quotes someone."""
        return f"{self.cited_in}, quoting {self.quoting}" if self.quoting else self.cited_in

    @property
    def ref(self) -> str:
        """The qualified reference ``source:id``."""
        return f"{self.source}:{self.id}"


@dataclass(frozen=True)
class Parameter:
    """One ruleset parameter as the source file gives it, with its provenance.

    ``name`` is a name from :data:`tutor.engine.rulesets.RULESET_PARAMETERS` (``players`` is None) or
    :data:`tutor.engine.rulesets.COUNT_PARAMETERS` (``players`` is the player count).  ``value`` is the
    value the engine uses (sets as tuples in canonical order); ``status`` is ``stated``, ``read``
    or ``chosen``; ``quotes`` are qualified quotation references (``source:id``); ``note`` is our
    explanation (always present unless stated); ``source_value`` is what the source's text
    literally gives when we had to choose another value (``has_source_value`` says whether one
    is recorded).
    """

    ruleset: str
    name: str
    players: int | None
    value: Any
    status: str
    quotes: tuple[str, ...] = ()
    note: str | None = None
    source_value: Any = None
    has_source_value: bool = False
    line: int = 0
    implicit: bool = False

    @property
    def provenance(self) -> Provenance:
        """The :class:`tutor.engine.rulesets.Provenance` of this parameter."""
        return Provenance(self.status, self.quotes, self.note)


@dataclass(frozen=True)
class Source:
    """One source file: citation, summary, quotations, attestations, problems and ruleset ids.

    ``kind`` is one of :data:`KINDS`.  The citation fields are ``author`` (or None for an
    anonymous work), ``title``, ``in_`` (the larger work), ``date`` and ``published`` (where).
    ``text`` is the file name of the collected text the quotations are checked against (None if
    there is none); ``quotations`` maps quotation id to :class:`Quotation`; ``attestations`` is a
    list of dicts ``{year, date, author, work, quote, note}`` (``quote`` a qualified reference);
    ``problems`` a list of dicts ``{id, source, summary, quotes, rulesets}``; ``rulesets`` the ids
    of the rulesets the file defines; ``path`` the YAML file.
    """

    id: str
    kind: str
    author: str | None
    title: str
    in_: str | None
    date: str | None
    published: str | None
    text: str | None
    summary: str
    quotations: dict[str, Quotation]
    attestations: list[dict[str, Any]]
    problems: list[dict[str, Any]]
    rulesets: tuple[str, ...]
    path: Path

    @property
    def citation_text(self) -> str:
        """The citation on one line: ``author, "title", in, date, published`` (empty parts left out)."""
        parts = [self.author, f'"{self.title}"', self.in_, self.date, self.published]
        return ", ".join(p for p in parts if p)


@dataclass
class Library:
    """Every loaded source and ruleset.

    ``sources`` maps source id to :class:`Source` and ``rulesets`` maps ruleset id to
    :class:`tutor.engine.rulesets.Ruleset`, both in load order (the project's files alphabetically, then
    the learner's, then extra folders).  ``parameters`` maps ruleset id to its
    :class:`Parameter` entries in display order (whole-ruleset parameters first, then each
    player count's).  ``ruleset_source`` maps ruleset id to the id of the source defining it.
    """

    sources: dict[str, Source] = field(default_factory=dict)
    rulesets: dict[str, Ruleset] = field(default_factory=dict)
    parameters: dict[str, list[Parameter]] = field(default_factory=dict)
    ruleset_source: dict[str, str] = field(default_factory=dict)
    #: References of quotations with no text to check them against (None: not yet verified).
    unchecked: frozenset[str] | None = None

    def quotation(self, ref: str, default_source: str | None = None) -> Quotation:
        """The quotation ``ref``: ``source:id``, or a bare ``id`` of ``default_source``.

        Raises :class:`UnknownQuotation` (a DataError and KeyError) when there is none.
        """
        src, qid = _split_ref(ref, default_source)
        source = self.sources.get(src) if src else None
        if source is None or qid not in source.quotations:
            raise UnknownQuotation(f"unknown quotation '{ref}'"
                                   + ("" if src else " (a bare id needs a default source)"))
        return source.quotations[qid]

    def ruleset(self, ruleset_id: str, players: int | None = None) -> Ruleset:
        """The ruleset ``ruleset_id``; with ``players``, also check that it covers that count.

        Raises :class:`~tutor.engine.errors.UsageError` (one line, listing the valid ruleset ids or the
        ruleset's player counts) for an unknown id or an unsupported player count.
        """
        rs = self.rulesets.get(ruleset_id)
        if rs is None:
            raise UsageError(f"unknown ruleset '{ruleset_id}'; valid rulesets: "
                             + ", ".join(self.rulesets))
        if players is not None and players not in rs.counts:
            raise UsageError(f"ruleset '{ruleset_id}' is for {_or_list(rs.player_counts)} "
                             f"players, not {players}")
        return rs

    def source(self, source_id: str) -> Source:
        """The source ``source_id``; raises UsageError listing the valid ids if there is none."""
        src = self.sources.get(source_id)
        if src is None:
            raise UsageError(f"unknown source '{source_id}'; valid sources: "
                             + ", ".join(self.sources))
        return src

    def source_of(self, ruleset_id: str) -> Source:
        """The :class:`Source` that defines ruleset ``ruleset_id`` (UsageError if unknown)."""
        self.ruleset(ruleset_id)
        return self.sources[self.ruleset_source[ruleset_id]]

    def parameter(self, ruleset_id: str, name: str, players: int | None = None) -> Parameter:
        """One :class:`Parameter` of a ruleset (``players`` for the per-count parameters).

        Raises UsageError for an unknown ruleset or player count, or a name that is not a
        parameter (for that scope).
        """
        self.ruleset(ruleset_id, players)
        for p in self.parameters[ruleset_id]:
            if p.name == name and p.players == players:
                return p
        raise UsageError(f"{name!r} is not a {'per-player-count' if players else 'whole-ruleset'} "
                         f"parameter of ruleset {ruleset_id} (`laugh rules --parameters` lists "
                         "them)")

    def quotations_of(self, refs: Iterable[str]) -> list[Quotation]:
        """The :class:`Quotation` objects for qualified references (unknown ones raise)."""
        return [self.quotation(r) for r in refs]


# --------------------------------------------------------------------------------------------
# Loading


def load_library(extra_dirs: Sequence[Path | str] = ()) -> Library:
    """Load and validate every source file.

    Reads each ``*.yaml`` in ``data_dir("sources")``, then in ``laugh_home()/"sources"`` if that
    folder exists, then in each of ``extra_dirs`` (a folder, or a single ``.yaml`` file), each
    folder's files in name order; a file already read (same resolved path) is skipped.  Returns
    a :class:`Library`.

    Raises :class:`~tutor.engine.errors.DataError` (``FILE:LINE: KEY.PATH: what is wrong``) for a YAML
    syntax error, an unknown or missing key, a wrong type, a bad enum value, an unknown quotation
    or ruleset reference, a deal that does not use 52 cards, a failed pot balance, or a duplicate
    source, ruleset, quotation or problem id; and :class:`~tutor.engine.errors.UsageError` for an extra
    folder that does not exist.
    """
    files: list[Path] = []
    seen: set[Path] = set()

    def add_dir(folder: Path, must_exist: bool) -> None:
        if folder.is_file() and folder.suffix in (".yaml", ".yml"):
            candidates = [folder]
        elif folder.is_dir():
            candidates = sorted(folder.glob("*.yaml"))
        elif must_exist:
            raise UsageError(f"--sources: no such folder: {folder}")
        else:
            return
        for f in candidates:
            key = f.resolve()
            if key not in seen:
                seen.add(key)
                files.append(f)

    add_dir(data_dir("sources"), False)
    add_dir(laugh_home() / "sources", False)
    for d in extra_dirs:
        add_dir(Path(d).expanduser(), True)

    raws = [_parse_file(f) for f in files]
    return _build(raws)


# --------------------------------------------------------------------------------------------
# Module-level cache

_extra_dirs: tuple[Path, ...] = ()
_cache: tuple[tuple, Library] | None = None


def set_extra_dirs(dirs: Iterable[Path | str]) -> None:
    """Also load sources from ``dirs`` (the CLI's ``--sources DIR``); clears the cache."""
    global _extra_dirs
    _extra_dirs = tuple(Path(d) for d in dirs)
    clear_cache()


def clear_cache() -> None:
    """Forget the cached :func:`default_library` so the next call reloads the files."""
    global _cache
    _cache = None


def default_library(verify: bool = True) -> Library:
    """The library of the project's, the learner's and the extra folders' sources, cached.

    The cache is keyed on the extra folders and the learner's folder, so changing
    ``LAUGH_HOME`` or calling :func:`set_extra_dirs` reloads.  With ``verify`` (the default) every
    quotation that has a text to be checked against must stand in it verbatim
    (:func:`verify_quotations`), so no command runs on a made-up quotation; ``laugh sources
    check`` asks for ``verify=False`` to report every problem itself.  Raises as
    :func:`load_library`, and :class:`~tutor.engine.errors.DataError` for a quotation that is not
    in its text.
    """
    global _cache
    key = (_extra_dirs, str(laugh_home()))
    if _cache is None or _cache[0] != key:
        _cache = (key, load_library(_extra_dirs))
    lib = _cache[1]
    if verify and lib.unchecked is None:
        verify_quotations(lib, source_texts_dir())
    return lib


def verify_quotations(library: Library, texts_dir: Path | None) -> None:
    """Check every quotation that names a text (its ``in`` file, or its source's ``text``)
    against that text, and note in ``library.unchecked`` the references of those with none.

    Raises :class:`~tutor.engine.errors.DataError` ``FILE:LINE: quotations.ID: ...`` for the first
    quotation that is not verbatim in its text, or whose text cannot be found or read.
    """
    audit = audit_quotations(library, texts_dir)
    if audit.problems:
        extra = len(audit.problems) - 1
        raise DataError(audit.problems[0] + (f" (and {extra} more: laugh sources check lists "
                                              "them)" if extra else ""))
    library.unchecked = frozenset(audit.unchecked_refs)


def get_ruleset(ruleset_id: str, players: int | None = None) -> Ruleset:
    """The ruleset ``ruleset_id`` from :func:`default_library` (UsageError if unknown or the
    player count is unsupported)."""
    return default_library().ruleset(ruleset_id, players)


def ruleset_ids() -> list[str]:
    """The ids of every ruleset in :func:`default_library`, in load order."""
    return list(default_library().rulesets)


# --------------------------------------------------------------------------------------------
# Checking quotations against the texts


def normalise(text: str) -> str:
    """``text`` with every run of whitespace (newlines, tabs, no-break spaces) made one space."""
    return " ".join(text.split())


@dataclass(frozen=True)
class QuotationAudit:
    """What :func:`audit_quotations` found, every list entry one line ``FILE:LINE: KEY: ...``.

    ``verified`` holds the references (``source:id``) of the quotations compared with their
    text and found verbatim, and no others; ``unchecked`` a line for each quotation with no text
    to compare it with (its source has ``text: null`` and it names no ``in`` file), ending
    ``not checked (no text)``, with ``unchecked_refs`` their references; ``problems`` a line for
    each quotation that is not verbatim or whose text is missing or unreadable; ``shared`` a
    finding for each quotation that stands verbatim in more than one source text (naming them);
    ``total`` the number of quotations.
    """

    verified: tuple[str, ...]
    unchecked: tuple[str, ...]
    unchecked_refs: tuple[str, ...]
    problems: tuple[str, ...]
    shared: tuple[str, ...]
    total: int


def audit_quotations(library: Library, texts_dir: Path | None) -> QuotationAudit:
    """Compare every quotation with its text, and each with every other source text.

    A quotation is looked for (after :func:`normalise` on both sides) in its ``in`` file if
    given, else in its source's ``text``; a file name is resolved first beside the source's YAML
    file (for a teacher's own texts), then in ``texts_dir``.  A quotation with neither is not
    checked, and is listed as such, never counted as verified.  The source texts are every text
    file the sources and quotations name that can be read; a quotation found verbatim in more
    than one of them is reported in :attr:`QuotationAudit.shared`.  Returns a
    :class:`QuotationAudit`; raises nothing for missing or unreadable texts (they are problems).
    """
    verified: list[str] = []
    unchecked: list[str] = []
    unchecked_refs: list[str] = []
    problems: list[str] = []
    texts: dict[Path, str | None] = {}
    names: dict[Path, str] = {}

    def read(path: Path, where: str) -> str | None:
        if path not in texts:
            try:
                texts[path] = normalise(path.read_text(encoding="utf-8-sig"))
            except (OSError, UnicodeDecodeError) as exc:
                texts[path] = None
                problems.append(f"{where}: cannot read {path}: {exc}")
        return texts[path]

    located: list[tuple[Quotation, str, Path | None, str]] = []
    for source in library.sources.values():
        for q in source.quotations.values():
            where = f"{display_path(source.path)}:{q.line}: quotations.{q.id}"
            name = q.in_ or source.text
            if not name:
                unchecked.append(f"{where}: {q.ref} not checked (no text)")
                unchecked_refs.append(q.ref)
                located.append((q, where, None, ""))
                continue
            path = _find_text(name, source.path, texts_dir)
            if path is None:
                problems.append(f"{where}: text file '{name}' of {q.ref} not found"
                                + ("" if texts_dir else " (no source-texts folder)"))
                located.append((q, where, None, ""))
                continue
            names[path] = name
            text = read(path, where)
            located.append((q, where, path, name))
            if text is None:
                continue
            quote = normalise(q.text)
            if quote and quote in text:
                verified.append(q.ref)
                continue
            problems.append(f"{where}: {q.ref} is not verbatim in {name}: "
                            + _first_difference(quote, text))

    shared: list[str] = []
    readable = {path: text for path, text in texts.items() if text is not None}
    for q, where, _, _ in located:
        quote = normalise(q.text)
        if not quote:
            continue
        found = sorted(names[path] for path, text in readable.items() if quote in text)
        if len(found) > 1:
            shared.append(f"{where}: {q.ref} stands verbatim in more than one source text: "
                          + ", ".join(found))
    return QuotationAudit(tuple(verified), tuple(unchecked), tuple(unchecked_refs),
                          tuple(problems), tuple(shared),
                          sum(len(s.quotations) for s in library.sources.values()))


def check_quotations(library: Library, texts_dir: Path | None) -> list[str]:
    """The problems :func:`audit_quotations` finds: a list of one-line problems (file, quotation
    reference, and the first stretch where quotation and text part), empty when every
    quotation that has a text stands verbatim in it.  Quotations without a text are not
    problems here, and not verified either: see :attr:`QuotationAudit.unchecked`."""
    return list(audit_quotations(library, texts_dir).problems)


def _find_text(name: str, yaml_path: Path, texts_dir: Path | None) -> Path | None:
    beside = yaml_path.parent / name
    if beside.is_file():
        return beside
    if texts_dir is not None and (Path(texts_dir) / name).is_file():
        return Path(texts_dir) / name
    return None


def _first_difference(quote: str, text: str) -> str:
    """Describe where ``quote`` stops matching ``text`` (both normalised)."""
    lo, hi = 0, len(quote)
    while lo < hi:  # longest prefix of quote found in text
        mid = (lo + hi + 1) // 2
        if quote[:mid] in text:
            lo = mid
        else:
            hi = mid - 1
    if lo == 0:
        return f"no part of it is found (it begins {quote[:40]!r})"
    pos = text.find(quote[:lo])
    before = quote[max(0, lo - 30):lo]
    return (f"after {before!r} the quotation has {quote[lo:lo + 30]!r} "
            f"but the text has {text[pos + lo:pos + lo + 30]!r}")


# --------------------------------------------------------------------------------------------
# Parsing one file


@dataclass
class _Ref:
    """A quotation reference in a file, kept with where it stands for error messages."""

    ref: str
    line: int
    path: str


@dataclass
class _RawRuleset:
    id: str
    line: int
    title: str
    summary: str
    counts: dict[int, dict[str, Parameter]]
    params: dict[str, Parameter]


@dataclass
class _RawSource:
    path: Path
    id: str
    id_line: int
    kind: str
    citation: dict[str, Any]
    text: str | None
    summary: str
    quotations: dict[str, Quotation]
    attestations: list[dict[str, Any]]
    problems: list[dict[str, Any]]
    problem_rulesets: list[tuple[str, int, str]]
    rulesets: list[_RawRuleset]
    refs: list[_Ref] = field(default_factory=list)


class _File:
    """One YAML file being read: the composed node tree and helpers that check shapes."""

    def __init__(self, path: Path):
        self.path = path
        self.display = display_path(path)
        self.doc = yamlfile.compose(yamlfile.read_text(path, self.display), self.display)
        self.loader = self.doc.loader
        self.root = self.doc.root

    def error(self, node: Node | None, path: str, message: str) -> DataError:
        return self.doc.error(node, path, message)

    def scalar(self, node: Node, path: str) -> Any:
        """The Python value of a scalar node (mappings and lists are refused)."""
        if not isinstance(node, ScalarNode):
            raise self.error(node, path, f"expected a single value, got {_kind(node)}")
        return self.loader.construct_object(node)  # built (and cached) by yamlfile.compose

    def mapping(self, node: Node, path: str) -> dict[Any, tuple[Node, Node]]:
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
            own[key] = (knode, vnode)   # a key given twice was refused by yamlfile.compose
        return {**merged, **own}

    def keys(self, node: Node, path: str, required: Sequence[str],
             optional: Sequence[str] = (), at: Node | None = None,
             unknown=None) -> dict[str, tuple[Node, Node]]:
        """A mapping with exactly the ``required`` keys and some of the ``optional`` ones.

        A missing key is reported at ``at`` (the mapping's own key, where it has one); an
        unknown key with ``unknown(key, valid)``'s message when given.
        """
        entries = self.mapping(node, path)
        valid = tuple(required) + tuple(optional)
        for key, (knode, _) in entries.items():
            if key not in valid:
                raise self.error(knode, _join(path, key),
                                 unknown(key, valid) if unknown else
                                 f"unknown key (valid keys: {', '.join(valid)})")
        for key in required:
            if key not in entries:
                raise self.error(at or node, _join(path, key), "missing key")
        return entries

    def sequence(self, node: Node, path: str) -> list[Node]:
        if not isinstance(node, SequenceNode):
            raise self.error(node, path, f"expected a list, got {_kind(node)}")
        return list(node.value)

    def string(self, node: Node, path: str, nullable: bool = False) -> str | None:
        value = self.scalar(node, path)
        if value is None and nullable:
            return None
        if not isinstance(value, str):
            raise self.error(node, path, f"expected {'a string or null' if nullable else 'a string'}"
                                         f", got {_describe(value)}")
        if not value.strip():
            raise self.error(node, path, "must not be empty")
        return value

    def ident(self, node: Node, path: str) -> str:
        value = self.scalar(node, path)
        if not isinstance(value, str) or not _ID_RE.match(value):
            raise self.error(node, path, f"{_describe(value)} is not an id "
                                         "(lowercase letters and digits joined by dashes)")
        return value

    def integer(self, node: Node, path: str, nullable: bool = False, minimum: int = 0) -> int | None:
        value = self.scalar(node, path)
        if value is None and nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(node, path, f"expected {'a whole number or null' if nullable else 'a whole number'}"
                                         f", got {_describe(value)}")
        if value < minimum:
            raise self.error(node, path, f"must be at least {minimum}, got {value}")
        return value


def _parse_file(path: Path) -> _RawSource:
    f = _File(path)
    if f.root is None:
        raise DataError(f"{f.display}:1: the file is empty; expected a source mapping "
                        "(see sources/README.md)")
    top = f.keys(f.root, "", _TOP_REQUIRED, _TOP_OPTIONAL)
    sid = f.ident(top["id"][1], "id")
    kind = f.scalar(top["kind"][1], "kind")
    if kind not in KINDS:
        raise f.error(top["kind"][1], "kind", f"{_describe(kind)} is not one of {', '.join(KINDS)}")

    cnode = top["citation"][1]
    centries = f.keys(cnode, "citation", _CITATION_REQUIRED, _CITATION_OPTIONAL,
                      at=top["citation"][0])
    citation = {
        "author": f.string(centries["author"][1], "citation.author", nullable=True),
        "title": f.string(centries["title"][1], "citation.title"),
    }
    for key in _CITATION_OPTIONAL:
        citation[key] = (f.string(centries[key][1], f"citation.{key}", nullable=True)
                         if key in centries else None)

    text = f.string(top["text"][1], "text", nullable=True) if "text" in top else None
    summary = f.string(top["summary"][1], "summary")
    raw = _RawSource(path=path, id=sid, id_line=top["id"][1].start_mark.line + 1, kind=kind,
                     citation=citation, text=text, summary=summary, quotations={},
                     attestations=[], problems=[], problem_rulesets=[], rulesets=[])

    # The optional collections may also be given as null (empty).
    top = {k: v for k, v in top.items()
           if not (k in _TOP_OPTIONAL[1:] and v[1].tag == _NULL_TAG)}
    if "quotations" in top:
        for qid, (knode, qnode) in f.mapping(top["quotations"][1], "quotations").items():
            qpath = f"quotations.{qid}"
            if not isinstance(qid, str) or not _ID_RE.match(qid):
                raise f.error(knode, qpath, "a quotation id must be lowercase letters and digits "
                                            "joined by dashes")
            e = f.keys(qnode, qpath, _QUOTATION_REQUIRED, _QUOTATION_OPTIONAL, at=knode)
            raw.quotations[qid] = Quotation(
                source=sid, id=qid,
                text=f.string(e["text"][1], f"{qpath}.text"),
                where=f.string(e["where"][1], f"{qpath}.where"),
                speaker=f.string(e["speaker"][1], f"{qpath}.speaker", True) if "speaker" in e else None,
                in_=f.string(e["in"][1], f"{qpath}.in", True) if "in" in e else None,
                line=knode.start_mark.line + 1)

    if "attestations" in top:
        for i, anode in enumerate(f.sequence(top["attestations"][1], "attestations")):
            apath = f"attestations.{i}"
            e = f.keys(anode, apath, _ATTESTATION_REQUIRED, _ATTESTATION_OPTIONAL)
            year = f.integer(e["year"][1], f"{apath}.year", nullable=True)
            qref = f.string(e["quote"][1], f"{apath}.quote")
            raw.refs.append(_Ref(qref, e["quote"][1].start_mark.line + 1, f"{apath}.quote"))
            raw.attestations.append({
                "year": year,
                "date": (f.string(e["date"][1], f"{apath}.date", True) if "date" in e else None)
                        or (str(year) if year is not None else "undated"),
                "author": f.string(e["author"][1], f"{apath}.author"),
                "work": f.string(e["work"][1], f"{apath}.work"),
                "quote": _qualify(qref, sid),
                "note": f.string(e["note"][1], f"{apath}.note", True) if "note" in e else None,
            })

    if "problems" in top:
        seen: dict[str, int] = {}
        for i, pnode in enumerate(f.sequence(top["problems"][1], "problems")):
            ppath = f"problems.{i}"
            e = f.keys(pnode, ppath, _PROBLEM_REQUIRED, _PROBLEM_OPTIONAL)
            pid = f.ident(e["id"][1], f"{ppath}.id")
            if pid in seen:
                raise f.error(e["id"][1], f"{ppath}.id",
                              f"duplicate problem id '{pid}' (first at line {seen[pid]})")
            seen[pid] = e["id"][1].start_mark.line + 1
            quotes = _refs(f, e["quotes"][1], f"{ppath}.quotes", raw)
            rulesets = []
            if "rulesets" in e:
                for j, rnode in enumerate(f.sequence(e["rulesets"][1], f"{ppath}.rulesets")):
                    rid = f.ident(rnode, f"{ppath}.rulesets.{j}")
                    rulesets.append(rid)
                    raw.problem_rulesets.append((rid, rnode.start_mark.line + 1,
                                                 f"{ppath}.rulesets.{j}"))
            raw.problems.append({
                "id": pid, "source": sid,
                "summary": f.string(e["summary"][1], f"{ppath}.summary"),
                "quotes": tuple(_qualify(r, sid) for r in quotes),
                "rulesets": tuple(rulesets),
            })

    if "rulesets" in top:
        for rid, (knode, rnode) in f.mapping(top["rulesets"][1], "rulesets").items():
            raw.rulesets.append(_parse_ruleset(f, raw, rid, knode, rnode))
    return raw


def _parse_ruleset(f: _File, raw: _RawSource, rid: Any, knode: Node, rnode: Node) -> _RawRuleset:
    rpath = f"rulesets.{rid}"
    if not isinstance(rid, str) or not _ID_RE.match(rid):
        raise f.error(knode, rpath, "a ruleset id must be lowercase letters and digits joined "
                                    "by dashes")
    e = f.keys(rnode, rpath, _RULESET_REQUIRED, _RULESET_OPTIONAL, at=knode, unknown=_no_such_rule)
    params: dict[str, Parameter] = {}
    for name in RULESET_PARAMETERS:
        if name in e:
            params[name] = _parse_entry(f, raw, rid, name, None, e[name], f"{rpath}.{name}")
        else:
            params[name] = Parameter(ruleset=rid, name=name, players=None,
                                     value=PARAMETERS[name].default, status="chosen",
                                     note="Not named in the file: the default of the rules "
                                          "model (RULES.md 3.6).",
                                     line=knode.start_mark.line + 1, implicit=True)
    _check_settles(f, e, rpath, params)

    scoring = params["scoring"].value
    bonus_to = params["bonus_to"]
    counts: dict[int, dict[str, Parameter]] = {}
    players_node = e["players"][1]
    pentries = f.mapping(players_node, f"{rpath}.players")
    if not pentries:
        raise f.error(players_node, f"{rpath}.players", "needs at least one player count")
    for n, (pknode, cnode) in pentries.items():
        cpath = f"{rpath}.players.{n}"
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= PACK_SIZE // 2:
            raise f.error(pknode, cpath, f"a player count must be a whole number from 2 to "
                                         f"{PACK_SIZE // 2}")
        ce = f.keys(cnode, cpath, COUNT_PARAMETERS, at=pknode, unknown=_no_such_rule)
        cp = {name: _parse_entry(f, raw, rid, name, n, ce[name], f"{cpath}.{name}")
              for name in COUNT_PARAMETERS}
        hand, table = cp["hand"].value, cp["table"].value
        if hand * n + table != PACK_SIZE:
            raise f.error(ce["table"][0], f"{cpath}.table",
                          f"{n} players x {hand} cards + {table} on the table = "
                          f"{hand * n + table}, not {PACK_SIZE}")
        stakes = {k: cp[k].value for k in _STAKE_PARAMETERS}
        if scoring == "stakes":
            for k in _STAKE_PARAMETERS:
                if stakes[k] is None:
                    raise f.error(ce[k][1], f"{cpath}.{k}.value",
                                  "must be a whole number under stakes scoring")
            _check_pot(f, ce["breakeven"][0], f"{cpath}.breakeven", n, **stakes)
        elif scoring == "pot":
            for k in ("ante_dealer", "ante_other"):
                if stakes[k] is None:
                    raise f.error(ce[k][1], f"{cpath}.{k}.value",
                                  "must be a whole number under pot scoring (the antes make the "
                                  "pot)")
            for k in ("last_in_bonus", "breakeven"):
                if stakes[k] is not None:
                    raise f.error(ce[k][1], f"{cpath}.{k}.value",
                                  f"must be null under pot scoring: the whole pot goes to one "
                                  f"winner (pot_to), so there is no {PARAMETERS[k].label}")
        else:
            for k in ("ante_dealer", "ante_other", "breakeven"):
                if stakes[k] is not None:
                    raise f.error(ce[k][1], f"{cpath}.{k}.value",
                                  "must be null under pairs scoring (there is no pot)")
        bonus = stakes["last_in_bonus"]
        if bonus_to.value is None and bonus:
            raise f.error(ce["last_in_bonus"][1], f"{cpath}.last_in_bonus.value",
                          f"a bonus of {bonus} needs bonus_to (one of {', '.join(BONUS_TO)})")
        if bonus_to.value is not None and bonus is None:
            raise f.error(ce["last_in_bonus"][1], f"{cpath}.last_in_bonus.value",
                          f"must be a whole number, as bonus_to is {bonus_to.value}")
        counts[n] = cp
    return _RawRuleset(id=rid, line=knode.start_mark.line + 1,
                       title=f.string(e["title"][1], f"{rpath}.title"),
                       summary=f.string(e["summary"][1], f"{rpath}.summary"),
                       counts=dict(sorted(counts.items())), params=params)


def _no_such_rule(key: Any, valid: Sequence[str]) -> str:
    """The message for an unknown key in a ruleset or player-count mapping."""
    return (f"the rules model has no parameter {key!r}; `laugh rules --parameters` lists every "
            f"parameter with its values (valid keys here: {', '.join(valid)})")


def _check_settles(f: _File, e: dict[str, tuple[Node, Node]], rpath: str,
                   params: dict[str, Parameter]) -> None:
    """Refuse combinations of whole-ruleset parameters whose settlement cannot balance
    (RULES.md 3.6, 7), naming the parameters."""
    v = {k: p.value for k, p in params.items()}
    scoring, pays = v["scoring"], v["lie_down_pays"]

    def at(name: str) -> tuple[Node, str]:
        node = e[name][1] if name in e else e["scoring"][1]
        return node, f"{rpath}.{name}"

    if scoring == "stakes" and v["leftovers_to"] == "nobody":
        raise f.error(*at("leftovers_to"), "scoring: stakes with leftovers_to: nobody cannot "
                      "settle: discarded cards leave the won piles, so the pot cannot end at 0 "
                      "(give the leftovers to the dealer or the last player in, or score pairs)")
    if scoring == "pot":
        if v["pot_to"] is None:
            raise f.error(*at("scoring"), "scoring: pot needs pot_to (last_in or most_won): who "
                          "takes the whole pot")
        if v["bonus_to"] is not None:
            raise f.error(*at("bonus_to"), "scoring: pot gives the whole pot to one winner, so "
                          "bonus_to must be null (there is no bonus)")
    elif v["pot_to"] is not None:
        raise f.error(*at("pot_to"), f"pot_to is only for scoring: pot (this ruleset scores "
                      f"{scoring})")
    if pays is not None and pays["to"] == "pot" and scoring in ("stakes", "pairs"):
        why = ("its pot could never empty: breakeven settles only the antes"
               if scoring == "stakes" else "pairs scoring has no pot")
        raise f.error(*at("lie_down_pays"), f"lie_down_pays into the pot cannot settle under "
                      f"scoring: {scoring} ({why}); pay each player in instead")


def _check_pot(f: _File, node: Node, path: str, n: int, ante_dealer: int, ante_other: int,
               last_in_bonus: int, breakeven: int) -> None:
    antes = ante_dealer + (n - 1) * ante_other
    left = antes - last_in_bonus
    above = PACK_SIZE - n * breakeven
    if 2 * left != above:
        won = f"{above // 2}" if above % 2 == 0 else f"{above / 2:g}"
        raise f.error(node, path,
                      f"pot balance fails for {n} players: antes {antes} - bonus {last_in_bonus}"
                      f" = {left} stakes, but ({PACK_SIZE} - {n}x{breakeven})/2 = {won} stakes"
                      " are won above breakeven")


def _parse_entry(f: _File, raw: _RawSource, rid: str, name: str, players: int | None,
                 nodes: tuple[Node, Node], path: str) -> Parameter:
    key, node = nodes
    e = f.keys(node, path, _ENTRY_REQUIRED, _ENTRY_OPTIONAL, at=key)
    value = _parse_value(f, name, e["value"][1], f"{path}.value")
    status = f.scalar(e["status"][1], f"{path}.status")
    if status not in STATUSES:
        raise f.error(e["status"][1], f"{path}.status",
                      f"{_describe(status)} is not one of {', '.join(STATUSES)}")
    quotes = _refs(f, e["quotes"][1], f"{path}.quotes", raw) if "quotes" in e else []
    note = f.string(e["note"][1], f"{path}.note", nullable=True) if "note" in e else None
    if status != "stated" and not note:
        raise f.error(key, f"{path}.note", f"a note is required when the status is {status}")
    if status in ("stated", "read") and not quotes:
        raise f.error(key, f"{path}.quotes",
                      f"a {status} value must cite at least one quotation")
    has_sv = "source_value" in e
    source_value = _parse_value(f, name, e["source_value"][1], f"{path}.source_value") \
        if has_sv else None
    return Parameter(ruleset=rid, name=name, players=players, value=value, status=status,
                     quotes=tuple(_qualify(r, raw.id) for r in quotes), note=note,
                     source_value=source_value, has_source_value=has_sv,
                     line=key.start_mark.line + 1)


def _parse_value(f: _File, name: str, node: Node, path: str) -> Any:
    """One parameter value, checked against the parameter table (:mod:`tutor.engine.parameters`)."""
    s = PARAMETERS[name]
    if s.kind == "set":
        items = []
        for i, inode in enumerate(f.sequence(node, path)):
            v = f.scalar(inode, f"{path}.{i}")
            if v not in s.values:
                raise f.error(inode, f"{path}.{i}",
                              f"{_describe(v)} is not one of {', '.join(s.values)}")
            if v in items:
                raise f.error(inode, f"{path}.{i}", f"'{v}' is listed twice")
            items.append(v)
        if name == "captures" and not items:
            raise f.error(node, path, "at least one capture form is needed")
        return tuple(x for x in s.values if x in items)
    if s.kind == "enum":
        v = f.scalar(node, path)
        if v is None and s.nullable:
            return None
        if v not in s.values:
            choices = ", ".join(s.values) + (", or null" if s.nullable else "")
            raise f.error(node, path, f"{_describe(v)} is not one of {choices}")
        return v
    if s.kind == "bool":
        v = f.scalar(node, path)
        if not isinstance(v, bool):
            raise f.error(node, path, f"expected true or false, got {_describe(v)}")
        return v
    if s.kind == "payment":
        if isinstance(node, ScalarNode) and node.tag == _NULL_TAG:
            return None
        e = f.keys(node, path, ("stakes", "to"))
        stakes = f.integer(e["stakes"][1], f"{path}.stakes", minimum=1)
        to = f.scalar(e["to"][1], f"{path}.to")
        if to not in PAY_TO:
            raise f.error(e["to"][1], f"{path}.to", f"{_describe(to)} is not one of "
                                                    f"{', '.join(PAY_TO)}")
        return {"stakes": stakes, "to": to}
    if s.kind == "match":
        if isinstance(node, ScalarNode) and node.tag == _NULL_TAG:
            return None
        e = f.keys(node, path, ("rounds", "games"), ("practice",))
        value = {"rounds": f.integer(e["rounds"][1], f"{path}.rounds", minimum=1),
                 "games": f.integer(e["games"][1], f"{path}.games", minimum=1),
                 "practice": (f.integer(e["practice"][1], f"{path}.practice")
                              if "practice" in e else 0)}
        if value["practice"] >= value["rounds"] * value["games"]:
            raise f.error(e["practice"][1], f"{path}.practice",
                          "a match needs at least one scored game after its practice games")
        return value
    return f.integer(node, path, nullable=s.nullable, minimum=s.minimum or 0)


def _refs(f: _File, node: Node, path: str, raw: _RawSource) -> list[str]:
    refs = []
    for i, rnode in enumerate(f.sequence(node, path)):
        ref = f.string(rnode, f"{path}.{i}")
        src, qid = _split_ref(ref, raw.id)
        if not (src and _ID_RE.match(src) and _ID_RE.match(qid)):
            raise f.error(rnode, f"{path}.{i}", f"'{ref}' is not a quotation id "
                                                "(an id, or source:id)")
        raw.refs.append(_Ref(ref, rnode.start_mark.line + 1, f"{path}.{i}"))
        refs.append(ref)
    return refs


# --------------------------------------------------------------------------------------------
# Building the library from parsed files


def _build(raws: list[_RawSource]) -> Library:
    lib = Library()
    source_at: dict[str, _RawSource] = {}
    ruleset_at: dict[str, tuple[_RawSource, int]] = {}
    for raw in raws:
        if raw.id in source_at:
            first = source_at[raw.id]
            raise DataError(f"{display_path(raw.path)}:{raw.id_line}: id: duplicate source id "
                            f"'{raw.id}' (already defined in {display_path(first.path)}:{first.id_line})")
        source_at[raw.id] = raw
        for rr in raw.rulesets:
            if rr.id in ruleset_at:
                first, line = ruleset_at[rr.id]
                raise DataError(f"{display_path(raw.path)}:{rr.line}: rulesets.{rr.id}: duplicate "
                                f"ruleset id '{rr.id}' (already defined in "
                                f"{display_path(first.path)}:{line})")
            ruleset_at[rr.id] = (raw, rr.line)

    # Every reference must name a loaded quotation, every problem a loaded ruleset.
    for raw in raws:
        for r in raw.refs:
            src, qid = _split_ref(r.ref, raw.id)
            target = source_at.get(src)
            if target is None:
                raise DataError(f"{display_path(raw.path)}:{r.line}: {r.path}: unknown source "
                                f"'{src}' in quotation reference '{r.ref}' (sources: "
                                f"{', '.join(source_at)})")
            if qid not in target.quotations:
                raise DataError(f"{display_path(raw.path)}:{r.line}: {r.path}: quotation '{qid}' is "
                                f"not defined in {display_path(target.path)}")
        for rid, line, path in raw.problem_rulesets:
            if rid not in ruleset_at:
                raise DataError(f"{display_path(raw.path)}:{line}: {path}: unknown ruleset '{rid}' "
                                f"(rulesets: {', '.join(ruleset_at)})")

    by_text = {raw.text: raw for raw in raws if raw.text}
    problems_for: dict[str, list[dict[str, Any]]] = {}
    for raw in raws:
        for p in raw.problems:
            for rid in p["rulesets"]:
                problems_for.setdefault(rid, []).append(p)

    for raw in raws:
        quotations = {qid: _with_citation(q, raw, by_text, source_at)
                      for qid, q in raw.quotations.items()}
        c = raw.citation
        lib.sources[raw.id] = Source(
            id=raw.id, kind=raw.kind, author=c["author"], title=c["title"], in_=c["in"],
            date=c["date"], published=c["published"], text=raw.text, summary=raw.summary,
            quotations=quotations, attestations=raw.attestations, problems=raw.problems,
            rulesets=tuple(rr.id for rr in raw.rulesets), path=raw.path)
        for rr in raw.rulesets:
            lib.rulesets[rr.id] = _make_ruleset(raw, rr, tuple(problems_for.get(rr.id, ())))
            lib.ruleset_source[rr.id] = raw.id
            entries = list(rr.params.values())
            for cp in rr.counts.values():
                entries.extend(cp.values())
            lib.parameters[rr.id] = entries
    return lib


def _with_citation(q: Quotation, raw: _RawSource, by_text: dict[str, _RawSource],
                   source_at: dict[str, _RawSource]) -> Quotation:
    citing = by_text.get(q.in_, raw) if q.in_ else raw
    c = citing.citation
    parts = [c["author"], f'"{c["title"]}"', c["in"], c["date"], c["published"]]
    who = None
    if q.speaker:
        if q.speaker == "willughby":
            who = "Willughby"
        elif q.speaker in source_at:
            sp = source_at[q.speaker].citation
            who = sp["author"] or sp["title"]
        else:
            who = q.speaker
    return Quotation(source=q.source, id=q.id, text=q.text, where=q.where, speaker=q.speaker,
                     in_=q.in_, cited_in=", ".join(p for p in parts if p), quoting=who,
                     line=q.line)


def _make_ruleset(raw: _RawSource, rr: _RawRuleset, problems: tuple[dict, ...]) -> Ruleset:
    counts = {}
    for n, cp in rr.counts.items():
        counts[n] = PlayerCount(
            players=n, **{name: cp[name].value for name in COUNT_PARAMETERS},
            provenance={name: cp[name].provenance for name in COUNT_PARAMETERS})
    p = rr.params
    pays = p["lie_down_pays"].value
    return Ruleset(
        id=rr.id, source=raw.id, title=rr.title, summary=rr.summary, counts=counts,
        first_dealer=p["first_dealer"].value, table_mournival=p["table_mournival"].value,
        captures=frozenset(p["captures"].value), hand_plays=p["hand_plays"].value,
        bonus_to=p["bonus_to"].value, last_in_plays_on=p["last_in_plays_on"].value,
        leftovers_to=p["leftovers_to"].value, scoring=p["scoring"].value,
        oversights=frozenset(p["oversights"].value),
        captures_per_turn=p["captures_per_turn"].value,
        declarations=frozenset(p["declarations"].value),
        lie_down_pays=LieDownPayment(pays["stakes"], pays["to"]) if pays else None,
        pot_to=p["pot_to"].value,
        match_format=p["match_format"].value,
        provenance={name: p[name].provenance for name in RULESET_PARAMETERS},
        problems=problems, origin=str(raw.path))


# --------------------------------------------------------------------------------------------
# Small helpers


def _split_ref(ref: str, default_source: str | None) -> tuple[str | None, str]:
    if ":" in ref:
        src, qid = ref.split(":", 1)
        return src, qid
    return default_source, ref


def _qualify(ref: str, default_source: str) -> str:
    src, qid = _split_ref(ref, default_source)
    return f"{src}:{qid}"


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


def _or_list(items: Sequence[Any]) -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def display_path(path: Path | str) -> str:
    """``path`` relative to the working folder when it is inside it, else as given."""
    try:
        return os.path.relpath(path) if Path(path).resolve().is_relative_to(Path.cwd()) else str(path)
    except (ValueError, OSError):
        return str(path)
