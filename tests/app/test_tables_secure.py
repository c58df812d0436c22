"""Live tables' secrets and files (issue 41, findings 1, 2, 4 and 12): a seed no player can
find from the cards they see, one process per server folder and per saved match, a table that
pauses when its journal cannot be written, files only their owner reads, no partial file
where a write failed, and a bad ``Host`` header refused as such.

Before: the server drew its seed from 1 to 10**6 (found from one hand in 10 s); two servers ran
on one folder and left it unresumable; a full disk let the table play on with nothing saved;
a ``--dir`` that existed left the journal (the whole pack) 0644; a duplicate ``Host`` got 500.
"""

from __future__ import annotations

import functools
import json
import os
import random

import pytest
from support import wait_until as _wait_for

from tutor.app.cli import build_parser
from tutor.app.commands.table import _settings
from tutor.app.tables._state import SECRET_SEED_DIGITS, load_state, secret_seed, state_json
from tutor.app.tables.serve import new_tables
from tutor.engine.match import Match
from tutor.engine.sources import default_library

#: ``laugh``'s parser, built once for the module (each parse gives a namespace of its own).
_parser = functools.cache(build_parser)


def _serve_args(*extra: str):
    return _parser().parse_args(["table", "serve", "--players", "3", *extra])


# -- finding 1: the seed ----------------------------------------------------------------------


def test_a_seed_left_out_is_128_secret_bits_from_the_system():
    seeds = [_settings(_serve_args(), 1).seed for _ in range(64)]
    assert all(isinstance(s, str) and len(s) == SECRET_SEED_DIGITS for s in seeds)
    assert len(set(seeds)) == 64
    bits = [int(s, 16) for s in seeds]
    # every one of the 128 bits is drawn: each is 0 in some seed and 1 in another (a seed from
    # a small space, say 1 to 10**6, leaves the high bits 0 in every draw)
    assert all(
        any(b >> i & 1 for b in bits) and not all(b >> i & 1 for b in bits) for i in range(128)
    )


def test_the_secret_seed_drives_every_table_and_its_computer_players():
    s = _settings(_serve_args("--tables", "2"), 2)
    tables, _, _ = new_tables(s, 2)
    for t in tables:
        assert s.seed in str(t.match.seed)  # the whole 128 bits, not a part
    assert tables[0].match.new_deal().pack != tables[1].match.new_deal().pack
    # the computer players' randomness is drawn from the secret seed, not from a public one
    other = _settings(_serve_args(), 1)
    a, b = new_tables(s, 1)[0][0], new_tables(other, 1)[0][0]
    assert [a.bot_rng.random() for _ in range(4)] != [b.bot_rng.random() for _ in range(4)]


def test_a_hand_found_by_no_seed_of_the_old_small_space():
    """The attack of finding 1, bounded: the first 5,000 seeds of the old space (1 to 10**6)
    tried against a served table's first hand find nothing (the full space: the slow test)."""
    s = _settings(_serve_args("--deals", "2"), 1)
    t = new_tables(s, 1)[0][0]
    hand = t.match.new_deal().pack
    rs = s.ruleset
    assert not any(
        Match.start(rs, 3, f"{k}/table-1", 2).new_deal().pack == hand for k in range(1, 5_001)
    )
    # the same search finds the seed of a table served as before (a number from that space)
    old = Match.start(rs, 3, f"{random.Random(5).randrange(1, 5_001)}/table-1", 2)
    assert any(
        Match.start(rs, 3, f"{k}/table-1", 2).new_deal().pack == old.new_deal().pack
        for k in range(1, 5_001)
    )


@pytest.mark.slow
def test_the_whole_old_space_finds_nothing():
    s = _settings(_serve_args("--deals", "2"), 1)
    t = new_tables(s, 1)[0][0]
    hand = t.match.new_deal().pack
    assert not any(
        Match.start(s.ruleset, 3, f"{k}/table-1", 2).new_deal().pack == hand
        for k in range(1, 10**6)
    )


