"""A live table at three terminals: the server at one, two players at two others, and a claim
raced between them (issue 22).  The terminals are pseudo-terminals drawn by pyte
(tests/terminals.py): the race is the point, not the terminal.  The deal is one where the
computer dealer leaves a table mournival in play (found by the same engine and table the server
runs, from the seed), so both people may claim it once play begins: the first claim to reach the
server takes the cards, the other is told it came too late."""

from __future__ import annotations

import re
import socket
import time

from terminals import PtyTerm

from tutor.app.tables.table import Settings, Table
from tutor.engine.cards import RANK_PLURALS
from tutor.engine.levels import level
from tutor.engine.observe import observe


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


def wait_for(term: PtyTerm, pattern: str, timeout: float = 30) -> str:
    """The terminal's last 200 lines and its screen once ``pattern`` is found in them."""
    return term.wait_until(lambda text: re.search(pattern, text), timeout, history=200)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_people_race_a_claim_at_two_terminals(tmp_path, rulesets):
    seed, people, eldest, move, rank = _seed(rulesets)
    port = _free_port()
    serve = PtyTerm(
        tmp_path,
        80,
        24,
        args=[
            *("table", "serve", "--port", str(port), "--ruleset", "parlett", "--players", "3"),
            *("--bots", "beginner", "--deals", "1", "--gap", "1", "--pace", "1", "--seed"),
            *(str(seed), "--people", "2", "--dir", f"{tmp_path}/srv"),
        ],
        env={"NO_COLOR": ""},
    )
    terms = {}
    try:
        out = wait_for(serve, r"laugh table join \S+ \w+ --name")
        code = re.search(r"table join \S+ (\w+) --name", out).group(1)
        for name in ("Ann", "Bob"):
            terms[name] = PtyTerm(
                tmp_path,
                80,
                24,
                args=["table", "join", f"ws://127.0.0.1:{port}", code, "--name", name],
                env={"NO_COLOR": ""},
            )
            wait_for(terms[name], r"You are at table 1")
        by_seat = dict(zip(people, ("Ann", "Bob")))
        first, other = by_seat[eldest], by_seat[next(q for q in people if q != eldest)]
        wait_for(terms[first], r"Your move>", 20)
        terms[first].keys(move.notation(), "Enter")
        wait_for(terms[other], r"captures", 10)  # play has begun: the race is open
        # the other person claims first, the one who moved a moment later
        for who in (other, first):
            terms[who].keys("Space")
            wait_for(terms[who], r"claim: which cards\?>", 10)
            terms[who].keys(RANK_PLURALS[rank], "Enter")
            time.sleep(0.3)
        won = wait_for(terms[other], r"You claimed first", 10)
        late = wait_for(terms[first], r"Too late", 10)
        assert f"{other} claimed it first" in " ".join(late.split())
        assert "overlooked table mournival" in " ".join(won.split())
        # both leave with Ctrl-C; the server stops on Ctrl-C after saving
        for who in (first, other):
            terms[who].keys("C-c")
            wait_for(terms[who], r"You left the table", 10)
        serve.keys("C-c")
        wait_for(serve, r"Stopped; saved in", 15)
    finally:
        for t in (serve, *terms.values()):
            t.close()
    assert (tmp_path / "srv" / "server.json").exists()
