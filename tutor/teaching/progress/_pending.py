"""The journal of changes kept for later: ``progress.sqlite3.pending`` beside the progress file,
one change (:mod:`tutor.teaching.progress._writes`) a line, as JSON (private: see
:mod:`tutor.teaching.progress`).

A change that cannot be written now (another program holds the file's lock, the disk is full) is
appended here, flushed and synced, before the learner goes on; the next time the file can be
written (by this process or any later one) the journal is applied in one transaction, in order,
and cleared.  Every program that appends or applies holds an exclusive lock on the journal
(``flock``) meanwhile, and checks that the file it locked is still the one at the path, so two
processes never lose each other's lines.  A line that cannot be read (a process killed while
writing it) is counted, never applied.

The journal is only ever a regular file, opened at its own path: a symbolic link there is never
followed (its target is neither read nor truncated), and a FIFO, socket or device is never
opened (:func:`tutor.engine.infile.open_own`); :meth:`Journal.refused` says what is there
instead, and every read or write of it raises :class:`OSError` meanwhile.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from pathlib import Path

from tutor.engine.infile import kind_of, open_input, open_own

try:
    import fcntl
except ImportError:  # not POSIX: one process at a time is assumed
    fcntl = None  # type: ignore[assignment]  # None stands for the module's absence

__all__ = ["Journal", "SUFFIX"]

#: The journal's name beside the progress file: ``<file name>`` + SUFFIX.
SUFFIX = ".pending"


class Journal:
    """The journal of the progress file ``store_path``."""

    def __init__(self, store_path: Path):
        self.path = store_path.with_name(store_path.name + SUFFIX)

    def exists(self) -> bool:
        """True when there is a journal with something in it (a regular file: see
        :meth:`refused`)."""
        try:
            st = self.path.lstat()
        except OSError:
            return False
        return stat.S_ISREG(st.st_mode) and st.st_size > 0

    def refused(self) -> str | None:
        """What is at the journal's path when it is not a regular file (``a symbolic link``, ``a
        FIFO``), never to be read or written; None when it is one or there is none."""
        try:
            mode = self.path.lstat().st_mode
        except OSError:
            return None
        return None if stat.S_ISREG(mode) else kind_of(mode)

    @contextlib.contextmanager
    def _locked(self, create: bool):
        """The journal opened (created when ``create``; never through a link, only a regular
        file) and locked, the lock taken on the file that is at the path (another process may
        have cleared and removed the one first opened)."""
        while True:
            fh = open_own(self.path, create=create)
            try:
                if fcntl is not None:
                    fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
                try:
                    same = os.stat(self.path).st_ino == os.fstat(fh.fileno()).st_ino
                except FileNotFoundError:
                    same = False
                if same:
                    yield fh
                    return
            finally:
                fh.close()  # closing releases the lock

    def append(self, op: dict) -> None:
        """Add ``op`` at the end, on disk before returning (after a line cut short by a process
        killed while writing it, on a line of its own).  Raises OSError when it cannot be
        written (the disk full, the folder read-only)."""
        line = (json.dumps(op, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
        with self._locked(create=True) as fh:
            end = fh.seek(0, os.SEEK_END)
            if end:
                fh.seek(end - 1)
                if fh.read(1) != b"\n":
                    line = b"\n" + line
            _write_or_undo(fh.fileno(), line, end)

    def can_append(self) -> str | None:
        """None when a line can be added now, else why not (``No space left on device``,
        ``a symbolic link, not a regular file``): tried by writing a line's worth of blank
        lines and taking them back, with the journal locked (no one else's line is touched);
        nothing is left behind either way."""
        try:
            made = not os.path.lexists(self.path)
            with self._locked(create=True) as fh:
                end = fh.seek(0, os.SEEK_END)
                try:
                    _write_or_undo(fh.fileno(), b"\n" * 4096, end)
                    os.ftruncate(fh.fileno(), end)
                finally:
                    if made and end == 0:
                        with contextlib.suppress(OSError):
                            self.path.unlink()
        except OSError as exc:
            return exc.strerror or str(exc)
        return None

    @contextlib.contextmanager
    def applying(self):
        """``with journal.applying() as (ops, unreadable):`` the changes in the journal, in
        order, and how many lines could not be read, with the journal locked; when the block
        ends without an exception the journal is cleared (its changes are in the file).  With
        no journal, ``([], 0)`` and nothing to clear."""
        with contextlib.ExitStack() as stack:
            try:
                fh = stack.enter_context(self._locked(create=False))
            except FileNotFoundError:
                fh = None
            if fh is None:
                yield [], 0
                return
            yield _parse(fh.read().decode("utf-8", "replace"))
            fh.seek(0)
            fh.truncate(0)
            fh.flush()
            os.fsync(fh.fileno())
            with contextlib.suppress(OSError):
                self.path.unlink()

    def read(self) -> tuple[list[dict], int]:
        """The changes in the journal and how many lines could not be read, leaving it as it
        is (a read-only store shows them); ``([], 0)`` when there is none or it cannot be
        read."""
        try:
            with open_input(self.path, follow_links=False) as fh:
                return _parse(fh.read().decode("utf-8", "replace"))
        except OSError:
            return [], 0


def _write_or_undo(fd: int, data: bytes, end: int) -> None:
    """Write ``data`` at the end of the file ``fd`` (of ``end`` bytes) and sync it; when that
    fails (the disk full), cut the file back to ``end`` (no half line left) and raise."""
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, end)
        raise


def _parse(text: str) -> tuple[list[dict], int]:
    ops, unreadable = [], 0
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            op = json.loads(line)
        except (ValueError, RecursionError):
            op = None
        if isinstance(op, dict) and isinstance(op.get("op"), str) and isinstance(op.get("id"), str):
            ops.append(op)
        else:
            unreadable += 1
    return ops, unreadable
