"""The engine's structured answers that screens read instead of working a rule out (issue 43):
the sets among cards, an action's declaration, the codes of why a move is refused, who may
claim, a settlement's parts, and the parts of an engine error."""

import random

import pytest
from support import position

from tutor.engine.cards import CardSet, parse_card, parse_cards, sets_of
from tutor.engine.deal import Action, new_deal
from tutor.engine.errors import NotationError, RecordError
from tutor.engine.records import action_from_json
from tutor.engine.values import Declaration


def act(player, kind, cards="", table=""):
    return Action.make(player, kind, parse_cards(cards), parse_cards(table))


def test_sets_of_names_pairs_prials_and_mournivals_rank_by_rank():
    got = sets_of(parse_cards("7H 7S KC KD KH 2C 9C 9D 9H 9S"))
    assert got == {6: CardSet.PAIR, 8: CardSet.MOURNIVAL, 12: CardSet.PRIAL}
    assert list(got) == [6, 8, 12]  # ranks ascending
    assert sets_of(parse_cards("7H 8S")) == {}


def test_an_action_names_its_declaration():
    assert act(0, "declare_prial", "7h 7s").declared is Declaration.PRIAL
    assert act(0, "declare_dead_pair", "7h 7s").declared is Declaration.DEAD_PAIR
    assert act(0, "capture", "7h", "7s").declared is None


def test_why_a_move_is_refused_carries_a_code(rulesets):
    d = position(
        rulesets["porges"],
        5,
        hands=["7H 7S 8D 2D", "2C", "3C", "4C", "5C"],
        table="7C 7D 8S",
        to_move=0,
    )
    codes = {
        text: d.why_illegal(a).code
        for text, a in (
            ("other rank", act(0, "capture", "7h", "8s")),
            ("one takes two", act(0, "capture", "7h", "7c 7d")),
            ("form refused", act(0, "capture", "7h 7s", "7c 7d")),
            ("must capture", act(0, "lie_down", "7h 7s 8d 2d")),
            ("not your turn", act(1, "capture", "2c", "7c")),
        )
    }
    assert codes == {
        "other rank": "other_rank",
        "one takes two": "one_takes_two",
        "form refused": "capture_not_allowed",
        "must capture": "must_capture",
        "not your turn": "not_your_turn",
    }
    assert d.why_illegal(act(0, "capture", "7h 7s", "7c 7d")).rule == "captures"


@pytest.mark.parametrize("rid", ["parlett", "porges", "du-coeur", "inter-livery-2018"])
def test_a_settlement_s_parts_add_up_with_what_the_count_leaves(rulesets, rid):
    rs = rulesets[rid]
    for seed in range(6):
        deal = new_deal(rs, 5, seed % 5, random.Random(seed))
        rng = random.Random(seed)
        while not deal.is_terminal():
            deal.apply(rng.choice(deal.legal_actions()))
        game = deal.game
        for row in deal.final_result().settlement:
            parts = game.result_parts(row)
            assert set(parts) <= {"ante", "pot_share", "bonus", "leftovers", "set_aside"}
            assert all(parts.values())
            assert parts.get("ante", 0) == -row.ante
            assert parts.get("bonus", 0) == row.bonus
            assert row.won_at_end == row.won - row.won_in_play
            if row.points is not None:
                assert row.points_for_won == row.points - row.bonus


def test_engine_errors_carry_their_parts():
    with pytest.raises(RecordError) as exc:
        action_from_json({"action": "capture", "player": 0, "hand": ["7X"], "table": ["7H"]}, 3)
    assert exc.value.index == 3
    assert str(exc.value) == f"action 3: {exc.value.problem}"
    assert not exc.value.problem.startswith("action")
    with pytest.raises(NotationError) as bad:
        parse_card("7X")
    assert str(bad.value).endswith(": " + bad.value.detail)
    assert bad.value.detail.startswith("'X' is not a suit")
