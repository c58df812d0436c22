"""The course's pages in Debian's Chromium (issue 44): a learner takes lesson 1 to its end by
keyboard alone at 360 px, with a wrong answer and a second try, reloads mid-lesson and comes
back where they were (also after the server is stopped and started again); a student joins a
class by its code and answers, and a closed tab comes back from the join page; axe-core finds
no serious or critical violation on any page; nothing runs wider than the window."""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import pytest
from support import axe_serious as _axe

from tutor.app.web.server import ClassRoom, WebApp

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("LAUGH_SHOTS")  # a folder to keep the screenshots in, to look at
TOKEN = "learner-token-for-the-browser-test"


class Served:
    """``web`` served by uvicorn in a thread on a free loopback port (:attr:`base`)."""

    def __init__(self, web: WebApp):
        import uvicorn

        self.web = web
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.base = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(web.app, log_level="warning", lifespan="off"))
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )
        self.thread.start()
        end = time.monotonic() + 20
        while not self.server.started and time.monotonic() < end:
            time.sleep(0.02)
        assert self.server.started

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        self.web.close()
        self.sock.close()


def _fits(page) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], f"the page is {wide} px wide"


def _shot(page, name: str, tmp_path: Path) -> None:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def _enter(page) -> None:
    with page.expect_navigation():
        page.keyboard.press("Enter")


def _focused(page, timeout: float = 5.0) -> str:
    """The text of the button that has the focus (autofocus lands a moment after load)."""
    end = time.monotonic() + timeout
    while True:
        tag, text = page.evaluate(
            "[document.activeElement.tagName, document.activeElement.textContent]"
        )
        if tag == "BUTTON" or time.monotonic() > end:
            return text
        time.sleep(0.05)


def _heading(page) -> str:
    return page.locator("p.said", has_text=" · page ").last.inner_text()


def _goto_past_follow(page, url: str, tries: int = 5) -> None:
    """``page.goto(url)``, again where the page's own follow (``static/follow.js``: a change of
    pace reloads a student's page within 1.5 s) navigated at the same moment and Playwright
    reports the goto interrupted; any other error is raised."""
    from playwright.sync_api import Error as PlaywrightError

    for left in range(tries, 0, -1):
        try:
            page.goto(url)
            return
        except PlaywrightError as exc:
            if "interrupted by another navigation" not in str(exc) or left == 1:
                raise
            time.sleep(0.2)


def test_a_learner_takes_lesson_1_by_keyboard_and_comes_back(tmp_path, pages):
    store = tmp_path / "progress.sqlite3"
    srv = Served(WebApp(store=store, token=TOKEN))
    page = pages(360, 740)
    problems: list[str] = []
    try:
        page.goto(f"{srv.base}/s/{TOKEN}/")
        problems += _axe(page)
        _fits(page)
        page.click("text=The game and its history")
        problems += _axe(page)
        _shot(page, "web-lesson-360", tmp_path)
        tried_wrong = came_back = False
        for _ in range(120):
            if page.locator("section.next").count():
                break
            if page.locator("#answer").count():
                puzzle = srv.web.learner(TOKEN).session.runner.current
                if not tried_wrong:
                    problems += _axe(page)
                    _shot(page, "web-puzzle-360", tmp_path)
                    page.fill("#answer", puzzle._the_kind().wrong_answer(puzzle))
                    _enter(page)
                    assert "One more try" in page.inner_text("main")
                    assert page.evaluate("document.activeElement.id") == "answer"
                    tried_wrong = True
                page.fill("#answer", puzzle.expected_answer_text())
                _enter(page)
                continue
            if tried_wrong and not came_back:  # mid-lesson, after a puzzle
                where = _heading(page)
                page.reload()
                assert _heading(page) == where
                srv.stop()  # the server stopped and started again
                srv = Served(WebApp(store=store, token=TOKEN))
                page.goto(f"{srv.base}/s/{TOKEN}/lesson/history")
                number = where.split(" · page ")[1].split()[0]
                assert f"Welcome back: continuing at page {number}." in page.inner_text("main")
                assert _heading(page) == where
                came_back = True
                continue
            focused = _focused(page)
            assert focused in ("next", "finish", "yes"), focused
            _enter(page)  # the first choice has the focus
        else:
            raise AssertionError("lesson 1 did not end")
        text = page.inner_text("main")
        assert tried_wrong and came_back
        assert "Lesson complete" in text
        assert "Lesson 2: Cards and terms" in text  # what comes next
        problems += _axe(page)
        _fits(page)
        _shot(page, "web-end-360", tmp_path)
        page.set_viewport_size({"width": 1280, "height": 800})
        _shot(page, "web-end-1280", tmp_path)
        page.goto(f"{srv.base}/s/{TOKEN}/")
        assert "done," in page.inner_text("main")
        assert not page.laugh_errors
    finally:
        srv.stop()
    assert not problems, problems


