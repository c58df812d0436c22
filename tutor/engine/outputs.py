"""Output files: whether a path can be written, checked before the work that fills it, and the
one message (and exit status 1) when it cannot.

Every command that writes a file the learner names (``--out``, ``--sheet``, ``--export``,
``--records``, ``--html``, ``--csv``, ``progress export FILE``) calls :func:`check_output`
first, so a mistyped folder is said at once, before a deal is played or a study run, and
turns a failed write into :class:`CannotWrite` with :func:`cannot_write`.  The command line
exits with status 1 for it, as for any output that could not be written (docs/COMMANDS.md, "Exit
status").

What the program keeps of its own accord (progress, a practice deal's record, a match) is
checked at once too (:func:`folder_problem`: a read-only or full disk is said before the work),
said only after it happened, and, when it could not be kept, noted with :func:`not_saved` once
it has been said: the command line then exits with status 1 (:func:`unsaved`).
"""

from __future__ import annotations

import os
from pathlib import Path

from tutor.engine.atomic import write_atomic
from tutor.engine.errors import LaughError

__all__ = [
    "CannotWrite",
    "check_output",
    "cannot_write",
    "folder_problem",
    "not_saved",
    "unsaved",
    "write_text",
]

_unsaved: list[tuple[str, bool]] = []


class CannotWrite(LaughError):
    """An output file that cannot be written (exit status 1); the message names the file, why,
    and what to do."""


def _why(path: Path) -> str | None:
    """Why ``path`` cannot be written, or None when it looks writable."""
    if path.is_dir():
        return "it is a folder; give a file name"
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.exists():
        above = next((a for a in folder.parents if a.exists()), None)
        if above is not None and (not above.is_dir() or not os.access(above, os.W_OK | os.X_OK)):
            return (
                f"the folder {folder} does not exist and cannot be created: {above} is not "
                "writable (permission denied); choose another file"
            )
        return f"the folder {folder} does not exist; create it or choose another file"
    if not folder.is_dir():
        return f"{folder} is not a folder; choose another file"
    if path.exists():
        if not os.access(path, os.W_OK):
            return "it is not writable (permission denied); choose another file"
        return None
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable (permission denied); choose another file"
    return None


def check_output(path: str | Path) -> Path:
    """``path`` as a :class:`~pathlib.Path` if a file can be written there: its folder exists
    and is writable, it is not a folder, and if it exists it is writable.  Checks only; nothing
    is created.  Raises :class:`CannotWrite` (``cannot write PATH: the folder D does not exist;
    create it or choose another file``) otherwise."""
    p = Path(path)
    why = _why(p)
    if why is not None:
        raise CannotWrite(f"cannot write {path}: {why}")
    return p


def cannot_write(path: str | Path, exc: OSError) -> CannotWrite:
    """The :class:`CannotWrite` for a write to ``path`` that failed with ``exc`` (a full disk,
    a folder removed meanwhile), saying what to do."""
    why = _why(Path(path)) or f"{exc.strerror or exc}; free some space or choose another file"
    return CannotWrite(f"cannot write {path}: {why}")


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` as UTF-8, whole or not at all and through the path
    (:func:`tutor.engine.atomic.write_atomic`); raises :class:`CannotWrite` when it cannot."""
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise cannot_write(path, exc) from None


def folder_problem(folder: str | Path) -> str | None:
    """Why nothing can be saved in ``folder`` now, in words, or None when it looks writable:
    it cannot be created (``the folder F cannot be created (Read-only file system)``), it is
    not writable (read-only, or made immutable), or the disk holding it is full (no block
    free).  Checks only; creates the folder when missing (as saving would)."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"the folder {folder} cannot be created ({exc.strerror or exc})"
    if not folder.is_dir():
        return f"{folder} is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is read-only"
    try:
        st = os.statvfs(folder)
    except (OSError, AttributeError):  # no statvfs (Windows): the writes will say
        return None
    if st.f_flag & getattr(os, "ST_RDONLY", 1):
        return f"the folder {folder} is on a read-only disk"
    if st.f_bavail == 0 and st.f_blocks > 0:
        return f"the disk holding {folder} is full"
    return None


def not_saved(what: str, said: bool = False) -> None:
    """Note that something the program keeps of its own accord could not be kept (``what``:
    what and why, in words: ``your progress cannot be saved: the folder F is read-only``),
    once it has been said where the learner reads (``said``: already on standard error too):
    the command line exits with status 1, and says on standard error in one line what was not
    said there."""
    _unsaved.append((what, said))


def unsaved(clear: bool = False) -> list[tuple[str, bool]]:
    """What :func:`not_saved` noted in this process, oldest first, as ``(what, said)``;
    ``clear`` forgets it (the command line does, before each command)."""
    out = list(_unsaved)
    if clear:
        _unsaved.clear()
    return out
