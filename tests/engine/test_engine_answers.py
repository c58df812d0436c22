"""The engine answers every rule question its callers used to work out for themselves (issue 18):
which oversight a claim takes or why none, what lying down makes, what a declaration held to the
end cost, an oversight's cards and rank, the rule each parameter value stands for in words, the
grouping of the per-player-count parameters, stakes or points, and the names of the seats."""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import pytest
from support import HOUSE_SOURCES, position

from tutor.engine import parameters as P
from tutor.engine.bots import Careless, make_bot, play_out
from tutor.engine.cards import codes, parse_cards, rank_of
from tutor.engine.deal import Action, Deal, new_deal, one_declaration_per_rank
from tutor.engine.errors import (
    AmbiguousAction,
    DataError,
    IllegalAction,
    IncompleteAction,
    UsageError,
)
from tutor.engine.reasons import Reason, Seat
from tutor.engine.rulesets import scoring_unit
from tutor.engine.seats import SEAT_NAMES, player_name, seat_names
from tutor.engine.sources import load_library

ROOT = Path(__file__).resolve().parents[2]


def act(player, kind, cards="", table="", oversight=None):
    return Action.make(player, kind, parse_cards(cards), parse_cards(table), oversight)


def split_prial(rulesets):
    """Seat 0 splits the table prial of sevens (its own mistake); seat 1 may claim 7D 7S."""
    d = position(
        rulesets["parlett"],
        5,
        hands=["7H 2D", "3C 3D", "4C", "5C", "6C"],
        table="7C 7D 7S 9C",
        to_move=0,
    )
    d.apply(act(0, "capture", "7h", "7c"))
    return d


# --- Oversight: its cards, its rank, the claim that takes it ----------------------------------


def test_an_oversight_gives_its_cards_and_rank(rulesets):
    d = split_prial(rulesets)
    (o,) = d.open_oversights()
    assert o.kind == "split_prial" and o.offender == 0
    assert codes(o.cards) == ["7D", "7S"] and o.rank == 6
    assert o.taken_by(act(1, "claim", "7d 7s", oversight="split_prial"))
    assert not o.taken_by(act(1, "claim", "7d 7s", oversight="laid_down_dead_pair"))
    assert not o.taken_by(act(1, "claim", "7d", oversight="split_prial"))
    assert not o.taken_by(act(1, "capture", "7d", "7s"))


# --- which open oversight a claim takes, or why none -----------------------------------------


def test_claim_target_by_cards_by_rank_and_by_nothing(rulesets):
    d = split_prial(rulesets)
    (o,) = d.open_oversights()
    assert d.claim_target(1, parse_cards("7s 7d")) == o
    assert d.claim_target(1, rank=6) == o
    assert d.claim_target(1) == o
    assert d.claim_target(1, parse_cards("7d 7s"), kind="split_prial") == o
    assert d.claim_action(1, o) == act(1, "claim", "7d 7s", oversight="split_prial")
    assert d.claim_action(1, o, parse_cards("7s 7d")) == d.claim_action(1, o)


def test_claim_target_says_why_none(rulesets):
    d = split_prial(rulesets)
    with pytest.raises(IllegalAction, match=r"^player 0 made that mistake and may not claim it$"):
        d.claim_target(0, parse_cards("7d 7s"))
    with pytest.raises(IllegalAction, match="your own mistake"):
        d.claim_target(0)
    with pytest.raises(IllegalAction, match="no open oversight covers 9♣"):
        d.claim_target(1, parse_cards("9c"))
    with pytest.raises(IllegalAction, match="no open laid down dead pair oversight covers"):
        d.claim_target(1, parse_cards("7d 7s"), kind="laid_down_dead_pair")
    with pytest.raises(IllegalAction, match="no open oversight of nines"):
        d.claim_target(1, rank=8)
    with pytest.raises(IllegalAction, match="no open oversight covers"):
        d.claim_target(1, parse_cards("7d 7s 9c"))  # more cards than the claim takes
    with pytest.raises(IncompleteAction, match="names all 2") as inc:
        d.claim_target(1, parse_cards("7d"))
    assert inc.value.candidates == (act(1, "claim", "7d 7s", oversight="split_prial"),)
    d.apply(act(1, "claim", "7d 7s", oversight="split_prial"))
    with pytest.raises(IllegalAction, match=r"^there is nothing to claim$"):
        d.claim_target(2)


