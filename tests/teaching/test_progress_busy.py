"""A busy or full progress file loses no answer (issue 23 item 3): another program holding the
write lock (``BEGIN IMMEDIATE``) or every lock (``BEGIN EXCLUSIVE``), at an answer or already
when the store opens; a disk that is full; a journal that cannot be written either.  Every
answer is kept (in the journal beside the file, or in memory) and written, in order, when the
file is free, with one line said each time."""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
import sys

import pytest
from support import ROOT, laugh_process

import tutor.teaching.progress._keeping as K
from tutor.teaching.progress import FILE_NAME, ProgressStore
from tutor.teaching.progress._pending import Journal


@pytest.fixture(autouse=True)
def short_waits(monkeypatch):
    monkeypatch.setattr(K, "BUSY_SECONDS", 0.2)
    monkeypatch.setattr(K, "RETRY_SECONDS", 0.05)
    monkeypatch.setattr(K, "CLOSING_SECONDS", 0.1)


@pytest.fixture
def path(tmp_path):
    return tmp_path / FILE_NAME


def _holder(path, how: str = "IMMEDIATE") -> sqlite3.Connection:
    """Another program's connection holding the file's lock."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute(f"BEGIN {how}")
    return other


def _pending(path):
    return Journal(path).path


def _saved(path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT puzzle_id FROM answers ORDER BY id")]
    finally:
        conn.close()


@pytest.mark.parametrize("how", ["IMMEDIATE", "EXCLUSIVE"])
def test_an_answer_while_another_program_writes_is_kept_then_saved(path, how):
    said = []
    with ProgressStore(path) as store:
        store.notify = said.append
        store.start_lesson("terms", 3)
        store.record_answer("a", "count", ["counting"], True, 2.0, difficulty=3)
        mark = store.save_mark()
        other = _holder(path, how)
        change = store.record_answer("b", "count", ["counting"], False, 3.0, difficulty=3)
        store.save_page("terms", 2)
        assert store.waiting and store.saving
        if how == "IMMEDIATE":  # the file can be read: the session goes on as ever
            assert change is not None
            assert store.answer_count() == 2 and store.lesson_state("terms").page == 2
        else:  # not even read: the session sees only what it kept
            assert change is None and store.answer_count() == 1
        assert store.saved_since(mark)[:4] == (0, 0, 1, 0)
        assert (
            store.record_answer(
                "b2", "count", ["counting"], False, 3.0, difficulty=3, lesson="terms", slot="1.0"
            )
            is None
        )  # a lesson's: not rated
        assert _pending(path).exists() and '"puzzle_id":"b"' in _pending(path).read_text()
        assert len(said) == 1 and "\n" not in said[0]
        assert said[0] == (
            f"Your progress file {path} is busy (another program is writing to "
            "it): your answers are kept in progress.sqlite3.pending beside it from "
            "now on, and saved in it as soon as it is free."
        )
        other.execute("ROLLBACK")
        other.close()
        store.record_answer("c", "count", ["counting"], True, 1.0, difficulty=3)
        assert not store.waiting and not _pending(path).exists()
        assert said[1] == (
            f"Your progress file {path} is free again: the 2 answers kept "
            "meanwhile are saved in it."
        )
        assert store.saved_since(mark) == (3, 1, 0, 0, None)
    assert _saved(path) == ["a", "b", "b2", "c"]
    with ProgressStore(path) as store:
        assert store.notice is None
        assert store.lesson_state("terms").page == 2
        assert store.lesson_state("terms").answered == {"1.0": False}
        assert store.rating("learner").games == 3  # every first try outside a lesson


def test_a_file_busy_when_opened_is_worked_on_not_given_up(path):
    """The session does not 'go on without saving': its answers are kept and saved."""
    with ProgressStore(path) as store:
        store.record_answer("a", "count", [], True, 2.0)
    other = _holder(path, "EXCLUSIVE")
    said = []
    store = ProgressStore(path)
    store.notify = said.append
    assert store.saving and store.waiting
    assert store.notice == (
        f"Your progress file {path} is busy (another program is writing to "
        "it): your answers are kept in progress.sqlite3.pending beside it "
        "from now on, and saved in it as soon as it is free."
    )
    store.record_answer("b", "count", [], True, 2.0)
    store.record_answer("c", "count", [], False, None)
    assert said == []  # the notice said it already
    other.execute("ROLLBACK")
    other.close()
    store.close()
    assert said == [
        f"Your progress file {path} is free again: the 2 answers kept meanwhile are saved in it."
    ]
    assert _saved(path) == ["a", "b", "c"] and not _pending(path).exists()


def test_answers_still_kept_at_close_are_saved_by_the_next_session(path):
    with ProgressStore(path) as store:
        store.record_answer("a", "count", [], True, 2.0)
    other = _holder(path)
    said = []
    with ProgressStore(path) as store:
        store.notify = said.append
        store.record_answer("b", "count", [], True, 2.0)
        store.set_meta("drill.count.best", "7")
    assert said[-1] == (
        f"1 answer is kept in {_pending(path)} and saved in your progress the "
        "next time the tutor opens it."
    )
    assert _saved(path) == ["a"]
    # a statistics run meanwhile shows the kept answer, and leaves the journal alone
    other.execute("ROLLBACK")
    with ProgressStore(path, read_only=True) as store:
        assert store.answer_count() == 2 and store.get_meta("drill.count.best") == "7"
    assert _pending(path).exists()
    with ProgressStore(path) as store:
        assert store.notice == (
            "1 answer kept in progress.sqlite3.pending while your progress "
            "file was busy is now saved in it."
        )
        assert store.get_meta("drill.count.best") == "7"
    assert _saved(path) == ["a", "b"] and not _pending(path).exists()


def test_a_full_disk_keeps_the_answer_and_says_so(path):
    said = []
    with ProgressStore(path) as store:
        store.notify = said.append
        store.record_answer("a", "count", [], True, 2.0)
        pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
        store.conn.execute(f"PRAGMA max_page_count = {pages}")  # the file cannot grow
        for i in range(40):
            store.record_answer(f"b{i}", "count", ["x" * 200, "y" * 200], True, 2.0)
            if store.waiting:
                break
        assert store.waiting and "(the disk is full)" in said[0]
        kept = store.answer_count()
        store._file.execute("PRAGMA max_page_count = 1000000")  # room again
        store.record_answer("c", "count", [], True, 2.0)
        assert not store.waiting
    assert len(_saved(path)) == kept + 1 and not _pending(path).exists()


def test_when_the_journal_cannot_be_written_either_the_answer_waits_in_memory(path, monkeypatch):
    said = []

    def full(self, op):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with ProgressStore(path) as store:
        store.notify = said.append
        store.record_answer("a", "count", [], True, 2.0)
        other = _holder(path)
        with monkeypatch.context() as m:
            m.setattr(Journal, "append", full)
            store.record_answer("b", "count", [], True, 2.0)
            assert store.waiting and not _pending(path).exists()
            assert (
                "your answers are kept in memory only from now on (progress.sqlite3.pending"
                " beside it cannot be written either: No space left on device): saved if the "
                "file is free before you leave, lost if not." in said[0]
            )
            other.execute("ROLLBACK")
            store.record_answer("c", "count", [], True, 2.0)  # the file is free: saved
    assert _saved(path) == ["a", "b", "c"]


def test_answers_kept_only_in_memory_and_never_written_are_said_to_be_lost(path, monkeypatch):
    monkeypatch.setattr(
        Journal,
        "append",
        lambda self, op: (_ for _ in ()).throw(OSError(errno.EROFS, os.strerror(errno.EROFS))),
    )
    said = []
    other = None
    with ProgressStore(path) as store:
        store.notify = said.append
        other = _holder(path)
        store.record_answer("a", "count", [], True, 2.0)
    other.execute("ROLLBACK")
    assert said[-1] == (
        f"1 answer could not be saved: your progress file {path} and "
        "progress.sqlite3.pending beside it cannot be written (another program "
        "is writing to it)."
    )


def test_a_damaged_journal_line_is_skipped_and_counted(path):
    with ProgressStore(path) as store:
        store.record_answer("a", "count", [], True, 2.0)
    other = _holder(path)
    with ProgressStore(path) as store:
        store.notify = lambda line: None
        store.record_answer("b", "count", [], True, 2.0)
    other.execute("ROLLBACK")
    with open(_pending(path), "a", encoding="utf-8") as fh:
        fh.write('{"op": "answer", "id": "x", "at": 1e300}\n{"op": "answer", "id": "y", "at":')
    with ProgressStore(path) as store:
        assert store.notice.endswith("is now saved in it (2 lines of it could not be read).")
    assert _saved(path) == ["a", "b"]


def test_two_processes_keeping_answers_lose_none(path):
    """Appends from several processes while the file is locked all land, in the journal and
    then in the file (the journal is locked while appended to and while applied)."""
    with ProgressStore(path) as store:
        store.record_answer("a", "count", [], True, 2.0)
    other = _holder(path)
    code = (
        "import sys, tutor.teaching.progress._keeping as K\n"
        "K.BUSY_SECONDS, K.CLOSING_SECONDS = 0.1, 0.1\n"  # the lock is held until all end
        "from tutor.teaching.progress import ProgressStore as P\n"
        "with P(sys.argv[1]) as s:\n"
        "    s.notify = lambda line: None\n"
        "    for i in range(5): s.record_answer(f'{sys.argv[2]}{i}', 'count', [], True, 1.0)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(path), name], env=env)
        for name in ("p", "q", "r")
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0]
    other.execute("ROLLBACK")
    with ProgressStore(path) as store:
        assert "15 answers kept" in store.notice
    assert sorted(_saved(path)) == sorted(["a"] + [f"{n}{i}" for n in "pqr" for i in range(5)])


def test_laugh_puzzle_while_an_import_holds_the_lock_keeps_the_answer(tmp_path):
    """The issue's reproduction, as a learner runs it: the answer given while another program
    writes is not lost (no traceback), and is in the store once the lock is let go."""
    home = tmp_path / "home"
    path = home / FILE_NAME
    env = dict(
        os.environ,
        LAUGH_HOME=str(home),
        COLUMNS="80",
        PYTHONIOENCODING="utf-8",
        PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    )

    def laugh(*args, stdin=""):
        return laugh_process(list(args), stdin, env, timeout=120)

    assert laugh("puzzle", "count", "--seed", "3", stdin="answer\n").returncode == 0
    other = _holder(path)
    proc = laugh("puzzle", "settlement", "--seed", "8", stdin="answer\n")
    other.execute("ROLLBACK")
    other.close()
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    said = "".join(proc.stdout.split())  # a long path may be wrapped anywhere
    assert (
        "".join(
            f"Your progress file {path} is busy (another program is writing to it): your "
            "answers are kept in progress.sqlite3.pending beside it".split()
        )
        in said
    )
    assert proc.stderr == (
        f"1 answer is kept in {path}.pending and saved in your progress the "
        "next time the tutor opens it.\n"
    )
    with ProgressStore(path) as store:
        assert "1 answer kept in progress.sqlite3.pending" in store.notice
        assert [a.kind for a in store.answers()] == ["count", "settlement"]
