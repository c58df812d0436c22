"""The rules engine: one deal of Laugh and Lie Down under any ruleset (RULES.md 3-4, 7-8).

:class:`Deal` is the state.  Like an OpenSpiel state it offers :meth:`Deal.legal_actions`
(``legal_actions()``: the turn actions of the player to move; ``legal_actions(seat)``: everything
that seat may do now, its turn actions when it is to move plus its declarations and claims),
:meth:`Deal.apply` (which refuses an illegal action with the reason), :meth:`Deal.is_terminal`,
:meth:`Deal.returns`, :meth:`Deal.clone`, :meth:`Deal.push`/:meth:`Deal.pop` (apply and take
back), :meth:`Deal.parse_action` (the learner's notation read on the position, with precise
errors) and a per-player :meth:`Deal.view` with counting.  :meth:`Deal.from_position` builds a
hand-made position; a finished deal's :class:`DealResult` carries the whole settlement, seat by
seat (:class:`SeatSettlement`).

Cards are ints (see :mod:`tutor.engine.cards`).  Inside, each hand, the table and each won pile is
a 52-bit mask; four bits per rank ("nibble"), so rank counts are cheap bit arithmetic.

The engine branches only on ruleset parameters (:class:`tutor.engine.rulesets.Ruleset`, described
in :mod:`tutor.engine.parameters`), never on a source's name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from tutor.engine.cards import (RANK_NAMES, RANK_PLURALS, cards_of, code, mask_of, parse_card,
                                parse_rank, pretty_cards, rank_code)
from tutor.engine.errors import (AmbiguousAction, IllegalAction, IncompleteAction, InvalidAction,
                                 NotationError, UsageError)
from tutor.engine.rulesets import Ruleset

__all__ = ["ACTION_KINDS", "CAPTURE_KINDS", "DECLARATIONS", "TURN_KINDS", "Action", "CaptureOption",
           "Deal", "DealResult", "Oversight", "PlayerView", "RankCount", "SeatSettlement",
           "deal_order", "new_deal", "reachable_oversights"]

# --- bit helpers -------------------------------------------------------------------------

NIB = sum(1 << (4 * r) for r in range(13))      # bit 0 of every rank's nibble
_N5 = NIB * 5
_N3 = NIB * 3
RANK_MASK = tuple(0xF << (4 * r) for r in range(13))
FULL_MASK = (1 << 52) - 1


def _presence(x: int) -> int:
    """Bit 4r set where mask ``x`` holds at least one card of rank r."""
    y = x | (x >> 1)
    y |= y >> 2
    return y & NIB


def _counts(x: int) -> int:
    """Each rank's nibble replaced by the number of cards of that rank in ``x`` (0-4)."""
    a = (x & _N5) + ((x >> 1) & _N5)
    return (a & _N3) + ((a >> 2) & _N3)


def _ranks(bits: int) -> list[int]:
    """Ranks whose bit 4r is set in ``bits``."""
    out = []
    while bits:
        low = bits & -bits
        out.append((low.bit_length() - 1) >> 2)
        bits ^= low
    return out


#: _NIB_CARDS[rank][nibble]: the cards of ``rank`` whose suit bits are set in ``nibble``.
_NIB_CARDS = tuple(tuple(tuple(rank * 4 + s for s in range(4) if nib >> s & 1) for nib in range(16))
                   for rank in range(13))


def _rank_count(x: int, rank: int) -> int:
    return ((x >> (4 * rank)) & 15).bit_count()


def _dead_bits(wonall: int) -> int:
    """Bit 4r set where exactly two cards of rank r are among the won cards (a pair held of that
    rank is then dead)."""
    wc = _counts(wonall)
    return (wc >> 1) & ~wc & ~(wc >> 2) & NIB


# --- actions -----------------------------------------------------------------------------

CAPTURE_KINDS = frozenset({"capture", "play_on_capture"})
TURN_KINDS = frozenset({"capture", "lie_down", "play_on_capture", "end_turn"})
DECLARATIONS = frozenset({"declare_prial", "declare_mournival", "declare_dead_pair",
                          "declare_pair"})
ACTION_KINDS = ("take_table_mournival", "declare_prial", "declare_mournival", "declare_dead_pair",
                "declare_pair", "capture", "lie_down", "claim", "play_on_capture", "end_turn")
#: The declaration action of each name in the ruleset's ``declarations`` (RULES.md 3.6).
DECLARATION_ACTION = {"prial": "declare_prial", "mournival": "declare_mournival",
                      "dead_pair": "declare_dead_pair", "pair": "declare_pair"}
#: Capture forms by (hand cards, table cards) (RULES.md 3.2 ``captures``).
CAPTURE_FORM = {(1, 1): "one_for_one", (1, 3): "one_for_three", (2, 2): "pair_for_pair",
                (3, 1): "prial_for_one"}
_DECLARE_WORDS = {"declare_prial": "a pair of a prial", "declare_mournival": "a mournival",
                  "declare_dead_pair": "a dead pair", "declare_pair": "a pair"}


