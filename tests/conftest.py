"""Shared fixtures: the loaded library of rulesets, and position-building helpers; the
hypothesis profiles of the fuzz tests."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import fuzzing
import pytest
from hypothesis import HealthCheck, settings
from support import HOUSE_SOURCES  # a teacher's file that uses every parameter of RULES.md 3.6

# The fuzz tests (marker ``fuzz``) run in every ``pytest`` under the short profile: a few
# examples, derandomized so that the suite passes or fails the same way on every run.
# ``pytest -m fuzz`` loads the long profile: random examples for about LAUGH_FUZZ_MINUTES
# minutes (default 10; see tests/fuzzing.py).  LAUGH_FUZZ_PROFILE or --hypothesis-profile
# chooses a profile by name.
_FUZZ = dict(
    deadline=None,
    print_blob=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
settings.register_profile("short", max_examples=20, derandomize=True, **_FUZZ)
settings.register_profile("long", max_examples=1000, **_FUZZ)


#: Lesson seeds each puzzle block is drawn at when the suite checks the course (``laugh lessons
#: check`` draws 50: tests/teaching/test_objectives_served.py runs that behind ``slow``).
SUITE_DRAWS = 6


def pytest_configure(config):
    _compile_once()
    _kernel_once()
    from tutor.teaching.lessons import _course_checks

    _course_checks.SERVE_DRAWS = SUITE_DRAWS
    chosen = os.environ.get("LAUGH_FUZZ_PROFILE") or config.getoption("hypothesis_profile", None)
    if not chosen:
        expr = config.getoption("markexpr", "") or ""
        chosen = "long" if "fuzz" in expr and "not fuzz" not in expr else "short"
    settings.load_profile(chosen)
    fuzzing.PROFILE = chosen


def _compile_once():
    """Compiled bytecode in a folder of its own outside the checkout (nothing is written in
    the checkout), kept from run to run: the user's cache folder (``pycache`` beside numba's
    cache), or LAUGH_TESTS_PYCACHE.  Where PYTHONDONTWRITEBYTECODE is set (it is on the machines
    CI runs on), each xdist worker and each ``laugh`` process the tests start would otherwise
    compile the tutor (and pytest rewrite its tests) from source again: 0.3 s of CPU a process.
    A folder made afresh for each run did not do: with a prefix Python reads no ``__pycache__``
    at all, so each worker compiled the installed packages too (numpy, scikit-learn, numba,
    rich, ...: ``pytest --co`` 11 s of CPU against 3 s with the folder kept).  A compiled file
    is used only while its source's time and size are the ones it was compiled from, and
    written whole (a rename), so runs of several checkouts may share the folder.  Set once, in
    the first process, before the workers start; they inherit it."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    folder = os.environ.get("LAUGH_TESTS_PYCACHE")
    if not folder:
        from platformdirs import user_cache_dir

        folder = os.path.join(user_cache_dir("laugh-and-lie-down"), "pycache")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:  # no cache folder to be had: one for this run only
        folder = tempfile.mkdtemp(prefix="laugh-tests-pycache-")
        atexit.register(shutil.rmtree, folder, True)
    os.environ["LAUGH_TESTS_PYCACHE"] = folder
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = folder


