"""The shipped course, loaded and checked once a test session: loading it runs the course-wide
checks (each puzzle block probed for a board that shows only what is taught by then), close to
a second of work, and the teaching tests that read it (none changes a lesson) each called it
afresh."""

from __future__ import annotations

from functools import cache

from tutor.teaching.lessons import Lesson, load_course


@cache
def _course() -> tuple[Lesson, ...]:
    return tuple(load_course())


def shipped_course() -> list[Lesson]:
    """:func:`tutor.teaching.lessons.load_course` of the shipped course (a new list of the
    same lessons each call; raises as it does)."""
    return list(_course())
