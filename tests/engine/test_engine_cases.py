"""Hand-built positions: each rule of RULES.md 3-4 allowed and refused, per ruleset parameter."""

import pytest
from support import position

from tutor.engine.cards import codes, mask_of, parse_cards
from tutor.engine.deal import Action, Deal
from tutor.engine.errors import IllegalAction


def act(player, kind, cards="", table="", oversight=None):
    return Action.make(player, kind, parse_cards(cards), parse_cards(table), oversight)


def legal_codes(deal):
    return sorted(
        (a.kind, tuple(codes(a.cards)), tuple(codes(a.table))) for a in deal.legal_actions()
    )


# --- capture forms -------------------------------------------------------------------------


def test_parlett_allows_all_four_capture_forms(rulesets):
    d = position(
        rulesets["parlett"],
        5,
        hands=["7H 7S 9C 9D 9H KD", "2C", "3C", "4C", "5C"],
        table="7C 7D 9S KC KH KS",
        to_move=0,
    )
    kinds = {(len(a.cards), len(a.table)) for a in d.legal_actions()}
    assert kinds == {(1, 1), (2, 2), (3, 1), (1, 3)}
    d.apply(act(0, "capture", "7h 7s", "7c 7d"))
    assert codes(d.won[0] and d.won_cards(0)) == ["7C", "7D", "7H", "7S"]


@pytest.mark.parametrize("rid", ["porges", "du-coeur", "wolffauer"])
def test_single_card_sources_refuse_pair_for_pair_and_prial_for_one(rulesets, rid):
    d = position(
        rulesets[rid],
        5,
        hands=["7H 7S 9C 9D 9H", "2C", "3C", "4C", "5C"],
        table="7C 7D 9S",
        to_move=0,
    )
    assert {(len(a.cards), len(a.table)) for a in d.legal_actions() if a.kind == "capture"} == {
        (1, 1)
    }
    # the reason in words a learner reads (the parameter table's), no identifier
    with pytest.raises(
        IllegalAction,
        match=r"not allowed here: this ruleset's captures are "
        r"one card takes one, one card takes three "
        r"\(a pair takes a pair is not one of them\)",
    ):
        d.apply(act(0, "capture", "7h 7s", "7c 7d"))
    with pytest.raises(IllegalAction, match=r"\(a prial takes one is not one of them\)"):
        d.apply(act(0, "capture", "9c 9d 9h", "9s"))


def test_one_card_never_takes_two(rulesets):
    d = position(
        rulesets["parlett"], 5, hands=["7H", "2C", "3C", "4C", "5C"], table="7C 7D", to_move=0
    )
    with pytest.raises(IllegalAction, match="one card cannot take two"):
        d.apply(act(0, "capture", "7h", "7c 7d"))


def test_one_for_three_takes_all_three_and_only_when_three_lie(rulesets):
    d = position(
        rulesets["porges"], 5, hands=["7H 2D", "2C", "3C", "4C", "5C"], table="7C 7D 7S", to_move=0
    )
    assert ("capture", ("7H",), ("7C", "7D", "7S")) in legal_codes(d)
    d.apply(act(0, "capture", "7h", "7c 7d 7s"))
    assert len(d.won_cards(0)) == 4


def test_capture_must_match_rank_and_cards_must_be_there(rulesets):
    d = position(
        rulesets["parlett"], 5, hands=["7H 8D", "2C", "3C", "4C", "5C"], table="7C 8S", to_move=0
    )
    with pytest.raises(IllegalAction, match="same rank"):
        d.apply(act(0, "capture", "7h", "8s"))
    with pytest.raises(IllegalAction, match="not in player 0's hand"):
        d.apply(act(0, "capture", "7d", "7c"))
    with pytest.raises(IllegalAction, match="not on the table"):
        d.apply(act(0, "capture", "8d", "8h"))
    with pytest.raises(IllegalAction, match="player 0's turn"):
        d.apply(act(1, "capture", "2c", "7c"))


# --- lying down and turns -------------------------------------------------------------------


def test_must_capture_if_possible_and_lie_down_otherwise(rulesets):
    d = position(
        rulesets["parlett"], 5, hands=["7H 8D", "2C 2S", "3C", "4C", "5C"], table="7C", to_move=0
    )
    with pytest.raises(IllegalAction, match="can capture"):
        d.apply(act(0, "lie_down", "7h 8d"))
    d.apply(act(0, "capture", "7h", "7c"))
    assert d.to_move == 1
    assert legal_codes(d) == [("lie_down", ("2C", "2S"), ())]
    with pytest.raises(IllegalAction, match="whole hand"):
        d.apply(act(1, "lie_down", "2c"))
    d.apply(act(1, "lie_down", "2c 2s"))
    assert d.is_out(1) and codes(d.table_cards()) == ["2C", "2S"]
    assert d.to_move == 2


