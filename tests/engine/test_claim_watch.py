"""Claims as the learner words them (:func:`read_claim_words`, :meth:`Deal.parse_claim`) and the
claim protocol of a table played in real time (:class:`tutor.engine.race.ClaimWatch`): claims
decided by their arrival time, false claims, claims too late, computer players' reaction times
and misses (issue 19)."""

from __future__ import annotations

import random

import pytest
from support import position

from tutor.engine.cards import parse_cards
from tutor.engine.deal import Action, read_claim_words
from tutor.engine.errors import IllegalAction, IncompleteAction, InvalidAction
from tutor.engine.levels import LEVELS, claimants
from tutor.engine.race import FALSE_CLAIM, HIT, INCOMPLETE, TOO_LATE, UNREAD, ClaimWatch, Reaction


def act(player, kind, cards="", table="", oversight=None):
    return Action.make(player, kind, parse_cards(cards), parse_cards(table), oversight)


def split_aces(rulesets):
    """Parlett, 3 players: seat 1 splits the table prial of aces; seats 0 and 2 may claim
    AD AS."""
    d = position(
        rulesets["parlett"],
        3,
        hands=["2C 3D", "AH 4C", "5D 6D 9S"],
        table="AC AD AS 5C 9H",
        dealer=0,
        to_move=1,
    )
    d.apply(act(1, "capture", "ah", "ac"))
    return d


# -- what a claim names ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,cards,rank,kinds",
    [
        ("a", (), 0, set()),
        ("claim a", (), 0, set()),
        ("ace", (), 0, set()),
        ("aces", (), 0, set()),
        ("claim the aces", (), 0, set()),
        ("claim 10", (), 9, set()),
        ("j", (), 10, set()),
        ("claim two", (), 1, set()),
        ("the two sevens", (), 6, set()),
        ("claim a pair of nines", (), 8, set()),
        ("9s 9d", ("9S", "9D"), None, set()),
        ("claim as ad", ("AS", "AD"), None, set()),
        ("the split prial of aces", (), 0, {"split_prial"}),
        (
            "claim the mournival of sevens",
            (),
            6,
            {"overlooked_table_mournival", "laid_down_mournival"},
        ),
        ("claim the dead pair", (), None, {"laid_down_dead_pair"}),
        ("laid-down prial of 3s", ("3S",), None, {"laid_down_prial"}),
        ("", (), None, set()),
    ],
)
def test_claim_words(text, cards, rank, kinds):
    got = read_claim_words(text)
    assert got.cards == tuple(parse_cards(" ".join(cards)))
    assert got.rank == rank and got.kinds == kinds


def test_unreadable_and_mixed_claims_are_refused():
    with pytest.raises(
        InvalidAction, match="could not read 'zz': not a card, a rank or a word of a claim"
    ):
        read_claim_words("claim zz")
    with pytest.raises(IllegalAction, match="one rank"):
        read_claim_words("claim 9s 8s")
    with pytest.raises(IllegalAction, match="one rank"):
        read_claim_words("nines and tens")


def test_aces_are_claimed_by_rank_every_way(rulesets):
    d = split_aces(rulesets)
    want = act(0, "claim", "ad as", oversight="split_prial")
    for text in ("a", "ace", "aces", "claim a", "claim aces", "the split prial of aces", "AS AD"):
        assert d.parse_claim(text, 0) == want, text
        assert d.parse_action(text if text.startswith("claim") else "claim " + text, 0) == want
    with pytest.raises(IncompleteAction, match="names the cards it takes"):
        d.parse_claim("claim", 0, named=True)  # the claim key: naming is the skill
    with pytest.raises(IllegalAction, match="no open laid down dead pair oversight of aces"):
        d.parse_claim("the dead pair of aces", 0)
    with pytest.raises(IllegalAction, match="player 1 made that mistake"):
        d.parse_claim("aces", 1)


# -- the protocol ----------------------------------------------------------------------------


