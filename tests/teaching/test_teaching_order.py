"""Teaching order as data (issue 9): every puzzle a lesson poses tests what that lesson or an
earlier one taught, no harder than the lesson's place allows; `laugh lessons check` refuses a
lesson that breaks it; puzzles are numbered across the lesson."""

from __future__ import annotations

import shutil

import pytest
from shipped import shipped_course
from support import lesson_puzzles

import tutor.puzzles as P
from tutor.teaching.lessons import (
    check_lessons,
    lesson_files,
    puzzle_seed,
    teaching_problems,
)


def test_every_lesson_puzzle_is_taught_by_then_and_no_harder_than_allowed():
    for lesson in shipped_course():
        stem = lesson.path.stem
        for seed in (0, 1, 2):
            for _, p in lesson_puzzles(lesson, seed):
                need = P.needs(p)
                assert need is not None and need <= stem, (lesson.id, p.id, need)
                assert p.difficulty <= P.max_stars(stem), (lesson.id, p.id, p.difficulty)
        if lesson.number <= 2:
            assert P.max_stars(stem) == 2


def test_the_early_lessons_pose_what_they_teach():
    course = {lesson.id: lesson for lesson in shipped_course()}
    kinds = {
        lid: {b.data["kind"].split("@")[0] for b in les.blocks("puzzle")}
        for lid, les in course.items()
    }
    assert kinds["terms"] == {"deal-setup/eldest", "legal-play/lie-down", "legal-play/one-for-one"}
    assert kinds["history"] == {
        "timeline/name-or-rules",
        "timeline/dates-in-order",
        "timeline/date-of-record",
        "timeline/sources-in-order",
    }
    assert not any(
        k.startswith(("count", "capture-now"))
        for lid in ("terms", "the-deal", "capturing", "declarations", "lying-down")
        for k in kinds[lid]
    )
    assert {"reading/reading", "reading/side-by-side"} <= kinds["sources-compared"]


def _course_copy(tmp_path):
    folder = tmp_path / "lessons"
    folder.mkdir()
    for f in lesson_files():
        shutil.copy(f, folder / f.name)
    return folder


def test_lessons_check_refuses_a_puzzle_before_its_teaching(tmp_path):
    folder = _course_copy(tmp_path)
    terms = folder / "02-terms.md"
    # (the objective's themes left out: the blocks below are refused for their teaching order,
    # not for what they pin or draw: tests/teaching/test_objectives_served.py)
    text = terms.read_text(encoding="utf-8").replace("    themes: [eldest]\n", "")
    text += (
        "\n```puzzle\nobjective: eldest\nkind: count\ncount: 1\n```\n\n```puzzle\n"
        "objective: eldest\nkind: legal-play\ntheme: declaration\n```\n\n```puzzle\n"
        "objective: eldest\nkind: deal-setup\ndifficulty: 4\n```\n"
    )
    terms.write_text(text, encoding="utf-8")
    _, problems = check_lessons(sorted(folder.glob("[0-9]*.md")))
    lessons = [p for p in problems if "02-terms.md" in p]
    assert len(lessons) == 0  # a file alone is not checked against the course
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


@pytest.mark.xdist_group("course_check")  # the shared check: tests/conftest.py
def test_the_shipped_course_has_no_teaching_problems(course_check):
    assert teaching_problems(shipped_course()) == []
    status, out, _ = course_check  # check_lessons() as `laugh lessons check` runs it
    assert status == 0 and out.endswith("lessons checked: no problems\n"), out


def test_puzzles_are_numbered_across_the_lesson():
    lesson = next(les for les in shipped_course() if les.id == "capturing")
    slots = lesson.puzzle_slots()
    assert len(slots) == lesson.puzzle_count
    numbers = [lesson.puzzle_number(b, n) for b, n in slots]
    assert numbers == list(range(1, lesson.puzzle_count + 1))


def test_a_blocks_puzzles_have_seeds_a_stride_apart():
    first = puzzle_seed(1, "terms", 4, 0)
    assert first == 266208988846911  # pinned: the same on every machine
    assert puzzle_seed(1, "terms", 4, 2) - first == 2 * P.SET_STRIDE


# --- objectives as data, each tested (issue 24) ---------------------------------------------

_FRONT = """\
---
id: sample
title: A sample
objectives:
  - id: match
    text: Take a table card with a card of its rank.
  - id: lie-down
    text: Say when a player must lie down.
prerequisites: []
sources: [parlett]
minutes: 5
---

```quote
parlett:deal-eight
```
"""


