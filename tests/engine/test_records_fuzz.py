"""Fuzzing deal records: the shared examples mutated as a careless editor or a hostile file
would (actions dropped, duplicated and swapped, wrong types anywhere, bad cards, truncation,
garbage lines, bytes that are not UTF-8, deep nesting, endless digits).  Whatever the file
holds, the reader gives a deal or one-line RecordError, and ``laugh records check`` prints one
``FILE:LINE: ...`` line per bad record and exits 0 or 1, never a traceback.

Short by default; ``pytest -m fuzz`` runs the long profile (see tests/conftest.py)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from fuzzing import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

from tutor.app.cli import main
from tutor.engine.deal import Deal
from tutor.engine.errors import LaughError, RecordError
from tutor.engine.records import check_record, load_records

pytestmark = pytest.mark.fuzz

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "data" / "examples").glob("*.json"))
RECORDS = [json.loads(p.read_text(encoding="utf-8")) for p in EXAMPLES]
SUMMARY = re.compile(r"^\d+ records? checked: \d+ good, \d+ bad(, \d+ unfinished)?$")

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(["7H", "QS", "10D", "XX", "", "capture", "parlett"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _slots(tree, out):
    """Every (container, key) of a JSON tree, in a fixed order."""
    if isinstance(tree, dict):
        for k in list(tree):
            out.append((tree, k))
            _slots(tree[k], out)
    elif isinstance(tree, list):
        for i in range(len(tree)):
            out.append((tree, i))
            _slots(tree[i], out)
    return out


def mutate_record(data, rec: dict) -> dict:
    """Apply one to four structural mutations to a copy of ``rec``."""
    rec = copy.deepcopy(rec)
    for _ in range(data.draw(st.integers(1, 4), label="mutations")):
        acts = rec.get("actions") if isinstance(rec.get("actions"), list) else None
        how = data.draw(
            st.sampled_from(
                ["drop", "duplicate", "swap", "cut", "set", "delete", "card", "result"]
            ),
            label="how",
        )
        if how in ("drop", "duplicate", "swap", "cut") and acts:
            i = data.draw(st.integers(0, len(acts) - 1), label="i")
            j = data.draw(st.integers(0, len(acts) - 1), label="j")
            if how == "drop":
                del acts[i]
            elif how == "duplicate":
                acts.insert(j, copy.deepcopy(acts[i]))
            elif how == "swap":
                acts[i], acts[j] = acts[j], acts[i]
            else:
                del acts[i:]
                rec.pop("result", None) if data.draw(st.booleans(), label="no result") else None
            continue
        slots = _slots(rec, [])
        if not slots:
            continue
        if how == "card":
            cards = [(c, k) for c, k in slots if isinstance(c[k], str) and len(c[k]) <= 3]
            if cards:
                c, k = data.draw(st.sampled_from(cards), label="card")
                c[k] = data.draw(
                    st.sampled_from(["1H", "7X", "QQ", "", "7h", "10♥", "AS", "ZZ"])
                    | st.text(max_size=4),
                    label="bad card",
                )
            continue
        if how == "result" and isinstance(rec.get("result"), dict):
            slots = _slots(rec["result"], [])
            if not slots:
                continue
        c, k = data.draw(st.sampled_from(slots), label="slot")
        if how == "delete":
            del c[k]
        else:
            c[k] = data.draw(json_values, label="value")
    return rec


def mutate_text(data, text: str) -> bytes:
    """Damage the serialised file: truncation, garbage lines, bad bytes, deep nesting, digits."""
    raw = text.encode("utf-8")
    how = data.draw(
        st.sampled_from(["none", "truncate", "garbage", "bytes", "nest", "digits", "bom"]),
        label="text damage",
    )
    pos = data.draw(st.integers(0, len(raw)), label="at")
    if how == "truncate":
        return raw[:pos]
    if how == "garbage":
        line = data.draw(
            st.binary(max_size=40) | st.text(max_size=40).map(str.encode), label="garbage"
        )
        cut = raw.rfind(b"\n", 0, pos) + 1
        return raw[:cut] + line + b"\n" + raw[cut:]
    if how == "bytes":
        junk = data.draw(st.binary(min_size=1, max_size=4), label="junk")
        return raw[:pos] + junk + raw[pos + len(junk) :]
    if how == "nest":
        depth = data.draw(st.sampled_from([50, 2000, 100_000]), label="depth")
        return raw[:pos] + b"[" * depth + raw[pos:]
    if how == "digits":
        return (
            raw[:pos]
            + b"9" * data.draw(st.sampled_from([31, 4301, 20_000]), label="digits")
            + raw[pos:]
        )
    if how == "bom":
        return b"\xef\xbb\xbf" + raw
    return raw


@fuzz_settings(cost=0.025, short=15)
@given(st.data())
def test_mutated_records_are_refused_in_one_line_naming_file_and_line(tmp_path, capsys, data):
    count = data.draw(st.integers(1, 3), label="records")
    recs = [
        mutate_record(data, data.draw(st.sampled_from(RECORDS), label="example"))
        if data.draw(st.booleans(), label="mutate")
        else data.draw(st.sampled_from(RECORDS), label="example")
        for _ in range(count)
    ]
    as_lines = data.draw(st.booleans(), label="JSON Lines")
    text = (
        "\n".join(json.dumps(r) for r in recs) + "\n"
        if as_lines
        else json.dumps(recs if count > 1 else recs[0], indent=1)
    )
    path = tmp_path / ("deals.jsonl" if as_lines else "deal.json")
    path.write_bytes(mutate_text(data, text))

    # The Python reader: a deal, or a RecordError of one line.
    for lineno, rec in load_records(path):
        assert isinstance(lineno, int) and lineno >= 1
        if isinstance(rec, RecordError):
            outcome = rec
        else:
            try:
                outcome = check_record(rec, positions=data.draw(st.booleans(), label="positions"))
            except RecordError as exc:
                outcome = exc
        if isinstance(outcome, LaughError):
            assert str(outcome) and "\n" not in str(outcome) and len(str(outcome)) < 400
        else:
            assert isinstance(outcome, Deal)

    # The command: a line per bad record, naming the file and its line, then the summary.
    capsys.readouterr()
    code = main(["records", "check", str(path)])
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert code in (0, 1) and err == ""
    assert SUMMARY.match(lines[-1]), lines[-1]
    for line in lines[:-1]:
        assert re.match(rf"{re.escape(str(path))}:\d+: \S", line), line
    assert (code == 0) == (
        len(lines) == 1
        and " 0 bad" in lines[-1]
        and "unfinished" not in out
        and not lines[-1].startswith("0 records")
    )
