"""The I/O seam's two implementations (:class:`tutor.teaching.io.LearnerIO`): one for a terminal,
one for scripted or piped input.

- :class:`TerminalIO`: rich output; prompt_toolkit input with completion of card codes and
  answer words and a history (kept in a file when given); timed prompts with a live countdown in
  the bottom toolbar (redrawn ten times a second, :func:`tutor.app.clock.countdown_line`),
  events printed above the prompt while the learner's typing stays in place, and single keys
  (the claim key) that answer at once; long output a screenful at a time.
- :class:`ScriptedIO`: answers line by line, from piped standard input (each prompt, and the
  line read, are written out, so a transcript reads as the session did; no escape codes) or from
  a test's script (a list, or a function of the prompt).  With a
  :class:`~tutor.app.clock.VirtualClock` no time passes while a line is read and events never
  fire; with a :class:`~tutor.app.clock.FakeClock` it stands for a learner at a terminal who
  takes the fake clock's scripted time over each read.
- :func:`make_io`: the one for the real terminal (or pipes) and its clock.

Both write through a rich console (:class:`ConsoleIO`), so what is said and shown is the same.
"""

from __future__ import annotations

import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, NamedTuple, cast

from rich.console import Console, Group
from rich.segment import Segment, Segments
from rich.text import Text

from tutor.app.clock import (
    REFRESH,
    FakeClock,
    TerminalClock,
    VirtualClock,
    countdown_for,
    countdown_line,
)
from tutor.app.std_streams import (
    RStripWriter,
    is_terminal,
    make_console,
    suit_symbols,
    whole_word_text,
)
from tutor.engine.cards import RANKS, SUITS
from tutor.engine.safetext import printable
from tutor.teaching.words import is_quit

if TYPE_CHECKING:  # the seam's types; its module loads when a session first reads
    from prompt_toolkit import PromptSession
    from rich.console import RenderableType

    from tutor.teaching.io import Clock, Event, Reply

__all__ = ["ConsoleIO", "ScriptedIO", "TerminalIO", "card_words", "make_io"]


def card_words() -> list[str]:
    """Every card code (``7H``), for completion."""
    return [r + s for r in RANKS for s in SUITS]


def _key_of(text: str, keys: Mapping[str, str] | None) -> str | None:
    """The key of ``keys`` whose word ``text`` is (a scripted or piped key press), or None."""
    if keys:
        for key, word in keys.items():
            if text.lower() == word:
                return key
    return None


class ConsoleIO:
    """What both implementations share: output on a rich ``console``, the ``clock`` and
    ``symbols``, and the questions built on :meth:`ask`.  Subclasses read the input."""

    interactive = False
    #: A terminal, piped input or a script: a drawing may name a command or a key.
    front = "terminal"  # tutor.teaching.io.TERMINAL (that module loads when a session reads)

    def __init__(self, console: Console, clock: Clock, symbols: bool = True):
        self.console = console
        self.clock = clock
        self.symbols = symbols

    @property
    def width(self) -> int:
        """The console width in columns."""
        return self.console.width

    def say(self, text: str = "", style: str = "", *, wrap: bool = True) -> None:
        """Print ``text`` (no markup; control, bidi and format characters escaped) in ``style``,
        wrapped at spaces to the console's width unless ``wrap`` is False (then one line,
        whatever its length).  A word is never broken: a path, code or token too wide for the
        line stands whole on a line of its own (:func:`~tutor.app.std_streams.whole_word_lines`)."""
        shown = Text(printable(text), style=style or "")  # escaped before it is laid out
        if wrap:
            shown = whole_word_text(shown, self.console.width)
        self.console.print(shown, soft_wrap=True)

    def show(self, *renderables) -> None:
        """Print each renderable."""
        for r in renderables:
            self.console.print(r)

    def page(self, *renderables) -> None:
        """Print the renderables (a screenful at a time only on a terminal)."""
        self.show(*renderables)

    def clear(self) -> None:
        """Nothing to clear but a terminal."""

    @contextmanager
    def ticker(self) -> Iterator[Callable[[object], None]]:
        """Each renderable given is printed in turn (see :meth:`TerminalIO.ticker`)."""
        yield self.show

    @contextmanager
    def progress(self, label: str) -> Iterator[Callable[[float, float], None]]:
        """No bar (see :meth:`TerminalIO.progress`)."""
        yield lambda completed, total: None

    def ask(self, prompt: str = "> ", words: Sequence[str] = (), cards: bool = False) -> str:
        raise NotImplementedError

    def ask_checked(
        self,
        prompt: str,
        check: Callable[[str], str | None],
        words: Sequence[str] = (),
        cards: bool = False,
        refuse: Callable[[str], None] | None = None,
    ) -> str:
        """Ask until ``check`` accepts the stripped answer (None: no problem); return it.  A
        refusal is said by ``refuse`` (default: in yellow, whole), then the question is asked
        again on an empty line."""
        while True:
            text = self.ask(prompt, words, cards)
            problem = check(text)
            if problem is None:
                return text
            if refuse is not None:
                refuse(problem)
            else:
                self.say(problem, style="yellow")


