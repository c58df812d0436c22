"""Rapid settlement arithmetic under each ruleset (RULES.md 3.5).

Each question is a finished deal between computer players, shown as numbers: the ruleset's
antes, bonus and breakeven (or points for pairs), each player's won cards at the end of play, the
last player in, who made the last capture, where the leftovers and a set-aside mournival go.
The learner gives one player's net stakes (or points); the engine's settlement
(:class:`~tutor.engine.DealResult`) is the answer, and the working is shown afterwards.

The drill has a clock: each question ``limit`` seconds (a live countdown on a terminal; running
out is a wrong answer).  Accuracy before speed: only after :data:`RUN` right answers in a row
within the current limit does the limit shrink (by :data:`TIGHTEN`, to no less than
:data:`FASTEST` seconds), and the drill says so; a miss starts the run again.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tutor.engine.bots import Careless, make_bot, play_out
from tutor.engine.deal import Deal, new_deal
from tutor.engine.errors import NotationError
from tutor.engine.parameters import settlement_formula, settlement_rule, value_words
from tutor.engine.safetext import clip
from tutor.puzzles import Grade
from tutor.teaching.drills.base import Answered, Drill
from tutor.teaching.io import LearnerIO
from tutor.teaching.loop import Outcome, Question, Record, ask

__all__ = [
    "SettleDrill",
    "SettleQuestion",
    "SettleResult",
    "parse_signed",
    "run",
    "RUN",
    "TIGHTEN",
    "FASTEST",
]

#: Right answers in a row within the limit before the clock tightens.
RUN = 3
#: How the limit shrinks after such a run, and the shortest it gets (seconds).
TIGHTEN = 0.8
FASTEST = 10.0


@dataclass
class SettleQuestion:
    """A finished deal and the seat asked about."""

    deal: Deal
    seat: int

    @property
    def answer(self) -> int:
        return self.deal.returns()[self.seat]


@dataclass
class SettleResult:
    answers: list[Answered] = field(default_factory=list)
    quit: bool = False

    @property
    def right(self) -> int:
        return sum(1 for a in self.answers if a.correct)


def parse_signed(text: str, points: bool = False) -> int:
    """A whole number, optionally signed: ``+3``, ``-2``, ``0``, ``3``.  With ``points`` (pairs
    scoring, where a player's points are never below 0) a negative number is refused as a
    reading, not graded.  Raises NotationError saying what to type."""
    t = text.strip().replace("−", "-").replace(" ", "")
    like = "0, 2 or 5" if points else "+3, -2 or 0"
    if not re.fullmatch(r"[+-]?[0-9]{1,9}", t):
        raise NotationError(f"{clip(text.strip(), 40)!r} is not a whole number: answer like {like}")
    if points and int(t) < 0:
        raise NotationError(
            f"points are never below 0 (a player scores 0 or more): answer like {like}"
        )
    return int(t)


class SettleDrill(Drill):
    """Settlement questions for ``io``, recorded in ``store`` (see
    :class:`~tutor.teaching.drills.base.Drill`).  ``rulesets`` to draw from (or one fixed
    ``ruleset``); ``seed`` fixes the deals; ``limit`` seconds the first question (None or 0: no
    clock)."""

    def __init__(
        self,
        io: LearnerIO,
        rulesets: list,
        ruleset=None,
        players: int | None = None,
        seed: int = 1,
        limit: float | None = None,
        *,
        store=None,
    ):
        super().__init__(io, store)
        self.limit = limit or None
        self.rulesets = rulesets
        self.ruleset = ruleset
        self.players = players
        self.seed = seed
        self.rng = random.Random(f"{seed}:settle")
        self.count = 0

    def make_question(self) -> SettleQuestion:
        rng = self.rng
        rs = self.ruleset or rng.choice(self.rulesets)
        n = (
            self.players
            if self.players is not None and self.players in rs.counts
            else rng.choice(rs.player_counts)
        )
        deal = new_deal(rs, n, rng.randrange(n), rng)
        play_out(deal, [Careless(make_bot("willughby"), 0.15) for _ in range(n)], rng)
        return SettleQuestion(deal, rng.randrange(n))

    def facts(self, q: SettleQuestion):
        """The question's facts as a renderable: the ruleset's rule of settlement (in the
        parameter table's words), and each seat's won cards from the engine's settlement."""
        d = q.deal
        rs, pc, res = d.ruleset, d.rules, d.final_result()
        names = [f"Player {s}" for s in range(d.n)]
        names[q.seat] = "You"
        lines: list = [Text(f"{rs.short_title} · {d.n} players", style="bold")]
        rule = settlement_rule(rs.scoring, breakeven=pc.breakeven, pot_to=rs.pot_to)
        formula = settlement_formula(rs.scoring, breakeven=pc.breakeven)
        if formula is not None:
            rule += f" ({formula})"
        if rs.has_stakes:
            rule = f"Antes: dealer {pc.ante_dealer}, others {pc.ante_other}; {rule}"
        else:
            rule = f"Points: {rule}"
        if pc.last_in_bonus and rs.bonus_to:
            rule += f"; bonus {pc.last_in_bonus}: {value_words('bonus_to', rs.bonus_to)}"
        if rs.game().lying_down_pays:
            rule += "; " + value_words("lie_down_pays", rs.value("lie_down_pays"))
        lines.append(Text(rule + "."))
        lines.append(
            Text(
                value_words("leftovers_to", rs.leftovers_to).capitalize()
                + " (the last hand and the table)."
            )
        )
        t = Table(box=None, pad_edge=False, header_style="bold underline")
        t.add_column("player", no_wrap=True)
        t.add_column("won in play", justify="right")
        t.add_column("", overflow="fold")
        for row in res.settlement:
            s = row.seat
            notes = []
            if s == d.dealer:
                notes.append("dealer")
            if s == res.last_in:
                notes.append("last in")
            if d.game.bonus_to_last_capture and s == res.last_capturer:
                notes.append("last capture")
            if row.paid:
                notes.append(f"paid {row.paid} on lying down")
            t.add_row(
                Text(names[s], style="bold cyan" if s == q.seat else ""),
                str(row.won_in_play),
                ", ".join(notes),
            )
        lines.append(t)
        extra = []
        if res.leftovers:
            extra.append(f"leftovers: {len(res.leftovers)} cards")
        if res.set_aside:
            extra.append(f"set-aside mournival: {len(res.set_aside)} cards (to the last player in)")
        if extra:
            lines.append(Text("; ".join(extra).capitalize() + "."))
        return Group(*lines)

    def working(self, q: SettleQuestion) -> str:
        """The settlement of the seat asked about, worked out by the engine from its breakdown
        (:meth:`tutor.engine.game.Game.working`)."""
        return q.deal.game.working(q.deal.final_result().settlement[q.seat])

    def themes(self, q: SettleQuestion) -> list[str]:
        d = q.deal
        row = d.final_result().settlement[q.seat]
        out = ["settlement", "stakes" if d.ruleset.has_stakes else "pairs-scoring"]
        if row.leftovers or row.set_aside:
            out.append("leftovers")
        if row.bonus:
            out.append("bonus")
        return out

    def ask(self, q: SettleQuestion, progress: tuple[int, int] | None = None) -> Answered | None:
        """Pose ``q`` through the learner loop (with the drill's time limit, if any: running out
        is a wrong answer), recorded in the store; None when the learner quits."""
        self.count += 1
        d = q.deal
        out = ask(
            self.io,
            _Settling(
                self,
                q,
                Record(
                    f"drill-settle.{d.ruleset.id}.{d.n}.{self.seed}.{self.count}",
                    "settlement",
                    tuple(self.themes(q)),
                    d.ruleset.id,
                ),
            ),
            store=self.store,
            timeout=self.limit,
            label="Settle" if self.limit else None,
            total=self.limit,
            progress=progress,
        )
        if out.left:
            return None
        return Answered(out.correct, out.seconds, out.timed_out)

    def session(self, rounds: int = 10) -> SettleResult:
        io = self.io
        res = SettleResult()
        io.say(
            "Settlement drill: give the result as fast as you can"
            + (
                f"; {self.limit:g} s a question, and the clock tightens after every {RUN} "
                "right in a row."
                if self.limit
                else "."
            ),
            style="bold",
        )
        run = 0
        mark = self.save_mark()
        try:
            for k in range(rounds):
                a = self.ask(self.make_question(), progress=(k + 1, rounds))
                if a is None:
                    res.quit = True
                    break
                res.answers.append(a)
                if not a.correct:
                    run = 0
                    continue
                run += 1
                if self.limit and run >= RUN and self.limit > FASTEST:
                    old = self.limit
                    self.limit = max(FASTEST, round(self.limit * TIGHTEN))
                    run = 0
                    io.say(
                        f"{RUN} right in a row within {old:g} s: the clock now gives "
                        f"{self.limit:g} s a question.",
                        style="bold green",
                    )
        except (EOFError, KeyboardInterrupt):
            io.say("Settlement stopped: " + self.saved_words(mark), style="yellow")
            raise
        if res.answers:
            timed = [a.seconds for a in res.answers if a.seconds is not None]
            mean = f", {sum(timed) / len(timed):.1f} s an answer typed in time" if timed else ""
            io.say(f"Settlement: {res.right}/{len(res.answers)} right{mean}.", style="bold")
        return res


class _Settling(Question):
    """A settlement question as the learner loop poses it: the deal's facts, ``settle>``, one
    try read as a whole number (:func:`parse_signed`: a reading error is said, never graded),
    and the working of the seat's settlement as its verdict."""

    prompt = "settle> "
    blank = ""  # read by parse_signed: an empty line is asked again

    def __init__(self, drill: SettleDrill, q: SettleQuestion, record: Record):
        self.drill = drill
        self.q = q
        self.record = record
        self.points = not q.deal.ruleset.has_stakes
        self.answer_help = (
            "Your points: a whole number, 0 or more"
            if self.points
            else "Your net stakes: a whole number, + what you gain, - what you lose (such as +3)"
        )

    def pose(self, io: LearnerIO) -> None:
        io.show(Text(""))
        io.show(self.drill.facts(self.q))
        io.say(
            "Your points? (a whole number, 0 or more)"
            if self.points
            else "Your net stakes? (a whole number: + what you gain, - what you lose)"
        )

    def grade(self, text: str, attempt: int) -> Grade:
        return Grade(parse_signed(text, self.points) == self.q.answer, self.drill.working(self.q))

    def explain(self, io: LearnerIO, outcome: Outcome) -> None:
        working = self.drill.working(self.q)
        secs = outcome.seconds
        if outcome.correct:
            io.say("✓ " + (f"{secs:.1f} s · " if secs is not None else "") + working, style="green")
        elif outcome.timed_out:
            io.say(f"✗ Time is up ({outcome.timeout:g} s). {working}", style="red")
        else:
            io.say(f"✗ {working}", style="red")


def run(io: LearnerIO, store, request) -> None:
    """The drill as ``laugh drill settle`` and the home screen run it (see
    :mod:`tutor.teaching.drills.registry`)."""
    s = request.settings
    SettleDrill(
        io,
        request.rulesets,
        request.ruleset,
        request.players,
        request.seed,
        s["limit"],
        store=store,
    ).session(s["rounds"])
