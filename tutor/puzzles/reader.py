"""Reading a learner's answer exactly: every word is read, or none is.

An answer is split into tokens (:func:`tokens`: case, commas, suit symbols and ``10``/``T`` do
not matter; ``10 ♥`` is one card and ``7h7s`` two).  :func:`read` then reads every token as one
of:

- a card (``7h``, ``10♥``, ``TS``), when the puzzle takes cards;
- a rank (``7``, ``T``, ``q``, ``sevens``), when it takes ranks (a lone lower-case ``a`` is the
  article, not an ace);
- a whole number (``+2``, ``-1``, ``3``), when it takes numbers;
- one of the puzzle's own answer words (``nothing``, ``yes``, a choice letter ``b``, ...);
- a filler word from :data:`FILLER`, which carries no meaning and is skipped.

Any other token makes the whole answer unreadable: :class:`~tutor.puzzles.model.AnswerError`
``could not read 'zz'`` (a mistyped card such as ``11h`` or ``7x`` says why it is not a card).
An unreadable answer is never graded, right or wrong.

What a grader read an answer as can be listened to (:func:`listening`, :func:`heard`): the
readings made while a kind checks one answer, so that two answers read alike (``b`` and ``B``)
are told to be one answer (:func:`tutor.puzzles.answers.meaning`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from tutor.engine.cards import parse_card, parse_rank, pretty
from tutor.engine.errors import NotationError
from tutor.engine.safetext import clip
from tutor.puzzles.model import AnswerError

#: Words that carry no meaning in any answer and are skipped: articles, "and", and the verbs a
#: learner may put before cards ("take 7h with 7s", "claim 9s 9d", "declare qc qd").
FILLER = frozenset(
    {
        "the",
        "a",
        "an",
        "and",
        "or",
        "with",
        "take",
        "takes",
        "capture",
        "captures",
        "claim",
        "declare",
        "i",
        "my",
        "of",
        "both",
    }
)

#: Words for "nothing": no claim, no pair, no capture at risk.
NOTHING_WORDS = frozenset({"nothing", "none", "no", "nope", "nil", "neither", "-"})
#: Words for "yes".
YES_WORDS = frozenset({"yes", "y", "yep", "aye"})
#: Number words read as numbers where a puzzle takes numbers.
NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
}

_SUITS = "cdhs♣♦♥♠♧♢♡♤"
_CARD_RUN = re.compile(rf"^(?:(?:10|[2-9atjqk])[{_SUITS}])+$", re.IGNORECASE)
_ONE_CARD = re.compile(rf"(10|[2-9atjqk])([{_SUITS}])", re.IGNORECASE)
_RANK_ONLY = re.compile(r"^(10|[2-9atjqk])$", re.IGNORECASE)
_SUIT_ONLY = re.compile(rf"^[{_SUITS}]$", re.IGNORECASE)
#: A whole number as an answer: ASCII digits, at most nine of them (no answer is larger).
_NUMBER = re.compile(r"^[+-]?[0-9]{1,9}$")
#: A token meant as a card but mistyped: a rank-like start and one more character (``7x``,
#: ``11h``, ``10z``); ``to`` and ``at`` are words.
_CARD_LIKE = re.compile(rf"^(?:1[0-9]|[1-9]|[ATJQK])[^\s\d]$|^\d{{2,}}[{_SUITS}]$")


#: The readings noted while someone listens (:func:`listening`), in this thread's context.
_HEARD: ContextVar[list[tuple[str, Any]] | None] = ContextVar("laugh_heard", default=None)


@contextmanager
def listening() -> Iterator[list[tuple[str, Any]]]:
    """A list that receives every reading :func:`heard` notes inside the ``with`` (in this
    thread's context only): ``(what, value)`` pairs, in order."""
    notes: list[tuple[str, Any]] = []
    token = _HEARD.set(notes)
    try:
        yield notes
    finally:
        _HEARD.reset(token)


def heard(what: str, value: Any) -> None:
    """Note that an answer was read as ``value`` (hashable; ``what`` names the reading, such
    as ``read`` or ``letters``) for whoever listens (:func:`listening`); nothing otherwise.  A
    kind that reads an answer other than through :func:`read` or :func:`letters_answer` notes
    what it read itself."""
    notes = _HEARD.get()
    if notes is not None:
        notes.append((what, value))


def clean(text: str) -> str:
    """``text`` with typographic minus signs and quotes made plain and outer space removed."""
    return (
        text.replace("\ufe0f", "")
        .replace("−", "-")
        .replace("–", "-")
        .replace("“", "")
        .replace("”", "")
        .replace("`", "")
        .strip()
    )


def tokens(text: str, phrases: Iterable[str] = (), cards: bool = True) -> list[str]:
    """Split an answer into tokens: punctuation separates; with ``cards``, ``10 ♥`` is joined into
    one card and ``7h7s`` split into two.  Each of ``phrases`` (such as ``lie down``) stays one
    token, its words joined by ``_``."""
    s = clean(text)
    for ph in phrases:
        s = re.sub(
            r"\b" + r"\s+".join(map(re.escape, ph.split())) + r"\b",
            ph.replace(" ", "_"),
            s,
            flags=re.IGNORECASE,
        )
    for ch in ",;/|()[]{}.!?\"'&":
        s = s.replace(ch, " ")
    raw = s.split()
    out: list[str] = []
    i = 0
    while i < len(raw):
        t = raw[i]
        if cards and _RANK_ONLY.match(t) and i + 1 < len(raw) and _SUIT_ONLY.match(raw[i + 1]):
            out.append(t + raw[i + 1])
            i += 2
            continue
        if cards and len(t) > 3 and _CARD_RUN.match(t):
            out.extend(m.group(0) for m in _ONE_CARD.finditer(t))
        else:
            out.append(t)
        i += 1
    return out


@dataclass
class Reading:
    """What an answer names: ``cards``, ``ranks`` (named alone, not as cards), ``numbers``, and
    ``words`` (the meanings of the puzzle's answer words), each in the order typed; ``items``
    holds them all in the order typed as ``(what, value)`` with ``what`` one of ``card``,
    ``rank``, ``number``, ``word``."""

    cards: list[int] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    items: list[tuple[str, Any]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """True when nothing but filler was typed."""
        return not (self.cards or self.ranks or self.numbers or self.words)


def unreadable(token: str, expected: str = "") -> AnswerError:
    """The error for a token that cannot be read (``could not read 'zz'``), saying what was
    expected when ``expected`` is given."""
    if _CARD_LIKE.match(token):
        try:
            parse_card(token)
        except NotationError as exc:
            return AnswerError(f"could not read {token!r}: {exc.detail}")
    tail = f"; {expected}" if expected else ""
    return AnswerError(f"could not read {clip(token, 40)!r}{tail}")


def read(
    text: str,
    *,
    words: Mapping[str, str] | Iterable[str] = (),
    cards: bool = True,
    ranks: bool = True,
    numbers: bool = False,
    expected: str = "",
) -> Reading:
    """Read every token of ``text`` (see the module docstring).

    ``words`` are the puzzle's answer words (a mapping word -> meaning, or words that mean
    themselves; a phrase such as ``lie down`` is one word); they are read before cards, ranks
    and filler, so a choice letter ``a`` is the letter.  ``cards``, ``ranks`` and ``numbers``
    say what else the puzzle takes; ``expected`` is added to the error for an unreadable token.
    Raises :class:`AnswerError` for the first unreadable token, and for a card named twice.
    What was read is noted (:func:`heard`, ``read``: the reading's items).
    """
    r = _read(text, words=words, cards=cards, ranks=ranks, numbers=numbers, expected=expected)
    heard("read", tuple(r.items))
    return r


def _read(
    text: str,
    *,
    words: Mapping[str, str] | Iterable[str],
    cards: bool,
    ranks: bool,
    numbers: bool,
    expected: str,
) -> Reading:
    """:func:`read`, noting nothing."""
    vocab = dict(words) if isinstance(words, Mapping) else {w: w for w in words}
    vocab = {k.lower(): v for k, v in vocab.items()}
    phrases = [w for w in vocab if " " in w]
    r = Reading()
    for t in tokens(text, phrases, cards):
        low = t.lower()
        key = low.replace("_", " ")
        if key in vocab:
            r.words.append(vocab[key])
            r.items.append(("word", vocab[key]))
            continue
        if cards:
            try:
                c = parse_card(t)
            except NotationError:
                c = None
            if c is not None:
                if c in r.cards:
                    raise AnswerError(f"{pretty(c)} is named twice")
                r.cards.append(c)
                r.items.append(("card", c))
                continue
        if numbers:
            if _NUMBER.match(low) or low in NUMBER_WORDS:
                v = int(low) if _NUMBER.match(low) else NUMBER_WORDS[low]
                r.numbers.append(v)
                r.items.append(("number", v))
                continue
        if ranks and t != "a":
            try:
                rank = parse_rank(low)
            except NotationError:
                rank = None
            if rank is not None:
                r.ranks.append(rank)
                r.items.append(("rank", rank))
                continue
        if low in FILLER:
            continue
        raise unreadable(t, expected)
    return r


def letters_answer(
    text: str, letters: str, names: Mapping[str, str] | None = None, expected: str = ""
) -> list[str]:
    """The choice letters an answer names, in order, each once (``a c``, ``A, C``, ``(b)``).
    Letters typed together are read when that is unambiguous: ``acf`` is ``a c f`` when each of
    its letters is a choice, none comes twice, and the run is not itself an answer word or a
    filler word (``and``, ``an``).  ``names`` maps other accepted words (a source's name, say)
    to a letter.  Raises AnswerError for anything else (a run with a letter twice, or a letter
    that is not a choice, is refused saying that letters go apart).  The letters read are
    noted (:func:`heard`, ``letters``)."""
    vocab = {ch.lower(): ch for ch in letters}
    if names:
        vocab.update({k.lower(): v for k, v in names.items()})
    choice = {ch.lower() for ch in letters}
    spread: list[str] = []
    for t in tokens(text, [w for w in vocab if " " in w], cards=False):
        low = t.lower()
        if (
            len(low) > 1
            and low.replace("_", " ") not in vocab
            and low not in FILLER
            and low.isalpha()
            and low.isascii()
        ):
            inside = [ch for ch in low if ch in choice]
            if len(inside) == len(low) and len(set(low)) == len(low):
                spread.extend(low)  # "acf": a c f
                continue
            if len(inside) >= len(low) - 1 and len(low) <= len(choice) + 1:
                twice = next((ch for ch in low if low.count(ch) > 1), None)
                why = (
                    f"{twice.upper()} is typed twice"
                    if twice and len(inside) == len(low)
                    else f"not every letter of it is a choice ({letters[0]} to {letters[-1]})"
                )
                raise AnswerError(
                    f"could not read {clip(t, 40)!r}: {why}; type each letter "
                    f"once, apart or together ({' '.join(letters[:2]).lower()} "
                    f"or {letters[:2].lower()})"
                )
        spread.append(t)
    got = _read(
        " ".join(spread), words=vocab, cards=False, ranks=False, numbers=False, expected=expected
    )
    out: list[str] = []
    for w in got.words:
        if w not in out:
            out.append(w)
    heard("letters", tuple(out))
    return out
