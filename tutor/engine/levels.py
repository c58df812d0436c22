"""Levels of computer players for practice deals.

Each level is a kind of computer player from :mod:`tutor.engine.bots` and how it claims an
oversight (:attr:`Level.claiming`, a :class:`tutor.engine.race.Reaction`): a reaction time drawn
uniformly from the level's range of seconds (from a seeded random source), and for the careless
levels a chance, their mistake rate, of missing the oversight altogether:

- ``beginner``: Willughby's advice, careless: a mistake at 35% of its chances (overlooks a table
  mournival, splits a table prial, forgets declarations, misses claims); slow to claim.
- ``casual``: the same at 15%; a little quicker.
- ``club``: Willughby's advice without mistakes; claims in a second or two.
- ``expert``: the ``expert`` computer player (:class:`tutor.engine.expert.ExpertBot`): each
  decision chosen by playing its options out from what the player can see, with a budget of
  :data:`EXPERT_SAMPLES` determinizations a decision (a sample budget rather than a time budget,
  so a seed replays the same game on any machine; about 0.05 s a decision on a shared two-core
  machine, measured by benchmarks/bench_expert.py); never a mistake; claims fast.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.engine.bots import Bot, Careless, make_bot
from tutor.engine.expert import SAMPLES, ExpertBot
from tutor.engine.race import Reaction
from tutor.engine.seats import SEAT_NAMES
from tutor.engine.seats import seat_names as _seat_names

__all__ = [
    "EXPERT_SAMPLES",
    "LEVELS",
    "Level",
    "claimants",
    "level",
    "make_opponents",
    "SEAT_NAMES",
]

#: The expert level's budget: determinizations per decision (the budget of the strength figures
#: in benchmarks/bench_expert.py: :data:`tutor.engine.expert.SAMPLES`).
EXPERT_SAMPLES = SAMPLES


@dataclass(frozen=True)
class Level:
    """A level: ``bot`` and ``mistakes`` choose the computer player (:func:`tutor.engine.bots.make_bot`),
    ``reaction`` the range of claim reaction times in seconds."""

    name: str
    bot: str
    mistakes: float
    reaction: tuple[float, float]
    summary: str

    @property
    def claiming(self) -> Reaction:
        """How a computer player of this level claims an oversight: its reaction range, and its
        mistake rate as the chance of missing the oversight altogether."""
        return Reaction(self.reaction[0], self.reaction[1], self.mistakes)

    def make(self) -> Bot:
        """A fresh computer player of this level (the expert with a sample budget of
        :data:`EXPERT_SAMPLES` a decision)."""
        bot = ExpertBot(samples=EXPERT_SAMPLES) if self.bot == "expert" else make_bot(self.bot)
        if self.mistakes > 0:
            bot = Careless(bot, self.mistakes)
        bot.reaction_range = self.reaction
        return bot


LEVELS: dict[str, Level] = {
    lv.name: lv
    for lv in (
        Level(
            "beginner",
            "willughby",
            0.35,
            (2.0, 4.0),
            "careless beginners: an oversight at a third of their chances, slow to claim",
        ),
        Level(
            "casual",
            "willughby",
            0.15,
            (1.4, 2.8),
            "casual players: an occasional oversight, unhurried claims",
        ),
        Level(
            "club",
            "willughby",
            0.0,
            (0.9, 1.8),
            "club players: Willughby's advice, no oversights, claims in a second or two",
        ),
        Level(
            "expert",
            "expert",
            0.0,
            (0.5, 1.1),
            "experts: every move weighed by playing it out, never an oversight, quick to claim",
        ),
    )
}


def level(name: str) -> Level:
    """The level called ``name``; raises :class:`UsageError` listing the levels."""
    from tutor.engine.names import find_name

    return LEVELS[find_name(name, LEVELS, "level")]


def make_opponents(lv: Level, players: int, seat: int) -> list[Bot | None]:
    """One computer player per seat, None at the learner's ``seat``."""
    return [None if q == seat else lv.make() for q in range(players)]


def claimants(lv: Level, players: int, seat: int) -> dict[int, Reaction]:
    """How each computer player claims (:attr:`Level.claiming`), by seat, every seat but the
    learner's ``seat``: what :class:`tutor.engine.race.ClaimWatch` schedules their claims by."""
    return {q: lv.claiming for q in range(players) if q != seat}


def seat_names(players: int, seat: int) -> list[str]:
    """ "You" at ``seat``; the computer players named in order to its left
    (:func:`tutor.engine.seats.seat_names`, ``named``)."""
    return _seat_names(players, seat, style="named")
