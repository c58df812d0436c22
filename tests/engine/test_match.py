"""Matches: the first dealer by the ruleset's cut, the deal passing left, running totals."""

import json
import random

import pytest

from tutor.engine.bots import make_bot
from tutor.engine.errors import RecordError, UsageError
from tutor.engine.match import Match, first_dealer, plan_games


def test_lowest_cut_deals_and_ties_cut_again(rulesets):
    rs = rulesets["parlett"]  # lowest_cut: "Whoever cuts the lowest card"
    for seed in range(200):
        dealer, cuts = first_dealer(rs, 5, random.Random(seed))
        final = cuts[-1].cards
        assert min(final.values()) >> 2 == final[dealer] >> 2
        assert sum(1 for c in final.values() if c >> 2 == final[dealer] >> 2) == 1
        for earlier in cuts[:-1]:  # a re-cut only among those tied for lowest
            low = min(c >> 2 for c in earlier.cards.values())
            assert set(cuts[cuts.index(earlier) + 1].cards) == {
                s for s, c in earlier.cards.items() if c >> 2 == low
            }


def test_highest_cut_and_chosen(rulesets):
    dc = rulesets["du-coeur"]  # du Coeur: "high card deals"
    dealer, cuts = first_dealer(dc, 5, random.Random(3))
    assert max(cuts[-1].cards.values()) >> 2 == cuts[-1].cards[dealer] >> 2
    il = rulesets["inter-livery-2018"]  # the team leader is chosen
    assert first_dealer(il, 5, random.Random(3), chosen=2) == (2, [])


def test_deal_passes_left_and_totals_add_up(rulesets):
    rs = rulesets["parlett"]
    m = Match(rs, 5, first=3, games=plan_games(rs, 5, 3, 10))
    m.play(10, [make_bot("willughby") for _ in range(5)], random.Random(9))
    assert [d.dealer for d in m.deals] == [3, 4, 0, 1, 2, 3, 4, 0, 1, 2]
    assert sum(m.totals) == 0  # stakes are zero-sum
    assert m.totals == [sum(d.returns()[s] for d in m.deals) for s in range(5)]


def test_the_inter_livery_sheet_is_two_rounds_of_five_the_first_a_practice(rulesets):
    il = rulesets["inter-livery-2018"]
    games = plan_games(il, 5, 2)
    assert len(games) == 10 and [g.practice for g in games] == [True] + [False] * 9
    assert [(g.round, g.number) for g in games[:6]] == [
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
        (1, 5),
        (2, 1),
    ]
    assert [g.dealer for g in games[:6]] == [2, 3, 4, 0, 1, 2]
    with pytest.raises(UsageError, match="2 rounds of 5 games"):
        plan_games(il, 5, 2, 7)
    m = Match.start(il, 5, seed=4)
    m.play(10, [make_bot("counter") for _ in range(5)], random.Random(1))
    assert m.is_over
    scored = [d.returns() for d in m.deals[1:]]
    assert m.totals == [sum(r[s] for r in scored) for s in range(5)]  # practice left out


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
    for k in range(3, 8):  # the same shuffles as the uninterrupted match
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


# -- issue 23: a saved match checked whole on load; no list of every game --------------------


def _saved(rulesets, deals=2, played=1):
    rs = rulesets["parlett"]
    m = Match.start(rs, 5, seed=3, deals=deals, meta={"seat": 0, "level": "casual", "pace": 0.0})
    m.play(played, [make_bot("random") for _ in range(5)], random.Random(2))
    return json.loads(json.dumps(m.to_json()))


