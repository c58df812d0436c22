"""Scripted learners of the oversight drill (issues 30 and 42), shared by the tests and runnable
as a measurement: ``python tests/teaching/spot_learners.py [N] [SEEDS]`` prints each learner's
score per level over N positions (default 225) and over a 3-minute storm at each of SEEDS seeds
(default 8), with the positions where counting or the ruleset decides apart, and per level the
share with nothing to claim and the scores on the look-alikes of a split prial or a table
mournival made by another player.

- **pass**: always passes;
- **one-rank**: ``claim sevens`` every time;
- **cue** (surface cues): never counts a won pile and ignores the ruleset and who played; it
  claims the rank when four of it lie on the table, when the last action was a one-for-one
  capture that left two of that rank there, or when the last action laid down two or more of a
  rank that are still there; else it passes;
- **cue+own**: the same, but never claims on the learner's own last action (the offender may not
  claim: RULES.md 3.4);
- **cue+own+dealer**: the same, and never claims four on the table when the learner dealt (a
  table mournival the dealer left is the dealer's own mistake);
- **engine**: claims what the engine says is claimable, else passes (100 %).
"""

from __future__ import annotations

import io
import random
import re
import sys
from collections import Counter
from collections.abc import Callable

from rich.console import Console

from tutor.app.clock import FakeClock
from tutor.app.learner_io import ScriptedIO
from tutor.engine.cards import RANK_PLURALS, rank_of
from tutor.puzzles.kinds.spot_oversight import BY_OTHERS
from tutor.teaching.drills.oversights import OversightDrill
from tutor.teaching.drills.spotmix import SpotMix


def _cue(p, own: bool, dealer: bool) -> str:
    d = p.deal()
    last = d.history[-1] if d.history else None
    mine = last is not None and last.player == p.seat
    table = Counter(rank_of(c) for c in d.table_cards())
    four = [r for r, k in table.items() if k == 4]
    if four and not (dealer and d.dealer == p.seat):
        return f"claim {RANK_PLURALS[four[0]]}"
    if own and mine:
        return "pass"
    if (
        last is not None
        and last.kind == "capture"
        and len(last.cards) == 1
        and len(last.table) == 1
        and table[rank_of(last.cards[0])] == 2
    ):
        return f"claim {RANK_PLURALS[rank_of(last.cards[0])]}"
    if last is not None and last.kind == "lie_down":
        held = Counter(rank_of(c) for c in last.cards)
        for r, k in sorted(held.items(), key=lambda x: (-x[1], x[0])):
            if k >= 2 and table[r] >= 2:
                return f"claim {RANK_PLURALS[r]}"
    return "pass"


def cue(p) -> str:
    """The surface-cue learner's answer to puzzle ``p`` (what the board looks like)."""
    return _cue(p, own=False, dealer=False)


def cue_own(p) -> str:
    """Surface cues, never claiming on the learner's own last action."""
    return _cue(p, own=True, dealer=False)


def cue_own_dealer(p) -> str:
    """Surface cues, never on the learner's own action nor on four on the table when they
    dealt."""
    return _cue(p, own=True, dealer=True)


def engine(p) -> str:
    """The engine-backed learner: the claim the engine finds open, else pass."""
    return p.expected_answer_text() if p.answer["claims"] else "pass"


LEARNERS: dict[str, Callable] = {
    "pass": lambda p: "pass",
    "one-rank": lambda p: "claim sevens",
    "cue": cue,
    "cue+own": cue_own,
    "cue+own+dealer": cue_own_dealer,
    "engine": engine,
}


def right(p, text: str) -> bool:
    """Whether ``text`` is right on puzzle ``p`` (graded by the puzzle: the engine)."""
    return bool(p.grade("nothing" if text == "pass" else text, 1).correct)


def positions(level: int, n: int, seed: str = "cue-learners") -> list:
    """``n`` positions of the drill's mixture (every ruleset with oversights) at ``level``."""
    mix = SpotMix(random.Random(f"{seed}:{level}"))
    return [mix.puzzle(mix.next_slot(level), level) for _ in range(n)]


