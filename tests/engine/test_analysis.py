"""Position analysis (tutor.engine.analysis) and the expert player (tutor.engine.expert): the
options are the engine's, the figures are reproducible and use the seat's view only, hand-built
positions with a clear answer are ranked right, and the mask-level counter policy is the counter
player exactly.  Sample budgets keep every test to a fraction of a second."""

import json
import random
from pathlib import Path

import pytest

from tutor.engine.analysis import (
    HOLD,
    NoDecision,
    Stream,
    analyse,
    annotate,
    classify,
    decision_options,
    decision_points,
    determinize,
    known_holdings,
    option_class,
    unseen_mask,
)
from tutor.engine.bots import make_bot, play_out
from tutor.engine.cards import parse_cards, rank_of
from tutor.engine.deal import Action, Deal, new_deal
from tutor.engine.errors import LaughError, UsageError
from tutor.engine.expert import ExpertBot
from tutor.engine.records import replay, to_record

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"


def _deal_from(rs, players, dealer, hands: dict[int, str], table: str, seed: int = 0) -> Deal:
    """A deal whose pack gives the named seats the named hands and the table the named cards;
    the other seats get the rest, shuffled by ``seed``."""
    pc = rs.count(players)
    named = {q: parse_cards(h) for q, h in hands.items()}
    tab = parse_cards(table)
    assert len(tab) == pc.table and all(len(h) == pc.hand for h in named.values())
    used = set(tab).union(*named.values())
    rest = [c for c in range(52) if c not in used]
    random.Random(seed).shuffle(rest)
    full = {q: named.get(q) or [rest.pop() for _ in range(pc.hand)] for q in range(players)}
    eldest = (dealer + 1) % players
    pack = [0] * 52
    for q in range(players):
        for i, c in enumerate(full[q]):
            pack[((q - eldest) % players) + i * players] = c
    pack[players * pc.hand :] = tab
    d = Deal(rs, players, dealer, pack)
    for q in range(players):
        assert sorted(d.hand(q)) == sorted(full[q])
    return d


def _positions(rs, players, deals, seed=0):
    """Every position of a few seeded self-play deals (careless counters, so oversights too)."""
    out = []
    for k in range(deals):
        rng = random.Random(f"{seed}/{k}")
        d = new_deal(rs, players, k % players, rng)
        bots = [make_bot("counter", 0.3 if k % 2 else 0.0) for _ in range(players)]
        play_out(d, bots, rng, observer=lambda dd, a: out.append(dd.clone()))
    return [p for p in out if not p.is_terminal()]


# --- the engine's copies -------------------------------------------------------------------


def test_copies_carry_every_slot_of_the_deal(rulesets):
    d = _positions(rulesets["porges"], 4, 1)[5]
    c = d.clone()
    slots = [name for cls in Deal.__mro__ for name in getattr(cls, "__slots__", ())]
    assert "hands" in slots and "oversights" in slots
    for name in slots:
        if name == "_undo":
            continue
        assert getattr(c, name) == getattr(d, name), name
        if isinstance(getattr(d, name), list):
            assert getattr(c, name) is not getattr(d, name), name


# --- options ------------------------------------------------------------------------------


def test_options_are_the_engines_legal_actions(rulesets):
    for d in _positions(rulesets["parlett"], 5, 2) + _positions(rulesets["wolffauer"], 3, 2):
        for seat in range(d.n):
            opts = decision_options(d, seat)
            free = d.free_actions(seat)
            if d.to_move == seat:
                # a turn and a free action are never weighed as alternatives: the turn first
                assert opts == d.legal_actions() == decision_options(d, seat, "turn")
            else:
                assert opts == (free + [HOLD] if free else [])
                assert decision_options(d, seat, "turn") == []
            assert decision_options(d, seat, "free") == (free + [HOLD] if free else [])
            for a in opts:
                if a is not None:
                    assert d.why_illegal(a) is None


