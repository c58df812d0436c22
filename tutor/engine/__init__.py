"""The engine room: the game itself, and nothing about teaching it.

Cards and notation (:mod:`.cards`), rulesets and their parameter table (:mod:`.rulesets`,
:mod:`.parameters`), the source files that define them (:mod:`.sources`), one deal
(:mod:`.deal`: legal actions, claims, settlement, counting, reading moves), the seats' names
(:mod:`.seats`), the claim race (:mod:`.race`), deal records (:mod:`.records`), computer players
(:mod:`.bots`, :mod:`.levels`), matches (:mod:`.match`), self-play studies (:mod:`.simulate`) and
exact odds (:mod:`.odds`).
Nothing here imports from the puzzles, teaching or app rooms.
"""

from tutor.engine.deal import (ACTION_KINDS, DECLARATIONS, TURN_KINDS, Action, CaptureOption, Deal,
                               DealResult, HeldDeclaration, LaidDown, Oversight, PlayerView,
                               RankCount, SeatSettlement, deal_order, new_deal)

__all__ = ["ACTION_KINDS", "DECLARATIONS", "TURN_KINDS", "Action", "CaptureOption", "Deal",
           "DealResult", "HeldDeclaration", "LaidDown", "Oversight", "PlayerView", "RankCount",
           "SeatSettlement", "deal_order", "new_deal"]
