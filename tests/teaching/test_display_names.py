"""Rulesets by their names, never their ids, where a learner reads them (issue 45, finding 5):
the column heads of a lesson's rules tables, the rows of its odds tables, the settlement
drill's header; the review of a decision says "deals played out", not "playouts"."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from tutor.engine.sources import default_library
from tutor.teaching.blockdata import block_view
from tutor.teaching.lessons import load_course

IDS = sorted(default_library().rulesets)
ID_WORD = re.compile(r"(?<![\w.-])(" + "|".join(map(re.escape, IDS)) + r")(?![\w-])")


@pytest.fixture(scope="module")
def blocks():
    return [
        (lesson.id, b)
        for lesson in load_course()
        for page in lesson.pages
        for b in page
        if getattr(b, "kind", None) in ("rules", "odds")
    ]


def test_no_lesson_table_head_or_row_is_a_ruleset_id(blocks):
    lib = default_library()
    assert len(blocks) >= 10
    for lesson, b in blocks:
        view = block_view(b, lib)
        shown = view.get("columns", []) + [
            r[0] for r in view.get("rows", []) if isinstance(r, list)
        ]
        said = " ".join(str(x) for x in shown) + " " + str(view.get("sentence") or "")
        assert not ID_WORD.search(said), (lesson, b.line, said)


@pytest.mark.parametrize("width", [80, 40])
def test_a_lesson_table_drawn_names_the_rulesets(blocks, width):
    from tutor.app.blocks import render_block
    from tutor.app.context import Context, Glyphs
    from tutor.app.learner_io import ScriptedIO

    console = Console(file=io.StringIO(), width=width, color_system=None)
    ctx = Context(ScriptedIO([], console), Glyphs())
    for _lesson, b in blocks:
        console.print(render_block(b, ctx, width))
    out = console.file.getvalue()
    assert not ID_WORD.search(out), ID_WORD.search(out)
    assert "Parlett after Willughby" in out


def test_the_settlement_drill_names_its_ruleset(tmp_path):
    from support import run_laugh

    proc = run_laugh(["drill", "settle", "--rounds", "1", "--seed", "3"], "0\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    head = next(x for x in proc.stdout.splitlines() if " players" in x and " · " in x)
    assert not ID_WORD.search(head) and head.endswith("5 players"), head
