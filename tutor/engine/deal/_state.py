"""The state of a deal and how actions change it (RULES.md 3.3-3.6): :class:`Deal` (its other
parts are mixed in from the private modules beside this one), :func:`deal_order`, :func:`new_deal`
(private to :mod:`tutor.engine.deal`, which re-exports the public names)."""

from __future__ import annotations

from collections.abc import Iterable

from tutor.engine.cards import cards_of, code
from tutor.engine.deal._bits import (
    _BIT,
    _FULL_SET,
    FULL_MASK,
    NIB,
    RANK_MASK,
    _counts,
    _rank_count,
    _ranks,
)
from tutor.engine.deal._checks import _Checks
from tutor.engine.deal._claims import CLAIM_TAKES, Oversight, _Claims
from tutor.engine.deal._moves import _Moves
from tutor.engine.deal._notation import OVER, PLAY, Action, _Notation
from tutor.engine.deal._settle import DealResult, _Settle
from tutor.engine.deal._shape import _DealState
from tutor.engine.deal._views import _Views
from tutor.engine.errors import IllegalAction, UsageError
from tutor.engine.rulesets import Ruleset
from tutor.engine.values import OversightKind

#: The state a push saves so that pop restores it (lists are copied).
_UNDO_SLOTS = ("table", "wonall", "aside", "discard", "to_move", "started", "phase",
               "last_capturer", "in_play", "result", "turn_captures", "pot", "_held")
_new_deal_object = object.__new__


def _check_seats(ruleset: Ruleset, players: int, dealer: int) -> None:
    """Refuse a player count the ruleset does not cover, or a dealer who is not a seat."""
    if players not in ruleset.counts:
        raise UsageError(f"ruleset {ruleset.id} does not cover {players} players "
                         f"(it covers {', '.join(map(str, ruleset.player_counts))})")
    if not isinstance(dealer, int) or not 0 <= dealer < players:
        raise UsageError(f"dealer must be a seat from 0 to {players - 1}")


def deal_order(players: int, dealer: int, hand: int) -> tuple[int | None, ...]:
    """Who receives each card of the pack (RULES.md 3.3): for pack index ``i`` (0 = top card) the
    seat dealt it, or None for a table card.  One card at a time to each player, starting with
    eldest (``(dealer + 1) % players``), ``hand`` cards each; the rest go to the table."""
    eldest = (dealer + 1) % players
    end = players * hand
    return tuple((eldest + i % players) % players if i < end else None for i in range(52))


