"""One live table: the referee of a match between people and computer players, driven by a
clock it is given and never reads (no sockets here: :mod:`tutor.app.tables.server` carries its
messages).

:class:`Table` holds the one :class:`~tutor.engine.deal.Deal` of the table and the match
(:class:`~tutor.engine.match.Match`: the plan of games, the totals).  People's intents come in
with the clock time of their arrival (:meth:`Table.act`, :meth:`Table.claim`,
:meth:`Table.ready`); the table's own events come due at their times (:meth:`Table.tick`, :meth:`Table.next_wake`):

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

The table is one class in this one module, as the engine's Deal is (cohesion over size): its
settings, its seats (joins, leaves, seat codes), people's intents and the replies to them, the
clock and the deals; its state is the attributes :meth:`Table.__init__` sets, declared there
once with their types.  Each person's review of a deal is worded by
:mod:`~tutor.app.tables._review`, which imports nothing of this module.

The outbox's entries are ``(target, message)``: the target a seat number, :data:`EVERYONE`,
:data:`PUBLIC` or :data:`LOG` with a message as the protocol sends it, or :data:`STATE` with a
:class:`Snapshot` (the states of one moment, made into messages per connection by the server).
"""

from __future__ import annotations

import hmac
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, TypedDict

from tutor.app.play.inputs import read_move
from tutor.app.play.mistakes import TABLE_FALSE_CLAIM, claim_words
from tutor.app.tables._limits import Bucket
from tutor.app.tables._review import Notes, review
from tutor.app.tables.protocol import (
    COMPUTER,
    ActMessage,
    ClaimMessage,
    ReadyMessage,
    Refused,
    WrongSeatCode,
    code_words,
    seat_code,
)
from tutor.engine import race as R
from tutor.engine.cards import codes, pretty_cards
from tutor.engine.deal import (
    DECLARATIONS,
    TURN_KINDS,
    Action,
    Deal,
    DealResult,
    SeatSettlement,
    one_declaration_per_rank,
)
from tutor.engine.levels import Level
from tutor.engine.match import Game, Match
from tutor.engine.observe import Observation, observe, observe_public
from tutor.engine.race import ClaimRace, ClaimWatch
from tutor.engine.records import result_to_json
from tutor.engine.rulesets import Ruleset
from tutor.engine.seats import SEAT_NAMES

__all__ = [
    "EVERYONE",
    "FALSE_CLAIM_TEXT",
    "LOG",
    "PUBLIC",
    "REJOIN_BURST",
    "REJOIN_EVERY",
    "STATE",
    "Clock",
    "Entry",
    "Joined",
    "Message",
    "SeatState",
    "Settings",
    "Snapshot",
    "Table",
    "Target",
    "bot_name",
    "settlement_fields",
]

#: Targets of the outbox besides a seat number: every connection at the table, and the
#: spectators only (people waiting for a seat, the organiser).
EVERYONE: Final = "everyone"
PUBLIC: Final = "public"
#: The organiser's log (and the server's pane and events file): public facts only.
LOG: Final = "log"
#: An outbox entry holding the states of one moment (a :class:`Snapshot`).
STATE: Final = "state"

#: A message as the server sends it: a JSON object of the shape its type's model gives
#: (:mod:`tutor.app.tables.messages`; every message of the network tests is checked by it).
Message = Mapping[str, object]
#: Whom a message of the outbox is for: a seat (0-based), everyone, the spectators, the log.
Target = int | Literal["everyone", "public", "log"]


class Snapshot(TypedDict):
    """The states of one moment (an outbox entry for :data:`STATE`): ``views`` each seat's
    observation (None: a spectator's), ``deal`` the deal's number on the wire, ``cause``
    ``[seat, seq]`` of the intent that led to it (None: the table's own)."""

    views: dict[int | None, Observation]
    deal: int
    cause: list[int | None] | None


#: One entry of a table's outbox (see the module docstring).
Entry = tuple[Target, Message] | tuple[Literal["state"], Snapshot]


class Clock(TypedDict):
    """The clock of the move being waited for, as the messages carry it (seconds, the server's
    clock): see :meth:`tutor.app.tables.table.Table.clock`."""

    seat: int
    kind: Literal["move", "away"]
    deadline: float
    left: float
    move_left: float | None
    reserve: list[float]


#: Times a seat may be taken back at once, and seconds after which one more is allowed: a
#: phone reconnecting now and then is never refused, a script rejoining in a loop is.
REJOIN_BURST, REJOIN_EVERY = 6, 10.0


