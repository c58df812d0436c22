"""The one declared shape of a deal's state (private to :mod:`tutor.engine.deal`).

:class:`~tutor.engine.deal.Deal` is put together from parts (moves, claims, checks, settlement,
views, notation), each a mixin in a module of its own that reads and changes the same state.
:class:`_DealState` is their common base: it declares every slot of that state with its type,
and the methods one part calls on another, so that each part is checked (mypy) against one
shape instead of names it merely hopes the others define.  It holds no behaviour but
:attr:`_mover` (the seat to move, narrowed from ``to_move``): the slots are filled by
:meth:`Deal._setup`, and the methods are declared for the checker only (each is defined by
exactly one part).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Self

if TYPE_CHECKING:
    from tutor.engine.deal._claims import Oversight
    from tutor.engine.deal._notation import Action
    from tutor.engine.deal._settle import DealResult
    from tutor.engine.game import Game
    from tutor.engine.reasons import Reason
    from tutor.engine.rulesets import LieDownPayment, PlayerCount, Ruleset


class _DealState:
    """The state of one deal: cards as 52-bit masks (:mod:`tutor.engine.cards`), seats as ints
    0..n-1, stakes as ints.  See :class:`~tutor.engine.deal.Deal` for what each part means."""

    __slots__ = ("ruleset", "game", "rules", "n", "dealer", "pack", "hands", "table", "won",
                 "wonall", "aside", "discard", "outside", "to_move", "started", "phase",
                 "oversights", "history", "last_capturer", "in_play", "result",
                 "table_mournivals", "turn_captures", "pot", "payments", "_undo", "_c11", "_c13",
                 "_c22", "_c31", "_free", "_ov", "_any", "_decl", "_decl_default", "_pays",
                 "_ov_prial", "_ov_dead", "_ov_mourn", "_held", "_split")

    # -- the rules (fixed for the deal) --------------------------------------------------------
    ruleset: Ruleset
    game: Game
    rules: PlayerCount              # the per-player-count parameters (hand, antes, bonus)
    n: int                          # the player count
    dealer: int
    pack: tuple[int, ...] | None    # the 52 cards top first; None for a hand-made position
    # the ruleset's switches, read once from the game (see :class:`~tutor.engine.game.Game`)
    _c11: bool
    _c13: bool
    _c22: bool
    _c31: bool
    _free: bool
    _ov: frozenset[str]
    _any: bool
    _decl: frozenset[str]
    _decl_default: bool
    _pays: LieDownPayment | None
    _ov_prial: bool
    _ov_dead: bool
    _ov_mourn: bool
    _split: bool

    # -- the cards (masks) ---------------------------------------------------------------------
    hands: list[int]
    table: int
    won: list[int]
    wonall: int                     # every seat's won cards together
    aside: int                      # a table mournival set aside for the last player in
    discard: int
    outside: int                    # cards a teaching fragment leaves out of the deal
    table_mournivals: tuple[int, ...]

    # -- the play ------------------------------------------------------------------------------
    to_move: int | None             # None once the deal is over
    started: bool
    phase: str                      # PLAY, PLAY_ON or OVER (tutor.engine.deal._notation)
    oversights: list[Oversight]
    history: list[Action]
    last_capturer: int | None
    in_play: int                    # seats still holding cards
    turn_captures: int
    result: DealResult | None
    pot: int                        # stakes
    payments: list[tuple[int, int | None, int]]     # (payer, payee or None for the pot, stakes)
    _undo: list[tuple]
    _held: tuple[tuple[Action, int], ...]           # declarations held at the end, with masks

    @property
    def _mover(self) -> int:
        """The seat to move, while the deal is not over (an error after: a bug of the caller)."""
        p = self.to_move
        if p is None:
            raise AssertionError("the deal is over: nobody is to move")
        return p

    if TYPE_CHECKING:
        # The methods one part calls on another (each defined by one part, named beside it).
        def hand(self, seat: int) -> tuple[int, ...]: ...                      # Deal
        def why_illegal(self, action: Action) -> Reason | None: ...            # _Checks
        def _check(self, a: Action) -> None: ...                               # _Checks
        def legal_actions(self, seat: int | None = None) -> list[Action]: ...  # _Moves
        def free_actions(self, seat: int) -> list[Action]: ...                 # _Moves
        def clone(self, oversights: bool = True) -> Self: ...                  # Deal
        def apply_unchecked(self, a: Action) -> None: ...                      # Deal
        def can_capture(self, seat: int) -> bool: ...                          # _Moves
        def _can_capture_rank(self, nh: int, nt: int) -> bool: ...             # _Moves
        def _captures(self, seat: int, kind: str) -> list[Action]: ...         # _Moves
        def _declarations(self, seat: int, h: int | None = None,               # _Moves
                          wonall: int | None = None) -> list[Action]: ...
        def _has_decl(self, h: int, dead: int) -> bool: ...                    # _Moves
        def _claims(self, seat: int) -> list[Action]: ...                      # _Claims
        def claim_target(self, seat: int, cards: Iterable[int] = (), *,        # _Claims
                         rank: int | None = None,
                         kind: str | Iterable[str] | None = None,
                         blind: bool = False) -> Oversight: ...
        def claim_action(self, seat: int, target: Oversight,                   # _Claims
                         cards: Sequence[int] = ()) -> Action: ...
