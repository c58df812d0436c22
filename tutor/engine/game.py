"""The game a ruleset makes for a player count: every rule predicate, asked by name.

A :class:`Game` is a ruleset × player count, made once and never changed (OpenSpiel's ``Game``
apart from its ``State``: here the :class:`~tutor.engine.deal.Deal`).  The deal takes its
switches from it, and every screen, puzzle, drill and lesson asks it what the rules are instead
of comparing a parameter's value: is a table mournival set aside (``sets_aside_table_mournival``),
how the first dealer is found (``cut_words``), where the leftovers go (``leftovers_words``), who
takes the bonus (``bonus_to_last_capture``, ``has_bonus``), how a deal settles
(``settles_by_breakeven``, ``settles_by_pairs``, ``pot_to_one_winner``,
``settlement_rule``), a seat's settlement worked out (:meth:`Game.working`), and the rule behind
a declaration (:meth:`Game.declaration_rule`).  ``ruleset.game(players)`` gives a ruleset's game
(kept, so asking again costs a dictionary look-up); ``Game(ruleset)`` without a player count
answers the whole-ruleset rules (RULES.md 3.2, 3.6) and refuses the per-count figures.

The parameter values are the enums of :mod:`tutor.engine.values`; the words are the parameter
table's (:mod:`tutor.engine.parameters`).
"""

from __future__ import annotations

from typing import Any, Protocol

from tutor.engine.cards import RANK_PLURALS
from tutor.engine.errors import UsageError
from tutor.engine.parameters import rule_words, settlement_formula, settlement_rule, value_words
from tutor.engine.player_count import PlayerCount
from tutor.engine.reasons import CLAIM_AT_ANY_TIME
from tutor.engine.values import (
    BonusTo,
    CaptureForm,
    CapturesPerTurn,
    Declaration,
    FirstDealer,
    HandPlays,
    LeftoversTo,
    OversightKind,
    Scoring,
    TableMournival,
)

__all__ = ["Game", "DEFAULT_RULESET"]

#: The ruleset a command, lesson block or study uses when none is named (one default, here).
DEFAULT_RULESET = "parlett"
#: The declarations of RULES.md 3.4, before the house rules of 3.6 add ``pair``.
_DEFAULT_DECLARATIONS = frozenset({Declaration.PRIAL, Declaration.MOURNIVAL, Declaration.DEAD_PAIR})
#: The declaration each declaring action makes.
_DECLARED = {
    "declare_prial": Declaration.PRIAL,
    "declare_mournival": Declaration.MOURNIVAL,
    "declare_dead_pair": Declaration.DEAD_PAIR,
    "declare_pair": Declaration.PAIR,
}
#: The oversights a laid-down hand makes, and the declarations that could have taken it
#: (RULES.md 3.6 detail 3).
_TAKEN_BY = {
    OversightKind.LAID_DOWN_DEAD_PAIR: frozenset({Declaration.DEAD_PAIR, Declaration.PAIR}),
    OversightKind.LAID_DOWN_PRIAL: frozenset({Declaration.PRIAL, Declaration.PAIR}),
    OversightKind.LAID_DOWN_MOURNIVAL: frozenset(
        {Declaration.MOURNIVAL, Declaration.PRIAL, Declaration.PAIR}
    ),
}


class SettlementRow(Protocol):
    """What :meth:`Game.working` reads of one seat's settlement: the fields of a
    :class:`~tutor.engine.deal.SeatSettlement` (cards won, stakes, points).  Named here by its
    shape so that the Game imports nothing of the deal (which imports the Game)."""

    @property
    def won_in_play(self) -> int: ...
    @property
    def won(self) -> int: ...
    @property
    def ante(self) -> int: ...
    @property
    def bonus(self) -> int: ...
    @property
    def paid(self) -> int: ...
    @property
    def received(self) -> int: ...
    @property
    def pot_share(self) -> int: ...
    @property
    def net(self) -> int | None: ...
    @property
    def points(self) -> int | None: ...
    @property
    def leftovers(self) -> int: ...
    @property
    def set_aside(self) -> int: ...


class DeclaringAction(Protocol):
    """What :meth:`Game.declaration_rule` reads of an action: a
    :class:`~tutor.engine.deal.Action`'s ``kind`` and ``rank`` (named by shape, as
    :class:`SettlementRow`)."""

    @property
    def kind(self) -> str: ...
    @property
    def rank(self) -> int | None: ...


