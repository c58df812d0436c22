"""The learner's progress: an SQLite file that lasts across runs.

The file is ``progress.sqlite3`` in :func:`tutor.engine.data.laugh_home` (``$LAUGH_HOME`` or the
platform's user data directory).  Its schema version is SQLite's ``PRAGMA user_version``
(:data:`SCHEMA_VERSION`); older files are migrated when opened.

- Every answer is one row of ``answers`` (a unique ``uid``, puzzle id, kind, themes, right or
  wrong, seconds taken, hints used, the puzzle's difficulty band, whether the answer was
  revealed), committed in its own transaction the moment it is graded, so a crash or Ctrl-C
  loses nothing already answered.  ``seconds`` is NULL when the answer was not typed at a
  terminal (piped input, an answer revealed): a missing time is missing, never 0.
- ``ratings`` keeps every Glicko-2 rating (:mod:`tutor.teaching.ratings`): the learner overall,
  per kind and per theme, and every puzzle band (kind x difficulty); ``rating_history`` each
  rating after every rated answer.  Both follow from the answers (:meth:`recompute_ratings`);
  :meth:`record_answer` updates them in the answer's own transaction.
- ``lessons`` keeps each lesson's state: the seed of the current attempt, the page reached, the
  answers given so far (so a lesson resumes with the same puzzles), and when it was completed.
- ``meta`` keeps small settings (the last lesson opened, the drills' best scores).

Schema 2 (this version) added the ``uid``, ``difficulty`` and ``revealed`` columns, a nullable
``seconds``, and the rating tables.  Migrating a schema 1 file keeps every answer: each gets a
``uid`` made from its contents (so two copies of one old file migrate to the same uids and
merge without duplicates), and a time under 0.2 s (a piped or revealed answer, which schema 1
recorded as about 0 s) becomes NULL.  Answers of schema 1 have no difficulty band and so move
no rating.

:meth:`merge` takes another store's answers, lessons and settings (``laugh progress import``):
answers are keyed by ``uid`` and never duplicated, and the ratings are recomputed from the
merged answers.

A file that is not a database, fails SQLite's integrity check, lacks a table or column, or holds a
value of the wrong type or invalid JSON in a column, is damaged: it is moved aside (nothing is
deleted) to ``progress.sqlite3.corrupt-<timestamp>`` beside it and a fresh one started;
:attr:`ProgressStore.notice` says so in one line for the caller to show.

A file that cannot be written (a read-only file or folder, a folder that cannot be created) is
never a Python error: the store reads what it can into memory and goes on without saving, and
:attr:`ProgressStore.notice` says in one line that progress cannot be saved and why.  Opened
with ``read_only=True`` (statistics), the store never writes to the file or its folder at all:
it works on a copy in memory.
"""

from __future__ import annotations

import functools
import hashlib
import json
import sqlite3
import statistics
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from tutor.engine.errors import LaughError
from tutor.puzzles.themes import theme_ids
from tutor.teaching import ratings as R
from tutor.teaching.theme_names import respell_stored_themes

__all__ = ["FILE_NAME", "LATEST_TIME", "LONGEST_ANSWER", "SCHEMA_VERSION", "Answer", "LessonState", "ProgressStore", "RatingChange",
           "RatingPoint", "SubjectRating", "Tally", "default_path"]

FILE_NAME = "progress.sqlite3"
SCHEMA_VERSION = 2

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
    rows = conn.execute("SELECT id, at, puzzle_id, kind, themes, correct, seconds, hints, lesson, "
                        f"ruleset, retry, {', '.join(extra)} FROM answers ORDER BY id").fetchall()
    for row in rows:
        (rid, at, puzzle_id, kind, themes, correct, seconds, hints, lesson, ruleset, retry,
         uid, difficulty, revealed) = row
        if not isinstance(uid, str) or not uid or uid in seen:
            uid = _content_uid(row[1:11])
            n = 1
            while uid in seen:             # two answers alike in every value, time included
                n += 1
                uid = _content_uid(row[1:11] + (n,))
        seen.add(uid)
        if seconds is not None and not (_UNTIMED_BELOW <= seconds <= _LONGEST):
            seconds = None
        if not (isinstance(difficulty, int) and 1 <= difficulty <= 5):
            difficulty = None
        conn.execute("INSERT INTO answers_v2 (id, uid, at, puzzle_id, kind, themes, correct, "
                     "seconds, hints, lesson, ruleset, retry, difficulty, revealed) "
                     "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                     (rid, uid, at, puzzle_id, kind, themes, correct, seconds, hints, lesson,
                      ruleset, retry, difficulty, int(revealed == 1)))
    conn.execute("DROP TABLE answers")
    conn.execute("ALTER TABLE answers_v2 RENAME TO answers")
    conn.execute("CREATE INDEX IF NOT EXISTS answers_at ON answers(at)")
    conn.execute("CREATE INDEX IF NOT EXISTS answers_puzzle ON answers(puzzle_id)")
    conn.execute("DROP TABLE IF EXISTS ratings")
    conn.execute("DROP TABLE IF EXISTS rating_history")
    for statement in _statements(_RATINGS_V2):
        conn.execute(statement)
    _recompute(conn)