@dataclass
class Settings:
    """A table's settings: ``ruleset`` and ``players``; ``level`` the computer players'
    (:class:`~tutor.engine.levels.Level`); ``deals`` in the match (None: the ruleset's match
    format, or one round); ``hint`` whether people may ask for the best move, ``hints`` how
    many a deal (at most one a turn); ``wait`` seconds an absent person's turn waits;
    ``pace`` seconds before a computer player's move; ``gap`` seconds between deals;
    ``before`` seconds a dealer who is a person has to take a table mournival before the
    computer players begin; ``seed`` the seed every table's own seed is drawn from
    (:meth:`table_seed`): a whole number the organiser chose (public), or 32 hex digits drawn
    from :mod:`secrets` (128 bits: secret); ``start`` seconds after the table opens at which its first deal
    begins (None: ``gap`` seconds after its ``people``-th person takes a seat, or, with
    ``hold``, when the organiser starts it); ``move_time`` seconds a person present has for
    each move and ``reserve`` seconds more a deal to draw on once a move's time is spent (no
    clock with ``move_time`` 0); ``duplicate``: every table plays the same deals, a deal
    at a time; ``first_dealers``: for each table in turn, the name of the person who deals
    first there (the Team Leader), or None."""

    ruleset: Ruleset
    players: int
    level: Level
    deals: int | None = None
    hint: bool = False
    wait: float = 20.0
    pace: float = 1.0
    gap: float = 3.0
    before: float = 8.0
    seed: int | str = 1
    start: float | None = None
    move_time: float = 30.0
    reserve: float = 120.0
    hints: int = 3
    people: int = 1
    hold: bool = False
    duplicate: bool = False
    first_dealers: tuple[str | None, ...] = ()

    def table_seed(self, number: int) -> int | str:
        """The seed of table ``number``'s match (its cut and every shuffle): the server's
        ``seed`` itself under ``duplicate`` (the same deals at every table), else one of its
        own, drawn from it (no two tables share a pack)."""
        return self.seed if self.duplicate else f"{self.seed}/table-{number}"


@dataclass
class SeatState:
    """Who sits at one seat: ``name`` (a person's; None: a computer player), their ``token``,
    whether they are ``connected`` and since when they are gone; ``incoming`` a person who takes
    the seat from a computer player at the next deal (with ``incoming_token``); ``stood_in`` the
    moves a computer player made for them this deal; ``since`` the game (0-based) from which
    the person plays the seat (their scores count from it: the deals before were a computer
    player's); ``livery`` the person's club or livery company, if they gave one; ``left``
    True when they left on purpose (the seat is free once no deal is in play); ``given`` True
    while the seat's code is one the organiser gave and nobody has used yet; ``played`` False
    until the person who joined makes a move of their own (True for a resumed seat: not
    known).  A seat with a
    ``token`` and no ``name`` is one kept for a named person (:meth:`Table.keep_named`)."""

    name: str | None = None
    token: str | None = None
    connected: bool = False
    gone_since: float | None = None
    incoming: str | None = None
    incoming_token: str | None = None
    stood_in: int = 0
    since: int = 0
    livery: str | None = None
    left: bool = False
    given: bool = False
    played: bool = True


@dataclass(frozen=True)
class Joined:
    """A join taken: the ``seat``, the ``token`` (its seat code) that takes it back, ``now``
    False when the person takes the seat only at the next deal, ``back`` True when they took
    back their own, ``quiet`` True when they were connected already (a new connection of the
    same person: nothing to tell the table)."""

    seat: int
    token: str
    now: bool
    back: bool
    quiet: bool = False


def _of(livery: str | None) -> str:
    return f" (of {livery})" if livery else ""


def bot_name(seat: int) -> str:
    """The name of a computer player's seat: ``Ralph (computer)``."""
    return f"{SEAT_NAMES[seat % len(SEAT_NAMES)]} {COMPUTER}"


#: Said for a claim that names nothing claimable, whatever is on the table
#: (:func:`~tutor.app.play.mistakes.claim_words`).
FALSE_CLAIM_TEXT = TABLE_FALSE_CLAIM


