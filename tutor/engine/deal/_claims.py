"""Oversights and claims (RULES.md 4): which mistakes a deal leaves open, what a claim takes, and
why a claim takes nothing (private to :mod:`tutor.engine.deal`, which re-exports the public
names)."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import NamedTuple

from tutor.engine.cards import RANK_PLURALS, cards_of, pretty_cards
from tutor.engine.deal._bits import NIB, RANK_MASK, _counts, _dead_bits, _rank_count, _ranks
from tutor.engine.deal._notation import PLAY, Action
from tutor.engine.deal._shape import _DealState
from tutor.engine.errors import AmbiguousAction, IllegalAction, IncompleteAction
from tutor.engine.reasons import Cards, Reason, Seat
from tutor.engine.rulesets import Ruleset
from tutor.engine.values import OversightKind

#: How many cards a claim of each oversight kind takes (RULES.md 4): all four of a mournival,
#: a pair otherwise.
CLAIM_TAKES = {"overlooked_table_mournival": 4, "split_prial": 2, "laid_down_dead_pair": 2,
               "laid_down_prial": 2, "laid_down_mournival": 4}


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

    def named_by(self, cards=(), rank: int | None = None, kinds=()) -> bool:
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


#: The declarations that could have taken each laid-down hand (RULES.md 3.6 detail 3).
_TAKEN_BY = {"laid_down_dead_pair": frozenset({"dead_pair", "pair"}),
             "laid_down_prial": frozenset({"prial", "pair"}),
             "laid_down_mournival": frozenset({"mournival", "prial", "pair"})}
#: The oversight that cards of one rank laid down make, by how many are laid down (RULES.md 4).
LAID_DOWN_KIND = {2: OversightKind.LAID_DOWN_DEAD_PAIR, 3: OversightKind.LAID_DOWN_PRIAL,
                  4: OversightKind.LAID_DOWN_MOURNIVAL}


def reachable_oversights(ruleset: Ruleset) -> tuple[str, ...]:
    """The oversight kinds ``ruleset`` lists that its play can actually make (RULES.md 4, 3.6).

    A split prial needs one-for-one and one-for-three captures (only where a table prial could be
    taken whole is taking one of it a mistake).  A laid-down dead pair, prial or mournival is an
    oversight only where some declaration of the ruleset could have taken it (RULES.md 3.6 detail
    3), and where each declaration is a turn (``hand_plays: turn``) a player may lie down only
    when no declaration is possible (RULES.md 3.4), so such a hand is never laid down.
    """
    out = []
    for k in (o.value for o in OversightKind if o in ruleset.oversights):   # the parameter's order
        if k == "split_prial" and not {"one_for_one", "one_for_three"} <= ruleset.captures:
            continue
        if k in _TAKEN_BY and (ruleset.hand_plays == "turn"
                               or not _TAKEN_BY[k] & ruleset.declarations):
            continue
        out.append(k)
    return tuple(out)


class _Claims(_DealState):
    """Oversights and claims (a part of :class:`~tutor.engine.deal.Deal`)."""

    __slots__ = ()

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

    def claim_target(self, seat: int, cards=(), *, rank: int | None = None,
                     kind: str | Iterable[str] | None = None, blind: bool = False) -> Oversight:
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
                if ((kinds is not None and o.kind not in kinds) or on.bit_count() < o.take
                        or (rank is not None and o.rank != rank)
                        or (named and (named & on != named or count > o.take))):
                    continue
                if blind and named and count < o.take:
                    continue            # part of a claim is no claim, whatever is open
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
            raise AmbiguousAction(Reason("that fits several moves", code="ambiguous",
                                         choices=cands, sep=": name the cards: "),
                                  candidates=cands)
        if wider:
            cands = self._claims_on(seat, wider, named)
            raise IncompleteAction(Reason("which cards?", code="which_cards", choices=cands,
                                          sep=f" a claim of {wider[0].kind.replace('_', ' ')} "
                                              f"names all {wider[0].take}: "),
                                   candidates=cands)
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

    def _no_claim(self, seat: int, cards, rank: int | None, kinds: set[str] | None,
                  own: bool) -> Reason:
        """Why a claim by ``seat`` of ``cards`` (or ``rank``, or nothing named; of one of
        ``kinds`` when given) takes nothing."""
        if not self._ov:
            return Reason("this ruleset lists no oversights: there is never anything to claim",
                          code="no_oversights", rule="oversights")
        if self.phase != PLAY:
            return Reason("play has ended: there is nothing to claim")
        # A claim that names something is answered about what it names, never about what else
        # is open: the reason must not tell a watching player whether an oversight exists.
        if not own and not (cards or rank is not None or kinds) and not self.open_oversights():
            return Reason("there is nothing to claim")
        if own:
            if cards or rank is not None:
                return Reason("{p} made that mistake and may not claim it", code="own_mistake",
                              p=Seat(seat))
            return Reason("the only open oversight is your own mistake, and you may not claim "
                          "it", code="own_mistake")
        what = " or ".join(sorted(k.replace("_", " ") for k in kinds)) + " " if kinds else ""
        if cards:
            return Reason("no open " + what + "oversight covers {cards}", code="nothing_open",
                          cards=Cards(cards))
        if rank is not None:
            return Reason(f"no open {what}oversight of {RANK_PLURALS[rank]}")
        if kinds:
            return Reason(f"no {what}oversight is open")
        return Reason("there is nothing to claim")

    def claim_action(self, seat: int, target: Oversight, cards=()) -> Action:
        """The claim ``seat`` makes of ``target`` (from :meth:`claim_target`): of ``cards`` when
        they are named in full, else of the first ``take`` of its cards on the table."""
        if len(cards) == target.take:
            return Action.make(seat, "claim", cards, (), target.kind)
        on = cards_of(self.table & target.mask)
        return Action(seat, "claim", tuple(on[:target.take]), (), target.kind)

    # -- which oversights a move makes ------------------------------------------------------

    def would_split_prial(self, action: Action) -> bool:
        """True when ``action`` would make the ``split_prial`` oversight under this ruleset: a
        one-for-one capture from a table prial where one-for-three is allowed and the ruleset
        lets others claim the split (RULES.md 4)."""
        return (action.kind == "capture" and len(action.cards) == 1 and len(action.table) == 1
                and self._c13 and "split_prial" in self._ov
                and _rank_count(self.table, action.table[0] >> 2) == 3)

    def lie_down_oversights(self, seat: int, *,
                            counted_otherwise: bool = False) -> tuple[LaidDown, ...]:
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
                    add(Oversight(OversightKind.LAID_DOWN_DEAD_PAIR, p, h & RANK_MASK[rank],
                                      CLAIM_TAKES["laid_down_dead_pair"], idx))
        if self._ov_prial:
            for rank in _ranks(hc & (hc >> 1) & ~(hc >> 2) & NIB):
                add(Oversight(OversightKind.LAID_DOWN_PRIAL, p, h & RANK_MASK[rank],
                                  CLAIM_TAKES["laid_down_prial"], idx))
        if self._ov_mourn:
            for rank in _ranks((hc >> 2) & NIB):
                add(Oversight(OversightKind.LAID_DOWN_MOURNIVAL, p, h & RANK_MASK[rank],
                                  CLAIM_TAKES["laid_down_mournival"], idx))

    def _start(self) -> None:
        """Play begins: a table mournival the dealer left is now an oversight (RULES.md 3.3)."""
        self.started = True
        if "overlooked_table_mournival" in self._ov:
            idx = len(self.history) - 1
            for m in self.table_mournivals:
                if self.table & m == m:
                    self.oversights.append(Oversight(
                        OversightKind.OVERLOOKED_TABLE_MOURNIVAL, self.dealer, m,
                        CLAIM_TAKES["overlooked_table_mournival"], idx))

    def _check_claim(self, a: Action) -> None:
        try:
            target = self.claim_target(a.player, a.cards, kind=a.oversight)
        except AmbiguousAction:
            target = None
        if target is None or len(a.cards) != target.take:
            raise IllegalAction(f"no open {str(a.oversight).replace('_', ' ')} oversight covers "
                                f"{pretty_cards(a.cards)}")
