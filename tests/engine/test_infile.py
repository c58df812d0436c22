"""One gate for opening an input file (tutor.engine.infile, issue 28 item 5): only a regular file
is opened, a FIFO, socket or device refused in one line without waiting on it; the journal's
opener never follows a link.  Then a FIFO put in the place of every input the program reads,
each through the real program under a time limit: every one is refused in one line (before,
``laugh match --resume F``, ``records check F``, ``analyse F``, ``progress import F``, a FIFO
in a sources folder, and a FIFO as the journal waited for ever)."""

from __future__ import annotations

import json
import os
import socket
import stat
from pathlib import Path

import pytest
from support import run_laugh

from tutor.engine.infile import NotRegularFile, kind_of, open_input, open_own

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def test_a_regular_file_is_opened_and_read(tmp_path):
    f = tmp_path / "a.json"
    f.write_bytes(b'{"a": 1}')
    with open_input(f) as fh:
        assert fh.read() == b'{"a": 1}'
    link = tmp_path / "link.json"
    link.symlink_to(f)
    with open_input(link) as fh:  # a link to a file is followed by default
        assert fh.read() == b'{"a": 1}'


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile) as info:  # no writer: open() would block for ever
        open_input(fifo)
    assert info.value.strerror == "a FIFO, not a regular file"
    assert isinstance(info.value, OSError)


def test_a_socket_a_device_and_a_folder_are_refused(tmp_path):
    import tempfile

    short = tempfile.mkdtemp(dir="/tmp")  # a socket's path is at most ~107 bytes
    sock_path = Path(short) / "s"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(sock_path))
        with pytest.raises(NotRegularFile, match="a socket, not a regular file"):
            open_input(sock_path)
    finally:
        sock.close()
    if os.path.exists("/dev/zero"):
        with pytest.raises(NotRegularFile, match="a character device, not a regular file"):
            open_input("/dev/zero")
    with pytest.raises(IsADirectoryError):
        open_input(tmp_path)
    assert kind_of(stat.S_IFBLK) == "a block device"


def test_the_journal_opener_never_follows_a_link_nor_opens_a_fifo(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    link = tmp_path / "journal"
    link.symlink_to(target)
    with pytest.raises(NotRegularFile, match="a symbolic link, not a regular file"):
        open_own(link)
    with pytest.raises(NotRegularFile, match="a symbolic link"):
        open_input(link, follow_links=False)
    assert target.read_text() == "keep me\n"
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "made-by-no-one")
    with pytest.raises(NotRegularFile):
        open_own(dangling)  # nothing created at the link's end
    assert not (tmp_path / "made-by-no-one").exists()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile, match="a FIFO"):
        open_own(fifo)
    own = tmp_path / "own"
    with open_own(own) as fh:
        fh.write(b"one\n")
    assert own.read_bytes() == b"one\n" and stat.S_IMODE(own.stat().st_mode) == 0o600


# -- a FIFO in the place of every input, through the real program ------------------------------


def _one_line(proc, *words, code=1):
    said = proc.stderr.strip()
    assert proc.returncode == code, (proc.returncode, proc.stdout[-500:], said)
    assert "Traceback" not in proc.stderr + proc.stdout
    assert len(said.splitlines()) == 1 and said.startswith("laugh: "), said
    for w in words:
        assert w in said, said


@pytest.mark.parametrize(
    "argv",
    [
        ["match", "--resume", "{F}"],
        ["analyse", "{F}"],
        ["progress", "import", "{F}"],
    ],
)
def test_a_fifo_given_as_a_file_is_refused_in_one_line(tmp_path, argv):
    fifo = tmp_path / "given.json"
    os.mkfifo(fifo)
    proc = run_laugh([a.replace("{F}", str(fifo)) for a in argv], "", tmp_path / "home", timeout=60)
    _one_line(proc, f"{fifo}: cannot be read (a FIFO, not a regular file)")


def test_a_fifo_among_several_files_is_listed_as_unreadable(tmp_path):
    """The commands that read several files say each one they cannot read, then sum up."""
    fifo = tmp_path / "given.json"
    os.mkfifo(fifo)
    said = f"{fifo}: cannot be read (a FIFO, not a regular file)"
    proc = run_laugh(["records", "check", str(fifo)], "", tmp_path / "home", timeout=60)
    assert proc.returncode == 1 and said in proc.stdout and "Traceback" not in proc.stderr
    proc = run_laugh(["class", "report", str(fifo)], "", tmp_path / "home", timeout=60)
    assert proc.returncode == 1 and proc.stderr.splitlines() == [
        f"laugh: {said}",
        "laugh: no progress export could be read; no report written",
    ]
    proc = run_laugh(["rules", "--sources", str(fifo)], "", tmp_path / "home", timeout=60)
    _one_line(proc, str(fifo), code=2)


