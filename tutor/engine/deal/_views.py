"""Counting and risk (RULES.md 8): :class:`RankCount`, :class:`CaptureOption` and the deal's
counting (private to :mod:`tutor.engine.deal`, which re-exports the public names).  What a seat
sees as a whole is its observation (:func:`tutor.engine.observe.observe`)."""

from __future__ import annotations

from itertools import permutations
from typing import NamedTuple

from tutor.engine.cards import RANK_NAMES, RANK_PLURALS
from tutor.engine.deal._bits import NIB, _counts, _presence, _rank_count, _ranks
from tutor.engine.deal._notation import OVER, PLAY
from tutor.engine.deal._shape import _DealState


class CaptureOption(NamedTuple):
    """A rank the player can capture now, with the counting behind its risk (RULES.md 8).

    ``table`` and ``hand`` are the player's counts of that rank on the table and in hand,
    ``unseen`` the cards of the rank the player cannot see; ``at_risk`` is True when some placement
    of the unseen cards and some legal play before the player's next turn could take the table
    cards away; ``reason`` says why in words.
    """

    rank: int
    table: int
    hand: int
    unseen: int
    at_risk: bool
    reason: str


class RankCount(NamedTuple):
    """Where the four cards of one rank are, as one seat sees them (RULES.md 8): ``table``,
    ``hand`` (the seat's own), ``won`` (per seat), ``set_aside`` and ``unseen`` (= 4 - the rest,
    the number in opponents' hands)."""

    rank: int
    table: int
    hand: int
    won: tuple[int, ...]
    set_aside: int
    unseen: int

    @property
    def won_total(self) -> int:
        """Cards of the rank among everyone's won cards."""
        return sum(self.won)


