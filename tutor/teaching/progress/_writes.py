"""Every change the store makes, as a plain record (an *op*) and the SQL that applies it, so that
a change that cannot be written now (the file busy or the disk full) can be kept in a journal and
applied later, in order, exactly as it would have been (private: see
:mod:`tutor.teaching.progress`).

An op is a JSON object with ``op`` (its kind) and ``id`` (an answer's uid, else a fresh one):

- ``answer``: one graded answer (the columns of ``answers``, and the lesson ``slot`` it fills);
- ``start``: a new attempt at a lesson (``lesson``, ``seed``, ``at``);
- ``page``: the page a lesson reached (``lesson``, ``page``, ``at``);
- ``complete``: a lesson finished (``lesson``, ``right``, ``total``, ``at``);
- ``meta``: a small setting (``key``, ``value``);
- ``sighting``: one figure of spotting oversights (the columns of ``sightings``; ``id`` is its
  uid).

Applying an op twice changes nothing more (answers are keyed by uid; a lesson slot keeps its
first answer), so a journal replayed after a crash between its commit and its clearing is safe.
"""

from __future__ import annotations

import json
import sqlite3

from tutor.puzzles.themes import theme_ids
from tutor.teaching import ratings as R
from tutor.teaching.progress import _values as V
from tutor.teaching.progress._schema import _LONGEST
from tutor.teaching.progress._store_rows import RatingChange

__all__ = ["apply", "apply_in_transaction", "check", "Transaction", "save_rating"]


class Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception (Ctrl-C included), and when the
    COMMIT itself fails (a busy file or a full disk leaves the transaction open)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            try:
                self.conn.execute("COMMIT")
                return
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")


def apply_in_transaction(conn: sqlite3.Connection, op: dict):
    """:func:`apply` in a transaction of its own."""
    with Transaction(conn):
        return apply(conn, op)


def check(op: dict) -> None:
    """Raise KeyError, TypeError or :class:`~tutor.teaching.progress._values.StoreValueError`
    when ``op`` (read back from a journal) is not a change this program makes."""
    V.text(op["id"], "a change's id")
    kind = op["op"]
    fields = {
        "answer": (
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
            "difficulty",
            "revealed",
        ),
        "start": ("at", "lesson", "seed"),
        "page": ("at", "lesson", "page"),
        "complete": ("at", "lesson", "right", "total"),
        "meta": ("key", "value"),
        "sighting": ("at", "context", "kind", "outcome", "seconds", "ruleset", "source"),
    }[kind]
    for name in fields:
        value = op[name]
        if name == "at":
            V.moment(value)
        elif name in ("puzzle_id", "kind", "lesson", "key", "value", "context"):
            V.text(value, name, optional=name == "lesson" and kind == "answer")
        elif name == "outcome":
            V.outcome(value)
        elif name in ("ruleset", "source"):
            V.text(value, name, optional=True)
        elif name == "themes":
            if not isinstance(value, list):
                raise TypeError("themes")
            for theme in value:
                V.text(theme, "a theme")
        elif name in ("correct", "retry", "revealed"):
            if not isinstance(value, bool):
                raise TypeError(name)
        elif name == "seconds":
            if value is not None and (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not 0 <= value <= _LONGEST
            ):
                raise TypeError(name)
        elif name == "difficulty":
            V.band(value)
        elif name == "seed":
            V.whole(value, name)
        else:  # hints, page, right, total
            V.whole(value, name, 0)
    if kind == "answer":
        V.text(op.get("slot"), "slot", optional=True)
    if kind == "complete" and op["right"] > op["total"]:
        raise V.StoreValueError("right > total")