def test_the_first_to_arrive_takes_the_cards_and_the_next_is_too_late(rulesets):
    d = split_aces(rulesets)
    watch = ClaimWatch(d, {2: Reaction(1.0, 1.0)}, random.Random(1), humans=[0])
    assert watch.update(10.0) == []
    (w,) = watch.open.values()
    assert w.opened_at == 10.0 and w.reactions == {2: 1.0}
    assert watch.due() == [(11.0, 2, w.oversight)]
    hit = watch.arrive(0, "claim a", 10.6)
    assert [o.result for o in hit] == [HIT]
    assert hit[0].seconds == pytest.approx(0.6) and hit[0].action == act(
        0, "claim", "ad as", oversight="split_prial"
    )
    assert d.history[-1] == hit[0].action
    (closed,) = watch.update(10.7)
    assert closed is w and w.how == "claimed" and w.taken_by == 0
    assert not w.missed_by(0) and w.missed_by(2)
    assert watch.advance(20.0) == []  # Ralph's claim has nothing to take
    late = watch.arrive(2, "aces", 11.0)[-1]
    assert late.result == TOO_LATE and late.reason.startswith("player 0 claimed it first, 400 ms")


def test_computer_claims_due_before_a_person_come_first_and_ties_go_to_the_lower_seat(rulesets):
    d = split_aces(rulesets)
    watch = ClaimWatch(d, {2: Reaction(1.0, 1.0)}, random.Random(1), humans=[0])
    watch.update(0.0)
    out = watch.arrive(0, "ad as", 1.5)  # Ralph came at 1.0
    assert [(o.seat, o.result) for o in out] == [(2, HIT), (0, TOO_LATE)]
    assert "player 2 claimed it first, 500 ms before" in out[1].reason
    # a tie at the same moment: the lower seat first
    d2 = split_aces(rulesets)
    w2 = ClaimWatch(d2, {2: Reaction(1.0, 1.0)}, random.Random(1))
    w2.update(0.0)
    assert [(o.seat, o.result) for o in w2.arrive(0, "a", 1.0)] == [(0, HIT)]
    d3 = position(
        rulesets["parlett"],
        3,
        hands=["2C 3D", "AH 4C", "5D 6D 9S"],
        table="AC AD AS 5C 9H",
        dealer=0,
        to_move=1,
    )
    d3.apply(act(1, "capture", "ah", "ac"))
    w3 = ClaimWatch(d3, {0: Reaction(1.0, 1.0)}, random.Random(1))
    w3.update(0.0)
    assert [(o.seat, o.result) for o in w3.arrive(2, "a", 1.0)] == [(0, HIT), (2, TOO_LATE)]


def test_a_false_claim_changes_nothing_and_the_real_one_is_still_there(rulesets):
    d = split_aces(rulesets)
    watch = ClaimWatch(d, {}, humans=[0])
    watch.update(0.0)
    before = len(d.history)
    false = watch.arrive(0, "claim 9h", 0.3)[-1]
    assert false.result == FALSE_CLAIM and false.reason == "no open oversight covers 9♥"
    assert len(d.history) == before and watch.open
    assert watch.arrive(0, "claim zz", 0.4)[-1].result == UNREAD
    assert watch.arrive(0, "claim ad", 0.5)[-1].result == INCOMPLETE
    assert not [o for o in watch.outcomes if o.result != FALSE_CLAIM]
    assert watch.arrive(0, "ace", 0.9)[-1].result == HIT
    assert [o.result for o in watch.outcomes] == [FALSE_CLAIM, HIT]


def test_with_nothing_open_a_claim_is_a_false_claim(rulesets):
    d = position(
        rulesets["parlett"],
        3,
        hands=["2C 3D", "AH 4C", "5D 6D 9S"],
        table="AC AD 5C 9H",
        dealer=0,
        to_move=1,
    )
    watch = ClaimWatch(d, {})
    watch.update(0.0)
    out = watch.arrive(0, "claim a", 2.0)[-1]
    assert out.result == FALSE_CLAIM and out.reason == "no open oversight of aces"


