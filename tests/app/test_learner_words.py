"""Words a learner should not meet (issue 34 finding 7): an engine code in a review, a hold in
brackets, "(of 1)" under the final standings, a player "left the table" after the match, and
a false claim worded three ways (one wording, the engine's, in play, at a table and in the
statistics)."""

from __future__ import annotations

import io
import random

from rich.console import Console
from support import position
from test_play import Scripted
from test_tables import _joined

from tutor.app.clock import VirtualClock
from tutor.app.learner_io import ScriptedIO
from tutor.app.play import DealPlayer
from tutor.app.play.sheet import _option_text
from tutor.app.tables._screens import standings_table
from tutor.app.tables.table import FALSE_CLAIM_TEXT
from tutor.app.views import _NO_KIND
from tutor.engine.reasons import FALSE_CLAIM, false_claim_words


def _text(renderable, width=80) -> str:
    c = Console(file=io.StringIO(), width=width, color_system=None)
    c.print(renderable)
    return c.file.getvalue()


def test_a_false_claim_is_worded_once_everywhere(rulesets):
    # play: a claim of nothing claimable (the learner at seat 0 claims nines at once)
    d = position(
        rulesets["parlett"],
        3,
        hands=["2C 3D", "4C 8H", "7H 5D 9S"],
        table="7C 7D 5C 9H",
        dealer=0,
        to_move=0,
    )
    sio = ScriptedIO(
        ["claim 9h 9s", "quit"],
        Console(file=io.StringIO(), width=80, color_system=None),
        VirtualClock(),
    )
    DealPlayer(
        d,
        0,
        [None, Scripted(), Scripted()],
        bot_rng=random.Random(1),
        reaction_rng=random.Random(2),
        io=sio,
        names=["You", "Anne", "Ralph"],
    ).run()
    played = sio.console.file.getvalue()
    said = false_claim_words()
    assert said == "A false claim: nothing of that is claimable" and FALSE_CLAIM in said.lower()
    assert said + " (" in played and "Nothing of that is claimable:" not in played
    assert FALSE_CLAIM_TEXT.startswith(said)  # a live table's reply
    assert _NO_KIND == said  # the statistics' row


def test_a_hold_is_said_in_words_not_in_brackets():
    text = _text(_option_text(None, ["You", "Anne"], 0, True, False))
    assert text.strip() == "You neither claim nor declare"
    assert "(" not in text and "yet" not in text


def test_the_final_standings_do_not_count_rounds_and_a_round_does():
    from tutor.app.tables.messages import Standings

    final = _text(
        standings_table(
            Standings(round=1, rounds=1, final=True, duplicate=False, rows=[], teams=[])
        )
    )
    assert final.startswith("Final standings") and "(of 1)" not in final
    mid = _text(
        standings_table(
            Standings(round=1, rounds=3, final=False, duplicate=False, rows=[], teams=[])
        )
    )
    assert mid.startswith("Standings after round 1 (of 3)")


def test_a_table_review_names_a_missed_declaration_in_words(rulesets):
    # a laid-down declaration in a table's review: "A dead pair of fours could have been
    # declared", never the engine's code "(declare_dead_pair)"
    # (a live table's review is the practice deal's: tutor.app.play.mistakes)
    from tutor.app.play import mistakes
    from tutor.app.tables import _review
    from tutor.engine.cards import parse_cards
    from tutor.engine.deal import Action

    a = Action(0, "declare_dead_pair", cards=tuple(parse_cards("4C 4S")))
    m = mistakes.laid_down_holding(a, 3)
    assert m.text == "You lay down holding a dead pair of fours."
    assert "declare_dead_pair" not in m.text + m.reason
    import inspect

    src = inspect.getsource(_review)
    assert "({a.kind})" not in src and "laid_down_holding" in src


def test_nobody_has_left_the_table_once_the_match_is_over(rulesets):
    t, drv = _joined(rulesets, people=("Ann", "Bob"), deals=1, lv="beginner")
    drv.run(lambda: t.over)
    q = next(iter(drv.people))
    before = len(t.outbox)
    t.leave(q, drv.now)
    said = [m["text"] for _, m in t.outbox[before:] if m["type"] == "say"]
    assert not any("has left the table" in s for s in said), said
