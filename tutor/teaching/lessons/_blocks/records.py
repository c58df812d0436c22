"""``records``: the records of the game from the source files (a teacher's own folder too), in
date order, each with its citation, its words or that it is known from a citation only, and who
gives it: the list a lesson teaches and its timeline puzzles ask about."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.teaching.lessons._common import _shown
from tutor.teaching.lessons._model import RecordsData

if TYPE_CHECKING:
    from tutor.teaching.lessons._blockcheck import BlockChecker

DESCRIPTION = (
    "the records of the game from the source files (the teacher's own too), in date "
    "order, with their citations and words"
)


def parse(ck: BlockChecker, content: str, line: int) -> RecordsData | None:
    """``{"kinds": [...] or None}``: the kinds of record shown (every kind when not given)."""
    from tutor.engine.sources import RECORD_KINDS

    got = ck.mapping("records", content, line, ("kinds",))
    if got is None:
        return None
    data, lines = got
    kinds = data.get("kinds")
    if kinds is None:
        return {"kinds": None}
    if not isinstance(kinds, list) or not kinds or any(k not in RECORD_KINDS for k in kinds):
        ck.fail(
            lines.get("kinds", line),
            "records.kinds",
            f"{_shown(kinds)} is not a list of kinds of record ({', '.join(RECORD_KINDS)})",
        )
        return None
    return {"kinds": list(kinds)}
