"""What the store hands out: answers, lesson states, tallies and ratings (private: import them
from :mod:`tutor.teaching.progress`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import NamedTuple

from tutor.teaching import ratings as R


@dataclass
class LessonState:
    """One lesson's saved state.

    ``seed`` is the lesson seed of the current (or last) attempt; ``page`` the 0-based page
    reached; ``answered`` maps a puzzle slot (``"<block index>.<n>"``) to True (right first time)
    or False; ``in_progress`` is False once the attempt is finished; ``completed_at`` (Unix
    time) is set once the lesson has ever been completed, with ``right``/``total`` its score.
    """

    lesson: str
    seed: int
    page: int = 0
    answered: dict[str, bool] = field(default_factory=dict)
    started_at: float = 0.0
    updated_at: float = 0.0
    completed_at: float | None = None
    right: int | None = None
    total: int | None = None
    in_progress: bool = True

    @property
    def completed(self) -> bool:
        """True once the lesson has been completed at least once."""
        return self.completed_at is not None


@dataclass(frozen=True)
class Answer:
    """One recorded answer (see the ``answers`` table); ``seconds`` is None when the answer was
    not timed, ``difficulty`` None when the puzzle's band is unknown."""

    at: float
    puzzle_id: str
    kind: str
    themes: tuple[str, ...]
    correct: bool
    seconds: float | None
    hints: int = 0
    lesson: str | None = None
    ruleset: str | None = None
    retry: bool = False
    uid: str = ""
    difficulty: int | None = None
    revealed: bool = False


@dataclass(frozen=True)
class Sighting:
    """One recorded figure of spotting oversights (the ``sightings`` table): ``outcome``
    (``hit``, ``miss`` or ``false_claim``) of an oversight ``kind`` (``""``: a false claim that
    named none), in ``context`` (``play``, ``match`` or ``drill``), at Unix time ``at``;
    ``seconds`` from claimable to named for a hit timed at a terminal (else None); the
    ``ruleset``, the ``source`` it came from (a deal or a puzzle id) and its ``uid``."""

    at: float
    context: str
    kind: str
    outcome: str
    seconds: float | None = None
    ruleset: str | None = None
    source: str | None = None
    uid: str = ""


@dataclass(frozen=True)
class SpotFigures:
    """The signal-detection figures of one oversight ``kind`` (``""``: false claims that named
    no kind): ``hits``, ``misses``, ``false_claims``, and the ``median_seconds`` of the
    ``timed`` hits (None when no hit was timed)."""

    kind: str
    hits: int = 0
    misses: int = 0
    false_claims: int = 0
    timed: int = 0
    median_seconds: float | None = None

    @property
    def chances(self) -> int:
        """The oversights that were the learner's to claim: hits and misses."""
        return self.hits + self.misses

    @property
    def hit_rate(self) -> float | None:
        """Hits of the chances, 0..1 (None without a chance)."""
        return self.hits / self.chances if self.chances else None


@dataclass
class Tally:
    """Answers counted for one theme, kind or period: ``right`` of ``n``; ``timed`` of them were
    timed (typed at a terminal), taking ``seconds`` in all and ``median_seconds`` at the median
    (None when none was timed)."""

    name: str
    n: int = 0
    right: int = 0
    seconds: float = 0.0
    timed: int = 0
    median_seconds: float | None = None

    @property
    def accuracy(self) -> float:
        """Share right, 0..1 (0 when there are no answers)."""
        return self.right / self.n if self.n else 0.0

    @property
    def mean_seconds(self) -> float | None:
        """Mean seconds of a timed answer, or None when none was timed."""
        return self.seconds / self.timed if self.timed else None


class SubjectRating(NamedTuple):
    """A stored rating: ``subject`` (see :mod:`tutor.teaching.ratings`), ``rating`` (a
    :class:`~tutor.teaching.ratings.Rating`), ``games`` (rated answers that moved it) and
    ``updated_at`` (Unix time)."""

    subject: str
    rating: R.Rating
    games: int
    updated_at: float


class RatingPoint(NamedTuple):
    """One point of a rating's history: ``at`` (Unix time of the rated answer), ``rating`` and
    ``rd`` (points)."""

    at: float
    rating: float
    rd: float


@dataclass(frozen=True)
class RatingChange:
    """What one rated answer changed: ``before`` and ``after`` by subject (the learner overall,
    per kind and per theme, and the puzzle band)."""

    before: dict[str, R.Rating]
    after: dict[str, R.Rating]

    @property
    def learner(self) -> tuple[R.Rating, R.Rating]:
        """The learner's overall rating before and after."""
        return self.before[R.OVERALL], self.after[R.OVERALL]

    @property
    def band(self) -> tuple[str, R.Rating, R.Rating]:
        """The puzzle band's subject, its rating before and after."""
        subject = next(k for k in self.after if k.startswith("puzzle:"))
        return subject, self.before[subject], self.after[subject]


def _weakest_first(t: Tally):
    """Sort key of tallies, weakest first: accuracy, then the slowest median time (a tally
    with no timed answer after those with one), then the name."""
    median = t.median_seconds
    return (t.accuracy, median is None, -(median or 0.0), t.name)


def _subject_rating(row) -> SubjectRating:
    return SubjectRating(row[0], R.Rating(row[1], row[2], row[3]), row[4], row[5])


def _state(row) -> LessonState:
    return LessonState(
        lesson=row[0],
        seed=row[1],
        page=row[2],
        answered={k: bool(v) for k, v in json.loads(row[3]).items()},
        started_at=row[4],
        updated_at=row[5],
        completed_at=row[6],
        right=row[7],
        total=row[8],
        in_progress=bool(row[9]),
    )
