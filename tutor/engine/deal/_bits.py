"""Bit arithmetic on card masks: each hand, the table and each won pile is a 52-bit mask, four
bits per rank (a "nibble"), so rank counts are cheap (private to :mod:`tutor.engine.deal`)."""

from __future__ import annotations

NIB = sum(1 << (4 * r) for r in range(13))  # bit 0 of every rank's nibble
_N5 = NIB * 5
_N3 = NIB * 3
RANK_MASK = tuple(0xF << (4 * r) for r in range(13))
FULL_MASK = (1 << 52) - 1


def _presence(x: int) -> int:
    """Bit 4r set where mask ``x`` holds at least one card of rank r."""
    y = x | (x >> 1)
    y |= y >> 2
    return y & NIB


def _counts(x: int) -> int:
    """Each rank's nibble replaced by the number of cards of that rank in ``x`` (0-4)."""
    a = (x & _N5) + ((x >> 1) & _N5)
    return (a & _N3) + ((a >> 2) & _N3)


def _ranks(bits: int) -> list[int]:
    """Ranks whose bit 4r is set in ``bits``."""
    out = []
    while bits:
        low = bits & -bits
        out.append((low.bit_length() - 1) >> 2)
        bits ^= low
    return out


#: _NIB_CARDS[rank][nibble]: the cards of ``rank`` whose suit bits are set in ``nibble``.
_NIB_CARDS = tuple(
    tuple(tuple(rank * 4 + s for s in range(4) if nib >> s & 1) for nib in range(16))
    for rank in range(13)
)


def _rank_count(x: int, rank: int) -> int:
    return ((x >> (4 * rank)) & 15).bit_count()


def _dead_bits(wonall: int) -> int:
    """Bit 4r set where exactly two cards of rank r are among the won cards (a pair held of that
    rank is then dead)."""
    wc = _counts(wonall)
    return (wc >> 1) & ~wc & ~(wc >> 2) & NIB


#: _BIT[c]: the mask of card ``c`` alone.
_BIT = tuple(1 << c for c in range(52))
_FULL_SET = frozenset(range(52))
_tuple_new = tuple.__new__