def decided(p) -> bool:
    """Whether the engine found that counting or the ruleset decides ``p`` (False on a drill
    that does not say)."""
    return bool(p.data.get("decided_by"))


def chance(ps) -> float:
    """The best a learner who knows where to look but not how to judge can do on ``ps``: the
    share of the commoner answer, claim or nothing."""
    if not ps:
        return 0.0
    claims = sum(bool(p.answer["claims"]) for p in ps)
    return max(claims, len(ps) - claims) / len(ps)


def scores(ps) -> dict[str, float]:
    """Each learner's share right on ``ps``."""
    return {
        name: sum(right(p, f(p)) for p in ps) / len(ps) if ps else 0.0
        for name, f in LEARNERS.items()
    }


def storm(learner, seed: int, minutes: float = 3.0) -> tuple[float, int, list]:
    """A ``minutes`` storm of the drill (every ruleset) answered by ``learner`` in 2 s a
    position: (accuracy, highest difficulty reached, [(puzzle, right)])."""
    state: dict = {"asked": []}
    out = Console(file=io.StringIO(), width=80, color_system=None)

    def answer(prompt):
        return learner(state["asked"][-1])

    drill = OversightDrill(ScriptedIO(answer, out, FakeClock(default=2.0)), seed=seed)
    orig = drill.next_puzzle

    def next_puzzle(*a, **k):
        p = orig(*a, **k)
        state["asked"].append(p)
        return p

    drill.next_puzzle = next_puzzle  # type: ignore[method-assign]
    res = drill.storm(minutes=minutes)
    top = max([1] + [int(x) for x in re.findall(r"difficulty (\d) of 5", out.file.getvalue())])
    pairs = [(p, a.correct) for p, a in zip(state["asked"], res.answers)]
    return res.accuracy, top, pairs


def by_others(p) -> bool:
    """Whether ``p`` has the look of a split prial or a table mournival made by another player,
    with nothing open (:data:`~tutor.puzzles.kinds.spot_oversight.BY_OTHERS`)."""
    return any(p.data.get("theme") in themes for themes in BY_OTHERS.values())


def main(n: int = 225, seeds: int = 8) -> None:
    names = list(LEARNERS)
    print(f"per level, {n} positions each (all / judged by counting or the ruleset):")
    print("level  decided chance  " + "  ".join(f"{x:>15}" for x in names))
    looks = []
    for level in range(1, 6):
        ps = positions(level, n)
        dec = [p for p in ps if decided(p)]
        a, b = scores(ps), scores(dec)
        print(
            f"{level:>5}  {len(dec) / n:7.2f} {chance(dec):6.2f}  "
            + "  ".join(f"{a[x]:6.2f} / {b[x]:5.2f}" for x in names)
        )
        nothing = sum(not p.answer["claims"] for p in ps) / n
        others = [p for p in ps if by_others(p)]
        looks.append((level, nothing, len(others), scores(others)))
    print("nothing to claim, and the look-alikes of a split prial or a table mournival by others:")
    for level, nothing, k, got in looks:
        print(
            f"{level:>5}  nothing {nothing:.2f}; by others {k}: "
            + ", ".join(f"{x} {got[x]:.2f}" for x in ("cue", "cue+own", "cue+own+dealer", "engine"))
        )
    print(f"storm (3 minutes, 2 s an answer), {seeds} seeds: mean accuracy, highest level")
    for name in ("pass", "cue", "cue+own", "cue+own+dealer", "engine"):
        runs = [storm(LEARNERS[name], s) for s in range(seeds)]
        acc = sum(r[0] for r in runs) / seeds
        top = max(r[1] for r in runs)
        dec = [ok for r in runs for p, ok in r[2] if decided(p)]
        dec_s = f"{sum(dec) / len(dec):.2f} of {len(dec)}" if dec else "-"
        print(
            f"  {name:>15}: {acc:.2f} (min {min(r[0] for r in runs):.2f}, max "
            f"{max(r[0] for r in runs):.2f}), top level {top}, judged by counting {dec_s}"
        )


if __name__ == "__main__":
    main(*(int(x) for x in sys.argv[1:3]))