def test_turn_skips_players_who_are_out(rulesets):
    d = position(
        rulesets["parlett"], 5, hands=["7H 8D", "", "3C 3D", "", "5C 9S"], table="7C 5D", to_move=0
    )
    d.apply(act(0, "capture", "7h", "7c"))
    assert d.to_move == 2


# --- declarations: free vs turn --------------------------------------------------------------


def test_free_declarations_any_time_even_out_of_turn(rulesets):
    d = position(
        rulesets["parlett"],
        5,
        hands=["7H 8D", "QC QD QH 2S", "3C 3D", "4C", "5C"],
        table="7C",
        to_move=0,
    )
    assert act(1, "declare_prial", "qc qd") in d.free_actions(1)
    d.apply(act(1, "declare_prial", "qc qh"))
    assert codes(d.won_cards(1)) == ["QC", "QH"] and d.to_move == 0
    with pytest.raises(IllegalAction, match="one rank"):
        d.apply(act(1, "declare_prial", "qd 2s"))
    with pytest.raises(IllegalAction, match="three or four"):
        d.apply(act(2, "declare_prial", "3c 3d"))


def test_turn_declarations_are_turn_actions_and_block_lying_down(rulesets):
    d = position(
        rulesets["wolffauer"],
        5,
        hands=["QC QD QH 2S", "3C", "4C", "5C", "6C"],
        table="9C",
        to_move=0,
    )
    assert d.free_actions(0) == []
    kinds = {a.kind for a in d.legal_actions()}
    assert kinds == {"declare_prial"}
    with pytest.raises(IllegalAction, match="can still declare"):
        d.apply(act(0, "lie_down", "qc qd qh 2s"))
    with pytest.raises(IllegalAction, match="turn"):
        d.apply(act(1, "lie_down", "3c"))
    d.apply(act(0, "declare_prial", "qc qd"))
    assert d.to_move == 1 and d.started


def test_mournival_in_hand_and_declaring_one_pair_leaves_a_dead_pair(rulesets):
    d = position(
        rulesets["parlett"],
        5,
        hands=["KC KD KH KS 2C", "3C", "4C", "5C", "6C"],
        table="9C",
        to_move=1,
    )
    assert act(0, "declare_mournival", "kc kd kh ks") in d.free_actions(0)
    d.apply(act(0, "declare_prial", "kc kd"))
    # its twin is in the holder's own won cards: a dead pair (RULES.md 6)
    assert d.dead_pairs(0) == (12,)
    d.apply(act(0, "declare_dead_pair", "kh ks"))
    assert len(d.won_cards(0)) == 4


def test_dead_pair_only_when_the_other_two_are_won(rulesets):
    d = position(
        rulesets["parlett"],
        5,
        hands=["8C 8D 2C", "8H 3C", "8S 4C", "5C", "6C"],
        table="9C",
        to_move=1,
    )
    assert d.dead_pairs(0) == ()
    with pytest.raises(IllegalAction, match="not dead"):
        d.apply(act(0, "declare_dead_pair", "8c 8d"))
    d2 = position(
        rulesets["parlett"],
        5,
        hands=["8C 8D 2C", "3C", "4C", "5C", "6C"],
        table="9C",
        won=["", "8H 8S", "", "", ""],
        to_move=1,
    )
    assert d2.dead_pairs(0) == (7,)
    d2.apply(act(0, "declare_dead_pair", "8c 8d"))


# --- oversights -------------------------------------------------------------------------------


def test_split_prial_claimable_by_others_not_the_offender(rulesets):
    d = position(
        rulesets["parlett"],
        5,
        hands=["7H 2D", "3C 3D", "4C", "5C", "6C"],
        table="7C 7D 7S 9C",
        to_move=0,
    )
    d.apply(act(0, "capture", "7h", "7c"))
    claim = act(1, "claim", "7d 7s", oversight="split_prial")
    assert claim in d.free_actions(1)
    assert not [a for a in d.free_actions(0) if a.kind == "claim"]
    with pytest.raises(IllegalAction, match="made that mistake"):
        d.apply(act(0, "claim", "7d 7s", oversight="split_prial"))
    d.apply(claim)
    assert codes(d.won_cards(1)) == ["7D", "7S"]
    with pytest.raises(IllegalAction, match="no open split prial oversight covers"):
        d.apply(act(2, "claim", "7d 7s", oversight="split_prial"))


