"""The learner loop: one question put to the learner, from posing it to explaining it, the same
for a lesson's puzzles (and so the track's), ``laugh puzzle``, the home screen's practice sets
and every drill.

:func:`ask` poses a :class:`Question` and then, until the question is over:

1. **time**: a try is timed by the clock of the learner's terminal (``io.clock``), from when it
   was asked to the :attr:`~tutor.teaching.io.Reply.at` of the answer; a time is kept only for
   an answer typed at a terminal (not piped, not shown, not timed out);
2. **read** exactly: the loop's own words first (below), then the question's reading; an answer
   that cannot be read (:class:`~tutor.engine.errors.NotationError`, such as
   :class:`tutor.puzzles.AnswerError`) is said whole and asked again, never graded;
3. **grade**: the question's verdict (the puzzle's, which is the engine's), taken as it is: the
   loop words no reply of its own from the position, so nothing it says depends on what is
   open (issue 30: a partial naming of a claim is judged where the engine judges it);
4. **nudge and second try**: a wrong answer that is not final (a puzzle allows
   :data:`tutor.puzzles.TRIES` tries) gets the grade's nudge, never the answer, and is asked
   again;
5. **record**: each graded try in the progress store as it is made (the first as the answer
   that counts, a second as a retry; a time-out as a wrong answer; ``show`` as revealed);
6. **explain**: the question's explanation once it is over (also when input ends after a
   graded try: the answer is never left unseen), and on a terminal a pause to read it.

**One set of words** (:mod:`tutor.teaching.words`: quit, hint, show, help), meaning the same
at every prompt of the program: quit leaves (at an answer prompt nothing is recorded for the
try, and a quit word is never graded as an answer), hint gives the next hint, show gives up and
shows the answer (counted as not right), help says what can be typed.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rich.text import Text

from tutor.engine.errors import NotationError
from tutor.puzzles import TRIES, Grade
from tutor.puzzles.render import code_text, render_explanation, render_hint, render_puzzle
from tutor.teaching.io import LearnerIO, at_terminal
from tutor.teaching.ratings import shown_rating
from tutor.teaching.words import (
    HELP_WORDS,
    HINT_WORDS,
    MENU_QUIT_WORDS,
    QUIT_WORDS,
    SHOW_WORDS,
    is_quit,
    said,
)

__all__ = [
    "QUIT_WORDS",
    "MENU_QUIT_WORDS",
    "HINT_WORDS",
    "SHOW_WORDS",
    "HELP_WORDS",
    "GO_ON",
    "Outcome",
    "Question",
    "PuzzleQuestion",
    "Record",
    "ask",
    "go_on",
    "is_quit",
    "yes_no",
    "nudge_text",
    "rating_change_text",
]

#: Per terminal (the I/O seam), the quotations shown in full after a puzzle in this sitting:
#: the next puzzle citing one names it in a line (a set of legal-play puzzles does not stop at a
#: screenful of the same quotations after every puzzle).
_QUOTED: weakref.WeakKeyDictionary[LearnerIO, set[str]] = weakref.WeakKeyDictionary()

#: The learners' screens already told what the rating line's figures mean (said once a session).
_RATING_SAID: weakref.WeakSet[LearnerIO] = weakref.WeakSet()

#: What the rating line's figures mean, said under the first one of a session.
RATING_NOTE = (
    "Your rating moves with each first try at a puzzle outside the lessons (a ? while "
    'it is still provisional); "these puzzles" is the rating of the puzzles of this '
    "kind and difficulty, which moves the other way."
)

#: The pause after an explanation on a terminal.
GO_ON = "Enter to go on> "


class Record(NamedTuple):
    """How an answer to a question is kept in the progress store: the ``id`` of what was asked,
    its ``kind`` and ``themes``, the ``ruleset`` and the ``difficulty`` band (1-5; None: not a
    puzzle of a band, never rated)."""

    id: str
    kind: str
    themes: tuple[str, ...]
    ruleset: str | None = None
    difficulty: int | None = None


@dataclass
class Outcome:
    """How one question went.

    ``tries``: graded tries made (0: none); ``correct``: right in the end; ``first``: right at
    the first try (the answer that counts for ratings, a lesson's score and a drill's);
    ``seconds``: the first try's time, typed at a terminal (None otherwise); ``hints`` used;
    ``grade``: the last grade (None when shown or timed out); ``text``: the first answer graded,
    as typed (what an empty line stands for, when it stands for one); ``shown``: given up with
    ``show``; ``timed_out``: the time ran out first; ``left``: the learner typed a quit word
    (at the answer prompt, or at the pause after the explanation); ``ended``: input ended after
    a graded try (the explanation is shown at once, unpaged); ``change``: the ratings the first
    try moved (a :class:`tutor.teaching.progress.RatingChange`, or None); ``timeout``: the
    seconds each try had (None: no limit).
    """

    tries: int = 0
    correct: bool = False
    first: bool = False
    seconds: float | None = None
    hints: int = 0
    grade: Grade | None = None
    text: str = ""
    shown: bool = False
    timed_out: bool = False
    left: bool = False
    ended: bool = False
    change: Any = None
    timeout: float | None = None

    @property
    def answered(self) -> bool:
        """True once the question has an answer that counts: a graded try, ``show``, or the
        time running out."""
        return self.tries > 0 or self.shown or self.timed_out


class Question:
    """What :func:`ask` poses.  A subclass says how: ``prompt`` (the answer prompt), ``words``
    (its answer words, offered for completion), ``tries`` (1, or :data:`TRIES` for a puzzle),
    ``blank`` (what Enter alone answers: None asks again), ``hints`` (how many), ``can_show``
    (whether ``show`` may give the answer), ``record`` (a :class:`Record`, or None: kept
    nowhere), ``answer_help`` (how to answer, for ``help``); and :meth:`pose`, :meth:`grade`,
    :meth:`hint` and :meth:`explain`."""

    prompt: str = "answer> "
    words: Sequence[str] = ()
    tries: int = 1
    blank: str | None = None
    hints: int = 0
    can_show: bool = False
    record: Record | None = None
    answer_help: str = "Type your answer"

    def pose(self, io: LearnerIO) -> None:
        """Show the question (its position, if any, and what is asked)."""

    def grade(self, text: str, attempt: int) -> Grade:
        """Grade ``text`` as try ``attempt`` (1-based).  Raises NotationError (an AnswerError)
        for an answer that cannot be read: it is said, and asked again."""
        raise NotImplementedError

    def hint(self, io: LearnerIO, index: int) -> None:
        """Show hint ``index`` (0-based; one past the last says there are no more)."""

    def explain(self, io: LearnerIO, outcome: Outcome) -> None:
        """Say how the question went, once it is over (``outcome``: see :class:`Outcome`)."""


def ask(
    io: LearnerIO,
    question: Question,
    *,
    store=None,
    timeout: float | None = None,
    label: str | None = None,
    total: float | None = None,
    progress: tuple[int, int] | None = None,
    timeout_is_miss: bool = True,
    lesson: str | None = None,
    slot: str | None = None,
    retry: bool = False,
    pause: bool = False,
) -> Outcome:
    """Pose ``question`` to the learner at ``io`` until it is over (see the module docstring);
    its :class:`Outcome`.

    ``timeout``: seconds for each try (None: no limit); with ``label`` a terminal shows a
    countdown (a bar ``total`` seconds long; ``progress`` ``(k, n)``: question k of n).  When the
    time runs out the question is over, recorded as a wrong answer with no time unless
    ``timeout_is_miss`` is False (a storm's clock ending the storm).  ``store`` (a
    :class:`tutor.teaching.progress.ProgressStore`, or None: nothing kept) records each graded
    try with ``lesson`` and ``slot`` (a lesson's puzzle: the first try updates its saved
    answers) and ``retry`` (every try a retry: a fresh puzzle after a miss).  ``pause``: on a
    terminal, wait for Enter after the explanation (a quit word there leaves: ``left``).

    A quit word at the answer prompt returns at once with ``left`` set (nothing recorded for the
    try).  ``EOFError`` and ``KeyboardInterrupt`` pass through; after a graded try the
    explanation is shown first at the end of input (``ended``).
    """
    question.pose(io)
    out = Outcome(timeout=timeout)
    words = list(
        dict.fromkeys(
            [
                *question.words,
                *(
                    w
                    for w, on in (
                        ("hint", question.hints),
                        ("show", question.can_show),
                        ("help", True),
                        ("quit", True),
                    )
                    if on
                ),
            ]
        )
    )
    attempt = 1
    started = io.clock.now()
    deadline = None if timeout is None else started + timeout

    def record(correct: bool, seconds: float | None, revealed: bool = False) -> None:
        if store is None or question.record is None:
            return
        r = question.record
        timed = None if seconds is None or io.clock.piped else seconds
        change = store.record_answer(
            r.id,
            r.kind,
            list(r.themes),
            correct,
            timed,
            hints=out.hints,
            lesson=lesson,
            ruleset=r.ruleset,
            retry=retry or attempt > 1,
            slot=slot,
            difficulty=r.difficulty,
            revealed=revealed,
        )
        if attempt == 1:
            out.change = change

    try:
        while True:
            left = None if deadline is None else deadline - io.clock.now()
            reply = None
            if left is None or left > 0:
                reply = io.read(
                    question.prompt,
                    left,
                    words,
                    label=label,
                    deadline=deadline if label else None,
                    total=total or timeout,
                    progress=progress,
                )
            if reply is None:  # the time ran out (or a prompt closed)
                out.timed_out = True
                out.correct = False
                out.grade = None
                if timeout_is_miss:
                    record(False, None)
                break
            text, low = reply.text, said(reply.text)
            if low in QUIT_WORDS:
                out.left = True
                return out
            if low in HELP_WORDS:
                io.say(help_text(question, at_terminal(io)), style="dim")
                continue
            if low in HINT_WORDS:
                _hint(io, question, out)
                continue
            if low in SHOW_WORDS:
                if not question.can_show:
                    io.say("The answer is shown once you have answered.", style="yellow")
                    continue
                out.shown, out.correct, out.grade = True, False, None
                record(False, None, revealed=True)
                break
            if not text.strip():
                if question.blank is None:
                    io.say(f"{question.answer_help} (or {_loop_words(question)}).", style="yellow")
                    continue
                text = question.blank
            try:
                grade = question.grade(text, attempt)
            except NotationError as exc:  # read, never graded
                io.show(code_text(str(exc), style="yellow"))
                continue
            seconds = reply.at - started
            record(bool(grade.correct), seconds)
            if attempt == 1:
                out.first = bool(grade.correct)
                out.seconds = None if io.clock.piped else seconds
                out.text = text
            out.tries, out.correct, out.grade = attempt, bool(grade.correct), grade
            if grade.final or grade.correct or attempt >= question.tries:
                break
            io.show(nudge_text(grade, question, io.symbols))
            attempt += 1
            started = io.clock.now()
            deadline = None if timeout is None else started + timeout
    except EOFError:
        if out.tries:  # tried, and input ended: the answer is not left unseen
            out.ended = True
            question.explain(io, out)
        raise
    question.explain(io, out)
    if pause and io.interactive and not go_on(io):
        out.left = True
    return out


def _hint(io: LearnerIO, question: Question, out: Outcome) -> None:
    if not question.hints:
        io.say("There are no hints here.", style="yellow")
        return
    question.hint(io, out.hints)
    if out.hints < question.hints:
        out.hints += 1
    elif question.can_show:
        io.say("Answer, or type show to see the answer.", style="dim")


def _loop_words(question: Question) -> str:
    """The loop's words at ``question``'s prompt, as a list said in the prompt's help."""
    words = [w for w, on in (("hint", question.hints), ("show", question.can_show)) if on]
    return ", ".join(words + ["quit"])


