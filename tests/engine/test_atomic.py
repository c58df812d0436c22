"""Writing whole or not at all, through the path (issue 23 item 1): a link's target is replaced
and the link stays a link; a FIFO or a device node is written through, never replaced by a file;
the file replaced keeps its mode; nothing is left behind when the write fails."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from tutor.engine.atomic import open_atomic, write_atomic


def test_a_new_file_and_a_file_replaced_whole(tmp_path):
    path = tmp_path / "out.json"
    write_atomic(path, "one\n")
    assert path.read_text() == "one\n"
    path.chmod(0o640)
    write_atomic(path, "two\n")
    assert path.read_text() == "two\n" and stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_a_symbolic_link_is_written_through_and_stays_a_link(tmp_path):
    target = tmp_path / "tgt.json"
    target.write_text("old")
    link = tmp_path / "lnk.json"
    link.symlink_to(target.name)
    write_atomic(link, "new")
    assert link.is_symlink() and os.readlink(link) == "tgt.json"
    assert target.read_text() == "new"
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to("made.json")
    write_atomic(dangling, "made")
    assert dangling.is_symlink() and (tmp_path / "made.json").read_text() == "made"


def test_a_fifo_is_written_through_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    write_atomic(fifo, "through the pipe")
    reader.join(10)
    assert got == ["through the pipe"] and stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_device_node_is_written_through_not_replaced(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # like /dev/null
    full = tmp_path / "full"
    os.mknod(full, stat.S_IFCHR | 0o666, os.makedev(1, 7))  # like /dev/full
    write_atomic(null, "gone")
    with pytest.raises(OSError) as info:
        write_atomic(full, "x" * 10000)
    assert info.value.errno == 28  # ENOSPC: said, not hidden
    assert stat.S_ISCHR(null.stat().st_mode) and stat.S_ISCHR(full.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full", "null"]


def test_a_directory_or_a_missing_folder_is_an_oserror_and_leaves_nothing(tmp_path):
    with pytest.raises(IsADirectoryError):
        write_atomic(tmp_path, "x")
    with pytest.raises(FileNotFoundError):
        write_atomic(tmp_path / "no" / "such" / "x.json", "x")
    assert list(tmp_path.iterdir()) == []


def test_a_mode_given_is_the_files_whatever_the_umask_and_the_file_replaced(tmp_path):
    """Issue 41: a file only its owner reads is 0600 from its first byte, also where an older
    file of the same name was 0644."""
    path = tmp_path / "secret.json"
    path.write_text("old")
    path.chmod(0o644)
    old = os.umask(0o022)
    try:
        write_atomic(path, "new", mode=0o600)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_text() == "new"
        with open_atomic(tmp_path / "lines.jsonl", mode=0o600) as fh:
            fh.write("a\n")
        assert stat.S_IMODE((tmp_path / "lines.jsonl").stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_lines_written_a_part_at_a_time_are_there_whole_or_not_at_all(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_text("old\n")

    class Stop(Exception):
        pass

    with pytest.raises(Stop):
        with open_atomic(path) as fh:
            fh.write("one\n")
            raise Stop  # a line that could not be made: nothing is replaced
    assert path.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]
    with open_atomic(path) as fh:
        for k in range(3):
            fh.write(f"{k}\n")
            assert path.read_text() == "old\n"  # not there before the end
    assert path.read_text() == "0\n1\n2\n"
    with pytest.raises(IsADirectoryError):
        with open_atomic(tmp_path) as fh:
            fh.write("x")
