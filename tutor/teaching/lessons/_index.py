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
            display = _display(path)
            fm, _, _ = _split_front_matter(path, yamlfile.read_text(path, display))
            lid, title, minutes = _front_values(fm, display) if fm is not None else _NONE
        except DataError:
            lid, title, minutes = _NONE
        lid = lid if isinstance(lid, str) else path.stem
        title = title if isinstance(title, str) else "(cannot be read: run laugh lessons check)"
        minutes = minutes if isinstance(minutes, int) else 0
        out.append(CourseEntry(n, lid, title, minutes, path))
    return out


_NONE: tuple[object, object, object] = (None, None, None)
#: The id, title and minutes of a front matter, by (file's name as shown, front matter text):
#: the files are read on every call (an edit is seen at once), their YAML parsed once per
#: text (the home screen, the coach and the tracks ask for the index several times a run).
_front_seen: dict[tuple[str, str], tuple[object, object, object]] = {}


def _front_values(fm: str, display: str) -> tuple[object, object, object]:
    """The ``id``, ``title`` and ``minutes`` of front matter ``fm`` (None where missing or
    the front matter is not a mapping); raises :class:`DataError` as :func:`yamlfile.load`."""
    key = (display, fm)
    got = _front_seen.get(key)
    if got is None:
        data = yamlfile.load(fm, display, 2)[0]
        if not isinstance(data, dict):
            data = {}
        got = (data.get("id"), data.get("title"), data.get("minutes"))
        if len(_front_seen) >= 256:  # bounded: folders of lessons edited in a long session
            _front_seen.clear()
        _front_seen[key] = got
    return got
