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
missed, false and too late; their own oversights; declarations missed), and ``on_finished`` is
called with the finished deal (the server writes its record and saves the match).
"""

from __future__ import annotations

import random
import secrets
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tutor.app.tables.protocol import ClientMessage, Refused
from tutor.engine import race as R
from tutor.engine.cards import RANK_PLURALS, pretty_cards
from tutor.engine.deal import DECLARATIONS, TURN_KINDS, Action, Deal, one_declaration_per_rank
from tutor.engine.errors import (AmbiguousAction, IllegalAction, IncompleteAction,
                                 InvalidAction)
from tutor.engine.levels import Level
from tutor.engine.match import Game, Match
from tutor.engine.observe import Observation, observe, observe_public
from tutor.engine.parameters import rule_words, value_words
from tutor.engine.race import ClaimRace, ClaimWatch
from tutor.engine.records import result_to_json
from tutor.engine.rulesets import Ruleset
from tutor.engine.seats import SEAT_NAMES

__all__ = ["EVERYONE", "PUBLIC", "STATE", "Joined", "SeatState", "Settings", "Table", "bot_name"]

#: Targets of the outbox besides a seat number: every connection at the table, and the
#: spectators only (people waiting for a seat, the organiser).
EVERYONE, PUBLIC = "everyone", "public"
#: An outbox entry holding the states of one moment (``views``: seat or None -> observation).
STATE = "state"
#: Said for a claim that names nothing claimable, whatever is on the table.
FALSE_CLAIM_TEXT = "Nothing of that is claimable now: a false claim (it counts in your review)."
NAME_ALL_TEXT = "Which cards? A claim names all the cards it takes, or their rank alone."
SEVERAL_TEXT = "That fits more than one claim: name the cards."


@dataclass
class Settings:
    """A table's settings: ``ruleset`` and ``players``; ``level`` the computer players'
    (:class:`~tutor.engine.levels.Level`); ``deals`` in the match (None: the ruleset's match
    format, or one round); ``hint`` whether people may ask for the best move; ``wait`` seconds
    an absent person's turn waits; ``pace`` seconds before a computer player's move; ``gap``
    seconds between deals; ``before`` seconds a dealer who is a person has to take a table
    mournival before the computer players begin; ``seed`` the match's seed; ``start`` seconds
    after the table opens at which its first deal begins (None: ``gap`` seconds after the first
    person takes a seat)."""

    ruleset: Ruleset
    players: int
    level: Level
    deals: int | None = None
    hint: bool = False
    wait: float = 20.0
    pace: float = 1.0
    gap: float = 3.0
    before: float = 8.0
    seed: int = 1
    start: float | None = None


@dataclass
class SeatState:
    """Who sits at one seat: ``name`` (a person's; None: a computer player), their ``token``,
    whether they are ``connected`` and since when they are gone; ``incoming`` a person who takes
    the seat from a computer player at the next deal (with ``incoming_token``); ``stood_in`` the
    moves a computer player made for them this deal."""

    name: str | None = None
    token: str | None = None
    connected: bool = False
    gone_since: float | None = None
    incoming: str | None = None
    incoming_token: str | None = None
    stood_in: int = 0


@dataclass(frozen=True)
class Joined:
    """A join taken: the ``seat``, the ``token`` that takes it back, ``now`` False when the
    person takes the seat only at the next deal, ``back`` True when they took back their own."""

    seat: int
    token: str
    now: bool
    back: bool


def bot_name(seat: int) -> str:
    """The name of a computer player's seat: ``Ralph (computer)``."""
    return f"{SEAT_NAMES[seat % len(SEAT_NAMES)]} (computer)"


@dataclass
class _Notes:
    """What the review of one person's deal needs beyond the watch: declarations they lay down
    holding, and the words of their false claims."""

    laid_down: list[Action] = field(default_factory=list)
    false_claims: list[str] = field(default_factory=list)


class Table:
    """One table (see the module docstring).  ``number`` (1-based) and ``code`` (its join code)
    name it; ``settings`` (:class:`Settings`); ``match`` the engine's match (a new one from the
    settings when None); ``seats`` who sits where (a resumed table's); ``gate(table, game)``
    says whether a game may begin (a tournament's rounds); ``on_finished(table, deal, t)`` is
    called with every finished deal and the clock time it ended; ``token()`` makes seat tokens; ``now`` the clock time the
    table opens at."""

    def __init__(self, number: int, code: str, settings: Settings, match: Match | None = None,
                 *, seats: list[SeatState] | None = None,
                 gate: Callable[["Table", Game], bool] | None = None,
                 on_finished: Callable[["Table", Deal, float], None] | None = None,
                 token: Callable[[], str] | None = None, now: float = 0.0):
        self.number = number
        self.code = code
        self.settings = s = settings
        self.match = match if match is not None else Match.start(
            s.ruleset, s.players, s.seed, s.deals, meta={"table": number})
        self.seats = seats if seats is not None else [SeatState() for _ in range(s.players)]
        self.gate = gate
        self.on_finished = on_finished
        self._token = token or (lambda: secrets.token_urlsafe(16))
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
        self.outbox: list[tuple[Any, dict[str, Any]]] = []
        #: True when the deal or the seats changed since the server last sent states.
        self.changed = True
        #: ``[seat, seq]`` of the intent that caused the latest change (None: the table's own).
        self.cause: list | None = None
        self._notes: dict[int, _Notes] = {}
        self._partial: Deal | None = None
        #: How many deals this table has begun since it opened (a deal's number on the wire).
        self.deal_number = 0

    # -- who sits where -----------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        """Each seat's name: the person's, or a computer player's (:func:`bot_name`)."""
        return [st.name if st.name is not None else bot_name(q)
                for q, st in enumerate(self.seats)]

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

    def person(self, seat: int) -> bool:
        """True when a person sits at ``seat`` (here or away)."""
        return self.seats[seat].name is not None

    def _computer(self, seat: int) -> bool:
        return self.seats[seat].name is None

    def seated(self, seat: int, name: str) -> bool:
        """True when ``name`` sits at ``seat`` now (not waiting for the next deal)."""
        return self.seats[seat].name == name

    def join(self, name: str, token: str | None, now: float) -> Joined:
        """A person joins: takes back their seat (the same name, or their token), or is drawn a
        free seat (at once between deals, else from the next deal: a computer player keeps it
        until then).  Raises :class:`~tutor.app.tables.protocol.Refused` with the reason."""
        low = name.lower()
        for q, st in enumerate(self.seats):
            mine = token is not None and token in (st.token, st.incoming_token)
            named = low in ((st.name or "").lower(), (st.incoming or "").lower())
            if not (mine or named):
                continue
            if token is not None and not mine:
                raise Refused(f"that token does not take back {name}'s seat")
            if st.connected and not mine:
                raise Refused(f"{name} is already at this table: choose another name")
            st.connected, st.gone_since = True, None
            incoming = st.incoming is not None and low == st.incoming.lower() or (
                token is not None and token == st.incoming_token)
            self._say(EVERYONE, f"{name} is back at the table.")
            self.changed = True
            return Joined(q, (st.incoming_token if incoming else st.token) or "", not incoming,
                          True)
        free = [q for q, st in enumerate(self.seats) if st.name is None and st.incoming is None]
        if not free:
            raise Refused("this table is full: every seat is taken")
        q = self.rng.choice(free)
        st = self.seats[q]
        tok = self._token()
        if self.playing:
            st.incoming, st.incoming_token, st.connected = name, tok, True
            self._say(EVERYONE, f"{name} joins and takes seat {q} from the next deal.")
            self.changed = True
            return Joined(q, tok, False, False)
        st.name, st.token, st.connected, st.gone_since = name, tok, True, None
        self._say(EVERYONE, f"{name} takes seat {q}.")
        if self.next_deal_at is None and self.deal is None and not self.match.is_over:
            self.next_deal_at = now + self.settings.gap
        self.changed = True
        return Joined(q, tok, True, False)

    def leave(self, seat: int, now: float) -> None:
        """The person at ``seat`` has gone (left or lost the connection): their seat stays
        theirs; their turns wait ``wait`` seconds, then a computer player moves for them."""
        st = self.seats[seat]
        if not st.connected:
            return
        st.connected = False
        st.gone_since = now
        who = st.name or st.incoming or "A player"
        if st.name is not None:
            self._say(EVERYONE, f"{who} has left the table: their turns wait "
                                f"{self.settings.wait:g} s, then a computer player moves for "
                                "them.")
        self.changed = True

    # -- time ---------------------------------------------------------------------------------

    def _due_move(self) -> float | None:
        d = self.deal
        if d is None or d.is_terminal():
            return None
        q = d.to_move
        st = self.seats[q]
        if st.name is None:
            return max(self.turn_since + self.settings.pace, self.before_until)
        if not st.connected:
            return max(self.turn_since, st.gone_since or self.turn_since) + self.settings.wait
        return None

    def _due_deal(self) -> float | None:
        if self.playing or self.next_deal_at is None or self.match.is_over:
            return None
        game = self.match.next_game
        if self.gate is not None and game is not None and not self.gate(self, game):
            return None
        return self.next_deal_at

    def next_wake(self) -> float | None:
        """The clock time of the table's next event (a computer player's move or claim, an
        absent person's turn, the next deal), or None."""
        times = [t for t in (self._due_deal(), self._due_move(),
                             self.watch.next_due() if self.playing and self.watch else None)
                 if t is not None]
        return min(times) if times else None

    def tick(self, now: float, *, before: bool = False) -> None:
        """Run every event due at or before clock time ``now`` (strictly before it with
        ``before``), each at its own time, in order."""
        while True:
            t = self.next_wake()
            if t is None or t > now or (before and t >= now):
                return
            if self._due_deal() == t:
                self._start_deal(t)
            elif self.playing and self.watch.next_due() == t:
                self._bot_claims(t)
            else:
                self._stand_in(t)

    # -- deals ---------------------------------------------------------------------------------

    def resume_deal(self, deal: Deal) -> None:
        """Play on an unfinished deal of the next game (a resumed server's): it is the deal the
        next game begins with, its actions as they were."""
        self._partial = deal

    def _start_deal(self, t: float) -> None:
        s = self.settings
        for q, st in enumerate(self.seats):
            if st.incoming is not None:
                st.name, st.token = st.incoming, st.incoming_token
                st.incoming = st.incoming_token = None
                self._say(EVERYONE, f"{st.name} takes seat {q} from the computer player.")
            st.stood_in = 0
        deal = self.match.new_deal()
        if self._partial is not None and self._partial.pack == deal.pack \
                and self._partial.dealer == deal.dealer:
            deal = self._partial
        self._partial = None
        self.deal = deal
        self.deal_number += 1
        self._notes = {q: _Notes() for q in range(s.players)}
        computers = {q: s.level.claiming for q in range(s.players) if self._computer(q)}
        self.watch = ClaimWatch(deal, computers, self.reaction_rng,
                                humans=[q for q in range(s.players) if not self._computer(q)])
        for q, bot in enumerate(self.bots):
            bot.start(deal)
        self.turn_since = t
        self.before_until = t
        dealer = self.seats[deal.dealer]
        if dealer.name is not None and dealer.connected and not deal.started and any(
                a.kind == "take_table_mournival" for a in deal.free_actions(deal.dealer)):
            self.before_until = t + s.before
        game = self.match.next_game
        self._say(EVERYONE, f"{game.label if game else 'Deal'}: {self.names[deal.dealer]} "
                            "deals.")
        self.cause = None
        self._after(t)

    def _stand_in(self, t: float) -> None:
        d = self.deal
        q = d.to_move
        a = self.bots[q].choose(d, d.legal_actions(), self.bot_rng)
        st = self.seats[q]
        if st.name is not None:
            st.stood_in += 1
            self._say(EVERYONE, f"{st.name} is away: a computer player moves for them.")
        self.cause = None
        self._apply(a, t)

    def _bot_claims(self, t: float) -> None:
        outs = self.watch.advance(t)
        self.cause = None
        for o in outs:
            self._race_line(o)
        self._after(t)

    def _bots_free(self, t: float) -> None:
        """Computer players' declarations and table mournivals (their claims are the watch's):
        the engine's race among those that want one, the fastest first."""
        d = self.deal
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
            self.watch.update(t)

    def _apply(self, a: Action, t: float) -> None:
        d = self.deal
        before = d.to_move
        if a.kind == "lie_down" and self.person(a.player):
            decls = [f for f in d.free_actions(a.player) if f.kind in DECLARATIONS]
            self._notes[a.player].laid_down.extend(one_declaration_per_rank(decls))
        d.apply(a)
        if a.kind in TURN_KINDS or d.to_move != before or (
                a.kind in DECLARATIONS and not d.declarations_are_free):
            self.turn_since = t
        if not d.started or a.kind == "take_table_mournival":
            pass
        else:
            self.before_until = min(self.before_until, t)
        self._after(t)

    def _after(self, t: float) -> None:
        d = self.deal
        self.watch.update(t)
        self._bots_free(t)
        self.changed = True
        if d.is_terminal():
            self._end_deal(t)

    def _end_deal(self, t: float) -> None:
        d = self.deal
        self.watch.update(t)
        game = self.match.next_game
        self.match.record_deal(d)
        self._snapshot()
        names = self.names
        public = {"type": "deal_over", "table": self.number,
                  "game": game.label if game else "", "practice": bool(game and game.practice),
                  "names": names, "result": result_to_json(d),
                  "settlement": [_settlement_row(row) for row in d.result.settlement],
                  "unit": d.ruleset.unit, "totals": list(self.match.totals),
                  "deals": len(self.match.deals), "of": len(self.match.games)}
        for q in range(d.n):
            if self.person(q):
                self.outbox.append((q, {**public, "review": self.review(q)}))
        self.outbox.append((PUBLIC, public))
        self.next_deal_at = t + self.settings.gap
        if self.on_finished is not None:
            self.on_finished(self, d, t)
        if self.match.is_over:
            self._match_over()

    def _snapshot(self) -> None:
        """Put the states of this moment in the outbox (before what follows them: a deal's end
        is seen before its settlement, even when the next deal begins at once)."""
        views = {None: observe_public(self.deal)}
        for q in range(self.deal.n):
            if self.person(q):
                views[q] = observe(self.deal, q)
        self.outbox.append((STATE, {"views": views, "deal": self.deal_number,
                                    "cause": self.cause}))
        self.changed = False

    def _match_over(self) -> None:
        m = self.match
        plan = {"first": m.first, "total": len(m.games)}
        base = {"type": "match_over", "table": self.number, "names": self.names,
                "totals": list(m.totals), "ruleset": m.ruleset.id, "players": m.players,
                "plan": plan, "deals": len(m.deals)}
        for q in range(m.players):
            if self.person(q):
                self.outbox.append((q, {**base, "seat": q,
                                        "scores": [d.returns()[q] for d in m.deals]}))
        self.outbox.append((PUBLIC, base))

    # -- people's intents ------------------------------------------------------------------

    def ready(self, seat: int, now: float) -> None:
        """The dealer lets play begin without waiting further."""
        if self.deal is not None and seat == self.deal.dealer:
            self.before_until = min(self.before_until, now)

    def intent(self, seat: int, msg: ClientMessage, now: float) -> None:
        """The person at ``seat`` sends ``msg`` (``act``, ``claim`` or ``ready``), arriving at
        clock time ``now``.  Answers go to the outbox; an action named for another seat raises
        :class:`~tutor.app.tables.protocol.Refused` (nothing is done)."""
        if msg.action is not None and msg.action.player != seat:
            raise Refused(f"that action is for seat {msg.action.player}; you sit at seat {seat}")
        self.tick(now, before=True)
        self.cause = [seat, msg.seq]
        if msg.type == "ready":
            self.ready(seat, now)
            self._reply(seat, msg, True, "")
        elif not self.playing:
            self._reply(seat, msg, False, "No deal is being played now: the next one begins "
                                          "shortly.")
        elif msg.type == "claim" or (msg.text is not None and _is_claim(msg.text)) or (
                msg.action is not None and msg.action.kind == "claim"):
            self._claim(seat, msg, now)
        else:
            self._act(seat, msg, now)
        self.tick(now)

    def _act(self, seat: int, msg: ClientMessage, now: float) -> None:
        d = self.deal
        names = self.names
        if msg.action is not None:
            a = msg.action
            why = d.why_illegal(a)
            if why is not None:
                self._reply(seat, msg, False, _explain(why, seat, names) + ".")
                return
        else:
            try:
                a = d.parse_action(msg.text, seat)
            except IncompleteAction as exc:
                self._reply(seat, msg, False, _explain(exc.reason, seat, names),
                            [c.notation() for c in exc.candidates])
                return
            except AmbiguousAction as exc:
                self._reply(seat, msg, False, _explain(exc.reason, seat, names),
                            [c.notation() for c in exc.candidates])
                return
            except (InvalidAction, IllegalAction) as exc:
                self._reply(seat, msg, False, _explain(exc.reason, seat, names) + ".")
                return
        self._apply(a, now)
        self._reply(seat, msg, True, "")

    def _claim(self, seat: int, msg: ClientMessage, now: float) -> None:
        d = self.deal
        if not d.started:
            self._reply(seat, msg, False, "Play has not begun: nothing can be claimed before "
                                          "it does.")
            return
        if not d.ruleset.oversights:
            self._reply(seat, msg, False, "This ruleset lists no oversights: there is never "
                                          "anything to claim.")
            return
        claim = msg.action if msg.action is not None else _claim_words(msg.text)
        outs = self.watch.arrive(seat, claim, now)
        for o in outs[:-1]:
            self._race_line(o)
        last = outs[-1]
        if last.result == R.HIT:
            self._race_line(last)
            self._reply(seat, msg, True, f"You claimed first, {last.seconds:.2f} s after it "
                                         "could be claimed (the server's clock, on arrival).")
        elif last.result == R.FALSE_CLAIM:
            self._notes[seat].false_claims.append(msg.text if msg.text is not None
                                                  else msg.action.notation())
            self._reply(seat, msg, False, FALSE_CLAIM_TEXT)
        elif last.result == R.TOO_LATE:
            self._reply(seat, msg, False, f"Too late: {_explain(last.reason, seat, self.names)}.")
        elif last.result == R.UNREAD:
            self._reply(seat, msg, False, _explain(last.reason, seat, self.names) + ".")
        elif last.result == R.INCOMPLETE:
            self._reply(seat, msg, False, NAME_ALL_TEXT)
        else:
            self._reply(seat, msg, False, SEVERAL_TEXT)
        if any(o.result == R.HIT for o in outs):
            self._after(now)

    def hint_position(self, seat: int) -> Deal | None:
        """The position a hint to ``seat`` is worked out on (where hints are allowed, a deal is
        being played and the seat is to move), else None: a copy of the deal with no open
        oversight, so that no hint can say, or lean on, one (a claim is the player's own
        find)."""
        if not self.settings.hint or not self.playing or self.deal.to_move != seat:
            return None
        pos = self.deal.clone()
        pos.oversights = []
        return pos

    # -- what goes out ------------------------------------------------------------------------

    def view(self, seat: int | None) -> Observation | None:
        """The observation for ``seat`` (None: a spectator's), or None before the first deal."""
        if self.deal is None:
            return None
        return observe(self.deal, seat) if seat is not None else observe_public(self.deal)

    def _say(self, target, text: str) -> None:
        self.outbox.append((target, {"type": "say", "table": self.number, "text": text}))

    def _reply(self, seat: int, msg: ClientMessage, ok: bool, text: str,
               choices: list[str] | None = None) -> None:
        out: dict[str, Any] = {"type": "reply", "ok": ok, "text": text, "seq": msg.seq,
                               "to": msg.type}
        if choices:
            out["choices"] = choices
        self.outbox.append((seat, out))

    def _race_line(self, o: R.Outcome) -> None:
        """Everyone hears who took a claim, in how long (the claim itself is in the state)."""
        if o.result != R.HIT:
            return
        w = o.watched
        rivals = [r for r in w.rivals(but=o.seat)]
        text = (f"{self.names[o.seat]} claimed {pretty_cards(o.action.cards)} first, "
                f"{o.seconds:.2f} s after it could be claimed")
        if rivals:
            q, secs = rivals[0]
            text += f"; {self.names[q]} would have claimed at {secs:.2f} s"
        self._say(EVERYONE, text + ".")

    # -- the review of one person's deal -----------------------------------------------------

    def review(self, seat: int) -> dict[str, Any]:
        """The review of ``seat``'s play in the deal just finished, for that person alone:
        ``hits`` (oversight kind and seconds), ``misses``, ``false_claims``, ``median_hit``
        (seconds, or None) and ``items`` (each ``{"title", "text", "why"}``: a missed claim, a
        false claim, a claim too late, an oversight of theirs, a declaration missed), with
        ``stood_in`` the moves a computer player made for them while away."""
        d, w = self.deal, self.watch
        names = self.names
        items: list[dict[str, str]] = []
        hits = [(o.watched.oversight.kind, round(o.seconds, 3)) for o in w.outcomes
                if o.seat == seat and o.result == R.HIT]
        for o in w.outcomes:
            if o.seat == seat and o.result == R.TOO_LATE:
                items.append({"title": "claim too late",
                              "text": f"You claimed {pretty_cards(o.watched.oversight.cards)}: "
                                      "too late.",
                              "why": _explain(o.reason, seat, names) + "."})
        for typed in self._notes[seat].false_claims:
            items.append({"title": "false claim",
                          "text": f"You claimed {typed!r}: nothing of that was claimable.",
                          "why": "A claim names an open oversight of another player; a claim "
                                 "of nothing counts against you."})
        misses = 0
        for x in w.closed + list(w.open.values()):
            ov = x.oversight
            if x.missed_by(seat):
                misses += 1
                who = names[ov.offender]
                took = (f"{names[x.taken_by]} claimed it" if x.taken_by is not None else
                        "nobody claimed it before play ended" if x.how == "ended" else
                        "it stayed open until the cards were captured")
                items.append({"title": "missed claim",
                              "text": f"You did not claim {pretty_cards(ov.cards)} "
                                      f"({ov.kind.replace('_', ' ')}, {who}'s): {took}.",
                              "why": f"Claimable from action {ov.index + 1}: "
                                     f"{rule_words('oversights', ov.kind, who=who)}."})
            if ov.offender == seat:
                took = (f"{names[x.taken_by]} claimed it" if x.taken_by is not None
                        else "nobody claimed it")
                items.append({"title": "your oversight",
                              "text": f"You left {pretty_cards(ov.cards)} claimable "
                                      f"({ov.kind.replace('_', ' ')}): {took}.",
                              "why": f"{value_words('oversights', ov.kind)}: "
                                     f"{rule_words('oversights', ov.kind, who='you')}."})
        for a in self._notes[seat].laid_down:
            items.append({"title": "missed declaration",
                          "text": f"You lay down holding {_decl_words(a)}.",
                          "why": f"It could have been declared ({a.kind}) before you lay "
                                 "down."})
        if d.result is not None and d.ruleset.leftovers_to != "last_in":
            for held in d.result.held_declarations:
                if held.action.player == seat and held.cost:
                    items.append({"title": "missed declaration",
                                  "text": f"Play ended with {_decl_words(held.action)} in your "
                                          "hand.",
                                  "why": "Left in hand, they were leftovers: "
                                         f"{value_words('leftovers_to', d.ruleset.leftovers_to)}."})
        times = [s for _, s in hits]
        return {"hits": hits, "misses": misses,
                "false_claims": len(self._notes[seat].false_claims),
                "median_hit": round(statistics.median(times), 3) if times else None,
                "items": items, "stood_in": self.seats[seat].stood_in}


def _settlement_row(row) -> dict[str, Any]:
    """One seat's :class:`~tutor.engine.deal.SeatSettlement` as a JSON object."""
    return dict(row._asdict())


def _decl_words(a: Action) -> str:
    what = {"declare_prial": "a prial", "declare_mournival": "a mournival",
            "declare_dead_pair": "a dead pair", "declare_pair": "a pair"}[a.kind]
    return f"{what} of {RANK_PLURALS[a.rank]}"


def _is_claim(text: str) -> bool:
    words = text.strip().lower().split()
    return bool(words) and words[0] in ("claim", "claims", "c")


def _claim_words(text: str) -> str:
    words = text.strip().split()
    if words and words[0].lower() in ("claims", "c"):
        words = words[1:]
    return " ".join(words)


def _explain(reason: str, seat: int, names: list[str]) -> str:
    """The engine's ``reason`` with seat numbers named ("player 0" -> "you")."""
    from tutor.app.play.inputs import explain
    return explain(reason, seat, names)
