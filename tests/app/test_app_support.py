"""Checks of the test helpers in ``tests/support.py`` themselves."""

from __future__ import annotations

from support import lesson_puzzles, lesson_script


def test_lesson_script_answers_every_puzzle_right():
    from tutor.teaching.lessons import find_lesson, load_lesson

    lesson = load_lesson(find_lesson("capturing").path)
    lines = lesson_script(lesson, 3)
    answers = [p.accepted[0] for _, p in lesson_puzzles(lesson, 3)]
    assert [x for x in lines if x] == answers
    assert all(p.grade(p.accepted[0]).correct for _, p in lesson_puzzles(lesson, 3))
