"""The course's pages in process (issue 44: ``laugh web``, ``laugh class serve``), through
Starlette's test client: a puzzle's page holds its question and options and nothing of its
answer until the learner has answered; the same learner loop grades it on the server (the
second try and its nudge, then the explanation); a student's token opens their own progress
and no one else's; a hostile name is text; every page carries the Content-Security-Policy."""

from __future__ import annotations

import re
import warnings

import pytest

from tutor.app.web.server import CSP, ClassRoom, WebApp
from tutor.app.web.webio import plain_text
from tutor.puzzles.render import render_explanation, render_puzzle

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

TOKEN = "t0ken-of-the-learner-xyz"


def _form(html: str) -> tuple[str, int] | None:
    """The page's answer form: its address and question number (None: no question)."""
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


def _words(html: str) -> str:
    """The page's text as a reader sees it: tags out, entities read."""
    from html import unescape

    return unescape(re.sub(r"<[^>]+>", "", html))


def _to_first_puzzle(client, web, token: str):
    """Page on through lesson 1 to its first puzzle: the page, and the puzzle asked."""
    html = client.get(f"/s/{token}/lesson/history").text
    for _ in range(20):
        if 'id="answer"' in html:
            return html, web.learner(token).session.runner.current
        html = _send(client, html, "next")
    raise AssertionError("lesson 1 posed no puzzle")


@pytest.fixture
def solo(tmp_path):
    web = WebApp(store=tmp_path / "progress.sqlite3", token=TOKEN)
    with TestClient(web.app) as client:
        yield web, client
    web.close()


def test_a_puzzles_page_holds_its_question_and_nothing_of_its_answer(solo):
    web, client = solo
    html, puzzle = _to_first_puzzle(client, web, TOKEN)
    question = plain_text(render_puzzle(puzzle, console_width=40))
    words = [w for w in question.split() if len(w) > 3]
    assert words and all(w in _words(html) for w in words)  # the question is on the page
    wrong = puzzle._the_kind().wrong_answer(puzzle)
    grade = puzzle.grade(wrong, 2)
    explained = plain_text(render_explanation(puzzle, grade))
    asked = " ".join(question.split())  # the question's words, however a width wraps them
    secret = [
        ln.strip()
        for ln in explained.splitlines()
        if len(ln.strip()) > 12 and " ".join(ln.split()) not in asked
    ]
    assert secret, "the explanation says nothing the question does not"
    before = _words(html)
    assert not [s for s in secret if s in before]  # nothing of it before an answer
    assert "Right" not in before and "Wrong" not in before
    html = _send(client, html, wrong)  # first try: the nudge, not the answer
    assert "One more try" in html
    assert not [s for s in secret if s in _words(html)]
    html = _send(client, html, wrong)  # second try: now it is explained
    assert [s for s in secret if s in _words(html)]


def test_a_right_answer_is_graded_on_the_server_and_saved(solo):
    web, client = solo
    html, puzzle = _to_first_puzzle(client, web, TOKEN)
    html = _send(client, html, puzzle.expected_answer_text())
    assert "You answered" in html
    from tutor.teaching.progress import ProgressStore

    with ProgressStore(web.solo.store) as store:
        answers = store.answers()
    assert [(a.puzzle_id, a.correct, a.lesson) for a in answers] == [(puzzle.id, True, "history")]


def test_a_stale_form_answers_nothing(solo):
    web, client = solo
    html, puzzle = _to_first_puzzle(client, web, TOKEN)
    action, n = _form(html)
    client.post(action, data={"n": str(n), "text": puzzle.expected_answer_text()})
    again = client.post(action, data={"n": str(n), "text": "quit"})  # sent twice
    assert 'id="answer"' in again.text or "next" in again.text
    from tutor.teaching.progress import ProgressStore

    with ProgressStore(web.solo.store) as store:
        assert len(store.answers()) == 1