def test_a_secret_seed_is_saved_and_resumed(tmp_path):
    from tutor.app.tables._server_files import ServerFiles

    s = _settings(_serve_args("--deals", "2"), 1)
    tables, admin, _ = new_tables(s, 1)
    files = ServerFiles(tmp_path, lambda text: None)
    assert files.save_state(state_json(tables, admin, 0))
    files.save_match(1, tables[0].match.dumps)
    back, _, _ = load_state(tmp_path, default_library().rulesets)
    assert back[0].settings.seed == s.seed and back[0].match.seed == tables[0].match.seed
    # a seed that is neither a number nor 32 hex digits is refused in one line
    obj = json.loads((tmp_path / "server.json").read_text())
    obj["settings"]["seed"] = "guessable"
    (tmp_path / "server.json").write_text(json.dumps(obj))
    with pytest.raises(Exception, match=r"settings.seed"):
        load_state(tmp_path, default_library().rulesets)


def test_a_chosen_seed_is_said_to_be_public(capsys, tmp_path):
    from tutor.app.tables.serve import _start_lines

    tables, admin, _ = new_tables(_settings(_serve_args("--seed", "12"), 1), 1)
    _start_lines("127.0.0.1", "ws://127.0.0.1:1", tables, admin, tmp_path)
    said = " ".join(capsys.readouterr().out.split())
    assert "Seed 12 chosen with --seed: the deals can be known by anyone who knows it" in said
    tables, admin, _ = new_tables(_settings(_serve_args(), 1), 1)
    _start_lines("127.0.0.1", "ws://127.0.0.1:1", tables, admin, tmp_path)
    assert "can be known" not in capsys.readouterr().out


def test_secret_seed_is_hex_of_its_length():
    s = secret_seed()
    assert len(s) == SECRET_SEED_DIGITS and int(s, 16) >= 0


# -- finding 2: one process a folder, one a saved match ------------------------------------------


def _laugh(home, *args, stdin="", timeout=60):
    from support import laugh_process
    from tables_net import env

    return laugh_process(list(args), stdin, env(home), timeout=timeout)


