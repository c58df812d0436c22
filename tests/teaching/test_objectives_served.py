"""Every drawn puzzle serves its objective (issue 30, item 4): an objective lists the themes that
serve it, a puzzle block pins what it asks (a theme of its kind), and ``laugh lessons check``
draws each block at 50 lesson seeds and fails on a puzzle that asks about none of them (a
theme carried only by a refused option, a decoy's, does not count).  The question forms the
course lacked ("who may claim, and until when": ``claim-window``), lying down listed bare, and
the timeline's nudge."""

from __future__ import annotations

import pytest
from shipped import shipped_course

import tutor.puzzles as P
from tutor.teaching.lessons import check_lessons, puzzle_seed
from tutor.teaching.lessons._course_checks import serve_problems

_FRONT = """\
---
id: sample
title: A sample
objectives:
  - id: five
    text: Set up a deal for five players, with its stakes, hands and table.
    themes: [hand, table, ante]
prerequisites: []
sources: [parlett]
minutes: 5
---

```quote
parlett:deal-eight
```
"""


def _sample(tmp_path, block: str):
    path = tmp_path / "03-zsample.md"
    path.write_text(_FRONT + "\n```puzzle\nobjective: five\n" + block + "```\n", encoding="utf-8")
    return path


def test_a_block_must_pin_what_it_asks(tmp_path):
    """Lesson 3's "five" block drew "who is eldest?" or the mournival question in 5 of 8 seeds:
    with the objective's themes listed, a block that pins nothing is refused."""
    path = _sample(tmp_path, "kind: deal-setup\nruleset: parlett\nplayers: 5\n")
    _, problems = check_lessons([path], draws=4)
    assert any(
        ":17: puzzle.theme: missing: pin what the block asks" in p and "hand, table, ante" in p
        for p in problems
    ), problems


def test_a_drawn_puzzle_that_does_not_serve_fails_the_check(tmp_path):
    """A block pinned to a theme that does not serve its objective: every puzzle drawn asks
    "who is eldest?", and the check says how many of the draws miss, and the first."""
    path = _sample(tmp_path, "kind: deal-setup\ntheme: eldest\nruleset: parlett\nplayers: 5\n")
    _, problems = check_lessons([path], draws=5)
    miss = [p for p in problems if "do not serve the objective 'five'" in p]
    assert len(miss) == 1 and "5 of 5 puzzles drawn" in miss[0], problems
    assert "at lesson seed 0 it asks about" in miss[0] and "eldest" in miss[0]
    ok = _sample(tmp_path, "kind: deal-setup\ntheme: ante\nruleset: parlett\nplayers: 5\n")
    assert check_lessons([ok], draws=5)[1] == []


def test_the_course_lists_what_serves_each_objective_and_pins_every_block():
    for lesson in shipped_course():
        for oid in lesson.objective_ids:
            assert lesson.objective_themes.get(oid), (lesson.id, oid)
        for b in lesson.blocks("puzzle"):
            assert b.data["theme"], (lesson.id, b.line)
    assert serve_problems(shipped_course(), draws=4, whole_course=True) == []


def test_a_refused_declaration_does_not_ask_for_a_declaration():
    """Lesson 5's "declare a prial or a mournival" gave a hand with no prial (answer: lie
    down): a legal-play puzzle whose only declaration is a refused option carries the theme,
    but does not ask about it; its block now pins a prial that may be declared."""
    found, s = None, 0
    while found is None and s < 400:  # the first such puzzle searched for from seeds 0 to 399
        p = P.generate("legal-play/declaration", ruleset="parlett", seed=s)
        if "declaration" in p.data["decoy_tags"]:
            found = p
        # the search from each seed up to this puzzle's gives this same puzzle: go on after it
        s = int(p.id.rsplit(".", 1)[1]) + 1
    assert found is not None
    assert "declaration" in found.themes and "declaration" not in found.asks
    course = {lesson.id: lesson for lesson in shipped_course()}
    lesson = course["declarations"]
    block = lesson.objective_blocks("declare")[0]
    assert block.data["theme"] == "prial"
    for s in range(4):
        p = P.generate(
            block.data["kind"],
            ruleset=block.data["ruleset"],
            seed=puzzle_seed(s, lesson.id, block.index, 0),
        )
        right = [c["text"] for c in p.answer["choices"] if c["letter"] in p.answer["right"]]
        assert any(t.startswith("declare") for t in right), (p.id, right)