def help_text(question: Question, terminal: bool = True) -> str:
    """What ``help`` says at ``question``'s prompt: how to answer and the loop's words.
    ``terminal``: the learner is at a terminal (:func:`tutor.teaching.io.at_terminal`), so the
    keys are named (Enter alone, ``:q``, Ctrl-D); on a browser page (False) what the page does
    instead (an empty answer, the quit button, the answers saved as they come)."""
    parts = [question.answer_help]
    if question.blank is not None and question.blank.strip():
        empty = "Enter alone" if terminal else "an empty answer"
        parts.append(f"{empty} answers {question.blank}")
    if question.hints:
        parts.append("hint: the next hint")
    if question.can_show:
        parts.append("show: the answer (counted as not right)")
    if terminal:
        parts.append("quit (or :q, exit): leave; Ctrl-D saves and leaves")
    else:
        parts.append("quit: leave (what you have answered is saved)")
    return "; ".join(parts) + "."


def go_on(io: LearnerIO, prompt: str = GO_ON) -> bool:
    """Wait for Enter at ``prompt``; False when the learner types a quit word (it leaves).
    Anything else goes on."""
    reply = io.read(prompt, None)
    return reply is None or not is_quit(reply.text, menu=True)


def yes_no(io: LearnerIO, prompt: str) -> bool:
    """Ask yes or no (y, n; a quit word is no).  Enter alone answers nothing and is asked
    again: a learner paging on with Enter never says yes by it."""

    def check(text: str) -> str | None:
        return (
            None
            if said(text) in ("y", "yes", "n", "no") or is_quit(text, menu=True)
            else "Type yes or no."
        )

    return said(io.ask_checked(prompt, check, words=["yes", "no"])) in ("y", "yes")


