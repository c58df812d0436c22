"""What the store answers: the answers, their counts, the ratings, the lessons' states and the
settings, read from whichever database the store works on (private: the methods of
:class:`tutor.teaching.progress.ProgressStore`)."""

from __future__ import annotations

import json
import sqlite3

from tutor.engine.errors import LaughError
from tutor.teaching import ratings as R
from tutor.teaching.progress import _tallies
from tutor.teaching.progress._store_rows import (
    Answer,
    LessonState,
    RatingPoint,
    Sighting,
    SpotFigures,
    SubjectRating,
    Tally,
    _state,
    _subject_rating,
    _weakest_first,
)


class Reads:
    """The reading half of :class:`~tutor.teaching.progress.ProgressStore` (``conn`` is the
    database it works on)."""

    conn: sqlite3.Connection

    @property
    def schema_version(self) -> int:
        """The file's ``PRAGMA user_version``."""
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    # -- answers ---------------------------------------------------------------------------

    _ANSWER_COLUMNS = (
        "at, puzzle_id, kind, themes, correct, seconds, hints, lesson, ruleset, "
        "retry, uid, difficulty, revealed"
    )

    def answers(self, since: float | None = None) -> list[Answer]:
        """Every recorded answer (since Unix time ``since``), oldest first."""
        sql = f"SELECT {self._ANSWER_COLUMNS} FROM answers"
        args: tuple = ()
        if since is not None:
            sql += " WHERE at >= ?"
            args = (since,)
        rows = self.conn.execute(sql + " ORDER BY at, id", args).fetchall()
        return [
            Answer(
                r[0],
                r[1],
                r[2],
                tuple(json.loads(r[3])),
                bool(r[4]),
                r[5],
                r[6],
                r[7],
                r[8],
                bool(r[9]),
                r[10],
                r[11],
                bool(r[12]),
            )
            for r in rows
        ]

    def answer_count(self, before: float | None = None) -> int:
        """How many answers are recorded (given before Unix time ``before``)."""
        if before is None:
            return self.conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
        return self.conn.execute("SELECT COUNT(*) FROM answers WHERE at < ?", (before,)).fetchone()[
            0
        ]

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

    # -- spotting oversights -----------------------------------------------------------------

    def sightings(self) -> list[Sighting]:
        """Every recorded figure of spotting oversights, oldest first."""
        rows = self.conn.execute(
            "SELECT at, context, kind, outcome, seconds, ruleset, source, "
            "uid FROM sightings ORDER BY at, id"
        ).fetchall()
        return [Sighting(*r) for r in rows]

    def spotting(self, contexts: tuple[str, ...] | None = None) -> list[SpotFigures]:
        """The signal-detection figures per oversight kind (hits, misses, false claims, the
        median time of the timed hits), from the sightings of ``contexts`` (None: all), in
        the order of the kinds' names (``""``, false claims naming no kind, first)."""
        sql = "SELECT kind, outcome, seconds FROM sightings"
        args: tuple = ()
        if contexts is not None:
            sql += f" WHERE context IN ({', '.join('?' * len(contexts))})"
            args = tuple(contexts)
        counts: dict[str, dict[str, int]] = {}
        times: dict[str, list[float]] = {}
        for kind, outcome, seconds in self.conn.execute(sql, args):
            counts.setdefault(kind, {}).setdefault(outcome, 0)
            counts[kind][outcome] += 1
            if outcome == "hit" and seconds is not None:
                times.setdefault(kind, []).append(seconds)
        out = []
        for kind in sorted(counts):
            c, t = counts[kind], sorted(times.get(kind, []))
            out.append(
                SpotFigures(
                    kind,
                    c.get("hit", 0),
                    c.get("miss", 0),
                    c.get("false_claim", 0),
                    len(t),
                    _median(t),
                )
            )
        return out

    # -- ratings ---------------------------------------------------------------------------

    def rating(self, subject: str) -> SubjectRating | None:
        """The stored rating of ``subject`` (see :mod:`tutor.teaching.ratings`), or None when no
        rated answer has moved it yet."""
        row = self.conn.execute(
            "SELECT subject, rating, rd, vol, games, updated_at FROM ratings WHERE subject = ?",
            (subject,),
        ).fetchone()
        return _subject_rating(row) if row else None

    def ratings(self, prefix: str = "") -> dict[str, SubjectRating]:
        """Every stored rating whose subject starts with ``prefix`` (``"theme:"``,
        ``"puzzle:count:"``), by subject."""
        rows = self.conn.execute(
            "SELECT subject, rating, rd, vol, games, updated_at FROM ratings "
            "WHERE substr(subject, 1, ?) = ? ORDER BY subject",
            (len(prefix), prefix),
        ).fetchall()
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
        rows = self.conn.execute(
            "SELECT at, rating, rd FROM rating_history WHERE subject = ? ORDER BY at, id",
            (subject,),
        ).fetchall()
        return [RatingPoint(*r) for r in rows]

    # -- lessons and settings --------------------------------------------------------------

    def lesson_state(self, lesson: str) -> LessonState | None:
        """The saved state of ``lesson`` (an id), or None if it was never opened."""
        row = self.conn.execute(
            "SELECT lesson, seed, page, answered, started_at, updated_at, completed_at, right, "
            "total, in_progress FROM lessons WHERE lesson = ?",
            (lesson,),
        ).fetchone()
        return _state(row) if row else None

    def lesson_states(self) -> dict[str, LessonState]:
        """Every saved lesson state, by lesson id."""
        rows = self.conn.execute(
            "SELECT lesson, seed, page, answered, started_at, updated_at, completed_at, right, "
            "total, in_progress FROM lessons"
        ).fetchall()
        return {r[0]: _state(r) for r in rows}

    def last_lesson(self) -> str | None:
        """The id of the lesson opened most recently, or None."""
        return self.get_meta("last_lesson")

    def get_meta(self, key: str) -> str | None:
        """A small saved setting, or None."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def meta_items(self) -> dict[str, str]:
        """Every small saved setting, by key."""
        return dict(self.conn.execute("SELECT key, value FROM meta ORDER BY key").fetchall())


def _median(values: list[float]) -> float | None:
    """The median of sorted ``values``, None when there are none."""
    n = len(values)
    if not n:
        return None
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2
