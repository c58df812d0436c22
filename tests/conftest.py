"""Shared fixtures: the loaded library of rulesets, and position-building helpers; the
hypothesis profiles of the fuzz tests."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

import fuzzing
from tutor.engine.cards import mask_of, parse_cards
from tutor.engine.deal import Deal

# The fuzz tests (marker ``fuzz``) run in every ``pytest`` under the short profile: a few
# examples, derandomized so that the suite passes or fails the same way on every run.
# ``pytest -m fuzz`` loads the long profile: random examples for about LAUGH_FUZZ_MINUTES
# minutes (default 10; see tests/fuzzing.py).  LAUGH_FUZZ_PROFILE or --hypothesis-profile
# chooses a profile by name.
_FUZZ = dict(deadline=None, print_blob=True,
             suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                    HealthCheck.function_scoped_fixture])
settings.register_profile("short", max_examples=20, derandomize=True, **_FUZZ)
settings.register_profile("long", max_examples=1000, **_FUZZ)


def pytest_configure(config):
    chosen = os.environ.get("LAUGH_FUZZ_PROFILE") or config.getoption("hypothesis_profile", None)
    if not chosen:
        expr = config.getoption("markexpr", "") or ""
        chosen = "long" if "fuzz" in expr and "not fuzz" not in expr else "short"
    settings.load_profile(chosen)
    fuzzing.PROFILE = chosen


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