def _kernel_once():
    """The analysis kernel compiled (about 15 s the first time on a machine) or loaded from
    numba's cache once, in the first process, before the xdist workers start: every worker then
    loads it from the cache.  The cache lives outside the checkout, in the user's cache folder
    (or NUMBA_CACHE_DIR if set)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if not os.environ.get("NUMBA_CACHE_DIR"):
        from platformdirs import user_cache_dir

        os.environ["NUMBA_CACHE_DIR"] = os.path.join(user_cache_dir("laugh-and-lie-down"), "numba")
    from tutor.engine.analysis import fast

    fast.kernel(wait=True)


#: The files whose tests take longest (servers, terminals, clocks that must run out: from
#: ``pytest --durations``), started first: the workers then end together on short tests,
#: instead of one of them running a 20-second test alone at the end.  Longest first.
LONG_FIRST = (
    "test_coach_terminal.py",
    "test_tables_evening.py",
    "test_partial_input.py",
    "test_puzzles_house_rules.py",
    "test_spot_drill.py",
    "test_puzzles.py",
    "test_loop.py",
    "test_skill_figures.py",
    "test_tables_hints_load.py",
    "test_tables_pace.py",
    "test_progress_busy.py",
    "test_tables_net.py",
    "test_match_cli.py",
    "test_clocks_terminal.py",
    "test_tables_terminal.py",
    "test_tables_secure.py",
    "test_app_terminal.py",
    "test_tables_guard.py",
    "test_hostile_text.py",
    "test_app_pipe.py",
    "test_kernelcache.py",
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """The files of :data:`LONG_FIRST` first, in that order (the others as collected).

    Tests marked ``xdist_group(NAME)`` go to one worker (``--dist loadgroup``, pyproject's
    addopts): a module whose fixture runs every case at once is then built once a run, not once
    in each worker.  pytest-xdist 3.8 names the group by setting ``item._nodeid``, which pytest 9
    no longer reads (a node's id is ``item._id``): the marks grouped nothing.  Here the group
    is added to the id pytest reads, where xdist has not added it."""
    rank = {name: n for n, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: else as found
    if not os.environ.get("PYTEST_XDIST_WORKER") or not config.getvalue("loadgroup"):
        return
    try:
        from _pytest.nodeid import NodeId
    except ImportError:  # an older pytest: xdist's own suffix works there
        return
    for item in items:
        names = {
            str(m.args[0] if m.args else m.kwargs.get("name", "default"))
            for m in item.iter_markers("xdist_group")
        }
        if names and "@" not in item.nodeid.rsplit("]", 1)[-1] and hasattr(item, "_id"):
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(sorted(names))}")


@pytest.fixture(scope="session")
def library():
    from tutor.engine.sources import load_library

    return load_library()


@pytest.fixture(scope="session")
def rulesets(library):
    return library.rulesets


@pytest.fixture(scope="session")
def house_library():
    from tutor.engine.sources import load_library

    return load_library([HOUSE_SOURCES])


@pytest.fixture(scope="session")
def house(house_library):
    """Every ruleset, the shipped ones and the test house rules (RULES.md 3.6)."""
    return house_library.rulesets


def _run_folder(tmp_path_factory):
    """A folder of this run that every xdist worker shares (their base folders are siblings)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory):
    """One cache of worked-out studies for the whole run, shared by the workers (their base
    folders are siblings): a lesson's 2,000-deal study is dealt once, not in every test that
    shows the lesson.  ``tests/app/test_blocks_cache.py`` checks the cache against a fresh run."""
    return _run_folder(tmp_path_factory) / "laugh-cache"


@pytest.fixture(autouse=True)
def own_laugh_home(tmp_path, monkeypatch, shared_cache):
    """Every test runs with its own ``LAUGH_HOME`` (tests may set their own over it), so that no
    test reads or writes the progress file of whoever runs the suite: a file written by another
    version of the program would otherwise decide what the tests see."""
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path / "laugh-home"))
    monkeypatch.setenv("LAUGH_CACHE", str(shared_cache))


@pytest.fixture(scope="session")
def course_check(tmp_path_factory, shared_cache):
    """``laugh lessons check`` of the whole course, run in-process once a worker, in a learner's
    folder of its own: ``(exit status, standard output, lessons checked)``.  It is
    :func:`tutor.teaching.lessons.check_lessons` with its defaults (every lesson, the
    course-wide checks, the tracks and the coach, each puzzle block drawn at the suite's
    draws), whose problems the command prints one a line: the tests that ask the shipped
    course be clean share the one check instead of running it
    four times (about 4 s of processor time each); marked ``xdist_group("course_check")``, one
    worker runs them all, so the course is checked once a run."""
    import contextlib
    import io
    import re

    from tutor.app.cli import main

    out = io.StringIO()
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(out):
        mp.setenv("LAUGH_HOME", str(tmp_path_factory.mktemp("course-check") / "laugh-home"))
        mp.setenv("LAUGH_CACHE", str(shared_cache))
        status = main(["lessons", "check"])
    text = out.getvalue()
    m = re.search(r"^(\d+) lessons? checked: ", text, re.M)
    return status, text, int(m.group(1)) if m else 0
