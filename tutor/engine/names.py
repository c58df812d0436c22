"""Names a person types: one way to read them, and one way to say a name we do not know.

Every name typed on the command line or at a prompt (a ruleset, a source, a lesson, a puzzle
kind, a theme, a drill and its settings, a level, a computer player, a track) is read by
:func:`find_name`: the name itself, or the same name in other case and with spaces, hyphens and
underscores taken alike (``Inter-Livery-2018``, ``inter livery 2018`` and ``INTER_LIVERY_2018``
are ``inter-livery-2018``).  A name that is none of them is :func:`unknown`: one line that says
what was not found, the nearest names (``did you mean parlett?``) and every name there is.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from tutor.engine.errors import UsageError

__all__ = ["find_name", "name_key", "nearest", "unknown"]

_SEPARATORS = re.compile(r"[\s_-]+")

#: The longest typed name said back in a message (a pasted paragraph is not repeated whole).
_SAID = 40


def name_key(text: str) -> str:
    """``text`` as names are compared: case folded, spaces, hyphens and underscores as one
    hyphen, none at either end."""
    return _SEPARATORS.sub("-", str(text).casefold()).strip("-")


def nearest(text: str, names: Iterable[str], n: int = 3) -> list[str]:
    """Up to ``n`` of ``names`` nearest ``text`` (by :func:`difflib.get_close_matches` on
    :func:`name_key`, and any name that begins with what was typed), nearest first."""
    names = list(dict.fromkeys(names))
    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(name_key(name), name)
    key = name_key(text)
    close = difflib.get_close_matches(key, list(by_key), n=n, cutoff=0.6)
    if key:
        close += [k for k in by_key if k.startswith(key) and k not in close]
    return [by_key[k] for k in close[:n]]


def _said(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= _SAID else text[: _SAID - 1] + "…"


def unknown(
    text: str, names: Iterable[str], what: str, listing: str | None = None, more: str = ""
) -> UsageError:
    """The :class:`UsageError` for ``text``, which names none of ``names``: ``unknown WHAT
    'TEXT'; did you mean A or B? (WHATs: ...)``.  ``listing`` replaces the list of every name
    (a command that lists them, say); ``more`` is added at the end."""
    names = list(names)
    near = nearest(text, names)
    said = f"unknown {what} '{_said(text)}'"
    if near:
        said += "; did you mean " + " or ".join(near) + "?"
    said += f" ({listing})" if listing else f" ({what}s: {', '.join(names)})"
    return UsageError(said + more)


def find_name(text: str, names: Iterable[str], what: str, listing: str | None = None) -> str:
    """The one of ``names`` that ``text`` names: itself, or the name whose :func:`name_key`
    is ``text``'s.  Raises :class:`UsageError` (:func:`unknown`) for a text that names none,
    or two."""
    names = list(names)
    if text in names:
        return text
    key = name_key(text)
    found = [n for n in names if name_key(n) == key]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise UsageError(f"'{_said(text)}' could be {' or '.join(found)}; type one of them")
    raise unknown(text, names, what, listing)
