"""Progress that travels: a learner's progress as one JSON file, merged into another machine's
store, and read for a teacher's class report.

``laugh progress export FILE.json`` writes :func:`export_data` (format :data:`FORMAT`):

- ``answers``: every answer with its ``uid`` (the key that lets two machines' histories merge),
  time (``at``, Unix seconds), puzzle id, kind, themes, right or wrong, ``seconds`` (null when
  not timed), hints, lesson, ruleset, retry, ``difficulty`` (the puzzle band, null when
  unknown), ``revealed``;
- ``lessons``: each lesson's saved state (seed, page, answers so far, completion and score);
- ``meta``: the small settings (the last lesson opened, the drills' bests);
- ``ratings``: the ratings as they stood (for readers of the file: an import recomputes them
  from the merged answers, so a file cannot bring ratings its answers do not support);
- ``learner``: a name for the class report (or null).

``laugh progress import FILE.json`` reads the whole file and checks every value first
(:func:`read_export`): a damaged file is refused in one line naming the file and what is wrong,
and the store is not touched.  Then :meth:`tutor.teaching.progress.ProgressStore.merge` adds it
in one transaction: answers keyed by ``uid`` (never duplicated, nothing lost; importing the same
file twice changes nothing), lessons and settings merged, ratings recomputed from every answer
in time order.
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path

from tutor.engine.errors import DataError, UsageError
from tutor.puzzles.themes import theme_ids
from tutor.teaching.progress import (LATEST_TIME, LONGEST_ANSWER, Answer, LessonState,
                                     ProgressStore)

__all__ = ["FORMAT", "Export", "export_data", "write_export", "read_export", "parse_export",
           "import_file"]

#: The format name of a progress export.
FORMAT = "laugh-and-lie-down/progress@1"

#: The longest text a name, id or theme in an export may be.
_MAX_TEXT = 200


@dataclass
class Export:
    """A progress export read back: ``learner`` (a name, or None), ``answers``, ``lessons``,
    ``meta`` (key -> value), ``ratings`` (subject -> {rating, rd, games}, as exported) and
    ``exported_at`` (Unix time)."""

    learner: str | None
    answers: list[Answer]
    lessons: list[LessonState]
    meta: dict[str, str]
    ratings: dict[str, dict]
    exported_at: float


def export_data(store: ProgressStore, learner: str | None = None) -> dict:
    """The store's progress as a JSON-ready dict in :data:`FORMAT` (see the module docstring)."""
    return {
        "format": FORMAT,
        "exported_at": time.time(),
        "learner": learner,
        "answers": [{"uid": a.uid, "at": a.at, "puzzle_id": a.puzzle_id, "kind": a.kind,
                     "themes": list(a.themes), "correct": a.correct, "seconds": a.seconds,
                     "hints": a.hints, "lesson": a.lesson, "ruleset": a.ruleset,
                     "retry": a.retry, "difficulty": a.difficulty, "revealed": a.revealed}
                    for a in store.answers()],
        "lessons": [{"lesson": s.lesson, "seed": s.seed, "page": s.page, "answered": s.answered,
                     "started_at": s.started_at, "updated_at": s.updated_at,
                     "completed_at": s.completed_at, "right": s.right, "total": s.total,
                     "in_progress": s.in_progress}
                    for s in store.lesson_states().values()],
        "meta": store.meta_items(),
        "ratings": {k: {"rating": round(v.rating.rating, 2), "rd": round(v.rating.rd, 2),
                        "games": v.games} for k, v in store.ratings().items()},
    }


def write_export(store: ProgressStore, path: str | Path, learner: str | None = None) -> int:
    """Write :func:`export_data` to ``path`` (whole or not at all: a file beside it, then
    renamed); returns the number of answers written.  Raises :class:`UsageError` when the file
    cannot be written."""
    data = export_data(store, learner)
    path = Path(path)
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")     # the umask's permissions
    try:
        try:
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    return len(data["answers"])


