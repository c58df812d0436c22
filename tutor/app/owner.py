"""One process at a time on a file or a folder that a process writes for a long while (a saved
match played on, a table server's folder): a lock from :mod:`filelock` (an ``fcntl`` lock the
system lets go when the process ends, however it ends: a ``kill -9`` leaves nothing to clean up)
and, beside it, the holder's process id, so that a second process is refused in one line naming
the one that holds it.

Before (issue 41, finding 2): two ``laugh match --resume`` on one file both said "saved" and the
file held one of them; a second ``table serve --resume --dir D`` wrote the same journal and
records as the first, and the folder could not be resumed after.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

from tutor.engine.errors import LaughError

__all__ = ["Held", "InUse", "hold"]


class InUse(LaughError):
    """What ``hold`` raises when another process holds the lock: one line naming it."""


class Held:
    """A lock held by this process on ``lock`` (a path), with this process's id written beside
    it (``pid``); :meth:`release` (or the end of a ``with`` block) lets it go."""

    def __init__(self, lock, path: Path, pid: Path):
        self._lock = lock
        self.path = path
        self.pid_path = pid

    def release(self) -> None:
        """Let the lock go (and remove the process id written beside it); twice is harmless."""
        if self._lock is None:
            return
        try:
            self.pid_path.unlink(missing_ok=True)
        except OSError:
            pass
        self._lock.release()
        self._lock = None

    def __enter__(self) -> Held:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


def _holder(pid_path: Path) -> str:
    """``" (process N)"`` for the process id written at ``pid_path``, or ``""`` when it is not
    there yet (the holder between its lock and its writing) or not a process id."""
    try:
        text = pid_path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return ""
    return f" (process {text})" if text.isdigit() and len(text) <= 10 else ""


def hold(lock_path: Path, what: str) -> Held:
    """Take the lock at ``lock_path`` (made 0600 when new) for this process, without waiting,
    and write this process's id beside it (``lock_path`` with the suffix ``.pid``).

    ``what`` names what the lock guards, for the refusal (``"the saved match F"``).  Raises
    :class:`InUse` (a :class:`~tutor.engine.errors.LaughError`: one line, exit 1) when another
    process holds it: ``"WHAT is in use by another laugh (process N): ..."``; OSError when the
    lock file cannot be made (a read-only or missing folder)."""
    from filelock import FileLock, Timeout

    pid_path = lock_path.with_suffix(".pid")
    lock = FileLock(str(lock_path), timeout=0, mode=0o600, thread_local=False)
    try:
        lock.acquire()
    except Timeout:
        raise InUse(
            f"{what} is in use by another laugh{_holder(pid_path)}: only one process "
            "at a time plays on it; stop that one first"
        ) from None
    try:
        fd = os.open(pid_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        finally:
            os.close(fd)
    except OSError:
        pass  # the lock holds without it: a refusal then names no process
    return Held(lock, lock_path, pid_path)
