"""Where the project's data folders are: ``sources/``, ``lessons/``, ``puzzles/``.

In an installed wheel they sit inside the package (``tutor/_data``); in a checkout (or an
editable install) they are the folders at the project root.  ``LAUGH_HOME`` (or the user's data
directory) holds the learner's own files: progress, and extra ``sources/``.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]  # the tutor package
_ROOT = _PACKAGE.parent


def data_dir(name: str) -> Path:
    """The folder of the project's own data called ``name`` (``sources``, ``lessons``, ``puzzles``)."""
    packaged = _PACKAGE / "_data" / name
    if packaged.is_dir():
        return packaged
    return _ROOT / name


def laugh_home() -> Path:
    """The learner's own folder: ``$LAUGH_HOME`` if set, else the platform's user data directory."""
    env = os.environ.get("LAUGH_HOME")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_path

    return Path(user_data_path("laugh-and-lie-down", appauthor=False))


def laugh_cache() -> Path:
    """Where results that can be worked out again are kept (the studies that lessons show):
    ``$LAUGH_CACHE`` if set, else ``cache`` in ``$LAUGH_HOME`` if that is set, else the
    platform's user cache directory.  Losing it loses nothing but time."""
    env = os.environ.get("LAUGH_CACHE")
    if env:
        return Path(env).expanduser()
    if os.environ.get("LAUGH_HOME"):
        return laugh_home() / "cache"
    from platformdirs import user_cache_path

    return Path(user_cache_path("laugh-and-lie-down", appauthor=False))


def source_texts_dir() -> Path | None:
    """The folder of the collected source texts that quotations are checked against:
    ``$LAUGH_SOURCE_TEXTS`` when set, else the project's own copy (``sources/texts``), or None
    where there is none."""
    env = os.environ.get("LAUGH_SOURCE_TEXTS")
    if env:
        return Path(env).expanduser()
    own = data_dir("sources") / "texts"
    return own if own.is_dir() else None
