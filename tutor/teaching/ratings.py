"""Glicko-2 ratings for the learner and for puzzles, as lichess rates puzzle solving.

Each first try at a puzzle is a game between the learner and the puzzle: the learner wins by
answering right.  Both ratings move (the learner's overall and per theme, and the puzzle's), by
Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012) as the ``pyglicko2`` package computes
it (through its public API: the paper's step 5, which the ``glicko2`` package gets wrong), one
answer a rating period.  A puzzle is rated by its kind and difficulty band (its stars), so
every puzzle of a band shares one rating that all learners' answers refine; stars are then derived
back from the rating (:func:`stars_for`), and :func:`choose_difficulty` serves puzzles near the
learner's rating (within about 200 points), as lichess does.

Ratings are on the familiar scale: 1500 for a new learner, with a rating deviation (RD) of 350
that shrinks as answers come in; a 95% interval is about rating ± 2 RD.

Which answers are rated (:func:`counts`): the first try at a puzzle only, as lichess rates
only a user's first attempt at a puzzle.  A retry, a later sight of a puzzle already answered,
an answer revealed (``show``) and an answer given after a hint move no rating; neither does an
answer whose puzzle band is unknown (drills and practice deals record moments, not puzzles of a
band).  :func:`rate` works out what one rated answer changes: the learner overall, per kind and
per theme (each a game against the puzzle band as it stood), and the band (a game against the
learner overall).
"""

from __future__ import annotations

from typing import NamedTuple

import pyglicko2

__all__ = ["Rating", "NEW_LEARNER", "TAU", "update", "play", "puzzle_subject", "theme_subject",
           "kind_subject", "OVERALL", "initial_puzzle_rating", "stars_for", "choose_difficulty",
           "BAND_WIDTH", "counts", "rate", "default_rating", "band_of", "PROVISIONAL_RD",
           "PROVISIONAL_NOTE", "shown_rating"]

#: The subject of the learner's overall rating in the store.
OVERALL = "learner"
#: Points either side of the learner's rating within which puzzles are served.
BAND_WIDTH = 200
#: Puzzle ratings at which the stars change (1 star below the first, 5 from the last).
_STAR_EDGES = (1300, 1450, 1600, 1750)


class Rating(NamedTuple):
    """A Glicko-2 rating: ``rating`` (points, 1500 for a newcomer), ``rd`` (rating deviation,
    points) and ``vol`` (volatility)."""

    rating: float
    rd: float
    vol: float

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of the rating: rating ± 1.96 RD."""
        return (self.rating - 1.96 * self.rd, self.rating + 1.96 * self.rd)


NEW_LEARNER = Rating(1500.0, 350.0, 0.06)

#: A rating is provisional while its deviation is above this many points, and is shown with
#: ``?`` (``1181?``), as lichess marks one: it still moves by hundreds with each answer.  The
#: statistics say so once (:data:`PROVISIONAL_NOTE`); every rating shown (screens, the class
#: report) goes through :func:`shown_rating`.
PROVISIONAL_RD = 110.0
PROVISIONAL_NOTE = (f"? marks a provisional rating: its deviation is above {PROVISIONAL_RD:.0f}, "
                    "so each answer still moves it a long way; it settles as answers come in "
                    "(about ten), as on lichess.")


def shown_rating(rating: float, rd: float) -> str:
    """A rating as every screen shows it: whole points, with ``?`` while it is provisional
    (deviation above :data:`PROVISIONAL_RD`): ``1181?``, ``1532``."""
    return f"{rating:.0f}{'?' if rd > PROVISIONAL_RD else ''}"


#: Glickman's system constant τ (how fast volatility may change), as the ``glicko2`` package
#: had it (and these ratings were first computed with).
TAU = 0.5


def update(player: Rating, opponent: Rating, score: float) -> Rating:
    """``player``'s rating after one game against ``opponent`` in which ``player`` scored
    ``score`` (1 a win, 0 a loss, 0.5 a draw), one game a rating period, by Glickman's
    Glicko-2 (2012, steps 1-8 with τ = :data:`TAU`) as :mod:`pyglicko2` computes it.  RD never
    grows above 350.  Raises ValueError for another score."""
    with pyglicko2.system(TAU):
        p = pyglicko2.Player(player.rating, player.rd, player.vol)
        p.update([pyglicko2.Player(opponent.rating, opponent.rd, opponent.vol)],
                 [pyglicko2.Outcome(score)])
    return Rating(p.r, min(p.RD, 350.0), p.σ)


def play(learner: Rating, puzzle: Rating, correct: bool) -> tuple[Rating, Rating]:
    """Both ratings after the learner's first try at a puzzle: the learner wins when
    ``correct``, the puzzle wins otherwise."""
    return (update(learner, puzzle, 1.0 if correct else 0.0),
            update(puzzle, learner, 0.0 if correct else 1.0))


def puzzle_subject(kind: str, difficulty: int) -> str:
    """The store's subject for puzzles of ``kind`` in difficulty band ``difficulty`` (1-5)."""
    return f"puzzle:{kind}:{difficulty}"


