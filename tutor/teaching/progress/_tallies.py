"""Answers counted by theme, kind or local day, in SQL (private: see
:meth:`tutor.teaching.progress.ProgressStore.tallies`).

The counts and sums are SQLite's (``GROUP BY``); the medians are read off the timed seconds as
SQLite sorts them, group by group, without building a Python object per answer: a store of a
million answers is counted in seconds.  :func:`count_rows` is the same counting in Python: the
reference the tests hold the SQL to, and the way themes are counted where SQLite was built
without its JSON functions.
"""

from __future__ import annotations

import json
import sqlite3
import statistics
from collections.abc import Iterable

from tutor.teaching.progress._store_rows import Tally

#: An answer's themes, each once (a theme listed twice counts once).
_THEME_ROWS = (
    "SELECT j.value, a.correct, a.seconds FROM answers AS a, json_each(a.themes) AS j "
    "WHERE a.at >= ? AND j.key = (SELECT MIN(k.key) FROM json_each(a.themes) AS k "
    "WHERE k.value = j.value)"
)
_KIND_ROWS = "SELECT kind, correct, seconds FROM answers WHERE at >= ?"

#: The local date of an answer (the C library's time zone, as :func:`time.localtime`), as days
#: since 1970-01-01; then the first date of its period of ``:days`` days.
_DAY_ROWS = (
    "SELECT date((d - ((d % :days) + :days) % :days) * 86400, 'unixepoch'), correct, "
    "seconds FROM (SELECT CAST(julianday(date(at, 'unixepoch', 'localtime')) - 2440587.5 "
    "AS INTEGER) AS d, correct, seconds FROM answers)"
)


def tallies(conn: sqlite3.Connection, by: str, since: float | None) -> list[Tally]:
    """Answers since Unix time ``since`` (all when None) counted by ``"theme"`` or
    ``"kind"``, in no particular order."""
    start = -1.0 if since is None else since
    if by == "kind":
        return _run(conn, _KIND_ROWS, (start,))
    try:
        return _run(conn, _THEME_ROWS, (start,))
    except sqlite3.OperationalError as exc:
        if "no such" not in str(exc):  # "no such table: json_each", "no such function"
            raise
    rows = conn.execute("SELECT themes, correct, seconds FROM answers WHERE at >= ?", (start,))
    return count_rows(
        (t, correct, seconds)
        for themes, correct, seconds in rows
        for t in dict.fromkeys(json.loads(themes))
    )


def timeline(conn: sqlite3.Connection, days: int) -> list[Tally]:
    """Answers counted per period of ``days`` local days, oldest first; each tally's name is
    the period's first date, ``YYYY-MM-DD``."""
    return sorted(_run(conn, _DAY_ROWS, {"days": int(days)}), key=lambda t: t.name)


def _run(conn: sqlite3.Connection, rows: str, args) -> list[Tally]:
    """Rows ``(g, correct, seconds)`` (the query ``rows``) counted by ``g``."""
    out = [
        Tally(g, n, right or 0, total, timed)
        for g, n, right, total, timed in conn.execute(
            f"WITH t(g, correct, seconds) AS ({rows}) SELECT g, COUNT(*), SUM(correct), "
            "TOTAL(seconds), COUNT(seconds) FROM t GROUP BY g ORDER BY g",
            args,
        )
    ]
    # Every timed time, by group in the order above and then by time: each group's median is
    # at known places of its run (``timed`` long).  Only floats cross into Python.
    times = conn.execute(
        f"WITH t(g, correct, seconds) AS ({rows}) SELECT seconds FROM t "
        "WHERE seconds IS NOT NULL ORDER BY g, seconds",
        args,
    )
    for t in out:
        if not t.timed:
            continue
        run = [x for (x,) in times.fetchmany(t.timed)]
        half = t.timed // 2
        t.median_seconds = run[half] if t.timed % 2 else (run[half - 1] + run[half]) / 2
    return out


def count_rows(rows: Iterable[tuple[str, int, float | None]]) -> list[Tally]:
    """Rows ``(name, correct, seconds)`` counted by name, in Python (the reference of the SQL
    above)."""
    out: dict[str, Tally] = {}
    times: dict[str, list[float]] = {}
    for name, correct, seconds in rows:
        t = out.get(name)
        if t is None:
            t = out[name] = Tally(name)
            times[name] = []
        t.n += 1
        t.right += bool(correct)
        if seconds is not None:
            t.seconds += seconds
            t.timed += 1
            times[name].append(seconds)
    for name, t in out.items():
        t.median_seconds = statistics.median(times[name]) if times[name] else None
    return list(out.values())