class _Pressed(NamedTuple):
    """A key of ``keys`` pressed on an empty line, and when (clock time)."""

    key: str
    word: str
    at: float


class TerminalIO(ConsoleIO):
    """A person at a terminal: prompt_toolkit input (completion; ``history_path`` a file for the
    history of plain questions, else it lasts as long as the program), a real
    :class:`~tutor.app.clock.TerminalClock` by default.  Ctrl-D raises ``EOFError``, Ctrl-C
    ``KeyboardInterrupt``."""

    interactive = True

    def __init__(
        self,
        console: Console,
        clock: Clock | None = None,
        symbols: bool | None = None,
        history_path: str | None = None,
    ):
        super().__init__(
            console,
            clock if clock is not None else TerminalClock(),
            suit_symbols() if symbols is None else symbols,
        )
        self.history_path = history_path
        self._asking: PromptSession | None = None
        self._timed: dict[tuple, object] = {}

    # -- output ------------------------------------------------------------------------------

    def page(self, *renderables) -> None:
        """A screenful at a time (``more>`` between, Enter for the next screenful, ``s`` to skip
        to the end of it, ``q`` or a quit word to stop showing it, as ``less`` does), so nothing
        scrolls away unread.  The caller goes on after a stop: its next prompt takes the quit."""
        console = self.console
        lines = console.render_lines(Group(*renderables), console.options, pad=False)
        room = max(5, console.height - 2)
        i = 0
        while i < len(lines):
            for line in lines[i : i + room]:
                console.print(Segments(line + [Segment.line()]), end="")
            i += room
            if i < len(lines):
                more = self.ask("more (Enter; s skips, q stops)> ").strip().lower()
                if is_quit(more, menu=True):
                    return
                if more in ("s", "skip"):
                    for line in lines[i:]:
                        console.print(Segments(line + [Segment.line()]), end="")
                    return

    def clear(self) -> None:
        """Clear the screen."""
        self.console.clear()

    @contextmanager
    def ticker(self) -> Iterator[Callable[[object], None]]:
        """One line redrawn in place (rich's live display), gone at the end of the block."""
        if not self.console.is_terminal:
            yield self.show
            return
        from rich.live import Live  # rich's live display: only on a terminal

        live = Live(Text(""), console=self.console, transient=True, auto_refresh=False)
        live.start()
        try:
            # the seam passes what rich renders (Text, Group, Table...) as object
            yield lambda renderable: live.update(cast("RenderableType", renderable), refresh=True)
        finally:
            live.stop()

    @contextmanager
    def progress(self, label: str) -> Iterator[Callable[[float, float], None]]:
        """A bar labelled ``label`` with the count done of the total, gone at the end."""
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn

        bar = Progress(
            TextColumn(label, markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            console=self.console,
            transient=True,
        )
        bar.start()
        task: list[TaskID] = []

        def update(completed: float, total: float) -> None:
            if not task:
                task.append(bar.add_task(label, total=total))
            bar.update(task[0], completed=completed, total=total)

        try:
            yield update
        finally:
            bar.stop()

    # -- input -------------------------------------------------------------------------------

    def _ask_session(self):
        # prompt_toolkit only on a terminal: it is slow to import and piped runs never need it
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, History, InMemoryHistory

        if self._asking is None:
            history: History = InMemoryHistory()
            if self.history_path is not None:
                try:
                    os.makedirs(os.path.dirname(self.history_path), exist_ok=True)
                    if not os.path.exists(self.history_path) or os.path.isfile(
                        self.history_path
                    ):  # never a FIFO: it would wait
                        history = FileHistory(str(self.history_path))
                except OSError:
                    pass
            self._asking = PromptSession(history=history)
        return self._asking

    def ask(self, prompt: str = "> ", words: Sequence[str] = (), cards: bool = False) -> str:
        """Ask once; the line starts empty, and history lasts (across runs with a file)."""
        from prompt_toolkit.completion import DummyCompleter, WordCompleter

        session = self._ask_session()
        vocab = list(dict.fromkeys(list(words) + (card_words() if cards else [])))
        # A session keeps the completer of its last prompt when given None: pass a dummy.
        completer = (
            WordCompleter(vocab, ignore_case=True, sentence=False) if vocab else DummyCompleter()
        )
        return session.prompt(prompt, completer=completer, complete_while_typing=False).strip()

    def _timed_session(self, erase: bool, keys: Mapping[str, str]):
        index = (erase, tuple(sorted(keys.items())))
        if index not in self._timed:
            # prompt_toolkit only on a terminal (see _ask_session)
            from prompt_toolkit import PromptSession
            from prompt_toolkit.application.current import get_app
            from prompt_toolkit.filters import Condition
            from prompt_toolkit.history import InMemoryHistory
            from prompt_toolkit.key_binding import KeyBindings

            kb = KeyBindings()
            empty = Condition(lambda: not get_app().current_buffer.text)
            for key, word in keys.items():

                def pressed(event, key=key, word=word):  # timed the moment it is pressed
                    event.app.exit(result=_Pressed(key, word, self.clock.now()))

                kb.add(key, filter=empty)(pressed)
            self._timed[index] = PromptSession(
                history=InMemoryHistory(), key_bindings=kb, erase_when_done=erase
            )
        return self._timed[index]

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
        """See :meth:`tutor.teaching.io.LearnerIO.read`.  The countdown and the events are in
        the clock's time; a timeout of 0 or less closes the prompt at once (None)."""
        if timeout is not None and timeout <= 0:
            return None
        # asyncio and prompt_toolkit only on a terminal (see _ask_session)
        import asyncio

        from prompt_toolkit.application import run_in_terminal
        from prompt_toolkit.completion import WordCompleter

        from tutor.teaching.io import Reply

        clock = self.clock
        now = clock.now()
        countdown = countdown_for(now, timeout, label, deadline, total, progress)
        session = self._timed_session(erase, keys or {})
        app = session.app
        handles = []
        symbols = self.symbols

        def fire_timeout():
            if app.is_done:
                return
            if extend_while_typing and app.current_buffer.text:
                handles.append(asyncio.get_running_loop().call_later(0.5, fire_timeout))
                return
            app.exit(result=None)

        def fire_event(fire):
            if app.is_done:
                return

            def done(fut):
                if (
                    not app.is_done
                    and not fut.cancelled()
                    and fut.exception() is None
                    and fut.result()
                ):
                    app.exit(result=None)
                elif not app.is_done and not fut.cancelled() and fut.exception() is not None:
                    app.exit(exception=fut.exception())

            asyncio.ensure_future(run_in_terminal(fire)).add_done_callback(done)

        def pre_run():
            loop = asyncio.get_running_loop()
            if timeout is not None:
                handles.append(loop.call_later(max(0.0, timeout), fire_timeout))
            for at, fire in events:
                handles.append(loop.call_later(max(0.0, at - now), fire_event, fire))

        def toolbar():
            assert countdown is not None  # the toolbar is set only with a countdown
            width = app.output.get_size().columns
            return countdown_line(countdown, clock.now(), width, symbols)

        vocab = list(dict.fromkeys(list(words) + card_words()))
        completer = WordCompleter(vocab, ignore_case=True, sentence=True)
        # A session keeps its last toolbar and refresh rate: set both for every prompt.
        session.bottom_toolbar = toolbar if countdown is not None else None
        session.refresh_interval = REFRESH if countdown is not None else 0
        try:
            result = session.prompt(
                prompt, pre_run=pre_run, completer=completer, complete_while_typing=False
            )
        finally:
            for h in handles:
                h.cancel()
        if result is None:
            return None
        if isinstance(result, _Pressed):
            return Reply(result.word, result.at, result.key)
        return Reply(result.strip(), clock.now())


class ScriptedIO(ConsoleIO):
    """Answers line by line, never at a terminal (see the module docstring).

    ``answers``: a readable text stream (piped standard input: each prompt, and the line read,
    are written to ``stdout``, default standard output), a list of lines, or a function of the
    prompt giving the line (None: end of input).  ``console`` (default: one writing to memory),
    ``clock`` (default: a :class:`~tutor.app.clock.VirtualClock`, no time passes while reading)
    and ``symbols``.  Every prompt and the line given for it are kept in :attr:`log`.  End of
    the answers raises ``EOFError``.
    """

    def __init__(
        self,
        answers,
        console: Console | None = None,
        clock: Clock | None = None,
        symbols: bool = True,
        *,
        stdout=None,
    ):
        if console is None:
            import io

            console = make_console(file=io.StringIO(), width=80, plain=True)
        super().__init__(console, clock if clock is not None else VirtualClock(), symbols)
        self._stream = self._fn = self._lines = None
        if answers is None or hasattr(answers, "readline"):
            self._stream = answers
            self._out = stdout if stdout is not None else sys.stdout
        elif callable(answers):
            self._fn = answers
        else:
            self._lines = list(answers)
        self.log: list[str] = []
        self._pending: list[str] = []  # lines looked at (next_line), not yet taken
        #: True when the answers are lines in order (a stream or a list), which
        #: :meth:`next_line` can look at; False for a function of the prompt.
        self.in_order = self._fn is None

    def _line(self, prompt: str) -> str:
        """The next answer, stripped; ``EOFError`` when there is none."""
        if self._fn is not None or self._lines is not None:
            if self._fn is not None:
                text = self._fn(prompt)
            else:
                text = self._lines.pop(0) if self._lines else None
            if text is None:
                raise EOFError
        else:
            out = self._out
            while True:
                out.write(prompt)
                out.flush()
                line = (
                    self._pending.pop(0)
                    if self._pending
                    else (self._stream.readline() if self._stream is not None else "")
                )
                if not line:
                    out.write("\n")
                    raise EOFError
                text = line.rstrip("\n")
                if _is_text(text):
                    break
                out.write("\n")  # bytes that are not UTF-8: said, never read
                self.say(
                    "That line is not text (bytes that are not UTF-8): type it again.",
                    style="yellow",
                )
            out.write(printable(text) + "\n")  # as typed, escaped as all output is
        self.log.append(prompt + text)
        return text.strip()

    def ask(self, prompt: str = "> ", words: Sequence[str] = (), cards: bool = False) -> str:
        """The next line."""
        return self._line(prompt)

    def read_ahead(self, arrived: Callable[[], None] | None = None) -> None:
        """From now on, read a piped stream's lines as they arrive, in a thread of their own
        (so that :meth:`waiting` sees a line before any prompt asks for it); ``arrived`` is
        called (from that thread) at each line and at the end of the input.  Lines are still
        taken in order, each by one prompt; a list or a function of the prompt needs no
        thread.  Calling it again does nothing."""
        if self._stream is not None and not isinstance(self._stream, _ReadAhead):
            self._stream = _ReadAhead(self._stream, arrived)

    def waiting(self) -> str | None:
        """The next answer, stripped, when it has come, without taking it (the next prompt
        takes it); None when none has come yet (or the answers have ended).  A piped stream
        is looked at only after :meth:`read_ahead`; a function of the prompt never."""
        if self._lines is not None:
            return self._lines[0].strip() if self._lines else None
        if self._pending:
            return self._pending[0].rstrip("\n").strip()
        if isinstance(self._stream, _ReadAhead):
            line = self._stream.peek()
            return None if line is None else line.rstrip("\n").strip()
        return None

    def next_line(self) -> str | None:
        """The next answer, stripped, without taking it (the next prompt takes it), waiting
        for it when the answers are a stream (piped: no real time passes while it comes); None
        at the end of the answers.  Raises ``TypeError`` for a function of the prompt (its
        answer depends on the prompt: see :attr:`in_order`)."""
        if self._fn is not None:
            raise TypeError("a function of the prompt has no next line before the prompt")
        if self._lines is not None:
            return self._lines[0].strip() if self._lines else None
        if not self._pending:
            line = self._stream.readline() if self._stream is not None else ""
            if not line:
                return None
            self._pending.append(line)
        return self._pending[0].rstrip("\n").strip()

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
        """The next line as a :class:`Reply` (a line holding only a key's word is that key).
        Piped (any clock but a fake one): at once, and events never fire.  With a
        :class:`~tutor.app.clock.FakeClock`: the learner's scripted delay passes, events due
        before it fire (moving the clock to each), and the read gives None when one closes the
        prompt or the delay reaches the timeout (the line is then not consumed)."""
        from tutor.teaching.io import Reply  # (start-up time: see the imports above)

        clock = self.clock
        start = clock.now()
        if not isinstance(clock, FakeClock):  # piped: no time passes while reading
            text = self._line(prompt)
            return Reply(text, clock.now(), _key_of(text, keys))
        delay = clock.next_delay()
        clock.shown.append(countdown_for(start, timeout, label, deadline, total, progress))
        stop = start + (delay if timeout is None else min(delay, timeout))
        for at, fire in sorted(events, key=lambda e: e[0]):
            if at > stop:
                break
            clock.advance_to(at)
            if fire():
                clock.reads.append((prompt, timeout, delay, True))
                return None
        if timeout is not None and delay >= timeout:
            clock.reads.append((prompt, timeout, delay, True))
            clock.advance_to(start + timeout)
            return None
        clock.reads.append((prompt, timeout, delay, False))
        text = self._line(prompt)
        clock.advance_to(start + delay)
        return Reply(text, clock.now(), _key_of(text, keys))


def _is_text(line: str) -> bool:
    """False for a line holding bytes that are not UTF-8 (read as lone surrogates)."""
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class _ReadAhead:
    """A piped stream read line by line by a thread of its own (:meth:`ScriptedIO.read_ahead`):
    :meth:`readline` takes the next line (waiting for it; ``""`` at the end), :meth:`peek`
    looks at it without waiting.  A stream that cannot be read (closed, not text) ends."""

    def __init__(self, stream, arrived: Callable[[], None] | None):
        self._stream = stream
        self._arrived = arrived
        self._lines: deque[str] = deque()
        self._ended = False
        self._cond = threading.Condition()
        threading.Thread(target=self._run, name="laugh-input", daemon=True).start()

    def _run(self) -> None:
        while True:
            try:
                line = self._stream.readline()
            except (OSError, ValueError):  # closed, or bytes that are not text
                line = ""
            with self._cond:
                if line:
                    self._lines.append(line)
                else:
                    self._ended = True
                self._cond.notify_all()
            if self._arrived is not None:
                self._arrived()
            if not line:
                return

    def readline(self) -> str:
        with self._cond:
            while not self._lines and not self._ended:
                self._cond.wait()
            return self._lines.popleft() if self._lines else ""

    def peek(self) -> str | None:
        with self._cond:
            return self._lines[0] if self._lines else None


def make_io(
    interactive: bool | None = None,
    *,
    console: Console | None = None,
    history_path: str | None = None,
    plain: bool = False,
) -> TerminalIO | ScriptedIO:
    """The seam for the real terminal: a :class:`TerminalIO` (real time) when standard input and
    output are terminals (or ``interactive``), else a :class:`ScriptedIO` reading standard input
    (no real time).  ``console`` defaults to :func:`~tutor.app.std_streams.make_console`'s; with
    ``plain``, piped output has no colour, no escape codes and no padding whatever the output
    is.  ``history_path``: the file of a terminal's history of plain questions."""
    if interactive is None:
        interactive = is_terminal(sys.stdin) and is_terminal(sys.stdout)
    symbols = suit_symbols()
    if interactive:
        return TerminalIO(console or make_console(), TerminalClock(), symbols, history_path)
    if console is None:
        console = make_console()
        if plain:
            console = make_console(file=RStripWriter(sys.stdout), plain=True, width=console.width)
    return ScriptedIO(sys.stdin, console, VirtualClock(), symbols, stdout=sys.stdout)