def nudge_text(grade: Grade, question: Question | None = None, symbols: bool = True) -> Text:
    """The line after a wrong try that is not the last: the mark, the grade's nudge (which never
    gives the answer away), then how to go on."""
    t = Text()
    t.append("✗ " if symbols else "x ", style="bold yellow")
    t.append(grade.retry or "Not yet.", style="yellow")
    words = [
        w
        for w, on in (
            ("hint", question is None or question.hints),
            ("show", question is None or question.can_show),
        )
        if on
    ]
    t.append(" One more try" + (f" (or {', '.join(words)})." if words else "."), style="dim")
    return t


def rating_change_text(change, symbols: bool = True) -> Text:
    """One line on what a rated answer moved: the learner's rating and the puzzle band's
    (a :class:`tutor.teaching.progress.RatingChange`), each marked ``?`` while provisional."""
    arrow = "→" if symbols else "->"
    (was, now), (_, band_was, band_now) = change.learner, change.band
    t = Text("Rating ", style="bold")
    t.append(
        f"{shown_rating(was.rating, was.rd)} {arrow} {shown_rating(now.rating, now.rd)} "
        f"({now.rating - was.rating:+.0f})",
        style="bold cyan",
    )
    t.append(
        f"; these puzzles {shown_rating(band_was.rating, band_was.rd)} {arrow} "
        f"{shown_rating(band_now.rating, band_now.rd)}",
        style="dim",
    )
    return t


