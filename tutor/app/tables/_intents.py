"""People's intents at a live table: turn actions, declarations, claims and the dealer's
``ready``, each checked by the engine and answered in one reply (a part of
:class:`tutor.app.tables.table.Table`).

No reply says an oversight is open: a false claim is answered in the same words whatever is
on the table, and the reasons of the engine that would tell (``no open oversight covers ...``)
are never passed on.
"""

from __future__ import annotations

from tutor.app.play.inputs import classify
from tutor.app.tables._shape import EVERYONE, _TableState
from tutor.app.tables.protocol import ClientMessage, Refused
from tutor.engine import race as R
from tutor.engine.cards import pretty_cards
from tutor.engine.deal import Deal
from tutor.engine.errors import AmbiguousAction, IllegalAction, InvalidAction
from tutor.engine.reasons import Reason, false_claim_words

__all__ = ["FALSE_CLAIM_TEXT", "NAME_ALL_TEXT", "Intents", "explain"]

#: Said for a claim that names nothing claimable, whatever is on the table.
FALSE_CLAIM_TEXT = false_claim_words("it counts in your review") + "."
#: Said for a claim that names a number of cards no claim takes (or none), whatever is open.
NAME_ALL_TEXT = "Which cards? A claim names all the cards it takes, or their rank alone."


