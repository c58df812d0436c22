"""Position analysis: what each option of a seat is worth, in stakes (RULES.md 3.4-3.5, 4, 8).

:func:`analyse` answers, for one seat at one position, "what final result can I expect from each
thing I may do now?", from that seat's own view only (RULES.md 8: its hand, the table, every won
pile, the set-aside mournival, every hand's size and every action so far).

The options (:func:`decision_options`) are the seat's turn actions when it is to move, else its
free actions (declarations, claims, taking a table mournival) and *hold* (make none now).  A free
action is never weighed against a turn action as if one excluded the other: for a seat to move,
its free actions are a question of timing, "the free action now, then X" against "X now, the free
action later", for the turn action X it makes (``then``).

Method: Monte Carlo over determinizations.  Sample ``i`` deals the cards the seat cannot see to
its opponents at random, consistently with their hand sizes and with every card already revealed
(:func:`determinize`), then, for every option in turn, applies the option to a copy of that deal
and plays the deal out to settlement with one rollout policy in every seat (a computer player of
:mod:`tutor.engine.rule_bots`, ``counter`` by default).  Every option of sample ``i`` sees the
same determinization and the same random numbers, seat by seat (common random numbers:
:mod:`tutor.engine.analysis.random_streams`), so that the differences between options are sharp.

Two implementations play the samples, with the same results number for number: the compiled
kernel (:mod:`tutor.engine.analysis.kernel`, the engine's rules and the counter player compiled
with numba, loaded only when an analysis runs) and the pure engine
(:mod:`tutor.engine.analysis.sampling`: :class:`~tutor.engine.deal.Deal` and the players of
:mod:`tutor.engine.rule_bots`).  The kernel runs where it can (:mod:`tutor.engine.analysis.fast`:
numba installed, ``LAUGH_PURE_PYTHON`` unset, the ``counter`` policy, a ruleset it covers).

Estimator and units.  ``X[i][j]`` is the seat's final result in sample ``i`` after option ``j``:
net stakes under stakes scoring, points under pairs scoring (:meth:`Deal.returns`).  An option's
value is the sample mean of ``X[.][j]`` over ``n`` samples, with the 95% interval
``mean ± 1.96·s/√n`` (``s`` the sample standard deviation: a normal approximation).  Its
difference from the best option ``b`` (the highest mean) is the mean of the paired differences
``X[i][j] - X[i][b]``, with its own interval from their standard deviation.  Sampling stops early
(checked every few samples, after ``min_samples``) when the best option is clearly ahead (the
upper end of every other option's difference interval is below zero), or when every difference
interval is within ``target`` of its mean, or at the sample or time budget.  The intervals are
those of a fixed-size sample: the sequential stop makes their true coverage a little below 95%.

The determinizations use no inference from the opponents' choices (what a player did not take
says something about its hand only under a model of how it plays): every deal of the unseen
cards that fits the hand sizes and the proven holdings (:func:`known_holdings`) is equally likely.
Inside a rollout, claims race as in :func:`tutor.engine.bots.play_out`: every seat offers its
free action and the fastest reaction makes it.

Options that differ only by suits (the same ranks from the same places, touching the same open
oversights) are worth exactly the same under rules that never look at suits; they are sampled
once and share their figures.

A move is *best* only when the intervals separate it (:attr:`Analysis.separated`); otherwise
the options about as good (:meth:`Analysis.alike`) are ties, and :mod:`tutor.engine.analysis.explain`
words them so.  :mod:`tutor.engine.analysis.explain` also gives the principle that separates a
best move (Willughby's advice, with the position's cards and counts) and one sample play-out
of two options.

Reproducibility: the figures depend only on the seat's view, the ``seed`` and the sample
budget, never on the clock, the machine or the implementation (when a time budget is given instead, the number of
samples, and so the figures, depend on the machine's speed).
"""

from tutor.engine.analysis.annotate import (
    LOSS_CLASSES,
    Decision,
    Point,
    analyse_point,
    annotate,
    classify,
    decision_points,
    is_turn_action,
    judge,
)
from tutor.engine.analysis.core import (
    ENGINES,
    POLICIES,
    Z95,
    Analysis,
    OptionValue,
    PureRun,
    analyse,
)
from tutor.engine.analysis.explain import (
    Playout,
    Principle,
    principle,
    principles,
    sample_playout,
    verdict,
)
from tutor.engine.analysis.fast import compiled
from tutor.engine.analysis.options import (
    HOLD,
    NoDecision,
    decision_options,
    describe_option,
    option_class,
    option_to_json,
)
from tutor.engine.analysis.random_streams import Stream, mix_seed
from tutor.engine.analysis.sampling import (
    Determinizer,
    determinize,
    known_holdings,
    played_from_hand,
    rollout,
    unseen_mask,
)

__all__ = [
    "ENGINES",
    "HOLD",
    "LOSS_CLASSES",
    "POLICIES",
    "Z95",
    "Analysis",
    "Decision",
    "Determinizer",
    "NoDecision",
    "OptionValue",
    "Playout",
    "Point",
    "Principle",
    "PureRun",
    "Stream",
    "analyse",
    "analyse_point",
    "annotate",
    "classify",
    "compiled",
    "decision_options",
    "decision_points",
    "describe_option",
    "determinize",
    "is_turn_action",
    "judge",
    "known_holdings",
    "mix_seed",
    "option_class",
    "option_to_json",
    "played_from_hand",
    "principle",
    "principles",
    "rollout",
    "sample_playout",
    "unseen_mask",
    "verdict",
]
