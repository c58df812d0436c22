"""The values of the ruleset parameters as enums (python-chess's ``chess.Color`` rather than
strings): one class a parameter of RULES.md 3.2 and 3.6 whose values are names.

Each member is a :class:`enum.StrEnum`, equal to the name the source files and deal records
spell (``TableMournival.SET_ASIDE == "set_aside_for_last_in"``), so files, records and the
parameter table (:mod:`tutor.engine.parameters`) read and write them unchanged; a
:class:`~tutor.engine.rulesets.Ruleset` holds members, never bare strings.  Code outside the
engine does not compare a parameter's value at all: it asks the ruleset's
:class:`~tutor.engine.game.Game` (``game.sets_aside_table_mournival``); where it must name a
value (a puzzle kind that needs a capture form), it names a member, never the string.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "BonusTo",
    "CaptureForm",
    "CapturesPerTurn",
    "Declaration",
    "FirstDealer",
    "HandPlays",
    "LeftoversTo",
    "OversightKind",
    "PayTo",
    "PotTo",
    "Scoring",
    "TableMournival",
    "ENUMS",
]


class FirstDealer(StrEnum):
    """``first_dealer`` (RULES.md 3.2): how the first dealer of a match is found."""

    LOWEST_CUT = "lowest_cut"
    HIGHEST_CUT = "highest_cut"
    CHOSEN = "chosen"


class TableMournival(StrEnum):
    """``table_mournival`` (RULES.md 3.2, 3.3): a mournival among the dealt table cards."""

    DEALER_TAKES = "dealer_takes"
    SET_ASIDE = "set_aside_for_last_in"


class CaptureForm(StrEnum):
    """``captures`` (RULES.md 3.2): the forms of capture, hand cards for table cards."""

    ONE_FOR_ONE = "one_for_one"
    ONE_FOR_THREE = "one_for_three"
    PAIR_FOR_PAIR = "pair_for_pair"
    PRIAL_FOR_ONE = "prial_for_one"


class HandPlays(StrEnum):
    """``hand_plays`` (RULES.md 3.2): declarations are free actions, or each a turn."""

    FREE = "free"
    TURN = "turn"


class BonusTo(StrEnum):
    """``bonus_to`` (RULES.md 3.2; null: no bonus): who takes the bonus."""

    LAST_IN = "last_in"
    LAST_PAIR = "last_pair"


class LeftoversTo(StrEnum):
    """``leftovers_to`` (RULES.md 3.2): where the last hand and the table cards go at the end."""

    DEALER = "dealer"
    LAST_IN = "last_in"
    NOBODY = "nobody"


class Scoring(StrEnum):
    """``scoring`` (RULES.md 3.2, 3.6): how a deal settles."""

    STAKES = "stakes"
    PAIRS = "pairs"
    POT = "pot"


class OversightKind(StrEnum):
    """``oversights`` (RULES.md 4): the mistakes other players may claim."""

    OVERLOOKED_TABLE_MOURNIVAL = "overlooked_table_mournival"
    SPLIT_PRIAL = "split_prial"
    LAID_DOWN_DEAD_PAIR = "laid_down_dead_pair"
    LAID_DOWN_PRIAL = "laid_down_prial"
    LAID_DOWN_MOURNIVAL = "laid_down_mournival"


class CapturesPerTurn(StrEnum):
    """``captures_per_turn`` (RULES.md 3.6): one capture a turn, or any number."""

    ONE = "one"
    ANY = "any"


class Declaration(StrEnum):
    """``declarations`` (RULES.md 3.4, 3.6): the declarations from hand a ruleset has."""

    PRIAL = "prial"
    MOURNIVAL = "mournival"
    DEAD_PAIR = "dead_pair"
    PAIR = "pair"


class PayTo(StrEnum):
    """``lie_down_pays.to`` (RULES.md 3.6): to each player still in, or into the pot."""

    EACH_IN_PLAY = "each_in_play"
    POT = "pot"


class PotTo(StrEnum):
    """``pot_to`` (RULES.md 3.6; null outside pot scoring): who takes the whole pot."""

    LAST_IN = "last_in"
    MOST_WON = "most_won"


#: The enum of each parameter whose values are names (``lie_down_pays`` names only its ``to``).
ENUMS: dict[str, type[StrEnum]] = {
    "first_dealer": FirstDealer,
    "table_mournival": TableMournival,
    "captures": CaptureForm,
    "hand_plays": HandPlays,
    "bonus_to": BonusTo,
    "leftovers_to": LeftoversTo,
    "scoring": Scoring,
    "oversights": OversightKind,
    "captures_per_turn": CapturesPerTurn,
    "declarations": Declaration,
    "pot_to": PotTo,
}
