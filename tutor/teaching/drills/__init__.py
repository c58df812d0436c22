"""Timed drills (``laugh drill KIND``).

- :mod:`tutor.teaching.drills.oversights`: spot and claim, or pass: streak and storm;
- :mod:`tutor.teaching.drills.count`: the card-counting trainer;
- :mod:`tutor.teaching.drills.settle`: rapid settlement arithmetic;
- :mod:`tutor.teaching.drills.weak`: practise weak spots, chosen by FSRS (:mod:`tutor.teaching.review`).

Every drill reads through an asker and a clock (:mod:`tutor.app.clock`), so tests inject both,
and records each graded answer in the progress store.
"""

from tutor.teaching.drills.base import Answered, DrillIO
from tutor.teaching.drills.count import CountDrill
from tutor.teaching.drills.oversights import OversightDrill
from tutor.teaching.drills.settle import SettleDrill
from tutor.teaching.drills.weak import practise_weak_spots

__all__ = ["Answered", "CountDrill", "DrillIO", "OversightDrill", "SettleDrill",
           "practise_weak_spots"]
