"""Input and output for the tutor: the console, the asker, glyphs, the shared context, and
running a session in it (:func:`run_guarded`)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.console import Group
from rich.segment import Segment, Segments
from rich.text import Text

from tutor.engine.data import laugh_home
from tutor.engine.sources import default_library
from tutor.puzzles.terminal import Asker, card_words, make_console, suit_symbols
from tutor.teaching.progress import ProgressStore


class TutorAsker(Asker):
    """An :class:`tutor.puzzles.terminal.Asker` that can also check an answer as it is typed.

    :meth:`ask_checked` takes ``check(text) -> str | None`` (an error message, or None when the
    text is acceptable).  On a terminal the message appears in place under the prompt
    (prompt_toolkit validation) and the line is not accepted; when piped, the message is printed
    and the question asked again.  History is kept in ``history_path`` (a file) when given.
    End of input raises ``EOFError``; Ctrl-C raises ``KeyboardInterrupt``.
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
        """Ask once (see :meth:`tutor.puzzles.terminal.Asker.ask`); on a terminal history lasts across runs."""
        if not self.interactive:
            return super().ask(prompt, words, cards, default)
        return self._interactive(prompt, words, cards, default, None)

    def ask_checked(self, prompt: str, check: Callable[[str], str | None],
                    words: Sequence[str] = (), cards: bool = False,
                    say: Callable[[str], None] | None = None) -> str:
        """Ask until ``check`` accepts the stripped answer; return it.

        ``say`` prints a refusal when piped (default: write it to stdout).
        """
        if self.interactive:
            return self._interactive(prompt, words, cards, "", check)
        while True:
            text = super().ask(prompt, words, cards)
            problem = check(text)
            if problem is None:
                return text
            if say is not None:
                say(problem)
            else:
                self.stdout.write(problem + "\n")

    def _interactive(self, prompt, words, cards, default, check) -> str:
        # prompt_toolkit only on a terminal (see _prompt_session)
        from prompt_toolkit.completion import DummyCompleter, WordCompleter
        from prompt_toolkit.validation import DummyValidator, ValidationError, Validator
        session = self._prompt_session()
        vocab = list(dict.fromkeys(list(words) + (card_words() if cards else [])))
        # A session keeps the completer and validator of its last prompt when given None, so
        # each prompt passes its own (dummies where it has none).
        completer = WordCompleter(vocab, ignore_case=True, sentence=False) if vocab \
            else DummyCompleter()
        validator = DummyValidator()
        if check is not None:
            class _V(Validator):
                def validate(self, document):
                    problem = check(document.text.strip())
                    if problem is not None:
                        raise ValidationError(message=problem, cursor_position=len(document.text))
            validator = _V()
        return session.prompt(prompt, completer=completer, default=default,
                              validator=validator, validate_while_typing=False,
                              complete_while_typing=False).strip()


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
    0, Ctrl-C exits 130 with one line on stderr; the progress file is closed either way."""
    try:
        return int(body() or 0)
    except EOFError:
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

