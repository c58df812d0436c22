"""Glicko-2 ratings (issue 14): the paper's worked example, lichess-style learner and puzzle
updates, stars from ratings, and serving puzzles near the learner."""

import pytest

from tutor.teaching import ratings as R


def test_glickmans_worked_example():
    # Glickman (2012): a 1500/200 player beats 1400/30, loses to 1550/100 and 1700/300
    p = R._player(R.Rating(1500, 200, 0.06))
    p.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert p.getRating() == pytest.approx(1464.06, abs=0.01)
    assert p.getRd() == pytest.approx(151.52, abs=0.01)
    assert p.vol == pytest.approx(0.05999, abs=0.00001)


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
