"""Cards and their notation.

A card is a plain ``int`` from 0 to 51: ``rank * 4 + suit``, with ranks 0 (ace, low) to 12 (king)
and suits 0 clubs, 1 diamonds, 2 hearts, 3 spades.  Sorting cards sorts by rank, then suit, which
is the order deal records list them in (RULES.md 9).

Notation: a rank ``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` is accepted for ten) followed by a suit
``C D H S`` or ``♣ ♦ ♥ ♠``, in any case: ``7h``, ``7H``, ``10♥``, ``TH``.  Records use ``7H``;
people see ``7♥`` (or ``7H`` where the terminal cannot show suit symbols).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from tutor.engine._cardtext import RANKS, SUIT_SYMBOLS, SUITS, pretty, pretty_cards
from tutor.engine.errors import NotationError

__all__ = [
    "RANKS",
    "SUITS",
    "SUIT_SYMBOLS",
    "RANK_NAMES",
    "RANK_PLURALS",
    "SUIT_NAMES",
    "FULL_PACK",
    "EXPECTED",
    "rank_of",
    "suit_of",
    "make_card",
    "parse_rank",
    "parse_card",
    "parse_cards",
    "code",
    "codes",
    "pretty",
    "pretty_cards",
    "rank_code",
    "mask_of",
    "cards_of",
    "CardSet",
    "sets_of",
]
RANK_NAMES = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)
RANK_PLURALS = (
    "aces",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
)
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

FULL_PACK: tuple[int, ...] = tuple(range(52))

_SUIT_LOOKUP = {c: i for i, c in enumerate(SUITS)}
_SUIT_LOOKUP.update({c: i for i, c in enumerate(SUIT_SYMBOLS)})
_SUIT_LOOKUP.update({"♧": 0, "♢": 1, "♡": 2, "♤": 3})
_RANK_LOOKUP = {c: i for i, c in enumerate(RANKS)}
_RANK_LOOKUP["10"] = 9
_RANK_LOOKUP["1"] = 0  # never produced; "1" alone is refused below with a hint

EXPECTED = (
    "a rank (A 2-9 T/10 J Q K) followed by a suit (C D H S or ♣ ♦ ♥ ♠), for example 7H, 10♥ or qs"
)


def rank_of(card: int) -> int:
    """Rank index 0 (ace) .. 12 (king) of ``card``."""
    return card >> 2


def suit_of(card: int) -> int:
    """Suit index 0 clubs, 1 diamonds, 2 hearts, 3 spades of ``card``."""
    return card & 3


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (0-12) and ``suit`` (0-3)."""
    return rank * 4 + suit


def _shown(value: object) -> str:
    """``value`` as a message names it: a string's repr cut to about 30 characters, a number's
    repr, else its type (never a long or deep repr)."""
    if isinstance(value, str):
        return repr(value) if len(value) <= 30 else repr(value[:27] + "...")
    if (
        isinstance(value, (bool, float))
        or value is None
        or (isinstance(value, int) and abs(value) < 10**30)
    ):
        return repr(value)
    return f"a {type(value).__name__}"


def parse_rank(text: str) -> int:
    """Read a rank such as ``7``, ``T``, ``10``, ``q`` or a plural word ``sevens``.

    Raises :class:`NotationError` naming the input when it is not a rank.
    """
    t = text.strip()
    u = t.upper()
    if u in _RANK_LOOKUP and u != "1":
        return _RANK_LOOKUP[u]
    low = t.lower()
    if low in RANK_NAMES:
        return RANK_NAMES.index(low)
    if low in RANK_PLURALS:
        return RANK_PLURALS.index(low)
    raise NotationError(
        f"{_shown(text)} is not a rank: expected one of A 2 3 4 5 6 7 8 9 T (or 10) J Q K"
    )


def parse_card(text: str) -> int:
    """Read one card from notation such as ``7h``, ``7H``, ``10♥`` or ``TH``.

    Returns the card as an int 0-51.  Raises :class:`NotationError` that names the input and says
    what is expected.
    """
    card = _SPELLED.get(text) if type(text) is str else None
    if card is not None:  # a spelling without spaces, read once below (a record's ``7H``)
        return card
    return _parse_card(text)


