"""What comes in from outside the program, checked one way: the answers, sightings and lessons
of a progress export (:mod:`tutor.teaching.transfer`), and the lines of the journal of changes
kept for later (:mod:`tutor.teaching.progress._pending`), which a person or another program
could have written as well.  Each check returns the value as the store keeps it, or raises
:class:`Bad` naming where it stands (``answers[3].kind``) and what is wrong."""

from __future__ import annotations

import math

from tutor.puzzles.themes import theme_ids
from tutor.teaching.progress._records import Answer, LessonState, Sighting
from tutor.teaching.progress._schema import CONTEXTS, LATEST_TIME, LONGEST_ANSWER, OUTCOMES

__all__ = ["MAX_TEXT", "PLAY_KINDS", "Bad", "answer", "boolean", "known_kinds", "lesson",
           "moment", "number", "opt", "sighting", "text", "whole"]

#: The longest text a name, id or theme that comes in may be.
MAX_TEXT = 200


class Bad(Exception):
    """A value this program could not have written (the message says where and why)."""


def known_kinds() -> frozenset[str]:
    """The kinds of answer this program records: the puzzle kinds, and the moments of a
    practice deal or match that are not puzzle kinds (:mod:`tutor.app.play.game`)."""
    from tutor.puzzles.registry import KINDS
    return frozenset(KINDS) | PLAY_KINDS


#: Kinds of the moments graded in a practice deal or a match that are not puzzle kinds.
PLAY_KINDS = frozenset({"capture-choice", "declaration"})


def answer(a, where: str, kinds: frozenset[str] | None = None) -> Answer:
    """An answer of an export (or a journal line) as the store keeps it; :class:`Bad` naming
    ``where`` and the first value wrong.  ``kinds``: the kinds known (default
    :func:`known_kinds`)."""
    kinds = known_kinds() if kinds is None else kinds
    if not isinstance(a, dict):
        raise Bad(f"{where} must be an object")
    themes = a.get("themes")
    if not isinstance(themes, list) or not all(isinstance(t, str) and 0 < len(t) <= MAX_TEXT
                                               for t in themes):
        raise Bad(f"{where}.themes must be a list of theme names")
    seconds = opt(a, "seconds", number, f"{where}.seconds")
    if seconds is not None and not 0 <= seconds <= LONGEST_ANSWER:
        raise Bad(f"{where}.seconds must be from 0 to {LONGEST_ANSWER}, or null")
    difficulty = opt(a, "difficulty", whole, f"{where}.difficulty")
    if difficulty is not None and not 1 <= difficulty <= 5:
        raise Bad(f"{where}.difficulty must be from 1 to 5, or null")
    hints = whole(a.get("hints", 0), f"{where}.hints")
    if hints < 0:
        raise Bad(f"{where}.hints must be at least 0")
    at = moment(a.get("at"), f"{where}.at")
    puzzle_id = text(a.get("puzzle_id"), f"{where}.puzzle_id")
    kind = text(a.get("kind"), f"{where}.kind")
    if kind not in kinds:
        raise Bad(f"{where}.kind {kind!r} is not a kind of answer this program records (one of "
                   f"{', '.join(sorted(kinds))})")
    return Answer(at=at, puzzle_id=puzzle_id, kind=kind,
                  themes=tuple(theme_ids(themes)),          # one name a theme, old spellings too
                  correct=boolean(a.get("correct"), f"{where}.correct"), seconds=seconds,
                  hints=hints, lesson=opt(a, "lesson", text, f"{where}.lesson"),
                  ruleset=opt(a, "ruleset", text, f"{where}.ruleset"),
                  retry=boolean(a.get("retry", False), f"{where}.retry"),
                  uid=text(a.get("uid"), f"{where}.uid"), difficulty=difficulty,
                  revealed=boolean(a.get("revealed", False), f"{where}.revealed"))