def test_analysis_lists_every_option_and_the_seat_with_nothing_to_decide_is_refused(rulesets):
    d = _positions(rulesets["parlett"], 5, 1)[3]
    seat = d.to_move
    an = analyse(d, seat, samples=20, seed=1)
    assert sorted(map(repr, (o.action for o in an.options))) == sorted(
        map(repr, decision_options(d, seat))
    )
    idle = next(q for q in range(5) if q != seat and not d.free_actions(q))
    with pytest.raises(NoDecision):
        analyse(d, idle, samples=10)
    with pytest.raises(UsageError):
        analyse(d, seat, samples=10, policy="expert")


def test_every_rollout_policy_by_name(rulesets):
    from tutor.engine.analysis import POLICIES

    d = _lone_seven_position(rulesets)
    assert set(POLICIES) == {"random", "willughby", "counter"}
    for policy in POLICIES:
        an = analyse(d, 1, policy=policy, samples=12, seed=1, stop_when_clear=False)
        assert an.policy == policy and an.samples == 12
        assert all(o.samples == 12 and abs(o.mean) < 30 for o in an.options)


def test_forced_positions_give_one_option(rulesets):
    rs = rulesets["parlett"]
    d = _deal_from(rs, 5, 0, {1: "7C 2D 3D 4D 5D 6D 8D 9D"}, "7H JC JD JH QC QD QH KC KD KH AC AD")
    # seat 1 can capture only the seven; no prial, no dead pair, nothing to claim
    assert not d.free_actions(1) and len(d.legal_actions()) == 1
    an = analyse(d, 1, samples=50, seed=2)
    assert len(an.options) == 1 and an.forced and an.stopped == "forced"
    assert an.best.action == d.legal_actions()[0] and an.best.diff == 0
    # suits alone: two ways to take one lone card are the same play
    d = _deal_from(rs, 5, 0, {1: "7C 7D 3D 4D 5D 6D 8D 9D"}, "7H JC JD JH QC QD QH KC KD KH AC AD")
    opts = decision_options(d, 1)
    assert len(opts) == 2 and option_class(d, opts[0]) == option_class(d, opts[1])
    an = analyse(d, 1, samples=50, seed=2)
    assert an.forced and an.options[0].mean == an.options[1].mean


# --- reproducibility and the seat's own view -------------------------------------------------


def test_same_position_and_seed_give_the_same_figures(rulesets):
    d = _positions(rulesets["parlett"], 5, 1, seed=4)[2]
    seat = d.to_move
    one = analyse(d, seat, samples=60, seed=9, stop_when_clear=False).to_json()
    two = analyse(d.clone(), seat, samples=60, seed=9, stop_when_clear=False).to_json()
    one.pop("seconds"), two.pop("seconds")
    assert one == two
    other = analyse(d, seat, samples=60, seed=10, stop_when_clear=False).to_json()
    other.pop("seconds")
    assert other["options"] != one["options"] or len({o["group"] for o in one["options"]}) == 1


def test_figures_depend_only_on_what_the_seat_can_see(rulesets):
    rs = rulesets["parlett"]
    d = _positions(rs, 5, 1, seed=6)[4]
    seat = d.to_move
    others = [q for q in range(5) if q != seat and d.hands[q]]
    swapped = d.clone()
    a, b = others[0], others[1]
    ca = swapped.hands[a] & -swapped.hands[a]
    cb = swapped.hands[b] & -swapped.hands[b]
    swapped.hands[a] ^= ca | cb
    swapped.hands[b] ^= ca | cb
    assert swapped.hands != d.hands
    one = analyse(d, seat, samples=40, seed=3, stop_when_clear=False).to_json()
    two = analyse(swapped, seat, samples=40, seed=3, stop_when_clear=False).to_json()
    one.pop("seconds"), two.pop("seconds")
    assert one == two


def test_determinizations_keep_the_view_and_proven_holdings(rulesets):
    rec = json.loads((EXAMPLES / "parlett-5-clean.json").read_text())
    first = rec["actions"][0]
    assert first["action"] == "declare_prial"  # player 4 keeps the third card of a prial
    d = replay(rec, upto=1)
    rank = rank_of(parse_cards(first["cards"][0])[0])
    assert known_holdings(d, 0) == {(4, rank): 1}
    unseen = unseen_mask(d, 0)
    rng = Stream(1)
    for _ in range(100):
        x = determinize(d, 0, rng)
        assert x.hands[0] == d.hands[0] and x.table == d.table and x.won == d.won
        assert [h.bit_count() for h in x.hands] == [h.bit_count() for h in d.hands]
        got = 0
        for q in range(1, 5):
            assert not got & x.hands[q]
            got |= x.hands[q]
        assert got == unseen
        assert x.hands[4] >> (4 * rank) & 15
        x.check_invariants()


