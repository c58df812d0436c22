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

This module is the public API (import from here); behind it, private modules:

- ``_library``: the data classes (:class:`Library`, :class:`Source`, :class:`Quotation`,
  :class:`Parameter`) and the questions asked of a library;
- ``_source_file``: one YAML file's node tree, its shape checks, and the raw records it parses into;
- ``_parse``: a source file (citation, quotations, records, problems);
- ``_historical_records``: the records of the game, and the dates a historian writes
  (:func:`parse_date`);
- ``_rulesets``: a ruleset's parameters, deals and stakes, and the settlement checks
  (``_check_settles``);
- ``_build``: the library built from the files, references across files resolved;
- ``_audit``: the quotation audit against the source texts (:func:`audit_quotations`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from tutor.engine import data as _data
from tutor.engine.data import data_dir, laugh_home, source_texts_dir
from tutor.engine.errors import LaughError, UsageError
from tutor.engine.rulesets import Ruleset
from tutor.engine.sources import _texts
from tutor.engine.sources._audit import (
    QuotationAudit,
    audit_quotations,
    check_quotations,
    normalise,
    verify_quotations,
)
from tutor.engine.sources._build import _build
from tutor.engine.sources._historical_records import RECORD_KINDS, Record, RecordDate, parse_date
from tutor.engine.sources._library import (
    KINDS,
    PACK_SIZE,
    Library,
    Parameter,
    Quotation,
    Source,
    UnknownQuotation,
)
from tutor.engine.sources._source_file import _RawSource, display_path

__all__ = [
    "KINDS",
    "PACK_SIZE",
    "RECORD_KINDS",
    "Library",
    "Parameter",
    "Quotation",
    "QuotationAudit",
    "Record",
    "RecordDate",
    "Source",
    "UnknownQuotation",
    "audit_quotations",
    "check_quotations",
    "clear_cache",
    "default_library",
    "display_path",
    "get_ruleset",
    "load_library",
    "normalise",
    "parse_date",
    "pinned_library",
    "ruleset_ids",
    "set_extra_dirs",
    "set_notice",
    "source_text",
    "verify_quotations",
]


def load_library(extra_dirs: Sequence[Path | str] = ()) -> Library:
    """Load and validate every source file.

    Reads each ``*.yaml`` in ``data_dir("sources")``, then in ``laugh_home()/"sources"`` if that
    folder exists (the teacher's folder), then in each of ``extra_dirs`` (a folder, or a single
    ``.yaml`` file), each folder's files in name order; a file already read (same resolved path)
    is skipped.  Returns a :class:`Library`.

    A file of the teacher's folder never stops the program: one that cannot be read, that breaks
    the schema, that clashes with the files read before it, or whose quotations are not verbatim
    in the texts they name is left out, with one line ``FILE:LINE: KEY: what is wrong`` for each
    problem in :attr:`Library.refused`.  Any other file raises
    :class:`~tutor.engine.errors.DataError` (``FILE:LINE: KEY.PATH: what is wrong``) for a YAML
    syntax error, an unknown or missing key, a wrong type, a bad enum value, an unknown quotation
    or ruleset reference, a deal that does not use 52 cards, a failed pot balance, or a
    duplicate source, ruleset, record, quotation or problem id; and
    :class:`~tutor.engine.errors.UsageError` for an extra folder that does not exist.
    """
    seen: set[Path] = set()

    def files_in(folder: Path, must_exist: bool) -> list[Path]:
        if folder.is_file() and folder.suffix in (".yaml", ".yml"):
            candidates = [folder]
        elif folder.is_dir():
            candidates = sorted(folder.glob("*.yaml"))
        elif must_exist:
            raise UsageError(f"--sources: no such folder: {folder}")
        else:
            return []
        out = []
        for f in candidates:
            key = f.resolve()
            if key not in seen:
                seen.add(key)
                out.append(f)
        return out

    own = files_in(data_dir("sources"), False)
    home = files_in(laugh_home() / "sources", False)
    extra = [f for d in extra_dirs for f in files_in(Path(d).expanduser(), True)]
    from tutor.engine.sources._parse import _parse_file  # with pydantic: when files are read

    raws = [_parse_file(f) for f in own]
    admitted, refused = _admit(raws, home)
    lib = _build(raws + admitted + [_parse_file(f, "extra") for f in extra])
    lib.refused = tuple(refused)
    return lib


def _admit(own: list[_RawSource], home: list[Path]) -> tuple[list[_RawSource], list[str]]:
    """The teacher's files that load beside ``own`` (and the ones admitted before them), and a
    line for each problem of the others."""
    from tutor.engine.sources._parse import _parse_file

    admitted: list[_RawSource] = []
    refused: list[str] = []
    texts = source_texts_dir()
    for path in home:
        left_out: list[str] = []  # its refused records, each left out on its own
        try:
            raw = _parse_file(path, "home", left_out)
            lib = _build(own + admitted + [raw])
        except LaughError as exc:
            refused += [line for line in str(exc).splitlines() if line.strip()]
            continue
        except (OSError, ValueError, RecursionError) as exc:  # a file that is not one
            refused.append(f"{display_path(path)}:1: file: cannot be read ({exc})")
            continue
        mine = [q for q in lib.sources[raw.id].quotations.values()]
        bad = [line for line in audit_quotations(lib, texts, only=mine).problems]
        if bad:
            refused += bad
            continue
        refused += left_out
        admitted.append(raw)
    return admitted, refused


# --------------------------------------------------------------------------------------------
# Module-level cache

_extra_dirs: tuple[Path, ...] = ()
_cache: tuple[tuple[object, ...], Library] | None = None
_notice: Callable[[str], None] | None = None
_noticed: set[str] = set()
#: How many times the cache was cleared (a pinned library from before a clear is not used).
_cleared = 0
#: The library :func:`pinned_library` holds for this thread or task: ``(_cleared then, lib)``.
_pinned: ContextVar[tuple[int, Library] | None] = ContextVar("_pinned", default=None)


def set_notice(notice: Callable[[str], None] | None) -> None:
    """Call ``notice`` with each line of :attr:`Library.refused` (a teacher's file left out),
    once a process, when :func:`default_library` loads it (the command line prints them on
    standard error); None: say nothing."""
    global _notice
    _notice = notice


def set_extra_dirs(dirs: Iterable[Path | str]) -> None:
    """Also load sources from ``dirs`` (the CLI's ``--sources DIR``); clears the cache."""
    global _extra_dirs
    _extra_dirs = tuple(Path(d) for d in dirs)
    clear_cache()


def clear_cache() -> None:
    """Forget the cached :func:`default_library` so the next call reloads the files."""
    global _cache, _cleared
    _cache = None
    _cleared += 1


#: The variables :func:`laugh_home` and :func:`~tutor.engine.data.source_texts_dir` follow: the
#: tutor's own, and (where ``LAUGH_HOME`` is not set) those the platform's user data folder
#: follows (platformdirs).
_PLATFORM_ENV = ("HOME", "XDG_DATA_HOME", "APPDATA", "LOCALAPPDATA", "USERPROFILE")
#: The folders :func:`_cache_key` looks at, per value of those variables: the learner's
#: ``sources`` folder, and the source texts' folder with whether a variable named it (then it
#: is taken as it is) or it is the project's own (taken where it is a folder).
_key_paths: dict[tuple[str | None, ...], tuple[Path, Path | None, bool]] = {}


def _cache_key() -> tuple[object, ...]:
    """What :func:`default_library` reads besides the project's own files, as its cache's key:
    the extra folders, the learner's ``sources`` folder (None where the learner's folder has
    none: every such folder gives the project's library), and the source texts' folder the
    quotations are checked against (:func:`~tutor.engine.data.source_texts_dir`).

    Every puzzle a drill draws asks for the library several times, so the folders' paths are
    worked out once per value of the variables they follow (:data:`_PLATFORM_ENV`); whether they
    exist is looked at on every call, as before."""
    environ = os.environ
    env: tuple[str | None, ...] = (environ.get("LAUGH_HOME"), environ.get("LAUGH_SOURCE_TEXTS"))
    if not env[0]:
        env += tuple(environ.get(name) for name in _PLATFORM_ENV)
    paths = _key_paths.get(env)
    if paths is None:
        given = bool(env[1])
        texts = source_texts_dir() if given else _data.data_dir("sources") / "texts"
        paths = _key_paths[env] = (laugh_home() / "sources", texts, given)
    own, texts, given = paths
    if not given and texts is not None and not texts.is_dir():
        texts = None
    return (_extra_dirs, str(own) if own.exists() else None, str(texts))


def default_library(verify: bool = True) -> Library:
    """The library of the project's, the learner's and the extra folders' sources, cached.

    The cache is keyed on what the library is read from besides the project's own files
    (:func:`_cache_key`): the extra folders, the learner's ``sources`` folder where there is one,
    the folder of source texts; so a ``LAUGH_HOME`` with sources of its own, another
    ``LAUGH_SOURCE_TEXTS`` or :func:`set_extra_dirs` reloads, while learners' folders without
    sources share one library.  With ``verify`` (the default) every
    quotation that has a text to be checked against must stand in it verbatim
    (:func:`verify_quotations`), so no command runs on a made-up quotation; ``laugh sources
    check`` asks for ``verify=False`` to report every problem itself.  Raises as
    :func:`load_library`, and :class:`~tutor.engine.errors.DataError` for a quotation that is not
    in its text.
    """
    global _cache
    pinned = _pinned.get()
    if pinned is not None and pinned[0] == _cleared:
        return pinned[1]
    key = _cache_key()
    if _cache is None or _cache[0] != key:
        _cache = (key, load_library(_extra_dirs))
    lib = _cache[1]
    if _notice is not None:
        for line in lib.refused:
            if line not in _noticed:
                _noticed.add(line)
                _notice(line)
    if verify and lib.unchecked is None:
        verify_quotations(lib, source_texts_dir())
    return lib


@contextmanager
def pinned_library() -> Iterator[Library]:
    """Within the ``with`` block, :func:`default_library` returns the library it returned on
    entry (yielded) without looking again at the folders it is read from: one piece of work
    (a puzzle's generation, which asks for it tens of thousands of times, each a few file-system
    look-ups) sees one library throughout.  For this thread or asyncio task only
    (a :class:`~contextvars.ContextVar`); :func:`clear_cache` and :func:`set_extra_dirs` still
    take effect inside the block.  Raises as :func:`default_library`."""
    lib = default_library()
    token = _pinned.set((_cleared, lib))
    try:
        yield lib
    finally:
        _pinned.reset(token)


def source_text(source: Source) -> str | None:
    """``source``'s collected text as it is on disk (its ``text`` file beside its YAML file, else
    in the project's texts folder, :func:`~tutor.engine.data.source_texts_dir`); None where it
    has none, or the file is not read: outside those folders, not a regular file, larger than
    :data:`~tutor.engine.sources._texts.MAX_TEXT_BYTES`, or not UTF-8 (``laugh sources check``
    says which)."""
    if not source.text:
        return None
    try:
        path = _texts.locate(source.text, source.path, source_texts_dir())
        return None if path is None else _texts.read(path)
    except (OSError, UnicodeDecodeError, _texts.TextRefused):
        return None


def get_ruleset(ruleset_id: str, players: int | None = None) -> Ruleset:
    """The ruleset ``ruleset_id`` from :func:`default_library` (UsageError if unknown or the
    player count is unsupported)."""
    return default_library().ruleset(ruleset_id, players)


def ruleset_ids() -> list[str]:
    """The ids of every ruleset in :func:`default_library`, in load order."""
    return list(default_library().rulesets)