class Deal(_Moves, _Claims, _Checks, _Settle, _Views, _Notation):
    """One deal in progress, from the deal to settlement (RULES.md 3.3-3.6).

    ``ruleset`` is a :class:`~tutor.engine.rulesets.Ruleset`; ``players`` a player count the
    ruleset covers; ``dealer`` a seat 0..players-1; ``pack`` the 52 cards top first.  Dealing:
    :func:`deal_order` (one card at a time to each player starting with eldest, ``hand`` cards
    each; the rest face up to the table).  The pot starts with the antes (RULES.md 3.3).

    Raises :class:`~tutor.engine.errors.UsageError` when the pack is not the 52 distinct cards,
    the dealer is not a seat, or the player count is not covered by the ruleset.
    """

    __slots__ = ()     # the state's slots are declared, with their types, by _DealState

    def __init__(self, ruleset: Ruleset, players: int, dealer: int, pack):
        _check_seats(ruleset, players, dealer)
        pack = tuple(pack)
        if len(pack) != 52 or set(pack) != _FULL_SET:
            raise UsageError("the pack must be the 52 distinct cards")
        self._setup(ruleset, players, dealer, pack)
        hand = self.rules.hand
        hands = [0] * players
        eldest = (dealer + 1) % players
        end = players * hand
        bit = _BIT.__getitem__
        for q in range(players):
            hands[(eldest + q) % players] = sum(map(bit, pack[q:end:players]))
        self.hands = hands
        self.table = sum(map(bit, pack[end:]))
        self.in_play = sum(1 for h in hands if h)
        self._find_table_mournivals()

    def _setup(self, ruleset: Ruleset, players: int, dealer: int, pack) -> None:
        """The ruleset's switches and an empty state (the caller deals the cards)."""
        game = ruleset.game(players)
        self.ruleset = ruleset
        self.game = game
        self.rules = game.count
        self.n = players
        self.dealer = dealer
        self.pack = pack
        self._c11 = game.c11
        self._c13 = game.c13
        self._c22 = game.c22
        self._c31 = game.c31
        self._free = game.free
        self._ov = game.oversights
        self._any = game.any
        self._decl = game.declarations
        self._decl_default = game.default_declarations
        self._pays = game.pays
        # A laid-down hand is an oversight only where some declaration could have taken it
        # (RULES.md 3.6 detail 3).
        self._ov_dead = game.ov_dead
        self._ov_prial = game.ov_prial
        self._ov_mourn = game.ov_mourn
        self._split = game.split_prial_claimable
        self.won = [0] * players
        self.wonall = 0
        self.aside = 0
        self.discard = 0
        self.outside = 0
        self.to_move = (dealer + 1) % players
        self.started = False
        self.phase = PLAY
        self.oversights: list[Oversight] = []
        self.history: list[Action] = []
        self.last_capturer: int | None = None
        self.result: DealResult | None = None
        self.turn_captures = 0
        pc = self.rules
        self.pot = pc.pot if ruleset.has_stakes and pc.pot is not None else 0
        self.payments: list[tuple[int, int | None, int]] = []
        self._undo: list[tuple] = []
        self._held: tuple = ()

    def _find_table_mournivals(self) -> None:
        four = (_counts(self.table) >> 2) & NIB
        self.table_mournivals = tuple(RANK_MASK[r] for r in _ranks(four))

    @classmethod
    def from_position(cls, ruleset: Ruleset, players: int, dealer: int, *,
                      hands: Iterable[Iterable[int]], table: Iterable[int] = (),
                      won: Iterable[Iterable[int]] | None = None, set_aside: Iterable[int] = (),
                      to_move: int | None = None, started: bool = True,
                      last_capturer: int | None = None, complete: bool = True) -> Deal:
        """A position built by hand (for teaching positions, puzzles and analysis).

        ``hands`` and ``won`` give each seat's cards (lists of card ints, one per seat),
        ``table`` the face-up cards, ``set_aside`` a set-aside table mournival; ``to_move`` the
        seat to move (default eldest; it must hold cards), ``started`` whether play has begun
        (before it, the dealer may still take a table mournival), ``last_capturer`` the seat that
        captured last.  With ``complete`` every one of the 52 cards must be placed; without it the
        cards not named are outside the deal (a teaching fragment: counting treats them as
        unseen).  The position has no history and no pack, so it cannot be written as a deal
        record.  Open oversights are not reconstructed.

        Raises :class:`~tutor.engine.errors.UsageError` for a card placed twice, missing cards
        (with ``complete``), a seat to move that holds no cards, or a bad player count or dealer.
        """
        _check_seats(ruleset, players, dealer)
        d = object.__new__(cls)
        d._setup(ruleset, players, dealer, None)
        d._place(hands, table, won, set_aside, complete)
        d.in_play = sum(1 for h in d.hands if h)
        d.started = started
        d.last_capturer = last_capturer
        if to_move is None:
            to_move = (dealer + 1) % players
            while not d.hands[to_move] and d.in_play:
                to_move = (to_move + 1) % players
        if not d.hands[to_move]:
            raise UsageError(f"player {to_move} is to move but holds no cards")
        d.to_move = to_move
        d._find_table_mournivals()
        if started:
            d.table_mournivals = ()
        return d

    def _place(self, hands, table, won, set_aside, complete: bool) -> None:
        """Put the cards of :meth:`from_position` in their places (each card once)."""
        players = self.n
        hands = [list(h) for h in hands]
        won_l = [list(w) for w in won] if won is not None else [[] for _ in range(players)]
        if len(hands) != players or len(won_l) != players:
            raise UsageError(f"give {players} hands and {players} won piles")
        placed = 0

        def place(cards: Iterable[int]) -> int:
            nonlocal placed
            m = 0
            for c in cards:
                if not isinstance(c, int) or not 0 <= c < 52:
                    raise UsageError(f"{c!r} is not a card")
                b = 1 << c
                if (placed | m) & b:
                    raise UsageError(f"{code(c)} is placed twice")
                m |= b
            placed |= m
            return m

        self.hands = [place(h) for h in hands]
        self.table = place(table)
        self.won = [place(w) for w in won_l]
        self.aside = place(set_aside)
        for w in self.won:
            self.wonall |= w
        missing = FULL_MASK & ~placed
        if missing and complete:
            raise UsageError(f"{len(cards_of(missing))} cards are not placed: "
                             + " ".join(code(c) for c in cards_of(missing)))
        self.outside = missing

    # -- basic queries ---------------------------------------------------------------------

    @property
    def players(self) -> int:
        """The player count."""
        return self.n

    @property
    def eldest(self) -> int:
        """The dealer's left-hand neighbour, who plays first."""
        return (self.dealer + 1) % self.n

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards in ``seat``'s hand, sorted."""
        return tuple(cards_of(self.hands[seat]))

    def table_cards(self) -> tuple[int, ...]:
        """The face-up table cards, sorted."""
        return tuple(cards_of(self.table))

    def won_cards(self, seat: int) -> tuple[int, ...]:
        """``seat``'s won cards, sorted."""
        return tuple(cards_of(self.won[seat]))

    def set_aside(self) -> tuple[int, ...]:
        """A table mournival turned face down for the last-in player (public), sorted."""
        return tuple(cards_of(self.aside))

    def table_count(self, rank: int) -> int:
        """How many cards of ``rank`` (0-12) lie on the table."""
        return _rank_count(self.table, rank)

    def hand_count(self, seat: int, rank: int) -> int:
        """How many cards of ``rank`` ``seat`` holds."""
        return _rank_count(self.hands[seat], rank)

    def won_count(self, rank: int, seat: int | None = None) -> int:
        """How many cards of ``rank`` are among ``seat``'s won cards (everyone's when None)."""
        return _rank_count(self.wonall if seat is None else self.won[seat], rank)

    def is_out(self, seat: int) -> bool:
        """True when ``seat`` holds no cards (lay down, or emptied their hand)."""
        return not self.hands[seat]

    def is_terminal(self) -> bool:
        """True once the deal is settled."""
        return self.phase == OVER

    @property
    def declarations_are_free(self) -> bool:
        """True when declarations are free actions (``hand_plays: free``), False when each is a
        turn."""
        return self._free

    def returns(self) -> tuple[int, ...]:
        """Net stakes (stakes and pot scoring) or points (pairs scoring) per seat.

        Raises :class:`~tutor.engine.errors.IllegalAction` while the deal is not over."""
        if self.result is None:
            raise IllegalAction("the deal is not over yet")
        return self.result.returns()

    def final_result(self) -> DealResult:
        """The settlement of a finished deal (:attr:`result`, typed as never None).

        Raises :class:`~tutor.engine.errors.IllegalAction` while the deal is not over."""
        if self.result is None:
            raise IllegalAction("the deal is not over yet")
        return self.result

    def clone(self, oversights: bool = True) -> Deal:
        """An independent copy of this state (its undo stack is not copied).  Without
        ``oversights`` the copy has no open oversight: the position a hint or an analysis for a
        seat is worked out on where nothing may say, or lean on, whether one is open (a claim is
        the player's own find, RULES.md 4)."""
        other = _new_deal_object(Deal)
        for name in _SHARED_SLOTS:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands[:]
        other.won = self.won[:]
        other.oversights = self.oversights[:] if oversights else []
        other.history = self.history[:]
        other.payments = self.payments[:]
        other._undo = []
        return other

    def _next_in_play(self, seat: int) -> int:
        n = self.n
        q = (seat + 1) % n
        hands = self.hands
        while not hands[q]:
            q = (q + 1) % n
        return q

    # -- push and pop ---------------------------------------------------------------------

    def push(self, action: Action) -> None:
        """Apply ``action`` (checked, as :meth:`apply`) so that :meth:`pop` can take it back.

        Raises :class:`~tutor.engine.errors.IllegalAction` with the reason."""
        snap = (tuple(getattr(self, s) for s in _UNDO_SLOTS), list(self.hands), list(self.won),
                list(self.oversights), len(self.history), len(self.payments),
                self.table_mournivals)
        self.apply(action)
        self._undo.append(snap)

    def pop(self) -> Action:
        """Take back the last action made with :meth:`push` and return it.

        Raises :class:`~tutor.engine.errors.IllegalAction` when there is nothing to take back."""
        if not self._undo:
            raise IllegalAction("there is no pushed action to take back")
        values, hands, won, oversights, nhist, npay, mourn = self._undo.pop()
        for name, v in zip(_UNDO_SLOTS, values):
            setattr(self, name, v)
        self.hands, self.won, self.oversights = hands, won, oversights
        self.table_mournivals = mourn
        action = self.history[nhist]
        del self.history[nhist:]
        del self.payments[npay:]
        return action

    # -- applying -------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply ``action`` after checking it; raises :class:`IllegalAction` with the reason."""
        action = Action.make(action.player, action.kind, action.cards, action.table, action.oversight)
        self._check(action)
        self.apply_unchecked(action)

    def apply_unchecked(self, a: Action) -> None:
        """Apply an action already known to be legal (from :meth:`legal_actions` or
        :meth:`free_actions`).  Behaviour is undefined for an illegal one."""
        kind = a.kind
        p = a.player
        self.history.append(a)
        if kind != "capture" and kind != "play_on_capture":
            _APPLY[kind](self, a)
            return
        cs, ts = a.cards, a.table
        if len(cs) == 1 and len(ts) == 1:
            hm, tm = _BIT[cs[0]], _BIT[ts[0]]
        else:
            bit = _BIT.__getitem__
            hm = sum(map(bit, cs))
            tm = sum(map(bit, ts))
        before = self.table
        self.hands[p] &= ~hm
        if not self.hands[p]:
            self.in_play -= 1
        self.table = before & ~tm
        self.won[p] |= hm | tm
        self.wonall |= hm | tm
        self.last_capturer = p
        if kind == "play_on_capture":
            if not self.can_capture(p):
                self._finish()
            return
        if not self.started:
            self._start()
        if len(ts) == 1 and len(cs) == 1 and self._split:
            rank = ts[0] >> 2
            if _rank_count(before, rank) == 3:
                self.oversights.append(Oversight(OversightKind.SPLIT_PRIAL, p, before & RANK_MASK[rank] & ~tm,
                                                 CLAIM_TAKES["split_prial"],
                                                 len(self.history) - 1))
        if self.oversights:
            self._prune_oversights()
        if self._any and self.hands[p] and self.in_play > 1 and self.can_capture(p):
            self.turn_captures += 1         # the same player may capture again
            return
        self._after_turn(p)

    def _apply_lie_down(self, a: Action) -> None:
        p = a.player
        h = self.hands[p]
        if not self.started:
            self._start()
        self.hands[p] = 0
        self.in_play -= 1
        self.table |= h
        if self._ov:
            self._note_laid_down(p, h)
        if self._pays is not None:
            self._pay_for_lying_down(p)
        self._after_turn(p)

    def _apply_claim(self, a: Action) -> None:
        m = sum(map(_BIT.__getitem__, a.cards))
        self.table &= ~m
        self.won[a.player] |= m
        self.wonall |= m
        self._prune_oversights()
        if self.turn_captures:
            self._turn_may_end()

    def _apply_take(self, a: Action) -> None:
        m = sum(map(_BIT.__getitem__, a.cards))
        self.table &= ~m
        if self.game.dealer_takes_table_mournival:
            self.won[a.player] |= m
            self.wonall |= m
        else:
            self.aside |= m

    def _apply_declaration(self, a: Action) -> None:
        p = a.player
        m = sum(map(_BIT.__getitem__, a.cards))
        self.hands[p] &= ~m
        self.won[p] |= m
        self.wonall |= m
        if not self._free:
            if not self.started:
                self._start()
            if self.hands[p]:
                self.to_move = self._next_in_play(p)
                return
        if not self.hands[p]:
            self.in_play -= 1
            if self.in_play <= 1:
                self._end_play()
            elif p == self.to_move:
                self.turn_captures = 0
                self.to_move = self._next_in_play(p)
        elif self.turn_captures:
            self._turn_may_end()

    def _turn_may_end(self) -> None:
        """Under ``captures_per_turn: any``, a free action between the captures of one turn may
        leave the mover unable to capture: the turn has then ended (RULES.md 3.6 detail 1)."""
        if self.phase == PLAY and not self.can_capture(self._mover):
            self._after_turn(self._mover)

    def _after_turn(self, p: int) -> None:
        self.turn_captures = 0
        if self.in_play <= 1:
            self._end_play()
        else:
            self.to_move = self._next_in_play(p)


#: How each action other than a capture changes the deal.
_APPLY = {"lie_down": Deal._apply_lie_down, "claim": Deal._apply_claim,
          "take_table_mournival": Deal._apply_take, "end_turn": lambda d, a: d._after_turn(a.player),
          **{k: Deal._apply_declaration for k in ("declare_prial", "declare_mournival",
                                                   "declare_dead_pair", "declare_pair")}}
#: The slots :meth:`Deal.clone` copies as they are (immutable values); the lists are copied.
_SHARED_SLOTS = tuple(name for name in _DealState.__slots__
                      if name not in ("hands", "won", "oversights", "history", "payments", "_undo"))


def new_deal(ruleset: Ruleset, players: int, dealer: int, rng) -> Deal:
    """A deal with a pack shuffled by ``rng`` (a ``random.Random``)."""
    pack = list(range(52))
    rng.shuffle(pack)
    return Deal(ruleset, players, dealer, pack)
