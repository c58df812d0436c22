"""A small scorer of an option's surface: what a learner who reads only the question and the
options could go by (issue 42: the partial-input learner of the test suite, a logistic
regression over the words, positions, lengths and repeated values of the question and its
options; it lives in the tests, as scikit-learn is a test dependency).

Generators use it to choose their wrong options so that none is told from the right one by the
words it shares with the question: :func:`overlap` counts those words the same way the
learner's features do (lower-case words and numbers, a few function words left out).  It
knows nothing of the game.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"[a-z]+|\d+")
#: Words that carry no content (the learner's list).
STOP = frozenset(
    "a an the of to in on and or is it its this be by for as with that which what who".split()
)


def content_words(text: str) -> set[str]:
    """The content words of ``text``: lower-case words and numbers, :data:`STOP` left out."""
    return {w for w in _TOKEN.findall(text.lower()) if w not in STOP}


def overlap(option: str, question: str) -> int:
    """How many content words ``option`` shares with ``question`` (0 or more)."""
    return len(content_words(option) & content_words(question))


_CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")


def shape(option: str) -> str:
    """An option's wording with every card name as ``#`` (``7♥ takes 7♠ 7♦`` gives ``# takes #
    #``): what a learner who cannot tell cards apart still sees, so that options of one shape
    are told apart only by their cards."""
    return _CARD.sub("#", option)


def alike_length(a: str, b: str, ratio: float = 1.25) -> bool:
    """True when texts ``a`` and ``b`` differ in length (characters) by at most ``ratio``
    times: shown one at a time, neither's length tells which it is."""
    short, long_ = sorted((len(a), len(b)))
    return long_ <= short * ratio
