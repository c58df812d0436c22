"""Nothing cut at 40 or 80 columns (issue 34, finding 8): a page's heading keeps its page
number, a table's heading is never broken inside a ruleset id, a seat's row on a puzzle's board
wraps under itself, a table of figures too wide for the terminal is shown a row at a time.  Each
at a width where it used to be cut (``· pag…``, ``parlett-tournamen`` / ``t``, ``won 4:`` at the
left margin, ``parl…``)."""

from __future__ import annotations

import re

import pytest
from rich.console import Console
from rich.text import Text
from support import run_laugh

from tutor.app.fit import FitTable, TitledRule

IDS = ["parlett-tournament", "inter-livery-2018", "du-coeur", "parlett"]


def _render(renderable, width: int) -> list[str]:
    console = Console(width=width, no_color=True, record=True, file=open("/dev/null", "w"))
    console.print(renderable)
    return console.export_text().splitlines()


@pytest.mark.parametrize("width", [40, 80])
def test_a_long_page_heading_keeps_its_page_number(width):
    title = "Tournament track 8/9: Tournament preparation - the Inter-Livery rules · page 5 of 5"
    lines = _render(TitledRule(title), width)
    assert " ".join(" ".join(lines).split()).count("page 5 of 5") == 1
    assert "…" not in "".join(lines) and max(map(len, lines)) <= width
    short = _render(TitledRule("8. Oversights · page 1 of 5"), width)
    assert len(short) == 1 and "8. Oversights · page 1 of 5" in short[0]  # on the rule


@pytest.mark.parametrize("width", [40, 60, 80, 120])
def test_a_table_never_breaks_a_heading_inside_a_word(width):
    rows = [
        [
            Text("captures"),
            Text("1 for 1, 1 for 3, pair for pair, prial for 1 (read)"),
            Text("1 for 1"),
            Text("1 for 1, 1 for 3"),
            Text("1 for 1, 1 for 3 (read)"),
        ],
        [
            Text("first dealer"),
            Text("lowest cut (read)"),
            Text("players choose"),
            Text("highest cut"),
            Text("lowest cut"),
        ],
    ]
    lines = _render(FitTable([""] + IDS, rows, wrap=range(5), lines=True), width)
    text = "\n".join(lines)
    assert max(map(len, lines)) <= width, text
    for rid in IDS:
        assert re.search(rf"(^|[\s│┃]){re.escape(rid)}([\s│┃]|$)", text), (rid, text)
    assert "…" not in text and "(read)" in text


def test_the_rules_of_lesson_10_at_80_columns_name_every_ruleset_whole(tmp_path):
    proc = run_laugh(
        ["lesson", "10", "--seed", "1"],
        "\n" * 12,
        tmp_path,
        columns=80,
        extra_env={"NO_COLOR": "1"},
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert max(map(len, lines)) <= 80
    heads = [line for line in lines if line.startswith("┃")]
    assert any("tournament" in line for line in heads), "\n".join(heads)  # by its name
    assert not any("parlett-tournament" in line for line in heads)
    assert not any(re.search(r"tournamen\s*┃|┃ t\s", line) for line in heads)
    # every page's heading with its number
    assert re.search(r"10\. The sources compared · page 1 of \d+", proc.stdout)
    assert "…" not in proc.stdout


def test_a_lesson_page_heading_at_40_columns_keeps_its_number(tmp_path):
    proc = run_laugh(
        ["lesson", "10", "--seed", "1"], "\n" * 3, tmp_path, columns=40, extra_env={"NO_COLOR": "1"}
    )
    assert proc.returncode == 0, proc.stderr
    flat = " ".join(proc.stdout.split())
    assert re.search(r"10\. The sources compared · page 1 of \d+", flat)
    assert "…" not in proc.stdout
    assert max(map(len, proc.stdout.splitlines())) <= 40


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seat_row_at_40_columns_wraps_under_itself(tmp_path, seed):
    proc = run_laugh(
        ["puzzle", "spot-oversight", "--seed", str(seed)],
        "",
        tmp_path,
        columns=40,
        extra_env={"NO_COLOR": "1"},
    )
    lines = proc.stdout.splitlines()
    assert max(map(len, lines)) <= 40
    rows = [i for i, line in enumerate(lines) if re.match(r"  Player \d", line)]
    assert rows
    for line in lines:  # a seat's figures never at the left margin
        assert not re.match(r"(won \d|\d+ in hand|out\b)", line), "\n".join(lines)


def test_the_skill_table_at_40_columns_is_shown_a_ruleset_at_a_time():
    from tutor.app.blocks import skill_view
    from tutor.engine.simulate import run_skill, skill_json
    from tutor.engine.sources import default_library

    lib = default_library()
    studies = [
        run_skill(lib.ruleset(r), 5, 2, 1, "random", samples=1)
        for r in ("parlett-tournament", "parlett")
    ]
    figures = skill_json(studies, 2, 1, 1, ["random"])
    for width in (40, 80):
        lines = [line for r in skill_view(figures) for line in _render(r, width)]
        text = "\n".join(lines)
        assert max(map(len, lines)) <= width and "…" not in text, text
        assert "parlett-tournament" in text and "parlett\n" in text + "\n" or "parlett " in text
