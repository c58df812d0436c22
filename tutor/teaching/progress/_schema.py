"""The progress file's schema: its tables, the migrations between versions, and the ratings
rebuilt from the answers (private: see :mod:`tutor.teaching.progress`)."""

from __future__ import annotations

import functools
import hashlib
import json
import sqlite3
from pathlib import Path

from tutor.teaching import ratings as R
from tutor.teaching.theme_names import respell_stored_themes

FILE_NAME = "progress.sqlite3"
SCHEMA_VERSION = 3

#: What a sighting (one figure of spotting oversights) came to: a claim that took the cards
#: first; an oversight the learner could have claimed and did not; a claim of nothing.
OUTCOMES = ("hit", "miss", "false_claim")
#: Where a sighting was made: a practice deal (``laugh play``), a match, a drill.
CONTEXTS = ("play", "match", "drill")
#: The longest text a name, id or theme that comes in may be.
MAX_TEXT = 200
#: Kinds of the moments graded in a practice deal or a match that are not puzzle kinds.
PLAY_KINDS = frozenset({"capture-choice", "declaration"})


def known_kinds() -> frozenset[str]:
    """The kinds of answer this program records: the puzzle kinds, and the moments of a
    practice deal or match that are not puzzle kinds (:mod:`tutor.app.play.practice_deal`)."""
    from tutor.puzzles.registry import KINDS

    return frozenset(KINDS) | PLAY_KINDS


#: Times under this many seconds in a schema 1 file were not typed by a person (piped input,
#: a revealed answer): migrated as missing.
_UNTIMED_BELOW = 0.2

_SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS answers (
    id          INTEGER PRIMARY KEY,
    at          REAL    NOT NULL,        -- Unix time the answer was graded
    puzzle_id   TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    themes      TEXT    NOT NULL,        -- JSON list of theme names
    correct     INTEGER NOT NULL,        -- 1 right, 0 wrong
    seconds     REAL    NOT NULL,        -- from the question shown to the answer graded
    hints       INTEGER NOT NULL DEFAULT 0,
    lesson      TEXT,                    -- lesson id, NULL for practice
    ruleset     TEXT,
    retry       INTEGER NOT NULL DEFAULT 0  -- 1 when a failed puzzle is asked again
);
CREATE INDEX IF NOT EXISTS answers_at ON answers(at);
CREATE TABLE IF NOT EXISTS lessons (
    lesson       TEXT PRIMARY KEY,
    seed         INTEGER NOT NULL,
    page         INTEGER NOT NULL DEFAULT 0,
    answered     TEXT    NOT NULL DEFAULT '{}',   -- JSON {slot: true/false}
    started_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL,
    completed_at REAL,                            -- NULL until first completed
    right        INTEGER,                         -- first-try score of the last completion
    total        INTEGER,
    in_progress  INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

_ANSWERS_V2 = """
CREATE TABLE answers_v2 (
    id          INTEGER PRIMARY KEY,
    uid         TEXT    NOT NULL UNIQUE,  -- the answer's identity on every machine
    at          REAL    NOT NULL,         -- Unix time the answer was graded
    puzzle_id   TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    themes      TEXT    NOT NULL,         -- JSON list of theme names
    correct     INTEGER NOT NULL,         -- 1 right, 0 wrong
    seconds     REAL,                     -- question shown to answer graded; NULL: not timed
    hints       INTEGER NOT NULL DEFAULT 0,
    lesson      TEXT,                     -- lesson id, NULL for practice
    ruleset     TEXT,
    retry       INTEGER NOT NULL DEFAULT 0,  -- 1 when a failed puzzle is asked again
    difficulty  INTEGER,                  -- the puzzle's difficulty band 1-5; NULL: unknown
    revealed    INTEGER NOT NULL DEFAULT 0   -- 1 when the learner asked to see the answer
);
"""

_RATINGS_V2 = """
CREATE TABLE IF NOT EXISTS ratings (
    subject    TEXT PRIMARY KEY,   -- learner, kind:<kind>, theme:<theme>, puzzle:<kind>:<band>
    rating     REAL    NOT NULL,
    rd         REAL    NOT NULL,   -- rating deviation
    vol        REAL    NOT NULL,   -- volatility
    games      INTEGER NOT NULL,   -- rated answers that moved it
    updated_at REAL    NOT NULL
);
CREATE TABLE IF NOT EXISTS rating_history (
    id         INTEGER PRIMARY KEY,
    subject    TEXT    NOT NULL,
    at         REAL    NOT NULL,   -- the rated answer's time
    rating     REAL    NOT NULL,
    rd         REAL    NOT NULL,
    vol        REAL    NOT NULL,
    answer_uid TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS rating_history_subject ON rating_history(subject, at, id);
"""


_SIGHTINGS_V3 = """
CREATE TABLE IF NOT EXISTS sightings (
    id          INTEGER PRIMARY KEY,
    uid         TEXT    NOT NULL UNIQUE,  -- its identity on every machine (merges)
    at          REAL    NOT NULL,         -- Unix time it was decided
    context     TEXT    NOT NULL,         -- play, match or drill
    kind        TEXT    NOT NULL,         -- the oversight kind; '' for a false claim naming none
    outcome     TEXT    NOT NULL,         -- hit, miss or false_claim
    seconds     REAL,                     -- a hit: claimable to named; NULL: not timed
    ruleset     TEXT,
    source      TEXT                      -- the deal or puzzle it came from
);
CREATE INDEX IF NOT EXISTS sightings_kind ON sightings(kind, outcome);
"""


def _migrate_0(conn: sqlite3.Connection) -> None:
    for statement in _statements(_SCHEMA_V1):
        conn.execute(statement)


def _migrate_1(conn: sqlite3.Connection) -> None:
    """Schema 1 to 2: answers rebuilt with ``uid``, ``difficulty``, ``revealed`` and a nullable
    ``seconds`` (nothing dropped: see the module docstring); the rating tables made afresh and
    filled from the answers.  (A file of schema 2 marked as schema 1 keeps its uids, bands and
    revealed answers where they are sound.)"""
    have = {r[1] for r in conn.execute("PRAGMA table_info(answers)")}
    extra = [c if c in have else "NULL" for c in ("uid", "difficulty", "revealed")]
    conn.execute("DROP TABLE IF EXISTS answers_v2")
    conn.execute(_ANSWERS_V2)
    seen: set[str] = set()
    rows = conn.execute(
        "SELECT id, at, puzzle_id, kind, themes, correct, seconds, hints, lesson, "
        f"ruleset, retry, {', '.join(extra)} FROM answers ORDER BY id"
    ).fetchall()
    for row in rows:
        conn.execute(
            "INSERT INTO answers_v2 (id, uid, at, puzzle_id, kind, themes, correct, "
            "seconds, hints, lesson, ruleset, retry, difficulty, revealed) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (row[0],) + _v2_answer(row[1:], seen, _UNTIMED_BELOW),
        )
    conn.execute("DROP TABLE answers")
    conn.execute("ALTER TABLE answers_v2 RENAME TO answers")
    conn.execute("CREATE INDEX IF NOT EXISTS answers_at ON answers(at)")
    conn.execute("CREATE INDEX IF NOT EXISTS answers_puzzle ON answers(puzzle_id)")
    conn.execute("DROP TABLE IF EXISTS ratings")
    conn.execute("DROP TABLE IF EXISTS rating_history")
    for statement in _statements(_RATINGS_V2):
        conn.execute(statement)
    _recompute(conn)


def _migrate_2(conn: sqlite3.Connection) -> None:
    """Schema 2 to 3: the ``sightings`` table (the signal-detection figures of spotting
    oversights), empty."""
    for statement in _statements(_SIGHTINGS_V3):
        conn.execute(statement)


def _v2_answer(row: tuple, seen: set[str], untimed_below: float) -> tuple:
    """An answer of an older (or damaged) file as schema 2 keeps it: ``row`` is (at, puzzle_id,
    kind, themes, correct, seconds, hints, lesson, ruleset, retry, uid, difficulty, revealed),
    the result (uid, at, ..., retry, difficulty, revealed).  A uid that is missing, not text or
    one already ``seen`` is made from the answer's values; a time under ``untimed_below`` or over
    a week is missing; a band that is not 1-5 unknown; ``revealed`` only when it is 1."""
    (
        at,
        puzzle_id,
        kind,
        themes,
        correct,
        seconds,
        hints,
        lesson,
        ruleset,
        retry,
        uid,
        difficulty,
        revealed,
    ) = row
    if not isinstance(uid, str) or not uid or uid in seen:
        uid = _content_uid(row[:10])
        n = 1
        while uid in seen:  # two answers alike in every value, time included
            n += 1
            uid = _content_uid(row[:10] + (n,))
    seen.add(uid)
    if seconds is not None and not (untimed_below <= seconds <= _LONGEST):
        seconds = None
    if not (isinstance(difficulty, int) and 1 <= difficulty <= 5):
        difficulty = None
    return (
        uid,
        at,
        puzzle_id,
        kind,
        themes,
        correct,
        seconds,
        hints,
        lesson,
        ruleset,
        retry,
        difficulty,
        int(revealed == 1),
    )


def _content_uid(values: tuple) -> str:
    """A uid made from an answer's values (``m1-`` and 32 hex digits)."""
    text = json.dumps([repr(v) if isinstance(v, float) else v for v in values])
    return "m1-" + hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:32]