def test_every_course_objective_is_tested_by_a_puzzle_block():
    for lesson in shipped_course():
        assert lesson.objective_ids and len(lesson.objective_ids) == len(lesson.objectives)
        for oid in lesson.objective_ids:
            assert lesson.objective_blocks(oid), (lesson.id, oid)
        assert all(b.data["objective"] in lesson.objective_ids for b in lesson.blocks("puzzle"))


def test_lessons_check_refuses_an_untested_objective_and_an_unknown_one(tmp_path):
    path = tmp_path / "02-sample.md"
    path.write_text(
        _FRONT + "\n```puzzle\nobjective: match\nkind: legal-play\n"
        "theme: one-for-one\n```\n\n```puzzle\nobjective: counting\n"
        "kind: legal-play\n```\n\n```puzzle\nkind: legal-play\n```\n",
        encoding="utf-8",
    )
    _, problems = check_lessons([path])
    text = "\n".join(problems)
    assert "02-sample.md:4: objectives: objective 'lie-down' is tested by no puzzle" in text
    assert (
        "02-sample.md:24: puzzle.objective: 'counting' is not an objective of this lesson "
        "(objectives: match, lie-down)"
    ) in text
    assert "02-sample.md:29: puzzle.objective: missing: name the objective its puzzles test" in text
    assert len(problems) == 3


def test_lessons_check_refuses_a_board_that_shows_a_rule_taught_later(tmp_path, monkeypatch):
    """Lesson 2's four-player du Coeur boards once showed "pot 9 ... breakeven 10", taught in
    lessons 3 and 7: a kind whose board shows the pot line is refused there, naming what it
    shows and the lesson that teaches it."""
    folder = _course_copy(tmp_path)
    terms = folder / "02-terms.md"
    text = terms.read_text(encoding="utf-8")
    text = text.replace(
        "kind: legal-play\ntheme: one-for-one\ncount: 1\nruleset: du-coeur",
        "kind: legal-play\ntheme: one-for-one\ncount: 1\nruleset: du-coeur\nplayers: 4",
    )
    terms.write_text(text, encoding="utf-8")
    assert not [p for p in load_course_problems(folder) if "02-terms.md" in p]
    board = dict(P.definition("legal-play").options)
    monkeypatch.setitem(P.definition("legal-play").options, "board", {"recent": 1, "scoring": True})
    problems = [p for p in load_course_problems(folder) if "02-terms.md" in p]
    assert problems and all(
        "every board of 'legal-play' under 'du-coeur' shows the pot and "
        "the antes (taught in lesson 3, The deal), the bonus (taught in "
        "lesson 7, Settling the pot, and scoring by points), the breakeven "
        "(taught in lesson 7, Settling the pot, and scoring by points), "
        "which come after this lesson" in p
        for p in problems
    ), problems
    assert board


def test_a_puzzle_whose_board_shows_a_later_rule_does_not_fit_an_early_lesson():
    """What a board shows counts in what a puzzle needs: a claim in its latest actions is
    taught in lesson 8, so the puzzle is not set before it, and the search says why."""
    from tutor.puzzles.generators import misfit

    found = None
    for s in range(400):
        p = P.generate("legal-play", "parlett", 5, s)
        if "claim" in P.shows(p):
            found = p
            break
    assert found is not None
    assert P.needs(found) >= "08-oversights"
    assert (
        misfit(found, None, "04-capturing")
        == "their boards show a claim of a mistake (taught in 08-oversights)"
    )
    # a lesson's puzzles never show what it has not taught
    for lesson in shipped_course():
        for b in lesson.blocks("puzzle"):
            for n in range(b.data["count"]):
                p = P.generate(
                    b.data["kind"],
                    b.data["ruleset"],
                    b.data["players"],
                    seed=puzzle_seed(0, lesson.id, b.index, n),
                )
                assert P.needs(p) <= lesson.path.stem, (lesson.id, p.id, P.shows(p))


def test_every_explanation_points_to_a_page_of_the_course_that_teaches_it():
    """Each kind names, for its variants and themes, the lesson page that teaches the point;
    every page named is a heading of that lesson, and the explanation says where it is."""
    import re

    from tutor.puzzles.render import taught_line

    course = {lesson.path.stem: lesson for lesson in shipped_course()}
    for kind in P.KINDS:
        pages = P.definition(kind).pages
        assert pages, kind
        for key, ref in pages.items():
            stem, _, heading = ref.partition("#")
            assert stem in course, (kind, key, ref)
            text = course[stem].path.read_text(encoding="utf-8")
            assert re.search(rf"^#+ {re.escape(heading)}\s*$", text, re.M), (kind, key, ref)
    p = P.generate("end-of-play", "parlett-tournament", 5, 1)
    assert taught_line(p) == ("Taught in lesson 6, on the page “The end of play” (laugh lesson 6).")
