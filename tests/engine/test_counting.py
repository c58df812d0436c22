"""Counting (RULES.md 8): unseen counts, and at-risk / safe capture options checked against an
exhaustive search over every placement of the unseen cards and every line of play by the
opponents before the seat's next turn."""

import random
from itertools import combinations

import pytest
from support import position

from tutor.engine.bots import make_bot
from tutor.engine.cards import cards_of
from tutor.engine.deal import new_deal
from tutor.engine.errors import UsageError
from tutor.engine.observe import observe


def _unable(d, seat, rank):
    """At ``seat``'s turn: no legal capture of ``rank``."""
    return not any(
        a.kind in ("capture", "play_on_capture") and a.table[0] >> 2 == rank
        for a in d.legal_actions()
    )


def _line_exists(d, seat, rank, memo):
    key = (tuple(d.hands), d.table, tuple(d.won), d.to_move, d.phase, tuple(d.oversights))
    if key in memo:
        return memo[key]
    if d.phase == "over":
        res = False
    elif d.to_move == seat:
        res = _unable(d, seat, rank)
    else:
        res = False
        acts = list(d.legal_actions())
        for q in range(d.n):
            if q != seat:
                acts.extend(d.free_actions(q))
        for a in acts:
            c = d.clone()
            c.apply_unchecked(a)
            if _line_exists(c, seat, rank, memo):
                res = True
                break
    memo[key] = res
    return res


def _placements(cards, sizes):
    if not sizes:
        yield ()
        return
    for combo in combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in combo]
        for tail in _placements(rest, sizes[1:]):
            yield (combo,) + tail


def brute_at_risk(deal, seat, rank):
    opps = [q for q in range(deal.n) if q != seat and deal.hands[q]]
    unseen = []
    for q in opps:
        unseen.extend(cards_of(deal.hands[q]))
    sizes = [deal.hands[q].bit_count() for q in opps]
    for placement in _placements(sorted(unseen), sizes):
        d = deal.clone()
        for q, cs in zip(opps, placement):
            m = 0
            for c in cs:
                m |= 1 << c
            d.hands[q] = m
        if _line_exists(d, seat, rank, {}):
            return True
    return False


def _late_positions(rulesets, rid, players, count, seed):
    rs = rulesets[rid]
    rng = random.Random(seed)
    found = []
    risky_wanted = count // 2
    tries = 0
    while len(found) < count and tries < 4000:
        tries += 1
        if tries > 1500:
            risky_wanted = 0
        deal = new_deal(rs, players, tries % players, rng)
        bots = [make_bot("willughby", 0.2) for _ in range(players)]
        stop = None
        while deal.phase == "play":
            d = deal
            sizes = [h.bit_count() for h in d.hands]
            total = sum(sizes)
            # a seat's opponents hold the cards of every hand but its own: none is late enough
            # (six cards or fewer) while even the largest hand leaves more than six to the others
            for seat in range(d.n) if total - max(sizes) <= 6 else ():
                if seat == d.to_move or not d.hands[seat]:
                    continue
                opp_cards = total - sizes[seat]
                opts = d.capture_options(seat) if opp_cards <= 6 and not d.free_pending() else []
                if opts and (risky_wanted <= 0 or any(o.at_risk for o in opts)):
                    stop = (d.clone(), seat)
                    risky_wanted -= any(o.at_risk for o in opts)
                    break
            if stop:
                break
            legal = d.legal_actions()
            d.apply_unchecked(bots[d.to_move].choose(d, legal, rng))
        if stop:
            found.append(stop)
    return found


@pytest.mark.parametrize(
    "rid,players",
    [
        ("parlett", 5),
        ("parlett", 3),
        ("porges", 4),
        ("wolffauer", 6),
        ("inter-livery-2018", 5),
        ("house-any", 5),
        ("house-pot", 5),
    ],
)
def test_at_risk_matches_exhaustive_search(house, rid, players):
    """Also under several captures a turn (RULES.md 3.6): the risk stays exact."""
    rulesets = house
    positions = _late_positions(rulesets, rid, players, 25, f"risk/{rid}/{players}")
    assert len(positions) >= 10
    risky = safe = 0
    for deal, seat in positions:
        for opt in deal.capture_options(seat):
            expected = brute_at_risk(deal, seat, opt.rank)
            assert opt.at_risk == expected, (rid, players, seat, opt, deal.history)
            risky += expected
            safe += not expected
    assert safe
    assert risky or players == 3  # with two opponents, late risky positions are rare