class Action(NamedTuple):
    """One action of a deal, as in deal records (RULES.md 9).

    ``player`` is a seat 0..n-1; ``kind`` one of :data:`ACTION_KINDS`.  For ``capture`` and
    ``play_on_capture``, ``cards`` are the hand cards played and ``table`` the table cards taken;
    for every other kind ``cards`` are the cards moved and ``table`` is empty.  ``oversight`` names
    the oversight kind of a ``claim``.  Card tuples are kept sorted, so equal actions compare equal.
    """

    player: int
    kind: str
    cards: tuple[int, ...] = ()
    table: tuple[int, ...] = ()
    oversight: str | None = None

    @classmethod
    def make(cls, player: int, kind: str, cards=(), table=(), oversight: str | None = None) -> "Action":
        """Build an action with its card tuples sorted."""
        return cls(player, kind, tuple(sorted(cards)), tuple(sorted(table)), oversight)

    @property
    def form(self) -> str | None:
        """The capture form of a capture (``one_for_one``, ``one_for_three``, ``pair_for_pair``,
        ``prial_for_one``; RULES.md 3.2), else None."""
        if self.kind not in CAPTURE_KINDS:
            return None
        return CAPTURE_FORM.get((len(self.cards), len(self.table)))

    @property
    def rank(self) -> int | None:
        """The rank (0 ace .. 12 king) of the cards the action moves, or None (lie down, end
        turn)."""
        if self.kind in ("lie_down", "end_turn"):
            return None
        cs = self.cards or self.table
        return cs[0] >> 2 if cs else None

    def notation(self) -> str:
        """How a learner types the action, read back by :meth:`Deal.parse_action`: ``7H 7S``
        (hand card first, then table cards), ``declare QC QD``, ``claim 9S 9D``, ``take``,
        ``lie down``, ``end turn``."""
        if self.kind in CAPTURE_KINDS:
            return " ".join(code(c) for c in self.cards + self.table)
        if self.kind == "lie_down":
            return "lie down"
        if self.kind == "end_turn":
            return "end turn"
        if self.kind == "take_table_mournival":
            return "take " + " ".join(code(c) for c in self.cards)
        if self.kind == "claim":
            return "claim " + " ".join(code(c) for c in self.cards)
        return "declare " + " ".join(code(c) for c in self.cards)

    def describe(self, symbols: bool = True, names: list[str] | None = None) -> str:
        """A sentence for people: ``Player 2 captures 7♥ with 7♠``."""
        who = names[self.player] if names else f"Player {self.player}"
        cs = pretty_cards(self.cards, symbols)
        if self.kind in CAPTURE_KINDS:
            tail = " (playing on)" if self.kind == "play_on_capture" else ""
            return f"{who} captures {pretty_cards(self.table, symbols)} with {cs}{tail}"
        if self.kind == "lie_down":
            return f"{who} lies down: {cs}"
        if self.kind == "end_turn":
            return f"{who} ends the turn"
        if self.kind == "claim":
            return f"{who} claims {cs} ({self.oversight.replace('_', ' ')})"
        if self.kind == "take_table_mournival":
            return f"{who} takes the table mournival {cs}"
        return f"{who} declares {_DECLARE_WORDS[self.kind]}: {cs}"


_DEFAULT_DECLARATIONS = frozenset({"prial", "mournival", "dead_pair"})
_tuple_new = tuple.__new__
_BIT = tuple(1 << c for c in range(52))
_FULL_SET = frozenset(range(52))


class Oversight(NamedTuple):
    """An open oversight (RULES.md 4): a mistake left on the table for others to claim.

    ``mask`` holds the cards concerned; the claim takes ``take`` of them (2 or 4), and stays
    claimable while at least ``take`` of them are still on the table.  ``offender`` may not claim it.
    """

    kind: str
    offender: int
    mask: int
    take: int
    index: int          # index in the deal's history of the action that made the mistake (-1: the deal)


#: The declarations that could have taken each laid-down hand (RULES.md 3.6 detail 3).
_TAKEN_BY = {"laid_down_dead_pair": frozenset({"dead_pair", "pair"}),
             "laid_down_prial": frozenset({"prial", "pair"}),
             "laid_down_mournival": frozenset({"mournival", "prial", "pair"})}


def reachable_oversights(ruleset: Ruleset) -> tuple[str, ...]:
    """The oversight kinds ``ruleset`` lists that its play can actually make (RULES.md 4, 3.6).

    A split prial needs one-for-one and one-for-three captures (only where a table prial could be
    taken whole is taking one of it a mistake).  A laid-down dead pair, prial or mournival is an
    oversight only where some declaration of the ruleset could have taken it (RULES.md 3.6 detail
    3), and where each declaration is a turn (``hand_plays: turn``) a player may lie down only
    when no declaration is possible (RULES.md 3.4), so such a hand is never laid down.
    """
    out = []
    for k in ruleset.value("oversights"):
        if k == "split_prial" and not {"one_for_one", "one_for_three"} <= ruleset.captures:
            continue
        if k in _TAKEN_BY and (ruleset.hand_plays == "turn"
                               or not _TAKEN_BY[k] & ruleset.declarations):
            continue
        out.append(k)
    return tuple(out)


def deal_order(players: int, dealer: int, hand: int) -> tuple[int | None, ...]:
    """Who receives each card of the pack (RULES.md 3.3): for pack index ``i`` (0 = top card) the
    seat dealt it, or None for a table card.  One card at a time to each player, starting with
    eldest (``(dealer + 1) % players``), ``hand`` cards each; the rest go to the table."""
    eldest = (dealer + 1) % players
    end = players * hand
    return tuple((eldest + i % players) % players if i < end else None for i in range(52))


# --- results and views ---------------------------------------------------------------------

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


class DealResult:
    """A finished deal's settlement (RULES.md 3.5, 3.6).

    ``won`` holds each seat's won cards (leftovers included) as sorted tuples; ``leftovers_to`` is a
    seat or None (nobody); ``net`` is stakes per seat (None under pairs scoring, unless lying down
    pays: then the payment balance); ``points`` won cards / 2 per seat (None unless pairs scoring);
    ``bonus_to`` a seat or None; ``set_aside`` the table mournival turned face down at the deal (if
    any) and ``set_aside_to`` the seat that took it; ``last_capturer`` the seat that made the last
    capture (None if nobody captured); ``payments`` the lie-down payments in order as ``(payer,
    payee or None for the pot, stakes)``; ``pot_to`` the seats that shared the pot under ``pot``
    scoring; ``settlement`` the breakdown per seat (:class:`SeatSettlement`).

    The card tuples and the breakdown are worked out when first read (self-play and rollouts
    need only :meth:`returns`).  Results compare equal when every field is equal.
    """

    __slots__ = ("last_in", "bonus_to", "leftovers_to", "net", "points", "set_aside_to",
                 "last_capturer", "payments", "pot_to", "scoring", "_won_masks", "_left",
                 "_discard", "_aside", "_rows", "_won", "_rules")

    def __init__(self, last_in, bonus_to, won_masks, leftovers_to, left, discard, net, points,
                 aside, set_aside_to, last_capturer, payments, pot_to, scoring, rules):
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
            return self.points  # type: ignore[return-value]
        return self.net  # type: ignore[return-value]

    def _key(self) -> tuple:
        return (self.last_in, self.bonus_to, self._won_masks, self.leftovers_to, self._left,
                self._discard, self.net, self.points, self._aside, self.set_aside_to,
                self.last_capturer, self.payments, self.pot_to, self.scoring, self._rules)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DealResult) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"DealResult(last_in={self.last_in}, bonus_to={self.bonus_to}, net={self.net}, "
                f"points={self.points})")


@dataclass(frozen=True)
class CaptureOption:
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


@dataclass(frozen=True)
class RankCount:
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


