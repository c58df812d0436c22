"""Clocks for the claim race and the timed drills, and input with a time limit.

Willughby: "whatever is overseen is his that can catch it first".  In practice play the
computer players claim an oversight a reaction time after it appears; the learner claims first
by typing ``claim`` (or pressing the space bar on an empty line) before that.  Everything that
involves time goes through a :class:`Clock`, so tests decide a race by injecting one.

A clock offers ``now()`` (seconds, any origin), ``read(asker, prompt, timeout)`` (a line, or None
when ``timeout`` seconds pass first), ``sleep(seconds)`` and ``realtime`` (whether time passes
while the learner thinks).

- :class:`TerminalClock`: real time on a terminal.  ``read`` shows a prompt_toolkit prompt that
  closes itself after ``timeout`` seconds (a timer started by the prompt's ``pre_run`` hook calls
  ``Application.exit``; see :meth:`TimedAsker.ask_timed`).
- :class:`VirtualClock`: no real time, for piped input (not a terminal).  Reading a line takes no
  time, so the learner's line is always read before any computer player's reaction time runs
  out: a claim typed there wins if it is the first claim after the action.  ``sleep`` returns at
  once.  Its time moves only through :meth:`VirtualClock.advance`.
- :class:`FakeClock`: a virtual clock for tests with a script of how long the learner takes over
  each read: when the delay is at least the timeout, the read times out (the line is not
  consumed) and the clock moves on by the timeout; otherwise the line is read and the clock moves
  on by the delay.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Protocol

from tutor.puzzles.terminal import Asker, card_words

__all__ = ["Clock", "FakeClock", "ScriptedAsker", "TerminalClock", "TimedAsker", "VirtualClock",
           "default_clock"]


class Clock(Protocol):
    """What the game and the drills need from time."""

    realtime: bool

    def now(self) -> float:
        """Seconds since some fixed moment."""

    def read(self, asker, prompt: str, timeout: float | None,
             words: Sequence[str] = (), extend_while_typing: bool = False,
             erase: bool = False) -> str | None:
        """Ask ``prompt``; the stripped line, or None when ``timeout`` seconds pass first.
        ``erase``: a terminal removes the prompt line when done."""

    def sleep(self, seconds: float) -> None:
        """Let ``seconds`` pass (a drill's scrolling pace)."""


class TerminalClock:
    """Real time: :func:`time.monotonic`, prompts that close after their timeout."""

    realtime = True

    def now(self) -> float:
        return time.monotonic()

    def read(self, asker, prompt, timeout, words=(), extend_while_typing=False, erase=False):
        if timeout is None or not getattr(asker, "interactive", False) \
                or not hasattr(asker, "ask_timed"):
            return asker.ask(prompt, words=words, cards=True)
        if timeout <= 0:
            return None
        return asker.ask_timed(prompt, timeout, words=words,
                               extend_while_typing=extend_while_typing, erase=erase)

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class VirtualClock:
    """No real time (piped input): reads take no time, sleeps return at once."""

    realtime = False
    piped = True        # say so when reporting a race

    def __init__(self, start: float = 0.0):
        self.t = float(start)

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``."""
        self.t += max(0.0, seconds)

    def read(self, asker, prompt, timeout, words=(), extend_while_typing=False, erase=False):
        return asker.ask(prompt, words=words, cards=True)

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)


class FakeClock(VirtualClock):
    """A virtual clock for tests: ``delays`` are the learner's thinking times, one per read
    (0 once they run out, or ``default``).  ``realtime`` may be set to exercise the terminal's
    window policy.  ``reads`` lists ``(prompt, timeout, delay, timed_out)`` for each read."""

    def __init__(self, delays: Iterable[float] = (), default: float = 0.0, realtime: bool = False,
                 start: float = 0.0):
        super().__init__(start)
        self.piped = False
        self.delays = list(delays)
        self.default = default
        self.realtime = realtime
        self.reads: list[tuple[str, float | None, float, bool]] = []

    def read(self, asker, prompt, timeout, words=(), extend_while_typing=False, erase=False):
        delay = self.delays.pop(0) if self.delays else self.default
        if timeout is not None and delay >= timeout:
            self.reads.append((prompt, timeout, delay, True))
            self.advance(timeout)
            return None
        self.reads.append((prompt, timeout, delay, False))
        text = asker.ask(prompt, words=words, cards=True)
        self.advance(delay)
        return text


def default_clock(asker) -> "TerminalClock | VirtualClock":
    """A :class:`TerminalClock` when ``asker`` is interactive, else a :class:`VirtualClock`."""
    return TerminalClock() if getattr(asker, "interactive", False) else VirtualClock()


class TimedAsker(Asker):
    """An :class:`~tutor.puzzles.terminal.Asker` that can also ask with a time limit on a terminal.

    :meth:`ask_timed` returns the line, or None when the time runs out first.  On an empty line the
    space bar answers ``claim`` at once (the claim key).  Piped, it reads a line like
    :meth:`~tutor.puzzles.terminal.Asker.ask` (there is no real time).
    """

    def __init__(self, interactive: bool | None = None, stdin=None, stdout=None):
        super().__init__(interactive, stdin, stdout)
        self._timed: dict[bool, object] = {}

    def _timed_session(self, erase: bool):
        if erase not in self._timed:
            # prompt_toolkit only on a terminal: it is slow to import and piped runs never need it
            from prompt_toolkit import PromptSession
            from prompt_toolkit.application.current import get_app
            from prompt_toolkit.filters import Condition
            from prompt_toolkit.history import InMemoryHistory
            from prompt_toolkit.key_binding import KeyBindings
            kb = KeyBindings()

            @kb.add(" ", filter=Condition(lambda: not get_app().current_buffer.text))
            def _claim(event):      # the claim key: space on an empty line
                event.app.exit(result="claim")

            self._timed[erase] = PromptSession(history=InMemoryHistory(), key_bindings=kb,
                                               erase_when_done=erase)
        return self._timed[erase]

    def ask_timed(self, prompt: str, timeout: float, words: Sequence[str] = (),
                  extend_while_typing: bool = False, erase: bool = False) -> str | None:
        """Ask with a time limit of ``timeout`` seconds; None when it runs out.

        With ``extend_while_typing`` the limit waits (half a second at a time) while the line is
        not empty, so a pause never throws away half-typed input.  With ``erase`` the prompt
        line is removed from the screen when done (for the short windows between actions).
        """
        if not self.interactive:
            return self.ask(prompt, words, cards=True)
        # asyncio and prompt_toolkit only on a terminal (see _timed_session)
        import asyncio

        from prompt_toolkit.completion import WordCompleter
        session = self._timed_session(erase)
        app = session.app
        handles = []

        def fire():
            if app.is_done:
                return
            if extend_while_typing and app.current_buffer.text:
                handles.append(asyncio.get_running_loop().call_later(0.5, fire))
                return
            app.exit(result=None)

        def pre_run():
            handles.append(asyncio.get_running_loop().call_later(max(0.0, timeout), fire))

        vocab = list(dict.fromkeys(list(words) + card_words()))
        completer = WordCompleter(vocab, ignore_case=True, sentence=True)
        try:
            result = session.prompt(prompt, pre_run=pre_run, completer=completer,
                                    complete_while_typing=False)
        finally:
            for h in handles:
                h.cancel()
        return None if result is None else result.strip()


class ScriptedAsker:
    """A non-interactive asker whose answers come from ``answer(prompt) -> str`` or a list of
    lines; prompts and answers are written to ``log`` (a list of lines).  Raises ``EOFError`` when
    the answers run out (or ``answer`` returns None).  For tests and demonstrations."""

    interactive = False

    def __init__(self, answers, echo=None):
        if callable(answers):
            self._fn = answers
            self._lines = None
        else:
            self._fn = None
            self._lines = list(answers)
        self.log: list[str] = []
        self.echo = echo

    def ask(self, prompt: str = "> ", words: Sequence[str] = (), cards: bool = False,
            default: str = "") -> str:
        if self._fn is not None:
            text = self._fn(prompt)
        else:
            text = self._lines.pop(0) if self._lines else None
        if text is None:
            raise EOFError
        self.log.append(prompt + text)
        if self.echo is not None:
            self.echo(prompt + text)
        return text.strip()
