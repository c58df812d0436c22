"""Every screen of a practice deal shows the engine's position (issue 34 finding 2), and piped
play stays in step (finding 5).

A deal is replayed through :class:`DealPlayer` with a recording terminal: each board drawn (a
frame) is read back (the mover, each seat's hand and won cards, the table) and compared with the
engine's deal at that moment, and at every prompt (and after every claim that comes while one
is open) the last frame must show the position as it stands, whoever changed it."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console
from support import position

from tutor.app.clock import FakeClock, VirtualClock
from tutor.app.learner_io import ScriptedIO
from tutor.app.play import LEVELS, DealPlayer
from tutor.app.play.practice_deal import TURN_PROMPT, WATCH_PROMPT
from tutor.app.play.session import PlayOptions, play_match
from tutor.app.tables.messages import State
from tutor.engine.bots import Bot
from tutor.engine.cards import parse_cards, pretty_cards
from tutor.engine.deal import new_deal
from tutor.engine.levels import make_opponents, seat_names
from tutor.engine.race import Reaction

NAMES = ["You", "Anne", "Ralph", "Mary", "Tom"]
_SEAT = re.compile(
    r"^(?P<mark>▶ |  )(?P<name>\S+)\s+(?:D )?\s*(?:hand (?P<hand>\d+)|out)"
    r"\s+won (?P<won>\d+)"
)
_TABLE = re.compile(r"^Table \((?P<n>\d+)\): (?P<cards>.*)$")


def read_frame(text: str) -> dict:
    """A drawn board read back: the mover's name, each named seat's hand size and won count,
    and the table's count and cards (as written)."""
    frame: dict = {"mover": None, "hands": {}, "won": {}, "table": None, "cards": ""}
    for line in text.splitlines():
        m = _SEAT.match(line)
        if m:
            frame["hands"][m["name"]] = int(m["hand"] or 0)
            frame["won"][m["name"]] = int(m["won"])
            if m["mark"] == "▶ ":
                frame["mover"] = m["name"]
        t = _TABLE.match(line)
        if t:
            frame["table"], frame["cards"] = int(t["n"]), t["cards"]
    return frame


def engine_frame(deal, names) -> dict:
    """What a board of ``deal`` must show, from the engine."""
    over = deal.phase == "over"
    return {
        "mover": None if over or deal.to_move is None else names[deal.to_move],
        "hands": {names[q]: len(deal.hand(q)) for q in range(deal.players)},
        "won": {names[q]: len(deal.won_cards(q)) for q in range(deal.players)},
        "table": len(deal.table_cards()),
        "cards": sorted(pretty_cards([c], True) for c in deal.table_cards()),
    }


class Recorder(ScriptedIO):
    """A scripted terminal that reads back every board it is shown, and checks, at every
    prompt and after every event of a prompt, that the last board is the engine's position."""

    def __init__(self, answers, clock, holder):
        super().__init__(
            answers,
            Console(file=io.StringIO(), width=80, color_system=None, highlight=False),
            clock,
        )
        self.holder = holder
        self.frames: list[dict] = []
        self.checked = 0
        self.stale: list[str] = []

    def show(self, *renderables) -> None:
        c = Console(file=io.StringIO(), width=80, color_system=None, highlight=False)
        c.print(*renderables)
        text = c.file.getvalue()
        super().show(*renderables)
        if "Table (" in text and "hand" in text:
            frame = read_frame(text)
            p = self.holder.get("player")
            if p is not None:  # each frame is the position as it stands when drawn
                want = engine_frame(p.deal, p.names)
                assert _same(frame, want), (frame, want)
            self.frames.append(frame)

    def _check(self, where: str) -> None:
        p = self.holder.get("player")
        if p is None or p.deal.phase == "over" or not self.frames:
            return
        self.checked += 1
        if not _same(self.frames[-1], engine_frame(p.deal, p.names)):
            self.stale.append(f"{where} after {len(p.deal.history)} actions")

    def read(self, prompt, timeout=None, words=(), *, events=(), **kw):
        self._check(f"at {prompt!r}")

        def checked(fire):
            def run():
                closed = fire()
                self._check(f"after an event at {prompt!r}")
                return closed

            return run

        return super().read(
            prompt, timeout, words, events=[(at, checked(f)) for at, f in events], **kw
        )


def _same(frame: dict, want: dict) -> bool:
    cards = frame["cards"]
    return (
        frame["mover"] == want["mover"]
        and frame["hands"] == want["hands"]
        and frame["won"] == want["won"]
        and frame["table"] == want["table"]
        and all(c in cards for c in want["cards"])
    )


class Scripted(Bot):
    def __init__(self, pick=None):
        self.pick = pick

    def choose(self, deal, legal, rng):
        for a in legal:
            if self.pick and self.pick(a):
                return a
        return legal[0]


def test_a_claim_during_the_learners_turn_redraws_the_table(rulesets):
    # Ralph splits the table prial of sevens just before the learner's turn; Anne claims 7♦ 7♠
    # after 1.0 s while the learner (1.5 s) is at the turn prompt: the table is drawn again
    # above the prompt, with Table (2), not the Table (4) it showed when the turn began
    d = position(
        rulesets["parlett"],
        3,
        hands=["2C 3D", "4C 8H", "7H 5D 9S"],
        table="7C 7D 7S 5C 9H",
        dealer=0,
        to_move=2,
    )
    split = lambda a: a.kind == "capture" and a.table == tuple(parse_cards("7C"))  # noqa: E731
    holder: dict = {}
    rec = Recorder(["", "ld"] + [""] * 10, FakeClock([0.0, 1.5]), holder)
    p = DealPlayer(
        d,
        0,
        [None, Scripted(), Scripted(split)],
        bot_rng=random.Random(1),
        reaction_rng=random.Random(2),
        io=rec,
        names=NAMES[:3],
        claiming={1: Reaction(1.0, 1.0), 2: Reaction(2.5, 2.5)},
    )
    holder["player"] = p
    p.run()
    assert p.races and p.races[0].winner == 1
    assert rec.stale == [] and rec.checked >= 3
    text = rec.console.file.getvalue()
    claim = text.index("Anne claims 7♦ 7♠")
    assert "Table (2)" in text[claim : text.index("You lie down")]


