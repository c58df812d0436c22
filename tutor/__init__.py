"""Laugh and Lie Down: a tutor for the 17th-century fishing card game.

Public API: cards and notation (:mod:`tutor.cards`), rulesets (:mod:`tutor.rulesets`, loaded by
:mod:`tutor.sources`), the rules engine (:mod:`tutor.engine`), deal records
(:mod:`tutor.records`), computer players (:mod:`tutor.bots`) and matches (:mod:`tutor.match`).
"""

__version__ = "0.1.0"
