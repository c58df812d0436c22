"""The live tables' server files: written in an order that loses nothing, retried when a write
fails, and never short of a file descriptor (a part of :mod:`tutor.app.tables.server`).

In the server's folder (made 0700; ``server.json`` written 0600: it holds the organiser's code
and every seat's token):

- ``server.json``: the settings, the codes, who sits where, the standings published
  (:mod:`~tutor.app.tables._state` reads it back, checked whole);
- ``table-N.journal.jsonl``: the deal in play, journaled as it is played: a first line with the
  deal (its record with no actions: the pack, the dealer, the game's index) and one line for
  each action as it is applied, flushed to the system before any client is told of it, so that
  the server killed at any moment (``kill -9``) resumes at the last action, with the same hands;
- ``table-N.jsonl``: every finished deal's record (RULES.md 9), appended as the deal ends,
  *before* the match file is written: a record is never missing for a deal the match holds;
- ``table-N.match.json``: the match after every deal, written whole
  (:func:`~tutor.engine.atomic.write_atomic`);
- ``events.jsonl``: the organiser's log (joins, leaves, deals, claims with their margins,
  time-outs and the moves a computer player made for a person, each with its game and action
  index);
- ``sheets/``: each person's score sheet as HTML at the end of a match; ``server.log``.

Every file is written 0600 (made so, or tightened when it exists: a ``--dir`` given may be an
older folder's).  A table whose journal, or whose last deal's record or match, cannot be
written is :meth:`ServerFiles.blocked`: the server pauses it, shows nothing new of it and
plays nothing there until the retry has written it (issue 41: the table played on, and a
``--resume`` after a kill refused the folder).

A write that fails (a full disk, a folder made read-only) is said at once (``on_problem``),
kept, and tried again after 1, 2, 4 ... 30 seconds until it is done; then that is said too.  A
few descriptors are held open in reserve (:class:`Reserve`) and let go for the moment of each
save, so that a server whose connections have used every other descriptor still saves.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import stat
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from tutor.engine.atomic import write_atomic
from tutor.engine.deal import Deal
from tutor.engine.records import action_to_json, dumps, to_record

__all__ = ["JOURNAL_FORMAT", "Reserve", "ServerFiles", "journal_path", "records_path"]

log = logging.getLogger("tutor.tables")

#: The format name of a table's journal's first line.
JOURNAL_FORMAT = "laugh-and-lie-down/journal@1"
#: Descriptors held in reserve for the saves.
RESERVE = 8
#: Seconds before a failed save is tried again: doubled each time, up to the last.
RETRY = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
#: Seconds at most before a failed save is tried again while a table waits for it (paused:
#: its players wait, so it is tried often; a small write, cheap to try).
PAUSED_RETRY = 2.0


def records_path(folder: Path, number: int) -> Path:
    """Table ``number``'s finished deals (JSON Lines of deal records)."""
    return folder / f"table-{number}.jsonl"


def journal_path(folder: Path, number: int) -> Path:
    """Table ``number``'s journal of the deal in play."""
    return folder / f"table-{number}.journal.jsonl"


def match_path(folder: Path, number: int) -> Path:
    """Table ``number``'s saved match."""
    return folder / f"table-{number}.match.json"


class Reserve:
    """``n`` descriptors held open (on the null device) and let go for the moment of a save
    (:meth:`released`): the server runs on one thread, so nothing can take them between their
    release and the save's own opening of its files."""

    def __init__(self, n: int = RESERVE):
        self.n = n
        self.fds: list[int] = []
        self._refill()

    def _refill(self) -> None:
        while len(self.fds) < self.n:
            try:
                self.fds.append(os.open(os.devnull, os.O_RDONLY))
            except OSError:  # none to spare now: refilled after the next save
                return

    @contextmanager
    def released(self) -> Iterator[None]:
        """Let the reserve go for the ``with`` block, then take it back."""
        for fd in self.fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self.fds = []
        try:
            yield
        finally:
            self._refill()

    def close(self) -> None:
        """Let the reserve go for good."""
        for fd in self.fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self.fds = []