def sighting(x, where: str) -> Sighting:
    """A sighting of an export (or a journal line) as the store keeps it; :class:`Bad` naming
    ``where`` and the first value wrong."""
    if not isinstance(x, dict):
        raise Bad(f"{where} must be an object")
    context, outcome = x.get("context"), x.get("outcome")
    if context not in CONTEXTS:
        raise Bad(f"{where}.context must be one of {', '.join(CONTEXTS)}")
    if outcome not in OUTCOMES:
        raise Bad(f"{where}.outcome must be one of {', '.join(OUTCOMES)}")
    kind = x.get("kind")
    if not isinstance(kind, str) or len(kind) > MAX_TEXT:
        raise Bad(f"{where}.kind must be text of at most {MAX_TEXT} characters")
    seconds = opt(x, "seconds", number, f"{where}.seconds")
    if seconds is not None and not 0 <= seconds <= LONGEST_ANSWER:
        raise Bad(f"{where}.seconds must be from 0 to {LONGEST_ANSWER}, or null")
    return Sighting(at=moment(x.get("at"), f"{where}.at"), context=context, kind=kind,
                    outcome=outcome, seconds=seconds,
                    ruleset=opt(x, "ruleset", text, f"{where}.ruleset"),
                    source=opt(x, "source", text, f"{where}.source"),
                    uid=text(x.get("uid"), f"{where}.uid"))


def lesson(x, where: str) -> LessonState:
    """A lesson's state of an export as the store keeps it; :class:`Bad` naming ``where`` and
    the first value wrong."""
    if not isinstance(x, dict):
        raise Bad(f"{where} must be an object")
    answered = x.get("answered", {})
    if not isinstance(answered, dict) or not all(isinstance(v, bool) for v in answered.values()):
        raise Bad(f"{where}.answered must map slots to true or false")
    page = whole(x.get("page", 0), f"{where}.page")
    if page < 0:
        raise Bad(f"{where}.page must be at least 0")
    completed = x.get("completed_at")
    right = opt(x, "right", whole, f"{where}.right")
    total = opt(x, "total", whole, f"{where}.total")
    if completed is None and (right is not None or total is not None):
        raise Bad(f"{where} has a score (right, total) but no completed_at")
    if completed is not None and (right is None or total is None):
        raise Bad(f"{where}.right and .total must be given with completed_at")
    if right is not None and not 0 <= right <= total:
        raise Bad(f"{where}.right must be from 0 to total ({total}), not {right}")
    return LessonState(
        lesson=text(x.get("lesson"), f"{where}.lesson"), seed=whole(x.get("seed"), f"{where}.seed"),
        page=page, answered=dict(answered),
        started_at=moment(x.get("started_at"), f"{where}.started_at"),
        updated_at=moment(x.get("updated_at"), f"{where}.updated_at"),
        completed_at=None if completed is None else moment(completed, f"{where}.completed_at"),
        right=right, total=total,
        in_progress=boolean(x.get("in_progress", False), f"{where}.in_progress"))


def opt(obj: dict, key: str, check, where: str):
    value = obj.get(key)
    return None if value is None else check(value, where)


def text(value, where: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
        raise Bad(f"{where} must be text of 1 to {MAX_TEXT} characters")
    return value


def boolean(value, where: str) -> bool:
    if not isinstance(value, bool):
        raise Bad(f"{where} must be true or false")
    return value


def whole(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Bad(f"{where} must be a whole number")
    if not -2 ** 63 <= value < 2 ** 63:
        raise Bad(f"{where} is a number of {len(str(abs(value)))} digits, out of range")
    return value


def number(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Bad(f"{where} must be a number")
    if isinstance(value, int) and abs(value) >= 2 ** 63:
        raise Bad(f"{where} is a number of {len(str(abs(value)))} digits, out of range")
    if not math.isfinite(float(value)):
        raise Bad(f"{where} must be a number")
    return float(value)


def moment(value, where: str) -> float:
    t = number(value, where)
    if not 0 <= t <= LATEST_TIME:
        raise Bad(f"{where} must be a Unix time from 0 to {LATEST_TIME}")
    return t
