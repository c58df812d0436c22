"""Progress that travels: a learner's progress as one JSON file, merged into another machine's
store, and read for a teacher's class report.

``laugh progress export FILE.json`` writes :func:`export_data` (format :data:`FORMAT`):

- ``answers``: every answer with its ``uid`` (the key that lets two machines' histories merge),
  time (``at``, Unix seconds), puzzle id, kind, themes, right or wrong, ``seconds`` (null when
  not timed), hints, lesson, ruleset, retry, ``difficulty`` (the puzzle band, null when
  unknown), ``revealed``;
- ``lessons``: each lesson's saved state (seed, page, answers so far, completion and score);
- ``meta``: the small settings (the last lesson opened, the drills' bests);
- ``sightings``: the figures of spotting oversights (:meth:`ProgressStore.record_sighting`),
  each with its ``uid`` (merged as answers are), time, context (play, match, drill), oversight
  kind, outcome (hit, miss, false_claim), seconds of a timed hit, ruleset and source; a file
  without them (an older export) imports with none;
- ``ratings``: the ratings as they stood (for readers of the file: an import recomputes them
  from the merged answers, so a file cannot bring ratings its answers do not support);
- ``learner``: a name for the class report (or null).

``laugh progress import FILE.json`` reads the whole file and checks every value first
(:func:`read_export`): a damaged file is refused in one line naming the file and what is wrong,
and the store is not touched.  Then :meth:`tutor.teaching.progress.ProgressStore.merge` adds it
in one transaction: answers (and sightings) keyed by ``uid`` (never duplicated, nothing lost;
importing the same file twice changes nothing), lessons and settings merged, ratings
recomputed from every answer in time order.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

from pydantic import Field

from tutor.engine import jsonfile
from tutor.engine.atomic import write_atomic
from tutor.engine.errors import DataError
from tutor.engine.models import Model, validate
from tutor.engine.outputs import cannot_write
from tutor.teaching.progress import Answer, LessonState, ProgressStore, Sighting
from tutor.teaching.progress import incoming as I
from tutor.teaching.progress._incoming_models import AnswerIn, LessonIn, Moment, SightingIn, Text

__all__ = [
    "FORMAT",
    "PLAY_KINDS",
    "Export",
    "ExportFile",
    "export_data",
    "write_export",
    "read_export",
    "parse_export",
    "merge_export",
    "import_file",
]

#: The format name of a progress export.
FORMAT = "laugh-and-lie-down/progress@1"

#: Kinds of the moments graded in a practice deal or a match that are not puzzle kinds.
PLAY_KINDS = I.PLAY_KINDS


@dataclass
class Export:
    """A progress export read back: ``learner`` (a name, or None), ``answers``, ``lessons``,
    ``meta`` (key -> value), ``ratings`` (subject -> {rating, rd, games}, as exported),
    ``exported_at`` (Unix time) and ``sightings`` (the figures of spotting oversights)."""

    learner: str | None
    answers: list[Answer]
    lessons: list[LessonState]
    meta: dict[str, str]
    ratings: dict[str, dict]
    exported_at: float
    sightings: list[Sighting] = field(default_factory=list)


def export_data(store: ProgressStore, learner: str | None = None) -> dict:
    """The store's progress as a JSON-ready dict in :data:`FORMAT` (see the module docstring)."""
    return {
        "format": FORMAT,
        "exported_at": time.time(),
        "learner": learner,
        "answers": [
            {
                "uid": a.uid,
                "at": a.at,
                "puzzle_id": a.puzzle_id,
                "kind": a.kind,
                "themes": list(a.themes),
                "correct": a.correct,
                "seconds": a.seconds,
                "hints": a.hints,
                "lesson": a.lesson,
                "ruleset": a.ruleset,
                "retry": a.retry,
                "difficulty": a.difficulty,
                "revealed": a.revealed,
            }
            for a in store.answers()
        ],
        "lessons": [
            {
                "lesson": s.lesson,
                "seed": s.seed,
                "page": s.page,
                "answered": s.answered,
                "started_at": s.started_at,
                "updated_at": s.updated_at,
                "completed_at": s.completed_at,
                "right": s.right,
                "total": s.total,
                "in_progress": s.in_progress,
            }
            for s in store.lesson_states().values()
        ],
        "meta": store.meta_items(),
        "sightings": [
            {
                "uid": s.uid,
                "at": s.at,
                "context": s.context,
                "kind": s.kind,
                "outcome": s.outcome,
                "seconds": s.seconds,
                "ruleset": s.ruleset,
                "source": s.source,
            }
            for s in store.sightings()
        ],
        "ratings": {
            k: {"rating": round(v.rating.rating, 2), "rd": round(v.rating.rd, 2), "games": v.games}
            for k, v in store.ratings().items()
        },
    }


def write_export(store: ProgressStore, path: str | Path, learner: str | None = None) -> int:
    """Write :func:`export_data` to ``path`` whole or not at all, through the path
    (:func:`tutor.engine.atomic.write_atomic`: a link's target replaced, a FIFO or device written
    through, never replaced by a file); returns the number of answers written.  Raises
    :class:`~tutor.engine.outputs.CannotWrite` when the file cannot be written."""
    data = export_data(store, learner)
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise cannot_write(path, exc) from None
    return len(data["answers"])


def read_export(path: str | Path) -> Export:
    """Read and check a progress export.  Raises :class:`DataError` naming the file and the
    first thing wrong with it (cannot be read, not JSON, not a progress export, a key given
    twice in one object, a value of the wrong type or out of range, an answer's uid given
    twice, a lesson's score that cannot be)."""
    path = Path(path)
    return parse_export(_read_text(path), str(path))