def test_a_student_joins_by_code_answers_and_comes_back(tmp_path, pages):
    room = ClassRoom(tmp_path / "class")
    srv = Served(WebApp(room=room))
    page = pages(360, 740)
    problems: list[str] = []
    try:
        page.goto(f"{srv.base}/")
        problems += _axe(page)
        _fits(page)
        _shot(page, "class-join-360", tmp_path)
        page.fill("#code", room.code)
        page.fill("#name", "")
        page.fill("#personal", "AAAA-AAAA")  # a wrong personal code: said on the page
        with page.expect_navigation():
            page.click("form[action='/continue'] button")
        assert "No student has that personal code" in page.inner_text("main")
        problems += _axe(page)
        page.goto(f"{srv.base}/s/no-such-token/")  # the page of an address that opens nothing
        assert "No learner has this address" in page.inner_text("main")
        problems += _axe(page)
        _fits(page)
        page.goto(f"{srv.base}/")
        page.fill("#code", room.code.lower())
        page.fill("#name", "<b>Ann</b>")
        _enter(page)
        assert "<b>Ann</b>" in page.inner_text("main")  # the name as text
        page.click("text=The game and its history")
        for _ in range(20):
            if page.locator("#answer").count():
                break
            assert _focused(page) == "next"
            _enter(page)
        (token,) = [t for t in srv.web.learners]
        puzzle = srv.web.learners[token].session.runner.current
        page.fill("#answer", puzzle.expected_answer_text())
        _enter(page)
        assert "You answered" in page.inner_text("main")
        ctx = page.context
        page.close()  # the tab closed
        again = ctx.new_page()
        again.goto(f"{srv.base}/")
        again.click("text=Continue where you were")
        assert "in progress" in again.inner_text("main")
        # the teacher's page, by the teacher's code
        teacher = pages(1280, 800)
        teacher.goto(f"{srv.base}/teacher")
        problems += _axe(teacher)
        teacher.fill("#tcode", room.teacher_code)
        _enter(teacher)
        grid = teacher.inner_text("table.grid")
        assert "<b>Ann</b>" in grid and "1/1" in grid
        problems += _axe(teacher)
        _shot(teacher, "class-teacher-1280", tmp_path)
        assert not teacher.laugh_errors
    finally:
        srv.stop()
    assert not problems, problems


def _answer_when_asked(page, text: str, timeout: float = 30.0) -> None:
    """Wait until the page (following the teacher by itself) asks; answer ``text``."""
    page.wait_for_selector("#answer", timeout=timeout * 1000)
    page.fill("#answer", text)
    _enter(page)