#: Migrations: ``_MIGRATIONS[n]`` takes a file from version ``n`` to ``n + 1`` (inside a
#: transaction).
_MIGRATIONS = {0: _migrate_0, 1: _migrate_1, 2: _migrate_2}


def _one_spelling(conn: sqlite3.Connection) -> int:
    """The themes of a file written before there was one name a theme respelled (outside a
    transaction: one of its own, only when an answer changes), the ratings rebuilt and the
    review tables dropped (:func:`tutor.teaching.theme_names.respell_stored_themes`); run after
    the migrations at every open, it reads a file already in the one spelling and writes
    nothing.  Returns how many answers changed."""
    return respell_stored_themes(conn, _recompute)


def _connect(target: Path | str, timeout: float = 5.0) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit), waiting up to ``timeout``
    seconds for another program's lock, that reads text which is not UTF-8 (damage) with
    replacement characters instead of failing on the row."""
    conn = sqlite3.connect(target, timeout=timeout, isolation_level=None)
    conn.text_factory = lambda data: data.decode("utf-8", "replace")
    return conn


@functools.cache
def _expected_columns(version: int = SCHEMA_VERSION) -> dict[str, frozenset[str]]:
    """Every table of schema ``version`` (1 or later) -> its column names."""
    mem = sqlite3.connect(":memory:")
    try:
        for v in range(version):
            _MIGRATIONS[v](mem)
        tables = [r[0] for r in mem.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: frozenset(r[1] for r in mem.execute(f"PRAGMA table_info({t})")) for t in tables}
    finally:
        mem.close()


#: The latest Unix time an answer or lesson may carry (the year 3000): a later one is damage
#: (review schedules add years to it, and Python's dates end in 9999).
_LATEST = 32503680000

#: The longest time an answer may take (a week): a longer one is damage, and a time given to
#: :meth:`ProgressStore.record_answer` beyond it is recorded as missing.
_LONGEST = 7 * 86400

#: Public names of the limits above (an export's values are checked against them on import).
LATEST_TIME, LONGEST_ANSWER = _LATEST, _LONGEST


def _statements(script: str) -> list[str]:
    """Split an SQL script into statements (``executescript`` would commit early)."""
    out, buf = [], ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out


def _recompute(conn: sqlite3.Connection) -> int:
    """Rebuild the rating tables from the answers, oldest first (inside the caller's
    transaction); returns how many answers were rated."""
    conn.execute("DELETE FROM ratings")
    conn.execute("DELETE FROM rating_history")
    state: dict[str, R.Rating] = {}
    games: dict[str, int] = {}
    updated: dict[str, float] = {}
    history = []
    seen: set[str] = set()
    rated = 0
    for (
        uid,
        at,
        puzzle_id,
        kind,
        themes,
        correct,
        hints,
        retry,
        difficulty,
        revealed,
        lesson,
    ) in conn.execute(
        "SELECT uid, at, puzzle_id, kind, themes, correct, hints, retry, "
        "difficulty, revealed, lesson FROM answers ORDER BY at, id"
    ).fetchall():
        first = puzzle_id not in seen
        seen.add(puzzle_id)
        if not R.counts(
            first,
            retry=bool(retry),
            revealed=bool(revealed),
            hints=hints,
            difficulty=difficulty,
            lesson=lesson,
        ):
            continue
        rated += 1
        after = R.rate(
            lambda s: state.get(s) or R.default_rating(s),
            kind,
            difficulty,
            json.loads(themes),
            bool(correct),
        )
        for subject, r in after.items():
            state[subject] = r
            games[subject] = games.get(subject, 0) + 1
            updated[subject] = at
            history.append((subject, at, r.rating, r.rd, r.vol, uid))
    conn.executemany(
        "INSERT INTO ratings (subject, rating, rd, vol, games, updated_at) VALUES "
        "(?, ?, ?, ?, ?, ?)",
        [(k, r.rating, r.rd, r.vol, games[k], updated[k]) for k, r in state.items()],
    )
    conn.executemany(
        "INSERT INTO rating_history (subject, at, rating, rd, vol, answer_uid) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        history,
    )
    return rated
