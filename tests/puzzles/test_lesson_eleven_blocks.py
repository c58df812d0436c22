"""Lesson 11's puzzles as its page teaches them (issue 42, 6).

- The score sheet: the lesson says it is open whether the practice game is "game 1 of round 1,
  or a game played before it" and to agree which; the puzzle says which its match took, and
  grades by that (before, it took one reading silently and marked the other wrong).
- The play-on settlement block: the captures the last player in made alone are shown apart
  from the cards won before, and the puzzle asks the last player in (before, 21 of 50 seeds
  asked someone else, and the board's "Cards won during play" already held those captures).
"""

from __future__ import annotations

import io
import re

from rich.console import Console

from tutor import puzzles as P
from tutor.puzzles.render import render_puzzle


def _screen(p) -> str:
    buf = io.StringIO()
    Console(file=buf, width=100, color_system=None).print(render_puzzle(p))
    return buf.getvalue()


def test_the_score_sheet_puzzle_states_the_practice_game_it_takes_and_grades_by_it():
    for seed in range(8):
        p = P.generate("score-sheet", "inter-livery-2018", 5, seed)
        flat = " ".join(p.question.split())
        assert "game 1 of round 1 or a game played before it" in flat
        m = re.search(r"agreed before they started that it is (game (\d+) of round (\d+))", flat)
        assert m, flat
        number, rnd = int(m.group(2)), int(m.group(3))
        rows = p.answer["sheet"]
        # the stated game is the one left out; every other game counts
        want = [
            sum(
                r["points"]
                for r in rows
                if r["round"] == k and (r["round"], r["number"]) != (rnd, number)
            )
            for k in (1, 2)
        ]
        said = f"{want[0]} {want[1]} {sum(want)}"
        assert p.grade(said).correct, (said, p.answer)


def test_the_play_on_block_asks_the_last_player_in_and_shows_the_captures_made_alone_apart():
    asked_other = 0
    shown = 0
    for seed in range(50):
        p = P.generate("settlement/play-on@11-tournament", "inter-livery-2018", 5, seed)
        deal = p.deal()
        r = deal.result
        asked_other += r.last_in not in p.answer["asked"]
        alone = [c for a in deal.history if a.kind == "play_on_capture" for c in a.cards + a.table]
        assert alone, p.id
        screen = _screen(p)
        assert "Captured alone by" in screen
        # the last player's line counts the cards won before playing on, not those alone
        s = r.settlement[r.last_in]
        line = next(x for x in screen.splitlines() if re.match(rf"\s+Player {r.last_in}\b", x))
        assert re.search(rf"\s{s.won_in_play - len(alone)}(:|$)", line), (line, s)
        shown += 1
    assert asked_other == 0 and shown == 50
