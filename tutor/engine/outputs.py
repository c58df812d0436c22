"""Output files: whether a path can be written, checked before the work that fills it, and the
one message (and exit status 1) when it cannot.

Every command that writes a file the learner names (``--out``, ``--sheet``, ``--export``,
``--records``, ``--html``, ``--csv``, ``progress export FILE``) calls :func:`check_output`
first, so a mistyped folder is said at once, before a deal is played or a study run, and
turns a failed write into :class:`CannotWrite` with :func:`cannot_write`.  The command line
exits with status 1 for it, as for any output that could not be written (README, "Exit
status").
"""

from __future__ import annotations

import os
from pathlib import Path

from tutor.engine.atomic import write_atomic
from tutor.engine.errors import LaughError

__all__ = ["CannotWrite", "check_output", "cannot_write", "write_text"]


class CannotWrite(LaughError):
    """An output file that cannot be written (exit status 1); the message names the file, why,
    and what to do."""


def _why(path: Path) -> str | None:
    """Why ``path`` cannot be written, or None when it looks writable."""
    if path.is_dir():
        return "it is a folder; give a file name"
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.exists():
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
