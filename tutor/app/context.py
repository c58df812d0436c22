"""What every screen shares: the :class:`Context` (the learner's terminal, the progress store,
glyphs), :func:`make_context` for the real terminal, menus (:func:`menu`), and running a
session in it (:func:`run_guarded`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from rich.table import Table
from rich.text import Text

from tutor.app.learner_io import make_io
from tutor.app.std_streams import suit_symbols
from tutor.engine.data import laugh_home
from tutor.engine.safetext import clip
from tutor.engine.sources import default_library
from tutor.teaching.progress import ProgressStore
from tutor.teaching.words import MENU_QUIT_WORDS

if TYPE_CHECKING:  # the seam's types; its module loads when a session first reads
    from rich.console import Console, RenderableType

    from tutor.engine.sources import Library
    from tutor.teaching.io import Clock, Event, LearnerIO, Reply

    class AppIO(LearnerIO, Protocol):
        """The learner's terminal as the app's implementations make it
        (:class:`tutor.app.learner_io.TerminalIO`, :class:`~tutor.app.learner_io.ScriptedIO`): the seam, and
        the rich ``console`` it prints on."""

        console: Console


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
    def for_terminal(cls) -> Glyphs:
        """Unicode glyphs when :func:`tutor.app.std_streams.suit_symbols` says the terminal can show
        them."""
        if suit_symbols():
            return cls()
        return cls("x", ">", "-", "#", ".", "-", "+", "x")


@dataclass
class Context:
    """What every screen needs: ``io`` (the learner's terminal,
    :class:`tutor.teaching.io.LearnerIO`, whose members the context offers as its own, so a
    screen and a drill talk to it alike),
    ``glyphs``, and ``store`` (:class:`tutor.teaching.progress.ProgressStore`, opened on first
    use)."""

    io: AppIO
    glyphs: Glyphs
    _store: ProgressStore | None = field(default=None, repr=False)
    #: The last result a screen said (a lesson's score), for the home screen to show again
    #: when it redraws (it then clears it); None: nothing new.  After ``_store``, so that a
    #: context made with a store given third keeps it there.
    result: str | None = None

    @property
    def store(self) -> ProgressStore:
        """The progress store, opened on first use (its notice, if any, said once)."""
        if self._store is None:
            self._store = ProgressStore()
            if self._store.notice:
                self.say(self._store.notice, style="yellow")
        return self._store

    @property
    def library(self) -> Library:
        """The sources and rulesets (:func:`tutor.engine.sources.default_library`)."""
        return default_library()

    # -- the seam (tutor.teaching.io.LearnerIO), passed through ----------------------------

    @property
    def clock(self) -> Clock:
        return self.io.clock

    @property
    def symbols(self) -> bool:
        return self.io.symbols

    @property
    def interactive(self) -> bool:
        return self.io.interactive

    @property
    def front(self) -> str:
        return self.io.front

    @property
    def width(self) -> int:
        return self.io.width

    @property
    def console(self) -> Console:
        """The rich console of the app's implementations (for a lesson block's spinner)."""
        return self.io.console

    def say(self, text: str = "", style: str = "", *, wrap: bool = True) -> None:
        self.io.say(text, style, wrap=wrap)

    def show(self, *renderables: RenderableType) -> None:
        self.io.show(*renderables)

    def page(self, *renderables: RenderableType) -> None:
        self.io.page(*renderables)

    def guarded(self, body: Callable[[], object]) -> None:
        """Run one thing the learner chose from a menu (a drill, a track's step) and come back:
        its :class:`~tutor.engine.errors.LaughError` said in one red line, Ctrl-C and Ctrl-D
        ending it (at the end of piped input ``EOFError`` passes on, as nothing more can be
        read), then a blank line."""
        from tutor.engine.errors import LaughError

        try:
            body()
        except LaughError as exc:
            self.say(str(exc), style="red")
        except KeyboardInterrupt:
            self.say()
        except EOFError:
            if not self.interactive:
                raise
        self.say()

    def clear(self) -> None:
        self.io.clear()

    def ticker(self) -> AbstractContextManager[Callable[[RenderableType], None]]:
        """A line redrawn in place (see :meth:`tutor.app.learner_io.TerminalIO.ticker`)."""
        return self.io.ticker()

    def progress(self, label: str) -> AbstractContextManager[Callable[[float, float], None]]:
        return self.io.progress(label)

    def ask(self, prompt: str = "> ", words: Sequence[str] = (), cards: bool = False) -> str:
        return self.io.ask(prompt, words, cards)

    def ask_checked(
        self,
        prompt: str,
        check: Callable[[str], str | None],
        words: Sequence[str] = (),
        cards: bool = False,
        refuse: Callable[[str], None] | None = None,
    ) -> str:
        return self.io.ask_checked(prompt, check, words, cards, refuse)

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
        return self.io.read(
            prompt,
            timeout,
            words,
            label=label,
            deadline=deadline,
            total=total,
            progress=progress,
            events=events,
            keys=keys,
            extend_while_typing=extend_while_typing,
            erase=erase,
        )

    def close(self) -> str | None:
        """Close the progress store if it was opened; returns why some of the progress made
        could not be saved (:meth:`~tutor.teaching.progress.ProgressStore.unsaved`), or None
        when all of it was (or nothing was opened)."""
        if self._store is None:
            return None
        store, self._store = self._store, None
        store.close()
        return store.unsaved()

    def unsaved(self) -> str | None:
        """Why some progress made so far is not on disk (in memory only), or None."""
        return self._store.unsaved() if self._store is not None else None


def run_guarded(ctx: Context, body: Callable[[], int | None]) -> int:
    """Run ``body()`` (returning an exit status) and leave cleanly: end of input saves and exits
    0 (Ctrl-D at a terminal says so in one line), Ctrl-C exits 130 with one line on stderr; the
    progress file is closed either way."""
    try:
        return int(body() or 0)
    except EOFError:
        why = ctx.close()  # first saved (or not), then said
        if ctx.interactive:
            print(
                "\nEverything answered is saved."
                if not why
                else f"\nNot everything answered is saved: {why}.",
                file=sys.stderr,
            )
        return 0
    except KeyboardInterrupt:
        why = ctx.close()
        print(
            "\nInterrupted; your progress is saved."
            if not why
            else f"\nInterrupted; not all of your progress is saved: {why}.",
            file=sys.stderr,
        )
        return 130
    finally:
        ctx.close()


def make_context(interactive: bool | None = None) -> Context:
    """A :class:`Context` for the real terminal (or pipes): a console honouring ``NO_COLOR``,
    a terminal's history of answers kept in ``laugh_home()/history.txt``, and piped output with
    no colour, no escape codes and no padding (see :func:`tutor.app.learner_io.make_io`)."""
    try:
        history = str(laugh_home() / "history.txt")
    except Exception:  # noqa: BLE001 - history is a nicety; never fail for it
        history = None
    return Context(make_io(interactive, history_path=history, plain=True), Glyphs.for_terminal())


#: What goes back from a menu to the screen above (a menu is not an answer prompt, so ``q`` is
#: fine here: no card is asked for).
BACK_WORDS = ("", "b", "back") + MENU_QUIT_WORDS


@dataclass(frozen=True)
class MenuItem:
    """One entry of a menu: its ``number``, its ``letter`` (or ""), the ``words`` it answers to
    (the first is shown), a ``label`` and the ``value`` returned when it is chosen."""

    number: str
    letter: str
    words: tuple[str, ...]
    label: str
    value: Any = None  # whatever the caller wants back: a name, a pair, ...

    def keys(self) -> tuple[str, ...]:
        """Everything that chooses this entry (lower case)."""
        return tuple(k.lower() for k in (self.number, self.letter, *self.words) if k)


def menu(
    ctx: Context,
    items: Sequence[MenuItem],
    prompt: str,
    title: str | None = None,
    back: str = "Enter or q to go back",
) -> MenuItem | None:
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
    ctx.show(grid)
    ctx.say(f"A number, a letter or a word; {back}.", style="dim")
    chosen: dict[str, MenuItem] = {}
    for it in items:
        for k in it.keys():
            chosen.setdefault(k, it)
    numbers = [it.number for it in items]
    hint = (
        f"Type {numbers[0]}-{numbers[-1]}, a letter or a word from the list, or {back.lower()}."
        if numbers
        else back
    )

    def check(text: str) -> str | None:
        low = text.lower()
        return (
            None
            if low in BACK_WORDS or low in chosen
            else f"'{clip(text, 30)}' is not on the menu. {hint}"
        )

    words = [w for it in items for w in it.words] + ["back"]
    answer = ctx.ask_checked(prompt, check, words=words).lower()
    return None if answer in BACK_WORDS else chosen[answer]
