"""The per-player-count parameters of a ruleset and the provenance of every parameter:
:class:`PlayerCount` and :class:`Provenance` (RULES.md 3.1, 5), re-exported by
:mod:`tutor.engine.rulesets`, where rulesets are put together from them.

A module of their own so that :class:`~tutor.engine.game.Game` can name the per-count figures
it answers (``Game.count``) without importing the rulesets, which import the Game: no import
circle, type-only imports counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["PlayerCount", "Provenance"]


@dataclass(frozen=True)
class Provenance:
    """Where a parameter's value comes from.

    ``status`` is ``stated`` (the source says it), ``read`` (a close reading of its words) or
    ``chosen`` (the source is silent or contradicts itself; the engine's choice).  ``quotes`` are
    quotation ids (``source:quote`` or a bare id of the ruleset's own source); ``note`` explains
    any status other than ``stated``.
    """

    status: str
    quotes: tuple[str, ...] = ()
    note: str | None = None


@dataclass(frozen=True)
class PlayerCount:
    """The per-player-count parameters of a ruleset (RULES.md 3.1).

    ``hand`` and ``table`` are cards; ``ante_dealer``, ``ante_other`` and ``last_in_bonus`` are
    stakes; ``breakeven`` is won cards.  The last four are ``None`` under pairs scoring where the
    ruleset names no bonus.  ``provenance`` maps each parameter name to its :class:`Provenance`.
    """

    players: int
    hand: int
    table: int
    ante_dealer: int | None
    ante_other: int | None
    last_in_bonus: int | None
    breakeven: int | None
    provenance: dict[str, Provenance] = field(default_factory=dict, compare=False)

    @property
    def pot(self) -> int | None:
        """Stakes in the pot after the antes, or None without stakes."""
        if self.ante_dealer is None or self.ante_other is None:
            return None
        return self.ante_dealer + (self.players - 1) * self.ante_other

    def ante(self, seat: int, dealer: int) -> int:
        """Stakes that ``seat`` puts up when ``dealer`` deals (0 without stakes)."""
        if self.ante_dealer is None:
            return 0
        return self.ante_dealer if seat == dealer else (self.ante_other or 0)