def test_split_prial_not_an_oversight_where_the_ruleset_does_not_list_it(rulesets):
    d = position(
        rulesets["wolffauer"],
        5,
        hands=["7H 2D", "3C 3D", "4C", "5C", "6C"],
        table="7C 7D 7S 9C",
        to_move=0,
    )
    d.apply(act(0, "capture", "7h", "7c"))
    assert d.open_oversights() == []


def laid_down(rid, hand0, won=None):
    from tutor.engine.sources import load_library

    rs = load_library().rulesets[rid]
    return position(
        rs,
        4,
        hands=[hand0, "3C 3D", "4C 4D", "5C"],
        table="9C",
        won=won or ["", "", "", ""],
        to_move=0,
    )


def test_laid_down_dead_pair_claimed(rulesets):
    d = laid_down("parlett", "8C 8D 2C", won=["", "8H 8S", "", ""])
    d.apply(act(0, "lie_down", "8c 8d 2c"))
    assert [o.kind for o in d.open_oversights()] == ["laid_down_dead_pair"]
    assert not [a for a in d.free_actions(0) if a.kind == "claim"]
    d.apply(act(3, "claim", "8c 8d", oversight="laid_down_dead_pair"))
    assert codes(d.won_cards(3)) == ["8C", "8D"]


def test_laid_down_prial_claimed_under_porges_only(rulesets):
    d = laid_down("porges", "8C 8D 8H 2C")
    d.apply(act(0, "lie_down", "8c 8d 8h 2c"))
    claims = [a for a in d.free_actions(2) if a.kind == "claim"]
    assert len(claims) == 3 and all(a.oversight == "laid_down_prial" for a in claims)
    d.apply(act(2, "claim", "8d 8h", oversight="laid_down_prial"))
    assert codes(d.table_cards()) == ["8C", "9C", "2C"] or codes(d.table_cards()) == [
        "2C",
        "8C",
        "9C",
    ]
    assert d.open_oversights() == []
    d2 = laid_down("parlett", "8C 8D 8H 2C")
    d2.apply(act(0, "lie_down", "8c 8d 8h 2c"))
    assert d2.open_oversights() == []


def test_laid_down_mournival_claimed(rulesets):
    d = laid_down("porges", "8C 8D 8H 8S")
    d.apply(act(0, "lie_down", "8c 8d 8h 8s"))
    d.apply(act(1, "claim", "8c 8d 8h 8s", oversight="laid_down_mournival"))
    assert len(d.won_cards(1)) == 4


def _pack_with_table_mournival(players, hand):
    # table cards come last: put the four kings at the end of the pack
    kings = parse_cards("KC KD KH KS")
    rest = [c for c in range(52) if c not in kings]
    return rest + kings


def test_table_mournival_dealer_takes_or_sets_aside(rulesets):
    pack = _pack_with_table_mournival(5, 8)
    d = Deal(rulesets["parlett"], 5, 0, pack)
    take = act(0, "take_table_mournival", "kc kd kh ks")
    assert take in d.free_actions(0)
    with pytest.raises(IllegalAction, match="only the dealer"):
        d.apply(act(1, "take_table_mournival", "kc kd kh ks"))
    d.apply(take)
    assert len(d.won_cards(0)) == 4
    t = Deal(rulesets["parlett-tournament"], 5, 0, pack)
    t.apply(take)
    assert t.won_cards(0) == () and len(t.set_aside()) == 4


def test_overlooked_table_mournival_claimed_once_play_starts(rulesets):
    pack = _pack_with_table_mournival(5, 8)
    d = Deal(rulesets["parlett"], 5, 0, pack)
    d.apply(d.legal_actions()[0])  # eldest plays: play has started
    with pytest.raises(IllegalAction, match="play has started"):
        d.apply(act(0, "take_table_mournival", "kc kd kh ks"))
    claim = act(3, "claim", "kc kd kh ks", oversight="overlooked_table_mournival")
    assert claim in d.free_actions(3)
    assert not [a for a in d.free_actions(0) if a.kind == "claim"]
    d.apply(claim)
    assert len(d.won_cards(3)) == 4


# --- the end of a deal --------------------------------------------------------------------


