"""The organiser's views of an evening (issue 41, finding 9): under ``--duplicate`` the
standings rank the people apart from the computer players, by the score against those dealt
the same cards, with the liveries' totals, on ``watch`` and in the files written at the end
(``standings.csv``, ``standings.html``: a name shown as text); a view opened late, or
``watch --once``, has the history since the start; the score sheets and the standings files
are said in the log.  A real ``laugh table serve`` on 127.0.0.1 and a free port; every loop
bounded in count and time."""

from __future__ import annotations

import csv
import io
import json

import pytest
from support import laugh_process
from support import wait_until as _wait
from tables_net import RawClient, Server, env

pytest.importorskip("websockets")

HOSTILE = "<b>Eve</b>=1+1"


def _evening(tmp_path):
    """Three tables of three under --duplicate, a person with a livery at each (one of them
    with a hostile name) and the rest computer players, played to the end; returns the server (still
    running) and the people's clients."""
    srv = Server(
        tmp_path,
        tmp_path / "srv",
        "--players",
        "3",
        "--deals",
        "2",
        "--tables",
        "3",
        "--duplicate",
        "--pace",
        "0",
        "--gap",
        "0",
        "--seed",
        "21",
        "--people",
        "1",
        "--move-time",
        "0",
    )
    codes = [t["code"] for t in srv.info["tables"]]
    ann = RawClient(
        srv.address, {"type": "join", "code": codes[0], "name": "Ann", "livery": "Cutlers"}
    )
    eve = RawClient(
        srv.address, {"type": "join", "code": codes[1], "name": HOSTILE, "livery": "Vintners"}
    )
    bob = RawClient(
        srv.address, {"type": "join", "code": codes[2], "name": "Bob", "livery": "Cutlers"}
    )
    return srv, [ann, eve, bob]


def test_the_organiser_sees_the_duplicate_standings_the_history_and_the_files(tmp_path):
    srv, people = _evening(tmp_path)
    admin = srv.info["admin"]
    folder = srv.folder
    try:
        assert _wait(
            lambda: (folder / "standings.csv").exists() and (folder / "standings.html").exists(), 90
        ), srv.log()[-2000:]
        events = folder / "events.jsonl"  # the log said (and flushed) as the files are written
        assert _wait(
            lambda: (
                '"event": "standings"' in events.read_text()
                and "The final standings are written" in events.read_text()
            ),
            10,
        ), events.read_text()[-2000:]
        late = RawClient(srv.address, {"type": "watch", "admin": admin}, play=False)
        assert _wait(lambda: late.of("overview"), 10)
        once = laugh_process(
            ["table", "watch", srv.address, "--admin", admin, "--once"],
            None,
            env(tmp_path),
            timeout=60,
        )
    finally:
        for c in people + ([late] if "late" in locals() else []):
            c.close()
        srv.stop()
    # a view opened after the end: the history since the start, before the first overview
    first = late.messages.index(late.of("overview")[0])
    past = [m for m in late.messages[:first] if m["type"] == "log"]
    events = [m["event"] for m in past]
    assert all(m.get("past") and m.get("at") for m in past)
    assert "joined" in events and "match_over" in events and "files" in events, events
    assert sum(1 for m in past if m["event"] == "joined") == 3
    said = [m["text"] for m in past if m["event"] == "files"]
    assert (
        f"The final standings are written in {folder}: standings.csv and standings.html" in said
    ), said
    assert any("score sheets are written in" in x and str(folder / "sheets") in x for x in said), (
        said
    )
    line = [m["text"] for m in past if m["event"] == "standings"][-1]
    assert "vs same cards" in line and "; liveries: " in line and "Cutlers" in line, line
    assert "(computer)" not in line, line  # the people's ranking alone
    final = [m for m in late.messages[:first] if m["type"] == "standings"]
    assert final and final[-1]["final"] and final[-1]["duplicate"]
    rows = final[-1]["rows"]
    # the people first, ranked among themselves; the computer players apart, from 1 again
    assert [r["person"] for r in rows] == [True] * 3 + [False] * 6
    assert {r["name"] for r in rows[:3]} == {"Ann", HOSTILE, "Bob"}
    assert rows[0]["place"] == 1 and rows[3]["place"] == 1
    assert rows[0]["dup"] >= rows[1]["dup"] >= rows[2]["dup"]
    teams = {t["livery"]: t for t in final[-1]["teams"]}
    assert teams["Cutlers"]["people"] == 2 and teams["Cutlers"]["dup"] == pytest.approx(
        sum(r["dup"] for r in rows if r["livery"] == "Cutlers")
    )
    # watch --once: the history, the final standings with "vs same cards" and the liveries
    out = once.stdout
    assert once.returncode == 0, once.stderr
    assert "Ann joins" in out and "The final standings are written" in out
    assert "vs same cards" in out and "Liveries:" in out and "Cutlers" in out
    assert "Standings (vs same cards): 1." in out
    assert "Traceback" not in once.stderr
    # the files: CSV (a name never a formula) and HTML (a name never markup)
    table = list(csv.DictReader(io.StringIO((folder / "standings.csv").read_text())))
    kinds = [r["kind"] for r in table]
    assert kinds == ["person"] * 3 + ["computer"] * 6 + ["livery"] * 2
    eve = next(r for r in table if r["livery"] == "Vintners" and r["kind"] == "person")
    assert eve["name"] == HOSTILE  # no leading formula sign here
    assert float(eve["vs_same_cards"]) == pytest.approx(
        next(r["dup"] for r in rows if r["name"] == HOSTILE)
    )
    html = (folder / "standings.html").read_text()
    assert "&lt;b&gt;Eve&lt;/b&gt;" in html and "<b>Eve</b>" not in html
    assert "vs same cards" in html and "Computer players" in html and "Liveries" in html
    assert html.index("Ann") < html.index("Computer players")
    sheets = sorted(p.name for p in (folder / "sheets").iterdir())
    assert sheets == [f"table-{k + 1}-seat-{c.seat}.html" for k, c in enumerate(people)]


