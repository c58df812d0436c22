"""Who sits at a live table: its settings, its seats, people joining and leaving (a part of
:class:`tutor.app.tables.table.Table`: the seats, the outbox and the clock are the table's)."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.app.tables.protocol import COMPUTER, Refused
from tutor.engine.levels import Level
from tutor.engine.rulesets import Ruleset
from tutor.engine.seats import SEAT_NAMES

__all__ = ["EVERYONE", "PUBLIC", "STATE", "Joined", "SeatState", "Seating", "Settings",
           "bot_name"]

#: Targets of the outbox besides a seat number: every connection at the table, and the
#: spectators only (people waiting for a seat, the organiser).
EVERYONE, PUBLIC = "everyone", "public"
#: An outbox entry holding the states of one moment (``views``: seat or None -> observation).
STATE = "state"


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
    return f"{SEAT_NAMES[seat % len(SEAT_NAMES)]} {COMPUTER}"



class Seating:
    """The seats' half of :class:`~tutor.app.tables.table.Table` (which sets ``seats``,
    ``settings``, ``rng``, ``deal``, ``match``, ``next_deal_at``, ``changed``, ``playing``,
    and ``_say`` to its outbox)."""

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
