"""One deal of Laugh and Lie Down: the :class:`Deal` class, whole, and what it returns (RULES.md
3-4, 7-8) (private to :mod:`tutor.engine.deal`, which re-exports the public names).

The Deal is one class in this one module: its state is declared once, at the top of the class
(every slot with its type), then its parts follow as sections of the class: the deal and how
actions change it, move generation, oversights and claims, checks, settlement, views and
counting, the parser of the learner's notation.  Beside it are the values it returns
(:class:`Oversight`, :class:`LaidDown`, :class:`DealResult`, :class:`SeatSettlement`,
:class:`HeldDeclaration`, :class:`CaptureOption`, :class:`RankCount`), :func:`deal_order` and
:func:`new_deal`.  Two helpers that are no part of the class are modules of their own, imported
here and importing nothing back: the bit arithmetic on card masks (``_bits``) and actions with
their notation and the words a learner writes (``_notation``).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Collection, Iterable, Sequence
from itertools import combinations, permutations
from typing import NamedTuple

from tutor.engine.cards import (
    RANK_NAMES,
    RANK_PLURALS,
    cards_of,
    code,
    mask_of,
    parse_card,
    parse_rank,
    pretty_cards,
    rank_code,
)
from tutor.engine.deal._bits import (
    _BIT,
    _FULL_SET,
    _N3,
    _N5,
    _NIB_CARDS,
    FULL_MASK,
    NIB,
    RANK_MASK,
    _counts,
    _dead_bits,
    _presence,
    _rank_count,
    _ranks,
    _tuple_new,
)
from tutor.engine.deal._notation import (
    _END_WORDS,
    _LIE_WORDS,
    ACTION_KINDS,
    CAPTURE_FORM,
    CAPTURE_KINDS,
    DECLARATIONS,
    OVER,
    PLAY,
    PLAY_ON,
    Action,
    not_in_hand,
    not_your_turn,
    one_declaration_per_rank,
    preferred_declarations,
    read_claim_words,
)
from tutor.engine.errors import (
    ActionError,
    AmbiguousAction,
    IllegalAction,
    IncompleteAction,
    InvalidAction,
    NotationError,
    UsageError,
)
from tutor.engine.game import Game
from tutor.engine.parameters import CAPTURE_FORMS, DECLARATION_KINDS, spec
from tutor.engine.reasons import Cards, Reason, Seat, Seats
from tutor.engine.rulesets import LieDownPayment, PlayerCount, Ruleset
from tutor.engine.values import OversightKind

#: How many cards a claim of each oversight kind takes (RULES.md 4): all four of a mournival,
#: a pair otherwise.
CLAIM_TAKES = {
    "overlooked_table_mournival": 4,
    "split_prial": 2,
    "laid_down_dead_pair": 2,
    "laid_down_prial": 2,
    "laid_down_mournival": 4,
}


def claim_sizes(ruleset: Ruleset, kinds: Iterable[str] = ()) -> frozenset[int]:
    """How many cards a claim may name in full under ``ruleset`` (of one of ``kinds``, when
    given): the :data:`CLAIM_TAKES` of its oversight kinds.  A claim naming another number of
    cards names no whole claim, whatever is open."""
    allowed = set(ruleset.oversights)
    if kinds:
        allowed &= set(kinds)
    return frozenset(CLAIM_TAKES[k] for k in allowed)


class Oversight(NamedTuple):
    """An open oversight (RULES.md 4): a mistake left on the table for others to claim.

    ``mask`` holds the cards concerned (:attr:`cards`, all of one :attr:`rank`); the claim takes
    ``take`` of them (2 or 4), and stays claimable while at least ``take`` of them are still on
    the table.  ``offender`` may not claim it.
    """

    kind: str
    offender: int
    mask: int
    take: int
    # the index in the deal's history of the action that made the mistake (-1: the deal); a
    # NamedTuple field may shadow tuple.index (typeshed's tuple declares it a method)
    index: int  # type: ignore[assignment]

    @property
    def cards(self) -> tuple[int, ...]:
        """The cards concerned, sorted: the four of a table mournival, the two left of a split
        prial, the two, three or four of a rank laid down."""
        return tuple(cards_of(self.mask))

    @property
    def rank(self) -> int:
        """The rank (0 ace .. 12 king) of the cards concerned."""
        return (self.mask.bit_length() - 1) >> 2

    def taken_by(self, action: Action) -> bool:
        """True when ``action`` is a claim of this oversight: a ``claim`` naming its kind and
        ``take`` of its cards (whether they are still on the table is the deal's question:
        :meth:`Deal.claim_target`)."""
        if action.kind != "claim" or action.oversight != self.kind:
            return False
        if len(action.cards) != self.take:
            return False
        return all(self.mask >> c & 1 for c in action.cards)

    def named_by(
        self, cards: Sequence[int] = (), rank: int | None = None, kinds: Collection[str | None] = ()
    ) -> bool:
        """True when a claim naming ``cards`` (card ints: some or all of what it takes) or
        ``rank`` alone, and, when ``kinds`` is not empty, one of those oversight kinds, names
        this oversight, whether or not it is still open (a claim that comes too late names the
        oversight it was meant for: :class:`tutor.engine.race.ClaimWatch`)."""
        if kinds and self.kind not in kinds:
            return False
        if cards:
            return len(cards) <= self.take and all(self.mask >> c & 1 for c in cards)
        return rank is not None and rank == self.rank


class LaidDown(NamedTuple):
    """What lying down now would make of one rank a seat holds two or more of (RULES.md 4, 3.6
    detail 3): :meth:`Deal.lie_down_oversights`.

    ``held`` is 2, 3 or 4; ``kind`` the oversight those cards laid down would be
    (``laid_down_dead_pair``, ``laid_down_prial``, ``laid_down_mournival``: for two cards,
    whether or not the pair is dead); ``claimable`` whether lying down now opens a claim on them;
    ``why`` says which: ``claimable``, ``not_listed`` (the ruleset does not list ``kind``),
    ``live_pair`` (two cards, and the other two of the rank are not both among the won cards)
    or ``no_declaration`` (no declaration of the ruleset could have taken them).
    """

    rank: int
    held: int
    kind: str
    claimable: bool
    why: str

    def why_closed(self, player: int, ended: bool = False) -> Reason:
        """Why these cards, laid down by ``player`` (a seat), are not open to a claim now, the
        lie-down's finding said for a reader (a :class:`~tutor.engine.reasons.Reason`, its
        ``code`` this finding's :attr:`why`, or ``lapsed`` where the lie-down did make an
        oversight of them: RULES.md 4, a claim "stays claimable while" as many of them lie on
        the table as it takes, and ``ended``, play has ended: every mistake unclaimed then
        lapses, RULES.md 3.4; 3.6 detail 3 for ``no_declaration``).  Asked where they are not
        open (:meth:`Deal.laid_down_still_open`, :meth:`Deal.open_oversights`)."""
        what = _SET_NAMES[self.held]
        p = Seat(player)
        if self.claimable:
            return Reason(
                "{p} laid them down as {what} by mistake ({kind}), but "
                + (
                    LAPSED_AT_END
                    if ended
                    else "the claim has lapsed: fewer of them are left on the table than it takes"
                ),
                code="lapsed",
                p=p,
                what=what,
                kind=self.kind.replace("_", " "),
            )
        if self.why == "no_declaration":
            return Reason(
                "{p} laid down {what}, but no declaration under this ruleset could have taken "
                "it, so it is no mistake",
                code=self.why,
                rule="declarations",
                p=p,
                what="a dead pair" if self.held == 2 else what,
            )
        if self.why == "live_pair":
            return Reason(
                "{p} laid them down as {what}, but it was not a dead pair then (the other two "
                "{ranks} were not both among the won cards), so it is no mistake: they are "
                "ordinary table cards now",
                code=self.why,
                p=p,
                what=what,
                ranks=RANK_PLURALS[self.rank],
            )
        return Reason(
            "{p} laid them down as {what}; under this ruleset {kind} is not a mistake anyone "
            "may claim, so they are ordinary table cards now",
            code=self.why,
            rule="oversights",
            p=p,
            what=what,
            kind=spec("oversights").words[self.kind],
        )


#: Why a mistake is no longer open once play has ended (RULES.md 3.4; lesson 8: the engine's
#: rule, the sources being silent).
LAPSED_AT_END = "play has ended, and every mistake still unclaimed then lapses"

#: A set by its size (RULES.md 2), as a reason names it.
_SET_NAMES = {2: "a pair", 3: "a prial", 4: "a mournival"}


#: The declarations that could have taken each laid-down hand (RULES.md 3.6 detail 3).
_TAKEN_BY = {
    "laid_down_dead_pair": frozenset({"dead_pair", "pair"}),
    "laid_down_prial": frozenset({"prial", "pair"}),
    "laid_down_mournival": frozenset({"mournival", "prial", "pair"}),
}


#: The oversight that cards of one rank laid down make, by how many are laid down (RULES.md 4).
LAID_DOWN_KIND = {
    2: OversightKind.LAID_DOWN_DEAD_PAIR,
    3: OversightKind.LAID_DOWN_PRIAL,
    4: OversightKind.LAID_DOWN_MOURNIVAL,
}


def reachable_oversights(ruleset: Ruleset) -> tuple[str, ...]:
    """The oversight kinds ``ruleset`` lists that its play can actually make (RULES.md 4, 3.6).

    A split prial needs one-for-one and one-for-three captures (only where a table prial could be
    taken whole is taking one of it a mistake).  A laid-down dead pair, prial or mournival is an
    oversight only where some declaration of the ruleset could have taken it (RULES.md 3.6 detail
    3), and where each declaration is a turn (``hand_plays: turn``) a player may lie down only
    when no declaration is possible (RULES.md 3.4), so such a hand is never laid down.
    """
    return _reachable_oversights(
        ruleset.oversights, ruleset.captures, ruleset.hand_plays, ruleset.declarations
    )


@functools.lru_cache(maxsize=64)
def _reachable_oversights(
    oversights: frozenset[str],
    captures: frozenset[str],
    hand_plays: str,
    declarations: frozenset[str],
) -> tuple[str, ...]:
    """:func:`reachable_oversights` of the parameters it reads (each puzzle a drill draws asks
    it several times, of a handful of rulesets)."""
    out = []
    for k in (o.value for o in OversightKind if o in oversights):  # the parameter's order
        if k == "split_prial" and not {"one_for_one", "one_for_three"} <= captures:
            continue
        if k in _TAKEN_BY and (hand_plays == "turn" or not _TAKEN_BY[k] & declarations):
            continue
        out.append(k)
    return tuple(out)


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

    @property
    def won_at_end(self) -> int:
        """Cards received at the end: the leftovers and a set-aside mournival."""
        return self.leftovers + self.set_aside

    @property
    def points_for_won(self) -> int | None:
        """The points the won cards make (``points`` without the bonus) under pairs scoring,
        else None."""
        return None if self.points is None else self.points - self.bonus


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

    __slots__ = (
        "last_in",
        "bonus_to",
        "leftovers_to",
        "net",
        "points",
        "set_aside_to",
        "last_capturer",
        "payments",
        "pot_to",
        "scoring",
        "_won_masks",
        "_left",
        "_discard",
        "_aside",
        "_rows",
        "_won",
        "_rules",
        "held_declarations",
    )

    def __init__(
        self,
        last_in: int | None,
        bonus_to: int | None,
        won_masks: tuple[int, ...],
        leftovers_to: int | None,
        left: int,
        discard: int,
        net: tuple[int, ...] | None,
        points: tuple[int, ...] | None,
        aside: int,
        set_aside_to: int | None,
        last_capturer: int | None,
        payments: tuple[tuple[int, int | None, int], ...],
        pot_to: tuple[int, ...],
        scoring: str,
        rules: tuple[tuple[int, ...], ...],
        held: tuple[HeldDeclaration, ...] = (),
    ):
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
        self._rules = rules  # (won_in_play, ante, bonus, for_cards, paid, received, shares)
        self._won: tuple[tuple[int, ...], ...] | None = None
        self._rows: tuple[SeatSettlement, ...] | None = None
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
                rows.append(
                    SeatSettlement(
                        q,
                        won_play[q],
                        left if q == self.leftovers_to else 0,
                        aside if q == self.set_aside_to else 0,
                        w.bit_count(),
                        ante[q],
                        bonus[q],
                        for_cards[q],
                        paid[q],
                        received[q],
                        shares[q],
                        None if self.net is None else self.net[q],
                        None if self.points is None else self.points[q],
                    )
                )
            self._rows = tuple(rows)
        return self._rows

    def returns(self) -> tuple[int, ...]:
        """Points per seat under pairs scoring, else net stakes per seat."""
        out = self.points if self.scoring == "pairs" else self.net
        assert out is not None  # points under pairs scoring, net stakes otherwise
        return out

    def _key(self) -> tuple[object, ...]:
        return (
            self.last_in,
            self.bonus_to,
            self._won_masks,
            self.leftovers_to,
            self._left,
            self._discard,
            self.net,
            self.points,
            self._aside,
            self.set_aside_to,
            self.last_capturer,
            self.payments,
            self.pot_to,
            self.scoring,
            self._rules,
            self.held_declarations,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DealResult) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"DealResult(last_in={self.last_in}, bonus_to={self.bonus_to}, net={self.net}, "
            f"points={self.points})"
        )


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


_FORMS = CAPTURE_FORMS


#: The state a push saves so that pop restores it (lists are copied): the values of
#: ``_UNDO_SLOTS``, the hands, the won piles, the oversights, the lengths of the history and the
#: payments, and the table mournivals.
_Snapshot = tuple[
    tuple[object, ...], list[int], list[int], list["Oversight"], int, int, tuple[int, ...]
]
_UNDO_SLOTS = (
    "table",
    "wonall",
    "aside",
    "discard",
    "to_move",
    "started",
    "phase",
    "last_capturer",
    "in_play",
    "result",
    "turn_captures",
    "pot",
    "_held",
)


_new_deal_object = object.__new__


def _check_seats(ruleset: Ruleset, players: int, dealer: int) -> None:
    """Refuse a player count the ruleset does not cover, or a dealer who is not a seat."""
    if players not in ruleset.counts:
        raise UsageError(
            f"ruleset {ruleset.id} does not cover {players} players "
            f"(it covers {', '.join(map(str, ruleset.player_counts))})"
        )
    if not isinstance(dealer, int) or not 0 <= dealer < players:
        raise UsageError(f"dealer must be a seat from 0 to {players - 1}")


def deal_order(players: int, dealer: int, hand: int) -> tuple[int | None, ...]:
    """Who receives each card of the pack (RULES.md 3.3): for pack index ``i`` (0 = top card) the
    seat dealt it, or None for a table card.  One card at a time to each player, starting with
    eldest (``(dealer + 1) % players``), ``hand`` cards each; the rest go to the table."""
    eldest = (dealer + 1) % players
    end = players * hand
    return tuple((eldest + i % players) % players if i < end else None for i in range(52))


class Deal:
    """One deal in progress, from the deal to settlement (RULES.md 3.3-3.6).

    ``ruleset`` is a :class:`~tutor.engine.rulesets.Ruleset`; ``players`` a player count the
    ruleset covers; ``dealer`` a seat 0..players-1; ``pack`` the 52 cards top first.  Dealing:
    :func:`deal_order` (one card at a time to each player starting with eldest, ``hand`` cards
    each; the rest face up to the table).  The pot starts with the antes (RULES.md 3.3).

    Raises :class:`~tutor.engine.errors.UsageError` when the pack is not the 52 distinct cards,
    the dealer is not a seat, or the player count is not covered by the ruleset.

    The state is declared once, here: cards as 52-bit masks (:mod:`tutor.engine.cards`), seats
    as ints 0..n-1, stakes as ints.  The class's sections follow it: the deal and how actions
    change it, move generation, oversights and claims, checks, settlement, views, the parser.
    """

    __slots__ = (
        "ruleset",
        "game",
        "rules",
        "n",
        "dealer",
        "pack",
        "hands",
        "table",
        "won",
        "wonall",
        "aside",
        "discard",
        "outside",
        "to_move",
        "started",
        "phase",
        "oversights",
        "history",
        "last_capturer",
        "in_play",
        "result",
        "table_mournivals",
        "turn_captures",
        "pot",
        "payments",
        "_undo",
        "_c11",
        "_c13",
        "_c22",
        "_c31",
        "_free",
        "_ov",
        "_any",
        "_decl",
        "_decl_default",
        "_pays",
        "_ov_prial",
        "_ov_dead",
        "_ov_mourn",
        "_held",
        "_split",
    )

    # -- the rules (fixed for the deal) --------------------------------------------------------
    ruleset: Ruleset
    game: Game
    rules: PlayerCount  # the per-player-count parameters (hand, antes, bonus)
    n: int  # the player count
    dealer: int
    pack: tuple[int, ...] | None  # the 52 cards top first; None for a hand-made position
    # the ruleset's switches, read once from the game (see :class:`~tutor.engine.game.Game`)
    _c11: bool
    _c13: bool
    _c22: bool
    _c31: bool
    _free: bool
    _ov: frozenset[str]
    _any: bool
    _decl: frozenset[str]
    _decl_default: bool
    _pays: LieDownPayment | None
    _ov_prial: bool
    _ov_dead: bool
    _ov_mourn: bool
    _split: bool

    # -- the cards (masks) ---------------------------------------------------------------------
    hands: list[int]
    table: int
    won: list[int]
    wonall: int  # every seat's won cards together
    aside: int  # a table mournival set aside for the last player in
    discard: int
    outside: int  # cards a teaching fragment leaves out of the deal
    table_mournivals: tuple[int, ...]

    # -- the play ------------------------------------------------------------------------------
    to_move: int | None  # None once the deal is over
    started: bool
    phase: str  # PLAY, PLAY_ON or OVER (tutor.engine.deal._notation)
    oversights: list[Oversight]
    history: list[Action]
    last_capturer: int | None
    in_play: int  # seats still holding cards
    turn_captures: int
    result: DealResult | None
    pot: int  # stakes
    payments: list[tuple[int, int | None, int]]  # (payer, payee or None for the pot, stakes)
    _undo: list[_Snapshot]
    _held: tuple[tuple[Action, int], ...]  # declarations held at the end, with masks

    @property
    def _mover(self) -> int:
        """The seat to move, while the deal is not over (an error after: a bug of the caller)."""
        p = self.to_move
        if p is None:
            raise AssertionError("the deal is over: nobody is to move")
        return p

    # ==== The deal: dealing, the state, how actions change it (RULES.md 3.3-3.6) ==================
    def __init__(self, ruleset: Ruleset, players: int, dealer: int, pack: Iterable[int] | None):
        _check_seats(ruleset, players, dealer)
        cards = tuple(pack) if pack is not None else ()  # None: a hand-made deal's pack
        if len(cards) != 52 or set(cards) != _FULL_SET:
            raise UsageError("the pack must be the 52 distinct cards")
        self._setup(ruleset, players, dealer, cards)
        hand = self.rules.hand
        hands = [0] * players
        eldest = (dealer + 1) % players
        end = players * hand
        bit = _BIT.__getitem__
        for q in range(players):
            hands[(eldest + q) % players] = sum(map(bit, cards[q:end:players]))
        self.hands = hands
        self.table = sum(map(bit, cards[end:]))
        self.in_play = sum(1 for h in hands if h)
        self._find_table_mournivals()

    def _setup(
        self, ruleset: Ruleset, players: int, dealer: int, pack: tuple[int, ...] | None
    ) -> None:
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
        self._undo: list[_Snapshot] = []
        self._held = ()

    def _find_table_mournivals(self) -> None:
        four = (_counts(self.table) >> 2) & NIB
        self.table_mournivals = tuple(RANK_MASK[r] for r in _ranks(four))

    @classmethod
    def from_position(
        cls,
        ruleset: Ruleset,
        players: int,
        dealer: int,
        *,
        hands: Iterable[Iterable[int]],
        table: Iterable[int] = (),
        won: Iterable[Iterable[int]] | None = None,
        set_aside: Iterable[int] = (),
        to_move: int | None = None,
        started: bool = True,
        last_capturer: int | None = None,
        complete: bool = True,
    ) -> Deal:
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

    def _place(
        self,
        hands: Iterable[Iterable[int]],
        table: Iterable[int],
        won: Iterable[Iterable[int]] | None,
        set_aside: Iterable[int],
        complete: bool,
    ) -> None:
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
            raise UsageError(
                f"{len(cards_of(missing))} cards are not placed: "
                + " ".join(code(c) for c in cards_of(missing))
            )
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

    def replayed(self, upto: int) -> Deal:
        """A new deal: this one as it stood after its first ``upto`` actions (0 to
        ``len(history)``), dealt again from its pack and those actions applied, as
        :func:`tutor.engine.records.replay` of its record with ``upto`` gives it, without
        writing and reading the record (its actions were legal when made, so they are not
        checked again).  Raises :class:`~tutor.engine.errors.UsageError` for a position built
        by hand (it has no pack) or an ``upto`` outside that range."""
        if self.pack is None:
            raise UsageError("a position built by hand has no pack: it cannot be replayed")
        if not 0 <= upto <= len(self.history):
            raise UsageError(f"upto must be from 0 to {len(self.history)}, got {upto}")
        deal = Deal(self.ruleset, self.n, self.dealer, self.pack)
        for a in self.history[:upto]:
            deal.apply_unchecked(a)
        return deal

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
        snap = (
            tuple(getattr(self, s) for s in _UNDO_SLOTS),
            list(self.hands),
            list(self.won),
            list(self.oversights),
            len(self.history),
            len(self.payments),
            self.table_mournivals,
        )
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
        action = Action.make(
            action.player, action.kind, action.cards, action.table, action.oversight
        )
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
                self.oversights.append(
                    Oversight(
                        OversightKind.SPLIT_PRIAL,
                        p,
                        before & RANK_MASK[rank] & ~tm,
                        CLAIM_TAKES["split_prial"],
                        len(self.history) - 1,
                    )
                )
        if self.oversights:
            self._prune_oversights()
        if self._any and self.hands[p] and self.in_play > 1 and self.can_capture(p):
            self.turn_captures += 1  # the same player may capture again
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

    # ==== Move generation: captures, declarations, legal actions (RULES.md 3.4, 3.6) ==============
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
        return bool(
            (self._c11 and nh and nt)
            or (self._c13 and nh and nt == 3)
            or (self._c22 and nh == 2 and nt == 2)
            or (self._c31 and nh == 3 and nt == 1)
        )

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

    def _declarations(
        self, seat: int, h: int | None = None, wonall: int | None = None
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
        prial = ((hc & (hc >> 1)) | (hc >> 2)) & NIB  # count 3 or 4
        if prial and ("prial" in decl or "mournival" in decl):
            four = (hc >> 2) & NIB
            for rank in _ranks(prial):
                cs = cards_of(h & RANK_MASK[rank])
                if len(cs) == 4 and four and "mournival" in decl:
                    out.append(Action(seat, "declare_mournival", tuple(cs)))
                if "prial" in decl:
                    for pair in combinations(cs, 2):
                        out.append(Action(seat, "declare_prial", pair))
        pairs = (hc >> 1) & ~hc & ~(hc >> 2) & NIB  # count exactly 2
        if pairs and "dead_pair" in decl:
            for rank in _ranks(pairs & _dead_bits(wonall)):
                out.append(Action(seat, "declare_dead_pair", tuple(cards_of(h & RANK_MASK[rank]))))
        if "pair" in decl:
            for rank in _ranks(((hc >> 1) | (hc >> 2)) & NIB):  # count 2, 3 or 4
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
        return bool(h) and self._has_decl(h, _dead_bits(self.wonall if wonall is None else wonall))

    def _has_decl(self, h: int, dead: int) -> bool:
        """Could hand mask ``h`` declare something, with ``dead`` the dead-pair rank bits?"""
        a = (h & _N5) + ((h >> 1) & _N5)
        hc = (a & _N3) + ((a >> 2) & _N3)
        if self._decl_default:  # prial, mournival, dead pair: the shipped sources
            return bool(
                ((hc & (hc >> 1)) | (hc >> 2) | ((hc >> 1) & ~hc & ~(hc >> 2) & dead)) & NIB
            )
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
        assert p is not None  # before the end, someone is to move
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

    # ==== Oversights and claims (RULES.md 4) ======================================================
    def open_oversights(self) -> list[Oversight]:
        """The oversights still claimable now (RULES.md 4); empty once play has ended."""
        if self.phase != PLAY:
            return []
        t = self.table
        return [o for o in self.oversights if (t & o.mask).bit_count() >= o.take]

    def claimants(self, oversight: Oversight) -> tuple[int, ...]:
        """The seats that may claim ``oversight``: every seat but the one that made the mistake,
        in play or out (RULES.md 3.4: "whoever claims it first"; excluding the offender is
        chosen, so that splitting a prial can never pay)."""
        return tuple(q for q in range(self.n) if q != oversight.offender)

    def why_not_claimant(self, oversight: Oversight, seat: int) -> Reason | None:
        """None when ``seat`` may claim ``oversight`` (:meth:`claimants`), else why not, said
        for a reader (a :class:`~tutor.engine.reasons.Reason` of code ``own_mistake``: the
        seat made the mistake, and who may claim it instead; RULES.md 3.4, 4)."""
        who = self.claimants(oversight)
        if seat in who:
            return None
        others = set(who) == set(range(self.n)) - {seat}
        return Reason(
            "that is {p:@'s|your} own mistake ({kind}), and {p:@ may|you may} not claim it; "
            + ("the others may" if others else "{claimants} may"),
            code="own_mistake",
            rule="oversights",
            p=Seat(seat),
            kind=oversight.kind.replace("_", " "),
            claimants=Seats(who),
        )

    def table_mournival_closed(self) -> Reason:
        """Why a table mournival dealt to the table is not open to a claim now, said for a
        reader (a :class:`~tutor.engine.reasons.Reason`): code ``not_listed`` where the ruleset
        does not list the dealer leaving it as an oversight (RULES.md 4, 3.6 ``oversights``);
        ``not_begun`` before play (the dealer may still take them, RULES.md 3.3: "the start of
        play" as the dealer's limit is our reading); ``lapsed`` once play has ended (RULES.md
        3.4); else ``closed`` (taken, or play has moved on)."""
        if not self.game.claimable(OversightKind.OVERLOOKED_TABLE_MOURNIVAL):
            return Reason(
                "dealt to the table; under this ruleset a table mournival the dealer leaves "
                "is not a mistake anyone may claim",
                code="not_listed",
                rule="oversights",
            )
        if not self.started:
            return Reason(
                "dealt to the table; play has not begun, and the dealer may still take them, "
                "so nothing is overlooked yet",
                code="not_begun",
            )
        if self.phase != PLAY:
            return Reason(
                "dealt to the table and left there by the dealer; " + LAPSED_AT_END,
                code="lapsed",
            )
        return Reason("dealt to the table, but no claim is open on them now", code="closed")

    def dead_pair_reason(self, seat: int, rank: int) -> Reason:
        """The word on ``seat``'s pair of ``rank`` (exactly two cards of it in hand), said for
        a reader (a :class:`~tutor.engine.reasons.Reason`; RULES.md 6: a pair is dead when the
        other two cards of its rank are among anyone's won cards, the holder's own included).
        The pair first: code ``live_pair`` when it is not dead; else, when declaring it as a
        dead pair is refused now, that refusal (:meth:`why_illegal`: ``not_your_turn``, ...);
        else code ``declarable``, naming the seats that won the other two.  Raises UsageError
        when ``seat`` does not hold exactly two cards of ``rank``."""
        mine = cards_of(self.hands[seat] & RANK_MASK[rank])
        if len(mine) != 2:
            raise UsageError(f"player {seat} does not hold a pair of {RANK_PLURALS[rank]}")
        ranks = RANK_PLURALS[rank]
        if rank not in self.dead_pairs(seat):
            return Reason(
                "it is not dead: the other two {ranks} are not both among the won cards",
                code="live_pair",
                ranks=ranks,
            )
        refusal = self.why_illegal(Action(seat, "declare_dead_pair", tuple(mine)))
        if refusal is not None:
            return refusal
        return Reason(
            "the other two {ranks} are won by {holders}, so this pair can never be captured",
            code="declarable",
            ranks=ranks,
            holders=Seats(q for q in range(self.n) if self.won_count(rank, q)),
        )

    def dead_pair_declarable(self, seat: int, rank: int) -> Reason | None:
        """The verdict on ``seat``'s pair of ``rank`` when it may declare it as a dead pair now
        (a :class:`~tutor.engine.reasons.Reason` of code ``declarable``: "the sevens are a dead
        pair you may declare"; RULES.md 6, 3.4), else None (why not: :meth:`dead_pair_reason`).
        """
        if not any(
            a.kind == "declare_dead_pair" and a.rank == rank for a in self.legal_actions(seat)
        ):
            return None
        return Reason(
            "the {ranks} are a dead pair {p:@ may|you may} declare",
            code="declarable",
            ranks=RANK_PLURALS[rank],
            p=Seat(seat),
        )

    def why_not_declarable(self, seat: int, rank: int, why: Reason | None = None) -> Reason | None:
        """The verdict that ``seat`` may not declare its cards of ``rank`` now (a
        :class:`~tutor.engine.reasons.Reason` of code ``not_declarable``: "the sevens may not be
        declared now (it is not dead: ...)"; RULES.md 3.4, 6), the reason in brackets ``why``
        where it is given (the refusal of the declaration the seat's words asked for, an
        :class:`~tutor.engine.errors.IllegalAction`'s reason), else the word on the pair
        (:meth:`dead_pair_reason`); None when ``why`` is not given and the pair may be declared
        as a dead pair now (:meth:`dead_pair_declarable`).  Raises UsageError, where ``why`` is
        not given, when ``seat`` does not hold exactly two cards of ``rank``."""
        if why is None:
            if self.dead_pair_declarable(seat, rank) is not None:
                return None
            why = self.dead_pair_reason(seat, rank)
        return Reason(
            "the {ranks} may not be declared now ({why})",
            code="not_declarable",
            ranks=RANK_PLURALS[rank],
            why=why,
        )

    def claim_open(self, seat: int, rank: int) -> Reason | None:
        """Why the table cards of ``rank`` are open to ``seat``'s claim now (a
        :class:`~tutor.engine.reasons.Reason` of code ``claimable``: "open to your claim";
        RULES.md 4), or None when ``seat`` has no claim on them now (why not:
        :meth:`why_not_claimant`, :meth:`table_mournival_closed`, ...)."""
        if not any(a.kind == "claim" and a.rank == rank for a in self.legal_actions(seat)):
            return None
        return Reason("open to {p:@'s|your} claim", code="claimable", p=Seat(seat))

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

    # -- which oversight a claim takes ------------------------------------------------------

    def claim_target(
        self,
        seat: int,
        cards: Collection[int] = (),
        *,
        rank: int | None = None,
        kind: str | Iterable[str] | None = None,
        blind: bool = False,
    ) -> Oversight:
        """The open oversight that a claim by ``seat`` takes (RULES.md 4), or why none.

        ``cards`` are the cards claimed (card ints: all the claim takes, or some of them), or
        ``rank`` (0-12) names them by rank alone, or neither: the one oversight open to the seat.
        ``kind`` restricts the answer to one oversight kind (a record's claim names it), or to
        a set of kinds (the words of a claim: "the mournival" is either mournival).  An
        oversight fits when it is still open (at least ``take`` of its cards on the table), is
        not the seat's own mistake, and holds the cards named on the table.

        Returns the :class:`Oversight`.  Raises :class:`~tutor.engine.errors.IllegalAction` with
        the reason when none fits (the ruleset lists no oversights, play has ended, nothing is
        open, it is the seat's own mistake, no open oversight covers the cards);
        :class:`~tutor.engine.errors.IncompleteAction` when the cards named are fewer than the
        claim takes (``candidates``: the claims they could begin); and
        :class:`~tutor.engine.errors.AmbiguousAction` when different oversights fit
        (``candidates``: every claim they allow).

        With ``blind`` (a referee whose claimant does not see what is open: every table, every
        drill and puzzle, issue 30) nothing raised says more than whether the claim takes
        cards: cards naming some but not all of what an open oversight takes fit nothing, as
        they would with nothing open (the reason is the one a claim of those cards gets with
        nothing open), and several fitting oversights give the first of them (fewest cards,
        then rank, then kind) rather than saying that several are open.
        """
        named = 0
        for c in cards:
            named |= 1 << c
        count = len(cards)
        kinds = None if kind is None else {kind} if isinstance(kind, str) else set(kind)
        fits: list[Oversight] = []
        wider: list[Oversight] = []
        own = False
        if self.phase == PLAY:
            t = self.table
            for o in self.oversights:
                on = t & o.mask
                if (
                    (kinds is not None and o.kind not in kinds)
                    or on.bit_count() < o.take
                    or (rank is not None and o.rank != rank)
                    or (named and (named & on != named or count > o.take))
                ):
                    continue
                if blind and named and count < o.take:
                    continue  # part of a claim is no claim, whatever is open
                if o.offender == seat:
                    own = True
                elif named and count < o.take:
                    wider.append(o)
                else:
                    fits.append(o)
        if fits:
            if len({(o.kind, o.rank) for o in fits}) == 1:
                return fits[0]
            if blind:
                return min(fits, key=lambda o: (o.take, o.rank, o.kind))
            cands = self._claims_on(seat, fits, named)
            raise AmbiguousAction(
                Reason(
                    "that fits several moves",
                    code="ambiguous",
                    choices=cands,
                    sep=": name the cards: ",
                ),
                candidates=cands,
            )
        if wider:
            cands = self._claims_on(seat, wider, named)
            raise IncompleteAction(
                Reason(
                    "which cards?",
                    code="which_cards",
                    choices=cands,
                    sep=f" a claim of {wider[0].kind.replace('_', ' ')} "
                    f"names all {wider[0].take}: ",
                ),
                candidates=cands,
            )
        raise IllegalAction(self._no_claim(seat, cards, rank, kinds, own))

    def _claims_on(self, seat: int, oversights: list[Oversight], named: int) -> list[Action]:
        """Every claim ``seat`` could make of ``oversights`` that includes the cards ``named``
        (a mask), without repeats."""
        need = cards_of(named)
        out: dict[Action, None] = {}
        for o in oversights:
            for combo in combinations(cards_of(self.table & o.mask), o.take):
                if all(c in combo for c in need):
                    out[Action(seat, "claim", combo, (), o.kind)] = None
        return list(out)

    def _no_claim(
        self, seat: int, cards: Collection[int], rank: int | None, kinds: set[str] | None, own: bool
    ) -> Reason:
        """Why a claim by ``seat`` of ``cards`` (or ``rank``, or nothing named; of one of
        ``kinds`` when given) takes nothing."""
        if not self._ov:
            return Reason(
                "this ruleset lists no oversights: there is never anything to claim",
                code="no_oversights",
                rule="oversights",
            )
        if self.phase != PLAY:
            return Reason("play has ended")  # the caller says what is refused: a claim
        # A claim that names something is answered about what it names, never about what else
        # is open: the reason must not tell a watching player whether an oversight exists.
        if not own and not (cards or rank is not None or kinds) and not self.open_oversights():
            return Reason("there is nothing to claim")
        if own:
            if cards or rank is not None:
                return Reason(
                    "{p} made that mistake and may not claim it", code="own_mistake", p=Seat(seat)
                )
            return Reason(
                "the only open oversight is your own mistake, and you may not claim it",
                code="own_mistake",
            )
        what = " or ".join(sorted(k.replace("_", " ") for k in kinds)) + " " if kinds else ""
        if cards:
            return Reason(
                "no open " + what + "oversight covers {cards}",
                code="nothing_open",
                cards=Cards(cards),
            )
        if rank is not None:
            return Reason(f"no open {what}oversight of {RANK_PLURALS[rank]}")
        if kinds:
            return Reason(f"no {what}oversight is open")
        return Reason("there is nothing to claim")

    def claim_action(self, seat: int, target: Oversight, cards: Sequence[int] = ()) -> Action:
        """The claim ``seat`` makes of ``target`` (from :meth:`claim_target`): of ``cards`` when
        they are named in full, else of the first ``take`` of its cards on the table."""
        if len(cards) == target.take:
            return Action.make(seat, "claim", cards, (), target.kind)
        on = cards_of(self.table & target.mask)
        return Action(seat, "claim", tuple(on[: target.take]), (), target.kind)

    # -- which oversights a move makes ------------------------------------------------------

    def split_prial_reason(self, rank: int) -> Reason:
        """What splitting the prial of ``rank`` on the table makes, said for a reader (a
        :class:`~tutor.engine.reasons.Reason` of code ``split_prial``: the others may claim the
        two left, RULES.md 4); asked where :meth:`would_split_prial` says a capture does."""
        return Reason(
            "it splits the prial of {ranks} on the table, and the others may claim the two "
            "left (a split prial)",
            code="split_prial",
            rule="oversights",
            ranks=RANK_PLURALS[rank],
        )

    def pair_deadness(self, seat: int, rank: int) -> Reason:
        """Whether ``seat``'s pair of ``rank`` is dead and what that means, said for a reader
        (a :class:`~tutor.engine.reasons.Reason`; RULES.md 6: dead when the other two cards of
        its rank are among anyone's won cards, the holder's own included): code ``dead``,
        naming the seats that won them, or ``live``, with how many of the two are won."""
        if rank in self.dead_pairs(seat):
            return Reason(
                "dead: the other two are among the won cards ({holders}), so nobody can "
                "capture {p:@'s|yours}",
                code="dead",
                p=Seat(seat),
                holders=Seats(q for q in range(self.n) if self.won_count(rank, q)),
            )
        return Reason(
            "not dead: {won} of the other two won, so a {name} can still be captured",
            code="live",
            won=self.won_count(rank),
            name=RANK_NAMES[rank],
        )

    def would_split_prial(self, action: Action) -> bool:
        """True when ``action`` would make the ``split_prial`` oversight under this ruleset: a
        one-for-one capture from a table prial where one-for-three is allowed and the ruleset
        lets others claim the split (RULES.md 4)."""
        return (
            self._split  # one-for-three allowed and the split claimable: the ruleset's, once
            and action.kind == "capture"
            and len(action.cards) == 1
            and len(action.table) == 1
            and _rank_count(self.table, action.table[0] >> 2) == 3
        )

    def lie_down_oversights(
        self, seat: int, *, counted_otherwise: bool = False
    ) -> tuple[LaidDown, ...]:
        """What lying down now would make of each rank ``seat`` holds two or more of, rank by
        rank (:class:`LaidDown`): the oversight kind, and whether it opens a claim or why not
        (RULES.md 4; 3.6 detail 3: only where some declaration of the ruleset could have taken
        the cards).  The rule :meth:`apply` follows when the seat does lie down.

        ``counted_otherwise``: the same lie-down had the count of each pair's rank gone the
        other way (its other two cards both among the won cards where they are not, and not
        where they are): where a pair's finding differs, counting decides it (issue 42).
        """
        h = self.hands[seat]
        hc = _counts(h)
        dead = _dead_bits(self.wonall)
        if counted_otherwise:
            dead = ~dead & NIB
        out = []
        for rank in _ranks(((hc >> 1) | (hc >> 2)) & NIB):
            held = _rank_count(h, rank)
            kind = LAID_DOWN_KIND[held]
            if kind not in self._ov:
                why = "not_listed"
            elif held == 2 and not (dead >> (4 * rank)) & 1:
                why = "live_pair"
            elif not self._decl & _TAKEN_BY[kind]:
                why = "no_declaration"
            else:
                why = "claimable"
            out.append(LaidDown(rank, held, kind, why == "claimable", why))
        return tuple(out)

    def laid_down_still_open(self, index: int, rank: int) -> bool:
        """Whether the cards of ``rank`` that the lie-down at ``history[index]`` put on the table
        would be open to a claim now, had that lie-down made an oversight of them: play goes on
        and as many of them still lie on the table as a claim of their kind takes (RULES.md 4,
        "stays claimable while": both of a dead pair, two of a prial, all four of a mournival).
        Whether it did make one is :meth:`lie_down_oversights`' word, asked before it; this
        says whether the answer still matters now (issue 42: a later action leaves the pair
        whose count decides).  Raises UsageError when ``history[index]`` is not a lie-down of
        two or more cards of ``rank``."""
        if not 0 <= index < len(self.history) or self.history[index].kind != "lie_down":
            raise UsageError(f"action {index} of the deal is not a lie-down")
        a = self.history[index]
        mask = sum(_BIT[c] for c in a.cards) & RANK_MASK[rank]
        held = mask.bit_count()
        if held < 2:
            raise UsageError(f"the lie-down at {index} holds fewer than two of rank {rank}")
        take = CLAIM_TAKES[LAID_DOWN_KIND[held]]
        return self.phase == PLAY and (self.table & mask).bit_count() >= take

    def _note_laid_down(self, p: int, h: int) -> None:
        """Record the oversights of seat ``p`` laying down hand mask ``h`` (the fast form of
        :meth:`lie_down_oversights`, on the state before the cards reach the table)."""
        hc = _counts(h)
        idx = len(self.history) - 1
        add = self.oversights.append
        if self._ov_dead:
            pairs = (hc >> 1) & ~hc & ~(hc >> 2) & NIB
            if pairs:
                for rank in _ranks(pairs & _dead_bits(self.wonall)):
                    add(
                        Oversight(
                            OversightKind.LAID_DOWN_DEAD_PAIR,
                            p,
                            h & RANK_MASK[rank],
                            CLAIM_TAKES["laid_down_dead_pair"],
                            idx,
                        )
                    )
        if self._ov_prial:
            for rank in _ranks(hc & (hc >> 1) & ~(hc >> 2) & NIB):
                add(
                    Oversight(
                        OversightKind.LAID_DOWN_PRIAL,
                        p,
                        h & RANK_MASK[rank],
                        CLAIM_TAKES["laid_down_prial"],
                        idx,
                    )
                )
        if self._ov_mourn:
            for rank in _ranks((hc >> 2) & NIB):
                add(
                    Oversight(
                        OversightKind.LAID_DOWN_MOURNIVAL,
                        p,
                        h & RANK_MASK[rank],
                        CLAIM_TAKES["laid_down_mournival"],
                        idx,
                    )
                )

    def _start(self) -> None:
        """Play begins: a table mournival the dealer left is now an oversight (RULES.md 3.3)."""
        self.started = True
        if "overlooked_table_mournival" in self._ov:
            idx = len(self.history) - 1
            for m in self.table_mournivals:
                if self.table & m == m:
                    self.oversights.append(
                        Oversight(
                            OversightKind.OVERLOOKED_TABLE_MOURNIVAL,
                            self.dealer,
                            m,
                            CLAIM_TAKES["overlooked_table_mournival"],
                            idx,
                        )
                    )

    def _check_claim(self, a: Action) -> None:
        try:
            target = self.claim_target(a.player, a.cards, kind=a.oversight)
        except AmbiguousAction:
            target = None
        if target is None or len(a.cards) != target.take:
            raise IllegalAction(
                f"no open {str(a.oversight).replace('_', ' ')} oversight covers "
                f"{pretty_cards(a.cards)}"
            )

    # ==== Checks: is an action legal now, why not (RULES.md 3.3-3.6); invariants (RULES.md 7) =====
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
            raise IllegalAction(
                f"unknown action {kind!r}; expected one of {', '.join(ACTION_KINDS)}"
            )
        if len(set(a.cards) | set(a.table)) != len(a.cards) + len(a.table):
            raise IllegalAction("a card is named twice")
        if self.phase == PLAY_ON:
            if kind != "play_on_capture":
                raise IllegalAction(
                    Reason(
                        "play has ended; only {last} (last in) may still capture, alone "
                        "(play_on_capture)",
                        code="play_has_ended",
                        last=Seat(self._mover),
                    )
                )
        elif kind == "play_on_capture":
            raise IllegalAction(
                "play_on_capture is only for the last-in player after play ends "
                "under a ruleset where the last player plays on"
            )
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
            raise IllegalAction(
                Reason(
                    "a turn is one capture under this ruleset: there is no end_turn",
                    code="one_capture_a_turn",
                    rule="captures_per_turn",
                )
            )
        self._check_turn(a)
        if not self.turn_captures:
            raise IllegalAction(
                Reason(
                    "a turn ends with end_turn only after at least one capture",
                    code="no_capture_yet",
                )
            )

    def _check_lie_down(self, a: Action) -> None:
        p = a.player
        self._check_turn(a)
        if self.turn_captures:
            raise IllegalAction(
                Reason(
                    "{p:@ has|you have} captured this turn: end the turn "
                    "(end_turn) instead of lying down",
                    code="captured_this_turn",
                    p=Seat(p),
                )
            )
        caps = self._captures(p, "capture")
        if caps:
            c = caps[0]
            raise IllegalAction(
                Reason(
                    "{p} can capture ({table} with {cards}), so {p:|you }may not lie down",
                    code="must_capture",
                    p=Seat(p),
                    table=Cards(c.table),
                    cards=Cards(c.cards),
                )
            )
        if not self._free and self._declarations(p):
            raise IllegalAction(
                Reason(
                    "{p} can still declare from hand, so {p:|you }may not lie down",
                    code="must_declare",
                    rule="hand_plays",
                    p=Seat(p),
                )
            )
        hmask = self.hands[p]
        if mask_of(a.cards) != hmask:
            raise IllegalAction(
                Reason(
                    "lying down puts the whole hand on the table: {cards}",
                    code="whole_hand",
                    cards=Cards(cards_of(hmask)),
                )
            )

    def _check_take(self, a: Action) -> None:
        if a.player != self.dealer:
            raise IllegalAction(
                Reason(
                    "only the dealer ({dealer}) takes a table mournival",
                    code="only_the_dealer",
                    dealer=Seat(self.dealer),
                )
            )
        if self.started:
            raise IllegalAction(
                "play has started; a table mournival left on the table is now "
                "an oversight for the others to claim"
            )
        m = mask_of(a.cards)
        if m not in self.table_mournivals or self.table & m != m:
            raise IllegalAction(
                Reason(
                    "{cards} is not a mournival on the table",
                    code="no_table_mournival",
                    cards=Cards(a.cards),
                )
            )

    def _check_declaration(self, a: Action) -> None:
        p, kind, cards = a.player, a.kind, a.cards
        name = kind[len("declare_") :]
        if name not in self._decl:
            words = spec("declarations").words
            have = [words[d] for d in DECLARATION_KINDS if d in self._decl]
            raise IllegalAction(
                Reason(
                    f"this ruleset has no {name.replace('_', ' ')} "
                    f"declaration (it has {', '.join(have) or 'none'})",
                    code="no_such_declaration",
                    rule="declarations",
                )
            )
        if not self._free and p != self.to_move:
            raise IllegalAction(
                Reason(
                    "under this ruleset a declaration is a turn, and it is "
                    "{mover:@'s|your} turn, not {p:@'s|yours}",
                    code="declaration_is_a_turn",
                    rule="hand_plays",
                    mover=Seat(self._mover),
                    p=Seat(p),
                )
            )
        if not self._free and self.turn_captures:
            raise IllegalAction(
                Reason(
                    "under this ruleset a declaration is a whole turn, and "
                    "{p:@ has|you have} captured this turn",
                    code="declaration_after_capture",
                    rule="hand_plays",
                    p=Seat(p),
                )
            )
        hmask = self.hands[p]
        if not hmask:
            raise IllegalAction(Reason("{p:@ holds|you hold} no cards", code="no_cards", p=Seat(p)))
        m = mask_of(cards)
        if m & hmask != m:
            raise IllegalAction(not_in_hand(cards_of(m & ~hmask), p))
        ranks = {c >> 2 for c in cards}
        if len(ranks) != 1:
            raise IllegalAction(Reason("a declaration is of cards of one rank", code="other_rank"))
        rank = ranks.pop()
        self._check_declared_cards(kind, len(cards), rank, _rank_count(hmask, rank))

    def _check_declared_cards(self, kind: str, count: int, rank: int, held: int) -> None:
        """A declaration of ``count`` cards of ``rank``, ``held`` of them in hand."""
        if kind == "declare_prial":
            if count != 2 or held < 3:
                raise IllegalAction(
                    Reason(
                        f"declaring a prial lays down two cards of a rank "
                        f"of which the hand holds three or four (holds "
                        f"{held})",
                        code="declared_cards",
                    )
                )
        elif kind == "declare_mournival":
            if count != 4:
                raise IllegalAction(
                    Reason("a mournival is all four cards of a rank", code="declared_cards")
                )
        elif kind == "declare_pair":
            if count != 2:
                raise IllegalAction(
                    Reason(
                        "declaring a pair lays down two cards of one rank", code="declared_cards"
                    )
                )
        else:
            if count != 2 or held != 2:
                raise IllegalAction(
                    Reason(
                        "a dead pair is exactly two cards of a rank held in hand",
                        code="declared_cards",
                    )
                )
            if _rank_count(self.wonall, rank) != 2:
                raise IllegalAction(
                    Reason(
                        f"the pair of {RANK_PLURALS[rank]} is not dead: the "
                        "other two are not both among the won cards",
                        code="live_pair",
                    )
                )

    def _check_capture(self, a: Action, hmask: int) -> None:
        p = a.player
        cards, table = a.cards, a.table
        if not cards or not table:
            raise IllegalAction(
                Reason(
                    "a capture plays cards from hand and takes cards from the table",
                    code="empty_capture",
                )
            )
        hm, tm = mask_of(cards), mask_of(table)
        if hm & hmask != hm:
            raise IllegalAction(not_in_hand(cards_of(hm & ~hmask), p))
        if tm & self.table != tm:
            raise IllegalAction(
                Reason(
                    "{cards} not on the table",
                    code="not_on_table",
                    cards=Cards(cards_of(tm & ~self.table)),
                )
            )
        ranks = {c >> 2 for c in cards + table}
        if len(ranks) != 1:
            raise IllegalAction(
                Reason(
                    "a capture takes cards of the same rank as the cards played", code="other_rank"
                )
            )
        rank = ranks.pop()
        nh, nt = len(cards), len(table)
        form = CAPTURE_FORM.get((nh, nt))
        if form is None:
            if (nh, nt) == (1, 2):
                raise IllegalAction(
                    Reason(
                        "one card cannot take two: every win is two or four cards",
                        code="one_takes_two",
                    )
                )
            raise IllegalAction(
                Reason(
                    f"{nh} from hand for {nt} from the table is not a capture form",
                    code="no_such_form",
                )
            )
        if form not in self.ruleset.captures:
            words = spec("captures").words
            allowed = ", ".join(words[f] for f in _FORMS if f in self.ruleset.captures)
            raise IllegalAction(
                Reason(
                    f"not allowed here: this ruleset's captures are {allowed} "
                    f"({words[form]} is not one of them)",
                    code="capture_not_allowed",
                    rule="captures",
                )
            )
        if form == "one_for_three" and _rank_count(self.table, rank) != 3:
            raise IllegalAction(
                Reason("one for three takes all three of a rank on the table", code="all_three")
            )

    # -- invariants -----------------------------------------------------------------------

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` naming the broken invariant of RULES.md 7 (and 3.6), if any."""
        self._check_placement()
        if self.phase != OVER:
            self._check_play_invariants()
        else:
            self._check_settled()

    def _check_placement(self) -> None:
        masks = (
            list(self.hands) + [self.table, self.aside, self.discard, self.outside] + list(self.won)
        )
        total = 0
        for m in masks:
            if total & m:
                raise AssertionError(
                    f"card in two places: {[code(c) for c in cards_of(total & m)]}"
                )
            total |= m
        if total != FULL_MASK:
            raise AssertionError(
                f"cards missing: {[code(c) for c in cards_of(FULL_MASK & ~total)]}"
            )
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
            assert res.points is not None  # points under pairs scoring
            if sum(res.points) != sum(len(w) for w in res.won) // 2 + bonus:
                raise AssertionError("points do not sum to won cards / 2")
        if res.net is not None and sum(res.net) != 0:
            raise AssertionError(f"net results sum to {sum(res.net)}, not 0")
        if paid != sum(s.paid for s in res.settlement):
            raise AssertionError("lie-down payments out of step with the settlement")

    # ==== The end of play and the settlement (RULES.md 3.4, 3.5, 3.6) =============================
    def _pay_for_lying_down(self, p: int) -> None:
        """RULES.md 3.6: N stakes to each player still holding cards, in turn order from the
        payer's left, or N into the pot."""
        pays = self._pays
        assert pays is not None  # called only where lying down pays
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
        hc = (x & _N3) + ((x >> 2) & _N3)  # each rank's count (_counts, inline)
        if not ((hc >> 1) | (hc >> 2)) & NIB:
            return ()  # no two cards of one rank: nothing to declare
        won = self.wonall
        if self.history and self.history[-1].player != last:
            for c in self.history[-1].cards + self.history[-1].table:
                won &= ~(1 << c)  # won by the action that ended play
        if not self._has_decl(h, _dead_bits(won)):
            return ()
        return tuple(
            (a, h & RANK_MASK[a.cards[0] >> 2])
            for a in one_declaration_per_rank(self._declarations(last, h, won))
        )

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
        pot_to, shares = (
            self._pot_shares(last, won_counts) if self.ruleset.scoring == "pot" else ((), zero)
        )
        bonus = [0] * self.n
        if bonus_to is not None:
            bonus[bonus_to] = self.rules.last_in_bonus or 0
        ante, for_cards, net, points = self._scores(won_counts, bonus, paid, received, shares)
        held: tuple[HeldDeclaration, ...] = (
            tuple(
                HeldDeclaration(a, max(0, len(a.cards) - (m & self.won[a.player]).bit_count()))
                for a, m in self._held
            )
            if self._held
            else ()
        )
        self.pot = 0
        self.result = DealResult(
            last,
            bonus_to,
            tuple(self.won),
            to,
            left,
            self.discard,
            net,
            points,
            aside,
            aside_to,
            self.last_capturer,
            tuple(self.payments),
            pot_to,
            self.ruleset.scoring,
            (
                won_play,
                tuple(ante),
                tuple(bonus),
                tuple(for_cards),
                tuple(paid),
                tuple(received),
                tuple(shares),
            ),
            held,
        )
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

    def _payment_totals(self) -> tuple[list[int], list[int]]:
        """Stakes each seat paid and received for lying down (RULES.md 3.6)."""
        n = self.n
        paid, received = [0] * n, [0] * n
        for payer, payee, stakes in self.payments:
            paid[payer] += stakes
            if payee is not None:
                received[payee] += stakes
        return paid, received

    def _pot_shares(
        self, last: int | None, won_counts: list[int]
    ) -> tuple[tuple[int, ...], list[int]]:
        """Under ``pot`` scoring, who shares the pot and each seat's share (RULES.md 3.6: a tie
        splits it, the odd stakes one each to the earliest tied seats from eldest)."""
        n = self.n
        if self.ruleset.pot_to == "last_in":
            assert last is not None  # play ends with one seat in (RULES.md 3.4)
            pot_to: tuple[int, ...] = (last,)
        else:
            best = max(won_counts)
            pot_to = tuple(q for q in range(n) if won_counts[q] == best)
        each, odd = divmod(self.pot, len(pot_to))
        shares = [0] * n
        for k, q in enumerate(sorted(pot_to, key=lambda q: (q - self.dealer - 1) % n)):
            shares[q] = each + (1 if k < odd else 0)
        return pot_to, shares

    def _scores(
        self,
        won_counts: list[int],
        bonus: list[int],
        paid: Sequence[int],
        received: Sequence[int],
        shares: Sequence[int],
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...] | None, tuple[int, ...] | None]:
        """(ante, for_cards, net, points) per seat under the ruleset's scoring (RULES.md 3.5,
        3.6)."""
        n = self.n
        zero = (0,) * n
        scoring = self.ruleset.scoring
        if scoring == "pairs":
            points = tuple(won_counts[q] // 2 + bonus[q] for q in range(n))
            net = tuple(received[q] - paid[q] for q in range(n)) if self._pays is not None else None
            return zero, zero, net, points
        pc = self.rules
        ante = tuple(pc.ante(q, self.dealer) for q in range(n))
        breakeven = pc.breakeven or 0  # None only under pairs and pot scoring
        for_cards = tuple((c - breakeven) // 2 for c in won_counts) if scoring == "stakes" else zero
        net = tuple(
            -ante[q] - paid[q] + received[q] + bonus[q] + for_cards[q] + shares[q] for q in range(n)
        )
        return ante, for_cards, net, None

    # ==== Views, counting and risk (RULES.md 8) ===================================================
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
        assert q is not None  # in play, someone is to move
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

    def nothing_at_risk(self, seat: int) -> Reason | None:
        """The verdict that none of ``seat``'s captures now is at risk (a
        :class:`~tutor.engine.reasons.Reason` of code ``all_safe``: "every capture you can make
        now will still be there at your next turn, so you may take any of them"; RULES.md 8, and
        3.4: a player who can capture must capture, any legal form, any rank), or None when
        ``seat`` can capture nothing now or some capture is at risk (:meth:`capture_options`)."""
        opts = self.capture_options(seat)
        if not opts or any(o.at_risk for o in opts):
            return None
        return Reason(
            "every capture {p} can make now will still be there at {p:@'s|your} next turn, "
            "so {p} may take any of them",
            code="all_safe",
            p=Seat(seat),
        )

    def why_no_capture(self, seat: int, rank: int) -> Reason | None:
        """None when ``seat`` could capture ``rank`` now (it is among :meth:`capture_options`),
        else why not, said for a reader (a :class:`~tutor.engine.reasons.Reason` of code
        ``no_capture``: "you cannot capture sevens now"; RULES.md 3.4, 8)."""
        if any(o.rank == rank for o in self.capture_options(seat)):
            return None
        return Reason(
            "{p:@ cannot|you cannot} capture {ranks} now",
            code="no_capture",
            p=Seat(seat),
            ranks=RANK_PLURALS[rank],
        )

    def _risk_reason(self, rank: int, nt: int, u: int, risk: bool, movers: bool) -> str:
        """Why a capture option of ``rank`` (``nt`` on the table, ``u`` unseen) is at risk or
        safe, in words (RULES.md 8)."""
        name = RANK_PLURALS[rank]
        if risk:
            return (
                f"a lone {RANK_NAMES[rank]} on the table with {u} unseen: an opponent may "
                "take it before your next turn"
            )
        if nt >= 2:
            if u == 0:
                return (
                    f"{nt} {name} on the table and none unseen: nobody else holds one to "
                    "take them with"
                )
            return (
                f"{nt} {name} on the table and at most {u} unseen: no opponent can take "
                "them all before your next turn"
            )
        if u == 0:
            return (
                f"the other {name} are all won or in your hand: nobody else can take the lone one"
            )
        if not self._c11:
            return "no one-for-one capture under this ruleset, so nobody can take it"
        if not movers:
            return "nobody else moves before you again"
        if self.ruleset.last_in_plays_on and u == 2:
            return (
                f"the other two {name} are each held alone by opponents who move first: "
                "the first may take it, but the second must lie its card down, and you "
                "capture it then"
            )
        if self.ruleset.last_in_plays_on:
            return (
                "every opponent to move before you holds one card: if one takes it, you "
                "have no capture left to play on with, so play ends first"
            )
        return (
            "every opponent to move before you holds one card, so play ends before your next turn"
        )

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
        lone &= ~(sc >> 2)  # all four seen: nobody else holds one
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
                return lone & ~((sc >> 1) & ~sc)  # seen 2 (table + hand): two unseen
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
        key = (
            tuple(self.hands),
            self.table,
            tuple(self.won),
            self.to_move,
            self.phase,
            tuple(self.oversights),
        )
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
        return RankCount(
            rank,
            _rank_count(self.table, rank),
            _rank_count(self.hands[seat], rank),
            tuple(_rank_count(w, rank) for w in self.won),
            _rank_count(self.aside, rank),
            self.unseen(seat, rank),
        )

    # ==== The parser of the learner's notation ====================================================
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
            raise InvalidAction(
                "no move: name a card, or a move word (declare, claim, take, lie down, end turn)",
                raw,
                seat,
            )
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
        assert isinstance(cards, list)  # a rank alone is read only with ranks=True
        return self._parse_cards(cards, raw, seat)

    def _read_cards(self, words: list[str], raw: str, seat: int, ranks: bool) -> list[int] | int:
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
            raise AmbiguousAction(
                Reason("that fits several moves", code="ambiguous", choices=legal), raw, seat, legal
            )
        raise IllegalAction(self.why_illegal(cands[0]) or "not a move now", raw, seat)

    def _parse_claim(self, words: list[str], raw: str, seat: int) -> Action:
        """A claim as typed: :func:`read_claim_words` reads what it names, and the engine's
        :meth:`claim_target` finds the oversight it takes."""
        return self.parse_claim(" ".join(words), seat, raw=raw)

    def parse_claim(
        self,
        text: str,
        seat: int,
        *,
        raw: str | None = None,
        named: bool = False,
        blind: bool = False,
    ) -> Action:
        """Read ``text`` as a claim by ``seat`` on this position, ``claim`` before it or not
        (:func:`read_claim_words`: cards, a rank alone, the words the lessons use), and return
        the claim of the open oversight it names (:meth:`claim_target`, :meth:`claim_action`).

        With ``named`` the claim must name cards or a rank (the claim key of play: naming is
        the skill): a claim naming neither raises :class:`~tutor.engine.errors.IncompleteAction`
        whatever is open.  Raises as :meth:`parse_action` does: ``InvalidAction`` (a word that
        is not a card, a rank or a word of a claim), ``IllegalAction`` (the engine's reason
        that nothing named is claimable), ``IncompleteAction`` (some but not all of the cards),
        ``AmbiguousAction`` (several oversights fit; ``candidates``).  ``raw`` is the input the
        errors name (default ``text``).  With ``blind`` the claim is judged as a live table's
        referee judges it (:meth:`claim_target` with ``blind``): a naming of some but not all
        of an open oversight's cards raises ``IllegalAction`` with the reason it gets when
        nothing is open, and several oversights fitting give the first (never
        ``AmbiguousAction``), so what is raised never depends on what is open."""
        raw = text if raw is None else raw
        try:
            words = read_claim_words(text)
        except ActionError as exc:
            raise type(exc)(exc.reason, raw, seat) from None
        if named and not words.names_something:
            raise IncompleteAction(
                "which cards? a claim names the cards it takes, or their "
                "rank (claim 9s 9d, claim nines)",
                raw,
                seat,
            )
        try:
            target = self.claim_target(
                seat, words.cards, rank=words.rank, kind=words.kinds or None, blind=blind
            )
        except ActionError as exc:
            raise type(exc)(exc.reason, raw, seat, exc.candidates) from None
        return self.claim_action(seat, target, words.cards)

    def _one_kind(self, cands: list[Action], raw: str, seat: int) -> Action:
        """One action among ``cands`` when they are all the same move on cards of one rank
        (the same kind and oversight, the same number of cards: which suits does not matter),
        else AmbiguousAction."""
        keys = {(a.kind, a.oversight, a.cards[0] >> 2, len(a.cards), len(a.table)) for a in cands}
        if len(keys) == 1:
            return cands[0]
        choices = list(dict.fromkeys(cands))
        raise AmbiguousAction(
            Reason(
                "that fits several moves",
                code="ambiguous",
                choices=choices,
                sep=": name the cards: ",
            ),
            raw,
            seat,
            choices,
        )

    def _parse_declare(self, words: list[str], raw: str, seat: int) -> Action:
        if not words:
            raise IncompleteAction(
                "name the cards to declare: declare qc qd (two of a prial, a "
                "dead pair), or all four of a mournival",
                raw,
                seat,
            )
        named = self._read_cards(words, raw, seat, ranks=True)
        decls = [a for a in self.legal_actions(seat) if a.kind in DECLARATIONS]
        if isinstance(named, int):
            mine = [a for a in decls if a.cards[0] >> 2 == named]
            if not mine:
                why = (
                    f"you hold no {RANK_PLURALS[named]} to declare"
                    if not _rank_count(self.hands[seat], named)
                    else f"there is no declaration of {RANK_PLURALS[named]} now"
                )
                raise IllegalAction(why, raw, seat)
            return self._one_kind(preferred_declarations(mine), raw, seat)
        return self._declare_cards(tuple(sorted(named)), decls, raw, seat)

    def _declare_cards(
        self, named: tuple[int, ...], decls: list[Action], raw: str, seat: int
    ) -> Action:
        exact = preferred_declarations([a for a in decls if a.cards == named])
        if exact:
            return exact[0]
        wider = [a for a in decls if set(named) < set(a.cards)]
        if wider and len(named) < 2:
            wider = preferred_declarations(wider)
            raise IncompleteAction(
                Reason(
                    "which cards?",
                    code="which_cards",
                    choices=wider,
                    sep=" a declaration names two cards (or all four of a mournival): ",
                ),
                raw,
                seat,
                wider,
            )
        held = _rank_count(self.hands[seat], named[0] >> 2)
        kind = (
            "declare_mournival"
            if len(named) == 4
            else "declare_prial"
            if held >= 3 and "prial" in self._decl
            else "declare_dead_pair"
            if "dead_pair" in self._decl
            else "declare_pair"
        )
        reason = self.why_illegal(Action.make(seat, kind, named))
        raise IllegalAction(reason or "that is not a declaration you can make now", raw, seat)

    def _parse_take(self, words: list[str], raw: str, seat: int) -> Action:
        if words and words not in (["mournival"], ["the", "mournival"], ["table", "mournival"]):
            named = self._read_cards(words, raw, seat, ranks=True)
            rank = named if isinstance(named, int) else named[0] >> 2
            m = RANK_MASK[rank]
            return self._parsed([Action.make(seat, "take_table_mournival", cards_of(m))], raw, seat)
        acts = [
            Action.make(seat, "take_table_mournival", cards_of(m))
            for m in RANK_MASK
            if self.table & m == m
        ]
        if not acts:
            raise IllegalAction("there is no mournival (four of a rank) on the table", raw, seat)
        return self._parsed(acts, raw, seat)

    def _parse_cards(self, cards: list[int], raw: str, seat: int) -> Action:
        hand, table = self.hands[seat], self.table
        loose = [c for c in cards if not (hand >> c) & 1 and not (table >> c) & 1]
        if loose:
            where = (
                "not in your hand" if len(cards) == 1 else "neither in your hand nor on the table"
            )
            raise IllegalAction(f"{' '.join(code(c) for c in loose)}: {where}", raw, seat)
        h = tuple(sorted(c for c in cards if (hand >> c) & 1))
        t = tuple(sorted(c for c in cards if (table >> c) & 1))
        if not h:
            raise IllegalAction(
                "name a card from your hand first (7h captures with the seven of hearts)", raw, seat
            )
        ranks = {c >> 2 for c in cards}
        if len(ranks) != 1:
            raise IllegalAction(
                "a capture takes cards of the same rank as the cards played", raw, seat
            )
        rank = ranks.pop()
        if not t and len(h) in (2, 4):
            decls = [a for a in self.legal_actions(seat) if a.kind in DECLARATIONS]
            exact = preferred_declarations([a for a in decls if a.cards == h])
            if exact:
                return exact[0]
        if self.phase == OVER:
            raise IllegalAction("the deal is over", raw, seat)
        if self.to_move != seat:
            raise IllegalAction(not_your_turn(self._mover, seat), raw, seat)
        caps = [
            a
            for a in self.legal_actions()
            if a.kind in CAPTURE_KINDS and a.cards == h and set(t) <= set(a.table)
        ]
        exact = [a for a in caps if a.table == t]
        if len(exact) == 1:
            return exact[0]
        if caps and not t:
            if len(caps) == 1:
                return caps[0]
            raise AmbiguousAction(
                Reason("which table cards?", code="which_table_cards", choices=caps, sep=" "),
                raw,
                seat,
                caps,
            )
        if caps:
            raise IncompleteAction(
                Reason(
                    "which table cards?",
                    code="which_table_cards",
                    choices=caps,
                    sep=" that capture takes ",
                ),
                raw,
                seat,
                caps,
            )
        if not _rank_count(table, rank):
            raise IllegalAction(
                f"there is no {RANK_NAMES[rank]} on the table to capture", raw, seat
            )
        kind = "play_on_capture" if self.phase == PLAY_ON else "capture"
        on_table = tuple(cards_of(table & RANK_MASK[rank]))
        guess = Action.make(seat, kind, h, t or on_table)
        raise IllegalAction(
            self.why_illegal(guess) or "that is not one of your moves now", raw, seat
        )


_CHECKS: dict[str, Callable[[Deal, Action], None]] = {
    "end_turn": Deal._check_end_turn,
    "lie_down": Deal._check_lie_down,
    "take_table_mournival": Deal._check_take,
    "claim": lambda deal, a: deal._check_claim(a),
}


#: How each action other than a capture changes the deal.
_APPLY = {
    "lie_down": Deal._apply_lie_down,
    "claim": Deal._apply_claim,
    "take_table_mournival": Deal._apply_take,
    "end_turn": lambda d, a: d._after_turn(a.player),
    **{
        k: Deal._apply_declaration
        for k in ("declare_prial", "declare_mournival", "declare_dead_pair", "declare_pair")
    },
}


#: The slots :meth:`Deal.clone` copies as they are (immutable values); the lists are copied.
_SHARED_SLOTS = tuple(
    name
    for name in Deal.__slots__
    if name not in ("hands", "won", "oversights", "history", "payments", "_undo")
)


def new_deal(ruleset: Ruleset, players: int, dealer: int, rng: random.Random) -> Deal:
    """A deal with a pack shuffled by ``rng`` (a ``random.Random``)."""
    pack = list(range(52))
    rng.shuffle(pack)
    return Deal(ruleset, players, dealer, pack)
