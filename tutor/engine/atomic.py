"""Writing a file whole or not at all, through the path as given: the one writer of every file the
program writes in one go (a progress export, a saved match, a report, a cache).

:func:`write_atomic` writes a temporary file beside the target, syncs it, gives it the mode of
the file it replaces, and renames it over the target, so a reader (or a crash) sees the old file
or the new one, never half of one.  The target is where the path *leads*: a symbolic link is
followed and its target replaced (the link stays a link, as every other writer leaves it), and a
path that is not a regular file (a FIFO, a terminal, ``/dev/stdout``, a device node) is written
straight through, as a shell's ``>`` writes to it, never replaced by a file.
:func:`open_atomic` does the same for a file written a line at a time (an export of many
puzzles, a study's deal records): nothing at the path until every line is written.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

__all__ = ["open_atomic", "write_atomic"]


def write_atomic(
    path: str | Path, data: str | bytes, encoding: str = "utf-8", mode: int | None = None
) -> None:
    """Write ``data`` (text, encoded with ``encoding``, or bytes) to ``path`` whole or not at
    all (see the module).  With ``mode`` (``0o600``: a file only its owner reads) the file
    written has that mode, from its first byte, whatever the file it replaces had; else the
    mode of the file it replaces, or the umask's for a new one.  Raises OSError when it cannot
    be written (its ``strerror`` says why: a missing or read-only folder, a full disk, a
    directory at the path); nothing at the path is changed then, and no temporary file is
    left."""
    raw = data.encode(encoding) if isinstance(data, str) else bytes(data)
    with _opened(path, "wb", None, mode) as fh:
        fh.write(raw)


@contextmanager
def open_atomic(
    path: str | Path, encoding: str = "utf-8", mode: int | None = None
) -> Iterator[IO[str]]:
    """A text file to write at ``path`` a part at a time, there whole only once the ``with``
    block ends without an error (as :func:`write_atomic`: beside it until then, then renamed
    over it; ``mode`` as there).  An error in the block (an OSError of a full disk, or any
    other, such as a puzzle that could not be made) leaves the path as it was and no
    temporary file, and is raised again."""
    with _opened(path, "w", encoding, mode) as fh:
        yield fh


@contextmanager
def _opened(
    path: str | Path, how: str, encoding: str | None, mode: int | None
) -> Iterator[IO[Any]]:
    target = Path(os.path.realpath(path))  # every link followed (one that leads
    try:  # nowhere: the file it names is made)
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(target, how, encoding=encoding) as fh:  # a stream or a device: through it
            yield fh
        return
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(
            tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 if mode is None else mode
        )  # (the umask applies to 0o666)
        with open(fd, how, encoding=encoding) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)  # whatever the umask took away
        elif st is not None:
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
        os.replace(tmp, target)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
