"""No partial file where a write failed (issue 41, finding 12): ``laugh puzzles export --out``
and ``laugh simulate --records`` whose write stops part way (a file-size limit on the program,
``RLIMIT_FSIZE``: every write past it fails as on a full disk) leave the file that was there as
it was, a new one not made at all, and no temporary file beside it; said in one line, exit 1.

Before: both wrote straight into the file, line by line, and a failure left the lines written
so far (a JSON Lines file that reads as a shorter, whole one)."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys

import pytest
from support import ROOT, laugh_process

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_FSIZE on Linux")

LIMIT = 6000  # bytes: more than a line, less than the whole file


def _laugh(home, args, limit=None):
    env = dict(
        os.environ,
        LAUGH_HOME=str(home),
        COLUMNS="80",
        PYTHONIOENCODING="utf-8",
        PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    )

    if not limit:  # a process of its own, forked from one that has imported the tutor
        return laugh_process(list(args), None, env, timeout=300)

    def cap():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "tutor", *args],
        text=True,
        capture_output=True,
        env=env,
        cwd=str(ROOT),
        timeout=300,
        preexec_fn=cap,
    )


@pytest.mark.parametrize(
    "args",
    [
        ["puzzles", "export", "--kind", "count", "--count", "40", "--seed", "1", "--out"],
        ["simulate", "--players", "3", "--deals", "30", "--records"],
    ],
    ids=["puzzles-export", "simulate-records"],
)
def test_a_write_that_fails_part_way_leaves_no_part_of_a_file(tmp_path, args):
    home = tmp_path / "home"
    home.mkdir()
    out = tmp_path / "out" / "x.jsonl"
    out.parent.mkdir()
    whole = _laugh(home, args + [str(out)])
    assert whole.returncode == 0, whole.stderr
    size = out.stat().st_size
    assert size > LIMIT  # the limit cuts it part way
    out.write_text("old\n")
    failed = _laugh(home, args + [str(out)], limit=LIMIT)
    assert failed.returncode == 1 and "Traceback" not in failed.stderr, failed.stderr
    assert len(failed.stderr.strip().splitlines()) == 1, failed.stderr
    assert f"{out}" in failed.stderr
    assert out.read_text() == "old\n"  # the file there, as it was
    assert sorted(p.name for p in out.parent.iterdir()) == ["x.jsonl"]  # nothing beside it
    out.unlink()
    failed = _laugh(home, args + [str(out)], limit=LIMIT)
    assert failed.returncode == 1
    assert sorted(p.name for p in out.parent.iterdir()) == []  # a new file: not made
