"""The parameters for other reconstructions and house rules (RULES.md 3.6): one hand-built
position per new behaviour, the refusals at load, and records that replay."""

import json
import textwrap

import pytest
from support import HOUSE_SOURCES, position

from tutor.engine.cards import parse_cards
from tutor.engine.deal import Action
from tutor.engine.errors import DataError, IllegalAction
from tutor.engine.records import replay, to_record
from tutor.engine.sources import load_library


def act(player, kind, cards="", table="", oversight=None):
    return Action.make(player, kind, parse_cards(cards), parse_cards(table), oversight)


# --- captures_per_turn: any ------------------------------------------------------------------


def test_two_captures_in_one_turn_then_end_turn(house):
    d = position(
        house["house-any"],
        5,
        hands=["7H 9C KS 2S", "2C", "3C", "4C", "5C"],
        table="7D 9S KH QD",
        to_move=0,
    )
    assert Action(0, "end_turn") not in d.legal_actions()
    d.apply(act(0, "capture", "7h", "7d"))
    assert d.to_move == 0 and d.turn_captures == 1
    assert Action(0, "end_turn") in d.legal_actions()
    d.apply(act(0, "capture", "9c", "9s"))
    assert d.to_move == 0
    assert d.legal_actions() == [act(0, "capture", "ks", "kh"), Action(0, "end_turn")]
    assert d.parse_action("end turn", 0) == Action(0, "end_turn")
    d.apply(Action(0, "end_turn"))
    assert d.to_move == 1 and d.turn_captures == 0
    d.check_invariants()


def test_end_turn_is_refused_before_a_capture_and_lying_down_after_one(house, rulesets):
    d = position(
        house["house-any"],
        5,
        hands=["7H 9C 2S", "2C", "3C", "4C", "5C"],
        table="7D 9S KH",
        to_move=0,
    )
    with pytest.raises(IllegalAction, match="only after at least one capture"):
        d.apply(Action(0, "end_turn"))
    d.apply(act(0, "capture", "7h", "7d"))
    with pytest.raises(IllegalAction, match="captured this turn"):
        d.apply(act(0, "lie_down", "9c 2s"))
    one = position(
        rulesets["parlett"], 5, hands=["7H 9C", "2C", "3C", "4C", "5C"], table="7D 9S", to_move=0
    )
    with pytest.raises(IllegalAction, match="no end_turn"):
        one.apply(Action(0, "end_turn"))


def test_the_turn_ends_by_itself_when_no_capture_is_left(house):
    d = position(
        house["house-any"], 5, hands=["7H 2S", "2C", "3C", "4C", "5C"], table="7D KH", to_move=0
    )
    d.apply(act(0, "capture", "7h", "7d"))
    assert d.to_move == 1 and d.turn_captures == 0


def test_a_claim_between_captures_can_end_the_turn(house):
    # player 0 splits a table prial of nines, then player 2 claims the other two: player 0 has
    # no capture left, so the turn has ended
    d = position(
        house["house-any"],
        5,
        hands=["9C 2S KS", "2C", "3C", "4C", "5C"],
        table="9D 9H 9S KH",
        to_move=0,
    )
    d.apply(act(0, "capture", "9c", "9d"))
    assert d.to_move == 0
    d.apply(act(2, "claim", "9h 9s", oversight="split_prial"))
    assert d.to_move == 0  # the king can still be taken
    d.apply(act(0, "capture", "ks", "kh"))
    assert d.to_move == 1


# --- declarations: pair --------------------------------------------------------------------


def test_any_pair_may_be_declared(house, rulesets):
    d = position(
        house["house-any"], 5, hands=["7H 7S 2S", "2C", "3C", "4C", "5C"], table="KH", to_move=1
    )
    pair = act(0, "declare_pair", "7h 7s")
    assert pair in d.legal_actions(0)
    d.apply(pair)
    assert set(parse_cards("7h 7s")) <= set(d.won_cards(0))
    usual = position(
        rulesets["parlett"], 5, hands=["7H 7S 2S", "2C", "3C", "4C", "5C"], table="KH", to_move=1
    )
    with pytest.raises(IllegalAction, match="no pair declaration"):
        usual.apply(act(0, "declare_pair", "7h 7s"))


