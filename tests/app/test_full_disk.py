"""A save is said only after it happened (issue 28 item 4): with the learner's folder on a full
disk, or a read-only one, ``laugh play``, a drill and a lesson say at once what is and is not
kept, never claim a save that did not happen, and exit 1 (README, "Exit status").

Before: on a full disk ``laugh play`` printed "Saved deal 1 so far ... to ...jsonl" and exited 0
with the file empty; a drill said its answers "are kept in progress.sqlite3.pending" (0 bytes),
then "5 kept to be saved", then "5 answers could not be saved", and none was found once space
was freed.

The disk: a real tmpfs of 1 MB filled to the last block, where ``mount`` works (root, as on the
machines CI runs on); elsewhere a file-size limit of 0 bytes on the program (``RLIMIT_FSIZE``:
every write that would put a byte in any file fails, as on a full disk, with EFBIG instead of
ENOSPC), which is as faithful as an unprivileged test can be: a loop-mounted image needs root
too.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import uuid

import pytest
from support import ROOT, laugh_process

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="a full disk made on Linux")


class Disk:
    """The learner's folder ``home`` on a disk that can be filled and freed."""

    def __init__(self, root, mounted: bool):
        self.root, self.mounted = root, mounted
        self.home = root / "home"
        self.home.mkdir()
        self.full = False

    def fill(self) -> None:
        self.full = True
        if not self.mounted:
            return
        for name, size in (("filler", 65536), ("filler2", 512)):  # the last part-block too
            fd = os.open(self.root / name, os.O_WRONLY | os.O_CREAT, 0o644)
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                pass
            finally:
                os.close(fd)

    def free(self) -> None:
        self.full = False
        for name in ("filler", "filler2"):
            (self.root / name).unlink(missing_ok=True)

    def laugh(self, args, stdin="", timeout=120) -> subprocess.CompletedProcess:
        env = dict(
            os.environ,
            LAUGH_HOME=str(self.home),
            COLUMNS="80",
            PYTHONIOENCODING="utf-8",
            PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        )
        env.pop("NO_COLOR", None)
        if not (self.full and not self.mounted):
            # a process of its own, forked from one that has imported the tutor (the real
            # disk, full or read-only, is what it writes to; its start-up is not tested here)
            return laugh_process(list(args), stdin, env, timeout=timeout)

        def limit():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))

        return subprocess.run(
            [sys.executable, "-m", "tutor", *args],
            input=stdin,
            text=True,
            capture_output=True,
            env=env,
            cwd=str(ROOT),
            timeout=timeout,
            preexec_fn=limit,
        )


def _can_mount() -> bool:
    return os.geteuid() == 0 and shutil.which("mount") is not None


@pytest.fixture
def disk(tmp_path):
    root = tmp_path / f"disk-{uuid.uuid4().hex[:6]}"
    root.mkdir()
    mounted = False
    if _can_mount():
        mounted = (
            subprocess.run(
                ["mount", "-t", "tmpfs", "-o", "size=1m,mode=0755", "tmpfs", str(root)],
                capture_output=True,
            ).returncode
            == 0
        )
    try:
        yield Disk(root, mounted)
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(root)], capture_output=True)


def _answers(home) -> int:
    path = home / "progress.sqlite3"
    if not path.exists() or path.stat().st_size == 0:
        return 0
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
    finally:
        conn.close()


def _journal_lines(home) -> int:
    path = home / "progress.sqlite3.pending"
    if not path.exists():
        return 0
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def _said(proc) -> str:
    return " ".join(proc.stdout.split())


def test_play_on_a_full_disk_never_says_saved_and_exits_1(disk):
    assert disk.laugh(["puzzle", "count", "--seed", "1"], "show\n").returncode == 0
    disk.fill()
    proc = disk.laugh(["play", "--seed", "2"], "\n")
    said = _said(proc)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "Saved deal" not in said and "saved to" not in said
    # (piped play waits for the learner's turn: the others' moves before it are played)
    assert re.search(r"Left the match at deal 1 so far \(\d+ actions?\): not saved \(", said), said
    if disk.mounted:  # said at once, before the first deal
        assert said.index("Your deal records cannot be saved: the disk holding") < said.index(
            "Laugh and Lie Down · Parlett after Willughby"
        )
    records = (
        list((disk.home / "records").glob("*.jsonl")) if (disk.home / "records").exists() else []
    )
    assert all(f.stat().st_size == 0 for f in records)
    assert proc.stderr.startswith("laugh: your deal records cannot be saved: ")
    disk.free()
    proc = disk.laugh(["play", "--seed", "2"], "\n")
    assert proc.returncode == 0
    saved = list((disk.home / "records").glob("*.jsonl"))
    line = next(x for x in proc.stdout.splitlines() if x.startswith("Saved deal 1 so far"))
    assert any(f.stat().st_size > 0 and str(f) in _said(proc) for f in saved), line


