"""The table's page in Debian's Chromium (issue 32), as the people of a class or a club use it:
a page sits down beside a piped terminal client and plays a whole deal; a claim typed on the
page wins a race against a script's; a page that reloads mid-deal takes its seat back by its
token; a hostile name is shown as text; axe-core finds no serious or critical violation on the
join form, the table, or the organiser's page; nothing runs wider than a 360-pixel phone."""

from __future__ import annotations

import re

import pytest
from support import axe_serious as _axe
from support import wait_until as _wait
from tables_net import PipedPlayer, RawClient, Server

from tutor.app.tables.table import Settings, Table
from tutor.engine.cards import RANK_PLURALS
from tutor.engine.levels import level

pytestmark = pytest.mark.browser


def _join(page, srv: Server, name: str, livery: str | None = None) -> None:
    page.goto(f"{srv.info['page']}#{srv.code}")
    assert page.input_value("#code") == srv.code  # the link's code, filled in
    page.fill("#name", name)
    if livery:
        page.fill("#livery", livery)
    page.keyboard.press("Enter")
    page.wait_for_selector("#table-view:not([hidden])")


def _log(page) -> str:
    return page.locator("#log").inner_text()


def _step(page, keys: bool) -> None:
    """One look at the page as a player: start play when dealing, else the first move listed
    when it is their turn (by its number key, or by clicking it)."""
    if page.is_visible("#ready-button"):
        page.click("#ready-button")
    elif page.locator("#turn").inner_text().startswith("Your turn"):
        first = page.locator("#moves button.move").first
        if first.count():
            if keys:
                page.locator("body").focus()
                page.keyboard.press("1")
            else:
                try:
                    first.click(timeout=2000)
                except Exception:  # redrawn under the pointer: look again
                    pass


def test_a_page_and_a_piped_terminal_play_a_whole_deal(tmp_path, pages):
    srv = Server(
        tmp_path,
        tmp_path / "srv",
        "--players",
        "3",
        "--deals",
        "1",
        "--pace",
        "0",
        "--gap",
        "0",
        "--people",
        "2",
        "--seed",
        "11",
    )
    ted = None
    page = pages(360, 740)
    try:
        _join(page, srv, "Ann", "Mercers")
        assert page.is_visible("#claim-button")  # the claim is at hand on a phone
        ted = PipedPlayer(tmp_path, srv.address, srv.code, "Ted")
        looks = iter(range(10**6))

        def played() -> bool:
            _step(page, keys=next(looks) % 2 == 0)  # keys and clicks in turn
            return page.is_visible("#review-box")

        assert _wait(played, 120, 0.1), _log(page)[-1500:]
        settlement = page.locator("#settlement").inner_text()
        assert "Ann" in settlement and "Ted" in settlement and "Total" in settlement
        sheet = page.locator("#sheet").inner_text()
        assert "Deal 1" in sheet and "Total" in sheet
        assert ted.wait(60) == 0, ted.out[-1500:] + ted.err
        assert _wait(lambda: "The match is over" in _log(page), 10)
        assert "You: " in _log(page) and "Ted: " in _log(page)  # both people's moves said
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        # every card has a text name
        names = page.eval_on_selector_all(
            ".card", "cs => cs.map(c => c.getAttribute('aria-label'))"
        )
        assert names and all(
            re.fullmatch(
                r"(ace|two|three|four|five|six|seven|eight|nine|ten"
                r"|jack|queen|king) of (clubs|diamonds|hearts|"
                r"spades)",
                n,
            )
            for n in names
        ), names[:5]
        assert page.is_hidden("#claim-button")  # after the match: nothing to claim
        assert page.laugh_errors == []
    finally:
        if ted is not None:
            ted.kill()
        srv.stop()
    assert "The match is over." in ted.out and "Traceback" not in ted.out + ted.err


def _race_seed(rulesets):
    """A seed whose first deal (3 players, two people joining first) leaves the table's
    mournival in play, with a person to move first (as tests/app/test_tables_terminal.py)."""
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
            return seed, rank
    raise AssertionError("no such seed")


