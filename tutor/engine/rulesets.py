"""Rulesets as data: one source's reading of the game, for each player count it covers.

The engine never looks at a ruleset's or source's name, only at the parameters defined here
(RULES.md 3).  Every parameter carries its provenance: whether the source states it, a close
reading gives it, or we chose it, and the quotation ids behind it.  Rulesets are loaded from the
YAML files in ``sources/`` by :mod:`tutor.engine.sources`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CAPTURE_FORMS = ("one_for_one", "one_for_three", "pair_for_pair", "prial_for_one")
OVERSIGHT_KINDS = ("overlooked_table_mournival", "split_prial", "laid_down_dead_pair",
                   "laid_down_prial", "laid_down_mournival")
FIRST_DEALER = ("lowest_cut", "highest_cut", "chosen")
TABLE_MOURNIVAL = ("dealer_takes", "set_aside_for_last_in")
HAND_PLAYS = ("free", "turn")
BONUS_TO = ("last_in", "last_pair")
LEFTOVERS_TO = ("dealer", "last_in", "nobody")
SCORING = ("stakes", "pairs")
STATUSES = ("stated", "read", "chosen")

#: Whole-ruleset parameters (RULES.md 3.2), in display order.
RULESET_PARAMETERS = ("first_dealer", "table_mournival", "captures", "hand_plays", "bonus_to",
                      "last_in_plays_on", "leftovers_to", "scoring", "oversights")
#: Per-player-count parameters (RULES.md 3.1), in display order.
COUNT_PARAMETERS = ("hand", "table", "ante_dealer", "ante_other", "last_in_bonus", "breakeven")


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


@dataclass(frozen=True)
class Ruleset:
    """One source's reading of the game (RULES.md 3.2), with provenance for every parameter.

    ``counts`` maps a player count to its :class:`PlayerCount`.  ``captures`` and ``oversights``
    are frozensets of names from :data:`CAPTURE_FORMS` and :data:`OVERSIGHT_KINDS`.
    ``provenance`` maps each whole-ruleset parameter name to its :class:`Provenance`;
    ``problems`` are the source problems (RULES.md 6) this ruleset records, in our own words.
    """

    id: str
    source: str
    title: str
    summary: str
    counts: dict[int, PlayerCount]
    first_dealer: str
    table_mournival: str
    captures: frozenset[str]
    hand_plays: str
    bonus_to: str | None
    last_in_plays_on: bool
    leftovers_to: str
    scoring: str
    oversights: frozenset[str]
    provenance: dict[str, Provenance] = field(default_factory=dict, compare=False)
    problems: tuple[dict[str, Any], ...] = field(default=(), compare=False)
    origin: str = field(default="", compare=False)

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The player counts this ruleset covers, ascending."""
        return tuple(sorted(self.counts))

    def count(self, players: int) -> PlayerCount:
        """The parameters for ``players``; raises ``KeyError`` for an unsupported count."""
        return self.counts[players]

    def value(self, name: str) -> Any:
        """The value of a whole-ruleset parameter by name (sets are returned sorted as tuples)."""
        v = getattr(self, name)
        if isinstance(v, frozenset):
            order = CAPTURE_FORMS if name == "captures" else OVERSIGHT_KINDS
            return tuple(x for x in order if x in v)
        return v
