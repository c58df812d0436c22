"""The store itself: :class:`ProgressStore`, opening the file (moving a damaged one aside and
salvaging it), and writing every change, or keeping it in the journal while the file is busy or
the disk full (private module: import it from :mod:`tutor.teaching.progress`)."""

from __future__ import annotations

import sqlite3
import stat
import sys
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from tutor.engine.errors import LaughError
from tutor.engine.infile import kind_of
from tutor.engine.outputs import folder_problem, not_saved
from tutor.puzzles.themes import theme_ids
from tutor.teaching.progress import _keeping as K
from tutor.teaching.progress import _merge
from tutor.teaching.progress import _values as V
from tutor.teaching.progress import _writes as W
from tutor.teaching.progress._damage import _check_and_migrate, _check_header, _environmental, _said
from tutor.teaching.progress._keeping import Keeping, _are, _backup, _busy, _n
from tutor.teaching.progress._pending import Journal
from tutor.teaching.progress._reading import Reads
from tutor.teaching.progress._salvage import move_aside, salvage
from tutor.teaching.progress._schema import _LONGEST, FILE_NAME, _connect, _recompute
from tutor.teaching.progress._store_rows import Answer, LessonState, RatingChange, Sighting

__all__ = ["ProgressStore", "SavedCount", "default_path"]


