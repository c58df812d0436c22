"""Taking a lesson: its pages one by one, its puzzles posed and graded, progress saved.

At the end of each page the prompt takes ``next`` (or Enter), ``back`` or ``quit``.  Puzzles are
posed where their block stands by the learner loop (:func:`tutor.app.puzzling.pose`, which is
:func:`tutor.teaching.loop.ask`: the answer prompt and its words, a second try before the answer is
shown, the explanation and the quotation behind the rule after each puzzle).  A quit word leaves
the lesson from any prompt of it (the puzzle's answer, once given, is kept).  Puzzles are
numbered across the lesson ("Puzzle 3 of 5", as the header counts them).  At the end, the
puzzles missed at the first try are offered again as fresh puzzles of the same kind and theme,
then the lesson is marked complete with its first-try score.

Puzzle ``n`` of the block numbered ``b`` in a lesson taken with seed ``S`` is always the same
puzzle (:func:`tutor.teaching.lessons.puzzle_seed`), so ``laugh lesson ID --seed S`` gives a
class the same puzzles, and a lesson resumed later poses the ones not yet answered.

A ``coach`` block starts the coached deals where it stands (:func:`tutor.app.coached_deal.coached_deals`),
after asking (``play`` starts them, ``skip`` goes on; Enter alone answers neither, so paging with
Enter never starts a deal).  A lesson run may fix the ruleset
(``ruleset``, as a track does: :mod:`tutor.teaching.tracks` has already set its puzzle blocks
under it); the coached deal is then played under it too.
"""

from __future__ import annotations

import secrets

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tutor.app.blocks import render_block
from tutor.app.context import Context
from tutor.app.fit import TitledRule
from tutor.app.markdown import render_markdown
from tutor.app.puzzling import Quit, generate, pose
from tutor.engine.errors import LaughError
from tutor.puzzles import Puzzle, another
from tutor.teaching.io import at_terminal
from tutor.teaching.lessons import Block, Lesson, Segment, puzzle_seed
from tutor.teaching.loop import yes_no
from tutor.teaching.progress import LessonState
from tutor.teaching.words import HELP_WORDS, HINT_WORDS, MENU_QUIT_WORDS

NEXT_WORDS = ("", "n", "next")
BACK_WORDS = ("b", "back")
COACH_PROMPT = "[play/skip/quit]> "
COACH_PLAY = ("play", "p", "start")
COACH_SKIP = ("skip", "s", "next")


