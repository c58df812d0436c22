"""The engine room: the game itself, and nothing about teaching it.

Cards and notation (:mod:`.cards`); rulesets, their parameter table and the values as enums
(:mod:`.rulesets`, :mod:`.parameters`, :mod:`.values`), read from the source files
(:mod:`.sources`); the game a ruleset makes for a player count (:mod:`.game`: every rule
predicate); one deal (:mod:`.deal`: legal actions, claims, settlement, counting, reading moves)
and its reasons (:mod:`.reasons`); what one seat sees of it (:mod:`.observe`); the seats' names
(:mod:`.seats`), the claim race (:mod:`.race`), deal records (:mod:`.records`), computer players
(:mod:`.bots`, :mod:`.levels`), matches (:mod:`.match`), self-play studies (:mod:`.simulate`) and
exact odds (:mod:`.odds`).
Nothing here imports from the puzzles, teaching or app rooms.
"""

from tutor.engine.deal import (
    ACTION_KINDS,
    DECLARATIONS,
    TURN_KINDS,
    Action,
    CaptureOption,
    Deal,
    DealResult,
    HeldDeclaration,
    LaidDown,
    Oversight,
    RankCount,
    SeatSettlement,
    deal_order,
    new_deal,
)
from tutor.engine.game import Game
from tutor.engine.reasons import Reason

__all__ = [
    "ACTION_KINDS",
    "DECLARATIONS",
    "TURN_KINDS",
    "Action",
    "CaptureOption",
    "Deal",
    "DealResult",
    "Game",
    "HeldDeclaration",
    "LaidDown",
    "Oversight",
    "RankCount",
    "Reason",
    "SeatSettlement",
    "deal_order",
    "new_deal",
]
