"""The home screen says what waits today (issue 45, finding 4): the skills FSRS has due for
review and the key that reviews them, an unfinished match and the key that resumes it; a lesson
finished and reopened keeps its ✓; a lesson's result stays in view when the screen redraws."""

from __future__ import annotations

import time

from support import lesson_script, run_laugh

from tutor.teaching.lessons import open_lesson
from tutor.teaching.progress import ProgressStore


def _home(stdout: str) -> str:
    """The last home screen drawn."""
    return stdout.rsplit("Laugh and Lie Down · a tutor", 1)[1]


def test_a_new_learner_sees_nothing_due():
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        proc = run_laugh([], "q\n", Path(tmp))
    assert proc.returncode == 0, proc.stderr
    assert "Due today" not in proc.stdout


def test_reviews_due_and_an_unfinished_match_are_said_with_their_keys(tmp_path):
    long_ago = time.time() - 20 * 86400
    with ProgressStore(tmp_path / "progress.sqlite3") as store:
        store.record_answer("a", "count", ["counting"], False, 6.0, at=long_ago)
        store.record_answer("b", "settlement", ["stakes"], True, 8.0, at=long_ago + 10)
    proc = run_laugh([], "q\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in proc.stdout.splitlines() if x.startswith("Due today"))
    assert "skills to review (d, then w)" in line and "match" not in line
    proc = run_laugh(["match", "--seed", "3", "--pace", "0"], "quit\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    proc = run_laugh([], "q\n", tmp_path, columns=40)
    today = _home(proc.stdout).split("Due today", 1)[1]
    assert "a match to finish (m" in " ".join(today.split())
    assert all(len(x) <= 40 for x in proc.stdout.splitlines())


def test_a_finished_lesson_reopened_keeps_its_mark_and_the_result_stays_in_view(tmp_path):
    lesson = open_lesson("terms")
    script = lesson_script(lesson, 5)
    proc = run_laugh(["tutor", "--seed", "5"], "2\n" + "\n".join(script) + "\nq\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    home = _home(proc.stdout)
    assert " right first time: lesson 2, Cards and terms." in home  # under the redrawn screen
    # reopened and left at page 2: still done
    proc = run_laugh(["tutor", "--seed", "5"], "2\n\nquit\nq\n", tmp_path)
    row = next(
        x
        for x in _home(proc.stdout).splitlines()
        if "Cards and terms" in x and not x.startswith("c ")
    )
    assert "✓" in row and "▸" not in row and "p.2" in row


def test_a_drill_from_the_home_screen_says_no_command_line_next(tmp_path):
    """From the command line a drill ends with "Next: laugh drill ..."; from the home screen's
    menu, which comes back by itself, that line would send the learner to the shell."""
    proc = run_laugh([], "d\ns\n7\nquit\n\nq\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Settlement: " in proc.stdout and "Next: laugh drill" not in proc.stdout
    assert "Drills (another, or Enter for home)" in proc.stdout


def test_a_lesson_left_says_so_under_the_redrawn_home_screen(tmp_path):
    proc = run_laugh([], "2\nquit\nq\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Saved: you can continue lesson 2 from this page." in _home(proc.stdout)
    proc = run_laugh([], "2\nquit\nq\n", tmp_path, columns=40)
    home = _home(proc.stdout).splitlines()
    assert any(x.startswith("Saved: you can continue") for x in home)
    assert len(home) <= 24 and all(len(x) <= 40 for x in home)