def test_a_claim_typed_on_the_page_wins_the_race(tmp_path, pages, rulesets):
    seed, rank = _race_seed(rulesets)
    srv = Server(
        tmp_path,
        tmp_path / "srv",
        "--ruleset",
        "parlett",
        "--players",
        "3",
        "--bots",
        "beginner",
        "--deals",
        "1",
        "--gap",
        "3",
        "--pace",
        "1",
        "--seed",
        str(seed),
        "--people",
        "2",
    )
    bob = None
    page = pages()
    try:
        _join(page, srv, "Ann")
        bob = RawClient(srv.address, {"type": "join", "code": srv.code, "name": "Bob"})
        # play begins (the eldest's first move, the page's or Bob's): the race is open
        begun = re.compile(r"^(You|Bob): \S+ takes \S", re.M)
        assert _wait(lambda: (_step(page, False), begun.search(_log(page)))[1], 40, 0.1), _log(page)
        # nothing focused (a move button the page's own step clicked keeps the focus until the
        # next state redraws the moves, and Space on a button presses it, as it should)
        page.evaluate("document.activeElement && document.activeElement.blur()")
        page.keyboard.press("Space")  # the claim key, as at the terminal
        assert _wait(lambda: page.evaluate("document.activeElement.id") == "claim-text", 5)
        page.keyboard.type(RANK_PLURALS[rank])
        page.keyboard.press("Enter")
        # the page's claim is on its socket once its form closes (the submit sends, then
        # closes): only then does Bob claim, so the race is the server's to judge, not the
        # browser's to lose while it is busy (once in about fifteen runs it lost it before)
        assert _wait(lambda: page.evaluate("document.getElementById('claim-form').hidden"), 5)
        bob.send({"type": "claim", "text": RANK_PLURALS[rank], "seq": 99})
        assert _wait(lambda: "You claimed first" in _log(page), 15), _log(page)
        assert _wait(lambda: any(m.get("seq") == 99 for m in bob.of("reply")), 10)
        late = next(m for m in bob.of("reply") if m.get("seq") == 99)
        assert not late["ok"] and late["text"].startswith("Too late"), late
        said = _log(page)
        assert re.search(r"You claimed first, [\d,]+ ms after", said), said
        assert page.laugh_errors == []
    finally:
        if bob is not None:
            bob.close()
        srv.stop()


def test_a_closed_tab_comes_back_and_a_seat_code_takes_the_seat_on_another_device(tmp_path, pages):
    """Issue 41 finding 5: a phone that discards the tab (closed, then opened again on the
    page's address) is back at its seat; on another device the seat code shown at the join,
    typed at the page, takes it back; "Leave the table" forgets it.  A named first dealer's
    seat is taken by the organiser's link, not by the name."""
    srv = Server(
        tmp_path,
        tmp_path / "srv",
        "--players",
        "3",
        "--deals",
        "2",
        "--pace",
        "0.5",
        "--gap",
        "0",
        "--people",
        "2",
        "--move-time",
        "120",
        "--hold",
        "--first-dealer",
        "Alice",
    )
    page = pages(360, 740)
    try:
        _join(page, srv, "Cal")
        title = page.locator("#table-title").inner_text()
        shown = page.locator("#seat-code").inner_text()
        assert re.fullmatch(r"[A-Z2-9]{5}-[A-Z2-9]{5}", shown), shown
        ctx = page.context
        page.close()  # the tab is gone, and its session
        again = ctx.new_page()
        again.laugh_errors = []
        again.goto(srv.info["page"])  # the bare address, no link
        again.wait_for_selector("#table-view:not([hidden])")
        assert again.locator("#table-title").inner_text() == title
        assert again.locator("#status").inner_text().startswith("Back at your seat.")
        # another device: nothing stored; the code typed (lower case, without the dash)
        other = pages(1280, 800)
        other.goto(f"{srv.info['page']}#{srv.code}")
        other.fill("#seat", shown.replace("-", "").lower())
        other.click("#join-button")
        other.wait_for_selector("#table-view:not([hidden])")
        assert other.locator("#table-title").inner_text() == title
        assert _wait(lambda: "You joined from another connection" in _log(again), 10)
        # the name on the organiser's screen does not take Alice's seat
        mallory = pages(360, 740)
        mallory.goto(f"{srv.info['page']}#{srv.code}")
        mallory.fill("#name", "alice")
        mallory.click("#join-button")
        assert _wait(
            lambda: "seat code the organiser gives" in mallory.locator("#join-error").inner_text(),
            10,
        )
        code = next(c for c in srv.info["tables"][0]["codes"] if c)
        alice = pages(360, 740)
        alice.goto(f"{srv.info['page']}#{srv.code}/{code}")  # the organiser's link
        assert alice.input_value("#seat").replace("-", "") == code
        alice.click("#join-button")
        alice.wait_for_selector("#table-view:not([hidden])")
        assert "Alice" in alice.locator("#table-title").inner_text()
        # leaving forgets the code: a new tab shows the join form
        other.click("#leave-button")
        assert _wait(
            lambda: other.evaluate(f"localStorage.getItem('laugh-seat:{srv.code}')") is None, 10
        )
        assert again.laugh_errors == [] and other.laugh_errors == []
        assert alice.laugh_errors == []
    finally:
        srv.stop()


