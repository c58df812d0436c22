"""Who sits at a live table: its settings, its seats, people joining and leaving (a part of
:class:`tutor.app.tables.table.Table`: the seats, the outbox and the clock are the table's)."""

from __future__ import annotations

import hmac
import math
from dataclasses import dataclass

from tutor.app.tables._shape import EVERYONE, LOG, PUBLIC, STATE, _TableState
from tutor.app.tables.protocol import COMPUTER, Refused, WrongSeatCode, code_words
from tutor.engine.levels import Level
from tutor.engine.rulesets import Ruleset
from tutor.engine.seats import SEAT_NAMES

__all__ = ["EVERYONE", "LOG", "PUBLIC", "REJOIN_BURST", "REJOIN_EVERY", "STATE", "Joined",
           "SeatState", "Seating", "Settings", "bot_name"]

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
    ``token`` and no ``name`` is one kept for a named person (:meth:`Seating.keep_named`)."""

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


class Seating(_TableState):
    """The seats' part of :class:`~tutor.app.tables.table.Table` (its state declared by
    :class:`~tutor.app.tables._shape._TableState`)."""

    @property
    def names(self) -> list[str]:
        """Each seat's name: the person's, or a computer player's (:func:`bot_name`)."""
        return [st.name if st.name is not None else bot_name(q)
                for q, st in enumerate(self.seats)]

    def person(self, seat: int) -> bool:
        """True when a person sits at ``seat`` (here or away)."""
        return self.seats[seat].name is not None

    def _computer(self, seat: int) -> bool:
        return self.seats[seat].name is None

    def seated(self, seat: int, name: str) -> bool:
        """True when ``name`` sits at ``seat`` now (not waiting for the next deal)."""
        return self.seats[seat].name == name

    def join(self, name: str | None, token: str | None, now: float,
             livery: str | None = None) -> Joined:
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
            raise Refused("name: 1 to 24 characters (only a seat code takes a seat without "
                          "one)")
        low = name.casefold()
        for st in self.seats:
            if low in ((st.name or "").casefold(), (st.incoming or "").casefold()):
                raise Refused(f"a seat at this table is kept for {name}: it is taken back with "
                              "its seat code (shown when it was taken; the organiser can give "
                              "a new one), or choose another name")
        lead = self._first_dealer_name()
        if lead is not None and lead.casefold() == low and self.reserved_seats():
            raise Refused(f"the seat kept for {lead} is taken with the seat code the organiser "
                          "gives them")
        free = [q for q, st in enumerate(self.seats) if st.name is None and st.incoming is None
                and st.token is None and q not in self.reserved_seats()]
        if not free:
            raise Refused("this table is full: every seat is taken")
        q = self.rng.choice(free)
        return self._seat(q, name, self._token(), now, livery)

    def _seat(self, q: int, name: str, tok: str, now: float, livery: str | None,
              kept: bool = False) -> Joined:
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
            self._log("joined", f"{name} joins{_of(livery)}, seat {q}{how} from the next deal",
                      seat=q)
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
        if holder is None:                  # the seat the organiser kept for a named person
            lead = self._first_dealer_name() or name or "A player"
            if name is not None and name.casefold() != lead.casefold():
                raise Refused(f"that seat code is {lead}'s: join as {lead}")
            return self._seat(q, lead, tok, now, livery, kept=True)
        if name is not None and holder.casefold() != name.casefold():
            raise Refused(f"that seat code takes back the seat of {holder}: join as {holder}")
        wait = self._rejoin_wait(q, now)
        if wait is not None:
            raise Refused(f"seat {q} has been taken back {REJOIN_BURST} times in a short "
                          f"while: try again in {wait} s")
        was = st.connected
        st.connected, st.gone_since, st.left = True, None, False
        if st.given:                        # the code the organiser gave: now used
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
        tokens, last = self.rejoins.get(q, (float(REJOIN_BURST), now))
        tokens = min(float(REJOIN_BURST), tokens + (now - last) / REJOIN_EVERY)
        if tokens < 1:
            self.rejoins[q] = (tokens, now)
            return max(1, math.ceil((1 - tokens) * REJOIN_EVERY))
        self.rejoins[q] = (tokens - 1, now)
        return None

    def _token_seat(self, token: str) -> tuple[int | None, bool]:
        """The seat ``token`` belongs to and whether it is an incoming person's, every seat's
        codes compared in constant time (no early exit: the time says nothing of which); a
        code is read as typed (:func:`~tutor.app.tables.protocol.code_words`)."""
        given = code_words(token).encode("utf-8", "surrogatepass")
        found: tuple[int | None, bool] = (None, False)
        for q, st in enumerate(self.seats):
            for tok, incoming in ((st.token, False), (st.incoming_token, True)):
                ok = hmac.compare_digest(given, code_words(tok or "\0" * len(token)).encode(
                    "utf-8", "surrogatepass"))
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
        if self.deal is None and not self.match.is_over and not s.hold and s.start is None \
                and self.people_seated() >= s.people:
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
        if st.name is not None and not self.match.is_over:     # (after it: everyone goes)
            self._say(EVERYONE, f"{who} has left the table: their turns wait "
                                f"{self.settings.wait:g} s, then a computer player moves for "
                                "them.")
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
            idle = st.gone_since is not None and now - st.gone_since >= self.settings.wait \
                and not st.played
            if st.left or idle:
                self._log("left", f"{st.name}'s seat {q} is free again", seat=q)
                self._free(q)
