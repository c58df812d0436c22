"""Tracks: a path through the course for one kind of learner, under one ruleset throughout.

A track is a YAML file in ``lessons/tracks/`` (``tournament.yaml``):

```yaml
id: tournament                    # lower-case words joined by '-'
title: Tournament track           # shown on the home screen
ruleset: inter-livery-2018        # every puzzle and deal of the track is set under it
about: The lessons and puzzles ... # one paragraph: who it is for
steps:                            # the lessons, in order, each once
  - lesson: terms                 # a lesson id of the course
  - lesson: the-deal
    pages: [Stakes and the pot, A mournival on the table, Your turn]   # default: every page
    leave_out: [counts]           # blocks left out: an objective's, or a kind/theme's
match: true                       # the track ends with a practice match under the ruleset
```

:func:`fixed_lesson` makes the lesson a step poses: its pages (those named), each puzzle block
set under the track's ruleset where the block allows it (its kind applies to the ruleset, the
ruleset covers its player count, and the track does not leave it out), a ``coach`` block played
with its deal for the ruleset; the others are left out and said (:attr:`FixedLesson.left_out`).
A course lesson its prose names ("lesson 4") is said as the track's learner finds it: "step 3
(course lesson 4)", or "course lesson 10" outside the track (:func:`course_place`); the line
under an explanation likewise (:func:`taught_in_track`).
Its progress is kept apart from the course's, under the key ``TRACK/LESSON``
(:func:`step_key`), and the match's under ``TRACK/match``.  :func:`track_problems` is what
``laugh lessons check`` says of a track: every lesson, page and left-out name found, and every
kept puzzle block one that can be set under the ruleset (:func:`tutor.puzzles.probe`)."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    PrivateAttr,
    ValidationInfo,
    field_validator,
)

from tutor.engine import yamlfile
from tutor.engine.data import data_dir
from tutor.engine.models import Model, listed, refusal, validate
from tutor.teaching.lessons._common import _ID_RE, _display, _shown
from tutor.teaching.lessons._model import Block, Lesson, PuzzleData, Segment, page_heading

__all__ = [
    "FixedLesson",
    "Track",
    "TrackStep",
    "MATCH",
    "course_place",
    "fixed_lesson",
    "load_track",
    "step_key",
    "taught_in_track",
    "track_files",
    "track_names",
    "track_problems",
]

#: The key of a track's closing match among its steps' progress.
MATCH = "match"


def _id(value: str) -> str:
    if not _ID_RE.match(value):
        raise ValueError(f"{_shown(value)} is not an id (lower-case words joined by '-')")
    return value


def _words(value: str) -> str:
    if not value.strip():
        raise ValueError("must be non-empty text")
    return value.strip()


def _some(what: str):
    def check(value: tuple) -> tuple:
        if not value:
            raise ValueError(f"must list {what}")
        return value

    return check


_Id = Annotated[str, AfterValidator(_id)]
_Words = Annotated[str, AfterValidator(_words)]


class TrackStep(Model):
    """One lesson of a track: its id, the headings of the pages kept (None: all), and what is
    left out: objective ids (their puzzle blocks) or ``kind/theme`` names."""

    lesson: _Id
    pages: (
        Annotated[
            tuple[_Words, ...], BeforeValidator(listed), AfterValidator(_some("page headings"))
        ]
        | None
    ) = None
    leave_out: Annotated[
        tuple[Annotated[str, Field(min_length=1)], ...], BeforeValidator(listed)
    ] = ()


class Track(Model):
    """A track (see the module docstring); ``path`` its file.  Read with the library of
    sources as context: its ``ruleset`` must be one of the library's."""

    id: _Id
    title: _Words
    ruleset: str
    about: Annotated[_Words, AfterValidator(lambda text: " ".join(text.split()))]
    steps: Annotated[
        tuple[TrackStep, ...],
        BeforeValidator(listed),
        AfterValidator(_some("the track's lessons (- lesson: ID)")),
    ]
    match: bool = True
    _path: Path = PrivateAttr(default=Path("track.yaml"))

    @property
    def path(self) -> Path:
        """The track's file."""
        return self._path

    @field_validator("ruleset")
    @classmethod
    def _known(cls, value: str, info: ValidationInfo) -> str:
        library = (info.context or {}).get("library")
        if library is None:
            from tutor.engine.sources import default_library

            library = default_library()
        rulesets = library.rulesets
        if value not in rulesets:
            raise ValueError(f"unknown ruleset {_shown(value)} (rulesets: {', '.join(rulesets)})")
        return value


@dataclass
class FixedLesson:
    """A lesson as a track poses it: :attr:`lesson` (its pages and blocks as kept, puzzle
    blocks set under the ruleset, its id the step's key), and :attr:`left_out`, what was left
    out, each in a few words for the learner."""

    lesson: Lesson
    left_out: list[str]


