"""Tracks (issue 24, item 3): the tournament track reads and holds against the course, every
puzzle and deal it keeps is set under inter-livery-2018, what it leaves out is said, and a
broken track file is one line naming the file, line and key."""

from __future__ import annotations

import pytest
from support import lesson_puzzles

from tutor.engine.errors import DataError, UsageError
from tutor.teaching.lessons import load_course
from tutor.teaching.tracks import (
    fixed_lesson,
    load_track,
    read_track,
    step_key,
    track_names,
    track_problems,
)


@pytest.fixture(scope="module")
def course():
    return {lesson.id: lesson for lesson in load_course()}


@pytest.fixture(scope="module")
def track():
    return load_track("tournament")


def test_the_tournament_track_is_found_and_holds(track, course):
    assert "tournament" in track_names()
    assert track.ruleset == "inter-livery-2018" and track.match
    assert [s.lesson for s in track.steps][-1] == "tournament"
    assert track_problems(track, course) == []


def test_every_kept_puzzle_and_deal_is_under_the_track_ruleset(track, course):
    total = 0
    for step in track.steps:
        fixed = fixed_lesson(track, step, course[step.lesson]).lesson
        assert fixed.id == step_key(track, step.lesson)
        for b in fixed.blocks("puzzle"):
            assert b.data["ruleset"] == "inter-livery-2018"
        for _, p in lesson_puzzles(fixed, 7):
            assert p.ruleset == "inter-livery-2018"
            total += 1
        for b in fixed.blocks("coach"):
            assert "inter-livery-2018" in b.data["deals"]
    assert total >= 10
    # the coached deal comes with the lying-down step
    lying = next(s for s in track.steps if s.lesson == "lying-down")
    assert list(fixed_lesson(track, lying, course["lying-down"]).lesson.blocks("coach"))


def test_what_is_left_out_is_said(track, course):
    step = next(s for s in track.steps if s.lesson == "capturing")
    got = fixed_lesson(track, step, course["capturing"])
    assert any("compares the sources" in why for why in got.left_out)
    kept = {b.data.get("objective") for b in got.lesson.blocks("puzzle")}
    assert set(got.lesson.objective_ids) <= kept


def test_pages_are_kept_as_named(track, course):
    step = next(s for s in track.steps if s.lesson == "the-deal")
    fixed = fixed_lesson(track, step, course["the-deal"]).lesson
    assert len(fixed.pages) <= len(step.pages) + 1
    assert len(fixed.pages) < len(course["the-deal"].pages)


def test_an_unknown_track_lists_the_tracks():
    with pytest.raises(UsageError, match="tracks: .*tournament"):
        load_track("chess")


@pytest.mark.parametrize(
    "text, where",
    [
        ("id: t\ntitle: T\nruleset: nowhere\nabout: x\nsteps: [{lesson: terms}]\n", ":3: ruleset"),
        ("id: t\ntitle: T\nruleset: parlett\nabout: x\nsteps: []\n", ":5: steps"),
        (
            "id: t\ntitle: T\nruleset: parlett\nabout: x\nsteps: [{lesson: terms}]\ncolour: red\n",
            ":6: colour",
        ),
        ("id: T T\ntitle: T\nruleset: parlett\nabout: x\nsteps: [{lesson: terms}]\n", ":1: id"),
        ("- just a list\n", ":1: must be a mapping of keys (id, title, ruleset, about, steps"),
    ],
)
def test_a_broken_track_file_is_one_line(tmp_path, text, where):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as exc:
        read_track(path)
    assert where in str(exc.value) and "\n" not in str(exc.value)


def _broken(tmp_path, text: str) -> str:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as exc:
        read_track(path)
    return str(exc.value).replace(str(path), "bad.yaml")


_GOOD = "id: t\ntitle: T\nruleset: parlett\nabout: x\nsteps:\n  - lesson: terms\n"


