"""One name for each theme, and the plain words shown for it.

A theme is what a puzzle, a drill question or a moment of play exercises.  Its id is spelt one
way everywhere (puzzles, drills, play, the progress store, ``laugh stats``, exports, the class
report): lowercase words joined by hyphens.  :func:`theme_id` reads any older spelling as that
one (``laid_down_dead_pair`` and ``Laid-Down-Dead-Pair`` are ``laid-down-dead-pair``), so the
progress store and an import merge them under the one name; it needs no data file, so the store
can call it on every answer at no cost.

The table ``puzzles/themes.yaml`` (:func:`theme_table`) gives each theme a ``label`` (a few
plain words, unique, shown to learners and teachers instead of the id) and a ``group`` (the
class report's grid and the practice menu show themes by group).  A theme the table does not
know (one an export from another version carries) is shown by its id, in a group of its own.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = [
    "OTHER_GROUP",
    "Theme",
    "kinds_with",
    "label",
    "resolve_theme",
    "theme",
    "theme_id",
    "theme_ids",
    "theme_table",
    "themes_file",
]

#: The group of a theme the table does not know.
OTHER_GROUP = ("other", "Other themes")


def theme_id(name: str) -> str:
    """``name`` in the one spelling of theme ids: lower case, its words (split at spaces,
    hyphens and underscores) joined by single hyphens.  ``"laid_down_dead_pair"`` ->
    ``"laid-down-dead-pair"``.  Other characters are kept as they are (a hostile name stays
    text to be escaped where it is shown)."""
    words = str(name).lower().replace("_", " ").replace("-", " ").split()
    return "-".join(words)


def theme_ids(names: Iterable[object]) -> list[str]:
    """The themes ``names`` (an iterable of strings, each read as ``str``) in the one spelling
    (:func:`theme_id`), in order, each once; a name of no words at all is kept as given (it is
    no theme of ours, and dropping it would lose what was recorded)."""
    out: dict[str, None] = {}
    for n in names:
        out.setdefault(theme_id(str(n)) or str(n), None)
    return list(out)


@dataclass(frozen=True)
class Theme:
    """A theme as the table gives it: ``id``, ``label`` (plain words), ``group`` (an id) and
    ``group_label``; ``order`` is its place in the table (groups in order, then themes), and
    ``known`` is False for a theme the table does not list."""

    id: str
    label: str
    group: str
    group_label: str
    order: int
    known: bool = True


def themes_file() -> Path:
    """``puzzles/themes.yaml``."""
    from tutor.engine.data import data_dir

    return data_dir("puzzles") / "themes.yaml"


@lru_cache(maxsize=1)
def theme_table() -> dict[str, Theme]:
    """Every theme of ``puzzles/themes.yaml``, by id, in the table's order (groups in the order
    of ``groups:``, then as listed).  Raises :class:`tutor.engine.errors.DataError`
    (``FILE:LINE: KEY: what is wrong``) for a file that is not the table: an unknown key, a
    theme id not in the one spelling, a group not listed, a label missing, empty or given to
    two themes."""
    from tutor.engine import yamlfile
    from tutor.engine.errors import DataError

    path = themes_file()
    name = path.name
    raw, doc = yamlfile.load(yamlfile.read_text(path, name), name)

    def fail(message: str, *keys: str | int) -> DataError:
        where = ".".join(str(k) for k in keys)
        return DataError(f"{name}:{doc.line_of(*keys)}: {where + ': ' if where else ''}{message}")

    if not isinstance(raw, dict) or set(raw) != {"groups", "themes"}:
        raise fail("the theme table is a mapping of exactly 'groups' and 'themes'")
    groups, themes = raw["groups"], raw["themes"]
    if not isinstance(groups, dict) or not groups:
        raise fail("a mapping of group ids to their labels", "groups")
    for g, text in groups.items():
        if not isinstance(g, str) or theme_id(g) != g:
            raise fail("a group id is lowercase words joined by hyphens", "groups", g)
        if not isinstance(text, str) or not text.strip():
            raise fail("a group's label is some words", "groups", g)
    if not isinstance(themes, dict) or not themes:
        raise fail("a mapping of theme ids to {label, group}", "themes")
    seen: dict[str, str] = {}
    entries = []
    for tid, entry in themes.items():
        if not isinstance(tid, str) or theme_id(tid) != tid:
            raise fail(
                f"a theme id is lowercase words joined by hyphens ({theme_id(str(tid))!r})",
                "themes",
                tid,
            )
        if (
            not isinstance(entry, dict)
            or set(entry) - {"label", "group"}
            or not {"label", "group"} <= set(entry)
        ):
            raise fail("a theme is {label: WORDS, group: GROUP}", "themes", tid)
        text, group = entry["label"], entry["group"]
        if not isinstance(text, str) or not text.strip():
            raise fail("a label is some plain words", "themes", tid, "label")
        if group not in groups:
            raise fail(
                f"{group!r} is not one of the groups ({', '.join(groups)})", "themes", tid, "group"
            )
        if text.lower() in seen:
            raise fail(
                f"the label {text!r} is also {seen[text.lower()]!r}'s: a label names one theme",
                "themes",
                tid,
                "label",
            )
        seen[text.lower()] = tid
        entries.append((list(groups).index(group), tid, text, group))
    entries.sort(key=lambda e: e[0])  # stable: the table's order within a group
    return {
        tid: Theme(tid, text, group, groups[group], i)
        for i, (_, tid, text, group) in enumerate(entries)
    }


def theme(name: str) -> Theme:
    """The :class:`Theme` of ``name`` (any spelling); one the table does not know is shown by
    its id, in :data:`OTHER_GROUP`, after every known theme."""
    tid = theme_id(name) or str(name)
    got = theme_table().get(tid)
    if got is not None:
        return got
    return Theme(tid, tid, OTHER_GROUP[0], OTHER_GROUP[1], len(theme_table()), known=False)


def label(name: str) -> str:
    """The plain words for theme ``name`` (any spelling): its table label, else its id."""
    return theme(name).label


def kinds_with(name: str) -> list[str]:
    """The puzzle kinds whose puzzles can carry theme ``name`` (any spelling), in menu order."""
    from tutor.puzzles.registry import KINDS, themes_of

    tid = theme_id(name)
    return [k for k in KINDS if tid in themes_of(k)]


def resolve_theme(text: str) -> str:
    """The theme id ``text`` names (an id in any spelling, or a label), for ``laugh puzzle
    --theme``.  Raises :class:`tutor.engine.errors.UsageError` for a theme no puzzle kind
    carries, suggesting the nearest ids."""
    from tutor.engine.errors import UsageError
    from tutor.puzzles.registry import KINDS, themes_of

    known = {t for k in KINDS for t in themes_of(k)}
    tid = theme_id(text)
    if tid in known:
        return tid
    by_label = {t.label.lower(): t.id for t in theme_table().values() if t.id in known}
    if text.strip().lower() in by_label:
        return by_label[text.strip().lower()]
    near = difflib.get_close_matches(tid, sorted(known), n=3)
    hint = f" (did you mean {', '.join(near)}?)" if near else ""
    raise UsageError(
        f"no puzzle has the theme {text!r}{hint}; `laugh puzzles themes` lists every theme"
    )
