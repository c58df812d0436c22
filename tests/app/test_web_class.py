"""A class in the browser (issue 44), in process through Starlette's test client: the teacher
leads the class page by page and each student's page follows; the projector counts how the
class answered the page led (share right, the commonest wrong answers, the source's words, no
names unless the teacher chooses); the live dashboard shows where each student is and who is
stuck, with ``laugh class report``'s own grid; the report and each student's progress download
as files ``laugh class report`` and ``laugh progress import`` take; everything outlives a
restart of the server; a personal code opens a student's progress on another device; a student
never reaches a teacher's page."""

from __future__ import annotations

import csv
import io
import json
import re
import warnings

import pytest
from support import wait_until

from tutor.app.web.server import TEACHER_COOKIE, ClassRoom, WebApp, code_key
from tutor.teaching.lessons import open_lesson
from tutor.teaching.progress import ProgressStore

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PUZZLE_PAGE = 4  # lesson 1 ("history"): its puzzles stand on its fifth page


def _words(html: str) -> str:
    from html import unescape

    return unescape(re.sub(r"<[^>]+>", "", html))


def _form(html: str) -> tuple[str, int] | None:
    m = re.search(
        r'<form method="post" action="([^"]+)" class="prompt"[^>]*>\s*'
        r'<input type="hidden" name="n" value="(\d+)">',
        html,
    )
    return (m.group(1), int(m.group(2))) if m else None


def _send(client, html: str, text: str) -> str:
    action, n = _form(html)
    r = client.post(action, data={"n": str(n), "text": text})
    assert r.status_code == 200
    return r.text


class Class:
    """A class served in process: the teacher's client (logged in) and a client a student."""

    def __init__(self, folder):
        self.room = ClassRoom(folder)
        self.web = WebApp(room=self.room)
        self.teacher = TestClient(self.web.app)
        r = self.teacher.post(
            "/teacher", data={"code": self.room.teacher_code}, follow_redirects=False
        )
        assert r.status_code == 303 and TEACHER_COOKIE in r.headers["set-cookie"]
        assert "httponly" in r.headers["set-cookie"].lower()
        self.students: dict[str, tuple[TestClient, str]] = {}

    def join(self, name: str) -> tuple[TestClient, str]:
        c = TestClient(self.web.app)
        r = c.post("/join", data={"code": self.room.code, "name": name}, follow_redirects=False)
        assert r.status_code == 303, r.text
        token = r.headers["location"].split("/")[2]
        self.students[name] = (c, token)
        return c, token

    def page(self, name: str, lesson: str = "history") -> str:
        c, token = self.students[name]
        return c.get(f"/s/{token}/lesson/{lesson}").text

    def pace(self, do: str, **more) -> None:
        r = self.teacher.post("/teacher/pace", data={"do": do, **more}, follow_redirects=False)
        assert r.status_code == 303

    def runner(self, name: str):
        return self.web.learner(self.students[name][1]).session.runner

    def close(self) -> None:
        self.web.close()


@pytest.fixture
def klass(tmp_path):
    k = Class(tmp_path / "class")
    yield k
    k.close()


def _at_page(k: Class, name: str, page: int) -> bool:
    r = k.runner(name)
    return r is not None and r.page_now == page