def test_a_claim_lapses_when_fewer_cards_than_it_takes_are_left(rulesets):
    d = position(
        rulesets["porges"], 5, hands=["2C", "3C 3D 3H", "3S 4C", "5C", "6C"], table="9C", to_move=1
    )
    d.apply(act(1, "lie_down", "3c 3d 3h"))
    assert d.claim_target(0, rank=2).kind == "laid_down_prial"
    d.apply(act(2, "capture", "3s", "3c 3d 3h"))
    with pytest.raises(IllegalAction, match="no open oversight of threes"):
        d.claim_target(0, rank=2)


def test_claim_target_after_play_and_without_oversights(rulesets):
    d = position(
        rulesets["wolffauer"], 5, hands=["7H", "2C", "3C", "4C", "5C"], table="7C", to_move=0
    )
    with pytest.raises(IllegalAction, match="lists no oversights"):
        d.claim_target(1)
    d = position(rulesets["parlett"], 5, hands=["7H", "", "", "", "2C"], table="7C 9D", to_move=0)
    d.apply(act(0, "capture", "7h", "7c"))
    assert d.is_terminal()
    with pytest.raises(IllegalAction, match="play has ended"):
        d.claim_target(4)


def test_different_oversights_make_a_bare_claim_ambiguous(rulesets):
    rs = rulesets["porges"]  # all five oversights
    d = position(
        rs, 5, hands=["7H 2D", "3C 3D 3H 8C", "4C", "5C", "6C"], table="7C 7D 7S 9C", to_move=0
    )
    d.apply(act(0, "capture", "7h", "7c"))  # a split prial (seat 0's)
    d.apply(act(1, "lie_down", "3c 3d 3h 8c"))  # a laid-down prial (seat 1's)
    kinds = {o.kind for o in d.open_oversights()}
    assert kinds == {"split_prial", "laid_down_prial"}
    with pytest.raises(AmbiguousAction) as amb:
        d.claim_target(2)
    assert {a.oversight for a in amb.value.candidates} == kinds
    assert d.claim_target(2, rank=2).kind == "laid_down_prial"


def test_the_parser_and_the_checks_ask_claim_target(rulesets):
    d = split_prial(rulesets)
    assert d.parse_action("claim", 1) == d.claim_action(1, d.claim_target(1))
    with pytest.raises(IllegalAction) as exc:
        d.parse_action("claim 9c", 1)
    assert exc.value.text == "claim 9c" and exc.value.reason == "no open oversight covers 9♣"
    with pytest.raises(IncompleteAction) as inc:
        d.parse_action("claim 7d", 1)
    assert inc.value.text == "claim 7d" and inc.value.candidates
    assert (
        d.why_illegal(act(0, "claim", "7d 7s", oversight="split_prial"))
        == "player 0 made that mistake and may not claim it"
    )
    assert (
        d.why_illegal(act(1, "claim", "7d", oversight="split_prial"))
        == "no open split prial oversight covers 7♦"
    )


def test_claim_target_agrees_with_the_legal_claims(house):
    """In random deals under every ruleset, each claim the engine lists takes the oversight
    claim_target names, and that oversight is one the claim is of."""
    rng = random.Random(7)
    checked = 0
    for rid in sorted(house):
        rs = house[rid]
        if not rs.oversights:
            continue
        n = rs.player_counts[0]
        for k in range(6):
            d = new_deal(rs, n, k % n, rng)

            def observe(deal, a):
                nonlocal checked
                for seat in range(deal.players):
                    for c in deal.free_actions(seat):
                        if c.kind == "claim":
                            o = deal.claim_target(seat, c.cards, kind=c.oversight)
                            assert o.taken_by(c) and o.offender != seat
                            checked += 1

            play_out(d, [Careless(make_bot("willughby"), 0.5) for _ in range(n)], rng, observe)
    assert checked > 20


# --- what lying down makes -------------------------------------------------------------------