def track_files(folder: Path | None = None) -> list[Path]:
    """The track files (``lessons/tracks/*.yaml``), in name order."""
    folder = Path(folder) if folder is not None else data_dir("lessons") / "tracks"
    return sorted(folder.glob("*.yaml")) if folder.is_dir() else []


def track_names() -> list[str]:
    """The tracks' names (their file names without ``.yaml``)."""
    return [p.stem for p in track_files()]


def load_track(name: str, library=None) -> Track:
    """The track ``name`` (its file name without ``.yaml``), read and checked in shape.
    Raises :class:`UsageError` for an unknown track (listing them) and :class:`DataError`
    (``FILE:LINE: KEY: what is wrong``) for a file that is not a track."""
    from tutor.engine.names import find_name

    found = find_name(name, track_names(), "track")
    return read_track(next(p for p in track_files() if p.stem == found), library)


def read_track(path: Path, library=None) -> Track:
    """The track in the file ``path`` (see :func:`load_track`), its ruleset one of
    ``library``'s (default the library of sources)."""
    shown = _display(path)
    data, doc = yamlfile.load(yamlfile.read_text(path, shown), shown)
    if library is None:
        from tutor.engine.sources import default_library

        library = default_library()
    track = validate(Track, data, doc=doc, context={"library": library})
    seen: set[str] = set()
    for i, step in enumerate(track.steps):
        if step.lesson in seen:
            raise refusal(doc, f"'{step.lesson}' is a step twice", "steps", i, "lesson")
        seen.add(step.lesson)
    track._path = Path(path)
    return track


def step_key(track: Track, lesson_id: str) -> str:
    """Where a step's progress is kept in the store: ``TRACK/LESSON`` (``TRACK/match`` for the
    closing match)."""
    return f"{track.id}/{lesson_id}"


#: A course lesson named in a lesson's prose: "lesson 4", "Lesson 7".
_LESSON_REF = re.compile(r"\b([Ll])esson (\d+)\b")


def course_place(track: Track, number: int, course=None) -> str:
    """Course lesson ``number`` as a learner of ``track`` finds it: ``step 3 (course lesson
    4)`` when the lesson is a step of the track, else ``course lesson 10``.  ``course``: the
    course's entries (:func:`tutor.teaching.lessons.course_index`, read when not given)."""
    if course is None:
        from tutor.teaching.lessons._index import course_index

        course = course_index()
    ids = [s.lesson for s in track.steps]
    lid = next((e.id for e in course if e.number == number), None)
    if lid in ids:
        return f"step {ids.index(lid) + 1} (course lesson {number})"
    return f"course lesson {number}"


def _places(track: Track, text: str, course) -> str:
    """``text`` with each "lesson N" said as :func:`course_place` says it (a capital kept;
    inside brackets a step is only ``step 3``, never a bracket within a bracket)."""

    def one(m: re.Match) -> str:
        place = course_place(track, int(m.group(2)), course)
        before = text[: m.start()]
        if before.count("(") > before.count(")"):
            place = place.partition(" (")[0]
        return place[:1].upper() + place[1:] if m.group(1) == "L" else place

    return _LESSON_REF.sub(one, text)


def taught_in_track(track: Track, teaches: str, course=None) -> str:
    """Where the course teaches a puzzle's point (``teaches``: ``STEM#HEADING``, as
    :attr:`tutor.puzzles.Puzzle.teaches`), said to a learner of ``track``: ``Taught in step 5
    (course lesson 6), on the page “Where the leftovers go” (r from the home screen, step 5).``
    where the lesson is a step keeping that page, else the course lesson and ``laugh lesson
    N``; "" when ``teaches`` is empty."""
    if not teaches:
        return ""
    if course is None:
        from tutor.teaching.lessons._index import course_index

        course = course_index()
    stem, _, heading = teaches.partition("#")
    entry = next((e for e in course if e.path.stem == stem), None)
    n = entry.number if entry is not None else int(stem[:2])
    step = next(
        (
            i
            for i, s in enumerate(track.steps, 1)
            if entry is not None
            and s.lesson == entry.id
            and (s.pages is None or heading in s.pages)
        ),
        None,
    )
    if step is not None:
        return (
            f"Taught in step {step} (course lesson {n}), on the page “{heading}” "
            f"(r from the home screen, step {step})."
        )
    return f"Taught in course lesson {n}, on the page “{heading}” (laugh lesson {n})."


def _left_out_by(step: TrackStep, b: Block) -> str | None:
    """The ``leave_out`` name that leaves the puzzle block ``b`` out, or None."""
    kind = b.puzzle()["kind"].partition("@")[0]
    for name in step.leave_out:
        if name == b.puzzle()["objective"] or name == kind:
            return name
    return None


