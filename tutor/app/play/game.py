"""One practice deal: the learner at one seat, computer players at the others.

:class:`DealPlayer` runs the deal.  The learner makes every choice (captures, declarations,
claims, taking a table mournival, lying down, ending a turn); nothing is done for them.  Every
rule question is the engine's: the moves and their reading (:meth:`Deal.legal_actions`,
:meth:`Deal.parse_action`), legality and reasons (:meth:`Deal.why_illegal`), at-risk and safe
captures (:meth:`Deal.capture_options`), oversights (:meth:`Deal.open_oversights`), and who is
first to a claim (:class:`tutor.engine.race.ClaimRace`).

The claim race (Willughby: "whatever is overseen is his that can catch it first"): when an
oversight appears, each computer player that will claim it draws a reaction time for its level
(from the reactions random source, once per oversight).  If the learner may claim it, a claim
window opens at once, as long as the slowest reaction of the level, with its countdown; the
learner claims with the space bar (the claim key) and then names the cards, or types ``claim``
and the cards.  Every claim is an entry in the engine's race, at its time after the oversight
appeared; the fastest entry takes the cards, and the result names who was first and by how
much.  The learner's terminal is the injected I/O seam (:class:`tutor.teaching.io.LearnerIO`),
and time comes from its clock (:class:`tutor.teaching.io.Clock`): every read says when its line
(or the claim key) came, by that clock.

- on a terminal (:class:`~tutor.app.clock.TerminalClock`) the window is a prompt that closes
  when the first computer player claims or the window ends; when the learner is to move, the
  turn prompt is the window, and computer players' claims appear above it as they happen (what
  the learner is typing stays).  Between computer players' turns a prompt is open for ``pace``
  seconds, so the length of a pause says little;
- piped (:class:`~tutor.app.clock.VirtualClock`) there is no real time: a line is read after an
  action only when the learner could claim something (and on the learner's turn), and it is
  read before any computer player's reaction time has passed, so a claim typed there wins if it
  is the first claim after the action.  An empty line (``pass``) lets the computer players claim.

Afterwards, :attr:`DealPlayer.races` holds every claim race and :attr:`DealPlayer.mistakes` every
mistake of the learner, with the engine's reason.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rich.text import Text

from tutor.app.play.inputs import HELP, QUIT_WORDS, WORDS, Intent, explain, interpret, read_move
from tutor.app.play.review import hint
from tutor.engine.bots import Bot
from tutor.engine.cards import RANK_NAMES, RANK_PLURALS, pretty_cards
from tutor.engine.deal import DECLARATIONS, Action, Deal
from tutor.engine.errors import IllegalAction
from tutor.engine.parameters import value_short, value_words
from tutor.engine.race import ClaimRace
from tutor.puzzles.board import action_text, grouped_text, render_screen
from tutor.teaching.io import LearnerIO, Reply

__all__ = ["DealPlayer", "Mistake", "Opportunity", "Race", "MISTAKE_TITLES"]

TURN_PROMPT = "Your move> "
WATCH_PROMPT = "watch> "
CLAIM_PROMPT = "claim window> "
NAME_PROMPT = "claim: which cards?> "
BEFORE_PROMPT = "Before play (Enter starts)> "
WHICH_PROMPT = "Which? > "

#: The label of a claim window's countdown.
WINDOW_LABEL = "Claim window · space claims"
#: The claim key: the space bar on an empty line answers ``claim`` at once.
CLAIM_KEYS = {" ": "claim"}

MISTAKE_TITLES = {
    "missed_claim": "missed claim",
    "missed_declaration": "missed declaration",
    "mournival_not_taken": "table mournival not taken",
    "split_prial": "split a table prial",
    "at_risk_left": "at-risk capture left for another",
    "safe_too_early": "safe capture taken too early",
}


@dataclass
class Race:
    """One claim: ``index`` of the claim in the deal's history, the oversight ``kind``,
    ``cards`` and ``offender``; ``reactions`` the computer players' reaction times (seat ->
    seconds) for it; ``learner`` the learner's time when they claimed it (None otherwise; 0.0
    when piped), ``learner_eligible`` whether they could; ``winner`` the claimant; ``window``
    the winner's time (how long the oversight stood open before the claim); ``runner_up`` the
    seat of the next entry and ``margin`` how far behind it was (None with one entry); ``piped``
    when there was no real time."""

    index: int
    kind: str
    cards: tuple[int, ...]
    offender: int
    reactions: dict[int, float]
    learner: float | None
    learner_eligible: bool
    winner: int
    window: float
    runner_up: int | None = None
    margin: float | None = None
    piped: bool = False


@dataclass
class Mistake:
    """A mistake of the learner: ``kind`` (a key of :data:`MISTAKE_TITLES`), ``index`` (history
    index where it happened), ``text`` what happened and ``reason`` the engine's reason."""

    kind: str
    index: int
    text: str
    reason: str

    @property
    def title(self) -> str:
        return MISTAKE_TITLES.get(self.kind, self.kind)