def test_lie_down_oversights_say_why_or_why_not(rulesets, house):
    d = position(
        rulesets["porges"],
        5,
        hands=["2C", "3C 3D 5C 5D 5H 8C 8D 8H 8S", "4C", "", ""],
        table="9C",
        won=["", "", "", "3H 3S", ""],
        to_move=1,
    )
    found = {f.rank: f for f in d.lie_down_oversights(1)}
    assert set(found) == {2, 4, 7}
    assert found[2][1:] == (2, "laid_down_dead_pair", True, "claimable")
    assert found[4][1:] == (3, "laid_down_prial", True, "claimable")
    assert found[7][1:] == (4, "laid_down_mournival", True, "claimable")
    d = position(
        rulesets["parlett"], 5, hands=["2C", "3C 3D 5C 5D 5H", "4C", "", ""], table="9C", to_move=1
    )
    found = {f.rank: f for f in d.lie_down_oversights(1)}
    assert found[2].why == "live_pair" and not found[2].claimable
    assert found[4].why == "not_listed" and found[4].kind == "laid_down_prial"
    rs = dataclasses.replace(rulesets["porges"], declarations=frozenset({"mournival"}))
    d = position(rs, 5, hands=["2C", "5C 5D 5H 9D", "4C", "", ""], table="9C", to_move=1)
    (f,) = d.lie_down_oversights(1)
    assert (f.kind, f.why) == ("laid_down_prial", "no_declaration")


def test_who_may_claim_and_why_not_are_the_engine_s_words(rulesets):
    """The claim-right sentence is the engine's (issue 43): the offender is told why not, in
    the reader's words; a claimant hears nothing."""
    d = split_prial(rulesets)
    (o,) = d.open_oversights()
    assert d.why_not_claimant(o, 1) is None
    why = d.why_not_claimant(o, 0)
    assert why is not None and why.code == "own_mistake" and why.seats == {"p": 0}
    assert why.words(0) == (
        "that is your own mistake (split prial), and you may not claim it; the others may"
    )
    assert why.words(2, seat_names(5)).startswith("that is Player 0's own mistake")


def test_a_laid_down_finding_says_why_its_cards_are_not_open(rulesets):
    d = position(
        rulesets["parlett"], 5, hands=["2C", "3C 3D 5C 5D 5H", "4C", "", ""], table="9C", to_move=1
    )
    found = {f.rank: f for f in d.lie_down_oversights(1)}
    live = found[2].why_closed(1)
    assert live.code == "live_pair" and live.words(1).startswith("you laid them down as a pair")
    assert "the other two threes were not both among the won cards" in live
    unlisted = found[4].why_closed(1)
    assert unlisted.code == "not_listed" and unlisted.rule == "oversights"
    assert unlisted.words(0, seat_names(5)).startswith("Player 1 laid them down as a prial;")


def test_the_word_on_a_pair_puts_its_deadness_first(rulesets):
    rs = rulesets["parlett"]
    live = position(rs, 3, hands=["3C 3D", "4C", "5C"], table="9C", won=["", "3H", ""], to_move=1)
    assert live.dead_pair_reason(0, 2).code == "live_pair"
    dead = position(rs, 3, hands=["3C 3D", "4C", "5C"], table="9C", won=["3H", "3S", ""], to_move=0)
    word = dead.dead_pair_reason(0, 2)
    assert word.code == "declarable" and word.seat_groups == {"holders": (0, 1)}
    assert word.words(0, seat_names(3)) == (
        "the other two threes are won by you and Player 1, so this pair can never be captured"
    )
    with pytest.raises(UsageError):
        dead.dead_pair_reason(1, 2)


def test_a_pair_that_may_not_be_declared_now_is_the_engine_s_verdict(rulesets):
    """The verdict "the threes may not be declared now (...)" is the engine's (issue 43), the
    reason in brackets said to the same reader as the verdict."""
    rs = rulesets["parlett"]
    live = position(rs, 3, hands=["3C 3D", "4C", "5C"], table="9C", won=["", "3H", ""], to_move=0)
    word = live.why_not_declarable(0, 2)
    assert word is not None and word.code == "not_declarable"
    assert word.words(0) == (
        "the threes may not be declared now (it is not dead: the other two threes are not "
        "both among the won cards)"
    )
    dead = position(rs, 3, hands=["3C 3D", "4C", "5C"], table="9C", won=["3H", "3S", ""], to_move=0)
    assert dead.dead_pair_declarable(0, 2) is not None
    assert dead.why_not_declarable(0, 2) is None
    given = dead.why_not_declarable(0, 2, Reason("{p:@ holds|you hold} them", p=Seat(0)))
    assert given is not None and given.code == "not_declarable"
    assert given.words(0).endswith("(you hold them)")
    assert given.words(1, seat_names(3)).endswith("(Player 0 holds them)")


