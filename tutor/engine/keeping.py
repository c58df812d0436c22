"""What a player keeps when they lie down: the won cards stay in front of them, the hand goes
onto the table.

RULES.md 1 (lie down: "your whole hand goes face up onto the table; you are out of play but
keep your won cards and may still claim oversights") and 3.4 (a player who cannot capture must
lie down).  The sources' words: Parlett, "you must throw your hand in by adding your hand cards
to the table for others to capture subsequently" (``parlett:lie-down``) and "You can also win
cards by spotting other players' oversights, even if you have already laid (or lain) down"
(``parlett:claims-after-lying-down``: the won cards are still the player's, and can still
grow); the Inter-Livery sheet, "place the cards still remaining in your hand face up on the
table" (``inter-livery-2018:lie-down``); the compendium, "they _Lie Down_ all the cards in their
hand to add to the central pool" (``porges:lie-down``).  Every ruleset reads it alike; where lying down ends
play, the end of the deal (RULES.md 3.4: the leftovers under ``leftovers_to``, a set-aside
mournival to the last player in, the last player's captures under ``last_in_plays_on``) decides
what the player finally keeps, and the deal itself works that out.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from tutor.engine.deal import Deal, DealResult
from tutor.engine.errors import UsageError

__all__ = ["Keeping", "lie_down_keeping"]


class Keeping(NamedTuple):
    """What ``seat`` keeps after an action: ``kept``, the cards in its won pile once the action
    (and, where it ends play, the end of the deal) is done; ``to_table``, its cards that went
    onto the table (its hand, laid down); ``ends_play``, the action left at most one player
    holding cards.  Card tuples are sorted card numbers (0-51)."""

    seat: int
    kept: tuple[int, ...]
    to_table: tuple[int, ...]
    ends_play: bool


def lie_down_keeping(deal: Deal, seat: int) -> Keeping:
    """What ``seat`` keeps if it lies down now (see the module docstring for the rule and its
    sources): ``kept`` is its won cards, unchanged, and ``to_table`` its whole hand.  Where lying
    down ends play, ``kept`` is its won cards once the deal is over (the leftovers and a
    set-aside mournival moved as the ruleset says; if the last player plays on alone, every
    order of their captures must leave ``seat`` the same cards).

    Raises :class:`UsageError` when ``seat`` may not lie down now, or when what it keeps depends
    on the last player's own choices at the end.
    """
    lie = next((a for a in deal.legal_actions(seat) if a.kind == "lie_down"), None)
    if lie is None:
        raise UsageError(f"player {seat} may not lie down now")
    hand = deal.hand(seat)
    after = deal.clone()
    after.apply(lie)
    if after.phase == "play":
        return Keeping(seat, after.won_cards(seat), hand, False)
    outcomes = {r.won[seat] for r in _ends(after)}
    if len(outcomes) != 1:
        raise UsageError(f"what player {seat} keeps depends on the last player's captures")
    return Keeping(seat, outcomes.pop(), hand, True)


def _ends(deal: Deal) -> Iterator[DealResult]:
    """The results of every way the last player's captures alone can end ``deal``."""
    if deal.is_terminal():
        yield deal.final_result()
        return
    for a in deal.legal_actions():
        nxt = deal.clone()
        nxt.apply(a)
        yield from _ends(nxt)