class Intents(_TableState):
    """The intents' part of :class:`~tutor.app.tables.table.Table` (its state declared by
    :class:`~tutor.app.tables._shape._TableState`)."""

    def ready(self, seat: int, now: float) -> bool:
        """The dealer lets play begin without waiting further; True when play was waiting for
        them."""
        if self.deal is not None and seat == self.deal.dealer and self.before_until > now:
            self.before_until = now
            return True
        return False

    def intent(self, seat: int, msg: ClientMessage, now: float) -> bool:
        """The person at ``seat`` sends ``msg`` (``act``, ``claim`` or ``ready``), arriving at
        clock time ``now``.  Answers go to the outbox; an action named for another seat raises
        :class:`~tutor.app.tables.protocol.Refused` (nothing is done).  Returns True when the
        table took it as a move of the deal (a turn action or declaration applied, a claim that
        took cards, the dealer's ``ready`` while play waited for it): such messages come at the
        deal's own pace, and the server's rate limit does not count them."""
        if msg.action is not None and msg.action.player != seat:
            raise Refused(f"that action is for seat {msg.action.player}; you sit at seat {seat}")
        self.tick(now, before=True, most=1 << 30)       # every earlier event first, however many
        self.cause = [seat, msg.seq]
        if msg.type == "ready":
            taken = self.ready(seat, now)
            self._reply(seat, msg, True, "")
        elif not self.playing:
            taken = False
            self._reply(seat, msg, False, "No deal is being played now: the next one begins "
                                          "shortly.")
        elif msg.type == "claim" or (msg.text is not None and _is_claim(msg.text)) or (
                msg.action is not None and msg.action.kind == "claim"):
            taken = self._claim(seat, msg, now)
        else:
            taken = self._act(seat, msg, now)
        self.tick(now)
        return taken

    def _act(self, seat: int, msg: ClientMessage, now: float) -> bool:
        d = self._live
        names = self.names
        a = msg.action
        if a is not None:
            why = d.why_illegal(a)
            if why is not None:
                self._reply(seat, msg, False, explain(why, seat, names) + ".")
                return False
        else:
            try:
                a = d.parse_action(msg.text or "", seat)      # (read_client: text or action)
            except AmbiguousAction as exc:          # IncompleteAction too: the choices follow
                self._reply(seat, msg, False,
                            exc.reason.words(seat, names, choices=False, capital=True),
                            [c.notation() for c in exc.candidates])
                return False
            except (InvalidAction, IllegalAction) as exc:
                self._reply(seat, msg, False, explain(exc.reason, seat, names) + ".")
                return False
        self._apply(a, now)
        self._reply(seat, msg, True, "")
        return True

    def _claim(self, seat: int, msg: ClientMessage, now: float) -> bool:
        """A person's claim, refereed by the watch on its arrival (blind: the answer says
        nothing of what is open but whether it took cards); True when it took cards.  A claim
        before play begins is refereed like any other (nothing is claimable yet)."""
        d = self._live
        if not d.ruleset.oversights:
            self._reply(seat, msg, False, "This ruleset lists no oversights: there is never "
                                          "anything to claim.")
            return False
        action, text = msg.action, msg.text or ""       # (read_client: text or action)
        claim = action if action is not None else _claim_words(text)
        outs = self._watch.arrive(seat, claim, now, blind=True)
        for o in outs[:-1]:
            self._race_line(o)
        last = outs[-1]
        if last.result == R.HIT:
            self._race_line(last)
            self._reply(seat, msg, True, f"You claimed first, {_ms(_seconds(last))} after it "
                                         "could be claimed (the server's clock, on arrival).")
        elif last.result == R.FALSE_CLAIM:
            self.notes[seat].false_claims.append(
                (action.notation() if action is not None else text, len(d.history)))
            self._reply(seat, msg, False, FALSE_CLAIM_TEXT)
        elif last.result == R.TOO_LATE:
            self._reply(seat, msg, False, f"Too late: {explain(last.reason, seat, self.names)}.")
            self._lost_race_line(last)
        elif last.result == R.UNREAD:
            self._reply(seat, msg, False, explain(last.reason, seat, self.names) + ".")
        else:                                   # INCOMPLETE: the same whatever is open
            self._reply(seat, msg, False, NAME_ALL_TEXT)
        if outs and any(o.result == R.HIT for o in outs):
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
            return ("A hint answers your move when it is your turn (a claim is yours to "
                    "find).")
        if self._hinted.get(seat) == self.turn_index:
            return "One hint a turn: you have had this turn's."
        if self._hints_used.get(seat, 0) >= s.hints:
            return (f"{s.hints} hint{'s' if s.hints != 1 else ''} a deal: you have had this "
                    "deal's.")
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

    def _reply(self, seat: int, msg: ClientMessage, ok: bool, text: str,
               choices: list[str] | None = None) -> None:
        out: dict[str, object] = {"type": "reply", "ok": ok, "text": text, "seq": msg.seq,
                                  "to": msg.type}
        if choices:
            out["choices"] = choices
        self.outbox.append((seat, out))

    def _race_line(self, o: R.Outcome) -> None:
        """Everyone hears who took a claim, in how long (the claim itself is in the state)."""
        w, a = o.watched, o.action
        if o.result != R.HIT or w is None or a is None:     # (a hit names both)
            return
        took = _seconds(o)
        rivals = w.rivals(but=o.seat)
        text = (f"{self.names[o.seat]} claimed {pretty_cards(a.cards)} first, "
                f"{_ms(took)} after it could be claimed")
        if rivals:
            q, secs = rivals[0]
            text += (f"; {self.names[q]} would have claimed at {_ms(secs)} "
                     f"({_ms(secs - took)} later)")
        if self.changed and self.playing:
            self._snapshot()        # the state with the claim (and what opened it) goes first
        self._say(EVERYONE, text + ".")
        self._log("claim", text, seat=o.seat, ms=round(took * 1000),
                  action=len(self._live.history) - 1)


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
        text = (f"{loser} claimed {cards + ' ' if cards else ''}too, {_ms(o.at - w.taken_at)} "
                f"after {winner}, who took it first")
        self._say(EVERYONE, text + ".")
        self._log("claim", text, seat=o.seat, ms=round((o.at - w.opened_at) * 1000),
                  winner=w.taken_by, margin=round((o.at - w.taken_at) * 1000, 1))


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


def _is_claim(text: str) -> bool:
    """Whether a line sent as a move is a claim, read as the client and a practice deal read
    it (:func:`tutor.app.play.inputs.classify`)."""
    return classify(text).kind == "claim"


def _claim_words(text: str) -> str:
    """What a claim line names (the cards or the rank; empty when nothing follows ``claim``)."""
    return classify(text).name


def explain(reason: Reason, seat: int, names: list[str]) -> str:
    """The engine's ``reason`` said to the person at ``seat`` (their seat "you", the others by
    ``names``: :meth:`~tutor.engine.reasons.Reason.words`)."""
    return reason.words(seat, names)