def fixed_lesson(track: Track, step: TrackStep, lesson: Lesson, library=None) -> FixedLesson:
    """The lesson of ``step`` as ``track`` poses it (see the module docstring): the pages named
    (all by default), each puzzle block set under the track's ruleset where it allows it, a
    ``coach`` block kept where it has a deal for the ruleset; the rest left out, and said.  The
    lesson's id becomes :func:`step_key`, its number 0, its title says the track and step; its
    minutes are scaled to the pages kept; its objectives are those still tested."""
    if library is None:
        from tutor.engine.sources import default_library

        library = default_library()
    from tutor import puzzles
    from tutor.teaching.lessons._index import course_index

    course = course_index()
    rs = library.rulesets[track.ruleset]
    left: dict[str, int] = {}
    pages = [p for p in lesson.pages if step.pages is None or page_heading(p) in step.pages]
    kept_pages = []
    tested: set[str | None] = set()  # objective ids (None: a block of none)
    for page in pages:
        items = []
        for item in page:
            if isinstance(item, Block) and item.kind == "puzzle":
                d = item.puzzle()
                kind = d["kind"].partition("/")[0].partition("@")[0]
                why = None
                if _left_out_by(step, item):
                    why = "the track leaves out what compares the sources"
                elif rs.id not in [getattr(r, "id", r) for r in puzzles.applicable_rulesets(kind)]:
                    why = f"its kind of puzzle is not set under {rs.name_in_text}"
                elif d.get("players") is not None and d["players"] not in rs.counts:
                    why = f"{rs.short_title} is not played by {d['players']}"
                if why:
                    left[why] = left.get(why, 0) + d["count"]
                    continue
                set_under: PuzzleData = {**d, "ruleset": rs.id}
                item = dataclasses.replace(item, data=set_under)
                tested.add(d.get("objective"))
            elif (
                isinstance(item, Block)
                and item.kind == "coach"
                and rs.id not in item.coach()["deals"]
            ):
                left[f"the coached deal has no deal under {rs.name_in_text}"] = 0
                continue
            elif isinstance(item, Segment):  # "lesson 4": the step, or the course's
                item = dataclasses.replace(item, text=_places(track, item.text, course))
            items.append(item)
        if items:
            kept_pages.append(items)
    ids = [o for o in lesson.objective_ids if o in tested]
    number = next(i for i, s in enumerate(track.steps, 1) if s.lesson == step.lesson)
    fixed = Lesson(
        id=step_key(track, lesson.id),
        title=f"{track.title} {number}/{len(track.steps) + track.match}: {lesson.title}",
        objectives=[lesson.objective_text(o) for o in ids],
        prerequisites=[],
        sources=list(lesson.sources),
        minutes=max(1, round(lesson.minutes * len(kept_pages) / max(1, len(lesson.pages)))),
        path=lesson.path,
        pages=kept_pages,
        number=0,
        objective_ids=ids,
    )
    said = [f"{n} puzzle{'s' if n != 1 else ''} ({why})" if n else why for why, n in left.items()]
    return FixedLesson(fixed, said)


def track_problems(track: Track, lessons: dict[str, Lesson]) -> list[str]:
    """What is wrong with ``track`` against the course (``lessons``: id -> loaded lesson), each
    one line ``FILE:LINE: KEY: message``: an unknown lesson, a page heading it does not have, a
    ``leave_out`` name that leaves nothing out, a kept puzzle block none of whose puzzles can be
    set under the track's ruleset (:func:`tutor.puzzles.probe`)."""
    from tutor import puzzles
    from tutor.teaching.lessons._common import puzzle_seed

    where = f"{_display(track.path)}:1"
    problems = []
    for i, step in enumerate(track.steps):
        key = f"steps[{i}]"
        lesson = lessons.get(step.lesson)
        if lesson is None:
            problems.append(
                f"{where}: {key}.lesson: '{step.lesson}' is not a lesson of the "
                f"course (lessons: {', '.join(lessons)})"
            )
            continue
        heads = [page_heading(p) for p in lesson.pages]
        for h in step.pages or ():
            if h not in heads:
                problems.append(f"{where}: {key}.pages: lesson '{step.lesson}' has no page '{h}'")
        blocks = list(lesson.blocks("puzzle"))
        for name in step.leave_out:
            if not any(
                _left_out_by(TrackStep(lesson=step.lesson, leave_out=(name,)), b) for b in blocks
            ):
                problems.append(
                    f"{where}: {key}.leave_out: '{name}' names no puzzle block of "
                    f"lesson '{step.lesson}'"
                )
        fixed = fixed_lesson(track, step, lesson).lesson
        for b in fixed.blocks("puzzle"):
            seed = puzzle_seed(0, fixed.id, b.index, 0)
            why = puzzles.probe(b.puzzle()["kind"], track.ruleset, b.puzzle()["players"], seed)
            if why:
                problems.append(
                    f"{where}: {key}: the puzzle block at line {b.line} of "
                    f"{_display(lesson.path)} cannot be set under "
                    f"{track.ruleset} ({why}): leave it out"
                )
    return problems