class PuzzleQuestion(Question):
    """A puzzle of :mod:`tutor.puzzles` as :func:`ask` poses it: its board and question (under
    ``heading``), its hints, :data:`TRIES` tries graded by the puzzle (the engine), ``show``,
    and then the verdict, the answer, the explanation and its quotations (a screenful at a time
    on a terminal), and the ratings the first try moved.  ``prompt`` is the answer prompt."""

    def __init__(
        self,
        puzzle,
        heading: str | None = None,
        prompt: str = "answer> ",
        taught: str | None = None,
    ):
        self.puzzle = puzzle
        self.taught = taught
        self.heading = heading
        self.prompt = prompt
        self.words = [w for w in puzzle.answer_words() if said(w) not in QUIT_WORDS]
        self.tries = TRIES
        self.hints = len(puzzle.hints)
        self.can_show = True
        self.record = Record(
            puzzle.id, puzzle.kind, tuple(puzzle.themes), puzzle.ruleset, puzzle.difficulty
        )

    def pose(self, io: LearnerIO) -> None:
        if self.heading:
            io.say(self.heading, style="bold")
        # Printed whole (not a screenful at a time): the question must stay beside its position.
        io.show(render_puzzle(self.puzzle, console_width=io.width, symbols=io.symbols))

    def grade(self, text: str, attempt: int) -> Grade:
        return self.puzzle.grade(text, attempt)

    def hint(self, io: LearnerIO, index: int) -> None:
        io.show(render_hint(self.puzzle, index, symbols=io.symbols))

    def explain(self, io: LearnerIO, outcome: Outcome) -> None:
        if outcome.shown:
            io.say(
                f"{'✗' if io.symbols else 'x'} Shown, and counted as not right.", style="bold red"
            )
        shown = render_explanation(
            self.puzzle,
            outcome.grade,
            symbols=io.symbols,
            quoted=_QUOTED.setdefault(io, set()),
            taught=self.taught,
            commands=at_terminal(io),
        )
        if outcome.ended:
            io.show(shown)
        else:
            io.page(shown)
        if outcome.change is not None:
            io.show(rating_change_text(outcome.change, io.symbols))
            if io not in _RATING_SAID:
                _RATING_SAID.add(io)
                io.say(RATING_NOTE, style="dim")
