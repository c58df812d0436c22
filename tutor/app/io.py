"""Input and output for the tutor: the console, the asker, glyphs, the shared context, and
running a session in it (:func:`run_guarded`)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.console import Group
from rich.segment import Segment, Segments
from rich.table import Table
from rich.text import Text

from tutor.engine.data import laugh_home
from tutor.engine.safetext import clip
from tutor.engine.sources import default_library
from tutor.app.clock import TimedAsker
from tutor.puzzles.terminal import card_words, make_console, suit_symbols
from tutor.teaching.progress import ProgressStore


class TutorAsker(TimedAsker):
    """A :class:`tutor.app.clock.TimedAsker` (prompts with a time limit and a live countdown
    on a terminal) whose plain questions keep their history across runs, and which can check an
    answer before taking it.

    :meth:`ask_checked` takes ``check(text) -> str | None`` (an error message, or None when the
    text is acceptable).  A refused answer is explained whole (wrapped, never cut at the width of
    the terminal) and the question asked again on an empty line, on a terminal as when piped.
    History is kept in ``history_path`` (a file) when given.  End of input (Ctrl-D) raises
    ``EOFError``; Ctrl-C raises ``KeyboardInterrupt``.
    """

    def __init__(self, interactive: bool | None = None, stdin=None, stdout=None,
                 history_path=None):
        super().__init__(interactive, stdin, stdout)
        self.history_path = history_path
        self._tsession = None

    def _prompt_session(self):
        # prompt_toolkit only on a terminal: it is slow to import and piped runs never need it
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, InMemoryHistory
        if self._tsession is None:
            history = InMemoryHistory()
            if self.history_path is not None:
                try:
                    os.makedirs(os.path.dirname(self.history_path), exist_ok=True)
                    history = FileHistory(str(self.history_path))
                except OSError:
                    pass
            self._tsession = PromptSession(history=history)
        return self._tsession

    def ask(self, prompt: str = "> ", words: Sequence[str] = (), cards: bool = False,
            default: str = "") -> str:
        """Ask once (see :meth:`tutor.puzzles.terminal.Asker.ask`); on a terminal history lasts
        across runs, and the line starts empty (or with ``default``)."""
        if not self.interactive:
            return super().ask(prompt, words, cards, default)
        # prompt_toolkit only on a terminal (see _prompt_session)
        from prompt_toolkit.completion import DummyCompleter, WordCompleter
        session = self._prompt_session()
        vocab = list(dict.fromkeys(list(words) + (card_words() if cards else [])))
        # A session keeps the completer of its last prompt when given None: pass a dummy.
        completer = WordCompleter(vocab, ignore_case=True, sentence=False) if vocab \
            else DummyCompleter()
        return session.prompt(prompt, completer=completer, default=default,
                              complete_while_typing=False).strip()

    def ask_checked(self, prompt: str, check: Callable[[str], str | None],
                    words: Sequence[str] = (), cards: bool = False,
                    say: Callable[[str], None] | None = None) -> str:
        """Ask until ``check`` accepts the stripped answer; return it.

        ``say`` prints a refusal (default: write it to the output); the question is then asked
        again on an empty line.
        """
        while True:
            text = self.ask(prompt, words, cards)
            problem = check(text)
            if problem is None:
                return text
            if say is not None:
                say(problem)
            else:
                self.stdout.write(problem + "\n")


@dataclass
class Glyphs:
    """Characters for marks and bars: Unicode where the terminal shows it, else ASCII."""

    done: str = "✓"
    current: str = "▸"
    todo: str = "·"
    full: str = "█"
    empty: str = "░"
    dash: str = "—"
    right: str = "✓"
    wrong: str = "✗"

    @classmethod
    def for_terminal(cls) -> "Glyphs":
        """Unicode glyphs when :func:`tutor.puzzles.terminal.suit_symbols` says the terminal can show them."""
        if suit_symbols():
            return cls()
        return cls("x", ">", "-", "#", ".", "-", "+", "x")


@dataclass
class Context:
    """What every screen needs: ``console`` (rich), ``asker`` (:class:`TutorAsker`), ``store``
    (:class:`tutor.teaching.progress.ProgressStore`, opened on first use), ``symbols`` (suit symbols
    or letters) and ``glyphs``."""

    console: object
    asker: TutorAsker
    symbols: bool
    glyphs: Glyphs
    _store: object = field(default=None, repr=False)

    @property
    def store(self):
        """The progress store, opened on first use (its notice, if any, printed once)."""
        if self._store is None:
            self._store = ProgressStore()
            if self._store.notice:
                self.say(self._store.notice, style="yellow")
        return self._store

    @property
    def library(self):
        """The sources and rulesets (:func:`tutor.engine.sources.default_library`)."""
        return default_library()

    @property
    def width(self) -> int:
        """The console width in columns."""
        return self.console.width

    def say(self, text: str = "", style: str | None = None) -> None:
        """Print one line (or paragraph) of plain text, wrapped, without markup."""
        self.console.print(Text(text, style=style or ""))

    def show(self, *renderables) -> None:
        """Print ``renderables``; on a terminal, a screenful at a time (``more>`` between, Enter
        for the next screenful, ``s`` to skip the rest of it) so nothing scrolls away unread.
        Raises ``EOFError``/``KeyboardInterrupt`` from the prompt."""
        if not self.asker.interactive:
            for r in renderables:
                self.console.print(r)
            return
        lines = self.console.render_lines(Group(*renderables), self.console.options, pad=False)
        room = max(5, self.console.height - 2)
        i = 0
        while i < len(lines):
            for line in lines[i:i + room]:
                self.console.print(Segments(line + [Segment.line()]), end="")
            i += room
            if i < len(lines):
                more = self.asker.ask("more (Enter; s skips)> ").lower()
                if more in ("s", "skip"):
                    for line in lines[i:]:
                        self.console.print(Segments(line + [Segment.line()]), end="")
                    return

    def clear(self) -> None:
        """Clear the screen (on a terminal only)."""
        if self.asker.interactive:
            self.console.clear()

    def close(self) -> None:
        """Close the progress store if it was opened."""
        if self._store is not None:
            self._store.close()
            self._store = None


def run_guarded(ctx: Context, body: Callable[[], int | None]) -> int:
    """Run ``body()`` (returning an exit status) and leave cleanly: end of input saves and exits
    0 (Ctrl-D at a terminal says so in one line), Ctrl-C exits 130 with one line on stderr; the
    progress file is closed either way."""
    try:
        return int(body() or 0)
    except EOFError:
        if ctx.asker.interactive:
            print("\nEverything answered is saved.", file=sys.stderr)
        return 0
    except KeyboardInterrupt:
        print("\nInterrupted; your progress is saved.", file=sys.stderr)
        return 130
    finally:
        ctx.close()


class RStripWriter:
    """A text stream that drops the spaces rich pads lines with, for clean piped output.

    Whole lines are written with trailing spaces removed; a partial line waits for its end (or
    :meth:`flush`).
    """

    def __init__(self, stream):
        self.stream = stream
        self._buf = ""

    def write(self, text: str) -> int:
        self._buf += text
        if "\n" in self._buf:
            *lines, self._buf = self._buf.split("\n")
            self.stream.write("".join(line.rstrip() + "\n" for line in lines))
        return len(text)

    def flush(self) -> None:
        if self._buf:
            self.stream.write(self._buf)
            self._buf = ""
        self.stream.flush()

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self):
        return getattr(self.stream, "encoding", "utf-8")

    def fileno(self):
        return self.stream.fileno()


def make_context(interactive: bool | None = None) -> Context:
    """A :class:`Context` for the real terminal (or pipes): console honouring ``NO_COLOR``,
    asker with history in ``laugh_home()/history.txt``."""
    console = make_console()
    history = None
    try:
        history = str(laugh_home() / "history.txt")
    except Exception:  # noqa: BLE001 - history is a nicety; never fail for it
        history = None
    asker = TutorAsker(interactive=interactive, history_path=history)
    if not asker.interactive:
        # Piped: no colour, no escape codes and no padding, whatever the output is.
        console = make_console(file=RStripWriter(sys.stdout), plain=True, width=console.width)
    return Context(console, asker, suit_symbols(), Glyphs.for_terminal())



#: What goes back from a menu to the screen above (a menu is not an answer prompt, so ``q`` is
#: fine here: no card is asked for).
BACK_WORDS = ("", "b", "back", "q", "quit", ":q")


@dataclass(frozen=True)
class MenuItem:
    """One entry of a menu: its ``number``, its ``letter`` (or ""), the ``words`` it answers to
    (the first is shown), a ``label`` and the ``value`` returned when it is chosen."""

    number: str
    letter: str
    words: tuple[str, ...]
    label: str
    value: object = None

    def keys(self) -> tuple[str, ...]:
        """Everything that chooses this entry (lower case)."""
        return tuple(k.lower() for k in (self.number, self.letter, *self.words) if k)


def menu(ctx: Context, items: Sequence[MenuItem], prompt: str, title: str | None = None,
         back: str = "Enter or q to go back") -> MenuItem | None:
    """Show ``items`` (number, letter, word, label) and ask until one is chosen by its number,
    its letter or any of its words; None for Enter, ``b``/``back`` or ``q``/``quit``.  A choice
    that is none of these is refused in one line and asked again on an empty line."""
    if title:
        ctx.say(title, style="bold")
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column(overflow="fold", ratio=1)
    for it in items:
        grid.add_row(it.number, it.letter or "", it.words[0] if it.words else "", Text(it.label))
    ctx.console.print(grid)
    ctx.say(f"A number, a letter or a word; {back}.", style="dim")
    chosen: dict[str, MenuItem] = {}
    for it in items:
        for k in it.keys():
            chosen.setdefault(k, it)
    numbers = [it.number for it in items]
    hint = (f"Type {numbers[0]}-{numbers[-1]}, a letter or a word from the list, or "
            f"{back.lower()}." if numbers else back)

    def check(text: str) -> str | None:
        low = text.lower()
        return None if low in BACK_WORDS or low in chosen else \
            f"'{clip(text, 30)}' is not on the menu. {hint}"

    words = [w for it in items for w in it.words] + ["back"]
    answer = ctx.asker.ask_checked(prompt, check, words=words,
                                   say=lambda m: ctx.say(m, style="yellow")).lower()
    return None if answer in BACK_WORDS else chosen[answer]
