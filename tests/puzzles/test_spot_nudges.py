"""The nudge of a spot-the-oversight puzzle (issue 45, finding 1): after a first ``nothing``
where something is open to the learner, it points at the moment the engine says the open
mistake arose, for its kind (the deal for a table mournival, the capture that split a prial, the
lie-down that left a pair, prial or mournival), never at another place and never at the cards
the claim takes; where nothing is open, a nudge after a false claim points at no mistake."""

from __future__ import annotations

from conftest import seeds_for

import tutor.puzzles as P
from tutor.engine.cards import RANK_PLURALS, pretty_cards
from tutor.engine.parameters import OVERSIGHT_KINDS
from tutor.puzzles.base import describe, player_name

#: What each kind's nudge must ask about, besides its moment.
_ASKS = {
    "overlooked_table_mournival": "the deal",
    "split_prial": "just before it",
    "laid_down_dead_pair": "lay down",
    "laid_down_prial": "lay down",
    "laid_down_mournival": "lay down",
}


def _puzzles() -> list[P.Puzzle]:
    """Spot puzzles over every (ruleset, players) the kind applies to, the seeds of each cycling
    through its oversight kinds and decoys, and the issue's puzzle."""
    if not _CACHE:
        _CACHE.extend(
            P.generate("spot-oversight", r, n, s) for r, n, s in seeds_for("spot-oversight", 70)
        )
        _CACHE.append(P.generate("spot-oversight", "porges", 4, 81139468373579))
    return _CACHE


_CACHE: list[P.Puzzle] = []


def _mine(p: P.Puzzle):
    deal = p.deal()
    return [o for o in deal.open_oversights() if p.seat in deal.claimants(o)]


def test_the_nudge_points_at_the_open_mistake():
    seen: set[str] = set()
    for p in _puzzles():
        mine = _mine(p)
        if not mine:
            continue
        g = p.grade("nothing", attempt=1)
        assert not g.correct and not g.final and g.retry, p.id
        nudge = " ".join(g.retry.split())
        deal = p.deal()
        latest = max(mine, key=lambda o: o.index)
        last = latest.index == len(deal.history) - 1
        seen.add(latest.kind)
        assert _ASKS[latest.kind] in nudge, (p.id, nudge)
        if latest.kind == "overlooked_table_mournival":  # the dealer's, at the deal
            assert "last action" not in nudge, (p.id, nudge)
        elif last:
            assert "the last action" in nudge, (p.id, nudge)
        elif deal.history[latest.index].kind == "lie_down":  # its cards hold the answer
            said = f"the lie-down of {player_name(latest.offender, p.seat)}"
            assert said in nudge and "last action" not in nudge, (p.id, nudge)
        else:
            said = describe(deal.history[latest.index], p.seat, deal.n)
            assert said in nudge and "last action" not in nudge, (p.id, nudge)
        for o in mine:  # never the answer: not the cards any claim takes
            assert pretty_cards(o.cards) not in nudge, (p.id, nudge)
    assert seen >= {"overlooked_table_mournival", "split_prial", "laid_down_dead_pair"}, seen


def test_the_issue_puzzle_points_at_the_deal():
    # the issue's puzzle (spot-oversight.porges.4.81139468373579 before the places were
    # shuffled, issue 42) was a table mournival the dealer overlooked: one such, by seed
    p = next(
        q
        for q in (P.generate("spot-oversight", "porges", 4, s) for s in range(200))
        if q.variant == "overlooked_table_mournival"
    )
    nudge = " ".join(p.grade("nothing", attempt=1).retry.split())
    assert "deal" in nudge and "last action" not in nudge, nudge


def test_every_kind_has_a_nudge():
    from tutor.puzzles.kinds.spot_oversight import _NUDGES

    assert set(OVERSIGHT_KINDS) <= set(_NUDGES)


def test_nothing_open_gets_a_nudge_pointing_at_no_mistake():
    checked = 0
    for p in _puzzles():
        if _mine(p):
            continue
        table = p.deal().table_cards()
        if not table:
            continue
        g = p.grade(f"claim {RANK_PLURALS[table[0] >> 2]}", attempt=1)
        assert not g.correct and g.retry, p.id
        nudge = " ".join(g.retry.split())
        assert "mistake open" not in nudge and "Look at" not in nudge, (p.id, nudge)
        assert "Is any mistake really open" in nudge, (p.id, nudge)
        checked += 1
    assert checked >= 10
