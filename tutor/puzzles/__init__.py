"""Puzzles: positions from real deals, answered and graded by the rules engine.

Public API (used by the lesson runner, drills and ``laugh puzzle``):

- :data:`KINDS`: the puzzle kinds.
- :func:`generate`: one puzzle of a kind (ruleset, players and seed chosen if not given).
- :func:`from_id`: the puzzle of an id ``KIND.RULESET.PLAYERS.SEED``, exactly.
- :func:`applicable_rulesets`: the rulesets a kind applies to.
- :class:`Puzzle`, :class:`Grade`, :class:`AnswerError`.
- :func:`recompute_answer`: the answer recomputed by the engine from the puzzle's record.

Definitions (questions, hints, explanation templates, quotations, difficulty knobs, decoy rates,
generator versions) are data in ``puzzles/*.yaml``; see ``puzzles/README.md``.
"""

from __future__ import annotations

import random as _random

from tutor.engine.errors import UsageError
from tutor.puzzles.generators import (DIFFICULTY_SEARCH, GENERATORS, GenerationError, applicable_rulesets,
                         build, check_kind, parse_id, resolve_choice)
from tutor.puzzles.model import FORMAT, KINDS, AnswerError, Definition, Grade, Puzzle, definition, definitions

__all__ = ["KINDS", "FORMAT", "generate", "from_id", "applicable_rulesets", "Puzzle", "Grade",
           "AnswerError", "GenerationError", "recompute_answer", "definition", "definitions",
           "Definition", "curated_sets", "curated_set"]


def generate(kind: str, ruleset: str | None = None, players: int | None = None,
             seed: int | None = None, difficulty: int | None = None) -> Puzzle:
    """One puzzle of ``kind``.

    ``ruleset`` and ``players`` default to a choice drawn from the seed among the rulesets the
    kind applies to; ``seed`` defaults to a fresh random one.  With ``difficulty`` (1-5), seeds
    from ``seed`` on are searched in order for a puzzle of that difficulty (the nearest found is
    returned if none matches within a bounded search).  Raises UsageError for an unknown kind,
    ruleset, player count or difficulty.
    """
    check_kind(kind)
    if difficulty is not None and not (isinstance(difficulty, int) and 1 <= difficulty <= 5):
        raise UsageError(f"difficulty must be a whole number from 1 to 5, not {difficulty!r}")
    if seed is None:
        seed = _random.randrange(1_000_000)
    if seed < 0:
        raise UsageError(f"a seed is a whole number of at least 0, not {seed}")
    if difficulty is None:
        rid, n = resolve_choice(kind, ruleset, players, seed)
        return build(kind, rid, n, seed)
    best: Puzzle | None = None
    for s in range(seed, seed + DIFFICULTY_SEARCH):
        rid, n = resolve_choice(kind, ruleset, players, s)
        p = build(kind, rid, n, s)
        if p.difficulty == difficulty:
            return p
        if best is None or abs(p.difficulty - difficulty) < abs(best.difficulty - difficulty):
            best = p
    return best  # type: ignore[return-value]


def from_id(puzzle_id: str) -> Puzzle:
    """The puzzle of ``KIND.RULESET.PLAYERS.SEED``, regenerated exactly.

    Raises UsageError (one line, with the valid choices) for a malformed id, an unknown kind or
    ruleset, or a player count the ruleset does not cover.
    """
    kind, ruleset, players, seed = parse_id(puzzle_id)
    rid, n = resolve_choice(kind, ruleset, players, seed)
    return build(kind, rid, n, seed)


def recompute_answer(puzzle: Puzzle) -> dict:
    """The puzzle's answer computed afresh by the engine from its record (replayed)."""
    from tutor.engine.records import replay
    from tutor.engine.sources import default_library
    rs = default_library().ruleset(puzzle.ruleset, puzzle.players)
    return GENERATORS[puzzle.kind].solve(replay(puzzle.record), puzzle.seat, puzzle.data, rs,
                                         puzzle.players)


def curated_sets() -> dict[str, dict]:
    """The curated sets in ``puzzles/sets/*.yaml``: name -> ``{title, description, ids}``."""
    from tutor.puzzles.export import load_sets
    return load_sets()


def curated_set(name: str) -> dict:
    """One curated set by name; UsageError listing the sets if there is none."""
    sets = curated_sets()
    if name not in sets:
        raise UsageError(f"unknown puzzle set {name!r}; choose from {', '.join(sets) or 'none'}")
    return sets[name]
