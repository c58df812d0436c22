"""The I/O seam (:class:`tutor.teaching.io.LearnerIO`) for a browser page.

The lesson runner runs in a thread of its own and talks to a :class:`WebIO` as it would to a
terminal: what it says (:meth:`say`, :meth:`show`, :meth:`page`) becomes an :class:`Item` of
the current screen (a ``clear`` starts a new screen), and each question it asks
(:meth:`read`, :meth:`ask`) becomes the screen's :class:`Prompt` and waits until the page
answers it (:meth:`submit`, from the server's thread).  So the page only ever holds what the
runner has already said: a puzzle's question and options before the answer, its grade and
explanation after.

Rich renderables (a puzzle's board, a table of rules) are shown as their plain text, drawn
twice: :data:`WIDTH` columns wide for a phone and :data:`WIDE` for a wider window (the page's
style sheet shows the one that fits); a lesson's prose and quotations come as HTML the runner made
(:meth:`html`, from :mod:`tutor.teaching.prose` and :mod:`tutor.teaching.html`, every word of
a file escaped).  :meth:`close` ends the session: the waiting question raises ``EOFError``, as
the end of a pipe does, so the runner saves and leaves.
"""

from __future__ import annotations

import io as _io
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from markupsafe import Markup
from rich.console import Console
from rich.text import Text

from tutor.app.clock import TerminalClock
from tutor.app.learner_io import ConsoleIO
from tutor.engine.safetext import printable
from tutor.teaching.io import WEB, Event, Reply

__all__ = ["WIDE", "WIDTH", "Interrupted", "Item", "Prompt", "WebIO"]

#: Columns a rich renderable (a board, a table) is laid out in on a page: the narrowest
#: terminal the program supports, so a line fits a 360-pixel phone unbroken.
WIDTH = 40

#: Columns a rich renderable is also laid out in, for a window of 48rem (768 px) or more: a
#: line of 72 columns fits the page's column there (``static/web.css`` shows this drawing
#: from that width up, the :data:`WIDTH` one below it).
WIDE = 72

#: Style words of the runner's output, as the page's classes.
_CLASSES = {
    "bold": "b",
    "dim": "dim",
    "yellow": "warn",
    "green": "ok",
    "red": "bad",
    "cyan": "note",
    "italic": "i",
}


class Interrupted(Exception):
    """A question's wait ended by :attr:`WebIO.interrupt` (nothing was answered)."""


@dataclass(frozen=True)
class Item:
    """One thing said on a screen: ``kind`` ``"text"`` (a line or paragraph, ``text``),
    ``"pre"`` (a renderable laid out in columns: ``text`` :data:`WIDTH` columns wide, ``wide``
    :data:`WIDE` columns wide, or empty where that drawing is the same), ``"html"``
    (``html``, markup the server made from escaped text) or ``"answer"`` (what the learner
    answered, ``text``); ``classes``: the page's classes for its style."""

    kind: str
    text: str = ""
    html: Markup | None = None
    classes: str = ""
    wide: str = ""


@dataclass
class Prompt:
    """The question the runner waits on: ``prompt`` (the terminal's prompt, e.g.
    ``answer> ``), ``words`` (what may be answered by a button), ``menu`` (True: only those
    words, no free answer), ``number`` (counts the questions asked: a form answers only the one
    it was made for).

    A timed question (a drill's) also has ``ends``, the clock time (the server's,
    ``WebIO.clock``) its time runs out, and what a terminal's countdown shows: ``clock_label``,
    ``total`` (the bar's seconds), ``progress`` (question k of n); ``posed`` is the clock time
    it was asked, ``served`` when a page first showed it (:meth:`WebIO.served`)."""

    prompt: str
    words: list[str] = field(default_factory=list)
    menu: bool = False
    number: int = 0
    ends: float | None = None
    clock_label: str | None = None
    total: float | None = None
    progress: tuple[int, int] | None = None
    posed: float = 0.0
    served: float | None = None

    @property
    def lag(self) -> float:
        """Seconds from asking the question to a page first showing it (0 before)."""
        return 0.0 if self.served is None else max(0.0, self.served - self.posed)

    @property
    def label(self) -> str:
        """The prompt without its ``> ``: ``answer``, ``[next/back/quit]``."""
        return self.prompt.rstrip().rstrip(">").strip()


def _classes(style: str) -> str:
    return " ".join(dict.fromkeys(_CLASSES[w] for w in style.split() if w in _CLASSES))


def plain_text(*renderables, width: int = WIDTH) -> str:
    """Rich renderables as plain text, ``width`` columns wide, trailing spaces cut."""
    buf = _io.StringIO()
    console = Console(
        file=buf,
        width=width,
        no_color=True,
        highlight=False,
        force_terminal=False,
        color_system=None,
        markup=False,
        emoji=False,
    )
    for r in renderables:
        console.print(r)
    return "\n".join(line.rstrip() for line in buf.getvalue().rstrip("\n").split("\n"))


