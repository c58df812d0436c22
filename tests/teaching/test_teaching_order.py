"""Teaching order as data (issue 9): every puzzle a lesson poses tests what that lesson or an
earlier one taught, no harder than the lesson's place allows; `laugh lessons check` refuses a
lesson that breaks it; puzzles are numbered across the lesson."""

from __future__ import annotations

import shutil

import tutor.puzzles as P
from tutor.teaching.lessons import (check_lessons, lesson_files, load_course, puzzle_seed,
                                    teaching_problems)

from support import lesson_puzzles


def test_every_lesson_puzzle_is_taught_by_then_and_no_harder_than_allowed():
    for lesson in load_course():
        stem = lesson.path.stem
        for seed in (0, 1, 2):
            for _, p in lesson_puzzles(lesson, seed):
                need = P.needs(p)
                assert need is not None and need <= stem, (lesson.id, p.id, need)
                assert p.difficulty <= P.max_stars(stem), (lesson.id, p.id, p.difficulty)
        if lesson.number <= 2:
            assert P.max_stars(stem) == 2


def test_the_early_lessons_pose_what_they_teach():
    course = {lesson.id: lesson for lesson in load_course()}
    kinds = {lid: {b.data["kind"].split("@")[0] for b in les.blocks("puzzle")}
             for lid, les in course.items()}
    assert kinds["terms"] == {"deal-setup/eldest", "legal-play/lie-down", "legal-play/one-for-one"}
    assert not any(k.startswith(("count", "capture-now")) for lid in
                   ("terms", "the-deal", "capturing", "declarations", "lying-down")
                   for k in kinds[lid])
    assert "reading" in kinds["sources-compared"]


def _course_copy(tmp_path):
    folder = tmp_path / "lessons"
    folder.mkdir()
    for f in lesson_files():
        shutil.copy(f, folder / f.name)
    return folder


def test_lessons_check_refuses_a_puzzle_before_its_teaching(tmp_path):
    folder = _course_copy(tmp_path)
    terms = folder / "02-terms.md"
    text = terms.read_text(encoding="utf-8")
    text += "\n```puzzle\nkind: count\ncount: 1\n```\n\n```puzzle\nkind: legal-play\n" \
            "theme: declaration\n```\n\n```puzzle\nkind: deal-setup\ndifficulty: 4\n```\n"
    terms.write_text(text, encoding="utf-8")
    _, problems = check_lessons(sorted(folder.glob("[0-9]*.md")))
    lessons = [p for p in problems if "02-terms.md" in p]
    assert len(lessons) == 0                    # a file alone is not checked against the course
    lessons = load_course_problems(folder)
    assert any("'count' are taught in lesson 9, Strategy and counting" in p for p in lessons)
    assert any("'legal-play' on 'declaration' are taught in lesson 5" in p for p in lessons)
    assert any("difficulty: 4 stars is above what lesson 2 allows (2)" in p for p in lessons)


def load_course_problems(folder):
    """The course-wide problems of the lessons in ``folder`` (as `laugh lessons check` finds)."""
    from tutor.teaching.lessons import load_lesson
    lessons = []
    for n, f in enumerate(sorted(folder.glob("[0-9]*.md")), 1):
        lesson = load_lesson(f)
        lesson.number = n
        lessons.append(lesson)
    return teaching_problems(lessons)


def test_the_shipped_course_has_no_teaching_problems():
    assert teaching_problems(load_course()) == []
    assert check_lessons()[1] == []


def test_puzzles_are_numbered_across_the_lesson():
    lesson = next(les for les in load_course() if les.id == "capturing")
    slots = lesson.puzzle_slots()
    assert len(slots) == lesson.puzzle_count
    numbers = [lesson.puzzle_number(b, n) for b, n in slots]
    assert numbers == list(range(1, lesson.puzzle_count + 1))


def test_a_blocks_puzzles_have_seeds_a_stride_apart():
    first = puzzle_seed(1, "terms", 4, 0)
    assert first == 266208988846911                  # pinned: the same on every machine
    assert puzzle_seed(1, "terms", 4, 2) - first == 2 * P.SET_STRIDE