# --- clear answers --------------------------------------------------------------------------


def _lone_seven_position(rulesets):
    # seat 1 (eldest) can take a lone seven, whose two unseen twins are in opponents' hands,
    # or all three queens, which nobody else can ever take: the seven first, clearly
    return _deal_from(
        rulesets["parlett"],
        5,
        0,
        {1: "7C QC 6C 6D TC JC KC KD"},
        "7D QD QH QS AC AD 2C 3C 4C 5C 8C 9C",
    )


def test_a_clearly_better_capture_is_ranked_first(rulesets):
    d = _lone_seven_position(rulesets)
    an = analyse(d, 1, samples=300, seed=5)
    seven = Action.make(1, "capture", parse_cards("7C"), parse_cards("7D"))
    queens = Action.make(1, "capture", parse_cards("QC"), parse_cards("QD QH QS"))
    assert an.best.action == seven
    q = an.value_of(queens)
    assert q.diff + q.diff_ci95 < 0 and q.diff < -0.5
    assert an.stopped in ("clear", "precise")


def test_leaving_a_table_mournival_is_a_blunder(rulesets):
    d = _deal_from(rulesets["parlett"], 5, 0, {}, "KC KD KH KS AC AD 2C 3C 4C 5C 8C 9C", seed=3)
    take = next(a for a in d.free_actions(0) if a.kind == "take_table_mournival")
    an = analyse(d, 0, samples=400, seed=1, stop_when_clear=False)
    assert an.best.action == take
    hold = an.value_of(HOLD)
    assert hold.diff < -1 and hold.diff + hold.diff_ci95 < 0
    assert classify(hold.loss, hold.diff_ci95) == "blunder"


def test_classes_of_loss():
    assert classify(0.0, 0.0) == "best"
    assert classify(0.1, 0.05) == "good"
    assert classify(0.3, 0.05) == "inaccuracy"
    assert classify(0.6, 0.05) == "mistake"
    assert classify(1.5, 0.2) == "blunder"
    assert classify(1.5, 2.0) == "good"  # the interval reaches zero: not proven


# --- annotating a deal ----------------------------------------------------------------------


def test_annotate_skips_forced_moves_and_finds_missed_claims(rulesets):
    d = replay(json.loads((EXAMPLES / "parlett-5-oversights.json").read_text()))
    points = decision_points(d)
    for p in points:
        k, q, played, pos, then = p
        assert len({option_class(pos, o) for o in decision_options(pos, q, p.which)}) > 1
        if then is not None:  # a question of timing: the seat's own next turn action
            assert pos.to_move == q and then.player == q and pos.why_illegal(then) is None
        if played is None or p.which == "free":
            assert any(
                a.kind
                in (
                    "claim",
                    "declare_prial",
                    "declare_dead_pair",
                    "declare_mournival",
                    "take_table_mournival",
                )
                for a in pos.free_actions(q)
            )
        if played is not None:
            assert d.history[k] == played and played.player == q
    claim_at = next(
        k
        for k, a in enumerate(d.history)
        if a.kind == "claim" and a.oversight == "laid_down_dead_pair"
    )
    decs = annotate(d, seats=[0], at=claim_at - 1, samples=60)
    holds = [x for x in decs if x.played is None]
    assert holds and all(x.verdict == "blunder" for x in holds)


# --- the expert -----------------------------------------------------------------------------


def test_expert_is_reproducible_and_plays_only_legal_actions(rulesets):
    for rid, players in (("parlett", 5), ("wolffauer", 3)):
        recs = []
        for _ in range(2):
            rng = random.Random(12)
            d = new_deal(rulesets[rid], players, 1, rng)
            expert = ExpertBot(samples=12, seed=4)
            bots = [expert] + [make_bot("counter") for _ in range(players - 1)]
            play_out(d, bots, rng, observer=lambda dd, a: dd.check_invariants())
            recs.append(to_record(d))
            assert expert.decisions > 0
        assert recs[0] == recs[1]
        replay(recs[0], rulesets)


