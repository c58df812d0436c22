"""Damage: a progress file this program could not have written (its header, tables, columns,
types, ranges and JSON checked before any migration), and errors that come from where the file
is rather than what it holds (private: see :mod:`tutor.teaching.progress`)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tutor.engine.errors import LaughError
from tutor.engine.infile import open_input
from tutor.teaching.progress._schema import (
    _LATEST,
    _LONGEST,
    _MIGRATIONS,
    SCHEMA_VERSION,
    _expected_columns,
    _one_spelling,
)


def _said(exc: BaseException) -> str:
    """An error's message on one line, cut to 200 characters (SQLite's integrity check can
    report a page of problems)."""
    text = " ".join(str(exc).split())
    return text if len(text) <= 200 else text[:197] + "..."


#: SQLite errors that come from where the file is (permissions, locks, a full disk), not from
#: what it holds: the file is not damaged, it just cannot be written (or read) now.
_ENVIRONMENTAL = (
    "SQLITE_READONLY",
    "SQLITE_CANTOPEN",
    "SQLITE_PERM",
    "SQLITE_BUSY",
    "SQLITE_LOCKED",
    "SQLITE_IOERR",
    "SQLITE_FULL",
    "SQLITE_AUTH",
)


def _environmental(exc: sqlite3.DatabaseError) -> bool:
    return getattr(exc, "sqlite_errorname", "").startswith(_ENVIRONMENTAL)


class DamagedFile(sqlite3.DatabaseError):
    """A progress file that SQLite reads but whose tables or values are not what this program
    wrote (a dropped table, a missing column, a value of the wrong type, invalid JSON)."""


_THEMES_OK = (
    "CASE WHEN typeof(themes) = 'text' AND json_valid(themes) "
    "THEN json_type(themes) <> 'array' "
    "OR EXISTS (SELECT 1 FROM json_each(answers.themes) WHERE type <> 'text') "
    "ELSE 1 END"
)
_RATING_OK = (
    "typeof(rating) <> 'real' OR typeof(rd) <> 'real' OR typeof(vol) <> 'real' "
    "OR NOT (rating BETWEEN -10000 AND 10000) OR NOT (rd > 0 AND rd <= 1000) "
    "OR NOT (vol > 0 AND vol < 1)"
)


def _bad_rows(version: int) -> dict[str, tuple[str, str]]:
    """Per table of schema ``version``, its key column and the condition true of a row whose
    values this program could not have written: wrong SQLite types, values out of range, and
    JSON that is invalid or of the wrong shape.  (Each condition is true, false or NULL: a
    row is bad when it is true.)"""
    answers = (
        "typeof(at) NOT IN ('real', 'integer') "
        f"OR at NOT BETWEEN 0 AND {_LATEST} "
        "OR typeof(puzzle_id) <> 'text' OR typeof(kind) <> 'text' "
        "OR typeof(correct) <> 'integer' "
        "OR typeof(hints) <> 'integer' OR typeof(retry) <> 'integer' "
        "OR typeof(lesson) NOT IN ('text', 'null') OR typeof(ruleset) NOT IN ('text', 'null') "
    )
    if version >= 2:
        answers += (
            "OR typeof(uid) <> 'text' "
            "OR typeof(seconds) NOT IN ('real', 'integer', 'null') "
            f"OR seconds NOT BETWEEN 0 AND {_LONGEST} "
            "OR typeof(difficulty) NOT IN ('integer', 'null') "
            "OR difficulty NOT BETWEEN 1 AND 5 OR typeof(revealed) <> 'integer' "
        )
    else:  # (a NULL time is let through: the migration reads it as a missing time)
        answers += "OR typeof(seconds) NOT IN ('real', 'integer', 'null') "
    bad = {
        "answers": ("id", answers + f"OR {_THEMES_OK}"),
        "lessons": (
            "lesson",
            (
                "typeof(lesson) <> 'text' "
                "OR typeof(seed) <> 'integer' OR typeof(page) <> 'integer' "
                "OR typeof(started_at) NOT IN ('real', 'integer') "
                "OR typeof(updated_at) NOT IN ('real', 'integer') "
                "OR typeof(completed_at) NOT IN ('real', 'integer', 'null') "
                f"OR started_at NOT BETWEEN 0 AND {_LATEST} OR updated_at NOT BETWEEN 0 AND {_LATEST} "
                f"OR completed_at NOT BETWEEN 0 AND {_LATEST} "
                "OR typeof(right) NOT IN ('integer', 'null') OR typeof(total) NOT IN ('integer', 'null') "
                "OR typeof(in_progress) <> 'integer' "
                "OR CASE WHEN typeof(answered) = 'text' AND json_valid(answered) "
                "THEN json_type(answered) <> 'object' "
                "OR EXISTS (SELECT 1 FROM json_each(lessons.answered) WHERE type IN ('object', 'array')) "
                "ELSE 1 END"
            ),
        ),
        "meta": ("key", "typeof(key) <> 'text' OR typeof(value) <> 'text'"),
    }
    if version >= 2:
        bad["ratings"] = (
            "subject",
            (
                "typeof(subject) <> 'text' "
                f"OR typeof(games) <> 'integer' OR games < 0 OR {_RATING_OK} "
                "OR typeof(updated_at) NOT IN ('real', 'integer') "
                f"OR updated_at NOT BETWEEN 0 AND {_LATEST}"
            ),
        )
        bad["rating_history"] = (
            "id",
            (
                "typeof(subject) <> 'text' "
                "OR typeof(answer_uid) <> 'text' OR typeof(at) NOT IN ('real', 'integer') "
                f"OR at NOT BETWEEN 0 AND {_LATEST} OR {_RATING_OK}"
            ),
        )
    if version >= 3:
        bad["sightings"] = (
            "id",
            (
                "typeof(uid) <> 'text' OR typeof(at) NOT IN ('real', 'integer') "
                f"OR at NOT BETWEEN 0 AND {_LATEST} OR typeof(context) <> 'text' "
                "OR typeof(kind) <> 'text' OR typeof(outcome) <> 'text' "
                "OR outcome NOT IN ('hit', 'miss', 'false_claim') "
                "OR typeof(seconds) NOT IN ('real', 'integer', 'null') "
                f"OR seconds NOT BETWEEN 0 AND {_LONGEST} "
                "OR typeof(ruleset) NOT IN ('text', 'null') OR typeof(source) NOT IN ('text', 'null')"
            ),
        )
    return bad


def _row_checks(version: int) -> dict[str, str]:
    """One query per table of schema ``version`` finding the first row this program could not
    have written (:func:`_bad_rows`)."""
    return {
        table: f"SELECT {key} FROM {table} WHERE {bad} LIMIT 1"
        for table, (key, bad) in _bad_rows(version).items()
    }


def _check_and_migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Check an opened file and bring it to :data:`SCHEMA_VERSION`.

    Raises :class:`sqlite3.DatabaseError` for a file SQLite cannot read or that fails its
    integrity check, :class:`DamagedFile` for a header, table, column, type or JSON value this
    program did not write, and :class:`LaughError` for a file of a newer schema.  Tables are
    checked before any migration writes, so a damaged file is moved aside as it was found.
    After the migrations, themes of an older spelling are respelled
    (:func:`tutor.teaching.progress._schema._one_spelling`: nothing written when there are none).
    """
    try:
        # The integrity check, not the quick check: only it finds an index that lost a row.
        ok = conn.execute("PRAGMA integrity_check").fetchone()[0]
        if ok != "ok":
            raise sqlite3.DatabaseError(f"integrity check: {ok}")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise LaughError(
                f"the progress file {path} was written by a newer version "
                f"of the program (schema {version}, this one knows "
                f"{SCHEMA_VERSION}); update the program"
            )
        if version < 0:
            raise DamagedFile(f"the schema version is {version}")
        _check_tables(conn, version)
        _probe(conn)
        while version < SCHEMA_VERSION:
            conn.execute("BEGIN IMMEDIATE")
            try:
                _MIGRATIONS[version](conn)
                conn.execute(f"PRAGMA user_version = {version + 1}")
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            version += 1
        _one_spelling(conn)  # one name a theme (older spellings merged)
    except UnicodeDecodeError:
        # SQLite quotes a damaged schema in its error message, and the bytes are not UTF-8.
        raise DamagedFile("the file's schema is not readable") from None


