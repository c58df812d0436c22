"""The engine's reasons as structured values: the seats, cards and rule a reason refers to, and
its sentence, which each screen words for its reader.

A :class:`Reason` is the engine's answer to "why not?" (:meth:`Deal.why_illegal`, the reason of
an :class:`~tutor.engine.errors.ActionError`, a claim race's :class:`~tutor.engine.race.Outcome`).
As a string it is the sentence with every seat as "player N" (the wording of logs, records and
tests); :meth:`Reason.words` says it to one reader: that reader's seat as "you" (with the verb
agreeing: "you hold", "your hand", "not yours"), the others by the names the screen gives, the
cards in the screen's card style, and the choices of an ambiguous input left off where the
screen lists them itself.  No screen parses, rewrites or slices the sentence: the sentence is
the engine's, the naming the screen's.

A sentence is a template (:meth:`str.format` fields): ``{p}`` a seat (the name, or "you");
``{p:THIRD|SECOND}`` a seat in a phrase, ``THIRD`` with ``@`` for the name when the seat is not
the reader and ``SECOND`` when it is ("{p:@ holds|you hold}", "{p:@'s|your}", "{p:|you }");
a :class:`Cards` field is written as cards, a :class:`Seats` field as the seats' names joined
("you", "Player 1 and Player 3", "Player 0, you and Player 2"), a :class:`Reason` field as that
reason said to the same reader, any other field as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tutor.engine._cardtext import pretty_cards

__all__ = [
    "CLAIM_AT_ANY_TIME",
    "FALSE_CLAIM",
    "LIE_DOWN_WHEN",
    "NO_CAPTURE_NAMED",
    "Cards",
    "Reason",
    "Seat",
    "Seats",
    "as_reason",
    "false_claim_words",
]


class Seat(int):
    """A seat a reason refers to (an int)."""


class Seats(tuple[int, ...]):
    """Seats a reason refers to together (a tuple of seats), written as their names joined with
    commas and "and"."""


class Cards(tuple[int, ...]):
    """Cards a reason refers to (a tuple of card ints), written in the reader's card style."""


class _Named:
    """A seat as one reader names it (see the module docstring for the format spec)."""

    __slots__ = ("name", "you")

    def __init__(self, name: str, you: bool):
        self.name = name
        self.you = you

    def __format__(self, spec: str) -> str:
        if not spec:
            return "you" if self.you else self.name
        third, sep, second = spec.partition("|")
        if not sep:
            raise ValueError(f"a seat's phrase is THIRD|SECOND, not {spec!r}")
        return second if self.you else third.replace("@", self.name)


class Reason(str):
    """One reason of the engine: as a string, its sentence with every seat as "player N".

    ``template`` is the sentence (see the module docstring); ``refs`` its fields: :class:`Seat`
    for seats, :class:`Cards` for cards, anything else as written; ``code`` names the reason
    (``not_your_turn``, ``not_in_hand``, ...; "" for a reason of no code), so that a screen that
    says it its own way reads the code, never the sentence: a refused capture's ``other_rank``,
    ``one_takes_two``, ``no_such_form``, ``capture_not_allowed``, ``all_three``,
    ``not_on_table``; a refused lie-down's ``must_capture``, ``must_declare``,
    ``captured_this_turn``, ``whole_hand``; ``no_capture_yet`` and ``one_capture_a_turn`` of an
    end of turn; a declaration's ``declaration_is_a_turn``, ``declaration_after_capture``,
    ``no_such_declaration``, ``declared_cards``, ``live_pair``; the verdicts ``no_capture``
    (a rank no capture now), ``declarable`` and ``not_declarable`` (a dead pair), ``all_safe`` (no
    capture at risk) and ``claimable``; ``rule`` the
    ruleset parameter it rests on, where one does (``captures``); ``choices`` the legal actions
    an ambiguous input could mean, written after the sentence (``sep`` between) unless the
    screen lists them itself.  A reason of no fields (``Reason(text)``) is the text as it is.
    """

    template: str
    code: str
    rule: str | None
    refs: dict[str, Any]
    choices: tuple[Any, ...]
    sep: str

    def __new__(
        cls,
        template: str,
        *,
        code: str = "",
        rule: str | None = None,
        choices: Sequence[Any] = (),
        sep: str = ": ",
        **refs: Any,
    ) -> Reason:
        text = _render(template, refs, None, None, True) if refs else template
        if choices:
            text += sep + "; ".join(a.notation() for a in choices)
        self = super().__new__(cls, text)
        self.template = template
        self.code = code
        self.rule = rule
        self.refs = refs
        self.choices = tuple(choices)
        self.sep = sep
        return self

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, Any]]:
        return (self.template,), {
            "code": self.code,
            "rule": self.rule,
            "choices": self.choices,
            "sep": self.sep,
            **self.refs,
        }

    @property
    def seats(self) -> dict[str, int]:
        """The seats the reason refers to, by their part in it (``{"player": 2}``)."""
        return {k: int(v) for k, v in self.refs.items() if isinstance(v, Seat)}

    @property
    def seat_groups(self) -> dict[str, tuple[int, ...]]:
        """The groups of seats the reason refers to (:class:`Seats`), by their part in it."""
        return {k: tuple(v) for k, v in self.refs.items() if isinstance(v, Seats)}

    @property
    def cards(self) -> tuple[int, ...]:
        """Every card the reason names, in its order."""
        return tuple(c for v in self.refs.values() if isinstance(v, Cards) for c in v)

    def words(
        self,
        reader: int | None = None,
        names: Sequence[str] | None = None,
        *,
        symbols: bool = True,
        choices: bool = True,
        capital: bool = False,
    ) -> str:
        """The reason said to ``reader`` (a seat, or None: nobody in particular): that seat as
        "you", the others by ``names`` (one a seat; default "player N"), cards with suit
        ``symbols`` (else letters), the ``choices`` of an ambiguous input written after it or
        not, the first letter ``capital`` or as it is."""
        text = (
            _render(self.template, self.refs, reader, names, symbols)
            if self.refs
            else self.template
        )
        if choices and self.choices:
            text += self.sep + "; ".join(a.notation() for a in self.choices)
        return text[:1].upper() + text[1:] if capital else text


