"""The end of a deal and its settlement (RULES.md 3.4 end of play, 3.5, 3.6): :class:`DealResult`,
:class:`SeatSettlement`, :class:`HeldDeclaration` and the deal's settling (private to
:mod:`tutor.engine.deal`, which re-exports the public names)."""

from __future__ import annotations

from typing import NamedTuple

from tutor.engine.cards import cards_of
from tutor.engine.deal._bits import _N3, _N5, NIB, RANK_MASK, _dead_bits
from tutor.engine.deal._notation import OVER, PLAY_ON, Action, one_declaration_per_rank
from tutor.engine.deal._shape import _DealState


class SeatSettlement(NamedTuple):
    """One seat's part of a finished deal's settlement (RULES.md 3.5, 3.6).

    Cards: ``won_in_play`` (won during play: captures, declarations, claims, a table mournival
    the dealer took), ``leftovers`` (the last hand and table cards received at the end),
    ``set_aside`` (a set-aside table mournival received at the end), ``won`` (all three).
    Stakes (0 without stakes): ``ante`` put up (a positive number), ``bonus`` taken,
    ``for_cards`` = (won - breakeven) / 2 under ``stakes`` scoring, ``paid`` and ``received``
    in lie-down payments, ``pot_share`` taken under ``pot`` scoring; ``net`` = -ante - paid +
    received + bonus + for_cards + pot_share, or None under pairs scoring without payments.
    ``points`` = won / 2 (+ any bonus) under pairs scoring, else None.
    """

    seat: int
    won_in_play: int
    leftovers: int
    set_aside: int
    won: int
    ante: int
    bonus: int
    for_cards: int
    paid: int
    received: int
    pot_share: int
    net: int | None
    points: int | None




class HeldDeclaration(NamedTuple):
    """A declaration the last player in could still have made when play ended, held to the end
    instead (RULES.md 3.4: under ``hand_plays: free`` a declaration may be made at any time the
    cards are held; once play ends, the last hand is leftovers, 3.2 ``leftovers_to``).

    ``action`` is the declaration (one a rank, the most specific: a mournival before a pair of a
    prial, a dead pair before a plain pair); ``cost`` the cards of it that did not end in the
    holder's won pile (0 when the leftovers went to the holder, or the holder captured them while
    playing on).  Under ``hand_plays: turn`` a declaration is a turn, and none is held this way.
    """

    action: Action
    cost: int


class DealResult:
    """A finished deal's settlement (RULES.md 3.5, 3.6).

    ``won`` holds each seat's won cards (leftovers included) as sorted tuples; ``leftovers_to`` is a
    seat or None (nobody); ``net`` is stakes per seat (None under pairs scoring, unless lying down
    pays: then the payment balance); ``points`` won cards / 2 per seat (None unless pairs scoring);
    ``bonus_to`` a seat or None; ``set_aside`` the table mournival turned face down at the deal (if
    any) and ``set_aside_to`` the seat that took it; ``last_capturer`` the seat that made the last
    capture (None if nobody captured); ``payments`` the lie-down payments in order as ``(payer,
    payee or None for the pot, stakes)``; ``pot_to`` the seats that shared the pot under ``pot``
    scoring; ``settlement`` the breakdown per seat (:class:`SeatSettlement`);
    ``held_declarations`` the declarations the last player in still held when play ended
    (:class:`HeldDeclaration`, with what holding each cost).

    The card tuples and the breakdown are worked out when first read (self-play and rollouts
    need only :meth:`returns`).  Results compare equal when every field is equal.
    """

    __slots__ = ("last_in", "bonus_to", "leftovers_to", "net", "points", "set_aside_to",
                 "last_capturer", "payments", "pot_to", "scoring", "_won_masks", "_left",
                 "_discard", "_aside", "_rows", "_won", "_rules", "held_declarations")

    def __init__(self, last_in, bonus_to, won_masks, leftovers_to, left, discard, net, points,
                 aside, set_aside_to, last_capturer, payments, pot_to, scoring, rules, held=()):
        self.last_in = last_in
        self.bonus_to = bonus_to
        self._won_masks = won_masks
        self.leftovers_to = leftovers_to
        self._left = left
        self._discard = discard
        self.net = net
        self.points = points
        self._aside = aside
        self.set_aside_to = set_aside_to
        self.last_capturer = last_capturer
        self.payments = payments
        self.pot_to = pot_to
        self.scoring = scoring
        self._rules = rules         # (won_in_play, ante, bonus, for_cards, paid, received, shares)
        self._won = None
        self._rows = None
        self.held_declarations: tuple[HeldDeclaration, ...] = held

    @property
    def won(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's won cards at the end, leftovers included, as sorted tuples."""
        if self._won is None:
            self._won = tuple(tuple(cards_of(w)) for w in self._won_masks)
        return self._won

    @property
    def leftovers(self) -> tuple[int, ...]:
        """The last hand and the table cards moved at the end, sorted."""
        return tuple(cards_of(self._left))

    @property
    def discard(self) -> tuple[int, ...]:
        """Cards that count for nobody (``leftovers_to: nobody``), sorted."""
        return tuple(cards_of(self._discard))

    @property
    def set_aside(self) -> tuple[int, ...]:
        """The set-aside table mournival, sorted (empty when there was none)."""
        return tuple(cards_of(self._aside))

    @property
    def settlement(self) -> tuple[SeatSettlement, ...]:
        """The breakdown per seat (:class:`SeatSettlement`)."""
        if self._rows is None:
            won_play, ante, bonus, for_cards, paid, received, shares = self._rules
            left, aside = self._left.bit_count(), self._aside.bit_count()
            rows = []
            for q, w in enumerate(self._won_masks):
                rows.append(SeatSettlement(
                    q, won_play[q], left if q == self.leftovers_to else 0,
                    aside if q == self.set_aside_to else 0, w.bit_count(), ante[q], bonus[q],
                    for_cards[q], paid[q], received[q], shares[q],
                    None if self.net is None else self.net[q],
                    None if self.points is None else self.points[q]))
            self._rows = tuple(rows)
        return self._rows

    def returns(self) -> tuple[int, ...]:
        """Points per seat under pairs scoring, else net stakes per seat."""
        if self.scoring == "pairs":
            return self.points
        return self.net

    def _key(self) -> tuple:
        return (self.last_in, self.bonus_to, self._won_masks, self.leftovers_to, self._left,
                self._discard, self.net, self.points, self._aside, self.set_aside_to,
                self.last_capturer, self.payments, self.pot_to, self.scoring, self._rules,
                self.held_declarations)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DealResult) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"DealResult(last_in={self.last_in}, bonus_to={self.bonus_to}, net={self.net}, "
                f"points={self.points})")