def _read_text(path: Path) -> str:
    """The one place an export is read from disk (a capped reader can take its place)."""
    try:
        return jsonfile.decode(jsonfile.read_bytes(path), str(path))  # within the size limit
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise DataError(f"{path}: not a progress export (not UTF-8 text)") from None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


class _Twice(dict):
    """A JSON object in which a key was given twice (``twice``: the first such key)."""

    twice: str = ""


def _object(pairs: list) -> dict:
    """``object_pairs_hook``: an object, marked when a key is given twice (``json`` would keep
    the last value silently)."""
    out = dict(pairs)
    if len(out) == len(pairs):
        return out
    seen: set = set()
    marked = _Twice(out)
    marked.twice = next(k for k, _ in pairs if k in seen or _note(seen, k))
    return marked


def _note(seen: set, key: object) -> bool:
    """Add ``key`` to ``seen``; False (for a test that goes on to the next key)."""
    seen.add(key)
    return False


def _find_twice(value, where: str) -> tuple[str, str] | None:
    """Where the first object with a key given twice is (``answers[3]``), and the key."""
    stack = [(value, where)]
    while stack:
        obj, at = stack.pop()
        if isinstance(obj, _Twice):
            return at or "the top level", obj.twice
        if isinstance(obj, dict):
            stack.extend((v, f"{at}.{k}" if at else str(k)) for k, v in reversed(obj.items()))
        elif isinstance(obj, list):
            stack.extend((v, f"{at}[{i}]") for i, v in reversed(list(enumerate(obj))))
    return None


def parse_export(text: str, name: str = "the export") -> Export:
    """:func:`read_export` of ``text``; ``name`` names it in the errors."""
    twice: list[bool] = []

    def pairs(items: list) -> dict:
        out = _object(items)
        if isinstance(out, _Twice):
            twice.append(True)
        return out

    try:
        data = json.loads(text, parse_constant=_no_constant, object_pairs_hook=pairs)
    except (ValueError, RecursionError) as exc:
        raise DataError(f"{name}: not a progress export (not JSON: {exc})") from None
    found = _find_twice(data, "") if twice else None
    if found is not None:
        where, key = found
        raise DataError(
            f"{name}: damaged, nothing taken from it ({where} gives the key {key!r} twice)"
        )
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DataError(f"{name}: not a progress export (its format must be {FORMAT!r})")
    if jsonfile.lone_surrogate(data, text):
        raise DataError(
            f"{name}: damaged, nothing taken from it (a string that is not text: a "
            "lone surrogate escape)"
        )
    try:
        return _export(data)
    except I.Bad as exc:
        raise DataError(f"{name}: damaged, nothing taken from it ({exc})") from None


class RatingIn(Model):
    """A subject's rating as an export holds it (:func:`export_data`): the Glicko-2
    ``rating`` and rating deviation ``rd`` (rating points) and the ``games`` (answers) behind
    them."""

    rating: float
    rd: float
    games: Annotated[int, Field(ge=0, strict=True)]


class ExportFile(Model):
    """A progress export as it comes in (:data:`FORMAT`; see the module docstring): every key
    one this program writes, an older export's missing ``sightings`` none."""

    format: str
    exported_at: Moment = 0.0
    learner: Text | None = None
    answers: list[AnswerIn]
    lessons: list[LessonIn] = []
    meta: dict[str, str] = {}
    sightings: list[SightingIn] = []
    ratings: dict[str, RatingIn] = {}


def _export(data: dict) -> Export:
    got = validate(ExportFile, data, error=I.Bad, context={"kinds": I.known_kinds()})
    read = [a.record() for a in got.answers]
    _once(
        [a.uid for a in read],
        "answers",
        "uid",
        "an answer's uid",
        lambda i, j: "the same answer" if read[i] == read[j] else "a different answer",
    )
    _once([x.lesson for x in got.lessons], "lessons", "lesson", "a lesson")
    _once([x.uid for x in got.sightings], "sightings", "uid", "a sighting's uid")
    return Export(
        got.learner,
        read,
        [x.record() for x in got.lessons],
        dict(got.meta),
        {k: v.model_dump() for k, v in got.ratings.items()},
        got.exported_at,
        [x.record() for x in got.sightings],
    )


def _once(keys: list[str], group: str, key: str, what: str, same=None) -> None:
    """Raise :class:`Bad` at the first of ``keys`` given before (``answers[1].uid 'u' is
    answers[0]'s too (...)``)."""
    first: dict[str, int] = {}
    for i, k in enumerate(keys):
        j = first.setdefault(k, i)
        if j != i:
            why = f"{same(i, j)}; " if same else ""
            raise I.Bad(
                f"{group}[{i}].{key} {k!r} is {group}[{j}]'s too ({why}{what} is given once)"
            )


def merge_export(store: ProgressStore, export: Export) -> tuple[int, int]:
    """Merge ``export`` into ``store`` (:meth:`~tutor.teaching.progress.ProgressStore.merge`:
    one transaction, ratings recomputed) and rebuild at once the review schedules the merge
    dropped (:meth:`tutor.teaching.spaced_review.ReviewBook.sync`), so that the statistics after an
    import of many answers find them ready instead of working them out at every showing.
    Returns ``(answers added, answers already there)``."""
    added, known = store.merge(export.answers, export.lessons, export.meta, export.sightings)
    if added:
        from tutor.teaching.spaced_review import ReviewBook  # py-fsrs: only when there is work

        ReviewBook(store).sync()
    return added, known


def import_file(store: ProgressStore, path: str | Path) -> tuple[Export, int, int]:
    """Read ``path`` (:func:`read_export`, refused whole when damaged) and merge it into
    ``store`` (:func:`merge_export`); returns the export read, the answers added and the
    answers already there."""
    export = read_export(path)
    added, known = merge_export(store, export)
    return export, added, known
