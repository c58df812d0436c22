"""Tracks: a path through the course for one kind of learner, under one ruleset throughout
(``lessons/tracks/*.yaml``).  Part of the course, so they live with the lessons
(:mod:`tutor.teaching.lessons._tracks`, whose docstring describes the file); this is their
public name."""

from __future__ import annotations

from tutor.teaching.lessons._tracks import (
    MATCH,
    FixedLesson,
    Track,
    TrackStep,
    course_place,
    fixed_lesson,
    load_track,
    page_heading,
    read_track,
    step_key,
    taught_in_track,
    track_files,
    track_names,
    track_problems,
)

__all__ = [
    "FixedLesson",
    "Track",
    "TrackStep",
    "MATCH",
    "course_place",
    "fixed_lesson",
    "load_track",
    "page_heading",
    "read_track",
    "step_key",
    "taught_in_track",
    "track_files",
    "track_names",
    "track_problems",
]