def _content_uid(values: tuple) -> str:
    """A uid made from an answer's values (``m1-`` and 32 hex digits)."""
    text = json.dumps([repr(v) if isinstance(v, float) else v for v in values])
    return "m1-" + hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:32]


#: Migrations: ``_MIGRATIONS[n]`` takes a file from version ``n`` to ``n + 1`` (inside a
#: transaction).
_MIGRATIONS = {0: _migrate_0, 1: _migrate_1}


def default_path() -> Path:
    """``laugh_home() / "progress.sqlite3"``."""
    from tutor.engine.data import laugh_home
    return laugh_home() / FILE_NAME


@dataclass
class LessonState:
    """One lesson's saved state.

    ``seed`` is the lesson seed of the current (or last) attempt; ``page`` the 0-based page
    reached; ``answered`` maps a puzzle slot (``"<block index>.<n>"``) to True (right first time)
    or False; ``in_progress`` is False once the attempt is finished; ``completed_at`` (Unix
    time) is set once the lesson has ever been completed, with ``right``/``total`` its score.
    """

    lesson: str
    seed: int
    page: int = 0
    answered: dict[str, bool] = field(default_factory=dict)
    started_at: float = 0.0
    updated_at: float = 0.0
    completed_at: float | None = None
    right: int | None = None
    total: int | None = None
    in_progress: bool = True

    @property
    def completed(self) -> bool:
        """True once the lesson has been completed at least once."""
        return self.completed_at is not None


@dataclass(frozen=True)
class Answer:
    """One recorded answer (see the ``answers`` table); ``seconds`` is None when the answer was
    not timed, ``difficulty`` None when the puzzle's band is unknown."""

    at: float
    puzzle_id: str
    kind: str
    themes: tuple[str, ...]
    correct: bool
    seconds: float | None
    hints: int = 0
    lesson: str | None = None
    ruleset: str | None = None
    retry: bool = False
    uid: str = ""
    difficulty: int | None = None
    revealed: bool = False


@dataclass
class Tally:
    """Answers counted for one theme, kind or period: ``right`` of ``n``; ``times`` the seconds
    of the answers that were timed (typed at a terminal), ``seconds`` their sum."""

    name: str
    n: int = 0
    right: int = 0
    seconds: float = 0.0
    times: list[float] = field(default_factory=list)

    def add(self, answer: "Answer") -> None:
        """Count one answer (its time only when it has one)."""
        self.n += 1
        self.right += bool(answer.correct)
        if answer.seconds is not None:
            self.seconds += answer.seconds
            self.times.append(answer.seconds)

    @property
    def accuracy(self) -> float:
        """Share right, 0..1 (0 when there are no answers)."""
        return self.right / self.n if self.n else 0.0

    @property
    def timed(self) -> int:
        """How many of the answers were timed."""
        return len(self.times)

    @property
    def mean_seconds(self) -> float | None:
        """Mean seconds of a timed answer, or None when none was timed."""
        return self.seconds / len(self.times) if self.times else None

    @property
    def median_seconds(self) -> float | None:
        """Median seconds of a timed answer, or None when none was timed."""
        return statistics.median(self.times) if self.times else None


class SubjectRating(NamedTuple):
    """A stored rating: ``subject`` (see :mod:`tutor.teaching.ratings`), ``rating`` (a
    :class:`~tutor.teaching.ratings.Rating`), ``games`` (rated answers that moved it) and
    ``updated_at`` (Unix time)."""

    subject: str
    rating: R.Rating
    games: int
    updated_at: float


class RatingPoint(NamedTuple):
    """One point of a rating's history: ``at`` (Unix time of the rated answer), ``rating`` and
    ``rd`` (points)."""

    at: float
    rating: float
    rd: float


@dataclass(frozen=True)
class RatingChange:
    """What one rated answer changed: ``before`` and ``after`` by subject (the learner overall,
    per kind and per theme, and the puzzle band)."""

    before: dict[str, R.Rating]
    after: dict[str, R.Rating]

    @property
    def learner(self) -> tuple[R.Rating, R.Rating]:
        """The learner's overall rating before and after."""
        return self.before[R.OVERALL], self.after[R.OVERALL]

    @property
    def band(self) -> tuple[str, R.Rating, R.Rating]:
        """The puzzle band's subject, its rating before and after."""
        subject = next(k for k in self.after if k.startswith("puzzle:"))
        return subject, self.before[subject], self.after[subject]


