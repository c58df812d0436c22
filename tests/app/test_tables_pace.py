"""Waiting and pace at a live table (issue 41, finding 10): a table tells its people what it
waits for and whom (the organiser's start, more people, the other tables); the first deal
waits for every seat unless the organiser says otherwise; a terminal's countdown is drawn again
when the person awaited changes or goes away; the review of a deal stays on a terminal until a
key or the player's turn."""

from __future__ import annotations

import queue
import re
import time

import pytest
from support import wait_until as _wait
from tables_net import RawClient, Server
from terminals import PtyTerm
from test_tables_terminal import _free_port, wait_for

from tutor.app.cli import build_parser
from tutor.app.clock import FakeClock
from tutor.app.commands.table import _settings
from tutor.app.learner_io import ScriptedIO
from tutor.app.tables.client import PlayerClient
from tutor.app.tables.table import Settings, Table
from tutor.engine.levels import level


def _table_settings(rulesets, players=3, **kw):
    kw.setdefault("pace", 0.5)
    kw.setdefault("gap", 1.0)
    kw.setdefault("seed", 7)
    return Settings(rulesets["parlett"], players, level("club"), **kw)


def test_the_first_deal_waits_for_every_seat_by_default():
    """``--people`` left out: the table's player count, not 1 (with 1, the first deal began a
    second after the first person sat, and the rest were told "from the next deal")."""
    args = build_parser().parse_args(
        ["table", "serve", "--players", "5", "--ruleset", "inter-livery-2018"]
    )
    assert _settings(args, 3).people == 5
    args = build_parser().parse_args(["table", "serve", "--players", "4", "--people", "2"])
    assert _settings(args, 1).people == 2


def test_a_table_says_what_it_waits_for_and_whom(rulesets):
    t = Table(1, "C", _table_settings(rulesets, people=3))
    assert t.waits(0.0) == (
        "The table waits for 3 more people (0 of 3 seats taken), or for the organiser to start it."
    )
    t.join("Ann", None, 0.0)
    t.join("Bob", None, 0.1)
    text = t.waits(0.2)
    assert text is not None and "1 more person" in text and "Ann" in text and "Bob" in text
    t.tick(30.0)
    assert t.deal is None  # two of three: no deal begins by itself
    t.join("Cy", None, 31.0)
    assert t.waits(31.0) is None and t.next_wake() == pytest.approx(32.0)
    t.tick(32.0)
    assert t.deal is not None and t.waits(32.0) is None
    held = Table(1, "C", _table_settings(rulesets, hold=True))
    held.join("Ann", None, 0.0)
    said = held.waits(0.0)
    assert said == "The table waits for the organiser to start it (1 of 3 seats taken: Ann)."
    assert held.start(5.0) and held.waits(5.0) is None
    gated = Table(2, "D", _table_settings(rulesets, people=1), gate=lambda table, game: False)
    gated.join("Ann", None, 0.0)
    gated.tick(5.0)
    assert gated.deal is None and "waits for the other tables" in (gated.waits(5.0) or "")


def test_a_held_table_tells_its_players_for_whom_it_waits(tmp_path):
    """Over the network: a player at a table started with ``--hold`` is told at once that it
    waits for the organiser, and who sits there; the next person to sit is named to both;
    once the organiser starts it, the waiting ends (text null) and the deal comes."""
    srv = Server(
        tmp_path,
        tmp_path / "srv",
        "--players",
        "3",
        "--deals",
        "1",
        "--hold",
        "--pace",
        "0",
        "--gap",
        "0",
        "--seed",
        "8",
    )
    ann = bob = org = None
    try:
        ann = RawClient(srv.address, {"type": "join", "code": srv.code, "name": "Ann"}, play=True)
        assert _wait(lambda: ann.of("waiting"))
        first = ann.of("waiting")[0]["text"]
        assert first == "The table waits for the organiser to start it (1 of 3 seats taken: Ann)."
        bob = RawClient(srv.address, {"type": "join", "code": srv.code, "name": "Bob"}, play=True)
        assert _wait(lambda: bob.of("waiting") and len(ann.of("waiting")) >= 2)
        for c in (ann, bob):
            assert "2 of 3 seats taken: " in c.of("waiting")[-1]["text"]
            assert {"Ann", "Bob"} <= set(
                c.of("waiting")[-1]["text"].split(": ")[-1].rstrip(").").split(", ")
            )
        assert not ann.of("state")
        org = RawClient(srv.address, {"type": "watch", "admin": srv.info["admin"]}, play=False)
        assert _wait(lambda: org.of("overview"))
        org.send({"type": "start"})
        assert _wait(lambda: ann.of("state"), 20)
        assert _wait(lambda: ann.of("waiting")[-1]["text"] is None)
    finally:
        for c in (ann, bob, org):
            if c is not None:
                c.close()
        srv.stop()


