"""One practice deal: the learner at one seat, computer players at the others.

:class:`DealPlayer` runs the deal.  The learner makes every choice (captures, declarations,
claims, taking a table mournival, lying down, ending a turn); nothing is done for them.  Every
rule question is the engine's: the moves and their reading (:meth:`Deal.legal_actions`,
:meth:`Deal.parse_action`, :meth:`Deal.parse_claim`), legality and reasons
(:meth:`Deal.why_illegal`), at-risk and safe captures (:meth:`Deal.capture_options`), what a
declaration held to the end cost (:attr:`DealResult.held_declarations`), and every claim, by the
engine's claim protocol (:class:`tutor.engine.race.ClaimWatch`; :mod:`tutor.app.play.watching`).

**The watch.**  After every action the learner may claim at any moment with one key (the space
bar on an empty line, or ``claim``), whether or not anything is claimable, and the screen looks
the same either way:

- on a terminal (a real-time clock), before each computer player's move a prompt is open for
  ``pace`` seconds, with its countdown (the deal's pace: whose move is next); on the learner's
  turn, the turn prompt.  The computer players' claims appear above the prompt as they happen;
- piped (no real time), a line is read before each computer player's move and at the learner's
  turn; the clock then moves on by ``pace`` (a virtual clock: no time passes while a line is
  read, so a claim typed at once is first).

A claim is timed from the moment its oversight became claimable to the moment the learner has
named the cards (or the rank) and pressed Enter.  The learner's terminal is the injected I/O
seam (:class:`tutor.teaching.io.LearnerIO`), and time comes from its clock.

**Watching beside the learner.**  An ``observer`` (a :class:`DealObserver`: the coach of
:mod:`tutor.app.coached_deal`) is told of each of the learner's prompts before it is read, may take a
line the learner typed before it is read as a move, and is told of each action applied; it
asks the engine its own questions of :attr:`DealPlayer.deal` and speaks through the same
:attr:`DealPlayer.io`.

Afterwards, :attr:`DealPlayer.races` holds every claim that took cards, :attr:`mistakes` every
mistake of the learner (misses and false claims among them) with the engine's reason,
:attr:`opportunities` the graded moments and :attr:`sightings` the signal-detection figures.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from rich.text import Text

from tutor.app.play.inputs import (
    CLAIM_KEYS,
    HELP,
    NAME_PROMPT,
    WORDS,
    Intent,
    classify,
    interpret,
    read_move,
)
from tutor.app.play.mistakes import (
    DECL_THEME,
    MISTAKE_TITLES,
    Mistake,
    Opportunity,
    Race,
    Sighting,
    held_declaration,
    laid_down_holding,
)
from tutor.app.play.prompting import TURN_PROMPT, WATCH_PROMPT, WHICH_PROMPT, PromptLoop, moves_line
from tutor.app.play.review import hint
from tutor.app.play.watching import Watching
from tutor.engine.bots import Bot
from tutor.engine.cards import RANK_NAMES, RANK_PLURALS, pretty_cards
from tutor.engine.deal import DECLARATIONS, Action, Deal, one_declaration_per_rank
from tutor.engine.errors import IllegalAction
from tutor.engine.parameters import rule_words, value_words
from tutor.engine.race import ClaimRace, ClaimWatch, Reaction
from tutor.engine.values import OversightKind
from tutor.puzzles.board import action_text, render_screen
from tutor.teaching.io import Event, LearnerIO, Reply

__all__ = [
    "DealObserver",
    "DealPlayer",
    "Mistake",
    "Opportunity",
    "Race",
    "Sighting",
    "MISTAKE_TITLES",
    "NAME_PROMPT",
    "TURN_PROMPT",
    "WATCH_PROMPT",
    "WHICH_PROMPT",
    "watch_label",
]

BEFORE_PROMPT = "Before play (Enter starts)> "


def watch_label(name: str, width: int = 80) -> str:
    """The countdown's label before a computer player's move: the deal's pace, the same
    whether or not anything is claimable (shorter on a terminal under 50 columns, so that it
    fits beside the time left)."""
    return f"{name} to move · space claims" if width >= 50 else f"{name} · space claims"


@runtime_checkable
class _LinesInOrder(Protocol):
    """Input whose next line can be looked at before a prompt takes it (piped or scripted
    lines: :class:`tutor.app.learner_io.ScriptedIO`); ``in_order`` False when it cannot (the answers are
    a function of the prompt)."""

    in_order: bool

    def next_line(self) -> str | None: ...


class DealObserver:
    """What watches a deal beside the learner (the coach).  Every method does nothing here; a
    subclass overrides what it needs.  ``player`` is the :class:`DealPlayer`."""

    def prompt(self, player: DealPlayer, where: str) -> bool:
        """The learner is about to be asked: ``where`` is ``before`` (before play), ``turn``
        (their turn) or ``watch`` (before a computer player's move).  True holds a ``watch``
        prompt open until the learner answers (no countdown this once)."""
        return False

    def line(self, player: DealPlayer, text: str) -> bool:
        """A line the learner typed, before it is read as a move; True when the observer took
        it (it is then not read as a move)."""
        return False

    def applied(self, player: DealPlayer, action: Action) -> None:
        """``action`` has just been applied to the deal (and shown)."""


class _Decision:
    """The learner's capture choice where a capture was at risk: history ``index``, the rank
    ``took`` and why it was safe, the ranks ``at_risk`` (rank -> reason), and to whom each was
    ``lost_to`` before the learner's next turn."""

    def __init__(self, index: int, took: int, took_reason: str, at_risk: dict[int, str]):
        self.index, self.took, self.took_reason, self.at_risk = index, took, took_reason, at_risk
        self.lost_to: dict[int, int] = {}


class DealPlayer(Watching, PromptLoop):
    """Runs one deal with the learner at ``seat``; its prompts read lines through the one loop
    of a practice deal and a live table (:class:`tutor.app.play.prompting.PromptLoop`).

    ``bots`` has one :class:`~tutor.engine.bots.Bot` per seat (None at the learner's seat);
    ``bot_rng`` drives their choices and ``reaction_rng`` their claims; ``claiming`` says how
    each computer player claims (seat -> :class:`~tutor.engine.race.Reaction`; default: its
    bot's reaction range, and a careless bot's mistake rate as its chance of missing an
    oversight); ``io`` is the learner's terminal (:class:`tutor.teaching.io.LearnerIO`: what is
    said and shown, every read, and the clock every claim is timed by); ``names`` one name per
    seat; ``pace`` the seconds before each computer player's move; ``title`` heads the screen;
    ``totals`` the match totals shown beside the names; ``observer`` a :class:`DealObserver`
    watching beside the learner (None: nobody).
    """

    help = HELP

    def __init__(
        self,
        deal: Deal,
        seat: int,
        bots: list[Bot | None],
        *,
        bot_rng: random.Random,
        reaction_rng: random.Random,
        io: LearnerIO,
        names: list[str],
        pace: float = 1.0,
        title: str = "",
        totals: list[int] | None = None,
        claiming: dict[int, Reaction] | None = None,
        observer: DealObserver | None = None,
    ):
        self.deal = deal
        self.seat = seat
        self.bots = bots
        self.bot_rng = bot_rng
        self.io = io
        self.clock = io.clock
        self.names = names
        self.symbols = io.symbols
        self.pace = pace
        self.title = title
        self.totals = totals
        self.observer = observer or DealObserver()
        self.races: list[Race] = []
        self.mistakes: list[Mistake] = []
        self.opportunities: list[Opportunity] = []
        self.sightings: list[Sighting] = []
        #: How many times the learner asked for a hint (``hint``) this deal.
        self.hints = 0
        self.quit = False
        self._decision: _Decision | None = None
        self._drawn: tuple | None = None  # the position the last screen showed
        self._choosing: list[Action] = []  # the moves of a Which? choice open now
        self._set_aside = deal.game.sets_aside_table_mournival
        if claiming is None:
            claiming = {q: _claiming(b) for q, b in enumerate(bots) if b is not None}
        self.watch = ClaimWatch(deal, claiming, reaction_rng, humans=[seat])
        for b in bots:
            if b is not None:
                b.start(deal)

    # -- running ------------------------------------------------------------------------------

    def run(self) -> DealPlayer:
        """Play the deal to its end (or until the learner quits); returns self."""
        d = self.deal
        self._bots_free()
        self._sync()
        self.show()
        self._before_play()
        while d.phase != "over" and not self.quit:
            self._bots_free()
            if d.phase == "over":
                break
            self._sync()
            if d.to_move == self.seat:
                self._turn()
            elif not self._watch_prompt():
                self._bot_moves()
        self._finish()
        return self

    def _before_play(self) -> None:
        d = self.deal
        while not d.started and d.phase == "play" and not self.quit:
            self._fresh()
            self.observer.prompt(self, "before")
            reply = self.io.read(BEFORE_PROMPT, None, words=WORDS)
            if self._handle(reply or "", turn=False, before=True) == "pass":
                return

    def _turn(self) -> None:
        """The learner's turn prompt (the computer players' claims appear above it as they
        happen)."""
        self._fresh()
        self.observer.prompt(self, "turn")
        reply = self.io.read(TURN_PROMPT, None, words=WORDS, events=self._events(), keys=CLAIM_KEYS)
        if reply is not None:
            self._handle(reply, turn=True)

    def _watch_prompt(self) -> bool:
        """The prompt before a computer player's move; True when the learner did something
        (the prompt comes again), False when the move is due."""
        who = self.names[self._mover()]
        self._fresh()
        held = self.observer.prompt(self, "watch")
        if not self.clock.realtime and self._for_my_turn():
            self._let_time_pass(self.pace)  # piped: the next line waits for the turn
            return False
        if self.clock.realtime and not held:
            reply = self.io.read(
                WATCH_PROMPT,
                self.pace,
                words=WORDS,
                label=watch_label(who, self.io.width),
                total=self.pace,
                events=self._events(),
                keys=CLAIM_KEYS,
                extend_while_typing=True,
                erase=True,
            )
            return reply is not None and self._handle(reply, turn=False) != "pass"
        reply = self.io.read(
            WATCH_PROMPT, None, words=WORDS, events=self._events(), keys=CLAIM_KEYS
        )
        if reply is not None and self._handle(reply, turn=False) != "pass":
            return True
        self._let_time_pass(0.0 if held and self.clock.realtime else self.pace)
        return False

    def _bot_moves(self) -> None:
        d = self.deal
        self._show(self.watch.advance(self.clock.now()))  # claims due come first
        mover = d.to_move
        if d.phase == "over" or mover is None or mover == self.seat or self.quit:
            return
        bot = self.bots[mover]
        if bot is None:
            raise AssertionError(f"seat {mover} is nobody's: no computer player, not the learner")
        self._apply(bot.choose(d, d.legal_actions(), self.bot_rng))

    def _mover(self) -> int:
        """The seat to move (an error once the deal is over: a bug of the caller)."""
        mover = self.deal.to_move
        if mover is None:
            raise AssertionError("the deal is over: nobody is to move")
        return mover

    # -- the learner's input ------------------------------------------------------------------

    def claim(self, naming: str, at: float) -> None:
        """The learner claims, as at the claim key: ``naming`` is what they typed for it, the
        cards or the rank (``claim`` before them may be left out; empty: they are asked for
        next), the line having come at clock time ``at``.  Refereed by the watch as every claim
        is (a false claim said and recorded, a naming that is not whole asked again); for one
        who asks beside the learner (the coach, before it speaks of an oversight)."""
        words = naming.split()
        line = naming if words and words[0].lower() == "claim" else f"claim {naming}"
        self.claim_line(classify(line).name or None, at)

    def _handle(self, reply: Reply | str, turn: bool, before: bool = False) -> str:
        """Act on one line (a :class:`~tutor.teaching.io.Reply`, timed when it came, or a text
        taken as coming now) through the one loop (:meth:`PromptLoop.answer`); returns
        ``pass``, ``info``, ``error``, ``quit`` or ``acted``."""
        text, when = (
            (reply.text, reply.at) if isinstance(reply, Reply) else (reply, self.clock.now())
        )
        if self.observer.line(self, text):  # the coach took it
            return "info"
        return self.answer(text, when, turn=turn, before=before)

    # -- what the one loop asks of a practice deal ----------------------------------------------

    def leave(self) -> str:
        self.quit = True
        return "quit"

    def ready(self) -> str:
        return "pass"  # the learner's pass before play: play begins

    def end_turn(self) -> bool:
        d = self.deal
        end = (
            [a for a in d.legal_actions() if a.kind == "end_turn"] if d.to_move == self.seat else []
        )
        if end:
            self._apply(end[0])
        return bool(end)

    def move(self, line: str, at: float) -> str:
        """The learner's move of ``line``, read by the engine (:func:`read_move`), chosen where
        it could be several, and applied after the claims that came before it."""
        text = line.lower()
        intent = read_move(text, self.deal, self.seat, self.names)
        if intent.kind == "error":
            if not intent.reason:  # (a claim's naming: its own words)
                self.io.say(intent.message, style="yellow")
                return "error"
            return self.refused(intent.reason, text, intent.unreadable)
        a = self._choose(intent)
        if a is None:
            return "info"
        self._show(self.watch.advance(at))  # claims that came before the move
        why = self.deal.why_illegal(a)  # ... may have changed the table
        if why is not None:
            return self.refused(why.words(self.seat, self.names) + ".")
        self._apply(a)
        return "acted"

    def make_claim(self, naming: str, at: float) -> bool:
        return self._claim(naming, at)

    def naming_read(self) -> tuple[float | None, list[Event]]:
        return None, self._events()

    def _choose(self, intent: Intent) -> Action | None:
        """The one action meant: the only candidate, or the learner's pick among several (or of
        the one an incomplete line could mean, never taken without asking)."""
        acts = intent.actions
        if len(acts) == 1 and not intent.incomplete:
            return acts[0]
        shown = []
        for a in acts:
            t = action_text(a, self.names, self.seat, self.symbols, self._set_aside)
            t.append(f"   [{a.notation()}]", style="dim")
            shown.append(t)
        self._choosing = acts
        try:
            k = self.choose(intent.message or "Which one?", shown)
        finally:
            self._choosing = []
        return None if k is None else acts[k]

    def typed_pick(self, text: str, n: int) -> int | None:
        """A choice typed as a move: the one of the choices it reads as."""
        acts = self._choosing
        sub = interpret(text, self.deal, self.seat, self.names)
        both = [a for a in sub.actions if a in acts] if sub.kind == "actions" else []
        return acts.index(both[0]) if len(both) == 1 else None

    def hand_cards(self) -> Sequence[int]:
        return self.deal.hand(self.seat)

    def give_hint(self) -> None:
        # worked out where nothing is open: the same hint whatever is (issue 30)
        d = self.deal
        got = hint(d.clone(oversights=False), self.seat, self.names, symbols=self.symbols)
        self.hints += 1  # any hint: a claim after it counts in no figure
        self.io.say("Hint: " + got.text, style="cyan")

    def moves_now(self) -> str:
        d = self.deal
        mine = d.legal_actions(self.seat)
        if d.to_move == self.seat and d.phase != "over":
            return moves_line([a for a in mine if a.kind != "claim"], [], None)
        who = self.names[d.to_move] if d.to_move is not None else None
        free = [a for a in mine if a.kind in DECLARATIONS or a.kind == "take_table_mournival"]
        return moves_line([], free, who, d.game.at_any_time)

    # -- applying ------------------------------------------------------------------------------

    def _apply(self, a: Action) -> None:
        d = self.deal
        mine = a.player == self.seat
        self._before_apply(a, mine)
        paid = len(d.payments)
        try:
            d.apply(a)
        except IllegalAction as exc:  # cannot happen for engine-offered actions
            self.io.say(exc.reason.words(self.seat, self.names), style="yellow")
            return
        t = Text("  ")
        t.append_text(action_text(a, self.names, self.seat, self.symbols, self._set_aside))
        self.io.show(t)
        if len(d.payments) > paid:
            self.io.say("    " + self._payments_line(d.payments[paid:]), style="dim")
        self._after_apply(a, mine)
        self._sync()
        self.observer.applied(self, a)

    def _before_apply(self, a: Action, mine: bool) -> None:
        """What the learner's choice ``a`` leaves undone, noted before it is applied."""
        d = self.deal
        starts = not d.started and (
            a.kind in ("capture", "lie_down")
            or (a.kind in DECLARATIONS and not d.declarations_are_free)
        )
        if starts and self.seat == d.dealer:
            self._mournival_left()
        if not mine:
            return
        if a.kind == "capture":
            self._decide(a)
        if a.kind in DECLARATIONS:
            self.opportunities.append(
                Opportunity("declaration", (DECL_THEME[a.kind],), True, None, len(d.history))
            )
        if a.kind == "lie_down":
            decls = [f for f in d.free_actions(self.seat) if f.kind in DECLARATIONS]
            for f in one_declaration_per_rank(decls):
                self.mistakes.append(laid_down_holding(f, len(d.history)))

    def _mournival_left(self) -> None:
        """Play begins with a table mournival the learner, the dealer, did not take."""
        d, rs = self.deal, self.deal.ruleset
        for f in d.free_actions(self.seat):
            if f.kind != "take_table_mournival":
                continue
            self.mistakes.append(
                Mistake(
                    "mournival_not_taken",
                    len(d.history),
                    f"Play began with the mournival {pretty_cards(f.cards, self.symbols)} on the "
                    "table, and you were the dealer.",
                    f"Under {rs.name_in_text}, {value_words('table_mournival', rs.table_mournival)}: that was "
                    "yours to do (take) before play; left there, it is "
                    + (
                        "an oversight for the others to claim."
                        if d.game.claimable(OversightKind.OVERLOOKED_TABLE_MOURNIVAL)
                        else "four cards anyone may capture."
                    ),
                )
            )

    def _after_apply(self, a: Action, mine: bool) -> None:
        d = self.deal
        idx = len(d.history) - 1
        if not mine and a.kind in ("capture", "play_on_capture") and self._decision:
            if a.rank in self._decision.at_risk:
                self._decision.lost_to.setdefault(a.rank, a.player)
        if (
            mine
            and a.kind == "capture"
            and a.rank is not None
            and any(
                o.index == idx
                and o.kind is OversightKind.SPLIT_PRIAL
                and self.seat not in d.claimants(o)
                for o in d.oversights
            )
        ):
            self.mistakes.append(
                Mistake(
                    "split_prial",
                    idx,
                    f"You took one card of the table prial of {RANK_PLURALS[a.rank]}.",
                    rule_words("oversights", OversightKind.SPLIT_PRIAL, who="you", capital=True)
                    + ".",
                )
            )
        if d.to_move == self.seat and d.phase != "over":
            self._close_decision()

    def _payments_line(self, payments: Sequence[tuple[int, int | None, int]]) -> str:
        """Lie-down payments as they are made (RULES.md 3.6)."""
        payer = payments[0][0]
        who = "You pay" if payer == self.seat else f"{self.names[payer]} pays"
        stakes = payments[0][2]
        unit = "stake" if stakes == 1 else "stakes"
        if payments[0][1] is None:
            return f"{who} {stakes} {unit} into the pot for lying down (pot now {self.deal.pot})."
        payees = [q for _, q, _ in payments if q is not None]
        to = ", ".join("you" if q == self.seat else self.names[q] for q in payees)
        return f"{who} {stakes} {unit} to each player still in for lying down: {to}."

    def _decide(self, a: Action) -> None:
        """Remember the learner's capture choice against the engine's at-risk/safe options."""
        self._close_decision()
        d = self.deal
        opts = d.capture_options(self.seat)
        risky = {o.rank: o.reason for o in opts if o.at_risk}
        chosen = next((o for o in opts if o.rank == a.rank), None)
        if risky and a.rank is not None and a.rank not in risky and chosen is not None:
            self._decision = _Decision(len(d.history), a.rank, chosen.reason, risky)
        elif risky:
            self.opportunities.append(
                Opportunity("capture-choice", ("at-risk",), True, None, len(d.history))
            )

    def _close_decision(self) -> None:
        dec, self._decision = self._decision, None
        if dec is None:
            return
        took = RANK_PLURALS[dec.took]
        risky = ", ".join(RANK_PLURALS[r] for r in dec.at_risk)
        if dec.lost_to:
            rank, who = next(iter(dec.lost_to.items()))
            self.mistakes.append(
                Mistake(
                    "at_risk_left",
                    dec.index,
                    f"You captured {took} and left the lone {RANK_NAMES[rank]} on the table; "
                    f"{self.names[who]} took it before your next turn.",
                    f"At risk: {dec.at_risk[rank]}. Safe to hold back: {dec.took_reason}.",
                )
            )
        else:
            self.mistakes.append(
                Mistake(
                    "safe_too_early",
                    dec.index,
                    f"You captured {took}, which was safe to hold back, while {risky} "
                    f"{'was' if len(dec.at_risk) == 1 else 'were'} at risk.",
                    f"Safe: {dec.took_reason}. At risk: " + "; ".join(dec.at_risk.values()) + ".",
                )
            )
        self.opportunities.append(
            Opportunity("capture-choice", ("at-risk",), False, None, dec.index)
        )

    # -- computer players' declarations ---------------------------------------------------------

    def _bots_free(self) -> None:
        """Computer players' declarations and table mournivals (their claims are the watch's):
        each wanting one enters the engine's race at its reaction time, the fastest acts
        first."""
        d = self.deal
        while d.phase == "play" and d.free_pending():
            race = ClaimRace(d)
            for q, bot in enumerate(self.bots):
                if bot is None:
                    continue
                a = bot.free_action(d, q, self.bot_rng)
                if a is None or a.kind == "claim":
                    continue
                race.enter(q, a, bot.reaction(self.watch.rng))
            w = race.winner()
            if w is None:
                return
            self._apply(w.action)

    # -- the end ------------------------------------------------------------------------------

    def _finish(self) -> None:
        d = self.deal
        self._sync()
        self._close_decision()
        res = d.result
        if res is not None:  # (held at a cost only where they went to another)
            for held in res.held_declarations:
                if held.action.player == self.seat and held.cost:
                    self.mistakes.append(
                        held_declaration(held.action, len(d.history) - 1, d.game.leftovers_words)
                    )
        for m in self.mistakes:
            if m.kind == "missed_declaration":
                self.opportunities.append(
                    Opportunity("declaration", (m.theme,), False, None, m.index)
                )
        self.mistakes.sort(key=lambda m: m.index)

    # -- output ------------------------------------------------------------------------------

    def show(self) -> None:
        """Print the table as the learner sees it."""
        self.io.say()
        self.io.show(
            render_screen(
                self.deal, self.seat, self.names, self.symbols, title=self.title, totals=self.totals
            )
        )
        self._drawn = self._position()

    def _position(self) -> tuple:
        """What a screen shows of the deal, as a key: it changes with every action, whoever's
        (claims and declarations among them)."""
        d = self.deal
        return (len(d.history), d.phase, d.to_move, d.started)

    def _fresh(self) -> None:
        """Redraw the table when it changed since the last screen, whoever changed it: every
        prompt, and every claim that comes while one is open, shows the position as it
        stands."""
        if self._position() != self._drawn and self.deal.phase != "over":
            self.show()

    def _for_my_turn(self) -> bool:
        """Piped (lines in order, read as they come), at the watch before another player's
        move: whether the next line waits for the learner's turn, as at a live table (``laugh
        table join``): only a claim, or a word that leaves, is taken at the watch; a move,
        a declaration or any other word is the learner's next turn's, and so is the end of the
        input (the others play on: a learner who is out has no turn to read it at).  False
        when the lines cannot be looked at before the prompt (a function of the prompt: it
        answers each prompt)."""
        io = self.io
        if not isinstance(io, _LinesInOrder) or not io.in_order:
            return False
        text = io.next_line()
        if text is None:
            return True
        return classify(text).kind not in ("claim", "quit")


def _claiming(bot: Bot) -> Reaction:
    """How ``bot`` claims when no level says: its reaction range, and a careless bot's mistake
    rate as its chance of missing an oversight."""
    lo, hi = bot.reaction_range
    return Reaction(lo, hi, getattr(bot, "rate", 0.0))
