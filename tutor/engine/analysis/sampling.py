"""Determinizations and rollouts on the pure engine (RULES.md 8: what a seat can see).

:class:`Determinizer` deals the cards a seat cannot see to its opponents; :func:`rollout` plays a
deal to settlement with one computer player per seat (:mod:`tutor.engine.rule_bots`), through the
engine's public calls only (:meth:`Deal.legal_actions`, :meth:`Deal.free_actions`,
:meth:`Deal.apply_unchecked`, the claim race of :mod:`tutor.engine.race`).  The compiled kernel
(:mod:`tutor.engine.analysis.kernel`) does the same for ``counter`` players, number for number.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tutor.engine.cards import cards_of
from tutor.engine.deal import CAPTURE_KINDS, DECLARATIONS, TURN_KINDS, Action, Deal
from tutor.engine.errors import LaughError
from tutor.engine.race import ClaimRace
from tutor.engine.rule_bots import Bot, RandomSource

__all__ = [
    "Determinizer",
    "FULL",
    "determinize",
    "known_holdings",
    "played_from_hand",
    "rollout",
    "shuffle",
    "unseen_mask",
]

FULL = (1 << 52) - 1
#: Tries of the rejection sampling before the proven cards are placed first.
TRIES = 2000
_PROVING_PLAYS = (
    "capture",
    "play_on_capture",
    "declare_dead_pair",
    "declare_mournival",
    "lie_down",
)


def unseen_mask(d: Deal, seat: int) -> int:
    """The cards ``seat`` cannot see (RULES.md 8): all of them are in its opponents' hands."""
    return FULL & ~(d.hands[seat] | d.table | d.wonall | d.aside | d.discard)


def known_holdings(d: Deal, seat: int) -> dict[tuple[int, int], int]:
    """What every action so far proves about the opponents' hands, beyond their sizes.

    Returns ``{(player, rank): k}``: ``player`` still holds at least ``k`` unseen cards of
    ``rank``.  Declaring a pair of a prial shows a third card of that rank kept in hand (RULES.md
    3.4); the proof lapses once the player plays a card of that rank from hand.  Every other
    action shows only the cards it moves (they are then seen), and a player who lies down is out.
    """
    mins: dict[tuple[int, int], int] = {}
    for a in d.history:
        if a.player == seat:
            continue
        if a.kind == "declare_prial":
            mins[(a.player, a.cards[0] >> 2)] = 1
        elif a.kind in _PROVING_PLAYS:
            for c in a.cards:
                if (a.player, c >> 2) in mins:
                    mins[(a.player, c >> 2)] = 0
    return {k: v for k, v in mins.items() if v and d.hands[k[0]]}


def played_from_hand(d: Deal) -> dict[int, int]:
    """``{player: card mask}``: the cards each player has moved from hand (captured with,
    declared) since the first turn of the deal."""
    out: dict[int, int] = {}
    started = False
    for a in d.history:
        if a.kind in TURN_KINDS:
            started = True
        if started and (a.kind in CAPTURE_KINDS or a.kind in DECLARATIONS):
            for c in a.cards:
                out[a.player] = out.get(a.player, 0) | (1 << c)
    return out


