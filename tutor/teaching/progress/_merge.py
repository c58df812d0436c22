"""Another machine's progress merged into a store (private: see
:meth:`tutor.teaching.progress.ProgressStore.merge`)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from tutor.puzzles.themes import theme_ids
from tutor.teaching.progress import _values as V
from tutor.teaching.progress._schema import _LONGEST, _recompute
from tutor.teaching.progress._store_rows import Answer, LessonState, Sighting, _state
from tutor.teaching.progress._writes import set_meta


def check(
    answers: list[Answer],
    lessons: list[LessonState],
    meta: dict[str, str],
    sightings: Sequence[Sighting] = (),
) -> None:
    """Raise :class:`~tutor.teaching.progress._values.StoreValueError` for the first value the
    store cannot keep (as :func:`tutor.teaching.transfer.read_export` has already refused for an
    export; other callers are held to the same)."""
    for a in answers:
        V.text(a.uid, "an answer's uid")
        V.moment(a.at, f"the time of the answer {a.uid!r}")
        V.text(a.puzzle_id, "a puzzle id")
        V.text(a.kind, "a kind")
        for theme in a.themes:
            V.text(theme, "a theme")
        if a.seconds is not None and not (
            isinstance(a.seconds, (int, float)) and 0 <= a.seconds <= _LONGEST
        ):
            raise V.StoreValueError(
                f"the progress store cannot keep the time {V.shown(a.seconds)}"
                f" of the answer {a.uid!r}: from 0 to {_LONGEST} seconds"
            )
        V.whole(a.hints, "a count of hints", 0)
        V.text(a.lesson, "a lesson id", optional=True)
        V.text(a.ruleset, "a ruleset id", optional=True)
        V.band(a.difficulty)
    for s in lessons:
        V.text(s.lesson, "a lesson id")
        V.whole(s.seed, "a lesson's seed")
        V.whole(s.page, "a lesson's page", 0)
        V.moment(s.started_at, "a lesson's start")
        V.moment(s.updated_at, "a lesson's last change")
        if s.completed_at is not None:
            V.moment(s.completed_at, "a lesson's completion")
        for n in (s.right, s.total):
            if n is not None:
                V.whole(n, "a lesson's score", 0)
        for slot in s.answered:
            V.text(slot, "a lesson slot")
    for key, value in meta.items():
        V.text(key, "a setting's name")
        V.text(value, f"the setting {key!r}")
    for sg in sightings:
        V.text(sg.uid, "a sighting's uid")
        V.moment(sg.at, f"the time of the sighting {sg.uid!r}")
        V.context(sg.context)
        V.text(sg.kind, "an oversight kind")
        V.outcome(sg.outcome)
        if sg.seconds is not None and not (
            isinstance(sg.seconds, (int, float)) and 0 <= sg.seconds <= _LONGEST
        ):
            raise V.StoreValueError(
                f"the progress store cannot keep the time "
                f"{V.shown(sg.seconds)} of the sighting {sg.uid!r}"
            )
        V.text(sg.ruleset, "a ruleset id", optional=True)
        V.text(sg.source, "a source", optional=True)


def merge(
    conn: sqlite3.Connection,
    answers: list[Answer],
    lessons: list[LessonState],
    meta: dict[str, str],
    sightings: Sequence[Sighting] = (),
) -> int:
    """Merge inside the caller's transaction (see the store's :meth:`merge`); returns how many
    answers were added."""
    before = conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
    conn.executemany(
        "INSERT INTO answers (uid, at, puzzle_id, kind, themes, correct, seconds, hints, "
        "lesson, ruleset, retry, difficulty, revealed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) "
        "ON CONFLICT(uid) DO NOTHING",
        [
            (
                a.uid,
                a.at,
                a.puzzle_id,
                a.kind,
                json.dumps(theme_ids(a.themes)),
                int(a.correct),
                a.seconds,
                a.hints,
                a.lesson,
                a.ruleset,
                int(a.retry),
                a.difficulty,
                int(a.revealed),
            )
            for a in answers
        ],
    )
    added = conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0] - before
    conn.executemany(
        "INSERT INTO sightings (uid, at, context, kind, outcome, seconds, ruleset, source) "
        "VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(uid) DO NOTHING",
        [
            (s.uid, s.at, s.context, s.kind, s.outcome, s.seconds, s.ruleset, s.source)
            for s in sightings
        ],
    )
    for theirs in lessons:
        _merge_lesson(conn, theirs)
    for key, value in meta.items():
        _merge_meta(conn, key, value)
    _recompute(conn)
    if added:
        conn.execute("DROP TABLE IF EXISTS review_cards")
        conn.execute("DROP TABLE IF EXISTS review_meta")
    return added


def _merge_lesson(conn: sqlite3.Connection, theirs: LessonState) -> None:
    row = conn.execute(
        "SELECT lesson, seed, page, answered, started_at, updated_at, completed_at, right, "
        "total, in_progress FROM lessons WHERE lesson = ?",
        (theirs.lesson,),
    ).fetchone()
    if row is None:
        mine = theirs
    else:
        mine = _state(row)
        attempt = theirs if theirs.updated_at > mine.updated_at else mine
        done = mine
        if theirs.completed_at is not None and (
            mine.completed_at is None or theirs.completed_at > mine.completed_at
        ):
            done = theirs
        mine = LessonState(
            attempt.lesson,
            attempt.seed,
            attempt.page,
            attempt.answered,
            attempt.started_at,
            max(mine.updated_at, theirs.updated_at),
            done.completed_at,
            done.right,
            done.total,
            attempt.in_progress,
        )
    conn.execute(
        "INSERT INTO lessons (lesson, seed, page, answered, started_at, updated_at, "
        "completed_at, right, total, in_progress) VALUES (?,?,?,?,?,?,?,?,?,?) "
        "ON CONFLICT(lesson) DO UPDATE SET seed = excluded.seed, page = excluded.page, "
        "answered = excluded.answered, started_at = excluded.started_at, "
        "updated_at = excluded.updated_at, completed_at = excluded.completed_at, "
        "right = excluded.right, total = excluded.total, in_progress = excluded.in_progress",
        (
            mine.lesson,
            mine.seed,
            mine.page,
            json.dumps(mine.answered),
            mine.started_at,
            mine.updated_at,
            mine.completed_at,
            mine.right,
            mine.total,
            int(mine.in_progress),
        ),
    )


def _merge_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    if row is None:
        set_meta(conn, key, value)
    elif key.endswith(".best"):
        try:
            if float(value) > float(row[0]):
                set_meta(conn, key, value)
        except ValueError:
            pass