class _Link:
    """A stand-in link: an inbox the test fills, what is sent kept."""

    def __init__(self):
        self.inbox: queue.Queue = queue.Queue()
        self.sent: list[dict] = []

    def send(self, m):
        self.sent.append(m)

    def close(self):
        pass

    def start(self):
        pass


def test_the_countdown_is_drawn_again_when_the_awaited_person_goes():
    """The prompt's countdown closes (to be drawn again) when the person awaited leaves: the
    same seat, now ``away`` (before, only another seat to move closed it, and the countdown
    stayed on the move's time of someone gone)."""
    io = ScriptedIO([], clock=FakeClock(realtime=True))
    c = PlayerClient(io, _Link(), "ws://x", "CODE", "Ann")
    now = io.clock.now()
    c.clock = (now + 30.0, 30.0, 1, "move")
    look = c._events(5.0)[0][1]
    assert not look()
    c.clock = (now + 30.2, 30.0, 1, "move")  # the same clock, a state later: no redraw
    assert not look()
    c.clock = (now + 20.0, 20.0, 1, "away")  # Bob has left: a computer moves in 20 s
    assert look()


def test_at_40_by_24_the_header_and_your_row_stay_and_no_pile_is_cut():
    """Late in a five-player deal drawn at 40 columns: the whole table fits a 24-line screen
    with its prompt and countdown, the scoring line first and your own row next, and every
    won pile whole (before: each pile beside its row in four columns, a line a rank, and
    the "Last:" moves again below the table: 30 lines and more, the header scrolled off)."""
    import io as _io
    import random

    from rich.console import Console

    from tutor.engine.deal import new_deal
    from tutor.engine.observe import observe
    from tutor.engine.sources import default_library

    rs = default_library().ruleset("inter-livery-2018", 5)
    rng = random.Random(4)
    deal = new_deal(rs, 5, 0, rng)
    while not deal.is_terminal() and sum(map(len, observe(deal, 0).won)) < 30:
        deal.apply(rng.choice(deal.legal_actions()))
    obs = observe(deal, 0)
    console = Console(file=_io.StringIO(), width=40, height=24, color_system=None)
    seam = ScriptedIO([], console)
    c = PlayerClient(seam, _Link(), "ws://x", "CODE", "Ann")
    c.rs, c.obs, c.seat, c.seated, c.deal = rs, obs, 0, True, 1
    c.names = ["Ann", "Bess (computer)", "Anne (computer)", "Ralph (computer)", "Mary (computer)"]
    c.totals = [0, 3, -1, 2, 0]
    c.show()
    lines = [x.rstrip() for x in console.file.getvalue().splitlines() if x.strip()]
    assert len(lines) <= 22, "\n".join(lines)  # and the prompt, the countdown
    assert lines[0].startswith("1 point per pair won") and lines[1].lstrip("▶ ").startswith("You")
    from tutor.puzzles.board import pile_text

    text = "\n".join(lines)
    for q, name in enumerate(
        ["You", "Bess (comp.)", "Anne (comp.)", "Ralph (comp.)", "Mary (comp.)"]
    ):
        if obs.won[q]:
            pile = pile_text(obs.won[q], True).plain
            assert f"{name}: {pile}" in " ".join(text.split()), (name, pile, text)


def _seed_bob_first(rulesets):
    """A seed whose second deal (3 players: Ann, then Bob, then a computer player) a computer
    player deals and Bob begins: with Bob gone, the deal waits for him (``--wait``) before
    Ann's turn comes."""
    for seed in range(1, 500):
        s = Settings(
            rulesets["parlett"],
            3,
            level("beginner"),
            deals=2,
            pace=0.0,
            gap=0.0,
            seed=seed,
            move_time=0.15,
            reserve=0.0,
            people=2,
        )
        t = Table(1, "X", s)
        ann, bob = t.join("Ann", None, 0.0).seat, t.join("Bob", None, 0.0).seat
        now = 0.0
        while len(t.match.deals) < 1 and now < 500:
            now += 0.15
            t.tick(now)
        t.tick(now + 0.1)
        d = t.deal
        if (
            d is not None
            and len(t.match.deals) == 1
            and d.dealer not in (ann, bob)
            and d.to_move == bob
        ):
            return seed
    raise AssertionError("no such seed")


