"""A lesson taken on a page: the terminal's runner (:class:`tutor.app.runner.LessonRunner`) in
a thread of its own, talking to a :class:`~tutor.app.web.webio.WebIO`.

:class:`WebLessonRunner` changes only how a page is shown: the lesson's prose as HTML
(:func:`tutor.teaching.prose.prose_html`, raw HTML off), its quotations as HTML with their
citations (:func:`tutor.teaching.html.quote_markup`), its other blocks (rules, odds, records)
as the terminal lays them out.  Puzzles are posed exactly as on a terminal
(:meth:`LessonRunner.puzzle_block`, :func:`tutor.app.puzzling.pose`,
:func:`tutor.teaching.loop.ask`): graded on the server, the second try and its nudge, the
explanation with its source words, every try recorded in the learner's progress store.  A
coached deal is played at a terminal (``laugh`` itself): the page says so and goes on.

:class:`LessonSession` is one learner's lesson in progress: it starts the runner's thread,
answers its questions from the page, and ends it (the runner saves and leaves, as at the end
of a pipe).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape
from rich.text import Text

from tutor.app.context import Context, Glyphs
from tutor.app.runner import LessonRunner
from tutor.app.web.webio import Interrupted, WebIO
from tutor.engine.errors import LaughError
from tutor.puzzles import Puzzle
from tutor.teaching.html import quote_markup
from tutor.teaching.lessons import Block, Lesson, Segment
from tutor.teaching.progress import ProgressStore
from tutor.teaching.prose import prose_html

__all__ = ["LessonSession", "Try", "WebLessonRunner", "quote_html"]


def quote_html(block: Block, ctx: Context) -> Markup:
    """A ``quote`` block as HTML: each quotation in a ``<blockquote>``, its words escaped (its
    own emphasis kept), with ``<cite>`` naming the citation and where it is."""
    lib = ctx.library
    out = []
    for ref in block.quote()["refs"]:
        q = lib.quotation(ref)
        out.append(
            f'<figure class="quote"><blockquote><p>“{quote_markup(q.text)}”</p>'
            f"</blockquote><figcaption>— <cite>{escape(q.citation)}</cite>; "
            f"{escape(q.where)}</figcaption></figure>"
        )
    return Markup("".join(out))


class WebLessonRunner(LessonRunner):
    """The lesson runner with a page's way of showing a lesson page (see the module
    docstring); everything else (the attempt, resuming, the puzzles, the end) is the
    terminal's."""

    #: The puzzle last set (the one being asked while a question waits): the dashboard's
    #: "current puzzle".
    current: Puzzle | None = None

    #: The page shown (0-based), or None before the first.
    page_now: int | None = None

    #: Teacher-led pace: a callable giving the page (0-based; the number of pages: past the
    #: last, the lesson's end) the teacher has the class on, or None while the class is
    #: self-paced; None here: always self-paced (``laugh web``).
    pace: Callable[[], int | None] | None = None

    def puzzle(self, block: Block, n: int) -> Puzzle:
        self.current = super().puzzle(block, n)
        return self.current

    def fresh_puzzle(self, block: Block, n: int) -> Puzzle:
        self.current = super().fresh_puzzle(block, n)
        return self.current

    @property
    def web(self) -> WebIO:
        io = self.ctx.io
        assert isinstance(io, WebIO)
        return io

    def header(self, resumed: bool):
        """The terminal's header as a page says it: no title (the page's heading names the
        lesson) and no seed (a terminal's matter, a puzzling word to a class); the objectives
        as a list (Markup); the buttons in place of the terminal's keys."""
        out = super().header(resumed)
        lesson = self.lesson
        assert isinstance(out[1], Text) and "minutes" in out[1].plain
        out[:2] = [
            Text(
                f"About {lesson.minutes} minutes; {len(lesson.pages)} pages, "
                f"{lesson.puzzle_count} puzzles.",
                style="dim",
            )
        ]
        if not resumed and lesson.objectives:
            assert isinstance(out[1], Text) and out[1].plain == "You will learn to:"
            items = Markup("").join(Markup("<li>{}</li>").format(o) for o in lesson.objectives)
            out[1:3] = [Markup("<p>You will learn to:</p><ul>{}</ul>").format(items)]
        # The terminal's keys (Enter, Ctrl-D) are buttons here; a class led by its teacher
        # turns its pages with the teacher.
        led = self.pace is not None and self.pace() is not None
        pages = (
            "Your teacher turns the pages for the class."
            if led
            else "Under each page: next, back, quit."
        )
        return out[:-1] + [
            Text(
                f"{pages} At an answer: hint, show, help, quit. Everything "
                "you answer is saved as you go.",
                style="dim",
            )
        ]

    def page_prompt(self, page: int, last: bool) -> str:
        """Self-paced: the terminal's prompt (next, back, quit), given up when the teacher
        takes the class over meanwhile.  Teacher-led (:attr:`pace` gives a page): ``"next"``
        or ``"back"`` towards the teacher's page without asking; on the teacher's page, wait
        for the teacher to move the class (``EOFError`` when the session is closed
        meanwhile)."""
        pace = self.pace
        if pace is None:
            return super().page_prompt(page, last)

        def leads() -> bool:
            return pace() is not None

        def moved() -> bool:
            return pace() != page

        while True:
            target = pace()
            if target is None:
                # the teacher may take the class over while this page's prompt waits
                self.web.interrupt = leads
                try:
                    return super().page_prompt(page, last)
                except Interrupted:
                    continue
                finally:
                    self.web.interrupt = None
            if target > page:
                return "next"
            if target < page:
                return "back"
            self.web.wait_for(moved)

    def show_page(self, page: int) -> None:
        ctx, lesson = self.ctx, self.lesson
        self.page_now = page
        ctx.clear()
        web = self.web
        intro, self._intro = self._intro, []
        for said in intro:
            if isinstance(said, Markup):
                web.html(said, classes="prose")
            else:
                web.show(said)
        title = f"{lesson.number}. {lesson.title}" if lesson.number else lesson.title
        web.say(f"{title} · page {page + 1} of {len(lesson.pages)}", style="dim")
        for item in lesson.pages[page]:
            if isinstance(item, Segment):
                web.html(prose_html(item.text, ctx.symbols), classes="prose")
            elif item.kind == "puzzle":
                self.puzzle_block(item)
            elif item.kind == "coach":
                self.coach_block(item)
            elif item.kind == "quote":
                web.html(quote_html(item, ctx), classes="quotes")
            else:
                from functools import partial

                from tutor.app.blocks import render_block

                web.drawing(partial(render_block, item, ctx))

    def coach_block(self, block: Block) -> None:
        self.ctx.say(
            "A deal played with a coach stands here: it is played at a terminal "
            "(laugh, then f on the home screen).",
            style="dim",
        )


