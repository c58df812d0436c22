"""The words that mean the same at every prompt of the program, in one place (issue 29).

- :data:`QUIT_WORDS` leave what is going on (a lesson, a puzzle, a drill, a deal): at an answer
  prompt nothing is recorded for the try, and a quit word is never graded as an answer.  None is
  a single letter, as a card may be typed there (``q`` is the queen).
- :data:`MENU_QUIT_WORDS`: where no card is read (a menu, the end of a page, a pause, yes or no,
  the question between two deals), ``q`` and ``stop`` leave too.
- :data:`HINT_WORDS` give the next hint; :data:`SHOW_WORDS` give up and show the answer (counted
  as not right); :data:`HELP_WORDS` say what can be typed where they are typed.

The learner loop (:mod:`tutor.teaching.loop`) reads every question's answers with them; play,
the table client and every menu read their quit words here.  Kept apart from the loop so that a
screen that only needs the words starts without loading the puzzles.
"""

from __future__ import annotations

__all__ = [
    "QUIT_WORDS",
    "MENU_QUIT_WORDS",
    "HINT_WORDS",
    "SHOW_WORDS",
    "HELP_WORDS",
    "is_quit",
    "said",
]

#: What leaves, at every prompt.
QUIT_WORDS = ("quit", ":q", "exit")
#: What leaves where no card is read.
MENU_QUIT_WORDS = ("q",) + QUIT_WORDS + ("stop",)
#: The next hint.
HINT_WORDS = ("hint",)
#: Give up and see the answer (counted as not right).
SHOW_WORDS = ("show", "answer", "give up")
#: What can be typed here.
HELP_WORDS = ("help", "?")


def said(text: str) -> str:
    """``text`` as it is compared with these words: lower case, spaces collapsed."""
    return " ".join(text.lower().split())


def is_quit(text: str, menu: bool = False) -> bool:
    """True when ``text`` is a quit word (with ``menu``, where no card is read, ``q`` and
    ``stop`` too)."""
    return said(text) in (MENU_QUIT_WORDS if menu else QUIT_WORDS)
