"""Glicko-2 ratings (issue 14): the paper's worked example, lichess-style learner and puzzle
updates, stars from ratings, and serving puzzles near the learner."""

import pytest

from tutor.teaching import ratings as R


def test_glickmans_worked_example():
    # Glickman (2012), "Example of the Glicko-2 system": a 1500/200 player beats 1400/30, loses
    # to 1550/100 and 1700/300 in one rating period; with the paper's tau of 0.5 the result is
    # r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
    after = R.glicko2(
        R.Rating(1500, 200, 0.06),
        [
            (R.Rating(1400, 30, 0.06), 1.0),
            (R.Rating(1550, 100, 0.06), 0.0),
            (R.Rating(1700, 300, 0.06), 0.0),
        ],
        tau=0.5,
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.vol == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation():
    # The paper's step 6 for a player who did not compete: phi' = sqrt(phi^2 + sigma^2).
    after = R.glicko2(R.Rating(1500, 200, 0.06), [])
    assert after.rating == 1500 and after.vol == 0.06
    assert after.rd == pytest.approx(R.SCALE * ((200 / R.SCALE) ** 2 + 0.06**2) ** 0.5)


def test_a_score_glicko_does_not_know_is_refused():
    with pytest.raises(ValueError):
        R.update(R.NEW_LEARNER, R.NEW_LEARNER, 0.7)


def test_a_right_answer_raises_the_learner_and_lowers_the_puzzle():
    learner, puzzle = R.NEW_LEARNER, R.initial_puzzle_rating(3)
    up, down = R.play(learner, puzzle, True)
    assert up.rating > learner.rating and down.rating < puzzle.rating
    assert up.rd < learner.rd
    worse, harder = R.play(learner, puzzle, False)
    assert worse.rating < learner.rating and harder.rating > puzzle.rating


def test_stars_follow_the_rating_and_bands_start_in_their_stars():
    for d in range(1, 6):
        assert R.stars_for(R.initial_puzzle_rating(d).rating) == d
    assert R.stars_for(900) == 1 and R.stars_for(2400) == 5


def test_puzzles_are_served_near_the_learners_rating():
    assert R.choose_difficulty(R.NEW_LEARNER, {}) == 3
    strong = R.Rating(1850, 60, 0.06)
    assert R.choose_difficulty(strong, {}) == 5
    weak = R.Rating(1150, 60, 0.06)
    assert R.choose_difficulty(weak, {}) == 1
    # a band whose puzzles proved easy sinks, and is served to a weaker learner
    bands = {4: R.Rating(1390, 80, 0.06)}
    assert R.choose_difficulty(R.Rating(1400, 80, 0.06), bands) == 4


# Today's figures, pinned (issue 18): whichever Glicko-2 library computes them, the ratings a
# learner has earned must not move.  (rating, rd, vol) before, the opponent, the score, after.
PINNED = [
    (
        (1500.0, 350.0, 0.06),
        (1525.0, 200.0, 0.06),
        1.0,
        (1683.5896069839998, 266.8862088030375, 0.059999520996644004),
    ),
    (
        (1500.0, 350.0, 0.06),
        (1225.0, 200.0, 0.06),
        0.0,
        (1180.5541738201882, 288.09601590309757, 0.06000169218568806),
    ),
    (
        (1700.0, 80.0, 0.059),
        (1400.0, 120.0, 0.06),
        0.0,
        (1671.5581049476561, 79.6228411801274, 0.05900589374194116),
    ),
    (
        (1500.0, 200.0, 0.06),
        (1400.0, 30.0, 0.06),
        1.0,
        (1563.5641943063383, 175.402655938555, 0.059998657304847616),
    ),
    (
        (2300.0, 60.0, 0.06),
        (1200.0, 300.0, 0.06),
        0.0,
        (2284.7043238927004, 60.87921361622764, 0.06000686113168298),
    ),
    (
        (1500.0, 350.0, 0.06),
        (1500.0, 350.0, 0.06),
        0.5,
        (1500.0, 290.31896161384265, 0.05999896144314354),
    ),
]


@pytest.mark.parametrize("player,opponent,score,after", PINNED)
def test_one_update_keeps_todays_figures(player, opponent, score, after):
    got = R.update(R.Rating(*player), R.Rating(*opponent), score)
    assert got == pytest.approx(after, rel=1e-12, abs=1e-12)


def test_a_run_of_answers_keeps_todays_figures():
    state: dict[str, R.Rating] = {}
    for kind, band, themes, correct in [
        ("count", 3, ["counting", "unseen"], True),
        ("count", 3, ["counting"], False),
        ("settlement", 4, ["stakes"], True),
        ("count", 2, ["unseen"], True),
    ]:
        state.update(
            R.rate(lambda s: state.get(s) or R.default_rating(s), kind, band, themes, correct)
        )
    pinned = {
        "kind:count": (1557.010084406378, 204.03153677614293, 0.060000463133179464),
        "kind:settlement": (1759.7523993755005, 276.1849878246589, 0.060000572944185565),
        "learner": (1671.4207446576054, 191.38881756844134, 0.06000193070706041),
        "puzzle:count:2": (1337.5837108462558, 185.79188574957132, 0.059998938920006246),
        "puzzle:count:3": (1554.0118061700448, 175.88335870810906, 0.0600018718010827),
        "puzzle:settlement:4": (1562.8681715996404, 184.58475473136338, 0.06000165545401127),
        "theme:counting": (1481.4495625967447, 232.29385939367555, 0.06000140114583794),
        "theme:stakes": (1759.7523993755005, 276.1849878246589, 0.060000572944185565),
        "theme:unseen": (1734.14255427457, 238.7634674448845, 0.059998578526880605),
    }
    assert sorted(state) == sorted(pinned)
    for subject, figures in pinned.items():
        assert tuple(state[subject]) == pytest.approx(figures, rel=1e-12, abs=1e-12), subject
