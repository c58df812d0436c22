"""One live table: the referee of a match between people and computer players, driven by a
clock it is given and never reads (no sockets here: :mod:`tutor.app.tables.server` carries its
messages).

:class:`Table` holds the one :class:`~tutor.engine.deal.Deal` of the table and the match
(:class:`~tutor.engine.match.Match`: the plan of games, the totals).  People's intents come in
with the clock time of their arrival (:meth:`Table.intent`); the table's own events come due at
their times (:meth:`Table.tick`, :meth:`Table.next_wake`):

- a computer player's turn, ``pace`` seconds after its turn began (not before a dealer who is a
  person has had ``before`` seconds to take a table mournival, or said ``ready``);
- an absent person's turn, ``wait`` seconds after it began (or after they left, if later): a
  computer player moves for them, and the table says so;
- a present person's turn, once its ``move_time`` and what is left of their ``reserve`` this
  deal have run out (:meth:`Table.clock`, carried in every state): a computer player moves for
  them as for an absent one, and the log says so, with the action's index (``time_out``);
- a computer player's claim, at the reaction time its level draws
  (:class:`tutor.engine.race.ClaimWatch`, the same protocol as practice play: a person's claim
  is decided by its arrival time against theirs);
- the next deal, ``gap`` seconds after the last (and, in a tournament, once ``gate`` lets the
  next round begin).

Every intent is checked by the engine (:meth:`Deal.parse_action`, :meth:`Deal.why_illegal`,
:meth:`ClaimWatch.arrive`); nothing is answered from anything but the engine.  What goes out is
put in :attr:`Table.outbox` as ``(target, message)`` (a seat number, :data:`EVERYONE` or
:data:`PUBLIC`); the state each connection receives is built from :meth:`Table.view` (the seat's
:class:`~tutor.engine.observe.Observation`, or a spectator's) when :attr:`Table.changed` says so.
No message says an oversight is open: a false claim is answered in the same words whatever is
on the table, and the reasons of the engine that would tell (``no open oversight covers ...``)
are never passed on.

At the end of each deal every person receives the review of their own play only (claims won,
missed, false and too late; their own oversights; declarations missed; time-outs), and
``on_finished`` is called with the finished deal (the server writes its record and saves the
match).  ``on_progress`` is called after every batch of actions applied, before anything is
sent (the server journals them), and the organiser's log (:data:`LOG`) is put in the outbox
with the rest.

The table is one public class made of private parts: :mod:`~tutor.app.tables._people` (the
settings, the seats, joins and leaves), :mod:`~tutor.app.tables._intents` (people's intents and
the replies to them), :mod:`~tutor.app.tables._review` (each person's review of a deal); their
common state, and the outbox's entries, are declared once in :mod:`~tutor.app.tables._shape`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Literal

from tutor.app.tables._intents import FALSE_CLAIM_TEXT, NAME_ALL_TEXT, Intents
from tutor.app.tables._people import Joined, Seating, SeatState, Settings, bot_name
from tutor.app.tables._review import Notes, review
from tutor.app.tables._shape import EVERYONE, LOG, PUBLIC, STATE, Clock, Entry, Snapshot, Target
from tutor.app.tables.protocol import seat_code
from tutor.engine.cards import codes
from tutor.engine.deal import (
    DECLARATIONS,
    TURN_KINDS,
    Action,
    Deal,
    DealResult,
    SeatSettlement,
    one_declaration_per_rank,
)
from tutor.engine.match import Game, Match
from tutor.engine.observe import Observation, observe, observe_public
from tutor.engine.race import ClaimRace, ClaimWatch
from tutor.engine.records import result_to_json

__all__ = ["EVERYONE", "FALSE_CLAIM_TEXT", "LOG", "NAME_ALL_TEXT", "PUBLIC", "STATE", "Joined",
           "SeatState", "Settings", "Table", "bot_name", "settlement_fields"]


class Table(Seating, Intents):
    """One table (see the module docstring).  ``number`` (1-based) and ``code`` (its join code)
    name it; ``settings`` (:class:`Settings`); ``match`` the engine's match (a new one from the
    settings when None); ``seats`` who sits where (a resumed table's); ``gate(table, game)``
    says whether a game may begin (a tournament's rounds); ``on_finished(table, deal, t)`` is
    called with every finished deal and the clock time it ended; ``token()`` makes seat
    tokens; ``now`` the clock time the table opens at.  Its seats are
    :class:`~tutor.app.tables._people.Seating`'s, its people's intents
    :class:`~tutor.app.tables._intents.Intents`'s."""

    def __init__(self, number: int, code: str, settings: Settings, match: Match | None = None,
                 *, seats: list[SeatState] | None = None,
                 gate: Callable[[Table, Game], bool] | None = None,
                 on_finished: Callable[[Table, Deal, float], None] | None = None,
                 token: Callable[[], str] | None = None, now: float = 0.0):
        self.number = number
        self.code = code
        self.settings = s = settings
        self.match = match if match is not None else Match.start(
            s.ruleset, s.players, s.table_seed(number), s.deals, meta={"table": number})
        self.seats = seats if seats is not None else [SeatState() for _ in range(s.players)]
        self.gate = gate
        self.on_finished = on_finished
        self._token = token or seat_code
        #: Each seat's rejoins: (allowance left, when last counted) (:meth:`_rejoin_wait`).
        self.rejoins: dict[int, tuple[float, float]] = {}
        self.rng = random.Random(f"{s.seed}:table:{number}:seats")
        self.bots = [s.level.make() for _ in range(s.players)]
        self.bot_rng = random.Random(f"{s.seed}:table:{number}:bots")
        self.reaction_rng = random.Random(f"{s.seed}:table:{number}:reactions")
        self.deal: Deal | None = None
        self.watch: ClaimWatch | None = None
        self.turn_since = now
        self.before_until = now
        self.next_deal_at: float | None = (
            None if self.match.is_over or s.start is None else now + s.start)
        #: Seconds of each seat's reserve left this deal (its clock: :meth:`clock`).
        self.reserve_left = [s.reserve] * s.players
        #: Set by the server: called with each deal as it begins and after each batch of
        #: actions applied (the journal), ``(table, deal, new)``.
        self.on_progress: Callable[[Table, Deal, bool], None] | None = None
        self.outbox: list[Entry] = []
        #: Set by the server while what the table has done cannot be saved (a full disk):
        #: nothing is played (no event of :meth:`tick` runs) until :meth:`go_on`.
        self.paused = False
        #: True when the deal or the seats changed since the server last sent states.
        self.changed = True
        #: ``[seat, seq]`` of the intent that caused the latest change (None: the table's own).
        self.cause: list[int | None] | None = None
        #: What each person's review needs beyond the watch, this deal.
        self.notes: dict[int, Notes] = {}
        self._partial: Deal | None = None
        #: How many deals this table has begun since it opened (a deal's number on the wire).
        self.deal_number = 0
        self._journaled = -1
        #: Turns begun since the table opened (a hint is one a turn).
        self.turn_index = 0
        self._hinted: dict[int, int] = {}
        self._hints_used: dict[int, int] = {}
        if not self.match.deals:
            self.keep_named()           # the named first dealer's seat: a code of its own

    # -- time ---------------------------------------------------------------------------------

    def _due_move(self) -> float | None:
        d = self.deal
        if d is None or d.is_terminal():
            return None
        q = self._mover
        st = self.seats[q]
        if st.name is None:
            return max(self.turn_since + self.settings.pace, self.before_until)
        if not st.connected:
            return max(self.turn_since, st.gone_since or self.turn_since) + self.settings.wait
        return self._deadline(q)

    def _deadline(self, seat: int) -> float | None:
        """When the move of ``seat`` (a person present, to move) runs out of time: its move
        time and what is left of its reserve, from the moment its turn began (None: no
        clock)."""
        s = self.settings
        if not s.move_time:
            return None
        return self.turn_since + s.move_time + self.reserve_left[seat]

    def clock(self, now: float) -> Clock | None:
        """The clock of the move being waited for, as the messages carry it (the server's
        clock, seconds): ``seat`` to move, ``kind`` (``move``: a person present, on their move
        time then their reserve; ``away``: an absent person, until a computer player moves for
        them), ``deadline`` and ``left`` (seconds from ``now``), ``move_left`` (of the move
        time alone), ``reserve`` (each seat's reserve left this deal); None when no person's
        move is being waited for."""
        d = self.deal
        if d is None or d.is_terminal() or self.seats[self._mover].name is None:
            return None
        q = self._mover
        st = self.seats[q]
        s = self.settings
        kind: Literal["move", "away"]
        if not st.connected:
            at, kind = max(self.turn_since, st.gone_since or self.turn_since) + s.wait, "away"
        else:
            deadline, kind = self._deadline(q), "move"
            if deadline is None:
                return None
            at = deadline
        reserve = [round(r, 1) for r in self.reserve_left]
        if kind == "move":
            used = max(0.0, now - self.turn_since - s.move_time)
            reserve[q] = round(max(0.0, self.reserve_left[q] - used), 1)
        return {"seat": q, "kind": kind, "deadline": round(at, 3),
                "left": round(max(0.0, at - now), 1),
                "move_left": round(max(0.0, self.turn_since + s.move_time - now), 1)
                if kind == "move" else None, "reserve": reserve}

    def _due_deal(self) -> float | None:
        if self.playing or self.next_deal_at is None or self.match.is_over:
            return None
        game = self.match.next_game
        if self.gate is not None and game is not None and not self.gate(self, game):
            return None
        return self.next_deal_at

    def next_wake(self) -> float | None:
        """The clock time of the table's next event (a computer player's move or claim, an
        absent person's turn, the next deal), or None (and None while :attr:`paused`)."""
        if self.paused:
            return None
        times = [t for t in (self._due_deal(), self._due_move(),
                             self._watch.next_due() if self.playing else None)
                 if t is not None]
        return min(times) if times else None

    def tick(self, now: float, *, before: bool = False, most: int = 25) -> None:
        """Run every event due at or before clock time ``now`` (strictly before it with
        ``before``), each at its own time, in order; at most ``most`` of them (computer players
        with no pace would otherwise play a whole match in one call, and hold up the server's
        loop: those left are due still, and :meth:`next_wake` says so)."""
        for _ in range(most):
            if self.paused:             # (set by the server as an action fails to be saved)
                return
            t = self.next_wake()
            if t is None or t > now or (before and t >= now):
                return
            if self._due_deal() == t:
                self._start_deal(t)
            elif self.playing and self._watch.next_due() == t:
                self._bot_claims(t)
            else:
                self._stand_in(t)

    def go_on(self, seconds: float) -> None:
        """The table goes on after a pause of ``seconds`` (its files could not be written):
        every clock of the table (the turn's, the reserve's, a computer player's move or
        claim, the next deal) is put back by the pause, so that nobody's time ran while nobody
        could move."""
        self.paused = False
        self.turn_since += seconds
        self.before_until += seconds
        if self.next_deal_at is not None:
            self.next_deal_at += seconds
        if self.watch is not None:
            for w in self.watch.open.values():
                w.opened_at += seconds

    def start(self, now: float) -> bool:
        """The organiser starts the table: its first deal begins now, whoever has come (True),
        unless it has begun already (False)."""
        if self.deal is not None or self.match.deals or self.match.is_over or (
                self.next_deal_at is not None and self.next_deal_at <= now):
            return False
        self.next_deal_at = now
        self._log("started", "the organiser starts the table")
        return True

    def waiting(self) -> str | None:
        """Why the table's first deal has not begun (``for the organiser``, ``for 2 more
        people``), or None once it has or its time is set."""
        if self.deal is not None or self.match.deals or self.next_deal_at is not None \
                or self.match.is_over:
            return None
        s = self.settings
        if s.hold:
            return "for the organiser to start it"
        more = s.people - self.people_seated()
        return f"for {more} more {'person' if more == 1 else 'people'}" if more > 0 else None

    def waits(self, now: float) -> str | None:
        """What the table's people are told while it waits, in words, and for whom: before
        the first deal, for the organiser (``hold``) or for more people (those seated named);
        between deals under a tournament's ``gate``, for the other tables; None while a deal
        is being played, once the match is over, or when the next deal merely comes after its
        ``gap`` (its time is set)."""
        if self.playing or self.match.is_over:
            return None
        s = self.settings
        seated = [st.name for st in self.seats if st.name is not None]
        coming = [st.incoming for st in self.seats if st.incoming is not None]
        here = seated + coming
        who = (f" ({len(here)} of {s.players} seats taken: {', '.join(here)})" if here
               else f" (0 of {s.players} seats taken)")
        first = self.deal is None and not self.match.deals
        if first and self.next_deal_at is None:
            if s.hold:
                return "The table waits for the organiser to start it" + who + "."
            more = s.people - self.people_seated()
            if more > 0:
                return (f"The table waits for {more} more "
                        f"{'person' if more == 1 else 'people'}{who}, or for the organiser "
                        "to start it.")
            return None
        if first and self.next_deal_at is not None and self.next_deal_at > now + s.gap:
            return "The first deal begins at the time the organiser set" + who + "."
        game = self.match.next_game
        if self.gate is not None and game is not None and not self.gate(self, game):
            if s.duplicate:
                return (f"{game.label}: the table waits for the other tables to finish the "
                        "deal before (duplicate play: every table is dealt the same cards).")
            return (f"{game.label}: the table waits for the other tables to finish the "
                    "round (every table begins it together).")
        return None

    # -- deals ---------------------------------------------------------------------------------

    def resume_deal(self, deal: Deal) -> None:
        """Play on an unfinished deal of the next game (a resumed server's): it is the deal the
        next game begins with, its actions as they were."""
        self._partial = deal

    def _start_deal(self, t: float) -> None:
        s = self.settings
        self._free_left(t)
        for q, st in enumerate(self.seats):
            if st.incoming is not None:
                st.name, st.token = st.incoming, st.incoming_token
                st.incoming = st.incoming_token = None
                st.since = len(self.match.deals)
                self._say(EVERYONE, f"{st.name} takes seat {q} from the computer player.")
                self._log("seated", f"{st.name} takes seat {q}", seat=q)
            st.stood_in = 0
        self.reserve_left = [s.reserve] * s.players
        self._hints_used = {}
        deal = self.match.new_deal()
        if self._partial is not None and self._partial.pack == deal.pack \
                and self._partial.dealer == deal.dealer:
            deal = self._partial
        self._partial = None
        self.deal = deal
        self.deal_number += 1
        self.notes = {q: Notes() for q in range(s.players)}
        computers = {q: s.level.claiming.paced(s.pace) for q in range(s.players)
                     if self._computer(q)}
        self.watch = ClaimWatch(deal, computers, self.reaction_rng,
                                humans=[q for q in range(s.players) if not self._computer(q)])
        for bot in self.bots:
            bot.start(deal)
        self.turn_since = t
        self.turn_index += 1
        self.before_until = t
        dealer = self.seats[deal.dealer]
        if dealer.name is not None and dealer.connected and not deal.started and any(
                a.kind == "take_table_mournival" for a in deal.free_actions(deal.dealer)):
            self.before_until = t + s.before
        game = self.match.next_game
        self._say(EVERYONE, f"{game.label if game else 'Deal'}: {self.names[deal.dealer]} "
                            "deals.")
        self._log("deal", f"{game.label if game else 'Deal'} begins, "
                          f"{self.names[deal.dealer]} deals"
                  + (f" (on from action {len(deal.history)})" if deal.history else ""))
        self.cause = None
        self._journaled = -1
        self._after(t)

    def _stand_in(self, t: float) -> None:
        d = self._live
        q = self._mover
        a = self.bots[q].choose(d, d.legal_actions(), self.bot_rng)
        st = self.seats[q]
        if st.name is not None:
            st.stood_in += 1
            if st.connected:            # present, but the move's time and the reserve ran out
                self.reserve_left[q] = 0.0
                self.notes[q].timed_out += 1
                self._say(EVERYONE, f"{st.name}'s time ran out: a computer player moves for "
                                    "them.")
                self._log("time_out", f"{st.name}'s time ran out: a computer player moved "
                                      f"for them ({a.notation()})", seat=q,
                          action=len(d.history))
            else:
                self._say(EVERYONE, f"{st.name} is away: a computer player moves for them.")
                self._log("stood_in", f"{st.name} is away: a computer player moved for them "
                                      f"({a.notation()})", seat=q, action=len(d.history))
        self.cause = None
        self._apply(a, t, by_table=True)

    def _bot_claims(self, t: float) -> None:
        outs = self._watch.advance(t)
        for o in outs:
            self._race_line(o)
        if outs:            # a claim that took nothing changes nothing: no state goes out
            self.cause = None
            self._after(t)

    def _bots_free(self, t: float) -> None:
        """Computer players' declarations and table mournivals (their claims are the watch's):
        the engine's race among those that want one, the fastest first."""
        d = self._live
        while d.phase == "play" and d.free_pending():
            race = ClaimRace(d)
            for q, bot in enumerate(self.bots):
                if not self._computer(q):
                    continue
                a = bot.free_action(d, q, self.bot_rng)
                if a is None or a.kind == "claim":
                    continue
                race.enter(q, a, bot.reaction(self.reaction_rng))
            w = race.winner()
            if w is None:
                return
            d.apply(w.action)
            self._watch.update(t)

    def _apply(self, a: Action, t: float, by_table: bool = False) -> None:
        d = self._live
        before = d.to_move
        s = self.settings
        if a.kind in TURN_KINDS and not by_table and s.move_time and self.person(a.player):
            over = t - self.turn_since - s.move_time     # past the move's time: off the reserve
            if over > 0:
                self.reserve_left[a.player] = max(0.0, self.reserve_left[a.player] - over)
        if a.kind == "lie_down" and self.person(a.player):
            decls = [f for f in d.free_actions(a.player) if f.kind in DECLARATIONS]
            self.notes[a.player].laid_down.extend(one_declaration_per_rank(decls))
        d.apply(a)
        if a.kind in TURN_KINDS or d.to_move != before or (
                a.kind in DECLARATIONS and not d.declarations_are_free):
            self.turn_since = t
            self.turn_index += 1
        if not d.started or a.kind == "take_table_mournival":
            pass
        else:
            self.before_until = min(self.before_until, t)
        self._after(t)

    def _after(self, t: float) -> None:
        d = self._live
        self._watch.update(t)
        self._bots_free(t)
        self.changed = True
        if self.on_progress is not None and self._journaled != len(d.history):
            self.on_progress(self, d, self._journaled < 0)
        self._journaled = len(d.history)
        if d.is_terminal():
            self._end_deal(t)

    def _end_deal(self, t: float) -> None:
        d = self._live
        self._watch.update(t)
        game = self.match.next_game
        self.match.record_deal(d)
        self._snapshot()
        names = self.names
        public = {"type": "deal_over", "table": self.number,
                  "game": game.label if game else "", "practice": bool(game and game.practice),
                  "names": names, **settlement_fields(d),
                  "unit": d.ruleset.unit, "totals": list(self.match.totals),
                  "deals": len(self.match.deals), "of": len(self.match.games)}
        for q in range(d.n):
            if self.person(q):
                self.outbox.append((q, {**public, "review": self.review(q)}))
        self.outbox.append((PUBLIC, public))
        self._log("deal_over", f"{game.label if game else 'Deal'} over: " + ", ".join(
            f"{names[q]} {v:+d}" if d.ruleset.has_stakes else f"{names[q]} {v}"
            for q, v in enumerate(d.returns())), game=game.index if game else None)
        self.next_deal_at = t + self.settings.gap
        if self.on_finished is not None:
            self.on_finished(self, d, t)
        if self.match.is_over:
            self._match_over()

    def _snapshot(self) -> None:
        """Put the states of this moment in the outbox (before what follows them: a deal's end
        is seen before its settlement, even when the next deal begins at once)."""
        d = self._live
        views: dict[int | None, Observation] = {None: observe_public(d)}
        for q in range(d.n):
            if self.person(q):
                views[q] = observe(d, q)
        self.outbox.append((STATE, Snapshot(views=views, deal=self.deal_number,
                                            cause=self.cause)))
        self.changed = False

    def _match_over(self) -> None:
        m = self.match
        plan = {"first": m.first, "total": len(m.games)}
        base = {"type": "match_over", "table": self.number, "names": self.names,
                "totals": list(m.totals), "ruleset": m.ruleset.id, "players": m.players,
                "plan": plan, "deals": len(m.deals)}
        for q in range(m.players):
            if self.person(q):
                st = self.seats[q]
                self.outbox.append((q, {**base, "seat": q, "since": st.since,
                                        "livery": st.livery,
                                        "scores": [None if k < st.since else d.returns()[q]
                                                   for k, d in enumerate(m.deals)]}))
        self.outbox.append((PUBLIC, base))
        self._log("match_over", "The match is over: " + ", ".join(
            f"{n} {v}" for n, v in zip(self.names, m.totals)))

    # -- what goes out ------------------------------------------------------------------------

    @property
    def playing(self) -> bool:
        """True while a deal is being played."""
        return self.deal is not None and not self.deal.is_terminal()

    @property
    def over(self) -> bool:
        """True once every game of the match has been played."""
        return self.match.is_over and not self.playing

    @property
    def game(self) -> Game | None:
        """The game being played (or the next), None once the match is over."""
        return self.match.next_game

    def view(self, seat: int | None) -> Observation | None:
        """The observation for ``seat`` (None: a spectator's), or None before the first deal."""
        if self.deal is None:
            return None
        return observe(self.deal, seat) if seat is not None else observe_public(self.deal)

    def _say(self, target: Target, text: str) -> None:
        self.outbox.append((target, {"type": "say", "table": self.number, "text": text}))

    def _log(self, event: str, text: str, **data: Any) -> None:
        """A line of the organiser's log (and the server's pane and events file): ``event``
        (``joined``, ``back``, ``left``, ``seated``, ``deal``, ``deal_over``, ``claim``,
        ``time_out``, ``stood_in``, ``match_over``, ``standings``, ``files``), ``text`` in
        words, ``game`` the game's index, and what ``data`` adds (``seat``, ``action``: the
        action's index in the deal; a lost claim race's ``winner`` and ``margin``).
        Public facts only: the organiser never sees a hand."""
        game = self.match.next_game if self.playing or not self.match.deals else None
        index = len(self.match.deals) - (0 if self.playing else 1)
        self.outbox.append((LOG, {"type": "log", "table": self.number, "event": event,
                                  "text": text, "game": game.index if game else index,
                                  **data}))

    def review(self, seat: int) -> dict[str, object]:
        """The review of ``seat``'s play in the deal just finished, for that person alone
        (:func:`tutor.app.tables._review.review`)."""
        return review(self, seat)


def settlement_fields(deal: Deal) -> dict[str, object]:
    """What a ``deal_over`` message says of a finished ``deal``'s settlement (see
    :mod:`~tutor.app.tables.protocol`): ``result`` (RULES.md 9), ``settlement`` (a row a seat),
    ``dealer``, ``pot_to``, ``set_aside`` (card codes) and ``set_aside_to``; everything in it
    is public once the deal is over.  Raises AssertionError before the deal is over."""
    r = _result(deal)
    return {"result": result_to_json(deal),
            "settlement": [_settlement_row(row) for row in r.settlement],
            "dealer": deal.dealer, "pot_to": list(r.pot_to or ()),
            "set_aside": codes(r.set_aside), "set_aside_to": r.set_aside_to}


def _settlement_row(row: SeatSettlement) -> dict[str, Any]:
    """One seat's :class:`~tutor.engine.deal.SeatSettlement` as a JSON object."""
    return dict(row._asdict())


def _result(deal: Deal) -> DealResult:
    """The settlement of a finished ``deal`` (an error before it is over: a bug of the
    caller)."""
    r = deal.result
    if r is None:
        raise AssertionError("the deal is not over: it has no result")
    return r