def test_without_dead_pair_in_the_set_a_dead_pair_is_declared_as_a_pair(house):
    d = position(
        house["house-pot"],
        5,
        hands=["6D 6S 2S", "2C", "3C", "4C", "5C"],
        table="KH",
        won=["", "6C 6H", "", "", ""],
        to_move=0,
    )
    with pytest.raises(IllegalAction, match="no dead pair declaration"):
        d.apply(act(0, "declare_dead_pair", "6d 6s"))
    assert act(0, "declare_pair", "6d 6s") in d.legal_actions()  # hand_plays: turn


def test_a_laid_down_hand_is_an_oversight_only_if_a_declaration_could_take_it(house):
    # house-most lists laid_down_dead_pair but declares only prials and mournivals: a dead pair
    # laid down is no mistake there; house-any declares dead pairs, so it is one
    for rid, expect in (("house-most", []), ("house-any", ["laid_down_dead_pair"])):
        players = 4 if rid == "house-most" else 5
        hands = ["2D", "6D 6S", "3C", "4C", "5C"][:players]
        d = position(
            house[rid],
            players,
            hands=hands,
            table="KC",
            won=["6C 6H"] + [""] * (players - 1),
            to_move=1,
        )
        d.apply(act(1, "lie_down", "6d 6s"))
        assert [o.kind for o in d.open_oversights()] == expect, rid
    d = position(
        house["house-most"], 4, hands=["2D", "6C 6D 6H 6S", "3C", "4C"], table="KC", to_move=1
    )
    assert act(1, "declare_mournival", "6c 6d 6h 6s") in d.legal_actions(1)


# --- lie_down_pays ----------------------------------------------------------------------------


def test_lying_down_pays_each_player_still_in_from_the_left(house):
    d = position(
        house["house-any"],
        5,
        hands=["2D", "6D", "3C 3D", "4C", ""],
        table="KC",
        won=["", "", "", "", "AC AD"],
        to_move=1,
    )
    d.apply(act(1, "lie_down", "6d"))
    assert d.payments == [(1, 2, 1), (1, 3, 1), (1, 0, 1)]


def test_lying_down_into_the_pot(house):
    d = position(
        house["house-pot"], 5, hands=["2D", "6D", "3C 3D", "4C", "5C"], table="KC", to_move=1
    )
    before = d.pot
    d.apply(act(1, "lie_down", "6d"))
    assert d.pot == before + 1 and d.payments == [(1, None, 1)]


# --- pot scoring ------------------------------------------------------------------------------


def _finish_by_lying_down(d):
    while not d.is_terminal():
        legal = d.legal_actions()
        d.apply(legal[0])
    d.check_invariants()
    return d.result


def test_the_pot_goes_to_the_last_player_in(house):
    pack = list(range(52))
    d = position(
        house["house-pot"],
        5,
        hands=["2D", "6D", "3C", "4C", "5C 5D"],
        table="KC",
        dealer=4,
        to_move=0,
    )
    res = _finish_by_lying_down(d)
    assert res.last_in == 4 and res.pot_to == (4,)
    row = res.settlement[4]
    # the dealer staked 5 and took the pot: 5 antes + 4 lie-down payments into the pot
    assert row.ante == 5 and row.pot_share == 9 and row.net == 4
    assert sum(res.net) == 0 and res.points is None and res.bonus_to is None
    del pack


def test_most_won_ties_split_the_pot_odd_stake_from_eldest(house):
    # house-most, 4 players, dealer 3 (eldest 0): pot 3 + 2 + 2 + 2 = 9
    d = position(
        house["house-most"],
        4,
        hands=["2D", "6D", "3C", "4C"],
        table="KC",
        won=["AC AD", "", "", "QC QD"],
        dealer=3,
        to_move=0,
    )
    res = _finish_by_lying_down(d)
    won = [len(w) for w in res.won]
    best = max(won)
    tied = [q for q in range(4) if won[q] == best]
    assert res.pot_to == tuple(tied)
    shares = {q: res.settlement[q].pot_share for q in tied}
    assert sum(shares.values()) == 9
    if len(tied) == 2:
        first = min(tied, key=lambda q: (q - 0) % 4)
        assert shares[first] == 5 and sum(shares.values()) - shares[first] == 4


# --- records ---------------------------------------------------------------------------------


