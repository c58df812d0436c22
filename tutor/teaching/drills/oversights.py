"""The oversight drill: positions in a stream; spot and claim, or pass, against a clock.

Positions are ``spot-oversight`` puzzles (:mod:`tutor.puzzles`): a real deal stopped just after
an action, with an open oversight to claim or a decoy that looks like one.  At every level the
positions mix both, through every oversight kind the ruleset's play can make and its decoys
(:mod:`tutor.teaching.drills.spotmix`: at level 1 a third have nothing to claim).  The learner
answers ``claim 9s 9d`` (or ``claim 9``, ``claim aces``, ``the split prial of nines``) or
``pass`` (an empty line passes too); the puzzle grades it (the engine reads the claim).  A claim
of nothing claimable (a false claim) costs what any mistake costs.

Two modes, after lichess's puzzle streak and puzzle storm:

- ``streak``: one miss ends it; each position has ``limit`` seconds (running out is a miss).
- ``storm``: ``minutes`` on the clock (3 by default); each mistake costs
  :data:`MISTAKE_PENALTY` seconds; runs of right answers win time back (:data:`COMBO_BONUS`).

Accuracy before speed: the positions get harder (difficulty 1 to 5) only after a run of right
answers at the current difficulty (:data:`STREAK_RUN` in a streak, :data:`STORM_RUN` in a storm;
a mistake starts the run again), and the drill says so when they do.  On a terminal the prompt
shows a live countdown (the position's time in a streak, the storm's clock in a storm).

Each answer (whether it was right, and its time when it was typed at a terminal in time) goes to
the progress store, with its figure of spotting (:meth:`~tutor.teaching.progress.ProgressStore.
record_sighting`: a hit, a miss, a false claim).  Streak and storm keep a personal best per mode
and ruleset (``drill.oversights.<mode>.<ruleset, or mixed>.best``) and say when it falls.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rich.text import Text

from tutor.puzzles import AnswerError
from tutor.puzzles.board import render_screen
from tutor.puzzles.kinds.spot_oversight import says_nothing
from tutor.puzzles.render import code_text, render_explanation, shown_cards
from tutor.teaching.drills.base import QUIT_WORDS, Answered, Drill
from tutor.teaching.drills.spotmix import Slot, SpotMix
from tutor.teaching.io import LearnerIO

__all__ = ["Attempt", "OversightDrill", "StreakResult", "StormResult", "COMBO_BONUS",
           "MISTAKE_PENALTY", "STORM_RUN", "STREAK_RUN", "best_key", "combo_bonus",
           "position_screen", "run"]

MISTAKE_PENALTY = 10.0
#: Right answers in a row at one difficulty before the positions get harder.
STREAK_RUN = 4
STORM_RUN = 5
#: Seconds won back when the run of right answers reaches each length (then +10 s every 10).
COMBO_BONUS = {5: 3.0, 12: 5.0, 20: 7.0, 30: 10.0}
PROMPT = "claim or pass> "
WORDS = ("claim", "pass")


def combo_bonus(combo: int) -> float:
    """Seconds won back when the run of right answers reaches ``combo``."""
    if combo in COMBO_BONUS:
        return COMBO_BONUS[combo]
    if combo > 30 and combo % 10 == 0:
        return 10.0
    return 0.0


def best_key(mode: str, ruleset: str | None) -> str:
    """The progress store's key of the personal best of ``mode`` (``streak``, ``storm``) under
    ``ruleset`` (None: the mixture of rulesets)."""
    return f"drill.oversights.{mode}.{ruleset or 'mixed'}.best"


@dataclass
class Attempt:
    """One position answered: ``correct`` (None when the time ran out), ``seconds``, the
    puzzle's ``grade`` (None without one), ``quit`` when the learner left, ``claimed`` when the
    answer was a claim (not ``nothing``)."""

    correct: bool | None
    seconds: float
    grade: object = None
    quit: bool = False
    claimed: bool = False


@dataclass
class StreakResult:
    """A streak: ``streak`` right answers before the miss; every answer's timing."""

    streak: int = 0
    answers: list[Answered] = field(default_factory=list)
    quit: bool = False


