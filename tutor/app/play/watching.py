"""The learner's watch in a practice deal: a claim may be made at any moment, whether or not
anything is claimable (a part of :class:`tutor.app.play.practice_deal.DealPlayer`).

Every claim is refereed by the engine's claim protocol (:class:`tutor.engine.race.ClaimWatch`):
it is told, after every action, the clock time, so each oversight is timed from the moment it
became claimable; the computer players' claims are scheduled from their level's reaction times
(a careless level misses some altogether) and come as events during the learner's prompts; the
learner's claim arrives when they have *named* the cards (or the rank) and pressed Enter.  The
first to arrive takes the cards.  A claim that names nothing claimable is a false claim: said at
once, recorded, and the learner may still claim a real one.

Every claim is judged blind, as a live table's server judges it (issue 30): a naming of some but
not all of an oversight's cards is a false claim with the reason it gets when nothing is open,
and one that fits several takes the first, so no reply depends on what is open.  A claim made
after a ``hint`` in the deal is said to be "with a hint" and counts in no figure (no hit, false
claim or answer in the progress store, so in no best or rating).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text

from tutor.app.play.inputs import Intent
from tutor.app.play.mistakes import (
    FALSE_CLAIM,
    HIT,
    MISS,
    Mistake,
    Opportunity,
    Race,
    Sighting,
    claim_words,
    false_claim_mistake,
    missed_claim,
)
from tutor.app.play.prompting import NO_CLAIM
from tutor.engine import race as R
from tutor.puzzles.board import action_text

if TYPE_CHECKING:
    from tutor.engine.deal import Action, Deal
    from tutor.teaching.io import Clock, Event, LearnerIO

__all__ = ["Watching"]


class Watching:
    """The watch's half of :class:`~tutor.app.play.practice_deal.DealPlayer`, which fills the state
    declared here (so that this half is checked against one shape) and defines the two methods
    declared for the checker only (:meth:`_choose`, :meth:`_fresh`)."""

    deal: Deal
    seat: int  # the learner's
    io: LearnerIO
    clock: Clock  # ``io``'s: every claim is timed by it
    names: list[str]  # one a seat
    symbols: bool
    watch: R.ClaimWatch
    races: list[Race]
    mistakes: list[Mistake]
    opportunities: list[Opportunity]
    sightings: list[Sighting]
    hints: int  # hints asked for this deal
    _set_aside: bool  # a table mournival is set aside (the deal's game)

    if TYPE_CHECKING:

        def _choose(self, intent: Intent) -> Action | None: ...  # DealPlayer
        def _fresh(self) -> None: ...  # DealPlayer

    @property
    def piped(self) -> bool:
        """True when nobody types at a terminal (no real time: no answer time is measured)."""
        return bool(self.clock.piped)

    # -- time and the computer players' claims -----------------------------------------------

    def _sync(self) -> None:
        """Tell the watch the deal as it stands now; note each oversight that has closed
        without the learner's claim as a miss."""
        for w in self.watch.update(self.clock.now()):
            if w.missed_by(self.seat):
                self._missed(w)

    def _events(self) -> list[Event]:
        """The computer players' claims still to come, as events of a read: each, when its time
        comes, is decided (and shown above the prompt, which stays open)."""

        def fire(at: float) -> Callable[[], bool]:
            def run() -> bool:
                self._show(self.watch.advance(at))
                self._fresh()  # a claim while the prompt is open: the table again
                return False

            return run

        return [(at, fire(at)) for at, _, _ in self.watch.due()]

    def _let_time_pass(self, seconds: float) -> None:
        """Without real time (piped input, a test's clock): ``seconds`` pass by the clock, and
        the computer players' claims due meanwhile are decided."""
        if seconds > 0:
            self.clock.sleep(seconds)
        self._show(self.watch.advance(self.clock.now()))

    # -- the learner's claim -----------------------------------------------------------------

    def _claim(self, text: str, at: float) -> bool:
        """The learner claims what ``text`` names (the cards or the rank), named at clock time
        ``at`` (the naming asked, and Enter taking the claim back, by the one prompt loop:
        :meth:`tutor.app.play.prompting.PromptLoop.claim_line`).  True when the naming is to be
        asked again (unreadable or incomplete: never graded); a claim that fits several
        oversights is asked which."""
        outs = self.watch.arrive(self.seat, text, at, blind=True)
        self._show(outs, typed=text)
        last = outs[-1]
        if last.result in (R.UNREAD, R.INCOMPLETE):
            self.io.say(claim_words(last, self.seat, self.names), style="yellow")
            return True
        if last.result == R.AMBIGUOUS:
            self._claim_one_of(last)
        return False

    def _claim_one_of(self, out: R.Outcome) -> None:
        """A claim that fits several oversights: the learner picks one (the time runs on)."""
        picked = self._choose(
            Intent(
                "actions",
                actions=list(out.candidates),
                message=out.reason.words(self.seat, self.names),
                claim=True,
            )
        )
        if picked is None:
            self.io.say(NO_CLAIM, style="dim")
            return
        self._show(self.watch.arrive(self.seat, picked, self.clock.now()), typed=picked.notation())

    # -- outcomes -------------------------------------------------------------------------------

    def _show(self, outs: list[R.Outcome], typed: str = "") -> None:
        """Say what each decided claim came to, and keep its figures."""
        for o in outs:
            if o.result == R.HIT:
                self._hit(o)
            elif o.result == R.FALSE_CLAIM:
                self.io.say(claim_words(o, self.seat, self.names), style="yellow")
                idx = len(self.deal.history)
                if not self.hints:  # after a hint a claim counts in no figure
                    self.sightings.append(Sighting(FALSE_CLAIM, "", None, idx))
                self.mistakes.append(
                    false_claim_mistake(
                        typed, o.reason.words(self.seat, self.names, capital=True), idx
                    )
                )
            elif o.result == R.TOO_LATE:
                self.io.say(claim_words(o, self.seat, self.names), style="yellow")
        if outs:
            self._sync()

    def _hit(self, o: R.Outcome) -> None:
        d, w, a, secs = self.deal, o.watched, o.action, o.seconds
        if w is None or a is None or secs is None:
            raise AssertionError("a hit names its claim and its oversight")
        t = Text("  ")
        t.append_text(action_text(a, self.names, self.seat, self.symbols, self._set_aside))
        self.io.show(t)
        mine = o.seat == self.seat
        rivals = w.rivals(but=o.seat)
        runner = rivals[0] if rivals else None
        ov = w.oversight
        r = Race(
            len(d.history) - 1,
            ov.kind,
            a.cards,
            ov.offender,
            dict(w.reactions),
            secs if mine else None,
            w.may_claim(self.seat),
            o.seat,
            secs,
            runner[0] if runner else None,
            runner[1] - secs if runner else None,
            self.piped,
            hinted=mine and self.hints > 0,
        )
        self.races.append(r)
        self.io.say("    " + self.race_line(r), style="dim")
        if mine and not r.hinted:  # a claim after a hint counts in no figure
            timed = None if self.piped else secs
            self.opportunities.append(
                Opportunity("spot-oversight", (ov.kind,), True, timed, ov.index)
            )
            self.sightings.append(Sighting(HIT, ov.kind, timed, ov.index))

    def _missed(self, w: R.Watched) -> None:
        ov = w.oversight
        self.opportunities.append(Opportunity("spot-oversight", (ov.kind,), False, None, ov.index))
        self.sightings.append(Sighting(MISS, ov.kind, None, ov.index))
        self.mistakes.append(missed_claim(w, self.names, self.symbols))

    def race_line(self, r: Race) -> str:
        """Who was first to the claim, in how long, and by how much."""

        def name(q: int) -> str:
            return "you" if q == self.seat else self.names[q]

        if r.winner == self.seat and r.hinted:
            return (
                "You claimed first, with a hint this deal: the claim counts in no figure, "
                "best or rating."
            )
        if r.winner == self.seat:
            if r.piped:
                head = "You claimed first (piped input: no real time, your line is read first)"
                others = sorted(r.reactions.items(), key=lambda x: x[1])
                if others:
                    head += "; " + ", ".join(
                        f"{self.names[q]} would have claimed in {t:.2f} s" for q, t in others
                    )
                return head + "."
            # the timing said last, in brackets: a line wrapped before "Enter" never reads as
            # a key to press ("Enter; no computer player ...")
            head = f"You claimed first, in {r.learner or 0:.2f} s"
            timed = " (timed from the moment it could be claimed until you pressed Enter)."
            if r.runner_up is not None:
                return (
                    head + f": {r.margin:.2f} s ahead of {name(r.runner_up)}, who took "
                    f"{r.reactions.get(r.runner_up, 0):.2f} s" + timed
                )
            return head + ", and no computer player was going to claim it" + timed
        head = f"{self.names[r.winner]} claimed first, in {r.window:.2f} s"
        if r.runner_up is not None:
            behind = r.window + (r.margin or 0)
            head += f": {r.margin:.2f} s ahead of {name(r.runner_up)} ({behind:.2f} s)"
        if r.learner_eligible:
            head += "; you did not claim"
        return head + "."
