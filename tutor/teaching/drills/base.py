"""What every drill shares: the learner's terminal (the I/O seam, :mod:`tutor.teaching.io`) with
its clock, and the progress store its answers go to.  Every question of a drill is put by the
learner loop (:func:`tutor.teaching.loop.ask`), which reads, grades and records it, with the
program's one set of words (:data:`tutor.teaching.loop.QUIT_WORDS`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from tutor.teaching.io import LearnerIO

__all__ = ["Answered", "Best", "Drill"]


@dataclass
class Answered:
    """One graded answer of a drill: ``correct``, ``seconds`` taken (None when no answer was
    typed in time, or none at a terminal), ``timed_out``."""

    correct: bool
    seconds: float | None
    timed_out: bool = False


class Best(NamedTuple):
    """A score kept as a personal best: ``new`` when it beat an earlier best, ``previous`` that
    best (None: the first score kept)."""

    new: bool
    previous: float | None

    def words(self) -> str:
        """``a new best (was 7)``, ``your first best``, or nothing."""
        if self.new:
            return f"a new best (was {self.previous:g})"
        return "your first best" if self.previous is None else ""


class Drill:
    """A drill talks to the learner through ``io`` (:class:`tutor.teaching.io.LearnerIO`: say,
    show, read with a clock) and records every graded answer (through the learner loop) in
    ``store``
    (:class:`tutor.teaching.progress.ProgressStore`, or None: nothing is kept)."""

    def __init__(self, io: LearnerIO, store=None):
        self.io = io
        self.store = store

    @property
    def piped(self) -> bool:
        """True when the answers are not typed at a terminal (piped input): their times mean
        nothing and are not recorded."""
        return bool(self.io.clock.piped)

    def meta_best(self, key: str, value: float, higher: bool = True) -> bool:
        """Keep the best ``value`` under ``key`` in the store's meta table; True when it is a
        new best."""
        return self.best(key, value, higher).new

    def best(self, key: str, value: float, higher: bool = True) -> Best:
        """Keep the best ``value`` under ``key`` (ending ``.best``: a merge keeps the higher) in
        the store's meta table, and say whether it is a new best (:class:`Best`; never one
        without a store)."""
        if self.store is None:
            return Best(False, 0.0)
        old = self.store.get_meta(key)
        try:
            prev = float(old) if old is not None else None
        except ValueError:
            prev = None
        if prev is None or (value > prev if higher else value < prev):
            self.store.set_meta(key, repr(value))
            return Best(prev is not None, prev)
        return Best(False, prev)

    def save_mark(self) -> int:
        """A mark to count the answers saved after it (:meth:`saved_words`)."""
        return self.store.save_mark() if self.store is not None else 0

    def saved_words(self, mark: int) -> str:
        """What the drill, left early, has saved since ``mark``, in words: what the store wrote
        (:meth:`tutor.teaching.progress.ProgressStore.saved_since`), not what was answered."""
        store = self.store
        if store is None:
            return "nothing saved (--no-save)."
        return store.saved_since(mark).words()