def test_the_teacher_leads_and_each_students_page_follows(klass):
    k = klass
    for name in ("Ann", "Bob", "Cy"):
        k.join(name)
    k.pace("lead", lesson="history")
    assert k.room.pace.led and k.room.pace.page == 0
    for name in ("Ann", "Bob", "Cy"):
        html = k.page(name)
        assert "Your teacher moves the class on" in html  # no next/back of their own
        assert "Your teacher turns the pages" in html and "Under each page" not in html
        assert _form(html) is None and 'data-poll="' in html
    # a student's course follows the lesson led; another lesson's address too
    c, tok = k.students["Ann"]
    assert (
        c.get(f"/s/{tok}/", follow_redirects=False).headers["location"]
        == f"/s/{tok}/lesson/history"
    )
    assert c.get(f"/s/{tok}/lesson/terms", follow_redirects=False).status_code == 303
    before = c.get(f"/s/{tok}/lesson/history/v").json()["v"]
    k.pace("next")
    assert wait_until(lambda: all(_at_page(k, n, 1) for n in ("Ann", "Bob", "Cy")), 10)
    after = c.get(f"/s/{tok}/lesson/history/v").json()
    assert set(after) == {"v"} and after["v"] != before  # the page loads again
    assert "page 2 of 5" in k.page("Ann")
    k.pace("back")
    assert wait_until(lambda: all(_at_page(k, n, 0) for n in ("Ann", "Bob", "Cy")), 10)
    for _ in range(PUZZLE_PAGE):
        k.pace("next")
    assert wait_until(lambda: all(_at_page(k, n, PUZZLE_PAGE) for n in ("Ann", "Bob", "Cy")), 10)
    # every student has the class's puzzles: the same first puzzle
    assert wait_until(lambda: all(k.runner(n).current is not None for n in k.students), 10)
    first = {k.runner(n).current.id for n in k.students}
    assert len(first) == 1
    puzzle = k.runner("Ann").current
    wrong = puzzle._the_kind().wrong_answer(puzzle)
    # the projector: answers hidden until shown, counts as they come
    proj = k.teacher.get("/projector").text
    assert "0</strong> of 3 have answered" in proj
    assert "The answer:" not in proj and "The source" not in proj
    _send(*k.students["Ann"][:1], k.page("Ann"), puzzle.expected_answer_text())
    _send(*k.students["Bob"][:1], k.page("Bob"), wrong)
    _send(*k.students["Cy"][:1], k.page("Cy"), wrong)
    proj = k.teacher.get("/projector").text
    one = proj.split('id="tally-1"')[1].split('id="tally-2"')[0]
    assert '<strong class="answered">3</strong> of 3' in one
    assert "hidden until you show them" in one
    k.pace("show")
    proj = k.teacher.get("/projector").text
    one = proj.split('id="tally-1"')[1].split('id="tally-2"')[0]
    two = proj.split('id="tally-2"')[1]
    assert "The answer:" not in two and "The source" not in two  # only the puzzle shown
    assert "Show the answers to puzzle 2 of 4" in two
    assert '<strong class="right">1</strong> right at the first try (33%)' in one
    wrong_row = re.search(
        r'<li><kbd>([^<]*)</kbd>, by <span class="n">(\d+)</span> students(.*?)</li>', one
    )
    assert wrong_row, one
    assert _words(wrong_row.group(1)) == " ".join(wrong.split())
    assert wrong_row.group(2) == "2" and "Bob" not in one and "Cy" not in one
    quote = puzzle.quotes[0]
    from tutor.engine.sources import default_library

    words = default_library().quotation(quote).citation
    assert words in _words(one)  # the source's words, cited
    k.pace("names")
    one = k.teacher.get("/projector").text.split('id="tally-1"')[1].split('id="tally-2"')[0]
    assert "Bob, Cy" in one and "Ann" not in one
    # moving on hides the answers again; self-paced lets each go
    k.pace("next")
    assert not k.room.pace.shown
    k.pace("self")
    assert not k.room.pace.led


def test_a_student_reaches_no_teachers_page_and_moves_no_one(klass):
    k = klass
    c, tok = k.join("Ann")
    for path in ("/teacher", "/projector"):
        html = c.get(path).text
        assert 'id="tcode"' in html and "Ann" not in html  # the code's form, nothing else
    for path in (
        "/teacher/live",
        "/teacher/report.csv",
        "/teacher/report.html",
        "/teacher/progress/1.json",
    ):
        assert c.get(path).status_code == 403, path
    assert c.post("/teacher/pace", data={"do": "lead", "lesson": "history"}).status_code == 403
    assert not k.room.pace.led
    c.cookies.set(TEACHER_COOKIE, "0" * 64)  # a made-up cookie
    assert c.get("/teacher/live").status_code == 403
    c.cookies.set(TEACHER_COOKIE, k.room.teacher_code)  # the code itself is no cookie
    assert c.get("/teacher/live").status_code == 403
    assert k.teacher.get("/teacher/live").json()["v"] >= 0


