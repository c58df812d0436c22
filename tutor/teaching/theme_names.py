"""One name a theme in the progress store: older spellings respelled, and merged.

The progress store records each answer's themes in the one spelling of theme ids
(:func:`tutor.puzzles.themes.theme_ids`), and an import does the same with another machine's
answers.  A file written before that (play recorded ``laid_down_dead_pair`` where puzzles
recorded ``laid-down-dead-pair``) is respelled once, when it is opened, by
:func:`respell_stored_themes`: the answers' themes rewritten, the ratings rebuilt from the
answers (so the two spellings' ratings become one), and the review schedules dropped to be
rebuilt from them; what a damaged file's salvage keeps is respelled in the salvage's own
transaction (:func:`respell_rows`).  Nothing is lost: only the spelling of a theme changes.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from tutor.puzzles.themes import theme_ids

__all__ = ["respell_rows", "respell_stored_themes"]

#: Rows whose themes may be spelt otherwise: an underscore, a capital letter or a space in a
#: theme (not the space of JSON's ``", "`` between two themes, which every answer of two themes
#: has).  The rows found are checked in Python; this only keeps a store already in the one
#: spelling from being decoded at every open (a scan of about 0.4 s at a million answers).
_MAYBE_OLD = (
    "SELECT id, themes FROM answers WHERE instr(themes, '_') > 0 "
    "OR themes <> lower(themes) OR instr(replace(themes, '\", \"', ''), ' ') > 0"
)


def _respelled(conn: sqlite3.Connection) -> list[tuple[str, int]]:
    """(themes JSON in the one spelling, row id) for every answer of ``conn`` spelt otherwise."""
    changed = []
    for rid, text in conn.execute(_MAYBE_OLD).fetchall():
        try:
            themes = json.loads(text)
        except (TypeError, ValueError):
            continue  # the store's own checks refuse a damaged row
        if not isinstance(themes, list) or not all(isinstance(t, str) for t in themes):
            continue
        new = theme_ids(themes)
        if new != themes:
            changed.append((json.dumps(new), rid))
    return changed


def respell_rows(conn: sqlite3.Connection) -> int:
    """Rewrite every answer's themes in ``conn`` in the one spelling, inside the caller's
    transaction (the caller rebuilds the ratings and review tables when it matters).  Returns
    how many answers changed."""
    changed = _respelled(conn)
    if changed:
        conn.executemany("UPDATE answers SET themes = ? WHERE id = ?", changed)
    return len(changed)


def respell_stored_themes(
    conn: sqlite3.Connection, rebuild_ratings: Callable[[sqlite3.Connection], object]
) -> int:
    """Rewrite every answer's themes in ``conn`` (an open progress store, outside a transaction)
    in the one spelling; when any changed, call ``rebuild_ratings(conn)`` in the same transaction
    and drop the review tables (they are rebuilt from the answers).  Returns how many answers
    changed (0 leaves the file untouched).  Raises :class:`sqlite3.Error` as SQLite does (the
    transaction is rolled back)."""
    changed = _respelled(conn)
    if not changed:
        return 0
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.executemany("UPDATE answers SET themes = ? WHERE id = ?", changed)
        rebuild_ratings(conn)
        conn.execute("DROP TABLE IF EXISTS review_cards")
        conn.execute("DROP TABLE IF EXISTS review_meta")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return len(changed)