def test_expert_takes_the_clearly_better_option(rulesets):
    d = _lone_seven_position(rulesets)
    expert = ExpertBot(samples=150, seed=1)
    assert expert.choose(d, d.legal_actions(), random.Random(0)) == Action.make(
        1, "capture", parse_cards("7C"), parse_cards("7D")
    )
    m = _deal_from(rulesets["parlett"], 5, 0, {}, "KC KD KH KS AC AD 2C 3C 4C 5C 8C 9C", seed=3)
    assert expert.free_action(m, 0, random.Random(0)).kind == "take_table_mournival"


#: Parlett, five players, after four actions: player 0 holds Q♣ Q♥ and the table Q♦ Q♠ (no other
#: queen anywhere).  The counter player takes the pair for the pair at once; taking one queen now
#: and the other on a later turn keeps a card in hand longer, which is clearly worth more.
QUEENS = {
    "format": "laugh-and-lie-down/deal@1",
    "ruleset": "parlett",
    "players": 5,
    "dealer": 1,
    "pack": "3S 5C 9H QH 9C 6H JH 7S AH 4C 6C 5D TC 7D 7H KS 7C AD 9D AC 5H 2H JC 2D 2C 4D "
    "KH 3H QC JD 9S AS 6S 6D 3D TD 5S 8D 4S KD 8C 8S QD 4H JS TH 3C 2S KC 8H TS "
    "QS".split(),
    "actions": [
        {"player": 3, "action": "declare_prial", "cards": ["5C", "5D"]},
        {"player": 2, "action": "capture", "hand": ["4D"], "table": ["4H"]},
        {"player": 3, "action": "capture", "hand": ["2H"], "table": ["2S"]},
        {"player": 4, "action": "capture", "hand": ["3H"], "table": ["3C"]},
    ],
}


def test_expert_leaves_the_counter_players_choice_only_when_clearly_better(rulesets):
    d = replay(QUEENS, rulesets)
    legal = d.legal_actions()
    pair = Action.make(0, "capture", parse_cards("QC QH"), parse_cards("QD QS"))
    assert make_bot("counter").choose(d, legal, random.Random(0)) == pair
    an = analyse(d, 0, samples=200, seed=1, which="turn")
    mine = an.value_of(pair)
    assert mine.diff + mine.diff_ci95 < 0
    pick = ExpertBot(samples=150, seed=1).choose(d, legal, random.Random(0))
    assert (
        pick != pair and len(pick.cards) == 1 and rank_of(pick.cards[0]) == rank_of(pair.cards[0])
    )
    # where the counter player's choice is the best, the expert makes it
    d = _lone_seven_position(rulesets)
    legal = d.legal_actions()
    assert ExpertBot(samples=60, seed=2).choose(d, legal, random.Random(0)) == make_bot(
        "counter"
    ).choose(d, legal, random.Random(0))


def test_expert_departure_threshold(rulesets):
    d = replay(QUEENS, rulesets)
    legal = d.legal_actions()
    pair = Action.make(0, "capture", parse_cards("QC QH"), parse_cards("QD QS"))
    # a threshold no analysis reaches keeps the counter player's choice; none at all plays the
    # analysis's best, as the default threshold does here
    assert ExpertBot(samples=150, seed=1, z=50).choose(d, legal, random.Random(0)) == pair
    assert ExpertBot(samples=150, seed=1, z=0).choose(d, legal, random.Random(0)) != pair
    old = ExpertBot(samples=200, seed=1, min_samples=16, prune=True)
    assert old.choose(d, legal, random.Random(0)) != pair and old.decisions == 1
    with pytest.raises(UsageError):
        ExpertBot(z=-1)
    with pytest.raises(UsageError):
        ExpertBot(min_samples=0)


def test_expert_is_a_computer_player_by_name():
    bot = make_bot("expert")
    assert isinstance(bot, ExpertBot) and bot.seconds == 0.3
    with pytest.raises(UsageError):
        ExpertBot(samples=0)
    with pytest.raises(LaughError):
        ExpertBot(policy="nobody")