def read_export(path: str | Path) -> Export:
    """Read and check a progress export.  Raises :class:`DataError` naming the file and the
    first thing wrong with it (cannot be read, not JSON, not a progress export, a value of the
    wrong type or out of range)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise DataError(f"{path}: not a progress export (not UTF-8 text)") from None
    return parse_export(text, str(path))


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def parse_export(text: str, name: str = "the export") -> Export:
    """:func:`read_export` of ``text``; ``name`` names it in the errors."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise DataError(f"{name}: not a progress export (not JSON: {exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DataError(f"{name}: not a progress export (its format must be {FORMAT!r})")
    try:
        return _export(data)
    except _Bad as exc:
        raise DataError(f"{name}: damaged, nothing taken from it ({exc})") from None


class _Bad(Exception):
    """A value of an export that this program could not have written (internal)."""


def _export(data: dict) -> Export:
    learner = _opt(data, "learner", _text, "learner")
    exported_at = _time(data.get("exported_at", 0), "exported_at")
    answers, lessons = data.get("answers"), data.get("lessons", [])
    meta, ratings = data.get("meta", {}), data.get("ratings", {})
    if not isinstance(answers, list):
        raise _Bad("'answers' must be a list")
    if not isinstance(lessons, list):
        raise _Bad("'lessons' must be a list")
    if not isinstance(meta, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                             for k, v in meta.items()):
        raise _Bad("'meta' must map names to text")
    if not isinstance(ratings, dict):
        raise _Bad("'ratings' must be an object")
    return Export(learner, [_answer(a, i) for i, a in enumerate(answers)],
                  [_lesson(x, i) for i, x in enumerate(lessons)], dict(meta), dict(ratings),
                  exported_at)


def _answer(a, i: int) -> Answer:
    where = f"answers[{i}]"
    if not isinstance(a, dict):
        raise _Bad(f"{where} must be an object")
    themes = a.get("themes")
    if not isinstance(themes, list) or not all(isinstance(t, str) and 0 < len(t) <= _MAX_TEXT
                                               for t in themes):
        raise _Bad(f"{where}.themes must be a list of theme names")
    seconds = _opt(a, "seconds", _number, f"{where}.seconds")
    if seconds is not None and not 0 <= seconds <= LONGEST_ANSWER:
        raise _Bad(f"{where}.seconds must be from 0 to {LONGEST_ANSWER}, or null")
    difficulty = _opt(a, "difficulty", _int, f"{where}.difficulty")
    if difficulty is not None and not 1 <= difficulty <= 5:
        raise _Bad(f"{where}.difficulty must be from 1 to 5, or null")
    hints = _int(a.get("hints", 0), f"{where}.hints")
    if hints < 0:
        raise _Bad(f"{where}.hints must be at least 0")
    return Answer(at=_time(a.get("at"), f"{where}.at"),
                  puzzle_id=_text(a.get("puzzle_id"), f"{where}.puzzle_id"),
                  kind=_text(a.get("kind"), f"{where}.kind"),
                  themes=tuple(theme_ids(themes)),          # one name a theme, old spellings too
                  correct=_bool(a.get("correct"), f"{where}.correct"), seconds=seconds,
                  hints=hints, lesson=_opt(a, "lesson", _text, f"{where}.lesson"),
                  ruleset=_opt(a, "ruleset", _text, f"{where}.ruleset"),
                  retry=_bool(a.get("retry", False), f"{where}.retry"),
                  uid=_text(a.get("uid"), f"{where}.uid"), difficulty=difficulty,
                  revealed=_bool(a.get("revealed", False), f"{where}.revealed"))


def _lesson(x, i: int) -> LessonState:
    where = f"lessons[{i}]"
    if not isinstance(x, dict):
        raise _Bad(f"{where} must be an object")
    answered = x.get("answered", {})
    if not isinstance(answered, dict) or not all(isinstance(v, bool) for v in answered.values()):
        raise _Bad(f"{where}.answered must map slots to true or false")
    page = _int(x.get("page", 0), f"{where}.page")
    if page < 0:
        raise _Bad(f"{where}.page must be at least 0")
    completed = x.get("completed_at")
    return LessonState(
        lesson=_text(x.get("lesson"), f"{where}.lesson"), seed=_int(x.get("seed"), f"{where}.seed"),
        page=page, answered=dict(answered),
        started_at=_time(x.get("started_at"), f"{where}.started_at"),
        updated_at=_time(x.get("updated_at"), f"{where}.updated_at"),
        completed_at=None if completed is None else _time(completed, f"{where}.completed_at"),
        right=_opt(x, "right", _int, f"{where}.right"),
        total=_opt(x, "total", _int, f"{where}.total"),
        in_progress=_bool(x.get("in_progress", False), f"{where}.in_progress"))


def _opt(obj: dict, key: str, check, where: str):
    value = obj.get(key)
    return None if value is None else check(value, where)


def _text(value, where: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= _MAX_TEXT:
        raise _Bad(f"{where} must be text of 1 to {_MAX_TEXT} characters")
    return value


def _bool(value, where: str) -> bool:
    if not isinstance(value, bool):
        raise _Bad(f"{where} must be true or false")
    return value


def _int(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= 2 ** 63:
        raise _Bad(f"{where} must be a whole number")
    return value


def _number(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not math.isfinite(float(value)):
        raise _Bad(f"{where} must be a number")
    return float(value)


def _time(value, where: str) -> float:
    t = _number(value, where)
    if not 0 <= t <= LATEST_TIME:
        raise _Bad(f"{where} must be a Unix time from 0 to {LATEST_TIME}")
    return t


def import_file(store: ProgressStore, path: str | Path) -> tuple[Export, int, int]:
    """Read ``path`` (:func:`read_export`, refused whole when damaged) and merge it into
    ``store``; returns the export read, the answers added and the answers already there."""
    export = read_export(path)
    added, known = store.merge(export.answers, export.lessons, export.meta)
    return export, added, known
