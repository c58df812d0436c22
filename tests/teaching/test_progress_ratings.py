"""The progress store's schema 2 (issue 14): ratings kept with their history, moved by first tries
only; a missing time is missing, not 0; schema 1 files migrated without losing an answer."""

from __future__ import annotations

import sqlite3

import pytest

from tutor.teaching import ratings as R
from tutor.teaching.progress import FILE_NAME, SCHEMA_VERSION, ProgressStore

T0 = 1_767_225_600.0  # 2026-01-01


@pytest.fixture
def store(tmp_path):
    with ProgressStore(tmp_path / FILE_NAME) as s:
        yield s


# -- ratings ----------------------------------------------------------------------------------


def test_a_first_try_moves_the_learner_kind_themes_and_band(store):
    change = store.record_answer(
        "count.parlett.5.1", "count", ["counting", "unseen"], True, 6.0, difficulty=3, at=T0
    )
    assert change is not None
    was, now = change.learner
    assert was == R.NEW_LEARNER and now.rating > 1500 and now.rd < 350
    subject, band_was, band_now = change.band
    assert subject == "puzzle:count:3" and band_now.rating < band_was.rating == 1525
    assert set(store.ratings()) == {
        "learner",
        "kind:count",
        "theme:counting",
        "theme:unseen",
        "puzzle:count:3",
    }
    assert store.learner_rating() == now
    assert store.rating("theme:counting").games == 1
    assert store.band_rating("count", 3) == band_now
    assert store.band_rating("count", 4) == R.initial_puzzle_rating(4)  # never rated


@pytest.mark.parametrize(
    "how", ["retry", "revealed", "hints", "seen before", "no band", "in a lesson"]
)
def test_retries_revealed_hinted_repeated_and_unbanded_answers_move_nothing(store, how):
    store.record_answer("count.parlett.5.9", "count", ["counting"], True, 5.0, difficulty=3, at=T0)
    before = {k: v.rating for k, v in store.ratings().items()}
    kwargs = {"difficulty": 3, "at": T0 + 10}
    pid = "count.parlett.5.10"
    if how == "retry":
        kwargs["retry"] = True
    elif how == "revealed":
        kwargs["revealed"] = True
    elif how == "hints":
        kwargs["hints"] = 1
    elif how == "seen before":
        pid = "count.parlett.5.9"
    elif how == "in a lesson":  # issue 45: a lesson's or the track's first try, not rated
        kwargs.update(lesson="track-tournament.1", slot="3.0")
    else:
        kwargs["difficulty"] = None
    assert store.record_answer(pid, "count", ["counting"], False, 5.0, **kwargs) is None
    assert {k: v.rating for k, v in store.ratings().items()} == before
    assert store.answer_count() == 2  # recorded all the same
    assert store.recompute_ratings() == 1  # and a rebuild agrees


def test_history_and_recomputing_agree_with_the_answers_as_recorded(store):
    outcomes = [True, True, False, True, False, False, True, True]
    for i, ok in enumerate(outcomes):
        store.record_answer(
            f"settlement.parlett.5.{i}",
            "settlement",
            ["stakes"],
            ok,
            10.0,
            difficulty=1 + i % 5,
            at=T0 + i,
        )
    store.record_answer(
        "settlement.parlett.5.0", "settlement", ["stakes"], True, 3.0, difficulty=1, at=T0 + 99
    )  # seen before: not rated
    history = store.rating_history()
    assert len(history) == len(outcomes)
    assert history[-1].rating == store.learner_rating().rating
    assert [h.rating > g.rating for g, h in zip(history, history[1:])] == outcomes[1:]
    assert store.rating("learner").games == len(outcomes)
    incremental = {k: (v.rating, v.games) for k, v in store.ratings().items()}
    assert store.recompute_ratings() == len(outcomes)
    again = {k: (v.rating, v.games) for k, v in store.ratings().items()}
    assert again.keys() == incremental.keys()
    for k in again:
        assert again[k][0] == pytest.approx(incremental[k][0]) and again[k][1] == incremental[k][1]
    assert len(store.rating_history("theme:stakes")) == len(outcomes)