@dataclass
class Opportunity:
    """A graded moment for the progress store: ``kind``/``themes`` (puzzle kind and themes),
    ``correct``, ``seconds`` (None when no time was measured at a terminal: piped input, a
    declaration made in passing, a claim missed); ``index`` the history index."""

    kind: str
    themes: tuple[str, ...]
    correct: bool
    seconds: float | None
    index: int


@dataclass
class _Open:
    t0: float                 # clock time the oversight appeared
    index: int
    eligible: bool            # the learner may claim it
    window: float             # seconds the claim window stays open
    reactions: dict[int, float] = field(default_factory=dict)
    learner: float | None = None
    window_done: bool = False


@dataclass
class _Decision:
    index: int
    took: int                 # rank captured
    took_reason: str
    at_risk: dict[int, str]   # rank -> reason
    lost_to: dict[int, int] = field(default_factory=dict)   # rank -> seat that took it


class DealPlayer:
    """Runs one deal with the learner at ``seat``.

    ``bots`` has one :class:`~tutor.engine.bots.Bot` per seat (None at the learner's seat);
    ``bot_rng`` drives their choices and ``reaction_rng`` their reaction times; ``io`` is the
    learner's terminal (:class:`tutor.teaching.io.LearnerIO`: what is said and shown, every
    read, and the clock that times the race); ``names`` one name per seat; ``pace`` the seconds a
    terminal waits before each computer player's turn; ``title`` heads the screen; ``totals``
    the match totals shown beside the names.
    """

    def __init__(self, deal: Deal, seat: int, bots: list[Bot | None], *, bot_rng: random.Random,
                 reaction_rng: random.Random, io: LearnerIO, names: list[str],
                 pace: float = 1.0, title: str = "", totals: list[int] | None = None):
        self.deal = deal
        self.seat = seat
        self.bots = bots
        self.bot_rng = bot_rng
        self.reaction_rng = reaction_rng
        self.io = io
        self.clock = io.clock
        self.names = names
        self.symbols = io.symbols
        self.pace = pace
        self.title = title
        self.totals = totals
        self.races: list[Race] = []
        self.mistakes: list[Mistake] = []
        self.opportunities: list[Opportunity] = []
        #: How many hints (``hint``: the analysis's best option) the learner asked for.
        self.hints = 0
        self.quit = False
        self._open: dict[tuple, _Open] = {}
        self._decision: _Decision | None = None
        self._decls: list[Action] = []
        self._screen_due = True
        self._set_aside = deal.ruleset.table_mournival == "set_aside_for_last_in"
        #: The claim window: as long as the slowest reaction of the computer players' level.
        self.window = max([b.reaction_range[1] for b in bots if b is not None] or [2.0])
        for b in bots:
            if b is not None:
                b.start(deal)

    @property
    def piped(self) -> bool:
        """True when nobody types at a terminal (no real time: no answer time is measured)."""
        return bool(self.clock.piped)

    # -- running ------------------------------------------------------------------------------

    def run(self) -> "DealPlayer":
        """Play the deal to its end (or until the learner quits); returns self."""
        d = self.deal
        self._bots_free()
        self._track()
        self.show()
        self._before_play()
        while d.phase != "over" and not self.quit:
            self._bots_free()
            if d.phase == "over":
                break
            self._track()
            offers = self._offers()
            window = self._window()
            if d.to_move == self.seat:
                if self._screen_due:
                    self.show()
                self._turn(offers, window)
                continue
            if window is not None:
                self._claim_window(window, offers)
                continue
            if offers:
                self._bots_claim(offers)
                continue
            if self.clock.realtime or self._learner_can_claim():
                reply = self.io.read(WATCH_PROMPT, self.pace if self.clock.realtime else None,
                                     words=WORDS, extend_while_typing=True, erase=True,
                                     keys=CLAIM_KEYS)
                if reply is not None and self._handle(reply, turn=False) != "pass":
                    continue
            bot = self.bots[d.to_move]
            a = bot.choose(d, d.legal_actions(), self.bot_rng)
            self._apply(a)
        self._finish()
        return self

    def _before_play(self) -> None:
        d = self.deal
        while not d.started and d.phase == "play" and not self.quit:
            reply = self.io.read(BEFORE_PROMPT, None, words=WORDS)
            r = self._handle(reply or "", turn=False)
            if r == "pass":
                return

    def _turn(self, offers, window) -> None:
        """The learner's turn prompt.  While an oversight they may claim is open, it is also the
        claim window (its countdown below the prompt); computer players' claims appear above it
        as they happen."""
        events = [(at, self._claim_event(key)) for at, _, _, key in offers]
        shown = {}
        if window is not None:
            key, info = window
            shown = dict(label=WINDOW_LABEL, deadline=info.t0 + info.window, total=info.window)
        reply = self.io.read(TURN_PROMPT, None, words=WORDS, events=events, keys=CLAIM_KEYS,
                             **shown)
        if reply is not None:
            self._handle(reply, turn=True)

    def _claim_event(self, key):
        """What happens when a computer player's reaction time for the oversight ``key`` comes
        during the learner's turn prompt: the race for it is run (and shown) at once."""
        def fire() -> bool:
            if key in self._open and self.deal.phase == "play":
                info = self._open[key]
                info.window_done = True
                self._race(key)
            return False
        return fire

    def _claim_window(self, window, offers) -> None:
        """A claim window: a prompt with its countdown, closed by the first computer player's
        claim or at its end; the learner claims with the space bar (or ``claim`` and the cards)."""
        key, info = window
        end = info.t0 + info.window
        left = end - self.clock.now()
        if left <= 0:
            info.window_done = True
            return
        events = [(at, lambda: True) for at, _, _, k in offers]
        reply = self.io.read(CLAIM_PROMPT, left, words=WORDS, label=WINDOW_LABEL, deadline=end,
                             total=info.window, events=events, keys=CLAIM_KEYS)
        if reply is None:
            info.window_done = True
            now = self.clock.now()
            due = [o for o in self._offers() if o[0] <= now + 1e-9]
            if due:
                self._race(due[0][3])
            else:
                self.io.say("The claim window closed: nobody claimed.", style="dim")
            return
        if self._handle(reply, turn=False) == "pass":
            info.window_done = True

    def _bots_claim(self, offers) -> None:
        """Computer players' claims when the learner has no window open: on a terminal after the
        fastest reaction time (a prompt is open meanwhile), piped at once."""
        at, _, _, key = offers[0]
        wait = at - self.clock.now()
        if self.clock.realtime and wait > 0:
            reply = self.io.read(WATCH_PROMPT, wait, words=WORDS, erase=True, keys=CLAIM_KEYS)
            if reply is not None and self._handle(reply, turn=False) != "pass":
                return
        if key in self._open:
            self._race(key)

    # -- the learner's input ------------------------------------------------------------------

    def _handle(self, reply: Reply | str, turn: bool) -> str:
        """Act on one line (a :class:`~tutor.teaching.io.Reply`, timed when it came, or a text
        taken as coming now); returns ``pass``, ``info``, ``error``, ``quit`` or ``acted``."""
        d = self.deal
        if isinstance(reply, Reply):
            text, when = reply.text, reply.at
        else:
            text, when = reply, self.clock.now()
        intent = interpret(text, d, self.seat, self.names)
        if intent.kind == "pass":
            if turn:
                end = [a for a in d.legal_actions() if a.kind == "end_turn"] \
                    if d.to_move == self.seat else []
                if end:
                    self._apply(end[0])
                    return "acted"
                self.io.say("It is your turn: capture, or lie down if you cannot (type moves for "
                            "the moves, help for how).", style="yellow")
                return "info"
            return "pass"
        if intent.kind == "quit":
            self.quit = True
            return "quit"
        if intent.kind == "info":
            self._info(intent.name)
            return "info"
        if intent.kind == "claim":
            a = self._name_claim()
            if a is None:
                for info in self._open.values():
                    info.window_done = True
                return "pass"
            self._learner_claims(a, when)
            return "acted"
        if intent.kind == "error":
            self.io.say(intent.message, style="yellow")
            return "error"
        a = self._choose(intent)
        if a is None:
            return "info"
        if a.kind == "claim":
            self._learner_claims(a, when)
        else:
            self._apply(a)
        return "acted"

    def _name_claim(self) -> Action | None:
        """After the claim key: the learner names the cards (or the rank).  Unreadable or
        incomplete naming is asked again; a claim that names cards no open oversight covers
        fails (the key committed the learner); Enter takes the claim back."""
        self.io.say("You claim! Name the cards (or the rank); Enter takes the claim back.",
                    style="bold")
        while True:
            reply = self.io.read(NAME_PROMPT, None, words=("pass",))
            text = (reply.text if reply is not None else "").strip()
            low = text.lower()
            if not low or low in ("pass", "cancel", "back", "no") or low in QUIT_WORDS:
                self.io.say("No claim.", style="dim")
                return None
            line = low if low.startswith("claim") else "claim " + low
            intent = read_move(line, self.deal, self.seat, self.names, claim=True)
            if intent.kind == "actions":
                a = self._choose(intent)
                if a is not None:
                    return a
                continue
            self.io.say(intent.message, style="yellow")
            if intent.incomplete or intent.unreadable:
                continue
            self.io.say("Your claim fails.", style="yellow")
            return None

    def _choose(self, intent: Intent) -> Action | None:
        """The one action meant: the only candidate, or the learner's pick among several (or of
        the one an incomplete line could mean, never taken without asking)."""
        acts = intent.actions
        if len(acts) == 1 and not intent.incomplete:
            return acts[0]
        self.io.say(intent.message or "Which one?")
        for i, a in enumerate(acts, 1):
            t = Text(f"  {i}. ")
            t.append_text(action_text(a, self.names, self.seat, self.symbols, self._set_aside))
            t.append(f"   [{a.notation()}]", style="dim")
            self.io.show(t)
        while True:
            reply = self.io.read(WHICH_PROMPT, None, words=())
            text = (reply.text if reply is not None else "").strip()
            if not text or text.lower() in ("cancel", "no", "none", "back"):
                return None
            if text.isascii() and text.isdigit() and len(text) <= 3 \
                    and 1 <= int(text) <= len(acts):
                return acts[int(text) - 1]
            sub = interpret(text, self.deal, self.seat, self.names)
            if sub.kind == "actions":
                both = [a for a in sub.actions if a in acts]
                if len(both) == 1:
                    return both[0]
            self.io.say(f"Type a number from 1 to {len(acts)}, or Enter to go back.",
                        style="yellow")

    def _info(self, name: str) -> None:
        d = self.deal
        if name == "help":
            self.io.say(HELP)
        elif name == "hand":
            t = Text("Your hand: ", style="bold cyan")
            t.append_text(grouped_text(d.hand(self.seat), self.symbols))
            self.io.show(t)
        elif name == "look":
            self.show()
        elif name == "hint":
            got = hint(d, self.seat, self.names, symbols=self.symbols)
            self.hints += got.analysis is not None
            self.io.say("Hint: " + got.text, style="cyan")
        elif name == "moves":
            mine = d.legal_actions(self.seat)
            if d.to_move == self.seat and d.phase != "over":
                self.io.say("Your moves: " + " | ".join(a.notation() for a in mine))
            else:
                who = self.names[d.to_move] if d.to_move is not None else "nobody"
                free = [a for a in mine if a.kind in DECLARATIONS
                        or a.kind == "take_table_mournival"]
                self.io.say(f"It is {who}'s turn. You may claim an oversight at any time"
                            + (", and declare from your hand" if d.declarations_are_free else "")
                            + "." + (" Now: " + " | ".join(a.notation() for a in free)
                                     if free else ""))

    # -- claims -------------------------------------------------------------------------------

    def _learner_claims(self, a: Action, when: float) -> None:
        """The learner's claim ``a``, made at clock time ``when``, enters the race for its
        oversight against every computer player that will claim it."""
        key = self._key_for_claim(a)
        info = self._open.get(key) if key is not None else None
        secs = 0.0 if info is None or self.piped else max(0.0, when - info.t0)
        if info is not None:
            info.window_done = True
        self._race(key, (a, secs))

    def _race(self, key, learner: tuple[Action, float] | None = None) -> None:
        """Run the engine's race for the oversight ``key``: each computer player that will claim
        it at its reaction time, and the learner's claim (action, seconds) if any; the fastest
        takes the cards, and the result is said."""
        d = self.deal
        info = self._open.get(key)
        race = ClaimRace(d)
        if learner is not None:
            race.enter(self.seat, learner[0], learner[1])
        if info is not None:
            for _, q, a, k in self._offers():
                if k == key:
                    race.enter(q, a, info.reactions[q])
        w = race.winner()
        if w is None:
            return
        order = race.order()
        self._apply(w.action)
        won_by_learner = w.seat == self.seat
        if won_by_learner and info is not None:
            info.learner = learner[1]
        runner = order[1] if len(order) > 1 else None
        r = Race(len(d.history) - 1, w.action.oversight or "", w.action.cards,
                 key[1] if key else -1,
                 {e.seat: e.seconds for e in order if e.seat != self.seat},
                 learner[1] if learner is not None else None,
                 info.eligible if info is not None else False, w.seat, w.seconds,
                 runner.seat if runner else None, race.margin(), self.piped)
        self.races.append(r)
        self.io.say("    " + self.race_line(r), style="dim")

    def race_line(self, r: Race) -> str:
        """Who was first to the claim, in how long, and by how much."""
        def name(q):
            return "you" if q == self.seat else self.names[q]
        if r.winner == self.seat:
            if r.piped:
                head = "You claimed first (piped input: no real time, your line is read first)"
                others = sorted(r.reactions.items(), key=lambda x: x[1])
                if others:
                    head += "; " + ", ".join(f"{self.names[q]} would have claimed in {t:.2f} s"
                                             for q, t in others)
                return head + "."
            head = f"You claimed first, in {r.learner or 0:.2f} s"
            if r.runner_up is not None:
                return (head + f": {r.margin:.2f} s ahead of {name(r.runner_up)} "
                        f"({r.reactions.get(r.runner_up, 0):.2f} s).")
            return head + "; no computer player was going to claim it."
        head = f"{self.names[r.winner]} claimed first, in {r.window:.2f} s"
        if r.runner_up is not None:
            behind = r.window + (r.margin or 0)
            head += f": {r.margin:.2f} s ahead of {name(r.runner_up)} ({behind:.2f} s)"
        if r.learner_eligible and r.learner is None:
            head += "; you did not claim"
        return head + "."

    # -- applying ------------------------------------------------------------------------------

    def _apply(self, a: Action) -> None:
        d = self.deal
        seat = self.seat
        mine = a.player == seat
        rs = d.ruleset
        # before: what the learner's choice leaves undone
        if not d.started and a.kind in ("capture", "lie_down") or (
                not d.started and a.kind in DECLARATIONS and not d.declarations_are_free):
            if seat == d.dealer:
                take = [f for f in d.free_actions(seat) if f.kind == "take_table_mournival"]
                for f in take:
                    self.mistakes.append(Mistake(
                        "mournival_not_taken", len(d.history),
                        f"Play began with the mournival {pretty_cards(f.cards, self.symbols)} on "
                        "the table, and you were the dealer.",
                        f"Under {rs.id}, {value_words('table_mournival', rs.table_mournival)}: "
                        "that was yours to do (take) before play; left there, it is "
                        + ("an oversight for the others to claim." if "overlooked_table_mournival"
                           in rs.oversights else "four cards anyone may capture.")))
        if mine and a.kind == "capture":
            self._decide(a)
        if mine and a.kind in DECLARATIONS:
            self.opportunities.append(Opportunity("declaration", (_DECL_THEME[a.kind],), True,
                                                  None, len(d.history)))
        if mine and a.kind == "lie_down":
            decls = [f for f in d.free_actions(seat) if f.kind in DECLARATIONS]
            for f in _one_per_rank(decls):
                self.mistakes.append(Mistake(
                    "missed_declaration", len(d.history),
                    f"You lay down holding {_decl_words(f)}.", _decl_reason(f)))
        paid = len(d.payments)
        try:
            d.apply(a)
        except IllegalAction as exc:      # cannot happen for engine-offered actions
            self.io.say(explain(exc.reason, seat, self.names), style="yellow")
            return
        idx = len(d.history) - 1
        t = Text("  ")
        t.append_text(action_text(a, self.names, seat, self.symbols, self._set_aside))
        self.io.show(t)
        if len(d.payments) > paid:
            self.io.say("    " + self._payments_line(d.payments[paid:]), style="dim")
        if not mine and a.kind in ("capture", "play_on_capture") and self._decision:
            for rank in self._decision.at_risk:
                if a.rank == rank and rank not in self._decision.lost_to:
                    self._decision.lost_to[rank] = a.player
        if mine and a.kind == "capture":
            for o in d.oversights:
                if o.offender == seat and o.index == idx and o.kind == "split_prial":
                    self.mistakes.append(Mistake(
                        "split_prial", idx,
                        f"You took one card of the table prial of {RANK_PLURALS[a.rank]}.",
                        "one_for_three is allowed, so one card from hand takes all three; the "
                        "two left are now an oversight (split prial) for the others to claim."))
        if mine and a.kind in ("capture", "lie_down", "play_on_capture", "end_turn") or (
                mine and a.kind in DECLARATIONS and not d.declarations_are_free):
            self._screen_due = True
        if d.to_move == seat and not mine:
            self._screen_due = True
        self._track()

    def _payments_line(self, payments) -> str:
        """Lie-down payments as they are made (RULES.md 3.6)."""
        payer = payments[0][0]
        who = "You pay" if payer == self.seat else f"{self.names[payer]} pays"
        stakes = payments[0][2]
        unit = "stake" if stakes == 1 else "stakes"
        if payments[0][1] is None:
            return f"{who} {stakes} {unit} into the pot for lying down (pot now {self.deal.pot})."
        to = ", ".join("you" if q == self.seat else self.names[q] for _, q, _ in payments)
        return f"{who} {stakes} {unit} to each player still in for lying down: {to}."

    def _decide(self, a: Action) -> None:
        """Remember the learner's capture choice against the engine's at-risk/safe options."""
        self._close_decision()
        d = self.deal
        opts = d.capture_options(self.seat)
        rank = a.rank
        risky = {o.rank: o.reason for o in opts if o.at_risk}
        chosen = next((o for o in opts if o.rank == rank), None)
        if risky and rank not in risky and chosen is not None:
            self._decision = _Decision(len(d.history), rank, chosen.reason, risky)
        elif risky:
            self.opportunities.append(Opportunity("capture-choice", ("at-risk",), True, None,
                                                  len(d.history)))

    def _close_decision(self) -> None:
        dec = self._decision
        self._decision = None
        if dec is None:
            return
        took = RANK_PLURALS[dec.took]
        risky = ", ".join(RANK_PLURALS[r] for r in dec.at_risk)
        if dec.lost_to:
            rank, who = next(iter(dec.lost_to.items()))
            self.mistakes.append(Mistake(
                "at_risk_left", dec.index,
                f"You captured {took} and left the lone {RANK_NAMES[rank]} on the table; "
                f"{self.names[who]} took it before your next turn.",
                f"At risk: {dec.at_risk[rank]}. Safe to hold back: {dec.took_reason}."))
        else:
            self.mistakes.append(Mistake(
                "safe_too_early", dec.index,
                f"You captured {took}, which was safe to hold back, while {risky} "
                f"{'was' if len(dec.at_risk) == 1 else 'were'} at risk.",
                f"Safe: {dec.took_reason}. At risk: " + "; ".join(dec.at_risk.values()) + "."))
        self.opportunities.append(Opportunity("capture-choice", ("at-risk",), False, None,
                                              dec.index))

    # -- computer players ------------------------------------------------------------------------

    def _bot_seats(self):
        return [q for q, b in enumerate(self.bots) if b is not None]

    def _bots_free(self) -> None:
        """Computer players' declarations and table mournivals (not claims): each wanting one
        enters the engine's race at its reaction time, the fastest acts first."""
        d = self.deal
        while d.phase == "play" and d.free_pending():
            race = ClaimRace(d)
            for q in self._bot_seats():
                a = self.bots[q].free_action(d, q, self.bot_rng)
                if a is None or a.kind == "claim":
                    continue
                race.enter(q, a, self.bots[q].reaction(self.reaction_rng))
            w = race.winner()
            if w is None:
                return
            self._apply(w.action)

    def _offers(self) -> list[tuple[float, int, Action, tuple]]:
        """Computer players' claims: ``(clock time, seat, action, oversight key)``, earliest
        first (ties: lower seat first, as in the engine's race)."""
        d = self.deal
        if d.phase != "play" or not d.oversights:
            return []
        out = []
        for q in self._bot_seats():
            a = self.bots[q].free_action(d, q, self.bot_rng)
            if a is None or a.kind != "claim":
                continue
            key = self._key_for_claim(a)
            info = self._open.get(key)
            if info is None:
                continue
            if q not in info.reactions:
                info.reactions[q] = self.bots[q].reaction(self.reaction_rng)
            out.append((info.t0 + info.reactions[q], q, a, key))
        out.sort(key=lambda x: (x[0], x[1]))
        return out

    def _key_for_claim(self, a: Action):
        m = 0
        for c in a.cards:
            m |= 1 << c
        for key in self._open:
            kind, offender, mask, index = key
            if kind == a.oversight and m & mask == m:
                return key
        return None

    def _learner_can_claim(self) -> bool:
        return any(a.kind == "claim" for a in self.deal.free_actions(self.seat))

    def _window(self):
        """The open oversight whose claim window is still to run for the learner: ``(key,
        info)``, or None."""
        if self.quit or not self._open:
            return None
        mine = {self._key_for_claim(a) for a in self.deal.free_actions(self.seat)
                if a.kind == "claim"}
        for key, info in self._open.items():
            if info.eligible and not info.window_done and key in mine:
                return key, info
        return None

    # -- oversight bookkeeping --------------------------------------------------------------------

    def _track(self) -> None:
        """Open newly visible oversights, close those that have gone."""
        d = self.deal
        now = self.clock.now()
        current = {(o.kind, o.offender, o.mask, o.index): o for o in d.open_oversights()}
        for key in list(self._open):
            if key not in current:
                self._close(key, self._open.pop(key))
        for key, o in current.items():
            if key not in self._open:
                self._open[key] = _Open(now, o.index, o.offender != self.seat, self.window)
        if d.phase == "play" and d.hands[self.seat]:
            self._decls = [f for f in d.free_actions(self.seat) if f.kind in DECLARATIONS]
        if d.to_move == self.seat and d.phase != "over":
            self._close_decision()

    def _close(self, key, info: _Open) -> None:
        kind, offender, mask, index = key
        if not info.eligible:
            return
        d = self.deal
        last = d.history[-1] if d.history else None
        taken_by = None
        if last is not None and last.kind == "claim" and last.oversight == kind:
            m = 0
            for c in last.cards:
                m |= 1 << c
            if m & mask == m:
                taken_by = last.player
        if taken_by == self.seat:
            self.opportunities.append(Opportunity(
                "spot-oversight", (kind,), True, None if self.piped else info.learner, index))
            return
        self.opportunities.append(Opportunity("spot-oversight", (kind,), False, None, index))
        cards = pretty_cards(_cards_of(mask), self.symbols)
        what = f"You did not claim {_oversight_phrase(kind, self.names[offender])} ({cards})"
        if taken_by is not None:
            react = info.reactions.get(taken_by)
            text = (f"{what}: {self.names[taken_by]} claimed it"
                    + (f" after {react:.2f} s" if react is not None else "") + ".")
        elif d.phase != "play":
            text = f"{what}; nobody did before play ended."
        else:
            text = f"{what}; it stayed open until the cards were captured."
        self.mistakes.append(Mistake("missed_claim", index, text,
                                     f"Claimable ({value_short('oversights', kind)}: "
                                     f"{value_words('oversights', kind)}) from action "
                                     f"{index + 1}: {_claim_reason(kind, offender, self.names)}"))

    # -- the end ------------------------------------------------------------------------------

    def _finish(self) -> None:
        d = self.deal
        self._track()
        if d.phase == "over":
            for key in list(self._open):
                self._close(key, self._open.pop(key))
        self._close_decision()
        res = d.result
        if (res is not None and res.last_in == self.seat and self._decls
                and d.ruleset.leftovers_to != "last_in"):
            went = value_words("leftovers_to", d.ruleset.leftovers_to)
            for f in _one_per_rank(self._decls):
                self.mistakes.append(Mistake(
                    "missed_declaration", len(d.history) - 1,
                    f"Play ended with {_decl_words(f)} still in your hand.",
                    _decl_reason(f) + f" Left in hand, they were leftovers: {went}."))
        for m in self.mistakes:
            if m.kind == "missed_declaration":
                self.opportunities.append(Opportunity("declaration", (_theme_of(m),), False,
                                                      None, m.index))
        self.mistakes.sort(key=lambda m: m.index)

    # -- output ------------------------------------------------------------------------------

    def show(self) -> None:
        """Print the table as the learner sees it."""
        self.io.say()
        self.io.show(render_screen(self.deal, self.seat, self.names, self.symbols,
                                     title=self.title, totals=self.totals))
        self._screen_due = False


