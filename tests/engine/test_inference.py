"""The expert's inference from declarations: ``counter`` and ``willughby`` players declare as
soon as the rules let them, so at a turn no opponent holds anything it could declare.  The
determinizations that assume it (``Determinizer(undeclared=True)``) never deal such a hand, and
the assumption never excludes the true hands in play against those players; it is off unless
asked for (hints, reviews and puzzles assume nothing about the opponents)."""

from __future__ import annotations

import random

import pytest

from tutor.engine.analysis import Determinizer, analyse, played_from_hand
from tutor.engine.bots import make_bot, play_out
from tutor.engine.deal import new_deal
from tutor.engine.expert import ExpertBot
from tutor.engine.rule_bots import Bot, rule_bot


class _Watch(Bot):
    """A counter player that records, at each of its turns with a choice, whether the
    opponents' true hands break what the undeclared determinizations assume, and keeps the
    position."""

    def __init__(self):
        self.inner = rule_bot("counter")
        self.violations = 0
        self.past = 0
        self.positions = []

    def choose(self, deal, legal, rng):
        if len(legal) > 1:
            seat = deal.to_move
            det = Determinizer(deal, seat, undeclared=True)
            self.violations += not det.fits({q: deal.hands[q] for q, _ in det.opponents})
            self.past += sum(1 for p in det.past if p)
            self.positions.append(deal.clone())
        return self.inner.choose(deal, legal, rng)

    def free_action(self, deal, seat, rng):
        return self.inner.free_action(deal, seat, rng)


@pytest.mark.parametrize("opponent", ["counter", "willughby"])
def test_opponents_never_hold_a_declaration_at_a_turn(rulesets, opponent):
    rs = rulesets["parlett"]
    watch = _Watch()
    for k in range(12):
        rng = random.Random(f"infer/{k}")
        d = new_deal(rs, 5, k % 5, rng)
        play_out(d, [watch] + [make_bot(opponent) for _ in range(4)], rng)
    assert len(watch.positions) > 30 and watch.past > 30
    assert watch.violations == 0


def test_undeclared_deals_give_no_opponent_a_declaration(rulesets):
    rs = rulesets["parlett"]
    d = new_deal(rs, 5, 0, random.Random("infer/deal"))
    seat = d.to_move
    plain, fitted = Determinizer(d, seat), Determinizer(d, seat, undeclared=True)
    rng = random.Random(3)
    opponents = [q for q in range(d.n) if q != seat]
    loose = 0
    for _ in range(60):
        x = fitted.deal(rng)
        assert not any(x.could_declare(x.hands[q]) for q in opponents)
        assert fitted.fits({q: x.hands[q] for q in opponents})
        assert x.hands[seat] == d.hands[seat] and x.table == d.table
        y = plain.deal(rng)
        loose += any(y.could_declare(y.hands[q]) for q in opponents)
    assert loose > 5  # the assumption says something: plain deals often break it


def test_undeclared_is_ignored_where_declarations_are_turns(rulesets):
    d = new_deal(rulesets["wolffauer"], 4, 0, random.Random(1))
    assert not Determinizer(d, d.to_move, undeclared=True).undeclared


def test_the_analysis_and_the_expert_assume_nothing_by_default(rulesets):
    d = _Watch()
    rng = random.Random("infer/default")
    deal = new_deal(rulesets["parlett"], 5, 0, rng)
    play_out(deal, [d] + [make_bot("counter") for _ in range(4)], rng)
    pos = d.positions[2]
    seat = pos.to_move
    plain = analyse(pos, seat, samples=40, seed=1, which="turn").to_json()
    off = analyse(pos, seat, samples=40, seed=1, which="turn", undeclared=False).to_json()
    on = analyse(pos, seat, samples=40, seed=1, which="turn", undeclared=True).to_json()
    for x in (plain, off, on):
        x.pop("seconds")
    assert plain == off and plain != on
    assert ExpertBot().infer is False


def test_the_cards_played_from_hand_count_from_the_first_turn(rulesets):
    rng = random.Random("infer/played")
    d = new_deal(rulesets["parlett"], 5, 0, rng)
    play_out(d, [make_bot("counter") for _ in range(5)], rng)
    played = played_from_hand(d)
    first = next(i for i, a in enumerate(d.history) if a.kind in ("capture", "lie_down"))
    for q in range(5):
        want = 0
        for a in d.history[first:]:
            if a.player == q and (a.kind == "capture" or a.kind.startswith("declare")):
                for c in a.cards:
                    want |= 1 << c
        assert played.get(q, 0) == want
    assert sum(1 for a in d.history[:first] if a.kind.startswith("declare")) or any(played.values())
