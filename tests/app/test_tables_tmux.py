"""A live table in tmux: the server in one pane, two players at terminals in two others, and a
claim raced between them (issue 22).  The deal is one where the computer dealer leaves a table
mournival in play (found by the same engine and table the server runs, from the seed), so both
people may claim it once play begins: the first claim to reach the server takes the cards, the
other is told it came too late."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time

import pytest
from support import ROOT

from tutor.app.tables.table import Settings, Table
from tutor.engine.cards import RANK_PLURALS
from tutor.engine.levels import level
from tutor.engine.observe import observe

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _seed(rulesets):
    """A seed whose first deal (3 players, two people joining first) has a table mournival
    that the computer dealer leaves in play, with a person to move first."""
    rs = rulesets["parlett"]
    for seed in range(1, 5000):
        s = Settings(rs, 3, level("beginner"), deals=1, pace=1.0, gap=3.0, seed=seed)
        t = Table(1, "X", s)
        people = [t.join("Ann", None, 0.0).seat, t.join("Bob", None, 0.1).seat]
        t.tick(10.0)
        d = t.deal
        if d is None or d.dealer in people or not d.table_mournivals:
            continue
        if all(d.table & m == m for m in d.table_mournivals) and d.to_move in people:
            rank = (d.table_mournivals[0].bit_length() - 1) >> 2
            return seed, people, d.to_move, observe(d, d.to_move).turn_moves()[0], rank
    raise AssertionError("no such seed")


class Tmux:
    def __init__(self, name: str, home):
        self.name = name
        env = dict(
            os.environ,
            LAUGH_HOME=str(home),
            PYTHONPATH=str(ROOT),
            PYTHONIOENCODING="utf-8",
            TERM="xterm-256color",
        )
        env.pop("NO_COLOR", None)
        self.env = env

    def run(self, *args):
        return subprocess.run(
            ["tmux", "-L", self.name, *args],
            capture_output=True,
            text=True,
            env=self.env,
            timeout=20,
        )

    def capture(self, pane: str) -> str:
        return self.run("capture-pane", "-p", "-J", "-S", "-200", "-t", pane).stdout

    def wait_for(self, pane: str, pattern: str, timeout: float = 30) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            text = self.capture(pane)
            if re.search(pattern, text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"{pattern!r} not in pane {pane}:\n{self.capture(pane)}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_people_race_a_claim_in_tmux(tmp_path, rulesets):
    seed, people, eldest, move, rank = _seed(rulesets)
    port = _free_port()
    tm = Tmux(f"laugh-tables-{os.getpid()}", tmp_path)
    laugh = f"{sys.executable} -m tutor"
    cmd = (
        f"cd {ROOT} && {laugh} table serve --port {port} --ruleset parlett --players 3 "
        f"--bots beginner --deals 1 --gap 3 --pace 1 --seed {seed} --people 2 "
        f"--dir {tmp_path}/srv"
    )
    tm.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "40", cmd)
    tm.run("set-option", "-g", "remain-on-exit", "on")
    try:
        out = tm.wait_for("t:0.0", r"laugh table join \S+ \w+ --name")
        code = re.search(r"table join \S+ (\w+) --name", out).group(1)
        panes = {}
        for name in ("Ann", "Bob"):
            tm.run(
                "split-window",
                "-t",
                "t:0",
                "-v",
                f"cd {ROOT} && {laugh} table join ws://127.0.0.1:{port} {code} --name {name}",
            )
            tm.run("select-layout", "-t", "t:0", "even-vertical")
            panes[name] = f"t:0.{len(panes) + 1}"
            tm.wait_for(panes[name], r"You are at table 1")
        by_seat = dict(zip(people, ("Ann", "Bob")))
        first, other = by_seat[eldest], by_seat[next(q for q in people if q != eldest)]
        tm.wait_for(panes[first], r"Your move>", 20)
        tm.run("send-keys", "-t", panes[first], move.notation(), "Enter")
        tm.wait_for(panes[other], r"captures", 10)  # play has begun: the race is open
        # the other person claims first, the one who moved a moment later
        for who in (other, first):
            tm.run("send-keys", "-t", panes[who], "Space")
            tm.wait_for(panes[who], r"claim: which cards\?>", 10)
            tm.run("send-keys", "-t", panes[who], RANK_PLURALS[rank], "Enter")
            time.sleep(0.3)
        won = tm.wait_for(panes[other], r"You claimed first", 10)
        late = tm.wait_for(panes[first], r"Too late", 10)
        assert f"{other} claimed it first" in " ".join(late.split())
        assert "overlooked table mournival" in " ".join(won.split())
        # both leave with Ctrl-C; the server stops on Ctrl-C after saving
        for who in (first, other):
            tm.run("send-keys", "-t", panes[who], "C-c")
            tm.wait_for(panes[who], r"You left the table", 10)
        tm.run("send-keys", "-t", "t:0.0", "C-c")
        tm.wait_for("t:0.0", r"Stopped; saved in", 15)
    finally:
        tm.run("kill-server")
    assert (tmp_path / "srv" / "server.json").exists()
