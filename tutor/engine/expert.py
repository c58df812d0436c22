"""The ``expert`` computer player: it chooses by the analysis of :mod:`tutor.engine.analysis`.

A rollout player in Bertsekas's sense, over its own rollout policy (``counter`` by default): at
each decision the expert analyses its options from its own view (perfect-information Monte Carlo
over determinizations: the unseen cards dealt at random to the opponents, every option played
out by ``counter`` players in every seat with common random numbers).  It leaves the rollout
policy's own choice only for an option that is better with a 95% interval on the difference that
excludes zero: the best option when the policy's choice is clearly worse than it, else the
policy's choice.  (Playing the estimated best every time also follows the noise between options
that are nearly as good; measured against the true hands, the safeguard keeps most of the gain
with far fewer departures.)  Sampling stops, after :data:`MIN_SAMPLES`, as soon as the best is
clearly ahead, every difference is known to ``target``, or the budget (``seconds`` per
decision, or ``samples`` determinizations) runs out; every option is sampled to the end.

Free actions (declarations, claims, taking a table mournival) are weighed against holding them,
the policy's choice being to make them at once.  To keep its time in bounds the expert makes a
declaration at once without analysis when it is not to move and more than three players are in
play (holding it then only delays it: the rollouts cannot value a long hold); its claims and
table mournivals are always analysed.  Its claims race with a ``counter`` player's reaction
times, so it wins no race a counter would not.

The analyses run on the compiled kernel where it can (:mod:`tutor.engine.analysis.fast`): the
same figures as the pure engine, many times faster, so the same thinking time buys many more
samples (:data:`SAMPLES`).  With a sample budget the expert is reproducible (on the pure engine a
time cap of :data:`PURE_SECONDS` a decision applies as well, and then it is not): the seed of each analysis comes from the
expert's ``seed`` and what the seat can see (never from the clock).  It draws on the game's random
source exactly as its rollout policy would (for the policy's own choice), so a game where the
expert agrees with that policy is the very game the policy would have played.
"""

from __future__ import annotations

import time

from tutor.engine.analysis import (
    POLICIES,
    analyse,
    compiled,
    decision_options,
    mix_seed,
    option_class,
)
from tutor.engine.deal import DECLARATIONS, Action, Deal
from tutor.engine.errors import UsageError
from tutor.engine.rule_bots import Bot, RandomSource, rule_bot

#: The expert's sample budget per decision where one is wanted (the expert level, the skill
#: study's default, benchmarks/bench_expert.py): with the compiled kernel its analyses take
#: less CPU time than the 200 samples of the pure-Python analysis did (about 30 ms a decision).
#: It is not measurably stronger than that expert, nor is any variant tried with the time saved
#: (more samples, a lower bar to leave the policy, inferred hands: benchmarks/bench_expert_vs.py).
SAMPLES = 4000
#: Samples before the expert's analysis may stop (on a clearly best option, or every difference
#: known to ``target``): 16 with the pure-Python analysis, 64 now that samples are cheap (an early
#: stop on few samples is a departure from the rollout policy on noise more often).
MIN_SAMPLES = 64
#: Seconds a decision at most while the analysis runs on the pure engine (before the kernel is
#: compiled on a new machine, or with ``LAUGH_PURE_PYTHON``): a sample budget alone would then
#: take many times longer.
PURE_SECONDS = 0.3


#: What a seat can see that changes from one decision to the next (:meth:`ExpertBot._key`):
#: the decision, the seat, the history's length, the seat to move, the table, the seat's hand,
#: the won cards, the set-aside cards, and every hand's size.
_Key = tuple[str, int, int, int, int, int, int, int, tuple[int, ...]]