def test_no_capture_at_risk_is_the_engine_s_verdict(rulesets):
    """ "Every capture you can make now will still be there" is the engine's (issue 43), said
    only where there are captures and none is at risk."""
    rs = rulesets["parlett"]
    safe = position(rs, 3, hands=["3C 4C", "5C", "6C"], table="3D 3H 4D 4H", to_move=0)
    assert safe.capture_options(0) and not any(o.at_risk for o in safe.capture_options(0))
    word = safe.nothing_at_risk(0)
    assert word is not None and word.code == "all_safe"
    assert word.words(0) == (
        "every capture you can make now will still be there at your next turn, so you may "
        "take any of them"
    )
    assert word.words(1, seat_names(3)).startswith("every capture Player 0 can make now")
    risky = position(rs, 3, hands=["3C 4C", "5C 6C", "7C 8C"], table="3D 4D 4H", to_move=0)
    assert any(o.at_risk for o in risky.capture_options(0))
    assert risky.nothing_at_risk(0) is None
    assert safe.nothing_at_risk(1) is None  # no capture at all


def test_lying_down_makes_what_lie_down_oversights_said(house):
    """The fast path of apply and the public answer are one rule: replaying random deals, every
    lie-down that does not end play opens exactly the claims lie_down_oversights named just
    before it."""
    rng = random.Random(11)
    lie_downs = opened = 0
    for rid in sorted(house):
        rs = house[rid]
        n = rs.player_counts[-1]
        for k in range(8):
            played = play_out(
                new_deal(rs, n, k % n, rng),
                [Careless(make_bot("willughby"), 0.6) for _ in range(n)],
                rng,
            )
            d = Deal(rs, n, played.dealer, played.pack)
            for i, a in enumerate(played.history):
                if a.kind == "lie_down":
                    said = {
                        (f.rank, f.kind) for f in d.lie_down_oversights(a.player) if f.claimable
                    }
                    d.apply(a)
                    if d.phase != "play":
                        continue  # play ended with it: every claim lapsed
                    made = {(o.rank, o.kind) for o in d.oversights if o.index == i}
                    assert made == said, (rid, i)
                    lie_downs += 1
                    opened += bool(made)
                else:
                    d.apply(a)
    assert lie_downs > 50 and opened > 5


# --- a declaration held to the end -----------------------------------------------------------


def _end_with(rs, hands, table, won=None, dealer=0, to_move=2):
    d = Deal.from_position(
        rs,
        5,
        dealer,
        hands=[parse_cards(h) for h in hands],
        table=parse_cards(table),
        won=[parse_cards(w) for w in (won or [""] * 5)],
        to_move=to_move,
        complete=False,
    )
    return d


def test_a_prial_held_to_the_end_costs_its_pair_when_the_leftovers_go_elsewhere(rulesets):
    d = _end_with(rulesets["parlett"], ["", "7C 7D 7H 2S", "4C", "", ""], "4D 9H")
    d.apply(act(2, "capture", "4c", "4d"))
    res = d.result
    assert res.last_in == 1 and res.leftovers_to == 0
    (held,) = res.held_declarations
    assert held.action.kind == "declare_prial" and held.action.player == 1
    assert held.cost == 2


def test_nothing_is_lost_when_the_leftovers_come_back(rulesets):
    d = _end_with(rulesets["parlett-tournament"], ["", "7C 7D 7H 7S", "4C", "", ""], "4D 9H")
    d.apply(act(2, "capture", "4c", "4d"))
    (held,) = d.result.held_declarations
    assert held.action.kind == "declare_mournival" and held.cost == 0
    d = _end_with(rulesets["parlett"], ["7C 7D 7H 2S", "", "4C", "", ""], "4D 9H")
    d.apply(act(2, "capture", "4c", "4d"))  # the dealer is last in: the leftovers are theirs
    assert [h.cost for h in d.result.held_declarations] == [0]


