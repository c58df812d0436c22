"""FSRS scheduling of skills from graded answers (py-fsrs), kept in the progress database."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import pytest
from fsrs import Rating

from tutor.engine.errors import LaughError
from tutor.teaching.progress import SCHEMA_VERSION, ProgressStore
from tutor.teaching.spaced_review import (
    SCHEMA,
    ReviewBook,
    rating_for,
    render_weak_skills,
    skills_of,
    weak_skills,
)

T0 = 1_750_000_000.0


@pytest.fixture
def store(tmp_path):
    s = ProgressStore(tmp_path / "progress.sqlite3")
    yield s
    s.close()


def test_ratings_come_from_the_grade_and_the_time_never_from_the_learner():
    assert rating_for(False, 1.0, "spot-oversight") == Rating.Again
    assert rating_for(True, 5.0, "spot-oversight") == Rating.Good
    assert rating_for(True, 1.0, "spot-oversight") == Rating.Easy
    assert rating_for(True, 30.0, "spot-oversight") == Rating.Hard
    assert rating_for(True, 5.0, "spot-oversight", hints=1) == Rating.Hard


def test_skills_are_the_kind_and_each_theme():
    assert skills_of("count", ["counting", "unseen", "counting"]) == [
        "kind:count",
        "theme:counting",
        "theme:unseen",
    ]


def test_sync_folds_in_new_answers_once(store):
    store.record_answer("a", "count", ["unseen"], True, 5, at=T0)
    book = ReviewBook(store)
    assert book.sync() == 1
    assert book.sync() == 0
    store.record_answer("b", "count", ["unseen"], False, 5, at=T0 + 60)
    assert book.sync() == 1
    states = {s.skill: s for s in book.skills(datetime.fromtimestamp(T0 + 120, UTC))}
    assert states["kind:count"].reviews == 2 and states["kind:count"].lapses == 1
    assert states["theme:unseen"].right == 1


def test_weakest_first(store):
    for i in range(8):
        store.record_answer(
            f"o{i}", "spot-oversight", ["oversight", "split-prial"], i % 3 == 0, 4, at=T0 + 3600 * i
        )
        store.record_answer(f"c{i}", "count", ["counting", "unseen"], True, 4, at=T0 + 3600 * i)
    now = datetime.fromtimestamp(T0 + 86400 * 3, UTC)
    states = weak_skills(store, now=now)
    order = [s.skill for s in states]
    assert order.index("kind:spot-oversight") < order.index("kind:count")
    assert order.index("theme:split-prial") < order.index("theme:unseen")
    weak, strong = states[0], states[-1]
    assert weak.retrievability < strong.retrievability
    lapsed = [s.name for s in weak_skills(store, group="theme", now=now) if s.lapses]
    assert lapsed[:2] == ["oversight", "split-prial"]
    assert [s.group for s in weak_skills(store, group="kind", now=now)] == ["kind", "kind"]


def test_tables_are_versioned_and_leave_the_progress_schema_alone(store):
    ReviewBook(store)
    assert store.schema_version == SCHEMA_VERSION
    row = store.conn.execute("SELECT value FROM review_meta WHERE key = 'schema'").fetchone()
    assert int(row[0]) == SCHEMA
    ReviewBook(store)  # opening again migrates nothing
    store.conn.execute("UPDATE review_meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(LaughError, match="newer version"):
        ReviewBook(store)


def test_a_failed_sync_leaves_nothing_half_done(store, monkeypatch):
    store.record_answer("a", "count", ["unseen"], True, 5, at=T0)
    store.record_answer("b", "count", ["unseen"], True, 5, at=T0 + 1)
    book = ReviewBook(store)
    calls = {"n": 0}
    real = book.scheduler.review_card

    def flaky(*a, **k):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(book.scheduler, "review_card", flaky)
    with pytest.raises(KeyboardInterrupt):
        book.sync()
    assert store.conn.execute("SELECT COUNT(*) FROM review_cards").fetchone()[0] == 0
    monkeypatch.setattr(book.scheduler, "review_card", real)
    assert book.sync() == 2


def test_the_card_survives_reopening(tmp_path):
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as s:
        s.record_answer("a", "settlement", ["stakes"], False, 10, at=T0)
        first = ReviewBook(s).skills(datetime.fromtimestamp(T0 + 60, UTC))
    with ProgressStore(path) as s:
        again = ReviewBook(s).skills(datetime.fromtimestamp(T0 + 60, UTC))
    assert [(x.skill, x.due, x.stability) for x in first] == [
        (x.skill, x.due, x.stability) for x in again
    ]
    db = sqlite3.connect(path)
    assert db.execute("SELECT COUNT(*) FROM review_cards").fetchone()[0] == 2


def test_render_weak_skills(store):
    import io

    from rich.console import Console

    store.record_answer("a", "count", ["unseen"], False, 5, at=T0)
    now = datetime.fromtimestamp(T0 + 30, UTC)
    for width in (80, 40):
        c = Console(file=io.StringIO(), width=width, color_system=None)
        c.print(render_weak_skills(weak_skills(store, now=now), now, width))
        text = c.file.getvalue()
        # issue 45: in the learner's words, no id and no group (was "count (kind)")
        assert "Count the unseen" in text and "Cards not yet seen" in text
        assert "\ncount " not in text
        assert all(len(x) <= width for x in text.splitlines())
