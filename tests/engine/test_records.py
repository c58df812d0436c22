"""Deal records (RULES.md 9): the shared examples replay to their own results; bad records are
refused with the index of the first bad action."""

import copy
import json
from pathlib import Path

import pytest

from tutor.app.cli import main
from tutor.engine.errors import RecordError
from tutor.engine.records import (
    UnfinishedRecord,
    check_record,
    load_records,
    replay,
    to_record,
    write_records,
)

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
    bad["actions"][5]["table"] = ["5D"]  # not on the table
    with pytest.raises(RecordError) as exc:
        replay(bad, rulesets)
    assert exc.value.index == 5 and "action 5" in str(exc.value)


def test_wrong_turn_and_offender_claim_refused(rulesets, example):
    bad = copy.deepcopy(example)
    bad["actions"][0]["player"] = 3
    with pytest.raises(RecordError, match="action 0.*turn"):
        replay(bad, rulesets)
    bad = copy.deepcopy(example)
    claim = next(
        i
        for i, a in enumerate(bad["actions"])
        if a["oversight" if "oversight" in a else "action"] == "split_prial"
    )
    bad["actions"][claim]["player"] = 3  # seat 3 split the prial
    with pytest.raises(RecordError, match=f"action {claim}.*made that mistake"):
        replay(bad, rulesets)


