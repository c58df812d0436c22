"""Changes kept while the progress file is busy (another program's lock) or full: the journal
beside it, a copy in memory the session reads meanwhile, and the catching up when the file is
free (private: the methods of :class:`tutor.teaching.progress.ProgressStore`, see its
docstring; the journal itself is :mod:`tutor.teaching.progress._pending`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tutor.engine.errors import LaughError
from tutor.teaching.progress import _incoming as I
from tutor.teaching.progress import _values as V
from tutor.teaching.progress import _writes as W
from tutor.teaching.progress._damage import _environmental, _said
from tutor.teaching.progress._pending import Journal
from tutor.teaching.progress._schema import _connect

#: Seconds a change waits for another program's lock on the file before it is kept in the
#: journal instead; while changes are kept, each later change tries for RETRY_SECONDS, and
#: closing the store for CLOSING_SECONDS, to write them.
BUSY_SECONDS, RETRY_SECONDS, CLOSING_SECONDS = 5.0, 0.25, 2.0


def _busy(exc: sqlite3.DatabaseError) -> bool:
    """A file that cannot be written *now*, whose changes are worth keeping for later:
    another program's lock, a full disk, an I/O error."""
    return getattr(exc, "sqlite_errorname", "").startswith(
        ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_FULL", "SQLITE_IOERR")
    )


