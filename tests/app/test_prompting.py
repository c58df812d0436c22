"""The one prompt loop of a practice deal and a live table's client (issue 43 item 3): a line
typed at either front walks the same path and is answered in the same words."""

from __future__ import annotations

import io
import queue
import random

from rich.console import Console

from tutor.app.learner_io import ScriptedIO
from tutor.app.play.practice_deal import DealPlayer
from tutor.app.play.prompting import PromptLoop, refused_line
from tutor.app.tables import protocol as P
from tutor.app.tables.client import PlayerClient
from tutor.app.tables.table import Settings, Table
from tutor.engine.levels import level, make_opponents

# Lines a person may mistype at their turn: a word that is no card, a
# card not held, a move the position forbids, a declaration that names nothing.
BAD = ["zz", "7x 9y", "lie down", "declare", "take", "capture", "end turn", "2c 2d 2h 2s"]


class _TableLink:
    """The client's network side on a real table in the same process: each message is read
    as the server reads it (:func:`~tutor.app.tables.protocol.client_message`), acted on by the
    table, and its reply read back as the client reads it."""

    def __init__(self, table: Table, seat: int, now: float):
        self.table, self.seat, self.now = table, seat, now
        self.inbox: queue.Queue = queue.Queue()

    def send(self, message):
        msg = P.client_message({"v": P.VERSION, **message})
        if isinstance(msg, P.ClaimMessage):
            self.table.claim(self.seat, msg, self.now)
        elif isinstance(msg, P.ActMessage):
            self.table.act(self.seat, msg, self.now)
        out, self.table.outbox = self.table.outbox, []
        for target, m in out:
            if target == self.seat and m.get("type") == "reply":
                self.inbox.put(P.read_server(P.encode(m)))


def _console() -> Console:
    return Console(file=io.StringIO(), width=1000, color_system=None, highlight=False)


def _lines(console: Console) -> list[str]:
    return [x.rstrip() for x in console.file.getvalue().splitlines() if x.strip()]


def _fronts(rulesets):
    """A table whose one person (Ann) is to move, and a practice deal at the same position:
    (table, seat, now, the practice player, the table's client)."""
    rs = rulesets["parlett"]
    t = Table(
        1,
        "ABCD2345",
        Settings(rs, 3, level("club"), pace=0.5, gap=1.0, seed=7, deals=1),
        token=iter([f"tok{k}" for k in range(10)]).__next__,
    )
    seat = t.join("Ann", None, 0.0).seat
    now = 0.0
    for _ in range(2000):
        if t.playing and t.deal is not None and t.deal.to_move == seat:
            break
        w = t.next_wake()
        assert w is not None, "the table came to rest before Ann's turn"
        now = max(now, w)
        t.tick(now)
    assert t.playing and t.deal.to_move == seat
    t.outbox.clear()
    deal = t.deal.clone()
    practice = DealPlayer(
        deal,
        seat,
        make_opponents(level("club"), 3, seat),
        bot_rng=random.Random(1),
        reaction_rng=random.Random(1),
        io=ScriptedIO([], _console()),
        names=list(t.names),
    )
    client = PlayerClient(
        ScriptedIO([], _console()), _TableLink(t, seat, now), "ws://127.0.0.1:1", "ABCD", "Ann"
    )
    return t, seat, now, practice, client


def test_both_fronts_answer_the_same_bad_input_with_the_same_line(rulesets):
    """Issue 43: the practice deal and the table client each had their own loop; the table's
    server answered "zz is not a card." where a practice deal said "... Type help for the
    moves.", and "it is Anne's turn, not yours" came with a full stop at one and without at
    the other.  Now one line, whichever front: the engine's reason, read once
    (:func:`~tutor.app.play.inputs.read_move`, the server's reading too), said by the one loop
    (:func:`refused_line`)."""
    t, seat, now, practice, client = _fronts(rulesets)
    assert isinstance(practice, PromptLoop) and isinstance(client, PromptLoop)
    history = len(t.deal.history)
    for line in BAD:
        said = []
        for front in (practice, client):
            before = len(_lines(front.io.console))
            status = front.answer(line, now, turn=True)
            said.append(_lines(front.io.console)[before:])
            assert status in ("error", "acted"), (line, status)
        assert said[0] == said[1], line
        assert len(said[0]) == 1, (line, said[0])  # one line, never a list of moves or a trace
    assert len(t.deal.history) == history and len(practice.deal.history) == history
    out = _lines(practice.io.console)
    unread = [x for x in out if x.startswith("'zz'")]
    assert unread and unread[0].endswith(". Type help for the moves.")
    assert all(x.endswith(".") for x in out), out
    # a rank letter alone: the same line, but for where it leaves
    for front, where in ((practice, "deal"), (client, "table")):
        assert front.answer("q", now, turn=True) == ("error" if front is practice else "acted")
        last = _lines(front.io.console)[-1]
        assert f"(q alone is a rank: to leave the {where}, type quit or :q.) Type help" in last


def test_the_table_says_leave_the_table_where_a_practice_deal_says_the_deal():
    assert refused_line("q is not a card.", "q", True, "table") == (
        "q is not a card. (q alone is a rank: to leave the table, type quit or :q.) "
        "Type help for the moves."
    )
    assert refused_line("it is Anne's turn, not yours.") == "it is Anne's turn, not yours."


def test_the_moves_the_hand_and_a_pass_at_your_turn_are_said_the_same_at_both(rulesets):
    t, seat, now, practice, client = _fronts(rulesets)
    client.obs, client.rs, client.names = t.view(seat), t.deal.ruleset, list(t.names)
    for line in ("moves", "hand", "help"):
        said = []
        for front in (practice, client):
            before = len(_lines(front.io.console))
            assert front.answer(line, now, turn=True) == "info"
            said.append(_lines(front.io.console)[before:])
        if line == "help":  # a table's help says how a seat is kept; the moves are the same
            assert said[0][:4] == said[1][:4]
        else:
            assert said[0] == said[1] and said[0], line


def test_the_loops_lines_and_prompts_are_written_once():
    """The four messages the two loops had copied (the claim key's, a claim taken back, the
    pick among moves, the pass at your turn) and the prompts both show are written in one
    module, :mod:`tutor.app.play.prompting`; the two fronts use its names."""
    import pathlib
    import re

    import tutor
    from tutor.app.play import practice_deal, prompting
    from tutor.app.tables import client

    root = pathlib.Path(tutor.__file__).parent
    for text in (
        "You claim! Name the cards",
        "Type a number from 1 to",
        "It is your turn: capture",
        '"No claim."',
        r"^(TURN|WATCH|WHICH)_PROMPT\s*=",
    ):
        found = [
            f.relative_to(root).as_posix()
            for f in root.rglob("*.py")
            if re.search(text, f.read_text("utf-8"), re.M)
        ]
        assert found == ["app/play/prompting.py"], (text, found)
    # what may be done out of turn is the engine's sentence (Game.at_any_time), said once
    found = [
        f.relative_to(root).as_posix()
        for f in root.rglob("*.py")
        if "You may claim an oversight at any time" in f.read_text("utf-8")
    ]
    assert "engine/reasons.py" in found and all(f.startswith("engine/") for f in found), found
    for name in ("TURN_PROMPT", "WATCH_PROMPT", "WHICH_PROMPT"):
        assert getattr(practice_deal, name) is getattr(client, name) is getattr(prompting, name)
