"""Matches: the first dealer by the ruleset's cut, the deal passing left, running totals."""

import random

from tutor.engine.bots import make_bot
from tutor.engine.match import Match, first_dealer


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
    m = Match(rs, 5, first=3)
    m.play(10, [make_bot("willughby") for _ in range(5)], random.Random(9))
    assert [d.dealer for d in m.deals] == [3, 4, 0, 1, 2, 3, 4, 0, 1, 2]
    assert sum(m.totals) == 0                      # stakes are zero-sum
    assert m.totals == [sum(d.returns()[s] for d in m.deals) for s in range(5)]