def test_a_pair_made_dead_by_the_last_action_was_never_declarable(rulesets):
    d = _end_with(rulesets["parlett"], ["", "5C 5D 2S", "5H", "", ""], "5S 9H")
    d.apply(act(2, "capture", "5h", "5s"))
    assert d.result.last_in == 1 and d.result.held_declarations == ()
    d = _end_with(
        rulesets["parlett"], ["", "5C 5D 2S", "4C", "", ""], "4D 9H", won=["", "", "", "5H 5S", ""]
    )
    d.apply(act(2, "capture", "4c", "4d"))
    (held,) = d.result.held_declarations
    assert held.action.kind == "declare_dead_pair" and held.cost == 2


def test_declarations_that_are_turns_are_never_held_this_way(rulesets):
    d = _end_with(rulesets["wolffauer"], ["", "7C 7D 7H 2S", "4C", "", ""], "4D 9H")
    d.apply(act(2, "capture", "4c", "4d"))
    assert d.result.held_declarations == ()


def test_playing_on_can_win_back_some_of_the_cards(rulesets):
    rs = rulesets["inter-livery-2018"]  # plays on; leftovers to nobody
    for play, cost in (("7c 7d 7h", 0), ("7c", 1)):
        d = _end_with(rs, ["", "7C 7D 7H 2S", "4C", "", ""], "4D 7S")
        d.apply(act(2, "capture", "4c", "4d"))
        assert d.phase == "play_on"
        d.apply(act(1, "play_on_capture", play, "7s"))
        (held,) = d.result.held_declarations
        assert (held.action.kind, held.cost) == ("declare_prial", cost)


def test_push_and_pop_take_the_held_declarations_back(rulesets):
    d = _end_with(rulesets["parlett"], ["", "7C 7D 7H 2S", "4C", "", ""], "4D 9H")
    d.push(act(2, "capture", "4c", "4d"))
    assert d.result.held_declarations
    d.pop()
    assert d.result is None and d.phase == "play"
    d.apply(act(2, "capture", "4c", "4d"))
    assert [h.cost for h in d.result.held_declarations] == [2]


# --- the rules in words: the parameter table ---------------------------------------------------


def test_the_settlement_rule_per_scoring():
    assert (
        P.settlement_rule("stakes", breakeven=8)
        == "1 stake per 2 won cards above or below the breakeven of 8"
    )
    assert P.settlement_rule("pairs") == "1 point per pair won"
    assert P.settlement_rule("pot", pot_to="last_in") == "the whole pot to the last player in"
    assert P.settlement_rule("pot", pot_to="most_won") == "the whole pot to whoever won most cards"
    assert P.settlement_formula("stakes", breakeven=8) == "(won − 8) / 2"
    assert P.settlement_formula("stakes", breakeven=10, won=12) == "(12 − 10) / 2"
    assert P.settlement_formula("pairs", bonus=True) == "won ÷ 2 + bonus"
    assert P.settlement_formula("pot") is None
    assert P.seat_working("stakes", breakeven=8, for_cards="+2") == "against a breakeven of 8: +2"
    assert P.seat_working("pairs", won=12, points=6) == "12 ÷ 2 = 6"
    assert P.seat_working("pot", pot_share=11) == "the pot +11"
    with pytest.raises(UsageError):
        P.settlement_rule("points")


def test_every_scoring_and_every_oversight_has_its_rule():
    scoring = P.spec("scoring")
    assert set(scoring.rules) == set(scoring.values) == set(scoring.workings)
    for kind in P.OVERSIGHT_KINDS:
        text = P.rule_words("oversights", kind, who="Anne")
        assert "the first claim takes" in text and " while " in text, kind
        assert "Anne" in text
    assert P.rule_words("oversights", "split_prial", who="Anne") == (
        "Anne captured one card of a table prial where one card may take all three; the first "
        "claim takes the two left, while both are still on the table"
    )


def test_every_declaration_says_why_it_could_be_made():
    for name in P.DECLARATION_KINDS:
        text = P.rule_words("declarations", name, ranks="sevens", action=f"declare_{name}")
        assert "sevens" in text and "declare_" not in text, name  # no code a learner meets
    assert (
        P.rule_words("declarations", "prial", ranks="sevens", action="declare_prial")
        == "two of the three sevens could be declared, keeping the third"
    )