class Table:
    """One table (see the module docstring).  ``number`` (1-based) and ``code`` (its join code)
    name it; ``settings`` (:class:`Settings`); ``match`` the engine's match (a new one from the
    settings when None); ``seats`` who sits where (a resumed table's); ``gate(table, game)``
    says whether a game may begin (a tournament's rounds); ``on_finished(table, deal, t)`` is
    called with every finished deal and the clock time it ended; ``token()`` makes seat
    tokens; ``now`` the clock time the table opens at."""

    def __init__(
        self,
        number: int,
        code: str,
        settings: Settings,
        match: Match | None = None,
        *,
        seats: list[SeatState] | None = None,
        gate: Callable[[Table, Game], bool] | None = None,
        on_finished: Callable[[Table, Deal, float], None] | None = None,
        token: Callable[[], str] | None = None,
        now: float = 0.0,
    ):
        self.number = number
        self.code = code
        self.settings = s = settings
        self.match = (
            match
            if match is not None
            else Match.start(
                s.ruleset, s.players, s.table_seed(number), s.deals, meta={"table": number}
            )
        )
        self.seats = seats if seats is not None else [SeatState() for _ in range(s.players)]
        self.gate = gate
        self.on_finished = on_finished
        self._token = token or seat_code
        #: Each seat's rejoins allowed (:meth:`_rejoin_wait`).
        self.rejoins: dict[int, Bucket] = {}
        self.rng = random.Random(f"{s.seed}:table:{number}:seats")
        self.bots = [s.level.make() for _ in range(s.players)]
        self.bot_rng = random.Random(f"{s.seed}:table:{number}:bots")
        self.reaction_rng = random.Random(f"{s.seed}:table:{number}:reactions")
        self.deal: Deal | None = None
        self.watch: ClaimWatch | None = None
        self.turn_since = now
        self.before_until = now
        self.next_deal_at: float | None = (
            None if self.match.is_over or s.start is None else now + s.start
        )
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
            self.keep_named()  # the named first dealer's seat: a code of its own

    @property
    def _live(self) -> Deal:
        """The deal (an error before the first: a bug of the caller)."""
        d = self.deal
        if d is None:
            raise AssertionError("no deal has begun at this table")
        return d

    @property
    def _watch(self) -> ClaimWatch:
        """The deal's claim watch (an error before the first deal: a bug of the caller)."""
        w = self.watch
        if w is None:
            raise AssertionError("no deal has begun at this table")
        return w

    @property
    def _mover(self) -> int:
        """The seat to move in the deal being played (an error when none is: a bug of the
        caller)."""
        q = self._live.to_move
        if q is None:
            raise AssertionError("the deal is over: nobody is to move")
        return q

    # -- seats ---------------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        """Each seat's name: the person's, or a computer player's (:func:`bot_name`)."""
        return [st.name if st.name is not None else bot_name(q) for q, st in enumerate(self.seats)]

    def person(self, seat: int) -> bool:
        """True when a person sits at ``seat`` (here or away)."""
        return self.seats[seat].name is not None

    def _computer(self, seat: int) -> bool:
        return self.seats[seat].name is None

    def seated(self, seat: int, name: str) -> bool:
        """True when ``name`` sits at ``seat`` now (not waiting for the next deal)."""
        return self.seats[seat].name == name

    def join(
        self, name: str | None, token: str | None, now: float, livery: str | None = None
    ) -> Joined:
        """A person joins.  With ``token`` (the seat code a join gave, or the organiser gave:
        case, spaces and dashes do not matter): takes back exactly the seat that code belongs
        to, under the name it was given (``name`` None: that name; codes are compared in
        constant time, each seat's), or takes the seat the organiser kept for a named person
        (:meth:`keep_named`); without: is drawn a free seat (at once between deals, else from
        the next deal: a computer player keeps it until then).  A name alone never takes a
        seat that has a code, nor the seat kept for a named person: only the code does.
        ``livery`` (a club's or livery company's name, shown on the sheets and the standings)
        is kept with the seat.  A seat taken back more than :data:`REJOIN_BURST` times in a
        short while is refused until :data:`REJOIN_EVERY` seconds have passed since the last
        (its person's page or terminal tries again then).  Raises
        :class:`~tutor.app.tables.protocol.WrongSeatCode` for a code of no seat (a guess),
        :class:`~tutor.app.tables.protocol.Refused` with the reason otherwise."""
        self._free_left(now)
        if token is not None:
            return self._back(name, token, now, livery)
        if name is None:
            raise Refused("name: 1 to 24 characters (only a seat code takes a seat without one)")
        low = name.casefold()
        for st in self.seats:
            if low in ((st.name or "").casefold(), (st.incoming or "").casefold()):
                raise Refused(
                    f"a seat at this table is kept for {name}: it is taken back with "
                    "its seat code (shown when it was taken; the organiser can give "
                    "a new one), or choose another name"
                )
        lead = self._first_dealer_name()
        if lead is not None and lead.casefold() == low and self.reserved_seats():
            raise Refused(
                f"the seat kept for {lead} is taken with the seat code the organiser gives them"
            )
        free = [
            q
            for q, st in enumerate(self.seats)
            if st.name is None
            and st.incoming is None
            and st.token is None
            and q not in self.reserved_seats()
        ]
        if not free:
            raise Refused("this table is full: every seat is taken")
        q = self.rng.choice(free)
        return self._seat(q, name, self._token(), now, livery)

    def _seat(
        self, q: int, name: str, tok: str, now: float, livery: str | None, kept: bool = False
    ) -> Joined:
        """``name`` takes seat ``q`` with the code ``tok`` (``kept``: the seat the organiser
        kept for them)."""
        st = self.seats[q]
        st.livery = livery or st.livery
        st.left = False
        st.given = False
        st.played = False
        how = " (the seat kept for them)" if kept else ""
        if self.playing:
            st.incoming, st.incoming_token, st.connected = name, tok, True
            st.token = None
            self._say(EVERYONE, f"{name} joins and takes seat {q} from the next deal.")
            self._log(
                "joined", f"{name} joins{_of(livery)}, seat {q}{how} from the next deal", seat=q
            )
            self.changed = True
            return Joined(q, tok, False, False)
        st.name, st.token, st.connected, st.gone_since = name, tok, True, None
        st.since = len(self.match.deals)
        self._say(EVERYONE, f"{name} takes seat {q}.")
        self._log("joined", f"{name} joins{_of(livery)} and takes seat {q}{how}", seat=q)
        self._seated_now(now)
        self.changed = True
        return Joined(q, tok, True, False)

    def _back(self, name: str | None, token: str, now: float, livery: str | None) -> Joined:
        q, incoming = self._token_seat(token)
        if q is None:
            raise WrongSeatCode("that seat code takes back no seat at this table")
        st = self.seats[q]
        tok = (st.incoming_token if incoming else st.token) or ""
        holder = st.incoming if incoming else st.name
        if holder is None:  # the seat the organiser kept for a named person
            lead = self._first_dealer_name() or name or "A player"
            if name is not None and name.casefold() != lead.casefold():
                raise Refused(f"that seat code is {lead}'s: join as {lead}")
            return self._seat(q, lead, tok, now, livery, kept=True)
        if name is not None and holder.casefold() != name.casefold():
            raise Refused(f"that seat code takes back the seat of {holder}: join as {holder}")
        wait = self._rejoin_wait(q, now)
        if wait is not None:
            raise Refused(
                f"seat {q} has been taken back {REJOIN_BURST} times in a short "
                f"while: try again in {wait} s"
            )
        was = st.connected
        st.connected, st.gone_since, st.left = True, None, False
        if st.given:  # the code the organiser gave: now used
            st.given = False
        if livery and not st.livery:
            st.livery = livery
        if not was:
            self._say(EVERYONE, f"{holder} is back at the table.")
            self._log("back", f"{holder} is back at seat {q}", seat=q)
            self.changed = True
        return Joined(q, tok, not incoming, True, quiet=was)

    def _rejoin_wait(self, q: int, now: float) -> int | None:
        """None when seat ``q`` may be taken back now (it counts), else the whole seconds to
        wait: at most :data:`REJOIN_BURST` at once, then one each :data:`REJOIN_EVERY`
        seconds."""
        b = self.rejoins.get(q)
        if b is None:
            b = self.rejoins[q] = Bucket(1.0 / REJOIN_EVERY, REJOIN_BURST, now)
        if b.take(now):
            return None
        return max(1, math.ceil(b.wait(now)))

    def _token_seat(self, token: str) -> tuple[int | None, bool]:
        """The seat ``token`` belongs to and whether it is an incoming person's, every seat's
        codes compared in constant time (no early exit: the time says nothing of which); a
        code is read as typed (:func:`~tutor.app.tables.protocol.code_words`)."""
        given = code_words(token).encode("utf-8", "surrogatepass")
        found: tuple[int | None, bool] = (None, False)
        for q, st in enumerate(self.seats):
            for tok, incoming in ((st.token, False), (st.incoming_token, True)):
                ok = hmac.compare_digest(
                    given, code_words(tok or "\0" * len(token)).encode("utf-8", "surrogatepass")
                )
                if ok and tok is not None:
                    found = (q, incoming)
        return found

    def release(self, seat: int) -> tuple[str, str]:
        """The organiser releases ``seat`` (its person lost the code, or someone else has it):
        the old code no longer takes it back; a new one does, which the organiser hands to the
        person (shown on the organiser's page and ``watch`` until it is used).  Returns who
        sits there (or the named person it is kept for) and the new code.  Raises Refused when
        nobody does."""
        if not 0 <= seat < len(self.seats):
            raise Refused(f"seat: from 0 to {len(self.seats) - 1}")
        st = self.seats[seat]
        who = st.name or st.incoming
        kept = who is None and st.token is not None
        if who is None and not kept:
            raise Refused(f"nobody sits at seat {seat} of table {self.number}")
        tok = self._token()
        if st.incoming is not None:
            st.incoming_token = tok
        else:
            st.token = tok
        st.given = who is not None
        self.rejoins.pop(seat, None)
        self.changed = True
        return who or self._first_dealer_name() or "the named person", tok

    def empty(self, seat: int, now: float) -> str:
        """The organiser empties ``seat``: its person (or the one waiting for it) no longer
        sits there, and its code takes nothing back; a computer player plays it, and the seat
        is free for the next person who joins.  Returns who sat there.  Raises Refused when
        nobody does."""
        if not 0 <= seat < len(self.seats):
            raise Refused(f"seat: from 0 to {len(self.seats) - 1}")
        st = self.seats[seat]
        who = st.name or st.incoming
        if who is None:
            raise Refused(f"nobody sits at seat {seat} of table {self.number}")
        self._free(seat)
        self._say(EVERYONE, f"The organiser gave seat {seat} ({who}) to a computer player.")
        return who

    def _free(self, seat: int) -> None:
        self.seats[seat] = SeatState()
        self.rejoins.pop(seat, None)
        self.changed = True

    def keep_named(self) -> None:
        """The seat of this table's named first dealer, kept for them: a seat code of its own,
        which the organiser gives them (on the organiser's page and ``watch``); the name alone
        never takes it."""
        q = self._kept_seat()
        if q is not None and self.seats[q].token is None:
            self.seats[q].token = self._token()

    def codes(self) -> list[str | None]:
        """Each seat's code that the organiser gives and nobody has used yet (the named first
        dealer's, a released seat's), else None: for the organiser's eyes only."""
        return [x[0] if x else None for x in self.given_codes()]

    def given_codes(self) -> list[tuple[str, str] | None]:
        """As :meth:`codes`, each with the person it is for: ``(code, name)``, or None."""
        out: list[tuple[str, str] | None] = []
        for st in self.seats:
            kept = st.name is None and st.incoming is None and st.token is not None
            code = st.incoming_token or st.token
            if code is not None and (kept or st.given):
                who = st.incoming or st.name or self._first_dealer_name() or "the named person"
                out.append((code, who))
            else:
                out.append(None)
        return out

    def _first_dealer_name(self) -> str | None:
        names = self.settings.first_dealers
        k = self.number - 1
        return names[k] if k < len(names) and names[k] else None

    def _kept_seat(self) -> int | None:
        """The first dealer's seat when the organiser named this table's (the Team Leader of
        the Inter-Livery sheet: "The Team Leader will be the first dealer") and nobody sits
        there yet; else None."""
        if self._first_dealer_name() is None:
            return None
        q = self.match.first
        st = self.seats[q]
        return q if st.name is None and st.incoming is None else None

    def reserved_seats(self) -> set[int]:
        """The seat kept for a named first dealer who has not come yet (nobody else is drawn
        it, and their name alone does not take it: its seat code does)."""
        q = self._kept_seat()
        return set() if q is None else {q}

    def people_seated(self) -> int:
        """People who sit at the table now (here or away), not counting those waiting for the
        next deal."""
        return sum(st.name is not None for st in self.seats)

    def _seated_now(self, now: float) -> None:
        """A person has sat down between deals: before the first deal, the table begins
        ``gap`` seconds after its ``people``-th person sits (never while it waits for the
        organiser, ``hold``, nor when ``start`` sets its own time)."""
        s = self.settings
        if (
            self.deal is None
            and not self.match.is_over
            and not s.hold
            and s.start is None
            and self.people_seated() >= s.people
        ):
            self.next_deal_at = now + s.gap

    def leave(self, seat: int, now: float, *, meant: bool = False) -> None:
        """The person at ``seat`` has gone: ``meant`` when they left (the ``leave`` message),
        else the connection was lost.  A seat left on purpose between deals is free again at
        once (during a deal, once it ends: :meth:`_free_left`); so is one whose person has
        made no move of their own there and has been gone ``wait`` seconds (a guest who took
        seats and went).  Otherwise the seat stays theirs: their turns wait ``wait`` seconds, then a
        computer player moves for them."""
        st = self.seats[seat]
        if meant:
            st.left = True
        if not st.connected:
            return
        st.connected = False
        st.gone_since = now
        who = st.name or st.incoming or "A player"
        if meant and not self.playing or st.name is None and st.incoming is not None:
            self._log("left", f"{who} has left seat {seat}: it is free again", seat=seat)
            self._free(seat)
            self._say(EVERYONE, f"{who} has left the table: seat {seat} is free again.")
            return
        if st.name is not None and not self.match.is_over:  # (after it: everyone goes)
            self._say(
                EVERYONE,
                f"{who} has left the table: their turns wait "
                f"{self.settings.wait:g} s, then a computer player moves for "
                "them.",
            )
        self._log("left", f"{who} has left seat {seat}", seat=seat)
        self.changed = True

    def _free_left(self, now: float) -> None:
        """Between deals, the seats of people who left on purpose, and of people gone
        ``wait`` seconds who have made no move of their own there, are free again."""
        if self.playing or self.match.is_over:
            return
        for q, st in enumerate(self.seats):
            if st.name is None or st.connected:
                continue
            idle = (
                st.gone_since is not None
                and now - st.gone_since >= self.settings.wait
                and not st.played
            )
            if st.left or idle:
                self._log("left", f"{st.name}'s seat {q} is free again", seat=q)
                self._free(q)

    # -- intents -------------------------------------------------------------------------------

    def ready(self, seat: int, msg: ReadyMessage, now: float) -> bool:
        """The dealer lets play begin without waiting further (a ``ready`` message, arriving at
        clock time ``now``; anyone else's is answered the same and changes nothing).  True when
        play was waiting for them."""

        def begin() -> bool:
            taken = self.deal is not None and seat == self.deal.dealer and self.before_until > now
            if taken:
                self.before_until = now
            self._reply(seat, msg, True, "")
            return taken

        return self._intent(seat, msg, now, begin, in_play=False)

    def act(self, seat: int, msg: ActMessage, now: float) -> bool:
        """The person at ``seat`` makes a turn action or a declaration (an ``act`` message:
        typed ``text``, read by :meth:`~tutor.engine.deal.Deal.parse_action`, or a deal-record
        ``action``), arriving at clock time ``now``; True when the table applied it (see
        :meth:`_intent`)."""
        return self._intent(seat, msg, now, lambda: self._act(seat, msg, now))

    def claim(self, seat: int, msg: ClaimMessage, now: float) -> bool:
        """The person at ``seat`` claims (a ``claim`` message, its naming or its ``action``),
        arriving at clock time ``now``; True when the claim took cards (see :meth:`_intent`)."""
        return self._intent(seat, msg, now, lambda: self._claim(seat, msg, now))

    def _intent(
        self,
        seat: int,
        msg: ActMessage | ClaimMessage | ReadyMessage,
        now: float,
        then: Callable[[], bool],
        in_play: bool = True,
    ) -> bool:
        """What every intent goes through: an action named for another seat raises
        :class:`~tutor.app.tables.protocol.Refused` (nothing is done); every earlier event of
        the table runs first; with ``in_play``, an intent while no deal is being played is
        answered so; else ``then()`` acts on it.  Answers go to the outbox.  Returns True when
        the table took it as a move of the deal (a turn action or declaration applied, a claim
        that took cards, the dealer's ``ready`` while play waited for it): such messages come
        at the deal's own pace, and the server's rate limit does not count them."""
        action = msg.action if isinstance(msg, (ActMessage, ClaimMessage)) else None
        if action is not None and action.player != seat:
            raise Refused(f"that action is for seat {action.player}; you sit at seat {seat}")
        self.tick(now, before=True, most=1 << 30)  # every earlier event first, however many
        self.cause = [seat, msg.seq]
        if in_play and not self.playing:
            taken = False
            self._reply(
                seat, msg, False, "No deal is being played now: the next one begins shortly."
            )
        else:
            taken = then()
        self.tick(now)
        return taken

    def _act(self, seat: int, msg: ActMessage, now: float) -> bool:
        d = self._live
        names = self.names
        a = msg.action
        if a is not None:
            why = d.why_illegal(a)
            if why is not None:
                self._reply(seat, msg, False, why.words(seat, names) + ".")
                return False
        else:  # read as a practice deal reads it (the model: text or action)
            it = read_move(msg.text or "", d, seat, names)
            if it.kind == "error":  # the reason; the client says it as practice does
                self._reply(seat, msg, False, it.reason, unreadable=it.unreadable)
                return False
            if len(it.actions) != 1 or it.incomplete:  # which one: the choices follow
                self._reply(seat, msg, False, it.message, [c.notation() for c in it.actions])
                return False
            a = it.actions[0]
        self._apply(a, now)
        self._reply(seat, msg, True, "")
        return True

    def _claim(self, seat: int, msg: ClaimMessage, now: float) -> bool:
        """A person's claim, refereed by the watch on its arrival (blind: the answer says
        nothing of what is open but whether it took cards); True when it took cards.  A claim
        before play begins is refereed like any other (nothing is claimable yet).  The claim
        was told from a move once, where the message was read
        (:func:`~tutor.app.tables.protocol.read_client`); its outcome is worded by
        :func:`~tutor.app.play.mistakes.claim_words`, as a practice deal words it."""
        d = self._live
        if not d.game.lists_oversights:
            self._reply(
                seat,
                msg,
                False,
                "This ruleset lists no oversights: there is never anything to claim.",
            )
            return False
        action, text = msg.action, msg.text or ""  # (the model: text or action)
        outs = self._watch.arrive(seat, action if action is not None else text, now, blind=True)
        for o in outs[:-1]:
            self._race_line(o)
        last = outs[-1]
        if last.result == R.HIT:
            self._race_line(last)
            self._reply(
                seat,
                msg,
                True,
                f"You claimed first, {_ms(_seconds(last))} after it "
                "could be claimed (the server's clock, on arrival).",
            )
        else:
            if last.result == R.FALSE_CLAIM:
                self.notes[seat].false_claims.append(
                    (action.notation() if action is not None else text, len(d.history))
                )
            self._reply(seat, msg, False, claim_words(last, seat, self.names, table=True))
            if last.result == R.TOO_LATE:
                self._lost_race_line(last)
        if any(o.result == R.HIT for o in outs):
            self._after(now)
        return last.result == R.HIT

    def hint_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not have a hint now (in one line), or None when it may: hints
        allowed at the table, a deal being played, the seat to move, its hint of this turn not
        had yet, and fewer than ``hints`` had this deal."""
        s = self.settings
        if not s.hint:
            return "Hints are off at this table."
        if not self.playing or self._live.to_move != seat:
            return "A hint answers your move when it is your turn (a claim is yours to find)."
        if self._hinted.get(seat) == self.turn_index:
            return "One hint a turn: you have had this turn's."
        if self._hints_used.get(seat, 0) >= s.hints:
            return f"{s.hints} hint{'s' if s.hints != 1 else ''} a deal: you have had this deal's."
        return None

    def hint_taken(self, seat: int) -> None:
        """A hint is being worked out for ``seat``: it counts in its budget."""
        self._hinted[seat] = self.turn_index
        self._hints_used[seat] = self._hints_used.get(seat, 0) + 1

    def hint_position(self, seat: int) -> Deal | None:
        """The position a hint to ``seat`` is worked out on (where hints are allowed, a deal is
        being played and the seat is to move), else None: a copy of the deal with no open
        oversight, so that no hint can say, or lean on, one (a claim is the player's own
        find)."""
        if not self.settings.hint or not self.playing or self._live.to_move != seat:
            return None
        return self._live.clone(oversights=False)

    def _reply(
        self,
        seat: int,
        msg: ActMessage | ClaimMessage | ReadyMessage,
        ok: bool,
        text: str,
        choices: list[str] | None = None,
        unreadable: bool = False,
    ) -> None:
        out: dict[str, object] = {
            "type": "reply",
            "ok": ok,
            "text": text,
            "seq": msg.seq,
            "to": msg.type,
        }
        if choices:
            out["choices"] = choices
        if unreadable:  # a word of the move was not read: the terminal points to help
            out["unreadable"] = True
        self.outbox.append((seat, out))

    def _race_line(self, o: R.Outcome) -> None:
        """Everyone hears who took a claim, in how long (the claim itself is in the state)."""
        w, a = o.watched, o.action
        if o.result != R.HIT or w is None or a is None:  # (a hit names both)
            return
        took = _seconds(o)
        rivals = w.rivals(but=o.seat)
        text = (
            f"{self.names[o.seat]} claimed {pretty_cards(a.cards)} first, "
            f"{_ms(took)} after it could be claimed"
        )
        if rivals:
            q, secs = rivals[0]
            text += (
                f"; {self.names[q]} would have claimed at {_ms(secs)} ({_ms(secs - took)} later)"
            )
        if self.changed and self.playing:
            self._snapshot()  # the state with the claim (and what opened it) goes first
        self._say(EVERYONE, text + ".")
        self._log(
            "claim", text, seat=o.seat, ms=round(took * 1000), action=len(self._live.history) - 1
        )

    def _lost_race_line(self, o: R.Outcome) -> None:
        """A person's claim that came after another player took the same cards: the table and
        the organiser's log hear both names and the margin (the winner's line went out when
        the cards were taken, before this claim came).  A race lost to a lapse (no one took
        the cards) is the loser's alone."""
        w = o.watched
        if w is None or w.taken_by is None or w.taken_at is None or w.taken_by == o.seat:
            return
        winner, loser = self.names[w.taken_by], self.names[o.seat]
        cards = pretty_cards(o.action.cards) if o.action is not None else ""
        text = (
            f"{loser} claimed {cards + ' ' if cards else ''}too, {_ms(o.at - w.taken_at)} "
            f"after {winner}, who took it first"
        )
        self._say(EVERYONE, text + ".")
        self._log(
            "claim",
            text,
            seat=o.seat,
            ms=round((o.at - w.opened_at) * 1000),
            winner=w.taken_by,
            margin=round((o.at - w.taken_at) * 1000, 1),
        )

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
        return {
            "seat": q,
            "kind": kind,
            "deadline": round(at, 3),
            "left": round(max(0.0, at - now), 1),
            "move_left": round(max(0.0, self.turn_since + s.move_time - now), 1)
            if kind == "move"
            else None,
            "reserve": reserve,
        }

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
        times = [
            t
            for t in (
                self._due_deal(),
                self._due_move(),
                self._watch.next_due() if self.playing else None,
            )
            if t is not None
        ]
        return min(times) if times else None

    def tick(self, now: float, *, before: bool = False, most: int = 25) -> None:
        """Run every event due at or before clock time ``now`` (strictly before it with
        ``before``), each at its own time, in order; at most ``most`` of them (computer players
        with no pace would otherwise play a whole match in one call, and hold up the server's
        loop: those left are due still, and :meth:`next_wake` says so)."""
        for _ in range(most):
            if self.paused:  # (set by the server as an action fails to be saved)
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
        if (
            self.deal is not None
            or self.match.deals
            or self.match.is_over
            or (self.next_deal_at is not None and self.next_deal_at <= now)
        ):
            return False
        self.next_deal_at = now
        self._log("started", "the organiser starts the table")
        return True

    def waiting(self) -> str | None:
        """Why the table's first deal has not begun (``for the organiser``, ``for 2 more
        people``), or None once it has or its time is set."""
        if (
            self.deal is not None
            or self.match.deals
            or self.next_deal_at is not None
            or self.match.is_over
        ):
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
        who = (
            f" ({len(here)} of {s.players} seats taken: {', '.join(here)})"
            if here
            else f" (0 of {s.players} seats taken)"
        )
        first = self.deal is None and not self.match.deals
        if first and self.next_deal_at is None:
            if s.hold:
                return "The table waits for the organiser to start it" + who + "."
            more = s.people - self.people_seated()
            if more > 0:
                return (
                    f"The table waits for {more} more "
                    f"{'person' if more == 1 else 'people'}{who}, or for the organiser "
                    "to start it."
                )
            return None
        if first and self.next_deal_at is not None and self.next_deal_at > now + s.gap:
            return "The first deal begins at the time the organiser set" + who + "."
        game = self.match.next_game
        if self.gate is not None and game is not None and not self.gate(self, game):
            if s.duplicate:
                return (
                    f"{game.label}: the table waits for the other tables to finish the "
                    "deal before (duplicate play: every table is dealt the same cards)."
                )
            return (
                f"{game.label}: the table waits for the other tables to finish the "
                "round (every table begins it together)."
            )
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
        if (
            self._partial is not None
            and self._partial.pack == deal.pack
            and self._partial.dealer == deal.dealer
        ):
            deal = self._partial
        self._partial = None
        self.deal = deal
        self.deal_number += 1
        self.notes = {q: Notes() for q in range(s.players)}
        computers = {
            q: s.level.claiming.paced(s.pace) for q in range(s.players) if self._computer(q)
        }
        self.watch = ClaimWatch(
            deal,
            computers,
            self.reaction_rng,
            humans=[q for q in range(s.players) if not self._computer(q)],
        )
        for bot in self.bots:
            bot.start(deal)
        self.turn_since = t
        self.turn_index += 1
        self.before_until = t
        dealer = self.seats[deal.dealer]
        if (
            dealer.name is not None
            and dealer.connected
            and not deal.started
            and any(a.kind == "take_table_mournival" for a in deal.free_actions(deal.dealer))
        ):
            self.before_until = t + s.before
        game = self.match.next_game
        self._say(EVERYONE, f"{game.label if game else 'Deal'}: {self.names[deal.dealer]} deals.")
        self._log(
            "deal",
            f"{game.label if game else 'Deal'} begins, "
            f"{self.names[deal.dealer]} deals"
            + (f" (on from action {len(deal.history)})" if deal.history else ""),
        )
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
            if st.connected:  # present, but the move's time and the reserve ran out
                self.reserve_left[q] = 0.0
                self.notes[q].timed_out += 1
                self._say(EVERYONE, f"{st.name}'s time ran out: a computer player moves for them.")
                self._log(
                    "time_out",
                    f"{st.name}'s time ran out: a computer player moved for them ({a.notation()})",
                    seat=q,
                    action=len(d.history),
                )
            else:
                self._say(EVERYONE, f"{st.name} is away: a computer player moves for them.")
                self._log(
                    "stood_in",
                    f"{st.name} is away: a computer player moved for them ({a.notation()})",
                    seat=q,
                    action=len(d.history),
                )
        self.cause = None
        self._apply(a, t, by_table=True)

    def _bot_claims(self, t: float) -> None:
        outs = self._watch.advance(t)
        for o in outs:
            self._race_line(o)
        if outs:  # a claim that took nothing changes nothing: no state goes out
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
            over = t - self.turn_since - s.move_time  # past the move's time: off the reserve
            if over > 0:
                self.reserve_left[a.player] = max(0.0, self.reserve_left[a.player] - over)
        if a.kind == "lie_down" and self.person(a.player):
            decls = [f for f in d.free_actions(a.player) if f.kind in DECLARATIONS]
            self.notes[a.player].laid_down.extend(one_declaration_per_rank(decls))
        d.apply(a)
        if (
            a.kind in TURN_KINDS
            or d.to_move != before
            or (a.kind in DECLARATIONS and not d.declarations_are_free)
        ):
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
        public = {
            "type": "deal_over",
            "table": self.number,
            "game": game.label if game else "",
            "practice": bool(game and game.practice),
            "names": names,
            **settlement_fields(d),
            "unit": d.ruleset.unit,
            "totals": list(self.match.totals),
            "deals": len(self.match.deals),
            "of": len(self.match.games),
        }
        for q in range(d.n):
            if self.person(q):
                self.outbox.append((q, {**public, "review": self.review(q)}))
        self.outbox.append((PUBLIC, public))
        self._log(
            "deal_over",
            f"{game.label if game else 'Deal'} over: "
            + ", ".join(
                f"{names[q]} {v:+d}" if d.ruleset.has_stakes else f"{names[q]} {v}"
                for q, v in enumerate(d.returns())
            ),
            game=game.index if game else None,
        )
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
        self.outbox.append((STATE, Snapshot(views=views, deal=self.deal_number, cause=self.cause)))
        self.changed = False

    def _match_over(self) -> None:
        m = self.match
        plan = {"first": m.first, "total": len(m.games)}
        base = {
            "type": "match_over",
            "table": self.number,
            "names": self.names,
            "totals": list(m.totals),
            "ruleset": m.ruleset.id,
            "players": m.players,
            "plan": plan,
            "deals": len(m.deals),
        }
        for q in range(m.players):
            if self.person(q):
                st = self.seats[q]
                self.outbox.append(
                    (
                        q,
                        {
                            **base,
                            "seat": q,
                            "since": st.since,
                            "livery": st.livery,
                            "scores": [
                                None if k < st.since else d.returns()[q]
                                for k, d in enumerate(m.deals)
                            ],
                        },
                    )
                )
        self.outbox.append((PUBLIC, base))
        self._log(
            "match_over",
            "The match is over: " + ", ".join(f"{n} {v}" for n, v in zip(self.names, m.totals)),
        )

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
        self.outbox.append(
            (
                LOG,
                {
                    "type": "log",
                    "table": self.number,
                    "event": event,
                    "text": text,
                    "game": game.index if game else index,
                    **data,
                },
            )
        )

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
    return {
        "result": result_to_json(deal),
        "settlement": [_settlement_row(row) for row in r.settlement],
        "dealer": deal.dealer,
        "pot_to": list(r.pot_to or ()),
        "set_aside": codes(r.set_aside),
        "set_aside_to": r.set_aside_to,
    }


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


def _ms(seconds: float) -> str:
    """A claim's timing in whole milliseconds (``312 ms``): races are won by a few."""
    return f"{max(0.0, seconds) * 1000:,.0f} ms"


def _seconds(o: R.Outcome) -> float:
    """Seconds from the moment a claim's oversight became claimable to its arrival, for a hit
    (which always names the oversight it took: an error otherwise, a bug of the caller)."""
    secs = o.seconds
    if secs is None:
        raise AssertionError(f"a {o.result} outcome names no oversight")
    return secs