class Keeping:
    """The keeping half of :class:`~tutor.teaching.progress.ProgressStore`.

    The store's state, set by ``ProgressStore.__init__`` (see the comments there), declared
    here with its types so that this half is checked against it (mypy)."""

    path: Path
    notice: str | None
    read_only: bool
    saving: bool
    notify: Callable[[str], None]
    conn: sqlite3.Connection
    _journal: Journal | None
    _file: sqlite3.Connection | None
    _kept: list[dict]
    _why: str
    _told: str | None
    _journal_why: str | None
    _unsaved: int
    _why_not_saving: str | None
    _blind: bool
    _log: list[list]

    @property
    def _jn(self) -> Journal:
        """The journal (a store kept in memory on purpose has none: it never keeps changes)."""
        if self._journal is None:
            raise AssertionError("a store in memory keeps no journal")
        return self._journal

    @property
    def _fn(self) -> sqlite3.Connection:
        """The file's connection, where it is open (callers check)."""
        if self._file is None:
            raise AssertionError("the progress file is not open")
        return self._file

    if TYPE_CHECKING:
        # defined by the other half, ProgressStore
        def _copy(self, timeout: float) -> sqlite3.Connection: ...
        def _empty(self) -> sqlite3.Connection: ...
        def _open_or_salvage(self, timeout: float | None = None) -> sqlite3.Connection: ...

    def _why_busy(self, exc: sqlite3.DatabaseError) -> str:
        name = getattr(exc, "sqlite_errorname", "")
        if name.startswith("SQLITE_FULL"):
            return "the disk is full"
        if name.startswith("SQLITE_IOERR"):
            return _said(exc)
        return "another program is writing to it"

    @property
    def waiting(self) -> bool:
        """True while changes are kept (in the journal and in memory) for a file that is busy
        or full, to be written when it is free."""
        return bool(self._kept) or (self.saving and self._file is not self.conn)

    def _wait_from_the_start(self, exc: sqlite3.DatabaseError) -> None:
        """The file was busy when opened: work on a copy of it in memory (an empty store if
        it cannot even be read), keeping every change for it."""
        self._why = self._why_busy(exc)
        try:
            self.conn = self._copy(RETRY_SECONDS)
        except sqlite3.DatabaseError:
            self.conn, self._blind = self._empty(), True
        self._apply_journal_to(self.conn)
        self._told = self._where()
        self.notice = (
            f"Your progress file {self.path} {self._busy_words()}: your answers "
            f"{self._told_words()}."
        )

    def _where(self) -> str:
        """Where a change that cannot be written now goes: ``journal`` when a line can be
        added to the journal now (tried: :meth:`Journal.can_append`), else ``memory`` (and
        :attr:`_journal_why` says why)."""
        self._journal_why = self._jn.can_append()
        return "memory" if self._journal_why else "journal"

    def _busy_words(self) -> str:
        """``is busy (another program is writing to it)``, ``cannot be written now (the disk
        is full)``."""
        if self._why == "another program is writing to it":
            return f"is busy ({self._why})"
        return f"cannot be written now ({self._why})"

    def _told_words(self) -> str:
        """Where the answers are kept from now on, in words (after :meth:`_where`)."""
        if self._told == "journal":
            return (
                f"are kept in {self._jn.path.name} beside it from now on, and saved in "
                "it as soon as it is free"
            )
        return (
            f"are kept in memory only from now on ({self._jn.path.name} beside it "
            f"cannot be written either: {self._journal_why}): saved if the file is free "
            "before you leave, lost if not"
        )

    def _start_waiting(self, exc: sqlite3.DatabaseError) -> None:
        """A change could not be written: from now on the session works on a copy in memory."""
        self._why = self._why_busy(exc)
        try:
            self._fn.execute(f"PRAGMA busy_timeout = {int(RETRY_SECONDS * 1000)}")
            mem = _connect(":memory:")
            _backup(self._fn, mem)
            self.conn = mem
        except sqlite3.DatabaseError:
            self.conn, self._blind = self._empty(), True
        finally:
            self._fn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")

    def _keep(self, op: dict):
        """Apply ``op`` to the copy in memory and keep it for the file: in the journal, or in
        memory when even the journal cannot be written."""
        result = W.apply_in_transaction(self.conn, op)
        if self._blind and op["op"] == "answer":
            result = (result[0], None)  # ratings moved from nothing: not worth showing
        try:
            self._jn.append({k: v for k, v in op.items() if not k.startswith("_")})
            op["_journaled"] = True
            where = "journal"
        except OSError as exc:
            self._journal_why = exc.strerror or str(exc)
            where = "memory"
        self._kept.append(op)
        if self._told != where:  # said once, and again when it changes
            self._told = where
            self.notify(
                f"Your progress file {self.path} {self._busy_words()}: your answers "
                f"{self._told_words()}."
            )
        return result

    def _catch_up(self, timeout: float) -> bool:
        """Write every kept change (this store's and any other's in the journal) to the file,
        in one transaction; True when nothing is kept any more."""
        if not self.waiting:
            return True
        try:
            if self._file is None:
                if not _free_now(self.path, timeout):  # before the checks of opening,
                    return False  # which take seconds on a big file
                before = self.notice
                self._file = self._open_or_salvage(timeout)
                if self.notice is not None and self.notice is not before:  # damaged, salvaged
                    self.notify(self.notice)
            written = self._write_journal(self._file, timeout)
        except OSError:  # the journal cannot be read now
            return False
        except sqlite3.DatabaseError as exc:
            if not _environmental(exc):
                raise
            return False
        if self.conn is not self._file:
            self.conn.close()
            self.conn = self._file
        self._told, self._blind = None, False
        if written:
            self.notify(
                f"Your progress file {self.path} is free again: the "
                f"{_n(written, 'answer')} kept meanwhile {_are(written)} saved in it."
            )
        return True

    def _write_journal(self, conn: sqlite3.Connection, timeout: float) -> int:
        """Apply the journal and this store's kept changes to ``conn`` in one transaction and
        clear both; returns how many of them were answers."""
        conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        try:
            with self._jn.applying() as (ops, _):
                ids = {op["id"] for op in ops}
                mine = [
                    op for op in self._kept if op["id"] not in ids and not op.get("_journaled")
                ]  # a journaled one gone: another wrote it
                answers = 0
                with W.Transaction(conn):
                    for op in ops + mine:
                        if _sound(op):
                            W.apply(conn, op)
                            answers += op["op"] == "answer"
            for op in self._kept:
                if op["op"] == "answer":
                    self._log[op["_seq"]][1] = "saved"
            self._kept = []
            return answers
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")

    def _journal_refused(self) -> None:
        """Add to :attr:`notice` that the journal's path holds something that is not a regular
        file (a link, a FIFO), which is never read or written."""
        odd = self._jn.refused() if self._journal is not None else None
        if odd:
            said = (
                f"{self._jn.path} is {odd}, not a regular file: it is left as it is, "
                "never read or written (answers that cannot be saved at once are kept in "
                "memory only)."
            )
            self.notice = (self.notice + " " if self.notice else "") + said

    def _write_journal_at_open(self) -> None:
        """Changes kept by an earlier session (or another program now) written to the file."""
        self._journal_refused()
        if not self._jn.exists():
            return
        try:
            with self._jn.applying() as (ops, unreadable):
                answers = 0
                with W.Transaction(self._fn):
                    for op in ops:
                        if _sound(op):
                            W.apply(self._fn, op)
                            answers += op["op"] == "answer"
                        else:
                            unreadable += 1
        except (OSError, sqlite3.DatabaseError):
            return  # still kept; the next change tries again
        said = (
            f"{_n(answers, 'answer')} kept in {self._jn.path.name} while your progress "
            f"file was busy {_are(answers)} now saved in it"
        )
        if unreadable:
            said += f" ({_n(unreadable, 'line')} of it could not be read)"
        self.notice = (self.notice + " " if self.notice else "") + said + "."

    def _apply_journal_to(self, mem: sqlite3.Connection) -> None:
        """Show the changes kept in the journal in the copy ``mem`` (the journal left as it
        is)."""
        ops, _ = self._jn.read() if self._journal is not None else ([], 0)
        for op in ops:
            if _sound(op):
                W.apply_in_transaction(mem, op)

    def _write(self, op: dict):
        """Write ``op`` to the file in its own transaction, or keep it (see the class).  Raises
        :class:`~tutor.teaching.progress._values.StoreValueError` (nothing written) for a value
        that an import would refuse (:func:`_incoming`)."""
        try:
            _incoming(op)
        except I.Bad as exc:
            raise V.StoreValueError(f"the progress store cannot keep it: {exc}") from None
        if not self.saving:
            self._unsaved += not self.read_only
            return W.apply_in_transaction(self.conn, op)
        if self.waiting and not self._catch_up(RETRY_SECONDS):
            return self._keep(op)
        try:
            return W.apply_in_transaction(self.conn, op)
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise
            self._start_waiting(exc)
            return self._keep(op)


