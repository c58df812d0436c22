"""A damaged progress file moved aside, and every answer, lesson state and setting that can still
be read from it salvaged into the fresh one (private: see :mod:`tutor.teaching.progress`).

One bad row (a time of 1e300), a damaged ratings table or a broken page no longer costs the
learner the rest of the file: the rows are read as far as SQLite can read them (from the start,
and from the end back to a broken page), each kept when the damage checks would pass it
(:func:`tutor.teaching.progress._damage._bad_rows`: the same conditions, so what is salvaged is
never itself damage), and the ratings recomputed from the answers kept.  The review schedules
are left behind: they follow from the answers and are rebuilt when next shown.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from tutor.teaching.progress._damage import DamagedFile, _bad_rows, _check_tables
from tutor.teaching.progress._schema import _UNTIMED_BELOW, SCHEMA_VERSION, _recompute, _v2_answer
from tutor.teaching.theme_names import respell_rows

__all__ = ["Salvaged", "move_aside", "salvage"]

#: The answers' columns in the order :func:`tutor.teaching.progress._schema._v2_answer` takes
#: them, and what a column missing from a damaged file is taken to be.
_ANSWER_COLUMNS = {
    "at": "NULL",
    "puzzle_id": "NULL",
    "kind": "NULL",
    "themes": "NULL",
    "correct": "NULL",
    "seconds": "NULL",
    "hints": "0",
    "lesson": "NULL",
    "ruleset": "NULL",
    "retry": "0",
    "uid": "NULL",
    "difficulty": "NULL",
    "revealed": "0",
}
_LESSON_COLUMNS = {
    "lesson": "NULL",
    "seed": "NULL",
    "page": "0",
    "answered": "'{}'",
    "started_at": "NULL",
    "updated_at": "NULL",
    "completed_at": "NULL",
    "right": "NULL",
    "total": "NULL",
    "in_progress": "0",
}
_META_COLUMNS = {"key": "NULL", "value": "NULL"}
_SIGHTING_COLUMNS = {
    "uid": "NULL",
    "at": "NULL",
    "context": "NULL",
    "kind": "NULL",
    "outcome": "NULL",
    "seconds": "NULL",
    "ruleset": "NULL",
    "source": "NULL",
}


def move_aside(path: Path) -> Path:
    """Rename ``path`` (and its journals, if any) to ``<name>.corrupt-<timestamp>`` beside it;
    return the new path.  Raises OSError when the folder does not allow it."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    path.replace(target)
    for suffix in ("-journal", "-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.replace(target.with_name(target.name + suffix))
    return target


@dataclass
class Salvaged:
    """What :func:`salvage` kept: ``answers``, ``lessons``, ``settings``; ``bad`` rows read
    whose values could not be kept; ``unreadable`` when part of the file could not be read."""

    answers: int = 0
    lessons: int = 0
    settings: int = 0
    sightings: int = 0
    bad: int = 0
    unreadable: bool = False

    def words(self) -> str:
        """One clause for the notice: what was kept and what could not be read."""
        if not (self.answers or self.lessons or self.settings or self.sightings):
            return "nothing could be read from it"
        said = (
            f"{_n(self.answers, 'answer')}, {_n(self.lessons, 'lesson')} and "
            f"{_n(self.settings, 'setting')} kept from it"
        )
        if self.sightings:
            said += f" (and {_n(self.sightings, 'figure')} of spotting oversights)"
        if self.bad:
            said += f", {_n(self.bad, 'row')} could not be read"
        if self.unreadable:
            said += ", and part of it could not be read at all"
        return said + (" (ratings recomputed)" if self.answers else "")


def _n(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def salvage(source: Path, conn: sqlite3.Connection) -> Salvaged:
    """Copy what can be read of the damaged file ``source`` into the fresh store ``conn`` (its
    tables empty, at :data:`SCHEMA_VERSION`), in one transaction, and recompute the ratings.
    Never raises for what ``source`` holds: a file that cannot be read at all salvages
    nothing."""
    out = Salvaged()
    try:
        old = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    except (sqlite3.Error, OSError, ValueError):
        out.unreadable = True
        return out
    old.text_factory = lambda data: data.decode("utf-8", "replace")
    try:
        try:
            version = old.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError:
            version = SCHEMA_VERSION
        version = version if 0 <= version <= SCHEMA_VERSION else SCHEMA_VERSION
        conn.execute("BEGIN IMMEDIATE")
        try:
            _salvage_tables(old, conn, version, out)
            respell_rows(conn)  # one name a theme, as at every open
            _recompute(conn)
            _check_tables(conn, SCHEMA_VERSION)  # what was kept passes the damage checks
            conn.execute("COMMIT")
        except (DamagedFile, sqlite3.DatabaseError):
            conn.execute("ROLLBACK")  # the fresh store stays empty
            return Salvaged(unreadable=True)
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    finally:
        old.close()
    return out


def _salvage_tables(
    old: sqlite3.Connection, conn: sqlite3.Connection, version: int, out: Salvaged
) -> None:
    bad = _bad_rows(max(version, 1))
    # answers: checked as schema 1 checks them (the values an answer cannot do without), then
    # completed as a migration completes them (a uid, a sound time and band)
    rows = _staged(
        old,
        conn,
        "answers",
        _ANSWER_COLUMNS,
        bad["answers"][1] if version < 2 else _bad_rows(1)["answers"][1],
        out,
    )
    seen: set[str] = set()
    untimed = _UNTIMED_BELOW if version < 2 else 0.0
    kept = [_v2_answer(row, seen, untimed) for row in rows]
    conn.executemany(
        "INSERT INTO answers (uid, at, puzzle_id, kind, themes, correct, seconds, "
        "hints, lesson, ruleset, retry, difficulty, revealed) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        kept,
    )
    out.answers = len(kept)
    rows = _staged(old, conn, "lessons", _LESSON_COLUMNS, bad["lessons"][1], out)
    out.lessons = _insert_new(conn, "lessons", _LESSON_COLUMNS, rows, out)
    rows = _staged(old, conn, "meta", _META_COLUMNS, bad["meta"][1], out)
    out.settings = _insert_new(conn, "meta", _META_COLUMNS, rows, out)
    if "sightings" in bad:
        rows = _staged(old, conn, "sightings", _SIGHTING_COLUMNS, bad["sightings"][1], out)
        out.sightings = _insert_new(conn, "sightings", _SIGHTING_COLUMNS, rows, out)


def _insert_new(conn, table: str, columns: dict, rows: list, out: Salvaged) -> int:
    """Insert ``rows``, the first of each key kept; returns how many went in."""
    names = ", ".join(columns)
    marks = ", ".join("?" * len(columns))
    before = conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    conn.executemany(f"INSERT OR IGNORE INTO {table} ({names}) VALUES ({marks})", rows)
    added = conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] - before
    out.bad += len(rows) - added
    return added


def _staged(old, conn, table: str, columns: dict, bad: str, out: Salvaged) -> list[tuple]:
    """The rows of ``table`` in ``old`` that can be read and that ``bad`` does not reject (a
    missing column read as its default), oldest first; rows rejected are counted in
    ``out.bad``."""
    try:
        have = {r[1] for r in old.execute(f"PRAGMA table_info({table})")}
    except sqlite3.DatabaseError:
        out.unreadable = True
        return []
    if not have:
        return []  # the table is gone: nothing of it to read
    select = ", ".join(c if c in have else f"{default} AS {c}" for c, default in columns.items())
    rows, whole = _read(old, f"SELECT rowid, {select} FROM {table}")
    out.unreadable |= not whole
    conn.execute(f"DROP TABLE IF EXISTS temp.salvage_{table}")
    conn.execute(f"CREATE TEMP TABLE salvage_{table} ({', '.join(columns)})")
    conn.executemany(
        f"INSERT INTO temp.salvage_{table} VALUES ({', '.join('?' * len(columns))})", rows
    )
    # The damage conditions name the table (json_each(answers.themes)): the staged copy is
    # read under that name.
    good = conn.execute(
        f"SELECT {', '.join(columns)} FROM temp.salvage_{table} AS {table} "
        f"WHERE coalesce(({bad}), 0) = 0 ORDER BY rowid"
    ).fetchall()
    conn.execute(f"DROP TABLE temp.salvage_{table}")
    out.bad += len(rows) - len(good)
    return good


def _read(old: sqlite3.Connection, sql: str) -> tuple[list[tuple], bool]:
    """The rows of ``sql`` (its first column the rowid) as far as they can be read: from the
    first, and back from the last to a broken page; and whether every row was read."""
    got: dict = {}
    whole = True
    try:
        for row in old.execute(sql + " ORDER BY rowid"):
            got[row[0]] = row[1:]
    except sqlite3.DatabaseError:
        whole = False
        try:
            for row in old.execute(sql + " ORDER BY rowid DESC"):
                if row[0] in got:
                    break
                got[row[0]] = row[1:]
        except sqlite3.DatabaseError:
            pass
    return [got[k] for k in sorted(got)], whole
