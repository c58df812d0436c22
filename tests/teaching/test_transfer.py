"""Progress that travels (issue 14): export and import round-trip, merging never duplicates or
loses, two machines' histories merge the same way round, a damaged export is refused whole; and
the class report built from several exports (CSV and escaped HTML)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from support import ROOT

from tutor.engine.errors import DataError
from tutor.teaching.classreport import build_report, render_csv, render_html
from tutor.teaching.progress import FILE_NAME, ProgressStore
from tutor.teaching.spaced_review import weak_skills
from tutor.teaching.transfer import FORMAT, export_data, import_file, parse_export, write_export

T0 = 1_767_225_600.0
FIXTURE = ROOT / "tests" / "data" / "progress-export.json"


def _answers(store, start: int, n: int, at: float, kind: str = "count"):
    for i in range(start, start + n):
        store.record_answer(
            f"{kind}.parlett.5.{i}",
            kind,
            ["counting", f"t{i % 3}"],
            i % 3 != 1,
            None if i % 4 == 0 else 3.0 + i,
            difficulty=1 + i % 5,
            at=at + 60 * i,
        )


def _snapshot(store):
    return (
        [(a.uid, a.at, a.puzzle_id, a.correct, a.seconds, a.difficulty) for a in store.answers()],
        {k: (round(v.rating.rating, 6), v.games) for k, v in store.ratings().items()},
        {
            k: (s.seed, s.page, s.answered, s.completed_at, s.right)
            for k, s in store.lesson_states().items()
        },
        store.meta_items(),
    )


@pytest.fixture
def machine(tmp_path):
    made = []

    def make(name: str) -> ProgressStore:
        s = ProgressStore(tmp_path / name / FILE_NAME)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


def test_export_then_import_on_a_fresh_machine_round_trips(machine, tmp_path):
    a = machine("a")
    _answers(a, 0, 12, T0)
    a.start_lesson("terms", 9)
    a.save_page("terms", 2)
    a.set_meta("drill.count.speed.best", "3.5")
    path = tmp_path / "a.json"
    assert write_export(a, path, learner="Ann") == 12
    b = machine("b")
    export, added, known = import_file(b, path)
    assert (export.learner, added, known) == ("Ann", 12, 0)
    assert _snapshot(b) == _snapshot(a)
    assert [h.rating for h in b.rating_history()] == pytest.approx(
        [h.rating for h in a.rating_history()]
    )


def test_importing_the_same_file_twice_changes_nothing(machine, tmp_path):
    a = machine("a")
    _answers(a, 0, 8, T0)
    write_export(a, tmp_path / "a.json")
    b = machine("b")
    _answers(b, 100, 3, T0 + 10_000)
    import_file(b, tmp_path / "a.json")
    once = _snapshot(b)
    _, added, known = import_file(b, tmp_path / "a.json")
    assert (added, known) == (0, 8)
    assert _snapshot(b) == once
    _, added, known = import_file(a, tmp_path / "a.json")  # into itself: nothing new
    assert (added, known) == (0, 8)


def test_two_machines_histories_merge_the_same_either_way(machine, tmp_path):
    home, school = machine("home"), machine("school")
    _answers(home, 0, 6, T0)  # shared history
    write_export(home, tmp_path / "h0.json")
    import_file(school, tmp_path / "h0.json")
    _answers(home, 10, 5, T0 + 5000)  # then each goes its own way,
    _answers(school, 20, 5, T0 + 2000, kind="settlement")  # interleaved in time
    write_export(home, tmp_path / "home.json")
    write_export(school, tmp_path / "school.json")
    import_file(home, tmp_path / "school.json")
    import_file(school, tmp_path / "home.json")
    assert home.answer_count() == school.answer_count() == 16  # nothing twice, nothing lost
    assert _snapshot(home)[:2] == _snapshot(school)[:2]
    # the ratings are those of every answer taken in time order, as if on one machine
    one = machine("one")
    for a in sorted(home.answers(), key=lambda a: a.at):
        one.record_answer(
            a.puzzle_id, a.kind, a.themes, a.correct, a.seconds, difficulty=a.difficulty, at=a.at
        )
    assert home.learner_rating().rating == pytest.approx(one.learner_rating().rating)
    # and the review schedules are rebuilt from the merged answers in time order
    assert [(s.skill, s.reviews, s.lapses) for s in weak_skills(home)] == [
        (s.skill, s.reviews, s.lapses) for s in weak_skills(one)
    ]


def test_lessons_keep_the_latest_attempt_and_the_latest_completion(machine, tmp_path):
    a, b = machine("a"), machine("b")
    a.start_lesson("terms", 1)
    a.complete_lesson("terms", 5, 6)
    a.conn.execute("UPDATE lessons SET completed_at = ?, updated_at = ?", (T0, T0))
    b.start_lesson("terms", 2)
    b.save_page("terms", 3)
    b.conn.execute("UPDATE lessons SET started_at = ?, updated_at = ?", (T0 + 50, T0 + 60))
    a.set_meta("drill.oversights.streak.best", "7")
    b.set_meta("drill.oversights.streak.best", "11")
    a.set_meta("last_lesson", "history")
    b.set_meta("last_lesson", "terms")
    write_export(b, tmp_path / "b.json")
    import_file(a, tmp_path / "b.json")
    state = a.lesson_state("terms")
    assert (state.seed, state.page, state.in_progress) == (2, 3, True)  # b's later attempt
    assert (state.completed_at, state.right, state.total) == (T0, 5, 6)  # a's completion kept
    assert a.get_meta("drill.oversights.streak.best") == "11"  # the better best
    assert a.get_meta("last_lesson") == "history"  # kept here


def _damaged_variants():
    good = json.loads(FIXTURE.read_text(encoding="utf-8"))

    def change(path, value):
        data = json.loads(json.dumps(good))
        obj = data
        for key in path[:-1]:
            obj = obj[key]
        if value is KeyError:
            del obj[path[-1]]
        else:
            obj[path[-1]] = value
        return json.dumps(data)

    done = {
        **good["lessons"][0],
        "completed_at": 1767226000.0,
        "right": 4,
        "total": 5,
        "in_progress": False,
    }
    return [
        ("not json {", "not JSON"),
        ("[1, 2]", "not a progress export"),
        (json.dumps({**good, "format": "something/else@1"}), "not a progress export"),
        (change(["answers", 1, "correct"], "yes"), "answers[1].correct: must be true or false"),
        (change(["answers", 0, "seconds"], -2), "answers[0].seconds: must be from 0"),
        (change(["answers", 2, "difficulty"], 9), "answers[2].difficulty: must be from 1 to 5"),
        (change(["answers", 0, "themes"], "counting"), "answers[0].themes: must be a list"),
        (change(["answers", 3, "uid"], KeyError), "answers[3].uid: is missing"),
        (change(["answers", 0, "at"], 1e300), "answers[0].at: must be a Unix time"),
        (change(["answers"], {}), "answers: must be a list"),
        (
            change(["lessons", 0, "answered"], {"1.0": "yes"}),
            "lessons[0].answered.1.0: must be true or false",
        ),
        (change(["meta"], {"x": 1}), "meta.x: must be text"),
        (json.dumps(good).replace('"seconds": 8.5', '"seconds": NaN'), "not JSON"),
        # issue 23 item 6: numbers too large for a float or SQLite
        (change(["answers", 0, "at"], 10**400), "answers[0].at: is a number of 401 digits"),
        (change(["answers", 0, "seconds"], -(10**399)), "answers[0].seconds: is a number of 400"),
        (change(["lessons", 0, "seed"], 10**40), "lessons[0].seed: is a number of 41 digits"),
        # issue 23 item 13: what an export this program wrote never holds
        (
            json.dumps(good).replace(
                '"uid": "fixture-2",', '"uid": "fixture-2", "uid": "fixture-1",'
            ),
            "answers[1] gives the key 'uid' twice",
        ),
        (
            json.dumps(good).replace('"format": ', '"learner": "x", "format": ', 1),
            "the top level gives the key 'learner' twice",
        ),
        (
            change(["answers", 1, "uid"], "fixture-1"),
            "answers[1].uid 'fixture-1' is answers[0]'s too (a different answer",
        ),
        (
            change(["answers"], [good["answers"][0]] * 2),
            "answers[1].uid 'fixture-1' is answers[0]'s too (the same answer",
        ),
        (
            change(["answers", 0, "kind"], "astrology"),
            "answers[0].kind: 'astrology' is not a kind of answer this program records",
        ),
        (
            change(["lessons", 0], {**done, "right": 10, "total": 3}),
            "lessons[0]: right must be from 0 to total (3), not 10",
        ),
        (
            change(["lessons", 0], {**done, "right": -1}),
            "lessons[0]: right must be from 0 to total (5), not -1",
        ),
        (
            change(["lessons", 0], {**done, "completed_at": None}),
            "lessons[0]: has a score (right, total) but no completed_at",
        ),
        (
            change(["lessons", 0], {**done, "total": None}),
            "lessons[0]: right and total must be given with completed_at",
        ),
        (
            change(["lessons"], [good["lessons"][0]] * 2),
            "lessons[1].lesson 'terms' is lessons[0]'s",
        ),
        # a wrong type, a missing key, an unknown key: each named with its place
        (
            change(
                ["sightings"],
                [
                    {
                        "uid": "s1",
                        "at": T0,
                        "context": "play",
                        "kind": "split",
                        "outcome": "hit",
                        "seconds": "fast",
                    }
                ],
            ),
            "(sightings[0].seconds: must be a number)",
        ),
        (change(["lessons", 0, "started_at"], KeyError), "(lessons[0].started_at: is missing)"),
        (change(["answers", 2, "colour"], "red"), "(answers[2].colour: is not a key here)"),
        (change(["colour"], "red"), "(colour: is not a key here)"),
    ]


@pytest.mark.parametrize("text,reason", _damaged_variants())
def test_a_damaged_export_is_refused_whole_and_the_store_is_untouched(tmp_path, text, reason):
    path = tmp_path / FILE_NAME
    with ProgressStore(path) as store:
        _answers(store, 0, 3, T0)
    before = path.read_bytes()
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    with ProgressStore(path) as store:
        with pytest.raises(DataError) as info:
            import_file(store, bad)
    message = str(info.value)
    assert message.startswith(f"{bad}: ") and reason in message and "\n" not in message
    assert path.read_bytes() == before


def test_the_fixture_export_reads_and_rates_from_its_answers(machine):
    b = machine("b")
    export, added, known = import_file(b, FIXTURE)
    assert export.learner == "Ann <b>Fixture</b>" and (added, known) == (6, 0)
    assert [a.uid for a in b.answers()] == [f"fixture-{i}" for i in range(1, 7)]
    # five first tries with a band are rated (the sixth answer is a retry)
    assert b.rating("learner").games == 5
    assert b.get_meta("drill.oversights.streak.best") == "4"


def test_export_format_fields(machine):
    a = machine("a")
    a.record_answer(
        "count.parlett.5.1", "count", ["counting"], True, None, difficulty=2, revealed=False, at=T0
    )
    data = export_data(a, learner=None)
    assert data["format"] == FORMAT and data["learner"] is None
    (ans,) = data["answers"]
    assert set(ans) == {
        "uid",
        "at",
        "puzzle_id",
        "kind",
        "themes",
        "correct",
        "seconds",
        "hints",
        "lesson",
        "ruleset",
        "retry",
        "difficulty",
        "revealed",
    }
    assert ans["seconds"] is None and ans["difficulty"] == 2
    assert data["ratings"]["learner"]["games"] == 1
    assert parse_export(json.dumps(data)).answers[0].uid == ans["uid"]
    assert parse_export(json.dumps(data)).ratings == data["ratings"]
    # a rating is read as its shape: a count of games that is not a whole number is refused
    data["ratings"]["learner"]["games"] = "1"
    with pytest.raises(DataError, match="ratings.learner.games"):
        parse_export(json.dumps(data))


# -- the class report -----------------------------------------------------------------------------


def test_class_report_numbers_agree_with_each_learners_statistics(machine, tmp_path):
    ann, bob = machine("ann"), machine("bob")
    _answers(ann, 0, 9, T0)
    _answers(bob, 0, 4, T0, kind="settlement")
    bob.record_answer(
        "count.parlett.5.77", "count", ["counting"], False, 12.0, difficulty=3, at=T0 + 9999
    )
    write_export(ann, tmp_path / "ann.json", learner="Ann")
    write_export(bob, tmp_path / "bob.json", learner="Bob <script>alert(1)</script>")
    from tutor.teaching.transfer import read_export

    report = build_report(
        [(str(tmp_path / f), read_export(tmp_path / f)) for f in ("ann.json", "bob.json")]
    )
    assert "counting" in [t.id for t in report.themes]
    ann_row = report.learners[0]
    counting = next(t for t in ann.tallies("theme") if t.name == "counting")
    cell = ann_row.cells["counting"]
    assert (cell.answers, cell.right, cell.median) == (
        counting.n,
        counting.right,
        counting.median_seconds,
    )
    assert ann_row.rating == pytest.approx(ann.learner_rating().rating)
    assert ann_row.total.answers == 9 and report.total.answers == 9 + 5
    assert report.totals["counting"].answers == 9 + 5  # every answer has the theme

    rows = list(csv.reader(io.StringIO(render_csv(report))))
    head = rows[0]
    assert head[:7] == [
        "learner",
        "file",
        "all: answers",
        "all: right",
        "all: accuracy",
        "rating",
        "rating deviation",
    ]
    at = head.index("Counting the cards [counting]: answers")
    assert [r[at] for r in rows[1:]] == ["9", "5", "14"]  # Ann, Bob, the class
    assert [r[0] for r in rows[1:]] == ["Ann", "Bob <script>alert(1)</script>", "Class"]

    page = render_html(report)
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count('<table class="grid">') == 1 and "Counting the cards" in page
    assert "@media print" in page


def test_learners_of_one_name_are_told_apart_by_their_files(tmp_path):
    import dataclasses

    from tutor.teaching.transfer import read_export

    export = read_export(FIXTURE)  # two learners of one name, no answer in common
    other = dataclasses.replace(export, answers=[], sightings=[])
    report = build_report([("class/one.json", export), ("class/two.json", other)])
    assert [lr.name for lr in report.learners] == [
        "Ann <b>Fixture</b> (one)",
        "Ann <b>Fixture</b> (two)",
    ]


def test_a_completed_lesson_with_a_possible_score_is_taken(machine, tmp_path):
    good = json.loads(FIXTURE.read_text(encoding="utf-8"))
    good["lessons"][0].update(completed_at=1767226000.0, right=0, total=0, in_progress=False)
    export = parse_export(json.dumps(good))
    assert (export.lessons[0].right, export.lessons[0].total) == (0, 0)


def test_every_kind_the_program_records_is_one_an_import_takes():
    """The kinds of a practice deal's graded moments (tutor.app.play.practice_deal) are known kinds."""
    import re

    from tutor.teaching.progress import incoming

    recorded = set()
    for name in ("practice_deal.py", "watching.py"):
        code = (ROOT / "tutor" / "app" / "play" / name).read_text(encoding="utf-8")
        recorded |= set(re.findall(r'Opportunity\(\s*"([a-z-]+)"', code))
    assert {"declaration", "capture-choice", "spot-oversight"} <= recorded <= incoming.known_kinds()
