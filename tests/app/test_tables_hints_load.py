"""Hints under real load (issue 41, finding 8): players who ask a hint and move at once never
fill the hints' queue, and a patient player's hint is still answered; the hint worker ends with
the server however the server ends (``kill -9``, SIGHUP).  A real ``laugh table serve`` on
127.0.0.1 and a free port; every loop bounded in count and time."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest
from support import LaughProcess
from support import wait_until as _wait
from tables_net import RawClient, env

from tutor.engine.records import action_to_json

pytest.importorskip("websockets")


def _serve(tmp_path, *args):
    """``laugh table serve`` with hints (forked warm: :class:`~support.LaughProcess`), each
    table beginning with its first person; the process and its JSON line."""
    folder = tmp_path / "srv"
    extra = dict(env(tmp_path), LAUGH_PURE_PYTHON="1")
    argv = [
        *("table", "serve", "--port", "0", "--json", "--dir", str(folder), "--hint"),
        *("--pace", "0", "--gap", "0.1", "--move-time", "0", "--people", "1", *args),
    ]
    proc = LaughProcess(argv, extra, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return proc, json.loads(proc.stdout.readline())


def _impatient(c, m):
    """Ask a hint, then move at once without waiting for it (each turn)."""
    if (
        m["type"] == "state"
        and m["seated"]
        and c.obs is not None
        and c.obs.my_turn
        and c.obs.turn_moves()
    ):
        c.seq += 1
        c.send({"type": "hint", "seq": c.seq})
        c.seq += 1
        c.send({"type": "act", "action": action_to_json(c.obs.turn_moves()[0]), "seq": c.seq})


def test_ten_impatient_hinters_never_fill_the_queue_and_a_patient_hint_is_answered(tmp_path):
    """Ten people, each at a table of their own, ask a hint and move at once, turn after turn;
    an eleventh asks and waits.  Each impatient hint is answered "dropped" (its position moved
    on), hardly any "busy" (only where more ask in one moment than the queue holds); the patient
    player's hints are answered with a hint.  Before the fix the
    dropped hints were still worked out one after the other, the queue stayed full, and the
    impatient and the patient alike were told "busy"."""
    proc, info = _serve(
        tmp_path,
        "--tables",
        "11",
        "--players",
        "3",
        "--deals",
        "50",
        "--hints",
        "1000",
        "--seed",
        "4",
    )
    codes = [t["code"] for t in info["tables"]]
    clients = []
    patient_asked: dict[int, float] = {}
    lock = threading.Lock()

    def patient(c, m):
        with lock:
            if (
                m["type"] == "state"
                and m["seated"]
                and c.obs is not None
                and c.obs.my_turn
                and c.obs.turn_moves()
                and c.obs.started
            ):
                key = (m["deal"], len(c.obs.history))
                if key in patient_asked or len(patient_asked) >= 3:
                    return
                patient_asked[key] = time.monotonic()
                c.seq += 1
                c.send({"type": "hint", "seq": c.seq})
            elif (
                m["type"] == "reply"
                and m.get("to") == "hint"
                and c.obs is not None
                and c.obs.my_turn
                and c.obs.turn_moves()
            ):
                c.seq += 1
                c.send(
                    {"type": "act", "action": action_to_json(c.obs.turn_moves()[0]), "seq": c.seq}
                )

    try:
        for k in range(10):
            clients.append(
                RawClient(
                    info["address"],
                    {"type": "join", "code": codes[k], "name": f"Imp{k}"},
                    play=False,
                    on_message=_impatient,
                )
            )

        def impatient_answers() -> int:
            return sum(1 for c in clients for m in c.of("reply") if m.get("to") == "hint")

        # the ten are at it before the patient one asks: fifty of their hints answered (a
        # fixed 2 s here had the ten tables play flat out for nothing)
        assert _wait(lambda: impatient_answers() >= 50, 30), impatient_answers()
        pat = RawClient(
            info["address"],
            {"type": "join", "code": codes[10], "name": "Pat"},
            play=False,
            on_message=patient,
        )

        def answers():
            return [m for m in pat.of("reply") if m.get("to") == "hint"]

        assert _wait(lambda: len(answers()) >= 3, 90), (pat.messages[-3:], patient_asked)
        impatient = [m for c in clients for m in c.of("reply") if m.get("to") == "hint"]
    finally:
        for c in clients + ([pat] if "pat" in locals() else []):
            c.close()
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
        proc.stdout.close(), proc.stderr.close()
    busy = [m for m in impatient if "busy" in m["text"]]
    assert len(impatient) >= 50, len(impatient)
    # eleven people at eleven tables may ask in the same moment, more than the queue holds
    # (QUEUE): a few "busy" in such a burst is the queue's bound at work; before the fix nearly
    # every hint was refused so (313 of 314), the stale ones never leaving the queue
    assert len(busy) <= len(impatient) // 20, (len(busy), len(impatient))
    # refused: dropped (the position moved on), the table's budget when this client, which
    # asks at every state that shows its turn, was sent two states of one turn (a claim's line
    # goes after the state that shows the claim), or busy in a burst (bounded just above)
    assert all(
        m["text"]
        in (
            "The hint came after the position changed: it is dropped.",
            "One hint a turn: you have had this turn's.",
            "The hints are busy: ask again in a moment.",
        )
        for m in impatient
        if not m["ok"]
    ), {m["text"] for m in impatient if not m["ok"]}
    assert any(m["text"].endswith("it is dropped.") for m in impatient)
    assert [m["ok"] for m in answers()] == [True, True, True], answers()
    assert all(m["text"].startswith("Hint: ") for m in answers())
    # the worker was given hardly any of the impatient hints (each was dropped before its
    # turn came): the patient player's three, and a few at most
    log = (tmp_path / "srv" / "server.log").read_text()
    worked = [int(x) for x in re.findall(r"hints: (\d+) worked out", log)]
    assert worked and worked[-1] <= 3 + 10, log[-500:]


def _children(pid: int) -> list[int]:
    """Every descendant of process ``pid`` (from /proc)."""
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            kids.setdefault(ppid, []).append(int(d))
    out, todo = [], [pid]
    while todo:
        for k in kids.get(todo.pop(), []):
            out.append(k)
            todo.append(k)
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGHUP])
def test_the_hint_worker_ends_with_the_server_however_it_ends(tmp_path, sig):
    """A server with hints (its worker started, a hint asked) ended by ``kill -9`` or SIGHUP:
    within a few seconds neither the worker nor multiprocessing's resource tracker is left
    (before: both stayed, about 110 MB each)."""
    proc, info = _serve(tmp_path, "--players", "3", "--deals", "5", "--seed", "2")
    c = RawClient(
        info["address"],
        {"type": "join", "code": info["tables"][0]["code"], "name": "Ann"},
        idle_from_deal=1,
    )
    try:
        assert _wait(lambda: c.obs is not None and c.obs.my_turn, 20)
        c.send({"type": "hint", "seq": 7})
        assert _wait(lambda: len(_children(proc.pid)) >= 2, 20), _children(proc.pid)
        helpers = _children(proc.pid)
        proc.send_signal(sig)
        proc.wait(20)
    finally:
        c.close()
        proc.stdout.close(), proc.stderr.close()
    _wait(lambda: not [p for p in helpers if _alive(p)], 10)
    left = [p for p in helpers if _alive(p)]
    for p in left:
        os.kill(p, signal.SIGKILL)  # never left running, whatever the test says
    assert left == [], f"{len(left)} of the server's {len(helpers)} helper processes outlived it"