def test_the_dashboard_shows_who_is_where_and_who_is_stuck(klass):
    k = klass
    k.join("Ann")
    k.join("<img src=x onerror=alert(1)>")
    hostile = "<img src=x onerror=alert(1)>"
    html = k.page("Ann")
    for _ in range(10):
        if 'id="answer"' in html:
            break
        html = _send(k.students["Ann"][0], html, "next")
    puzzle = k.runner("Ann").current
    v = k.teacher.get("/teacher/live").json()["v"]
    board = k.teacher.get("/teacher").text
    assert "Lesson 1, page 5 of 5" in _words(board) and "stuck" not in _words(board)
    wrong = puzzle._the_kind().wrong_answer(puzzle)
    html = _send(k.students["Ann"][0], html, wrong)
    html = _send(k.students["Ann"][0], html, wrong)
    assert k.teacher.get("/teacher/live").json()["v"] > v  # the dashboard loads again
    board = k.teacher.get("/teacher").text
    row = board.split('<tr class="stuck">')[1].split("</tr>")[0]
    assert "Ann" in row and "two wrong tries" in row
    assert hostile not in board and "&lt;img src=x onerror=alert(1)&gt;" in board
    assert "The weakest themes" in board and "0/2" in board  # first try and second, wrong
    # the next puzzle, answered right: no longer stuck
    html = k.page("Ann")
    nxt = k.runner("Ann").current
    _send(k.students["Ann"][0], html, nxt.expected_answer_text())
    assert '<tr class="stuck">' not in k.teacher.get("/teacher").text


def _to_puzzles(k: Class, name: str) -> str:
    html = k.page(name)
    for _ in range(10):
        if 'id="answer"' in html:
            return html
        html = _send(k.students[name][0], html, "next")
    raise AssertionError("no puzzle")


def test_the_downloads_are_the_class_reports_and_the_students_files(klass, tmp_path, capsys):
    from tutor.app.cli import main

    k = klass
    for i, name in enumerate(("Ann", "Bob", "=HYPERLINK(1)")):
        k.join(name)
        html = _to_puzzles(k, name)
        p = k.runner(name).current
        _send(
            k.students[name][0],
            html,
            p.expected_answer_text() if i != 1 else p._the_kind().wrong_answer(p),
        )
    files = []
    for n in (1, 2, 3):
        r = k.teacher.get(f"/teacher/progress/{n}.json")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        path = tmp_path / f"student{n}.json"
        path.write_bytes(r.content)
        files.append(str(path))
    assert main(["class", "report", *files, "--csv", str(tmp_path / "cli.csv")]) == 0
    capsys.readouterr()
    cli = list(csv.reader(io.StringIO((tmp_path / "cli.csv").read_text("utf-8"))))
    got = k.teacher.get("/teacher/report.csv")
    assert got.headers["content-type"].startswith("text/csv")
    web = list(csv.reader(io.StringIO(got.text)))
    drop = cli[0].index("file")  # the files' names differ
    assert [r[:drop] + r[drop + 1 :] for r in web] == [r[:drop] + r[drop + 1 :] for r in cli]
    assert any(r[0] == "'=HYPERLINK(1)" or r[0].startswith("'=") for r in web)
    # the dashboard's grid, cell by cell, is laugh class report's over the same files
    from html import unescape

    board = k.teacher.get("/teacher").text
    table = re.search(r'<table class="grid">(.*?)</table>', board, re.S).group(1)
    heads = [unescape(h) for h in re.findall(r'<th scope="col">([^<]*)</th>', table)]
    rows = [
        [unescape(c) for c in re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", tr)]
        for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)[1:]
    ]
    themes = heads[1:-1]
    assert themes and len(rows) == len(cli) - 1 == 4  # three learners and the class
    for got, want in zip(rows, cli[1:]):
        cells = dict(zip(cli[0], want))
        assert got[0] == want[0].lstrip("'")
        for label, cell in zip(themes, got[1:-1]):
            (col,) = [c for c in cli[0] if c.startswith(f"{label} [") and c.endswith("answers")]
            answers = cells[col]
            accuracy = cells[col.replace(": answers", ": accuracy")]
            expect = f"{round(float(accuracy) * int(answers))}/{answers}" if answers else ""
            assert cell == expect, (want[0], label)
        assert got[-1] == f"{cells['all: right']}/{cells['all: answers']}"
    html = k.teacher.get("/teacher/report.html")
    assert html.status_code == 200 and "Bob" in html.text
    # a student's own file, imported into their own laugh
    c, tok = k.students["Ann"]
    own = c.get(f"/s/{tok}/progress.json")
    assert own.status_code == 200
    (tmp_path / "mine.json").write_bytes(own.content)
    assert main(["progress", "import", str(tmp_path / "mine.json")]) == 0
    capsys.readouterr()
    with ProgressStore() as store:  # the learner's own (LAUGH_HOME of the test)
        answers = store.answers()
    assert [(a.lesson, a.correct) for a in answers] == [("history", True)]