def test_records_with_end_turn_and_payments_round_trip(house):
    import random

    from tutor.engine.bots import make_bot, play_out
    from tutor.engine.deal import new_deal

    seen_end = seen_pay = False
    for k in range(40):
        rng = random.Random(k)
        d = new_deal(house["house-any"], 5, k % 5, rng)
        play_out(d, [make_bot("counter") for _ in range(5)], rng)
        rec = json.loads(json.dumps(to_record(d)))
        seen_end |= any(a == {"player": a["player"], "action": "end_turn"} for a in rec["actions"])
        seen_pay |= bool(rec["result"]["payments"])
        assert sum(rec["result"]["net"]) == 0
        again = replay(rec, house)
        assert to_record(again) == to_record(d)
    assert seen_end and seen_pay


# --- refusals at load -----------------------------------------------------------------------

BASE = (HOUSE_SOURCES / "house-rules.yaml").read_text()


def _only(ruleset_id: str, edit) -> str:
    """The house file with one ruleset kept (and edited by ``edit``)."""
    head, rest = BASE.split("rulesets:\n", 1)
    blocks = {}
    cur = None
    for line in rest.splitlines(keepends=True):
        if line.startswith("  ") and not line.startswith("    ") and line.strip().endswith(":"):
            cur = line.strip()[:-1]
            blocks[cur] = ""
        blocks[cur] += line
    return head + "rulesets:\n" + edit(blocks[ruleset_id])


@pytest.mark.parametrize(
    "rid,old,new,words",
    [
        (
            "house-any",
            "leftovers_to: {value: dealer,",
            "leftovers_to: {value: nobody,",
            "stakes with leftovers_to: nobody cannot settle",
        ),
        (
            "house-any",
            "lie_down_pays: {value: {stakes: 1, to: each_in_play}",
            "lie_down_pays: {value: {stakes: 1, to: pot}",
            "lie_down_pays into the pot cannot settle",
        ),
        ("house-pairs-pay", "to: each_in_play}", "to: pot}", "pairs scoring has no pot"),
        ("house-pot", "pot_to: {value: last_in,", "pot_to: {value: null,", "pot needs pot_to"),
        (
            "house-pot",
            "bonus_to: {value: null,",
            "bonus_to: {value: last_in,",
            "bonus_to must be null",
        ),
        (
            "house-pot",
            "breakeven: {value: null,",
            "breakeven: {value: 0,",
            "must be null under pot scoring",
        ),
        (
            "house-any",
            "lie_down_pays:",
            "pot_to: {value: last_in, status: chosen, note: x}\n    lie_down_pays:",
            "pot_to is only for scoring: pot",
        ),
        (
            "house-any",
            "captures_per_turn:",
            "captures_each_turn:",
            "the rules model has no parameter 'captures_each_turn'",
        ),
    ],
)
def test_rulesets_that_cannot_settle_are_refused_naming_the_parameters(
    tmp_path, rid, old, new, words
):
    text = _only(rid, lambda block: block.replace(old, new, 1))
    assert text != _only(rid, lambda b: b)
    (tmp_path / "house.yaml").write_text(textwrap.dedent(text))
    with pytest.raises(DataError) as exc:
        load_library([tmp_path])
    assert words in str(exc.value)
    assert "house.yaml:" in str(exc.value)


# --- the template of a new source file -------------------------------------------------------


def test_the_template_names_every_parameter_and_loads_as_it_stands(tmp_path):
    from tutor.engine.parameters import PARAMETERS
    from tutor.engine.template import source_template

    text = source_template("tuesday-club")
    for name in PARAMETERS:
        assert f"{name}: {{value:" in text, name
    (tmp_path / "t.yaml").write_text(text)
    rs = load_library([tmp_path]).rulesets["tuesday-club"]
    assert rs.player_counts == (4, 5) and rs.captures_per_turn == "one"


def test_results_are_counted_in_stakes_wherever_a_pot_settles_them(house):
    """One answer to "stakes or points?" for every view (reviews, analysis, hints): pot scoring
    settles in stakes as stakes scoring does; only pairs scoring counts points."""
    assert {rid: house[rid].unit for rid in ("house-any", "house-pot", "house-pairs-pay")} == {
        "house-any": "stakes",
        "house-pot": "stakes",
        "house-pairs-pay": "points",
    }
    assert house["parlett"].unit == "stakes" and house["inter-livery-2018"].unit == "points"
