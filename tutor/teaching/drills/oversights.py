"""The oversight drill: positions in a stream; spot and claim, or pass, against a clock.

Positions are ``spot-oversight`` puzzles (:mod:`tutor.puzzles`): a real deal stopped just after
an action, with an open oversight to claim or a decoy that looks like one.  At every level the
positions mix both, through every oversight kind the ruleset's play can make and its decoys
(:mod:`tutor.teaching.drills.spotmix`: five of twelve have nothing to claim, and half or more
are judged by counting or the ruleset: is the pair laid down dead, does this ruleset let a
prial or a mournival laid down be claimed).  The learner
answers ``claim 9s 9d`` (or ``claim 9``, ``claim aces``, ``the split prial of nines``) or
``pass`` (an empty line passes too); the puzzle grades it (the engine reads the claim).  A claim
of nothing claimable (a false claim) costs what any mistake costs.

Two modes, after lichess's puzzle streak and puzzle storm:

- ``streak``: one miss ends it; each position has ``limit`` seconds (running out is a miss).
- ``storm``: ``minutes`` on the clock (3 by default); each mistake costs
  :data:`MISTAKE_PENALTY` seconds; runs of right answers win time back (:data:`COMBO_BONUS`).

Accuracy before speed: the positions get harder (difficulty 1 to 5) only after a run of right
answers at the current difficulty (:data:`STREAK_RUN` in a streak, :data:`STORM_RUN` in a storm;
a mistake starts the run again) that holds both a right claim and a right pass on a position
with nothing to claim (:class:`Run`: issue 30, a learner who always passes, or claims on what
the board looks like, never climbs), and the drill says so when they do.  On a terminal the prompt
shows a live countdown (the position's time in a streak, the storm's clock in a storm).

Each answer (whether it was right, and its time when it was typed at a terminal in time) goes to
the progress store, with its figure of spotting (:meth:`~tutor.teaching.progress.ProgressStore.
record_sighting`: a hit, a miss, a false claim).  Streak and storm keep a personal best per mode
and ruleset (``drill.oversights.<mode>.<ruleset, or mixed>.best``) and say when it falls.  At the end a line gives the answers on the positions judged by
counting or the ruleset apart (:func:`judged_line`): spotting is not counting.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import NamedTuple

from rich.text import Text

from tutor.puzzles.board import render_screen
from tutor.puzzles.kinds.spot_oversight import says_nothing
from tutor.puzzles.model import Puzzle
from tutor.puzzles.render import render_explanation, shown_cards
from tutor.teaching.drills.base import Answered, Drill
from tutor.teaching.drills.spotmix import Slot, SpotMix
from tutor.teaching.io import LearnerIO, at_terminal
from tutor.teaching.loop import Outcome, Question, Record, ask, yes_no

__all__ = [
    "Missed",
    "OversightDrill",
    "PositionQuestion",
    "Run",
    "StreakResult",
    "StormResult",
    "COMBO_BONUS",
    "MISTAKE_PENALTY",
    "STORM_RUN",
    "STREAK_RUN",
    "best_key",
    "combo_bonus",
    "judged",
    "judged_line",
    "missed_lines",
    "position_screen",
    "run",
]

MISTAKE_PENALTY = 10.0
#: Right answers in a row at one difficulty before the positions get harder.
STREAK_RUN = 4
STORM_RUN = 5
#: Seconds won back when the run of right answers reaches each length (then +10 s every 10).
COMBO_BONUS = {5: 3.0, 12: 5.0, 20: 7.0, 30: 10.0}
PROMPT = "claim or pass> "
WORDS = ("claim", "pass")


@dataclass
class Run:
    """The run of right answers at the current difficulty: how many (``right``), and whether
    it holds a right claim (``claimed``) and a right pass on a position with nothing to claim
    (``passed``)."""

    right: int = 0
    claimed: bool = False
    passed: bool = False

    def add(self, claimable: bool) -> None:
        """One more right answer, on a position with something to claim or not."""
        self.right += 1
        self.claimed |= claimable
        self.passed |= not claimable

    def ready(self, length: int) -> bool:
        """Whether the run rises a difficulty: ``length`` right answers, both ways."""
        return self.right >= length and self.claimed and self.passed

    def reset(self) -> None:
        self.right, self.claimed, self.passed = 0, False, False


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


class Missed(NamedTuple):
    """A position missed in a streak or a storm: its number ``k`` in the run, the ``puzzle``
    and how it went (the loop's :class:`~tutor.teaching.loop.Outcome`)."""

    k: int
    puzzle: Puzzle
    outcome: Outcome


@dataclass
class StreakResult:
    """A streak: ``streak`` right answers before the miss; every answer's timing; ``judged``:
    whether each answer was right, on the positions judged by counting or the ruleset."""

    streak: int = 0
    answers: list[Answered] = field(default_factory=list)
    quit: bool = False
    missed: list[Missed] = field(default_factory=list)
    judged: list[bool] = field(default_factory=list)


@dataclass
class StormResult:
    """A storm: ``score`` right answers, ``mistakes``, ``best_combo``, ``bonus`` seconds won."""

    score: int = 0
    mistakes: int = 0
    best_combo: int = 0
    bonus: float = 0.0
    answers: list[Answered] = field(default_factory=list)
    quit: bool = False
    missed: list[Missed] = field(default_factory=list)
    judged: list[bool] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        n = len(self.answers)
        return self.score / n if n else 0.0


def position_screen(puzzle, symbols: bool):
    """A compact screen of a puzzle's position (the learner's view)."""
    deal = puzzle.deal()
    names = [f"Player {q}" for q in range(deal.n)]
    names[puzzle.seat] = "You"
    title = f"{deal.ruleset.short_title} · {puzzle.players} players"
    return render_screen(deal, puzzle.seat, names, symbols, title=title, recent=3)


class PositionQuestion(Question):
    """A position of the drill as the learner loop poses it: the compact screen, ``claim or
    pass>``, one try (Enter or ``p`` passes), no hint and no ``show`` (the clock runs), graded
    by the puzzle (the engine).  In a ``streak`` a miss is explained (the answer, why, the
    quotation); in a ``storm`` the drill says the answer in one line."""

    prompt = PROMPT
    words = WORDS
    blank = "nothing"
    answer_help = "Claim what can be claimed (claim 9s 9d, claim 9, claim aces), or pass"

    def __init__(self, puzzle, mode: str = "streak"):
        self.puzzle = puzzle
        self.mode = mode
        self.record = Record(
            puzzle.id, puzzle.kind, tuple(puzzle.themes), puzzle.ruleset, puzzle.difficulty
        )

    def pose(self, io: LearnerIO) -> None:
        io.show(Text(""))
        io.show(position_screen(self.puzzle, io.symbols))

    def grade(self, text: str, attempt: int):
        return self.puzzle.grade("nothing" if text.strip().lower() == "p" else text, attempt)

    def explain(self, io: LearnerIO, outcome: Outcome) -> None:
        if self.mode != "streak" or outcome.correct:
            return
        if outcome.timed_out:
            io.say(f"✗ Time is up ({outcome.timeout:g} s).", style="red")
        io.show(
            render_explanation(self.puzzle, outcome.grade, io.symbols, commands=at_terminal(io))
        )


class OversightDrill(Drill):
    """Streams ``spot-oversight`` puzzles to ``io``, recording the answers in ``store`` (see
    :class:`~tutor.teaching.drills.base.Drill`).  ``ruleset``/``players`` fix them (else each
    puzzle chooses among the rulesets with oversights); ``seed`` fixes the stream."""

    def __init__(
        self,
        io: LearnerIO,
        ruleset: str | None = None,
        players: int | None = None,
        seed: int = 1,
        *,
        store=None,
    ):
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

    def ask(
        self,
        puzzle,
        timeout: float | None,
        *,
        label: str | None = None,
        total: float | None = None,
        progress: tuple[int, int] | None = None,
        mode: str = "streak",
    ) -> Outcome:
        """Pose ``puzzle`` through the learner loop (:func:`tutor.teaching.loop.ask`) with
        ``timeout`` seconds (None: no limit), one try, recorded in the store (a time-out in a
        storm is the storm's end, not recorded); with ``label`` the prompt shows a countdown of
        the time left (a bar ``total`` seconds long; ``progress`` ``(k, n)``: position k of n).
        The answer's figures of spotting are recorded too (:meth:`_record`)."""
        out = ask(
            self.io,
            PositionQuestion(puzzle, mode),
            store=self.store,
            timeout=timeout,
            label=label,
            total=total,
            progress=progress,
            timeout_is_miss=mode != "storm",
        )
        if not out.left and (out.tries or (out.timed_out and mode != "storm")):
            self._record(puzzle, out)
        return out

    def _record(self, puzzle, out: Outcome) -> None:
        """The answer's figures of spotting (the loop has recorded the answer): a hit or a miss
        where there was something to claim, and a false claim for a claim that was wrong."""
        if self.store is None:
            return
        correct = out.correct
        claimable = bool(puzzle.answer["claims"])
        kind = puzzle.variant if claimable else _looks_like(puzzle, self.slot)
        figures = []
        if claimable:
            figures.append(("hit" if correct else "miss", out.seconds if correct else None))
        if out.tries and not says_nothing(out.text) and not correct:
            figures.append(("false_claim", None))
        for outcome, secs in figures:
            self.store.record_sighting(
                "drill", kind, outcome, secs, ruleset=puzzle.ruleset, source=puzzle.id
            )

    # -- streak -------------------------------------------------------------------------------

    def streak(self, limit: float = 20.0, max_positions: int | None = None) -> StreakResult:
        """Positions until the first miss (or ``max_positions``); ``limit`` seconds each."""
        io = self.io
        res = StreakResult()
        mark = self.save_mark()
        difficulty = 1
        run = Run()
        io.say(
            f"Oversight streak: claim what can be claimed, pass otherwise; {limit:g} s a "
            f"position; one miss ends it. The positions get harder after {STREAK_RUN} "
            "right in a row, claims and passes both.",
            style="bold",
        )
        try:
            while max_positions is None or len(res.answers) < max_positions:
                puzzle = self.next_puzzle(difficulty=difficulty)
                k = len(res.answers) + 1
                out = self.ask(
                    puzzle,
                    limit,
                    label=f"Streak {res.streak}",
                    progress=(k, max_positions) if max_positions else None,
                )
                if out.left:
                    res.quit = True
                    break
                res.answers.append(Answered(out.correct, out.seconds, out.timed_out))
                if judged(puzzle):
                    res.judged.append(bool(out.correct))
                if out.correct:
                    res.streak += 1
                    io.say(
                        f"✓ {_secs(out.seconds)}streak {res.streak} · {out.grade.message if out.grade else ''}",
                        style="green",
                    )
                    run.add(bool(puzzle.answer["claims"]))
                    if run.ready(STREAK_RUN) and difficulty < 5:
                        difficulty += 1
                        run.reset()
                        io.say(
                            f"{STREAK_RUN} right in a row: harder positions now (difficulty "
                            f"{difficulty} of 5).",
                            style="bold green",
                        )
                    continue
                res.missed.append(Missed(k, puzzle, out))
                break
        except (EOFError, KeyboardInterrupt):
            io.say(f"Streak stopped at {res.streak}; " + self.saved_words(mark), style="yellow")
            raise
        if not res.answers:  # left before the first answer: no streak nor best
            io.say("Streak over: no position answered.", style="bold")
            return res
        best = self.best(best_key("streak", self.ruleset), res.streak)
        io.say(
            f"Streak: {res.streak}" + _best_words(best) + _mean_line(res.answers),
            style="bold green" if best.new else "bold",
        )
        _say_judged(io, res.judged)
        return res

    # -- storm --------------------------------------------------------------------------------

    def storm(self, minutes: float = 3.0, max_positions: int | None = None) -> StormResult:
        """As many positions as the clock allows (see the module)."""
        io = self.io
        res = StormResult()
        mark = self.save_mark()
        io.say(
            f"Oversight storm: {minutes:g} minute{'' if minutes == 1 else 's'}; a mistake "
            f"costs {MISTAKE_PENALTY:g} s; runs of right answers win time back; the positions "
            f"get harder after {STORM_RUN} right in a row, claims and passes both.",
            style="bold",
        )
        clock = _StormClock(minutes * 60.0, io.clock.now())
        try:
            while max_positions is None or len(res.answers) < max_positions:
                left = clock.left(res, io.clock.now())
                if left <= 0:
                    break
                puzzle = self.next_puzzle(difficulty=clock.difficulty)
                k = len(res.answers) + 1
                out = self.ask(
                    puzzle,
                    left,
                    label=f"Storm · score {res.score}",
                    total=clock.total + res.bonus,
                    progress=(k, max_positions) if max_positions else None,
                    mode="storm",
                )
                if out.left:
                    res.quit = True
                    break
                if out.timed_out:
                    break  # the storm's clock ran out
                self._storm_answer(res, clock, k, puzzle, out)
        except (EOFError, KeyboardInterrupt):
            io.say(f"Storm stopped at score {res.score}; " + self.saved_words(mark), style="yellow")
            raise
        if not res.quit:  # the misses first: the score stays on the screen, last
            io.show(*missed_lines(res.missed, io.symbols, at_terminal(io)))
        if not res.answers:  # left before the first answer: no score, accuracy nor best
            io.say("Storm over: no position answered.", style="bold")
            return res
        best = self.best(best_key("storm", self.ruleset), res.score)
        io.say(
            f"Storm over: score {res.score}, {res.mistakes} mistake"
            f"{'s' if res.mistakes != 1 else ''}, best run {res.best_combo}, accuracy "
            f"{100 * res.accuracy:.0f}%" + _best_words(best) + _mean_line(res.answers),
            style="bold green" if best.new else "bold",
        )
        _say_judged(io, res.judged)
        return res

    def _storm_answer(
        self, res: StormResult, clock: _StormClock, k: int, puzzle, out: Outcome
    ) -> None:
        """Score answer ``k`` of a storm: a right one adds to the combo (and may win time back,
        and after a run raise the difficulty), a wrong one (a false claim too) costs
        :data:`MISTAKE_PENALTY` seconds."""
        io = self.io
        typed = out.seconds
        res.answers.append(Answered(out.correct, typed))
        if judged(puzzle):
            res.judged.append(bool(out.correct))
        if out.correct:
            res.score += 1
            clock.combo += 1
            clock.run.add(bool(puzzle.answer["claims"]))
            res.best_combo = max(res.best_combo, clock.combo)
            bonus = combo_bonus(clock.combo)
            res.bonus += bonus
            gain = f" · +{bonus:g} s" if bonus else ""
            io.say(f"✓ {_secs(typed)}combo {clock.combo}{gain}", style="green")
            if clock.run.ready(STORM_RUN) and clock.difficulty < 5:
                clock.difficulty += 1
                clock.run.reset()
                io.say(
                    f"{STORM_RUN} right in a row: harder positions now (difficulty "
                    f"{clock.difficulty} of 5).",
                    style="bold green",
                )
        else:
            res.mistakes += 1
            clock.combo = 0
            clock.run.reset()
            clock.penalty += MISTAKE_PENALTY
            res.missed.append(Missed(k, puzzle, out))
            io.say(
                f"✗ -{MISTAKE_PENALTY:g} s · {out.grade.message if out.grade else ''} (answer: "
                f"{shown_cards(puzzle.expected_answer_text(), io.symbols)})",
                style="red",
            )
        io.say(
            f"{max(0.0, clock.left(res, io.clock.now())):.0f} s left · score {res.score}",
            style="dim",
        )


@dataclass
class _StormClock:
    """A storm's clock and run: ``total`` seconds from clock time ``start``, less the
    ``penalty`` seconds of mistakes, plus the bonuses won (in the result); the ``combo`` of
    right answers, the ``run`` at the current ``difficulty``."""

    total: float
    start: float
    penalty: float = 0.0
    combo: int = 0
    run: Run = field(default_factory=Run)
    difficulty: int = 1

    def left(self, res: StormResult, now: float) -> float:
        return self.total + res.bonus - self.penalty - (now - self.start)


def judged(puzzle) -> str:
    """What decides ``puzzle`` besides spotting: ``counting`` (is the pair laid down dead?),
    ``ruleset`` (does this ruleset let it be claimed?), or ``""`` (the engine's word, in the
    puzzle: :func:`~tutor.puzzles.kinds.spot_story.decided_by`)."""
    return str(puzzle.data.get("decided_by") or "")


def judged_line(judged: list[bool]) -> str:
    """The drill's result on the positions judged by counting or the ruleset (``judged``: right
    or not, one per answer), so that a learner sees whether they count, not only whether they
    spot; "" when there was none."""
    if not judged:
        return ""
    n, right = len(judged), sum(judged)
    return f"Judged by counting or the ruleset: {right} of {n} right ({100 * right / n:.0f}%)"


def _say_judged(io: LearnerIO, judged: list[bool]) -> None:
    line = judged_line(judged)
    if line:
        io.say(line, style="bold")


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


def missed_lines(missed: list[Missed], symbols: bool, commands: bool = True) -> list[Text]:
    """The positions a streak or a storm missed, one line each (at 80 columns): its number, what
    the learner said (passed, or that the time ran out), the answer and, with ``commands`` (a
    terminal, :func:`tutor.teaching.io.at_terminal`), the puzzle's id and a last line saying
    that ``laugh puzzle --id ID`` poses it again, with its explanation (a browser page, where no
    command can be typed, has neither)."""
    if not missed:
        return []
    lines = [Text(f"Missed ({len(missed)}):", style="bold")]
    for m in missed:
        said = (
            "timed out"
            if m.outcome.timed_out
            else (
                "passed"
                if says_nothing(m.outcome.text)
                else f"said {shown_cards(m.outcome.text, symbols)}"
            )
        )
        t = Text(f"  {m.k}. {said} {'→' if symbols else '->'} ")  # one line at 80 columns
        t.append(shown_cards(m.puzzle.expected_answer_text(), symbols), style="bold")
        if commands:
            t.append(f" · {m.puzzle.id}", style="dim")
        lines.append(t)
    if commands:
        lines.append(
            Text("Look at one again, with its explanation: laugh puzzle --id ID", style="dim")
        )
    return lines


def run(io: LearnerIO, store, request) -> None:
    """The drill as ``laugh drill oversights`` and the home screen run it (see
    :mod:`tutor.teaching.drills.registry`): a streak or a storm (setting ``mode``); at its end
    the positions missed, and ``Again?`` (yes: another, from the same stream of positions)."""
    s = request.settings
    rs = request.ruleset
    drill = OversightDrill(
        io, rs.id if rs is not None else None, request.players, request.seed, store=store
    )
    while True:
        res: StreakResult | StormResult
        if s["mode"] == "streak":
            res = drill.streak(s["limit"], s["positions"])
        else:
            res = drill.storm(s["minutes"], s["positions"])
        if res.quit:
            return
        if s["mode"] == "streak":  # a storm lists its misses above its score
            io.show(*missed_lines(res.missed, io.symbols, at_terminal(io)))
        if not yes_no(io, f"Another {s['mode']}? [yes/no]> "):
            return
