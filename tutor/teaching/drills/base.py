"""What every drill needs: input with a clock, output, and the progress store."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

__all__ = ["DrillIO", "Answered", "QUIT_WORDS"]

#: What leaves a drill at an answer prompt.  Never a single letter: ``q`` is the queen.
QUIT_WORDS = ("quit", ":q")


@dataclass
class Answered:
    """One graded answer of a drill: ``correct``, ``seconds`` taken (None when no answer was
    typed in time, or none at a terminal), ``timed_out``."""

    correct: bool
    seconds: float | None
    timed_out: bool = False


@dataclass
class DrillIO:
    """The drill's surroundings: ``asker`` reads lines (:class:`tutor.puzzles.terminal.Asker` or alike),
    ``clock`` keeps time (:class:`tutor.app.clock.Clock`), ``console`` prints (rich),
    ``symbols`` chooses suit symbols or letters, ``store`` records answers
    (:class:`tutor.teaching.progress.ProgressStore`, or None)."""

    asker: object
    clock: object
    console: object
    symbols: bool = True
    store: object = None

    def say(self, text: str = "", style: str = "") -> None:
        """Print one line (no markup)."""
        self.console.print(Text(text, style=style))

    def show(self, renderable) -> None:
        self.console.print(renderable)

    @property
    def piped(self) -> bool:
        """True when the answers are not typed at a terminal (piped input): their times mean
        nothing and are not recorded."""
        return bool(getattr(self.clock, "piped", False))

    def read(self, prompt: str, timeout: float | None = None, words=(), *,
             label: str | None = None, deadline: float | None = None,
             total: float | None = None, progress: tuple[int, int] | None = None) -> str | None:
        """A line, or None when ``timeout`` seconds pass first.  With ``label`` a terminal shows
        a live countdown to ``deadline`` (clock time; default ``timeout`` from now) whose bar is
        ``total`` seconds long, and ``progress`` ``(k, n)`` for item k of a set of n (see
        :mod:`tutor.app.clock`)."""
        return self.clock.read(self.asker, prompt, timeout, words=words, label=label,
                               deadline=deadline, total=total, progress=progress)

    def record(self, puzzle_id: str, kind: str, themes, correct: bool, seconds: float | None,
               ruleset: str | None = None, *, difficulty: int | None = None,
               retry: bool = False) -> None:
        """Record a graded answer in the progress store (if any); its time only when it was
        typed at a terminal (``seconds`` None, or piped input: no time).  ``difficulty`` is the
        band (1-5) of a generated puzzle (an answer without one is never rated); ``retry`` marks
        a second try at the same puzzle (never rated)."""
        if self.store is not None:
            self.store.record_answer(puzzle_id, kind, list(themes), correct,
                                     None if self.piped else seconds, ruleset=ruleset,
                                     difficulty=difficulty, retry=retry)

    def meta_best(self, key: str, value: float, higher: bool = True) -> bool:
        """Keep the best ``value`` under ``key`` in the store's meta table; True when it is a
        new best."""
        if self.store is None:
            return False
        old = self.store.get_meta(key)
        try:
            prev = float(old) if old is not None else None
        except ValueError:
            prev = None
        if prev is None or (value > prev if higher else value < prev):
            self.store.set_meta(key, repr(value))
            return prev is not None
        return False
