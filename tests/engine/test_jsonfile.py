"""The one capped JSON reader (tutor.engine.jsonfile, issue 23 item 2): /dev/zero, endless
lines and oversize files refused in one line without reading them whole; every refusal names
the file and, where it can, the line and column; every JSON reader of the program uses it."""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys

import pytest
from support import ROOT

from tutor.engine import jsonfile
from tutor.engine.errors import DataError, RecordError
from tutor.engine.records import load_records


def test_a_file_over_the_limit_is_refused_after_reading_one_byte_more(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b"[" + b"1," * 600 + b"1]")
    assert jsonfile.load(big, limit=2000) == [1] * 601
    with pytest.raises(jsonfile.JSONError) as exc:
        jsonfile.load(big, limit=1000)
    assert str(exc.value).startswith(f"{big}: larger than 1,000 bytes")
    assert isinstance(exc.value, DataError) and "\n" not in str(exc.value)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_is_refused_unread():
    """A device is no file of the program's (issue 28 item 5): refused before a byte is read."""
    said = re.escape("/dev/zero: cannot be read (a character device, not a regular file)")
    with pytest.raises(jsonfile.JSONError, match=said):
        jsonfile.load("/dev/zero")
    with pytest.raises(jsonfile.JSONError, match=said):
        list(jsonfile.iter_lines("/dev/zero"))


@pytest.mark.skipif(
    not os.path.exists("/dev/zero") or sys.platform != "linux",
    reason="needs /dev/zero and RLIMIT_AS",
)
@pytest.mark.parametrize(
    "argv",
    [
        ["records", "check", "/dev/zero"],
        ["analyse", "/dev/zero"],
        ["progress", "import", "/dev/zero"],
        ["class", "report", "/dev/zero"],
        ["match", "--resume", "/dev/zero"],
    ],
)
def test_every_json_reader_refuses_dev_zero_in_one_line_under_a_memory_limit(argv, tmp_path):
    """Before the capped reader, each of these grew until killed (24 GB), or under a memory
    limit ended in a MemoryError traceback."""
    limit = 1_000_000_000  # bytes of address space: the whole program fits in far less

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    env = dict(os.environ, LAUGH_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "tutor", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(ROOT),
        timeout=60,
        preexec_fn=cap,
    )
    assert proc.returncode == 1, proc.stderr[-500:]
    said = proc.stderr + proc.stdout
    assert "Traceback" not in said and "MemoryError" not in said
    assert "/dev/zero: " in said and "a character device, not a regular file" in said


def test_json_lines_are_read_a_line_at_a_time_and_an_endless_line_stops_the_reading(tmp_path):
    path = tmp_path / "deals.jsonl"
    path.write_bytes(b'{"a": 1}\n\n{"a": 2}\r\n' + b"x" * 50 + b"\n" + b'{"never": "read"}\n')
    it = jsonfile.iter_lines(path, limit=20)
    assert next(it) == (1, b'{"a": 1}') and next(it) == (2, b"") and next(it) == (3, b'{"a": 2}')
    with pytest.raises(jsonfile.JSONError) as exc:
        next(it)
    assert exc.value.line == 4 and str(exc.value).startswith(f"{path}:4: line 4 is longer")


@pytest.mark.parametrize(
    "text,reason,line",
    [
        (
            '{"a": 1,\n "b": [1, 2,\n',
            "not JSON: the text ends at line 2 column 13 before the JSON "
            "does (was the file cut short?)",
            2,
        ),
        ('{"a": 1}\n{"a": 2}\n', "not JSON: Extra data at line 2 column 1", 2),
        ('{"a": NaN}', "not a value: NaN is not a JSON value", None),
        ('{"a": 1, "a": 2}', "not a value: the key 'a' is given twice in one object", None),
        (
            '{"a": ' + "9" * 400 + "}",
            "not a value: a number of 400 digits (no field of a value needs more than 30)",
            None,
        ),
        ("[" * 100_000 + "]" * 100_000, "not a value: nested too deeply", None),
        ("[" * 40 + "]" * 40, "not a value: nested too deeply (more than 32 levels)", None),
    ],
)
def test_every_refusal_is_one_line_with_its_position(text, reason, line):
    with pytest.raises(jsonfile.JSONError) as exc:
        jsonfile.loads(text)
    assert exc.value.reason.startswith(reason) and "\n" not in str(exc.value)
    assert exc.value.line == line


def test_bytes_that_are_not_utf8_are_named_by_line_and_column(tmp_path):
    path = tmp_path / "x.json"
    path.write_bytes(b'{"a":\n  "\xff"}')
    with pytest.raises(
        jsonfile.JSONError,
        match=r"x\.json: not UTF-8 text: byte 0xFF at line 2 "
        r"column 4",
    ):
        jsonfile.load(path)


def test_a_half_cut_json_record_is_one_error_at_its_line_and_jsonl_stays_line_by_line(tmp_path):
    """Issue 23 item 11: a cut .json record was re-read as JSON Lines, one error per line."""
    rec = json.loads((ROOT / "tests" / "data" / "examples").glob("*.json").__next__().read_text())
    text = json.dumps(rec, indent=1)
    cut = text[: len(text) // 2]
    whole = tmp_path / "trunc.json"
    whole.write_text(cut)
    rows = list(load_records(whole))
    assert len(rows) == 1
    line, err = rows[0]
    assert isinstance(err, RecordError) and line == cut.count("\n") + 1
    assert str(err).startswith(f"not JSON: the text ends at line {line}")
    lines = tmp_path / "trunc.jsonl"
    lines.write_text(cut)
    assert len(list(load_records(lines))) == len([x for x in cut.splitlines() if x.strip()])


def test_records_check_of_a_half_cut_json_file_is_one_line(tmp_path, capsys):
    from tutor.app.cli import main

    rec = json.loads(next((ROOT / "tests" / "data" / "examples").glob("*.json")).read_text())
    text = json.dumps(rec, indent=1)
    path = tmp_path / "trunc.json"
    path.write_text(text[:3000])
    assert main(["records", "check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and out[0].startswith(f"{path}:") and "cut short" in out[0]
    assert out[1] == "1 record checked: 0 good, 1 bad"
    assert main(["analyse", str(path)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "cut short" in err[0]


def test_json_lines_written_under_a_json_name_are_still_read_line_by_line(tmp_path):
    rec = json.loads(next((ROOT / "tests" / "data" / "examples").glob("*.json")).read_text())
    path = tmp_path / "deals.json"
    path.write_text("\n".join(json.dumps(rec) for _ in range(3)) + "\n")
    assert [line for line, r in load_records(path)] == [1, 2, 3]
    assert all(isinstance(r, dict) for _, r in load_records(path))
