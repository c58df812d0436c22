"""No identifier, doubled bracket or bad plural reaches a learner (issue 24): every kind's
question, hints, nudges, explanation and refusals, at several seeds and rulesets (the shared
corpus), and every lesson's puzzles at several lesson seeds (``-m slow`` for the whole course at
three seeds; one seed in every run)."""

from __future__ import annotations

import pytest
from drawn import drawn
from learner_text import problems_in, scan, spread
from support import lesson_puzzles

import tutor.puzzles as P
from tutor.teaching.lessons import load_course

#: Puzzles of each kind scanned: seeds round-robin over every ruleset and player count the kind
#: applies to (as the shared corpus spreads them; one a ruleset for a kind that analyses).
PER_KIND = 40
_PUZZLES: dict[str, list] = {}


def puzzles_of(kind: str) -> list:
    if kind not in _PUZZLES:
        _PUZZLES[kind] = [drawn(kind, r, n, s) for r, n, s in spread(kind, PER_KIND)]
    return _PUZZLES[kind]


@pytest.mark.parametrize("kind", P.KINDS)
def test_no_code_name_reaches_a_learner(kind):
    puzzles = puzzles_of(kind)
    assert {p.ruleset for p in puzzles} == set(P.applicable_rulesets(kind))
    assert scan(puzzles) == []


def test_the_scan_finds_what_issue_24_found():
    """The texts issue 24 quoted are each refused by the scan."""
    for bad in (
        "pair_for_pair is not allowed under ruleset du-coeur (allowed: one_for_one, one_for_three)",
        "the dead pair (declare_dead_pair)",
        "pot_to: none ((no single winner))",
        "Right: 1 points.",
        "Answer: TC TH",
        "✓ Right: 2: 3.",
        "it is None",
        "['7H', '7S']",
    ):
        assert problems_in(bad), bad
    for good in (
        "Right: 1 point; 2 stakes.",
        "Answer: 10♣ 10♥",
        "type `claim 9D 9H`",
        "Right: 3 twos unseen.",
        "Round 1, game 2: 9",
    ):
        assert problems_in(good) == [], good


def _lesson_scan(seeds) -> list[str]:
    found = []
    for lesson in load_course():
        for seed in seeds:
            found += scan(p for _, p in lesson_puzzles(lesson, seed))
    return found


def test_every_lesson_puzzle_reads_plainly():
    assert _lesson_scan([0]) == []


@pytest.mark.slow
def test_every_lesson_puzzle_reads_plainly_at_several_seeds():
    assert _lesson_scan([1, 2, 3]) == []


#: The lines a terminal keeps for the puzzle itself at 80x24: the lesson's heading ("Puzzle 3 of
#: 5") and the answer prompt take the other two.
BOARD_LINES = 22


@pytest.mark.parametrize("kind", P.KINDS)
def test_every_board_fits_80_by_24_with_its_ruleset_line_at_the_question(kind):
    """The board and question fit 80x24 beside the heading and the prompt, and a puzzle about a
    position names its ruleset and player count in the line right above the question (issue
    24: a 25-30-line board scrolled it away)."""
    import io

    from rich.console import Console

    from tutor.puzzles.render import render_puzzle, ruleset_line

    for p in puzzles_of(kind):
        con = Console(width=80, record=True, color_system=None, file=io.StringIO())
        con.print(render_puzzle(p, 80, symbols=True))
        lines = con.export_text().rstrip("\n").splitlines()
        assert len(lines) <= BOARD_LINES, (p.id, len(lines), "\n".join(lines))
        if p.has_position:
            flat = " ".join(" ".join(lines).split())
            question = " ".join(p.question.replace("`", "").split())
            assert f"{ruleset_line(p)} {question}" in flat, (p.id, flat[-400:])
