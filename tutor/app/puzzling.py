"""Posing one puzzle: show it, read answers (hints on request), grade with the engine, explain,
and record the answer.

Everything about a puzzle comes from :mod:`tutor.puzzles`; this module only drives the dialogue.
The stars shown are the puzzle band's rating turned into stars
(:meth:`tutor.teaching.progress.ProgressStore.stars`), and after a rated answer (a first try)
the learner's rating and the band's are shown as they moved.
At the answer prompt: an answer, ``hint`` (or ``?``) for the next hint, ``show`` to give up and
see the answer (graded wrong), ``quit`` or ``:q`` to leave (nothing recorded for this puzzle;
never a single letter, which could be a card).  An answer that cannot be read
(:class:`tutor.puzzles.AnswerError`) is explained whole and asked again on an empty line, not
graded.  A wrong first answer is not the end: the grade's nudge is shown and a second try is
read before the answer and the explanation (:func:`pose`).  The time of an answer (by the
clock of the learner's terminal, the I/O seam's) is recorded only when it was typed at a
terminal (not piped, not shown with ``show``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from rich.text import Text

from tutor import puzzles
from tutor.puzzles import AnswerError
from tutor.puzzles.render import code_text, render_explanation, render_hint, render_puzzle
from tutor.teaching.ratings import shown_rating

HINT_WORDS = ("hint", "?")
SHOW_WORDS = ("show", "give up")
QUIT_WORDS = ("quit", ":q")


class Quit(Exception):
    """The learner asked to leave (``quit``); progress so far is saved."""


@dataclass
class Outcome:
    """How one puzzle went: ``correct`` (right in the end, at the first or the second try),
    ``seconds`` taken by the first try (None when not typed at a terminal, or shown), ``hints``
    used, ``first`` (right at the first try: the answer that counts for ratings and a lesson's
    score) and ``tries`` (1 or 2)."""

    correct: bool
    seconds: float | None
    hints: int
    first: bool = False
    tries: int = 1


def generate(kind: str, ruleset: str | None = None, players: int | None = None,
             seed: int | None = None, difficulty: int | None = None):
    """A puzzle from :func:`tutor.puzzles.generate` (the same one for the same arguments)."""
    return puzzles.generate(kind, ruleset=ruleset, players=players, seed=seed,
                            difficulty=difficulty)


def show_puzzle(ctx, puzzle, heading: str | None = None, stars: int | None = None) -> None:
    """Print the puzzle's position and question (from :func:`tutor.puzzles.render.render_puzzle`),
    with ``stars`` (1-5) as its difficulty when given."""
    if heading:
        ctx.say(heading, style="bold")
    shown = puzzle
    if stars is not None and stars != puzzle.difficulty:
        shown = copy.copy(puzzle)        # the stars come from the rating; the puzzle is unchanged
        shown.difficulty = stars
    # Printed whole (not a screenful at a time): the question must stay beside its position.
    ctx.show(render_puzzle(shown, console_width=ctx.width, symbols=ctx.symbols))


def rating_change_text(change, symbols: bool = True) -> Text:
    """One line on what a rated answer moved: the learner's rating and the puzzle band's
    (a :class:`tutor.teaching.progress.RatingChange`), each marked ``?`` while provisional."""
    arrow = "→" if symbols else "->"
    (was, now), (_, band_was, band_now) = change.learner, change.band
    t = Text("Rating ", style="bold")
    t.append(f"{shown_rating(was.rating, was.rd)} {arrow} {shown_rating(now.rating, now.rd)} "
             f"({now.rating - was.rating:+.0f})", style="bold cyan")
    t.append(f"; these puzzles {shown_rating(band_was.rating, band_was.rd)} {arrow} "
             f"{shown_rating(band_now.rating, band_now.rd)}", style="dim")
    return t


def show_explanation(ctx, puzzle, grade=None) -> None:
    """Print the answer, explanation and quotation (``render_explanation``), a screenful at a
    time on a terminal."""
    ctx.page(render_explanation(puzzle, grade, symbols=ctx.symbols))


def retry_text(grade, wrong: str = "✗") -> Text:
    """The line after a wrong first try: the mark, and the grade's nudge (which never gives the
    answer away), then how to go on."""
    t = Text()
    if wrong:
        t.append(f"{wrong} ", style="bold yellow")
    t.append(grade.retry or "Not yet.", style="yellow")
    t.append(" One more try (or hint, show).", style="dim")
    return t


def pose(ctx, puzzle, *, heading: str | None = None, lesson: str | None = None,
         slot: str | None = None, retry: bool = False) -> Outcome:
    """Pose ``puzzle`` until it is over; grade, explain and record it.

    Every puzzle allows a second try before its answer is shown (:data:`tutor.puzzles.model.TRIES`
    tries): a wrong first answer gets the grade's nudge (:attr:`Grade.retry`, never the answer)
    and the next answer is graded as try 2 (:meth:`Puzzle.grade` with ``attempt``); the answer
    and explanation come once the grade is final (right, or no try left) or the learner types
    ``show``.  Each graded try is recorded (puzzle id, kind, themes, right or wrong, seconds,
    hints) in its own transaction through ``ctx.store`` when it is made: the first try as the
    puzzle's answer (it moves the ratings, and counts for the lesson's slot), a second try as a
    ``retry`` (it moves no rating).  Raises :class:`Quit` when the learner types ``quit``;
    ``EOFError``/``KeyboardInterrupt`` pass through (nothing is recorded for an unanswered try).
    The time is recorded only for an answer typed at a terminal (piped input and a shown answer
    have none).
    """
    show_puzzle(ctx, puzzle, heading, stars=ctx.store.stars(puzzle.kind, puzzle.difficulty))
    hints_used = 0
    started = ctx.clock.now()
    words = list(dict.fromkeys(list(puzzle.answer_words()) + ["hint", "show", "quit"]))
    attempt = 1
    first: bool | None = None
    first_seconds: float | None = None
    change = None

    def check(text: str) -> str | None:
        low = text.lower()
        if low in HINT_WORDS or low in SHOW_WORDS or low in QUIT_WORDS:
            return None
        if not text:
            return "Type your answer (or hint, show, quit)."
        try:
            puzzle.grade(text, attempt)
        except AnswerError as exc:
            return str(exc)
        return None

    def say(problem: str) -> None:
        ctx.show(code_text(problem, style="yellow"))   # `none` shown as none

    while True:
        text = ctx.ask_checked("answer> ", check, words=words, cards=True, refuse=say)
        answered = ctx.clock.now()
        low = text.lower()
        if low in QUIT_WORDS:
            raise Quit()
        if low in HINT_WORDS:
            ctx.show(render_hint(puzzle, hints_used, symbols=ctx.symbols))
            if hints_used < len(puzzle.hints):
                hints_used += 1
            else:
                ctx.say("Answer, or type show to see the answer.", style="dim")
            continue
        if low in SHOW_WORDS:
            grade = None
            correct = False
        else:
            try:
                grade = puzzle.grade(text, attempt)
            except AnswerError as exc:      # the terminal validator already refused it
                say(str(exc))
                continue
            correct = bool(grade.correct)
        seconds = answered - started
        timed = ctx.interactive and grade is not None
        moved = ctx.store.record_answer(
            puzzle.id, puzzle.kind, puzzle.themes, correct, seconds if timed else None,
            hints=hints_used, lesson=lesson, ruleset=puzzle.ruleset,
            retry=retry or attempt > 1, slot=slot, difficulty=puzzle.difficulty,
            revealed=grade is None)
        if attempt == 1:
            first, first_seconds, change = correct, (seconds if timed else None), moved
        if grade is not None and not grade.final:
            ctx.show(retry_text(grade, ctx.glyphs.wrong))
            attempt += 1
            started = ctx.clock.now()
            continue
        if grade is None:
            ctx.say(f"{ctx.glyphs.wrong} Shown, and counted as not right.", style="bold red")
        show_explanation(ctx, puzzle, grade)
        if change is not None:
            ctx.show(rating_change_text(change, ctx.symbols))
        if ctx.interactive:       # let the explanation be read before anything scrolls
            ctx.ask("Enter to go on> ")
        return Outcome(correct, first_seconds, hints_used, bool(first), attempt)