def test_every_page_has_the_policy_and_an_unknown_token_opens_nothing(solo):
    web, client = solo
    for path in (
        "/",
        f"/s/{TOKEN}/",
        f"/s/{TOKEN}/lesson/history",
        "/s/nobody-at-all-here/",
        "/s/nobody-at-all-here/lesson/history",
        "/static/web.css",
    ):
        r = client.get(path)
        assert r.headers["content-security-policy"] == CSP
        assert r.headers["x-content-type-options"] == "nosniff"
        assert "<script>" not in r.text
    assert client.get("/s/nobody-at-all-here/").status_code == 404
    assert client.get("/s/nobody-at-all-here/lesson/history").status_code == 404
    assert (
        client.post(
            "/s/nobody-at-all-here/lesson/history", data={"n": "1", "text": "next"}
        ).status_code
        == 404
    )


def _join(client, room, name):
    r = client.post("/join", data={"code": room.code.lower(), "name": name}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].split("/")[2]


def test_a_student_cannot_read_or_answer_for_another(tmp_path):
    room = ClassRoom(tmp_path / "class")
    web = WebApp(room=room)
    try:
        with TestClient(web.app) as client:
            ann, bob = _join(client, room, "Ann"), _join(client, room, "Bob")
            assert ann != bob and len(ann) >= 24
            html, puzzle = _to_first_puzzle(client, web, ann)
            _send(client, html, puzzle.expected_answer_text())
            # Bob's pages are Bob's: his course shows nothing begun, his lesson its first page
            course = client.get(f"/s/{bob}/").text
            assert 'Welcome, <span class="name">Bob</span>' in course
            assert "in progress" not in course
            # a token one letter off opens nothing
            near = ann[:-1] + ("A" if ann[-1] != "A" else "B")
            assert client.get(f"/s/{near}/").status_code == 404
            # the files: Ann's answer in Ann's store only
            from tutor.teaching.progress import ProgressStore

            (na, fa), (nb, fb) = room.roster()
            with ProgressStore(fa) as a, ProgressStore(fb) as b:
                assert (na, len(a.answers())) == ("Ann", 1)
                assert (nb, len(b.answers())) == ("Bob", 0)
            # the tokens are not kept in the class's file, only their digests
            kept = (tmp_path / "class" / "class.json").read_text()
            assert ann not in kept and bob not in kept
            # the dashboard wants the teacher's code
            assert client.post("/teacher", data={"code": room.code}).status_code == 403
            grid = client.post("/teacher", data={"code": room.teacher_code}).text
            assert "Ann" in grid and "1/1" in grid
            # the grid is laugh class report's over the students' exports
            from tutor.teaching.classreport import build_report
            from tutor.teaching.transfer import read_export, write_export

            files = []
            for name, path in room.roster():
                with ProgressStore(path) as store:
                    write_export(store, tmp_path / f"{name}.json", name)
                files.append((f"{name}.json", read_export(tmp_path / f"{name}.json")))
            report, shown = build_report(files), web._grid()
            assert [(ln.name, ln.total, ln.cells) for ln in report.learners] == [
                (ln.name, ln.total, ln.cells) for ln in shown.learners
            ]
            assert all(t.label in _words(grid) for t in shown.themes) and shown.themes
    finally:
        web.close()


def test_a_wrong_code_or_a_bad_name_is_said_and_joins_nobody(tmp_path):
    room = ClassRoom(tmp_path / "class")
    web = WebApp(room=room)
    with TestClient(web.app) as client:
        r = client.post(
            "/join",
            data={"code": "ZZZZZZ" if room.code != "ZZZZZZ" else "YYYYYY", "name": "Ann"},
            follow_redirects=False,
        )
        assert r.status_code == 400 and "not this class" in r.text
        r = client.post(
            "/join", data={"code": room.code, "name": "Ann\u202eevil"}, follow_redirects=False
        )
        assert r.status_code == 400
        r = client.post("/join", data={"code": room.code, "name": "x" * 41}, follow_redirects=False)
        assert r.status_code == 400
    assert room.roster() == []


def test_a_hostile_name_is_text(tmp_path):
    room = ClassRoom(tmp_path / "class")
    web = WebApp(room=room)
    name = '<script>alert(1)</script>"&'
    try:
        with TestClient(web.app) as client:
            tok = _join(client, room, name)
            course = client.get(f"/s/{tok}/").text
            assert "<script>alert" not in course
            assert "&lt;script&gt;alert(1)&lt;/script&gt;&#34;&amp;" in course
            grid = client.post("/teacher", data={"code": room.teacher_code}).text
            assert "<script>alert" not in grid and "&lt;script&gt;" in grid
    finally:
        web.close()