def as_reason(reason: str) -> Reason:
    """``reason`` as a :class:`Reason` (a string of no structure becomes one of no fields)."""
    return reason if isinstance(reason, Reason) else Reason(str(reason))


def _render(
    template: str,
    refs: dict[str, Any],
    reader: int | None,
    names: Sequence[str] | None,
    symbols: bool,
) -> str:
    def name(q: int) -> str:
        return names[q] if names is not None and 0 <= q < len(names) else f"player {q}"

    fields: dict[str, Any] = {}
    for key, v in refs.items():
        if isinstance(v, Seat):
            q = int(v)
            fields[key] = _Named(name(q), reader is not None and q == reader)
        elif isinstance(v, Seats):
            said = ["you" if q == reader else name(q) for q in v]
            fields[key] = (
                ", ".join(said[:-1]) + " and " + said[-1] if len(said) > 1 else "".join(said)
            )
        elif isinstance(v, Cards):
            fields[key] = pretty_cards(tuple(v), symbols)
        elif isinstance(v, Reason):
            fields[key] = v.words(reader, names, symbols=symbols)
        else:
            fields[key] = v
    return template.format_map(fields)


#: The one wording of the claim's moment (RULES.md 4: an oversight is claimed at any moment,
#: not in turn), said to a player waiting for a turn.
CLAIM_AT_ANY_TIME = "You may claim an oversight at any time"


#: The one wording of when a player lies down, said to that player where no ruleset is at hand
#: (the moves' help): RULES.md 1 ("lie down: forced when you cannot capture") and 3.4 ("A player
#: who cannot capture ... must lie down"); the refusals of a lie-down under a ruleset are
#: :meth:`~tutor.engine.deal.Deal.why_illegal`'s (``must_capture``, ``must_declare``, ...).
LIE_DOWN_WHEN = "when you cannot capture"


#: The one wording of a rank named that is none of a seat's captures now (RULES.md 3.4: a
#: capture takes table cards of the rank of a hand card), said to that seat; one such rank is
#: :meth:`~tutor.engine.deal.Deal.why_no_capture`.
NO_CAPTURE_NAMED = "a rank you cannot capture now"


#: The one wording of a false claim (a claim that names nothing claimable: RULES.md 4), said the
#: same by every screen: a practice deal, a live table, the statistics.
FALSE_CLAIM = "a false claim: nothing of that is claimable"


def false_claim_words(detail: str = "", *, capital: bool = True) -> str:
    """:data:`FALSE_CLAIM` as a screen says it: capitalised (unless not ``capital``), with
    ``detail`` (a reason's words, or what the claim counts for) in brackets after it."""
    text = FALSE_CLAIM[0].upper() + FALSE_CLAIM[1:] if capital else FALSE_CLAIM
    return f"{text} ({detail})" if detail else text
