"""Shared fixtures: the loaded library of rulesets, and position-building helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.engine.cards import parse_cards
from tutor.engine.deal import Deal


@pytest.fixture(scope="session")
def library():
    from tutor.engine.sources import load_library
    return load_library()


@pytest.fixture(scope="session")
def rulesets(library):
    return library.rulesets


#: A teacher's file that switches on every parameter of RULES.md 3.6.
HOUSE_SOURCES = Path(__file__).resolve().parent / "data" / "sources"


@pytest.fixture(scope="session")
def house_library():
    from tutor.engine.sources import load_library
    return load_library([HOUSE_SOURCES])


@pytest.fixture(scope="session")
def house(house_library):
    """Every ruleset, the shipped ones and the test house rules (RULES.md 3.6)."""
    return house_library.rulesets


def position(ruleset, players, *, hands, table, won=None, dealer=0, to_move=None, started=True):
    """A deal state set up by hand (:meth:`Deal.from_position`): ``hands`` is a list of card
    strings per seat, ``table`` a card string; ``won`` optional card strings per seat.  Cards not
    named are outside the deal (a teaching fragment)."""
    return Deal.from_position(ruleset, players, dealer,
                              hands=[parse_cards(h) for h in hands], table=parse_cards(table),
                              won=[parse_cards(w) for w in (won or [""] * players)],
                              to_move=to_move, started=started, complete=False)