@dataclass(frozen=True)
class PlayerView:
    """What one seat can see (RULES.md 8): public facts, its own hand, and counting.

    Card collections are sorted tuples of cards; ``hand_sizes`` and ``out`` are per seat;
    ``unseen`` maps each rank 0-12 to the number of its cards the seat cannot see;
    ``dead_pairs`` are ranks of dead pairs in the seat's hand; ``capture_options`` the ranks it
    could capture now, with their risk.
    """

    seat: int
    players: int
    dealer: int
    to_move: int | None
    hand: tuple[int, ...]
    table: tuple[int, ...]
    won: tuple[tuple[int, ...], ...]
    set_aside: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    out: tuple[bool, ...]
    history: tuple[Action, ...]
    unseen: dict[int, int]
    dead_pairs: tuple[int, ...]
    capture_options: tuple[CaptureOption, ...]
    claims: tuple[Action, ...]

    def count(self, rank: int) -> RankCount:
        """Where the cards of ``rank`` are, as this seat sees them."""
        def n(cards: Iterable[int]) -> int:
            return sum(1 for c in cards if c >> 2 == rank)
        return RankCount(rank, n(self.table), n(self.hand), tuple(n(w) for w in self.won),
                         n(self.set_aside), self.unseen[rank])


# --- the deal ------------------------------------------------------------------------------

PLAY, PLAY_ON, OVER = "play", "play_on", "over"

#: The state a push saves so that pop restores it (lists are copied).
_UNDO_SLOTS = ("table", "wonall", "aside", "discard", "to_move", "started", "phase",
               "last_capturer", "in_play", "result", "turn_captures", "pot")


_new_deal_object = object.__new__