def test_a_teacher_leads_three_students_and_the_projector_counts(tmp_path, pages):
    from support import wait_until

    room = ClassRoom(tmp_path / "class")
    srv = Served(WebApp(room=room))
    problems: list[str] = []
    try:
        teacher = pages(1280, 800)
        teacher.goto(f"{srv.base}/teacher")
        teacher.fill("#tcode", room.teacher_code)
        _enter(teacher)
        problems += _axe(teacher)
        teacher.select_option("#lead-lesson", "history")
        with teacher.expect_navigation():
            teacher.click("text=Lead from its first page")
        assert "Teacher-led" in teacher.inner_text("main")
        students = {}
        for name in ("Ann", "<i>Bob</i>", "Cy"):
            s = pages(360, 740)
            s.goto(f"{srv.base}/")
            s.fill("#code", room.code)
            s.fill("#name", name)
            _enter(s)
            assert "Your teacher moves the class on" in s.inner_text("main")
            students[name] = s
        ann = students["Ann"]
        problems += _axe(ann)
        _fits(ann)
        _shot(ann, "class-waiting-360", tmp_path)
        projector = pages(1280, 800)
        projector.context.add_cookies(teacher.context.cookies())
        projector.goto(f"{srv.base}/projector")
        for _ in range(4):  # to the page of the puzzles
            with projector.expect_navigation():
                projector.click("text=Next page")
        assert "Page 5 of 5" in projector.inner_text("main")
        # each student's page follows by itself (it asks the server every 1.5 s)
        for s in students.values():
            s.wait_for_selector("#answer", timeout=20_000)
            assert "page 5 of 5" in s.inner_text("main")
        (token,) = [t for t, ln in srv.web.learners.items() if ln.name == "Ann"]
        puzzle = srv.web.learners[token].session.runner.current
        problems += _axe(ann)
        _fits(ann)
        _shot(ann, "class-led-puzzle-360", tmp_path)
        wrong = puzzle._the_kind().wrong_answer(puzzle)
        _answer_when_asked(ann, puzzle.expected_answer_text())
        _answer_when_asked(students["<i>Bob</i>"], wrong)
        _answer_when_asked(students["Cy"], wrong)
        # the projector follows too: three of three answered, the answers hidden
        first = projector.locator("section.tally").first
        assert wait_until(lambda: first.locator(".answered").inner_text() == "3", 20)
        assert "hidden until you show them" in first.inner_text()
        with projector.expect_navigation():
            projector.click("text=Show the answers to puzzle 1 of 4")
        first = projector.locator("section.tally").first
        assert first.locator(".right").inner_text() == "1"
        assert "(33%)" in first.inner_text()
        assert first.locator("ul.wrong li").first.inner_text().endswith(", by 2 students")
        assert "Bob" not in projector.inner_text("main")  # no names unless chosen
        problems += _axe(projector)
        _shot(projector, "class-projector-1280", tmp_path)
        with projector.expect_navigation():
            projector.click("text=Show names")
        assert "<i>Bob</i>, Cy" in first.inner_text()  # a name as text
        projector.set_viewport_size({"width": 360, "height": 740})
        _fits(projector)
        _shot(projector, "class-projector-360", tmp_path)
        # the dashboard: where each is, the grid, as laugh class report counts it
        teacher.goto(f"{srv.base}/teacher")
        assert wait_until(lambda: "1/3" in teacher.inner_text("#class-total"), 20)
        where = teacher.inner_text("table.where")
        assert where.count("Lesson 1, page 5 of 5") == 3
        problems += _axe(teacher)
        _shot(teacher, "class-dashboard-1280", tmp_path)
        teacher.set_viewport_size({"width": 360, "height": 740})
        _fits(teacher)
        _shot(teacher, "class-dashboard-360", tmp_path)
        # self-paced again: a student's course, with their personal code
        with projector.expect_navigation():
            projector.click("text=Self-paced")
        assert "The class goes at its own pace" in projector.inner_text("main")
        problems += _axe(projector)
        cy = students["Cy"]
        _goto_past_follow(cy, cy.url.split("/lesson/")[0] + "/")
        assert cy.locator("strong.code").count() == 1
        problems += _axe(cy)
        _fits(cy)
        _shot(cy, "class-course-360", tmp_path)
        for p in (teacher, projector, *students.values()):
            assert not p.laugh_errors, p.laugh_errors
    finally:
        srv.stop()
    assert not problems, problems


_DRAWN = """() => Array.from(document.querySelectorAll('pre.board'))
  .filter((el) => el.offsetParent !== null)
  .map((el) => [Math.max(...el.innerText.split('\\n').map((l) => l.length)),
                el.scrollWidth, el.clientWidth])"""


def test_a_drawing_fits_the_window_at_360_and_at_1280(tmp_path, pages):
    """Issue 44: a drawing (a records grid, a puzzle's position and question) is shown at a
    width that fits the window: 40 columns on a phone, 72 at 1,280 px (not a phone's 40 in a
    wide column), and never wider than its box."""
    srv = Served(WebApp(store=tmp_path / "progress.sqlite3", token=TOKEN))
    page = pages(360, 740)
    seen = {360: [], 1280: []}
    try:
        page.goto(f"{srv.base}/s/{TOKEN}/lesson/history")
        for _ in range(10):
            for width in (360, 1280):
                page.set_viewport_size({"width": width, "height": 800})
                seen[width] += page.evaluate(_DRAWN)
                if width == 360:
                    _fits(page)
            if page.locator("#answer").count():
                _shot(page, "web-drawing-1280", tmp_path)
                page.set_viewport_size({"width": 360, "height": 740})
                _shot(page, "web-drawing-360", tmp_path)
                break
            with page.expect_navigation():
                page.click("button[value=next]")
        else:
            raise AssertionError("lesson 1 posed no puzzle")
        assert not page.laugh_errors
    finally:
        srv.stop()
    assert seen[360] and seen[1280]
    for width, drawn in seen.items():
        for columns, scroll, box in drawn:
            assert scroll <= box, f"a drawing runs out of its box at {width} px"
            assert columns <= (40 if width == 360 else 72), (width, columns)
    assert max(c for c, _, _ in seen[1280]) > 40  # the room of a wide window is used
