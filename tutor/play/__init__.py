"""Practice deals against computer players (``laugh play``).

- :mod:`tutor.play.levels`: the levels of computer players and their reaction times;
- :mod:`tutor.play.clock`: clocks (terminal, virtual for piped input, fake for tests) and input
  with a time limit;
- :mod:`tutor.play.inputs`: reading the learner's moves;
- :mod:`tutor.play.screen`: what the learner's seat sees;
- :mod:`tutor.play.game`: one deal, the claim race, and the learner's mistakes;
- :mod:`tutor.play.sheet`: settlement, review, match totals, the Inter-Livery score sheet;
- :mod:`tutor.play.session`: a match of K deals, records and progress.
"""

from .clock import FakeClock, ScriptedAsker, TerminalClock, TimedAsker, VirtualClock, default_clock
from .game import DealPlayer, Mistake, Race
from .levels import LEVELS, Level, level, make_opponents, seat_names
from .session import MatchResult, PlayOptions, play_match

__all__ = ["DealPlayer", "FakeClock", "LEVELS", "Level", "MatchResult", "Mistake", "PlayOptions",
           "Race", "ScriptedAsker", "TerminalClock", "TimedAsker", "VirtualClock",
           "default_clock", "level", "make_opponents", "play_match", "seat_names"]