def test_everything_outlives_a_restart(tmp_path):
    k = Class(tmp_path / "class")
    try:
        k.join("Ann")
        html = _to_puzzles(k, "Ann")
        p = k.runner("Ann").current
        _send(k.students["Ann"][0], html, p.expected_answer_text())
        k.pace("lead", lesson="history")
        k.pace("next")
        before = k.teacher.get("/teacher").text
        cookie = k.teacher.cookies.get(TEACHER_COOKIE)
        c, tok = k.students["Ann"]
    finally:
        k.close()
    # the server started again on the same folder
    room = ClassRoom(tmp_path / "class")
    web = WebApp(room=room)
    try:
        teacher = TestClient(web.app)
        teacher.cookies.set(TEACHER_COOKIE, cookie)  # still the teacher's
        after = teacher.get("/teacher").text
        grid = re.compile(r'<table class="grid">.*?</table>', re.S)
        assert grid.search(before).group(0) == grid.search(after).group(0)
        assert "1/1" in grid.search(after).group(0)
        assert room.pace.led and room.pace.page == 1
        student = TestClient(web.app)
        html = student.get(f"/s/{tok}/lesson/history").text  # the same token still opens
        # Ann was ahead of the teacher's page: she answers the rest of hers first
        assert "Welcome back" in html and _form(html) is not None
    finally:
        web.close()


def _where(board: str, name: str) -> str:
    """The dashboard's "where" cell of ``name``, as words."""
    row = re.search(rf'<th scope="row">{re.escape(name)}</th>\s*<td>(.*?)</td>', board, re.S)
    assert row, board
    return " ".join(_words(row.group(1)).split())


def test_the_dashboard_knows_where_each_was_after_a_restart(tmp_path):
    """Issue 44: after the server is started again, a student whose page has not been back
    yet is not shown as off every lesson: the dashboard says they are not seen since the
    start and where their progress store last had them; once their page is back, where they
    are."""
    k = Class(tmp_path / "class")
    try:
        k.join("Ann")
        k.join("Bob")  # joined, never opened a lesson
        html = k.page("Ann")
        html = _send(k.students["Ann"][0], html, "next")
        html = _send(k.students["Ann"][0], html, "next")
        assert "page 3 of 5" in html
        assert _where(k.teacher.get("/teacher").text, "Ann") == "Lesson 1, page 3 of 5"
        cookie = k.teacher.cookies.get(TEACHER_COOKIE)
        _, tok = k.students["Ann"]
    finally:
        k.close()
    web = WebApp(room=ClassRoom(tmp_path / "class"))
    try:
        teacher = TestClient(web.app)
        teacher.cookies.set(TEACHER_COOKIE, cookie)
        board = teacher.get("/teacher").text
        assert _where(board, "Ann") == (
            "not seen since the server started; last on lesson 1, page 3 of 5"
        )
        assert _where(board, "Bob") == "not seen since the server started"
        student = TestClient(web.app)
        assert "page 3 of 5" in student.get(f"/s/{tok}/lesson/history").text
        assert _where(teacher.get("/teacher").text, "Ann") == "Lesson 1, page 3 of 5"
    finally:
        web.close()


def test_a_student_at_a_lessons_end_is_shown_there(klass):
    """A student who finished a lesson is at its end on the dashboard, also once the
    lesson's runner has left (not "no lesson open")."""
    k = klass
    c, _ = k.join("Ann")
    html = _to_puzzles(k, "Ann")
    for _ in range(30):
        if "What comes next" in html:
            break
        if 'id="answer"' in html:
            html = _send(c, html, k.runner("Ann").current.expected_answer_text())
        else:
            html = _send(c, html, "no" if 'value="no"' in html else "finish")
    assert "Lesson complete" in html
    session = k.web.learner(k.students["Ann"][1]).session
    assert wait_until(lambda: not session.alive, 10)
    assert _where(k.teacher.get("/teacher").text, "Ann") == "Lesson 1, at its end"