def test_the_five_player_settlement_is_set_for_five():
    """Lesson 7's "settle a five-player deal" drew two three-player deals."""
    lesson = {x.id: x for x in shipped_course()}["settlement"]
    block = lesson.objective_blocks("settle")[0]
    for s in range(4):
        for n in range(block.data["count"]):
            p = P.generate(
                block.data["kind"],
                ruleset=block.data["ruleset"],
                players=block.data["players"],
                seed=puzzle_seed(s, lesson.id, block.index, n),
            )
            assert p.players == 5


def test_who_may_claim_and_until_when_is_asked_and_graded_by_the_engine():
    """Lesson 8's "who may claim, and until when" is asked about a position (issue 42 finding
    2: the right answer was always "every player but the offender, while both are still on the
    table"): the plan draws in turn a mistake still open, the learner's own mistake, a window
    closed since, and no mistake at all; the right letter is the engine's (the open oversights
    and :meth:`Deal.claimants`), and each answer is right in a quarter of the puzzles."""
    from collections import Counter

    lesson = {x.id: x for x in shipped_course()}["oversights"]
    block = lesson.objective_blocks("who")[0]
    assert block.data["kind"].startswith("claim-window/claim-window")
    cases: Counter = Counter()
    letters: Counter = Counter()
    for s in range(32):  # two whole runs of set_place: each case 8 times
        p = P.generate("claim-window", seed=s)
        d = p.deal()
        i, r = p.answer["index"], p.answer["rank"]
        now = [o for o in d.open_oversights() if o.index == i and o.rank == r]
        case = p.answer["case"]
        assert bool(now) == (case in ("open", "own"))
        if case == "own":
            assert p.seat not in d.claimants(now[0])
        if case == "open":
            assert p.seat in d.claimants(now[0])
        assert (case == "none") == (p.answer["kind"] is None)
        right = [c["letter"] for c in p.answer["choices"] if c["case"] == case]
        assert right == p.answer["right"] and p.grade(right[0]).correct
        assert all(
            not p.grade(c["letter"]).correct for c in p.answer["choices"] if c["case"] != case
        )
        cases[case] += 1
        letters[right[0]] += 1
    assert set(cases) == {"open", "own", "closed", "none"}
    assert set(letters.values()) == {8}, letters


def test_lying_down_is_listed_bare_beside_two_captures_of_another_rank():
    """Lie-down options explained themselves ("your whole hand goes onto the table") against a
    lone rank-mismatch distractor."""
    seen = 0
    for s in range(12):
        p = P.generate("legal-play/lie-down", ruleset="porges", seed=s)
        texts = {c["letter"]: c["text"] for c in p.answer["choices"]}
        assert "lie down" in texts.values()
        assert not any("(" in t for t in texts.values() if t.startswith("lie down"))
        if p.answer["right"] == [k for k, t in texts.items() if t == "lie down"]:
            refused = [t for k, t in texts.items() if k not in p.answer["right"]]
            assert len(refused) >= 2, texts
            seen += 1
    assert seen


def test_the_timeline_nudge_says_too_early_or_too_late():
    """A timeline nudge read "D is too earlier"."""
    said = set()
    for s in range(40):
        p = P.generate("timeline/date-of-record", seed=s)
        right = p.answer["letter"]
        for c in "ABCD"[: len(p.answer["options"])]:
            if c == right:
                continue
            g = p.grade(c, attempt=1)
            assert g.retry.startswith(f"Not yet: {c} is too early.") or g.retry.startswith(
                f"Not yet: {c} is too late."
            ), g.retry
            said.add(g.retry.split(".")[0].rsplit(" ", 1)[-1])
    assert said == {"early", "late"}


@pytest.mark.slow
def test_every_drawn_puzzle_serves_its_objective_at_50_seeds():
    """``laugh lessons check`` as shipped: every block of the course at 50 lesson seeds."""
    assert serve_problems(shipped_course(), draws=50, whole_course=True) == []
