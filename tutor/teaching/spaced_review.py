"""Weak spots: each skill scheduled for review with FSRS (py-fsrs), from graded results only.

A *skill* is a puzzle kind (``kind:spot-oversight``) or a theme (``theme:split-prial``).  Every
graded answer in the progress store (lessons, puzzles, drills, practice deals) is one review of
its kind and of each of its themes.  The rating is never the learner's own: it comes from the
grade and the time taken (:func:`rating_for`): wrong is ``Again``; right with a hint, or slower
than the kind's slow limit, is ``Hard``; right is ``Good``; right in under a fifth of the slow
limit is ``Easy``.

FSRS card state lives in the progress database (``progress.sqlite3``) in tables of this module's
own, created and migrated here inside transactions, with their own schema version (the
``review_meta`` row ``schema``; the progress store's ``PRAGMA user_version`` is left alone):

- ``review_cards``: one row per skill: the py-fsrs ``Card`` as JSON, review and lapse counts,
  right answers;
- ``review_meta``: ``schema`` and ``last_answer_id`` (the last ``answers.id`` folded in).

:meth:`ReviewBook.sync` folds in every answer recorded since the last sync, oldest first, so
answers recorded by any part of the program count (answers merged from another machine drop the
tables, which are then rebuilt from every answer in time order).  :meth:`ReviewBook.skills`
lists the skills weakest first: lowest predicted recall a day from now, then due soonest, then
hardest.  Recall *now* is not what tells skills apart: FSRS predicts about 100% for any skill
just reviewed, even one answered wrong every time (its forgetting curve starts at 1 at each
review), so the statistics show the recall a day from now, which a lapse lowers at once.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from rich.table import Table
from rich.text import Text

from tutor.engine.errors import LaughError
from tutor.puzzles.themes import label as theme_label
from tutor.teaching.progress import ProgressStore

__all__ = [
    "ReviewBook",
    "SkillState",
    "SCHEMA",
    "SLOW_SECONDS",
    "rating_for",
    "skills_of",
    "weak_skills",
    "render_weak_skills",
]

SCHEMA = 1

#: Seconds after which a right answer counts as ``Hard``, by kind (default for others).
SLOW_SECONDS = {
    "spot-oversight": 12.0,
    "count": 20.0,
    "settlement": 25.0,
    "capture-now": 25.0,
    "dead-pair": 20.0,
    "capture-choice": 30.0,
    "declaration": 30.0,
}
DEFAULT_SLOW = 40.0

_SCHEMA_V1 = (
    "CREATE TABLE IF NOT EXISTS review_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS review_cards ("
    " skill TEXT PRIMARY KEY,"  # kind:<kind> or theme:<theme>
    " card TEXT NOT NULL,"  # py-fsrs Card.to_json()
    " reviews INTEGER NOT NULL DEFAULT 0,"
    " lapses INTEGER NOT NULL DEFAULT 0,"
    " right INTEGER NOT NULL DEFAULT 0,"
    " updated_at REAL NOT NULL)",
)
_MIGRATIONS = {0: _SCHEMA_V1}


def rating_for(correct: bool, seconds: float | None, kind: str = "", hints: int = 0):
    """The FSRS rating of a graded answer (never a self-rating); ``seconds`` None (an answer
    not timed) rates a right answer by its hints alone: ``Good``, or ``Hard`` with a hint."""
    # py-fsrs takes some 50 ms to import: only when a schedule is worked out (start-up time)
    from fsrs import Rating

    if not correct:
        return Rating.Again
    slow = SLOW_SECONDS.get(kind, DEFAULT_SLOW)
    if hints or (seconds is not None and seconds > slow):
        return Rating.Hard
    if seconds is not None and seconds < slow / 5:
        return Rating.Easy
    return Rating.Good


def skills_of(kind: str, themes) -> list[str]:
    """The skills an answer exercises: its kind and each of its themes."""
    out = [f"kind:{kind}"]
    for t in themes:
        s = f"theme:{t}"
        if s not in out:
            out.append(s)
    return out


@dataclass(frozen=True)
class SkillState:
    """One skill's schedule: ``skill`` (``kind:...``/``theme:...``), ``name`` (without the
    prefix), ``group`` (``kind`` or ``theme``), ``retrievability`` (predicted recall now, 0-1),
    ``due``, ``stability``, ``difficulty``, ``reviews``, ``lapses``, ``right`` (right answers)
    and ``tomorrow`` (predicted recall a day from now)."""

    skill: str
    name: str
    group: str
    retrievability: float
    due: datetime
    stability: float | None
    difficulty: float | None
    reviews: int
    lapses: int
    right: int
    tomorrow: float = 0.0

    @property
    def accuracy(self) -> float:
        return self.right / self.reviews if self.reviews else 0.0

    def is_due(self, now: datetime) -> bool:
        return self.due <= now


def _utc(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, tz=UTC)


class ReviewBook:
    """FSRS schedules of skills, kept in the progress database of ``store``
    (a :class:`tutor.teaching.progress.ProgressStore`).  ``scheduler`` defaults to py-fsrs's
    ``Scheduler(enable_fuzzing=False)``, so schedules are reproducible."""

    def __init__(self, store, scheduler=None):
        from fsrs import Scheduler  # lazily, as in rating_for()

        self.store = store
        self.conn: sqlite3.Connection = store.conn
        self.scheduler = scheduler or Scheduler(enable_fuzzing=False)
        #: False when the tables could not be made now (the file busy or full): no skills.
        self.ready = True
        try:
            self._migrate()
        except sqlite3.OperationalError as exc:
            if not _cannot_write_now(exc):
                raise
            self.ready = False

    # -- schema ------------------------------------------------------------------------------

    def _version(self) -> int:
        """The review tables' schema version: 0 when there are none, -1 when ``review_meta``
        is damaged."""
        exists = self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'review_meta'"
        ).fetchone()
        if not exists:
            return 0
        try:
            row = self.conn.execute("SELECT value FROM review_meta WHERE key = 'schema'").fetchone()
            return int(row[0]) if row else 0
        except (sqlite3.OperationalError, TypeError, ValueError):
            return -1

    def _migrate(self) -> None:
        version = self._version()
        if version > SCHEMA:
            raise LaughError(
                f"the review tables in {self.store.path} were written by a newer "
                f"version of the program (schema {version}, this one knows "
                f"{SCHEMA}); update the program"
            )
        if version <= 0 or (version == SCHEMA and not self._intact()):
            # The review tables only cache what the answers say: rebuilt from them, nothing
            # is lost.  (Without review_meta, a review_cards left behind is of unknown shape.)
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                self.conn.execute("DROP TABLE IF EXISTS review_cards")
                self.conn.execute("DROP TABLE IF EXISTS review_meta")
                self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
            version = 0
        while version < SCHEMA:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in _MIGRATIONS[version]:
                    self.conn.execute(statement)
                self.conn.execute(
                    "INSERT INTO review_meta (key, value) VALUES ('schema', ?) "
                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (str(version + 1),),
                )
                self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
            version += 1

    def _intact(self) -> bool:
        """True when the review tables hold what this module writes: their columns, a whole
        ``last_answer_id``, and every card one that py-fsrs reads and can review (UTC
        datetimes before the year 3000)."""
        from fsrs import Card, Rating

        columns = {
            "review_cards": {"skill", "card", "reviews", "lapses", "right", "updated_at"},
            "review_meta": {"key", "value"},
        }
        for table, wanted in columns.items():
            have = {r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")}
            if not wanted <= have:
                return False
        last = self.conn.execute(
            "SELECT value FROM review_meta WHERE key = 'last_answer_id'"
        ).fetchone()
        now = datetime.now(UTC)
        try:
            if last is not None:
                int(last[0])
            for skill, card_json, reviews, lapses, right in self.conn.execute(
                "SELECT skill, card, reviews, lapses, right FROM review_cards"
            ):
                card = Card.from_json(card_json)
                times = [card.due] + ([card.last_review] if card.last_review else [])
                if not (
                    isinstance(skill, str)
                    and all(isinstance(n, int) for n in (reviews, lapses, right))
                    and all(t.tzinfo == UTC and t.year < 3000 for t in times)
                ):
                    return False
                # What sync and skills will do with it must work: a trial review, in memory.
                self.scheduler.review_card(card, Rating.Good, review_datetime=max(times + [now]))
                self.retrievability(card, now)
        except (
            TypeError,
            ValueError,
            KeyError,
            AttributeError,
            IndexError,
            OverflowError,
            AssertionError,
            ZeroDivisionError,
            RecursionError,
        ):
            return False
        return True

    @property
    def schema_version(self) -> int:
        """This module's schema version in the file."""
        return self._version()

    # -- folding in answers -----------------------------------------------------------------

    def _meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM review_meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def sync(self) -> int:
        """Fold every answer recorded since the last sync into the skills' FSRS cards, oldest
        first, in one transaction.  Returns how many answers were folded in (0 when the file
        cannot be written now, busy or full: the schedules are a cache, shown as they stand and
        brought up to date later)."""
        if not self.ready:
            return 0
        try:
            return self._sync()
        except sqlite3.OperationalError as exc:
            if not _cannot_write_now(exc):
                raise
            return 0

    def _sync(self) -> int:
        from fsrs import Card, Rating  # lazily, as in rating_for()

        last = int(self._meta("last_answer_id") or 0)
        rows = self.conn.execute(
            "SELECT id, at, kind, themes, correct, seconds, hints FROM answers WHERE id > ? "
            "ORDER BY at, id",
            (last,),
        ).fetchall()
        if not rows:
            return 0
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            cache: dict[str, list] = {}
            for rid, at, kind, themes, correct, seconds, hints in rows:
                try:
                    theme_list = json.loads(themes)
                except (TypeError, ValueError):
                    theme_list = []
                rating = rating_for(bool(correct), seconds, kind, int(hints or 0))
                when = _utc(at)
                for skill in skills_of(kind, theme_list):
                    entry = cache.get(skill)
                    if entry is None:
                        row = self.conn.execute(
                            "SELECT card, reviews, lapses, right FROM review_cards WHERE skill = ?",
                            (skill,),
                        ).fetchone()
                        if row:
                            entry = [Card.from_json(row[0]), row[1], row[2], row[3]]
                        else:
                            entry = [
                                Card(card_id=zlib.crc32(skill.encode()) + 1, due=when),
                                0,
                                0,
                                0,
                            ]
                        cache[skill] = entry
                    card = entry[0]
                    review_at = max(when, card.last_review) if card.last_review else when
                    card, _ = self.scheduler.review_card(card, rating, review_datetime=review_at)
                    entry[0] = card
                    entry[1] += 1
                    entry[2] += int(rating == Rating.Again)
                    entry[3] += int(bool(correct))
                last = max(last, rid)
            now = max(r[1] for r in rows)
            for skill, (card, reviews, lapses, right) in cache.items():
                self.conn.execute(
                    "INSERT INTO review_cards (skill, card, reviews, lapses, right, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(skill) DO UPDATE SET card = "
                    "excluded.card, reviews = excluded.reviews, lapses = excluded.lapses, "
                    "right = excluded.right, updated_at = excluded.updated_at",
                    (skill, card.to_json(), reviews, lapses, right, now),
                )
            self.conn.execute(
                "INSERT INTO review_meta (key, value) VALUES ('last_answer_id', ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (str(last),),
            )
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        return len(rows)

    # -- reading ---------------------------------------------------------------------------

    def skills(self, now: datetime | None = None, group: str | None = None) -> list[SkillState]:
        """Every skill's schedule, weakest first (after a :meth:`sync`).  ``group`` limits to
        ``kind`` or ``theme`` skills."""
        from fsrs import Card  # lazily, as in rating_for()

        self.sync()
        if not self.ready:
            return []
        now = now or datetime.now(UTC)
        out = []
        for skill, card_json, reviews, lapses, right in self.conn.execute(
            "SELECT skill, card, reviews, lapses, right FROM review_cards"
        ):
            g, _, name = skill.partition(":")
            if group is not None and g != group:
                continue
            card = Card.from_json(card_json)
            r = self.retrievability(card, now)
            r_day = self.retrievability(card, now + timedelta(days=1))
            out.append(
                SkillState(
                    skill,
                    name,
                    g,
                    r,
                    card.due,
                    card.stability,
                    card.difficulty,
                    reviews,
                    lapses,
                    right,
                    r_day,
                )
            )
        out.sort(
            key=lambda s: (round(s.tomorrow, 3), s.due, -(s.difficulty or 0), s.accuracy, s.skill)
        )
        return out

    def retrievability(self, card, now: datetime) -> float:
        """Predicted recall of ``card`` at ``now`` (FSRS's forgetting curve, with fractional
        days, so that answers of the same day still order the skills)."""
        if card.last_review is None or card.stability is None:
            return 0.0
        days = max(0.0, (now - card.last_review).total_seconds() / 86400)
        decay = -float(self.scheduler.parameters[20])
        factor = 0.9 ** (1 / decay) - 1
        return (1 + factor * days / card.stability) ** decay

    def due(self, now: datetime | None = None) -> list[SkillState]:
        """The skills due for review now, weakest first."""
        now = now or datetime.now(UTC)
        return [s for s in self.skills(now) if s.is_due(now)]


