"""Fuzzing progress exports (issue 23 items 6 and 13): any value at any place of a good export,
keys given twice, answers and lessons repeated.  An export is refused whole in one line naming
the file, or taken; what is taken merges into a store that opens again without damage, its
answers all there.

Short by default; ``pytest -m fuzz`` runs the long profile (see tests/conftest.py)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from fuzzing import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st
from support import ROOT

from tutor.engine.errors import DataError
from tutor.teaching.progress import FILE_NAME, ProgressStore
from tutor.teaching.transfer import parse_export

pytestmark = pytest.mark.fuzz

GOOD = json.loads((ROOT / "tests" / "data" / "progress-export.json").read_text(encoding="utf-8"))
GOOD["lessons"].append(
    {
        **GOOD["lessons"][0],
        "lesson": "history",
        "completed_at": 1767226000.0,
        "right": 2,
        "total": 3,
        "in_progress": False,
    }
)

plausible = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 12),
    st.floats(0, 4e10),
    st.sampled_from(["count", "settlement", "counting", "terms", "fixture-1"]),
)
scalars = st.one_of(
    plausible,
    plausible,
    plausible,
    st.integers(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([10**400, -(10**399), 2**63, 2**63 - 1, -(2**63) - 1]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1e300, -0.0, 5e-324]),
    st.text(max_size=30),
    st.sampled_from(["count", "", "\x1b[2J", "x" * 300, "1.0", "terms"]),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def _places(obj, path=()):
    """Every (path to a value) in ``obj``."""
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _places(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _places(v, path + (i,))


PLACES = [p for p in _places(GOOD) if p and p != ("format",)]


def _mutated(data) -> str:
    doc = json.loads(json.dumps(GOOD))
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        how = data.draw(st.sampled_from(["set", "set", "set", "repeat", "twice"]), label="how")
        if how == "repeat":  # an answer or lesson given again, maybe changed
            group = data.draw(st.sampled_from(["answers", "lessons"]), label="group")
            if doc.get(group) and isinstance(doc[group], list):
                item = json.loads(json.dumps(data.draw(st.sampled_from(doc[group]), label="item")))
                if isinstance(item, dict) and data.draw(st.booleans(), label="change"):
                    item[data.draw(st.sampled_from(sorted(item) or ["x"]), label="key")] = (
                        data.draw(values, label="new")
                    )
                doc[group].append(item)
            continue
        path = data.draw(st.sampled_from(PLACES), label="path")
        obj = doc
        try:
            for key in path[:-1]:
                obj = obj[key]
            if how == "twice":
                continue  # done on the text below
            obj[path[-1]] = data.draw(values, label="value")
        except (KeyError, IndexError, TypeError):
            continue
    text = json.dumps(doc)
    if data.draw(st.integers(0, 4), label="key twice") == 0:
        key = data.draw(st.sampled_from(['"uid": ', '"right": ', '"kind": ', '"learner": ']))
        at = text.find(key)
        if at >= 0:
            end = text.find(",", at)
            if end > at:
                text = text[: end + 1] + " " + text[at : end + 1] + text[end + 1 :]
    return text


@fuzz_settings(cost=0.08, short=25)
@given(st.data())
def test_an_export_is_taken_whole_or_refused_whole_in_one_line(data):
    text = _mutated(data)
    try:
        export = parse_export(text, "fuzz.json")
    except DataError as exc:
        message = str(exc)
        assert message.startswith("fuzz.json: ") and "\n" not in message
        return
    uids = [a.uid for a in export.answers]
    assert len(set(uids)) == len(uids)
    assert len({x.lesson for x in export.lessons}) == len(export.lessons)
    for x in export.lessons:
        assert (x.right is None) == (x.total is None) == (x.completed_at is None)
        assert x.right is None or 0 <= x.right <= x.total
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / FILE_NAME
        with ProgressStore(path) as store:
            added, known = store.merge(export.answers, export.lessons, export.meta)
            assert (added, known) == (len(uids), 0)
        with ProgressStore(path) as store:
            assert store.notice is None, store.notice  # nothing taken reads as damage
            assert sorted(a.uid for a in store.answers()) == sorted(uids)
            store.tallies("theme"), store.timeline(), store.lesson_states()