def test_one_declaration_a_rank_the_most_specific():
    decls = [
        act(0, "declare_pair", "7c 7d"),
        act(0, "declare_prial", "7c 7d"),
        act(0, "declare_mournival", "9c 9d 9h 9s"),
        act(0, "declare_prial", "9c 9d"),
        act(0, "declare_dead_pair", "2c 2d"),
        act(0, "declare_pair", "2c 2d"),
    ]
    assert [a.kind for a in one_declaration_per_rank(decls)] == [
        "declare_dead_pair",
        "declare_prial",
        "declare_mournival",
    ]


def test_who_each_value_names():
    assert P.value_who("bonus_to", "last_in") == "the last player in"
    assert P.value_who("bonus_to", "last_pair") == "whoever made the last capture"
    assert P.value_who("pot_to", "most_won") == "whoever won most cards"
    assert P.value_who("leftovers_to", "nobody") == "nobody (they are discarded)"
    for name in ("bonus_to", "pot_to", "leftovers_to"):
        s = P.spec(name)
        assert set(s.values) <= set(s.who), name
    with pytest.raises(UsageError):
        P.value_who("scoring", "stakes")


def test_the_per_player_count_grouping():
    names = [p for g in P.COUNT_GROUPS for p in g.parameters]
    assert sorted(names) == sorted(P.COUNT_PARAMETERS) and len(names) == len(set(names))
    assert P.count_section("deal") == ("hand", "table")
    assert P.count_section("stakes") == ("ante_dealer", "ante_other", "last_in_bonus", "breakeven")
    assert [g.name for g in P.COUNT_GROUPS] == ["hand", "table", "ante", "bonus", "breakeven"]
    with pytest.raises(UsageError):
        P.count_section("pot")


# --- stakes or points; unknown values never pass -----------------------------------------------


def test_has_stakes_per_scoring(house):
    for rs in house.values():
        assert rs.has_stakes == (rs.scoring in ("stakes", "pot"))
        assert rs.unit == ("stakes" if rs.has_stakes else "points") == scoring_unit(rs.scoring)
    with pytest.raises(DataError):
        scoring_unit("points")


@pytest.mark.parametrize(
    "name", [n for n in P.RULESET_PARAMETERS if P.spec(n).kind in ("enum", "set")]
)
def test_a_ruleset_built_in_code_refuses_an_unknown_value(rulesets, name):
    bad = frozenset({"nonsense"}) if P.spec(name).kind == "set" else "nonsense"
    with pytest.raises(DataError, match=f"{name}: 'nonsense' is not one of"):
        dataclasses.replace(rulesets["parlett"], **{name: bad})


@pytest.mark.parametrize(
    "name", [n for n in P.RULESET_PARAMETERS if P.spec(n).kind in ("enum", "set")]
)
def test_a_source_file_with_an_unknown_value_is_refused_on_loading(tmp_path, name):
    text = (HOUSE_SOURCES / "house-rules.yaml").read_text(encoding="utf-8")
    pattern = re.compile(rf"^(    {name}: {{value: )(\[[^\]]*\]|[^,]+),", re.MULTILINE)
    assert pattern.search(text), name
    bad = "[nonsense]" if P.spec(name).kind == "set" else "nonsense"
    (tmp_path / "bad.yaml").write_text(
        pattern.sub(rf"\g<1>{bad},", text, count=1), encoding="utf-8"
    )
    with pytest.raises(DataError) as exc:
        load_library([tmp_path])
    assert f"{name}.value" in str(exc.value) and "'nonsense' is not one of" in str(exc.value)


def test_no_caller_reads_the_scoring_as_stakes_or_not():
    """Outside the engine, stakes or points is ``Ruleset.has_stakes`` (or ``unit``): nobody
    compares the scoring with "pairs" (where an unknown value would pass for stakes)."""
    pattern = re.compile(r"scoring\s*(?:!=|==)\s*[\"']pairs[\"']|scoring\s+(?:not\s+)?in\s*[(\[{]")
    found = []
    for room in ("puzzles", "teaching", "app"):
        for path in sorted((ROOT / "tutor" / room).rglob("*.py")):
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{i}: {line.strip()}")
    assert found == []


# --- the seats' names --------------------------------------------------------------------------


def test_one_seat_names_for_every_table():
    assert seat_names(3, 1) == ["Player 0", "you (Player 1)", "Player 2"]
    assert seat_names(3) == [player_name(q) for q in range(3)]
    assert seat_names(4, 2, style="named") == ["Ralph", "Mary", "You", "Anne"]
    assert seat_names(5, style="dealer") == ["dealer", "eldest", "dealer+2", "dealer+3", "dealer+4"]
    for bad in (dict(style="named"), dict(style="nope")):
        with pytest.raises(UsageError):
            seat_names(4, **bad)
    with pytest.raises(UsageError):
        seat_names(len(SEAT_NAMES) + 2, 0, style="named")


