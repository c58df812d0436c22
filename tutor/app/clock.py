"""Clocks for the claim race and the timed drills, input with a time limit, and the live
countdown a timed prompt shows.

Willughby: "whatever is overseen is his that can catch it first".  In practice play the
computer players claim an oversight a reaction time after it appears; the learner claims first
by pressing the space bar (on an empty line) or typing ``claim`` before that.  Everything that
involves time goes through a :class:`Clock`, so tests decide a race by injecting one.

A clock offers ``now()`` (seconds, any origin), ``read(asker, prompt, timeout, ...)`` (a line, or
None when ``timeout`` seconds pass first or an event closes the prompt), ``sleep(seconds)``,
``realtime`` (whether time passes while the learner thinks) and ``piped`` (True when nobody types
at a terminal: no answer time is then worth recording).

``read`` also takes what a timed prompt shows and what happens while it is open:

- ``label``, ``deadline`` (clock time), ``total`` (seconds) and ``progress`` (item k of n) describe
  a live countdown: on a terminal it stands in prompt_toolkit's bottom toolbar, redrawn ten times
  a second while the learner types (:func:`countdown_line`), with a bar of the time left and,
  where a set has a length, a bar of the set;
- ``events`` are ``(at, fire)`` pairs: at clock time ``at``, ``fire()`` is called (on a terminal
  above the prompt, so what it prints appears while the learner's typing stays in place); when it
  returns True the prompt closes and ``read`` returns None;
- ``claim_key``: the space bar on an empty line answers ``claim`` at once.

Clocks:

- :class:`TerminalClock`: real time on a terminal (:meth:`TimedAsker.ask_timed`).
- :class:`VirtualClock`: no real time, for piped input (not a terminal).  Reading a line takes no
  time and shows no clock, so the learner's line is always read before any computer player's
  reaction time runs out; events never fire during a read.  ``sleep`` returns at once.  Its time
  moves only through :meth:`VirtualClock.advance`.
- :class:`FakeClock`: a virtual clock for tests that stands for a learner at a terminal, with a
  script of how long the learner takes over each read.  Events due before the line would be
  entered fire first (the clock moved to each); when one closes the prompt, or the delay is at
  least the timeout, the read gives None (the line is not consumed); otherwise the line is read
  and the clock moves on by the delay.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from tutor.puzzles.terminal import Asker, card_words, suit_symbols

__all__ = ["Clock", "Countdown", "FakeClock", "ScriptedAsker", "TerminalClock", "TimedAsker",
           "VirtualClock", "countdown_line", "default_clock"]

#: Seconds between redraws of a countdown (ten a second).
REFRESH = 0.1

Event = tuple[float, Callable[[], bool]]


@dataclass(frozen=True)
class Countdown:
    """What a timed prompt shows: ``label`` (``Streak 3``), the ``deadline`` (clock time) it
    counts down to, the ``total`` seconds of the whole countdown (for the bar), and ``progress``
    ``(k, n)`` when the prompt is item k of a set of n."""

    label: str
    deadline: float
    total: float
    progress: tuple[int, int] | None = None


def _clock_text(left: float) -> str:
    if left >= 60:
        return f"{int(left // 60)}:{left % 60:04.1f}"
    return f"{left:.1f} s"


def _bar(share: float, width: int, symbols: bool) -> str:
    full, empty = ("█", "░") if symbols else ("#", ".")
    share = min(1.0, max(0.0, share))
    filled = round(width * share)
    return full * filled + empty * (width - filled)


def countdown_line(cd: Countdown, now: float, width: int = 80, symbols: bool = True) -> str:
    """The toolbar line of ``cd`` at clock time ``now``, at most ``width`` columns: the label, the
    time left (``12.3 s left``, ``2:54.3 left`` from a minute up; ``time is up`` at the end, for
    a prompt that stays open) and a bar of it, and where the prompt is item k of n, ``k of n``
    and a bar of the set."""
    left = max(0.0, cd.deadline - now)
    parts = [cd.label] if cd.label else []
    clock = f"{_clock_text(left)} left" if left > 0 else "time is up"
    tail = ""
    if cd.progress is not None:
        k, n = cd.progress
        tail = f"{k} of {n}"
    fixed = " · ".join(parts + [clock] + ([tail] if tail else [])) + "  "
    room = width - 2 - len(fixed)
    set_w = 0
    if tail and room >= 16:
        set_w = min(10, room // 3)
        room -= set_w + 1
    time_w = min(24, room)
    line = " · ".join(parts + [clock])
    if time_w >= 4:
        line += " " + _bar(left / cd.total if cd.total > 0 else 0.0, time_w, symbols)
    if tail:
        line += " · " + tail
        if set_w >= 4:
            line += " " + _bar((cd.progress[0] - 1) / cd.progress[1], set_w, symbols)
    line = " " + line
    if len(line) > width - 1:          # very narrow: the time left is what matters
        line = (" " + clock + (f" · {tail}" if tail else ""))[: width - 1]
    return line


class Clock(Protocol):
    """What the game and the drills need from time (see the module docstring)."""

    realtime: bool
    piped: bool

    def now(self) -> float:
        """Seconds since some fixed moment."""

    def read(self, asker, prompt: str, timeout: float | None, words: Sequence[str] = (),
             extend_while_typing: bool = False, erase: bool = False, *,
             label: str | None = None, deadline: float | None = None,
             total: float | None = None, progress: tuple[int, int] | None = None,
             events: Sequence[Event] = (), claim_key: bool = False) -> str | None:
        """Ask ``prompt``; the stripped line, or None when ``timeout`` seconds pass first or an
        event closes the prompt.  ``erase``: a terminal removes the prompt line when done."""

    def sleep(self, seconds: float) -> None:
        """Let ``seconds`` pass (a drill's scrolling pace)."""


def _countdown(now: float, timeout: float | None, label: str | None, deadline: float | None,
               total: float | None, progress) -> Countdown | None:
    """The countdown a read shows, or None (no label, or nothing to count down to)."""
    if label is None:
        return None
    if deadline is None:
        if timeout is None:
            return None
        deadline = now + timeout
    return Countdown(label, deadline, total if total else max(0.0, deadline - now), progress)


class TerminalClock:
    """Real time: :func:`time.monotonic`, prompts that close after their timeout and show their
    countdown."""

    realtime = True
    piped = False

    def now(self) -> float:
        return time.monotonic()

    def read(self, asker, prompt, timeout, words=(), extend_while_typing=False, erase=False, *,
             label=None, deadline=None, total=None, progress=None, events=(), claim_key=False):
        if not getattr(asker, "interactive", False) or not hasattr(asker, "ask_timed"):
            return asker.ask(prompt, words=words, cards=True)
        if timeout is not None and timeout <= 0:
            return None
        now = self.now()
        return asker.ask_timed(prompt, timeout, words=words,
                               extend_while_typing=extend_while_typing, erase=erase,
                               countdown=_countdown(now, timeout, label, deadline, total,
                                                    progress),
                               events=[(at - now, fire) for at, fire in events],
                               claim_key=claim_key)

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class VirtualClock:
    """No real time (piped input): reads take no time and show no clock, sleeps return at
    once."""

    realtime = False
    piped = True        # say so when reporting a race; record no answer times

    def __init__(self, start: float = 0.0):
        self.t = float(start)

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``."""
        self.t += max(0.0, seconds)

    def read(self, asker, prompt, timeout, words=(), extend_while_typing=False, erase=False, *,
             label=None, deadline=None, total=None, progress=None, events=(), claim_key=False):
        return asker.ask(prompt, words=words, cards=True)

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)


class FakeClock(VirtualClock):
    """A virtual clock for tests, standing for a learner at a terminal: ``delays`` are the
    learner's thinking times, one per read (``default`` once they run out).  ``realtime`` may be
    set to exercise the terminal's window policy.  ``reads`` lists ``(prompt, timeout, delay,
    timed_out)`` for each read (``timed_out`` also when an event closed the prompt) and
    ``shown`` the countdown each read showed (None without one)."""

    def __init__(self, delays: Iterable[float] = (), default: float = 0.0, realtime: bool = False,
                 start: float = 0.0):
        super().__init__(start)
        self.piped = False
        self.delays = list(delays)
        self.default = default
        self.realtime = realtime
        self.reads: list[tuple[str, float | None, float, bool]] = []
        self.shown: list[Countdown | None] = []

    def read(self, asker, prompt, timeout, words=(), extend_while_typing=False, erase=False, *,
             label=None, deadline=None, total=None, progress=None, events=(), claim_key=False):
        delay = self.delays.pop(0) if self.delays else self.default
        start = self.t
        self.shown.append(_countdown(start, timeout, label, deadline, total, progress))
        stop = start + (delay if timeout is None else min(delay, timeout))
        for at, fire in sorted(events, key=lambda e: e[0]):
            if at > stop:
                break
            self.t = max(self.t, at)
            if fire():
                self.reads.append((prompt, timeout, delay, True))
                return None
        if timeout is not None and delay >= timeout:
            self.reads.append((prompt, timeout, delay, True))
            self.t = start + timeout
            return None
        self.reads.append((prompt, timeout, delay, False))
        text = asker.ask(prompt, words=words, cards=True)
        self.t = start + delay
        return text


def default_clock(asker) -> "TerminalClock | VirtualClock":
    """A :class:`TerminalClock` when ``asker`` is interactive, else a :class:`VirtualClock`."""
    return TerminalClock() if getattr(asker, "interactive", False) else VirtualClock()


class TimedAsker(Asker):
    """An :class:`~tutor.puzzles.terminal.Asker` that can also ask with a time limit on a terminal.

    :meth:`ask_timed` returns the line, or None when the time runs out first (or an event closes
    the prompt); it shows a live countdown in the bottom toolbar.  Piped, it reads a line like
    :meth:`~tutor.puzzles.terminal.Asker.ask` (there is no real time, and no clock is shown).
    """

    def __init__(self, interactive: bool | None = None, stdin=None, stdout=None):
        super().__init__(interactive, stdin, stdout)
        self._timed: dict[tuple[bool, bool], object] = {}

    def _timed_session(self, erase: bool, claim_key: bool):
        key = (erase, claim_key)
        if key not in self._timed:
            # prompt_toolkit only on a terminal: it is slow to import and piped runs never need it
            from prompt_toolkit import PromptSession
            from prompt_toolkit.application.current import get_app
            from prompt_toolkit.filters import Condition
            from prompt_toolkit.history import InMemoryHistory
            from prompt_toolkit.key_binding import KeyBindings
            kb = KeyBindings()
            if claim_key:
                @kb.add(" ", filter=Condition(lambda: not get_app().current_buffer.text))
                def _claim(event):      # the claim key: space on an empty line
                    event.app.exit(result="claim")

            self._timed[key] = PromptSession(history=InMemoryHistory(), key_bindings=kb,
                                             erase_when_done=erase)
        return self._timed[key]

    def ask_timed(self, prompt: str, timeout: float | None, words: Sequence[str] = (),
                  extend_while_typing: bool = False, erase: bool = False, *,
                  countdown: Countdown | None = None, events: Sequence[Event] = (),
                  claim_key: bool = False) -> str | None:
        """Ask with a time limit of ``timeout`` seconds (None: none); None when it runs out.

        With ``extend_while_typing`` the limit waits (half a second at a time) while the line is
        not empty, so a pause never throws away half-typed input.  With ``erase`` the prompt line
        is removed from the screen when done.  ``countdown`` (deadline in
        :func:`time.monotonic` time) is drawn in the bottom toolbar ten times a second;
        ``events`` are ``(seconds from now, fire)``: ``fire()`` runs above the prompt, and when
        it returns True the prompt closes (None).  ``claim_key``: the space bar on an empty line
        answers ``claim``.
        """
        if not self.interactive:
            return self.ask(prompt, words, cards=True)
        # asyncio and prompt_toolkit only on a terminal (see _timed_session)
        import asyncio

        from prompt_toolkit.application import run_in_terminal
        from prompt_toolkit.completion import WordCompleter
        session = self._timed_session(erase, claim_key)
        app = session.app
        handles = []
        symbols = suit_symbols()

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
                if not app.is_done and not fut.cancelled() and fut.exception() is None \
                        and fut.result():
                    app.exit(result=None)
                elif not app.is_done and not fut.cancelled() and fut.exception() is not None:
                    app.exit(exception=fut.exception())
            run_in_terminal(fire).add_done_callback(done)

        def pre_run():
            loop = asyncio.get_running_loop()
            if timeout is not None:
                handles.append(loop.call_later(max(0.0, timeout), fire_timeout))
            for delay, fire in events:
                handles.append(loop.call_later(max(0.0, delay), fire_event, fire))

        def toolbar():
            width = app.output.get_size().columns
            return countdown_line(countdown, time.monotonic(), width, symbols)

        vocab = list(dict.fromkeys(list(words) + card_words()))
        completer = WordCompleter(vocab, ignore_case=True, sentence=True)
        # A session keeps its last toolbar and refresh rate: set both for every prompt.
        session.bottom_toolbar = toolbar if countdown is not None else None
        session.refresh_interval = REFRESH if countdown is not None else 0
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
