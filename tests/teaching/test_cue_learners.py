"""The oversight drill needs the skill (issue 30 item 2): learners who game it score no better
than chance allows.

Four scripted learners answer the drill's positions (:class:`~tutor.teaching.drills.spotmix.
SpotMix`, every ruleset with oversights) at each difficulty:

- **always pass**: right only where there is nothing to claim;
- **always one rank**: ``claim sevens`` every time;
- **surface cues** (ours): never counts a won pile and ignores the ruleset and who played; it
  claims the rank when four of it lie on the table, when the last action was a one-for-one
  capture that left two of that rank there, or when the last action laid down two or more of a
  rank that are still there; else it passes;
- **the engine**: claims what the engine says is claimable, else passes (100 %).

Over 200 positions at each level (``-m slow``; the default run asks 18 at level 3):
always pass at most 45 % right, the cue learner at most 60 % and never past the second
difficulty in a storm, the engine 100 %.
"""

from __future__ import annotations

import io
import random
import re
from collections import Counter

import pytest
from rich.console import Console

from tutor.app.clock import FakeClock
from tutor.app.io import ScriptedIO
from tutor.engine.cards import RANK_PLURALS, rank_of
from tutor.teaching.drills.oversights import STORM_RUN, STREAK_RUN, OversightDrill, Run
from tutor.teaching.drills.spotmix import SpotMix


def cue(p) -> str:
    """The surface-cue learner's answer to puzzle ``p`` (what the board looks like)."""
    d = p.deal()
    table = Counter(rank_of(c) for c in d.table_cards())
    four = [r for r, k in table.items() if k == 4]
    if four:
        return f"claim {RANK_PLURALS[four[0]]}"
    last = d.history[-1] if d.history else None
    if last is not None and last.kind == "capture" and len(last.cards) == 1 \
            and len(last.table) == 1 and table[rank_of(last.cards[0])] == 2:
        return f"claim {RANK_PLURALS[rank_of(last.cards[0])]}"
    if last is not None and last.kind == "lie_down":
        held = Counter(rank_of(c) for c in last.cards)
        for r, k in sorted(held.items(), key=lambda x: (-x[1], x[0])):
            if k >= 2 and table[r] >= 2:
                return f"claim {RANK_PLURALS[r]}"
    return "pass"


def engine(p) -> str:
    """The engine-backed learner: the claim the engine finds open, else pass."""
    return p.expected_answer_text() if p.answer["claims"] else "pass"


LEARNERS = {"cue": cue, "pass": lambda p: "pass", "one-rank": lambda p: "claim sevens",
            "engine": engine}


def right(p, text: str) -> bool:
    return bool(p.grade("nothing" if text == "pass" else text, 1).correct)


def positions(level: int, n: int) -> list:
    mix = SpotMix(random.Random(f"cue-learners:{level}"))
    return [mix.puzzle(mix.next_slot(level), level) for _ in range(n)]


def scores(level: int, n: int) -> dict[str, float]:
    ps = positions(level, n)
    return {name: sum(right(p, f(p)) for p in ps) / n for name, f in LEARNERS.items()}


def check(got: dict[str, float]) -> None:
    assert got["engine"] == 1.0, got
    assert got["pass"] <= 0.45, got
    assert got["cue"] <= 0.60, got
    assert got["one-rank"] <= 0.20, got


def test_cue_learners_score_no_better_than_chance_allows():
    check(scores(3, 18))


@pytest.mark.slow
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_cue_learners_over_200_positions_at_each_level(level):
    check(scores(level, 200))


def top_difficulty(learner, seed: int) -> int:
    """The highest difficulty a 3-minute storm reaches with ``learner`` answering in 2 s."""
    state: dict = {}
    out = Console(file=io.StringIO(), width=80, color_system=None)
    drill = OversightDrill(ScriptedIO(lambda prompt: learner(state["p"]), out,
                                      FakeClock(default=2.0)), seed=seed)
    orig = drill.next_puzzle

    def next_puzzle(*a, **k):
        state["p"] = orig(*a, **k)
        return state["p"]
    drill.next_puzzle = next_puzzle
    drill.storm(minutes=3)
    return max([1] + [int(x) for x in re.findall(r"difficulty (\d) of 5", out.file.getvalue())])


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_in_a_storm_the_cue_learner_never_reaches_the_third_difficulty(seed):
    assert top_difficulty(cue, seed) <= 2
    assert top_difficulty(LEARNERS["pass"], seed) == 1


def test_a_run_rises_only_with_a_right_claim_and_a_right_pass():
    for length in (STREAK_RUN, STORM_RUN):
        for only in (True, False):          # all claims, or all passes: never
            run = Run()
            for _ in range(3 * length):
                run.add(only)
            assert not run.ready(length)
        run = Run()
        for k in range(length):
            run.add(k == 0)
            assert run.ready(length) == (k == length - 1)
        run.reset()
        assert not run.ready(length) and run.right == 0