def test_a_page_that_reloads_mid_deal_takes_its_seat_back(tmp_path, pages):
    srv = Server(
        tmp_path,
        tmp_path / "srv",
        "--players",
        "3",
        "--deals",
        "2",
        "--pace",
        "0.5",
        "--gap",
        "0",
        "--people",
        "1",
        "--move-time",
        "120",
    )
    page = pages()
    try:
        _join(page, srv, "Cal")
        title = page.locator("#table-title").inner_text()

        def hand():
            return page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.code)")

        assert _wait(lambda: len(hand()) >= 5, 30), _log(page)
        held = hand()
        page.reload()
        page.wait_for_selector("#table-view:not([hidden])")
        assert page.locator("#status").inner_text() == "Back at your seat."
        assert page.locator("#table-title").inner_text() == title
        assert _wait(lambda: hand() == held or len(hand()) < len(held), 15)
        assert page.is_hidden("#join-view")
        assert "You are back at your seat." in _log(page)
        assert page.laugh_errors == []
        log = srv.log()
    finally:
        srv.stop()
    assert "Cal is back at table 1" in log


def test_a_hostile_name_is_text_and_axe_finds_nothing_serious(tmp_path, pages):
    srv = Server(
        tmp_path,
        tmp_path / "srv",
        "--players",
        "3",
        "--deals",
        "1",
        "--pace",
        "0.5",
        "--gap",
        "0",
        "--people",
        "2",
        "--move-time",
        "120",
    )
    hostile = "<img src=x onerror=f()>"
    raw = None
    page, admin = pages(), pages(360, 740)
    try:
        page.goto(srv.info["page"])
        assert _axe(page) == [], "the join form"
        admin.goto(f"{srv.info['page']}admin#{srv.info['admin']}")
        admin.click("text=Watch every table")
        admin.wait_for_selector("#admin-view:not([hidden])")
        raw = RawClient(srv.address, {"type": "join", "code": srv.code, "name": hostile})
        _join(page, srv, "Dee")
        assert _wait(lambda: hostile in page.locator("#seats").inner_text(), 20)
        assert page.locator("img").count() == 0 and admin.locator("img").count() == 0
        assert _wait(lambda: hostile in admin.locator("#tables").inner_text(), 10)
        assert _wait(lambda: "Dee" in admin.locator("#log").inner_text(), 10)
        assert page.evaluate("typeof window.f") == "undefined"
        # a person's seat has a Release button (a computer player's has none); released, the
        # seat's token no longer takes it back, and the log says so
        buttons = admin.locator("#tables button.release")
        assert _wait(lambda: buttons.count() == 2, 10)
        admin.once("dialog", lambda d: d.accept())
        admin.locator("button[aria-label^='Release'][aria-label$='(Dee)']").click()
        assert _wait(lambda: "released seat" in admin.locator("#log").inner_text(), 10), (
            admin.locator("#log").inner_text()
        )
        # the new code is on the organiser's page (and said once), for Dee alone
        shown = admin.locator("#tables .seat-code")
        assert _wait(lambda: shown.count() == 1, 10)
        assert re.fullmatch(r"[A-Z2-9]{5}-[A-Z2-9]{5}", shown.inner_text())
        assert shown.inner_text() in admin.locator("#log").inner_text()
        admin.check("#projector")
        assert _wait(lambda: shown.count() == 0, 10)  # never on a projected screen
        admin.evaluate("document.activeElement && document.activeElement.blur()")
        admin.keyboard.press("Escape")  # the projector view has no control
        assert _wait(lambda: shown.count() == 1, 10)
        assert _axe(page) == [], "the table"
        assert _axe(admin) == [], "the organiser's page"
        assert admin.evaluate("document.documentElement.scrollWidth") <= 360
        assert page.laugh_errors == [] and admin.laugh_errors == []
    finally:
        if raw is not None:
            raw.close()
        srv.stop()
