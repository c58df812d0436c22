"""The I/O seam: what the lesson runner, the drills, play and matches ask of the learner's
terminal, and the clock every time is measured by.

It is defined here, in the teaching room, so that drills are written against it; it is
implemented in the app room, once for a terminal (:class:`tutor.app.learner_io.TerminalIO`: rich
output, prompt_toolkit input with completion, live countdowns) and once for scripted or piped
input (:class:`tutor.app.learner_io.ScriptedIO`: answers from standard input or from a test's script),
each with a clock of :mod:`tutor.app.clock`.  A test stands for a learner at a terminal with a
:class:`~tutor.app.learner_io.ScriptedIO` and a :class:`~tutor.app.clock.FakeClock` (scripted thinking
times, events fired on time).

**Time.**  Every time the program measures (how long an answer took, when an oversight became
claimable, when a claim came) is a reading of the injected :class:`Clock`: ``io.clock.now()``,
and the :attr:`Reply.at` of every line or key read.  Nothing else reads the wall clock to time
the learner (``tests/app/test_io_seam.py`` holds the line).

**Reading.**  :meth:`LearnerIO.ask` asks a plain question (no time limit, history kept on a
terminal); :meth:`LearnerIO.read` asks one that may be timed, and says when its answer came:

- ``timeout`` (seconds) closes it: ``read`` returns None when the time runs out first;
- ``label``, ``deadline`` (clock time), ``total`` (seconds) and ``progress`` (item k of n)
  describe the live countdown a terminal shows below the prompt;
- ``events`` are ``(at, fire)`` pairs: at clock time ``at``, ``fire()`` is called (on a terminal
  above the prompt, so what it prints appears while the learner's typing stays); when it returns
  True the prompt closes and ``read`` returns None.  Piped input has no real time: events never
  fire during a read;
- ``keys`` maps a single key to a word: that key pressed on an empty line answers at once, with
  :attr:`Reply.key` set and :attr:`Reply.at` the moment it was pressed (the claim key of play;
  scripted and piped input send the key as a line holding only its word);
- ``extend_while_typing``: the time limit waits while the line is not empty; ``erase``: a
  terminal removes the prompt's line when it closes.

**The front.**  :attr:`LearnerIO.front` says where the learner is: :data:`TERMINAL` (a terminal,
piped input or a test's script: the learner can type a command such as ``laugh puzzle --id ID``,
so a drawing may name one) or :data:`WEB` (a browser page, :class:`tutor.app.web.webio.WebIO`:
the learner can do only what the page offers, so a drawing names no command, key or terminal
word; :func:`at_terminal` is the test the drawings make).

End of input (Ctrl-D, or the end of a pipe or script) raises ``EOFError`` and Ctrl-C
``KeyboardInterrupt``, from every way of asking; callers save and leave cleanly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, NamedTuple, Protocol, runtime_checkable

if TYPE_CHECKING:
    from rich.console import RenderableType

__all__ = ["TERMINAL", "WEB", "Clock", "Event", "LearnerIO", "Reply", "at_terminal"]

#: :attr:`LearnerIO.front` of a terminal (and of piped or scripted input).
TERMINAL = "terminal"

#: :attr:`LearnerIO.front` of a browser page.
WEB = "web"

#: ``(at, fire)``: at clock time ``at`` (seconds), ``fire()`` runs; True closes the prompt.
Event = tuple[float, Callable[[], bool]]


@runtime_checkable
class Clock(Protocol):
    """What the game and the drills need from time.

    ``piped``: nobody types at a terminal, so no answer time means anything (none is recorded or
    shown); ``realtime``: time passes while the learner thinks (a terminal; a test's clock may
    say so too).  Clocks: :mod:`tutor.app.clock`.
    """

    piped: bool
    realtime: bool

    def now(self) -> float:
        """Seconds since some fixed moment (the origin means nothing; differences do)."""
        ...

    def sleep(self, seconds: float) -> None:
        """Let ``seconds`` pass (a drill's scrolling pace); a clock without real time moves on
        at once."""
        ...


class Reply(NamedTuple):
    """What one :meth:`LearnerIO.read` got: ``text``, the stripped line (for a key, the word it
    stands for); ``at``, the clock time it came (Enter pressed, or the key); ``key``, the key of
    ``keys`` that answered, or None for a line."""

    text: str
    at: float
    key: str | None = None


@runtime_checkable
class LearnerIO(Protocol):
    """The learner's terminal, as every session sees it (see the module docstring).

    Attributes: ``clock`` (:class:`Clock`), ``symbols`` (suit symbols, else letters),
    ``interactive`` (a person at a terminal: long output goes a screenful at a time and a pause
    waits for Enter), ``width`` (columns), ``front`` (:data:`TERMINAL` or :data:`WEB`: whether
    what is drawn may name a command or a key; see the module docstring).
    """

    clock: Clock
    symbols: bool
    front: str

    @property
    def interactive(self) -> bool: ...

    @property
    def width(self) -> int: ...

    # -- output ----------------------------------------------------------------------------------

    def say(self, text: str = "", style: str = "", *, wrap: bool = True) -> None:
        """Print ``text`` as it is (no markup) in the rich ``style``, wrapped at the width (with
        ``wrap`` False one line however long, as for a file's path, which must stay whole)."""
        ...

    def show(self, *renderables: RenderableType) -> None:
        """Print rich renderables (``Text``, tables, groups), each whole."""
        ...

    def page(self, *renderables: RenderableType) -> None:
        """Print renderables so that nothing scrolls away unread: on a terminal a screenful at
        a time (``more>`` between, Enter for the next, ``s`` skips the rest).  Raises
        ``EOFError``/``KeyboardInterrupt`` from that prompt."""
        ...

    def clear(self) -> None:
        """Clear the screen (a terminal only)."""
        ...

    def ticker(self) -> AbstractContextManager[Callable[[RenderableType], None]]:
        """A line redrawn in place: inside the block, each call of the function it gives shows
        its renderable instead of the last (on a terminal; elsewhere each is printed in turn);
        gone when the block ends."""
        ...

    def progress(self, label: str) -> AbstractContextManager[Callable[[float, float], None]]:
        """A progress bar for work the learner waits for: the function it gives takes
        ``(completed, total)``; on a terminal a bar labelled ``label`` that goes when the block
        ends, elsewhere nothing."""
        ...

    # -- input -----------------------------------------------------------------------------------

    def ask(self, prompt: str = "> ", words: Sequence[str] = (), cards: bool = False) -> str:
        """Ask once, without a time limit; the stripped line.  ``words`` (and card codes with
        ``cards``) are offered as completions on a terminal."""
        ...

    def ask_checked(
        self,
        prompt: str,
        check: Callable[[str], str | None],
        words: Sequence[str] = (),
        cards: bool = False,
        refuse: Callable[[str], None] | None = None,
    ) -> str:
        """Ask until ``check(text)`` (an error message, or None for an acceptable answer)
        accepts the stripped answer; return it.  A refusal is said whole by ``refuse`` (default:
        in yellow) and the question asked again on an empty line."""
        ...

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
        """Ask ``prompt`` (card codes and ``words`` completed), perhaps timed: the
        :class:`Reply`, or None when ``timeout`` seconds pass first or an event closes the
        prompt.  With ``label`` a terminal shows a countdown to ``deadline`` (default
        ``timeout`` from now) whose bar is ``total`` seconds long, and ``progress`` ``(k, n)``
        for item k of n.  See the module docstring for ``events`` and ``keys``."""
        ...


def at_terminal(io: LearnerIO) -> bool:
    """Whether ``io``'s learner can act on a terminal's instruction (a ``laugh`` command, a key,
    a word typed at a prompt the page does not offer): True on the :data:`TERMINAL` front, False
    on the :data:`WEB` one (see the module docstring)."""
    return io.front == TERMINAL
