"""Which position the oversight drill asks next: a mix at every level (issues 19, 30, 42).

At every level of a streak or a storm the positions mix those with something to claim and those
with nothing (decoys: an action that looks like a mistake and is not), and they go through every
oversight kind the ruleset's play can make and every decoy it has.  The positions come in
shuffled *bags* of twelve (:data:`BAGS`), at random places in the bag, so that no place in the
stream tells what comes:

- **judged by counting or the ruleset** (half of every bag, seven of twelve at levels 4 and 5):
  a lie-down holding a pair whose other two cards are, or are not, both among the won cards (a
  dead pair to claim, a live one to leave), shown just after it or after a capture that left
  the pair on the table (the last action looks like nothing; the count decides: about one in
  eight of each, :data:`~tutor.puzzles.kinds.spot_oversight.LATER_SHARE`), or holding a
  prial or a mournival that the position's ruleset lets others claim, or not.  Whether a position
  is one of these is the engine's word, not the slot's (:func:`~tutor.puzzles.kinds.spot_story.
  decided_by`: the same lie-down counted otherwise, or the same deal under another ruleset's
  reading, gives the other answer); a slot whose puzzle the engine does not find so is drawn
  again (:data:`TRIES`).
- **spotting** claims: the other oversight kinds (a split prial, half of them shown after the
  next action, :data:`~tutor.puzzles.kinds.spot_oversight.LATER_SHARE`; a table mournival the
  dealer left), each asked least so far, never a fourth of one kind in a row (:data:`MAX_RUN`);
- **look-alikes** (two of twelve): the very look of an oversight kind that is no mistake open
  to the learner, each asked least so far: the learner's own mistake (not theirs to claim), or
  the look of a split prial or a table mournival made by another player where nothing is open
  (:data:`~tutor.puzzles.kinds.spot_oversight.BY_OTHERS`: four of a rank on the table before
  play has begun; a prial split, or a table mournival left, when play ended), as the ruleset
  makes them.

Five of every twelve have nothing to claim, at every level: a learner who always passes is
right at most 5 times in 12, and one who claims on the board's look (four of a rank on the
table, a one-for-one capture leaving two, a lie-down holding two or more of a rank) is wrong on
every position with nothing to claim and on the claims made before the last action (a dead pair
or a split prial), at most 7 in 12 (issue 42: with every split prial shown just after the
capture, the board's look came to 0.60 at some levels); who also never claims their own action
nor a table mournival they dealt is still wrong on the lie-downs that counting or the ruleset
decides and on the look-alikes made by other players.  (With a third of the positions empty, as the README once
said, the board's look alone would be right two times in three.)

The position's difficulty is the level's: the nearest a puzzle of that kind and ruleset has
(:func:`tutor.puzzles.generate` searches the seeds).  Every choice is drawn from the drill's
seeded random source, so a seed gives the same stream.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

from tutor.engine.sources import default_library
from tutor.puzzles import GenerationError, applicable_rulesets, generate
from tutor.puzzles.kinds.spot_oversight import BY_OTHERS, DECOY_LOOKS_LIKE, OWN, SpotOversight

__all__ = ["BAGS", "Bag", "COUNTED_CLAIMS", "COUNTED_DECOYS", "MAX_RUN", "Slot", "SpotMix", "TRIES"]

KIND = "spot-oversight"


class Bag(NamedTuple):
    """What a bag of positions holds: ``judged_claims`` and ``judged_nothing`` (positions that
    counting or the ruleset decides, with and without something to claim), ``claims`` (the
    other oversight kinds) and ``lookalikes`` (the very look of an oversight that is none:
    the learner's own mistake, or a split prial or table mournival of another player's
    when play has not begun or has just ended; nothing to claim)."""

    judged_claims: int
    judged_nothing: int
    claims: int
    lookalikes: int

    @property
    def size(self) -> int:
        return sum(self)

    @property
    def nothing(self) -> int:
        """The positions with nothing to claim."""
        return self.judged_nothing + self.lookalikes

    @property
    def judged(self) -> int:
        return self.judged_claims + self.judged_nothing


#: Per level, what a bag of twelve holds (see the module).
BAGS = {
    1: Bag(3, 3, 4, 2),
    2: Bag(3, 3, 4, 2),
    3: Bag(3, 3, 4, 2),
    4: Bag(4, 3, 3, 2),
    5: Bag(4, 3, 3, 2),
}
#: The oversight kinds, and the decoys, a lie-down makes: whether the pair laid down was dead
#: (counting) or whether the ruleset lets a prial or a mournival laid down be claimed.
COUNTED_CLAIMS = ("laid_down_dead_pair", "laid_down_prial", "laid_down_mournival")
COUNTED_DECOYS = ("lay_down_pair", "lay_down_prial", "lay_down_mournival")
#: Puzzles drawn for a slot of positions judged by counting before one the engine does not
#: find so is taken.
TRIES = 4
#: The most positions of one oversight kind in a row.
MAX_RUN = 3


class Slot(NamedTuple):
    """One position to ask: ``ruleset`` and ``players``, ``variant`` (an oversight kind, or
    ``decoy``) and ``theme`` (the puzzle theme searched for: the kind's, or the decoy's);
    ``judged``: a position meant to be decided by counting or the ruleset."""

    ruleset: str
    players: int
    variant: str
    theme: str
    judged: bool = False

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

    def __init__(self, rng: random.Random, ruleset: str | None = None, players: int | None = None):
        self.rng = rng
        self.ruleset = ruleset
        self.players = players
        lib = default_library()
        self._rulesets = (
            [ruleset]
            if ruleset
            else [
                r
                for r in applicable_rulesets(KIND)
                if players is None or players in lib.rulesets[r].counts
            ]
        )
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
            b = BAGS[level]
            self._bag = (
                ["judged_claim"] * b.judged_claims
                + ["judged_nothing"] * b.judged_nothing
                + ["claim"] * b.claims
                + ["lookalike"] * b.lookalikes
            )
            self.rng.shuffle(self._bag)
            self._bag_level = level
        what = self._bag.pop()
        options = self._options(what)
        if what == "judged_claim" and not options:
            what, options = "claim", self._options("claim")
        if what == "judged_nothing" and not options:
            what, options = "lookalike", self._options("lookalike")
        if what.endswith("claim") and self._runs_on(options):
            # a fourth of one kind in a row: a slot of another sort first, if the bag has one
            other = next((i for i, w in enumerate(self._bag) if not w.endswith("claim")), None)
            if other is not None:
                self._bag[other], what = what, self._bag[other]
                options = self._options(what)
        lib = default_library()
        theme = self._least(sorted({t for _, t in options}))
        rid = self.rng.choice(sorted({r for r, t in options if t == theme}))
        rs = lib.rulesets[rid]
        players = self.players if self.players is not None else self.rng.choice(rs.player_counts)
        variant = "decoy" if what in ("judged_nothing", "lookalike") else theme
        self._asked[theme.replace("_", "-")] += 1
        self._recent.append(variant)
        return Slot(rid, players, variant, theme.replace("_", "-"), what.startswith("judged"))

    def _runs_on(self, options: list[tuple[str, str]]) -> bool:
        """True when every theme of ``options`` would be a fourth of one kind in a row."""
        last = self._recent[-MAX_RUN:]
        return len(last) == MAX_RUN and all(last == [t] * MAX_RUN for _, t in options)

    def _options(self, what: str) -> list[tuple[str, str]]:
        """(ruleset id, theme) for every ruleset of the drill and theme it has of the sort
        ``what`` (``judged_claim``, ``judged_nothing``, ``claim``, ``lookalike``: see the
        module); a ``claim`` or ``lookalike`` slot always has some."""
        lib = default_library()
        gen = SpotOversight()
        out: list[tuple[str, str]] = []
        for rid in self._rulesets:
            rs = lib.rulesets[rid]
            players = self.players if self.players is not None else rs.player_counts[0]
            ruleset = lib.ruleset(rid, players)
            kinds = gen.reachable(ruleset)
            if what == "judged_claim":
                themes = [k for k in kinds if k in COUNTED_CLAIMS]
            elif what == "judged_nothing":
                themes = [t for t in gen.decoy_themes(ruleset) if t in COUNTED_DECOYS]
            elif what == "claim":
                spotted = [k for k in kinds if k not in COUNTED_CLAIMS]
                themes = (
                    [k for k in spotted or kinds if self._recent[-MAX_RUN:] != [k] * MAX_RUN]
                    or spotted
                    or kinds
                )
            else:  # the look of each kind: the learner's own mistake, or another's no mistake
                decoys = gen.decoy_themes(ruleset)
                themes = [OWN[k] for k in kinds] + [
                    t for k in kinds for t in BY_OTHERS.get(k, ()) if t in decoys
                ]
            out += [(rid, t) for t in themes]
        return out

    def _least(self, options: list[str]) -> str:
        """The option asked least so far (ties drawn at random)."""
        counts = [self._asked[o.replace("_", "-")] for o in options]
        low = min(counts)
        return self.rng.choice([o for o, c in zip(options, counts) if c == low])

    def puzzle(self, slot: Slot, level: int):
        """A puzzle for ``slot`` of the level's difficulty (or the nearest found; a decoy of
        another theme when none of its own is found in the bounded search).  For a slot meant
        to be judged by counting or the ruleset, up to :data:`TRIES` puzzles are drawn until
        the engine finds one so (``data["decided_by"]``)."""
        p = self._draw(slot, level)
        for _ in range(TRIES - 1):
            if not slot.judged or p.data.get("decided_by"):
                break
            p = self._draw(slot, level)
        return p

    def _draw(self, slot: Slot, level: int):
        seed = self.rng.randrange(10**9)
        key = (slot.ruleset, slot.players, slot.theme, level)
        want = self._nearest.get(key, level)
        try:
            p = generate(
                f"{KIND}/{slot.theme}", slot.ruleset, slot.players, seed=seed, difficulty=want
            )
        except GenerationError:
            spec = KIND + ("/decoy" if slot.variant == "decoy" else "")
            return generate(spec, slot.ruleset, slot.players, seed=seed, difficulty=level)
        if p.difficulty != want:
            self._nearest[key] = p.difficulty
        return p
