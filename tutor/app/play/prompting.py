"""One prompt loop for a practice deal and a live table's client (issue 43 item 3).

A line typed at a practice deal (:class:`tutor.app.play.practice_deal.DealPlayer`) and at a live table
(:class:`tutor.app.tables.client.PlayerClient`) walks the same path, here: it is read once
(:func:`tutor.app.play.inputs.classify`), and

- a word that leaves, leaves; a pass lets the moment go (at your turn it ends the turn where
  that may be done, else one line says what the turn asks; before play it starts play);
- ``help``, ``hand``, ``look``, ``moves`` and ``hint`` are answered in the same words;
- a claim (the claim key, ``claim`` alone, or ``claim`` and what it names) is made the same
  way: the naming asked where it was not typed, Enter taking the claim back;
- a move goes to whoever reads moves (the deal itself, or the table's server), and a move that
  cannot be read or played is answered in one line (:func:`refused_line`), the same line at
  both; a move that could be several is chosen from a numbered list (``Which?``), where a
  claim may still be made.

What differs between the two is what a :class:`PromptLoop` leaves to its subclass: how a move
and a claim are made, how the table is drawn, what the hand is, where a hint comes from, and
what leaving does.  The prompts that wait for a line (the deal's pace, the table's clock) are
each front's own.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from tutor.app.play.inputs import NAME_PROMPT, QUIT_WORDS, classify, refused_line
from tutor.engine.deal import Action
from tutor.puzzles.board import grouped_text
from tutor.teaching.io import Event, LearnerIO

__all__ = [
    "BACK_WORDS",
    "CLAIM_WORDS",
    "CLAIMING",
    "NO_CLAIM",
    "TURN_PROMPT",
    "WATCH_PROMPT",
    "WHICH_PROMPT",
    "YOUR_TURN",
    "PromptLoop",
    "moves_line",
    "pick_line",
    "refused_line",
]

TURN_PROMPT = "Your move> "
WATCH_PROMPT = "watch> "
WHICH_PROMPT = "Which? > "
#: What a pass at your turn says where the turn cannot be ended.
YOUR_TURN = (
    "It is your turn: capture, or lie down if you cannot (type moves for the moves, help for how)."
)
#: What the claim key says before the naming is asked.
CLAIMING = "You claim! Name the cards (or the rank); Enter takes the claim back."
#: What a claim taken back says.
NO_CLAIM = "No claim."
#: What takes the claim key back at the naming prompt (and the words that leave).
BACK_WORDS = frozenset({"", "pass", "cancel", "back", "no"}) | QUIT_WORDS
#: What goes back from a ``Which?`` choice, choosing nothing.
_CANCEL = frozenset({"", "cancel", "back", "no", "none"})
#: Completions offered while naming a claim.
CLAIM_WORDS = ("pass", "aces", "claim")


def pick_line(n: int) -> str:
    """What a ``Which?`` choice among ``n`` says to a line it cannot take."""
    return f"Type a number from 1 to {n}, or Enter to go back."


def moves_line(
    turn: Sequence[Action], free: Sequence[Action], mover: str | None, out_of_turn: str = ""
) -> str:
    """What ``moves`` says: at your turn (``turn`` not empty) your moves, the turn's and the
    ``free`` ones (declarations, taking a table mournival), as you would type them; else whose
    turn it is (``mover``, None when nobody's), what may be done out of turn (``out_of_turn``,
    the engine's words: :attr:`tutor.engine.game.Game.at_any_time`), and the free moves open
    now."""
    if turn:
        return "Your moves: " + " | ".join(a.notation() for a in [*turn, *free])
    return f"It is {mover or 'nobody'}'s turn. {out_of_turn}." + (
        " Now: " + " | ".join(a.notation() for a in free) if free else ""
    )


class PromptLoop:
    """The one loop of a person's lines at a deal (see the module docstring):
    :meth:`answer` acts on one line, :meth:`choose` asks which of several moves,
    :meth:`claim_line` makes a claim.  A subclass sets :attr:`io` and :attr:`symbols` and
    defines the methods that raise :class:`NotImplementedError` here."""

    io: LearnerIO
    symbols: bool
    #: What ``help`` says (:func:`tutor.app.play.inputs.help_text`).
    help: str = ""
    #: Where the person is, in the words of :func:`refused_line`: ``deal`` or ``table``.
    where: str = "deal"

    # -- what each front does its own way ------------------------------------------------------

    def show(self) -> None:
        """Draw the table as the person sees it (``look``)."""
        raise NotImplementedError

    def hand_cards(self) -> Sequence[int]:
        """The person's hand (``hand``)."""
        raise NotImplementedError

    def moves_now(self) -> str:
        """What ``moves`` says now (:func:`moves_line`)."""
        raise NotImplementedError

    def give_hint(self) -> None:
        """Answer ``hint``."""
        raise NotImplementedError

    def end_turn(self) -> bool:
        """End the person's turn where that is a move now; False when it is not."""
        raise NotImplementedError

    def ready(self) -> str:
        """A pass before play: the dealer lets play begin; returns :meth:`answer`'s status."""
        raise NotImplementedError

    def leave(self) -> str:
        """A word that leaves was typed; returns ``quit`` (or raises to leave at once)."""
        raise NotImplementedError

    def move(self, line: str, at: float) -> str:
        """Make the move of ``line`` (a move word spelled out), typed at clock time ``at``:
        read it, answer a refusal with :meth:`refused`, ask which of several with
        :meth:`choose`; returns :meth:`answer`'s status."""
        raise NotImplementedError

    def make_claim(self, naming: str, at: float) -> bool:
        """Claim what ``naming`` names (cards, a rank, or nothing), named at clock time
        ``at``; True when the naming is to be asked again (a word that could not be read)."""
        raise NotImplementedError

    def naming_read(self) -> tuple[float | None, Sequence[Event]]:
        """The time limit (None: none) and the events of the naming prompt, which stays open
        while the table plays on."""
        return None, ()

    def typed_pick(self, text: str, n: int) -> int | None:
        """A ``Which?`` choice among ``n`` typed as a move rather than a number: the index it
        picks, or None (not taken)."""
        return None

    # -- the loop ------------------------------------------------------------------------------

    def answer(self, text: str, at: float, *, turn: bool, before: bool = False) -> str:
        """Act on one line typed at clock time ``at``, at the person's ``turn`` or not, or
        ``before`` play (the dealer's moment).  Returns ``pass`` (the moment goes by),
        ``info`` (asked and answered), ``error`` (refused, in one line), ``quit`` or ``acted``
        (a move or a claim made)."""
        it = classify(text.replace(",", " "))
        if it.kind == "quit":
            return self.leave()
        if it.kind == "claim":
            self.claim_line(it.name or None, at)
            return "acted"
        if it.kind == "pass":
            if before:
                return self.ready()
            if not turn:
                return "pass"
            if self.end_turn():
                return "acted"
            self.io.say(YOUR_TURN, style="yellow")
            return "info"
        if it.kind == "info":
            self.info(it.name)
            return "info"
        return self.move(it.name, at)

    def info(self, name: str) -> None:
        """Answer ``help``, ``hand``, ``look``, ``moves`` or ``hint``."""
        if name == "help":
            self.io.say(self.help)
        elif name == "hand":
            t = Text("Your hand: ", style="bold cyan")
            t.append_text(grouped_text(self.hand_cards(), self.symbols))
            self.io.show(t)
        elif name == "look":
            self.show()
        elif name == "moves":
            self.io.say(self.moves_now())
        elif name == "hint":
            self.give_hint()

    def refused(self, reason: str, typed: str = "", unreadable: bool = False) -> str:
        """Say the one line that answers a refused move (:func:`refused_line`); returns
        ``error``."""
        self.io.say(refused_line(reason, typed, unreadable, self.where), style="yellow")
        return "error"

    def claim_line(self, naming: str | None, at: float) -> None:
        """Claim: ``naming`` names the cards or the rank (None: the claim key or ``claim``
        alone, so the naming is asked now, the table playing on), the line having come at
        clock time ``at``; asked again while :meth:`make_claim` says so."""
        if naming is None:
            self.io.say(CLAIMING, style="bold")
        while True:
            if naming is None:
                timeout, events = self.naming_read()
                reply = self.io.read(NAME_PROMPT, timeout, words=CLAIM_WORDS, events=events)
                naming, at = (reply.text, reply.at) if reply is not None else ("", at)
                if naming.strip().lower() in BACK_WORDS:
                    self.io.say(NO_CLAIM, style="dim")
                    return
            if not self.make_claim(naming, at):
                return
            naming = None

    def choose(self, question: str, options: Sequence[Text]) -> int | None:
        """Which of several moves: ``question`` said (where not empty), the ``options``
        listed by number; returns the index picked, or None (Enter goes back).  A claim typed
        meanwhile is made (the watch stays open while a move is chosen), and the choice asked
        again."""
        io = self.io
        if question:
            io.say(question)
        for i, shown in enumerate(options, 1):
            t = Text(f"  {i}. ")
            t.append_text(shown)
            io.show(t)
        n = len(options)
        while True:
            reply = io.read(WHICH_PROMPT, None, words=())
            text = (reply.text if reply is not None else "").strip()
            if text.lower() in _CANCEL:
                return None
            if text.isascii() and text.isdigit() and len(text) <= 3 and 1 <= int(text) <= n:
                return int(text) - 1
            it = classify(text)
            if it.kind == "claim":
                self.claim_line(it.name or None, reply.at if reply is not None else 0.0)
                continue
            picked = self.typed_pick(text, n)
            if picked is not None:
                return picked
            io.say(pick_line(n), style="yellow")
