"""Fuzzing the progress database: random bytes, a real file with bytes overwritten, tables and
columns dropped, values of any type (and JSON that is not JSON) written into any column, stray
journals, other schema versions.  The store opens (moving a damaged file aside, losing nothing,
with one line saying where it went) or refuses a newer schema in one line; everything the
program asks of it then works; read-only it never changes the file; ``laugh stats`` exits 0 or
1, never with a traceback.

Short by default; ``pytest -m fuzz`` runs the long profile (see tests/conftest.py)."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path

import pytest
from fuzzing import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from tutor.app.cli import main
from tutor.engine.errors import LaughError
from tutor.teaching.progress import FILE_NAME, ProgressStore
from tutor.teaching.spaced_review import weak_skills

pytestmark = pytest.mark.fuzz

TABLES = {
    "answers": [
        "at",
        "puzzle_id",
        "kind",
        "themes",
        "correct",
        "seconds",
        "hints",
        "lesson",
        "ruleset",
        "retry",
        "uid",
        "difficulty",
        "revealed",
    ],
    "lessons": [
        "lesson",
        "seed",
        "page",
        "answered",
        "started_at",
        "updated_at",
        "completed_at",
        "right",
        "total",
        "in_progress",
    ],
    "meta": ["key", "value"],
    "ratings": ["subject", "rating", "rd", "vol", "games", "updated_at"],
    "rating_history": ["subject", "at", "rating", "rd", "vol", "answer_uid"],
    "review_cards": ["skill", "card", "reviews", "lapses", "right", "updated_at"],
    "review_meta": ["key", "value"],
}


def _filled() -> bytes:
    """A progress file with lessons, answers (some untimed), ratings and review schedules."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / FILE_NAME
        with ProgressStore(path) as store:
            store.start_lesson("terms", 7)
            store.start_lesson("history", 8)
            store.complete_lesson("history", 2, 3)
            for i in range(30):
                store.record_answer(
                    f"count.parlett.5.{i}",
                    "count" if i % 3 else "settlement",
                    ["counting", "unseen"][: 1 + i % 2],
                    i % 4 != 0,
                    1.0 + i if i % 5 else None,
                    hints=i % 2 * (i % 3 == 0),
                    lesson="terms" if i < 5 else None,
                    slot=f"1.{i}" if i < 5 else None,
                    difficulty=1 + i % 5,
                )
            weak_skills(store)
        return path.read_bytes()


FILLED = _filled()

any_value = (
    st.none()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.binary(max_size=12)
    | st.sampled_from(
        [
            "[",
            "{}",
            "[1]",
            '["x"]',
            '{"1.0": [[1]]}',
            "null",
            '"x"',
            '{"card_id": 1}',
            "9" * 40,
            "1e999",
            "-1",
            "\ud800",
        ]
    )
)


def _damage_sql(data, path: Path) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for _ in range(data.draw(st.integers(1, 3), label="statements")):
            table = data.draw(st.sampled_from(sorted(TABLES)), label="table")
            column = data.draw(st.sampled_from(TABLES[table]), label="column")
            how = data.draw(
                st.sampled_from(
                    ["drop", "drop column", "update", "insert", "delete", "rename", "version"]
                ),
                label="how",
            )
            try:
                if how == "drop":
                    conn.execute(f"DROP TABLE {table}")
                elif how == "drop column":
                    conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
                elif how == "update":
                    row = data.draw(st.integers(0, 30), label="row")
                    conn.execute(
                        f"UPDATE {table} SET {column} = ? WHERE rowid = (SELECT rowid "
                        f"FROM {table} LIMIT 1 OFFSET {row})",
                        (data.draw(any_value, label="value"),),
                    )
                elif how == "insert":
                    cols = TABLES[table]
                    vals = [data.draw(any_value, label=f"{c}") for c in cols]
                    conn.execute(
                        f"INSERT INTO {table} ({', '.join(cols)}) VALUES "
                        f"({', '.join('?' * len(cols))})",
                        vals,
                    )
                elif how == "delete":
                    conn.execute(f"DELETE FROM {table}")
                elif how == "rename":
                    conn.execute(f"ALTER TABLE {table} RENAME TO {table}_old")
                else:
                    conn.execute(f"PRAGMA user_version = {data.draw(st.integers(0, 3), label='v')}")
            except (sqlite3.Error, OverflowError, ValueError):
                pass  # not every damage applies (a column in an index, a constraint)
    finally:
        conn.close()


