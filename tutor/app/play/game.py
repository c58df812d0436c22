"""One practice deal: the learner at one seat, computer players at the others.

:class:`DealPlayer` runs the deal.  The learner makes every choice (captures, declarations,
claims, taking a table mournival, lying down); nothing is declared for them.  Every rule
question is the engine's: legality and reasons (:meth:`Deal.why_illegal`), at-risk and safe
captures (:meth:`Deal.capture_options`), oversights (:meth:`Deal.open_oversights`).

The claim race (Willughby: "whatever is overseen is his that can catch it first"): when an
oversight appears, each computer player that will claim it draws a reaction time for its level
(from the reactions random source, once per oversight), and claims when that time has passed.
The learner claims first by typing ``claim`` (or the space bar on an empty line) before then.
Time comes from the injected :class:`~tutor.app.play.clock.Clock`:

- on a terminal (:class:`~tutor.app.play.clock.TerminalClock`) a prompt is open after every action:
  for the fastest computer player's reaction time when one will claim, else for ``pace`` seconds
  before the next computer player moves (so the length of a pause says little);
- piped (:class:`~tutor.app.play.clock.VirtualClock`) there is no real time: a line is read after an
  action only when the learner could claim something (and on the learner's turn), and it is read
  before any computer player's reaction time has passed, so a claim typed there wins if it is
  the first claim after the action.  An empty line (``pass``) lets the computer players claim.

Afterwards, :attr:`DealPlayer.races` holds every claim race (window and reaction times) and
:attr:`DealPlayer.mistakes` every mistake of the learner, with the engine's reason.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rich.text import Text

from tutor.engine.bots import Bot
from tutor.engine.cards import RANK_NAMES, RANK_PLURALS, pretty_cards
from tutor.engine.deal import DECLARATIONS, Action, Deal
from tutor.engine.errors import IllegalAction
from tutor.app.play.inputs import HELP, WORDS, Intent, action_code, explain, interpret
from tutor.puzzles.board import action_text, grouped_text, render_screen

__all__ = ["DealPlayer", "Mistake", "Opportunity", "Race", "MISTAKE_TITLES", "OVERSIGHT_WORDS"]

TURN_PROMPT = "Your move> "
WATCH_PROMPT = "watch> "
BEFORE_PROMPT = "Before play (Enter starts)> "
WHICH_PROMPT = "Which? > "

OVERSIGHT_WORDS = {
    "overlooked_table_mournival": "a table mournival the dealer did not take before play",
    "split_prial": "a table prial split by a one-for-one capture",
    "laid_down_dead_pair": "a dead pair laid down instead of declared",
    "laid_down_prial": "a prial laid down without declaring a pair of it",
    "laid_down_mournival": "a mournival laid down instead of declared",
}

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
    """One claim: ``index`` of the claim in the deal's history, the oversight ``kind`` and
    ``cards``; ``reactions`` the computer players' reaction times (seat -> seconds) for it;
    ``learner`` the learner's time when they claimed it (None otherwise), ``learner_eligible``
    whether they could; ``winner`` the claimant; ``window`` how long the oversight stood open
    before the claim."""

    index: int
    kind: str
    cards: tuple[int, ...]
    offender: int
    reactions: dict[int, float]
    learner: float | None
    learner_eligible: bool
    winner: int
    window: float


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
    ``correct``, ``seconds``; ``index`` the history index."""

    kind: str
    themes: tuple[str, ...]
    correct: bool
    seconds: float
    index: int