def test_wrong_result_and_malformed_records_refused(rulesets, example):
    bad = copy.deepcopy(example)
    bad["result"]["net"][0] += 1
    with pytest.raises(RecordError, match="result.net"):
        replay(bad, rulesets)
    for mutate, pattern in [
        (lambda r: r.update(format="x"), "format"),
        (lambda r: r.pop("pack"), "pack: is missing"),
        (lambda r: r["pack"].__setitem__(3, "ZZ"), "ZZ"),
        (lambda r: r["pack"].__setitem__(3, r["pack"][4]), "52 distinct"),
        (lambda r: r.update(ruleset="nosuch"), "unknown ruleset"),
        (lambda r: r.update(players=9), "does not cover 9"),
        (
            lambda r: r["actions"].__setitem__(0, {"player": 2, "action": "fly"}),
            "action 0: unknown action",
        ),
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


def _first(path):
    """The one (line, record or error) that ``load_records`` yields for ``path``."""
    rows = list(load_records(path))
    assert len(rows) == 1, rows
    return rows[0]


@pytest.mark.parametrize(
    "content,line,needle",
    [
        (b'{"format": "x"}\n{"a": "\xff"}\n', 2, "not UTF-8 text: byte 0xFF at column 8"),
        (b"[" * 100_000 + b"\n", 1, "nested too deeply"),
        (b'{"players": ' + b"9" * 5000 + b"}\n", 1, "a number of 5000 digits"),
        (b'{"players": 5, "players": 4}\n', 1, "the key 'players' is given twice"),
        (b'{"players": NaN}\n', 1, "NaN is not a JSON value"),
    ],
)
def test_unreadable_lines_are_record_errors_naming_line_and_cause(tmp_path, content, line, needle):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    rows = [r for r in load_records(path) if isinstance(r[1], RecordError)]
    assert len(rows) == 1
    assert rows[0][0] == line and needle in str(rows[0][1])


def test_a_byte_order_mark_and_a_bad_byte_in_a_pretty_printed_record(tmp_path, example):
    path = tmp_path / "one.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(example, indent=1).encode())
    line, rec = _first(path)
    assert line == 1 and rec == example
    text = json.dumps(example, indent=1).encode()
    at = text.index(b'"dealer"')
    path.write_bytes(text[:at] + b'"\xc3(": 1, ' + text[at:])
    line, err = _first(path)
    assert isinstance(err, RecordError) and "not UTF-8" in str(err)
    assert line == text[:at].count(b"\n") + 1


@pytest.mark.parametrize(
    "mutate,needle",
    [
        (lambda r: r.update(ruleset=["parlett"]), "ruleset: must be text, got a list"),
        (lambda r: r.update(ruleset={"id": 1}), "ruleset: must be text, got an object"),
        (lambda r: r.update(players="5"), "players: must be a whole number from 1 to 52, got '5'"),
        (
            lambda r: r.update(players=True),
            "players: must be a whole number from 1 to 52, got true",
        ),
        (lambda r: r.update(dealer=-1), "dealer: must be a whole number from 0 to 51, got -1"),
        (lambda r: r.update(dealer=5), "dealer: must be a seat from 0 to 4, got 5"),
        (lambda r: r.update(dealer=[0]), "dealer: must be a whole number from 0 to 51, got a list"),
        (lambda r: r.update(pack="7H 7D"), "pack: must be a list"),
        (lambda r: r["pack"].__setitem__(0, 7), "pack: 7 is not a card"),
        (lambda r: r["pack"].pop(), "pack: must be the 52 distinct cards, got 51"),
        (lambda r: r.update(actions={"0": 1}), "actions: must be a list, got an object"),
        (
            lambda r: r["actions"].__setitem__(0, [1]),
            "action 0: must be a mapping of keys to values, got a list",
        ),
        (
            lambda r: r["actions"][0].update(action=["capture"]),
            "action 0: unknown action a list; expected one of take_table_mournival",
        ),
        (lambda r: r["actions"][0].pop("action"), "action 0: unknown action null"),
        (lambda r: r["actions"][0].update(cards=[]), "action 0: cards: is not a key here"),
        (
            lambda r: r["actions"][0].update(player=None),
            "action 0: player: must be a whole number from 0 to 51, got null",
        ),
        (
            lambda r: r["actions"][0].update(player=99),
            "action 0: player: must be a whole number from 0 to 51, got 99",
        ),
        (lambda r: r["actions"][0].update(player=4), "action 0 (capture by player 4) is illegal"),
        (
            lambda r: r["actions"][0].update(hand="7H"),
            "action 0: hand: must be a list of card codes, got '7H'",
        ),
        (
            lambda r: r["actions"][0].update(hand=[None]),
            "action 0: hand: must be a list of card codes, got null at [0]",
        ),
        (lambda r: r["actions"][0].update(hand=["7X"]), "action 0: hand: '7X' is not a card"),
        (lambda r: r.update(result=[1]), "result: must be a mapping of keys to values, got a list"),
        (
            lambda r: r["result"].update(won=[[1]]),
            "result.won[0]: must be a list of card codes, got 1 at [0]",
        ),
        (lambda r: r["result"].update(won="all"), "result.won: must be a list, got 'all'"),
        (
            lambda r: r["result"].update(leftovers=[]),
            "result.leftovers: must be a mapping of keys to values, got a list",
        ),
        (lambda r: r["result"].update(extra=1), "result.extra: is not a key here"),
        (
            lambda r: r["result"].update(net=[[[[]]]]),
            "result.net[0]: must be a whole number from -1,000,000 to 1,000,000, got a list",
        ),
    ],
)
def test_wrong_types_anywhere_are_refused_naming_the_field(rulesets, example, mutate, needle):
    bad = copy.deepcopy(example)
    mutate(bad)
    with pytest.raises(RecordError) as exc:
        replay(bad, rulesets)
    assert needle in str(exc.value)
    assert "\n" not in str(exc.value)


def test_unfinished_records_are_refused_unless_positions_are_asked_for(rulesets, example):
    assert check_record(example, rulesets).is_terminal()
    no_result = copy.deepcopy(example)
    del no_result["result"]
    with pytest.raises(UnfinishedRecord, match="unfinished: the record has no result"):
        check_record(no_result, rulesets)
    short = copy.deepcopy(no_result)
    short["actions"] = short["actions"][:4]
    with pytest.raises(
        UnfinishedRecord,
        match=r"unfinished: the actions stop before the deal is "
        r"over \(4 actions; player \d to move\)",
    ):
        check_record(short, rulesets)
    assert not check_record(short, rulesets, positions=True).is_terminal()
    assert check_record(no_result, rulesets, positions=True).is_terminal()
    # The reader itself still replays positions (puzzles store them), as before.
    assert not replay(short, rulesets).is_terminal()


def test_records_check_says_unfinished_and_accepts_positions_only_when_asked(
    tmp_path, capsys, example
):
    short = copy.deepcopy(example)
    del short["result"]
    short["actions"] = short["actions"][:4]
    path = tmp_path / "deals.jsonl"
    write_records(path, [example, short])
    assert main(["records", "check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{path}:2: unfinished: the actions stop before the deal is over")
    assert out[-1] == "2 records checked: 1 good, 0 bad, 1 unfinished"
    assert main(["records", "check", "--positions", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "2 records checked: 2 good, 0 bad"


def test_records_check_turns_every_unreadable_file_into_lines_not_tracebacks(
    tmp_path, capsys, example
):
    files = {
        "bytes.jsonl": b'{"a": "\xff\xfe"}\n',
        "list.json": json.dumps({**example, "ruleset": ["parlett"]}).encode(),
        "deep.jsonl": b"[" * 100_000,
        "digits.jsonl": b'{"dealer": ' + b"1" * 4301 + b"}",
    }
    paths = []
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
        paths.append(str(tmp_path / name))
    assert main(["records", "check", *paths]) == 1
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    assert "Traceback" not in captured.out + captured.err
    assert [line.split(": ", 1)[0] for line in out[:-1]] == [f"{p}:1" for p in paths]
    assert out[-1] == "4 records checked: 0 good, 4 bad"


def test_a_malformed_action_is_named_by_its_index_as_an_illegal_one_is(rulesets, example):
    bad = copy.deepcopy(example)
    bad["actions"][7]["hand"] = ["7X"]
    with pytest.raises(RecordError) as exc:
        replay(bad, rulesets)
    assert exc.value.index == 7 and str(exc.value).startswith("action 7: hand: '7X' is not a card")
    bad["actions"][7] = {
        "player": 1,
        "action": "capture",
        "hand": ["7H"],
        "table": ["7S"],
        "oversight": "split_prial",
    }
    with pytest.raises(RecordError, match=r"^action 7: oversight: is not a key here$"):
        replay(bad, rulesets)


def test_the_shape_models_know_the_format_names_the_writers_write():
    from typing import get_args

    from tutor.engine._record_json import MatchIn, RecordIn
    from tutor.engine.match import MATCH_FORMAT
    from tutor.engine.records import FORMAT

    assert get_args(RecordIn.model_fields["format"].annotation) == (FORMAT,)
    assert get_args(MatchIn.model_fields["format"].annotation) == (MATCH_FORMAT,)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_deal_replayed_from_its_pack_is_the_records_replay(rulesets, path):
    """``Deal.replayed(upto)`` gives the position the record's replay gives at every length
    (the hands, table, piles, open oversights, turn and phase), and refuses a length out of
    range."""
    from tutor.engine.errors import UsageError

    rec = json.loads(path.read_text())
    deal = replay(rec, rulesets)
    for upto in range(len(deal.history) + 1):
        mine, theirs = deal.replayed(upto), replay(rec, rulesets, upto=upto)
        assert to_record(mine, with_result=False) == to_record(theirs, with_result=False)
        for name in ("hands", "table", "won", "to_move", "phase", "payments"):
            assert getattr(mine, name) == getattr(theirs, name), (upto, name)
        assert mine.open_oversights() == theirs.open_oversights()
    for bad in (-1, len(deal.history) + 1):
        with pytest.raises(UsageError):
            deal.replayed(bad)
