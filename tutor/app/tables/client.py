"""``laugh table join`` and ``laugh table watch``: a player's terminal at a live table, and the
organiser's view of every table.

The network side runs in a thread of its own with an asyncio loop (:class:`Link`: the
``websockets`` client); every message the server sends is read at the edge
(:func:`~tutor.app.tables.protocol.read_server`) and put in a queue.  The player's side is the
I/O seam (:class:`tutor.teaching.io.LearnerIO`), which is synchronous:

- on a terminal, the prompt stays open while the table plays; the messages are taken from the
  queue ten times a second by the prompt's events and printed above it (the actions, who
  claimed what, the replies), and the prompt closes when the screen must change (your turn, a
  new deal).  The space bar on an empty line is the claim key, at any moment: name the cards
  (or the rank) and press Enter; the claim goes to the server, whose clock decides the race on
  its arrival;
- piped (one action a line, for tests and scripts): the lines are read as they arrive and
  taken in order.  The watch is always open, as on a terminal: a claim line (``claim 9s 9d``,
  ``claim nines``, or ``claim`` and the naming on the next line) that comes while it is not
  your turn goes to the server at once, whatever the table is doing, and the server referees
  it blind (the client asks nothing first and is told nothing but the answer to that claim,
  the same whatever is open); so does one typed while you choose among captures
  (``Which?``), which is then asked again.  Any other line waits for your turn (or, when you
  deal, the moment before play): moves, declarations, info words, and claims typed at your
  turn.

Ctrl-C and Ctrl-D (or the end of piped input) leave the table: the seat stays yours, and the
token the join gave takes it back (the command that does it is printed whole, on a line of
its own, when you join and when you leave).  A connection that drops is tried again by
itself with the token, by websockets' own reconnection (``async for websocket in
connect(...)``, its backoff with jitter: at once, then after a wait drawn at random, then
longer each time, up to half a minute, ``tries`` times in all:
:class:`~tutor.app.tables._link.Link`); a client that gives up says how to come back and
exits 1.

The clock of the move being waited for comes in each state (the server's ``left`` seconds):
on a terminal it counts down in the prompt's bottom line, yours or another person's (drawn
again when the person awaited changes, goes away or comes back); piped, a line says how long
your move may take when your turn comes.

On a terminal, a deal's settlement and review stay on the screen until the player presses
Enter (or the claim key) or their turn comes in the next deal: meanwhile one line says that
the next deal has begun, and neither its table nor its moves are drawn.  Under 60 columns the
table leaves out the moves already printed above it and sets the won piles under the seats,
so that a 24-line screen keeps its header and the player's own row.  What the table waits for
(the organiser, more people, the other tables) is said as the server tells it.

The module's private parts: :mod:`~tutor.app.tables._link` (the network thread),
:mod:`~tutor.app.tables._screens` (the review, the standings, the score sheet),
:mod:`~tutor.app.tables._organiser` (the organiser's screen and commands).
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Any

from rich.text import Text

from tutor.app.play.inputs import CLAIM_KEYS, NAME_PROMPT, WORDS, classify, help_text
from tutor.app.play.prompting import (
    TURN_PROMPT,
    WATCH_PROMPT,
    WHICH_PROMPT,
    PromptLoop,
    moves_line,
)
from tutor.app.tables._link import Link, Linked, Rejoining
from tutor.app.tables._organiser import organise, overview_text, watch_tables
from tutor.app.tables._screens import (
    review_text,
    scored_match,
    settlement_view,
    standings_table,
)
from tutor.app.tables.messages import (
    Bye,
    ClockState,
    Closed,
    DealOver,
    Incoming,
    LineCame,
    MatchOver,
    Refusal,
    Reply,
    Retrying,
    Say,
    Standings,
    State,
    Waiting,
    Welcome,
)
from tutor.app.tables.protocol import COMPUTER, spaced
from tutor.engine.errors import LaughError, RecordError
from tutor.engine.observe import Observation
from tutor.engine.reasons import CLAIM_AT_ANY_TIME
from tutor.engine.rulesets import Ruleset
from tutor.puzzles.board import (
    action_text,
    hanging,
    pile_text,
    render_observation,
)
from tutor.puzzles.render import shown_cards
from tutor.teaching.io import Event, LearnerIO

__all__ = [
    "BEFORE_PROMPT",
    "CLAIM_KEYS",
    "NAME_PROMPT",
    "TURN_PROMPT",
    "WATCH_PROMPT",
    "WHICH_PROMPT",
    "Link",
    "PlayerClient",
    "join_table",
    "organise",
    "overview_text",
    "review_text",
    "standings_table",
    "watch_tables",
]

BEFORE_PROMPT = "Before play (take, or Enter starts)> "
#: What ``help`` says at a table (the words are a practice deal's: :mod:`tutor.app.play.inputs`).
HELP = help_text("table")
#: Seconds between two looks at the queue while a prompt is open on a terminal.
POLL = 0.1


def _clock(c: ClockState | None, now: float) -> tuple[float, float, int, str] | None:
    """The clock a state carries (:class:`~tutor.app.tables.messages.ClockState`: ``seat``,
    ``kind``, ``left`` seconds) as the client keeps it: (local deadline, seconds in all, seat,
    kind), with ``now`` the local clock; None when there is none."""
    if c is None:
        return None
    left = float(c.left)
    return now + left, left, c.seat, c.kind


def _awaited(c: tuple[float, float, int, str] | None) -> tuple[int, str, float] | None:
    """Whom a clock waits for, how, and until when (seat, kind, local deadline)."""
    return None if c is None else (c[2], c[3], c[0])


def _moved(a: tuple[int, str, float] | None, b: tuple[int, str, float] | None) -> bool:
    """Whether the countdown must be drawn again: another person awaited, the same one gone
    (or back), or the deadline moved by more than a second (a state's ``left`` is rounded)."""
    if a is None or b is None:
        return a is not b
    return a[:2] != b[:2] or abs(a[2] - b[2]) > 1.0


def _ruleset(rid: str) -> Ruleset:
    from tutor.engine.sources import default_library

    lib = default_library()
    if rid not in lib.rulesets:
        raise LaughError(
            f"the table plays ruleset {rid!r}, which is not known here: load its "
            "file with --sources DIR"
        )
    return lib.rulesets[rid]


class PlayerClient(Rejoining, PromptLoop):
    """A player at a live table, through ``io`` (:class:`tutor.teaching.io.LearnerIO`) and
    ``link`` (:class:`~tutor.app.tables._link.Linked`: a :class:`Link`, which takes the seat
    back by itself, ``tries`` times, when the connection drops, or a stand-in with its
    ``inbox``, ``send`` and ``close``).  Its
    prompts read lines through the one loop of a practice deal and a live table
    (:class:`tutor.app.play.prompting.PromptLoop`); the moves and claims go to the server."""

    help = HELP
    where = "table"

    def __init__(
        self,
        io: LearnerIO,
        link: Linked,
        address: str,
        code: str,
        name: str,
        *,
        livery: str | None = None,
        tries: int = 20,
    ):
        self.io = io
        self.link = link
        self.address, self.code, self.name = address, code, name
        self.livery = livery
        self.tries = tries
        #: The clock of the move waited for: (local deadline, seconds in all, seat, kind).
        self.clock: tuple[float, float, int, str] | None = None
        self.stopping = False
        self.finished = False
        self.leaving = False
        self._told = False
        self.symbols = io.symbols
        self.seat: int | None = None
        self.token: str | None = None
        self.names: list[str] = []
        self.rs: Ruleset | None = None
        self.obs: Observation | None = None
        self.deal = -1
        self.shown = 0  # actions printed of the current deal
        self.totals: list[int] = []
        self.game = ""
        self.seated = False
        self.done = False
        self.status = 0
        self.seq = 0
        self.replies: dict[int, Reply] = {}
        self._typed: dict[int, str] = {}  # the line of each move sent, by its seq
        self.hint = False
        self._turn_shown = -1
        self._drawn: tuple[int, int] | None = None  # (deal, actions) the last screen showed
        #: On a terminal, after a deal's settlement and review: the next deal is not drawn
        #: (nor its moves printed) until the player presses Enter or it is their turn, so
        #: that the review stays on the screen.
        self.holding = False
        self._held_said = -1

    # -- the queue ----------------------------------------------------------------------------

    def _take(self, timeout: float | None) -> Incoming | None:
        try:
            return (
                self.link.inbox.get(timeout=timeout)
                if timeout != 0
                else self.link.inbox.get_nowait()
            )
        except queue.Empty:
            return None

    def drain(self) -> bool:
        """Handle every message waiting; True when any came."""
        got = False
        while True:
            msg = self._take(0)
            if msg is None:
                return got
            got = True
            self.handle(msg)

    def wait_for(self, done: Callable[[], bool], timeout: float = 60.0) -> bool:
        """Handle messages until ``done()`` (or the connection ends, or ``timeout`` seconds
        pass with nothing coming); True when ``done()``."""
        while not done():
            if self.done:
                return False
            msg = self._take(timeout)
            if msg is None:
                return done()
            self.handle(msg)
        return True

    # -- messages ------------------------------------------------------------------------------

    def handle(self, msg: Incoming) -> None:
        """Act on one message from the server, or an event of the link (print what the player
        should see)."""
        io = self.io
        if isinstance(msg, Welcome):
            self._welcome(msg)
        elif isinstance(msg, State):
            self._state(msg)
        elif isinstance(msg, Say):
            io.say(msg.text, style="dim")
        elif isinstance(msg, Waiting):
            if msg.text:
                io.say(msg.text, style="bold")
        elif isinstance(msg, Reply):
            typed = self._typed.pop(msg.seq, "") if msg.seq is not None else ""
            if msg.seq is not None:
                self.replies[msg.seq] = msg
            if msg.choices:
                pass  # the question is asked with its choices (:meth:`_act`)
            elif msg.to == "act" and not msg.ok:  # a move refused: said as practice says it
                self.refused(msg.text, typed, msg.unreadable)
            elif msg.text:
                hinted = msg.ok and msg.to == "hint"
                io.say(msg.text, style="cyan" if hinted else "green" if msg.ok else "yellow")
        elif isinstance(msg, Refusal):
            io.say(f"Refused: {msg.text}", style="yellow")
        elif isinstance(msg, DealOver):
            self._deal_over(msg)
        elif isinstance(msg, Standings):
            io.show(standings_table(msg))
        elif isinstance(msg, MatchOver):
            self._match_over(msg)
        elif isinstance(msg, Bye):
            io.say(msg.text or "The table has closed.", style="yellow")
            self.stopping = msg.reason == "stopping"
            if msg.reason == "replaced":
                self.done = True
        elif isinstance(msg, Retrying):
            self.retrying(msg)
        elif isinstance(msg, Closed):
            if self.finished or self.leaving or self.done:
                self.done = True
            elif msg.gave_up:
                self.gave_up()
                self.done, self.status = True, 1
            else:
                io.say(msg.text or "The table has closed.", style="yellow")
                self.done, self.status = True, 1
        # Pong, LineCame (a piped line has come: read_ahead), an organiser's message: nothing

    def _welcome(self, msg: Welcome) -> None:
        io = self.io
        self.seat, self.token = msg.seat, msg.token
        self.names = list(msg.names)
        self.rs = _ruleset(msg.ruleset)
        self.hint = msg.hint
        self.seated = msg.seated
        self.name = msg.name or self.name
        self.move_time = float(msg.move_time)
        self.reserve = float(msg.reserve)
        back = "back " if msg.back else ""
        clock = (
            f"{self.move_time:g} s a move, {self.reserve:g} s reserve a deal"
            if self.move_time
            else "no move clock"
        )
        io.say(
            f"You are {back}at table {msg.table}, seat {self.seat}, as {msg.name} "
            f"({self.rs.short_title}, {msg.players} players; computer players: {msg.level}; hints "
            f"{'on' if self.hint else 'off'}; {clock}).",
            style="bold",
        )
        if not self.seated:
            io.say(
                "A computer player has this seat until the deal ends: you watch until then.",
                style="dim",
            )
        if not self._told:
            self._told = True
            io.say(
                f"Your seat code is {spaced(msg.token)}: keep it, it takes your seat back "
                "(here, or at the table's page):",
                style="dim",
            )
            self.say_rejoin()

    def _state(self, msg: State) -> None:
        deal = msg.deal
        new = deal != self.deal or msg.seated != self.seated
        earlier = () if new else (self.obs.history if self.obs else ())
        try:
            obs = Observation.from_json(msg.obs, earlier)
        except RecordError as exc:
            self.io.say(f"The server sent a state this client cannot read: {exc}", style="yellow")
            return
        self.names = list(msg.names or self.names)
        self.totals = list(msg.totals)
        self.game = msg.game
        self.clock = _clock(msg.clock, self.io.clock.now())
        if new:
            self.deal, self.shown = deal, 0
            self.seated = msg.seated
            self._turn_shown = -1
            self.obs = obs
            if self.holding:
                self._held(msg.game)
                self.shown = len(obs.history)
                return
            self.show(title=True)
            self.shown = len(obs.history)
            self._turn_shown = len(obs.history)  # the screen is up already
            return
        self.obs = obs
        if self.holding:  # the review stays: the moves are on the table when drawn
            self.shown = len(obs.history)
            return
        set_aside = self.rs is not None and self.rs.game().sets_aside_table_mournival
        came = obs.history[self.shown :]
        for a in came:
            t = Text("  ")
            t.append_text(action_text(a, self.shown_names(), obs.seat, self.symbols, set_aside))
            self.io.show(t)
        self.shown = len(obs.history)
        if came and not obs.over:  # whoever acted, the screen shows the table as it is
            self.show()

    def _held(self, game: str) -> None:
        """A new deal while the review is held: said in one line, once."""
        if self._held_said == self.deal:
            return
        self._held_said = self.deal
        self.io.say(
            f"{game or 'The next deal'} has begun: press Enter to see the table "
            "(it is drawn at your turn).",
            style="dim",
        )

    def release(self) -> None:
        """The review held on the screen gives way to the table (a key, or the player's
        turn)."""
        if not self.holding:
            return
        self.holding = False
        if self.obs is not None and not self.obs.over and self.deal >= 0:
            self.show(title=True)
            self.shown = len(self.obs.history)

    def shown_names(self) -> list[str]:
        """The names as this player reads them: "You" at their own seat; on a terminal under
        60 columns a computer player's "(computer)" shortened to "(comp.)", the same word cut,
        so that a seat's row (name, hand, won, total) fits 40 columns (issue 45: "(bot)" there
        was a second word for it)."""
        names = list(self.names)
        if self.seated and self.seat is not None and self.seat < len(names):
            names[self.seat] = "You"
        if self.io.width < 60:
            names = [n[: -len(COMPUTER)] + "(comp.)" if n.endswith(COMPUTER) else n for n in names]
        return names

    def show(self, title: bool = False) -> None:
        """The table as this seat sees it."""
        if self.obs is None or self.rs is None:
            return
        head = f"Table · {self.game}" if title and self.game else ""
        narrow = self.io.width < 60
        names = self.shown_names()
        drawn = render_observation(
            self.obs,
            self.rs,
            names,
            self.symbols,
            title=head,
            totals=self.totals or None,
            recent=0 if narrow else 4,
            show_piles=not narrow,
        )
        if narrow:
            # A small terminal: the moves are printed above as they come (no "Last:" again),
            # and each won pile under the seats, whole, at the full width (beside a seat's
            # row it had four columns and took a line a rank): the header and your own row
            # stay on a 24-line screen.
            o = self.obs
            at = (1 if head else 0) + 1 + o.players
            seat = o.seat if o.seat is not None else 0
            piles = [
                hanging(Text(f"  {names[q]}: ", style="dim"), pile_text(o.won[q], self.symbols))
                for q in ((seat + k) % o.players for k in range(o.players))
                if o.won[q]
            ]
            drawn.renderables[at:at] = piles
        self.io.say()
        self.io.show(drawn)
        self._drawn = (self.deal, len(self.obs.history))

    def _deal_over(self, msg: DealOver) -> None:
        io = self.io
        io.say()
        if self.rs is not None:
            try:
                io.show(settlement_view(msg, self.seat, self.names, self.rs, self.symbols))
            except RecordError as exc:
                io.say(
                    f"The server sent a settlement this client cannot read: {exc}", style="yellow"
                )
        if msg.review is not None:
            io.show(review_text(msg.review))
        io.say(f"{msg.deals} of {msg.of} games played.", style="dim")
        if io.clock.realtime and msg.deals < msg.of:
            self.holding = True
            io.say("The review stays until you press Enter or it is your turn.", style="dim")

    def _match_over(self, msg: MatchOver) -> None:
        io = self.io
        io.say()
        io.say("The match is over.", style="bold")
        if msg.scores is not None and msg.seat is not None and self.rs is not None:
            from tutor.app.match_sheet import sheet_renderable

            match, scored = scored_match(self.rs, msg)
            io.show(sheet_renderable(match, msg.seat, self.name, msg.livery, scores=scored))
        self.finished = True
        self.done = True

    # -- sending -------------------------------------------------------------------------------

    def send(self, kind: str, **fields: object) -> int | None:
        """Send an intent; returns its ``seq`` (None, and a line said, when a text in it is
        not text: piped bytes that are not UTF-8)."""
        for v in fields.values():
            if isinstance(v, str):
                try:
                    v.encode("utf-8")
                except UnicodeEncodeError:
                    self.io.say(
                        "That line is not text (bytes that are not UTF-8): nothing sent.",
                        style="yellow",
                    )
                    return None
        self.seq += 1
        if kind == "act" and isinstance(fields.get("text"), str):
            self._typed[self.seq] = str(fields["text"])
        self.link.send({"type": kind, "seq": self.seq, **fields})
        return self.seq

    def ask_server(self, kind: str, **fields: object) -> Reply | None:
        """Send an intent and wait for its reply (handling whatever else comes meanwhile)."""
        seq = self.send(kind, **fields)
        if seq is None:
            return None
        self.wait_for(lambda: seq in self.replies, timeout=30)
        return self.replies.pop(seq, None)

    # -- the prompts --------------------------------------------------------------------------

    @property
    def my_turn(self) -> bool:
        return bool(self.seated and self.obs is not None and self.obs.my_turn)

    @property
    def before_play(self) -> bool:
        o = self.obs
        return bool(
            self.seated
            and o is not None
            and not o.over
            and not o.started
            and any(a.kind == "take_table_mournival" for a in o.free_moves())
        )

    def _events(self, seconds: float = 30.0) -> list[Event]:
        """Looks at the queue every :data:`POLL` seconds for ``seconds``: each prints what
        came, and closes the prompt when the screen must change."""
        clock = self.io.clock
        start = clock.now()
        turn, deal = self.my_turn, self.deal
        holding = self.holding
        awaited = _awaited(self.clock)

        def look() -> bool:
            self.drain()
            return (
                self.done
                or self.my_turn != turn
                or self.deal != deal
                or (self.holding != holding)
                or _moved(awaited, _awaited(self.clock))
            )

        return [(start + POLL * (k + 1), look) for k in range(int(seconds / POLL))]

    def run(self) -> int:
        """Play until the match ends, the connection ends, or the player leaves; returns the
        exit status (0; 130 after Ctrl-C)."""
        self.link.start()
        problem: list[str] = []

        def joined() -> bool:
            return self.seat is not None or bool(problem)

        while not joined():
            msg = self._take(20)
            if msg is None:
                problem.append("the server did not answer the join")
            elif isinstance(msg, (Refusal, Closed, Bye)):
                problem.append(msg.text)
            else:
                self.handle(msg)
        if self.seat is None:
            self.link.close()
            raise LaughError(problem[0])
        if not self.io.clock.realtime and hasattr(self.io, "read_ahead"):
            self.io.read_ahead(lambda: self.link.inbox.put(LineCame()))
        try:
            while not self.done:
                self.drain()
                if self.done:
                    break
                o = self.obs
                if self.holding and (self.my_turn or self.before_play):
                    self.release()  # their turn: the table, whatever the review
                if self.my_turn and o is not None:
                    if self._turn_shown != len(o.history):
                        self._turn_shown = len(o.history)
                        if self._drawn != (self.deal, len(o.history)):
                            self.show()
                        self._say_clock()
                    self.prompt(TURN_PROMPT, turn=True)
                elif self.before_play and o is not None and o.seat == o.dealer:
                    self.prompt(BEFORE_PROMPT, turn=False, before=True)
                elif self.io.clock.realtime:
                    self.prompt(WATCH_PROMPT, turn=False)
                elif not self._watch_line():
                    msg = self._take(0.5)  # a line arriving wakes this (read_ahead)
                    if msg is not None:
                        self.handle(msg)
        except EOFError:
            self._leave()
            return 0
        except KeyboardInterrupt:
            self._leave()
            return 130
        self.link.close()
        return self.status

    def _say_clock(self) -> None:
        """Piped: how long this move may take (a terminal shows it counting down)."""
        if self.io.clock.realtime or self.clock is None or self.clock[2] != self.seat:
            return
        left = max(0.0, self.clock[0] - self.io.clock.now())
        self.io.say(
            f"Your move: {left:.0f} s (your move time, then your reserve); then a "
            "computer player moves for you.",
            style="dim",
        )

    def _countdown(self, turn: bool) -> dict[str, Any]:
        """The prompt's countdown: the clock of the move being waited for, yours or
        another's."""
        if self.clock is None:
            return {}
        deadline, total, seat, kind = self.clock
        if turn and seat == self.seat:
            label = "Your move"
        elif seat < len(self.names):
            label = f"{self.names[seat]} to move" + (" (away)" if kind == "away" else "")
        else:
            return {}
        return {"label": label, "deadline": deadline, "total": total}

    def _leave(self) -> None:
        self.leaving = True
        if not self.done:
            self.link.send({"type": "leave"})
            self.io.say(
                "You left the table; your seat stays yours, and this takes it back:", style="dim"
            )
            self.say_rejoin()
        self.link.close()

    def _watch_line(self) -> bool:
        """Piped, not at your turn: when the next line has come and is a claim (or a word that
        leaves), take it now, at the watch; True when one was taken."""
        waiting = getattr(self.io, "waiting", None)
        text = waiting() if waiting is not None else None
        if text is None:
            return False
        if classify(text).kind not in ("claim", "quit"):
            return False
        self.prompt(WATCH_PROMPT, turn=False)
        return True

    def prompt(self, prompt: str, turn: bool, before: bool = False) -> None:
        """One line from the player (and what it leads to)."""
        io = self.io
        realtime = io.clock.realtime
        if realtime:
            reply = io.read(
                prompt,
                30.0,
                words=WORDS,
                events=self._events(),
                keys=CLAIM_KEYS,
                erase=not turn,
                **self._countdown(turn),
            )
        else:
            reply = io.read(prompt, None, words=WORDS, keys=CLAIM_KEYS)
        if reply is None:
            return
        if self.holding:  # a key: the table, then what the key asks
            self.release()
            if not reply.text and reply.key is None:
                return
        self.answer(reply.text, reply.at, turn=turn, before=before)

    # -- what the one loop asks of a table's client ---------------------------------------------

    def leave(self) -> str:
        raise EOFError  # leaves the table as Ctrl-D does: the seat stays yours

    def ready(self) -> str:
        self.ask_server("ready")
        return "acted"

    def end_turn(self) -> bool:
        if self.obs is None or not any(a.kind == "end_turn" for a in self.obs.turn_moves()):
            return False
        self._act("end turn")
        return True

    def move(self, line: str, at: float) -> str:
        self._act(line)
        return "acted"

    def make_claim(self, naming: str, at: float) -> bool:
        self.ask_server("claim", text=naming)
        return False  # the server answers the claim, whatever it names

    def naming_read(self) -> tuple[float | None, list[Event]]:
        return (30.0, self._events()) if self.io.clock.realtime else (None, [])

    def hand_cards(self) -> tuple[int, ...]:
        return tuple(self.obs.hand) if self.obs else ()

    def give_hint(self) -> None:
        self.ask_server("hint")

    def moves_now(self) -> str:
        o = self.obs
        if o is None:
            return "No deal is being played now."
        turn = o.turn_moves()
        who = self.names[o.to_move] if o.to_move is not None else None
        out_of_turn = self.rs.game().at_any_time if self.rs is not None else CLAIM_AT_ANY_TIME
        return moves_line(turn, o.free_moves(), who, out_of_turn)

    def _act(self, text: str) -> None:
        """Send a move; where the server answers that it could be several, ask which (the
        server's question, the moves as cards) and send the one chosen."""
        reply = self.ask_server("act", text=text)
        if reply is None or reply.ok or not reply.choices:
            return
        choices = list(reply.choices)
        shown = [
            Text(shown_cards(c, self.symbols)).append(f"   [{c}]", style="dim") for c in choices
        ]
        k = self.choose(reply.text, shown)
        if k is not None:
            self.ask_server("act", text=choices[k])

    def claim(self, text: str | None) -> None:
        """Claim: ``text`` names the cards or the rank (None: the claim key, so the naming is
        asked now, while the table plays on: :meth:`PromptLoop.claim_line`)."""
        self.claim_line(text, self.io.clock.now())


def join_table(
    io: LearnerIO,
    address: str,
    code: str,
    name: str | None,
    token: str | None = None,
    *,
    livery: str | None = None,
    tries: int = 20,
) -> int:
    """Join the table of ``code`` at ``address`` as ``name`` (of ``livery``), or take back the
    seat of ``token`` (``name`` may then be None), and play (see the module docstring),
    reconnecting ``tries`` times at most when the connection drops; returns the exit status
    (0; 1 when it gave up; 130 after Ctrl-C)."""
    link = Link(
        address,
        {
            "type": "join",
            "code": code,
            **({"name": name} if name else {}),
            **({"token": token} if token else {}),
            **({"livery": livery} if livery else {}),
        },
        tries=tries,
    )
    # (with a token alone, the name is the seat's: the welcome says it)
    return PlayerClient(io, link, address, code, name or "", livery=livery, tries=tries).run()