class _Settle(_DealState):
    """The end of play and the settlement (a part of :class:`~tutor.engine.deal.Deal`)."""

    __slots__ = ()

    def _pay_for_lying_down(self, p: int) -> None:
        """RULES.md 3.6: N stakes to each player still holding cards, in turn order from the
        payer's left, or N into the pot."""
        pays = self._pays
        assert pays is not None             # called only where lying down pays
        stakes, to = pays.stakes, pays.to
        if to == "pot":
            self.pot += stakes
            self.payments.append((p, None, stakes))
            return
        n = self.n
        for k in range(1, n):
            q = (p + k) % n
            if self.hands[q]:
                self.payments.append((p, q, stakes))

    def _end_play(self) -> None:
        """At most one player holds cards: play ends (RULES.md 3.4); open oversights lapse, and
        the last player in plays on alone where the ruleset says so, else the deal is settled."""
        last = self._last_in()
        if last is not None and self._free:
            self._held = self._held_declarations(last)
        self.oversights = []
        self.turn_captures = 0
        if last is not None and self.ruleset.last_in_plays_on and self.can_capture(last):
            self.phase = PLAY_ON
            self.to_move = last
            return
        self.to_move = last
        self._finish()

    def _held_declarations(self, last: int) -> tuple[tuple[Action, int], ...]:
        """The declarations ``last`` could have made just before the action that ended play
        (one a rank, the most specific), each with the mask of that rank in its hand."""
        h = self.hands[last]
        x = (h & _N5) + ((h >> 1) & _N5)
        hc = (x & _N3) + ((x >> 2) & _N3)           # each rank's count (_counts, inline)
        if not ((hc >> 1) | (hc >> 2)) & NIB:
            return ()                               # no two cards of one rank: nothing to declare
        won = self.wonall
        if self.history and self.history[-1].player != last:
            for c in self.history[-1].cards + self.history[-1].table:
                won &= ~(1 << c)             # won by the action that ended play
        if not self._has_decl(h, _dead_bits(won)):
            return ()
        return tuple((a, h & RANK_MASK[a.cards[0] >> 2])
                     for a in one_declaration_per_rank(self._declarations(last, h, won)))

    def _finish(self) -> None:
        """Settle the deal (RULES.md 3.5, 3.6): leftovers and any set-aside mournival move, the
        bonus, lie-down payments and the pot are paid, and :attr:`result` is written."""
        last = self._last_in()
        if last is None:
            last = self.to_move
        won_play = tuple([w.bit_count() for w in self.won])
        left, to = self._move_leftovers(last)
        aside, aside_to = self._move_set_aside(last) if self.aside else (0, None)
        won_counts = [w.bit_count() for w in self.won]
        bonus_to = self._bonus_winner(last)
        zero = (0,) * self.n
        paid, received = self._payment_totals() if self.payments else (zero, zero)
        pot_to, shares = (self._pot_shares(last, won_counts) if self.ruleset.scoring == "pot"
                          else ((), zero))
        bonus = [0] * self.n
        if bonus_to is not None:
            bonus[bonus_to] = self.rules.last_in_bonus or 0
        ante, for_cards, net, points = self._scores(won_counts, bonus, paid, received, shares)
        held = self._held and tuple(
            HeldDeclaration(a, max(0, len(a.cards) - (m & self.won[a.player]).bit_count()))
            for a, m in self._held)
        self.pot = 0
        self.result = DealResult(
            last, bonus_to, tuple(self.won), to, left, self.discard, net, points, aside,
            aside_to, self.last_capturer, tuple(self.payments), pot_to, self.ruleset.scoring,
            (won_play, tuple(ante), tuple(bonus), tuple(for_cards), tuple(paid), tuple(received),
             tuple(shares)), held)
        self.phase = OVER
        self.to_move = None

    def _last_in(self) -> int | None:
        """The one seat still holding cards (the first, if several), or None."""
        hands = self.hands
        for q in range(self.n):
            if hands[q]:
                return q
        return None

    def _move_leftovers(self, last: int | None) -> tuple[int, int | None]:
        """The last hand and the table go where ``leftovers_to`` says (RULES.md 3.2); returns
        (their mask, the seat or None)."""
        left = self.table | (self.hands[last] if last is not None else 0)
        if last is not None:
            self.hands[last] = 0
        self.table = 0
        lt = self.ruleset.leftovers_to
        to = self.dealer if lt == "dealer" else (last if lt == "last_in" else None)
        if to is None:
            self.discard |= left
        else:
            self.won[to] |= left
            self.wonall |= left
        return left, to

    def _move_set_aside(self, last: int | None) -> tuple[int, int | None]:
        """A set-aside table mournival goes to the last player in (RULES.md 3.3)."""
        aside = self.aside
        aside_to = last if last is not None else self.dealer
        self.won[aside_to] |= aside
        self.wonall |= aside
        self.aside = 0
        return aside, aside_to

    def _bonus_winner(self, last: int | None) -> int | None:
        """Who takes the bonus (RULES.md 3.2 ``bonus_to``, 3.4): the last player in, or the last
        capturer (the last player in when nobody captured); None without a bonus."""
        rs = self.ruleset
        if self.rules.last_in_bonus is None or rs.bonus_to is None:
            return None
        if rs.bonus_to == "last_in" or self.last_capturer is None:
            return last
        return self.last_capturer

    def _payment_totals(self) -> tuple:
        """Stakes each seat paid and received for lying down (RULES.md 3.6)."""
        n = self.n
        paid, received = [0] * n, [0] * n
        for payer, payee, stakes in self.payments:
            paid[payer] += stakes
            if payee is not None:
                received[payee] += stakes
        return paid, received

    def _pot_shares(self, last: int | None, won_counts: list[int]) -> tuple:
        """Under ``pot`` scoring, who shares the pot and each seat's share (RULES.md 3.6: a tie
        splits it, the odd stakes one each to the earliest tied seats from eldest)."""
        n = self.n
        if self.ruleset.pot_to == "last_in":
            assert last is not None         # play ends with one seat in (RULES.md 3.4)
            pot_to: tuple[int, ...] = (last,)
        else:
            best = max(won_counts)
            pot_to = tuple(q for q in range(n) if won_counts[q] == best)
        each, odd = divmod(self.pot, len(pot_to))
        shares = [0] * n
        for k, q in enumerate(sorted(pot_to, key=lambda q: (q - self.dealer - 1) % n)):
            shares[q] = each + (1 if k < odd else 0)
        return pot_to, shares

    def _scores(self, won_counts, bonus, paid, received, shares) -> tuple:
        """(ante, for_cards, net, points) per seat under the ruleset's scoring (RULES.md 3.5,
        3.6)."""
        n = self.n
        zero = (0,) * n
        scoring = self.ruleset.scoring
        if scoring == "pairs":
            points = tuple(won_counts[q] // 2 + bonus[q] for q in range(n))
            net = (tuple(received[q] - paid[q] for q in range(n))
                   if self._pays is not None else None)
            return zero, zero, net, points
        pc = self.rules
        ante = tuple(pc.ante(q, self.dealer) for q in range(n))
        breakeven = pc.breakeven or 0       # None only under pairs and pot scoring
        for_cards = (tuple((c - breakeven) // 2 for c in won_counts) if scoring == "stakes"
                     else zero)
        net = tuple(-ante[q] - paid[q] + received[q] + bonus[q] + for_cards[q] + shares[q]
                    for q in range(n))
        return ante, for_cards, net, None
