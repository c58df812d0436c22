"""Lessons as data: reading and checking the Markdown files in ``lessons/``.

A lesson is a Markdown file with YAML front matter (see ``lessons/README.md`` for the format):

- front matter keys ``id``, ``title``, ``objectives``, ``prerequisites``, ``sources`` (the ids of
  the sources it quotes) and ``minutes``;
- a body in CommonMark (raw HTML is off: ``<b>`` is shown as text), split into pages by
  thematic breaks (a line ``---`` with a blank line before it);
- fenced blocks whose info word names an engine block: ``quote``, ``puzzle``, ``rules``,
  ``odds``, ``simulate``, ``cards`` and ``coach`` (see :data:`BLOCK_KINDS`).

:func:`load_lesson` reads and checks one file and raises :class:`~tutor.engine.errors.DataError`
(``FILE:LINE: KEY: what is wrong``) at the first problem; :func:`check_lessons` collects every
problem of every file instead.  :func:`course_index` reads only the front matter of each file
(no Markdown parser, no sources), for the home screen.

The course is every ``*.md`` file of ``data_dir("lessons")`` except ``README.md``, in file-name
order (``01-history.md``, ``02-terms.md``, ...).

This module is the public API (the course, loading and checking); behind it, private modules:
``_model`` (the data classes), ``_checker`` (one file: front matter, body, pages),
``_blocks`` (one module per block kind: its description and its reader, which parses and checks
it), ``_course_checks`` (ids, prerequisites and teaching order across the course) and
``_common``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from tutor.engine.errors import DataError
from tutor.teaching.lessons._common import (
    puzzle_seed,
    resolve_players,
)
from tutor.teaching.lessons._index import course_index, lesson_files
from tutor.teaching.lessons._model import (
    FRONT_MATTER_KEYS,
    Block,
    BlockData,
    CardsData,
    CoachData,
    CourseEntry,
    Item,
    Lesson,
    OddsData,
    PuzzleData,
    QuoteData,
    RecordsData,
    RulesData,
    Segment,
    SimulateData,
    SkillData,
    Stop,
    page_heading,
)
from tutor.teaching.lessons._stops import SITUATIONS, page_quotes, page_words, stop_problems

__all__ = [
    "BLOCK_KINDS",
    "Block",
    "BlockData",
    "CardsData",
    "CoachData",
    "CourseEntry",
    "OddsData",
    "PuzzleData",
    "QuoteData",
    "RecordsData",
    "RulesData",
    "SimulateData",
    "SkillData",
    "FRONT_MATTER_KEYS",
    "Item",
    "Lesson",
    "ODDS_FIGURES",
    "Segment",
    "check_lessons",
    "course_index",
    "find_lesson",
    "lesson_files",
    "lesson_keys",
    "load_course",
    "load_lesson",
    "match_lesson",
    "open_lesson",
    "page_heading",
    "page_quotes",
    "page_words",
    "puzzle_seed",
    "resolve_players",
    "SITUATIONS",
    "Stop",
    "stop_problems",
    "teaching_problems",
]

#: Names loaded with the checker when first asked for (PEP 562), as the checker itself is: the
#: home screen reads only the course index, and starts without the block readers.
_LATER = {
    "BLOCK_KINDS": "tutor.teaching.lessons._blocks",
    "ODDS_FIGURES": "tutor.teaching.lessons._blocks.odds",
    "teaching_problems": "tutor.teaching.lessons._course_checks",
}


def __getattr__(name: str):
    if name in _LATER:
        import importlib

        value = getattr(importlib.import_module(_LATER[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --------------------------------------------------------------------------------------------
# Files and the course


def load_course(folder: Path | None = None, library=None) -> list[Lesson]:
    """Every lesson of the course, loaded and checked (raises :class:`DataError` at the first
    problem, as :func:`load_lesson`)."""
    lessons = []
    for n, path in enumerate(lesson_files(folder), 1):
        lesson = load_lesson(path, library)
        lesson.number = n
        lessons.append(lesson)
    from tutor.teaching.lessons._course_checks import _course_problems

    problems = _course_problems(lessons)
    if problems:
        raise DataError(problems[0])
    return lessons


def lesson_keys(entry: CourseEntry) -> tuple[str, ...]:
    """The names a learner may give for ``entry``: its short id (``oversights``), its number
    (``8``; ``08`` is read as the number too) and its file name with or without ``.md``
    (``08-oversights``, ``08-oversights.md``)."""
    return (entry.id, str(entry.number), entry.path.stem, entry.path.name)


def match_lesson(entries: Iterable[CourseEntry], key: str | int) -> CourseEntry | None:
    """The entry of ``entries`` that ``key`` names (see :func:`lesson_keys`), or None.

    Case and surrounding space do not matter; a number may have leading zeros (``08``); a path
    to a lesson file (``lessons/08-oversights.md``) names that file.
    """
    text = str(key).strip()
    if not text:
        return None
    low = text.lower()
    name = re.split(r"[\\/]", low)[-1]
    number = int(low) if low.isascii() and low.isdigit() and len(low) <= 6 else None
    for e in entries:
        if number is not None and number == e.number:
            return e
        if name in (k.lower() for k in lesson_keys(e)):
            return e
    return None


def find_lesson(key: str | int, folder: Path | None = None) -> CourseEntry:
    """The course entry for ``key``: a lesson's short id (``oversights``), its number in the
    course (``8``, ``"8"`` or ``"08"``) or its file name (``08-oversights``, with or without
    ``.md``); see :func:`match_lesson`.

    Raises :class:`~tutor.engine.errors.UsageError` listing the lessons (number, file name and
    id) when there is none.
    """
    entries = course_index(folder)
    found = match_lesson(entries, key)
    if found is not None:
        return found
    from tutor.engine.names import unknown

    raise unknown(
        str(key).strip(),
        [e.id for e in entries],
        "lesson",
        listing="lessons, by number, file name or id: " + ", ".join(e.path.stem for e in entries),
    )


def open_lesson(key: str) -> Lesson:
    """The lesson ``key`` (id or number) of the course, loaded and checked, with its number.

    Raises :class:`tutor.engine.errors.UsageError` for an unknown lesson and
    :class:`tutor.engine.errors.DataError` for a broken lesson file."""
    entry = find_lesson(key)
    lesson = load_lesson(entry.path)
    lesson.number = entry.number
    return lesson


# --------------------------------------------------------------------------------------------
# Loading and checking


def load_lesson(path: Path | str, library=None) -> Lesson:
    """Read and check one lesson file.

    ``library`` is a :class:`tutor.engine.sources.Library` (default :func:`tutor.engine.sources.default_library`).
    Raises :class:`~tutor.engine.errors.DataError` whose message is the first problem, one line
    ``FILE:LINE: KEY: what is wrong``; its ``problems`` attribute lists them all.
    """
    from tutor.teaching.lessons._checker import _Checker

    path = Path(path)
    checker = _Checker(path, library)
    lesson = checker.run()
    if checker.problems:
        err = DataError(checker.problems[0])
        err.problems = list(checker.problems)  # type: ignore[attr-defined]
        raise err
    assert lesson is not None
    return lesson


def check_lessons(
    paths: Iterable[Path | str] | None = None, library=None, draws: int | None = None
) -> tuple[int, list[str]]:
    """Check lesson files (default: the whole course, with course-wide checks too).

    Returns ``(files_checked, problems)``, each problem one line ``FILE:LINE: KEY: message``.
    Course-wide checks (on the default set): lesson ids unique, prerequisites name lessons that
    come earlier in the course, no puzzle is set before its teaching or harder than its
    lesson allows (:func:`teaching_problems`), every coach block's stops stand on the pages
    they name, and every track of ``lessons/tracks/`` holds (:mod:`tutor.teaching.tracks`).
    Every lesson: a timeline puzzle asks only about records a records block shows before it
    (:func:`~tutor.teaching.lessons._course_checks.record_problems`), and each puzzle block,
    drawn at ``draws`` lesson seeds (default
    :data:`~tutor.teaching.lessons._course_checks.SERVE_DRAWS`, 50), poses only puzzles that
    ask about a theme serving its objective
    (:func:`~tutor.teaching.lessons._course_checks.serve_problems`; of the course, every
    objective must list those themes).  Raises only what loading the sources raises.
    """
    from tutor.teaching.lessons._checker import _Checker
    from tutor.teaching.lessons._course_checks import (
        SERVE_DRAWS,
        _course_problems,
        record_problems,
        serve_problems,
    )

    whole_course = paths is None
    files = lesson_files() if paths is None else [Path(p) for p in paths]
    problems: list[str] = []
    lessons: list[Lesson] = []
    for n, path in enumerate(files, 1):
        checker = _Checker(path, library)
        lesson = checker.run()
        problems.extend(checker.problems)
        if lesson is not None:
            lesson.number = n
            lessons.append(lesson)
            problems.extend(record_problems([lesson]))  # its records taught before asked
            problems.extend(
                serve_problems([lesson], SERVE_DRAWS if draws is None else draws, whole_course)
            )
    if whole_course:
        known = [e.id for e in course_index()]
        problems.extend(_course_problems(lessons, known))
        problems.extend(_track_problems(lessons, library))
    return len(files), problems


def _track_problems(lessons: list[Lesson], library=None) -> list[str]:
    """Every track of ``lessons/tracks/`` checked against the course
    (:func:`tutor.teaching.tracks.track_problems`)."""
    from tutor.teaching.lessons._tracks import read_track, track_files, track_problems

    by_id = {lesson.id: lesson for lesson in lessons}
    problems: list[str] = []
    for path in track_files():
        try:
            track = read_track(path, library)
        except DataError as exc:
            problems.append(str(exc))
            continue
        problems.extend(track_problems(track, by_id))
    return problems
