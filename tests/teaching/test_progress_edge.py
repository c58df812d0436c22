"""The store's edge (issue 23 item 4): a value SQLite cannot hold (a 40-digit seed:
``OverflowError``) or that the damage checks would later call damage (a time past the year 3000,
a band of 9) is refused in one line before anything is written; whatever is taken opens again
without damage."""

from __future__ import annotations

import math
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import ROOT, laugh_process

from tutor.teaching.progress import FILE_NAME, ProgressStore, StoreValueError

HUGE = 10**40


@pytest.mark.parametrize(
    "call,message",
    [
        (
            lambda s: s.start_lesson("terms", HUGE),
            "the progress store cannot keep the seed 100000000000... (41 digits): it must be a whole "
            "number from -9223372036854775808 to 9223372036854775807",
        ),
        (
            lambda s: s.start_lesson("terms", -(2**63) - 1),
            "cannot keep the seed -9223372036854775809",
        ),
        (lambda s: s.save_page("terms", 2**63), "cannot keep a page 9223372036854775808"),
        (
            lambda s: s.complete_lesson("terms", 4, 3),
            "cannot keep a lesson's score 4: it must be a whole number from 0 to 3",
        ),
        (lambda s: s.complete_lesson("terms", -1, 3), "cannot keep a lesson's score -1"),
        (lambda s: s.record_answer("p", "count", [], True, 1.0, hints=HUGE), "a count of hints"),
        (
            lambda s: s.record_answer("p", "count", [], True, 1.0, difficulty=9),
            "cannot keep the difficulty 9: it must be a whole number from 1 to 5",
        ),
        (
            lambda s: s.record_answer("p", "count", [], True, 1.0, at=1e300),
            "cannot keep the time of an answer 1e+300: it must be a Unix time from 0 to 32503680000",
        ),
        (lambda s: s.record_answer("p", "count", [], True, 1.0, at=HUGE), "the time of an answer"),
        (
            lambda s: s.record_answer("p", "count", [], True, 1.0, at=math.nan),
            "the time of an answer",
        ),
        (lambda s: s.record_answer("p", 7, [], True, 1.0), "cannot keep a kind 7: it must be text"),
        (lambda s: s.set_meta("x", 3), "cannot keep the setting 'x' 3: it must be text"),
    ],
)
def test_a_value_the_store_cannot_keep_is_one_line_and_nothing_written(tmp_path, call, message):
    path = tmp_path / FILE_NAME
    with ProgressStore(path) as store:
        store.start_lesson("terms", 3)
        before = path.read_bytes()
        with pytest.raises(StoreValueError) as info:
            call(store)
        assert message in str(info.value) and "\n" not in str(info.value)
        assert store.answer_count() == 0 and store.lesson_state("terms").seed == 3
    assert path.read_bytes() == before


def test_seeds_at_sqlites_edges_are_kept(tmp_path):
    with ProgressStore(tmp_path / FILE_NAME) as store:
        for seed in (2**63 - 1, -(2**63), 0):
            assert store.start_lesson("terms", seed).seed == seed


anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.just(HUGE),
    st.just(-HUGE),
    st.floats(),
    st.text(max_size=5),
    st.binary(max_size=3),
)


@settings(max_examples=30, deadline=None)
@given(
    st.fixed_dictionaries(
        {
            "puzzle_id": st.one_of(st.text(max_size=10), anything),
            "kind": st.one_of(st.text(max_size=10), anything),
            "themes": st.lists(st.text(max_size=5), max_size=3),
            "correct": st.booleans(),
            "seconds": anything,
            "hints": anything,
            "difficulty": anything,
            "at": anything,
            "lesson": st.one_of(st.none(), st.text(max_size=5)),
            "seed": anything,
            "page": anything,
        }
    )
)
def test_whatever_is_given_is_refused_in_one_line_or_kept_soundly(tmp_path_factory, v):
    path = tmp_path_factory.mktemp("edge") / FILE_NAME
    with ProgressStore(path) as store:
        try:
            store.record_answer(
                v["puzzle_id"],
                v["kind"],
                v["themes"],
                v["correct"],
                v["seconds"],
                hints=v["hints"],
                difficulty=v["difficulty"],
                at=v["at"],
                lesson=v["lesson"],
                slot="1.0",
            )
        except StoreValueError as exc:
            assert "\n" not in str(exc)
        try:
            store.start_lesson("terms", v["seed"])
            store.save_page("terms", v["page"])
        except StoreValueError as exc:
            assert "\n" not in str(exc)
        kept = store.answer_count()
    with ProgressStore(path) as store:
        assert store.notice is None and store.answer_count() == kept  # nothing kept is damage


def test_laugh_lesson_with_a_40_digit_seed_is_one_line(tmp_path):
    """The command line refuses the seed before the store could be asked to keep it (a seed is
    at most :data:`tutor.engine.limits.MAX_SEED`, which SQLite holds): one usage line, exit 2,
    nothing written.  The store's own refusal above stays for any other way in."""
    from tutor.engine.limits import MAX_SEED

    assert MAX_SEED <= 2**63 - 1
    env = dict(os.environ, LAUGH_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    proc = laugh_process(["lesson", "1", "--seed", str(HUGE - 1)], "q\n", env, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert (
        proc.stderr.startswith("laugh: argument --seed: '999999999999")
        and "is too large" in proc.stderr
        and len(proc.stderr.splitlines()) == 1
    ), proc.stderr
    if (tmp_path / FILE_NAME).exists():
        with ProgressStore(tmp_path / FILE_NAME) as store:
            assert store.lesson_states() == {}
