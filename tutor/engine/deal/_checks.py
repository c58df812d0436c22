"""Checks: whether an action is legal now and why not (RULES.md 3.3-3.6), and the invariants of
RULES.md 7 (private to :mod:`tutor.engine.deal`)."""

from __future__ import annotations

from tutor.engine.cards import RANK_PLURALS, cards_of, code, mask_of, rank_code
from tutor.engine.deal._bits import FULL_MASK, NIB, _counts, _rank_count, _ranks
from tutor.engine.deal._notation import (
    ACTION_KINDS,
    CAPTURE_FORM,
    CAPTURE_KINDS,
    DECLARATIONS,
    OVER,
    PLAY_ON,
    Action,
    not_in_hand,
    not_your_turn,
)
from tutor.engine.deal._shape import _DealState
from tutor.engine.errors import IllegalAction
from tutor.engine.parameters import CAPTURE_FORMS, DECLARATION_KINDS, spec
from tutor.engine.reasons import Cards, Reason, Seat

_FORMS = CAPTURE_FORMS


class _Checks(_DealState):
    """Legality and invariants (a part of :class:`~tutor.engine.deal.Deal`)."""

    __slots__ = ()

    def why_illegal(self, action: Action) -> Reason | None:
        """None when ``action`` is legal now, else the reason (a
        :class:`~tutor.engine.reasons.Reason`: a string, worded for a reader by its ``words``)."""
        try:
            self._check(action)
        except IllegalAction as exc:
            return exc.reason
        return None

    def _check(self, a: Action) -> None:
        """Raise :class:`IllegalAction` with the reason unless ``a`` is legal now."""
        n = self.n
        if not isinstance(a.player, int) or not 0 <= a.player < n:
            raise IllegalAction(f"there is no player {a.player!r} in a {n}-player deal")
        if self.phase == OVER:
            raise IllegalAction("the deal is over")
        kind = a.kind
        if kind not in ACTION_KINDS:
            raise IllegalAction(f"unknown action {kind!r}; expected one of {', '.join(ACTION_KINDS)}")
        if len(set(a.cards) | set(a.table)) != len(a.cards) + len(a.table):
            raise IllegalAction("a card is named twice")
        if self.phase == PLAY_ON:
            if kind != "play_on_capture":
                raise IllegalAction(Reason(
                    "play has ended; only {last} (last in) may still capture, alone "
                    "(play_on_capture)", code="play_has_ended", last=Seat(self._mover)))
        elif kind == "play_on_capture":
            raise IllegalAction("play_on_capture is only for the last-in player after play ends "
                                "under a ruleset where the last player plays on")
        if kind in CAPTURE_KINDS:
            self._check_turn(a)
            self._check_capture(a, self.hands[a.player])
        elif kind in DECLARATIONS:
            self._check_declaration(a)
        else:
            _CHECKS[kind](self, a)

    def _check_turn(self, a: Action) -> None:
        if a.player != self.to_move:
            raise IllegalAction(not_your_turn(self._mover, a.player))

    def _check_end_turn(self, a: Action) -> None:
        if not self._any:
            raise IllegalAction("a turn is one capture under this ruleset: there is no end_turn")
        self._check_turn(a)
        if not self.turn_captures:
            raise IllegalAction("a turn ends with end_turn only after at least one capture")

    def _check_lie_down(self, a: Action) -> None:
        p = a.player
        self._check_turn(a)
        if self.turn_captures:
            raise IllegalAction(Reason("{p:@ has|you have} captured this turn: end the turn "
                                       "(end_turn) instead of lying down",
                                       code="captured_this_turn", p=Seat(p)))
        caps = self._captures(p, "capture")
        if caps:
            c = caps[0]
            raise IllegalAction(Reason("{p} can capture ({table} with {cards}), so {p:|you }may "
                                       "not lie down", code="must_capture", p=Seat(p),
                                       table=Cards(c.table), cards=Cards(c.cards)))
        if not self._free and self._declarations(p):
            raise IllegalAction(Reason("{p} can still declare from hand, so {p:|you }may not lie "
                                       "down", code="must_declare", rule="hand_plays",
                                       p=Seat(p)))
        hmask = self.hands[p]
        if mask_of(a.cards) != hmask:
            raise IllegalAction(Reason("lying down puts the whole hand on the table: {cards}",
                                       code="whole_hand", cards=Cards(cards_of(hmask))))

    def _check_take(self, a: Action) -> None:
        if a.player != self.dealer:
            raise IllegalAction(Reason("only the dealer ({dealer}) takes a table mournival",
                                       code="only_the_dealer", dealer=Seat(self.dealer)))
        if self.started:
            raise IllegalAction("play has started; a table mournival left on the table is now "
                                "an oversight for the others to claim")
        m = mask_of(a.cards)
        if m not in self.table_mournivals or self.table & m != m:
            raise IllegalAction(Reason("{cards} is not a mournival on the table",
                                       code="no_table_mournival", cards=Cards(a.cards)))

    def _check_declaration(self, a: Action) -> None:
        p, kind, cards = a.player, a.kind, a.cards
        name = kind[len("declare_"):]
        if name not in self._decl:
            words = spec("declarations").words
            have = [words[d] for d in DECLARATION_KINDS if d in self._decl]
            raise IllegalAction(f"this ruleset has no {name.replace('_', ' ')} declaration "
                                f"(it has {', '.join(have) or 'none'})")
        if not self._free and p != self.to_move:
            raise IllegalAction(Reason("under this ruleset a declaration is a turn, and it is "
                                       "{mover:@'s|your} turn, not {p:@'s|yours}",
                                       code="declaration_is_a_turn", rule="hand_plays",
                                       mover=Seat(self._mover), p=Seat(p)))
        if not self._free and self.turn_captures:
            raise IllegalAction(Reason("under this ruleset a declaration is a whole turn, and "
                                       "{p:@ has|you have} captured this turn",
                                       code="declaration_is_a_turn", rule="hand_plays",
                                       p=Seat(p)))
        hmask = self.hands[p]
        if not hmask:
            raise IllegalAction(Reason("{p:@ holds|you hold} no cards", code="no_cards",
                                       p=Seat(p)))
        m = mask_of(cards)
        if m & hmask != m:
            raise IllegalAction(not_in_hand(cards_of(m & ~hmask), p))
        ranks = {c >> 2 for c in cards}
        if len(ranks) != 1:
            raise IllegalAction("a declaration is of cards of one rank")
        rank = ranks.pop()
        self._check_declared_cards(kind, len(cards), rank, _rank_count(hmask, rank))

    def _check_declared_cards(self, kind: str, count: int, rank: int, held: int) -> None:
        """A declaration of ``count`` cards of ``rank``, ``held`` of them in hand."""
        if kind == "declare_prial":
            if count != 2 or held < 3:
                raise IllegalAction(f"declaring a prial lays down two cards of a rank of which "
                                    f"the hand holds three or four (holds {held})")
        elif kind == "declare_mournival":
            if count != 4:
                raise IllegalAction("a mournival is all four cards of a rank")
        elif kind == "declare_pair":
            if count != 2:
                raise IllegalAction("declaring a pair lays down two cards of one rank")
        else:
            if count != 2 or held != 2:
                raise IllegalAction("a dead pair is exactly two cards of a rank held in hand")
            if _rank_count(self.wonall, rank) != 2:
                raise IllegalAction(f"the pair of {RANK_PLURALS[rank]} is not dead: the other "
                                    "two are not both among the won cards")

    def _check_capture(self, a: Action, hmask: int) -> None:
        p = a.player
        cards, table = a.cards, a.table
        if not cards or not table:
            raise IllegalAction("a capture plays cards from hand and takes cards from the table")
        hm, tm = mask_of(cards), mask_of(table)
        if hm & hmask != hm:
            raise IllegalAction(not_in_hand(cards_of(hm & ~hmask), p))
        if tm & self.table != tm:
            raise IllegalAction(Reason("{cards} not on the table", code="not_on_table",
                                       cards=Cards(cards_of(tm & ~self.table))))
        ranks = {c >> 2 for c in cards + table}
        if len(ranks) != 1:
            raise IllegalAction("a capture takes cards of the same rank as the cards played")
        rank = ranks.pop()
        nh, nt = len(cards), len(table)
        form = CAPTURE_FORM.get((nh, nt))
        if form is None:
            if (nh, nt) == (1, 2):
                raise IllegalAction("one card cannot take two: every win is two or four cards")
            raise IllegalAction(f"{nh} from hand for {nt} from the table is not a capture form")
        if form not in self.ruleset.captures:
            words = spec("captures").words
            allowed = ", ".join(words[f] for f in _FORMS if f in self.ruleset.captures)
            raise IllegalAction(Reason(f"not allowed here: this ruleset's captures are {allowed} "
                                       f"({words[form]} is not one of them)",
                                       code="capture_not_allowed", rule="captures"))
        if form == "one_for_three" and _rank_count(self.table, rank) != 3:
            raise IllegalAction("one for three takes all three of a rank on the table")

    # -- invariants -----------------------------------------------------------------------

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` naming the broken invariant of RULES.md 7 (and 3.6), if any."""
        self._check_placement()
        if self.phase != OVER:
            self._check_play_invariants()
        else:
            self._check_settled()

    def _check_placement(self) -> None:
        masks = list(self.hands) + [self.table, self.aside, self.discard, self.outside] + list(self.won)
        total = 0
        for m in masks:
            if total & m:
                raise AssertionError(f"card in two places: {[code(c) for c in cards_of(total & m)]}")
            total |= m
        if total != FULL_MASK:
            raise AssertionError(f"cards missing: {[code(c) for c in cards_of(FULL_MASK & ~total)]}")
        if self.discard and self.phase != OVER:
            raise AssertionError("cards discarded before the end of the deal")

    def _check_play_invariants(self) -> None:
        wc = _counts(self.wonall)
        if wc & NIB:
            odd = [rank_code(r) for r in _ranks(wc & NIB)]
            raise AssertionError(f"odd number of won cards of rank {odd} during play")
        if self.in_play != sum(1 for h in self.hands if h):
            raise AssertionError("in-play count out of step with the hands")
        if self.to_move is not None and not self.hands[self.to_move]:
            raise AssertionError(f"player {self.to_move} is to move but holds no cards")
        if self.turn_captures and (not self._any or not self.can_capture(self._mover)):
            raise AssertionError("a turn goes on though no further capture is possible")

    def _check_settled(self) -> None:
        res = self.result
        if res is None:
            raise AssertionError("the deal is over but has no result")
        if any(self.hands) or self.table:
            raise AssertionError("cards left in hand or on the table after settlement")
        rs = self.ruleset
        pc = self.rules
        paid = sum(s for _, _, s in res.payments)
        into_pot = sum(s for _, to, s in res.payments if to is None)
        if rs.scoring == "stakes":
            if self.discard or self.aside:
                raise AssertionError("stakes scoring ends with every card in a won pile")
            pot = (pc.pot or 0) - ((pc.last_in_bonus or 0) if res.bonus_to is not None else 0)
            for q in range(self.n):
                pot -= (len(res.won[q]) - (pc.breakeven or 0)) // 2
            if pot != 0:
                raise AssertionError(f"the pot ends at {pot}, not 0")
        elif rs.scoring == "pot":
            pot = (pc.pot or 0) + into_pot - sum(s.pot_share for s in res.settlement)
            if pot != 0:
                raise AssertionError(f"the pot ends at {pot}, not 0")
        else:
            bonus = (pc.last_in_bonus or 0) if res.bonus_to is not None else 0
            if sum(res.points) != sum(len(w) for w in res.won) // 2 + bonus:
                raise AssertionError("points do not sum to won cards / 2")
        if res.net is not None and sum(res.net) != 0:
            raise AssertionError(f"net results sum to {sum(res.net)}, not 0")
        if paid != sum(s.paid for s in res.settlement):
            raise AssertionError("lie-down payments out of step with the settlement")


_CHECKS = {"end_turn": _Checks._check_end_turn, "lie_down": _Checks._check_lie_down,
           "take_table_mournival": _Checks._check_take,
           "claim": lambda deal, a: deal._check_claim(a)}