def test_exhaustive_search_finds_risky_positions(rulesets):
    positions = _late_positions(rulesets, "parlett", 5, 12, "risk/check")
    assert any(brute_at_risk(d, s, o.rank) for d, s in positions for o in d.capture_options(s))


def test_unseen_counts_what_the_seat_cannot_see(rulesets):
    d = position(
        rulesets["parlett"],
        5,
        hands=["7H 7S 2C", "7C 3C", "4C", "5C", "6C"],
        table="7D 2D",
        won=["", "", "2H 2S", "", ""],
        to_move=1,
    )
    assert d.unseen(0, 6) == 1  # sevens: two in hand, one on the table
    assert d.unseen(0, 1) == 0  # twos: hand, table, and two won
    v = observe(d, 0)
    assert v.unseen[6] == 1 and v.hand_sizes == (3, 2, 1, 1, 1)
    assert all(not hasattr(v, "hands") for _ in [0])


def test_willughby_rules_of_thumb_and_the_endgame_exception(rulesets):
    rs = rulesets["parlett"]
    # lone 7 on the table with a seven unseen: at risk; two nines on the table: safe
    d = position(
        rs, 5, hands=["7H 9C 2C", "3C 3D", "4C 4D", "5C 5D", "6C 6D"], table="7D 9D 9H", to_move=0
    )
    opts = {o.rank: o.at_risk for o in d.capture_options(0)}
    assert opts == {6: True, 8: False}
    # counting sharpens it: the other sevens are won, so the lone seven is safe
    d = position(
        rs,
        5,
        hands=["7H 9C 2C", "3C 3D", "4C 4D", "5C 5D", "6C 6D"],
        table="7D 9D 9H",
        won=["", "7C 7S", "", "", ""],
        to_move=0,
    )
    assert {o.rank: o.at_risk for o in d.capture_options(0)}[6] is False
    # every opponent holds one card and nobody else holds cards: play ends first
    d = position(rs, 5, hands=["7H 9C 2C", "3C", "4C", "", ""], table="7D 9D 9H", to_move=0)
    assert {o.rank: o.at_risk for o in d.capture_options(0)}[6] is False
    # ... unless the last player plays on: then one seven unseen puts it at risk
    il = rulesets["inter-livery-2018"]
    d = position(
        il,
        5,
        hands=["7H 9C 2C", "3C", "4C", "", ""],
        table="7D 9D 9H",
        won=["", "7C", "", "", ""],
        to_move=0,
    )
    assert {o.rank: o.at_risk for o in d.capture_options(0)}[6] is True
    # ... and two unseen, each held alone, leave it safe (RULES.md 8, corrected)
    d = position(il, 5, hands=["7H 9C 2C", "3C", "4C", "", ""], table="7D 9D 9H", to_move=0)
    assert {o.rank: o.at_risk for o in d.capture_options(0)}[6] is False


def _endgame_positions(rs, players, count, seed):
    """Small hand-built positions near the end of play: every card of the pack placed (the rest in
    won piles, so the unseen cards are exactly the opponents' hands), the opponents holding one
    card each or two, a lone table card of a rank the seat holds and others of its rank unseen."""
    from tutor.engine.deal import Deal

    rng = random.Random(seed)
    out = []
    tries = 0
    while len(out) < count and tries < 20 * count:
        tries += 1
        pack = list(range(52))
        rng.shuffle(pack)
        rank = rng.randrange(13)
        mine = [c for c in pack if c >> 2 == rank]
        pack = [c for c in pack if c >> 2 != rank]
        rng.shuffle(mine)
        table_rank, hand_rank = mine[0], mine[1]
        unseen_rank = mine[2 : 2 + rng.choice((1, 2))]
        opps = list(range(1, players))
        sizes = {q: rng.choice((1, 1, 1, 2)) for q in opps}
        holders = rng.sample(opps, len(unseen_rank)) if len(unseen_rank) <= len(opps) else opps
        hands = [[hand_rank] + [pack.pop() for _ in range(rng.choice((1, 2)))]] + [[] for _ in opps]
        for c, q in zip(unseen_rank, holders):
            hands[q].append(c)
        for q in opps:
            while len(hands[q]) < sizes[q]:
                hands[q].append(pack.pop())
        placed = {c for h in hands for c in h} | {table_rank}
        table = [table_rank] + [pack.pop() for _ in range(rng.choice((0, 1, 2)))]
        placed |= set(table)
        rest = [c for c in range(52) if c not in placed]
        won = [rest] + [[] for _ in opps]
        to_move = rng.randrange(1, players)  # the search starts at an opponent's turn
        try:
            d = Deal.from_position(
                rs,
                players,
                0,
                hands=hands,
                table=table,
                won=won,
                to_move=to_move,
                started=True,
                complete=False,
            )
        except UsageError:
            return out
        if d.phase != "play" or d.free_pending():
            continue
        out.append((d, 0, rank))
    return out


