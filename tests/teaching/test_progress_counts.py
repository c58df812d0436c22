"""The statistics' counts (issue 18, issue 23 item 14): answers by theme, kind and local day,
counted in SQL and held to the same counting done in Python."""

from __future__ import annotations

import calendar
import os
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.teaching.progress import ProgressStore
from tutor.teaching.progress._tallies import count_rows


@pytest.fixture
def tz():
    """Set the process's time zone (``TZ`` and :func:`time.tzset`), restored afterwards."""
    old = os.environ.get("TZ")

    def set_tz(name: str) -> None:
        os.environ["TZ"] = name
        time.tzset()

    yield set_tz
    if old is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = old
    time.tzset()


def _utc(y, mo, d, h, mi=0) -> float:
    return float(calendar.timegm((y, mo, d, h, mi, 0)))


@pytest.mark.parametrize("zone", ["AEST-10", "Australia/Sydney"])
def test_an_answer_is_filed_under_its_local_day(tmp_path, tz, zone):
    """Under Sydney time an answer at 08:00 (22:00 UTC the day before) is the 5th's, as is one
    at 23:00; grouping by UTC day and labelling with local dates put the first under the 4th."""
    tz(zone)
    morning = _utc(2024, 6, 4, 22)  # 08:00 on 5 June in Sydney (UTC+10 in June)
    evening = _utc(2024, 6, 5, 13)  # 23:00 on 5 June
    next_day = _utc(2024, 6, 5, 14, 30)  # 00:30 on 6 June
    assert time.strftime("%Y-%m-%d %H:%M", time.localtime(morning)) == "2024-06-05 08:00"
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        for i, at in enumerate((morning, evening, next_day)):
            store.record_answer(f"p{i}", "count", ["counting"], i != 1, 2.0 + i, at=at)
        days = store.timeline()
    assert [(d.name, d.n, d.right) for d in days] == [("2024-06-05", 2, 1), ("2024-06-06", 1, 1)]


def test_west_of_greenwich_too(tmp_path, tz):
    tz("PST8")  # UTC-8, no summer time
    late = _utc(2024, 1, 2, 6)  # 22:00 on 1 January
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        store.record_answer("p", "count", [], True, None, at=late)
        assert [d.name for d in store.timeline()] == ["2024-01-01"]


def test_periods_of_several_days_start_at_whole_multiples(tmp_path, tz):
    tz("UTC0")
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        for i in range(10):  # 1970-01-01 is day 0: periods start on days 0, 7, 14...
            store.record_answer(f"p{i}", "count", [], True, None, at=86400.0 * i + 5)
        weeks = store.timeline(days=7)
    assert [(w.name, w.n) for w in weeks] == [("1970-01-01", 7), ("1970-01-08", 3)]


def test_a_theme_listed_twice_counts_once(tmp_path):
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        store.record_answer("p", "count", ["counting", "counting", "unseen"], False, 3.0)
        got = {t.name: (t.n, t.right, t.timed, t.median_seconds) for t in store.tallies("theme")}
    assert got == {"counting": (1, 0, 1, 3.0), "unseen": (1, 0, 1, 3.0)}


_answer = st.tuples(
    st.sampled_from(["count", "settlement", "spot-oversight"]),
    st.lists(st.sampled_from(["a", "b", "c", "ü"]), max_size=4),
    st.booleans(),
    st.one_of(st.none(), st.floats(0.25, 600, allow_nan=False).map(lambda x: round(x, 2))),
    st.floats(0, 40 * 86400, allow_nan=False),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_answer, max_size=30), st.sampled_from([1, 2, 7]))
def test_the_sql_counts_agree_with_counting_in_python(answers, days):
    """Every tally (n, right, timed, sum and median of the timed seconds) as the Python reference
    counts the same answers, by theme, by kind, since a time and per period."""
    with ProgressStore.in_memory() as store:
        for i, (kind, themes, correct, seconds, at) in enumerate(answers):
            store.record_answer(f"p{i}", kind, themes, correct, seconds, at=1e9 + at)
        since = 1e9 + 20 * 86400
        stored = store.answers()
        for by, since_ in (("theme", None), ("kind", None), ("theme", since), ("kind", since)):
            rows = [
                (name, a.correct, a.seconds)
                for a in stored
                if since_ is None or a.at >= since_
                for name in (dict.fromkeys(a.themes) if by == "theme" else (a.kind,))
            ]
            _same(store.tallies(by, since_), count_rows(rows))
        rows = [(_period(a.at, days), a.correct, a.seconds) for a in stored]
        _same(store.timeline(days), count_rows(rows), ordered=True)


def _period(at: float, days: int) -> str:
    local = time.localtime(at)
    day = calendar.timegm((local.tm_year, local.tm_mon, local.tm_mday, 0, 0, 0)) // 86400
    return time.strftime("%Y-%m-%d", time.gmtime((day - day % days) * 86400))


def _same(got, want, ordered: bool = False) -> None:
    if not ordered:
        got = sorted(got, key=lambda t: t.name)
        want = sorted(want, key=lambda t: t.name)
    else:
        want = sorted(want, key=lambda t: t.name)
    assert [(t.name, t.n, t.right, t.timed) for t in got] == [
        (t.name, t.n, t.right, t.timed) for t in want
    ]
    for g, w in zip(got, want):
        assert g.seconds == pytest.approx(w.seconds)
        assert (g.median_seconds is None) == (w.median_seconds is None)
        if w.median_seconds is not None:
            assert g.median_seconds == pytest.approx(w.median_seconds)


def test_themes_are_counted_without_sqlites_json_functions_too():
    """Where SQLite was built without JSON functions the themes are counted in Python, alike."""
    from tutor.teaching.progress import _tallies

    class NoJson:
        def __init__(self, conn):
            self.conn = conn

        def execute(self, sql, args=()):
            if "json_each" in sql:
                raise __import__("sqlite3").OperationalError("no such table: json_each")
            return self.conn.execute(sql, args)

    with ProgressStore.in_memory() as store:
        store.record_answer("a", "count", ["counting", "unseen", "counting"], True, 2.0)
        store.record_answer("b", "count", ["counting"], False, 5.0)
        store.record_answer("c", "count", ["unseen"], False, None)
        want = {(t.name, t.n, t.right, t.timed, t.median_seconds) for t in store.tallies("theme")}
        got = {
            (t.name, t.n, t.right, t.timed, t.median_seconds)
            for t in _tallies.tallies(NoJson(store.conn), "theme", None)
        }
    assert got == want == {("counting", 2, 1, 2, 3.5), ("unseen", 2, 1, 1, 2.0)}