def theme_subject(theme: str) -> str:
    """The store's subject for the learner's rating on one ``theme``."""
    return f"theme:{theme}"


def kind_subject(kind: str) -> str:
    """The store's subject for the learner's rating on one puzzle ``kind``."""
    return f"kind:{kind}"


def band_of(subject: str) -> tuple[str, int] | None:
    """``(kind, difficulty)`` of a :func:`puzzle_subject`, or None for a learner's subject."""
    head, _, rest = subject.partition(":")
    kind, _, band = rest.rpartition(":")
    if head != "puzzle" or not kind or not band.isdigit():
        return None
    return kind, int(band)


def default_rating(subject: str) -> Rating:
    """Where ``subject`` starts before any answer: a puzzle band at
    :func:`initial_puzzle_rating`, any learner's subject at :data:`NEW_LEARNER`."""
    band = band_of(subject)
    return initial_puzzle_rating(band[1]) if band else NEW_LEARNER


def counts(first_try: bool, *, retry: bool = False, revealed: bool = False, hints: int = 0,
           difficulty: int | None = None) -> bool:
    """Whether an answer moves ratings: a ``first_try`` at the puzzle (no earlier answer to the
    same puzzle id), not a ``retry``, not ``revealed``, given without ``hints``, with a known
    ``difficulty`` band (1-5)."""
    return (first_try and not retry and not revealed and not hints
            and isinstance(difficulty, int) and 1 <= difficulty <= 5)


def rate(current, kind: str, difficulty: int, themes, correct: bool) -> dict[str, Rating]:
    """The ratings one rated answer changes, by subject: the learner overall (:data:`OVERALL`),
    on ``kind`` (:func:`kind_subject`) and on each of ``themes`` (:func:`theme_subject`), each
    after a game against the puzzle band as it stood before the answer; and the band
    (:func:`puzzle_subject`) after a game against the learner overall.  ``current(subject)``
    gives a subject's rating now (:func:`default_rating` for one never rated)."""
    band_subject = puzzle_subject(kind, difficulty)
    band = current(band_subject)
    learner, new_band = play(current(OVERALL), band, correct)
    out = {OVERALL: learner, band_subject: new_band}
    score = 1.0 if correct else 0.0
    for subject in [kind_subject(kind)] + [theme_subject(t) for t in dict.fromkeys(themes)]:
        out[subject] = update(current(subject), band, score)
    return out


def initial_puzzle_rating(difficulty: int) -> Rating:
    """Where a difficulty band starts before any answer: 1 star 1225 up to 5 stars 1825, in the
    middle of its star range, with an RD of 200."""
    centre = {1: 1225, 2: 1375, 3: 1525, 4: 1675, 5: 1825}[max(1, min(5, difficulty))]
    return Rating(float(centre), 200.0, 0.06)


def stars_for(rating: float) -> int:
    """The stars (1-5) a puzzle rating shows."""
    return 1 + sum(1 for edge in _STAR_EDGES if rating >= edge)


def choose_difficulty(learner: Rating, bands: dict[int, Rating]) -> int:
    """The difficulty band (1-5) whose rating is nearest the learner's: within
    :data:`BAND_WIDTH` where one is, else the nearest.  ``bands`` maps each band to its
    current rating (bands not given start at :func:`initial_puzzle_rating`)."""
    ratings = {d: bands.get(d, initial_puzzle_rating(d)).rating for d in range(1, 6)}
    return min(ratings, key=lambda d: (abs(ratings[d] - learner.rating), d))
