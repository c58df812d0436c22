"""Deal records (RULES.md 9): the shared examples replay to their own results; bad records are
refused with the index of the first bad action."""

import copy
import json
from pathlib import Path

import pytest

from tutor.engine.errors import RecordError
from tutor.engine.records import load_records, replay, to_record, write_records

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "examples"
FILES = sorted(EXAMPLES.glob("*.json"))


def test_the_examples_are_in_the_repository():
    assert len(FILES) == 5, EXAMPLES


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_example_replays_to_its_own_result_and_round_trips(rulesets, path):
    rec = json.loads(path.read_text())
    deal = replay(rec, rulesets)
    mine = to_record(deal)
    assert mine["actions"] == rec["actions"]
    assert mine["result"] == rec["result"]
    assert mine["pack"] == rec["pack"]


@pytest.fixture
def example():
    return json.loads((EXAMPLES / "parlett-5-oversights.json").read_text())


def test_illegal_action_refused_with_index(rulesets, example):
    bad = copy.deepcopy(example)
    bad["actions"][5]["table"] = ["5D"]          # not on the table
    with pytest.raises(RecordError) as exc:
        replay(bad, rulesets)
    assert exc.value.index == 5 and "action 5" in str(exc.value)


def test_wrong_turn_and_offender_claim_refused(rulesets, example):
    bad = copy.deepcopy(example)
    bad["actions"][0]["player"] = 3
    with pytest.raises(RecordError, match="action 0.*turn"):
        replay(bad, rulesets)
    bad = copy.deepcopy(example)
    claim = next(i for i, a in enumerate(bad["actions"]) if a["oversight" if "oversight" in a else "action"] == "split_prial")
    bad["actions"][claim]["player"] = 3          # seat 3 split the prial
    with pytest.raises(RecordError, match=f"action {claim}.*made that mistake"):
        replay(bad, rulesets)


def test_wrong_result_and_malformed_records_refused(rulesets, example):
    bad = copy.deepcopy(example)
    bad["result"]["net"][0] += 1
    with pytest.raises(RecordError, match="result.net"):
        replay(bad, rulesets)
    for mutate, pattern in [
        (lambda r: r.update(format="x"), "format"),
        (lambda r: r.pop("pack"), "missing key 'pack'"),
        (lambda r: r["pack"].__setitem__(3, "ZZ"), "ZZ"),
        (lambda r: r["pack"].__setitem__(3, r["pack"][4]), "52 distinct"),
        (lambda r: r.update(ruleset="nosuch"), "unknown ruleset"),
        (lambda r: r.update(players=9), "does not cover 9"),
        (lambda r: r["actions"].__setitem__(0, {"player": 2, "action": "fly"}), "action 0: unknown action"),
    ]:
        bad = copy.deepcopy(example)
        mutate(bad)
        with pytest.raises(RecordError, match=pattern):
            replay(bad, rulesets)


def test_jsonl_write_and_load(tmp_path, rulesets, example):
    path = tmp_path / "deals.jsonl"
    write_records(path, [example, example])
    rows = list(load_records(path))
    assert [n for n, _ in rows] == [1, 2]
    assert all(replay(r, rulesets).is_terminal() for _, r in rows)
    single = tmp_path / "one.json"
    single.write_text(json.dumps(example, indent=1))
    assert [n for n, _ in load_records(single)] == [1]
