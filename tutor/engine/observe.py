"""What one seat may see of a deal, as data that can leave the machine (RULES.md 8): the one
per-seat view.

:func:`observe` gives a seat's :class:`Observation` of a :class:`~tutor.engine.deal.Deal`:
what a practice screen draws, what a drill or puzzle counts from (:attr:`Observation.unseen`,
:attr:`Observation.dead_pairs`, :meth:`Observation.count`: counting a seat can do itself), and
what a live table sends.  A live table's server holds the one deal; every client receives an
observation of it built here, never the deal.  An observation holds the public facts
(the table, every won pile, a set-aside mournival, each hand's size, who is out, every action so
far, the pot and the payments, the result once the deal is over) and, for a seat, its own hand
and the moves it may make now in the learner's notation.  It never holds another hand, the pack,
or anything derived from the open oversights: no claims among the moves, no oversight list, no
counting that a seat could not do itself (OpenSpiel's per-player observation; lichess's server
as referee).  What a claim takes is the seat's own find, and the referee's answer to it is the
server's business (:class:`tutor.engine.race.ClaimWatch`).

:func:`observe` builds one for a seat, :func:`observe_public` the spectators' (no hand, no
moves: what a teacher watching a table sees while a deal is being played);
:meth:`Observation.to_json` and :meth:`Observation.from_json` carry it over the wire (cards as
record codes, actions as deal-record actions, RULES.md 9), and :func:`hidden_cards` says which
cards a seat cannot see now, so that a test can read every message a client receives and find
none of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from tutor.engine.cards import codes, parse_card
from tutor.engine.deal import DECLARATIONS, OVER, PLAY, Action, Deal, RankCount
from tutor.engine.errors import RecordError
from tutor.engine.records import action_from_json, action_to_json, result_to_json

__all__ = ["Observation", "hidden_cards", "observe", "observe_public"]

#: Free actions a seat is told it may make: its own declarations and the dealer's taking of a
#: table mournival (both about cards it can see).  Never a claim: that would say an oversight is
#: open.
_TOLD_FREE = DECLARATIONS | {"take_table_mournival"}


@dataclass(frozen=True)
class Observation:
    """One seat's view of a deal (``seat`` None: a spectator's, with no hand and no moves).

    ``ruleset`` is the ruleset's id; ``players``, ``dealer``; ``phase`` (``play``, ``play_on``,
    ``over``); ``started`` (play has begun); ``to_move`` (None once over); ``turn_captures``
    (captures made this turn, under ``captures_per_turn: any``); card tuples sorted: ``hand``
    (the seat's own), ``table``, ``won`` (per seat), ``set_aside``; ``hand_sizes`` and ``out``
    per seat; ``history`` every action so far (public: RULES.md 8); ``pot`` (stakes in the pot)
    and ``payments`` (lie-down payments ``(payer, payee or None for the pot, stakes)``);
    ``moves`` the seat's legal turn actions when it is to move (the first ``turn_count``), then
    its own free declarations and taking of a table mournival (never claims); ``result`` the
    record's ``result`` block once the deal is over (RULES.md 9), else None.
    """

    ruleset: str
    players: int
    dealer: int
    seat: int | None
    phase: str
    started: bool
    to_move: int | None
    turn_captures: int
    hand: tuple[int, ...]
    table: tuple[int, ...]
    won: tuple[tuple[int, ...], ...]
    set_aside: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    out: tuple[bool, ...]
    history: tuple[Action, ...]
    pot: int
    payments: tuple[tuple[int, int | None, int], ...]
    moves: tuple[Action, ...]
    result: dict[str, Any] | None
    turn_count: int = 0

    @property
    def over(self) -> bool:
        """True once the deal is settled."""
        return self.phase == OVER

    @property
    def my_turn(self) -> bool:
        """True when the seat is to move (in play or playing on)."""
        return self.seat is not None and not self.over and self.to_move == self.seat

    def turn_moves(self) -> tuple[Action, ...]:
        """The seat's turn actions now (empty when it is not to move)."""
        return self.moves[: self.turn_count]

    def free_moves(self) -> tuple[Action, ...]:
        """The seat's free declarations and taking of a table mournival now."""
        return self.moves[self.turn_count :]

    # -- counting (RULES.md 8): what the seat can work out from what it sees --------------------

    @cached_property
    def _ranks(self) -> tuple[list[int], list[int], list[int], list[int], list[list[int]]]:
        """Per rank: cards on the table, in the seat's hand, set aside, won (all), won per
        seat."""
        table, hand, aside, won = [0] * 13, [0] * 13, [0] * 13, [0] * 13
        per = [[0] * 13 for _ in self.won]
        for c in self.table:
            table[c >> 2] += 1
        for c in self.hand:
            hand[c >> 2] += 1
        for c in self.set_aside:
            aside[c >> 2] += 1
        for q, pile in enumerate(self.won):
            for c in pile:
                per[q][c >> 2] += 1
                won[c >> 2] += 1
        return table, hand, aside, won, per

    @cached_property
    def unseen(self) -> dict[int, int]:
        """For each rank 0-12, the cards of it the seat cannot see: 4 - (table + won + set
        aside + its own hand), which is the number in the other hands (RULES.md 8)."""
        table, hand, aside, won, _ = self._ranks
        return {r: 4 - table[r] - hand[r] - aside[r] - won[r] for r in range(13)}

    @property
    def dead_pairs(self) -> tuple[int, ...]:
        """Ranks of the dead pairs in the seat's hand while play goes on: pairs whose other two
        cards are among anyone's won cards (RULES.md 6); empty once play has ended."""
        if self.phase != PLAY:
            return ()
        _, hand, _, won, _ = self._ranks
        return tuple(r for r in range(13) if hand[r] == 2 and won[r] == 2)

    def count(self, rank: int) -> RankCount:
        """Where the four cards of ``rank`` are, as this seat sees them
        (:class:`~tutor.engine.deal.RankCount`)."""
        table, hand, aside, _, per = self._ranks
        return RankCount(
            rank,
            table[rank],
            hand[rank],
            tuple(p[rank] for p in per),
            aside[rank],
            self.unseen[rank],
        )

    def visible_cards(self) -> frozenset[int]:
        """Every card named anywhere in this observation (hand, table, piles, actions, result)."""
        seen: set[int] = set(self.hand) | set(self.table) | set(self.set_aside)
        for w in self.won:
            seen.update(w)
        for a in self.history + self.moves:
            seen.update(a.cards)
            seen.update(a.table)
        if self.result:
            for w in self.result.get("won", []):
                seen.update(parse_card(c) for c in w)
            seen.update(parse_card(c) for c in self.result.get("leftovers", {}).get("cards", []))
        return frozenset(seen)

    # -- the wire ---------------------------------------------------------------------------

    def to_json(self, since: int = 0) -> dict[str, object]:
        """A JSON-ready object: cards as record codes, actions as deal-record actions (RULES.md
        9).  ``since`` leaves out the first ``since`` actions of the history (a client that has
        them already): ``history_from`` says where ``history`` starts and ``actions`` how many
        there are in all."""
        since = max(0, min(since, len(self.history)))
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "dealer": self.dealer,
            "seat": self.seat,
            "phase": self.phase,
            "started": self.started,
            "to_move": self.to_move,
            "turn_captures": self.turn_captures,
            "hand": codes(self.hand),
            "table": codes(self.table),
            "won": [codes(w) for w in self.won],
            "set_aside": codes(self.set_aside),
            "hand_sizes": list(self.hand_sizes),
            "out": list(self.out),
            "history_from": since,
            "actions": len(self.history),
            "history": [action_to_json(a) for a in self.history[since:]],
            "pot": self.pot,
            "payments": [[p, "pot" if q is None else q, s] for p, q, s in self.payments],
            "moves": [action_to_json(a) for a in self.moves],
            "turn_count": self.turn_count,
            "result": self.result,
        }

    @classmethod
    def from_json(cls, obj: object, earlier: tuple[Action, ...] = ()) -> Observation:
        """Read :meth:`to_json`'s object back; ``earlier`` are the actions the receiver already
        holds (``history_from`` of them are kept).  The shape is checked by a model
        (:class:`tutor.engine._observation_json.ObservationIn`: every key, its type and range,
        card codes), then the seats against the player count and the actions by the engine.
        Raises :class:`~tutor.engine.errors.RecordError` naming the first bad key
        (``players: must be at most 52``)."""
        from tutor.engine._observation_json import ObservationIn  # pydantic: only when read
        from tutor.engine.models import validate

        o = validate(ObservationIn, obj, error=RecordError)
        n = o.players
        for key, seat in (("dealer", o.dealer), ("seat", o.seat), ("to_move", o.to_move)):
            if seat is not None and seat >= n:
                raise RecordError(f"{key}: must be a seat from 0 to {n - 1}")
        if o.history_from > len(earlier):
            raise RecordError(f"history_from: {o.history_from} actions are not held here")
        if o.turn_count > len(o.moves):
            raise RecordError(f"turn_count: more than the {len(o.moves)} moves given")
        start = o.history_from
        hist = tuple(earlier[:start]) + tuple(
            action_from_json(a, start + i) for i, a in enumerate(o.history)
        )
        return cls(
            ruleset=o.ruleset,
            players=n,
            dealer=o.dealer,
            seat=o.seat,
            phase=o.phase,
            started=o.started,
            to_move=o.to_move,
            turn_captures=o.turn_captures,
            hand=o.hand,
            table=o.table,
            won=tuple(o.won),
            set_aside=o.set_aside,
            hand_sizes=tuple(o.hand_sizes),
            out=tuple(o.out),
            history=hist,
            pot=o.pot,
            payments=tuple((p, None if q == "pot" else q, s) for p, q, s in o.payments),
            moves=tuple(action_from_json(a, i) for i, a in enumerate(o.moves)),
            result=o.result,
            turn_count=o.turn_count,
        )