class LessonRunner:
    """Runs one lesson for the learner in ``ctx`` (:class:`tutor.app.context.Context`).

    ``seed``: take the lesson with this seed (a new attempt unless the attempt in progress already
    uses it); None resumes the attempt in progress, or starts one with a fresh random seed.
    ``restart``: begin again from the first page even if an attempt is in progress.
    ``ruleset``: the ruleset the run is fixed to (None: the lesson's own choices); ``notes``:
    lines said under the header (what a track left out); ``resume``: the command that continues
    the lesson, as the line said on leaving names it (default ``laugh lesson N``);
    ``taught``: where a puzzle's point is taught, as the run says it (a track names its step:
    :func:`tutor.teaching.tracks.taught_in_track`; None: the course's lesson).
    """

    def __init__(
        self,
        ctx: Context,
        lesson: Lesson,
        seed: int | None = None,
        restart: bool = False,
        *,
        ruleset: str | None = None,
        notes: tuple[str, ...] = (),
        resume: str | None = None,
        taught=None,
    ):
        self.ctx = ctx
        self.taught = taught
        self.lesson = lesson
        self.seed_arg = seed
        self.restart = restart
        self.ruleset = ruleset
        self.notes = tuple(notes)
        self.resume = resume
        self._state: LessonState | None = None
        self._puzzles: dict[str, Puzzle] = {}
        self._intro: list[RenderableType] = []

    @property
    def state(self) -> LessonState:
        """The attempt being taken (its seed, page and answers), as :meth:`run` began or resumed
        it (an error before: a bug of the caller)."""
        if self._state is None:
            raise AssertionError("the lesson has not begun: run() sets its attempt")
        return self._state

    @state.setter
    def state(self, state: LessonState) -> None:
        self._state = state

    # -- puzzles ---------------------------------------------------------------------------

    def slots(self, block: Block) -> list[str]:
        """The slot names (``"<block index>.<n>"``) of a puzzle block's puzzles."""
        return [f"{block.index}.{n}" for n in range(block.puzzle()["count"])]

    def puzzle(self, block: Block, n: int) -> Puzzle:
        """Puzzle ``n`` of ``block`` for this attempt's seed (generated once, then kept)."""
        slot = f"{block.index}.{n}"
        if slot not in self._puzzles:
            d = block.puzzle()
            self._puzzles[slot] = generate(
                d["kind"],
                ruleset=d["ruleset"],
                players=d["players"],
                seed=puzzle_seed(self.state.seed, self.lesson.id, block.index, n),
                difficulty=d["difficulty"],
            )
        return self._puzzles[slot]

    def fresh_puzzle(self, block: Block, n: int) -> Puzzle:
        """A fresh puzzle for "try again" after puzzle ``n`` of ``block`` was missed: the same
        kind and theme (the block's, so the same objective), within what the lesson has taught
        (:func:`tutor.puzzles.another`), never the missed puzzle nor the same question.  The same
        attempt (seed) gives the same fresh puzzle.  Raises GenerationError when none is found."""
        return another(
            self.puzzle(block, n), 1, lesson=self.lesson.path.stem, theme=block.puzzle()["theme"]
        )

    # -- the run ---------------------------------------------------------------------------

    def run(self) -> str:
        """Take the lesson; returns ``"completed"`` or ``"quit"``.  ``EOFError`` and
        ``KeyboardInterrupt`` pass through with everything answered already saved."""
        ctx, lesson = self.ctx, self.lesson
        store = ctx.store
        state = store.lesson_state(lesson.id)
        fresh = (
            state is None
            or not state.in_progress
            or self.restart
            or (self.seed_arg is not None and state.seed != self.seed_arg)
        )
        if fresh or state is None:
            seed = self.seed_arg if self.seed_arg is not None else secrets.randbelow(10**6)
            state = store.start_lesson(lesson.id, seed)
        self.state = state
        page = min(max(state.page, 0), len(lesson.pages) - 1)
        self._intro = self.header(resumed=not fresh and (page > 0 or bool(state.answered)))
        try:
            while True:
                store.save_page(lesson.id, page)
                self.show_page(page)
                last = page == len(lesson.pages) - 1
                cmd = self.page_prompt(page, last)
                if cmd == "quit":
                    which = f"lesson {lesson.number}" if lesson.number else "the lesson"
                    why = store.unsaved()
                    said = (
                        f"Saved: you can continue {which} from this page."
                        if not why
                        else f"Not saved ({why}): this page is not remembered."
                    )
                    ctx.say(said, style="dim")
                    ctx.result = said  # kept in view by the home screen's redraw
                    return "quit"
                if cmd == "back":
                    page = max(0, page - 1)
                    continue
                if last:
                    break
                page += 1
            self.finish()
        except Quit:
            why = store.unsaved()
            ctx.say(
                "Saved: you can continue from this page later."
                if not why
                else f"Not saved ({why}): this page is not remembered.",
                style="dim",
            )
            return "quit"
        except (EOFError, KeyboardInterrupt):
            ctx.say()
            ctx.say(self.saved_line(page), style="yellow")
            raise
        return "completed"

    def saved_line(self, page: int) -> str:
        """What is saved when the learner leaves the lesson with Ctrl-C or Ctrl-D, in one line:
        the puzzles answered as the store has them (a first try is kept as it is made, so a
        puzzle left at its second try is answered, as the lesson shows it on resuming)."""
        lesson = self.lesson
        which = f"lesson {lesson.number}" if lesson.number else lesson.title
        done = len(self.answered())
        total = lesson.puzzle_count
        again = (
            self.resume or f"c from the home screen or laugh lesson {lesson.number or lesson.id}"
        )
        why = self.ctx.store.unsaved()
        if why:
            return (
                f"Not saved ({why}): {which} at page {page + 1} of {len(lesson.pages)}, "
                f"{done} of {total} puzzle{'s' if total != 1 else ''} answered."
            )
        return (
            f"Saved: {which} at page {page + 1} of {len(lesson.pages)}, {done} of {total} "
            f"puzzle{'s' if total != 1 else ''} answered; continue with {again}."
        )

    def answered(self) -> dict[str, bool]:
        """Slot -> right at the first try, for the puzzles of this attempt answered so far, as
        the progress store keeps them (the run's own record where the store cannot say)."""
        kept = self.ctx.store.lesson_state(self.lesson.id)
        if kept is not None and kept.seed == self.state.seed:
            return {**self.state.answered, **kept.answered}
        return dict(self.state.answered)

    def header(self, resumed: bool) -> list[RenderableType]:
        """The lesson's title, objectives and the seed of this attempt, as renderables (shown
        above the first page)."""
        ctx, lesson = self.ctx, self.lesson
        title = f"Lesson {lesson.number}: {lesson.title}" if lesson.number else lesson.title
        out: list[RenderableType] = [
            Text(title, style="bold"),
            Text(
                f"About {lesson.minutes} minutes; {len(lesson.pages)} pages, "
                f"{lesson.puzzle_count} puzzles; seed {self.state.seed}.",
                style="dim",
            ),
        ]
        if not resumed:
            out.append(Text("You will learn to:"))
            grid = Table.grid(padding=(0, 1))
            grid.add_column(no_wrap=True)
            grid.add_column(ratio=1)
            for o in lesson.objectives:
                grid.add_row(f" {_bullet(ctx)}", Text(o))
            out.append(grid)
        else:
            out.append(
                Text(f"Welcome back: continuing at page {self.state.page + 1}.", style="dim")
            )
        if self.ruleset:
            rs = ctx.library.rulesets.get(self.ruleset)  # its name, never its id
            name = rs.name_in_text if rs is not None else self.ruleset
            out.append(Text(f"Every puzzle and deal here is set under {name}.", style="bold"))
        for note in self.notes:
            out.append(Text(note, style="dim"))
        out.append(
            Text(
                "At the end of a page: Enter (or next), back, quit. At an answer: hint, "
                "show, help, quit (or :q). Ctrl-D saves and leaves.",
                style="dim",
            )
        )
        return out

    def show_page(self, page: int) -> None:
        """Show page ``page`` (0-based): prose and blocks a screenful at a time, and its puzzles
        where they stand (posing those not yet answered)."""
        ctx, lesson = self.ctx, self.lesson
        ctx.clear()
        title = f"{lesson.number}. {lesson.title}" if lesson.number else lesson.title
        pending: list[RenderableType] = list(self._intro)
        self._intro = []
        pending += [
            Text(""),
            TitledRule(f"{title} · page {page + 1} of {len(lesson.pages)}", style="dim"),
        ]
        for item in lesson.pages[page]:
            if isinstance(item, Segment):
                pending += [render_markdown(item.text, ctx.symbols, _bullet(ctx)), Text("")]
            elif item.kind == "puzzle":
                ctx.page(*pending)
                pending = []
                self.puzzle_block(item)
            elif item.kind == "coach":
                ctx.page(*pending)
                pending = []
                self.coach_block(item)
            else:
                pending += [render_block(item, ctx), Text("")]
        if pending:
            ctx.page(*pending)

    def puzzle_block(self, block: Block) -> None:
        """Pose each puzzle of ``block`` not yet answered in this attempt; list the others."""
        ctx = self.ctx
        for n, slot in enumerate(self.slots(block)):
            heading = self.heading(block, n)
            answered = self.state.answered.get(slot)
            if answered is not None:
                mark = ctx.glyphs.right if answered else ctx.glyphs.wrong
                ctx.say(
                    f"{heading}: answered ({mark} {'right' if answered else 'missed'}).",
                    style="dim",
                )
                continue
            try:
                puzzle = self.puzzle(block, n)
            except LaughError as exc:  # a puzzle that cannot be set is skipped, not fatal
                ctx.say(
                    f"{heading}: this puzzle could not be set ({exc}); skipped.", style="yellow"
                )
                continue
            outcome = pose(
                ctx,
                puzzle,
                heading=heading,
                lesson=self.lesson.id,
                slot=slot,
                taught=self.taught(puzzle) if self.taught else None,
            )
            if outcome.answered:  # as the store keeps it: the first try
                self.state.answered[slot] = outcome.first
            if outcome.left:
                raise Quit
            ctx.say()

    def coach_block(self, block: Block) -> None:
        """Offer the coached deals of ``block`` (``play`` starts them, ``skip`` goes on,
        ``quit`` leaves the lesson; Enter alone is asked again), under the run's ruleset where
        one is fixed."""
        from tutor.app.coached_deal import coached_deals  # the game loads only when played

        ctx = self.ctx

        def check(text: str) -> str | None:
            low = text.lower()
            if low in COACH_PLAY or low in COACH_SKIP or low in MENU_QUIT_WORDS:
                return None
            return "Type play for the deal with a coach, or skip (or quit)."

        ctx.say("Type play to play the deal with a coach, or skip to go on.", style="bold")
        low = ctx.ask_checked(COACH_PROMPT, check, words=["play", "skip", "quit"]).lower()
        if low in MENU_QUIT_WORDS:
            raise Quit
        if low in COACH_SKIP:
            ctx.say("Skipped: the coached deal is also on the home screen (f).", style="dim")
            return
        coached_deals(ctx, block.coach(), self.ruleset)
        ctx.say()

    def heading(self, block: Block, n: int) -> str:
        """``Puzzle k of n`` for puzzle ``n`` of ``block``, numbered across the whole lesson
        (:meth:`Lesson.puzzle_number`), so it agrees with the header's count; ``Puzzle`` when
        the lesson poses one."""
        total = self.lesson.puzzle_count
        if total <= 1:
            return "Puzzle"
        return f"Puzzle {self.lesson.puzzle_number(block, n)} of {total}"

    def page_prompt(self, page: int, last: bool) -> str:
        """Ask what next at the end of a page: ``"next"``, ``"back"`` or ``"quit"``.  A word
        that is none of them is refused naming Enter on a terminal, the page's three words
        alone on a browser page (:func:`tutor.teaching.io.at_terminal`)."""
        ctx = self.ctx
        label = "finish" if last else "next"
        prompt = f"[{label}/back/quit]> "
        words = [label, "back", "quit"]

        def check(text: str) -> str | None:
            low = text.lower()
            if low in NEXT_WORDS or low in BACK_WORDS or low in MENU_QUIT_WORDS or low == "finish":
                return None
            if low in HINT_WORDS:
                return "Hints are for puzzles; type next, back or quit."
            if not at_terminal(ctx.io):  # a page's buttons: no key to name
                return f"At the end of a page: {label}, back or quit."
            if low in HELP_WORDS:
                return f"At the end of a page: {label} (or Enter), back or quit."
            return f"Type {label} (or press Enter), back or quit."

        while True:
            low = ctx.ask_checked(prompt, check, words=words).lower()
            if low in MENU_QUIT_WORDS:
                return "quit"
            if low in BACK_WORDS:
                if page == 0:
                    ctx.say("This is the first page.", style="yellow")
                    continue
                return "back"
            return "next"

    def right_at_second_try(self, slots: set[str]) -> int:
        """How many of the puzzles in ``slots`` (missed at the first try in this attempt) the
        learner got right at the second try, from the answers the store keeps (a second try is a
        retry at the same puzzle)."""
        ids = set()
        for block in self.lesson.blocks("puzzle"):
            for n in range(block.puzzle()["count"]):
                if f"{block.index}.{n}" in slots:
                    try:
                        ids.add(self.puzzle(block, n).id)
                    except LaughError:
                        continue
        right = {
            a.puzzle_id
            for a in self.ctx.store.answers(since=self.state.started_at)
            if a.lesson == self.lesson.id and a.retry and a.correct and a.puzzle_id in ids
        }
        return len(right)

    def finish(self) -> None:
        """Offer the missed puzzles again, mark the lesson complete and show the score."""
        ctx, lesson = self.ctx, self.lesson
        blocks = list(lesson.blocks("puzzle"))
        slots = [(b, n, f"{b.index}.{n}") for b in blocks for n in range(b.puzzle()["count"])]
        total = sum(1 for _, _, s in slots if s in self.state.answered)
        right = sum(1 for _, _, s in slots if self.state.answered.get(s))
        missed = [(b, n) for b, n, s in slots if self.state.answered.get(s) is False]
        if missed:
            second = self.right_at_second_try({f"{b.index}.{n}" for b, n in missed})
            ctx.say(
                f"{len(missed)} puzzle{'s' if len(missed) != 1 else ''} not right at the "
                "first try"
                + (f" ({second} of them right at the second)" if second else "")
                + ". Try again now, with fresh puzzles of the same kinds?",
                style="bold",
            )
            if yes_no(ctx.io, "[yes/no]> "):
                for i, (b, n) in enumerate(missed, 1):
                    heading = f"Again, {i} of {len(missed)}"
                    try:
                        fresh = self.fresh_puzzle(b, n)
                    except LaughError as exc:  # none found: skipped, not fatal
                        ctx.say(
                            f"{heading}: no fresh puzzle of this kind could be set ({exc}); "
                            "skipped.",
                            style="yellow",
                        )
                        continue
                    outcome = pose(
                        ctx,
                        fresh,
                        heading=heading,
                        lesson=lesson.id,
                        slot=f"{b.index}.{n}",
                        retry=True,
                        taught=self.taught(fresh) if self.taught else None,
                    )
                    if outcome.left:
                        raise Quit
                    ctx.say()
        ctx.store.complete_lesson(lesson.id, right, total)
        g = ctx.glyphs
        said = (
            f"{g.done} Lesson complete: {right} of {total} puzzles right first time."
            if total
            else f"{g.done} Lesson complete."
        )
        ctx.say(said, style="bold green")
        which = f"lesson {lesson.number}, {lesson.title}" if lesson.number else lesson.title
        # the score first: the home screen shows it on one line, cut at the end if need be
        ctx.result = (
            f"{g.done} {right} of {total} right first time: {which}."
            if total
            else f"{g.done} Done: {which}."
        )


def _bullet(ctx: Context) -> str:
    return "•" if ctx.symbols else "-"


def take_lesson(
    ctx: Context, lesson: Lesson, seed: int | None = None, restart: bool = False
) -> str:
    """Take ``lesson`` in ``ctx`` (see :class:`LessonRunner` for ``seed`` and ``restart``), as
    ``laugh lesson`` and the home screen do; returns ``"completed"`` or ``"quit"``."""
    return LessonRunner(ctx, lesson, seed=seed, restart=restart).run()