def shuffle(cards: list[int], rng: RandomSource) -> None:
    """Fisher-Yates in place, drawing ``int(rng.random() * (i + 1))`` for ``i`` from the top
    down (the kernel's ``shuffle``)."""
    r = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(r() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


class Determinizer:
    """Deals the cards ``seat`` cannot see to its opponents, at random and consistently with
    their hand sizes and :func:`known_holdings`, on copies of one position.

    ``cards`` (sorted), ``opponents`` (``(seat, hand size)`` in seat order) and ``needs``
    (``(seat, rank mask)``, sorted) are what the kernel is given.

    ``undeclared``: deal only hands in which no opponent could declare anything now (a prial, a
    mournival, a dead pair: :meth:`Deal.has_declaration`), nor could have at the first turn of
    the deal (its hand then: the cards dealt now and those it has played from hand since,
    ``past``), as when every opponent declares as soon as the rules let it (``counter`` and
    ``willughby`` do) and declarations are free actions, at a turn of ``seat`` (every free
    action has then been made).  Ignored when declarations are turns.  Off by default: the
    analysis of hints, reviews and puzzles assumes nothing about how the opponents play.

    Raises :class:`LaughError` when the opponents' hand sizes do not add up to the unseen cards
    (a teaching fragment)."""

    def __init__(self, d: Deal, seat: int, undeclared: bool = False):
        self.base = d
        self.seat = seat
        self.undeclared = bool(undeclared) and d.declarations_are_free
        self.cards = cards_of(unseen_mask(d, seat))
        self.opponents = [
            (q, d.hands[q].bit_count()) for q in range(d.n) if q != seat and d.hands[q]
        ]
        if sum(k for _, k in self.opponents) != len(self.cards):
            raise LaughError("the opponents' hand sizes do not match the unseen cards")
        self.needs = [(q, 0xF << (4 * r)) for (q, r), k in sorted(known_holdings(d, seat).items())]
        played = played_from_hand(d) if self.undeclared else {}
        self.past = [played.get(q, 0) for q, _ in self.opponents]

    def hands(self, rng: RandomSource) -> dict[int, int]:
        """The opponents' hands (seat -> mask) of one deal of the unseen cards by ``rng``.

        Uniform over the deals that fit (rejection sampling: the same list shuffled again);
        after :data:`TRIES` misfits, which only an unlikely history can cause, the proven cards
        are placed first (and ``undeclared`` is given up)."""
        cards = list(self.cards)
        for _ in range(TRIES if self.needs or self.undeclared else 1):
            shuffle(cards, rng)
            masks = self._split(cards)
            if self.fits(masks):
                return masks
        return self._forced(cards, rng)

    def fits(self, masks: dict[int, int]) -> bool:
        """Whether opponents' hands ``masks`` (seat -> card mask) keep every proven holding
        and, with ``undeclared``, hold no declaration now nor did at the deal's first turn."""
        if not all(masks[q] & m for q, m in self.needs):
            return False
        if not self.undeclared:
            return True
        d = self.base
        return not any(
            d.could_declare(masks[q]) or d.could_declare(masks[q] | p, 0)
            for (q, _), p in zip(self.opponents, self.past)
        )

    def deal(self, rng: RandomSource) -> Deal:
        """A copy of the position with the opponents' hands dealt afresh by ``rng``."""
        o = self.base.clone()
        for q, m in self.hands(rng).items():
            o.hands[q] = m
        return o

    def _split(self, cards: list[int]) -> dict[int, int]:
        out = {}
        i = 0
        for q, k in self.opponents:
            m = 0
            for c in cards[i : i + k]:
                m |= 1 << c
            out[q] = m
            i += k
        return out

    def _forced(self, cards: list[int], rng: RandomSource) -> dict[int, int]:
        rest = cards[:]
        shuffle(rest, rng)
        out = {q: 0 for q, _ in self.opponents}
        room = dict(self.opponents)
        for q, m in self.needs:
            if out[q] & m:
                continue
            pick = next(c for c in rest if (1 << c) & m)
            rest.remove(pick)
            out[q] |= 1 << pick
            room[q] -= 1
        i = 0
        for q, _ in self.opponents:
            for c in rest[i : i + room[q]]:
                out[q] |= 1 << c
            i += room[q]
        return out


def determinize(d: Deal, seat: int, rng: RandomSource) -> Deal:
    """A copy of ``d`` in which the cards ``seat`` cannot see are dealt to its opponents at random
    (``rng``: anything with ``random()``), each opponent keeping its hand size, and every proven
    holding kept (:func:`known_holdings`).  Everything ``seat`` can see is unchanged."""
    return Determinizer(d, seat).deal(rng)


def rollout(
    d: Deal,
    bots: Sequence[Bot],
    rngs: Sequence[RandomSource],
    hold: int | None = None,
    then: Action | None = None,
    seat: int | None = None,
    observer: Callable[[Deal, Action], object] | None = None,
) -> None:
    """Play ``d`` to settlement in place, seat ``q`` played by ``bots[q]`` with random source
    ``rngs[q]``.

    As :func:`tutor.engine.rule_bots.play_out`: after every action each seat may offer a free
    action, the fastest reaction acts first and the round repeats
    (:class:`tutor.engine.race.ClaimRace`); then the player to move makes a turn action.
    ``hold``: a seat that offers nothing in the first round (it holds its free actions until the
    next action is made).  ``then``: a turn action that ``seat`` makes at its first turn instead
    of its player's choice, if it is still legal then.  ``observer(deal, action)`` is called
    after every action.
    """
    n = d.n
    for b in bots:
        b.start(d)
    skip = -1 if hold is None else hold
    while d.phase != "over":
        while d.phase == "play" and d.free_pending():
            race = ClaimRace(d)
            for q in range(n):
                if q == skip:
                    continue
                a = bots[q].free_action(d, q, rngs[q])
                if a is not None:
                    race.enter(q, a, bots[q].reaction(rngs[q]), checked=False)
            skip = -1
            won = race.settle()
            if won is None:
                break
            if observer is not None:
                observer(d, won.action)
        skip = -1
        if d.phase == "over":
            break
        if then is not None:
            a, then = then, None
            if d.to_move == seat and d.phase == "play" and d.why_illegal(a) is None:
                d.apply_unchecked(a)
                if observer is not None:
                    observer(d, a)
                continue
        p = d._mover
        a = bots[p].choose(d, d.legal_actions(), rngs[p])
        d.apply_unchecked(a)
        if observer is not None:
            observer(d, a)