@dataclass
class StormResult:
    """A storm: ``score`` right answers, ``mistakes``, ``best_combo``, ``bonus`` seconds won."""

    score: int = 0
    mistakes: int = 0
    best_combo: int = 0
    bonus: float = 0.0
    answers: list[Answered] = field(default_factory=list)
    quit: bool = False

    @property
    def accuracy(self) -> float:
        n = len(self.answers)
        return self.score / n if n else 0.0


def position_screen(puzzle, symbols: bool):
    """A compact screen of a puzzle's position (the learner's view)."""
    deal = puzzle.deal()
    names = [f"Player {q}" for q in range(deal.n)]
    names[puzzle.seat] = "You"
    title = f"{puzzle.ruleset} · {puzzle.players} players · {puzzle.id}"
    return render_screen(deal, puzzle.seat, names, symbols, title=title, recent=3)


class OversightDrill(Drill):
    """Streams ``spot-oversight`` puzzles to ``io``, recording the answers in ``store`` (see
    :class:`~tutor.teaching.drills.base.Drill`).  ``ruleset``/``players`` fix them (else each
    puzzle chooses among the rulesets with oversights); ``seed`` fixes the stream."""

    def __init__(self, io: LearnerIO, ruleset: str | None = None, players: int | None = None,
                 seed: int = 1, *, store=None):
        super().__init__(io, store)
        self.ruleset = ruleset
        self.players = players
        self.seed = seed
        self.rng = random.Random(f"{seed}:oversights")
        self.mix = SpotMix(self.rng, ruleset, players)
        self.count = 0
        self.slot: Slot | None = None

    def next_puzzle(self, difficulty: int | None = None):
        """The next position of the stream, at level ``difficulty`` (1-5; None: 1)."""
        self.count += 1
        level = difficulty or 1
        self.slot = self.mix.next_slot(level)
        return self.mix.puzzle(self.slot, level)

    def ask(self, puzzle, timeout: float | None, *, label: str | None = None,
            total: float | None = None, progress: tuple[int, int] | None = None) -> Attempt:
        """Pose ``puzzle`` with ``timeout`` seconds (None: no limit) and grade the answer; with
        ``label`` the prompt shows a countdown of the time left (a bar ``total`` seconds long;
        ``progress`` ``(k, n)``: position k of n)."""
        io = self.io
        io.show(Text(""))
        io.show(position_screen(puzzle, io.symbols))
        start = io.clock.now()
        deadline = None if timeout is None else start + timeout
        while True:
            left = None if timeout is None else timeout - (io.clock.now() - start)
            if left is not None and left <= 0:
                return Attempt(None, io.clock.now() - start)
            reply = io.read(PROMPT, left, words=WORDS, label=label, deadline=deadline,
                            total=total or timeout, progress=progress)
            if reply is None:
                return Attempt(None, io.clock.now() - start)
            text = reply.text
            low = text.strip().lower()
            if low in QUIT_WORDS or low == "exit":
                return Attempt(None, reply.at - start, quit=True)
            if low in ("", "p"):
                text = "nothing"
            try:
                grade = puzzle.grade(text)
            except AnswerError as exc:
                io.show(code_text(str(exc), style="yellow"))
                continue
            return Attempt(grade.correct, reply.at - start, grade,
                           claimed=not says_nothing(text))

    def _record(self, puzzle, att: Attempt, seconds: float | None) -> None:
        """The answer, and its figures of spotting: a hit or a miss where there was something
        to claim, and a false claim for a claim that was wrong."""
        correct = bool(att.correct)
        self.record(puzzle.id, puzzle.kind, puzzle.themes, correct, seconds, puzzle.ruleset,
                    difficulty=puzzle.difficulty)
        if self.store is None:
            return
        claimable = bool(puzzle.answer["claims"])
        kind = puzzle.variant if claimable else _looks_like(puzzle, self.slot)
        figures = []
        if claimable:
            figures.append(("hit" if correct else "miss", seconds if correct else None))
        if att.claimed and not correct:
            figures.append(("false_claim", None))
        for outcome, secs in figures:
            self.store.record_sighting("drill", kind, outcome,
                                       None if self.piped else secs, ruleset=puzzle.ruleset,
                                       source=puzzle.id)

    # -- streak -------------------------------------------------------------------------------

    def streak(self, limit: float = 20.0, max_positions: int | None = None) -> StreakResult:
        """Positions until the first miss (or ``max_positions``); ``limit`` seconds each."""
        io = self.io
        res = StreakResult()
        mark = self.save_mark()
        difficulty = 1
        io.say(f"Oversight streak: claim what can be claimed, pass otherwise; {limit:g} s a "
               f"position; one miss ends it. The positions get harder after every {STREAK_RUN} "
               "right in a row.", style="bold")
        try:
            while max_positions is None or len(res.answers) < max_positions:
                puzzle = self.next_puzzle(difficulty=difficulty)
                k = len(res.answers) + 1
                att = self.ask(puzzle, limit, label=f"Streak {res.streak}",
                               progress=(k, max_positions) if max_positions else None)
                correct, secs, grade = att.correct, att.seconds, att.grade
                if att.quit:
                    res.quit = True
                    break
                timed_out = correct is None
                typed = None if timed_out or self.piped else secs
                res.answers.append(Answered(bool(correct), typed, timed_out))
                self._record(puzzle, att, typed)
                if correct:
                    res.streak += 1
                    io.say(f"✓ {_secs(typed)}streak {res.streak} · {grade.message}",
                           style="green")
                    if res.streak % STREAK_RUN == 0 and difficulty < 5:
                        difficulty += 1
                        io.say(f"{STREAK_RUN} right in a row: harder positions now (difficulty "
                               f"{difficulty} of 5).", style="bold green")
                    continue
                if timed_out:
                    io.say(f"✗ Time is up ({limit:g} s).", style="red")
                io.show(render_explanation(puzzle, grade, io.symbols))
                break
        except (EOFError, KeyboardInterrupt):
            io.say(f"Streak stopped at {res.streak}; " + self.saved_words(mark), style="yellow")
            raise
        best = self.best(best_key("streak", self.ruleset), res.streak)
        io.say(f"Streak: {res.streak}" + _best_words(best) + _mean_line(res.answers),
               style="bold green" if best.new else "bold")
        return res

    # -- storm --------------------------------------------------------------------------------

    def storm(self, minutes: float = 3.0, max_positions: int | None = None) -> StormResult:
        """As many positions as the clock allows (see the module)."""
        io = self.io
        res = StormResult()
        mark = self.save_mark()
        io.say(f"Oversight storm: {minutes:g} minute{'' if minutes == 1 else 's'}; a mistake "
               f"costs {MISTAKE_PENALTY:g} s; runs of right answers win time back; the positions "
               f"get harder after every {STORM_RUN} right in a row.", style="bold")
        clock = _StormClock(minutes * 60.0, io.clock.now())
        try:
            while max_positions is None or len(res.answers) < max_positions:
                left = clock.left(res, io.clock.now())
                if left <= 0:
                    break
                puzzle = self.next_puzzle(difficulty=clock.difficulty)
                k = len(res.answers) + 1
                att = self.ask(puzzle, left, label=f"Storm · score {res.score}",
                               total=clock.total + res.bonus,
                               progress=(k, max_positions) if max_positions else None)
                if att.quit:
                    res.quit = True
                    break
                if att.correct is None:
                    break           # the storm's clock ran out
                self._storm_answer(res, clock, puzzle, att)
        except (EOFError, KeyboardInterrupt):
            io.say(f"Storm stopped at score {res.score}; " + self.saved_words(mark),
                   style="yellow")
            raise
        best = self.best(best_key("storm", self.ruleset), res.score)
        io.say(f"Storm over: score {res.score}, {res.mistakes} mistake"
               f"{'s' if res.mistakes != 1 else ''}, best run {res.best_combo}, accuracy "
               f"{100 * res.accuracy:.0f}%" + _best_words(best) + _mean_line(res.answers),
               style="bold green" if best.new else "bold")
        return res

    def _storm_answer(self, res: StormResult, clock: "_StormClock", puzzle, att: Attempt) -> None:
        """Score one answer of a storm: a right one adds to the combo (and may win time back,
        and after a run raise the difficulty), a wrong one (a false claim too) costs
        :data:`MISTAKE_PENALTY` seconds."""
        io = self.io
        typed = None if self.piped else att.seconds
        res.answers.append(Answered(bool(att.correct), typed))
        self._record(puzzle, att, typed)
        if att.correct:
            res.score += 1
            clock.combo += 1
            clock.run += 1
            res.best_combo = max(res.best_combo, clock.combo)
            bonus = combo_bonus(clock.combo)
            res.bonus += bonus
            gain = f" · +{bonus:g} s" if bonus else ""
            io.say(f"✓ {_secs(typed)}combo {clock.combo}{gain}", style="green")
            if clock.run >= STORM_RUN and clock.difficulty < 5:
                clock.difficulty += 1
                clock.run = 0
                io.say(f"{STORM_RUN} right in a row: harder positions now (difficulty "
                       f"{clock.difficulty} of 5).", style="bold green")
        else:
            res.mistakes += 1
            clock.combo = clock.run = 0
            clock.penalty += MISTAKE_PENALTY
            io.say(f"✗ -{MISTAKE_PENALTY:g} s · {att.grade.message} (answer: "
                   f"{shown_cards(puzzle.expected_answer_text(), io.symbols)})", style="red")
        io.say(f"{max(0.0, clock.left(res, io.clock.now())):.0f} s left · score {res.score}",
               style="dim")