@pytest.mark.parametrize("seed", [7, 11, 23])
def test_every_frame_of_a_replayed_deal_is_the_engines_position(rulesets, seed):
    # a whole seeded deal at a terminal's pace (claims come as events while prompts are open):
    # the learner never claims, so the computer players' claims land during the learner's
    # prompts; every frame and every prompt is checked against the engine
    rs = rulesets["parlett"]
    n = 5
    holder: dict = {}

    def answer(prompt):
        p = holder["player"]
        d = p.deal
        if prompt == TURN_PROMPT and d.to_move == 0 and d.phase != "over":
            legal = [a for a in d.legal_actions() if a.kind != "claim"]
            return legal[0].notation()
        return ""

    clock = FakeClock(default=0.7, realtime=True)
    rec = Recorder(answer, clock, holder)
    lv = LEVELS["beginner"]
    deal = new_deal(rs, n, 1, random.Random(seed))
    p = DealPlayer(
        deal,
        0,
        make_opponents(lv, n, 0),
        bot_rng=random.Random(seed),
        reaction_rng=random.Random(seed + 1),
        io=rec,
        names=seat_names(n, 0),
        pace=1.0,
    )
    holder["player"] = p
    p.run()
    assert deal.is_terminal()
    assert rec.stale == [], rec.stale
    assert len(rec.frames) >= len(deal.history) // 2


def _piped(lines, seed=7):
    out = io.StringIO()
    sio = ScriptedIO(
        io.StringIO("".join(x + "\n" for x in lines)),
        Console(file=io.StringIO(), width=80, color_system=None),
        VirtualClock(),
        stdout=out,
    )
    from tutor.engine.sources import default_library

    rs = default_library().rulesets["parlett"]
    try:
        play_match(PlayOptions(rs, 5, 1, 0, LEVELS["beginner"], seed, 1.0, None, False, 0), io=sio)
    except EOFError:
        pass
    return out.getvalue(), sio


def test_piped_moves_wait_for_the_learners_turn():
    # seed 7: Tom deals, the learner is eldest.  The script's moves are read at the learner's
    # turns only: none is read at a watch prompt (where it would be "not your turn")
    moves = ["", "ac ah", "8c", "8d", "5c", "5h", "10c", "jd", "kc"] + ["ld"] * 6
    prompts, _ = _piped(moves)
    for line in prompts.splitlines():
        if line.startswith(WATCH_PROMPT):
            assert line == WATCH_PROMPT.rstrip() or line[len(WATCH_PROMPT) :].startswith(
                ("claim", "quit")
            ), line
    assert "not your turn" not in prompts and "turn, not yours" not in prompts
    assert prompts.count(TURN_PROMPT + "ac ah") == 1


def test_a_piped_claim_is_taken_at_the_watch():
    # a claim line waits for nobody: it is read at the next watch prompt (a false claim here,
    # nothing being open) and play goes on to the learner's turn for the move after it
    prompts, sio = _piped(["", "ac ah", "claim 9s 9h", "8c"])
    watch = [x for x in prompts.splitlines() if x.startswith(WATCH_PROMPT)]
    assert watch and watch[0] == WATCH_PROMPT + "claim 9s 9h"
    assert TURN_PROMPT + "8c" in prompts


def test_a_watcher_at_a_live_table_sees_the_table_after_every_move():
    # a player watching (a computer player has their seat until the deal ends) is sent a state
    # after each move: each is listed and the table drawn again, so the last screen is always
    # the engine's position (it stayed at the first one: Table (12), the first mover marked)
    import queue

    from tutor.app.tables.client import PlayerClient
    from tutor.engine.observe import observe_public
    from tutor.engine.sources import default_library

    class Link:
        inbox: queue.Queue = queue.Queue()

        def send(self, message):
            pass

    rs = default_library().ruleset("parlett", 5)
    deal = new_deal(rs, 5, 0, random.Random(3))
    names = ["Ann", "Bess", "Cat", "Dora", "Eve"]
    holder: dict = {}
    seam = Recorder([], VirtualClock(), holder)
    client = PlayerClient(seam, Link(), "ws://127.0.0.1:1", "CODE", "Ann")
    client.rs, client.names, client.seat, client.seated = rs, names, 0, False
    sent = 0
    checked = 0
    while True:
        obs = observe_public(deal)
        client.handle(
            State(
                table=1,
                deal=1,
                game="",
                names=names,
                totals=[],
                away=[False] * 5,
                cause=None,
                played=0,
                games=1,
                seated=False,
                clock=None,
                obs=obs.to_json(sent),
            )
        )
        sent = len(obs.history)
        if deal.is_terminal():
            break
        want = engine_frame(deal, names)
        assert _same(seam.frames[-1], want), (len(deal.history), seam.frames[-1], want)
        checked += 1
        deal.apply(deal.legal_actions()[0])
    assert checked > 10 and len(seam.frames) >= checked
