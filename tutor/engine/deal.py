"""The rules engine: one deal of Laugh and Lie Down under any ruleset (RULES.md 3-4, 7-8).

:class:`Deal` is the state.  Like an OpenSpiel state it offers :meth:`Deal.legal_actions` (the
turn actions of the player to move), :meth:`Deal.free_actions` (declarations, claims and taking
a table mournival: actions any player may make at any moment, not turns), :meth:`Deal.apply`
(which refuses an illegal action with the reason), :meth:`Deal.is_terminal`,
:meth:`Deal.returns`, :meth:`Deal.clone` and a per-player :meth:`Deal.view` with counting.

Cards are ints (see :mod:`tutor.engine.cards`).  Inside, each hand, the table and each won pile is a
52-bit mask; four bits per rank ("nibble"), so rank counts are cheap bit arithmetic.

The engine branches only on ruleset parameters (:class:`tutor.engine.rulesets.Ruleset`), never on a
source's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from tutor.engine.cards import RANK_NAMES, RANK_PLURALS, cards_of, code, mask_of, pretty_cards, rank_code
from tutor.engine.errors import IllegalAction
from tutor.engine.rulesets import Ruleset

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


# --- actions -----------------------------------------------------------------------------

TURN_KINDS = frozenset({"capture", "lie_down", "play_on_capture"})
DECLARATIONS = frozenset({"declare_prial", "declare_mournival", "declare_dead_pair"})
ACTION_KINDS = ("take_table_mournival", "declare_prial", "declare_mournival", "declare_dead_pair",
                "capture", "lie_down", "claim", "play_on_capture")


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

    def describe(self, symbols: bool = True, names: list[str] | None = None) -> str:
        """A sentence for people: ``Player 2 captures 7♥ with 7♠``."""
        who = names[self.player] if names else f"Player {self.player}"
        cs = pretty_cards(self.cards, symbols)
        if self.kind in ("capture", "play_on_capture"):
            tail = " (playing on)" if self.kind == "play_on_capture" else ""
            return f"{who} captures {pretty_cards(self.table, symbols)} with {cs}{tail}"
        if self.kind == "lie_down":
            return f"{who} lies down: {cs}"
        if self.kind == "claim":
            return f"{who} claims {cs} ({self.oversight.replace('_', ' ')})"
        if self.kind == "take_table_mournival":
            return f"{who} takes the table mournival {cs}"
        what = {"declare_prial": "a pair of a prial", "declare_mournival": "a mournival",
                "declare_dead_pair": "a dead pair"}[self.kind]
        return f"{who} declares {what}: {cs}"


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


# --- results and views ---------------------------------------------------------------------

@dataclass(frozen=True)
class DealResult:
    """A finished deal's settlement (RULES.md 3.5).

    ``won`` holds each seat's won cards (leftovers included) as sorted tuples; ``leftovers_to`` is a
    seat or None (nobody); ``net`` is stakes per seat (None under pairs scoring); ``points`` won
    cards / 2 per seat (None under stakes scoring); ``bonus_to`` a seat or None; ``set_aside`` the
    table mournival turned face down at the deal (if any) and ``set_aside_to`` the seat that took it.
    """

    last_in: int | None
    bonus_to: int | None
    won: tuple[tuple[int, ...], ...]
    leftovers_to: int | None
    leftovers: tuple[int, ...]
    discard: tuple[int, ...]
    net: tuple[int, ...] | None
    points: tuple[int, ...] | None
    set_aside: tuple[int, ...] = ()
    set_aside_to: int | None = None

    def returns(self) -> tuple[int, ...]:
        """Net stakes per seat under stakes scoring, else points per seat."""
        return self.net if self.net is not None else self.points  # type: ignore[return-value]


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


# --- the deal ------------------------------------------------------------------------------

PLAY, PLAY_ON, OVER = "play", "play_on", "over"


class Deal:
    """One deal in progress, from the deal to settlement (RULES.md 3.3-3.5).

    ``ruleset`` is a :class:`~tutor.engine.rulesets.Ruleset`; ``players`` a player count the ruleset
    covers; ``dealer`` a seat 0..players-1; ``pack`` the 52 cards top first.  Dealing: one card at a
    time to each player starting with eldest (``(dealer + 1) % players``), ``hand`` cards each;
    the rest go face up to the table.

    Raises ``ValueError`` when the pack is not the 52 distinct cards or the player count is not
    covered by the ruleset.
    """

    __slots__ = ("ruleset", "rules", "n", "dealer", "pack", "hands", "table", "won", "wonall",
                 "aside", "discard", "to_move", "started", "phase", "oversights", "history",
                 "last_capturer", "in_play", "result", "table_mournivals", "_c11", "_c13", "_c22",
                 "_c31", "_free", "_ov")

    def __init__(self, ruleset: Ruleset, players: int, dealer: int, pack):
        if players not in ruleset.counts:
            raise ValueError(f"ruleset {ruleset.id} does not cover {players} players "
                             f"(it covers {', '.join(map(str, ruleset.player_counts))})")
        pack = tuple(pack)
        if len(pack) != 52 or set(pack) != _FULL_SET:
            raise ValueError("the pack must be the 52 distinct cards")
        if not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat from 0 to {players - 1}")
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
        hand = self.rules.hand
        hands = [0] * players
        eldest = (dealer + 1) % players
        end = players * hand
        bit = _BIT.__getitem__
        for q in range(players):
            hands[(eldest + q) % players] = sum(map(bit, pack[q:end:players]))
        table = sum(map(bit, pack[end:]))
        self.hands = hands
        self.table = table
        self.won = [0] * players
        self.wonall = 0
        self.aside = 0
        self.discard = 0
        self.to_move: int | None = eldest
        self.started = False
        self.phase = PLAY
        self.oversights: list[Oversight] = []
        self.history: list[Action] = []
        self.last_capturer: int | None = None
        self.in_play = sum(1 for h in hands if h)
        self.result: DealResult | None = None
        counts = _counts(table)
        four = (counts >> 2) & NIB
        self.table_mournivals = tuple(RANK_MASK[r] for r in _ranks(four))

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

    def is_out(self, seat: int) -> bool:
        """True when ``seat`` holds no cards (lay down, or emptied their hand)."""
        return not self.hands[seat]

    def is_terminal(self) -> bool:
        """True once the deal is settled."""
        return self.phase == OVER

    def returns(self) -> tuple[int, ...]:
        """Net stakes (stakes scoring) or points (pairs scoring) per seat; raises if not over."""
        if self.result is None:
            raise IllegalAction("the deal is not over yet")
        return self.result.returns()

    def clone(self) -> "Deal":
        """An independent copy of this state."""
        other = object.__new__(Deal)
        for name in Deal.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = list(self.hands)
        other.won = list(self.won)
        other.oversights = list(self.oversights)
        other.history = list(self.history)
        return other

    def _next_in_play(self, seat: int) -> int:
        n = self.n
        q = (seat + 1) % n
        hands = self.hands
        while not hands[q]:
            q = (q + 1) % n
        return q

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

    def _declarations(self, seat: int) -> list[Action]:
        h = self.hands[seat]
        if not h:
            return []
        hc = _counts(h)
        out: list[Action] = []
        prial = ((hc & (hc >> 1)) | (hc >> 2)) & NIB       # count 3 or 4
        if prial:
            four = (hc >> 2) & NIB
            for rank in _ranks(prial):
                cs = cards_of(h & RANK_MASK[rank])
                if len(cs) == 4 and four:
                    out.append(Action(seat, "declare_mournival", tuple(cs)))
                for pair in combinations(cs, 2):
                    out.append(Action(seat, "declare_prial", pair))
        pairs = (hc >> 1) & ~hc & ~(hc >> 2) & NIB          # count exactly 2
        if pairs:
            wc = _counts(self.wonall)
            dead = pairs & (wc >> 1) & ~wc & ~(wc >> 2)
            for rank in _ranks(dead):
                out.append(Action(seat, "declare_dead_pair", tuple(cards_of(h & RANK_MASK[rank]))))
        return out

    def has_declaration(self, seat: int) -> bool:
        """True when ``seat`` holds a prial, a mournival or a dead pair it could declare."""
        h = self.hands[seat]
        if not h:
            return False
        hc = _counts(h)
        if ((hc & (hc >> 1)) | (hc >> 2)) & NIB:
            return True
        pairs = (hc >> 1) & ~hc & ~(hc >> 2) & NIB
        if pairs:
            wc = _counts(self.wonall)
            return bool(pairs & (wc >> 1) & ~wc & ~(wc >> 2))
        return False

    def free_pending(self) -> bool:
        """Cheap test: could any seat make a free action now (a claim, a declaration under
        ``hand_plays: free``, or the dealer's taking of a table mournival)?"""
        if self.phase != PLAY:
            return False
        if self.oversights:
            return True
        if not self.started and self.table_mournivals:
            return True
        if not self._free:
            return False
        x = self.wonall
        a = (x & _N5) + ((x >> 1) & _N5)
        wc = (a & _N3) + ((a >> 2) & _N3)
        dead = (wc >> 1) & ~wc & ~(wc >> 2)
        for h in self.hands:
            if h:
                a = (h & _N5) + ((h >> 1) & _N5)
                hc = (a & _N3) + ((a >> 2) & _N3)
                if ((hc & (hc >> 1)) | (hc >> 2) | ((hc >> 1) & ~hc & ~(hc >> 2) & dead)) & NIB:
                    return True
        return False

    def dead_pairs(self, seat: int) -> tuple[int, ...]:
        """Ranks of the dead pairs in ``seat``'s hand: pairs whose other two cards are already
        among anyone's won cards (including the holder's own, RULES.md 6)."""
        h = self.hands[seat]
        hc = _counts(h)
        wc = _counts(self.wonall)
        pairs = (hc >> 1) & ~hc & ~(hc >> 2) & NIB
        return tuple(_ranks(pairs & (wc >> 1) & ~wc & ~(wc >> 2)))

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

    def legal_actions(self) -> list[Action]:
        """The turn actions of the player to move (RULES.md 3.4): their captures; under
        ``hand_plays: turn`` also their declarations; ``lie_down`` only when there is nothing
        else.  In the play-on phase, the last-in player's ``play_on_capture`` actions.  Empty
        when the deal is over.  Free actions are in :meth:`free_actions`.
        """
        if self.phase == OVER:
            return []
        p = self.to_move
        if self.phase == PLAY_ON:
            return self._captures(p, "play_on_capture")
        acts = self._captures(p, "capture")
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
            return str(exc)
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
        if kind in ("capture", "play_on_capture"):
            if p != self.to_move:
                raise IllegalAction(f"it is player {self.to_move}'s turn, not player {p}'s")
            self._check_capture(a, hmask)
            return
        if kind == "lie_down":
            if p != self.to_move:
                raise IllegalAction(f"it is player {self.to_move}'s turn, not player {p}'s")
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
            if not self._free and p != self.to_move:
                raise IllegalAction(f"under this ruleset a declaration is a turn, and it is player "
                                    f"{self.to_move}'s turn")
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
        form = {(1, 1): "one_for_one", (1, 3): "one_for_three", (2, 2): "pair_for_pair",
                (3, 1): "prial_for_one"}.get((nh, nt))
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
            bit = _BIT.__getitem__
            hm = sum(map(bit, a.cards))
            tm = sum(map(bit, a.table))
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
                self._after_turn(p)
            else:
                if not self.can_capture(p):
                    self._finish()
            return
        if kind == "lie_down":
            h = self.hands[p]
            if not self.started:
                self._start()
            self.hands[p] = 0
            self.in_play -= 1
            self.table |= h
            ov = self._ov
            if ov:
                hc = _counts(h)
                idx = len(self.history) - 1
                if "laid_down_dead_pair" in ov:
                    pairs = (hc >> 1) & ~hc & ~(hc >> 2) & NIB
                    if pairs:
                        wc = _counts(self.wonall)
                        for rank in _ranks(pairs & (wc >> 1) & ~wc & ~(wc >> 2)):
                            self.oversights.append(Oversight("laid_down_dead_pair", p,
                                                             h & RANK_MASK[rank], 2, idx))
                if "laid_down_prial" in ov:
                    for rank in _ranks(hc & (hc >> 1) & ~(hc >> 2) & NIB):
                        self.oversights.append(Oversight("laid_down_prial", p,
                                                         h & RANK_MASK[rank], 2, idx))
                if "laid_down_mournival" in ov:
                    for rank in _ranks((hc >> 2) & NIB):
                        self.oversights.append(Oversight("laid_down_mournival", p,
                                                         h & RANK_MASK[rank], 4, idx))
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
                self.to_move = self._next_in_play(p)

    def _start(self) -> None:
        self.started = True
        if "overlooked_table_mournival" in self._ov:
            idx = len(self.history) - 1
            for m in self.table_mournivals:
                if self.table & m == m:
                    self.oversights.append(Oversight("overlooked_table_mournival", self.dealer,
                                                     m, 4, idx))

    def _after_turn(self, p: int) -> None:
        if self.in_play <= 1:
            self._end_play()
        else:
            self.to_move = self._next_in_play(p)

    def _end_play(self) -> None:
        last = next((q for q in range(self.n) if self.hands[q]), None)
        self.oversights = []
        if last is not None and self.ruleset.last_in_plays_on and self.can_capture(last):
            self.phase = PLAY_ON
            self.to_move = last
            return
        self.to_move = last
        self._finish()

    def _finish(self) -> None:
        last = next((q for q in range(self.n) if self.hands[q]), None)
        if last is None:
            last = self.to_move
        rs = self.ruleset
        pc = self.rules
        n = self.n
        left = self.table | (self.hands[last] if last is not None else 0)
        if last is not None:
            self.hands[last] = 0
        self.table = 0
        to = {"dealer": self.dealer, "last_in": last, "nobody": None}[rs.leftovers_to]
        if to is None:
            self.discard |= left
        else:
            self.won[to] |= left
        aside, aside_to = self.aside, None
        if aside:
            aside_to = last if last is not None else self.dealer
            self.won[aside_to] |= aside
            self.aside = 0
        self.wonall = 0
        for w in self.won:
            self.wonall |= w
        won_counts = [w.bit_count() for w in self.won]
        bonus_to = None
        if pc.last_in_bonus is not None and rs.bonus_to is not None:
            if rs.bonus_to == "last_in" or self.last_capturer is None:
                bonus_to = last
            else:
                bonus_to = self.last_capturer
        net = points = None
        if rs.scoring == "stakes":
            be = pc.breakeven
            net = []
            for q in range(n):
                v = -pc.ante(q, self.dealer) + (won_counts[q] - be) // 2
                if q == bonus_to:
                    v += pc.last_in_bonus
                net.append(v)
            net = tuple(net)
        else:
            points = []
            for q in range(n):
                v = won_counts[q] // 2
                if q == bonus_to and pc.last_in_bonus:
                    v += pc.last_in_bonus
                points.append(v)
            points = tuple(points)
        self.result = DealResult(
            last_in=last, bonus_to=bonus_to,
            won=tuple(tuple(cards_of(w)) for w in self.won),
            leftovers_to=to, leftovers=tuple(cards_of(left)), discard=tuple(cards_of(self.discard)),
            net=net, points=points, set_aside=tuple(cards_of(aside)), set_aside_to=aside_to)
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
        movers, others = self.movers_before(seat)
        seen = t | self.wonall | self.aside | h
        ends_first = (not others and all(self.hands[q].bit_count() == 1 for q in movers))
        out = []
        for rank in _ranks(common):
            nh, nt = _rank_count(h, rank), _rank_count(t, rank)
            if not self._can_capture_rank(nh, nt):
                continue
            u = 4 - _rank_count(seen, rank)
            name = RANK_PLURALS[rank]
            if nt >= 2:
                risk, why = False, (f"{nt} {name} on the table and at most {u} unseen: no opponent "
                                    "can take them all before your next turn")
            elif u == 0:
                risk, why = False, (f"the other {name} are all won or in your hand: nobody else "
                                    "can take the lone one")
            elif not self._c11:
                risk, why = False, "no one-for-one capture under this ruleset, so nobody can take it"
            elif not movers:
                risk, why = False, "nobody else moves before you again"
            elif self.phase == PLAY and ends_first and not self.ruleset.last_in_plays_on:
                risk, why = False, ("every opponent to move before you holds one card, so play "
                                    "ends before your next turn")
            else:
                risk, why = True, (f"a lone {RANK_NAMES[rank]} on the table with {u} unseen: an opponent may take it before your "
                                   "next turn")
            out.append(CaptureOption(rank, nt, nh, u, risk, why))
        return out

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

    # -- invariants -----------------------------------------------------------------------

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` naming the broken invariant of RULES.md 7, if any."""
        masks = list(self.hands) + [self.table, self.aside, self.discard] + list(self.won)
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
        else:
            res = self.result
            if any(self.hands) or self.table:
                raise AssertionError("cards left in hand or on the table after settlement")
            if self.ruleset.scoring == "stakes":
                if self.discard or self.aside:
                    raise AssertionError("stakes scoring ends with every card in a won pile")
                pc = self.rules
                pot = pc.pot - (pc.last_in_bonus if res.bonus_to is not None else 0)
                for q in range(self.n):
                    pot -= (len(res.won[q]) - pc.breakeven) // 2
                if pot != 0:
                    raise AssertionError(f"the pot ends at {pot}, not 0")
                if sum(res.net) != 0:
                    raise AssertionError(f"net results sum to {sum(res.net)}, not 0")
            else:
                bonus = (self.rules.last_in_bonus or 0) if res.bonus_to is not None else 0
                if sum(res.points) != sum(len(w) for w in res.won) // 2 + bonus:
                    raise AssertionError("points do not sum to won cards / 2")


def new_deal(ruleset: Ruleset, players: int, dealer: int, rng) -> Deal:
    """A deal with a pack shuffled by ``rng`` (a ``random.Random``)."""
    pack = list(range(52))
    rng.shuffle(pack)
    return Deal(ruleset, players, dealer, pack)