def test_a_personal_code_goes_on_on_another_device(klass):
    k = klass
    c, tok = k.join("Ann")
    course = c.get(f"/s/{tok}/").text
    code = re.search(r'<strong class="code">([A-Z0-9-]+)</strong>', course).group(1)
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code)
    assert not set(code) & set("01OIL")
    html = _to_puzzles(k, "Ann")
    p = k.runner("Ann").current
    _send(c, html, p.expected_answer_text())
    other = TestClient(k.web.app)
    typed = " " + code.lower().replace("-", " ") + " "
    assert code_key(typed) == code_key(code)
    r = other.post("/continue", data={"personal": typed}, follow_redirects=False)
    assert r.status_code == 303
    tok2 = r.headers["location"].split("/")[2]
    assert tok2 != tok
    page = other.get(f"/s/{tok2}/").text
    assert 'Welcome, <span class="name">Ann</span>' in page and "in progress" in page
    assert [n for n, _ in k.room.roster()] == ["Ann"]  # one student, two devices
    assert tok2 not in (k.room.folder / "class.json").read_text()
    # a wrong code joins nobody; ten wrong in a minute, and the address waits
    for _ in range(10):
        r = other.post("/continue", data={"personal": "AAAA-AAAA"}, follow_redirects=False)
        assert r.status_code == 400 and "No student has that personal code" in r.text
    r = other.post("/continue", data={"personal": code}, follow_redirects=False)
    assert r.status_code == 429
    assert json.loads((k.room.folder / "class.json").read_text())["students"]


def test_the_projector_and_dashboard_are_made_once_per_change(klass, monkeypatch):
    """Thirty pages asking every second and a dashboard do not read thirty stores each time:
    what a teacher's page shows is made again only when something changed."""
    k = klass
    k.join("Ann")
    k.pace("lead", lesson="history")
    made = []
    real = k.web._make_grid
    monkeypatch.setattr(k.web, "_make_grid", lambda: made.append(1) or real())
    for _ in range(5):
        k.teacher.get("/teacher")
    assert len(made) == 1
    k.pace("next")  # a page turned: no answer more, the same grid
    k.teacher.get("/teacher")
    assert len(made) == 1
    k.pace("self")
    html = _to_puzzles(k, "Ann")
    _send(k.students["Ann"][0], html, "show")
    assert "0/1" in k.teacher.get("/teacher").text
    assert len(made) == 2


def test_a_lesson_led_has_the_lessons_pages(klass):
    k = klass
    k.pace("lead", lesson="history")
    pages = len(open_lesson("history").pages)
    for _ in range(pages + 3):
        k.pace("next")
    assert k.room.pace.page == pages  # the end, no further
    assert "The lesson's end" in k.teacher.get("/projector").text


def test_class_serve_lead_starts_the_class_teacher_led(tmp_path, monkeypatch, capsys):
    from tutor.app.cli import main
    from tutor.app.commands import web as cmd

    served = []
    monkeypatch.setattr(cmd, "serve", lambda web, sock, stopped: served.append(web) or sock.close())
    assert main(["class", "serve", "--folder", str(tmp_path / "c"), "--lead", "1"]) == 0
    out = capsys.readouterr().out
    assert served[0].room.pace.led and served[0].room.pace.lesson == "history"
    assert "Teacher-led: lesson 1, " in out and ", page 1;" in out
    assert "lesson history" not in out and "/projector" in out
    assert main(["class", "serve", "--folder", str(tmp_path / "c"), "--lead", "nope"]) == 2
    assert "no lesson 'nope'" in capsys.readouterr().err


def test_a_student_at_their_own_page_is_taken_over_when_the_teacher_leads(klass):
    k = klass
    c, tok = k.join("Ann")
    html = k.page("Ann")
    assert "[next/back/quit]" in html or _form(html) is not None  # self-paced: her buttons
    assert 'data-poll="' in html  # and it follows the pace
    v = c.get(f"/s/{tok}/lesson/history/v").json()["v"]
    k.pace("lead", lesson="history")
    k.pace("next")
    k.pace("next")
    assert wait_until(lambda: _at_page(k, "Ann", 2), 10)  # no click of hers
    assert c.get(f"/s/{tok}/lesson/history/v").json()["v"] != v
    html = k.page("Ann")
    assert "page 3 of 5" in html and "Your teacher moves the class on" in html
    assert _form(html) is None
    k.pace("self")  # and let go again
    assert wait_until(lambda: _form(k.page("Ann")) is not None, 10)


def test_a_client_gone_before_its_form_came_answers_nothing():
    import asyncio

    from starlette.requests import Request

    from tutor.app.web.server import read_form

    async def gone():
        return {"type": "http.disconnect"}

    request = Request({"type": "http", "method": "POST", "headers": []}, gone)
    assert asyncio.run(read_form(request)) == {}