@dataclass
class _Open:
    t0: float
    index: int
    eligible: bool
    reactions: dict[int, float] = field(default_factory=dict)
    learner: float | None = None


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
    ``bot_rng`` drives their choices and ``reaction_rng`` their reaction times; ``asker`` reads
    the learner's lines (:class:`~tutor.puzzles.terminal.Asker` or alike), ``clock`` is a
    :class:`~tutor.app.play.clock.Clock`; ``console`` a rich console; ``names`` one name per seat;
    ``pace`` the seconds a terminal waits before each computer player's turn; ``title`` heads the
    screen; ``totals`` the match totals shown beside the names.
    """

    def __init__(self, deal: Deal, seat: int, bots: list[Bot | None], *, bot_rng: random.Random,
                 reaction_rng: random.Random, asker, clock, console, names: list[str],
                 symbols: bool = True, pace: float = 1.0, title: str = "",
                 totals: list[int] | None = None):
        self.deal = deal
        self.seat = seat
        self.bots = bots
        self.bot_rng = bot_rng
        self.reaction_rng = reaction_rng
        self.asker = asker
        self.clock = clock
        self.out = console
        self.names = names
        self.symbols = symbols
        self.pace = pace
        self.title = title
        self.totals = totals
        self.races: list[Race] = []
        self.mistakes: list[Mistake] = []
        self.opportunities: list[Opportunity] = []
        self.quit = False
        self._open: dict[tuple, _Open] = {}
        self._decision: _Decision | None = None
        self._decls: list[Action] = []
        self._screen_due = True
        self._hint_shown = False
        self._set_aside = deal.ruleset.table_mournival == "set_aside_for_last_in"
        for q, b in enumerate(bots):
            if b is not None:
                b.start(deal)

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
            now = self.clock.now()
            eligible = self._learner_can_claim()
            if d.to_move == self.seat:
                if self._screen_due:
                    self.show()
                timeout = offers[0][0] - now if offers else None
                if timeout is not None and timeout <= 0:
                    self._bot_claim(offers[0])
                    continue
                text = self.clock.read(self.asker, TURN_PROMPT, timeout, words=WORDS)
                if text is None:
                    self._bot_claim(offers[0])
                    continue
                self._handle(text, turn=True)
                continue
            if offers:
                if self.clock.realtime or eligible:
                    timeout = offers[0][0] - now
                    if timeout > 0:
                        text = self.clock.read(self.asker, WATCH_PROMPT, timeout, words=WORDS,
                                               erase=True)
                        if text is not None and self._handle(text, turn=False) != "pass":
                            continue
                self._bot_claim(offers[0])
                continue
            if self.clock.realtime or eligible:
                text = self.clock.read(self.asker, WATCH_PROMPT,
                                       self.pace if self.clock.realtime else None,
                                       words=WORDS, extend_while_typing=True, erase=True)
                if text is not None and self._handle(text, turn=False) != "pass":
                    continue
            bot = self.bots[d.to_move]
            a = bot.choose(d, d.legal_actions(), self.bot_rng)
            self._apply(a)
        self._finish()
        return self

    def _before_play(self) -> None:
        d = self.deal
        while not d.started and d.phase == "play" and not self.quit:
            text = self.clock.read(self.asker, BEFORE_PROMPT, None, words=WORDS)
            r = self._handle(text or "", turn=False, before=True)
            if r == "pass":
                return

    # -- the learner's input ------------------------------------------------------------------

    def _handle(self, text: str, turn: bool, before: bool = False) -> str:
        """Act on one line; returns ``pass``, ``info``, ``error``, ``quit`` or ``acted``."""
        d = self.deal
        when = self.clock.now()
        intent = interpret(text, d, self.seat, self.names)
        if intent.kind == "pass":
            if turn:
                self.say("It is your turn: capture, or lie down if you cannot (type moves for "
                         "the moves, help for how).", style="yellow")
                return "info"
            return "pass"
        if intent.kind == "quit":
            self.quit = True
            return "quit"
        if intent.kind == "info":
            self._info(intent.name)
            return "info"
        if intent.kind == "error":
            self.say(intent.message, style="yellow")
            return "error"
        a = self._choose(intent)
        if a is None:
            return "info"
        self._apply(a, learner_time=when)
        return "acted"

    def _choose(self, intent: Intent) -> Action | None:
        acts = intent.actions
        if len(acts) == 1:
            return acts[0]
        self.say("Which one?")
        for i, a in enumerate(acts, 1):
            t = Text(f"  {i}. ")
            t.append_text(action_text(a, self.names, self.seat, self.symbols, self._set_aside))
            t.append(f"   [{action_code(a)}]", style="dim")
            self.out.print(t)
        while True:
            text = self.clock.read(self.asker, WHICH_PROMPT, None, words=())
            text = (text or "").strip()
            if not text or text.lower() in ("cancel", "no", "none", "back"):
                return None
            if text.isdigit() and 1 <= int(text) <= len(acts):
                return acts[int(text) - 1]
            sub = interpret(text, self.deal, self.seat, self.names)
            if sub.kind == "actions":
                both = [a for a in sub.actions if a in acts]
                if len(both) == 1:
                    return both[0]
            self.say(f"Type a number from 1 to {len(acts)}, or Enter to go back.", style="yellow")

    def _info(self, name: str) -> None:
        d = self.deal
        if name == "help":
            self.out.print(HELP, highlight=False, markup=False)
        elif name == "hand":
            t = Text("Your hand: ", style="bold cyan")
            t.append_text(grouped_text(d.hand(self.seat), self.symbols))
            self.out.print(t)
        elif name == "look":
            self.show()
        elif name == "moves":
            if d.to_move == self.seat and d.phase != "over":
                moves = [action_code(a) for a in d.legal_actions()]
                self.say("Your moves: " + " | ".join(moves))
            else:
                who = self.names[d.to_move] if d.to_move is not None else "nobody"
                self.say(f"It is {who}'s turn. You may claim an oversight at any time"
                         + (", and declare from your hand" if d.ruleset.hand_plays == "free"
                            else "")
                         + ".")

    # -- applying ------------------------------------------------------------------------------

    def _apply(self, a: Action, learner_time: float | None = None) -> None:
        d = self.deal
        seat = self.seat
        mine = a.player == seat
        # before: what the learner's choice leaves undone
        if not d.started and a.kind in ("capture", "lie_down") or (
                not d.started and a.kind in DECLARATIONS and d.ruleset.hand_plays == "turn"):
            if seat == d.dealer:
                take = [f for f in d.free_actions(seat) if f.kind == "take_table_mournival"]
                for f in take:
                    where = ("set it aside for the last player in" if self._set_aside
                             else "take it into your won cards")
                    self.mistakes.append(Mistake(
                        "mournival_not_taken", len(d.history),
                        f"Play began with the mournival {pretty_cards(f.cards, self.symbols)} on "
                        "the table, and you were the dealer.",
                        f"The dealer should {where} before play (the engine offered "
                        f"take_table_mournival); left there, it is "
                        + ("an oversight for the others to claim." if "overlooked_table_mournival"
                           in d.ruleset.oversights else "four cards anyone may capture.")))
        if mine and a.kind == "capture":
            self._decide(a)
        if mine and a.kind in DECLARATIONS:
            self.opportunities.append(Opportunity("declaration", (_DECL_THEME[a.kind],), True, 0.0,
                                                  len(d.history)))
        if mine and a.kind == "lie_down":
            decls = [f for f in d.free_actions(seat) if f.kind in DECLARATIONS]
            for f in _one_per_rank(decls):
                self.mistakes.append(Mistake(
                    "missed_declaration", len(d.history),
                    f"You lay down holding {_decl_words(f, self.symbols)}.",
                    _decl_reason(f, d)))
        claim_key = None
        if a.kind == "claim":
            claim_key = self._key_for_claim(a)
        try:
            d.apply(a)
        except IllegalAction as exc:      # cannot happen for engine-offered actions
            self.say(explain(str(exc), seat, self.names), style="yellow")
            return
        idx = len(d.history) - 1
        t = Text("  ")
        t.append_text(action_text(a, self.names, seat, self.symbols, self._set_aside))
        self.out.print(t)
        if a.kind == "claim":
            self._race_done(a, claim_key, learner_time)
        if not mine and a.kind in ("capture", "play_on_capture") and self._decision:
            for rank in self._decision.at_risk:
                if a.table[0] >> 2 == rank and rank not in self._decision.lost_to:
                    self._decision.lost_to[rank] = a.player
        if mine and a.kind == "capture":
            for o in d.oversights:
                if o.offender == seat and o.index == idx and o.kind == "split_prial":
                    self.mistakes.append(Mistake(
                        "split_prial", idx,
                        f"You took one card of the table prial of {RANK_PLURALS[a.table[0] >> 2]}.",
                        "one_for_three is allowed, so one card from hand takes all three; the "
                        "two left are now an oversight (split prial) for the others to claim."))
        if mine and a.kind in ("capture", "lie_down", "play_on_capture") or (
                mine and a.kind in DECLARATIONS and d.ruleset.hand_plays == "turn"):
            self._screen_due = True
        if d.to_move == seat and not mine:
            self._screen_due = True
        self._track()

    def _decide(self, a: Action) -> None:
        """Remember the learner's capture choice against the engine's at-risk/safe options."""
        self._close_decision()
        d = self.deal
        opts = d.capture_options(self.seat)
        rank = a.table[0] >> 2
        risky = {o.rank: o.reason for o in opts if o.at_risk}
        chosen = next((o for o in opts if o.rank == rank), None)
        if risky and rank not in risky and chosen is not None:
            self._decision = _Decision(len(d.history), rank, chosen.reason, risky)
        elif risky:
            self.opportunities.append(Opportunity("capture-choice", ("at-risk",), True, 0.0,
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
        self.opportunities.append(Opportunity("capture-choice", ("at-risk",), False, 0.0,
                                              dec.index))

    # -- computer players ------------------------------------------------------------------------

    def _bot_seats(self):
        return [q for q, b in enumerate(self.bots) if b is not None]

    def _bots_free(self) -> None:
        """Computer players' declarations and table mournivals (not claims), fastest first."""
        d = self.deal
        while d.phase == "play" and d.free_pending():
            best = None
            for q in self._bot_seats():
                a = self.bots[q].free_action(d, q, self.bot_rng)
                if a is None or a.kind == "claim":
                    continue
                t = self.bots[q].reaction(self.reaction_rng)
                if best is None or t < best[0]:
                    best = (t, a)
            if best is None:
                return
            self._apply(best[1])

    def _offers(self) -> list[tuple[float, int, Action, tuple]]:
        """Computer players' claims: ``(deadline, seat, action, key)``, earliest first."""
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

    def _bot_claim(self, offer) -> None:
        self._apply(offer[2])

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
                self._open[key] = _Open(now, o.index, o.offender != self.seat)
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
            self.opportunities.append(Opportunity("spot-oversight", (kind,), True,
                                                  info.learner or 0.0, index))
            return
        window = self.clock.now() - info.t0
        self.opportunities.append(Opportunity("spot-oversight", (kind,), False, window, index))
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
                                     f"Claimable ({kind}) from action {index + 1}: "
                                     f"{_claim_reason(kind, offender, self.names)}"))

    def _race_done(self, a: Action, key, learner_time: float | None) -> None:
        info = self._open.get(key) if key is not None else None
        if info is None:
            return
        won_by_learner = a.player == self.seat
        learner = (learner_time - info.t0) if won_by_learner and learner_time is not None else None
        if won_by_learner:
            info.learner = max(0.0, learner or 0.0)
        window = (learner if won_by_learner else info.reactions.get(a.player, 0.0)) or 0.0
        race = Race(len(self.deal.history) - 1, key[0], a.cards, key[1], dict(info.reactions),
                    info.learner if won_by_learner else None, info.eligible, a.player,
                    max(0.0, window))
        self.races.append(race)
        self.out.print(Text("    " + self.race_line(race), style="dim"))

    def race_line(self, r: Race) -> str:
        """The claim window and the reaction times, said after the fact."""
        parts = [f"{self.names[q]} {t:.2f} s" for q, t in sorted(r.reactions.items(),
                                                                key=lambda x: x[1])]
        if r.winner == self.seat:
            note = (" (piped: no real time, your line is read first)"
                    if getattr(self.clock, "piped", False) else "")
            head = f"You claimed after {r.learner or 0:.2f} s{note}"
            tail = ("; their reaction times: " + ", ".join(parts)) if parts else \
                "; no computer player was going to claim it"
            return head + tail
        head = f"Claim window {r.window:.2f} s; reaction times: " + ", ".join(parts)
        if r.learner_eligible:
            head += "; you did not claim"
        return head

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
            went = "the dealer" if d.ruleset.leftovers_to == "dealer" else "nobody"
            for f in _one_per_rank(self._decls):
                self.mistakes.append(Mistake(
                    "missed_declaration", len(d.history) - 1,
                    f"Play ended with {_decl_words(f, self.symbols)} still in your hand.",
                    _decl_reason(f, d) + f" Left in hand, the cards went to {went}."))
        for m in self.mistakes:
            if m.kind == "missed_declaration":
                self.opportunities.append(Opportunity("declaration", (_theme_of(m),), False, 0.0,
                                                      m.index))
        self.mistakes.sort(key=lambda m: m.index)

    # -- output ------------------------------------------------------------------------------

    def say(self, text: str, style: str = "") -> None:
        self.out.print(Text(text, style=style))

    def show(self) -> None:
        """Print the table as the learner sees it."""
        self.out.print()
        self.out.print(render_screen(self.deal, self.seat, self.names, self.symbols,
                                     title=self.title, totals=self.totals))
        self._screen_due = False


