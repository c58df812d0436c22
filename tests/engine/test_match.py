"""Matches: the first dealer by the ruleset's cut, the deal passing left, running totals."""

import random

from tutor.engine.bots import make_bot
import json

import pytest

from tutor.engine.errors import RecordError, UsageError
from tutor.engine.match import Match, first_dealer, plan_games


def test_lowest_cut_deals_and_ties_cut_again(rulesets):
    rs = rulesets["parlett"]                      # lowest_cut: "Whoever cuts the lowest card"
    for seed in range(200):
        dealer, cuts = first_dealer(rs, 5, random.Random(seed))
        final = cuts[-1].cards
        assert min(final.values()) >> 2 == final[dealer] >> 2
        assert sum(1 for c in final.values() if c >> 2 == final[dealer] >> 2) == 1
        for earlier in cuts[:-1]:                 # a re-cut only among those tied for lowest
            low = min(c >> 2 for c in earlier.cards.values())
            assert set(cuts[cuts.index(earlier) + 1].cards) == {
                s for s, c in earlier.cards.items() if c >> 2 == low}


def test_highest_cut_and_chosen(rulesets):
    dc = rulesets["du-coeur"]                     # du Coeur: "high card deals"
    dealer, cuts = first_dealer(dc, 5, random.Random(3))
    assert max(cuts[-1].cards.values()) >> 2 == cuts[-1].cards[dealer] >> 2
    il = rulesets["inter-livery-2018"]            # the team leader is chosen
    assert first_dealer(il, 5, random.Random(3), chosen=2) == (2, [])


def test_deal_passes_left_and_totals_add_up(rulesets):
    rs = rulesets["parlett"]
    m = Match(rs, 5, first=3, games=plan_games(rs, 5, 3, 10))
    m.play(10, [make_bot("willughby") for _ in range(5)], random.Random(9))
    assert [d.dealer for d in m.deals] == [3, 4, 0, 1, 2, 3, 4, 0, 1, 2]
    assert sum(m.totals) == 0                      # stakes are zero-sum
    assert m.totals == [sum(d.returns()[s] for d in m.deals) for s in range(5)]


def test_the_inter_livery_sheet_is_two_rounds_of_five_the_first_a_practice(rulesets):
    il = rulesets["inter-livery-2018"]
    games = plan_games(il, 5, 2)
    assert len(games) == 10 and [g.practice for g in games] == [True] + [False] * 9
    assert [(g.round, g.number) for g in games[:6]] == [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5),
                                                        (2, 1)]
    assert [g.dealer for g in games[:6]] == [2, 3, 4, 0, 1, 2]
    with pytest.raises(UsageError, match="2 rounds of 5 games"):
        plan_games(il, 5, 2, 7)
    m = Match.start(il, 5, seed=4)
    m.play(10, [make_bot("counter") for _ in range(5)], random.Random(1))
    assert m.is_over
    scored = [d.returns() for d in m.deals[1:]]
    assert m.totals == [sum(r[s] for r in scored) for s in range(5)]   # practice left out


def test_a_saved_match_resumes_exactly(rulesets):
    rs = rulesets["porges"]
    whole = Match.start(rs, 4, seed="club", deals=8, meta={"seat": 0})
    whole.play(8, [make_bot("willughby") for _ in range(4)], random.Random(5))
    part = Match.start(rs, 4, seed="club", deals=8, meta={"seat": 0})
    bots_rng = random.Random(5)
    part.play(3, [make_bot("willughby") for _ in range(4)], bots_rng)
    saved = json.loads(json.dumps(part.to_json()))
    again = Match.from_json(saved, rulesets)
    assert again.totals == part.totals and len(again.deals) == 3 and again.meta == {"seat": 0}
    assert [g.dealer for g in again.games] == [g.dealer for g in whole.games]
    for k in range(3, 8):                         # the same shuffles as the uninterrupted match
        assert again.new_deal().pack == whole.deals[k].pack
        again.record_deal(whole.deals[k])
    assert again.totals == whole.totals


def test_a_tampered_match_is_refused(rulesets):
    rs = rulesets["porges"]
    m = Match.start(rs, 4, seed=1, deals=4)
    m.play(2, [make_bot("random") for _ in range(4)], random.Random(2))
    saved = m.to_json()
    saved["deals"][1]["pack"] = saved["deals"][0]["pack"]
    saved["deals"][1]["actions"] = saved["deals"][0]["actions"]
    saved["deals"][1]["dealer"] = saved["deals"][0]["dealer"]
    del saved["deals"][1]["result"]
    with pytest.raises(RecordError, match="deal 2"):
        Match.from_json(saved, rulesets)
    with pytest.raises(RecordError, match="not a saved match"):
        Match.from_json({"format": "x"}, rulesets)
