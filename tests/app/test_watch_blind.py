"""The watch prompt is blind (issue 30 item 1): ``hint`` and a partial naming of a claim get
byte-identical replies whether or not an oversight is open, as a live table's server judges them;
a claim made after a hint in the deal is said to be with a hint and counts in no figure."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console
from support import position

from tutor.app.clock import FakeClock
from tutor.app.learner_io import ScriptedIO
from tutor.app.play import DealPlayer
from tutor.app.play.practice_deal import WATCH_PROMPT
from tutor.engine.bots import Bot
from tutor.engine.cards import parse_cards
from tutor.engine.deal import Action
from tutor.engine.race import Reaction

NAMES = ["You", "Anne", "Ralph", "Mary"]


class First(Bot):
    """A computer player that makes the first legal move."""

    def choose(self, deal, legal, rng):
        return legal[0]


def split(rulesets):
    """Parlett, 3 players, after Anne (seat 1) split the table prial of sevens: the split prial
    open to the learner (seat 0), Ralph (seat 2) to move."""
    d = position(
        rulesets["parlett"],
        3,
        hands=["2C 3D", "7H 4C", "5D 6D 9S"],
        table="7C 7D 7S 5C 9H",
        dealer=0,
        to_move=1,
    )
    d.apply(Action.make(1, "capture", parse_cards("7H"), parse_cards("7C")))
    assert [o.kind for o in d.open_oversights()] == ["split_prial"]
    return d


def mournival(rulesets):
    """Porges, 4 players, after Anne lay down holding all four nines: the laid-down mournival
    (a claim takes all four) open to the learner, Ralph to move."""
    d = position(
        rulesets["porges"],
        4,
        hands=["2C 3D", "9C 9D 9H 9S", "5D 6D 8S", "KD QS"],
        table="4C 5C JH",
        dealer=0,
        to_move=1,
    )
    d.apply(Action.make(1, "lie_down", parse_cards("9C 9D 9H 9S")))
    assert [o.kind for o in d.open_oversights()] == ["laid_down_mournival"]
    return d


def reply(deal, lines: list[str]) -> str:
    """What the program says to ``lines`` typed at the watch prompts of ``deal`` (the learner at
    seat 0), from the first line to the prompt after the last (then the learner quits)."""
    out = Console(file=io.StringIO(), width=80, color_system=None, highlight=False)
    marks: list[int] = []
    todo = list(lines)

    def answer(prompt):
        assert prompt == WATCH_PROMPT or marks, prompt
        marks.append(len(out.file.getvalue()))
        return todo.pop(0) if todo else "quit"

    n = deal.n
    p = DealPlayer(
        deal,
        0,
        [None] + [First() for _ in range(n - 1)],
        bot_rng=random.Random(1),
        reaction_rng=random.Random(2),
        io=ScriptedIO(answer, out, FakeClock()),
        names=NAMES[:n],
        claiming={q: Reaction(9, 9) for q in range(1, n)},
    )
    p.run()
    return out.file.getvalue()[marks[0] : marks[len(lines)]]


@pytest.mark.parametrize("make", [split, mournival])
def test_the_watch_prompts_hint_is_the_same_with_and_without_an_open_oversight(rulesets, make):
    d = make(rulesets)
    shut = d.clone(oversights=False)  # the same board, nothing open
    assert not shut.open_oversights()
    said = reply(d, ["hint"])
    assert said == reply(shut, ["hint"])
    assert "Hint" in said and "claim" not in said.lower()


@pytest.mark.parametrize(
    "make, lines",
    [
        (split, ["claim 7d"]),  # one card of the split prial
        (split, ["claim 7d", "7s"]),  # ... then one more is no claim either
        (mournival, ["claim 9c 9d"]),  # two of the four a claim takes
        (mournival, ["claim 9c", "claim 9c 9d 9h"]),  # one, then three
    ],
)
def test_a_partial_naming_gets_the_same_reply_with_and_without_an_open_oversight(
    rulesets, make, lines
):
    d = make(rulesets)
    said = reply(d, lines)
    assert said == reply(d.clone(oversights=False), lines)
    assert "claimed first" not in said
    assert not any(a.kind == "claim" for a in d.history)  # nothing taken


def test_a_claim_after_a_hint_is_said_with_a_hint_and_counts_in_no_figure(rulesets):
    out = Console(file=io.StringIO(), width=80, color_system=None, highlight=False)
    lines = ["hint", "claim 7d 7s"]
    p = DealPlayer(
        split(rulesets),
        0,
        [None, First(), First()],
        bot_rng=random.Random(1),
        reaction_rng=random.Random(2),
        io=ScriptedIO(lambda prompt: lines.pop(0) if lines else "quit", out, FakeClock()),
        names=NAMES[:3],
        claiming={1: Reaction(9, 9), 2: Reaction(9, 9)},
    )
    p.run()
    text = " ".join(out.file.getvalue().split())
    assert p.races and p.races[0].winner == 0 and p.races[0].hinted
    assert "with a hint this deal: the claim counts in no figure, best or rating" in text
    assert not p.sightings and not p.opportunities


def test_a_claim_without_a_hint_counts(rulesets):
    lines = ["claim 7d 7s"]
    out = Console(file=io.StringIO(), width=80, color_system=None, highlight=False)
    p = DealPlayer(
        split(rulesets),
        0,
        [None, First(), First()],
        bot_rng=random.Random(1),
        reaction_rng=random.Random(2),
        io=ScriptedIO(lambda prompt: lines.pop(0) if lines else "quit", out, FakeClock()),
        names=NAMES[:3],
        claiming={1: Reaction(9, 9), 2: Reaction(9, 9)},
    )
    p.run()
    assert not p.races[0].hinted
    assert [(s.outcome, s.kind) for s in p.sightings] == [("hit", "split_prial")]
