"""The clocks of the I/O seam (:class:`tutor.teaching.io.Clock`), and the live countdown a timed
prompt shows.

Willughby: "whatever is overseen is his that can catch it first".  In practice play the
computer players claim an oversight a reaction time after it appears; the learner claims first
by pressing the space bar (on an empty line) or typing ``claim`` before that.  Everything that
involves time goes through a clock, so tests decide a race by injecting one; these are the only
places that read the wall clock to time the learner.

A clock offers ``now()`` (seconds, any origin), ``sleep(seconds)``, ``realtime`` (whether time
passes while the learner thinks) and ``piped`` (True when nobody types at a terminal: no answer
time is then worth recording).  Reading with a time limit is the seam's
(:meth:`tutor.app.learner_io.TerminalIO.read`, :meth:`tutor.app.learner_io.ScriptedIO.read`).

Clocks:

- :class:`TerminalClock`: real time (:func:`time.monotonic`) on a terminal.
- :class:`VirtualClock`: no real time, for piped input (not a terminal).  Reading a line takes no
  time and shows no clock, so the learner's line is always read before any computer player's
  reaction time runs out; events never fire during a read.  ``sleep`` returns at once.  Its time
  moves only through :meth:`VirtualClock.advance`.
- :class:`FakeClock`: a virtual clock for tests that stands for a learner at a terminal, with a
  script of how long the learner takes over each read (:meth:`FakeClock.next_delay`).  A
  :class:`~tutor.app.learner_io.ScriptedIO` reading with it fires the events due before the line would
  be entered (the clock moved to each); when one closes the prompt, or the delay is at least
  the timeout, the read gives None (the line is not consumed); otherwise the line is read and
  the clock moves on by the delay.

:func:`countdown_line` draws a :class:`Countdown` (label, time left with a bar, item k of n)
in the width of a terminal.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "Countdown",
    "FakeClock",
    "TerminalClock",
    "VirtualClock",
    "countdown_for",
    "countdown_line",
    "REFRESH",
]

#: Seconds between redraws of a countdown (ten a second).
REFRESH = 0.1


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
        if set_w >= 4 and cd.progress is not None:
            line += " " + _bar((cd.progress[0] - 1) / cd.progress[1], set_w, symbols)
    line = " " + line
    if len(line) > width - 1:  # very narrow: the time left is what matters
        line = (" " + clock + (f" · {tail}" if tail else ""))[: width - 1]
    return line


def countdown_for(
    now: float,
    timeout: float | None,
    label: str | None,
    deadline: float | None,
    total: float | None,
    progress,
) -> Countdown | None:
    """The countdown a read at clock time ``now`` shows (see
    :meth:`tutor.teaching.io.LearnerIO.read`), or None (no label, or nothing to count down to)."""
    if label is None:
        return None
    if deadline is None:
        if timeout is None:
            return None
        deadline = now + timeout
    return Countdown(label, deadline, total if total else max(0.0, deadline - now), progress)


class TerminalClock:
    """Real time: :func:`time.monotonic`; ``sleep`` sleeps."""

    realtime = True
    piped = False

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class VirtualClock:
    """No real time (piped input): reads take no time and show no clock, sleeps return at
    once."""

    realtime = False
    piped = True  # say so when reporting a race; record no answer times

    def __init__(self, start: float = 0.0):
        self.t = float(start)

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``."""
        self.t += max(0.0, seconds)

    def advance_to(self, t: float) -> None:
        """Move the clock on to clock time ``t`` (never back)."""
        self.t = max(self.t, float(t))

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)


class FakeClock(VirtualClock):
    """A virtual clock for tests, standing for a learner at a terminal: ``delays`` are the
    learner's thinking times, one per read (``default`` once they run out).  ``realtime`` may be
    set to exercise the terminal's window policy.  ``reads`` lists ``(prompt, timeout, delay,
    timed_out)`` for each read (``timed_out`` also when an event closed the prompt) and
    ``shown`` the countdown each read showed (None without one); the
    :class:`~tutor.app.learner_io.ScriptedIO` reading with this clock keeps both."""

    def __init__(
        self,
        delays: Iterable[float] = (),
        default: float = 0.0,
        realtime: bool = False,
        start: float = 0.0,
    ):
        super().__init__(start)
        self.piped = False
        self.delays = list(delays)
        self.default = default
        self.realtime = realtime
        self.reads: list[tuple[str, float | None, float, bool]] = []
        self.shown: list[Countdown | None] = []

    def next_delay(self) -> float:
        """The learner's thinking time for the next read (seconds)."""
        return self.delays.pop(0) if self.delays else self.default