class Game:
    """The rules of ``ruleset`` (a :class:`~tutor.engine.rulesets.Ruleset`) for ``players``
    (None: its whole-ruleset rules only).  Immutable; see the module docstring.

    Raises :class:`~tutor.engine.errors.UsageError` for a player count the ruleset does not
    cover, and when a per-count figure (:attr:`count`) is asked of a game without one.
    """

    __slots__ = (
        "ruleset",
        "players",
        "_count",
        "c11",
        "c13",
        "c22",
        "c31",
        "free",
        "any",
        "declarations",
        "default_declarations",
        "oversights",
        "ov_dead",
        "ov_prial",
        "ov_mourn",
        "pays",
        "split_prial_claimable",
    )

    def __init__(self, ruleset: Any, players: int | None = None):
        self.ruleset = ruleset
        self.players = players
        self._count: PlayerCount | None = ruleset.count(players) if players is not None else None
        caps = ruleset.captures
        #: The deal's switches (RULES.md 3.2, 3.6), read once here rather than at every deal.
        self.c11 = CaptureForm.ONE_FOR_ONE in caps
        self.c13 = CaptureForm.ONE_FOR_THREE in caps
        self.c22 = CaptureForm.PAIR_FOR_PAIR in caps
        self.c31 = CaptureForm.PRIAL_FOR_ONE in caps
        self.free = ruleset.hand_plays is HandPlays.FREE
        self.any = ruleset.captures_per_turn is CapturesPerTurn.ANY
        decl = ruleset.declarations
        self.declarations = decl
        self.default_declarations = decl == _DEFAULT_DECLARATIONS
        self.pays = ruleset.lie_down_pays
        ov = ruleset.oversights
        self.oversights = ov
        # A laid-down hand is an oversight only where some declaration could have taken it.
        self.ov_dead = self._laid_down(OversightKind.LAID_DOWN_DEAD_PAIR)
        self.ov_prial = self._laid_down(OversightKind.LAID_DOWN_PRIAL)
        self.ov_mourn = self._laid_down(OversightKind.LAID_DOWN_MOURNIVAL)
        self.split_prial_claimable = self.c13 and OversightKind.SPLIT_PRIAL in ov

    def _laid_down(self, kind: OversightKind) -> bool:
        return kind in self.oversights and bool(self.declarations & _TAKEN_BY[kind])

    def __repr__(self) -> str:
        return f"Game({self.ruleset.id!r}, {self.players})"

    # -- who and what -----------------------------------------------------------------------

    @property
    def id(self) -> str:
        """The ruleset's id."""
        rid: str = self.ruleset.id
        return rid

    @property
    def count(self) -> PlayerCount:
        """The per-player-count parameters (:class:`~tutor.engine.rulesets.PlayerCount`);
        raises :class:`UsageError` for a game made without a player count."""
        if self._count is None:
            raise UsageError(
                f"ruleset {self.ruleset.id}: a player count is needed for its "
                "hand, table, antes, bonus and breakeven"
            )
        return self._count

    # -- the deal ----------------------------------------------------------------------------

    @property
    def sets_aside_table_mournival(self) -> bool:
        """A table mournival is turned face down for the last player in (RULES.md 3.3,
        ``table_mournival: set_aside_for_last_in``), rather than taken by the dealer."""
        return self.ruleset.table_mournival is TableMournival.SET_ASIDE

    @property
    def dealer_takes_table_mournival(self) -> bool:
        """The dealer takes a table mournival into their won cards (``dealer_takes``)."""
        return self.ruleset.table_mournival is TableMournival.DEALER_TAKES

    @property
    def cut_words(self) -> str | None:
        """How a cut finds the first dealer, in two words ("lowest deals", "highest deals"), or
        None where the players choose (RULES.md 3.2 ``first_dealer``)."""
        return {
            FirstDealer.LOWEST_CUT: "lowest deals",
            FirstDealer.HIGHEST_CUT: "highest deals",
        }.get(self.ruleset.first_dealer)

    @property
    def cut_lowest_deals(self) -> bool:
        """The lowest cut deals first (``lowest_cut``); False for the highest or a choice."""
        return self.ruleset.first_dealer is FirstDealer.LOWEST_CUT

    @property
    def first_dealer_chosen(self) -> bool:
        """The players choose the first dealer (``first_dealer: chosen``)."""
        return self.ruleset.first_dealer is FirstDealer.CHOSEN

    # -- play -----------------------------------------------------------------------------

    def allows(self, form: CaptureForm) -> bool:
        """The capture ``form`` is allowed (RULES.md 3.2 ``captures``)."""
        return form in self.ruleset.captures

    def claimable(self, kind: OversightKind) -> bool:
        """The ruleset lists the oversight ``kind`` as claimable (RULES.md 4)."""
        return kind in self.oversights

    def declares(self, kind: Declaration) -> bool:
        """The ruleset has the declaration ``kind`` (RULES.md 3.4, 3.6 ``declarations``)."""
        return kind in self.declarations

    #: The rule of every claim (RULES.md 4: "whoever claims it first" takes the cards).
    claim_rule = "the first claim takes the cards"

    @property
    def at_any_time(self) -> str:
        """What a player may do out of turn, in words (RULES.md 4: claim an oversight; 3.4
        under ``hand_plays: free``: declare): "You may claim an oversight at any time", with
        ", and declare from your hand" where declarations are free."""
        return CLAIM_AT_ANY_TIME + (", and declare from your hand" if self.free else "")

    @property
    def match_layout(self) -> str:
        """The match this ruleset lays out, in words ("3 rounds of 4 games"; ``match_format``),
        "" where it lays out none."""
        fmt = self.ruleset.match_format
        return f"{fmt['rounds']} rounds of {fmt['games']} games" if fmt else ""

    @property
    def has_match_format(self) -> bool:
        """A match under this ruleset is laid out in rounds of games, a practice game first
        (``match_format``: :func:`tutor.engine.match.plan_games`)."""
        return bool(self.ruleset.match_format)

    @property
    def lists_oversights(self) -> bool:
        """Some oversight may be claimed under this ruleset."""
        return bool(self.oversights)

    @property
    def declarations_are_free(self) -> bool:
        """Declarations are free actions at any time (``hand_plays: free``)."""
        return self.free

    @property
    def declarations_are_turns(self) -> bool:
        """Each declaration is a whole turn (``hand_plays: turn``)."""
        return not self.free

    @property
    def declaration_timing(self) -> str:
        """When a declaration may be made, in words (RULES.md 3.4, 3.6 ``hand_plays``): "under
        this ruleset a declaration takes your turn" (``turn``), or "... is a free action: it
        need not wait for your turn" (``free``)."""
        if self.free:
            return (
                "under this ruleset a declaration is a free action: it need not wait for your turn"
            )
        return "under this ruleset a declaration takes your turn"

    @property
    def capture_limit(self) -> str:
        """How many captures a turn holds, in words (RULES.md 3.6 ``captures_per_turn``): "you
        can make only one capture this turn" (``one``), or "you may make several captures this
        turn, then end it" (``any``)."""
        if self.any:
            return "you may make several captures this turn, then end it"
        return "you can make only one capture this turn"

    @property
    def any_captures_per_turn(self) -> bool:
        """A turn may hold several captures, ended by ``end_turn`` (RULES.md 3.6)."""
        return self.any

    @property
    def lying_down_pays(self) -> bool:
        """Lying down costs stakes (RULES.md 3.6 ``lie_down_pays``)."""
        return self.pays is not None

    # -- the end and the settlement ---------------------------------------------------------

    @property
    def leftovers_to_last_in(self) -> bool:
        """The leftovers go to the last player in (``leftovers_to: last_in``)."""
        return self.ruleset.leftovers_to is LeftoversTo.LAST_IN

    @property
    def leftovers_words(self) -> str:
        """Where the leftovers go, in the parameter table's words ("the leftovers go to the
        dealer")."""
        return value_words("leftovers_to", self.ruleset.leftovers_to)

    @property
    def bonus_to_last_capture(self) -> bool:
        """The bonus goes to whoever made the last capture (``bonus_to: last_pair``)."""
        return self.ruleset.bonus_to is BonusTo.LAST_PAIR

    @property
    def has_bonus(self) -> bool:
        """Some seat takes a bonus at this player count (a ``last_in_bonus`` and a
        ``bonus_to``)."""
        return bool(self.count.last_in_bonus and self.ruleset.bonus_to)

    @property
    def has_stakes(self) -> bool:
        """Results are stakes from a pot (``stakes`` and ``pot`` scoring, RULES.md 3.5, 3.6)."""
        stakes: bool = self.ruleset.has_stakes
        return stakes

    @property
    def unit(self) -> str:
        """``"stakes"`` or ``"points"``."""
        unit: str = self.ruleset.unit
        return unit

    @property
    def settles_by_breakeven(self) -> bool:
        """A stake per two won cards above or below the breakeven (``scoring: stakes``)."""
        return self.ruleset.scoring is Scoring.STAKES

    @property
    def settles_by_pairs(self) -> bool:
        """A point per pair won (``scoring: pairs``)."""
        return self.ruleset.scoring is Scoring.PAIRS

    @property
    def pot_to_one_winner(self) -> bool:
        """The whole pot goes to one winner (``scoring: pot``)."""
        return self.ruleset.scoring is Scoring.POT

    @property
    def settlement_rule(self) -> str:
        """How a deal settles, in the parameter table's words (:func:`~tutor.engine.parameters.
        settlement_rule`: "1 stake per 2 won cards above or below the breakeven of 8")."""
        rs = self.ruleset
        return settlement_rule(rs.scoring, breakeven=self.count.breakeven, pot_to=rs.pot_to)

    def settlement_formula(self, won: int | str = "won", bonus: bool = False) -> str | None:
        """A seat's result as arithmetic on its ``won`` cards ("(won − 8) / 2", "won ÷ 2";
        ``bonus`` adds " + bonus"), or None under pot scoring
        (:func:`~tutor.engine.parameters.settlement_formula`)."""
        return settlement_formula(
            self.ruleset.scoring, breakeven=self.count.breakeven, won=won, bonus=bonus
        )

    def result_parts(self, row: SettlementRow) -> dict[str, int]:
        """The parts of one seat's result (its net stakes where there are stakes, else its
        points) a count may leave out, each as the change it makes to the result (RULES.md 3.5,
        3.6), by the name of ``row``'s field: with stakes ``ante`` (negative), ``pot_share``,
        ``bonus``, then, where stakes follow the breakeven, the ``leftovers`` and the
        ``set_aside`` mournival (a stake per two cards); with points the ``leftovers`` and the
        ``set_aside`` mournival (a point per two cards), then the ``bonus``.  A part that is
        nothing is not listed."""
        parts: dict[str, int] = {}
        if self.has_stakes:
            parts.update(ante=-row.ante, pot_share=row.pot_share, bonus=row.bonus)
            if self.settles_by_breakeven:
                parts.update(leftovers=row.leftovers // 2, set_aside=row.set_aside // 2)
        else:
            parts.update(
                leftovers=row.leftovers // 2, set_aside=row.set_aside // 2, bonus=row.bonus
            )
        return {k: v for k, v in parts.items() if v}

    def working(self, row: SettlementRow) -> str:
        """One seat's settlement worked out from its :class:`~tutor.engine.deal.SeatSettlement`
        ``row`` (RULES.md 3.5, 3.6), ending at its result: "won 10 in play + 2 at the end = 12;
        -2 ante + (12 − 8) / 2 = +0" in stakes, "12 ÷ 2 + 1 bonus = 7 points" in points (with
        the lie-down payments, where lying down pays)."""
        parts = []
        if row.won != row.won_in_play:
            parts.append(
                f"won {row.won_in_play} in play + {row.won - row.won_in_play} at the "
                f"end = {row.won}"
            )
        if not self.has_stakes:
            formula = settlement_formula(Scoring.PAIRS, won=row.won)
            assert formula is not None  # None only under pot scoring
            parts.append(
                formula + (f" + {row.bonus} bonus" if row.bonus else "") + f" = {row.points} points"
            )
            if row.net is not None:
                parts.append(
                    f"lying down: paid {row.paid}, received {row.received}, {row.net:+d} stakes"
                )
            return "; ".join(parts)
        terms = [f"-{row.ante} ante"]
        if row.paid:
            terms.append(f"- {row.paid} paid on lying down")
        if row.received:
            terms.append(f"+ {row.received} received")
        if row.bonus:
            terms.append(f"+ {row.bonus} bonus")
        formula = self.settlement_formula(won=row.won)
        if formula is not None:
            terms.append(f"+ {formula}")
        if row.pot_share:
            terms.append(f"+ {row.pot_share} from the pot")
        parts.append(" ".join(terms) + f" = {row.net:+d}")
        return "; ".join(parts)

    # -- rules in words ------------------------------------------------------------------------

    @staticmethod
    def declaration_rule(action: DeclaringAction, capital: bool = False) -> str:
        """Why the declaration ``action`` (a :class:`~tutor.engine.deal.Action` that declares)
        could be made, in the parameter table's words (RULES.md 3.4, 3.6): "two of the three
        sevens could be declared, keeping the third" (``capital``: "Two of
        ...").  Raises :class:`UsageError` for an action that is no declaration."""
        kind = _DECLARED.get(action.kind)
        if kind is None or action.rank is None:
            raise UsageError(f"{action.kind} is not a declaration")
        return rule_words(
            "declarations",
            kind,
            ranks=RANK_PLURALS[action.rank],
            action=action.kind,
            capital=capital,
        )
