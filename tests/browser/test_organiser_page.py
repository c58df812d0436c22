"""The organiser's page in Debian's Chromium (issue 41, finding 9 and the projector of finding
11): opened after an evening under ``--duplicate``, it shows the history since the start, the
people ranked apart from the computer players with "vs same cards", and the liveries' totals;
the projector view shows every table and the standings, and no control, at 1,280 pixels.
Screenshots are kept in the test's folder (``admin-final.png``, ``projector.png``)."""

from __future__ import annotations

import pytest
from support import axe_serious as _axe
from support import wait_until as _wait
from tables_net import RawClient, Server

pytestmark = pytest.mark.browser


def _watch(page, srv: Server, query: str = "") -> None:
    page.goto(f"{srv.info['page']}admin{query}#{srv.info['admin']}")
    page.click("text=Watch every table")
    page.wait_for_selector("#admin-view:not([hidden])")


def test_a_page_opened_after_a_duplicate_evening_shows_its_history_and_standings(tmp_path, pages):
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
    people = [
        RawClient(srv.address, {"type": "join", "code": code, "name": name, "livery": livery})
        for code, name, livery in zip(
            codes, ("Ann", "Eve", "Bob"), ("Cutlers", "Vintners", "Cutlers")
        )
    ]
    page = pages(1280, 800)
    try:
        assert _wait(lambda: (srv.folder / "standings.html").exists(), 90)
        _watch(page, srv)
        standings = page.locator("#standings")
        assert _wait(lambda: "Final standings" in standings.inner_text(), 10), (
            standings.inner_text()
        )
        heads = page.locator("#standings-people th").all_inner_texts()
        assert heads == ["Place", "Name", "Table", "vs same cards", "Score", "Games"]
        names = page.locator("#standings-people tbody tr td:nth-child(2)").all_inner_texts()
        assert sorted(n.split(" (")[0] for n in names) == ["Ann", "Bob", "Eve"]
        computers = page.locator("#standings-computers tbody tr").count()
        assert computers == 6
        first = page.locator("#standings-computers tbody tr td:first-child").first
        assert first.inner_text() == "1"  # ranked apart, from 1
        liveries = page.locator("#standings-liveries tbody tr td:nth-child(2)").all_inner_texts()
        assert sorted(liveries) == ["Cutlers", "Vintners"]
        log = page.locator("#log").inner_text()
        assert "Ann joins (of Cutlers)" in log and "Table 3: Bob joins" in log
        assert "The final standings are written" in log and "score sheets" in log
        assert page.locator("#log li.past").count() >= 6
        assert "After round 0" not in page.locator("body").inner_text()
        page.screenshot(path=str(tmp_path / "admin-final.png"), full_page=True)
        assert _axe(page) == []
        assert page.laugh_errors == []
    finally:
        for c in people:
            c.close()
        srv.stop()


def test_the_projector_view_shows_every_table_and_the_standings_without_controls(tmp_path, pages):
    srv = Server(
        tmp_path,
        tmp_path / "srv",
        "--players",
        "5",
        "--deals",
        "2",
        "--tables",
        "6",
        "--hold",
        "--pace",
        "0",
        "--gap",
        "0",
        "--seed",
        "3",
    )
    page = pages(1280, 800)
    codes = [t["code"] for t in srv.info["tables"]]
    people = [
        RawClient(
            srv.address,
            {
                "type": "join",
                "code": codes[k % 6],
                "name": f"P{k}",
                "livery": ("Cutlers", "Vintners")[k % 2],
            },
        )
        for k in range(12)
    ]
    try:
        _watch(page, srv, "?projector")
        page.wait_for_selector("#tables article")
        assert _wait(lambda: page.locator("#tables article").count() == 6, 10)
        assert _wait(
            lambda: "So far: round 1 of 1 in play" in page.locator("#standings").inner_text(), 10
        )
        page.screenshot(path=str(tmp_path / "projector.png"))
        view = {"width": 1280, "height": 800}
        for k in range(6):  # every table on the projected screen, whole
            box = page.locator("#tables article").nth(k).bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= view["width"], (k, box)
            assert box["y"] + box["height"] <= view["height"], (k, box)
        sbox = page.locator("#standings").bounding_box()
        assert sbox and sbox["x"] + sbox["width"] <= view["width"] and sbox["y"] < 400
        assert sbox["y"] + sbox["height"] <= view["height"], sbox  # liveries and people whole
        assert (
            page.evaluate("document.getElementById('standings').scrollWidth") <= sbox["width"] + 1
        )
        assert page.locator("#standings-people tbody tr").count() == 12
        assert page.locator("#standings-liveries").is_visible()
        visible = [b for b in page.locator("button, input").all() if b.is_visible()]
        assert visible == [], [b.evaluate("e => e.outerHTML") for b in visible]
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        page.keyboard.press("Escape")  # the organiser's own view again, controls and all
        assert page.locator("#start-all").is_visible()
        assert page.laugh_errors == []
    finally:
        for c in people:
            c.close()
        srv.stop()
