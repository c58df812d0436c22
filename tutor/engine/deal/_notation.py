"""Actions and how a learner writes them: :class:`Action` (with its notation and a sentence for
people), the words of a claim (:func:`read_claim_words`) and of the other actions, and the
reasons a move is refused that the parser and the checks share (private to
:mod:`tutor.engine.deal`, which re-exports the public names).  The parser itself,
:meth:`Deal.parse_action`, is a part of the Deal (``_deal``); this module imports nothing of it."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from tutor.engine.cards import (
    code,
    parse_card,
    parse_rank,
    pretty_cards,
)
from tutor.engine.errors import (
    IllegalAction,
    InvalidAction,
    NotationError,
)
from tutor.engine.reasons import Cards, Reason, Seat
from tutor.engine.values import CaptureForm, Declaration

#: The phases of a deal: play, the last player in capturing alone (``last_in_plays_on``), over.
PLAY, PLAY_ON, OVER = "play", "play_on", "over"
CAPTURE_KINDS = frozenset({"capture", "play_on_capture"})
TURN_KINDS = frozenset({"capture", "lie_down", "play_on_capture", "end_turn"})
DECLARATIONS = frozenset(
    {"declare_prial", "declare_mournival", "declare_dead_pair", "declare_pair"}
)
ACTION_KINDS = (
    "take_table_mournival",
    "declare_prial",
    "declare_mournival",
    "declare_dead_pair",
    "declare_pair",
    "capture",
    "lie_down",
    "claim",
    "play_on_capture",
    "end_turn",
)
#: The declaration action of each name in the ruleset's ``declarations`` (RULES.md 3.6).
DECLARATION_ACTION = {
    "prial": "declare_prial",
    "mournival": "declare_mournival",
    "dead_pair": "declare_dead_pair",
    "pair": "declare_pair",
}
#: Capture forms by (hand cards, table cards) (RULES.md 3.2 ``captures``).
CAPTURE_FORM = {
    (1, 1): CaptureForm.ONE_FOR_ONE,
    (1, 3): CaptureForm.ONE_FOR_THREE,
    (2, 2): CaptureForm.PAIR_FOR_PAIR,
    (3, 1): CaptureForm.PRIAL_FOR_ONE,
}
#: The declaration each declaring action makes (RULES.md 3.4, 3.6).
_DECLARED = {
    "declare_prial": Declaration.PRIAL,
    "declare_mournival": Declaration.MOURNIVAL,
    "declare_dead_pair": Declaration.DEAD_PAIR,
    "declare_pair": Declaration.PAIR,
}
_DECLARE_WORDS = {
    "declare_prial": "a pair of a prial",
    "declare_mournival": "a mournival",
    "declare_dead_pair": "a dead pair",
    "declare_pair": "a pair",
}


class Action(NamedTuple):
    """One action of a deal, as in deal records (RULES.md 9).

    ``player`` is a seat 0..n-1; ``kind`` one of :data:`ACTION_KINDS`.  For ``capture`` and
    ``play_on_capture``, ``cards`` are the hand cards played and ``table`` the table cards taken;
    for every other kind ``cards`` are the cards moved and ``table`` is empty.  ``oversight`` names
    the oversight kind of a ``claim``.  Card tuples are kept sorted, so equal actions compare equal.
    """

    player: int
    kind: str
    cards: tuple[int, ...] = ()
    table: tuple[int, ...] = ()
    oversight: str | None = None

    @classmethod
    def make(
        cls,
        player: int,
        kind: str,
        cards: Iterable[int] = (),
        table: Iterable[int] = (),
        oversight: str | None = None,
    ) -> Action:
        """Build an action with its card tuples sorted."""
        return cls(player, kind, tuple(sorted(cards)), tuple(sorted(table)), oversight)

    @property
    def form(self) -> str | None:
        """The capture form of a capture (``one_for_one``, ``one_for_three``, ``pair_for_pair``,
        ``prial_for_one``; RULES.md 3.2), else None."""
        if self.kind not in CAPTURE_KINDS:
            return None
        return CAPTURE_FORM.get((len(self.cards), len(self.table)))

    @property
    def declared(self) -> Declaration | None:
        """The declaration a declaring action makes (``declare_prial``: :attr:`Declaration.PRIAL`;
        RULES.md 3.4, 3.6), else None."""
        return _DECLARED.get(self.kind)

    @property
    def rank(self) -> int | None:
        """The rank (0 ace .. 12 king) of the cards the action moves, or None (lie down, end
        turn)."""
        if self.kind in ("lie_down", "end_turn"):
            return None
        cs = self.cards or self.table
        return cs[0] >> 2 if cs else None

    def notation(self) -> str:
        """How a learner types the action, read back by :meth:`Deal.parse_action`: ``7H 7S``
        (hand card first, then table cards), ``declare QC QD``, ``claim 9S 9D``, ``take``,
        ``lie down``, ``end turn``."""
        if self.kind in CAPTURE_KINDS:
            return " ".join(code(c) for c in self.cards + self.table)
        if self.kind == "lie_down":
            return "lie down"
        if self.kind == "end_turn":
            return "end turn"
        if self.kind == "take_table_mournival":
            return "take " + " ".join(code(c) for c in self.cards)
        if self.kind == "claim":
            return "claim " + " ".join(code(c) for c in self.cards)
        return "declare " + " ".join(code(c) for c in self.cards)

    def describe(self, symbols: bool = True, names: list[str] | None = None) -> str:
        """A sentence for people: ``Player 2 captures 7♥ with 7♠``."""
        who = names[self.player] if names else f"Player {self.player}"
        you = who.split(" ")[0].lower() == "you"  # "you (Player 2) capture", not captures
        cs = pretty_cards(self.cards, symbols)

        def verb(third: str) -> str:
            return {"lies": "lie", "claims": "claim"}.get(third, third[:-1]) if you else third

        if self.kind in CAPTURE_KINDS:
            tail = " (playing on)" if self.kind == "play_on_capture" else ""
            return f"{who} {verb('captures')} {pretty_cards(self.table, symbols)} with {cs}{tail}"
        if self.kind == "lie_down":
            return f"{who} {verb('lies')} down: {cs}"
        if self.kind == "end_turn":
            return f"{who} {verb('ends')} the turn"
        if self.kind == "claim":
            what = self.oversight.replace("_", " ") if self.oversight else "an oversight"
            return f"{who} {verb('claims')} {cs} ({what})"
        if self.kind == "take_table_mournival":
            return f"{who} {verb('takes')} the table mournival {cs}"
        return f"{who} {verb('declares')} {_DECLARE_WORDS[self.kind]}: {cs}"


class ClaimWords(NamedTuple):
    """What a claim names, read from the learner's words (:func:`read_claim_words`): the
    ``cards`` named (card ints, in the order typed), the ``rank`` named alone (0 ace .. 12 king,
    or None), and ``kinds``, the oversight kinds its words allow (empty: any)."""

    cards: tuple[int, ...] = ()
    rank: int | None = None
    kinds: frozenset[str] = frozenset()

    @property
    def names_something(self) -> bool:
        """True when the claim names cards or a rank (a kind alone names no cards)."""
        return bool(self.cards) or self.rank is not None


_TMG, _SPL, _DEAD = "overlooked_table_mournival", "split_prial", "laid_down_dead_pair"
_LDP, _LDM = "laid_down_prial", "laid_down_mournival"
#: How a learner names an oversight kind, in the words the lessons use (RULES.md 4), longest
#: phrase first: "the split prial of nines", "claim the table mournival", "the dead pair".
CLAIM_KIND_WORDS: dict[tuple[str, ...], frozenset[str]] = {
    ("overlooked", "table", "mournival"): frozenset({_TMG}),
    ("laid", "down", "dead", "pair"): frozenset({_DEAD}),
    ("laid", "down", "mournival"): frozenset({_LDM}),
    ("laid", "down", "prial"): frozenset({_LDP}),
    ("laid", "down", "pair"): frozenset({_DEAD}),
    ("table", "mournival"): frozenset({_TMG}),
    ("overlooked", "mournival"): frozenset({_TMG}),
    ("split", "prial"): frozenset({_SPL}),
    ("dead", "pair"): frozenset({_DEAD}),
    ("mournival",): frozenset({_TMG, _LDM}),
    ("prial",): frozenset({_SPL, _LDP}),
    ("split",): frozenset({_SPL}),
    **{(k,): frozenset({k}) for k in (_TMG, _SPL, _DEAD, _LDP, _LDM)},
}
#: Words a claim may carry that name nothing: the verb, articles, counts and "pair".
CLAIM_FILLER = frozenset(
    {
        "claim",
        "claims",
        "i",
        "the",
        "an",
        "of",
        "and",
        "both",
        "all",
        "pair",
        "pairs",
        "cards",
        "those",
        "these",
        "them",
        "it",
        "that",
    }
)
#: A word meant as a card but mistyped (``7x``, ``11h``): its own error says why.
_CARD_LIKE = re.compile(r"^(?:1[0-9]|[1-9atjqk])[^\s\d]$|^\d{2,}[cdhs♣♦♥♠]$")
#: Words that are a count or an article beside another rank ("the two sevens", "a pair of
#: nines") and a rank alone ("claim a", "claim two").
_SOFT_RANKS = {"a": 0, "two": 1, "four": 3}


def read_claim_words(text: str) -> ClaimWords:
    """Read what a claim names, without looking at any position (RULES.md 4): cards (``9s 9d``,
    ``10♥``), or a rank alone (``9``, ``nines``, ``a``, ``ace``, ``aces``, ``10``, ``ten``),
    with or without ``claim`` before them, and with the words the lessons use for what is
    claimed (``the split prial of nines``, ``claim the table mournival of sevens``, ``the dead
    pair``).  ``a``, ``two`` and ``four`` are ranks when nothing else names a rank or card
    ("claim a": the aces), and an article or a count otherwise ("claim a pair of nines", "the
    two sevens").  Nothing named gives an empty
    :class:`ClaimWords`.

    Raises :class:`~tutor.engine.errors.InvalidAction` naming the first word that is neither a
    card, a rank, nor a word of a claim (the claim is unreadable: never graded), and
    :class:`~tutor.engine.errors.IllegalAction` when the words name more than one rank (a claim
    takes cards of one rank), or a card twice.
    """
    raw = " ".join(str(text).replace(",", " ").replace(";", " ").split())
    words = raw.lower().replace("-", " ").split()
    kinds: frozenset[str] | None = None
    cards: list[int] = []
    ranks: list[int] = []
    soft: list[int] = []
    i = 0
    while i < len(words):
        phrase = next((ph for ph in CLAIM_KIND_WORDS if tuple(words[i : i + len(ph)]) == ph), None)
        if phrase is not None:
            allowed = CLAIM_KIND_WORDS[phrase]
            kinds = allowed if kinds is None else kinds & allowed
            i += len(phrase)
            continue
        w = words[i]
        i += 1
        if w in _SOFT_RANKS:
            soft.append(_SOFT_RANKS[w])
        elif w not in CLAIM_FILLER:
            _claim_word(w, raw, cards, ranks)
    if soft and not cards and not ranks:
        ranks.extend(soft)  # "claim a": the aces; "claim two": the twos
    if len({c >> 2 for c in cards} | set(ranks)) > 1:
        raise IllegalAction("a claim takes cards of one rank: name them, or the rank alone", raw)
    rank = ranks[0] if ranks and not cards else None
    return ClaimWords(tuple(cards), rank, kinds or frozenset())


def _claim_word(w: str, raw: str, cards: list[int], ranks: list[int]) -> None:
    """Read one word of a claim into ``cards`` or ``ranks`` (see :func:`read_claim_words`)."""
    try:
        c = parse_card(w)
    except NotationError as not_card:
        try:
            ranks.append(parse_rank(w))
        except NotationError:
            why = (
                f"could not read {w!r}: " + str(not_card).split(": ", 1)[-1]
                if _CARD_LIKE.match(w)
                else f"could not read {w!r}: not a card, a rank or a word of a claim (claim 9s "
                "9d, claim nines, claim aces)"
            )
            raise InvalidAction(why, raw) from None
        return
    if c in cards:
        raise IllegalAction(f"{code(c)} is named twice", raw)
    cards.append(c)


_LIE_WORDS = frozenset({"ld", "lie down", "lie", "lay down", "liedown", "lie-down", "i lie down"})
_END_WORDS = frozenset({"end turn", "end", "end_turn", "end-turn", "done", "stop"})
#: Where one set of cards is several declarations, the most specific first (RULES.md 3.4, 3.6).
DECLARATION_ORDER = {
    "declare_mournival": 0,
    "declare_prial": 1,
    "declare_dead_pair": 2,
    "declare_pair": 3,
}


def preferred_declarations(decls: list[Action]) -> list[Action]:
    """Where one set of cards is several declarations (a pair of a prial is also a plain pair),
    keep the most specific one (:data:`DECLARATION_ORDER`)."""
    best: dict[tuple[int, ...], Action] = {}
    for a in decls:
        if a.cards not in best or DECLARATION_ORDER[a.kind] < DECLARATION_ORDER[best[a.cards].kind]:
            best[a.cards] = a
    return list(best.values())


def one_declaration_per_rank(decls: list[Action]) -> list[Action]:
    """One declaration a rank, the most specific (the most cards, then
    :data:`DECLARATION_ORDER`), in rank order: what a hand could declare, rank by rank."""
    out: list[Action] = []
    seen: set[int | None] = set()
    for a in sorted(
        decls, key=lambda a: (a.cards[0] >> 2, -len(a.cards), DECLARATION_ORDER[a.kind])
    ):
        if a.rank not in seen:
            seen.add(a.rank)
            out.append(a)
    return out


def not_your_turn(mover: int, player: int) -> Reason:
    """ "it is player 3's turn, not player 2's" (to player 2: "it is player 3's turn, not
    yours")."""
    return Reason(
        "it is {mover:@'s|your} turn, not {player:@'s|yours}",
        code="not_your_turn",
        mover=Seat(mover),
        player=Seat(player),
    )


def not_in_hand(cards: Iterable[int], seat: int) -> Reason:
    """ "7♥ not in player 2's hand" (to player 2: "7♥ not in your hand")."""
    return Reason(
        "{cards} not in {p:@'s|your} hand", code="not_in_hand", cards=Cards(cards), p=Seat(seat)
    )