def test_a_wrong_type_a_missing_key_and_an_unknown_key_name_the_file_line_and_key(tmp_path):
    assert (
        _broken(tmp_path, _GOOD + "match: yes please\n")
        == "bad.yaml:7: match: must be true or false"
    )
    assert _broken(tmp_path, _GOOD.replace("title: T\n", "")) == "bad.yaml:1: title: is missing"
    assert (
        _broken(tmp_path, _GOOD + "  - lesson: capturing\n    leave: [counts]\n")
        == "bad.yaml:8: steps[1].leave: is not a key here (keys: lesson, pages, leave_out)"
    )
    assert (
        _broken(tmp_path, _GOOD + "    pages: []\n")
        == "bad.yaml:7: steps[0].pages: must list page headings"
    )
    assert (
        _broken(tmp_path, _GOOD + "  - lesson: terms\n")
        == "bad.yaml:7: steps[1].lesson: 'terms' is a step twice"
    )
    assert (
        _broken(tmp_path, _GOOD + "  - lesson: Capturing\n")
        == "bad.yaml:7: steps[1].lesson: 'Capturing' is not an id (lower-case words joined by '-')"
    )


def test_a_track_naming_what_is_not_there_is_refused(tmp_path, course):
    path = tmp_path / "t.yaml"
    path.write_text(
        "id: t\ntitle: T\nruleset: inter-livery-2018\nabout: x\nsteps:\n"
        "  - lesson: nothing\n  - lesson: terms\n    pages: [No such page]\n"
        "  - lesson: capturing\n    leave_out: [no-such-objective]\n",
        encoding="utf-8",
    )
    problems = track_problems(read_track(path), course)
    assert any("'nothing' is not a lesson" in p for p in problems)
    assert any("no page 'No such page'" in p for p in problems)
    assert any("'no-such-objective' names no puzzle block" in p for p in problems)


@pytest.mark.xdist_group("course_check")  # the shared check: tests/conftest.py
def test_lessons_check_passes_with_the_track_and_the_coach(course_check):
    status, out, count = course_check  # check_lessons() as `laugh lessons check` runs it
    assert status == 0 and out.endswith("lessons checked: no problems\n"), out
    assert count >= 11


def test_a_step_names_a_lesson_by_its_step_and_its_course_number(track, course):
    """Issue 45, finding 3: a track's steps are numbered 1-9, so its prose never says a bare
    "lesson 4" (the course's number): a lesson of the track is "step 3 (course lesson 4)", one
    outside it "course lesson 10"; the line under an explanation names the step too."""
    import re

    from tutor.teaching.lessons import Segment
    from tutor.teaching.tracks import taught_in_track

    texts = []
    for step in track.steps:
        fixed = fixed_lesson(track, step, course[step.lesson]).lesson
        texts += [
            " ".join(it.text.split())
            for page in fixed.pages
            for it in page
            if isinstance(it, Segment)
        ]
    prose = "\n".join(texts)
    assert not re.search(r"(?<!course )\b[Ll]esson \d+", prose)
    assert "(a capture: step 3 shows every way to capture)" in prose
    assert "question course lesson 10 tests" in prose
    assert "Inter-Livery rules of step 8 (course lesson 11)" in prose
    assert taught_in_track(track, "06-lying-down#Lying down") == (
        "Taught in step 5 (course lesson 6), on the page “Lying down” (r from the home "
        "screen, step 5)."
    )
    assert taught_in_track(track, "10-sources-compared#Where they differ").startswith(
        "Taught in course lesson 10, on the page"
    )


def test_the_introduction_says_what_the_track_leaves_out(track, course):
    """Issue 45, finding 3: the track's introduction said the pages comparing the sources were
    left out, while step 1's second page compares the compendium with the others.  What it
    says is left out must be: the course lessons that are not steps are named, and it claims
    no page comparing sources is left out while a kept page names another source."""
    from tutor.teaching.lessons import Segment, course_index

    steps = {s.lesson for s in track.steps}
    for entry in course_index():
        if entry.id not in steps:
            assert f"course lesson {entry.number}" in track.about, entry.id
    kept = " ".join(
        it.text
        for s in track.steps
        for page in fixed_lesson(track, s, course[s.lesson]).lesson.pages
        for it in page
        if isinstance(it, Segment)
    )
    if "compendium" in kept:
        assert "pages and puzzles that compare the sources are left out" not in track.about
