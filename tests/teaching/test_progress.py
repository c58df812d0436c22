"""The progress store: schema version, every answer committed at once, lesson state, corrupt
files moved aside, tallies for the statistics."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest
from support import ROOT

from tutor.engine.errors import LaughError
from tutor.teaching.progress import FILE_NAME, SCHEMA_VERSION, ProgressStore, default_path


def test_default_path_follows_laugh_home(tmp_path, monkeypatch):
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / FILE_NAME
    with ProgressStore() as store:
        assert store.path.is_file()


def test_new_file_has_the_schema_version(tmp_path):
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        assert store.schema_version == SCHEMA_VERSION == 3
        assert store.notice is None
    conn = sqlite3.connect(tmp_path / "p.sqlite3")
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"answers", "lessons", "meta", "ratings", "rating_history"} <= tables


def test_answers_last_across_runs(tmp_path):
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        store.record_answer(
            "count.parlett.5.1",
            "count",
            ["counting", "unseen"],
            True,
            4.5,
            hints=1,
            ruleset="parlett",
        )
        store.record_answer("count.parlett.5.2", "count", ["counting"], False, 9.0)
    with ProgressStore(path) as store:
        answers = store.answers()
    assert [(a.puzzle_id, a.correct, a.seconds, a.hints) for a in answers] == [
        ("count.parlett.5.1", True, 4.5, 1),
        ("count.parlett.5.2", False, 9.0, 0),
    ]
    assert answers[0].themes == ("counting", "unseen")


def test_an_answer_may_have_no_time(tmp_path):
    """Answers not typed at a terminal record no time (None), never 0.0 s; the mean time of a
    tally counts only the answers that have one."""
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        store.record_answer("count.parlett.5.1", "count", ["counting"], True, 4.0)
        store.record_answer("count.parlett.5.2", "count", ["counting"], False, None)
        store.record_answer("count.parlett.5.3", "count", ["counting"], True, 6.0)
    with ProgressStore(path) as store:
        assert [a.seconds for a in store.answers()] == [4.0, None, 6.0]
        (t,) = store.tallies("kind")
        assert (t.n, t.right, t.timed) == (3, 2, 2) and t.mean_seconds == pytest.approx(5.0)


def test_a_version_1_file_is_migrated_with_its_answers(tmp_path):
    from tutor.teaching.progress._schema import _SCHEMA_V1, _statements

    path = tmp_path / "p.sqlite3"
    conn = sqlite3.connect(path)
    for statement in _statements(_SCHEMA_V1):
        conn.execute(statement)
    conn.execute(
        "INSERT INTO answers (at, puzzle_id, kind, themes, correct, seconds) VALUES "
        "(1.0, 'count.parlett.5.1', 'count', '[\"counting\"]', 1, 3.5)"
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with ProgressStore(path) as store:
        assert store.schema_version == 3 and store.notice is None
        store.record_answer("count.parlett.5.2", "count", ["counting"], True, None)
        assert [(a.puzzle_id, a.seconds) for a in store.answers()] == [
            ("count.parlett.5.1", 3.5),
            ("count.parlett.5.2", None),
        ]


def test_an_answer_is_committed_before_a_crash(tmp_path):
    """A process that records an answer and dies at once (no close, no clean exit) loses
    nothing: the answer was committed in its own transaction."""
    path = tmp_path / "p.sqlite3"
    code = (
        "import os; from tutor.teaching.progress import ProgressStore; "
        f"s = ProgressStore({str(path)!r}); s.start_lesson('terms', 7); "
        "s.record_answer('x.parlett.5.1', 'count', ['counting'], True, 2.0, "
        "lesson='terms', slot='3.0'); os._exit(9)"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT))
    assert proc.returncode == 9
    with ProgressStore(path) as store:
        assert store.answer_count() == 1
        assert store.lesson_state("terms").answered == {"3.0": True}


def test_a_failed_transaction_rolls_back_only_itself(tmp_path):
    from tutor.teaching.progress._writes import Transaction

    with ProgressStore(tmp_path / "p.sqlite3") as store:
        store.record_answer("a.parlett.5.1", "count", [], True, 1.0)
        with pytest.raises(KeyboardInterrupt):
            with Transaction(store.conn):
                store.conn.execute("INSERT INTO meta (key, value) VALUES ('x', 'y')")
                raise KeyboardInterrupt
        assert store.get_meta("x") is None
        assert store.answer_count() == 1


def test_lesson_state_start_save_complete(tmp_path):
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        assert store.lesson_state("terms") is None
        state = store.start_lesson("terms", 42)
        assert (state.seed, state.page, state.answered, state.in_progress) == (42, 0, {}, True)
        store.save_page("terms", 2)
        store.record_answer("p1", "count", [], False, 3.0, lesson="terms", slot="4.0")
        store.record_answer("p1", "count", [], True, 3.0, lesson="terms", slot="4.0", retry=True)
        state = store.lesson_state("terms")
        assert state.page == 2 and state.answered == {"4.0": False}
        assert store.last_lesson() == "terms"
        store.complete_lesson("terms", 2, 3)
        state = store.lesson_state("terms")
        assert state.completed and not state.in_progress and (state.right, state.total) == (2, 3)
        again = store.start_lesson("terms", 43)
        assert again.completed and again.in_progress and again.answered == {}


@pytest.mark.parametrize("garbage", [b"this is not a database at all" * 40, b"\x00\xff" * 3000])
def test_a_corrupt_file_is_moved_aside(tmp_path, garbage):
    path = tmp_path / FILE_NAME
    path.write_bytes(garbage)
    with ProgressStore(path) as store:
        assert store.notice is not None
        assert "moved to progress.sqlite3.corrupt-" in store.notice
        assert "\n" not in store.notice
        store.record_answer("p", "count", [], True, 1.0)
        assert store.answer_count() == 1
    aside = list(tmp_path.glob(FILE_NAME + ".corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == garbage


def test_a_damaged_page_is_found_by_the_quick_check(tmp_path):
    path = tmp_path / FILE_NAME
    with ProgressStore(path) as store:
        for i in range(400):
            store.record_answer(f"p{i}", "count", ["counting"] * 5, True, 1.0)
    data = bytearray(path.read_bytes())
    page = 4096
    for i in range(page * 2 + 100, min(len(data), page * 4)):  # scribble over interior pages
        data[i] = 0xAB
    path.write_bytes(bytes(data))
    with ProgressStore(path) as store:
        assert store.notice is not None and "kept from it" in store.notice
        # the answers the scribbled pages did not hold are salvaged (here, all of them: the
        # pages were the index and other tables')
        assert 0 < store.answer_count() <= 400
        salvaged = store.answer_count()
    assert list(tmp_path.glob(FILE_NAME + ".corrupt-*"))
    with ProgressStore(path) as store:
        assert store.notice is None and store.answer_count() == salvaged


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / FILE_NAME
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(LaughError, match="written by a newer version"):
        ProgressStore(path)


def test_tallies_weakest_first_and_timeline(tmp_path):
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        day = 86400 * 20000
        store.record_answer("a", "count", ["counting", "unseen"], True, 2.0, at=day)
        store.record_answer("b", "count", ["counting"], False, 6.0, at=day + 10)
        store.record_answer("c", "settlement", ["stakes"], False, 8.0, at=day + 86400)
        store.record_answer("d", "settlement", ["stakes"], False, 4.0, at=day + 86400)
        themes = store.tallies("theme")
        assert [t.name for t in themes] == ["stakes", "counting", "unseen"]
        assert (themes[0].accuracy, themes[0].mean_seconds) == (0.0, 6.0)
        kinds = store.tallies("kind")
        assert [(k.name, k.right, k.n) for k in kinds] == [("settlement", 0, 2), ("count", 1, 2)]
        days = store.timeline()
        assert [(d.n, d.right) for d in days] == [(2, 1), (2, 0)]
        with pytest.raises(LaughError):
            store.tallies("colour")


def test_a_home_that_cannot_be_created_goes_on_without_saving(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with ProgressStore(blocker / "sub" / FILE_NAME) as store:
        assert not store.saving
        assert store.notice == (
            f"Your progress cannot be saved: the folder {blocker / 'sub'} "
            "cannot be created (Not a directory); going on without saving."
        )
        store.record_answer("p", "count", ["counting"], True, 1.0)
        assert store.answer_count() == 1
    assert blocker.read_text() == "x"


# --- hardening: damage SQLite's quick check does not see; files that cannot be written --------


def _filled(path):
    """A progress file with a lesson, two answers and review schedules; returns its bytes."""
    from tutor.teaching.spaced_review import weak_skills

    with ProgressStore(path) as store:
        store.start_lesson("terms", 7)
        store.record_answer(
            "c.parlett.5.1", "count", ["counting"], False, 3.0, lesson="terms", slot="1.0"
        )
        store.record_answer("c.parlett.5.2", "count", ["counting"], True, 2.0)
        weak_skills(store)
    return path.read_bytes()


@pytest.mark.parametrize(
    "damage,reason,kept",
    [
        # kept: (answers, lessons, settings, rows that could not be read)
        ("DROP TABLE answers", "the table answers is missing", (0, 1, 1, 0)),
        ("DROP TABLE lessons", "the table lessons is missing", (2, 0, 1, 0)),
        (
            "ALTER TABLE answers DROP COLUMN hints",
            "the table answers has no column hints",
            (2, 1, 1, 0),
        ),
        (
            "UPDATE answers SET themes = '[oops' WHERE id = 2",
            "the table answers, row 2, holds",
            (1, 1, 1, 1),
        ),
        (
            "UPDATE answers SET themes = '{\"a\": 1}'",
            "the table answers, row 1, holds",
            (0, 1, 1, 2),
        ),
        ("UPDATE answers SET themes = '[1, 2]'", "the table answers, row 1, holds", (0, 1, 1, 2)),
        ("UPDATE answers SET at = 'yesterday'", "the table answers, row 1, holds", (0, 1, 1, 2)),
        (
            "UPDATE answers SET at = 1e300 WHERE id = 1",
            "the table answers, row 1, holds",
            (1, 1, 1, 1),
        ),
        (
            "UPDATE lessons SET answered = 'not json'",
            "the table lessons, row 'terms', holds",
            (2, 0, 1, 1),
        ),
        (
            "UPDATE lessons SET answered = '[[[[1]]]]'",
            "the table lessons, row 'terms', holds",
            (2, 0, 1, 1),
        ),
        (
            "UPDATE meta SET value = x'00ff'",
            "the table meta, row 'last_lesson', holds",
            (2, 1, 0, 1),
        ),
    ],
)
def test_damage_is_moved_aside_and_what_can_be_read_salvaged(tmp_path, damage, reason, kept):
    """Issue 23 item 15: the damaged file is moved aside whole (nothing lost), and every answer,
    lesson and setting that can still be read is kept in the fresh one, saying how many."""
    path = tmp_path / FILE_NAME
    _filled(path)
    conn = sqlite3.connect(path)
    conn.execute(damage)
    conn.commit()
    conn.close()
    damaged = path.read_bytes()
    with ProgressStore(path) as store:
        answers, lessons, settings, bad = kept
        assert store.saving
        assert (store.answer_count(), len(store.lesson_states()), len(store.meta_items())) == (
            answers,
            lessons,
            settings,
        )
        assert store.notice.startswith(f"Your progress file {path} could not be read ({reason}")
        assert "moved to progress.sqlite3.corrupt-" in store.notice and "\n" not in store.notice
        said = (
            f"a fresh one started: {answers} answer{'' if answers == 1 else 's'}, "
            f"{lessons} lesson{'' if lessons == 1 else 's'} and {settings} setting"
            f"{'' if settings == 1 else 's'} kept from it"
        )
        assert said in store.notice
        assert (f", {bad} row{'' if bad == 1 else 's'} could not be read" in store.notice) == bool(
            bad
        )
        if answers:  # ratings recomputed from what was kept; review schedules rebuilt
            from tutor.teaching.spaced_review import weak_skills

            assert weak_skills(store)
        store.record_answer("p", "count", [], True, 1.0)
    aside = list(tmp_path.glob(FILE_NAME + ".corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == damaged  # nothing lost
    assert aside[0].name in store.notice
    with ProgressStore(path) as store:  # what was salvaged is not itself damage
        assert store.notice is None and store.answer_count() == answers + 1


def test_one_bad_row_among_many_costs_only_that_row(tmp_path):
    """The issue's case: one answer with at = 1e300 among 50; the lesson and its answers kept,
    the other 49 answers kept with their uids, the ratings recomputed from them."""
    path = tmp_path / FILE_NAME
    with ProgressStore(path) as store:
        store.start_lesson("terms", 7)
        for i in range(50):
            store.record_answer(
                f"c.parlett.5.{i}",
                "count",
                ["counting"],
                i % 3 != 0,
                2.0 + i,
                difficulty=1 + i % 5,
                lesson="terms" if i % 2 else None,
                slot=f"1.{i}" if i % 2 else None,
                at=1.7e9 + 60 * i,
            )
        uids = [a.uid for a in store.answers()]
    conn = sqlite3.connect(path)
    conn.execute("UPDATE answers SET at = 1e300 WHERE id = 20")  # a lesson's (not rated)
    conn.commit()
    conn.close()
    with ProgressStore(path) as store:
        assert (
            "49 answers, 1 lesson and 1 setting kept from it, 1 row could not be read "
            "(ratings recomputed)." in store.notice
        )
        assert [a.uid for a in store.answers()] == uids[:19] + uids[20:]
        assert store.lesson_state("terms").answered["1.49"] is True
        assert store.rating("learner").games == 25  # the answers outside the lesson


def test_statistics_read_a_copy_and_never_write(tmp_path):
    path = tmp_path / FILE_NAME
    before = _filled(path)
    stamp = path.stat().st_mtime_ns
    from tutor.teaching.spaced_review import weak_skills

    with ProgressStore(path, read_only=True) as store:
        assert store.read_only and not store.saving and store.notice is None
        assert store.answer_count() == 2
        assert [s.skill for s in weak_skills(store)] == ["kind:count", "theme:counting"]
        store.record_answer("p", "count", [], True, 1.0)  # stays in memory
        assert store.answer_count() == 3
    assert path.read_bytes() == before and path.stat().st_mtime_ns == stamp
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILE_NAME]
    # No file at all: an empty store, and still nothing created.
    with ProgressStore(tmp_path / "none" / FILE_NAME, read_only=True) as store:
        assert store.answer_count() == 0 and store.notice is None
    assert not (tmp_path / "none").exists()


def test_statistics_leave_a_damaged_file_where_it_is(tmp_path):
    path = tmp_path / FILE_NAME
    _filled(path)
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE answers")
    conn.commit()
    conn.close()
    damaged = path.read_bytes()
    with ProgressStore(path, read_only=True) as store:
        assert store.answer_count() == 0 and list(store.lesson_states()) == ["terms"]
        assert store.notice.startswith(
            f"Your progress file {path} is damaged (the table answers "
            "is missing); showing what can be read of it (0 answers, "
            "1 lesson and 1 setting kept from it; the file is left as "
            "it is"
        )
    assert path.read_bytes() == damaged and not list(tmp_path.glob("*.corrupt-*"))


@pytest.mark.parametrize(
    "damage",
    [
        "DROP TABLE review_cards",
        "UPDATE review_cards SET card = '{}'",
        "UPDATE review_cards SET card = 'not json'",
        "UPDATE review_meta SET value = 'x' WHERE key = 'last_answer_id'",
        "ALTER TABLE review_cards DROP COLUMN lapses",
    ],
)
def test_damaged_review_tables_are_rebuilt_from_the_answers(tmp_path, damage):
    from tutor.teaching.spaced_review import weak_skills

    path = tmp_path / FILE_NAME
    _filled(path)
    with ProgressStore(path) as store:
        before = [(s.skill, s.reviews, s.lapses) for s in weak_skills(store)]
    conn = sqlite3.connect(path)
    conn.execute(damage)
    conn.commit()
    conn.close()
    with ProgressStore(path) as store:
        assert store.notice is None
        assert [(s.skill, s.reviews, s.lapses) for s in weak_skills(store)] == before


# A file or folder that cannot be written.  As root, permission bits do not stop writes, so the
# program is run without the capabilities that override them (setpriv, util-linux).


def _unprivileged() -> list[str]:
    import os
    import shutil

    if os.name != "posix":
        pytest.skip("POSIX permissions")
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: read-only files are writable")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def _laugh(prefix, args, home, stdin=""):
    import os

    env = dict(
        os.environ,
        LAUGH_HOME=str(home),
        COLUMNS="80",
        PYTHONIOENCODING="utf-8",
        PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    )
    return subprocess.run(
        [*prefix, sys.executable, "-m", "tutor", *args],
        input=stdin,
        text=True,
        capture_output=True,
        env=env,
        cwd=str(ROOT),
        timeout=120,
    )


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_file_or_folder_is_a_line_not_a_traceback(tmp_path, what):
    prefix = _unprivileged()
    home = tmp_path / "home"
    home.mkdir()
    path = home / FILE_NAME
    before = _filled(path)
    locked = path if what == "file" else home
    locked.chmod(0o444 if what == "file" else 0o555)
    try:
        stats = _laugh(prefix, ["stats"], home)
        assert stats.returncode == 0 and "Traceback" not in stats.stderr, stats.stderr
        assert stats.stdout.startswith("Statistics: 2 answers recorded")  # no notice needed
        why = (
            f"the file {path} is read-only" if what == "file" else f"the folder {home} is read-only"
        )
        for args, stdin in (
            (["lesson", "2"], "\n" * 30),
            (["puzzle", "count", "--seed", "3"], "answer\n"),
        ):
            proc = _laugh(prefix, args, home, stdin)
            out = "".join(proc.stdout.split())  # a long path may be wrapped anywhere
            notice = f"Your progress cannot be saved: {why}; going on without saving."
            assert "".join(notice.split()) in out
            # said at once, and the command exits 1 with one line (issue 28 item 4)
            assert (
                proc.returncode == 1
                and proc.stderr == f"laugh: your progress cannot be saved: {why}\n"
            ), proc.stderr
    finally:
        locked.chmod(0o644 if what == "file" else 0o755)
    assert path.read_bytes() == before


def test_a_damaged_file_in_a_read_only_folder_is_left_and_not_saved(tmp_path):
    prefix = _unprivileged()
    home = tmp_path / "home"
    home.mkdir()
    path = home / FILE_NAME
    _filled(path)
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE lessons")
    conn.commit()
    conn.close()
    damaged = path.read_bytes()
    home.chmod(0o555)
    try:
        proc = _laugh(prefix, ["puzzle", "count", "--seed", "3"], home, "answer\n")
    finally:
        home.chmod(0o755)
    out = "".join(proc.stdout.split())
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and "cannot be moved aside" in proc.stderr
    notice = (
        f"Your progress cannot be saved: {path} could not be read (the table lessons is "
        "missing) and cannot be moved aside (Permission denied); going on without saving."
    )
    assert "".join(notice.split()) in out
    assert path.read_bytes() == damaged and sorted(p.name for p in home.iterdir()) == [FILE_NAME]