def _not_a_file(path: Path) -> str | None:
    """What ``path`` is (its link followed) when it is there and not a regular file (``a
    FIFO``: SQLite would wait on it for ever), else None."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else kind_of(mode)


def default_path() -> Path:
    """``laugh_home() / "progress.sqlite3"``."""
    from tutor.engine.data import laugh_home

    return laugh_home() / FILE_NAME


class _Unmovable(sqlite3.OperationalError):
    """A damaged file that cannot be moved aside: the message is ours (the path whole, SQLite's
    own error already cut by :func:`_said`), so it is never cut again."""


class SavedCount(NamedTuple):
    """Answers recorded since a mark (:meth:`ProgressStore.save_mark`): ``saved`` of them are
    in the progress file, ``right`` of those right; ``kept`` wait in the journal beside it (on
    disk) to be written when the file is free; ``unsaved`` are held in memory only (the file
    and the journal cannot be written, or the store cannot save at all): lost when the program
    ends unless the file frees first.  ``why`` says why they are not saved (None when every
    one is)."""

    saved: int
    right: int
    kept: int
    unsaved: int = 0
    why: str | None = None

    def words(self) -> str:
        """What was saved, in words: ``3 answers saved (2 right); 2 kept in
        progress.sqlite3.pending, to be saved when the progress file is free; 1 not saved
        (the disk is full).``"""
        said = (
            f"{_n(self.saved, 'answer')} saved ({self.right} right)"
            if self.saved
            else "nothing saved"
        )
        if self.kept:
            said += f"; {self.kept} kept to be saved when the progress file is free"
        if self.unsaved:
            said += f"; {self.unsaved} not saved" + (f" ({self.why})" if self.why else "")
        return said + "."


def _say(line: str) -> None:
    """The default :attr:`ProgressStore.notify`: one line on standard error."""
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


class ProgressStore(Keeping, Reads):
    """The progress database.

    ``ProgressStore(path)`` opens (creating or migrating) the file, default
    :func:`default_path`.  A damaged file is moved aside, every answer, lesson and setting
    that can still be read is salvaged into a fresh one (the ratings recomputed), and
    :attr:`notice` says so in one line, with how many were kept and how many could not be
    read.  A file or folder that cannot be written (read-only) leaves the store working in
    memory (:attr:`saving` False) and :attr:`notice` saying why progress cannot be saved.

    A file that is *busy* (another program holds its lock; the disk is full) loses nothing:
    each change (an answer, a lesson's page, a setting) that cannot be written after
    :data:`~tutor.teaching.progress._keeping.BUSY_SECONDS` is kept in the journal beside it (``progress.sqlite3.pending``, see
    :mod:`tutor.teaching.progress._pending`) and in a copy in memory that the session reads,
    and written to the file, in order, as soon as it is free: at the next change, at
    :meth:`close`, or the next time any store opens the file.  :attr:`waiting` is True
    meanwhile; :attr:`notify` (default: a line on standard error) is told once when changes
    start to be kept, once when they are written, and at close if some are still kept.  A file
    already busy when opened is worked on the same way from the start (:attr:`notice` says so).

    Otherwise ``notice`` is None.  With ``read_only=True`` the file is only read (a copy is
    taken into memory, with any changes kept in the journal, so the statistics can fold answers
    into review schedules without writing), never created, changed or moved; a damaged file
    then shows what can be salvaged of it, with a notice.  Every value given is checked at the
    edge: one the store cannot keep raises
    :class:`~tutor.teaching.progress._values.StoreValueError` (a
    :class:`~tutor.engine.errors.LaughError`) and nothing is written.  Raises
    :class:`~tutor.engine.errors.LaughError` for a file written by a newer version of the
    program.  Use as a context manager or call :meth:`close`.
    """

    def __init__(self, path: Path | str | None = None, *, read_only: bool = False):
        self.path = Path(path) if path is not None else default_path()
        self.notice: str | None = None
        self.read_only = read_only
        #: True while changes are written (or kept to be written) to :attr:`path`; False when
        #: they stay in memory only.
        self.saving = not read_only
        #: Called with one line when changes start to be kept, are written, or are still kept
        #: at close.
        self.notify = _say
        self._journal = Journal(self.path)
        self._file: sqlite3.Connection | None = None  # the file, when it is open
        self._kept: list[dict] = []  # changes not yet in the file
        self._why = ""  # why they are kept
        self._told: str | None = None  # ... and where, as said: journal, memory
        self._journal_why: str | None = None  # why the journal cannot be written
        self._unsaved = 0  # changes made while not saving
        self._why_not_saving: str | None = None  # ... and why it does not save
        self._blind = False  # the copy could not read the file
        self._log: list[list] = []  # per answer recorded: [right, state]
        if read_only:
            home = self.path.parent
            if home.exists() and not home.is_dir():  # nothing was ever saved: say so
                self.notice = (
                    f"Your progress cannot be saved: {home} is not a folder; "
                    "nothing is saved there."
                )
            self.conn = self._open_copy()
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._go_on_without_saving(
                f"the folder {self.path.parent} cannot be created ({exc.strerror or exc})",
                copy=False,
            )
            return
        odd = _not_a_file(self.path)
        if odd:
            self._go_on_without_saving(f"{self.path} is {odd}, not a regular file", copy=False)
            return
        try:
            self._file = self.conn = self._open_or_salvage()
        except sqlite3.DatabaseError as exc:
            if _busy(exc):
                self._wait_from_the_start(exc)
            else:
                self._go_on_without_saving(self._why_unwritable(exc), copy=True)
            return
        self._write_journal_at_open()

    @classmethod
    def in_memory(cls) -> ProgressStore:
        """An empty store in memory, never written to any file (``laugh class report`` reads
        each learner's export into one)."""
        store = cls.__new__(cls)
        store.path = Path(":memory:")
        store.notice = None
        store.read_only = False
        store.saving = False
        store.notify = _say
        store._journal, store._file, store._kept, store._why, store._log = None, None, [], "", []
        store._told, store._blind, store._journal_why, store._unsaved = None, False, None, 0
        store._why_not_saving = None  # in memory on purpose: nothing unsaved
        store.conn = _connect(":memory:")
        _check_and_migrate(store.conn, store.path)
        return store

    # -- opening ---------------------------------------------------------------------------

    def _open(self, timeout: float | None = None) -> sqlite3.Connection:
        """The file, checked, migrated, and proved writable (a write rolled back), waiting
        ``timeout`` seconds (default :data:`~tutor.teaching.progress._keeping.BUSY_SECONDS`) for another program's lock."""
        _check_header(self.path)
        conn = _connect(self.path, K.BUSY_SECONDS if timeout is None else timeout)
        try:
            _check_and_migrate(conn, self.path)
        except BaseException:
            conn.close()
            raise
        return conn

    def _open_or_salvage(self, timeout: float | None = None) -> sqlite3.Connection:
        """:meth:`_open`; a damaged file moved aside, salvaged into a fresh one, and
        :attr:`notice` saying so.  Raises :class:`sqlite3.DatabaseError` for a file that
        cannot be written (or moved aside) now."""
        try:
            return self._open(timeout)
        except sqlite3.DatabaseError as exc:
            if _environmental(exc):
                raise
            try:
                moved = move_aside(self.path)
            except OSError as move_exc:
                raise _Unmovable(
                    f"{self.path} could not be read ({_said(exc)}) and cannot be moved aside "
                    f"({move_exc.strerror or move_exc})"
                ) from None
            said = (
                f"Your progress file {self.path} could not be read ({_said(exc)}); it was "
                f"moved to {moved.name} beside it"
            )
            self.notice = said + "."  # kept if the fresh one cannot be made either
            conn = self._open(timeout)
            self.notice = f"{said} and a fresh one started: {salvage(moved, conn).words()}."
            return conn

    def _copy(self, timeout: float) -> sqlite3.Connection:
        """A copy of the file in memory (the file opened read-only), checked and migrated.
        Raises :class:`sqlite3.DatabaseError` when it cannot be read."""
        mem = _connect(":memory:")
        try:
            _check_header(self.path)
            src = sqlite3.connect(
                f"{self.path.resolve().as_uri()}?mode=ro",
                uri=True,
                timeout=timeout,
                isolation_level=None,
            )
            try:
                _backup(src, mem)
            finally:
                src.close()
            _check_and_migrate(mem, self.path)
        except BaseException:
            mem.close()
            raise
        return mem

    def _empty(self) -> sqlite3.Connection:
        mem = _connect(":memory:")
        _check_and_migrate(mem, self.path)
        return mem

    def _open_copy(self) -> sqlite3.Connection:
        """The read-only store: a copy of the file in memory with the changes kept in the
        journal (or, with :attr:`notice` saying why, what can be salvaged of a damaged file,
        or an empty store)."""
        odd = _not_a_file(self.path)
        if odd:
            self.notice = (
                f"Your progress file {self.path} is {odd}, not a regular file; showing none of it."
            )
        if not self.path.is_file() or odd:
            return self._empty()
        try:
            mem = self._copy(K.BUSY_SECONDS)
        except sqlite3.DatabaseError as exc:
            mem = self._empty()
            if getattr(exc, "sqlite_errorname", "") == "SQLITE_READONLY_ROLLBACK":
                self.notice = (
                    f"Your progress file {self.path} has a change left unfinished "
                    "(a journal beside it) that only a lesson or puzzle, which "
                    "may write, can finish; showing none of it."
                )
            elif _environmental(exc):
                self.notice = (
                    f"Your progress file {self.path} cannot be read ({_said(exc)}); "
                    "showing none of it."
                )
            else:
                kept = salvage(self.path, mem)
                self.notice = (
                    f"Your progress file {self.path} is damaged ({_said(exc)}); "
                    f"showing what can be read of it ({kept.words()}; the file is "
                    "left as it is: the next lesson or puzzle moves it aside and "
                    "starts a fresh one with the same)."
                )
        self._journal_refused()
        self._apply_journal_to(mem)
        return mem

    def _go_on_without_saving(self, why: str, copy: bool) -> None:
        """Work in memory from now on (on a copy of the file when ``copy`` and it can be read)
        and set :attr:`notice` to say that progress cannot be saved, and why."""
        self.saving = False
        self._journal = None
        self._why_not_saving = f"your progress cannot be saved: {why}"
        read_notice = self.notice
        self.notice = None
        self.conn = self._open_copy() if copy else self._empty()
        if self.notice:
            read_notice = (read_notice + " " if read_notice else "") + self.notice
        self.notice = f"Your progress cannot be saved: {why}; going on without saving."
        if read_notice:
            self.notice += " " + read_notice

    def _why_unwritable(self, exc: sqlite3.DatabaseError) -> str:
        if isinstance(exc, _Unmovable):  # our own words, with the path whole
            return str(exc)
        folder = folder_problem(self.path.parent)
        if folder:  # read-only, immutable, full: said plainly
            return folder
        name = getattr(exc, "sqlite_errorname", "")
        if name == "SQLITE_READONLY_DIRECTORY":
            return f"the folder {self.path.parent} is read-only"
        if name.startswith("SQLITE_READONLY"):
            return f"the file {self.path} is read-only"
        if name == "SQLITE_CANTOPEN" and not self.path.exists():
            return f"{self.path} cannot be created in its folder ({_said(exc)})"
        return f"{self.path}: {_said(exc)}" if name else _said(exc)

    # -- answers ---------------------------------------------------------------------------

    def record_answer(
        self,
        puzzle_id: str,
        kind: str,
        themes,
        correct: bool,
        seconds: float | None,
        *,
        hints: int = 0,
        lesson: str | None = None,
        ruleset: str | None = None,
        retry: bool = False,
        slot: str | None = None,
        at: float | None = None,
        difficulty: int | None = None,
        revealed: bool = False,
    ) -> RatingChange | None:
        """Record one graded answer, committed at once (or kept: see the class); returns the
        ratings it moved, or None.

        ``themes`` is an iterable of theme names (kept in their one spelling,
        :func:`tutor.puzzles.themes.theme_id`); ``seconds`` the time taken (float seconds), or
        None when the answer was not typed at a terminal (piped, revealed): it is then missing
        from every time shown, not 0 (so is a time of 0 or less, which no one took, as a
        virtual clock's, and one longer than a week).
        ``difficulty`` is the puzzle's band (1-5, None when it is not a puzzle of a band);
        ``revealed`` True when the learner asked to see the answer.  With ``lesson`` and
        ``slot`` (``"<block>.<n>"``) the lesson's saved answers are updated in the same
        transaction (a first answer only: ``retry`` answers do not change them).  The ratings
        (:mod:`tutor.teaching.ratings`) move in the same transaction when the answer is a first
        try at the puzzle (:func:`tutor.teaching.ratings.counts`).  ``at`` (Unix time, default
        now) must be from 1970 to the year 3000, ``hints`` a whole number from 0; else
        :class:`~tutor.teaching.progress._values.StoreValueError`.  Whether the answer reached
        the file: :meth:`saved_since`.
        """
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, (int, float))
            or not 0 < seconds <= _LONGEST
        ):  # (a NaN is not either)
            seconds = None
        op = {
            "op": "answer",
            "id": uuid.uuid4().hex,
            "at": time.time() if at is None else V.moment(at, "the time of an answer"),
            "puzzle_id": V.text(puzzle_id, "a puzzle id"),
            "kind": V.text(kind, "a kind"),
            "themes": theme_ids(V.text(str(t), "a theme") for t in themes),  # one name a theme
            "correct": bool(correct),
            "seconds": None if seconds is None else float(seconds),
            "hints": V.whole(hints, "a count of hints", 0),
            "lesson": V.text(lesson, "a lesson id", optional=True),
            "ruleset": V.text(ruleset, "a ruleset id", optional=True),
            "retry": bool(retry),
            "difficulty": V.band(difficulty),
            "revealed": bool(revealed),
            "slot": V.text(slot, "a lesson slot", optional=True),
        }
        op["_seq"] = len(self._log)
        self._log.append([bool(correct), "memory"])
        _, change = self._write(op)
        if self.saving:
            if not any(kept is op for kept in self._kept):
                self._log[-1][1] = "saved"
            elif op.get("_journaled"):
                self._log[-1][1] = "kept"
        return change

    def record_sighting(
        self,
        context: str,
        kind: str,
        outcome: str,
        seconds: float | None = None,
        *,
        ruleset: str | None = None,
        source: str | None = None,
        at: float | None = None,
    ) -> None:
        """Record one figure of spotting oversights, committed at once (or kept: see the
        class): in ``context`` (``play``, ``match`` or ``drill``), the oversight ``kind`` (``""``
        for a false claim that named none) came to ``outcome``: ``hit`` (claimed first),
        ``miss`` (the learner's to claim, and not claimed) or ``false_claim`` (a claim of
        nothing claimable).  ``seconds`` is a hit's time from claimable to named, typed at a
        terminal (None otherwise; a time out of range is missing, as for an answer); ``source``
        names the deal or puzzle.  Raises :class:`~tutor.teaching.progress._values.
        StoreValueError` for a value the store cannot keep (nothing written)."""
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, (int, float))
            or not 0 < seconds <= _LONGEST
            or outcome != "hit"
        ):
            seconds = None
        self._write(
            {
                "op": "sighting",
                "id": uuid.uuid4().hex,
                "at": time.time() if at is None else V.moment(at, "the time of a sighting"),
                "context": V.context(context),
                "kind": V.text(kind, "an oversight kind"),
                "outcome": V.outcome(outcome),
                "seconds": None if seconds is None else float(seconds),
                "ruleset": V.text(ruleset, "a ruleset id", optional=True),
                "source": V.text(source, "a source", optional=True),
            }
        )

    def save_mark(self) -> int:
        """A mark to count the answers recorded after it (:meth:`saved_since`)."""
        return len(self._log)

    def saved_since(self, mark: int) -> SavedCount:
        """The answers recorded since ``mark``: how many are in the file (and right), how many
        are kept in the journal for it (the file busy or the disk full), and how many are in
        memory only, and why (:class:`SavedCount`)."""
        later = self._log[mark:]
        unsaved = sum(1 for _, state in later if state == "memory")
        return SavedCount(
            sum(1 for _, state in later if state == "saved"),
            sum(1 for right, state in later if state == "saved" and right),
            sum(1 for _, state in later if state == "kept"),
            unsaved,
            self.unsaved() if unsaved else None,
        )

    def unsaved(self) -> str | None:
        """Why some change made so far (an answer, a lesson's page, a setting) is in memory
        only, neither in the file nor in the journal beside it, in words (``your progress
        cannot be saved: the folder F is read-only``); None when every one is on disk."""
        if self.read_only:
            return None
        if not self.saving:
            return self._why_not_saving if self._unsaved and self._why_not_saving else None
        if any(not op.get("_journaled") for op in self._kept):
            why = self._why
            if self._journal_why and why != "the disk is full":
                why += f"; {self._jn.path.name}: {self._journal_why}"
            return (
                f"your progress file {self.path} and {self._jn.path.name} beside it "
                f"cannot be written ({why})"
            )
        return None

    # -- lessons and settings --------------------------------------------------------------

    def start_lesson(self, lesson: str, seed: int) -> LessonState:
        """Begin a new attempt at ``lesson`` with ``seed`` (a whole number SQLite keeps: 64-bit;
        else :class:`~tutor.teaching.progress._values.StoreValueError`) at page 0, nothing
        answered; keeps the record of any earlier completion.  Also remembers it as the last
        lesson."""
        self._write(
            {
                "op": "start",
                "id": uuid.uuid4().hex,
                "at": time.time(),
                "lesson": V.text(lesson, "a lesson id"),
                "seed": V.whole(seed, "the seed"),
            }
        )
        state = self.lesson_state(lesson)
        assert state is not None
        return state

    def save_page(self, lesson: str, page: int) -> None:
        """Remember that ``lesson`` has reached ``page`` (0-based), and that it was the last
        lesson opened."""
        self._write(
            {
                "op": "page",
                "id": uuid.uuid4().hex,
                "at": time.time(),
                "lesson": V.text(lesson, "a lesson id"),
                "page": V.whole(page, "a page", 0),
            }
        )

    def complete_lesson(self, lesson: str, right: int, total: int) -> None:
        """Mark the current attempt at ``lesson`` finished, with ``right`` of ``total`` puzzles
        right first time."""
        total = V.whole(total, "a lesson's number of puzzles", 0)
        self._write(
            {
                "op": "complete",
                "id": uuid.uuid4().hex,
                "at": time.time(),
                "lesson": V.text(lesson, "a lesson id"),
                "right": V.whole(right, "a lesson's score", 0, total),
                "total": total,
            }
        )

    def set_meta(self, key: str, value: str) -> None:
        """Save a small setting (text)."""
        self._write(
            {
                "op": "meta",
                "id": uuid.uuid4().hex,
                "key": V.text(key, "a setting"),
                "value": V.text(value, f"the setting {key!r}"),
            }
        )

    # -- whole-store changes ---------------------------------------------------------------

    def _now_or_never(self, what: str):
        """A transaction on the file for a change too large to keep in the journal; raises
        :class:`LaughError` (nothing changed) while the file is busy."""
        if self.saving and not self._catch_up(K.BUSY_SECONDS):
            raise LaughError(
                f"your progress file {self.path} {self._busy_words()}: nothing "
                f"{what}; try again when it is free"
            )
        return W.Transaction(self.conn)

    def recompute_ratings(self) -> int:
        """Rebuild every rating and its history from the answers, oldest first, in one
        transaction; returns how many answers were rated.  (Ratings follow from the answers:
        this is what :meth:`merge` does after adding another machine's answers.)  Raises
        :class:`LaughError` when the file is busy."""
        try:
            with self._now_or_never("recomputed"):
                return _recompute(self.conn)
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise
            raise LaughError(
                f"your progress file {self.path} cannot be written now "
                f"({self._why_busy(exc)}): nothing recomputed"
            ) from None

    def merge(
        self,
        answers: list[Answer],
        lessons: list[LessonState],
        meta: dict[str, str],
        sightings: Sequence[Sighting] = (),
    ) -> tuple[int, int]:
        """Merge another store's progress into this one, in one transaction; returns
        ``(answers added, answers already here)``.

        - Answers are keyed by ``uid``: one already here is left as it is, so merging the same
          progress twice changes nothing, and nothing here is lost.  Their themes are kept in
          the one spelling (:func:`tutor.puzzles.themes.theme_ids`), so an older spelling
          merges under the one name.
        - A lesson keeps the attempt (seed, page, answers so far) last touched, and the
          completion (score) made last, wherever each was made.
        - A setting already here is kept, except the drills' bests (keys ending ``.best``),
          which keep the higher value; a setting not here is added.
        - Sightings (the figures of spotting oversights) are keyed by ``uid`` as answers are.
        - The ratings are recomputed from the merged answers (:meth:`recompute_ratings`), and
          the review schedules (:mod:`tutor.teaching.spaced_review`, which cache what the answers say)
          are dropped to be rebuilt from them in time order.

        Raises :class:`~tutor.teaching.progress._values.StoreValueError` for a value the store
        cannot keep, and :class:`LaughError` when the file is busy or full (nothing merged).
        """
        _merge.check(answers, lessons, meta, sightings)
        try:
            with self._now_or_never("merged"):
                added = _merge.merge(self.conn, answers, lessons, meta, sightings)
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise
            raise LaughError(
                f"your progress file {self.path} cannot be written now "
                f"({self._why_busy(exc)}): nothing merged"
            ) from None
        return added, len(answers) - added

    # -- closing ---------------------------------------------------------------------------

    def close(self) -> None:
        """Write what is kept if the file is free (trying for :data:`~tutor.teaching.progress._keeping.CLOSING_SECONDS`), then
        close it.  Changes still kept stay in the journal for the next store that opens the
        file (:attr:`notify` says so), or, when even the journal could not be written, are
        lost (said too)."""
        lost = []
        if self.saving and self.waiting and not self._catch_up(K.CLOSING_SECONDS):
            answers = [op for op in self._kept if op["op"] == "answer"]
            lost = [op for op in answers if not op.get("_journaled")]
            if lost:
                self.notify(
                    f"{_n(len(lost), 'answer')} could not be saved: your progress file "
                    f"{self.path} and {self._jn.path.name} beside it cannot be "
                    f"written ({self._why})."
                )
            if len(answers) > len(lost):
                kept = len(answers) - len(lost)
                self.notify(
                    f"{_n(kept, 'answer')} {_are(kept)} kept in {self._jn.path} "
                    "and saved in your progress the next time the tutor opens it."
                )
        why = self.unsaved()
        if why:
            not_saved(why, said=bool(lost) and self.notify is _say)
        for conn in {id(c): c for c in (self.conn, self._file) if c is not None}.values():
            conn.close()

    def __enter__(self) -> ProgressStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
