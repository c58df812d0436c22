"""Move generation: captures, declarations, and the legal actions of a seat (RULES.md 3.4, 3.6)
(private to :mod:`tutor.engine.deal`)."""

from __future__ import annotations

from itertools import combinations

from tutor.engine.cards import cards_of
from tutor.engine.deal._bits import (
    _N3,
    _N5,
    _NIB_CARDS,
    NIB,
    RANK_MASK,
    _counts,
    _dead_bits,
    _presence,
    _rank_count,
    _ranks,
    _tuple_new,
)
from tutor.engine.deal._notation import OVER, PLAY, PLAY_ON, Action
from tutor.engine.deal._shape import _DealState


class _Moves(_DealState):
    """Move generation (a part of :class:`~tutor.engine.deal.Deal`)."""

    __slots__ = ()

    # -- captures ---------------------------------------------------------------------------

    def _captures(self, seat: int, kind: str) -> list[Action]:
        h = self.hands[seat]
        t = self.table
        y = h | (h >> 1)
        z = t | (t >> 1)
        common = (y | (y >> 2)) & (z | (z >> 2)) & NIB
        out: list[Action] = []
        new = _tuple_new
        while common:
            low = common & -common
            common ^= low
            shift = low.bit_length() - 1
            nibs = _NIB_CARDS[shift >> 2]
            hc = nibs[(h >> shift) & 15]
            tc = nibs[(t >> shift) & 15]
            nh, nt = len(hc), len(tc)
            if self._c11:
                for a in hc:
                    for b in tc:
                        out.append(new(Action, (seat, kind, (a,), (b,), None)))
            if nt == 3 and self._c13:
                for a in hc:
                    out.append(Action(seat, kind, (a,), tc))
            if nh == 2 and nt == 2 and self._c22:
                out.append(Action(seat, kind, hc, tc))
            if nh == 3 and nt == 1 and self._c31:
                out.append(Action(seat, kind, hc, tc))
        return out

    def _can_capture_rank(self, nh: int, nt: int) -> bool:
        return bool((self._c11 and nh and nt) or (self._c13 and nh and nt == 3)
                    or (self._c22 and nh == 2 and nt == 2) or (self._c31 and nh == 3 and nt == 1))

    def can_capture(self, seat: int) -> bool:
        """True when ``seat`` holds a card that could capture under the ruleset's forms now."""
        h = self.hands[seat]
        common = _presence(h) & _presence(self.table)
        if not common:
            return False
        if self._c11:
            return True
        for rank in _ranks(common):
            if self._can_capture_rank(_rank_count(h, rank), _rank_count(self.table, rank)):
                return True
        return False

    # -- declarations -----------------------------------------------------------------------

    def _declarations(self, seat: int, h: int | None = None, wonall: int | None = None
                      ) -> list[Action]:
        """The declarations ``seat`` could make now (RULES.md 3.4, 3.6 ``declarations``), or
        those of hand mask ``h`` with ``wonall`` the won cards."""
        if h is None:
            h = self.hands[seat]
            if not h:
                return []
        if wonall is None:
            wonall = self.wonall
        decl = self._decl
        hc = _counts(h)
        out: list[Action] = []
        prial = ((hc & (hc >> 1)) | (hc >> 2)) & NIB       # count 3 or 4
        if prial and ("prial" in decl or "mournival" in decl):
            four = (hc >> 2) & NIB
            for rank in _ranks(prial):
                cs = cards_of(h & RANK_MASK[rank])
                if len(cs) == 4 and four and "mournival" in decl:
                    out.append(Action(seat, "declare_mournival", tuple(cs)))
                if "prial" in decl:
                    for pair in combinations(cs, 2):
                        out.append(Action(seat, "declare_prial", pair))
        pairs = (hc >> 1) & ~hc & ~(hc >> 2) & NIB          # count exactly 2
        if pairs and "dead_pair" in decl:
            for rank in _ranks(pairs & _dead_bits(wonall)):
                out.append(Action(seat, "declare_dead_pair", tuple(cards_of(h & RANK_MASK[rank]))))
        if "pair" in decl:
            for rank in _ranks(((hc >> 1) | (hc >> 2)) & NIB):   # count 2, 3 or 4
                for pair in combinations(cards_of(h & RANK_MASK[rank]), 2):
                    out.append(Action(seat, "declare_pair", pair))
        return out

    def has_declaration(self, seat: int) -> bool:
        """True when ``seat`` holds cards it could declare under the ruleset's ``declarations``
        (a prial, a mournival, a dead pair, or any pair where ``pair`` is listed)."""
        h = self.hands[seat]
        return bool(h) and self._has_decl(h, _dead_bits(self.wonall))

    def could_declare(self, h: int, wonall: int | None = None) -> bool:
        """True when a hand of the cards in mask ``h`` could declare something (as
        :meth:`has_declaration`, for any cards), a pair being dead when its other two cards are
        among the won cards ``wonall`` (default: this position's; 0: no pair is dead)."""
        return bool(h) and self._has_decl(h, _dead_bits(self.wonall if wonall is None
                                                        else wonall))

    def _has_decl(self, h: int, dead: int) -> bool:
        """Could hand mask ``h`` declare something, with ``dead`` the dead-pair rank bits?"""
        a = (h & _N5) + ((h >> 1) & _N5)
        hc = (a & _N3) + ((a >> 2) & _N3)
        if self._decl_default:      # prial, mournival, dead pair: the shipped sources
            return bool(((hc & (hc >> 1)) | (hc >> 2) | ((hc >> 1) & ~hc & ~(hc >> 2) & dead))
                        & NIB)
        decl = self._decl
        if "pair" in decl and ((hc >> 1) | (hc >> 2)) & NIB:
            return True
        if "prial" in decl and ((hc & (hc >> 1)) | (hc >> 2)) & NIB:
            return True
        if "mournival" in decl and (hc >> 2) & NIB:
            return True
        return "dead_pair" in decl and bool((hc >> 1) & ~hc & ~(hc >> 2) & dead & NIB)

    def free_pending(self) -> bool:
        """Cheap test: could any seat make a free action now (a claim, a declaration under
        ``hand_plays: free``, or the dealer's taking of a table mournival)?"""
        if self.phase != PLAY:
            return False
        if self.oversights or (not self.started and self.table_mournivals):
            return True
        if not self._free:
            return False
        x = self.wonall
        a = (x & _N5) + ((x >> 1) & _N5)
        wc = (a & _N3) + ((a >> 2) & _N3)
        dead = (wc >> 1) & ~wc & ~(wc >> 2)
        if not self._decl_default:
            return any(h and self._has_decl(h, dead) for h in self.hands)
        for h in self.hands:
            if h:
                a = (h & _N5) + ((h >> 1) & _N5)
                hc = (a & _N3) + ((a >> 2) & _N3)
                if ((hc & (hc >> 1)) | (hc >> 2) | ((hc >> 1) & ~hc & ~(hc >> 2) & dead)) & NIB:
                    return True
        return False

    def free_possible(self, seat: int) -> bool:
        """Cheap test: could ``seat`` have any free action now (a claim is open, the dealer may
        take a table mournival, or a free declaration is possible)?"""
        if self.phase != PLAY:
            return False
        if self.oversights or (seat == self.dealer and not self.started and self.table_mournivals):
            return True
        if not self._free:
            return False
        h = self.hands[seat]
        if not h:
            return False
        x = self.wonall
        a = (x & _N5) + ((x >> 1) & _N5)
        wc = (a & _N3) + ((a >> 2) & _N3)
        return self._has_decl(h, (wc >> 1) & ~wc & ~(wc >> 2) & NIB)

    def dead_pairs(self, seat: int) -> tuple[int, ...]:
        """Ranks of the dead pairs in ``seat``'s hand: pairs whose other two cards are already
        among anyone's won cards (including the holder's own, RULES.md 6)."""
        h = self.hands[seat]
        hc = _counts(h)
        pairs = (hc >> 1) & ~hc & ~(hc >> 2) & NIB
        return tuple(_ranks(pairs & _dead_bits(self.wonall)))

    # -- legal actions ----------------------------------------------------------------------

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The legal actions now.

        Without ``seat``: the turn actions of the player to move (RULES.md 3.4, 3.6) — their
        captures; under ``hand_plays: turn`` also their declarations; ``lie_down`` only when there
        is nothing else; under ``captures_per_turn: any``, after a capture this turn, further
        captures and ``end_turn``; in the play-on phase, the last-in player's
        ``play_on_capture`` actions.  With ``seat``: everything that seat may do now — those turn
        actions when it is to move, then its free actions (:meth:`free_actions`).  Empty when the
        deal is over.  Each capture's form is :attr:`Action.form`.
        """
        if seat is not None:
            acts = self.legal_actions() if seat == self.to_move else []
            acts.extend(self.free_actions(seat))
            return acts
        if self.phase == OVER:
            return []
        p = self.to_move
        assert p is not None                # before the end, someone is to move
        if self.phase == PLAY_ON:
            return self._captures(p, "play_on_capture")
        acts = self._captures(p, "capture")
        if self.turn_captures:
            acts.append(Action(p, "end_turn"))
            return acts
        if not self._free:
            acts.extend(self._declarations(p))
        if not acts:
            acts.append(Action(p, "lie_down", tuple(cards_of(self.hands[p]))))
        return acts

    def free_actions(self, seat: int) -> list[Action]:
        """Actions ``seat`` may make now that are not turns: under ``hand_plays: free`` its
        declarations; its claims on open oversights (not its own); and, for the dealer before
        play starts, taking each table mournival.  Empty once play has ended.
        """
        if self.phase != PLAY:
            return []
        acts: list[Action] = []
        if seat == self.dealer and not self.started:
            for m in self.table_mournivals:
                if self.table & m == m:
                    acts.append(Action(seat, "take_table_mournival", tuple(cards_of(m))))
        if self._free:
            acts.extend(self._declarations(seat))
        acts.extend(self._claims(seat))
        return acts

    def all_legal_actions(self) -> list[Action]:
        """Every action any player may make now: the turn actions, then each seat's free actions."""
        acts = self.legal_actions()
        for seat in range(self.n):
            acts.extend(self.free_actions(seat))
        return acts