def test_a_false_claim_is_answered_about_what_it_names_never_about_what_else_is_open(rulesets):
    """The reason a watching player hears for a false claim must not tell whether some other
    oversight is open: the same words with nothing open and with a split prial of nines open."""

    def reason(table: str, hands: list[str]) -> str:
        d = position(rulesets["parlett"], 3, hands=hands, table=table, dealer=0, to_move=1)
        if table.count("9") == 3:
            d.apply(d.parse_action("9c 9d", 1))  # one of the table prial taken
        watch = ClaimWatch(d, {})
        watch.update(0.0)
        out = watch.arrive(0, "claim 5c 5h", 2.0)[-1]
        assert out.result == FALSE_CLAIM
        return out.reason

    assert reason("AC 5C 9H", ["2C 3D", "AH 4C", "5D 6D 9S"]) == reason(
        "9D 9H 9S 5C", ["2C 3D", "9C 4C", "5D 6D KS"]
    )


def test_an_oversight_left_when_play_ends_is_missed_and_a_late_claim_says_so(rulesets):
    d = position(
        rulesets["parlett"], 3, hands=["2C", "AH", "5D"], table="AC AD AS 5C", dealer=0, to_move=1
    )
    d.apply(act(1, "capture", "ah", "ac"))  # splits the prial, and is out
    watch = ClaimWatch(d, {2: Reaction(3.0, 3.0)}, humans=[0])
    watch.update(0.0)
    d.apply(act(2, "capture", "5d", "5c"))  # out too: play ends
    (w,) = watch.update(1.0)
    assert w.how == "ended" and w.missed_by(0) and w.taken_by is None
    late = watch.arrive(0, "aces", 1.5)[-1]
    assert late.result == TOO_LATE and "play ended" in late.reason
    assert watch.advance(10.0) == []


@pytest.mark.parametrize("lv", ["beginner", "casual", "club", "expert"])
def test_computer_players_react_on_their_levels_distribution_and_careless_ones_miss(lv):
    level = LEVELS[lv]
    who = claimants(level, 3, 0)
    assert set(who) == {1, 2} and who[1] == level.claiming
    rng = random.Random(5)
    draws = [who[1].draw(rng) for _ in range(2000)]
    got = [t for t in draws if t is not None]
    lo, hi = level.reaction
    assert all(lo <= t <= hi for t in got)
    missed = 1 - len(got) / len(draws)
    assert missed == pytest.approx(level.mistakes, abs=0.04)


def _laid_mournival(rulesets):
    """Porges, 4 players, after seat 1 lay down all four nines (a claim takes all four)."""
    d = position(
        rulesets["porges"],
        4,
        hands=["2C 3D", "9C 9D 9H 9S", "5D 6D 8S", "KD QS"],
        table="4C 5C JH",
        dealer=0,
        to_move=1,
    )
    d.apply(act(1, "lie_down", "9C 9D 9H 9S"))
    return d


def _watching(deal):
    w = ClaimWatch(deal)
    w.update(0.0)
    return w


@pytest.mark.parametrize("text", ["9c 9d", "9c 9d 9h", "9c", "claim 9s 9h mournival"])
def test_blind_a_partial_naming_is_judged_as_with_nothing_open(rulesets, text):
    """Issue 30: judged blind, a naming of some of an open oversight's cards comes to what it
    comes to with nothing open, reason and all (a false claim, or asked again for a count no
    claim takes); a whole naming still takes the cards."""
    d = _laid_mournival(rulesets)
    shut = d.clone(oversights=False)
    a, b = (_watching(x).arrive(0, text, 1.0, blind=True)[-1] for x in (d, shut))
    assert (a.result, a.reason.words(0), a.candidates) == (b.result, b.reason.words(0), ())
    assert a.result in (FALSE_CLAIM, INCOMPLETE)
    assert not any(x.kind == "claim" for x in d.history)
    with pytest.raises(IncompleteAction):  # the engine's own reading still asks
        d.parse_claim("9c 9d", 0)
    assert _watching(d).arrive(0, "9c 9d 9h 9s", 1.0, blind=True)[-1].result == HIT


def test_blind_a_partial_naming_of_a_closed_oversight_is_not_too_late(rulesets):
    d = _laid_mournival(rulesets)
    w = ClaimWatch(d)
    w.update(0.0)
    assert w.arrive(2, "nines", 0.5, blind=True)[-1].result == HIT
    assert w.arrive(3, "9c 9d", 1.0, blind=True)[-1].result == FALSE_CLAIM
    assert w.arrive(3, "9c 9d 9h 9s", 1.0, blind=True)[-1].result == TOO_LATE
