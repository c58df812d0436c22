"""Who sits at a live table: its settings, its seats, people joining and leaving (a part of
:class:`tutor.app.tables.table.Table`: the seats, the outbox and the clock are the table's)."""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from tutor.app.tables._shape import EVERYONE, LOG, PUBLIC, STATE, _TableState
from tutor.app.tables.protocol import COMPUTER, Refused
from tutor.engine.levels import Level
from tutor.engine.rulesets import Ruleset
from tutor.engine.seats import SEAT_NAMES

__all__ = ["EVERYONE", "LOG", "PUBLIC", "STATE", "Joined", "SeatState", "Seating", "Settings",
           "bot_name"]


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
    player's); ``livery`` the person's club or livery company, if they gave one."""

    name: str | None = None
    token: str | None = None
    connected: bool = False
    gone_since: float | None = None
    incoming: str | None = None
    incoming_token: str | None = None
    stood_in: int = 0
    since: int = 0
    livery: str | None = None


@dataclass(frozen=True)
class Joined:
    """A join taken: the ``seat``, the ``token`` that takes it back, ``now`` False when the
    person takes the seat only at the next deal, ``back`` True when they took back their own."""

    seat: int
    token: str
    now: bool
    back: bool


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
        """A person joins.  With ``token``: takes back exactly the seat that token belongs to,
        under the name it was given (``name`` None: that name; tokens are compared in constant
        time, each seat's);
        without: is drawn a free seat (at once between deals, else from the next deal: a
        computer player keeps it until then).  A name alone never takes a seat that has a
        token: only the token does (or the organiser, who can release a seat,
        :meth:`release`).  ``livery`` (a club's or livery company's name, shown on the sheets
        and the standings) is kept with the seat.  Raises
        :class:`~tutor.app.tables.protocol.Refused` with the reason."""
        if token is not None:
            q, incoming = self._token_seat(token)
            if q is None:
                raise Refused("that token takes back no seat at this table")
            st = self.seats[q]
            holder = st.incoming if incoming else st.name
            if name is not None and (holder or "").casefold() != name.casefold():
                raise Refused(f"that token takes back the seat of {holder}: join as {holder}")
            st.connected, st.gone_since = True, None
            if livery and not st.livery:
                st.livery = livery
            self._say(EVERYONE, f"{holder} is back at the table.")
            self._log("back", f"{holder} is back at seat {q}", seat=q)
            self.changed = True
            return Joined(q, token, not incoming, True)
        if name is None:
            raise Refused("name: 1 to 24 characters (only a token takes a seat without one)")
        low = name.casefold()
        for q, st in enumerate(self.seats):
            if low not in ((st.name or "").casefold(), (st.incoming or "").casefold()):
                continue
            if st.token is not None or st.incoming_token is not None:
                raise Refused(f"a seat at this table is kept for {name}: it is taken back with "
                              "the token the first join gave (--token), or choose another name")
            # a seat the organiser released: its person takes it back with a new token
            tok = self._token()
            if st.incoming is not None:
                st.incoming_token = tok
            else:
                st.token = tok
            st.connected, st.gone_since = True, None
            self._say(EVERYONE, f"{name} is back at the table.")
            self._log("back", f"{name} is back at seat {q} (a seat the organiser released)",
                      seat=q)
            self.changed = True
            return Joined(q, tok, st.incoming is None, True)
        reserved = self.reserved_for(name)
        free = [q for q, st in enumerate(self.seats) if st.name is None and st.incoming is None
                and (reserved is None or q == reserved)
                and (reserved is not None or q not in self.reserved_seats())]
        if not free:
            raise Refused("this table is full: every seat is taken")
        q = self.rng.choice(free)
        st = self.seats[q]
        tok = self._token()
        st.livery = livery
        if self.playing:
            st.incoming, st.incoming_token, st.connected = name, tok, True
            self._say(EVERYONE, f"{name} joins and takes seat {q} from the next deal.")
            self._log("joined", f"{name} joins{_of(livery)}, seat {q} from the next deal",
                      seat=q)
            self.changed = True
            return Joined(q, tok, False, False)
        st.name, st.token, st.connected, st.gone_since = name, tok, True, None
        st.since = len(self.match.deals)
        self._say(EVERYONE, f"{name} takes seat {q}.")
        self._log("joined", f"{name} joins{_of(livery)} and takes seat {q}", seat=q)
        self._seated_now(now)
        self.changed = True
        return Joined(q, tok, True, False)

    def _token_seat(self, token: str) -> tuple[int | None, bool]:
        """The seat ``token`` belongs to and whether it is an incoming person's, every seat's
        tokens compared in constant time (no early exit: the time says nothing of which)."""
        given = token.encode("utf-8", "surrogatepass")
        found: tuple[int | None, bool] = (None, False)
        for q, st in enumerate(self.seats):
            for tok, incoming in ((st.token, False), (st.incoming_token, True)):
                ok = hmac.compare_digest(given, (tok or "\0" * len(token)).encode(
                    "utf-8", "surrogatepass"))
                if ok and tok is not None:
                    found = (q, incoming)
        return found

    def release(self, seat: int) -> str:
        """The organiser releases ``seat``: its token no longer takes it back, and its person
        takes it back by name alone (with a new token), say after losing the token.  Returns
        who sat there.  Raises Refused when nobody does."""
        if not 0 <= seat < len(self.seats):
            raise Refused(f"seat: from 0 to {len(self.seats) - 1}")
        st = self.seats[seat]
        who = st.name or st.incoming
        if who is None:
            raise Refused(f"nobody sits at seat {seat} of table {self.number}")
        st.token = st.incoming_token = None
        self.changed = True
        return who

    def _first_dealer_name(self) -> str | None:
        names = self.settings.first_dealers
        k = self.number - 1
        return names[k] if k < len(names) and names[k] else None

    def reserved_for(self, name: str) -> int | None:
        """The seat kept for ``name`` when the organiser named them this table's first dealer
        (the Team Leader of the Inter-Livery sheet: "The Team Leader will be the first
        dealer"), while it is free; else None."""
        lead = self._first_dealer_name()
        if lead is not None and lead.casefold() == name.casefold():
            q = self.match.first
            st = self.seats[q]
            if st.name is None and st.incoming is None:
                return q
        return None

    def reserved_seats(self) -> set[int]:
        """The seat kept free for a named first dealer who has not come yet (nobody else is
        drawn it)."""
        if self._first_dealer_name() is None:
            return set()
        q = self.match.first
        st = self.seats[q]
        return {q} if st.name is None and st.incoming is None else set()

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

    def leave(self, seat: int, now: float) -> None:
        """The person at ``seat`` has gone (left or lost the connection): their seat stays
        theirs; their turns wait ``wait`` seconds, then a computer player moves for them."""
        st = self.seats[seat]
        if not st.connected:
            return
        st.connected = False
        st.gone_since = now
        who = st.name or st.incoming or "A player"
        if st.name is not None and not self.match.is_over:     # (after it: everyone goes)
            self._say(EVERYONE, f"{who} has left the table: their turns wait "
                                f"{self.settings.wait:g} s, then a computer player moves for "
                                "them.")
        self._log("left", f"{who} has left seat {seat}", seat=seat)
        self.changed = True