class ServerFiles:
    """The files of a server in ``folder`` (see the module docstring).  ``on_problem(text)``
    is told, in one line, of a save that failed and of one that succeeded after failing (the
    server prints it on its pane and logs it); ``later(seconds, fn)`` runs ``fn`` after a while
    (the server's loop), for the retries."""

    def __init__(
        self,
        folder: Path,
        on_problem: Callable[[str], None],
        later: Callable[[float, Callable[[], object]], Any] | None = None,
    ):
        self.folder = folder
        self.on_problem = on_problem
        self.later = later
        self.reserve = Reserve()
        self._journals: dict[int, IO[str]] = {}
        self._written: dict[int, int] = {}
        self._events: IO[str] | None = None
        #: Per table: records not yet appended (their text), and whether its match is due.
        self._records: dict[int, list[str]] = {}
        self._match_due: dict[int, Any] = {}
        self._state_due: dict[str, Any] | None = None
        #: Per table: the deal whose journal could not be written (its game index, the deal).
        self._journal_due: dict[int, tuple[int, Deal]] = {}
        self._ended: set[int] = set()
        self._failures = 0
        self._retry_pending = False
        self.closed = False

    # -- the deal in play ----------------------------------------------------------------------

    def journal(self, number: int, game: int, deal: Deal, new: bool) -> bool:
        """Journal the actions of ``deal`` (table ``number``'s, game index ``game``) not yet
        written: with ``new``, the deal's first line and every action so far (a new file).
        Returns True when the system has them all; False (said, and tried again: the journal
        then written whole, :meth:`_rewrite_journal`) when they could not be written: the
        table must show none of them until :meth:`blocked` says it is saved."""
        if number in self._journal_due:  # behind already: the retry writes it whole
            self._journal_due[number] = (game, deal)
            return False
        try:
            f = self._journals.get(number)
            if new or f is None:
                self._ended.discard(number)  # a new deal: the last one's is done
                if f is not None:
                    f.close()
                with self.reserve.released():  # a descriptor only to open it
                    f = _open_private(journal_path(self.folder, number), "w")
                self._journals[number] = f
                f.write(_journal_head(game, deal))
                self._written[number] = 0
            done = self._written.get(number, 0)
            f.write(
                "".join(
                    json.dumps(action_to_json(a), ensure_ascii=False) + "\n"
                    for a in deal.history[done:]
                )
            )
            f.flush()  # the system has it: a kill -9 loses nothing
            self._written[number] = len(deal.history)
            return True
        except OSError as exc:
            _close_quietly(self._journals.pop(number, None))
            self._journal_due[number] = (game, deal)
            self._problem(
                f"could not journal table {number}'s deal: {_why(exc)} (the table "
                "is paused until it is saved)"
            )
            return False

    def _rewrite_journal(self, number: int) -> bool:
        """Write table ``number``'s journal whole again (after a failed write: the file may
        end in part of a line), in one go (:func:`~tutor.engine.atomic.write_atomic`), and
        go on appending to it; False, said, when it still cannot be written."""
        game, deal = self._journal_due[number]
        path = journal_path(self.folder, number)
        try:
            with self.reserve.released():
                write_atomic(
                    path,
                    _journal_head(game, deal)
                    + "".join(
                        json.dumps(action_to_json(a), ensure_ascii=False) + "\n"
                        for a in deal.history
                    ),
                    mode=0o600,
                )
                f = _open_private(path, "a")
        except OSError as exc:
            self._problem(
                f"could not journal table {number}'s deal: {_why(exc)} (the table "
                "is paused until it is saved)"
            )
            return False
        self._journals[number] = f
        self._written[number] = len(deal.history)
        del self._journal_due[number]
        return True

    def blocked(self, number: int) -> bool:
        """True while table ``number`` has something not yet on disk that it must not go on
        without: actions of the deal in play not journaled, or a finished deal's record or
        match not written (a new deal's journal would stand where the last one's is still
        needed).  The server shows nothing new of the table, and plays nothing, until then."""
        return (
            number in self._journal_due
            or bool(self._records.get(number))
            or number in self._match_due
        )

    def _end_journal(self, number: int) -> None:
        f = self._journals.pop(number, None)
        if f is not None:
            try:
                f.close()
            except OSError:
                pass
        try:
            journal_path(self.folder, number).unlink(missing_ok=True)
        except OSError:
            pass

    # -- finished deals -----------------------------------------------------------------------

    def finished(self, number: int, deal: Deal, match_text: Callable[[], str]) -> bool:
        """Table ``number``'s deal has ended: its record appended to the records file, then
        the match (``match_text()``) written, then the journal let go.  Returns True when all
        of it was written now (else it is tried again, and said)."""
        self._records.setdefault(number, []).append(dumps(to_record(deal)) + "\n")
        self._match_due[number] = match_text
        self._ended.add(number)
        return self._write_table(number)

    def _write_table(self, number: int) -> bool:
        lines = self._records.get(number) or []
        try:
            with self.reserve.released():
                if lines:
                    _append(records_path(self.folder, number), "".join(lines))
                    lines.clear()
                text = self._match_due.get(number)
                if text is not None:
                    write_atomic(match_path(self.folder, number), text() + "\n", mode=0o600)
                    self._match_due.pop(number, None)
        except OSError as exc:
            self._problem(f"could not save table {number}: {_why(exc)}")
            return False
        if number in self._ended:  # its record is out: the journal has done its work
            self._ended.discard(number)
            self._journal_due.pop(number, None)
            self._end_journal(number)
        return True

    def save_match(self, number: int, match_text: Callable[[], str]) -> None:
        """Write table ``number``'s match now (after any record it waits for)."""
        self._match_due[number] = match_text
        self._write_table(number)

    def write(self, path: Path, text: str) -> bool:
        """Write one file whole now (a score sheet); False, said, when it cannot."""
        try:
            with self.reserve.released():
                path.parent.mkdir(exist_ok=True, mode=0o700)
                write_atomic(path, text, mode=0o600)
            return True
        except OSError as exc:
            self._problem(f"could not write {path.name}: {_why(exc)}")
            return False

    # -- the server's state and its log --------------------------------------------------------

    def save_state(self, state: dict[str, object]) -> bool:
        """Write ``server.json`` (mode 0600) now; False, said and tried again, when it cannot."""
        self._state_due = state
        return self._write_state()

    def _write_state(self) -> bool:
        state = self._state_due
        if state is None:
            return True
        path = self.folder / "server.json"
        try:
            with self.reserve.released():
                write_atomic(
                    path, json.dumps(state, ensure_ascii=False, indent=1) + "\n", mode=0o600
                )
            self._state_due = None
            return True
        except OSError as exc:
            self._problem(f"could not save the server's state: {_why(exc)}")
            return False

    def event(self, message: Mapping[str, object], when: str) -> None:
        """Append one line of the organiser's log to ``events.jsonl`` (``when``: the wall
        clock's time, as text).  A log line that cannot be written is dropped (and said once)."""
        try:
            if self._events is None:
                with self.reserve.released():
                    self._events = _open_private(self.folder / "events.jsonl", "a")
            line = {"at": when, **{k: v for k, v in message.items() if k != "type"}}
            self._events.write(json.dumps(line, ensure_ascii=False) + "\n")
            self._events.flush()
        except OSError as exc:
            if self._events is not None:
                try:
                    self._events.close()
                except OSError:
                    pass
            self._events = None
            log.warning("could not write the events log: %s", _why(exc))

    # -- failures and retries ------------------------------------------------------------------

    @property
    def pending(self) -> bool:
        """True while a save waits to be tried again."""
        return bool(
            self._state_due is not None
            or any(self._records.values())
            or self._match_due
            or self._journal_due
        )

    def _problem(self, text: str) -> None:
        self._failures += 1
        delay = RETRY[min(self._failures - 1, len(RETRY) - 1)]
        if self._journal_due or any(self._records.values()) or self._match_due:
            delay = min(delay, PAUSED_RETRY)  # a table is paused until it is saved
        self.on_problem(f"{text}; trying again in {delay:g} s")
        if self.later is not None and not self._retry_pending and not self.closed:
            self._retry_pending = True
            self.later(delay, self.retry)

    def retry(self) -> bool:
        """Try every save that failed again; True when nothing is left to save."""
        self._retry_pending = False
        if not self.pending:
            return True
        tries = self._failures
        ok = self._write_state()
        for number in sorted(self._journal_due):
            ok = self._rewrite_journal(number) and ok
        for number in sorted(set(self._records) | set(self._match_due)):
            if self._records.get(number) or number in self._match_due:
                ok = self._write_table(number) and ok
        if ok and not self.pending:
            self._failures = 0
            self.on_problem(
                f"saved everything that was waiting (after {tries} failed "
                f"{'try' if tries == 1 else 'tries'})"
            )
        return not self.pending

    def close(self) -> None:
        """Close the journals and the log (their files stay: a stop resumes from them)."""
        self.closed = True
        for f in list(self._journals.values()) + ([self._events] if self._events else []):
            try:
                f.close()
            except OSError:
                pass
        self._journals.clear()
        self._events = None
        self.reserve.close()


