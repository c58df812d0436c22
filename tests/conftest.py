"""Shared fixtures: the loaded library of rulesets, and position-building helpers; the
hypothesis profiles of the fuzz tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import fuzzing
from tutor.engine.cards import parse_cards
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


@pytest.fixture(autouse=True)
def own_laugh_home(tmp_path, monkeypatch):
    """Every test runs with its own ``LAUGH_HOME`` (tests may set their own over it), so that no
    test reads or writes the progress file of whoever runs the suite: a file written by another
    version of the program would otherwise decide what the tests see."""
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path / "laugh-home"))
