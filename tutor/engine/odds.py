"""Exact odds of the deal, as fractions.

All counts are over the equally likely hands (or table layouts) of a fixed size drawn from the
52-card pack, four cards of each of thirteen ranks.  A generating polynomial counts the draws in
which every rank's count lies in an allowed set: a draw of ``k`` cards with ``c_r`` cards of rank
``r`` can be made in ``prod C(4, c_r)`` ways, so the number of draws whose every rank count is
allowed is the coefficient of ``x**k`` in ``(sum over allowed c of C(4, c) x**c) ** 13``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from tutor.engine.rulesets import Ruleset


@cache
def _count_draws(k: int, allowed: frozenset[int]) -> int:
    """Number of ``k``-card draws in which every rank's count is in ``allowed``."""
    poly = [0] * 5
    for c in allowed:
        poly[c] = comb(4, c)
    result = [1]
    for _ in range(13):
        nxt = [0] * (len(result) + 4)
        for i, a in enumerate(result):
            if a:
                for j, b in enumerate(poly):
                    if b:
                        nxt[i + j] += a * b
        result = nxt
    return result[k] if k < len(result) else 0


def p_mournival(k: int) -> Fraction:
    """Probability that ``k`` cards (a hand, or the table) hold at least one mournival."""
    return 1 - Fraction(_count_draws(k, frozenset({0, 1, 2, 3})), comb(52, k))


def p_prial_or_better(k: int) -> Fraction:
    """Probability that ``k`` cards hold at least three of some rank (a prial or a mournival)."""
    return 1 - Fraction(_count_draws(k, frozenset({0, 1, 2})), comb(52, k))


def p_prial(k: int) -> Fraction:
    """Probability that ``k`` cards hold exactly three of some rank (at least one prial)."""
    return 1 - Fraction(_count_draws(k, frozenset({0, 1, 2, 4})), comb(52, k))


@dataclass(frozen=True)
class DealOdds:
    """Exact odds for one ruleset and player count: ``hand`` and ``table`` are card counts; the
    rest are probabilities for one deal (the table) or one player's hand."""

    ruleset: str
    players: int
    hand: int
    table: int
    table_mournival: Fraction
    hand_prial: Fraction
    hand_mournival: Fraction
    hand_prial_or_mournival: Fraction


def deal_odds(ruleset: Ruleset, players: int) -> DealOdds:
    """The exact odds for ``ruleset`` with ``players`` (raises ``KeyError`` if not covered)."""
    pc = ruleset.count(players)
    return DealOdds(
        ruleset.id,
        players,
        pc.hand,
        pc.table,
        p_mournival(pc.table),
        p_prial(pc.hand),
        p_mournival(pc.hand),
        p_prial_or_better(pc.hand),
    )


def percent(p: Fraction, digits: int = 2) -> str:
    """A probability as a percentage string, e.g. ``0.29%``."""
    return f"{float(p) * 100:.{digits}f}%"