def test_a_fifo_in_the_learners_sources_folder_is_left_out_by_every_command(tmp_path):
    """Never waited on: every command says in one line that the file is left out and goes on
    (a teacher's broken file is never a stop); ``sources check`` fails on it."""
    home = tmp_path / "home"
    (home / "sources").mkdir(parents=True)
    os.mkfifo(home / "sources" / "club.yaml")
    for argv in (["odds"], ["rules"]):
        proc = run_laugh(argv, "", home, timeout=60)
        _one_line(proc, "club.yaml", "a FIFO, not a regular file", "left out", code=0)
        assert proc.stdout.strip()
    proc = run_laugh(["sources", "check"], "", home, timeout=60)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr + proc.stdout
    assert "club.yaml" in proc.stdout + proc.stderr


def test_a_fifo_as_a_source_text_is_a_problem_not_a_wait(tmp_path):
    home = tmp_path / "home"
    (home / "sources").mkdir(parents=True)
    (home / "sources" / "club.yaml").write_text(
        "id: club\nkind: house\ncitation: {author: The Club, title: House rules}\n"
        "text: club.txt\nsummary: Our rules.\n"
        "quotations:\n  deal:\n    text: We deal eleven cards each.\n    where: Deal\n",
        encoding="utf-8",
    )
    os.mkfifo(home / "sources" / "club.txt")
    proc = run_laugh(["sources", "check"], "", home, timeout=60)
    assert proc.returncode == 1
    assert "club.txt: a FIFO, not a regular file" in proc.stdout
    _one_line(run_laugh(["odds"], "", home, timeout=60), "club.txt", "a FIFO", "left out", code=0)


def test_a_fifo_as_the_journal_or_the_progress_file_is_said_not_waited_on(tmp_path):
    home = tmp_path / "home"
    proc = run_laugh(["puzzle", "count", "--seed", "1"], "show\n", home)
    assert proc.returncode == 0, proc.stderr
    journal = home / "progress.sqlite3.pending"
    os.mkfifo(journal)
    for argv, stdin in ((["stats"], ""), (["puzzle", "count", "--seed", "2"], "show\n")):
        proc = run_laugh(argv, stdin, home, timeout=60)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr
        said = " ".join(proc.stdout.split())
        assert (
            f"{journal} is a FIFO, not a regular file: it is left as it is, never read or written"
        ) in said
    assert stat.S_ISFIFO(journal.lstat().st_mode)
    journal.unlink()
    (home / "progress.sqlite3").rename(tmp_path / "kept.sqlite3")
    os.mkfifo(home / "progress.sqlite3")
    proc = run_laugh(["puzzle", "count", "--seed", "3"], "show\n", home, timeout=60)
    said = " ".join(proc.stdout.split())
    assert (
        proc.returncode == 1
        and (
            f"Your progress cannot be saved: {home / 'progress.sqlite3'}"
            " is a FIFO, not a regular file"
        )
        in said
    )
    proc = run_laugh(["stats"], "", home, timeout=60)
    assert proc.returncode == 0 and "is a FIFO, not a regular file; showing none of it" in " ".join(
        proc.stdout.split()
    )


def test_a_journal_that_is_a_link_never_has_its_target_read_or_truncated(tmp_path):
    home = tmp_path / "home"
    assert run_laugh(["puzzle", "count", "--seed", "1"], "show\n", home).returncode == 0
    victim = tmp_path / "victim.txt"
    line = json.dumps({"op": "meta", "id": "x" * 32, "key": "last_lesson", "value": "9"})
    victim.write_text(line + "\n", encoding="utf-8")
    (home / "progress.sqlite3.pending").symlink_to(victim)
    proc = run_laugh(["puzzle", "count", "--seed", "2"], "show\n", home)
    assert "is a symbolic link, not a regular file" in " ".join(proc.stdout.split())
    assert victim.read_text(encoding="utf-8") == line + "\n"  # read by no one, not cut