def _cannot_write_now(exc: sqlite3.OperationalError) -> bool:
    """The progress file is busy (another program's lock) or cannot grow (a full disk)."""
    return getattr(exc, "sqlite_errorname", "").startswith(
        ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_FULL", "SQLITE_IOERR")
    )


def weak_skills(
    store=None, limit: int | None = None, group: str | None = None, now: datetime | None = None
) -> list[SkillState]:
    """The weakest skills (see :meth:`ReviewBook.skills`); ``store`` defaults to the learner's
    progress store."""
    own = store is None
    if own:
        store = ProgressStore()
    try:
        out = ReviewBook(store).skills(now, group)
    finally:
        if own:
            store.close()
    return out[:limit] if limit is not None else out


def render_weak_skills(states: list[SkillState], now: datetime | None = None, width: int = 80):
    """A table of skills weakest first: FSRS's predicted recall a day from now, when the skill
    is due for review, and (at 60 columns and wider) right answers of all.  (Recall now is left
    out: it is about 100% for every skill just reviewed, right or wrong; see the module
    docstring.)"""
    now = now or datetime.now(UTC)
    t = Table.grid(padding=(0, 1))
    t.add_column(overflow="fold", ratio=1)
    t.add_column(justify="right", no_wrap=True)
    t.add_column(justify="right", no_wrap=True)
    if width >= 60:
        t.add_column(justify="right", no_wrap=True, style="dim")
    t.add_row(
        Text("skill", style="dim"),
        Text("recall tomorrow", style="dim"),
        Text("due", style="dim"),
        *([Text("right", style="dim")] if width >= 60 else []),
    )
    for s in states:
        style = "red" if s.tomorrow < 0.7 else "yellow" if s.tomorrow < 0.9 else "green"
        row: list[Text | str] = [
            Text(f"{skill_label(s.name, s.group)} ({s.group})"),
            Text(f"{100 * s.tomorrow:.0f}%", style=style),
            _when(s.due, now),
        ]
        if width >= 60:
            row.append(f"{s.right}/{s.reviews}")
        t.add_row(*row)
    return t


def skill_label(name: str, group: str) -> str:
    """A skill in the learner's words: a theme's plain words (``Spotting mistakes to claim``),
    a kind's title, never an id with its group (``oversight (theme)``, ``settlement (kind)``)."""
    if group == "theme":
        return theme_label(name)
    from tutor.puzzles import definition

    try:
        return definition(name).title
    except LaughError:  # a kind of an older version, or from an import: as it is
        return name


def _when(due: datetime, now: datetime) -> str:
    secs = (due - now).total_seconds()
    if secs <= 0:
        return "now"
    if secs < 3600:
        return f"{max(1, round(secs / 60))} min"
    if secs < 86400 * 2:
        return f"{round(secs / 3600)} h"
    return f"{round(secs / 86400)} d"
