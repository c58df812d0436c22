"""Every computer player by name: :func:`make_bot`.

- ``random``, ``willughby``, ``counter``: players that follow fixed rules
  (:mod:`tutor.engine.rule_bots`, where :class:`Bot`, :class:`Wrapped`, :class:`Careless` and :func:`play_out`
  live;
  they are re-exported here).
- ``expert``: chooses by analysis (:mod:`tutor.engine.expert`): every option played out many
  times by counter players over random placements of the unseen cards.

The imports run one way: the analysis plays its rollouts with the rule-following players, the
expert builds on the analysis, and this module names them all.
"""

from __future__ import annotations

from tutor.engine.rule_bots import (
    RULE_BOT_NAMES,
    Bot,
    Careless,
    CounterBot,
    RandomBot,
    WillughbyBot,
    Wrapped,
    play_out,
    rule_bot,
)

__all__ = [
    "BOT_NAMES",
    "Bot",
    "Careless",
    "CounterBot",
    "RandomBot",
    "WillughbyBot",
    "Wrapped",
    "make_bot",
    "play_out",
]

BOT_NAMES = RULE_BOT_NAMES + ("expert",)


def make_bot(name: str, mistakes: float = 0.0) -> Bot:
    """A fresh bot by name (``random``, ``willughby``, ``counter``, ``expert``), wrapped in
    :class:`Careless` when ``mistakes`` > 0 (a rate from 0 to 1).  Raises :class:`UsageError`
    listing the valid names, or for a rate outside 0-1."""
    if name == "expert":
        # imported when asked for: the expert brings in the analysis, which a start-up of the
        # tutor does not need (the import runs one way: the expert never imports this module)
        from tutor.engine.expert import ExpertBot

        bot: Bot = ExpertBot()
    elif name in RULE_BOT_NAMES:
        bot = rule_bot(name)
    else:
        from tutor.engine.names import find_name

        found = find_name(name, BOT_NAMES, "computer player")
        return make_bot(found, mistakes)
    return Careless(bot, mistakes) if mistakes > 0 else bot
