"""The one gate every input file passes before it is read: only a regular file is opened.

A FIFO (a named pipe) waits for a writer for ever when opened for reading, a socket cannot be
opened, and a device (``/dev/zero``, a terminal, a tape) reads without end or with side
effects; none of them is a file this program reads.  :func:`open_input` opens the path without
blocking (``O_NONBLOCK``, ``O_NOCTTY``), asks the *opened* file what it is (``fstat``: no race
between a check and the open), and hands back a buffered binary file only for a regular file;
anything else is refused with :class:`NotRegularFile`, an :class:`OSError` whose ``strerror``
says what the path is (``a FIFO, not a regular file``), so every reader's own
"cannot be read (...)" line carries it.  With ``follow_links=False`` a symbolic link is refused
too (``O_NOFOLLOW``): the progress journal is never read or written through one.

:func:`kind_of` names what a path is for messages.  The gates of the data formats read through
here: :mod:`tutor.engine.jsonfile` (deal records, saved matches, exports, caches),
:mod:`tutor.engine.yamlfile` (sources, lessons, puzzles), the source texts
(:mod:`tutor.engine.sources`), the progress journal.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

__all__ = ["NotRegularFile", "kind_of", "open_input", "open_own"]

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOCTTY = getattr(os, "O_NOCTTY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)


class NotRegularFile(OSError):
    """A path that is not a regular file where one is read (a FIFO, a socket, a device, a
    symbolic link where links are not followed).  ``strerror`` says what it is, in words."""

    def __init__(self, path: str | Path, what: str):
        super().__init__(errno.EINVAL, f"{what}, not a regular file", str(path))


def kind_of(mode: int) -> str:
    """What a file of ``mode`` (``st_mode``) is, in words: ``a FIFO``, ``a
    socket``, ``a character device``, ``a block device``, ``a symbolic link``, ``a folder``,
    ``a regular file``."""
    for test, words in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISREG, "a regular file"),
    ):
        if test(mode):
            return words
    return "not a file of any known kind"


def _checked(fd: int, path: str | Path) -> None:
    """Refuse the opened ``fd`` unless it is a regular file (closing it then)."""
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path, kind_of(mode))
        if _NONBLOCK:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise


def _open(path: str | Path, flags: int, follow_links: bool, mode: int = 0o666) -> int:
    if not follow_links:
        flags |= _NOFOLLOW
    try:
        return os.open(path, flags | _NONBLOCK | _NOCTTY | _CLOEXEC | _BINARY, mode)
    except OSError as exc:
        if not follow_links and exc.errno in (errno.ELOOP, errno.EMLINK) and os.path.islink(path):
            raise NotRegularFile(path, "a symbolic link") from None
        if exc.errno == errno.ENXIO:  # a socket, or a FIFO opened to write with no reader
            try:
                what = kind_of(os.stat(path).st_mode)
            except OSError:
                raise exc from None
            raise NotRegularFile(path, what) from None
        raise


def open_input(path: str | Path, *, follow_links: bool = True) -> BinaryIO:
    """``path`` opened for reading (binary, buffered) if it is a regular file.

    Never blocks on a FIFO.  Raises :class:`NotRegularFile` for a FIFO, a socket or a device
    (and, with ``follow_links=False``, a symbolic link), :class:`IsADirectoryError` for a
    folder, and the usual :class:`OSError` (missing, no permission) otherwise."""
    fd = _open(path, os.O_RDONLY, follow_links)
    _checked(fd, path)
    return os.fdopen(fd, "rb")


def open_own(path: str | Path, *, create: bool = True, file_mode: int = 0o600) -> BinaryIO:
    """A file the program keeps for itself (the progress journal) opened to read and append
    (binary, buffered: ``flush`` raises when the disk is full): created with ``file_mode`` when missing and ``create``; never
    through a symbolic link, and only if it is a regular file.  Raises as :func:`open_input`
    (:class:`NotRegularFile` for a link, a FIFO, a socket or a device; FileNotFoundError when
    missing and not ``create``)."""
    flags = os.O_RDWR | os.O_APPEND | (os.O_CREAT if create else 0)
    fd = _open(path, flags, False, file_mode)
    _checked(fd, path)
    return os.fdopen(fd, "rb+")
