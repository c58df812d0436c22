"""The claim race: who may make which free action now, and who is first (RULES.md 3.4, 4).

Willughby: "whatever is overseen is his that can catch it first".  After every action, any seat
may make a free action: claim an open oversight, declare from hand (under ``hand_plays: free``),
or, for the dealer before play, take a table mournival.  Several seats may want to act at the same
moment; the race orders them by reaction time, and the first takes the cards.  The same protocol
serves computer self-play (seeded reaction times) and interactive play (the learner's time read
from a clock):

>>> race = ClaimRace(deal)                     # doctest: +SKIP
>>> race.enter(2, action, seconds=0.8)         # each seat that wants to act, with its time
>>> race.enter(0, other, seconds=1.3)
>>> race.winner()                              # -> Entry(seat=2, action, seconds=0.8)

Ties in time go to the lower seat number, so that a seeded race is reproducible.  The engine
checks every entry (:meth:`ClaimRace.enter` refuses an illegal one with the reason); applying the
winner's action is the caller's (:meth:`ClaimRace.settle` does it), after which the others'
entries may no longer be legal: open a new race.
"""

from __future__ import annotations

from typing import NamedTuple

from tutor.engine.deal import Action, Deal
from tutor.engine.errors import IllegalAction

__all__ = ["ClaimRace", "Entry", "open_to"]


class Entry(NamedTuple):
    """One seat's entry in a race: the free ``action`` it makes and its reaction time in
    ``seconds`` after the race opened."""

    seat: int
    action: Action
    seconds: float


def open_to(deal: Deal) -> dict[int, list[Action]]:
    """Who may make which free action now: seat -> its free actions (claims, free declarations,
    the dealer's taking of a table mournival), for every seat that has any.  Empty once play has
    ended."""
    if not deal.free_pending():
        return {}
    out = {}
    for seat in range(deal.n):
        acts = deal.free_actions(seat)
        if acts:
            out[seat] = acts
    return out


class ClaimRace:
    """One race for the free actions open after an action of ``deal``.

    Enter each seat that wants to act (:meth:`enter`); :meth:`winner` is the fastest entry,
    :meth:`margin` how far ahead of the next it was, in seconds.
    """

    def __init__(self, deal: Deal):
        self.deal = deal
        self.entries: list[Entry] = []

    def enter(self, seat: int, action: Action, seconds: float, checked: bool = True) -> Entry:
        """Enter ``seat`` with ``action`` after ``seconds`` (a number ≥ 0).

        With ``checked`` (the default) the action must be a legal free action of that seat now;
        raises :class:`~tutor.engine.errors.IllegalAction` with the reason otherwise (without it,
        the caller vouches for the action: a computer player's pick from ``free_actions``).  A
        seat enters once; a second entry replaces the first.
        """
        if not checked:
            entry = Entry(seat, action, seconds)
            self.entries.append(entry)
            return entry
        if action.player != seat:
            raise IllegalAction(f"an entry for player {seat} names player {action.player}'s "
                                "action")
        if action.kind not in ("claim", "take_table_mournival") and not action.kind.startswith(
                "declare"):
            raise IllegalAction(f"{action.kind} is a turn, not a free action")
        why = self.deal.why_illegal(action)
        if why is not None:
            raise IllegalAction(why)
        if seconds < 0:
            raise IllegalAction("a reaction time is a number of seconds of at least 0")
        self.entries = [e for e in self.entries if e.seat != seat]
        entry = Entry(seat, action, float(seconds))
        self.entries.append(entry)
        return entry

    def order(self) -> list[Entry]:
        """The entries, fastest first (ties: lower seat first)."""
        return sorted(self.entries, key=lambda e: (e.seconds, e.seat))

    def winner(self) -> Entry | None:
        """The fastest entry, or None when nobody entered."""
        if not self.entries:
            return None
        return min(self.entries, key=lambda e: (e.seconds, e.seat))

    def margin(self) -> float | None:
        """Seconds between the winner and the next entry (None with fewer than two entries)."""
        order = self.order()
        return order[1].seconds - order[0].seconds if len(order) > 1 else None

    def settle(self) -> Entry | None:
        """Apply the winner's action to the deal and return the winning entry (None when nobody
        entered)."""
        w = self.winner()
        if w is not None:
            self.deal.apply_unchecked(w.action)
        return w