class WebIO(ConsoleIO):
    """The seam for one learner's page (see the module docstring).  ``symbols``: suit symbols
    (a browser shows them).  Thread-safe: the runner's thread says and reads, the server's
    threads look (:meth:`screen`) and answer (:meth:`submit`).  ``changed``: called (no
    arguments) whenever what the page shows changes; :attr:`version` counts those changes.
    :attr:`waiting` is True while the runner waits for the teacher (:meth:`wait_for`)."""

    interactive = False
    #: A browser page: nothing drawn names a command or a key the page does not offer.
    front = WEB

    def __init__(self, symbols: bool = True, changed: Callable[[], None] | None = None):
        console = Console(
            markup=False, emoji=False, file=_io.StringIO(), width=WIDTH, no_color=True
        )
        super().__init__(console, TerminalClock(), symbols)
        self._cond = threading.Condition()
        self._items: list[Item] = []
        self._prompt: Prompt | None = None
        self._answer: str | None = None
        self._asked = 0
        self._closed = False
        self.finished = False
        self.waiting = False
        self.version = 0
        self.last_text: str | None = None
        #: The lines of a ticker while one runs (:meth:`ticker`), else None.
        self._ticker: list[str] | None = None
        #: Asked at each :meth:`nudge` while a question waits: True ends the wait with
        #: :class:`Interrupted` (the teacher took the class over at a page's prompt).
        self.interrupt: Callable[[], bool] | None = None
        self._changed = changed

    def _bump(self, tell: bool = True) -> None:
        """What the page shows changed (called holding the lock); ``tell`` False: not worth
        telling ``changed`` (a scroll's next line: the teacher's pages show nothing of it)."""
        self.version += 1
        self._cond.notify_all()
        if tell and self._changed is not None:
            self._changed()

    # -- output ----------------------------------------------------------------------------

    def _add(self, item: Item) -> None:
        with self._cond:
            self._items.append(item)

    def say(self, text: str = "", style: str = "", *, wrap: bool = True) -> None:
        """A paragraph of ``text`` (shown as text) in ``style``; an empty line says nothing."""
        if text.strip():
            self._add(Item("text", printable(text), classes=_classes(style)))

    def show(self, *renderables) -> None:
        """Each renderable: a :class:`Text` as a paragraph, anything else laid out in columns."""
        for r in renderables:
            if isinstance(r, Text):
                if r.plain.strip():
                    self._add(Item("text", printable(r.plain), classes=_classes(str(r.style))))
            else:
                self._drawn(plain_text(r), plain_text(r, width=WIDE))

    def drawing(self, make: Callable[[int], object]) -> None:
        """The renderable ``make(width)`` makes for a width in columns, laid out at
        :data:`WIDTH` and at :data:`WIDE` (for a renderable that chooses its layout by the
        width it is given, such as a table of rules)."""
        self._drawn(plain_text(make(WIDTH)), plain_text(make(WIDE), width=WIDE))

    def _drawn(self, narrow: str, wide: str) -> None:
        if narrow.strip():
            self._add(Item("pre", narrow, wide=wide if wide != narrow else ""))

    def page(self, *renderables) -> None:
        """As :meth:`show` (a page scrolls; nothing waits for Enter)."""
        self.show(*renderables)

    def html(self, markup: Markup, classes: str = "") -> None:
        """Markup the server made (lesson prose, a quotation), every word of a file escaped."""
        self._add(Item("html", html=markup, classes=classes))

    def clear(self) -> None:
        """A new screen: what was said goes."""
        with self._cond:
            self._items = []
            self._bump()

    # -- input -----------------------------------------------------------------------------

    def ask(self, prompt: str = "> ", words: Sequence[str] = (), cards: bool = False) -> str:
        """Wait for the page's answer to ``prompt``; the stripped text."""
        reply = self.read(prompt, None, words)
        if reply is None:  # only closing ends a read without a time limit
            raise EOFError
        return reply.text

    def read(
        self,
        prompt: str,
        timeout: float | None = None,
        words: Sequence[str] = (),
        *,
        label: str | None = None,
        deadline: float | None = None,
        total: float | None = None,
        progress: tuple[int, int] | None = None,
        events: Sequence[Event] = (),
        keys: Mapping[str, str] | None = None,
        extend_while_typing: bool = False,
        erase: bool = False,
    ) -> Reply | None:
        """Pose ``prompt`` on the page and wait for :meth:`submit`; the :class:`Reply` (its
        time when it came), or None when ``timeout`` seconds pass first.  Raises ``EOFError``
        once the session is closed, :class:`Interrupted` when :attr:`interrupt` says so.

        Time is the server's: a timed question's seconds count from when a page first showed
        it (:meth:`served`; until then from when it was asked), so that a question's time
        runs out ``timeout`` seconds after the page got it, and :attr:`Reply.at` is the
        answer's arrival less the time the page took to come."""
        menu = prompt.startswith("[")
        with self._cond:
            if self._closed:
                raise EOFError
            self._asked += 1
            posed = self.clock.now()
            asked = Prompt(
                prompt,
                [w for w in dict.fromkeys(words) if w],
                menu,
                self._asked,
                ends=None if timeout is None else posed + timeout,
                clock_label=label,
                total=total or timeout,
                progress=progress,
                posed=posed,
            )
            self._prompt = asked
            self._answer = None
            self._bump()
            while self._answer is None and not self._closed:
                end = None if asked.ends is None else asked.ends + asked.lag
                left = None if end is None else end - self.clock.now()
                if left is not None and left <= 0:
                    self._prompt = None
                    self._bump()
                    return None
                if self.interrupt is not None and self.interrupt():
                    self._prompt = None
                    self._bump()
                    raise Interrupted
                self._cond.wait(left)
            if self._answer is None:
                raise EOFError
            text, self._answer, self._prompt = self._answer, None, None
            self.last_text = text
            self.answered(asked, text)
            self._bump()
        return Reply(text, self.clock.now() - asked.lag, None)

    def answered(self, prompt: Prompt, text: str) -> None:
        """The page answered ``prompt`` with ``text`` (called holding the lock): what is
        answered at a prompt that is not a menu is shown on the screen."""
        if not prompt.menu:
            self._items.append(Item("answer", printable(text)))

    def served(self, number: int) -> None:
        """A page showing question ``number`` is being sent: its time counts from now (the
        first time only)."""
        with self._cond:
            p = self._prompt
            if p is not None and p.number == number and p.served is None:
                p.served = self.clock.now()
                self._cond.notify_all()

    @contextmanager
    def ticker(self) -> Iterator[Callable[[object], None]]:
        """A line redrawn in place (:meth:`tutor.teaching.io.LearnerIO.ticker`): each line
        given is kept (:meth:`ticking`) until the block ends, then they all go."""

        def show(renderable) -> None:
            line = renderable.plain if isinstance(renderable, Text) else plain_text(renderable)
            with self._cond:
                if self._ticker is not None:
                    self._ticker.append(printable(line))
                    self._bump(tell=False)

        with self._cond:
            self._ticker = []
            self._bump()
        try:
            yield show
        finally:
            with self._cond:
                self._ticker = None
                self._bump()

    def ticking(self) -> list[str] | None:
        """The lines of the ticker running (the last is the one a terminal shows), or None."""
        with self._cond:
            return None if self._ticker is None else list(self._ticker)

    def submit(self, text: str, number: int, wait: float = 30.0) -> bool:
        """Answer question ``number`` with ``text`` (one line, stripped), then wait up to
        ``wait`` seconds for the runner's next question (or its end).  False when that question
        is no longer asked (a form sent twice, or from an old page): nothing is answered."""
        text = " ".join(text.split())[:200]
        with self._cond:
            if self._prompt is None or self._prompt.number != number or self._closed:
                return False
            self._answer = text
            self._cond.notify_all()
            self._cond.wait_for(
                lambda: (
                    self._closed
                    or self.finished
                    or self.waiting
                    or self._ticker is not None
                    or (self._prompt is not None and self._prompt.number > number)
                ),
                wait,
            )
        return True

    def wait_for(self, done: Callable[[], bool]) -> None:
        """Wait (the runner's thread) until ``done()`` is true, checked at each
        :meth:`nudge`; meanwhile the page shows no question and :attr:`waiting` is True.
        Raises ``EOFError`` once the session is closed."""
        with self._cond:
            if self._closed:
                raise EOFError
            self.waiting = True
            self._bump()
            try:
                while not done():
                    if self._closed:
                        raise EOFError
                    self._cond.wait(5.0)
            finally:
                self.waiting = False
                self._bump()

    def nudge(self) -> None:
        """Something the runner waits on may have changed (the teacher moved the class)."""
        with self._cond:
            self._cond.notify_all()

    def wait_ready(self, wait: float = 30.0) -> None:
        """Wait up to ``wait`` seconds until the runner asks something or ends."""
        with self._cond:
            self._cond.wait_for(
                lambda: (
                    self._prompt is not None
                    or self.finished
                    or self._closed
                    or self.waiting
                    or self._ticker is not None
                ),
                wait,
            )

    def screen(self) -> tuple[list[Item], Prompt | None]:
        """What the page shows now: the screen's items and the question waiting (or None)."""
        with self._cond:
            return list(self._items), self._prompt

    def end(self) -> None:
        """The runner is done (called from its thread)."""
        with self._cond:
            self.finished = True
            self._prompt = None
            self._bump()

    def close(self) -> None:
        """End the session: the waiting question raises ``EOFError`` in the runner."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