class ProgressStore:
    """The progress database.

    ``ProgressStore(path)`` opens (creating or migrating) the file, default
    :func:`default_path`.  A damaged file is moved aside and :attr:`notice` set to a one-line
    message; a file or folder that cannot be written leaves the store working in memory
    (:attr:`saving` False) and :attr:`notice` saying why progress cannot be saved; otherwise
    ``notice`` is None.  With ``read_only=True`` the file is only read (a copy is taken into
    memory, so the statistics can fold answers into review schedules without writing), never
    created, changed or moved; a damaged or unreadable file then reads as empty, with a notice.
    Raises :class:`~tutor.engine.errors.LaughError` only for a file written by a newer version
    of the program.  Use as a context manager or call :meth:`close`.
    """

    def __init__(self, path: Path | str | None = None, *, read_only: bool = False):
        self.path = Path(path) if path is not None else default_path()
        self.notice: str | None = None
        self.read_only = read_only
        #: True while changes are written to :attr:`path`; False when they stay in memory.
        self.saving = not read_only
        if read_only:
            self.conn = self._open_copy()
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._go_on_without_saving(f"the folder {self.path.parent} cannot be created "
                                       f"({exc.strerror or exc})", copy=False)
            return
        try:
            self.conn = self._open()
        except sqlite3.DatabaseError as exc:
            if _environmental(exc):
                self._go_on_without_saving(self._why_unwritable(exc), copy=True)
                return
            try:
                moved = self._move_aside()
            except OSError as move_exc:
                self._go_on_without_saving(
                    f"{self.path} could not be read ({_said(exc)}) and cannot be moved aside "
                    f"({move_exc.strerror or move_exc})", copy=False)
                return
            self.notice = (f"Your progress file {self.path} could not be read ({_said(exc)}); it "
                           f"was moved to {moved.name} beside it and a fresh one started.")
            try:
                self.conn = self._open()
            except sqlite3.DatabaseError as again:   # the notice keeps where the old file went
                self._go_on_without_saving(self._why_unwritable(again), copy=False)

    @classmethod
    def in_memory(cls) -> "ProgressStore":
        """An empty store in memory, never written to any file (``laugh class report`` reads
        each learner's export into one)."""
        store = cls.__new__(cls)
        store.path = Path(":memory:")
        store.notice = None
        store.read_only = False
        store.saving = False
        store.conn = _connect(":memory:")
        _check_and_migrate(store.conn, store.path)
        return store

    # -- opening ---------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        """The file, checked, migrated, and proved writable (a write rolled back)."""
        _check_header(self.path)
        conn = _connect(self.path)
        try:
            _check_and_migrate(conn, self.path)
        except BaseException:
            conn.close()
            raise
        return conn

    def _open_copy(self) -> sqlite3.Connection:
        """A copy of the file in memory, the file opened read-only (or an empty store when
        there is no file, or it cannot be read: then :attr:`notice` says why)."""
        mem = _connect(":memory:")
        if self.path.is_file():
            try:
                _check_header(self.path)
                src = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                      timeout=5.0)
                try:
                    src.backup(mem)
                finally:
                    src.close()
                _check_and_migrate(mem, self.path)
                return mem
            except sqlite3.DatabaseError as exc:
                mem.close()
                mem = _connect(":memory:")
                if getattr(exc, "sqlite_errorname", "") == "SQLITE_READONLY_ROLLBACK":
                    self.notice = (f"Your progress file {self.path} has a change left unfinished "
                                   "(a journal beside it) that only a lesson or puzzle, which "
                                   "may write, can finish; showing none of it.")
                elif _environmental(exc):
                    self.notice = (f"Your progress file {self.path} cannot be read ({_said(exc)}); "
                                   "showing none of it.")
                else:
                    self.notice = (f"Your progress file {self.path} is damaged ({_said(exc)}); showing "
                                   "none of it (the file is left as it is: the next lesson or "
                                   "puzzle moves it aside and starts a fresh one).")
        _check_and_migrate(mem, self.path)
        return mem

    def _go_on_without_saving(self, why: str, copy: bool) -> None:
        """Work in memory from now on (on a copy of the file when ``copy`` and it can be read)
        and set :attr:`notice` to say that progress cannot be saved, and why."""
        self.saving = False
        self.conn = self._open_copy() if copy else _connect(":memory:")
        if not copy:
            _check_and_migrate(self.conn, self.path)
        read_notice = self.notice
        self.notice = f"Your progress cannot be saved: {why}; going on without saving."
        if read_notice:
            self.notice += " " + read_notice

    def _why_unwritable(self, exc: sqlite3.DatabaseError) -> str:
        name = getattr(exc, "sqlite_errorname", "")
        if name == "SQLITE_READONLY_DIRECTORY":
            return f"the folder {self.path.parent} is read-only"
        if name.startswith("SQLITE_READONLY"):
            return f"the file {self.path} is read-only"
        if name == "SQLITE_CANTOPEN" and not self.path.exists():
            return f"{self.path} cannot be created in its folder ({_said(exc)})"
        if name in ("SQLITE_BUSY", "SQLITE_LOCKED"):
            return f"{self.path} is locked by another program ({_said(exc)})"
        return f"{self.path}: {_said(exc)}"

    def _move_aside(self) -> Path:
        """Rename the file (and its journal, if any) to ``<name>.corrupt-<timestamp>``; return
        the new path.  Raises OSError when the folder does not allow it."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
        self.path.replace(target)
        for suffix in ("-journal", "-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                side.replace(target.with_name(target.name + suffix))
        return target

    def close(self) -> None:
        """Close the file (everything is already committed)."""
        self.conn.close()

    def __enter__(self) -> "ProgressStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        """The file's ``PRAGMA user_version``."""
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    # -- answers ---------------------------------------------------------------------------

    def record_answer(self, puzzle_id: str, kind: str, themes, correct: bool,
                      seconds: float | None, *, hints: int = 0, lesson: str | None = None,
                      ruleset: str | None = None, retry: bool = False, slot: str | None = None,
                      at: float | None = None, difficulty: int | None = None,
                      revealed: bool = False) -> RatingChange | None:
        """Record one graded answer, committed at once; returns the ratings it moved, or None.

        ``themes`` is an iterable of theme names (kept in their one spelling,
        :func:`tutor.puzzles.themes.theme_id`); ``seconds`` the time taken (float seconds), or
        None when the answer was not typed at a terminal (piped, revealed): it is then missing
        from every time shown, not 0 (so is a time of 0 or less, which no one took, as a
        virtual clock's, and one longer than a week).
        ``difficulty`` is the puzzle's band (1-5, None when it is not a puzzle of a band);
        ``revealed`` True when the learner asked to see the answer.  With ``lesson`` and
        ``slot`` (``"<block>.<n>"``) the lesson's saved answers are updated in the same
        transaction (a first answer only: ``retry`` answers do not change them).  The ratings
        (:mod:`tutor.teaching.ratings`) move in the same transaction when the answer is a first
        try at the puzzle (:func:`tutor.teaching.ratings.counts`).
        """
        now = time.time() if at is None else at
        if seconds is not None and not (0 < seconds <= _LONGEST):
            seconds = None
        theme_list = theme_ids(str(t) for t in themes)     # one name a theme
        change = None
        with self._transaction():
            first = self.conn.execute("SELECT 1 FROM answers WHERE puzzle_id = ? LIMIT 1",
                                      (puzzle_id,)).fetchone() is None
            uid = uuid.uuid4().hex
            self.conn.execute(
                "INSERT INTO answers (uid, at, puzzle_id, kind, themes, correct, seconds, hints, "
                "lesson, ruleset, retry, difficulty, revealed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (uid, now, puzzle_id, kind, json.dumps(theme_list), int(bool(correct)),
                 None if seconds is None else float(seconds), int(hints), lesson, ruleset,
                 int(bool(retry)), difficulty, int(bool(revealed))))
            if R.counts(first, retry=retry, revealed=revealed, hints=hints, difficulty=difficulty):
                change = self._rate(uid, now, kind, difficulty, theme_list, bool(correct))
            if lesson is not None and slot is not None and not retry:
                row = self.conn.execute("SELECT answered FROM lessons WHERE lesson = ?",
                                        (lesson,)).fetchone()
                if row is not None:
                    answered = json.loads(row[0])
                    answered.setdefault(slot, bool(correct))
                    self.conn.execute("UPDATE lessons SET answered = ?, updated_at = ? "
                                      "WHERE lesson = ?", (json.dumps(answered), now, lesson))
        return change

    _ANSWER_COLUMNS = ("at, puzzle_id, kind, themes, correct, seconds, hints, lesson, ruleset, "
                       "retry, uid, difficulty, revealed")

    def answers(self, since: float | None = None) -> list[Answer]:
        """Every recorded answer (since Unix time ``since``), oldest first."""
        sql = f"SELECT {self._ANSWER_COLUMNS} FROM answers"
        args: tuple = ()
        if since is not None:
            sql += " WHERE at >= ?"
            args = (since,)
        rows = self.conn.execute(sql + " ORDER BY at, id", args).fetchall()
        return [Answer(r[0], r[1], r[2], tuple(json.loads(r[3])), bool(r[4]), r[5], r[6], r[7],
                       r[8], bool(r[9]), r[10], r[11], bool(r[12])) for r in rows]

    def answer_count(self) -> int:
        """How many answers are recorded."""
        return self.conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0]

    def tallies(self, by: str, since: float | None = None) -> list[Tally]:
        """Answers (since Unix time ``since``) counted by ``"theme"`` (an answer counts once for
        each of its themes) or ``"kind"``, weakest first: lowest accuracy, then the slowest
        median time (a tally with no timed answer after those with one), then by name.
        Raises :class:`~tutor.engine.errors.LaughError` for another ``by``."""
        if by not in ("theme", "kind"):
            raise LaughError(f"tallies by 'theme' or 'kind', not {by!r}")
        out: dict[str, Tally] = {}
        for a in self.answers(since):
            names = dict.fromkeys(a.themes) if by == "theme" else (a.kind,)
            for name in names:
                out.setdefault(name, Tally(name)).add(a)
        return sorted(out.values(), key=_weakest_first)

    def timeline(self, days: int = 1) -> list[Tally]:
        """Answers counted per period of ``days`` days (local dates), oldest first; each
        tally's ``name`` is the period's first date, ``YYYY-MM-DD``."""
        out: dict[str, Tally] = {}
        for a in self.answers():
            day = int(a.at // 86400 // days * days * 86400)
            name = time.strftime("%Y-%m-%d", time.localtime(day + 43200))
            out.setdefault(name, Tally(name)).add(a)
        return [out[k] for k in sorted(out)]

    # -- ratings ---------------------------------------------------------------------------

    def _rate(self, uid: str, at: float, kind: str, difficulty: int, themes: list[str],
              correct: bool) -> RatingChange:
        """Move the ratings for one rated answer (inside the caller's transaction)."""
        before: dict[str, R.Rating] = {}

        def current(subject: str) -> R.Rating:
            if subject not in before:
                got = self.rating(subject)
                before[subject] = got.rating if got else R.default_rating(subject)
            return before[subject]

        after = R.rate(current, kind, difficulty, themes, correct)
        for subject, r in after.items():
            self._save_rating(subject, r, at, uid)
        return RatingChange({k: before[k] for k in after}, after)

    def _save_rating(self, subject: str, r: R.Rating, at: float, uid: str, games: int = 1) -> None:
        self.conn.execute(
            "INSERT INTO ratings (subject, rating, rd, vol, games, updated_at) VALUES "
            "(?, ?, ?, ?, ?, ?) ON CONFLICT(subject) DO UPDATE SET rating = excluded.rating, "
            "rd = excluded.rd, vol = excluded.vol, games = ratings.games + excluded.games, "
            "updated_at = excluded.updated_at", (subject, r.rating, r.rd, r.vol, games, at))
        self.conn.execute("INSERT INTO rating_history (subject, at, rating, rd, vol, answer_uid) "
                          "VALUES (?, ?, ?, ?, ?, ?)", (subject, at, r.rating, r.rd, r.vol, uid))

    def rating(self, subject: str) -> SubjectRating | None:
        """The stored rating of ``subject`` (see :mod:`tutor.teaching.ratings`), or None when no
        rated answer has moved it yet."""
        row = self.conn.execute("SELECT subject, rating, rd, vol, games, updated_at FROM ratings "
                                "WHERE subject = ?", (subject,)).fetchone()
        return _subject_rating(row) if row else None

    def ratings(self, prefix: str = "") -> dict[str, SubjectRating]:
        """Every stored rating whose subject starts with ``prefix`` (``"theme:"``,
        ``"puzzle:count:"``), by subject."""
        rows = self.conn.execute("SELECT subject, rating, rd, vol, games, updated_at FROM ratings "
                                 "WHERE substr(subject, 1, ?) = ? ORDER BY subject",
                                 (len(prefix), prefix)).fetchall()
        return {r[0]: _subject_rating(r) for r in rows}

    def learner_rating(self) -> R.Rating:
        """The learner's overall rating (:data:`tutor.teaching.ratings.NEW_LEARNER` before any
        rated answer)."""
        got = self.rating(R.OVERALL)
        return got.rating if got else R.NEW_LEARNER

    def band_rating(self, kind: str, difficulty: int) -> R.Rating:
        """The rating of the puzzles of ``kind`` in band ``difficulty`` (its starting rating,
        :func:`tutor.teaching.ratings.initial_puzzle_rating`, before any rated answer)."""
        subject = R.puzzle_subject(kind, difficulty)
        got = self.rating(subject)
        return got.rating if got else R.default_rating(subject)

    def band_ratings(self, kind: str) -> dict[int, R.Rating]:
        """The rated bands of ``kind``: difficulty -> rating (bands never rated left out)."""
        out = {}
        for subject, got in self.ratings(f"puzzle:{kind}:").items():
            band = R.band_of(subject)
            if band is not None and band[0] == kind:
                out[band[1]] = got.rating
        return out

    def choose_difficulty(self, kind: str) -> int:
        """The difficulty band (1-5) of ``kind`` to serve the learner: the band whose rating is
        nearest the learner's overall rating (:func:`tutor.teaching.ratings.choose_difficulty`,
        within about 200 points where one is)."""
        return R.choose_difficulty(self.learner_rating(), self.band_ratings(kind))

    def stars(self, kind: str, difficulty: int) -> int:
        """The stars (1-5) shown for a puzzle of ``kind`` in band ``difficulty``: derived from
        the band's rating (:func:`tutor.teaching.ratings.stars_for`)."""
        return R.stars_for(self.band_rating(kind, difficulty).rating)

    def rating_history(self, subject: str = R.OVERALL) -> list[RatingPoint]:
        """``subject``'s rating after each rated answer that moved it, oldest first."""
        rows = self.conn.execute("SELECT at, rating, rd FROM rating_history WHERE subject = ? "
                                 "ORDER BY at, id", (subject,)).fetchall()
        return [RatingPoint(*r) for r in rows]

    def recompute_ratings(self) -> int:
        """Rebuild every rating and its history from the answers, oldest first, in one
        transaction; returns how many answers were rated.  (Ratings follow from the answers:
        this is what :meth:`merge` does after adding another machine's answers.)"""
        with self._transaction():
            return self._recompute()

    def _recompute(self) -> int:
        return _recompute(self.conn)

    # -- merging another machine's progress ------------------------------------------------

    def merge(self, answers: list[Answer], lessons: list[LessonState],
              meta: dict[str, str]) -> tuple[int, int]:
        """Merge another store's progress into this one, in one transaction; returns
        ``(answers added, answers already here)``.

        - Answers are keyed by ``uid``: one already here is left as it is, so merging the same
          progress twice changes nothing, and nothing here is lost.
        - A lesson keeps the attempt (seed, page, answers so far) last touched, and the
          completion (score) made last, wherever each was made.
        - A setting already here is kept, except the drills' bests (keys ending ``.best``),
          which keep the higher value; a setting not here is added.
        - The ratings are recomputed from the merged answers (:meth:`recompute_ratings`), and
          the review schedules (:mod:`tutor.teaching.review`, which cache what the answers say)
          are dropped to be rebuilt from them in time order.
        """
        with self._transaction():
            before = self.answer_count()
            self.conn.executemany(
                "INSERT INTO answers (uid, at, puzzle_id, kind, themes, correct, seconds, hints, "
                "lesson, ruleset, retry, difficulty, revealed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) "
                "ON CONFLICT(uid) DO NOTHING",
                [(a.uid, a.at, a.puzzle_id, a.kind, json.dumps(theme_ids(a.themes)), int(a.correct),
                  a.seconds, a.hints, a.lesson, a.ruleset, int(a.retry), a.difficulty,
                  int(a.revealed)) for a in answers])
            added = self.answer_count() - before
            for theirs in lessons:
                self._merge_lesson(theirs)
            for key, value in meta.items():
                self._merge_meta(key, value)
            self._recompute()
            if added:
                self.conn.execute("DROP TABLE IF EXISTS review_cards")
                self.conn.execute("DROP TABLE IF EXISTS review_meta")
        return added, len(answers) - added

    def _merge_lesson(self, theirs: LessonState) -> None:
        mine = self.lesson_state(theirs.lesson)
        if mine is None:
            mine = theirs
        else:
            attempt = theirs if theirs.updated_at > mine.updated_at else mine
            done = mine
            if theirs.completed_at is not None and (mine.completed_at is None or
                                                    theirs.completed_at > mine.completed_at):
                done = theirs
            mine = LessonState(attempt.lesson, attempt.seed, attempt.page, attempt.answered,
                               attempt.started_at, max(mine.updated_at, theirs.updated_at),
                               done.completed_at, done.right, done.total, attempt.in_progress)
        self.conn.execute(
            "INSERT INTO lessons (lesson, seed, page, answered, started_at, updated_at, "
            "completed_at, right, total, in_progress) VALUES (?,?,?,?,?,?,?,?,?,?) "
            "ON CONFLICT(lesson) DO UPDATE SET seed = excluded.seed, page = excluded.page, "
            "answered = excluded.answered, started_at = excluded.started_at, "
            "updated_at = excluded.updated_at, completed_at = excluded.completed_at, "
            "right = excluded.right, total = excluded.total, in_progress = excluded.in_progress",
            (mine.lesson, mine.seed, mine.page, json.dumps(mine.answered), mine.started_at,
             mine.updated_at, mine.completed_at, mine.right, mine.total, int(mine.in_progress)))

    def _merge_meta(self, key: str, value: str) -> None:
        mine = self.get_meta(key)
        if mine is None:
            self._set_meta(key, value)
        elif key.endswith(".best"):
            try:
                if float(value) > float(mine):
                    self._set_meta(key, value)
            except ValueError:
                pass

    def meta_items(self) -> dict[str, str]:
        """Every small saved setting, by key."""
        return dict(self.conn.execute("SELECT key, value FROM meta ORDER BY key").fetchall())

    # -- lessons ---------------------------------------------------------------------------

    def lesson_state(self, lesson: str) -> LessonState | None:
        """The saved state of ``lesson`` (an id), or None if it was never opened."""
        row = self.conn.execute(
            "SELECT lesson, seed, page, answered, started_at, updated_at, completed_at, right, "
            "total, in_progress FROM lessons WHERE lesson = ?", (lesson,)).fetchone()
        return _state(row) if row else None

    def lesson_states(self) -> dict[str, LessonState]:
        """Every saved lesson state, by lesson id."""
        rows = self.conn.execute(
            "SELECT lesson, seed, page, answered, started_at, updated_at, completed_at, right, "
            "total, in_progress FROM lessons").fetchall()
        return {r[0]: _state(r) for r in rows}

    def start_lesson(self, lesson: str, seed: int) -> LessonState:
        """Begin a new attempt at ``lesson`` with ``seed`` (page 0, nothing answered); keeps the
        record of any earlier completion.  Also remembers it as the last lesson."""
        now = time.time()
        with self._transaction():
            self.conn.execute(
                "INSERT INTO lessons (lesson, seed, page, answered, started_at, updated_at, "
                "in_progress) VALUES (?, ?, 0, '{}', ?, ?, 1) ON CONFLICT(lesson) DO UPDATE SET "
                "seed = excluded.seed, page = 0, answered = '{}', started_at = excluded.started_at,"
                " updated_at = excluded.updated_at, in_progress = 1", (lesson, seed, now, now))
            self._set_meta("last_lesson", lesson)
        state = self.lesson_state(lesson)
        assert state is not None
        return state

    def save_page(self, lesson: str, page: int) -> None:
        """Remember that ``lesson`` has reached ``page`` (0-based), and that it was the last
        lesson opened."""
        with self._transaction():
            self.conn.execute("UPDATE lessons SET page = ?, updated_at = ? WHERE lesson = ?",
                              (page, time.time(), lesson))
            self._set_meta("last_lesson", lesson)

    def complete_lesson(self, lesson: str, right: int, total: int) -> None:
        """Mark the current attempt at ``lesson`` finished, with ``right`` of ``total`` puzzles
        right first time."""
        now = time.time()
        with self._transaction():
            self.conn.execute("UPDATE lessons SET completed_at = ?, right = ?, total = ?, "
                              "in_progress = 0, updated_at = ? WHERE lesson = ?",
                              (now, right, total, now, lesson))

    def last_lesson(self) -> str | None:
        """The id of the lesson opened most recently, or None."""
        return self.get_meta("last_lesson")

    # -- meta ------------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        """A small saved setting, or None."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        """Save a small setting."""
        with self._transaction():
            self._set_meta(key, value)

    def _set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO "
                          "UPDATE SET value = excluded.value", (key, value))

    # -- transactions ----------------------------------------------------------------------

    def _transaction(self):
        return _Transaction(self.conn)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception (Ctrl-C included)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:
            self.conn.execute("ROLLBACK")


