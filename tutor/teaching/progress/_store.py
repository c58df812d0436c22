"""The store itself: :class:`ProgressStore` (private module: import it from
:mod:`tutor.teaching.progress`)."""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from pathlib import Path

from tutor.engine.errors import LaughError
from tutor.teaching import ratings as R
from tutor.teaching.progress._damage import (_check_and_migrate, _check_header, _environmental,
                                             _said)
from tutor.teaching.progress import _tallies
from tutor.teaching.progress._records import (Answer, LessonState, RatingChange, RatingPoint,
                                              SubjectRating, Tally, _state, _subject_rating,
                                              _weakest_first)
from tutor.teaching.progress._schema import FILE_NAME, _LONGEST, _connect, _recompute

__all__ = ["ProgressStore", "default_path"]


def default_path() -> Path:
    """``laugh_home() / "progress.sqlite3"``."""
    from tutor.engine.data import laugh_home
    return laugh_home() / FILE_NAME



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

        ``themes`` is an iterable of theme names; ``seconds`` the time taken (float seconds), or
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
        theme_list = [str(t) for t in themes]
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

    def answer_count(self, before: float | None = None) -> int:
        """How many answers are recorded (given before Unix time ``before``)."""
        if before is None:
            return self.conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
        return self.conn.execute("SELECT COUNT(*) FROM answers WHERE at < ?",
                                 (before,)).fetchone()[0]

    def tallies(self, by: str, since: float | None = None) -> list[Tally]:
        """Answers (since Unix time ``since``) counted by ``"theme"`` (an answer counts once for
        each of its themes) or ``"kind"``, weakest first: lowest accuracy, then the slowest
        median time (a tally with no timed answer after those with one), then by name.
        Counted in SQL: a store of a million answers takes seconds, not minutes
        (``benchmarks/bench_store.py``).  Raises :class:`~tutor.engine.errors.LaughError` for
        another ``by``."""
        if by not in ("theme", "kind"):
            raise LaughError(f"tallies by 'theme' or 'kind', not {by!r}")
        return sorted(_tallies.tallies(self.conn, by, since), key=_weakest_first)

    def timeline(self, days: int = 1) -> list[Tally]:
        """Answers counted per period of ``days`` days, oldest first, by the local date (the
        time zone's, as every date shown) of each answer; each tally's ``name`` is the period's
        first date, ``YYYY-MM-DD`` (periods of several days start at whole multiples of
        ``days`` days since 1970-01-01)."""
        return _tallies.timeline(self.conn, days)

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
                [(a.uid, a.at, a.puzzle_id, a.kind, json.dumps(list(a.themes)), int(a.correct),
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