def _parse_card(text: str) -> int:
    """:func:`parse_card` read character by character."""
    if not isinstance(text, str):
        raise _not_a_card(text, f"expected {EXPECTED}")
    t = text.strip().replace("\ufe0f", "")
    if len(t) < 2:
        raise _not_a_card(text, f"expected {EXPECTED}")
    rank_part, suit_part = t[:-1], t[-1]
    suit = _SUIT_LOOKUP.get(suit_part.upper())
    if suit is None:
        raise _not_a_card(text, f"{suit_part!r} is not a suit; expected {EXPECTED}")
    rank = _RANK_LOOKUP.get(rank_part.upper())
    if rank is None or rank_part == "1":
        raise _not_a_card(text, f"{_shown(rank_part)} is not a rank; expected {EXPECTED}")
    return rank * 4 + suit


#: Every spelling of a card with no space around it, rank and suit each in upper or lower case
#: (``7H``, ``7h``, ``10♥``, ``TS``), read by :func:`_parse_card` once: a deal record's hundreds
#: of card codes are then looked up, not parsed.
_SPELLED: dict[str, int] = {
    spelled: _parse_card(spelled)
    for r in _RANK_LOOKUP
    if r != "1"
    for su in _SUIT_LOOKUP
    for spelled in {r + su, r.lower() + su, r + su.lower(), r.lower() + su.lower()}
}


def _not_a_card(text: object, detail: str) -> NotationError:
    """The error for ``text`` that is not a card, ``detail`` saying why."""
    return NotationError(f"{_shown(text)} is not a card: {detail}", detail=detail)


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Read several cards separated by spaces or commas (or an iterable of codes).

    Raises :class:`NotationError` for the first card that cannot be read, or for a repeated card.
    """
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
    else:
        parts = list(text)
    cards = [parse_card(p) for p in parts]
    if len(set(cards)) != len(cards):
        dup = next(code(c) for c in cards if cards.count(c) > 1)
        raise NotationError(f"{dup} is named twice in {_shown(' '.join(map(str, parts)))}")
    return cards


def code(card: int) -> str:
    """Record notation of ``card``: ``7H``, ``TS``."""
    return RANKS[card >> 2] + SUITS[card & 3]


#: :func:`code` of each card, looked up (a deal record writes hundreds of codes).
_CODES = tuple(code(c) for c in range(52))


def codes(cards: Iterable[int]) -> list[str]:
    """Record notation of several cards, sorted by rank then suit."""
    return [_CODES[c] for c in sorted(cards)]


def rank_code(rank: int) -> str:
    """Rank as written in card codes: ``A``, ``2``..``9``, ``T``, ``J``, ``Q``, ``K``."""
    return RANKS[rank]


def mask_of(cards: Iterable[int]) -> int:
    """Bit mask (bit ``card`` set) of a collection of cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards of a bit mask, in ascending order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class CardSet(StrEnum):
    """A set of cards of one rank, by how many (RULES.md 2): two a pair, three a prial, four a
    mournival."""

    PAIR = "pair"
    PRIAL = "prial"
    MOURNIVAL = "mournival"


_SET_OF_SIZE = {2: CardSet.PAIR, 3: CardSet.PRIAL, 4: CardSet.MOURNIVAL}


def sets_of(cards: Iterable[int]) -> dict[int, CardSet]:
    """The sets among ``cards`` (card ints): each rank (0 ace .. 12 king) of which they hold two
    or more, ranks ascending, with the set those cards make (:class:`CardSet`: a pair, a prial, a
    mournival; RULES.md 2).  ``sets_of(deal.table_cards())`` names the table's prials,
    ``sets_of(action.cards)`` what a lie-down laid down."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    return {r: _SET_OF_SIZE[k] for r, k in sorted(counts.items()) if k >= 2}