def test_a_class_served_again_keeps_its_code_and_its_students(tmp_path):
    room = ClassRoom(tmp_path / "class")
    web = WebApp(room=room)
    with TestClient(web.app) as client:
        tok = _join(client, room, "Ann")
    again = ClassRoom(tmp_path / "class")
    assert (again.code, again.teacher_code) == (room.code, room.teacher_code)
    web2 = WebApp(room=again)
    with TestClient(web2.app) as client:
        assert "Ann" in client.get(f"/s/{tok}/").text


def test_the_commands_print_their_addresses_codes_and_qr(tmp_path, monkeypatch, capsys):
    from tutor.app.cli import main
    from tutor.app.commands import web as cmd

    served = []
    monkeypatch.setattr(cmd, "serve", lambda web, sock, stopped: served.append(web) or sock.close())
    real = cmd._listen
    monkeypatch.setattr(cmd, "_listen", lambda host, port: real("127.0.0.1", port))
    monkeypatch.setattr(cmd, "_own_ip", lambda: "192.168.1.20")
    assert main(["web", "--no-browser"]) == 0
    out = capsys.readouterr().out
    assert f"/s/{served[0].token}/" in out and "http://127.0.0.1:" in out
    from tutor.teaching.progress._store import default_path

    assert served[0].solo.store == default_path()  # the learner's own, as laugh keeps
    assert main(["class", "serve", "--host", "0.0.0.0", "--folder", str(tmp_path / "c")]) == 0
    out = capsys.readouterr().out
    room = served[1].room
    assert f"class code {room.code} " in out and room.teacher_code in out
    assert "http://192.168.1.20:" in out
    assert "▀" in out or "█" in out  # the QR code (segno)
    # one server a folder
    import filelock

    with filelock.FileLock(str(tmp_path / "c" / ".serve.lock")):
        assert main(["class", "serve", "--folder", str(tmp_path / "c")]) == 1
    assert "another server" in capsys.readouterr().err


