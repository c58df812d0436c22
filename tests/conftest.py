"""Shared fixtures: the loaded library of rulesets, and position-building helpers."""

from __future__ import annotations

import pytest

from tutor.engine.cards import mask_of, parse_cards
from tutor.engine.deal import Deal


@pytest.fixture(scope="session")
def library():
    from tutor.engine.sources import load_library
    return load_library()


@pytest.fixture(scope="session")
def rulesets(library):
    return library.rulesets


def position(ruleset, players, *, hands, table, won=None, dealer=0, to_move=None, started=True):
    """A deal state set up by hand: ``hands`` is a list of card strings per seat, ``table`` a card
    string; ``won`` optional card strings per seat.  Cards not named are ignored (this is for
    legality checks, not the all-52-cards invariant)."""
    d = Deal(ruleset, players, dealer, list(range(52)))
    d.hands = [mask_of(parse_cards(h)) for h in hands]
    d.table = mask_of(parse_cards(table))
    d.won = [mask_of(parse_cards(w)) for w in (won or [""] * players)]
    d.wonall = 0
    for w in d.won:
        d.wonall |= w
    d.in_play = sum(1 for h in d.hands if h)
    d.to_move = (dealer + 1) % players if to_move is None else to_move
    d.started = started
    d.table_mournivals = ()
    return d