def _free_now(path, timeout: float) -> bool:
    """Whether the file at ``path`` can be written now (another program's lock waited for up
    to ``timeout`` seconds); a file that is not a database is "free" (opening finds why)."""
    probe = _connect(path, timeout)
    try:
        probe.execute("BEGIN IMMEDIATE")
        probe.execute("ROLLBACK")
        return True
    except sqlite3.DatabaseError as exc:
        return not _busy(exc)
    finally:
        probe.close()


def _backup(src: sqlite3.Connection, mem: sqlite3.Connection) -> None:
    """Copy ``src`` into ``mem`` inside a read transaction taken first (waiting no longer than
    ``src``'s busy timeout: ``Connection.backup`` itself retries a locked file for ever).
    Raises :class:`sqlite3.OperationalError` when the file cannot be read now."""
    src.execute("BEGIN")
    try:
        src.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        src.backup(mem)
    finally:
        src.execute("ROLLBACK")


def _sound(op: dict) -> bool:
    """A change read back from the journal that can be applied (:func:`_incoming`); a line that
    is not is skipped (and counted)."""
    try:
        _incoming(op)
    except (KeyError, TypeError, ValueError, LaughError, I.Bad):
        return False
    return True


def _incoming(op: dict) -> None:
    """Raise when ``op`` is not a change this program makes
    (:func:`~tutor.teaching.progress._writes.check`), or holds a value an import of the same
    value refuses (:mod:`tutor.teaching.progress._incoming`: a kind of answer this program
    records, texts of 1 to 200 characters, times and numbers in range): a journal line is
    checked as an import line is, and the store keeps nothing a journal line may not hold."""
    W.check(op)
    kind = op["op"]
    where = kind
    if kind == "answer":
        I.answer({**op, "uid": op["id"]}, where)
        I.opt(op, "slot", I.text, f"{where}.slot")
    elif kind == "sighting":
        I.sighting({**op, "uid": op["id"]}, where)
    elif kind == "meta":
        I.text(op["key"], f"{where}.key")
    else:  # start, page, complete
        I.text(op["lesson"], f"{where}.lesson")
        I.moment(op["at"], f"{where}.at")


def _n(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _are(n: int) -> str:
    return "is" if n == 1 else "are"