def test_a_second_server_on_a_folder_is_refused_naming_the_first(tmp_path, capsys):
    pytest.importorskip("websockets")
    import signal

    from tables_net import Server

    from tutor.app.cli import main

    folder = tmp_path / "srv"
    first = Server(
        tmp_path, folder, "--players", "3", "--deals", "2", "--seed", "3", "--hold", "--hint"
    )  # its hint worker: a process of its own
    refusal = (
        f"laugh: the tables' folder {folder} is in use by another laugh (process "
        f"{first.proc.pid}): only one process at a time plays on it; stop that one "
        "first"
    )
    try:
        assert (folder / "server.pid").read_text().strip() == str(first.proc.pid)
        second = _laugh(
            tmp_path, "table", "serve", "--port", "0", "--json", "--dir", str(folder), "--resume"
        )
        assert second.returncode == 1, second.stderr
        assert second.stderr.splitlines() == [refusal] and second.stdout == ""
        # a new server there (this test's process): refused the same way, before anything
        assert (
            main(
                ["table", "serve", "--port", "0", "--json", "--dir", str(folder), "--players", "3"]
            )
            == 1
        )
        out = capsys.readouterr()
        assert out.err.splitlines() == [refusal] and out.out == ""
    finally:
        _wait_for(lambda: _children(first.proc.pid), 10)
        kids = _children(first.proc.pid)
        first.stop(signal.SIGKILL)  # killed: the system lets the lock go with it, even
    try:  # while the hint worker outlives it
        again = Server(tmp_path, folder, resume=True)
        try:
            assert again.info["tables"][0]["seed"] == "3/table-1"
        finally:
            assert again.stop() == 0
    finally:
        for pid in kids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (from /proc), as they are now."""
    import glob

    out = []
    for stat_file in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat_file) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat_file.split("/")[2]))
    return out


def test_a_second_process_on_a_saved_match_is_refused_naming_the_first(tmp_path):
    import subprocess
    import sys

    from support import ROOT
    from tables_net import env

    from tutor.app.matches import save_match

    rs = default_library().rulesets["parlett"]
    path = tmp_path / "m.json"
    save_match(
        Match.start(
            rs, 3, 5, deals=3, meta={"seat": 0, "level": "beginner", "pace": 0.0, "started_at": 0}
        ),
        path,
    )
    first = subprocess.Popen(
        [sys.executable, "-m", "tutor", "match", "--resume", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env(tmp_path),
        cwd=str(ROOT),
    )
    try:
        pid = tmp_path / ".m.json.pid"
        assert _wait_for(lambda: pid.exists() and pid.read_text().strip() == str(first.pid))
        second = _laugh(tmp_path, "match", "--resume", str(path))
        assert second.returncode == 1
        assert second.stderr.splitlines() == [
            f"laugh: the saved match {path} is in use by another laugh (process {first.pid}): "
            "only one process at a time plays on it; stop that one first"
        ]
        assert "Resumed" not in second.stdout
    finally:
        first.kill()
        first.wait(10)
        first.stdin.close()
    third = _laugh(tmp_path, "match", "--resume", str(path), stdin="quit\n")
    assert third.returncode == 0, third.stderr
    assert "in use" not in third.stderr


# -- finding 4: a full disk pauses the table; a kill then resumes --------------------------------


@pytest.fixture
def small_disk(tmp_path):
    """A real tmpfs of 2 MB at ``tmp_path/disk`` (root: as CI runs), unmounted after; the test
    is skipped where it cannot be mounted (a size limit cannot be set on a running server)."""
    import os
    import shutil
    import subprocess

    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a tmpfs needs root")
    root = tmp_path / "disk"
    root.mkdir()
    if (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=2m,mode=0755", "tmpfs", str(root)],
            capture_output=True,
        ).returncode
        != 0
    ):
        pytest.skip("tmpfs could not be mounted")
    try:
        yield root
    finally:
        subprocess.run(["umount", "-l", str(root)], capture_output=True)


def _fill(root) -> None:
    import os

    for name, size in (("filler", 65536), ("filler2", 512), ("filler3", 1)):
        fd = os.open(root / name, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            while True:
                os.write(fd, b"\0" * size)
        except OSError:
            pass
        finally:
            os.close(fd)


def _free(root) -> None:
    for name in ("filler", "filler2", "filler3"):
        (root / name).unlink(missing_ok=True)


def _said(c, words: str) -> int:
    return sum(1 for m in c.messages if m["type"] == "say" and words in m["text"])


def test_a_full_disk_pauses_the_table_until_space_returns_and_a_kill_then_resumes(
    tmp_path, small_disk
):
    pytest.importorskip("websockets")
    import signal
    import time

    from tables_net import RawClient, Server

    from tutor.app.tables._state import load_state

    folder = small_disk / "srv"
    srv = Server(
        tmp_path,
        folder,
        "--players",
        "3",
        "--deals",
        "1000",
        "--bots",
        "beginner",
        "--pace",
        "0.01",
        "--gap",
        "0",
        "--wait",
        "0.1",
        "--seed",
        "7",
        "--move-time",
        "0",
    )
    c = RawClient(srv.address, {"type": "join", "code": srv.code, "name": "Ann"})
    org = RawClient(srv.address, {"type": "watch", "admin": srv.info["admin"]}, play=False)
    try:
        assert _wait_for(lambda: len(c.of("state")) > 5, 20)
        _fill(small_disk)
        assert _wait_for(lambda: _said(c, "is paused"), 30), c.messages[-3:]
        assert _wait_for(
            lambda: (
                _said(org, "Table 1 is paused")
                and any(m.get("event") == "paused" for m in org.of("log"))
            ),
            10,
        )
        # an organiser who comes now sees the table as it was last shown, not what is unsaved
        paused_at = next(k for k, m in enumerate(org.messages) if m["type"] == "say")
        last = [m for m in org.messages[:paused_at] if m["type"] == "overview"][-1]
        org2 = RawClient(srv.address, {"type": "watch", "admin": srv.info["admin"]}, play=False)
        assert _wait_for(lambda: org2.of("overview"), 10)
        assert org2.of("overview")[0]["tables"] == last["tables"]
        org2.close()
        c.send({"type": "ready"})  # a person's intent while paused: refused, said why
        assert _wait_for(lambda: any("table 1 is paused" in m["text"] for m in c.of("refused")), 10)
        time.sleep(0.5)  # paused: nothing more is shown ...
        shown = len(c.of("state"))
        time.sleep(1.0)
        assert len(c.of("state")) == shown
        _free(small_disk)  # ... until the disk has room again
        assert _wait_for(lambda: _said(c, "saved again: play goes on"), 30)
        assert _wait_for(lambda: len(c.of("state")) > shown + 3, 20)
        _fill(small_disk)  # full again, then killed while paused
        assert _wait_for(lambda: _said(c, "is paused") >= 2, 30)
    finally:
        srv.stop(signal.SIGKILL)
        c.close()
        org.close()
    assert any(m.get("event") == "resumed" for m in org.of("log"))
    _free(small_disk)
    obs, last = c.obs, c.of("state")[-1]
    tables, _, _ = load_state(folder, default_library().rulesets)  # as --resume reads it
    t = tables[0]
    m = t.match
    game = last["played"] if not obs.over else last["played"] - 1
    seen = list(obs.history)
    if game < len(m.deals):
        assert list(m.deals[game].history[: len(seen)]) == seen
    else:
        assert game == len(m.deals) and t._partial is not None
        assert list(t._partial.history[: len(seen)]) == seen  # every action shown is kept
    again = Server(tmp_path, folder, resume=True)
    c2 = RawClient(again.address, {"type": "join", "code": again.code, "token": c.token})
    try:
        assert _wait_for(lambda: len(c2.of("state")) > 3, 20)  # it plays on
        assert again.proc.poll() is None
    finally:
        assert again.stop() == 0
        c2.close()


def test_a_journal_that_cannot_be_written_blocks_its_table_until_written_whole(tmp_path):
    """In-process: a folder standing at the journal's path makes every write of it fail; the
    table is blocked (the server pauses it) and stays so across more actions; once the path is
    free the retry writes the journal whole, with every action, and the table goes on."""
    import os

    from test_tables import _joined

    from tutor.app.tables._server_files import ServerFiles
    from tutor.app.tables._state import _journal

    said, later = [], []
    files = ServerFiles(tmp_path, said.append, lambda s, fn: later.append((s, fn)))
    t, drv = _joined(default_library().rulesets, people=("Ann",), deals=2, lv="beginner")
    oks = []
    t.on_progress = lambda tb, d, new: oks.append(files.journal(1, len(tb.match.deals), d, new))
    path = tmp_path / "table-1.journal.jsonl"
    path.mkdir()
    drv.run(lambda: len(oks) >= 3)
    assert oks[0] is False and files.blocked(1) and files.pending
    assert (
        said[0].startswith("could not journal table 1's deal: ")
        and "(the table is paused until it is saved); trying again in 1 s" in said[0]
    )
    assert later and later[0][1]() is False and files.blocked(1)  # still a folder there
    os.rmdir(path)
    assert files.retry() is True and not files.blocked(1)
    deal, game = _journal(path, default_library().rulesets)
    assert game == 0 and list(deal.history) == list(t.deal.history)
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    oks.clear()
    drv.run(lambda: len(oks) >= 2)
    assert all(oks)  # appended to again, line by line
    deal, _ = _journal(path, default_library().rulesets)
    assert list(deal.history) == list(t.deal.history)
    files.close()


def test_every_file_of_a_server_folder_that_existed_is_its_owners_alone(tmp_path):
    """Finding 12: a ``--dir`` that exists (0755, files an older server left 0644) and a umask
    of 022: every file the server writes there is 0600, each folder it makes 0700."""
    import os
    import stat

    from test_tables import _joined

    from tutor.app.tables._server_files import ServerFiles
    from tutor.app.tables.serve import _log_to

    folder = tmp_path / "old"
    folder.mkdir(mode=0o755)
    for name in ("table-1.jsonl", "events.jsonl", "server.log", "server.json"):
        (folder / name).write_text("" if name != "server.json" else "{}")
        os.chmod(folder / name, 0o644)
    old = os.umask(0o022)
    try:
        files = ServerFiles(folder, lambda text: None)
        t, drv = _joined(default_library().rulesets, people=("Ann",), deals=1, lv="beginner")
        t.on_progress = lambda tb, d, new: files.journal(1, len(tb.match.deals), d, new)
        t.on_finished = lambda tb, d, at: files.finished(1, d, tb.match.dumps)
        (folder / "table-1.jsonl").write_text("")
        drv.run(lambda: t.deal is not None and len(t.deal.history) > 3)
        journal = folder / "table-1.journal.jsonl"
        assert stat.S_IMODE(journal.stat().st_mode) == 0o600
        drv.run(lambda: t.over)
        files.save_state({"format": "x"})
        files.event({"type": "log", "text": "x"}, "now")
        assert files.write(folder / "sheets" / "s.html", "<p>x</p>")
        files.close()
        _log_to(folder / "server.log")
    finally:
        os.umask(old)
    modes = {
        p.relative_to(folder).as_posix(): stat.S_IMODE(p.stat().st_mode) for p in folder.rglob("*")
    }
    assert {
        "table-1.jsonl",
        "table-1.match.json",
        "server.json",
        "events.jsonl",
        "sheets/s.html",
        "server.log",
        "sheets",
    } <= set(modes)
    assert {k: oct(v) for k, v in modes.items() if v != (0o700 if k == "sheets" else 0o600)} == {}


# -- finding 12: a bad Host header ----------------------------------------------------------------


def _raw_http(address: str, head: str) -> int:
    import socket
    from urllib.parse import urlsplit

    u = urlsplit(address)
    with socket.create_connection((u.hostname, u.port), timeout=10) as s:
        s.sendall(head.encode("latin-1") + b"\r\n\r\n")
        data = b""
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    return int(data.split(b" ", 2)[1])


def test_a_missing_duplicate_or_bad_host_header_is_400_not_500(tmp_path):
    pytest.importorskip("websockets")
    from tables_net import Server

    srv = Server(tmp_path, tmp_path / "srv", "--players", "3", "--deals", "1", "--hold")
    host = srv.address.split("//", 1)[1]
    upgrade = (
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="
    )
    try:
        assert _raw_http(srv.address, f"GET / HTTP/1.1\r\nHost: {host}") == 200
        for head in (
            f"GET / HTTP/1.1\r\nHost: {host}\r\nHost: {host}",
            "GET / HTTP/1.1\r\nHost: a\r\nHost: b",
            "GET /admin HTTP/1.1\r\nUser-Agent: x",
            "GET / HTTP/1.1\r\nHost: a b",
            f"GET /ws HTTP/1.1\r\nHost: {host}\r\nHost: evil.example\r\n{upgrade}",
            f"GET /ws HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
            f"Origin: http://evil.example\r\n{upgrade}",
            f"GET /ws HTTP/1.1\r\nHost: {host}\r\n{upgrade}\r\nUpgrade: websocket",
        ):
            assert _raw_http(srv.address, head) == 400, head
    finally:
        srv.stop()
    assert "Traceback" not in srv.log() and "500" not in srv.log()


def test_a_paused_table_plays_nothing_and_its_clocks_are_put_back_by_the_pause():
    """Nobody's time runs while nobody can move: a person's move clock, a computer player's
    move and the next deal are each due as long after the pause as they were before it."""
    from test_tables import _joined

    t, drv = _joined(
        default_library().rulesets,
        people=("Ann",),
        deals=2,
        lv="beginner",
        move_time=5.0,
        reserve=5.0,
    )
    drv.run(lambda: t.playing and t.deal.to_move not in drv.people and len(t.deal.history) > 2)
    due, played = t.next_wake(), len(t.deal.history)
    assert due is not None
    t.paused = True
    assert t.next_wake() is None
    t.tick(due + 1000.0)
    assert len(t.deal.history) == played  # nothing played while paused
    t.go_on(1000.0)
    assert not t.paused and t.next_wake() == pytest.approx(due + 1000.0)
    t.tick(due + 999.0)
    assert len(t.deal.history) == played
    t.tick(due + 1000.0)
    assert len(t.deal.history) > played