class ExpertBot(Bot):
    """Chooses every turn action and free action by :func:`tutor.engine.analysis.analyse`,
    leaving its rollout policy's choice only for an option that is clearly better.

    ``seconds``: the time budget per decision (default 0.3 s; ignored when ``samples`` is given);
    ``samples``: a budget of determinizations per decision instead (reproducible play);
    ``policy``: the rollout player; ``seed``: any whole number; ``target``: the half-width
    (stakes) at which a difference between options counts as known; ``min_samples``: samples
    before any early stop (:data:`MIN_SAMPLES`); ``prune``: stop sampling options clearly worse
    than the best (the expert before the compiled kernel did); ``z``: how many standard errors
    the policy's choice must lie below the best for the expert to leave it (1.96: the 95%
    interval; 0: always the estimated best).  ``infer``: at its turns, deal the hidden cards only
    as opponents who declare as soon as they may could hold them (no prial, mournival or dead
    pair in any opponent's hand, nor a prial at the deal's first turn: :class:`Determinizer
    <tutor.engine.analysis.Determinizer>`'s ``undeclared``); sound against ``counter`` and
    ``willughby`` players, not against a person who holds a declaration back.  Other values than
    the defaults are for measuring (benchmarks/bench_expert_vs.py: none of those tried played
    measurably stronger).  Raises
    :class:`UsageError` for a bad budget, policy, ``min_samples`` or ``z``.
    """

    name = "expert"
    reaction_range = (0.5, 1.2)  # a counter player's: the expert wins no race by speed

    def __init__(
        self,
        seconds: float | None = 0.3,
        samples: int | None = None,
        policy: str = "counter",
        seed: int = 0,
        target: float = 0.1,
        min_samples: int = MIN_SAMPLES,
        prune: bool = False,
        z: float = 1.96,
        infer: bool = False,
    ):
        if samples is None and (seconds is None or seconds <= 0):
            raise UsageError("the expert needs a time budget above 0 s or a sample budget")
        if samples is not None and samples < 1:
            raise UsageError("the expert's sample budget must be at least 1")
        if policy not in POLICIES:
            raise UsageError(
                f"unknown rollout policy {policy!r}; choose from {', '.join(POLICIES)}"
            )
        if min_samples < 1 or z < 0:
            raise UsageError("the expert needs min_samples of at least 1 and z of at least 0")
        self.seconds = None if samples is not None else seconds
        self.samples = samples
        self.policy = policy
        self.seed = seed
        self.target = target
        self.min_samples = min_samples
        self.prune = prune
        self.z = z
        self.infer = infer
        self._cache: dict[_Key, Action | None] = {}
        self._base = rule_bot(policy)
        self.decisions = 0  # analyses run (for tests and benchmarks)
        self.thinking = 0.0  # CPU seconds spent in them

    def start(self, deal: Deal) -> None:
        self._cache.clear()

    def _key(self, deal: Deal, seat: int, which: str) -> _Key:
        """What ``seat`` can see that changes from one decision to the next."""
        to_move = -1 if deal.to_move is None else deal.to_move
        return (
            which,
            seat,
            len(deal.history),
            to_move,
            deal.table,
            deal.hands[seat],
            deal.wonall,
            deal.aside,
            tuple(h.bit_count() for h in deal.hands),
        )

    def _best(
        self,
        deal: Deal,
        seat: int,
        which: str,
        options: list[Action | None],
        default: Action | None,
    ) -> Action | None:
        """The option to play: the analysis's best if ``default`` (the rollout policy's own
        choice) is clearly worse than it, else ``default``."""
        key = self._key(deal, seat, which)
        if key in self._cache:
            return self._cache[key]
        seed = mix_seed(self.seed, *key[1:8], *key[8])
        c0 = time.process_time()
        seconds = self.seconds
        if seconds is None and not compiled():
            seconds = PURE_SECONDS
        an = analyse(
            deal,
            seat,
            policy=self.policy,
            seed=seed,
            samples=self.samples,
            seconds=seconds,
            target=self.target,
            min_samples=self.min_samples,
            stop_when_clear=True,
            prune=self.prune,
            options=options,
            undeclared=self.infer and which == "turn",
        )
        self.thinking += time.process_time() - c0
        self.decisions += 1
        mine = an.value_of(default)
        pick = default
        if mine.group != an.best.group and mine.diff + mine.diff_ci95 * self.z / 1.96 < 0:
            pick = an.best.action
        self._cache[key] = pick
        return pick

    def choose(self, deal: Deal, legal: list[Action], rng: RandomSource) -> Action:
        if len(legal) == 1:
            return legal[0]
        seat = deal.to_move
        assert seat is not None  # a turn action: someone is to move
        default = self._base.choose(deal, legal, rng)  # the game's random numbers, as the policy
        if len({option_class(deal, a) for a in legal}) == 1:
            return default
        pick = self._best(deal, seat, "turn", list(legal), default)
        assert pick is not None  # a turn's options are its legal actions: no hold
        return pick

    def free_action(self, deal: Deal, seat: int, rng: RandomSource) -> Action | None:
        if not deal.free_possible(seat):
            return None
        acts = deal.free_actions(seat)
        if not acts:
            return None
        default = self._base.free_action(deal, seat, rng)
        if deal.to_move != seat and deal.in_play > 3 and all(a.kind in DECLARATIONS for a in acts):
            return default
        return self._best(deal, seat, "free", decision_options(deal, seat, "free"), default)
