"""Which position the oversight drill asks next: a mix at every level (issue 19).

At every level of a streak or a storm the positions mix those with something to claim and those
with nothing (decoys: an action that looks like a mistake and is not), and they go through every
oversight kind the ruleset's play can make and every decoy it has:

- the positions come in shuffled *bags* (:data:`BAGS`): at every level four of every nine have
  nothing to claim, at random places in the bag (issue 30: a learner who always passes is right
  at most 4 times in 9, and no place in the stream tells which);
- a claimable slot takes the oversight kind of the position's ruleset asked least so far, never
  a fourth of one kind in a row; a decoy slot the decoy asked least among those with a claimable
  kind's surface cue (:data:`~tutor.puzzles.kinds.spot_oversight.CUED_DECOYS`: the learner's own
  mistake of every kind, a lie-down of cards no claim may take), so that claiming on what the
  board looks like is wrong as often as passing is;
- the position's difficulty is the level's: the nearest a puzzle of that kind and ruleset has
  (:func:`tutor.puzzles.generate` searches the seeds).

Every choice is drawn from the drill's seeded random source, so a seed gives the same stream.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

from tutor.engine.sources import default_library
from tutor.puzzles import GenerationError, applicable_rulesets, generate
from tutor.puzzles.kinds.spot_oversight import CUED_DECOYS, DECOY_LOOKS_LIKE, SpotOversight

__all__ = ["BAGS", "Slot", "SpotMix", "MAX_RUN"]

KIND = "spot-oversight"
#: Per level: (positions with nothing to claim, positions in the bag).
BAGS = {level: (4, 9) for level in range(1, 6)}
#: The most positions of one oversight kind in a row.
MAX_RUN = 3


class Slot(NamedTuple):
    """One position to ask: ``ruleset`` and ``players``, ``variant`` (an oversight kind, or
    ``decoy``) and ``theme`` (the puzzle theme searched for: the kind's, or the decoy's)."""

    ruleset: str
    players: int
    variant: str
    theme: str

    @property
    def looks_like(self) -> str:
        """The oversight kind a claim here is about: the kind, or the one the decoy looks
        like ("" for a decoy that looks like none)."""
        if self.variant != "decoy":
            return self.variant
        return DECOY_LOOKS_LIKE.get(self.theme.replace("-", "_"), "")


class SpotMix:
    """The stream of positions of one drill: ``rng`` (seeded), ``ruleset`` (an id, or None: each
    position's ruleset drawn among those with oversights) and ``players`` (None: any the
    ruleset covers)."""

    def __init__(self, rng: random.Random, ruleset: str | None = None,
                 players: int | None = None):
        self.rng = rng
        self.ruleset = ruleset
        self.players = players
        lib = default_library()
        self._rulesets = [ruleset] if ruleset else [
            r for r in applicable_rulesets(KIND)
            if players is None or players in lib.rulesets[r].counts]
        self._bag: list[str] = []
        self._bag_level = 0
        self._asked: Counter = Counter()
        self._recent: list[str] = []
        #: (ruleset, players, theme, level) -> the difficulty a search for it found nearest,
        #: asked for directly next time (a kind may have no position of the level's).
        self._nearest: dict[tuple, int] = {}

    def next_slot(self, level: int) -> Slot:
        """The next position's slot at ``level`` (1-5)."""
        if not self._bag or self._bag_level != level:
            nothing, size = BAGS[level]
            self._bag = ["decoy"] * nothing + ["claim"] * (size - nothing)
            self.rng.shuffle(self._bag)
            self._bag_level = level
        what = self._bag.pop()
        lib = default_library()
        rid = self.rng.choice(self._rulesets)
        rs = lib.rulesets[rid]
        players = self.players if self.players is not None else self.rng.choice(
            rs.player_counts)
        ruleset = lib.ruleset(rid, players)
        gen = SpotOversight()
        if what == "claim":
            kinds = [k for k in gen.reachable(ruleset)
                     if self._recent[-MAX_RUN:] != [k] * MAX_RUN]
            variant = self._least(kinds)
            theme = variant.replace("_", "-")
        else:
            variant = "decoy"
            decoys = gen.decoy_themes(ruleset)
            cued = [t for t in decoys if t in CUED_DECOYS]
            theme = self._least(cued or decoys).replace("_", "-")
        self._asked[theme] += 1
        self._recent.append(variant)
        return Slot(rid, players, variant, theme)

    def _least(self, options: list[str]) -> str:
        """The option asked least so far (ties drawn at random)."""
        counts = [self._asked[o.replace("_", "-")] for o in options]
        low = min(counts)
        return self.rng.choice([o for o, c in zip(options, counts) if c == low])

    def puzzle(self, slot: Slot, level: int):
        """A puzzle for ``slot`` of the level's difficulty (or the nearest found; a decoy of
        another theme when none of its own is found in the bounded search)."""
        seed = self.rng.randrange(10 ** 9)
        key = (slot.ruleset, slot.players, slot.theme, level)
        want = self._nearest.get(key, level)
        try:
            p = generate(f"{KIND}/{slot.theme}", slot.ruleset, slot.players, seed=seed,
                         difficulty=want)
        except GenerationError:
            spec = KIND + ("/decoy" if slot.variant == "decoy" else "")
            return generate(spec, slot.ruleset, slot.players, seed=seed, difficulty=level)
        if p.difficulty != want:
            self._nearest[key] = p.difficulty
        return p