def _said(exc: BaseException) -> str:
    """An error's message on one line, cut to 200 characters (SQLite's integrity check can
    report a page of problems)."""
    text = " ".join(str(exc).split())
    return text if len(text) <= 200 else text[:197] + "..."


def _connect(target: Path | str) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit) that reads text which is
    not UTF-8 (damage) with replacement characters instead of failing on the row."""
    conn = sqlite3.connect(target, timeout=5.0, isolation_level=None)
    conn.text_factory = lambda data: data.decode("utf-8", "replace")
    return conn


#: SQLite errors that come from where the file is (permissions, locks, a full disk), not from
#: what it holds: the file is not damaged, it just cannot be written (or read) now.
_ENVIRONMENTAL = ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_BUSY",
                  "SQLITE_LOCKED", "SQLITE_IOERR", "SQLITE_FULL", "SQLITE_AUTH")


def _environmental(exc: sqlite3.DatabaseError) -> bool:
    return getattr(exc, "sqlite_errorname", "").startswith(_ENVIRONMENTAL)


class DamagedFile(sqlite3.DatabaseError):
    """A progress file that SQLite reads but whose tables or values are not what this program
    wrote (a dropped table, a missing column, a value of the wrong type, invalid JSON)."""


@functools.cache
def _expected_columns(version: int = SCHEMA_VERSION) -> dict[str, frozenset[str]]:
    """Every table of schema ``version`` (1 or later) -> its column names."""
    mem = sqlite3.connect(":memory:")
    try:
        for v in range(version):
            _MIGRATIONS[v](mem)
        tables = [r[0] for r in mem.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: frozenset(r[1] for r in mem.execute(f"PRAGMA table_info({t})"))
                for t in tables}
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

_THEMES_OK = ("CASE WHEN typeof(themes) = 'text' AND json_valid(themes) "
              "THEN json_type(themes) <> 'array' "
              "OR EXISTS (SELECT 1 FROM json_each(answers.themes) WHERE type <> 'text') "
              "ELSE 1 END")
_RATING_OK = ("typeof(rating) <> 'real' OR typeof(rd) <> 'real' OR typeof(vol) <> 'real' "
              "OR NOT (rating BETWEEN -10000 AND 10000) OR NOT (rd > 0 AND rd <= 1000) "
              "OR NOT (vol > 0 AND vol < 1)")


def _row_checks(version: int) -> dict[str, str]:
    """One query per table of schema ``version`` finding the first row whose values this
    program could not have written: wrong SQLite types, values out of range, and JSON that is
    invalid or of the wrong shape."""
    answers = (
        "SELECT id FROM answers WHERE typeof(at) NOT IN ('real', 'integer') "
        f"OR at NOT BETWEEN 0 AND {_LATEST} "
        "OR typeof(puzzle_id) <> 'text' OR typeof(kind) <> 'text' "
        "OR typeof(correct) <> 'integer' "
        "OR typeof(hints) <> 'integer' OR typeof(retry) <> 'integer' "
        "OR typeof(lesson) NOT IN ('text', 'null') OR typeof(ruleset) NOT IN ('text', 'null') ")
    if version >= 2:
        answers += ("OR typeof(uid) <> 'text' "
                    "OR typeof(seconds) NOT IN ('real', 'integer', 'null') "
                    f"OR seconds NOT BETWEEN 0 AND {_LONGEST} "
                    "OR typeof(difficulty) NOT IN ('integer', 'null') "
                    "OR difficulty NOT BETWEEN 1 AND 5 OR typeof(revealed) <> 'integer' ")
    else:       # (a NULL time is let through: the migration reads it as a missing time)
        answers += "OR typeof(seconds) NOT IN ('real', 'integer', 'null') "
    checks = {
        "answers": answers + f"OR {_THEMES_OK} LIMIT 1",
        "lessons": (
            "SELECT lesson FROM lessons WHERE typeof(lesson) <> 'text' "
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
            "ELSE 1 END LIMIT 1"),
        "meta": "SELECT key FROM meta WHERE typeof(key) <> 'text' OR typeof(value) <> 'text' LIMIT 1",
    }
    if version >= 2:
        checks["ratings"] = (
            "SELECT subject FROM ratings WHERE typeof(subject) <> 'text' "
            f"OR typeof(games) <> 'integer' OR games < 0 OR {_RATING_OK} "
            "OR typeof(updated_at) NOT IN ('real', 'integer') "
            f"OR updated_at NOT BETWEEN 0 AND {_LATEST} LIMIT 1")
        checks["rating_history"] = (
            "SELECT id FROM rating_history WHERE typeof(subject) <> 'text' "
            "OR typeof(answer_uid) <> 'text' OR typeof(at) NOT IN ('real', 'integer') "
            f"OR at NOT BETWEEN 0 AND {_LATEST} OR {_RATING_OK} LIMIT 1")
    return checks


def _check_and_migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Check an opened file and bring it to :data:`SCHEMA_VERSION`.

    Raises :class:`sqlite3.DatabaseError` for a file SQLite cannot read or that fails its
    integrity check, :class:`DamagedFile` for a header, table, column, type or JSON value this
    program did not write, and :class:`LaughError` for a file of a newer schema.  Tables are
    checked before any migration writes, so a damaged file is moved aside as it was found.
    """
    try:
        # The integrity check, not the quick check: only it finds an index that lost a row.
        ok = conn.execute("PRAGMA integrity_check").fetchone()[0]
        if ok != "ok":
            raise sqlite3.DatabaseError(f"integrity check: {ok}")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise LaughError(f"the progress file {path} was written by a newer version "
                             f"of the program (schema {version}, this one knows "
                             f"{SCHEMA_VERSION}); update the program")
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
        respell_stored_themes(conn, _recompute)     # one name a theme (older spellings merged)
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
        conn.execute("ROLLBACK")