def test_a_drill_on_a_full_disk_says_where_its_answers_are_and_keeps_its_word(disk):
    assert disk.laugh(["puzzle", "count", "--seed", "1"], "show\n").returncode == 0
    before = _answers(disk.home)
    disk.fill()
    proc = disk.laugh(["drill", "settle", "--seed", "1", "--rounds", "5"], "0\n" * 5)
    said = _said(proc)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    journal = _journal_lines(disk.home)
    assert journal == 0  # the journal could not be written either ...
    assert "are kept in progress.sqlite3.pending" not in said  # ... and is never said to be
    assert "kept to be saved" not in said + proc.stderr
    assert (
        "your answers are kept in memory only from now on (progress.sqlite3.pending beside "
        "it cannot be written either" in said
    )
    assert proc.stderr.splitlines() == [
        f"5 answers could not be saved: your progress file {disk.home / 'progress.sqlite3'} and "
        f"progress.sqlite3.pending beside it cannot be written ({_why(disk)})."
    ]
    disk.free()
    assert _answers(disk.home) == before  # as said: none of the 5 was saved
    proc = disk.laugh(["drill", "settle", "--seed", "1", "--rounds", "5"], "0\n" * 5)
    assert proc.returncode == 0 and proc.stderr == ""
    assert _answers(disk.home) == before + 5


def _why(disk) -> str:
    return "the disk is full" if disk.mounted else "disk I/O error"


def test_a_lesson_on_a_full_disk_does_not_say_it_saved_the_page(disk):
    disk.fill()
    proc = disk.laugh(["lesson", "1"], "\n\nq\n")
    said = _said(proc)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "Saved: you can continue" not in said
    assert "): this page is not remembered." in said
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith("laugh: your progress ")
    disk.free()
    proc = disk.laugh(["lesson", "1"], "\n\nq\n")
    assert proc.returncode == 0 and "Saved: you can continue lesson 1 from this page." in _said(
        proc
    )
    proc = disk.laugh(["lesson", "1"], "q\n")
    assert "Resumed" in proc.stdout or "page 3" in _said(proc) or proc.returncode == 0


def test_on_a_read_only_disk_every_command_says_so_at_once_and_exits_1(disk):
    if not disk.mounted:
        pytest.skip("remounting read-only needs the tmpfs (root)")
    assert disk.laugh(["puzzle", "count", "--seed", "1"], "show\n").returncode == 0
    subprocess.run(["mount", "-o", "remount,ro", str(disk.root)], check=True)
    try:
        for args, stdin in (
            (["play", "--seed", "2"], "\n"),
            (["drill", "settle", "--seed", "1", "--rounds", "2"], "0\n0\n"),
            (["lesson", "1"], "q\n"),
        ):
            proc = disk.laugh(args, stdin)
            said = _said(proc)
            assert proc.returncode == 1 and "Traceback" not in proc.stderr, (args, proc.stderr)
            assert said.startswith(
                f"Your progress cannot be saved: the folder {disk.home} is "
                "read-only; going on without saving."
            ), said[:300]
            assert "Saved" not in said, said
            assert len(proc.stderr.splitlines()) == 1, proc.stderr
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(disk.root)], check=True)
    assert json.dumps(_answers(disk.home)) == "1"


def test_an_io_error_at_the_write_probe_is_never_taken_for_damage(tmp_path):
    """Found with a file-size limit: SQLite rolls back the probe's transaction itself on an I/O
    error, the probe's own ROLLBACK then failed with "no transaction is active" (not an error
    of the disk), and the learner's progress file was moved aside as damaged."""
    home = tmp_path / "home"
    disk = Disk.__new__(Disk)
    disk.root, disk.mounted, disk.home, disk.full = tmp_path, False, home, False
    home.mkdir()
    assert disk.laugh(["puzzle", "count", "--seed", "1"], "show\n").returncode == 0
    disk.full = True  # every write fails (RLIMIT_FSIZE 0)
    proc = disk.laugh(["drill", "settle", "--seed", "1", "--rounds", "1"], "0\n")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "could not be read" not in _said(proc) and "moved to" not in _said(proc)
    assert sorted(p.name for p in home.iterdir() if "corrupt" in p.name) == []
    assert _answers(home) == 1
