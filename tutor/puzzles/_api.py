"""The puzzles room's public API, behind :mod:`tutor.puzzles` (which loads this module the first
time one of its names is asked for, so that importing a light part of the room, such as
:mod:`tutor.puzzles.themes`, does not load every kind)."""

from __future__ import annotations

import random as _random
from typing import Any

from tutor.engine.errors import UsageError
from tutor.engine.records import replay
from tutor.engine.sources import pinned_library
from tutor.puzzles.base import SET_STRIDE
from tutor.puzzles.export import PuzzleSet, load_sets
from tutor.puzzles.generators import (
    GenerationError,
    applicable_rulesets,
    derived_seed,
    max_stars,
    misfit,
    needs,
    not_applicable,
    parse_id,
    parse_spec,
    resolve_choice,
    search,
    shows,
)
from tutor.puzzles.generators import build as _build
from tutor.puzzles.model import FORMAT, TRIES, AnswerError, Definition, Grade, Puzzle, definition
from tutor.puzzles.registry import KINDS, kind_of, taught_in, themes_of

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


def generate(
    kind: str,
    ruleset: str | None = None,
    players: int | None = None,
    seed: int | None = None,
    difficulty: int | None = None,
) -> Puzzle:
    """One puzzle of ``kind``, a kind or a spec ``KIND[/THEME][@LESSON]`` (see
    :mod:`tutor.puzzles.generators`).

    ``ruleset`` and ``players`` default to a choice drawn from the seed among the rulesets the
    kind applies to; ``seed`` defaults to a fresh random one.  With ``difficulty`` (1-5), or a
    theme or lesson in the spec, seeds from ``seed`` on are searched in order for a puzzle that
    fits (for a difficulty, the nearest found is returned if none matches within the bounded
    search).  Raises UsageError for an unknown kind, theme, ruleset, player count or difficulty;
    GenerationError when no puzzle fits.
    """
    parse_spec(kind)
    if difficulty is not None and not (isinstance(difficulty, int) and 1 <= difficulty <= 5):
        raise UsageError(f"difficulty must be a whole number from 1 to 5, not {difficulty!r}")
    if seed is None:
        seed = _random.randrange(1_000_000)
    if seed < 0:
        raise UsageError(f"a seed is a whole number of at least 0, not {seed}")
    return search(kind, ruleset, players, seed, difficulty)


def from_id(puzzle_id: str) -> Puzzle:
    """The puzzle of ``KIND.RULESET.PLAYERS.SEED``, regenerated exactly.

    Raises UsageError (one line, with the valid choices) for a malformed id, an unknown kind or
    ruleset, or a player count the ruleset does not cover.
    """
    kind, ruleset, players, seed = parse_id(puzzle_id)
    rid, n = resolve_choice(kind, ruleset, players, seed)
    return _build(kind, rid, n, seed)


def another(
    puzzle: Puzzle, n: int = 1, lesson: str | None = None, theme: str | None = None
) -> Puzzle:
    """A fresh puzzle of the same kind and main theme as ``puzzle``, under the same ruleset and
    player count, as hard where one is found, never ``puzzle`` itself nor the same question
    about the same position (:func:`tutor.puzzles.generators.same_question`: "Player 2 deals.
    Who is eldest?" is not asked twice): "try again" after a wrong answer.  ``n`` numbers the fresh puzzles asked for after the same one (1, 2, ...); the same
    ``puzzle`` and ``n`` give the same fresh puzzle.  ``lesson`` (a lesson file name without
    ``.md``, as in a lesson block's spec) keeps it to what that lesson has taught; ``theme``
    (a lesson block's) is kept instead of the puzzle's main theme, so a retry tests the block's
    objective.  Raises GenerationError when none is found in the bounded search."""
    theme = theme or puzzle.theme
    spec = f"{puzzle.kind}/{theme}" if theme in themes_of(puzzle.kind) else puzzle.kind
    if lesson:
        spec += f"@{lesson}"
    seed = derived_seed(f"{puzzle.id}/again/{n}")
    return search(
        spec,
        puzzle.ruleset,
        puzzle.players,
        seed,
        puzzle.difficulty,
        exclude=(puzzle.id,),
        unlike=puzzle,
    )


def probe(
    spec: str,
    ruleset: str | None = None,
    players: int | None = None,
    seed: int = 0,
    bound: int = 60,
) -> str | None:
    """Whether puzzles of ``spec`` (``KIND[/THEME][@LESSON]``) can be set: None when the search
    from ``seed`` finds one within ``bound`` seeds, else why not in a few words (the reason most
    of the puzzles found did not fit: a theme they lack, a board that shows a rule taught later,
    too many stars).  For ``laugh lessons check``."""
    try:
        search(spec, ruleset, players, seed, bound=bound)
    except GenerationError as exc:
        text = str(exc)
        return text.split(": ", 1)[1] if ": " in text else text
    return None


def board_needs(kind: str, ruleset: str, players: int) -> list[str]:
    """What every board of ``kind`` under ``ruleset`` with ``players`` players shows, whatever
    the position: the features of its pot or points line where the kind shows it (its
    definition's ``options.board``), as ids of ``puzzles/board.yaml``."""
    from tutor.puzzles.model import board_options
    from tutor.puzzles.render import scoring_features

    if not board_options(kind)["scoring"]:
        return []
    return sorted(scoring_features(ruleset, players))


def recompute_answer(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle's answer computed afresh by the engine from its record (replayed), with one
    library throughout (:func:`tutor.engine.sources.pinned_library`)."""
    with pinned_library() as lib:
        rs = lib.ruleset(puzzle.ruleset, puzzle.players)
        return kind_of(puzzle.kind).solve(
            replay(puzzle.record), puzzle.seat, puzzle.data, rs, puzzle.players
        )


def definitions() -> dict[str, Definition]:
    """Every kind's :class:`Definition`, in menu order."""
    return {k: definition(k) for k in KINDS}


def curated_sets() -> dict[str, PuzzleSet]:
    """The curated sets in ``puzzles/sets/*.yaml``: name -> ``{title, description, ids}``."""
    return load_sets()


def curated_set(name: str) -> PuzzleSet:
    """One curated set by name; UsageError listing the sets if there is none."""
    from tutor.engine.names import find_name

    sets = curated_sets()
    return sets[find_name(name, sets, "puzzle set")]