def test_the_old_homes_of_seat_names_call_the_engine():
    from tutor.engine import levels, simulate
    from tutor.puzzles import base

    assert levels.seat_names(4, 2) == seat_names(4, 2, style="named")
    assert simulate.seat_names(4) == seat_names(4, style="dealer")
    assert base.seat_names(4, 0) == seat_names(4, 0)


def test_laid_down_still_open_says_whether_a_lie_down_s_claim_would_be_open_now(rulesets):
    """A pair laid down stays open to a claim while both its cards lie on the table (RULES.md
    4); the engine says so of any earlier lie-down, made an oversight or not, for the drill's
    positions where a later action leaves the pair whose count decides (issue 42)."""
    three = rank_of(parse_cards("3C")[0])
    d = position(
        rulesets["parlett"],
        5,
        hands=["2C", "3C 3D", "9D 4C", "4D", "5C"],
        table="9C",
        won=["", "", "", "3H 3S", ""],
        to_move=1,
    )
    d.apply(act(1, "lie_down", "3c 3d"))
    assert d.laid_down_still_open(0, three)
    d.apply(act(2, "capture", "9d", "9c"))  # a later capture of another rank
    assert d.laid_down_still_open(0, three)
    assert [o.kind for o in d.open_oversights()] == ["laid_down_dead_pair"]
    d.apply(act(3, "claim", "3c 3d", oversight="laid_down_dead_pair"))
    assert not d.laid_down_still_open(0, three)  # claimed: no longer on the table
    with pytest.raises(UsageError):
        d.laid_down_still_open(1, three)  # a capture, not a lie-down
    with pytest.raises(UsageError):
        d.laid_down_still_open(0, rank_of(parse_cards("9C")[0]))
    # a live pair laid down: no oversight, but its cards would still be open
    d = position(
        rulesets["parlett"],
        5,
        hands=["2C", "3C 3D", "9D 4C", "4D", "5C 3H"],
        table="9C",
        won=["", "", "", "3S", ""],
        to_move=1,
    )
    d.apply(act(1, "lie_down", "3c 3d"))
    d.apply(act(2, "capture", "9d", "9c"))
    assert not d.open_oversights() and d.laid_down_still_open(0, three)


def test_the_capture_dead_pair_and_claim_verdicts_are_the_engine_s_words(rulesets):
    """The rule sentences the puzzles say (issue 43): a rank that is no capture now, a dead pair
    that may be declared, cards open to a claim, when a declaration may be made, how many
    captures a turn holds; each in the reader's words."""
    d = position(
        rulesets["parlett"],
        3,
        hands=["2C", "7C 7D 9C", "3C"],
        table="9D",
        won=["7H 7S", "", ""],
        to_move=1,
    )
    assert d.why_no_capture(1, 8) is None  # the nines
    no = d.why_no_capture(1, 6)
    assert no is not None and no.code == "no_capture"
    assert no.words(1) == "you cannot capture sevens now"
    assert no.words(0, seat_names(3)) == "Player 1 cannot capture sevens now"
    dead = d.dead_pair_declarable(1, 6)
    assert dead is not None and dead.code == "declarable"
    assert dead.words(1) == "the sevens are a dead pair you may declare"
    assert d.dead_pair_declarable(0, 1) is None  # no pair of twos
    assert d.claim_open(1, 8) is None  # nothing to claim
    game = rulesets["parlett"].game()
    assert game.declaration_timing.endswith("is a free action: it need not wait for your turn")
    assert game.capture_limit == "you can make only one capture this turn"
    assert rulesets["wolffauer"].game().declaration_timing == (
        "under this ruleset a declaration takes your turn"
    )


def test_cards_open_to_a_claim_are_said_so_by_the_engine(rulesets):
    d = split_prial(rulesets)
    (o,) = d.open_oversights()
    opened = d.claim_open(1, o.rank)
    assert opened is not None and opened.code == "claimable"
    assert opened.words(1) == "open to your claim"
    assert d.claim_open(0, o.rank) is None  # its own mistake
