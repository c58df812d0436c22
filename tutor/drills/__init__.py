"""Timed drills (``laugh drill KIND``).

- :mod:`tutor.drills.oversights`: spot and claim, or pass: streak and storm;
- :mod:`tutor.drills.count`: the card-counting trainer;
- :mod:`tutor.drills.settle`: rapid settlement arithmetic;
- :mod:`tutor.drills.weak`: practise weak spots, chosen by FSRS (:mod:`tutor.review`).

Every drill reads through an asker and a clock (:mod:`tutor.play.clock`), so tests inject both,
and records each graded answer in the progress store.
"""

from .base import Answered, DrillIO
from .count import CountDrill
from .oversights import OversightDrill
from .settle import SettleDrill
from .weak import practise_weak_spots

__all__ = ["Answered", "CountDrill", "DrillIO", "OversightDrill", "SettleDrill",
           "practise_weak_spots"]
