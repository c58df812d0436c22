"""Rulesets as data: one source's reading of the game, for each player count it covers.

The engine never looks at a ruleset's or source's name, only at the parameters defined here
(RULES.md 3).  Every parameter carries its provenance: whether the source states it, a close
reading gives it, or we chose it, and the quotation ids behind it.  Rulesets are loaded from the
YAML files in ``sources/`` by :mod:`tutor.engine.sources`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tutor.engine.errors import DataError, UsageError
from tutor.engine.game import Game
from tutor.engine.parameters import (
    CAPTURE_FORMS,
    COUNT_PARAMETERS,
    DECLARATION_KINDS,
    OVERSIGHT_KINDS,
    PARAMETERS,
    RULESET_PARAMETERS,
    STATUSES,
)
from tutor.engine.player_count import PlayerCount, Provenance
from tutor.engine.values import ENUMS, PayTo, Scoring

FIRST_DEALER = PARAMETERS["first_dealer"].values
TABLE_MOURNIVAL = PARAMETERS["table_mournival"].values
HAND_PLAYS = PARAMETERS["hand_plays"].values
BONUS_TO = PARAMETERS["bonus_to"].values
LEFTOVERS_TO = PARAMETERS["leftovers_to"].values
SCORING = PARAMETERS["scoring"].values
CAPTURES_PER_TURN = PARAMETERS["captures_per_turn"].values
POT_TO = PARAMETERS["pot_to"].values
PAY_TO = tuple(PayTo)
#: The scorings settled in stakes from a pot (RULES.md 3.5, 3.6); ``pairs`` scores points.
_STAKE_SCORINGS = frozenset({Scoring.STAKES, Scoring.POT})

__all__ = [
    "BONUS_TO",
    "CAPTURE_FORMS",
    "CAPTURES_PER_TURN",
    "COUNT_PARAMETERS",
    "DECLARATION_KINDS",
    "FIRST_DEALER",
    "HAND_PLAYS",
    "LEFTOVERS_TO",
    "OVERSIGHT_KINDS",
    "PAY_TO",
    "POT_TO",
    "RULESET_PARAMETERS",
    "SCORING",
    "STATUSES",
    "TABLE_MOURNIVAL",
    "LieDownPayment",
    "PlayerCount",
    "Provenance",
    "Ruleset",
    "scoring_unit",
]


@dataclass(frozen=True)
class LieDownPayment:
    """What lying down costs (RULES.md 3.6): ``stakes`` (a whole number of stakes) paid to each
    player still holding cards (``to`` :attr:`PayTo.EACH_IN_PLAY`) or into the pot
    (:attr:`PayTo.POT`).  Raises :class:`~tutor.engine.errors.DataError` for another ``to``."""

    stakes: int
    to: PayTo

    def __post_init__(self) -> None:
        if self.to not in PAY_TO:
            raise DataError(f"lie_down_pays: to: {self.to!r} is not one of {', '.join(PAY_TO)}")
        object.__setattr__(self, "to", PayTo(self.to))


@dataclass(frozen=True)
class Ruleset:
    """One source's reading of the game (RULES.md 3.2), with provenance for every parameter.

    ``counts`` maps a player count to its :class:`PlayerCount`.  ``captures``, ``oversights``
    and ``declarations`` are frozensets of names from :data:`CAPTURE_FORMS`,
    :data:`OVERSIGHT_KINDS` and :data:`DECLARATION_KINDS`; the parameters of RULES.md 3.6
    (``captures_per_turn``, ``declarations``, ``lie_down_pays``, ``pot_to``) default to the
    behaviour of the six shipped sources.
    ``provenance`` maps each whole-ruleset parameter name to its :class:`Provenance`;
    ``problems`` are the source problems (RULES.md 6) this ruleset records, in our own words.
    Values given as the names files spell are held as the members of their enums
    (:mod:`tutor.engine.values`); the rules they make, per player count, are asked of
    :meth:`game`.
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
    captures_per_turn: str = "one"
    declarations: frozenset[str] = frozenset({"prial", "mournival", "dead_pair"})
    lie_down_pays: LieDownPayment | None = None
    pot_to: str | None = None
    match_format: dict[str, Any] | None = field(default=None, compare=False)
    provenance: dict[str, Provenance] = field(default_factory=dict, compare=False)
    problems: tuple[dict[str, Any], ...] = field(default=(), compare=False)
    origin: str = field(default="", compare=False)
    _games: dict[int | None, Game] = field(
        default_factory=dict, compare=False, repr=False, init=False
    )

    def __post_init__(self) -> None:
        """Refuse a value the parameter table does not allow (RULES.md 3.2, 3.6), so that no
        caller ever has to guess what an unknown value means: files are refused on loading
        (:mod:`tutor.engine.sources`), and a ruleset built in code is refused here with a
        :class:`~tutor.engine.errors.DataError`.  Each value is then held as its enum's member
        (:data:`tutor.engine.values.ENUMS`)."""
        for name in RULESET_PARAMETERS:
            s = PARAMETERS[name]
            value = getattr(self, name)
            if s.kind == "enum":
                bad = [] if value in s.values or (value is None and s.nullable) else [value]
            elif s.kind == "set":
                bad = [v for v in value if v not in s.values]
            else:
                continue
            if bad:
                raise DataError(
                    f"ruleset {self.id}: {name}: {bad[0]!r} is not one of "
                    f"{', '.join(map(str, s.values))}" + (", or null" if s.nullable else "")
                )
            enum = ENUMS[name]
            held = (
                frozenset(map(enum, value))
                if s.kind == "set"
                else None
                if value is None
                else enum(value)
            )
            object.__setattr__(self, name, held)

    def game(self, players: int | None = None) -> Game:
        """The :class:`~tutor.engine.game.Game` of this ruleset for ``players`` (None: its
        whole-ruleset rules only), made once and kept.  Raises
        :class:`~tutor.engine.errors.UsageError` for a player count the ruleset does not
        cover."""
        g = self._games.get(players)
        if g is None:
            g = self._games[players] = Game(self, players)
        return g

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The player counts this ruleset covers, ascending."""
        return tuple(sorted(self.counts))

    def count(self, players: int) -> PlayerCount:
        """The parameters for ``players``; raises :class:`~tutor.engine.errors.UsageError` for a
        player count the ruleset does not cover."""
        try:
            return self.counts[players]
        except KeyError:
            raise UsageError(
                f"ruleset {self.id} does not cover {players} players (it covers "
                f"{', '.join(map(str, self.player_counts))})"
            ) from None

    @property
    def short_title(self) -> str:
        """The ruleset's title without its bracketed summary (``Parlett after Willughby``,
        ``The games.porg.es compendium``): the name a learner sees in a header or a column
        head, where the id (``parlett-13``) would be a word of ours."""
        return self.title.split(" (")[0].strip() or self.title

    @property
    def title_in_text(self) -> str:
        """:attr:`title` as it stands within a sentence: a leading "The" in lower case
        (``Under the games.porg.es compendium (stakes, bonus for the last pair)``)."""
        return "the" + self.title[3:] if self.title.startswith("The ") else self.title

    @property
    def name_in_text(self) -> str:
        """:attr:`short_title` as it stands within a sentence: a leading "The" in lower case
        (``Under the games.porg.es compendium``, ``Under Parlett after Willughby``)."""
        t = self.short_title
        return "the" + t[3:] if t.startswith("The ") else t

    def value(self, name: str) -> object:
        """The value of a whole-ruleset parameter by name, as a data file writes it: text, a
        number, a boolean or None; a set as a tuple in the parameter's order; ``lie_down_pays``
        as ``{"stakes", "to"}``.  Raises AttributeError for a name that is not a parameter."""
        v = getattr(self, name)
        if isinstance(v, frozenset):
            return tuple(x for x in PARAMETERS[name].values if x in v)
        if isinstance(v, LieDownPayment):
            return {"stakes": v.stakes, "to": v.to}
        if isinstance(v, dict):
            return dict(v)
        return v

    @property
    def has_stakes(self) -> bool:
        """True under the stake-settled scorings (``stakes`` and ``pot``): there is a pot and
        net results in stakes that sum to 0 (RULES.md 3.5, 3.6)."""
        return self.scoring in _STAKE_SCORINGS

    @property
    def unit(self) -> str:
        """What results are counted in: ``"stakes"`` under the stake-settled scorings (``stakes``
        and ``pot``), ``"points"`` under ``pairs`` (RULES.md 3.5, 3.6)."""
        return scoring_unit(self.scoring)


def scoring_unit(scoring: str) -> str:
    """What results are counted in under ``scoring``: ``"stakes"`` (``stakes``, ``pot``) or
    ``"points"`` (``pairs``) (RULES.md 3.5, 3.6).  Raises :class:`~tutor.engine.errors.DataError`
    for a scoring the parameter table does not know."""
    if scoring in _STAKE_SCORINGS:
        return "stakes"
    if scoring == "pairs":
        return "points"
    raise DataError(f"{scoring!r} is not one of {', '.join(SCORING)}")
