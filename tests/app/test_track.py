"""The tournament track from the home screen and ``laugh track``, answers piped in: a step
taken to the end with every puzzle under inter-livery-2018, its progress kept apart from the
course's, and the practice match started under the event's format and resumed by the track."""

from __future__ import annotations

import json

from support import lesson_puzzles, lesson_script, run_laugh

from tutor.teaching.lessons import open_lesson
from tutor.teaching.progress import ProgressStore
from tutor.teaching.tracks import fixed_lesson, load_track


def _fixed(step_no: int):
    track = load_track("tournament")
    step = track.steps[step_no - 1]
    return fixed_lesson(track, step, open_lesson(step.lesson)).lesson


def test_the_track_is_on_the_home_screen(tmp_path):
    proc = run_laugh([], "r\nq\nq\n", tmp_path)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert "r Tournament track" in proc.stdout
    assert "Tournament track · under Inter-Livery 2018" in proc.stdout
    assert "Practice match under Inter-Livery 2018" in proc.stdout
    assert "inter-livery-2018" not in proc.stdout.split("home> r", 1)[1]  # its name, no id
    assert all(len(line) <= 80 for line in proc.stdout.splitlines())


def test_a_step_taken_to_the_end_under_the_tournament_rules(tmp_path):
    fixed = _fixed(2)  # the deal, its pages as the track keeps them
    puzzles = [p for _, p in lesson_puzzles(fixed, 11)]
    assert puzzles and all(p.ruleset == "inter-livery-2018" for p in puzzles)
    script = ["2"] + lesson_script(fixed, 11) + ["q"]
    proc = run_laugh(["track", "--seed", "11"], "\n".join(script) + "\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Every puzzle and deal here is set under Inter-Livery 2018." in proc.stdout
    assert "Left out here:" in proc.stdout
    assert "Lesson complete" in proc.stdout
    with ProgressStore(tmp_path / "progress.sqlite3") as store:
        states = store.lesson_states()
    assert states["tournament/the-deal"].completed
    assert "the-deal" not in states  # the course's own progress is untouched
    # the track screen marks it done
    proc = run_laugh(["track"], "q\n", tmp_path)
    line = next(x for x in proc.stdout.splitlines() if "The deal" in x)
    assert "✓" in line or "done" in line or "/" in line


def test_the_practice_match_is_the_event_format_and_resumes(tmp_path):
    proc = run_laugh(["track", "--seed", "3"], "m\nquit\nq\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Inter-Livery 2018" in proc.stdout and "inter-livery-2018" not in proc.stdout
    assert "2 rounds of 5 games" in proc.stdout
    saved = sorted((tmp_path / "matches").glob("track-tournament-*.json"))
    assert len(saved) == 1
    data = json.loads(saved[0].read_text(encoding="utf-8"))
    assert data["ruleset"] == "inter-livery-2018"
    proc = run_laugh(["track"], "9\nquit\nq\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert sorted((tmp_path / "matches").glob("track-tournament-*.json")) == saved


def test_bad_choices_and_end_of_input_leave_cleanly(tmp_path):
    proc = run_laugh(["track"], "42\nhello\n", tmp_path)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert proc.stdout.count("Type a step from 1 to 9, Enter, m or q.") == 2
    proc = run_laugh(["track", "chess"], "", tmp_path)
    assert proc.returncode == 2 or proc.returncode == 1
    assert "unknown track 'chess'" in proc.stderr and "Traceback" not in proc.stderr


def test_after_a_track_step_home_offers_the_next_step_and_keeps_the_result(tmp_path):
    """Issue 45, findings 3 and 4: after track step 1 (Cards and terms) the home screen offered
    "Start: lesson 2, Cards and terms" (the course's, as if nothing were done) and its redraw
    cleared "Lesson complete"; now Enter continues the track, the line says so, and the result
    stays in view under the redrawn screen."""
    fixed = _fixed(1)
    script = lesson_script(fixed, 11)
    proc = run_laugh(["tutor", "--seed", "11"], "r\n1\n" + "\n".join(script) + "\nq\nq\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    home = proc.stdout.rsplit("Laugh and Lie Down · a tutor", 1)[1]
    assert " right first time: Tournament track 1/9: Cards and terms." in home
    assert "c  Start: tournament track step 2, The deal" in home
    assert "Cards and terms" not in home.split("c  Start")[1].splitlines()[0]
    # a later start: the same offer, and Enter takes step 2
    proc = run_laugh([], "\nquit\nq\n", tmp_path)
    assert "c  Start: tournament track step 2, The deal" in proc.stdout
    assert "Tournament track 2/9: The deal" in proc.stdout