@dataclass(frozen=True)
class Try:
    """One graded try of a puzzle on a page: the ``puzzle_id``, the ``text`` answered (as the
    learner typed it, one line), ``correct``, ``retry`` (a second try, or a fresh puzzle after
    a miss), ``revealed`` (``show``), ``at`` (seconds on the session's clock,
    ``io.clock``)."""

    puzzle_id: str
    text: str
    correct: bool
    retry: bool
    revealed: bool
    at: float


class _TellingStore(ProgressStore):
    """The learner's progress store, which also tells ``told`` of each answer recorded (the
    graded try, as :func:`tutor.teaching.loop.ask` records it)."""

    def __init__(self, path: Path | None, told: Callable[..., None]):
        super().__init__(path)
        self._tell = told

    def record_answer(self, puzzle_id, kind, themes, correct, seconds, **kw):
        change = super().record_answer(puzzle_id, kind, themes, correct, seconds, **kw)
        self._tell(puzzle_id, bool(correct), bool(kw.get("retry")), bool(kw.get("revealed")))
        return change


class LessonSession:
    """One learner taking ``lesson`` on a page, their progress in the store at ``store_path``
    (None: the learner's own store, as ``laugh`` uses).  :meth:`start` runs the runner in a
    daemon thread; ``result`` is ``"completed"``, ``"quit"``, ``"closed"`` or ``"failed"`` once
    it ends (``error``: the one line said for a failure).

    ``seed``: the attempt's seed (a class's, so every student has the same puzzles; None: the
    attempt in progress, or a fresh one); ``pace``: see :attr:`WebLessonRunner.pace`;
    ``changed``: called (no arguments, from any thread) whenever the page or an answer
    changes.  :attr:`tries` lists the graded tries made in this session (:class:`Try`);
    :attr:`serial` tells this session from every other of the process."""

    _serials = itertools.count(1)

    def __init__(
        self,
        lesson: Lesson,
        store_path: Path | None = None,
        *,
        seed: int | None = None,
        pace: Callable[[], int | None] | None = None,
        changed: Callable[[], None] | None = None,
    ):
        self.lesson = lesson
        self.store_path = store_path
        self.seed = seed
        self.pace = pace
        self.changed = changed
        self.io = WebIO(changed=changed)
        self.result: str | None = None
        self.runner: WebLessonRunner | None = None
        self.error: str | None = None
        self._tries: list[Try] = []
        self._tries_lock = threading.Lock()
        self.serial = next(self._serials)
        self._thread = threading.Thread(target=self._run, daemon=True, name=f"lesson {lesson.id}")

    def start(self) -> LessonSession:
        """Start the runner and wait until it asks its first question (or ends)."""
        self._thread.start()
        self.io.wait_ready()
        return self

    def _run(self) -> None:
        ctx = Context(self.io, Glyphs())
        try:
            # opened in the runner's thread
            ctx._store = _TellingStore(self.store_path, self._told)
            if ctx._store.notice:
                ctx.say(ctx._store.notice, style="yellow")
            self.runner = WebLessonRunner(ctx, self.lesson, seed=self.seed)
            self.runner.pace = self.pace
            self.result = self.runner.run()
        except EOFError:
            self.result = "closed"
        except LaughError as exc:
            self.result, self.error = "failed", str(exc)
            ctx.say(str(exc), style="yellow")
        except Exception as exc:  # noqa: BLE001 - a bug: said on the page, the server goes on
            self.result, self.error = "failed", f"{type(exc).__name__}: {exc}"
            ctx.say(
                f"The lesson stopped on an error ({self.error}); what you answered is saved.",
                style="yellow",
            )
        finally:
            try:
                ctx.close()
            finally:
                self.io.end()

    def _told(self, puzzle_id: str, correct: bool, retry: bool, revealed: bool) -> None:
        text = "show" if revealed else (self.io.last_text or "")
        with self._tries_lock:
            self._tries.append(Try(puzzle_id, text, correct, retry, revealed, self.io.clock.now()))
        if self.changed is not None:
            self.changed()

    @property
    def tries(self) -> list[Try]:
        """The graded tries of this session, in order (a copy)."""
        with self._tries_lock:
            return list(self._tries)

    @property
    def alive(self) -> bool:
        """True while the runner's thread runs."""
        return self._thread.is_alive()

    def close(self, wait: float = 5.0) -> None:
        """End the session (what is answered is already saved) and wait up to ``wait``
        seconds for the runner to leave."""
        self.io.close()
        if self._thread.is_alive():
            self._thread.join(wait)