def _moves(deal: Deal, seat: int) -> tuple[tuple[Action, ...], int]:
    """``seat``'s legal turn actions when it is to move, then its free declarations and taking
    of a table mournival (never a claim), and how many of them are turn actions."""
    if deal.phase == OVER:
        return (), 0
    turn = deal.legal_actions() if deal.to_move == seat else []
    free = [a for a in deal.free_actions(seat) if a.kind in _TOLD_FREE and a not in turn]
    return tuple(turn) + tuple(free), len(turn)


def observe(deal: Deal, seat: int) -> Observation:
    """What ``seat`` may see of ``deal`` now (RULES.md 8): the public facts, its own hand, and
    its moves (turn actions when to move, its free declarations and taking of a table
    mournival; never a claim).  Raises IndexError for a seat the deal does not have."""
    if not 0 <= seat < deal.n:
        raise IndexError(f"the deal has no seat {seat}")
    return _build(deal, seat)


def observe_public(deal: Deal) -> Observation:
    """What a spectator may see of ``deal`` now: the public facts only (no hand, no moves)."""
    return _build(deal, None)


def _build(deal: Deal, seat: int | None) -> Observation:
    over = deal.phase == OVER
    moves, turns = _moves(deal, seat) if seat is not None else ((), 0)
    return Observation(
        ruleset=deal.ruleset.id,
        players=deal.n,
        dealer=deal.dealer,
        seat=seat,
        phase=deal.phase,
        started=deal.started,
        to_move=None if over else deal.to_move,
        turn_captures=deal.turn_captures,
        hand=deal.hand(seat) if seat is not None else (),
        table=deal.table_cards(),
        won=tuple(deal.won_cards(q) for q in range(deal.n)),
        set_aside=deal.set_aside(),
        hand_sizes=tuple(h.bit_count() for h in deal.hands),
        out=tuple(not h for h in deal.hands),
        history=tuple(deal.history),
        pot=deal.pot,
        payments=tuple(deal.payments),
        moves=moves,
        result=result_to_json(deal) if over else None,
        turn_count=turns,
    )


def hidden_cards(deal: Deal, seat: int | None) -> frozenset[int]:
    """The cards ``seat`` cannot see now (None: a spectator): every card in another seat's hand
    (RULES.md 8).  Every card not hidden is on the table, in a won pile, set aside, discarded
    at the end, or in the seat's own hand."""
    out: set[int] = set()
    for q in range(deal.n):
        if q != seat:
            out.update(deal.hand(q))
    return frozenset(out)
