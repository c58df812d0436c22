"""The engine's public API (issue 8): legal_actions(seat), capture forms, the learner's notation
read on the position with precise errors, push/pop, hand-built positions, the settlement breakdown
and the claim race."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import position

from tutor.engine.bots import make_bot, play_out
from tutor.engine.cards import parse_cards
from tutor.engine.deal import Action, Deal, deal_order, new_deal
from tutor.engine.errors import (
    AmbiguousAction,
    IllegalAction,
    IncompleteAction,
    InvalidAction,
    UsageError,
)
from tutor.engine.race import ClaimRace, open_to


def positions_of(rs, players, seed, every=1):
    """Positions along one careless self-play deal (clones), every ``every`` actions."""
    rng = random.Random(seed)
    deal = new_deal(rs, players, seed % players, rng)
    bots = [make_bot(("random", "willughby", "counter")[q % 3], 0.3) for q in range(players)]
    out = [deal.clone()]

    def keep(d, a):
        if len(d.history) % every == 0:
            out.append(d.clone())

    play_out(deal, bots, rng, observer=keep)
    return out


def state(d):
    return (
        tuple(d.hands),
        d.table,
        tuple(d.won),
        d.wonall,
        d.aside,
        d.discard,
        d.to_move,
        d.started,
        d.phase,
        tuple(d.oversights),
        tuple(d.history),
        d.last_capturer,
        d.in_play,
        d.result,
        d.turn_captures,
        d.pot,
        tuple(d.payments),
    )


# --- legal actions -----------------------------------------------------------------------


def test_legal_actions_of_a_seat_are_its_turn_and_free_actions(rulesets):
    for d in positions_of(rulesets["porges"], 4, 7):
        for seat in range(4):
            expect = (d.legal_actions() if seat == d.to_move else []) + d.free_actions(seat)
            assert d.legal_actions(seat) == expect
            assert all(a.player == seat for a in d.legal_actions(seat))


def test_every_capture_carries_its_form(rulesets):
    d = position(
        rulesets["parlett"],
        5,
        hands=["7H 7S 9C 9D 9H KD", "2C", "3C", "4C", "5C"],
        table="7C 7D 9S KC KH KS",
        to_move=0,
    )
    forms = {a.form for a in d.legal_actions() if a.kind == "capture"}
    assert forms == {"one_for_one", "one_for_three", "pair_for_pair", "prial_for_one"}
    assert Action(0, "lie_down", (1,)).form is None


def test_deal_order_matches_the_deal(rulesets):
    rs = rulesets["parlett"]
    rng = random.Random(3)
    d = new_deal(rs, 5, 2, rng)
    order = deal_order(5, 2, 8)
    for i, c in enumerate(d.pack):
        who = order[i]
        assert (c in d.hand(who)) if who is not None else (c in d.table_cards())


# --- reading moves -----------------------------------------------------------------------


def _same_move(a, b):
    """Equal, or the same cards declared under a more specific name (a pair of a prial)."""
    return a == b or (
        a.kind.startswith("declare") and b.kind.startswith("declare") and a.cards == b.cards
    )


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    rid=st.sampled_from(["parlett", "porges", "wolffauer", "inter-livery-2018"]),
)
def test_notation_reads_back_to_the_same_move(rulesets, seed, rid):
    rs = rulesets[rid]
    players = rs.player_counts[-1]
    for d in positions_of(rs, players, seed, every=3):
        for seat in range(players):
            for a in d.legal_actions(seat):
                got = d.parse_action(a.notation(), seat)
                assert _same_move(got, a), (a.notation(), a, got)
                assert d.why_illegal(got) is None


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), junk=st.sampled_from(["zz", "7x", "11h", "q", "claim"]))
def test_an_unreadable_word_is_never_dropped(rulesets, seed, junk):
    """Any move with an unreadable word added is refused, never read as the move."""
    d = positions_of(rulesets["parlett"], 5, seed, every=5)[-2]
    seat = d.to_move
    for a in d.legal_actions(seat):
        for text in (f"{junk} {a.notation()}", f"{a.notation()} {junk}"):
            try:
                got = d.parse_action(text, seat)
            except (InvalidAction, IllegalAction, AmbiguousAction):
                continue
            raise AssertionError(f"{text!r} was read as {got}")


def test_parse_errors_name_the_input_and_say_why(rulesets):
    d = position(
        rulesets["parlett"],
        5,
        hands=["7H 8D 2S", "2C", "3C", "4C", "5C"],
        table="7C 7D 9S",
        to_move=0,
    )
    with pytest.raises(InvalidAction) as exc:
        d.parse_action("7x", 0)
    assert "'7x'" in str(exc.value) and "not a card" in str(exc.value)
    with pytest.raises(IllegalAction, match="not in your hand"):
        d.parse_action("9h", 0)
    with pytest.raises(IllegalAction, match="no eight on the table"):
        d.parse_action("8d", 0)
    with pytest.raises(IllegalAction, match="same rank"):
        d.parse_action("7h 9s", 0)
    with pytest.raises(AmbiguousAction) as amb:
        d.parse_action("7h", 0)  # 7C or 7D
    assert {a.table for a in amb.value.candidates} == {
        tuple(parse_cards("7c")),
        tuple(parse_cards("7d")),
    }
    assert d.parse_action("7h 7d", 0) == Action.make(
        0, "capture", parse_cards("7h"), parse_cards("7d")
    )
    with pytest.raises(IllegalAction, match="turn"):
        d.parse_action("2c", 1)
    with pytest.raises(IllegalAction, match="nothing to claim"):
        d.parse_action("claim", 1)


def test_a_claim_names_all_its_cards_or_its_rank(rulesets):
    # player 1 lies down holding a dead pair of sixes (the other two are won)
    d = position(
        rulesets["parlett"],
        5,
        hands=["2D", "6D 6S", "3C", "4C", "5C"],
        table="KC",
        won=["6C 6H", "", "", "", ""],
        to_move=1,
    )
    d.apply(Action.make(1, "lie_down", parse_cards("6d 6s")))
    claim = Action.make(2, "claim", parse_cards("6d 6s"), (), "laid_down_dead_pair")
    assert d.parse_action("claim 6d 6s", 2) == claim
    assert d.parse_action("claim 6", 2) == claim
    assert d.parse_action("claim sixes", 2) == claim
    assert d.parse_action("claim", 2) == claim
    with pytest.raises(IncompleteAction, match="which cards"):
        d.parse_action("claim 6d", 2)
    with pytest.raises(IllegalAction, match="may not claim"):
        d.parse_action("claim 6d 6s", 1)


def test_declarations_read_whole(rulesets):
    d = position(
        rulesets["parlett"], 5, hands=["QC QD QH 2S", "2C", "3C", "4C", "5C"], table="9S", to_move=1
    )
    got = d.parse_action("declare qc qd", 0)
    assert got.kind == "declare_prial" and got.cards == tuple(parse_cards("qc qd"))
    assert d.parse_action("qc qh", 0).kind == "declare_prial"
    with pytest.raises(IncompleteAction):
        d.parse_action("declare qc", 0)
    with pytest.raises(IllegalAction, match="not in player 0's hand"):
        d.parse_action("declare qc qs", 0)


# --- push and pop --------------------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_push_then_pop_restores_the_state_exactly(rulesets, seed):
    rs = rulesets["porges"]
    rng = random.Random(seed)
    d = new_deal(rs, 4, seed % 4, rng)
    bots = [make_bot("random", 0.3) for _ in range(4)]
    snapshots = []
    while not d.is_terminal():
        snapshots.append(state(d))
        acts = d.all_legal_actions()
        bot_free = [
            a for a in acts if a.kind not in ("capture", "lie_down", "end_turn", "play_on_capture")
        ]
        a = (
            bot_free[0]
            if bot_free and rng.random() < 0.5
            else bots[d.to_move].choose(d, d.legal_actions(), rng)
        )
        d.push(a)
    final = state(d)
    for snap in reversed(snapshots):
        d.pop()
        assert state(d) == snap
    with pytest.raises(IllegalAction):
        d.pop()
    assert final[-4] is not None  # the deal had been settled


# --- hand-built positions ------------------------------------------------------------------


def test_from_position_places_every_card_or_says_what_is_missing(rulesets):
    rs = rulesets["parlett"]
    with pytest.raises(UsageError, match="not placed"):
        Deal.from_position(rs, 5, 0, hands=[parse_cards("7h")] + [[]] * 4, table=[])
    with pytest.raises(UsageError, match="placed twice"):
        Deal.from_position(
            rs, 5, 0, hands=[parse_cards("7h"), parse_cards("7h"), [], [], []], complete=False
        )
    pack = list(range(52))
    hands = [pack[i * 8 : (i + 1) * 8] for i in range(5)]
    d = Deal.from_position(rs, 5, 4, hands=hands, table=pack[40:])
    d.check_invariants()
    assert d.to_move == 0 and d.hand(2) == tuple(range(16, 24))


# --- settlement ------------------------------------------------------------------------------


@pytest.mark.parametrize("rid", ["parlett", "porges", "inter-livery-2018", "parlett-tournament"])
def test_the_settlement_breakdown_adds_up(rulesets, rid):
    rs = rulesets[rid]
    n = rs.player_counts[-1]
    for k in range(30):
        rng = random.Random(k)
        d = new_deal(rs, n, k % n, rng)
        play_out(d, [make_bot("willughby", 0.3) for _ in range(n)], rng)
        r = d.result
        caps = [a.player for a in d.history if a.kind in ("capture", "play_on_capture")]
        assert r.last_capturer == (caps[-1] if caps else None)
        for row in r.settlement:
            assert row.won == row.won_in_play + row.leftovers + row.set_aside
            assert row.won == len(r.won[row.seat])
            if rs.scoring == "stakes":
                assert row.net == (
                    -row.ante - row.paid + row.received + row.bonus + row.for_cards + row.pot_share
                )
                assert row.net == r.net[row.seat]
                assert row.for_cards == (row.won - d.rules.breakeven) // 2
            else:
                assert row.points == r.points[row.seat]
        assert sum(row.set_aside for row in r.settlement) == len(r.set_aside)


# --- the claim race ------------------------------------------------------------------------


def test_the_claim_race_orders_by_time_then_seat(rulesets):
    d = position(
        rulesets["parlett"],
        5,
        hands=["2D", "6D 6S", "3C", "4C", "5C"],
        table="KC",
        won=["6C 6H", "", "", "", ""],
        to_move=1,
    )
    d.apply(Action.make(1, "lie_down", parse_cards("6d 6s")))
    assert sorted(open_to(d)) == [0, 2, 3, 4]
    race = ClaimRace(d)
    claim = lambda q: Action.make(q, "claim", parse_cards("6d 6s"), (), "laid_down_dead_pair")  # noqa: E731
    race.enter(3, claim(3), 0.9)
    race.enter(2, claim(2), 0.7)
    race.enter(4, claim(4), 0.7)
    with pytest.raises(IllegalAction, match="may not claim"):
        race.enter(1, claim(1), 0.1)
    assert race.winner().seat == 2 and race.margin() == 0.0
    race.settle()
    assert set(parse_cards("6d 6s")) <= set(d.won_cards(2))
    assert open_to(d) == {}
