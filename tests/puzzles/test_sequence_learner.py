"""Issue 42, validity: a learner who reads a block's answers off the order they come in.

A lesson block's puzzles have seeds :data:`tutor.puzzles.SET_STRIDE` apart, so they take
neighbouring places in their set (:func:`tutor.puzzles.base.set_index`), and the kinds that
draw a case "in turn" from that place gave a block its cases in a fixed cycle: claim-window's
four answers are its cases in order, so a block's claim-window puzzles were answered A, B, C,
D in turn, and a learner answering "the letter after the last one's" (the previous answer is
shown once answered) got lesson 8's second claim-window puzzle right every time.

The learners here see only the right answers of the puzzles of the same kind posed before, in
the order a learner meets them (a lesson's pages, and a set of puzzles in a row), and predict
the next one-letter answer: the same letter, the next letter, the letter before, and the first
letter not yet seen.  Each must score no better than chance (one over the options) + 0.10.
"""

from __future__ import annotations

import re

import pytest

import tutor.puzzles as P
from tutor.puzzles.base import LETTERS, SET_STRIDE
from tutor.teaching.lessons import Block, load_course, puzzle_seed

#: Lesson seeds walked (each lesson's puzzle blocks as a learner meets them).
LESSON_SEEDS = range(4)
#: Sets of puzzles in a row (seeds SET_STRIDE apart) for the kinds that cycle through cases
#: with a one-letter answer: (kind, ruleset, players, puzzles in a row).
SETS = (
    ("claim-window", "parlett", 5, 8),
    ("timeline", None, None, 8),
    ("source-quiz", None, None, 6),
    ("reading", "parlett", 5, 6),
)
SET_STARTS = (7, 123_456_789, 987_654_321_000, 55_555)
MARGIN = 0.10

_OPTION = re.compile(r"^([A-H])\) ", re.M)


def _item(p: P.Puzzle) -> tuple[str, int] | None:
    """``(letter, options)`` when the puzzle is answered with one letter of several listed."""
    right = p.accepted[0].strip().upper() if p.accepted else ""
    options = len(set(_OPTION.findall(p.question)))
    if len(right) == 1 and right in LETTERS and options >= 2 and LETTERS.index(right) < options:
        return right, options
    return None


def _predict(learner: str, seen: list[str], options: int) -> str:
    last = LETTERS.index(seen[-1])
    if learner == "same":
        return seen[-1]
    if learner == "next":
        return LETTERS[(last + 1) % options]
    if learner == "before":
        return LETTERS[(last - 1) % options]
    # "unseen": the first letter not among the answers since all were last seen
    run: list[str] = []
    for s in seen:
        run = (
            []
            if len(set(run) | {s}) > options or (set(run) | {s}) == set(LETTERS[:options])
            else run + [s]
        )
    return next((x for x in LETTERS[:options] if x not in run), "A")


LEARNERS = ("same", "next", "before", "unseen")


def _sequences() -> list[list[tuple[str, int]]]:
    """The one-letter answers of each kind, in the order a learner meets them: per lesson and
    seed (puzzles of one kind across the lesson's pages), and per set of puzzles in a row."""
    out: list[list[tuple[str, int]]] = []
    for lesson in load_course():
        for seed in LESSON_SEEDS:
            by_kind: dict[str, list[tuple[str, int]]] = {}
            for page in lesson.pages:
                for block in page:
                    if not (isinstance(block, Block) and block.kind == "puzzle"):
                        continue
                    d = block.data
                    for n in range(d["count"]):
                        p = P.generate(
                            d["kind"],
                            ruleset=d["ruleset"],
                            players=d["players"],
                            seed=puzzle_seed(seed, lesson.id, block.index, n),
                            difficulty=d["difficulty"],
                        )
                        item = _item(p)
                        if item is not None:
                            by_kind.setdefault(p.kind, []).append(item)
            out.extend(by_kind.values())
    for kind, ruleset, players, count in SETS:
        for start in SET_STARTS:
            items = [
                _item(P.generate(kind, ruleset, players, seed=start + n * SET_STRIDE))
                for n in range(count)
            ]
            out.append([i for i in items if i is not None])
    return out


@pytest.fixture(scope="module")
def sequences() -> list[list[tuple[str, int]]]:
    return _sequences()


@pytest.mark.parametrize("learner", LEARNERS)
def test_a_sequence_learner_scores_no_better_than_chance(sequences, learner):
    """For each puzzle after the first of its kind, the learner predicts its letter from the
    right answers before it; over every such puzzle it scores at most chance + 0.10."""
    hits = chance = items = 0.0
    for seq in sequences:
        for k in range(1, len(seq)):
            letter, options = seq[k]
            guess = _predict(learner, [s for s, _ in seq[:k]], options)
            hits += guess == letter
            chance += 1 / options
            items += 1
    assert items >= 60, items
    score, expected = hits / items, chance / items
    assert score <= expected + MARGIN, (learner, round(score, 3), round(expected, 3), items)


def test_lesson_8s_two_claim_window_puzzles_do_not_follow_each_other():
    """The finding itself: over many lesson seeds, the second claim-window puzzle of lesson 8 is
    not answered by the letter after the first's (nor the same letter) more than chance
    allows."""
    lesson = next(les for les in load_course() if les.id == "oversights")
    block = next(b for b in lesson.blocks("puzzle") if b.data["kind"].startswith("claim-window"))
    d = block.data
    assert d["count"] >= 2
    after = same = 0
    seeds = range(24)
    for seed in seeds:
        a, b = (
            P.generate(
                d["kind"],
                ruleset=d["ruleset"],
                players=d["players"],
                seed=puzzle_seed(seed, lesson.id, block.index, n),
                difficulty=d["difficulty"],
            ).accepted[0]
            for n in (0, 1)
        )
        after += LETTERS.index(b) == (LETTERS.index(a) + 1) % 4
        same += a == b
    assert after / len(seeds) <= 0.25 + 0.15, after
    assert same / len(seeds) <= 0.25 + 0.15, same
