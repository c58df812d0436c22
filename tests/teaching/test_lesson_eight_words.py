"""Lesson 8's puzzle page says how each of its puzzles is answered (issue 45, finding 8): it
once told the learner to "name the cards you claim" above two multiple-choice puzzles.  Each
sentence asking for cards names the puzzles it is for ("The last two"), and those are the
puzzles answered with cards, not multiple-choice ones."""

from __future__ import annotations

import re

import tutor.puzzles as P
from tutor.teaching.lessons import Block, Segment, open_lesson

_COUNT = {"one": 1, "two": 2, "three": 3, "four": 4}


def _check(lesson) -> None:
    for page in lesson.pages:
        blocks = [x for x in page if isinstance(x, Block) and x.kind == "puzzle"]
        if not blocks:
            continue
        kinds = [b.puzzle()["kind"] for b in blocks for _ in range(b.puzzle()["count"])]
        text = " ".join(" ".join(x.text.split()) for x in page if isinstance(x, Segment))
        for sentence in re.split(r"(?<=[.?!])\s+", text):
            if "name the cards" not in sentence:
                continue
            m = re.match(r"The (first|last) (\w+)", sentence)
            assert m, f"lesson {lesson.number}: {sentence!r} names no puzzles it is for"
            n = _COUNT[m.group(2)]
            said = kinds[:n] if m.group(1) == "first" else kinds[-n:]
            for k in said:  # answered with cards, not a letter among choices
                p = P.generate(k, seed=0)
                assert "choices" not in p.answer, (lesson.number, sentence, k)


def test_lesson_eight_asks_for_cards_only_above_the_puzzles_answered_with_cards():
    _check(open_lesson("08-oversights"))
