"""Cards written for people (private to :mod:`tutor.engine.cards`, which re-exports every name
here; apart so that :mod:`tutor.engine.reasons`, below the errors, can write cards too)."""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"


def pretty(card: int, symbols: bool = True) -> str:
    """Notation for people: ``7♥`` (or ``7H`` with ``symbols=False``); ten is written ``10``."""
    r = "10" if card >> 2 == 9 else RANKS[card >> 2]
    return r + (SUIT_SYMBOLS[card & 3] if symbols else SUITS[card & 3])


def pretty_cards(cards: Iterable[int], symbols: bool = True) -> str:
    """Several cards for people, sorted, separated by spaces."""
    return " ".join(pretty(c, symbols) for c in sorted(cards))