def test_a_name_that_would_be_a_formula_is_text_in_the_csv():
    from tutor.app.tables._standings_files import standings_csv

    rows = [
        {
            "name": '=HYPERLINK("http://x")',
            "table": 1,
            "seat": 0,
            "person": True,
            "livery": "@Cutlers",
            "score": 3,
            "games": 2,
            "place": 1,
            "dup": -1.5,
        }
    ]
    text = standings_csv(
        rows, [{"livery": "@Cutlers", "score": 3, "people": 1, "place": 1, "dup": -1.5}], True
    )
    got = list(csv.DictReader(io.StringIO(text)))
    assert got[0]["name"] == '\'=HYPERLINK("http://x")' and got[0]["livery"] == "'@Cutlers"
    assert got[0]["vs_same_cards"] == "-1.5" and got[1]["kind"] == "livery"


def test_a_resumed_server_sends_a_new_view_the_history_since_the_start(tmp_path):
    """The history a newly opened view is sent survives a stop and --resume (read back from
    events.jsonl)."""
    folder = tmp_path / "srv"
    srv = Server(
        tmp_path,
        folder,
        "--players",
        "3",
        "--deals",
        "30",
        "--pace",
        "0.01",
        "--gap",
        "0",
        "--seed",
        "5",
        "--move-time",
        "0",
    )
    ann = RawClient(srv.address, {"type": "join", "code": srv.code, "name": "Ann"})
    try:
        assert _wait(lambda: len(ann.of("deal_over")) >= 1, 60)
    finally:
        ann.close()
        srv.stop()
    back = Server(tmp_path, folder, resume=True)
    try:
        w = RawClient(back.address, {"type": "watch", "admin": back.info["admin"]}, play=False)
        assert _wait(lambda: w.of("overview"), 10)
        w.close()
    finally:
        back.stop()
    first = w.messages.index(w.of("overview")[0])
    past = [m for m in w.messages[:first] if m["type"] == "log"]
    assert any(m["event"] == "joined" and "Ann" in m["text"] for m in past), past[:5]
    assert any(m["event"] == "deal_over" for m in past)
    json.dumps(past)