# -- helpers --------------------------------------------------------------------------------------

def _cards_of(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _one_per_rank(acts: list[Action]) -> list[Action]:
    seen, out = set(), []
    for a in sorted(acts, key=lambda a: (a.rank, -len(a.cards), _DECL_ORDER[a.kind])):
        if a.rank not in seen:
            seen.add(a.rank)
            out.append(a)
    return out


_DECL_ORDER = {"declare_mournival": 0, "declare_prial": 1, "declare_dead_pair": 2,
               "declare_pair": 3}
_DECL_WHAT = {"declare_prial": "a prial", "declare_mournival": "a mournival",
              "declare_dead_pair": "a dead pair", "declare_pair": "a pair"}
_DECL_THEME = {"declare_dead_pair": "dead-pair", "declare_prial": "prial",
               "declare_mournival": "mournival", "declare_pair": "pair"}


def _decl_words(a: Action) -> str:
    return f"{_DECL_WHAT[a.kind]} of {RANK_PLURALS[a.rank]}"


def _decl_reason(a: Action) -> str:
    rank = RANK_PLURALS[a.rank]
    if a.kind == "declare_dead_pair":
        return (f"The other two {rank} were already among the won cards, so the pair was dead and "
                f"could be declared ({a.kind}) at once.")
    if a.kind == "declare_mournival":
        return f"All four {rank} could be declared ({a.kind}) as two pairs."
    if a.kind == "declare_pair":
        return f"Under this ruleset any pair held may be declared ({a.kind}): two {rank}."
    return f"Two of the three {rank} could be declared ({a.kind}), keeping the third."


def _theme_of(m: Mistake) -> str:
    for word, theme in (("dead pair", "dead-pair"), ("prial", "prial"), ("mournival", "mournival"),
                        ("a pair", "pair")):
        if word in m.text:
            return theme
    return "declaration"


def _oversight_phrase(kind: str, who: str) -> str:
    return {
        "overlooked_table_mournival": f"the table mournival {who} (the dealer) left in play",
        "split_prial": f"the table prial {who} split",
        "laid_down_dead_pair": f"the dead pair {who} laid down",
        "laid_down_prial": f"the prial {who} laid down",
        "laid_down_mournival": f"the mournival {who} laid down",
    }.get(kind, f"{who}'s oversight")


def _claim_reason(kind: str, offender: int, names: list[str]) -> str:
    who = names[offender]
    return {
        "overlooked_table_mournival": f"the dealer ({who}) left four of a rank on the table when "
                                      "play began; the first claim takes all four.",
        "split_prial": f"{who} captured one card of a table prial where one card may take all "
                       "three; the first claim takes the two left.",
        "laid_down_dead_pair": f"{who} lay down holding a dead pair; the first claim takes it.",
        "laid_down_prial": f"{who} lay down holding a prial; the first claim takes two of it.",
        "laid_down_mournival": f"{who} lay down holding a mournival; the first claim takes all "
                               "four.",
    }.get(kind, "an open oversight.")