# -- helpers --------------------------------------------------------------------------------------

def _cards_of(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _one_per_rank(acts: list[Action]) -> list[Action]:
    seen, out = set(), []
    for a in sorted(acts, key=lambda a: (a.cards[0] >> 2, -len(a.cards))):
        r = a.cards[0] >> 2
        if r not in seen:
            seen.add(r)
            out.append(a)
    return out


def _decl_words(a: Action, symbols: bool) -> str:
    rank = a.cards[0] >> 2
    what = {"declare_prial": "a prial", "declare_mournival": "a mournival",
            "declare_dead_pair": "a dead pair"}[a.kind]
    return f"{what} of {RANK_PLURALS[rank]}"


def _decl_reason(a: Action, d: Deal) -> str:
    rank = RANK_PLURALS[a.cards[0] >> 2]
    if a.kind == "declare_dead_pair":
        return (f"The other two {rank} were already among the won cards, so the pair was dead and "
                f"could be declared ({a.kind}) at once.")
    if a.kind == "declare_mournival":
        return f"All four {rank} could be declared ({a.kind}) as two pairs."
    return f"Two of the three {rank} could be declared ({a.kind}), keeping the third."


_DECL_THEME = {"declare_dead_pair": "dead-pair", "declare_prial": "prial",
               "declare_mournival": "mournival"}


def _theme_of(m: Mistake) -> str:
    for word, theme in (("dead pair", "dead-pair"), ("prial", "prial"), ("mournival", "mournival")):
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