def _damaged(data, path: Path) -> None:
    how = data.draw(
        st.sampled_from(["bytes", "header", "overwrite", "sql", "journal"]), label="damage"
    )
    if how == "bytes":
        path.write_bytes(data.draw(st.binary(max_size=5000), label="bytes"))
    elif how == "header":
        path.write_bytes(
            b"SQLite format 3\x00" + data.draw(st.binary(max_size=5000), label="bytes")
        )
    elif how == "overwrite":
        raw = bytearray(FILLED)
        for _ in range(data.draw(st.integers(1, 20), label="overwrites")):
            at = data.draw(st.integers(0, len(raw) - 1), label="at")
            raw[at] = data.draw(st.integers(0, 255), label="byte")
        path.write_bytes(bytes(raw))
    else:
        path.write_bytes(FILLED)
        _damage_sql(data, path)
        if how == "journal":
            path.with_name(FILE_NAME + "-journal").write_bytes(
                data.draw(st.binary(min_size=1, max_size=2000), label="journal")
            )


def _use(store: ProgressStore) -> None:
    """Everything the program asks of a store: reading, tallies, schedules, and writing."""
    n = store.answer_count()
    assert len(store.answers()) == n
    store.tallies("theme"), store.tallies("kind"), store.timeline()
    states = store.lesson_states()
    for lesson in states:
        store.lesson_state(lesson)
    store.last_lesson()
    weak_skills(store)
    state = store.start_lesson("terms", 11)
    assert state.seed == 11 and state.page == 0
    store.record_answer(
        "count.parlett.5.99",
        "count",
        ["counting"],
        True,
        2.0,
        lesson="terms",
        slot="1.0",
        difficulty=3,
    )
    store.learner_rating(), store.rating_history(), store.choose_difficulty("count")
    store.save_page("terms", 1)
    store.complete_lesson("terms", 1, 1)
    store.set_meta("x", "y")
    assert store.answer_count() == n + 1 and store.get_meta("x") == "y"
    weak_skills(store)


@fuzz_settings(cost=0.14, short=10)
@given(st.data())
def test_a_damaged_progress_file_is_moved_aside_or_refused_in_one_line(tmp_path, capsys, data):
    folder = tmp_path / f"home{len(list(tmp_path.iterdir()))}"
    folder.mkdir()
    path = folder / FILE_NAME
    _damaged(data, path)
    damaged = path.read_bytes()

    # Statistics: a copy in memory; the file is never changed, whatever it holds.
    try:
        with ProgressStore(path, read_only=True) as store:
            assert store.notice is None or "\n" not in store.notice
            _use(store)
    except LaughError as exc:
        assert "newer version" in str(exc) and "\n" not in str(exc)
    assert path.read_bytes() == damaged and sorted(p.name for p in folder.iterdir()) in (
        [FILE_NAME],
        [FILE_NAME, FILE_NAME + "-journal"],
    )

    env = {"LAUGH_HOME": str(folder), "NO_COLOR": "1"}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        capsys.readouterr()
        code = main(["stats"])
        out, err = capsys.readouterr()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    assert code in (0, 1) and "Traceback" not in out + err
    assert path.read_bytes() == damaged

    # Lessons and puzzles: the file opens, or is moved aside (nothing lost) and a fresh one made.
    try:
        store = ProgressStore(path)
    except LaughError as exc:
        assert "newer version" in str(exc) and "\n" not in str(exc)
        # Statistics say so too, unless an unfinished change (a journal) kept them from reading.
        assert (code == 1 and err.strip() == f"laugh: {exc}") or "left unfinished" in out
        return
    with store:
        assert store.saving
        if store.notice is not None:
            assert "\n" not in store.notice
            aside = [
                p
                for p in folder.iterdir()
                if ".corrupt-" in p.name and not p.name.endswith(("-journal", "-wal", "-shm"))
            ]
            assert len(aside) == 1 and aside[0].name in store.notice
            assert aside[0].read_bytes() == damaged
        _use(store)
    with ProgressStore(path) as again:
        assert again.notice is None and again.answer_count() >= 1