# --- what a person is told: ties, principles, a sample play-out --------------------------------


def test_a_best_move_is_called_so_only_when_separated_and_ties_are_alike(rulesets):
    from tutor.engine.analysis import verdict

    d = _lone_seven_position(rulesets)
    an = analyse(d, 1, samples=400, seed=5, stop_when_clear=False)
    assert verdict(an) == "best" and an.separated and an.alike() == [an.best]
    # two captures that no sample tells apart: a tie, not a best move
    for dd in _positions(rulesets["parlett"], 5, 3, seed=8):
        if dd.to_move is None or dd.phase != "play":
            continue
        got = analyse(dd, dd.to_move, samples=64, seed=1, which="turn", stop_when_clear=False)
        if not got.forced and not got.separated:
            assert verdict(got) in ("tie", "identical")
            alike = got.alike()
            assert len(alike) >= 2 and alike[0] is got.best
            assert all(o.diff + o.diff_ci95 >= 0 for o in alike[1:])
            if verdict(got) == "identical":
                assert all(o.diff == 0 and o.diff_ci95 == 0 for o in got.options)
            return
    pytest.fail("no tie found")


def test_principles_say_why_with_the_positions_cards_and_counts(rulesets):
    from tutor.engine.analysis import principle, principles

    d = _lone_seven_position(rulesets)
    seven = Action.make(1, "capture", parse_cards("7C"), parse_cards("7D"))
    queens = Action.make(1, "capture", parse_cards("QC"), parse_cards("QD QH QS"))
    p = principle(d, 1, seven, queens)
    assert p.key == "take-at-risk" and p.quote == "parlett:capture-lone-card"
    assert p.text.startswith(
        "The lone seven on the table (7♦) is at risk: 2 sevens unseen, and "
        "4 players move before your next turn; the queens can wait"
    )
    assert principle(d, 1, queens, seven) is None  # nothing says the queens come first
    an = analyse(d, 1, samples=300, seed=5, stop_when_clear=False)
    got = principles(d, 1, an)
    assert queens in [a for a, _ in got] and {q.key for _, q in got} == {"take-at-risk"}
    # one queen now and the other later, rather than the pair for the pair
    q = replay(QUEENS, rulesets)
    pair = Action.make(0, "capture", parse_cards("QC QH"), parse_cards("QD QS"))
    one = next(a for a in q.legal_actions() if a.cards == (parse_cards("QC")[0],))
    p = principle(q, 0, one, pair)
    assert p.key == "keep-for-later" and "keeps 1 queen in your hand" in p.text
    # all three of a table prial rather than one of them
    rs = rulesets["parlett"]
    t = _deal_from(rs, 5, 0, {1: "7C 2D 3D 4D 5D 6D 8D 9D"}, "7H 7D 7S QC QD QH KC KD KH AC AD 2C")
    three = next(a for a in t.legal_actions() if len(a.table) == 3)
    split = next(a for a in t.legal_actions() if len(a.table) == 1 and a.rank == three.rank)
    p = principle(t, 1, three, split)
    assert p.key == "all-three" and "split prial" in p.text


def test_a_sample_play_out_of_two_moves_from_one_deal_of_the_unseen_cards(rulesets):
    from tutor.engine.analysis import sample_playout

    d = _lone_seven_position(rulesets)
    seven = Action.make(1, "capture", parse_cards("7C"), parse_cards("7D"))
    queens = Action.make(1, "capture", parse_cards("QC"), parse_cards("QD QH QS"))
    po = sample_playout(d, 1, queens, seven, seed=3)
    assert po.options == (queens, seven)
    assert po.lines[0][0] == queens and po.lines[1][0] == seven
    assert po.results[1] > po.results[0]  # a deal where the better move ends ahead
    dealt = set().union(*map(set, po.hands.values()))  # random hands, of the unseen cards
    assert dealt == {c for c in range(52) if unseen_mask(d, 1) >> c & 1}
    for line in po.lines:  # every action legal, replayed on the engine
        x = d.clone()
        for q, cs in po.hands.items():
            x.hands[q] = sum(1 << c for c in cs)
        x.apply(line[0])
    assert sample_playout(d, 1, queens, seven, seed=3) == po