@pytest.mark.parametrize("width", [80, 40])
def test_the_review_stays_until_enter_on_a_terminal(tmp_path, rulesets, width):
    """A terminal at 80x24 and 40x24 (a pseudo-terminal drawn by pyte, tests/terminals.py): the
    deal's settlement and review stay on the screen after the next deal has begun (one line
    says so); Enter draws the table, its header and your own row on the screen (before: the
    next deal's table was drawn at once, and again at each move, 14 lines each).  Bob, a
    script, plays the first deal and leaves: the second waits for him, Ann's turn some
    seconds away."""
    seed = _seed_bob_first(rulesets)
    port = _free_port()
    colour = {"NO_COLOR": ""}
    serve = PtyTerm(
        tmp_path,
        100,
        30,
        env=colour,
        args=[
            *("table", "serve", "--port", str(port), "--ruleset", "parlett", "--players", "3"),
            *("--bots", "beginner", "--deals", "2", "--gap", "1", "--pace", "0", "--seed"),
            *(str(seed), "--people", "2", "--move-time", "0.15", "--reserve", "0", "--wait"),
            *("15", "--dir", f"{tmp_path}/srv"),
        ],
    )
    bob = ann = None
    try:
        out = wait_for(serve, r"laugh table join \S+ \w+ --name")
        code = re.search(r"table join \S+ (\w+) --name", out).group(1)
        ann = PtyTerm(
            tmp_path,
            width,
            24,
            env=colour,
            args=["table", "join", f"ws://127.0.0.1:{port}", code, "--name", "Ann"],
        )
        wait_for(ann, r"You are at table 1")
        bob = RawClient(
            f"ws://127.0.0.1:{port}", {"type": "join", "code": code, "name": "Bob"}, play=True
        )
        assert _wait(lambda: bob.of("deal_over"), 60)
        bob.close()  # gone before the second deal
        wait_for(ann, r"The review stays until you press Enter", 10)
        wait_for(ann, r"has begun: press Enter", 10)
        time.sleep(2.0)
        shown = ann.screen()  # the screen only
        flat = " ".join(shown.split())
        assert "1 of 2 games played" in flat and "Table ·" not in flat, shown
        ann.keys("Enter")
        # the table is drawn a line at a time: wait for its header, then for its own row and pot
        wait_for(ann, r"Table · Deal 2", 10)
        screen = ann.wait_until(
            lambda s: bool(re.search(r"^(▶ )? *You ", s, re.M)) and "Pot 10" in s, 10
        )
        assert "Table · Deal 2" in screen, screen
        ann.keys("C-c")
    finally:
        if bob is not None:
            bob.close()
        for t in (serve, ann):
            if t is not None:
                t.close()


def test_every_command_of_the_organisers_guide_is_one_the_program_takes():
    """docs/ORGANISER.md: every ``laugh`` command in its code blocks (continued lines joined,
    the capitals it writes for what a server prints filled in) is read by the program's own
    parser without an error, and the options the guide names in words exist."""
    import shlex

    from support import ROOT

    text = (ROOT / "docs" / "ORGANISER.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    commands = []
    for block in blocks:
        joined = block.replace("\\\n", " ")
        commands += [
            line.strip() for line in joined.splitlines() if line.strip().startswith("laugh ")
        ]
    commands += re.findall(r"`(laugh table \w+ ws://[^`]+)`", text)
    assert len(commands) >= 8, commands
    parser = build_parser()
    fill = {
        "ADDRESS": "127.0.0.1:7470",
        "ADMIN": "ABCDEFGH2345",
        "CODE1": "ABCDEFG234",
        "TOKEN": "t0ken",
        "NAME": "Ann",
    }
    for cmd in commands:
        words = [
            fill.get(w, w).replace("ws://ADDRESS", "ws://127.0.0.1:7470")
            for w in shlex.split(cmd.replace("…", "x"))
            if w != "--help"
        ]
        try:
            parser.parse_args(words[1:])
        except SystemExit:
            raise AssertionError(f"the guide's command is refused: {cmd}") from None
    serve_help = parser.parse_args(["table", "serve"])  # the options named in words
    for option in re.findall(r"`(--[a-z-]+)", text):
        assert hasattr(serve_help, option[2:].replace("-", "_")) or option in (
            "--name",
            "--livery",
            "--token",
            "--seat-code",
            "--admin",
            "--once",
            "--table",
            "--seat",
            "--help",
        ), option
