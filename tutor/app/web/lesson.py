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

import threading
from pathlib import Path

from markupsafe import Markup, escape
from rich.text import Text

from tutor.app.context import Context, Glyphs
from tutor.app.runner import LessonRunner
from tutor.app.web.webio import WebIO
from tutor.engine.errors import LaughError
from tutor.puzzles import Puzzle
from tutor.teaching.html import quote_markup
from tutor.teaching.lessons import Block, Lesson, Segment
from tutor.teaching.progress import ProgressStore
from tutor.teaching.prose import prose_html

__all__ = ["LessonSession", "WebLessonRunner", "quote_html"]


def quote_html(block: Block, ctx: Context) -> Markup:
    """A ``quote`` block as HTML: each quotation in a ``<blockquote>``, its words escaped (its
    own emphasis kept), with ``<cite>`` naming the citation and where it is."""
    lib = ctx.library
    out = []
    for ref in block.quote()["refs"]:
        q = lib.quotation(ref)
        out.append(f"<figure class=\"quote\"><blockquote><p>“{quote_markup(q.text)}”</p>"
                   f"</blockquote><figcaption>— <cite>{escape(q.citation)}</cite>; "
                   f"{escape(q.where)}</figcaption></figure>")
    return Markup("".join(out))


class WebLessonRunner(LessonRunner):
    """The lesson runner with a page's way of showing a lesson page (see the module
    docstring); everything else (the attempt, resuming, the puzzles, the end) is the
    terminal's."""

    #: The puzzle last set (the one being asked while a question waits), for tests.
    current: Puzzle | None = None

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
        out = super().header(resumed)
        # The terminal's keys (Enter, Ctrl-D) are buttons here.
        return out[:-1] + [Text("Under each page: next, back, quit. At an answer: hint, show, "
                                "help, quit. Everything you answer is saved as you go.",
                                style="dim")]

    def show_page(self, page: int) -> None:
        ctx, lesson = self.ctx, self.lesson
        ctx.clear()
        web = self.web
        intro, self._intro = self._intro, []
        web.show(*intro)
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
                from tutor.app.blocks import render_block
                web.show(render_block(item, ctx, web.width))

    def coach_block(self, block: Block) -> None:
        self.ctx.say("A deal played with a coach stands here: it is played at a terminal "
                     "(laugh, then f on the home screen).", style="dim")


class LessonSession:
    """One learner taking ``lesson`` on a page, their progress in the store at ``store_path``
    (None: the learner's own store, as ``laugh`` uses).  :meth:`start` runs the runner in a
    daemon thread; ``result`` is ``"completed"``, ``"quit"``, ``"closed"`` or ``"failed"`` once
    it ends (``error``: the one line said for a failure)."""

    def __init__(self, lesson: Lesson, store_path: Path | None = None):
        self.lesson = lesson
        self.store_path = store_path
        self.io = WebIO()
        self.result: str | None = None
        self.runner: WebLessonRunner | None = None
        self.error: str | None = None
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name=f"lesson {lesson.id}")

    def start(self) -> LessonSession:
        """Start the runner and wait until it asks its first question (or ends)."""
        self._thread.start()
        self.io.wait_ready()
        return self

    def _run(self) -> None:
        ctx = Context(self.io, Glyphs())
        try:
            ctx._store = ProgressStore(self.store_path)     # opened in the runner's thread
            if ctx._store.notice:
                ctx.say(ctx._store.notice, style="yellow")
            self.runner = WebLessonRunner(ctx, self.lesson)
            self.result = self.runner.run()
        except EOFError:
            self.result = "closed"
        except LaughError as exc:
            self.result, self.error = "failed", str(exc)
            ctx.say(str(exc), style="yellow")
        except Exception as exc:  # noqa: BLE001 - a bug: said on the page, the server goes on
            self.result, self.error = "failed", f"{type(exc).__name__}: {exc}"
            ctx.say(f"The lesson stopped on an error ({self.error}); what you answered "
                    "is saved.", style="yellow")
        finally:
            try:
                ctx.close()
            finally:
                self.io.end()

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
