"""Glicko-2 ratings for the learner and for puzzles, as lichess rates puzzle solving.

Each first try at a puzzle is a game between the learner and the puzzle: the learner wins by
answering right.  Both ratings move (the learner's overall and per theme, and the puzzle's), by
Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012: its steps 1-8, written out in
:func:`glicko2`, checked against the paper's worked example), one answer a rating period.  A puzzle is rated by its kind and difficulty band (its stars), so
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

import math
from collections.abc import Sequence
from typing import NamedTuple

__all__ = [
    "Rating",
    "NEW_LEARNER",
    "TAU",
    "update",
    "play",
    "puzzle_subject",
    "theme_subject",
    "kind_subject",
    "OVERALL",
    "initial_puzzle_rating",
    "stars_for",
    "choose_difficulty",
    "BAND_WIDTH",
    "glicko2",
    "counts",
    "rate",
    "default_rating",
    "band_of",
    "PROVISIONAL_RD",
    "PROVISIONAL_NOTE",
    "shown_rating",
]

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
PROVISIONAL_NOTE = (
    f"? marks a provisional rating: its deviation is above {PROVISIONAL_RD:.0f}, "
    "so each answer still moves it a long way; it settles as answers come in "
    "(about ten), as on lichess."
)


def shown_rating(rating: float, rd: float) -> str:
    """A rating as every screen shows it: whole points, with ``?`` while it is provisional
    (deviation above :data:`PROVISIONAL_RD`): ``1181?``, ``1532``."""
    return f"{rating:.0f}{'?' if rd > PROVISIONAL_RD else ''}"


#: Glickman's system constant τ (how fast volatility may change), as the ``glicko2`` package
#: had it (and these ratings were first computed with).
TAU = 0.5
#: Glicko-2's scale: points on the Glicko scale per unit of the paper's μ and φ (step 2).
SCALE = 173.7178
#: The convergence tolerance of the volatility's iteration (the paper's step 5, ε).
EPSILON = 1e-6


def glicko2(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period of ``games`` (each an opponent's rating as it
    stood and ``player``'s score: 1 a win, 0 a loss, 0.5 a draw): Glickman, "Example of the
    Glicko-2 system" (2012), steps 1-8, with system constant ``tau`` and the Illinois
    algorithm of step 5.  A period without games only widens the deviation (step 6).  Raises
    ValueError for a score other than 0, 0.5 or 1."""
    if any(score not in (0.0, 0.5, 1.0) for _, score in games):
        raise ValueError("a Glicko-2 score is 0, 0.5 or 1")
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.rd / SCALE, player.vol  # step 2
    if not games:
        return Rating(player.rating, SCALE * math.sqrt(phi**2 + sigma**2), sigma)

    def g(phi_j: float) -> float:
        return 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)

    def expected(mu_j: float, phi_j: float) -> float:
        return 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))

    opponents = [((o.rating - 1500) / SCALE, o.rd / SCALE, score) for o, score in games]
    v = sum(g(p) ** 2 * expected(m, p) * (1 - expected(m, p)) for m, p, _ in opponents) ** -1
    delta = v * sum(g(p) * (s - expected(m, p)) for m, p, s in opponents)  # steps 3-4
    a = math.log(sigma**2)  # step 5

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    sigma = math.exp(big_a / 2)
    phi_star = math.sqrt(phi**2 + sigma**2)  # step 6
    phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)  # step 7
    mu += phi**2 * sum(g(p) * (s - expected(m, p)) for m, p, s in opponents)
    return Rating(SCALE * mu + 1500, SCALE * phi, sigma)  # step 8


def update(player: Rating, opponent: Rating, score: float) -> Rating:
    """``player``'s rating after one game against ``opponent`` in which ``player`` scored
    ``score`` (1 a win, 0 a loss, 0.5 a draw), one game a rating period (:func:`glicko2` with
    τ = :data:`TAU`).  RD never grows above 350.  Raises ValueError for another score."""
    after = glicko2(player, [(opponent, score)])
    return after._replace(rd=min(after.rd, 350.0))


def play(learner: Rating, puzzle: Rating, correct: bool) -> tuple[Rating, Rating]:
    """Both ratings after the learner's first try at a puzzle: the learner wins when
    ``correct``, the puzzle wins otherwise."""
    return (
        update(learner, puzzle, 1.0 if correct else 0.0),
        update(puzzle, learner, 0.0 if correct else 1.0),
    )


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


def counts(
    first_try: bool,
    *,
    retry: bool = False,
    revealed: bool = False,
    hints: int = 0,
    difficulty: int | None = None,
    lesson: str | None = None,
) -> bool:
    """Whether an answer moves ratings: a ``first_try`` at the puzzle (no earlier answer to the
    same puzzle id), not a ``retry``, not ``revealed``, given without ``hints``, with a known
    ``difficulty`` band (1-5), outside a lesson (``lesson`` None: a lesson's or the track's
    puzzles teach, and are not rated, as lichess rates neither its lessons nor its practice)."""
    return (
        first_try
        and not retry
        and not revealed
        and not hints
        and not lesson
        and isinstance(difficulty, int)
        and 1 <= difficulty <= 5
    )


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
