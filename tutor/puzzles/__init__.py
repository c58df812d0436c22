"""Puzzles: positions from real deals, answered and graded by the rules engine.

The room is laid out as:

- :mod:`tutor.puzzles.model`: :class:`Puzzle`, :class:`Grade`, :class:`AnswerError` and the
  kinds' definitions read from ``puzzles/*.yaml``;
- :mod:`tutor.puzzles.reader`: reading an answer exactly (every word, or none);
- :mod:`tutor.puzzles.base`: what every kind shares (the :class:`~tutor.puzzles.base.PuzzleKind`
  base class);
- :mod:`tutor.puzzles.kinds`: one module per kind (generator, grader, completion words,
  wrong-answer example, explanation facts); :mod:`tutor.puzzles.registry` lists them and says
  which lesson teaches each kind and theme;
- :mod:`tutor.puzzles.generators`: the seeded search from an id or a spec to one puzzle;
- :mod:`tutor.puzzles.answers`: grading by kind; :mod:`tutor.puzzles.render`,
  :mod:`tutor.puzzles.board`, :mod:`tutor.puzzles.quoted`: showing puzzles and positions as
  rich renderables (the streams they go to are the app's); :mod:`tutor.puzzles.export`: JSON
  Lines and curated sets.

Public API (used by the lesson runner, drills and ``laugh puzzle``):

- :data:`KINDS`: the puzzle kinds.
- :func:`generate`: one puzzle of a kind or spec (ruleset, players and seed chosen if not given).
- :func:`from_id`: the puzzle of an id ``KIND.RULESET.PLAYERS.SEED``, exactly.
- :func:`another`: a fresh puzzle of the same kind and theme ("try again").
- :func:`taught_in`: the lesson that teaches a kind and theme; :func:`max_stars`: how hard a
  lesson's puzzles may be.
- :func:`applicable_rulesets`, :func:`not_applicable`: which rulesets a kind applies to, and why
  not.
- :class:`Puzzle`, :class:`Grade`, :class:`AnswerError`, :class:`GenerationError`.
- :func:`recompute_answer`: the answer recomputed by the engine from the puzzle's record.

Definitions (questions, hints, explanation templates, quotations, difficulty knobs, decoy rates,
generator versions, the lessons that teach each theme) are data in ``puzzles/*.yaml``; see
``puzzles/README.md``.
"""

from __future__ import annotations

import importlib as _importlib
from typing import Any

__all__ = [
    "KINDS",
    "FORMAT",
    "TRIES",
    "SET_STRIDE",
    "generate",
    "from_id",
    "another",
    "applicable_rulesets",
    "not_applicable",
    "taught_in",
    "themes_of",
    "needs",
    "shows",
    "misfit",
    "board_needs",
    "probe",
    "max_stars",
    "parse_spec",
    "Puzzle",
    "Grade",
    "AnswerError",
    "GenerationError",
    "recompute_answer",
    "definition",
    "definitions",
    "Definition",
    "curated_sets",
    "curated_set",
]


def __getattr__(name: str) -> Any:
    """A name of the public API (from :mod:`tutor.puzzles._api`, loaded on first use) or a
    submodule of the room; AttributeError otherwise."""
    if name.startswith("__") or name == "_api":
        raise AttributeError(name)
    _api = _importlib.import_module(f"{__name__}._api")
    try:
        value = getattr(_api, name)
    except AttributeError:
        try:
            value = _importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