def _check_header(path: Path) -> None:
    """Raise :class:`DamagedFile` when ``path`` is an SQLite file whose header this program
    never writes: a write-ahead log (which even reading would add files beside) or a file
    format newer than SQLite's own (which no one may write)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(20)
    except OSError:
        return                  # SQLite will say why it cannot open it
    if len(head) == 20 and head.startswith(b"SQLite format 3\x00") and (head[18], head[19]) != (1, 1):
        raise DamagedFile("its header is not one this program writes (file format versions "
                          f"{head[18]} and {head[19]}, not 1)")


def _check_tables(conn: sqlite3.Connection, version: int) -> None:
    """Raise :class:`DamagedFile` naming the first missing table (every table of its schema
    must be there in a file of schema 1 or later; a file of version 0, made before schemas were
    numbered, is checked for the tables it has) or column of schema ``version``, or the first
    row holding a value of the wrong type or invalid JSON."""
    every = version >= 1
    version = max(version, 1)          # a file of version 0 is checked as schema 1
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
            row = _python_row_check(conn, table)     # SQLite built without its JSON functions
        if row is not None:
            raise DamagedFile(f"the table {table}, row {row[0]!r}, holds a value of the wrong "
                              "type or invalid JSON")


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
            if not isinstance(value, dict) or any(isinstance(v, (dict, list))
                                                  for v in value.values()):
                return (lesson,)
    return None


def _json_or_none(text) -> object:
    if not isinstance(text, str):
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


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
    for uid, at, puzzle_id, kind, themes, correct, hints, retry, difficulty, revealed in \
            conn.execute("SELECT uid, at, puzzle_id, kind, themes, correct, hints, retry, "
                         "difficulty, revealed FROM answers ORDER BY at, id").fetchall():
        first = puzzle_id not in seen
        seen.add(puzzle_id)
        if not R.counts(first, retry=bool(retry), revealed=bool(revealed), hints=hints,
                        difficulty=difficulty):
            continue
        rated += 1
        after = R.rate(lambda s: state.get(s) or R.default_rating(s), kind, difficulty,
                       json.loads(themes), bool(correct))
        for subject, r in after.items():
            state[subject] = r
            games[subject] = games.get(subject, 0) + 1
            updated[subject] = at
            history.append((subject, at, r.rating, r.rd, r.vol, uid))
    conn.executemany(
        "INSERT INTO ratings (subject, rating, rd, vol, games, updated_at) VALUES "
        "(?, ?, ?, ?, ?, ?)", [(k, r.rating, r.rd, r.vol, games[k], updated[k])
                               for k, r in state.items()])
    conn.executemany("INSERT INTO rating_history (subject, at, rating, rd, vol, answer_uid) "
                     "VALUES (?, ?, ?, ?, ?, ?)", history)
    return rated


def _weakest_first(t: Tally):
    """Sort key of tallies, weakest first: accuracy, then the slowest median time (a tally
    with no timed answer after those with one), then the name."""
    median = t.median_seconds
    return (t.accuracy, median is None, -(median or 0.0), t.name)


def _subject_rating(row) -> SubjectRating:
    return SubjectRating(row[0], R.Rating(row[1], row[2], row[3]), row[4], row[5])


def _state(row) -> LessonState:
    return LessonState(lesson=row[0], seed=row[1], page=row[2],
                       answered={k: bool(v) for k, v in json.loads(row[3]).items()},
                       started_at=row[4], updated_at=row[5], completed_at=row[6], right=row[7],
                       total=row[8], in_progress=bool(row[9]))
