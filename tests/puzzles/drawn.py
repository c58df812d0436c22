"""One drawing of each puzzle for the whole test session: the puzzle tests draw the same
puzzles (the shared corpus, the learner-text scan, the claim-window checks and the
partial-input learner all spread seeds round-robin over a kind's rulesets and player counts
alike), and a puzzle is fixed by its spec, ruleset, players and seed, so each is generated once
a process.  The tests only read the puzzles they are given (none changes one)."""

from __future__ import annotations

import tutor.puzzles as P

_DRAWN: dict[tuple[str, str, int, int], P.Puzzle] = {}


def drawn(spec: str, ruleset: str, players: int, seed: int) -> P.Puzzle:
    """``P.generate(spec, ruleset, players, seed)``, generated once a test session."""
    key = (spec, ruleset, players, seed)
    p = _DRAWN.get(key)
    if p is None:
        p = _DRAWN[key] = P.generate(spec, ruleset, players, seed)
    return p
