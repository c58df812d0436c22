"""Explanations say a rule's status as the lessons mark it (issue 42, 7): a value the source
states is said plainly; a value read from its words or chosen where it is silent or contradicts
itself carries "(read: ...)" or "(chosen: ...)", never a plain fact.  Before, the end-of-play
explanation said "under this ruleset they go to nobody" for the Inter-Livery sheet, whose
leftovers rule is the tutor's choice."""

from __future__ import annotations

import pytest

from tutor import puzzles as P
from tutor.engine.parameters import status_mark
from tutor.engine.sources import default_library


def test_status_mark_marks_read_and_chosen_only():
    assert status_mark("stated") == ""
    assert status_mark("read").startswith(" (read: ")
    assert status_mark("chosen").startswith(" (chosen: ")
    with pytest.raises(KeyError):
        status_mark("guessed")


@pytest.mark.parametrize("ruleset", ["inter-livery-2018", "parlett-tournament", "parlett"])
def test_end_of_play_explanations_mark_the_leftovers_status(ruleset):
    lib = default_library()
    status = lib.parameter(ruleset, "leftovers_to").status
    for seed in range(3):
        p = P.generate("end-of-play", ruleset, 5, seed)
        line = next(x for x in p.explanation.splitlines() if "leftovers" in x)
        if status == "stated":
            assert "(read:" not in line and "(chosen:" not in line, line
        else:
            assert f"({status}: " in " ".join(p.explanation.split()), p.explanation


@pytest.mark.parametrize(
    "ruleset", ["inter-livery-2018", "parlett-tournament", "porges", "parlett"]
)
def test_settlement_explanations_mark_the_leftovers_and_bonus_status(ruleset):
    lib = default_library()
    for seed in range(4):
        p = P.generate("settlement", ruleset, 5, seed)
        first = " ".join(p.explanation.split("Player by player")[0].split())
        for name, word in (("leftovers_to", "leftovers"), ("bonus_to", "bonus")):
            status = lib.parameter(ruleset, name).status
            part = first.split(f"The {word}" if word == "leftovers" else "the bonus")[1]
            part = part.split(", and")[0] if word == "leftovers" else part
            if status == "stated" or "goes to nobody" in part:
                assert "(read:" not in part and "(chosen:" not in part, part
            else:
                assert f"({status}: " in part, part


@pytest.mark.parametrize(
    "ruleset,players", [("parlett", 5), ("wolffauer", 4), ("inter-livery-2018", 5)]
)
def test_the_dead_pair_hint_says_the_declaration_rule_with_its_status(ruleset, players):
    status = default_library().parameter(ruleset, "hand_plays").status
    p = P.generate("dead-pair", ruleset, players, 1)
    rule = next(h for h in p.hints if h.startswith("Under this ruleset"))
    assert (f"({status}: " in rule) == (status != "stated"), rule
