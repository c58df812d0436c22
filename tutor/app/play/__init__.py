"""Practice deals against computer players (``laugh play``).

- :mod:`tutor.engine.levels`: the levels of computer players and their reaction times;
- the learner's terminal and its clock come in as the I/O seam (:mod:`tutor.teaching.io`,
  implemented in :mod:`tutor.app.learner_io` and :mod:`tutor.app.clock`);
- :mod:`tutor.app.play.inputs`: reading the learner's moves;
- :mod:`tutor.puzzles.board`: what the learner's seat sees;
- :mod:`tutor.app.play.practice_deal`: one deal and the learner's moves;
- :mod:`tutor.app.play.watching`: the watch (a claim at any moment, refereed by the engine's
  :class:`tutor.engine.race.ClaimWatch`, timed to the naming);
- :mod:`tutor.app.play.mistakes`: what a deal keeps of the learner's play (mistakes, races,
  graded moments, the figures of spotting oversights) and the wording of mistakes;
- :mod:`tutor.app.play.review`: the engine's analysis of the learner's decisions (the costliest,
  and why) and the ``hint`` at the prompt;
- :mod:`tutor.app.play.sheet`: settlement, review, match totals;
- :mod:`tutor.app.play.session`: a match of K deals, records and progress.

The names below load on first use, so that a module of the package (the wording of mistakes,
which a live table's review shares) is imported without the whole game.
"""

from importlib import import_module

__all__ = [
    "DealPlayer",
    "LEVELS",
    "Level",
    "MatchResult",
    "Mistake",
    "PlayOptions",
    "Race",
    "level",
    "make_opponents",
    "play_match",
    "seat_names",
]

_HOMES = {
    "DealPlayer": "tutor.app.play.practice_deal",
    "Mistake": "tutor.app.play.practice_deal",
    "Race": "tutor.app.play.practice_deal",
    "MatchResult": "tutor.app.play.session",
    "PlayOptions": "tutor.app.play.session",
    "play_match": "tutor.app.play.session",
    **dict.fromkeys(
        ("LEVELS", "Level", "level", "make_opponents", "seat_names"), "tutor.engine.levels"
    ),
}


def __getattr__(name: str):
    """A name of :data:`__all__`, imported from its module on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