@dataclass
class _StormClock:
    """A storm's clock and run: ``total`` seconds from clock time ``start``, less the
    ``penalty`` seconds of mistakes, plus the bonuses won (in the result); the ``combo`` of
    right answers, the ``run`` at the current ``difficulty``."""

    total: float
    start: float
    penalty: float = 0.0
    combo: int = 0
    run: int = 0
    difficulty: int = 1

    def left(self, res: StormResult, now: float) -> float:
        return self.total + res.bonus - self.penalty - (now - self.start)


def _secs(seconds: float | None) -> str:
    return "" if seconds is None else f"{seconds:.1f} s · "


def _best_words(best) -> str:
    said = best.words()
    return f" · {said}" if said else ""


def _looks_like(puzzle, slot: Slot | None) -> str:
    """The oversight kind a claim on a position with nothing to claim was about: the one its
    decoy looks like."""
    from tutor.puzzles.kinds.spot_oversight import DECOY_LOOKS_LIKE
    return DECOY_LOOKS_LIKE.get(puzzle.data.get("theme", ""), slot.looks_like if slot else "")


def _mean_line(answers: list[Answered]) -> str:
    right = [a.seconds for a in answers if a.correct and a.seconds is not None]
    if not right:
        return ""
    return f"; mean reaction {sum(right) / len(right):.1f} s"


def run(io: LearnerIO, store, request) -> None:
    """The drill as ``laugh drill oversights`` and the home screen run it (see
    :mod:`tutor.teaching.drills.registry`): a streak or a storm (setting ``mode``)."""
    s = request.settings
    rs = request.ruleset
    drill = OversightDrill(io, rs.id if rs is not None else None, request.players, request.seed,
                           store=store)
    if s["mode"] == "streak":
        drill.streak(s["limit"], s["positions"])
    else:
        drill.storm(s["minutes"], s["positions"])