def _probe(conn: sqlite3.Connection) -> None:
    """A write, rolled back: raises :class:`sqlite3.OperationalError` (``SQLITE_READONLY...``,
    ``SQLITE_CANTOPEN``, ``SQLITE_BUSY``) when the file or its folder cannot be written now."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("CREATE TABLE _write_probe (x)")
    finally:
        if conn.in_transaction:  # an I/O error or a full disk may have rolled it back
            conn.execute("ROLLBACK")  # (a second error here would hide the first)


def _check_header(path: Path) -> None:
    """Raise :class:`DamagedFile` when ``path`` is an SQLite file whose header this program
    never writes: a write-ahead log (which even reading would add files beside) or a file
    format newer than SQLite's own (which no one may write)."""
    try:
        with open_input(path) as fh:  # never waits on a FIFO
            head = fh.read(20)
    except OSError:
        return  # SQLite will say why it cannot open it
    if (
        len(head) == 20
        and head.startswith(b"SQLite format 3\x00")
        and (head[18], head[19]) != (1, 1)
    ):
        raise DamagedFile(
            "its header is not one this program writes (file format versions "
            f"{head[18]} and {head[19]}, not 1)"
        )


def _check_tables(conn: sqlite3.Connection, version: int) -> None:
    """Raise :class:`DamagedFile` naming the first missing table (every table of its schema
    must be there in a file of schema 1 or later; a file of version 0, made before schemas were
    numbered, is checked for the tables it has) or column of schema ``version``, or the first
    row holding a value of the wrong type or invalid JSON."""
    every = version >= 1
    version = max(version, 1)  # a file of version 0 is checked as schema 1
    present = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for table, columns in _expected_columns(version).items():
        if table not in present and not every:
            continue
        have = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
        if not have:
            raise DamagedFile(f"the table {table} is missing")
        missing = sorted(columns - have)
        if missing:
            raise DamagedFile(f"the table {table} has no column {missing[0]}")
    for table, sql in _row_checks(version).items():
        if table not in present:
            continue
        try:
            row = conn.execute(sql).fetchone()
        except sqlite3.OperationalError as exc:
            if "no such function" not in str(exc):
                raise
            row = _python_row_check(conn, table)  # SQLite built without its JSON functions
        if row is not None:
            raise DamagedFile(
                f"the table {table}, row {row[0]!r}, holds a value of the wrong "
                "type or invalid JSON"
            )


def _python_row_check(conn: sqlite3.Connection, table: str) -> tuple | None:
    """The JSON part of :func:`_row_checks` done in Python, for SQLite without JSON functions."""
    if table == "answers":
        for rid, themes in conn.execute("SELECT id, themes FROM answers"):
            value = _json_or_none(themes)
            if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
                return (rid,)
    elif table == "lessons":
        for lesson, answered in conn.execute("SELECT lesson, answered FROM lessons"):
            value = _json_or_none(answered)
            if not isinstance(value, dict) or any(
                isinstance(v, (dict, list)) for v in value.values()
            ):
                return (lesson,)
    return None


def _json_or_none(text) -> object:
    if not isinstance(text, str):
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None
