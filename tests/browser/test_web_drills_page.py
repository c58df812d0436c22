"""The drills' pages in Debian's Chromium (issue 44, item 2): a learner opens the oversight
streak from the course page and plays a short streak by keyboard alone (the claim key, Enter
to pass, the choice at its end), the countdown running on the page while the server keeps the
time; a position whose time runs out moves on by itself; the counting trainer's scroll shows
one line in place and gives way to the questions by itself.  axe-core finds no serious or
critical violation on the drills' pages, and nothing runs wider than a 360-pixel window."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from support import axe_serious as _axe
from test_web_course_page import Served, _fits

from tutor.app.web.server import WebApp

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("LAUGH_SHOTS")
TOKEN = "learner-token-for-the-drill-test"


def _shot(page, name: str, tmp_path: Path) -> None:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def _keep(monkeypatch, cls, name: str) -> list:
    made: list = []
    real = getattr(cls, name)

    def keeping(self, *a, **kw):
        made.append(real(self, *a, **kw))
        return made[-1]

    monkeypatch.setattr(cls, name, keeping)
    return made


def _enter(page, key: str = "Enter") -> None:
    with page.expect_navigation():
        page.keyboard.press(key)


def _active(page) -> str:
    return page.evaluate("document.activeElement.id || document.activeElement.textContent")


def _wait_focus(page, want: str, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while _active(page) != want and time.monotonic() < end:
        time.sleep(0.05)
    assert _active(page) == want


def test_a_learner_plays_an_oversight_streak_by_keyboard(tmp_path, pages, monkeypatch):
    from tutor.teaching.drills.oversights import OversightDrill

    puzzles = _keep(monkeypatch, OversightDrill, "next_puzzle")
    srv = Served(WebApp(store=tmp_path / "progress.sqlite3", token=TOKEN))
    page = pages(360, 740)
    problems: list[str] = []
    try:
        page.goto(f"{srv.base}/s/{TOKEN}/")
        problems += _axe(page)
        _shot(page, "web-drills-course-360", tmp_path)
        for _ in range(60):  # to the drill's link by Tab alone
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.getAttribute('href') || ''").endswith(
                "/drill/streak"
            ):
                break
        else:
            raise AssertionError("no link to the oversight streak by Tab")
        _enter(page)
        assert page.locator("h1").inner_text() == "Oversight streak"
        _wait_focus(page, "answer")
        problems += _axe(page)
        _fits(page)
        _shot(page, "web-drills-streak-360", tmp_path)
        # the countdown runs on the page
        first = page.inner_text("#left")
        time.sleep(1.3)
        assert page.inner_text("#left") != first
        right = 0
        claimed = passed = False
        for _ in range(10):
            p = puzzles[-1]
            answer = p.expected_answer_text()
            if right >= 2 and claimed and passed:
                break
            if answer == "nothing":
                _enter(page)  # Enter on an empty answer passes
                passed = True
            else:
                page.keyboard.press("Space")  # the claim key starts the claim
                assert page.input_value("#answer") == "claim "
                page.keyboard.type(answer.removeprefix("claim "))
                _enter(page)
                claimed = True
            right += 1
            assert f"streak {right}" in page.inner_text("main")
            _wait_focus(page, "answer")
        # a miss ends it
        p = puzzles[-1]
        if p.answer["claims"]:
            _enter(page)
        else:
            page.keyboard.type(p._the_kind().wrong_answer(p))
            _enter(page)
        text = page.inner_text("main")
        assert f"Streak: {right}" in text and "Another streak?" in text
        _wait_focus(page, "yes")
        problems += _axe(page)
        _shot(page, "web-drills-miss-360", tmp_path)
        page.keyboard.press("Tab")
        _wait_focus(page, "no")
        _enter(page)
        text = page.inner_text("main")
        assert f"Streak: {right}" in text and "Take this drill again" in text
        problems += _axe(page)
        _fits(page)
        _shot(page, "web-drills-result-360", tmp_path)
        page.set_viewport_size({"width": 1280, "height": 800})
        _shot(page, "web-drills-result-1280", tmp_path)
        assert not page.laugh_errors
    finally:
        srv.stop()
    assert not problems, problems


def test_a_positions_time_runs_out_and_the_page_moves_on(tmp_path, pages):
    web = WebApp(store=tmp_path / "progress.sqlite3", token=TOKEN)
    web.drills.kinds["streak"].settings["limit"] = 2.0  # two seconds, from the page's coming
    srv = Served(web)
    page = pages(1280, 800)
    try:
        page.goto(f"{srv.base}/s/{TOKEN}/drill/streak")
        assert page.locator("#clock").count() and "Time is up" not in page.inner_text("main")
        _shot(page, "web-drills-streak-1280", tmp_path)
        end = time.monotonic() + 15  # the page loads again by itself when the time is up
        text = ""
        while time.monotonic() < end:
            try:
                text = page.inner_text("main")
                if "Another streak?" in text:
                    break
            except Exception:  # noqa: BLE001 - read while the page loads again
                pass
            time.sleep(0.1)
        assert "Time is up (2 s)" in text and "Streak: 0" in text
        assert not page.laugh_errors
    finally:
        srv.stop()


def test_the_counting_trainers_scroll_shows_one_line_then_asks(tmp_path, pages):
    web = WebApp(store=tmp_path / "progress.sqlite3", token=TOKEN)
    web.drills.kinds["count"].settings.update(speed=25.0, rounds=1)
    srv = Served(web)
    page = pages(360, 740)
    problems: list[str] = []
    try:
        page.goto(f"{srv.base}/s/{TOKEN}/drill/count")
        _wait_focus(page, "Start")
        problems += _axe(page)
        _enter(page)
        page.wait_for_selector("#scroll li")
        seen = set()
        end = time.monotonic() + 30
        while time.monotonic() < end:  # read without waiting: the page moves on by itself
            try:
                now = page.evaluate(
                    "(() => { const s = document.getElementById('scroll');"
                    " return s ? [s.getElementsByTagName('li').length, s.innerText] : null; })()"
                )
            except Exception:  # noqa: BLE001 - read while the page loads again
                continue
            if now is None:
                break
            assert now[0] <= 1  # one line, in place
            seen.add(now[1])
            if len(seen) == 3:
                _shot(page, "web-drills-scroll-360", tmp_path)
            time.sleep(0.05)
        page.wait_for_selector("#answer")  # the page moved on by itself
        assert len(seen) >= 2
        assert "Stop!" in page.inner_text("main") and "are unseen?" in page.inner_text("main")
        _wait_focus(page, "answer")
        problems += _axe(page)
        _fits(page)
        _shot(page, "web-drills-count-360", tmp_path)
        page.keyboard.type("banana")
        _enter(page)
        assert "is not a number" in page.inner_text("main")
        assert not page.laugh_errors
    finally:
        srv.stop()
    assert not problems, problems


def test_a_settlement_by_keyboard(tmp_path, pages, monkeypatch):
    from tutor.teaching.drills.settle import SettleDrill

    questions = _keep(monkeypatch, SettleDrill, "make_question")
    srv = Served(WebApp(store=tmp_path / "progress.sqlite3", token=TOKEN))
    page = pages(360, 740)
    problems: list[str] = []
    try:
        page.goto(f"{srv.base}/s/{TOKEN}/drill/settle")
        _wait_focus(page, "answer")
        problems += _axe(page)
        _fits(page)
        _shot(page, "web-drills-settle-360", tmp_path)
        page.keyboard.type(str(questions[-1].answer))
        _enter(page)
        assert "✓" in page.inner_text("main")
        _wait_focus(page, "answer")
        page.set_viewport_size({"width": 1280, "height": 800})
        _shot(page, "web-drills-settle-1280", tmp_path)
        assert not page.laugh_errors
    finally:
        srv.stop()
    assert not problems, problems
