"""Every puzzle kind under the house rules of RULES.md 3.6 (several captures a turn with
end_turn, any pair declared, lying down that pays, the whole pot to one winner): it works, or it
says in one line why it does not apply."""

from __future__ import annotations

from pathlib import Path

import pytest
from puzzle_checks import SLOW_KINDS, check_puzzle

import tutor.puzzles as P
from tutor.engine.sources import default_library, set_extra_dirs

HOUSE = Path(__file__).resolve().parent.parent / "data" / "sources"
HOUSE_RULESETS = ("house-any", "house-pot", "house-most", "house-pairs-pay")

#: The kinds that do not apply, by ruleset, and a word of the reason each gives.
NOT_APPLICABLE = {
    ("capture-now", "house-any"): "one turn",
    ("capture-now", "house-pot"): "one turn",
    ("dead-pair", "house-any"): "any pair",
    ("dead-pair", "house-pot"): "any pair",
    ("dead-pair", "house-most"): "no dead-pair",
    ("keep", "house-any"): "any pair",
    ("keep", "house-pot"): "any pair",
    **{("reading", r): "sentence" for r in HOUSE_RULESETS},
    **{("score-sheet", r): "score sheet" for r in HOUSE_RULESETS},
}


@pytest.fixture(scope="module")
def house_library():
    set_extra_dirs([HOUSE])
    try:
        yield default_library()
    finally:
        set_extra_dirs([])


@pytest.mark.parametrize("kind", P.KINDS)
def test_every_kind_works_or_says_why_not(kind, house_library):
    applicable = set(P.applicable_rulesets(kind))
    for rid in HOUSE_RULESETS:
        rs = house_library.rulesets[rid]
        why = P.not_applicable(kind, rs)
        if (kind, rid) in NOT_APPLICABLE:
            assert why and "\n" not in why and NOT_APPLICABLE[(kind, rid)] in why, (kind, rid)
            assert rid not in applicable
            with pytest.raises(Exception) as exc:
                P.generate(kind, rid, rs.player_counts[0], 1)
            assert why in str(exc.value)
            continue
        assert why is None and rid in applicable, (kind, rid, why)
        slow = kind in SLOW_KINDS  # one puzzle, at the largest player count
        for n in rs.player_counts[-1:] if slow else rs.player_counts:
            for s in range(1 if slow else 3):
                check_puzzle(P.generate(kind, rid, n, s), quotes=False)


def test_house_rules_reach_the_puzzles(house_library):
    themes = set()
    for s in range(40):
        themes |= set(P.generate("legal-play", "house-any", 5, s).themes)
    assert {"end-turn", "declare-pair"} <= themes
    pot = P.generate("settlement", "house-pot", 5, 2)
    assert "the whole pot goes to" in pot.explanation and "net" in pot.answer
    assert sum(pot.answer["net"]) == 0
    paid = next(
        p
        for p in (P.generate("settlement", "house-pairs-pay", 5, s) for s in range(30))
        if "lie-down-pays" in p.themes
    )
    assert "paid −" in paid.explanation and "points" in paid.answer
    setup = next(
        p
        for p in (P.generate("deal-setup", "house-most", 4, s) for s in range(40))
        if p.answer["asked"] == ["breakeven"]
    )
    assert setup.answer["breakeven"] is None and setup.grade("none").correct
    assert P.needs(setup) is None  # pot scoring: a house rule no lesson teaches
    assert P.taught_in("legal-play", "end-turn") is None  # no lesson teaches it


def test_settlement_hints_and_nudges_follow_the_scoring(house_library):
    """The hints name a lie-down payment where the ruleset has one (and stay as they were where
    it has none), and the nudge after a wrong answer names what this scoring settles first."""
    from tutor.puzzles.answers import grade, wrong_answer

    paying = P.generate("settlement", "house-any", 5, 3)
    assert (
        "Lying down pays 1 stake to each player still in, and those payments are in the "
        "results too."
    ) in " ".join(paying.hints)
    plain = P.generate("settlement", "parlett", 5, 3)
    assert "Lying down" not in " ".join(plain.hints)
    assert "plus the bonus of 5 for its winner. The results add up to 0." in " ".join(plain.hints)
    pot = P.generate("settlement", "house-pot", 5, 2)
    nudge = grade(pot, wrong_answer(pot)).retry
    assert "settle the leftovers and who takes the pot first" in nudge and "bonus" not in nudge
    off = " ".join(
        str(v + (1 if i == 0 else 0))
        for i, v in enumerate(plain.answer["net"][q] for q in plain.answer["asked"])
    )
    assert "settle the leftovers and the bonus first" in grade(plain, off).retry
    # a result that leaves out a part of the settlement is told which part (issue 24)
    you = next(
        p
        for p in (P.generate("settlement", "parlett", 5, s) for s in range(40))
        if len(p.answer["asked"]) == 1 and p.answer["asked"][0] != p.deal().dealer
    )
    v = you.answer["net"][you.answer["asked"][0]]
    assert grade(you, f"{v + 2:+d}").retry == "Not yet: the ante is left out."


def test_the_which_source_pool_belongs_to_the_library_in_use(monkeypatch):
    """The pool is kept for the library it was made from, never for another one (a library
    made later could sit at the same address: the cache holds it weakly, not by id)."""
    from tutor.engine.sources import load_library
    from tutor.puzzles.kinds import source_quiz as SQ

    monkeypatch.setattr(SQ, "id", lambda obj: 0, raising=False)  # every address the same
    first = default_library()
    assert all(first.sources.get(s.id) is s for s, _ in SQ.which_pool())
    other = load_library()
    monkeypatch.setattr(SQ, "library", lambda: other)
    pool = SQ.which_pool()
    assert pool and all(other.sources.get(s.id) is s for s, _ in pool)
    assert SQ.which_pool() is pool
