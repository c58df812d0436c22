"""Terminal input and output shared by every interactive command.

- :func:`make_console`: a rich console that honours ``NO_COLOR`` and the terminal width.
- :func:`suit_symbols`: whether the terminal can show ♣♦♥♠ (else cards are written ``7H``).
- :func:`card_text`: a card (or several) as rich ``Text``, red for diamonds and hearts.
- :class:`Asker`: reads answers.  On a terminal it uses prompt_toolkit (completion of card codes
  and answer words, history); when standard input is not a terminal it reads line by line with no
  escape codes, so a class can script it.  End of input raises ``EOFError``; Ctrl-C raises
  ``KeyboardInterrupt``: callers save and leave cleanly.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence

from tutor.engine.cards import RANKS, SUITS, pretty, suit_of


def make_console(stderr: bool = False, width: int | None = None):
    """A rich ``Console`` for output: colour off under ``NO_COLOR`` or when not a terminal."""
    from rich.console import Console
    return Console(stderr=stderr, highlight=False, width=width,
                   no_color=bool(os.environ.get("NO_COLOR")) or None)


def suit_symbols() -> bool:
    """True when suit symbols can be printed: the output encoding is UTF-8 and
    ``LAUGH_ASCII`` is not set."""
    if os.environ.get("LAUGH_ASCII"):
        return False
    enc = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    return enc in ("utf8", "utf16", "utf32")


def card_text(cards: int | Iterable[int], symbols: bool | None = None):
    """Cards as a rich ``Text``: sorted, space-separated, red for diamonds and hearts."""
    from rich.text import Text
    if symbols is None:
        symbols = suit_symbols()
    if isinstance(cards, int):
        cards = [cards]
    t = Text()
    for i, c in enumerate(sorted(cards)):
        if i:
            t.append(" ")
        t.append(pretty(c, symbols), style="bold red" if suit_of(c) in (1, 2) else "bold")
    return t


def card_words() -> list[str]:
    """Every card code (``7H``) and the rank and suit letters, for completion."""
    return [r + s for r in RANKS for s in SUITS]


class Asker:
    """Reads one answer at a time.

    ``interactive`` defaults to whether stdin and stdout are terminals.  :meth:`ask` returns the
    stripped line; raises ``EOFError`` at end of input and ``KeyboardInterrupt`` on Ctrl-C.
    """

    def __init__(self, interactive: bool | None = None, stdin=None, stdout=None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        if interactive is None:
            interactive = bool(self.stdin.isatty() and self.stdout.isatty())
        self.interactive = interactive
        self._session = None

    def ask(self, prompt: str = "> ", words: Sequence[str] = (), cards: bool = False,
            default: str = "") -> str:
        """Ask with ``prompt``; ``words`` (and card codes when ``cards``) are offered as completions."""
        if not self.interactive:
            self.stdout.write(prompt)
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.stdout.write("\n")
                raise EOFError
            text = line.rstrip("\n")
            self.stdout.write(text + "\n")
            return text.strip()
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import WordCompleter
        from prompt_toolkit.history import InMemoryHistory
        if self._session is None:
            self._session = PromptSession(history=InMemoryHistory())
        from prompt_toolkit.completion import DummyCompleter
        vocab = list(words) + (card_words() if cards else [])
        # a session keeps the last completer when given None: pass a dummy so words never leak
        completer = (WordCompleter(vocab, ignore_case=True, sentence=True) if vocab
                     else DummyCompleter())
        return self._session.prompt(prompt, completer=completer, default=default,
                                    complete_while_typing=False).strip()