def test_puzzles_are_served_near_the_learner_and_stars_follow_the_band(store):
    assert store.choose_difficulty("count") == 3  # a new learner: 1500
    for i in range(12):
        store.record_answer(
            f"count.parlett.5.{i}",
            "count",
            [],
            True,
            5.0,
            difficulty=store.choose_difficulty("count"),
            at=T0 + i,
        )
    learner = store.learner_rating().rating
    assert learner > 1750
    chosen = store.choose_difficulty("count")
    distance = {d: abs(store.band_rating("count", d).rating - learner) for d in range(1, 6)}
    assert chosen >= 4 and distance[chosen] == min(distance.values())
    # the bands the learner beat sank: their stars come from their ratings now
    stars = {d: store.stars("count", d) for d in range(1, 6)}
    assert stars == {d: R.stars_for(store.band_rating("count", d).rating) for d in range(1, 6)}
    assert any(stars[d] < d for d in range(1, 6))
    assert store.stars("dead-pair", 3) == 3  # never rated


# -- times ------------------------------------------------------------------------------------


def test_a_missing_time_is_missing_not_zero(store):
    store.record_answer("a", "count", ["counting"], True, None, at=T0)
    store.record_answer("b", "count", ["counting"], True, 9.0, at=T0 + 1)
    store.record_answer("c", "count", ["counting"], False, 4.0, at=T0 + 2)
    store.record_answer("d", "settlement", ["stakes"], True, None, at=T0 + 3)
    store.record_answer("e", "settlement", ["stakes"], True, -3.0, at=T0 + 4)  # nonsense: none
    store.record_answer("f", "settlement", ["stakes"], True, 0.0, at=T0 + 5)  # a virtual clock
    assert [a.seconds for a in store.answers()] == [None, 9.0, 4.0, None, None, None]
    (counting,) = [t for t in store.tallies("theme") if t.name == "counting"]
    assert (counting.n, counting.timed, counting.median_seconds) == (3, 2, 6.5)
    assert counting.mean_seconds == 6.5
    (stakes,) = [t for t in store.tallies("theme") if t.name == "stakes"]
    assert (stakes.n, stakes.timed, stakes.median_seconds, stakes.mean_seconds) == (
        3,
        0,
        None,
        None,
    )


def test_weakest_first_puts_the_slower_first_and_the_untimed_after(store):
    for pid, theme, secs in (("a", "quick", 2.0), ("b", "slow", 20.0), ("c", "untimed", None)):
        store.record_answer(pid, "count", [theme], False, secs, at=T0)
    assert [t.name for t in store.tallies("theme")] == ["slow", "quick", "untimed"]


# -- schema 1 files ---------------------------------------------------------------------------

_V1 = """
CREATE TABLE answers (id INTEGER PRIMARY KEY, at REAL NOT NULL, puzzle_id TEXT NOT NULL,
  kind TEXT NOT NULL, themes TEXT NOT NULL, correct INTEGER NOT NULL, seconds REAL NOT NULL,
  hints INTEGER NOT NULL DEFAULT 0, lesson TEXT, ruleset TEXT, retry INTEGER NOT NULL DEFAULT 0);
CREATE INDEX answers_at ON answers(at);
CREATE TABLE lessons (lesson TEXT PRIMARY KEY, seed INTEGER NOT NULL, page INTEGER NOT NULL
  DEFAULT 0, answered TEXT NOT NULL DEFAULT '{}', started_at REAL NOT NULL, updated_at REAL NOT
  NULL, completed_at REAL, right INTEGER, total INTEGER, in_progress INTEGER NOT NULL DEFAULT 1);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO answers (at, puzzle_id, kind, themes, correct, seconds, hints, lesson, ruleset, retry)
  VALUES (1767225600.5, 'count.parlett.5.1', 'count', '["counting"]', 1, 7.25, 0, 'terms',
          'parlett', 0),
         (1767225700.5, 'count.parlett.5.2', 'count', '["counting"]', 0, 0.0004, 0, NULL, NULL, 0),
         (1767225800.5, 'x.parlett.5.3', 'settlement', '["stakes"]', 0, 0.0, 1, NULL, NULL, 1);
INSERT INTO lessons VALUES ('terms', 7, 2, '{"1.0": true}', 1767225000, 1767225600.5, NULL, NULL,
                            NULL, 1);
INSERT INTO meta VALUES ('last_lesson', 'terms');
PRAGMA user_version = 1;
"""


def _v1_file(path):
    conn = sqlite3.connect(path)
    conn.executescript(_V1)
    conn.close()
    return path