@pytest.mark.parametrize(
    "mutate,needle",
    [
        (
            lambda o: o.update(deals_planned="6"),
            "deals_planned: must be a whole number from 1 to 1,000, got '6'",
        ),
        (lambda o: o.update(deals_planned=6.5), "deals_planned: must be a whole number"),
        (lambda o: o.update(deals_planned=True), "deals_planned: must be a whole number"),
        (
            lambda o: o.update(deals_planned=10**12),
            "deals_planned: must be a whole number from 1 to 1,000, got 1000000000000",
        ),
        (lambda o: o.update(deals_planned=0), "deals_planned: must be a whole number"),
        (lambda o: o.update(players=3), "first_dealer: must be a seat from 0 to 2, got 4"),
        (lambda o: o.update(players="5"), "players: must be a whole number"),
        (lambda o: o.update(players=9), "players: ruleset parlett does not cover 9 players"),
        (lambda o: o.update(seed=10**19), "seed: must be a whole number from 0 to"),
        (lambda o: o.update(seed=[1]), "seed: must be a whole number"),
        (lambda o: o.update(first_dealer=(o["first_dealer"] + 1) % 5), "cuts: not the cuts"),
        (lambda o: o.update(cuts=[{"9": 5}]), "cuts[0]: '9' is not a seat from 0 to 4"),
        (
            lambda o: o.update(cuts=[{"0": 52}]),
            "cuts[0]: seat 0's card must be a card number from 0 to 51, got 52",
        ),
        (lambda o: o.update(cuts="x"), "cuts: must be a list"),
        (lambda o: o.update(meta=[1]), "meta: must be a mapping of keys to values, got a list"),
        (lambda o: o["meta"].update(pace={"x": 1}), "meta.pace: must be a plain value"),
        (lambda o: o.update(deals={}), "deals: must be a list"),
        (lambda o: o.update(deals=o["deals"] * 3), "deals: 3 deals, more than the 2 planned"),
        (lambda o: o.update(ruleset="porges"), "cuts: not the cuts"),
        (lambda o: o.update(ruleset=7), "ruleset: must be text, got 7"),
        (lambda o: o.update(ruleset="nosuch"), "ruleset: unknown ruleset 'nosuch'"),
        (lambda o: o.pop("deals_planned"), "deals_planned: is missing"),
        (lambda o: o.update(extra=1), "extra: is not a key here"),
        (lambda o: o["deals"][0].update(dealer=0), "deals: deal 1: "),
    ],
)
def test_a_tampered_saved_match_is_refused_in_one_line_naming_the_key(rulesets, mutate, needle):
    saved = _saved(rulesets)
    mutate(saved)
    with pytest.raises(RecordError) as exc:
        Match.from_json(saved, rulesets)
    assert needle in str(exc.value) and "\n" not in str(exc.value)


def test_a_match_plan_is_bounded_and_holds_no_list_of_its_games(rulesets):
    import sys

    from tutor.engine.limits import MAX_MATCH_DEALS

    rs = rulesets["parlett"]
    plan = plan_games(rs, 5, 2, MAX_MATCH_DEALS)
    assert len(plan) == MAX_MATCH_DEALS and sys.getsizeof(plan) < 200
    assert not any(isinstance(v, list) for v in vars(plan).values())
    assert plan[-1].index == MAX_MATCH_DEALS - 1 and plan[-1].dealer == (2 + 999) % 5
    assert [g.index for g in plan[3:6]] == [3, 4, 5] and plan[:2] == [plan[0], plan[1]]
    for deals in (MAX_MATCH_DEALS + 1, 10**40):
        with pytest.raises(UsageError, match="a match has at most 1,000 deals"):
            plan_games(rs, 5, 2, deals)
    with pytest.raises(UsageError, match="at most 1,000 deals"):
        Match.start(rs, 5, seed=1, deals=10**12)


def test_a_match_saved_after_every_deal_writes_each_deal_as_its_record(rulesets):
    from tutor.engine.records import to_record

    rs = rulesets["parlett"]
    m = Match.start(rs, 5, seed=4, deals=5)
    bots = [make_bot("counter") for _ in range(5)]
    rng = random.Random(2)
    for _ in range(3):  # saved after every deal, as a live table saves it
        m.play(1, bots, rng)
        assert m.to_json()["deals"] == [to_record(d) for d in m.deals]
        assert m.dumps() == json.dumps(m.to_json(), ensure_ascii=False)
    other = Match.start(rs, 5, seed=9, deals=5).play(2, bots, rng)
    m.deals[1] = other.deals[1]  # a deal replaced at its place is written anew
    assert m.to_json()["deals"] == [to_record(d) for d in m.deals]
    assert m.dumps() == json.dumps(m.to_json(), ensure_ascii=False)
    del m.deals[2:]
    assert m.to_json()["deals"] == [to_record(d) for d in m.deals]
    assert m.dumps() == json.dumps(m.to_json(), ensure_ascii=False)