def test_the_projector_counts_first_tries_and_lists_a_give_up_apart():
    """The tally reads each student's first try as their store keeps it (a second try or a
    fresh puzzle after a miss is no first answer), its words from the session; ``show`` is
    listed as giving up, not as an answer "show"; wrong answers are counted by what they mean
    as the grader reads them (``b``, ``B`` and ``(b)`` are one answer, listed as typed most
    often); words the grader cannot read are listed apart, never merged with a graded one."""
    from tutor.app.puzzling import generate
    from tutor.app.web.lesson import Try
    from tutor.app.web.live import GAVE_UP, tally
    from tutor.teaching.progress import Answer

    p = generate("reading", seed=5)
    right = p.expected_answer_text()
    w = p._the_kind().wrong_answer(p)
    assert w.lower() != w.upper()

    def a(correct, at, retry=False):
        return Answer(at, p.id, p.kind, tuple(p.themes), correct, None, retry=retry)

    def t(text, correct, retry=False, revealed=False):
        return Try(p.id, text, correct, retry, revealed, 0.0)

    students = [
        ("Ann", [a(True, 1)], [t(right, True)]),
        ("Bob", [a(False, 1), a(True, 2, retry=True)], [t(w.lower(), False), t(right, True, True)]),
        ("Cy", [a(False, 1)], [t(w.upper() + " ", False)]),
        ("Dee", [a(False, 1)], [t(w.upper(), False)]),
        ("Gus", [a(False, 1)], [t(f"({w.upper()})", False)]),
        ("Di", [a(False, 1)], [t("show", False, revealed=True)]),
        ("Eve", [a(False, 1)], [t(f"{w} zz", False)]),  # words no grader reads
        ("Ed", [a(False, 1)], []),  # answered before a restart
        ("Flo", [], []),  # not yet
    ]
    got = tally("Puzzle", p, students)
    assert (got.students, got.answered, got.right, got.unknown) == (9, 8, 1, 1)
    assert got.wrong == [(w.upper(), 4, ["Bob", "Cy", "Dee", "Gus"]), (GAVE_UP, 1, ["Di"])]
    assert got.unread == [(f"{w} zz", 1, ["Eve"])]
    assert abs(got.share - 1 / 8) < 1e-9


def test_an_answer_means_what_its_grader_reads():
    """:func:`tutor.puzzles.answers.meaning`: one key for answers read alike (case, spaces,
    brackets), another for another answer, None for words that cannot be read."""
    from tutor.app.puzzling import generate
    from tutor.puzzles.answers import meaning

    p = generate("reading", seed=5)
    w = p._the_kind().wrong_answer(p)
    right = p.expected_answer_text()
    assert meaning(p, w.lower()) == meaning(p, f" ({w.upper()}) ") is not None
    assert meaning(p, right) != meaning(p, w) and meaning(p, right) is not None
    assert meaning(p, "zz") is None and meaning(p, "") is None


def test_the_projector_shows_unread_answers_apart_and_as_text():
    """The projector's page lists words the grader cannot read under a heading of their own,
    escaped, never among the commonest wrong answers."""
    from tutor.app.puzzling import generate
    from tutor.app.web.live import Tally, question_text, source_words
    from tutor.app.web.server import Pace, _environment
    from tutor.teaching.lessons import course_index

    p = generate("reading", seed=5)
    t = Tally("Puzzle 1 of 1", p, 3, 3, 1, wrong=[("A", 1, ["Bob"])], unread=[("<zz>", 1, ["Eve"])])
    view = {
        "entry": course_index()[0],
        "page": 5,
        "pages": 5,
        "tallies": [t],
        "here": 3,
        "sources": source_words,
        "question": question_text,
        "students": 3,
    }
    html = (
        _environment()
        .get_template("projector.html.j2")
        .render(
            view=view, pace=Pace(mode="led", lesson="history", shown=1), lessons=[], v=1, poll=""
        )
    )
    wrong = html.split('<ul class="wrong">')[1].split("</ul>")[0]
    unread = html.split("Answers the program cannot read")[1].split("</ul>")[0]
    assert "zz" not in wrong and "<kbd>A</kbd>, by" in wrong
    assert '<kbd>&lt;zz&gt;</kbd>, by <span class="n">1</span> student' in unread
    assert "Eve" not in html  # no names unless the teacher shows them
