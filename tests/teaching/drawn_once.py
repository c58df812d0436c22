"""The oversight drill's puzzles drawn once for the tests of a file (issue 43: the suite's time).

A drill draws each position with :func:`tutor.puzzles.generate` from a seed of its own random
stream (:meth:`tutor.teaching.drills.spotmix.SpotMix._draw`), so two tests that start a drill
with the same seed (a streak and a storm both at seed 1, say) draw the same first puzzles: the
same search, done again.  :func:`kept` keeps what each call of the drill's ``generate`` gave,
keyed by its arguments, and gives a later call with the same arguments a fresh copy of it (the
puzzle as it was made, before any test used it): what the drill is given is what it would have
drawn itself (a puzzle is a function of its arguments: its id says how to make it again), so
every test checks the drill as much as before.  A search that found nothing raises again.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator

import pytest

from tutor.teaching.drills import spotmix


def _copy(p):
    """A deep copy of puzzle ``p`` that shares the library's objects (its kind, the deal's
    ruleset, game and rules) rather than copies of them."""
    deal = p.deal()
    shared = (p._kind, deal.ruleset, deal.game, deal.rules)
    return copy.deepcopy(p, {id(x): x for x in shared})


@contextlib.contextmanager
def kept() -> Iterator[dict]:
    """While open, the drills' ``generate`` remembers its puzzles (see the module); yields the
    store, ``{arguments: puzzle or error}``."""
    made: dict = {}
    generate = spotmix.generate

    def once(*args, **kwargs):
        key = (args, tuple(sorted(kwargs.items())))
        if key not in made:
            try:
                p = generate(*args, **kwargs)
            except Exception as exc:
                made[key] = exc
                raise
            made[key] = _copy(p)  # as made: the caller may work out its hints
            return p
        got = made[key]
        if isinstance(got, Exception):
            raise type(got)(*got.args)
        return _copy(got)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(spotmix, "generate", once)
        yield made
