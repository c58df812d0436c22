"""The course's files and their front matter read cheaply (:func:`course_index`), apart from
the lesson loader so that the tracks may ask for them without an import circle."""

from __future__ import annotations

from pathlib import Path

from tutor.engine import yamlfile
from tutor.engine.data import data_dir
from tutor.engine.errors import DataError
from tutor.teaching.lessons._common import _display, _split_front_matter
from tutor.teaching.lessons._model import CourseEntry


def lesson_files(folder: Path | None = None) -> list[Path]:
    """The lesson files of ``folder`` (default the project's ``lessons/``), in name order,
    ``README.md`` excluded."""
    folder = Path(folder) if folder is not None else data_dir("lessons")
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.md") if p.name.lower() != "readme.md")


def course_index(folder: Path | None = None) -> list[CourseEntry]:
    """The course read cheaply: only each file's front matter, without checking the body.

    A file whose front matter cannot be read is listed under its file name (title "(cannot be
    read: run laugh lessons check)") so the home screen still opens.
    """
    out = []
    for n, path in enumerate(lesson_files(folder), 1):
        try:
            fm, _, _ = _split_front_matter(path, yamlfile.read_text(path, _display(path)))
            data = yamlfile.load(fm, _display(path), 2)[0] if fm is not None else None
        except DataError:
            data = None
        if not isinstance(data, dict):
            data = {}
        lid, title, minutes = data.get("id"), data.get("title"), data.get("minutes")
        lid = lid if isinstance(lid, str) else path.stem
        title = title if isinstance(title, str) else "(cannot be read: run laugh lessons check)"
        minutes = minutes if isinstance(minutes, int) else 0
        out.append(CourseEntry(n, lid, title, minutes, path))
    return out