@pytest.mark.parametrize(
    "rid,players",
    [("inter-livery-2018", 5), ("house-pot", 5), ("house-pairs-pay", 5), ("parlett", 4)],
)
def test_at_risk_near_the_end_matches_exhaustive_search(house, rid, players):
    """RULES.md 8, corrected: where the last player in plays on and every opponent to move holds
    one card, two unseen cards of a lone table card's rank, each held alone, leave it safe (the
    first may take it, the second must lie its card down, and the seat captures that).  Checked
    on small hand-built positions near the end, where random deals seldom go."""
    positions = _endgame_positions(house[rid], players, 120, f"end/{rid}/{players}")
    seen = {True: 0, False: 0}
    for deal, seat, rank in positions:
        opts = {o.rank: o for o in deal.capture_options(seat)}
        if rank not in opts:
            continue
        expected = brute_at_risk(deal, seat, rank)
        assert opts[rank].at_risk == expected, (
            rid,
            players,
            deal.hands,
            deal.table,
            deal.to_move,
            opts[rank],
        )
        seen[expected] += 1
    assert seen[True] and seen[False]


def test_two_unseen_each_held_alone_when_the_last_player_plays_on(rulesets):
    il = rulesets["inter-livery-2018"]
    # sevens: one on the table, one in hand, two unseen; each opponent holds one card
    d = position(
        il,
        5,
        hands=["7H 9C 2C", "7C", "7S", "", ""],
        table="7D 9D 9H",
        won=[
            "AC AD AH AS KC KD KH KS QC QD QH QS JC JD JH JS TC TD TH TS 9S 8C 8D 8H "
            "8S 6C 6D 6H 6S 5C 5D 5H 5S 4C 4D 4H 4S 3C 3D 3H 3S 2D 2H 2S",
            "",
            "",
            "",
            "",
        ],
        to_move=1,
    )
    opt = {o.rank: o for o in d.capture_options(0)}[6]
    assert opt.at_risk is False and brute_at_risk(d, 0, 6) is False
    assert "lie its card down" in opt.reason


def test_a_reason_never_says_at_most_none_unseen(rulesets):
    """Issue 45, finding 6: "2 nines on the table and at most 0 unseen"."""
    d = position(
        rulesets["parlett"],
        5,
        hands=["9C 2C", "3C 3D", "4C 4D", "5C 5D", "6C 6D"],
        table="9D 9H",
        won=["", "9S", "", "", ""],
        to_move=1,
    )
    opt = {o.rank: o for o in d.capture_options(0)}[8]  # nines (rank 0 is the ace)
    assert "at most 0" not in opt.reason and "none unseen" in opt.reason


def test_an_action_said_of_you_agrees_with_you(rulesets):
    """Issue 45, finding 6: "you (Player 2) captures K♦ with K♣"."""
    d = position(rulesets["parlett"], 3, hands=["KC 2C", "3C 3D", "4C 4D"], table="KD", to_move=0)
    a = next(a for a in d.legal_actions() if a.kind == "capture")
    assert a.describe(names=["you (Player 0)", "P1", "P2"]) == "you (Player 0) capture K♦ with K♣"
    assert a.describe(names=["You", "P1", "P2"]).startswith("You capture ")
    assert a.describe().startswith("Player 0 captures ")
