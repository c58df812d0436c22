"""What the lesson modules share: the shapes of ids, splitting off the front matter, and how a
problem names a file and a value."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from tutor.engine.errors import DataError

_ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_REF_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*:[a-z0-9]+(?:-[a-z0-9]+)*$")
#: A lesson file name (without ``.md``) that places it in the course: ``04-capturing``.
_STEM_RE = re.compile(r"^\d\d-[a-z0-9-]+$")


def _split_front_matter(path: Path, text: str) -> tuple[str | None, str, int]:
    """Split ``text`` into (front matter YAML or None, body, file line of the body's first line)."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return None, text, 1
    for i in range(1, len(lines)):
        if lines[i].strip() in ("---", "..."):
            return "\n".join(lines[1:i]), "\n".join(lines[i + 1 :]), i + 2
    raise DataError(f"{_display(path)}:1: front matter: not closed (no second line '---')")


def _shown(value: Any) -> str:
    """``value`` as a problem names it: its repr, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def resolve_players(ruleset, players: int | None) -> int:
    """``players`` if given, else 5 where ``ruleset`` covers five, else its smallest count."""
    if players is not None:
        return players
    return 5 if 5 in ruleset.counts else ruleset.player_counts[0]


def _display(path: Path) -> str:
    """``path`` relative to the working folder when it is inside it, else as given."""
    try:
        p = Path(path)
        return os.path.relpath(p) if p.resolve().is_relative_to(Path.cwd()) else str(p)
    except (ValueError, OSError):
        return str(path)


def puzzle_seed(lesson_seed: int, lesson_id: str, block_index: int, n: int) -> int:
    """The seed of puzzle ``n`` (0-based) of the puzzle block ``block_index`` of a lesson taken
    with ``lesson_seed``: the same numbers give the same puzzle on every machine.  The block's
    first seed is a 48-bit int from SHA-256 (not Python's randomised ``hash``); its puzzles' seeds
    lie :data:`tutor.puzzles.SET_STRIDE` apart, so their seed searches never meet and a set
    never repeats a quotation (see :mod:`tutor.puzzles.kinds.source_quiz`)."""
    import hashlib

    from tutor.puzzles.base import SET_STRIDE  # tutor.puzzles is loaded only when puzzles are posed

    digest = hashlib.sha256(f"{lesson_seed}/{lesson_id}/{block_index}/0".encode()).digest()
    return int.from_bytes(digest[:6], "big") + n * SET_STRIDE
