"""Exporting puzzles as JSON Lines (``laugh-and-lie-down/puzzle@1``), and the curated sets of
``puzzles/sets/*.yaml``."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TypedDict

from tutor.engine import yamlfile
from tutor.engine.errors import DataError, LaughError
from tutor.engine.safetext import json_text
from tutor.puzzles.generators import search
from tutor.puzzles.model import Puzzle, puzzles_dir


def dumps(puzzle: Puzzle) -> str:
    """One puzzle as a single JSON line; a control, bidi or format character a source brought
    into its text is a ``\\uXXXX`` escape (:func:`tutor.engine.safetext.json_text`)."""
    return json_text(json.dumps(puzzle.to_json(), ensure_ascii=False, separators=(",", ":")))


def export_series(
    kind: str, count: int, seed: int, ruleset: str | None = None, players: int | None = None
) -> Iterator[Puzzle]:
    """``count`` puzzles of ``kind`` (a kind or spec) with seeds ``seed``, ``seed + 1``, ..."""
    for k in range(count):
        yield search(kind, ruleset, players, seed + k)


def write_puzzles(path: str | Path, puzzles: Iterable[Puzzle]) -> int:
    """Write puzzles to ``path`` as JSON Lines, whole or not at all (:func:`~tutor.engine.
    atomic.open_atomic`: a write that fails, or a puzzle that cannot be made, leaves no part
    of a file); returns how many were written.  Raises LaughError when it cannot be written."""
    from tutor.engine.atomic import open_atomic

    n = 0
    try:
        with open_atomic(path) as fh:
            for p in puzzles:
                fh.write(dumps(p) + "\n")
                n += 1
    except OSError as exc:
        raise LaughError(f"cannot write {path}: {exc.strerror or exc}") from None
    return n


class PuzzleSet(TypedDict):
    """A curated set of puzzles (:func:`load_sets`): its ``title``, ``description`` and the
    puzzle ``ids`` in order."""

    title: str
    description: str
    ids: list[str]


def load_sets() -> dict[str, PuzzleSet]:
    """Every curated set: name (file stem) -> ``{title, description, ids}``.

    Each file is read through :mod:`tutor.engine.yamlfile`; raises :class:`DataError`
    (``FILE:LINE: KEY: what is wrong``) for a malformed one.
    """
    folder = puzzles_dir() / "sets"
    out: dict[str, PuzzleSet] = {}
    if not folder.is_dir():
        return out
    for f in sorted(folder.glob("*.yaml")):
        raw, doc = yamlfile.load(yamlfile.read_text(f, f.name), f.name)
        if (
            not isinstance(raw, dict)
            or not isinstance(raw.get("ids"), list)
            or not all(isinstance(i, str) for i in raw["ids"])
        ):
            raise DataError(
                f"{f.name}:{doc.line_of('ids')}: ids: a puzzle set needs `ids:`, a "
                "list of puzzle ids"
            )
        extra = sorted(str(k) for k in set(raw) - {"title", "description", "ids"})
        if extra:
            raise DataError(
                f"{f.name}:{doc.line_of(extra[0])}: {extra[0]}: unknown key "
                "(keys: title, description, ids)"
            )
        out[f.stem] = {
            "title": str(raw.get("title") or f.stem),
            "description": str(raw.get("description") or "").strip(),
            "ids": list(raw["ids"]),
        }
    return out
