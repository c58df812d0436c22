"""Checking provenance: does a value marked *stated* stand in the words quoted for it?

RULES.md 5: *stated* means the source says it.  :func:`unconfirmed_stated` looks, for every
parameter a source file marks ``stated``, for the value's key words (as the parameter table,
:mod:`tutor.engine.parameters`, defines them) in the quotations cited for it.  A number must
appear in digits or in words; a named value needs one of its alternatives of key words; a set
needs each of its members' key words.  What it cannot confirm is listed for a reviewer to read by
hand: a check that cannot drift silently, not a judgement of meaning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tutor.engine.parameters import PARAMETERS

if TYPE_CHECKING:  # the annotation only: the library is loaded by its caller
    from tutor.engine.sources import Library

__all__ = ["Unconfirmed", "unconfirmed_stated", "number_words"]

_NUMBER_WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
)


@dataclass(frozen=True)
class Unconfirmed:
    """A *stated* parameter whose quotations lack the key words: ``ruleset``, parameter
    ``name``, ``players`` (None for a whole-ruleset parameter), the ``value`` and what was looked
    for (``wanted``)."""

    ruleset: str
    name: str
    players: int | None
    value: Any
    wanted: str

    def __str__(self) -> str:
        where = f"{self.ruleset} {self.name}" + (
            f" ({self.players} players)" if self.players else ""
        )
        return f"{where} = {self.value!r}: no quotation has {self.wanted}"


def number_words(n: int) -> tuple[str, ...]:
    """The ways a whole number may be written in a source: digits, and the word up to twenty."""
    out = [str(n)]
    if 0 <= n < len(_NUMBER_WORDS):
        out.append(_NUMBER_WORDS[n])
    return tuple(out)


def _has_words(text: str, words: tuple[str, ...]) -> bool:
    low = " ".join(text.lower().replace("*", "").split())
    return all(re.search(r"(?<![a-z0-9])" + re.escape(w.lower()), low) for w in words)


def _confirm(name: str, value: Any, texts: list[str]) -> str | None:
    """None when some quotation has the key words of ``value``, else what was wanted."""
    spec = PARAMETERS[name]
    if spec.kind == "int":
        if value is None:
            return "a stated value of none"
        ways = number_words(value)
        # digits may carry the stake unit "p" (Parlett writes "5p")
        if any(
            re.search(r"(?<![0-9a-z])" + w + r"p?(?![0-9a-z])", t.lower())
            for t in texts
            for w in ways
        ):
            return None
        return " or ".join(repr(w) for w in ways)
    members = list(value) if spec.kind == "set" else [value]
    if spec.kind == "set" and not members:
        members = ["*"]
    missing = []
    for m in members:
        alternatives = spec.keywords.get(m) or spec.keywords.get("*")
        if spec.kind == "payment":
            alternatives = spec.keywords.get("*")
        if not alternatives:
            missing.append(f"key words for {m!r} (the parameter table gives none)")
            continue
        if not any(_has_words(t, alt) for t in texts for alt in alternatives):
            missing.append(
                " or ".join("+".join(repr(w) for w in alt) for alt in alternatives) + f" (for {m})"
            )
    return "; ".join(missing) or None


def unconfirmed_stated(library: Library) -> list[Unconfirmed]:
    """Every *stated* parameter of ``library`` (a :class:`tutor.engine.sources.Library`) whose
    cited quotations do not contain its value's key words, in load order."""
    out = []
    for rid, params in library.parameters.items():
        for p in params:
            if p.status != "stated" or p.implicit:
                continue
            texts = [library.quotation(ref).text for ref in p.quotes]
            wanted = _confirm(p.name, p.value, texts)
            if wanted:
                out.append(Unconfirmed(rid, p.name, p.players, p.value, wanted))
    return out