def apply(conn: sqlite3.Connection, op: dict):
    """Apply ``op`` inside the caller's transaction; an ``answer`` returns ``(added, the
    ratings it moved or None)``, the others None."""
    kind = op["op"]
    if kind == "answer":
        return _answer(conn, op)
    if kind == "start":
        conn.execute(
            "INSERT INTO lessons (lesson, seed, page, answered, started_at, updated_at, "
            "in_progress) VALUES (?, ?, 0, '{}', ?, ?, 1) ON CONFLICT(lesson) DO UPDATE SET "
            "seed = excluded.seed, page = 0, answered = '{}', started_at = excluded.started_at,"
            " updated_at = excluded.updated_at, in_progress = 1",
            (op["lesson"], op["seed"], op["at"], op["at"]),
        )
        set_meta(conn, "last_lesson", op["lesson"])
    elif kind == "page":
        conn.execute(
            "UPDATE lessons SET page = ?, updated_at = ? WHERE lesson = ?",
            (op["page"], op["at"], op["lesson"]),
        )
        set_meta(conn, "last_lesson", op["lesson"])
    elif kind == "complete":
        conn.execute(
            "UPDATE lessons SET completed_at = ?, right = ?, total = ?, "
            "in_progress = 0, updated_at = ? WHERE lesson = ?",
            (op["at"], op["right"], op["total"], op["at"], op["lesson"]),
        )
    elif kind == "meta":
        set_meta(conn, op["key"], op["value"])
    elif kind == "sighting":
        conn.execute(
            "INSERT INTO sightings (uid, at, context, kind, outcome, seconds, ruleset, "
            "source) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(uid) DO NOTHING",
            (
                op["id"],
                op["at"],
                op["context"],
                op["kind"],
                op["outcome"],
                op["seconds"],
                op["ruleset"],
                op["source"],
            ),
        )
    else:
        raise ValueError(f"no such change: {kind!r}")
    return None


def _answer(conn: sqlite3.Connection, op: dict) -> tuple[bool, RatingChange | None]:
    op = {**op, "themes": theme_ids(op["themes"])}  # one name a theme (a journal kept before)
    first = (
        conn.execute(
            "SELECT 1 FROM answers WHERE puzzle_id = ? LIMIT 1", (op["puzzle_id"],)
        ).fetchone()
        is None
    )
    added = (
        conn.execute(
            "INSERT INTO answers (uid, at, puzzle_id, kind, themes, correct, seconds, hints, lesson, "
            "ruleset, retry, difficulty, revealed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) "
            "ON CONFLICT(uid) DO NOTHING",
            (
                op["id"],
                op["at"],
                op["puzzle_id"],
                op["kind"],
                json.dumps(op["themes"]),
                int(op["correct"]),
                op["seconds"],
                op["hints"],
                op["lesson"],
                op["ruleset"],
                int(op["retry"]),
                op["difficulty"],
                int(op["revealed"]),
            ),
        ).rowcount
        == 1
    )
    change = None
    if added and R.counts(
        first,
        retry=op["retry"],
        revealed=op["revealed"],
        hints=op["hints"],
        difficulty=op["difficulty"],
        lesson=op["lesson"],
    ):
        change = _rate(conn, op)
    lesson, slot = op.get("lesson"), op.get("slot")
    if lesson is not None and slot is not None and not op["retry"]:
        row = conn.execute("SELECT answered FROM lessons WHERE lesson = ?", (lesson,)).fetchone()
        if row is not None:
            answered = json.loads(row[0])
            answered.setdefault(slot, bool(op["correct"]))
            conn.execute(
                "UPDATE lessons SET answered = ?, updated_at = ? WHERE lesson = ?",
                (json.dumps(answered), op["at"], lesson),
            )
    return added, change


def _rate(conn: sqlite3.Connection, op: dict) -> RatingChange:
    """Move the ratings for one rated answer."""
    before: dict[str, R.Rating] = {}

    def current(subject: str) -> R.Rating:
        if subject not in before:
            row = conn.execute(
                "SELECT rating, rd, vol FROM ratings WHERE subject = ?", (subject,)
            ).fetchone()
            before[subject] = R.Rating(*row) if row else R.default_rating(subject)
        return before[subject]

    after = R.rate(current, op["kind"], op["difficulty"], op["themes"], bool(op["correct"]))
    for subject, r in after.items():
        save_rating(conn, subject, r, op["at"], op["id"])
    return RatingChange({k: before[k] for k in after}, after)


def save_rating(
    conn: sqlite3.Connection, subject: str, r: R.Rating, at: float, uid: str, games: int = 1
) -> None:
    """Store ``subject``'s rating after the rated answer ``uid`` and add it to its history."""
    conn.execute(
        "INSERT INTO ratings (subject, rating, rd, vol, games, updated_at) VALUES "
        "(?, ?, ?, ?, ?, ?) ON CONFLICT(subject) DO UPDATE SET rating = excluded.rating, "
        "rd = excluded.rd, vol = excluded.vol, games = ratings.games + excluded.games, "
        "updated_at = excluded.updated_at",
        (subject, r.rating, r.rd, r.vol, games, at),
    )
    conn.execute(
        "INSERT INTO rating_history (subject, at, rating, rd, vol, answer_uid) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (subject, at, r.rating, r.rd, r.vol, uid),
    )


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO "
        "UPDATE SET value = excluded.value",
        (key, value),
    )