def _append(path: Path, text: str) -> None:
    """Append ``text`` to ``path`` whole, or leave the file as it was (cut back to its length
    before, where a write stopped half way)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        _tighten(fd)
        size = os.fstat(fd).st_size
        data = text.encode("utf-8")
        try:
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
        except OSError:
            try:
                os.ftruncate(fd, size)
            except OSError:
                pass
            raise
    finally:
        os.close(fd)


def _tighten(fd: int) -> None:
    """Make the regular file open at ``fd`` one only its owner reads and writes (0600), as an
    older server, or a folder given with ``--dir`` that existed, may have left it."""
    st = os.fstat(fd)
    if stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) & 0o077:
        os.fchmod(fd, 0o600)


def _open_private(path: Path, mode: str) -> IO[str]:
    """``path`` opened as UTF-8 text for writing (``"w"``) or appending (``"a"``), made 0600
    when new and tightened to 0600 when not (issue 41: the journal holds the whole pack)."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if mode == "w" else os.O_APPEND)
    fd = os.open(path, flags, 0o600)
    try:
        _tighten(fd)
        return open(fd, mode, encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise


def _journal_head(game: int, deal: Deal) -> str:
    """A journal's first line: its format, the game's index and the deal with no actions."""
    return (
        json.dumps(
            {
                "format": JOURNAL_FORMAT,
                "game": game,
                "record": dict(to_record(deal, with_result=False), actions=[]),
            },
            ensure_ascii=False,
        )
        + "\n"
    )


def _close_quietly(f: IO[str] | None) -> None:
    if f is None:
        return
    try:
        f.close()
    except OSError:  # its buffer could not be written: the journal is rewritten
        pass


def _why(exc: OSError) -> str:
    if exc.errno == errno.EMFILE:
        return "too many open files"
    return exc.strerror or str(exc)
