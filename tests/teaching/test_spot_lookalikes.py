"""The look of a split prial or a table mournival made by another player, where nothing is open
(issue 42, "decoys that look like each oversight but are not, made by other players as well as
the learner"): four of a rank dealt to the table before play has begun (the dealer may still take
them, RULES.md 3.3), and a prial split, or a table mournival left, when play ends (every oversight
unclaimed then lapses, RULES.md 3.4; the table stays only where the last player in plays on).

Each is the engine's word: the seat has no claim, nothing is open, and the look is real (the
capture did split a table prial; the overlooked mournival was open just before play ended; the
dealer may still take the four).  The learners who claim on the board's look, whether or not
they skip their own action and a table mournival they dealt, are wrong on every one."""

from __future__ import annotations

import pytest
from spot_learners import LEARNERS, right

import tutor.puzzles as P
from tutor.engine.cards import rank_of
from tutor.engine.records import replay
from tutor.engine.sources import default_library
from tutor.engine.values import OversightKind
from tutor.puzzles.kinds.spot_oversight import BY_OTHERS, DECOY_LOOKS_LIKE, SpotOversight
from tutor.puzzles.kinds.spot_story import claim_groups

THEMES = [t for ts in BY_OTHERS.values() for t in ts]


def test_each_lookalike_by_others_is_offered_where_the_ruleset_makes_it_real():
    """Before play wherever a table mournival the dealer leaves may be claimed and a prial may
    be declared before play; at the end of play only where the last player in plays on (else the
    table is cleared as play ends) and the kind may be claimed: a ruleset parameter, never a
    name."""
    lib = default_library()
    gen = SpotOversight()
    seen = set()
    for rid in P.applicable_rulesets("spot-oversight"):
        for n in lib.rulesets[rid].player_counts:
            rs = lib.ruleset(rid, n)
            game = rs.game()
            themes = set(gen.decoy_themes(rs))
            mournival = game.claimable(OversightKind.OVERLOOKED_TABLE_MOURNIVAL)
            assert ("mournival_before_play" in themes) == (
                mournival and game.declarations_are_free
            ), rid
            assert ("mournival_at_play_end" in themes) == (mournival and rs.last_in_plays_on)
            assert ("split_at_play_end" in themes) == (
                game.split_prial_claimable and rs.last_in_plays_on
            )
            seen |= themes
    assert seen >= set(THEMES)  # each made under some ruleset of the library
    for kind, themes in BY_OTHERS.items():
        assert all(DECOY_LOOKS_LIKE[t] == kind for t in themes)


def _ruleset_of(theme: str) -> tuple[str, int]:
    lib = default_library()
    gen = SpotOversight()
    for rid in P.applicable_rulesets("spot-oversight"):
        n = lib.rulesets[rid].player_counts[0]
        if theme in gen.decoy_themes(lib.ruleset(rid, n)):
            return rid, n
    raise AssertionError(theme)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("seed", [1, 40])
def test_a_lookalike_by_another_player_has_nothing_open_and_the_look_is_real(theme, seed):
    rid, n = _ruleset_of(theme)
    p = P.generate(f"spot-oversight/{theme.replace('_', '-')}", rid, n, seed=seed)
    assert P.from_id(p.id).to_json() == p.to_json()  # its own id regenerates it
    deal = p.deal()
    last = deal.history[-1]
    assert p.data["theme"] == theme and p.variant == "decoy" and not p.answer["claims"]
    assert not claim_groups(deal, p.seat) and not deal.open_oversights()
    assert p.seat not in (last.player, deal.dealer)  # made by others: neither acted nor dealt
    table = [rank_of(c) for c in deal.table_cards()]
    before = replay(p.record, upto=len(deal.history) - 1)  # just before the last action
    if theme == "mournival_before_play":
        four = [r for r in set(table) if table.count(r) == 4]
        assert four and not deal.started and last.kind.startswith("declare")
        takes = [a for a in deal.free_actions(deal.dealer) if a.kind == "take_table_mournival"]
        assert takes and rank_of(takes[0].cards[0]) in four  # the dealer may still take them
        assert "play has not begun" in p.explanation
    elif theme == "split_at_play_end":
        assert last.kind == "capture" and len(last.cards) == len(last.table) == 1
        assert before.would_split_prial(last)  # one of a table prial, instead of all three
        assert table.count(rank_of(last.cards[0])) == 2
        assert deal.phase == "play_on" and before.phase == "play"
        assert "play ended" in p.explanation and "lapses" in p.explanation
    else:
        four = [r for r in set(table) if table.count(r) == 4]
        assert four and deal.phase == "play_on" and before.phase == "play"
        was_open = [o for o in before.open_oversights() if o.rank in four]
        assert [o.kind for o in was_open] == [OversightKind.OVERLOOKED_TABLE_MOURNIVAL]
        assert "play has ended" in p.explanation and "lapses" in p.explanation
    for name in ("cue", "cue+own", "cue+own+dealer", "one-rank"):
        assert not right(p, LEARNERS[name](p)), name  # the look alone claims, wrongly
    assert right(p, LEARNERS["engine"](p)) and right(p, LEARNERS["pass"](p))
    verdict = p.grade(LEARNERS["cue"](p), 1)
    assert not verdict.correct and "nothing to claim" in verdict.message.lower()
    assert verdict.message.lower().count("nothing to claim") == 1, verdict.message  # said once