def _finish_two_left(rs, players=5, dealer=0, won=None, hands=None, table="9C"):
    d = position(
        rs,
        players,
        dealer=dealer,
        hands=hands or ["", "2C", "3C", "", ""],
        table=table,
        won=won or [""] * players,
        to_move=1,
    )
    d.apply(d.legal_actions()[0])  # seat 1 lies down: only seat 2 holds cards
    return d


def test_leftovers_to_dealer_last_in_or_nobody(rulesets):
    d = _finish_two_left(rulesets["parlett"])
    assert d.is_terminal()
    assert d.result.last_in == 2 and d.result.leftovers_to == 0
    assert codes(d.result.leftovers) == ["2C", "3C", "9C"]
    t = _finish_two_left(rulesets["parlett-tournament"])
    assert t.result.leftovers_to == 2
    assert set(codes(t.result.won[2])) == {"2C", "3C", "9C"}
    i = _finish_two_left(rulesets["inter-livery-2018"])
    assert i.result.leftovers_to is None and codes(i.result.discard) == ["2C", "3C", "9C"]


def test_last_in_plays_on_only_where_the_ruleset_says(rulesets):
    hands = ["", "2C", "3C 9D", "", ""]
    i = _finish_two_left(rulesets["inter-livery-2018"], hands=hands)
    assert i.phase == "play_on" and i.to_move == 2
    assert [a.kind for a in i.legal_actions()] == ["play_on_capture"]
    with pytest.raises(IllegalAction, match="only player 2"):
        i.apply(act(3, "claim", "9c", oversight="split_prial"))
    i.apply(i.legal_actions()[0])
    assert i.is_terminal() and codes(i.result.won[2]) == ["9C", "9D"]
    p = _finish_two_left(rulesets["parlett"], hands=hands)
    assert p.is_terminal()
    with pytest.raises(IllegalAction):
        p.apply(act(2, "play_on_capture", "9d", "9c"))


def test_bonus_to_last_in_or_last_pair(rulesets):
    # seat 3 makes the last capture, then seat 1 lies down leaving seat 2 last in
    def run(rid):
        d = position(rulesets[rid], 5, hands=["", "2C", "3C", "7H", ""], table="7C 9C", to_move=3)
        d.apply(act(3, "capture", "7h", "7c"))
        d.apply(act(1, "lie_down", "2c"))
        return d.result

    assert run("parlett").bonus_to == 2
    porges = run("porges")
    assert porges.last_in == 2 and porges.bonus_to == 3


def test_nobody_captured_bonus_goes_to_last_in(rulesets):
    d = position(rulesets["porges"], 5, hands=["", "2C", "3C", "", ""], table="9C", to_move=1)
    d.apply(act(1, "lie_down", "2c"))
    assert d.result.bonus_to == 2


# --- settlement --------------------------------------------------------------------------


def test_settlement_follows_du_coeur_arithmetic(rulesets):
    """du Coeur: "if you have ten cards (two extra), you gain one stake; if you have six cards
    (two few), you lose one stake"; the last in takes five from a pot of eleven."""
    rs = rulesets["du-coeur"]
    d = Deal(rs, 5, 0, list(range(52)))
    # give out won piles: 10, 6, 8, 8 and the rest (20) to seat 4, who is last in
    cards = list(range(52))
    sizes = [10, 6, 8, 8, 20]
    start = 0
    for seat, size in enumerate(sizes):
        d.won[seat] = mask_of(cards[start : start + size])
        start += size
    d.hands = [0, 0, 0, 0, 0]
    d.table = 0
    d.to_move = 4
    d._finish()
    # net = -ante + bonus + (won - 8) / 2
    assert d.result.net == (-3 + 1, -2 - 1, -2 + 0, -2 + 0, -2 + 5 + 6)
    assert sum(d.result.net) == 0


def test_pairs_scoring_counts_won_cards_over_two(rulesets):
    d = _finish_two_left(rulesets["parlett-tournament"], won=["AC AD", "", "", "KC KD KH KS", ""])
    assert d.result.net is None
    assert d.result.points == (1, 0, 1, 2, 0)


def test_clone_is_independent(rulesets):
    d = position(
        rulesets["parlett"], 5, hands=["7H 8D", "2C", "3C", "4C", "5C"], table="7C", to_move=0
    )
    c = d.clone()
    c.apply(act(0, "capture", "7h", "7c"))
    assert d.hand(0) != c.hand(0) and d.history == []
