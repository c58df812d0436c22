"""A puzzle carries its position, replayed once, and is drawn from its board in one pass
(issue 43 item 3: the drawing went back to the puzzle for a fresh copy of the position, and
to the kind's definition, piece by piece)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from tutor.engine import records
from tutor.engine.deal import Deal
from tutor.engine.errors import LaughError
from tutor.puzzles import generate
from tutor.puzzles.render import board_features, render_explanation, render_puzzle


@pytest.mark.parametrize("kind", ["legal-play", "spot-oversight", "end-of-play", "settlement"])
def test_a_puzzle_is_drawn_and_graded_from_its_one_position(kind, monkeypatch):
    p = generate(kind, seed=5)
    assert p.has_position
    assert p.position is p.position and p.board is p.board
    copy = p.deal()
    assert copy is not p.position and copy.history == p.position.history

    def refused(*args, **kwargs):
        raise AssertionError("the position was copied or replayed again")

    monkeypatch.setattr(Deal, "clone", refused)
    monkeypatch.setattr(records, "replay", refused)
    console = Console(file=io.StringIO(), width=80)
    console.print(render_puzzle(p))
    board_features(p)
    console.print(render_explanation(p, p.grade(p.accepted[0])))
    assert "Puzzle id" in console.file.getvalue()


def test_a_puzzle_without_a_position_has_no_board():
    p = generate("deal-setup", seed=1)
    assert not p.has_position
    assert board_features(p) == set()
    with pytest.raises(LaughError, match="not about a position"):
        _ = p.board
