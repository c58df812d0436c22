"""Skill in each reconstruction (issue 10): the same deal played with an expert seat and with
another computer player in that seat; the gain per deal with its 95% interval; reproducible and
independent of the number of workers."""

from __future__ import annotations

import math
import random

import pytest

from tutor.engine.bots import make_bot, play_out
from tutor.engine.deal import new_deal
from tutor.engine.errors import UsageError
from tutor.engine.simulate import SKILL_FORMAT, play_skill_deal, run_skill, skill_json


def test_a_skill_study_pairs_each_deal_with_the_ordinary_study(rulesets):
    rs = rulesets["parlett"]
    study = run_skill(rs, 5, 4, 3, "counter", samples=16)
    assert len(study.results) == 4 and study.decisions > 0
    # the baseline game of deal k is deal k of the ordinary study with the same seed
    for k, (_, base) in enumerate(study.results):
        rng = random.Random(f"3/{k}")
        deal = new_deal(rs, 5, k % 5, rng)
        play_out(deal, [make_bot("counter") for _ in range(5)], rng)
        assert base == deal.returns()[0]
    gains = [e - b for e, b in study.results]
    g = study.gain
    assert g.n == 4 and math.isclose(g.mean, sum(gains) / 4)
    m = sum(gains) / 4
    sd = math.sqrt(sum((x - m) ** 2 for x in gains) / 3)
    assert math.isclose(g.ci95, 1.96 * sd / 2)
    assert math.isclose(study.expert.mean - study.baseline.mean, g.mean)


def test_skill_figures_do_not_depend_on_workers_and_are_reproducible(rulesets):
    rs = rulesets["wolffauer"]
    one = run_skill(rs, 4, 8, 5, "willughby", samples=6)
    two = run_skill(rs, 4, 8, 5, "willughby", samples=6, workers=2)
    assert one.results == two.results and one.decisions == two.decisions
    assert play_skill_deal(rs, 4, "willughby", 6, 5, 6)[:2] == one.results[6]
    obj = skill_json([one], 8, 5, 6, ["willughby"])
    assert obj["format"] == SKILL_FORMAT and obj["rows"][0]["results"] == [
        [round(e, 4), round(b, 4)] for e, b in one.results
    ]
    assert "results" not in one.to_json(per_deal=False)


def test_points_under_pairs_scoring_are_relative_to_the_seats_mean(rulesets):
    rs = rulesets["parlett-tournament"]
    study = run_skill(rs, 5, 2, 1, "counter", samples=8)
    assert study.unit == "points" and study.to_json()["measure"] == "points"
    rng = random.Random("1/0")
    deal = new_deal(rs, 5, 0, rng)
    play_out(deal, [make_bot("counter") for _ in range(5)], rng)
    ret = deal.returns()
    assert study.results[0][1] == ret[0] - sum(ret) / 5


def test_bad_skill_studies_are_usage_errors(rulesets):
    with pytest.raises(UsageError, match="random, willughby, counter"):
        run_skill(rulesets["parlett"], 5, 2, 1, "expert")
    with pytest.raises(UsageError, match="does not cover 5 players"):
        run_skill(rulesets["parlett-13"], 5, 2, 1, "counter")
    with pytest.raises(UsageError):
        run_skill(rulesets["parlett"], 5, 0, 1, "counter")