@pytest.mark.parametrize("width", [80, 40])
def test_the_commands_wrap_their_words_at_the_terminals_width(tmp_path, monkeypatch, capsys, width):
    """``laugh web`` and ``laugh class serve`` on a terminal: each line within its width, wrapped
    at spaces, no word broken (at 80 columns "Ctrl-C stops the server." was printed as one
    82-character line, the terminal folding it as "serve" / "r."); an address wider than the
    line stands whole on a line of its own."""
    from tutor.app.cli import main
    from tutor.app.commands import web as cmd

    served = []
    monkeypatch.setattr(cmd, "serve", lambda web, sock, stopped: served.append(web) or sock.close())
    monkeypatch.setattr(cmd, "_width", lambda: width, raising=False)
    folder = tmp_path / "c"
    assert main(["web", "--no-browser"]) == 0
    assert main(["class", "serve", "--folder", str(folder)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert any("Ctrl-C stops the" in x or x.startswith("server.") for x in lines), out
    for x in lines:
        assert len(x) <= width or " " not in x, (x, out)  # too wide: a lone word only
    # every word printed whole: the words are those of the sentences, unwrapped
    words = set(" ".join(lines).split())
    assert "server." in words and "stops" in words, out
    token = f"/s/{served[0].token}/"
    assert any(w.startswith("http://127.0.0.1:") and w.endswith(token) for w in words), out
    assert served[1].room.teacher_code in words and str(folder) + "." in words, out


def test_quit_at_a_puzzle_keeps_the_place_and_the_course_says_so(solo):
    web, client = solo
    html, puzzle = _to_first_puzzle(client, web, TOKEN)
    html = _send(client, html, "help")  # the loop's words work here too
    assert "quit" in _words(html) and _form(html) is not None
    html = _send(client, html, "quit")
    assert "What comes next" in html and "continue this lesson" in html
    assert _form(html) is None
    assert "in progress, page" in client.get(f"/s/{TOKEN}/").text
    # going back in resumes the attempt where it was: the same puzzle asked again
    html = client.post(f"/s/{TOKEN}/lesson/history/again").text
    assert "Welcome back" in html
    for _ in range(10):
        if 'id="answer"' in html:
            break
        html = _send(client, html, "next")
    assert web.learner(TOKEN).session.runner.current.id == puzzle.id


def test_a_full_class_takes_no_more_students(tmp_path, monkeypatch):
    from tutor.app.web import server

    monkeypatch.setattr(server, "MAX_STUDENTS", 2)
    room = ClassRoom(tmp_path / "class")
    web = WebApp(room=room)
    with TestClient(web.app) as client:
        _join(client, room, "Ann")
        _join(client, room, "Bob")
        r = client.post("/join", data={"code": room.code, "name": "Cy"}, follow_redirects=False)
        assert r.status_code == 403 and "The class is full" in r.text
    assert [n for n, _ in room.roster()] == ["Ann", "Bob"]


def test_a_drawing_comes_at_a_phones_width_and_at_a_wide_windows(solo):
    """Issue 44: a lesson's drawings (a records grid, a puzzle's position and question, an
    explanation) are drawn 40 columns wide for a phone and 72 for a wider window (the style
    sheet shows the one that fits), not at a phone's width on a projector."""
    from html import unescape

    from tutor.app.web.webio import WIDE, WIDTH

    web, client = solo
    html = client.get(f"/s/{TOKEN}/lesson/history").text
    pairs, alone = [], []
    for _ in range(20):
        pairs += re.findall(
            r'<pre class="board narrow"[^>]*>(.*?)</pre><pre class="board wide"[^>]*>(.*?)</pre>',
            html,
            re.S,
        )
        alone += re.findall(r'<pre class="board"[^>]*>(.*?)</pre>', html, re.S)
        if 'id="answer"' in html:
            puzzle = web.learner(TOKEN).session.runner.current
            html = _send(client, html, puzzle.expected_answer_text())  # its explanation
            continue
        if _form(html) is None:
            break
        html = _send(client, html, "next")
    assert len(pairs) >= 3, "no drawing at two widths"

    def widest(text: str) -> int:
        return max(len(line) for line in unescape(text).splitlines())

    assert all(widest(n) <= WIDTH and widest(w) <= WIDE for n, w in pairs)
    assert all(widest(w) > WIDTH for _, w in pairs)  # the wide one uses the room
    assert all(widest(a) <= WIDTH for a in alone)  # one drawing: it fits a phone anyway


def test_a_name_taken_is_said_and_the_personal_code_offered(tmp_path):
    """Two students called Ann are two rows "Ann" on the teacher's dashboard: a second Ann
    (case aside) is asked to add an initial, or to type her personal code if it is her."""
    room = ClassRoom(tmp_path / "class")
    web = WebApp(room=room)
    with TestClient(web.app) as client:
        _join(client, room, "Ann")
        r = client.post("/join", data={"code": room.code, "name": " ann "}, follow_redirects=False)
        assert r.status_code == 400
        assert "is called ann already: add an initial" in _words(r.text)
        assert "personal code" in _words(r.text)
        assert [n for n, _ in room.roster()] == ["Ann"]
        _join(client, room, "Ann B.")
        assert [n for n, _ in room.roster()] == ["Ann", "Ann B."]
    web.close()


def test_a_lessons_opening_names_no_seed_and_lists_what_is_learnt(solo):
    """The page's opening: the lesson's length without the attempt's seed (a terminal's
    matter), its title once (the page's heading), what the learner will learn as a list."""
    from tutor.teaching.lessons import open_lesson

    web, client = solo
    html = client.get(f"/s/{TOKEN}/lesson/history").text
    lesson = open_lesson("history")
    assert "seed" not in _words(html).lower()
    assert f"About {lesson.minutes} minutes; {len(lesson.pages)} pages" in html
    assert _words(html).count(lesson.title) == 3  # the tab's title, the heading, the page line
    items = re.search(r"<p>You will learn to:</p><ul>(.*?)</ul>", html, re.S)
    assert items and items.group(1).count("<li>") == len(lesson.objectives)
