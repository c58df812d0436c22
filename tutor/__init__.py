"""Laugh and Lie Down: a tutor for the 17th-century fishing card game.

Public API: cards and notation (:mod:`tutor.engine.cards`), rulesets (:mod:`tutor.engine.rulesets`, loaded by
:mod:`tutor.engine.sources`), the rules engine (:mod:`tutor.engine`), deal records
(:mod:`tutor.engine.records`), computer players (:mod:`tutor.engine.bots`) and matches (:mod:`tutor.engine.match`).
"""

__version__ = "0.1.0"
