"""A corpus of generated puzzles shared by the puzzle tests: for every kind, seeds spread over
every (ruleset, players) the kind applies to, generated once per test session."""

from __future__ import annotations

import pytest
from drawn import drawn
from puzzle_checks import SLOW_KINDS

import tutor.puzzles as P
from tutor.engine.sources import default_library

#: Puzzles per kind in the shared corpus (capture-now's variety is checked over 200).
PER_KIND = 200


def combos(kind: str) -> list[tuple[str, int]]:
    lib = default_library()
    return [(r, n) for r in P.applicable_rulesets(kind) for n in lib.rulesets[r].player_counts]


def seeds_for(kind: str, total: int = PER_KIND) -> list[tuple[str, int, int]]:
    """``total`` (ruleset, players, seed) triples, round-robin over the kind's combinations
    (for a slow kind, one for each ruleset, with five players where it covers five)."""
    cs = combos(kind)
    if kind in SLOW_KINDS:
        lib = default_library()
        return [
            (r, 5 if 5 in lib.rulesets[r].counts else lib.rulesets[r].player_counts[0], i)
            for i, r in enumerate(P.applicable_rulesets(kind))
        ]
    return [(*cs[i % len(cs)], i // len(cs)) for i in range(total)]


_CORPUS: dict[str, list[P.Puzzle]] = {}


@pytest.fixture(scope="session")
def corpus():
    """``corpus(kind)``: the kind's puzzles for :func:`seeds_for`, generated once."""

    def get(kind: str) -> list[P.Puzzle]:
        if kind not in _CORPUS:
            _CORPUS[kind] = [drawn(kind, r, n, s) for r, n, s in seeds_for(kind)]
        return _CORPUS[kind]

    return get
