"""The progress store: schema version, every answer committed at once, lesson state, corrupt
files moved aside, tallies for the statistics."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from tutor.engine.errors import LaughError
from tutor.teaching.progress import FILE_NAME, SCHEMA_VERSION, ProgressStore, default_path

from support import ROOT


def test_default_path_follows_laugh_home(tmp_path, monkeypatch):
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / FILE_NAME
    with ProgressStore() as store:
        assert store.path.is_file()


def test_new_file_has_the_schema_version(tmp_path):
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        assert store.schema_version == SCHEMA_VERSION == 2
        assert store.notice is None
    conn = sqlite3.connect(tmp_path / "p.sqlite3")
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"answers", "lessons", "meta"} <= tables


def test_answers_last_across_runs(tmp_path):
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        store.record_answer("count.parlett.5.1", "count", ["counting", "unseen"], True, 4.5,
                            hints=1, ruleset="parlett")
        store.record_answer("count.parlett.5.2", "count", ["counting"], False, 9.0)
    with ProgressStore(path) as store:
        answers = store.answers()
    assert [(a.puzzle_id, a.correct, a.seconds, a.hints) for a in answers] == [
        ("count.parlett.5.1", True, 4.5, 1), ("count.parlett.5.2", False, 9.0, 0)]
    assert answers[0].themes == ("counting", "unseen")


def test_an_answer_may_have_no_time(tmp_path):
    """Answers not typed at a terminal record no time (None), never 0.0 s; the mean time of a
    tally counts only the answers that have one."""
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        store.record_answer("count.parlett.5.1", "count", ["counting"], True, 4.0)
        store.record_answer("count.parlett.5.2", "count", ["counting"], False, None)
        store.record_answer("count.parlett.5.3", "count", ["counting"], True, 6.0)
    with ProgressStore(path) as store:
        assert [a.seconds for a in store.answers()] == [4.0, None, 6.0]
        (t,) = store.tallies("kind")
        assert (t.n, t.right, t.timed) == (3, 2, 2) and t.mean_seconds == pytest.approx(5.0)


def test_a_version_1_file_is_migrated_with_its_answers(tmp_path):
    from tutor.teaching.progress import _SCHEMA_V1, _statements
    path = tmp_path / "p.sqlite3"
    conn = sqlite3.connect(path)
    for statement in _statements(_SCHEMA_V1):
        conn.execute(statement)
    conn.execute("INSERT INTO answers (at, puzzle_id, kind, themes, correct, seconds) VALUES "
                 "(1.0, 'count.parlett.5.1', 'count', '[\"counting\"]', 1, 3.5)")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with ProgressStore(path) as store:
        assert store.schema_version == 2 and store.notice is None
        store.record_answer("count.parlett.5.2", "count", ["counting"], True, None)
        assert [(a.puzzle_id, a.seconds) for a in store.answers()] == [
            ("count.parlett.5.1", 3.5), ("count.parlett.5.2", None)]


def test_an_answer_is_committed_before_a_crash(tmp_path):
    """A process that records an answer and dies at once (no close, no clean exit) loses
    nothing: the answer was committed in its own transaction."""
    path = tmp_path / "p.sqlite3"
    code = ("import os; from tutor.teaching.progress import ProgressStore; "
            f"s = ProgressStore({str(path)!r}); s.start_lesson('terms', 7); "
            "s.record_answer('x.parlett.5.1', 'count', ['counting'], True, 2.0, "
            "lesson='terms', slot='3.0'); os._exit(9)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT))
    assert proc.returncode == 9
    with ProgressStore(path) as store:
        assert store.answer_count() == 1
        assert store.lesson_state("terms").answered == {"3.0": True}


def test_a_failed_transaction_rolls_back_only_itself(tmp_path):
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        store.record_answer("a.parlett.5.1", "count", [], True, 1.0)
        with pytest.raises(KeyboardInterrupt):
            with store._transaction():
                store.conn.execute("INSERT INTO meta (key, value) VALUES ('x', 'y')")
                raise KeyboardInterrupt
        assert store.get_meta("x") is None
        assert store.answer_count() == 1


def test_lesson_state_start_save_complete(tmp_path):
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        assert store.lesson_state("terms") is None
        state = store.start_lesson("terms", 42)
        assert (state.seed, state.page, state.answered, state.in_progress) == (42, 0, {}, True)
        store.save_page("terms", 2)
        store.record_answer("p1", "count", [], False, 3.0, lesson="terms", slot="4.0")
        store.record_answer("p1", "count", [], True, 3.0, lesson="terms", slot="4.0", retry=True)
        state = store.lesson_state("terms")
        assert state.page == 2 and state.answered == {"4.0": False}
        assert store.last_lesson() == "terms"
        store.complete_lesson("terms", 2, 3)
        state = store.lesson_state("terms")
        assert state.completed and not state.in_progress and (state.right, state.total) == (2, 3)
        again = store.start_lesson("terms", 43)
        assert again.completed and again.in_progress and again.answered == {}


@pytest.mark.parametrize("garbage", [b"this is not a database at all" * 40, b"\x00\xff" * 3000])
def test_a_corrupt_file_is_moved_aside(tmp_path, garbage):
    path = tmp_path / FILE_NAME
    path.write_bytes(garbage)
    with ProgressStore(path) as store:
        assert store.notice is not None
        assert "moved to progress.sqlite3.corrupt-" in store.notice
        assert "\n" not in store.notice
        store.record_answer("p", "count", [], True, 1.0)
        assert store.answer_count() == 1
    aside = list(tmp_path.glob(FILE_NAME + ".corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == garbage


def test_a_damaged_page_is_found_by_the_quick_check(tmp_path):
    path = tmp_path / FILE_NAME
    with ProgressStore(path) as store:
        for i in range(400):
            store.record_answer(f"p{i}", "count", ["counting"] * 5, True, 1.0)
    data = bytearray(path.read_bytes())
    page = 4096
    for i in range(page * 2 + 100, min(len(data), page * 4)):   # scribble over interior pages
        data[i] = 0xAB
    path.write_bytes(bytes(data))
    with ProgressStore(path) as store:
        assert store.notice is not None
        assert store.answer_count() == 0
    assert list(tmp_path.glob(FILE_NAME + ".corrupt-*"))


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / FILE_NAME
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(LaughError, match="written by a newer version"):
        ProgressStore(path)


def test_tallies_weakest_first_and_timeline(tmp_path):
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        day = 86400 * 20000
        store.record_answer("a", "count", ["counting", "unseen"], True, 2.0, at=day)
        store.record_answer("b", "count", ["counting"], False, 6.0, at=day + 10)
        store.record_answer("c", "settlement", ["stakes"], False, 8.0, at=day + 86400)
        store.record_answer("d", "settlement", ["stakes"], False, 4.0, at=day + 86400)
        themes = store.tallies("theme")
        assert [t.name for t in themes] == ["stakes", "counting", "unseen"]
        assert (themes[0].accuracy, themes[0].mean_seconds) == (0.0, 6.0)
        kinds = store.tallies("kind")
        assert [(k.name, k.right, k.n) for k in kinds] == [("settlement", 0, 2), ("count", 1, 2)]
        days = store.timeline()
        assert [(d.n, d.right) for d in days] == [(2, 1), (2, 0)]
        with pytest.raises(ValueError):
            store.tallies("colour")


def test_an_unwritable_home_is_one_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(LaughError, match="cannot create the progress folder"):
        ProgressStore(blocker / "sub" / FILE_NAME)