class _Views(_DealState):
    """Views, counting and risk (a part of :class:`~tutor.engine.deal.Deal`)."""

    __slots__ = ()

    def unseen(self, seat: int, rank: int) -> int:
        """Cards of ``rank`` that ``seat`` cannot see: 4 - (table + won + set aside + own hand)
        of that rank (RULES.md 8); equal to the number in opponents' hands."""
        seen = self.table | self.wonall | self.aside | self.hands[seat]
        return 4 - _rank_count(seen, rank)

    def movers_before(self, seat: int) -> tuple[list[int], list[int]]:
        """The opponents in play who move before ``seat``'s next turn, in order, and the other
        opponents in play (who do not).  If ``seat`` is to move now, its next turn is the one
        after this."""
        if self.phase != PLAY or not self.hands[seat]:
            return [], []
        movers: list[int] = []
        q = self.to_move
        assert q is not None                # in play, someone is to move
        n = self.n
        if q == seat:
            q = (q + 1) % n
        seen = 0
        while q != seat and seen < n:
            if self.hands[q]:
                movers.append(q)
            q = (q + 1) % n
            seen += 1
        others = [r for r in range(n) if r != seat and self.hands[r] and r not in movers]
        return movers, others

    def capture_options(self, seat: int) -> list[CaptureOption]:
        """The ranks ``seat`` could capture now, each marked at risk or safe (RULES.md 8).

        A rank is at risk when some placement of the unseen cards and some legal play by the
        opponents before the seat's next turn could leave no table card of it then.  Worked out:
        claims never take the last table card of a rank someone can still capture; with the seat
        holding at least one card of the rank, table + unseen is at most 3, so two or three table
        cards can never all go (that needs two cards unseen per table card, or a pair for a pair
        with two unseen); a lone table card goes only to a one-for-one capture by an opponent
        holding one of the unseen cards.  It matters only if the seat gets another turn: not
        when every opponent who moves before it holds a single card and nobody else holds cards
        (play then ends first), unless the last player in plays on.
        """
        h = self.hands[seat]
        t = self.table
        if not h or self.phase == OVER:
            return []
        common = _presence(h) & _presence(t)
        if not common:
            return []
        risky = self.at_risk_ranks(seat)
        movers, _ = self.movers_before(seat)
        seen = t | self.wonall | self.aside | h
        out = []
        for rank in _ranks(common):
            nh, nt = _rank_count(h, rank), _rank_count(t, rank)
            if not self._can_capture_rank(nh, nt):
                continue
            u = 4 - _rank_count(seen, rank)
            risk = bool((risky >> (4 * rank)) & 1)
            why = self._risk_reason(rank, nt, u, risk, bool(movers))
            out.append(CaptureOption(rank, nt, nh, u, risk, why))
        return out

    def _risk_reason(self, rank: int, nt: int, u: int, risk: bool, movers: bool) -> str:
        """Why a capture option of ``rank`` (``nt`` on the table, ``u`` unseen) is at risk or
        safe, in words (RULES.md 8)."""
        name = RANK_PLURALS[rank]
        if risk:
            return (f"a lone {RANK_NAMES[rank]} on the table with {u} unseen: an opponent may "
                    "take it before your next turn")
        if nt >= 2:
            if u == 0:
                return (f"{nt} {name} on the table and none unseen: nobody else holds one to "
                        "take them with")
            return (f"{nt} {name} on the table and at most {u} unseen: no opponent can take "
                    "them all before your next turn")
        if u == 0:
            return (f"the other {name} are all won or in your hand: nobody else can take the "
                    "lone one")
        if not self._c11:
            return "no one-for-one capture under this ruleset, so nobody can take it"
        if not movers:
            return "nobody else moves before you again"
        if self.ruleset.last_in_plays_on and u == 2:
            return (f"the other two {name} are each held alone by opponents who move first: "
                    "the first may take it, but the second must lie its card down, and you "
                    "capture it then")
        if self.ruleset.last_in_plays_on:
            return ("every opponent to move before you holds one card: if one takes it, you "
                    "have no capture left to play on with, so play ends first")
        return ("every opponent to move before you holds one card, so play ends before your "
                "next turn")

    def at_risk_ranks(self, seat: int) -> int:
        """The rule behind :meth:`capture_options`' risk, on the masks: bit ``4r`` set for each
        rank ``r`` the seat could capture now whose table cards could be gone before its next
        turn (RULES.md 8).  That is a lone table card of a rank the seat holds, taken one for
        one, with some card of the rank unseen, when an opponent moves before the seat's next
        turn and play would not end first (every opponent to move holding one card and nobody
        else holding any), unless the last player in plays on.  When ``seat`` is to move, every
        opponent in play moves before its next turn (the fast path of rollouts)."""
        h = self.hands[seat]
        if not h or self.phase != PLAY or not self._c11:
            return 0
        t = self.table
        tc = _counts(t)
        lone = tc & ~(tc >> 1) & ~(tc >> 2) & NIB & _presence(h)
        if not lone:
            return 0
        sc = _counts(t | self.wonall | self.aside | h)
        lone &= ~(sc >> 2)                          # all four seen: nobody else holds one
        if not lone:
            return 0
        if self.ruleset.last_in_plays_on:
            if seat == self.to_move:
                if self.in_play <= 1:
                    return 0
                if any(m & (m - 1) for q, m in enumerate(self.hands) if q != seat):
                    return lone
                # every opponent holds one card: the shorthand of RULES.md 8 (two unseen, each
                # held alone: the second must lie its card down, and the seat captures it then)
                return lone & ~((sc >> 1) & ~sc)     # seen 2 (table + hand): two unseen
            movers, others = self.movers_before(seat)
            if not movers:
                return 0
            if others or any(self.hands[q] & (self.hands[q] - 1) for q in movers):
                return lone
            return self._last_round_risk(seat, movers, lone)
        if seat == self.to_move:
            for q, m in enumerate(self.hands):
                if q != seat and m & (m - 1):
                    return lone
            return 0
        movers, others = self.movers_before(seat)
        if not movers:
            return 0
        if others or any(self.hands[q] & (self.hands[q] - 1) for q in movers):
            return lone
        return 0

    def _last_round_risk(self, seat: int, movers: list[int], lone: int) -> int:
        """:meth:`at_risk_ranks` in the last round when the last player in plays on: every
        opponent to move before ``seat`` holds one card and nobody else holds any, so the
        seat's next turn is its play-on, if it can capture then (RULES.md 8).  Worked out by
        trying each placement of the opponents' cards among them (at most a few dozen) and
        each line of their play, claims included: bit ``4r`` of ``lone`` stays set when some
        line leaves the seat a next turn without a capture of rank ``r``."""
        cards = [self.hands[q] for q in movers]
        out = 0
        memo: dict[tuple[object, ...], int] = {}
        for order in set(permutations(cards)):
            d = self.clone()
            for q, m in zip(movers, order):
                d.hands[q] = m
            out |= d._lines_without(seat, lone, memo)
            if out == lone:
                break
        return out

    def _lines_without(self, seat: int, lone: int, memo: dict[tuple[object, ...], int]) -> int:
        """The bits of ``lone`` whose rank some line of play from here leaves ``seat`` unable
        to capture at its next turn (none if play ends first)."""
        key = (tuple(self.hands), self.table, tuple(self.won), self.to_move, self.phase,
               tuple(self.oversights))
        if key in memo:
            return memo[key]
        res = 0
        if self.phase == OVER:
            res = 0
        elif self.to_move == seat:
            able = 0
            for a in self.legal_actions():
                if a.kind in ("capture", "play_on_capture"):
                    able |= 1 << (4 * (a.table[0] >> 2))
            res = lone & ~able
        else:
            acts = list(self.legal_actions())
            for q in range(self.n):
                if q != seat:
                    acts.extend(self.free_actions(q))
            for a in acts:
                c = self.clone()
                c.apply_unchecked(a)
                res |= c._lines_without(seat, lone, memo)
                if res == lone:
                    break
        memo[key] = res
        return res

    def rank_count(self, seat: int, rank: int) -> RankCount:
        """Where the cards of ``rank`` are as ``seat`` sees them (RULES.md 8)."""
        return RankCount(rank, _rank_count(self.table, rank), _rank_count(self.hands[seat], rank),
                         tuple(_rank_count(w, rank) for w in self.won),
                         _rank_count(self.aside, rank), self.unseen(seat, rank))

