"""The claim race: who may make which free action now, and who is first (RULES.md 3.4, 4).

Two tools: :class:`ClaimRace` orders the free actions several seats want to make *now* (the
computer players' self-play, and their declarations in practice); :class:`ClaimWatch` is the
claim protocol of a table played in real time (practice play, matches, the drills, a live table's
server), described below it.

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

import random as _random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from tutor.engine.deal import PLAY, Action, Deal, Oversight, claim_sizes, read_claim_words
from tutor.engine.errors import (
    ActionError,
    AmbiguousAction,
    IllegalAction,
    IncompleteAction,
    InvalidAction,
)
from tutor.engine.reasons import Reason, Seat

__all__ = [
    "ClaimRace",
    "ClaimWatch",
    "Entry",
    "Outcome",
    "Reaction",
    "Watched",
    "open_to",
    "HIT",
    "FALSE_CLAIM",
    "TOO_LATE",
    "UNREAD",
    "INCOMPLETE",
    "AMBIGUOUS",
]


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
            raise IllegalAction(f"an entry for player {seat} names player {action.player}'s action")
        if action.kind not in ("claim", "take_table_mournival") and not action.kind.startswith(
            "declare"
        ):
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


# -- the claim protocol of a table played in real time -------------------------------------------

#: What a claim came to (:attr:`Outcome.result`): it took the cards; it named nothing claimable
#: (a false claim); it named an oversight someone else took first, or that lapsed, before it
#: came; it could not be read (never graded); it named some but not all of the cards; it fits
#: several oversights (``candidates`` lists the claims it could be).
HIT, FALSE_CLAIM, TOO_LATE = "hit", "false_claim", "too_late"
UNREAD, INCOMPLETE, AMBIGUOUS = "unread", "incomplete", "ambiguous"


class Reaction(NamedTuple):
    """How a computer player claims: a reaction time uniform from ``low`` to ``high`` seconds
    after the oversight became claimable, and ``miss``, the probability (0-1) that it never
    claims that oversight at all (:data:`tutor.engine.levels.LEVELS` gives one per level)."""

    low: float
    high: float
    miss: float = 0.0

    def paced(self, pace: float, usual: float = 1.0) -> Reaction:
        """This reaction at a table whose computer players move ``pace`` seconds after their
        turn begins, where ``usual`` seconds is the pace the levels' ranges are set for: the
        range scaled by ``pace / usual``, never longer than the level's own (at pace 0 a
        computer player claims at once, before the next move; it would otherwise never claim
        at all, every oversight closing before its reaction came due)."""
        f = min(1.0, max(0.0, pace) / usual) if usual > 0 else 1.0
        return Reaction(self.low * f, self.high * f, self.miss)

    def draw(self, rng: _random.Random) -> float | None:
        """Seconds until this player claims an oversight, or None when it misses it.  Draws
        twice from ``rng`` whatever the outcome, so that a seed replays every race."""
        missed = rng.random() < self.miss
        seconds = rng.uniform(self.low, self.high)
        return None if missed else seconds


@dataclass
class Watched:
    """One oversight the watch follows: the engine's ``oversight``, ``opened_at`` (clock time it
    became claimable), ``reactions`` (computer seat -> seconds after ``opened_at`` at which it
    claims; a seat that misses it is in ``missed`` instead).  Once it is no longer claimable:
    ``closed_at``, ``how`` (``claimed``, ``lapsed``: fewer of its cards on the table than a claim
    takes, or ``ended``: play ended), and for a claim ``taken_by`` (a seat) and ``taken_at``."""

    oversight: Oversight
    opened_at: float
    reactions: dict[int, float] = field(default_factory=dict)
    missed: set[int] = field(default_factory=set)
    closed_at: float | None = None
    how: str | None = None
    taken_by: int | None = None
    taken_at: float | None = None

    def may_claim(self, seat: int) -> bool:
        """Whether ``seat`` could claim it (RULES.md 3.4: anyone but the one who made the
        mistake)."""
        return seat != self.oversight.offender

    def missed_by(self, seat: int) -> bool:
        """True once it has closed without a claim by ``seat``, who could have claimed it (a
        *miss* of the signal-detection figures)."""
        return self.how is not None and self.may_claim(seat) and self.taken_by != seat

    def rivals(self, but: int | None = None) -> list[tuple[int, float]]:
        """The computer players that were to claim it, ``(seat, seconds)``, fastest first (ties:
        lower seat), leaving out ``but``."""
        return sorted(
            ((q, t) for q, t in self.reactions.items() if q != but), key=lambda x: (x[1], x[0])
        )


class Outcome(NamedTuple):
    """What one claim came to.  ``seat`` claimed, arriving at clock time ``at``; ``result`` is
    one of :data:`HIT`, :data:`FALSE_CLAIM`, :data:`TOO_LATE`, :data:`UNREAD`,
    :data:`INCOMPLETE`, :data:`AMBIGUOUS`; ``action`` the claim (applied to the deal for a hit);
    ``watched`` the oversight it named (hit and too late; None otherwise); ``reason`` the
    engine's :class:`~tutor.engine.reasons.Reason` (every result but a hit; a screen says it
    with :meth:`~tutor.engine.reasons.Reason.words`); ``candidates`` the claims an ambiguous or
    incomplete claim could be."""

    seat: int
    at: float
    result: str
    action: Action | None = None
    watched: Watched | None = None
    reason: Reason = Reason("")
    candidates: tuple[Action, ...] = ()

    @property
    def seconds(self) -> float | None:
        """Seconds from the moment the oversight became claimable to this claim's arrival
        (hit and too late), else None."""
        return None if self.watched is None else self.at - self.watched.opened_at

    @property
    def graded(self) -> bool:
        """Whether the claim counts: a hit, a false claim or one too late (an unreadable,
        incomplete or ambiguous claim is asked again, never graded)."""
        return self.result in (HIT, FALSE_CLAIM, TOO_LATE)


class ClaimWatch:
    """The claim protocol: the referee of every claim at a table played in real time (RULES.md
    3.4 and 4; Willughby: "whatever is overseen is his that can catch it first").

    The watch is told, after every action of ``deal``, the clock time (:meth:`update`): each
    oversight that has just become claimable is *opened* at that moment, and each computer
    player of ``computers`` (seat -> :class:`Reaction`) draws from ``rng`` whether it will claim
    it and after how long; one that is no longer claimable is *closed* (returned by
    :meth:`update`, with who took it).  Claims then arrive in time order:

    - a computer player's at its scheduled time (:meth:`due`, :meth:`advance`);
    - a person's when their intent reaches the referee (:meth:`arrive`): what they typed (the
      cards, the rank, the words the lessons use: :meth:`Deal.parse_claim`) or an
      :class:`~tutor.engine.deal.Action`, and the clock time it came.  Every computer claim due
      before it is decided first; at the same moment the lower seat comes first (as in
      :class:`ClaimRace`).

    The first claim of an open oversight takes the cards (the watch applies it to the deal); a
    claim of an oversight already taken, or lapsed, is *too late*; a claim that names nothing
    claimable is a *false claim* and changes nothing (the claimant may still claim a real one);
    the reasons are the engine's.  The watch never reads a clock: a terminal passes its clock's
    time, a test a fake one, a server its own on each message's arrival, for any number of
    seats.  ``humans`` (seats played by people) are only named so that :attr:`closed` can say
    whom each oversight was missed by.

    Driving it (a terminal's deal player does the same as a server): after applying any
    action, ``update(now)`` (its closed oversights: misses for the people who could claim);
    before applying a turn action that arrives at ``t``, ``advance(t)`` (claims due before it
    come first); a timer for ``next_due()`` that calls ``advance(now)``; each claim message
    ``arrive(seat, text, t)``, its outcomes said to every seat (a hit is public) and a false
    claim or one too late to its claimant.  :attr:`open` and the scheduled claims hold what
    no client may be told (which oversights are open): a server keeps them.
    """

    def __init__(
        self,
        deal: Deal,
        computers: Mapping[int, Reaction] | None = None,
        rng: _random.Random | None = None,
        humans: Iterable[int] = (),
    ):
        self.deal = deal
        self.computers = dict(computers or {})
        self.rng = rng if rng is not None else _random.Random(0)
        self.humans = tuple(humans)
        #: The oversights open now, by the engine's :class:`~tutor.engine.deal.Oversight`.
        self.open: dict[Oversight, Watched] = {}
        #: Every oversight closed so far, in the order they closed.
        self.closed: list[Watched] = []
        #: Every graded claim decided so far, in order (computer players' hits included).
        self.outcomes: list[Outcome] = []
        self._fired: set[tuple[Oversight, int]] = set()
        self._unsaid: list[Watched] = []

    # -- after every action ------------------------------------------------------------------

    def update(self, now: float) -> list[Watched]:
        """Follow the deal as it stands at clock time ``now``: open the oversights that have
        become claimable (scheduling the computer players' claims), close those that no longer
        are.  Returns the oversights closed since the last call (including by claims this watch
        decided), in order."""
        self._sync(now)
        out, self._unsaid = self._unsaid, []
        return out

    def _sync(self, now: float) -> None:
        current = self.deal.open_oversights()
        live = set(current)
        for ov in list(self.open):
            if ov not in live:
                self._close(self.open.pop(ov), now)
        for ov in current:
            if ov not in self.open:
                w = Watched(ov, now)
                for seat in sorted(self.computers):
                    if seat == ov.offender:
                        continue
                    t = self.computers[seat].draw(self.rng)
                    if t is None:
                        w.missed.add(seat)
                    else:
                        w.reactions[seat] = t
                self.open[ov] = w

    def _close(self, w: Watched, now: float) -> None:
        d = self.deal
        last = d.history[-1] if d.history else None
        if w.taken_by is None and last is not None and w.oversight.taken_by(last):
            w.taken_by, w.taken_at = last.player, now
        w.closed_at = now
        w.how = "claimed" if w.taken_by is not None else "lapsed" if d.phase == PLAY else "ended"
        self.closed.append(w)
        self._unsaid.append(w)

    # -- computer players ----------------------------------------------------------------------

    def due(self) -> list[tuple[float, int, Oversight]]:
        """The computer players' claims still to come on the open oversights: ``(clock time,
        seat, oversight)``, earliest first (ties: lower seat first)."""
        out = [
            (w.opened_at + t, q, ov)
            for ov, w in self.open.items()
            for q, t in w.reactions.items()
            if (ov, q) not in self._fired
        ]
        out.sort(key=lambda x: (x[0], x[1]))
        return out

    def next_due(self) -> float | None:
        """The clock time of the next computer player's claim, or None."""
        due = self.due()
        return due[0][0] if due else None

    def advance(self, now: float, *, before: tuple[float, int] | None = None) -> list[Outcome]:
        """Decide every computer player's claim due at or before clock time ``now`` (with
        ``before`` ``(at, seat)``: only those that come before a claim of ``seat`` arriving at
        ``at``), in order; each that finds its oversight still open takes it.  Returns their
        outcomes (hits)."""
        out: list[Outcome] = []
        while True:
            due = self.due()
            if not due:
                return out
            at, seat, ov = due[0]
            if at > now or (before is not None and (at, seat) >= before):
                return out
            self._fired.add((ov, seat))
            w = self.open.get(ov)
            if w is None:
                continue
            action = self.deal.claim_action(seat, ov)
            if self.deal.why_illegal(action) is not None:
                continue
            out.append(self._take(seat, at, action, w))

    # -- people ---------------------------------------------------------------------------------

    def arrive(
        self, seat: int, claim: str | Action, at: float, *, blind: bool = False
    ) -> list[Outcome]:
        """A person's claim: ``seat`` claims ``claim`` (what they typed, with or without
        ``claim`` before it, or an :class:`~tutor.engine.deal.Action`), arriving at clock time
        ``at``.  Decides first every computer player's claim due before it (:meth:`advance`),
        then this one; returns their outcomes in order, this claim's last (see
        :class:`Outcome`).  A typed claim must name cards or a rank.

        With ``blind`` (a referee whose players do not see the deal: a live table's server)
        the outcome says nothing of what is open beyond whether the claim took cards: a claim
        naming a number of cards that no claim of the ruleset takes is :data:`INCOMPLETE`
        whatever is open; one naming some but not all of the cards of an open oversight is a
        :data:`FALSE_CLAIM` with the reason it gets with nothing open (and never
        :data:`TOO_LATE`: only a whole claim names an oversight that has closed); one that fits
        several open oversights takes the first of them (never :data:`AMBIGUOUS`, which would
        say that several are open).  Every person's claim is judged blind, at a live table and
        in practice play alike (issue 30); the default is for the engine's own tests."""
        out = self.advance(at, before=(at, seat))
        out.append(self._judge(seat, claim, at, blind))
        return out

    def _judge(self, seat: int, claim: str | Action, at: float, blind: bool = False) -> Outcome:
        d = self.deal
        try:
            if isinstance(claim, Action):
                if claim.player != seat or claim.kind != "claim":
                    raise IllegalAction(f"a claim of player {seat} must be player {seat}'s claim")
                why = d.why_illegal(claim)
                if why is not None:
                    raise IllegalAction(why)
                action = claim
            else:
                if blind:
                    self._whole(claim)
                action = d.parse_claim(claim, seat, named=True, blind=blind)
        except InvalidAction as exc:
            return Outcome(seat, at, UNREAD, reason=exc.reason)
        except IncompleteAction as exc:
            return Outcome(seat, at, INCOMPLETE, reason=exc.reason, candidates=exc.candidates)
        except AmbiguousAction as exc:
            if not blind:
                return Outcome(seat, at, AMBIGUOUS, reason=exc.reason, candidates=exc.candidates)
            action = exc.candidates[0]
        except IllegalAction as exc:
            return self._refused(seat, claim, at, exc.reason, blind)
        w = next((w for ov, w in self.open.items() if ov.taken_by(action)), None)
        if w is None:  # cannot happen for a legal claim: the deal knows the oversight
            return self._refused(seat, claim, at, Reason("no open oversight takes that claim"))
        return self._take(seat, at, action, w)

    def _whole(self, text: str) -> None:
        """Raise :class:`~tutor.engine.errors.IncompleteAction` (no candidates) when ``text``
        names cards, but not as many as any claim of the ruleset takes (read without looking
        at the position)."""
        try:
            words = read_claim_words(text)
        except ActionError:
            return  # parse_claim says why
        if words.cards and len(words.cards) not in claim_sizes(self.deal.ruleset, words.kinds):
            raise IncompleteAction(
                "which cards? a claim names all the cards it takes, or their rank", text
            )

    def _refused(
        self, seat: int, claim: str | Action, at: float, reason: Reason, blind: bool = False
    ) -> Outcome:
        """A claim that takes nothing: too late when it names an oversight that was open to
        ``seat`` and has closed (with ``blind``, by all the cards its claim takes or its rank),
        else a false claim."""
        kinds: Iterable[str | None]
        if isinstance(claim, Action):
            cards, rank, kinds = claim.cards, None, {claim.oversight}
        else:
            try:
                words = read_claim_words(claim)
            except ActionError:
                words = None
            cards, rank, kinds = (words.cards, words.rank, words.kinds) if words else ((), None, ())
        for w in reversed(self.closed):
            if blind and cards and len(cards) != w.oversight.take:
                continue
            if (
                w.may_claim(seat)
                and w.oversight.named_by(cards, rank, kinds)
                and (w.closed_at is not None and w.closed_at <= at)
            ):
                out = Outcome(seat, at, TOO_LATE, None, w, _too_late(w, at))
                break
        else:
            out = Outcome(
                seat, at, FALSE_CLAIM, claim if isinstance(claim, Action) else None, reason=reason
            )
        self.outcomes.append(out)
        return out

    def _take(self, seat: int, at: float, action: Action, w: Watched) -> Outcome:
        self.deal.apply(action)
        w.taken_by, w.taken_at = seat, at
        self._fired.update((w.oversight, q) for q in w.reactions)
        out = Outcome(seat, at, HIT, action, w)
        self.outcomes.append(out)
        self._sync(at)
        return out


def _too_late(w: Watched, at: float) -> Reason:
    """Why a claim of ``w`` arriving at clock time ``at`` took nothing."""
    if w.how == "claimed":
        assert w.taken_by is not None  # a claimed oversight has its taker
        return Reason(
            "{taker} claimed it first, "
            + f"{max(0.0, at - (w.taken_at or at)) * 1000:,.0f}"
            + " ms before this claim",
            code="claimed_first",
            taker=Seat(w.taken_by),
        )
    if w.how == "ended":
        return Reason(
            "play ended before this claim: an unclaimed oversight lapses with it", code="play_ended"
        )
    return Reason(
        "it lapsed before this claim: fewer of its cards are on the table than a claim takes",
        code="lapsed",
    )