def test_a_schema_1_file_is_migrated_keeping_every_answer(tmp_path):
    path = _v1_file(tmp_path / FILE_NAME)
    with ProgressStore(path) as store:
        assert store.notice is None and store.schema_version == SCHEMA_VERSION == 3
        answers = store.answers()
        assert [(a.puzzle_id, a.correct, a.hints, a.retry, a.lesson) for a in answers] == [
            ("count.parlett.5.1", True, 0, False, "terms"),
            ("count.parlett.5.2", False, 0, False, None),
            ("x.parlett.5.3", False, 1, True, None),
        ]
        # a time no one could type (piped, revealed) is now missing; a real one is kept
        assert [a.seconds for a in answers] == [7.25, None, None]
        assert all(a.difficulty is None and not a.revealed for a in answers)
        assert len({a.uid for a in answers}) == 3 and all(a.uid.startswith("m1-") for a in answers)
        assert store.ratings() == {}  # no band known: nothing rated
        assert store.lesson_state("terms").answered == {"1.0": True}
        assert store.last_lesson() == "terms"
        uids = [a.uid for a in answers]
        store.record_answer("count.parlett.5.4", "count", ["counting"], True, 3.0, difficulty=2)
        assert store.learner_rating().rating > 1500
    # a second copy of the same old file migrates to the same uids (so the two can merge)
    other = _v1_file(tmp_path / "other.sqlite3")
    with ProgressStore(other) as store:
        assert [a.uid for a in store.answers()] == uids


def test_a_schema_2_file_marked_as_schema_1_migrates_again_without_loss(tmp_path):
    path = tmp_path / FILE_NAME
    with ProgressStore(path) as store:
        store.record_answer("a.parlett.5.1", "count", ["counting"], True, 5.0, difficulty=3)
        store.record_answer("a.parlett.5.2", "count", ["counting"], False, None, difficulty=3)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with ProgressStore(path) as store:
        assert store.notice is None and store.schema_version == 3
        assert [(a.correct, a.seconds) for a in store.answers()] == [(True, 5.0), (False, None)]


def test_a_schema_1_file_read_for_statistics_is_left_as_it_is(tmp_path):
    path = _v1_file(tmp_path / FILE_NAME)
    before = path.read_bytes()
    with ProgressStore(path, read_only=True) as store:
        assert store.answer_count() == 3 and store.schema_version == 3  # a copy, migrated
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "damage,reason",
    [
        ("UPDATE ratings SET rd = -4", "the table ratings, row 'learner', holds"),
        ("UPDATE ratings SET vol = 'x'", "the table ratings, row 'learner', holds"),
        ("UPDATE rating_history SET rating = 'high'", "the table rating_history, row 1, holds"),
        ("DROP TABLE rating_history", "the table rating_history is missing"),
        ("UPDATE answers SET difficulty = 9", "the table answers, row 1, holds"),
        ("UPDATE answers SET seconds = -1", "the table answers, row 1, holds"),
        ("UPDATE answers SET uid = x'00'", "the table answers, row 1, holds"),
    ],
)
def test_damaged_rating_columns_are_moved_aside_and_the_answer_salvaged(tmp_path, damage, reason):
    """The answer is kept (its band, time or uid made sound where they were not) and the ratings
    recomputed from it (issue 23 item 15)."""
    path = tmp_path / FILE_NAME
    with ProgressStore(path) as store:
        store.record_answer("a.parlett.5.1", "count", ["counting"], True, 5.0, difficulty=3)
    conn = sqlite3.connect(path)
    conn.execute(damage)
    conn.commit()
    conn.close()
    damaged = path.read_bytes()
    with ProgressStore(path) as store:
        assert store.notice.startswith(f"Your progress file {path} could not be read ({reason}")
        assert (
            "1 answer, 0 lessons and 0 settings kept from it (ratings recomputed)" in store.notice
        )
        (a,) = store.answers()
        rated = "difficulty" not in damage
        assert (store.rating("learner").games if rated else store.rating("learner")) == (
            1 if rated else None
        )
        assert a.seconds == (None if "seconds" in damage else 5.0)
    aside = list(tmp_path.glob(FILE_NAME + ".corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == damaged


def test_an_in_memory_store_writes_no_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = ProgressStore.in_memory()
    store.record_answer("a", "count", [], True, 1.0, difficulty=2)
    assert store.answer_count() == 1 and store.learner_rating().rating > 1500
    store.close()
    assert list(tmp_path.iterdir()) == []