class Deal:
    """One deal in progress, from the deal to settlement (RULES.md 3.3-3.6).

    ``ruleset`` is a :class:`~tutor.engine.rulesets.Ruleset`; ``players`` a player count the
    ruleset covers; ``dealer`` a seat 0..players-1; ``pack`` the 52 cards top first.  Dealing:
    :func:`deal_order` (one card at a time to each player starting with eldest, ``hand`` cards
    each; the rest face up to the table).  The pot starts with the antes (RULES.md 3.3).

    Raises :class:`~tutor.engine.errors.UsageError` when the pack is not the 52 distinct cards,
    the dealer is not a seat, or the player count is not covered by the ruleset.
    """

    __slots__ = ("ruleset", "rules", "n", "dealer", "pack", "hands", "table", "won", "wonall",
                 "aside", "discard", "outside", "to_move", "started", "phase", "oversights",
                 "history", "last_capturer", "in_play", "result", "table_mournivals",
                 "turn_captures", "pot", "payments", "_undo", "_c11", "_c13", "_c22", "_c31",
                 "_free", "_ov", "_any", "_decl", "_decl_default", "_pays", "_ov_prial", "_ov_dead",
                 "_ov_mourn")

    def __init__(self, ruleset: Ruleset, players: int, dealer: int, pack):
        if players not in ruleset.counts:
            raise UsageError(f"ruleset {ruleset.id} does not cover {players} players "
                             f"(it covers {', '.join(map(str, ruleset.player_counts))})")
        pack = tuple(pack)
        if len(pack) != 52 or set(pack) != _FULL_SET:
            raise UsageError("the pack must be the 52 distinct cards")
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise UsageError(f"dealer must be a seat from 0 to {players - 1}")
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
        self.ruleset = ruleset
        self.rules = ruleset.count(players)
        self.n = players
        self.dealer = dealer
        self.pack = pack
        caps = ruleset.captures
        self._c11 = "one_for_one" in caps
        self._c13 = "one_for_three" in caps
        self._c22 = "pair_for_pair" in caps
        self._c31 = "prial_for_one" in caps
        self._free = ruleset.hand_plays == "free"
        self._ov = ruleset.oversights
        self._any = ruleset.captures_per_turn == "any"
        decl = ruleset.declarations
        self._decl = decl
        self._decl_default = decl == _DEFAULT_DECLARATIONS
        self._pays = ruleset.lie_down_pays
        ov = ruleset.oversights
        # A laid-down hand is an oversight only where some declaration could have taken it
        # (RULES.md 3.6 detail 3).
        self._ov_dead = "laid_down_dead_pair" in ov and bool(decl & _TAKEN_BY["laid_down_dead_pair"])
        self._ov_prial = "laid_down_prial" in ov and bool(decl & _TAKEN_BY["laid_down_prial"])
        self._ov_mourn = "laid_down_mournival" in ov and bool(decl & _TAKEN_BY["laid_down_mournival"])
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

    def _find_table_mournivals(self) -> None:
        four = (_counts(self.table) >> 2) & NIB
        self.table_mournivals = tuple(RANK_MASK[r] for r in _ranks(four))

    @classmethod
    def from_position(cls, ruleset: Ruleset, players: int, dealer: int, *,
                      hands: Iterable[Iterable[int]], table: Iterable[int] = (),
                      won: Iterable[Iterable[int]] | None = None, set_aside: Iterable[int] = (),
                      to_move: int | None = None, started: bool = True,
                      last_capturer: int | None = None, complete: bool = True) -> "Deal":
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
        if players not in ruleset.counts:
            raise UsageError(f"ruleset {ruleset.id} does not cover {players} players "
                             f"(it covers {', '.join(map(str, ruleset.player_counts))})")
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise UsageError(f"dealer must be a seat from 0 to {players - 1}")
        d = object.__new__(cls)
        d._setup(ruleset, players, dealer, None)
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

        d.hands = [place(h) for h in hands]
        d.table = place(table)
        d.won = [place(w) for w in won_l]
        d.aside = place(set_aside)
        for w in d.won:
            d.wonall |= w
        missing = FULL_MASK & ~placed
        if missing and complete:
            raise UsageError(f"{len(cards_of(missing))} cards are not placed: "
                             + " ".join(code(c) for c in cards_of(missing)))
        d.outside = missing
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

    def clone(self) -> "Deal":
        """An independent copy of this state (its undo stack is not copied)."""
        other = _new_deal_object(Deal)
        for name in _SHARED_SLOTS:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands[:]
        other.won = self.won[:]
        other.oversights = self.oversights[:]
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

    def would_split_prial(self, action: Action) -> bool:
        """True when ``action`` would make the ``split_prial`` oversight under this ruleset: a
        one-for-one capture from a table prial where one-for-three is allowed and the ruleset
        lets others claim the split (RULES.md 4)."""
        return (action.kind == "capture" and len(action.cards) == 1 and len(action.table) == 1
                and self._c13 and "split_prial" in self._ov
                and _rank_count(self.table, action.table[0] >> 2) == 3)

    # -- declarations -----------------------------------------------------------------------

    def _declarations(self, seat: int) -> list[Action]:
        h = self.hands[seat]
        if not h:
            return []
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
            for rank in _ranks(pairs & _dead_bits(self.wonall)):
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

    # -- claims ---------------------------------------------------------------------------

    def open_oversights(self) -> list[Oversight]:
        """The oversights still claimable now (RULES.md 4); empty once play has ended."""
        if self.phase != PLAY:
            return []
        t = self.table
        return [o for o in self.oversights if (t & o.mask).bit_count() >= o.take]

    def _claims(self, seat: int) -> list[Action]:
        if self.phase != PLAY or not self.oversights:
            return []
        t = self.table
        out = []
        for o in self.oversights:
            if o.offender == seat:
                continue
            on = t & o.mask
            if on.bit_count() < o.take:
                continue
            for combo in combinations(cards_of(on), o.take):
                out.append(Action(seat, "claim", combo, (), o.kind))
        return out

    def _prune_oversights(self) -> None:
        t = self.table
        self.oversights = [o for o in self.oversights if (t & o.mask).bit_count() >= o.take]

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

    # -- validation -------------------------------------------------------------------------

    def why_illegal(self, action: Action) -> str | None:
        """None when ``action`` is legal now, else the reason in words."""
        try:
            self._check(action)
        except IllegalAction as exc:
            return exc.reason
        return None

    def _check(self, a: Action) -> None:
        n = self.n
        if not isinstance(a.player, int) or not 0 <= a.player < n:
            raise IllegalAction(f"there is no player {a.player!r} in a {n}-player deal")
        if self.phase == OVER:
            raise IllegalAction("the deal is over")
        p = a.player
        kind = a.kind
        if kind not in ACTION_KINDS:
            raise IllegalAction(f"unknown action {kind!r}; expected one of {', '.join(ACTION_KINDS)}")
        cards = a.cards
        if len(set(cards) | set(a.table)) != len(cards) + len(a.table):
            raise IllegalAction("a card is named twice")
        if self.phase == PLAY_ON:
            if kind != "play_on_capture":
                raise IllegalAction(f"play has ended; only player {self.to_move} (last in) may "
                                    "still capture, alone (play_on_capture)")
        elif kind == "play_on_capture":
            raise IllegalAction("play_on_capture is only for the last-in player after play ends "
                                "under a ruleset where the last player plays on")
        hmask = self.hands[p]
        if kind in CAPTURE_KINDS:
            if p != self.to_move:
                raise IllegalAction(f"it is player {self.to_move}'s turn, not player {p}'s")
            self._check_capture(a, hmask)
            return
        if kind == "end_turn":
            if not self._any:
                raise IllegalAction("a turn is one capture under this ruleset: there is no "
                                    "end_turn")
            if p != self.to_move:
                raise IllegalAction(f"it is player {self.to_move}'s turn, not player {p}'s")
            if not self.turn_captures:
                raise IllegalAction("a turn ends with end_turn only after at least one capture")
            return
        if kind == "lie_down":
            if p != self.to_move:
                raise IllegalAction(f"it is player {self.to_move}'s turn, not player {p}'s")
            if self.turn_captures:
                raise IllegalAction(f"player {p} has captured this turn: end the turn "
                                    "(end_turn) instead of lying down")
            caps = self._captures(p, "capture")
            if caps:
                c = caps[0]
                raise IllegalAction(f"player {p} can capture ({pretty_cards(c.table)} with "
                                    f"{pretty_cards(c.cards)}), so may not lie down")
            if not self._free and self._declarations(p):
                raise IllegalAction(f"player {p} can still declare from hand, so may not lie down")
            if mask_of(cards) != hmask:
                raise IllegalAction(f"lying down puts the whole hand on the table: "
                                    f"{pretty_cards(cards_of(hmask))}")
            return
        if kind == "take_table_mournival":
            if p != self.dealer:
                raise IllegalAction(f"only the dealer (player {self.dealer}) takes a table mournival")
            if self.started:
                raise IllegalAction("play has started; a table mournival left on the table is now "
                                    "an oversight for the others to claim")
            m = mask_of(cards)
            if m not in self.table_mournivals or self.table & m != m:
                raise IllegalAction(f"{pretty_cards(cards)} is not a mournival on the table")
            return
        if kind in DECLARATIONS:
            name = kind[len("declare_"):]
            if name not in self._decl:
                raise IllegalAction(f"this ruleset has no {name.replace('_', ' ')} declaration "
                                    f"(declarations: {', '.join(sorted(self._decl)) or 'none'})")
            if not self._free and p != self.to_move:
                raise IllegalAction(f"under this ruleset a declaration is a turn, and it is player "
                                    f"{self.to_move}'s turn")
            if not self._free and self.turn_captures:
                raise IllegalAction("under this ruleset a declaration is a whole turn, and player "
                                    f"{p} has captured this turn")
            if not hmask:
                raise IllegalAction(f"player {p} holds no cards")
            m = mask_of(cards)
            if m & hmask != m:
                raise IllegalAction(f"{pretty_cards(cards_of(m & ~hmask))} not in player {p}'s hand")
            ranks = {c >> 2 for c in cards}
            if len(ranks) != 1:
                raise IllegalAction("a declaration is of cards of one rank")
            rank = ranks.pop()
            held = _rank_count(hmask, rank)
            if kind == "declare_prial":
                if len(cards) != 2 or held < 3:
                    raise IllegalAction(f"declaring a prial lays down two cards of a rank of which "
                                        f"the hand holds three or four (holds {held})")
            elif kind == "declare_mournival":
                if len(cards) != 4:
                    raise IllegalAction("a mournival is all four cards of a rank")
            elif kind == "declare_pair":
                if len(cards) != 2:
                    raise IllegalAction("declaring a pair lays down two cards of one rank")
            else:
                if len(cards) != 2 or held != 2:
                    raise IllegalAction("a dead pair is exactly two cards of a rank held in hand")
                if _rank_count(self.wonall, rank) != 2:
                    raise IllegalAction(f"the pair of {RANK_PLURALS[rank]} is not dead: the other "
                                        "two are not both among the won cards")
            return
        if kind == "claim":
            self._check_claim(a)
            return

    def _check_capture(self, a: Action, hmask: int) -> None:
        p = a.player
        cards, table = a.cards, a.table
        if not cards or not table:
            raise IllegalAction("a capture plays cards from hand and takes cards from the table")
        hm, tm = mask_of(cards), mask_of(table)
        if hm & hmask != hm:
            raise IllegalAction(f"{pretty_cards(cards_of(hm & ~hmask))} not in player {p}'s hand")
        if tm & self.table != tm:
            raise IllegalAction(f"{pretty_cards(cards_of(tm & ~self.table))} not on the table")
        ranks = {c >> 2 for c in cards + table}
        if len(ranks) != 1:
            raise IllegalAction("a capture takes cards of the same rank as the cards played")
        rank = ranks.pop()
        nh, nt = len(cards), len(table)
        on_table = _rank_count(self.table, rank)
        form = CAPTURE_FORM.get((nh, nt))
        if form is None:
            if (nh, nt) == (1, 2):
                raise IllegalAction("one card cannot take two: every win is two or four cards")
            raise IllegalAction(f"{nh} from hand for {nt} from the table is not a capture form")
        if form not in self.ruleset.captures:
            allowed = ", ".join(f for f in ("one_for_one", "one_for_three", "pair_for_pair",
                                            "prial_for_one") if f in self.ruleset.captures)
            raise IllegalAction(f"{form} is not allowed under ruleset {self.ruleset.id} "
                                f"(allowed: {allowed})")
        if form == "one_for_three" and on_table != 3:
            raise IllegalAction("one for three takes all three of a rank on the table")

    def _check_claim(self, a: Action) -> None:
        if not self.oversights:
            raise IllegalAction("there is nothing to claim")
        m = mask_of(a.cards)
        t = self.table
        offended = False
        for o in self.oversights:
            if o.kind != a.oversight:
                continue
            on = t & o.mask
            if on.bit_count() < o.take or m & on != m or len(a.cards) != o.take:
                continue
            if o.offender == a.player:
                offended = True
                continue
            return
        if offended:
            raise IllegalAction(f"player {a.player} made that mistake and may not claim it")
        raise IllegalAction(f"no open {str(a.oversight).replace('_', ' ')} oversight covers "
                            f"{pretty_cards(a.cards)}")

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
        if kind == "capture" or kind == "play_on_capture":
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
            if kind == "capture":
                if not self.started:
                    self._start()
                if (len(a.table) == 1 and len(a.cards) == 1 and self._c13
                        and "split_prial" in self._ov):
                    rank = a.table[0] >> 2
                    if _rank_count(before, rank) == 3:
                        self.oversights.append(Oversight("split_prial", p,
                                                         before & RANK_MASK[rank] & ~tm, 2,
                                                         len(self.history) - 1))
                if self.oversights:
                    self._prune_oversights()
                if self._any and self.hands[p] and self.in_play > 1 and self.can_capture(p):
                    self.turn_captures += 1         # the same player may capture again
                    return
                self._after_turn(p)
            else:
                if not self.can_capture(p):
                    self._finish()
            return
        if kind == "end_turn":
            self._after_turn(p)
            return
        if kind == "lie_down":
            h = self.hands[p]
            if not self.started:
                self._start()
            self.hands[p] = 0
            self.in_play -= 1
            self.table |= h
            if self._ov:
                hc = _counts(h)
                idx = len(self.history) - 1
                if self._ov_dead:
                    pairs = (hc >> 1) & ~hc & ~(hc >> 2) & NIB
                    if pairs:
                        for rank in _ranks(pairs & _dead_bits(self.wonall)):
                            self.oversights.append(Oversight("laid_down_dead_pair", p,
                                                             h & RANK_MASK[rank], 2, idx))
                if self._ov_prial:
                    for rank in _ranks(hc & (hc >> 1) & ~(hc >> 2) & NIB):
                        self.oversights.append(Oversight("laid_down_prial", p,
                                                         h & RANK_MASK[rank], 2, idx))
                if self._ov_mourn:
                    for rank in _ranks((hc >> 2) & NIB):
                        self.oversights.append(Oversight("laid_down_mournival", p,
                                                         h & RANK_MASK[rank], 4, idx))
            if self._pays is not None:
                self._pay_for_lying_down(p)
            self._after_turn(p)
            return
        m = 0
        for c in a.cards:
            m |= 1 << c
        if kind == "claim":
            self.table &= ~m
            self.won[p] |= m
            self.wonall |= m
            self._prune_oversights()
            if self.turn_captures:
                self._turn_may_end()
            return
        if kind == "take_table_mournival":
            self.table &= ~m
            if self.ruleset.table_mournival == "dealer_takes":
                self.won[p] |= m
                self.wonall |= m
            else:
                self.aside |= m
            return
        # declarations
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
        if self.phase == PLAY and not self.can_capture(self.to_move):
            self._after_turn(self.to_move)

    def _pay_for_lying_down(self, p: int) -> None:
        """RULES.md 3.6: N stakes to each player still holding cards, in turn order from the
        payer's left, or N into the pot."""
        stakes, to = self._pays.stakes, self._pays.to
        if to == "pot":
            self.pot += stakes
            self.payments.append((p, None, stakes))
            return
        n = self.n
        for k in range(1, n):
            q = (p + k) % n
            if self.hands[q]:
                self.payments.append((p, q, stakes))

    def _start(self) -> None:
        self.started = True
        if "overlooked_table_mournival" in self._ov:
            idx = len(self.history) - 1
            for m in self.table_mournivals:
                if self.table & m == m:
                    self.oversights.append(Oversight("overlooked_table_mournival", self.dealer,
                                                     m, 4, idx))

    def _after_turn(self, p: int) -> None:
        self.turn_captures = 0
        if self.in_play <= 1:
            self._end_play()
        else:
            self.to_move = self._next_in_play(p)

    def _end_play(self) -> None:
        last = next((q for q in range(self.n) if self.hands[q]), None)
        self.oversights = []
        self.turn_captures = 0
        if last is not None and self.ruleset.last_in_plays_on and self.can_capture(last):
            self.phase = PLAY_ON
            self.to_move = last
            return
        self.to_move = last
        self._finish()

    def _finish(self) -> None:
        hands = self.hands
        last = None
        for q in range(self.n):
            if hands[q]:
                last = q
                break
        if last is None:
            last = self.to_move
        rs = self.ruleset
        pc = self.rules
        n = self.n
        won = self.won
        won_play = [w.bit_count() for w in won]
        left = self.table | (hands[last] if last is not None else 0)
        if last is not None:
            hands[last] = 0
        self.table = 0
        lt = rs.leftovers_to
        to = self.dealer if lt == "dealer" else (last if lt == "last_in" else None)
        if to is None:
            self.discard |= left
        else:
            won[to] |= left
        aside, aside_to = self.aside, None
        if aside:
            aside_to = last if last is not None else self.dealer
            won[aside_to] |= aside
            self.aside = 0
        wonall = 0
        for w in won:
            wonall |= w
        self.wonall = wonall
        won_counts = [w.bit_count() for w in won]
        bonus_to = None
        if pc.last_in_bonus is not None and rs.bonus_to is not None:
            if rs.bonus_to == "last_in" or self.last_capturer is None:
                bonus_to = last
            else:
                bonus_to = self.last_capturer
        zero = (0,) * n
        paid = received = shares = zero
        if self.payments:
            paid, received = [0] * n, [0] * n
            for payer, payee, stakes in self.payments:
                paid[payer] += stakes
                if payee is not None:
                    received[payee] += stakes
        pot_to: tuple[int, ...] = ()
        scoring = rs.scoring
        if scoring == "pot":
            if rs.pot_to == "last_in":
                pot_to = (last,)
            else:
                best = max(won_counts)
                pot_to = tuple(q for q in range(n) if won_counts[q] == best)
            each, odd = divmod(self.pot, len(pot_to))
            shares = [0] * n
            for k, q in enumerate(sorted(pot_to, key=lambda q: (q - self.dealer - 1) % n)):
                shares[q] = each + (1 if k < odd else 0)    # the odd stakes from eldest
        bonus = [0] * n
        if bonus_to is not None:
            bonus[bonus_to] = pc.last_in_bonus or 0
        if scoring == "pairs":
            ante = for_cards = zero
            points = tuple(won_counts[q] // 2 + bonus[q] for q in range(n))
            net = (tuple(received[q] - paid[q] for q in range(n))
                   if self._pays is not None else None)
        else:
            points = None
            ad, ao = pc.ante_dealer, pc.ante_other
            ante = tuple(ad if q == self.dealer else ao for q in range(n))
            if scoring == "stakes":
                be = pc.breakeven
                for_cards = tuple((c - be) // 2 for c in won_counts)
            else:
                for_cards = zero
            net = tuple(-ante[q] - paid[q] + received[q] + bonus[q] + for_cards[q] + shares[q]
                        for q in range(n))
        self.pot = 0
        self.result = DealResult(
            last, bonus_to, tuple(won), to, left, self.discard, net, points, aside, aside_to,
            self.last_capturer, tuple(self.payments), pot_to, scoring,
            (tuple(won_play), tuple(ante), tuple(bonus), tuple(for_cards), tuple(paid),
             tuple(received), tuple(shares)))
        self.phase = OVER
        self.to_move = None

    # -- counting and views ---------------------------------------------------------------

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
            name = RANK_PLURALS[rank]
            risk = bool((risky >> (4 * rank)) & 1)
            if risk:
                why = (f"a lone {RANK_NAMES[rank]} on the table with {u} unseen: an opponent may "
                       "take it before your next turn")
            elif nt >= 2:
                why = (f"{nt} {name} on the table and at most {u} unseen: no opponent can take "
                       "them all before your next turn")
            elif u == 0:
                why = (f"the other {name} are all won or in your hand: nobody else can take the "
                       "lone one")
            elif not self._c11:
                why = "no one-for-one capture under this ruleset, so nobody can take it"
            elif not movers:
                why = "nobody else moves before you again"
            else:
                why = ("every opponent to move before you holds one card, so play ends before "
                       "your next turn")
            out.append(CaptureOption(rank, nt, nh, u, risk, why))
        return out

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
                return lone if self.in_play > 1 else 0
            movers, _ = self.movers_before(seat)
            return lone if movers else 0
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

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` can see now, with its counting (RULES.md 8)."""
        seen = self.table | self.wonall | self.aside | self.hands[seat]
        return PlayerView(
            seat=seat, players=self.n, dealer=self.dealer, to_move=self.to_move,
            hand=self.hand(seat), table=self.table_cards(),
            won=tuple(self.won_cards(q) for q in range(self.n)), set_aside=self.set_aside(),
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            out=tuple(not h for h in self.hands), history=tuple(self.history),
            unseen={r: 4 - _rank_count(seen, r) for r in range(13)},
            dead_pairs=self.dead_pairs(seat) if self.phase == PLAY else (),
            capture_options=tuple(self.capture_options(seat)),
            claims=tuple(self._claims(seat)))

    def rank_count(self, seat: int, rank: int) -> RankCount:
        """Where the cards of ``rank`` are as ``seat`` sees them (RULES.md 8)."""
        return RankCount(rank, _rank_count(self.table, rank), _rank_count(self.hands[seat], rank),
                         tuple(_rank_count(w, rank) for w in self.won),
                         _rank_count(self.aside, rank), self.unseen(seat, rank))

    # -- reading moves --------------------------------------------------------------------

    def parse_action(self, text: str, seat: int) -> Action:
        """Read ``text``, a move as a learner types it, for ``seat`` on this position.

        The notation (case and commas do not matter; suits as letters or ♣♦♥♠; ten as T or 10):

        - a capture: the hand card(s), then the table card(s) taken: ``7h 7s``, ``7h 7d 7c 7s``;
          ``capture`` may come first; the hand card alone (``7h``) when only one capture plays it;
        - ``declare`` and the cards (``declare qc qd``, all four of a mournival), or the rank
          alone when that leaves one choice; two or four hand cards of one rank with no table card
          also declare;
        - ``claim`` and the cards (``claim 9s 9d``), or the rank (``claim 9``), or nothing, when
          one oversight is open to the seat;
        - ``take`` (the dealer takes a table mournival), ``lie down`` (or ``ld``), ``end turn``.

        Returns the one legal :class:`Action` meant.  Raises :class:`~tutor.engine.errors.
        InvalidAction` when a word is not a card, rank or move word;
        :class:`~tutor.engine.errors.IllegalAction` with the engine's reason (not in your hand,
        not on the table, not your turn, nothing to claim, ...);
        :class:`~tutor.engine.errors.IncompleteAction` when a claim or declaration names some but
        not all of its cards; :class:`~tutor.engine.errors.AmbiguousAction` when several legal
        actions fit (``candidates`` lists them).  Every error names the input.
        """
        raw = " ".join(str(text).replace(",", " ").split())
        low = raw.lower()
        words = low.split()
        if not words:
            raise InvalidAction("no move: name a card, or a move word (declare, claim, take, "
                                "lie down, end turn)", raw, seat)
        if low in _LIE_WORDS:
            return self._parsed([Action.make(seat, "lie_down", self.hand(seat))], raw, seat)
        if low in _END_WORDS:
            return self._parsed([Action(seat, "end_turn")], raw, seat)
        head, rest = words[0], words[1:]
        if head in ("capture", "cap"):
            words = rest
            head = "capture"
            if not words:
                raise IncompleteAction("name the cards: capture 7h 7s", raw, seat)
        if head == "claim":
            return self._parse_claim(rest, raw, seat)
        if head in ("declare", "decl"):
            return self._parse_declare(rest, raw, seat)
        if head == "take":
            return self._parse_take(rest, raw, seat)
        cards = self._read_cards(words, raw, seat, ranks=False)
        return self._parse_cards(cards, raw, seat)

    def _read_cards(self, words: list[str], raw: str, seat: int, ranks: bool
                    ) -> list[int] | int:
        """The cards named by ``words`` (or, with ``ranks``, a rank named alone: an int rank
        returned in place of the list)."""
        if ranks and len(words) == 1:
            try:
                return parse_rank(words[0])
            except NotationError:
                pass
        cards: list[int] = []
        for w in words:
            try:
                c = parse_card(w)
            except NotationError as exc:
                raise InvalidAction(str(exc), raw, seat) from None
            if c in cards:
                raise InvalidAction(f"{code(c)} is named twice", raw, seat)
            cards.append(c)
        return cards

    def _parsed(self, cands: list[Action], raw: str, seat: int) -> Action:
        legal = [a for a in cands if self.why_illegal(a) is None]
        if len(legal) == 1:
            return legal[0]
        if legal:
            raise AmbiguousAction("that fits several moves: "
                                  + "; ".join(a.notation() for a in legal), raw, seat, legal)
        raise IllegalAction(self.why_illegal(cands[0]) or "not a move now", raw, seat)

    def _parse_claim(self, words: list[str], raw: str, seat: int) -> Action:
        cands = [a for a in self.free_actions(seat) if a.kind == "claim"]
        named = self._read_cards(words, raw, seat, ranks=True) if words else None
        if isinstance(named, int):
            cands = [a for a in cands if a.cards[0] >> 2 == named]
            if not cands:
                raise IllegalAction(self._nothing_to_claim(seat, f"no open oversight of "
                                                                 f"{RANK_PLURALS[named]}"), raw, seat)
        elif named:
            exact = [a for a in cands if set(a.cards) == set(named)]
            if exact:
                return exact[0] if len(exact) == 1 else self._one_kind(exact, raw, seat)
            wider = [a for a in cands if set(named) < set(a.cards)]
            if wider:
                need = len(wider[0].cards)
                raise IncompleteAction(f"which cards? a claim of {wider[0].oversight.replace('_', ' ')} "
                                       f"names all {need}: " + "; ".join(
                                           dict.fromkeys(a.notation() for a in wider)),
                                       raw, seat, wider)
            reason = next((r for r in (self.why_illegal(Action.make(seat, "claim", named, (), k))
                                       for k in sorted(self._ov)) if r and "covers" not in r),
                          None)
            raise IllegalAction(reason or self._nothing_to_claim(
                seat, f"no open oversight covers {pretty_cards(named)}"), raw, seat)
        if not cands:
            raise IllegalAction(self._nothing_to_claim(seat), raw, seat)
        return self._one_kind(cands, raw, seat)

    def _one_kind(self, cands: list[Action], raw: str, seat: int) -> Action:
        """One action among ``cands`` when they are all the same move on cards of one rank
        (the same kind and oversight, the same number of cards: which suits does not matter),
        else AmbiguousAction."""
        keys = {(a.kind, a.oversight, a.cards[0] >> 2, len(a.cards), len(a.table)) for a in cands}
        if len(keys) == 1:
            return cands[0]
        choices = list(dict.fromkeys(cands))
        raise AmbiguousAction("that fits several moves: name the cards: "
                              + "; ".join(a.notation() for a in choices), raw, seat, choices)

    def _nothing_to_claim(self, seat: int, default: str | None = None) -> str:
        if not self._ov:
            return "this ruleset lists no oversights: there is never anything to claim"
        if self.phase != PLAY:
            return "play has ended: there is nothing to claim"
        if default:
            return default
        if any(o.offender == seat for o in self.open_oversights()):
            return "the only open oversight is your own mistake, and you may not claim it"
        return "there is nothing to claim"

    def _parse_declare(self, words: list[str], raw: str, seat: int) -> Action:
        if not words:
            raise IncompleteAction("name the cards to declare: declare qc qd (two of a prial, a "
                                   "dead pair), or all four of a mournival", raw, seat)
        named = self._read_cards(words, raw, seat, ranks=True)
        decls = [a for a in self.legal_actions(seat) if a.kind in DECLARATIONS]
        if isinstance(named, int):
            mine = [a for a in decls if a.cards[0] >> 2 == named]
            if not mine:
                why = (f"you hold no {RANK_PLURALS[named]} to declare"
                       if not _rank_count(self.hands[seat], named) else
                       f"there is no declaration of {RANK_PLURALS[named]} now")
                raise IllegalAction(why, raw, seat)
            return self._one_kind(self._preferred(mine), raw, seat)
        return self._declare_cards(tuple(sorted(named)), decls, raw, seat)

    @staticmethod
    def _preferred(decls: list[Action]) -> list[Action]:
        """Where one set of cards is several declarations (a pair of a prial is also a plain
        pair), keep the most specific one."""
        order = {"declare_mournival": 0, "declare_prial": 1, "declare_dead_pair": 2,
                 "declare_pair": 3}
        best: dict[tuple[int, ...], Action] = {}
        for a in decls:
            if a.cards not in best or order[a.kind] < order[best[a.cards].kind]:
                best[a.cards] = a
        return list(best.values())

    def _declare_cards(self, named: tuple[int, ...], decls: list[Action], raw: str,
                       seat: int) -> Action:
        exact = self._preferred([a for a in decls if a.cards == named])
        if exact:
            return exact[0]
        wider = [a for a in decls if set(named) < set(a.cards)]
        if wider and len(named) < 2:
            raise IncompleteAction("which cards? a declaration names two cards (or all four of "
                                   "a mournival): " + "; ".join(a.notation() for a in
                                                                self._preferred(wider)),
                                   raw, seat, self._preferred(wider))
        held = _rank_count(self.hands[seat], named[0] >> 2)
        kind = ("declare_mournival" if len(named) == 4 else
                "declare_prial" if held >= 3 and "prial" in self._decl else
                "declare_dead_pair" if "dead_pair" in self._decl else "declare_pair")
        reason = self.why_illegal(Action.make(seat, kind, named))
        raise IllegalAction(reason or "that is not a declaration you can make now", raw, seat)

    def _parse_take(self, words: list[str], raw: str, seat: int) -> Action:
        if words and words not in (["mournival"], ["the", "mournival"], ["table", "mournival"]):
            named = self._read_cards(words, raw, seat, ranks=True)
            rank = named if isinstance(named, int) else named[0] >> 2
            m = RANK_MASK[rank]
            return self._parsed([Action.make(seat, "take_table_mournival", cards_of(m))], raw, seat)
        acts = [Action.make(seat, "take_table_mournival", cards_of(m)) for m in RANK_MASK
                if self.table & m == m]
        if not acts:
            raise IllegalAction("there is no mournival (four of a rank) on the table", raw, seat)
        return self._parsed(acts, raw, seat)

    def _parse_cards(self, cards: list[int], raw: str, seat: int) -> Action:
        hand, table = self.hands[seat], self.table
        loose = [c for c in cards if not (hand >> c) & 1 and not (table >> c) & 1]
        if loose:
            where = "not in your hand" if len(cards) == 1 else "neither in your hand nor on the table"
            raise IllegalAction(f"{' '.join(code(c) for c in loose)}: {where}", raw, seat)
        h = tuple(sorted(c for c in cards if (hand >> c) & 1))
        t = tuple(sorted(c for c in cards if (table >> c) & 1))
        if not h:
            raise IllegalAction("name a card from your hand first (7h captures with the seven "
                                "of hearts)", raw, seat)
        ranks = {c >> 2 for c in cards}
        if len(ranks) != 1:
            raise IllegalAction("a capture takes cards of the same rank as the cards played",
                                raw, seat)
        rank = ranks.pop()
        if not t and len(h) in (2, 4):
            decls = [a for a in self.legal_actions(seat) if a.kind in DECLARATIONS]
            exact = self._preferred([a for a in decls if a.cards == h])
            if exact:
                return exact[0]
        if self.phase == OVER:
            raise IllegalAction("the deal is over", raw, seat)
        if self.to_move != seat:
            raise IllegalAction(f"it is player {self.to_move}'s turn, not player {seat}'s",
                                raw, seat)
        caps = [a for a in self.legal_actions()
                if a.kind in CAPTURE_KINDS and a.cards == h and set(t) <= set(a.table)]
        exact = [a for a in caps if a.table == t]
        if len(exact) == 1:
            return exact[0]
        if caps and not t:
            if len(caps) == 1:
                return caps[0]
            raise AmbiguousAction("which table cards? " + "; ".join(a.notation() for a in caps),
                                  raw, seat, caps)
        if caps:
            raise IncompleteAction("which table cards? that capture takes " + "; ".join(
                a.notation() for a in caps), raw, seat, caps)
        if not _rank_count(table, rank):
            raise IllegalAction(f"there is no {RANK_NAMES[rank]} on the table to capture",
                                raw, seat)
        kind = "play_on_capture" if self.phase == PLAY_ON else "capture"
        on_table = tuple(cards_of(table & RANK_MASK[rank]))
        guess = Action.make(seat, kind, h, t or on_table)
        raise IllegalAction(self.why_illegal(guess) or "that is not one of your moves now",
                            raw, seat)

    # -- invariants -----------------------------------------------------------------------

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` naming the broken invariant of RULES.md 7 (and 3.6), if any."""
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
        if self.phase != OVER:
            wc = _counts(self.wonall)
            if wc & NIB:
                odd = [rank_code(r) for r in _ranks(wc & NIB)]
                raise AssertionError(f"odd number of won cards of rank {odd} during play")
            if self.in_play != sum(1 for h in self.hands if h):
                raise AssertionError("in-play count out of step with the hands")
            if self.to_move is not None and not self.hands[self.to_move]:
                raise AssertionError(f"player {self.to_move} is to move but holds no cards")
            if self.turn_captures and (not self._any or not self.can_capture(self.to_move)):
                raise AssertionError("a turn goes on though no further capture is possible")
            return
        res = self.result
        if any(self.hands) or self.table:
            raise AssertionError("cards left in hand or on the table after settlement")
        rs = self.ruleset
        pc = self.rules
        paid = sum(s for _, _, s in res.payments)
        into_pot = sum(s for _, to, s in res.payments if to is None)
        if rs.scoring == "stakes":
            if self.discard or self.aside:
                raise AssertionError("stakes scoring ends with every card in a won pile")
            pot = pc.pot - (pc.last_in_bonus if res.bonus_to is not None else 0)
            for q in range(self.n):
                pot -= (len(res.won[q]) - pc.breakeven) // 2
            if pot != 0:
                raise AssertionError(f"the pot ends at {pot}, not 0")
        elif rs.scoring == "pot":
            pot = pc.pot + into_pot - sum(s.pot_share for s in res.settlement)
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


#: The slots :meth:`Deal.clone` copies as they are (immutable values); the lists are copied.
_SHARED_SLOTS = tuple(name for name in Deal.__slots__
                      if name not in ("hands", "won", "oversights", "history", "payments", "_undo"))

_LIE_WORDS = frozenset({"ld", "lie down", "lie", "lay down", "liedown", "lie-down", "i lie down"})
_END_WORDS = frozenset({"end turn", "end", "end_turn", "end-turn", "done", "stop"})


def new_deal(ruleset: Ruleset, players: int, dealer: int, rng) -> Deal:
    """A deal with a pack shuffled by ``rng`` (a ``random.Random``)."""
    pack = list(range(52))
    rng.shuffle(pack)
    return Deal(ruleset, players, dealer, pack)
