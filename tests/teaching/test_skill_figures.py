"""The skill table of lesson 10 (issue 10): its figures are precomputed by `laugh simulate
--skill` and kept in lessons/figures/skill.json (the lesson opens at once); they are checked here
against the deals they summarise, a few deals are replayed, and a block whose parameters the
file does not hold is refused with the command that makes them."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import pytest
from rich.console import Console
from shipped import shipped_course
from test_lessons import problems_of, write

from tutor.app.blocks import render_simulate
from tutor.engine.errors import DataError
from tutor.engine.simulate import SKILL_FORMAT, SkillStudy, play_skill_deal
from tutor.teaching.blockdata import ruleset_name
from tutor.teaching.figures import skill_figures, skill_path

FIGURES = json.loads(skill_path().read_text(encoding="utf-8"))


def _block():
    lesson = next(les for les in shipped_course() if les.id == "sources-compared")
    return next(b for b in lesson.blocks("simulate") if "skill" in b.data)


def test_the_figures_cover_every_ruleset_and_summarise_their_deals(library):
    assert FIGURES["format"] == SKILL_FORMAT
    block = _block().data
    assert (FIGURES["deals"], FIGURES["seed"], FIGURES["samples"]) == (
        block["deals"],
        block["seed"],
        block["samples"],
    )
    got = {(r["ruleset"], r["opponent"]) for r in FIGURES["rows"]}
    assert got == {(rid, o) for rid in library.rulesets for o in ("random", "counter")}
    for r in FIGURES["rows"]:
        rs = library.rulesets[r["ruleset"]]
        assert r["players"] == (5 if 5 in rs.counts else rs.player_counts[0])
        assert len(r["results"]) == r["deals"] == FIGURES["deals"]
        study = SkillStudy(
            r["ruleset"],
            r["players"],
            r["deals"],
            r["seed"],
            r["opponent"],
            r["samples"],
            rs.scoring,
            [tuple(x) for x in r["results"]],
        )
        mine = study.to_json(per_deal=False)
        for key in ("gain", "expert", "baseline"):
            assert r[key]["mean"] == pytest.approx(mine[key]["mean"], abs=2e-4), (r["ruleset"], key)
            assert r[key]["ci95"] == pytest.approx(mine[key]["ci95"], abs=2e-4), (r["ruleset"], key)
        assert r["unit"] == study.unit and r["verdict"] == study.verdict()


@pytest.mark.parametrize("opponent", ["random", "counter"])
def test_a_deal_of_the_figures_replays(library, opponent):
    """Deal 0 of the parlett rows, played again by the engine: the same figures.  (A change to
    the engine, the computer players or the analysis that changes play fails here: make the
    figures again with the command in tutor/teaching/figures.py.)"""
    row = next(
        r for r in FIGURES["rows"] if r["ruleset"] == "parlett" and r["opponent"] == opponent
    )
    e, b, _ = play_skill_deal(
        library.rulesets["parlett"], row["players"], opponent, row["samples"], row["seed"], 0
    )
    assert [round(e, 4), round(b, 4)] == row["results"][0]


def test_lesson_10_shows_the_table_without_computing_it(library):
    block = _block()
    con = Console(width=100, record=True, color_system=None, file=io.StringIO())
    con.print(render_simulate(block.data, SimpleNamespace(library=library), 100))
    text = con.export_text()
    for r in FIGURES["rows"]:
        assert ruleset_name(library, r["ruleset"]) in text  # its name, never its id (#45)
        g = r["gain"]
        assert f"{g['mean']:+.2f} ± {g['ci95']:.2f}" in text
    assert "over random" in text and "over counter" in text


def test_a_block_the_figures_do_not_hold_is_refused_with_the_command(tmp_path):
    path = write(
        tmp_path,
        """
        ```simulate
        skill: [random, counter]
        deals: 999
        ```
        """,
    )
    problems = [x for x in problems_of(path) if "simulate" in x]
    assert len(problems) == 1 and "simulate.skill" in problems[0]
    assert "laugh simulate --skill --opponents random,counter --deals 999 --seed 1" in problems[0]
    path = write(
        tmp_path,
        """
        ```simulate
        skill: [expert]
        ```
        """,
    )
    assert any(
        "must list the players an expert seat is measured against" in x for x in problems_of(path)
    )
    path = write(
        tmp_path,
        """
        ```simulate
        skill: counter
        rulesets: [parlett, nosuch]
        ```
        """,
    )
    assert any("simulate.rulesets: unknown ruleset 'nosuch'" in x for x in problems_of(path))


@pytest.mark.xdist_group("course_check")  # the shared check: tests/conftest.py
def test_skill_figures_say_what_is_missing(tmp_path, course_check):
    with pytest.raises(DataError, match="no precomputed skill figures; make them with"):
        skill_figures(["counter"], 1000, 1, 200, path=tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**FIGURES, "rows": FIGURES["rows"][:1]}), encoding="utf-8")
    first = FIGURES["rows"][0]
    other = "counter" if first["opponent"] == "random" else "random"
    with pytest.raises(DataError, match=f"no figures for {first['ruleset']} against {other}"):
        skill_figures(
            ["random", "counter"], FIGURES["deals"], FIGURES["seed"], FIGURES["samples"], path=bad
        )
    got = skill_figures(
        ["counter"], FIGURES["deals"], FIGURES["seed"], FIGURES["samples"], ["porges"]
    )
    assert [(r["ruleset"], r["opponent"]) for r in got["rows"]] == [("porges", "counter")]
    status, out, _ = course_check  # check_lessons() as `laugh lessons check` runs it
    assert status == 0 and out.endswith("lessons checked: no problems\n"), out
