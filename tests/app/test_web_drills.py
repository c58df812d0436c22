"""The drills in the browser (issue 44, item 2), in process through Starlette's test client:
the oversight streak, the counting trainer and the settlement drill, each the terminal's own
drill talking to a page (:mod:`tutor.app.web.drills`).  For each: a position or question is
served with nothing of its answer; a right answer and a wrong one are graded on the server (the
engine's verdict, the explanation after); the answer is saved in the learner's progress store;
a word that cannot be read is said and never graded.  The server keeps the clock: a question's
time counts from when its page was sent, and runs out on the server."""

from __future__ import annotations

import re
import threading
import time
import warnings
from html import unescape

import pytest

from tutor.app.clock import VirtualClock
from tutor.app.web.server import CSP, ClassRoom, WebApp
from tutor.app.web.webio import WebIO, plain_text
from tutor.teaching.progress import ProgressStore

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

TOKEN = "t0ken-of-the-drilling-learner"


def _form(html: str) -> tuple[str, int] | None:
    m = re.search(
        r'<form method="post" action="([^"]+)" class="prompt"[^>]*>\s*'
        r'<input type="hidden" name="n" value="(\d+)">',
        html,
    )
    return (m.group(1), int(m.group(2))) if m else None


def _send(client, html: str, text: str) -> str:
    found = _form(html)
    assert found, _words(html)
    action, n = found
    r = client.post(action, data={"n": str(n), "text": text})
    assert r.status_code == 200
    return r.text


def _words(html: str) -> str:
    """The page's text as a reader sees it."""
    return unescape(re.sub(r"<[^>]+>", "", html))


def _answers(web) -> list:
    with ProgressStore(web.solo.store) as store:
        return store.answers()


@pytest.fixture
def solo(tmp_path):
    web = WebApp(store=tmp_path / "progress.sqlite3", token=TOKEN)
    with TestClient(web.app) as client:
        yield web, client
    web.close()


def _keep(monkeypatch, cls, name: str) -> list:
    """Every value ``cls.name`` returns, kept (the puzzle or deal a drill has just set)."""
    made: list = []
    real = getattr(cls, name)

    def keeping(self, *a, **kw):
        made.append(real(self, *a, **kw))
        return made[-1]

    monkeypatch.setattr(cls, name, keeping)
    return made


# -- the oversight drill ----------------------------------------------------------------------


@pytest.fixture
def streak(solo, monkeypatch):
    from tutor.teaching.drills.oversights import OversightDrill

    puzzles = _keep(monkeypatch, OversightDrill, "next_puzzle")
    web, client = solo
    return web, client, puzzles


def _explained(puzzle, answer: str) -> list[str]:
    """The lines of the explanation a miss gets that the position does not show."""
    from tutor.puzzles.render import render_explanation
    from tutor.teaching.drills.oversights import position_screen

    shown = plain_text(position_screen(puzzle, True))
    text = plain_text(render_explanation(puzzle, puzzle.grade(answer, 1)))
    return [
        ln.strip() for ln in text.splitlines() if len(ln.strip()) > 15 and ln.strip() not in shown
    ]


def _card_in(card: int, text: str) -> bool:
    """Whether ``text`` shows ``card`` (``7♣``, or in a group of its rank: ``7♦♣``)."""
    from tutor.engine.cards import pretty_cards

    shown = pretty_cards([card])
    rank, suit = re.escape(shown[:-1]), re.escape(shown[-1])
    return re.search(rf"(?<![0-9]){rank}[♣♦♥♠]*{suit}", text) is not None


def _wrong(puzzle) -> str:
    return "pass" if puzzle.answer["claims"] else puzzle._the_kind().wrong_answer(puzzle)


def test_a_position_is_served_alone_and_a_right_answer_graded_and_saved(streak):
    from tutor.teaching.drills.oversights import position_screen

    web, client, puzzles = streak
    html = client.get(f"/s/{TOKEN}/drill/streak").text
    assert "Oversight streak" in html and len(puzzles) == 1
    puzzle = puzzles[0]
    page = _words(html)
    # the position is the learner's view, exactly the terminal's screen of it
    assert plain_text(position_screen(puzzle, True)) in page
    # no card of another player's hand anywhere in the page (alone, or in a group: J♣♦)
    deal = puzzle.deal()
    hidden = [c for q in range(deal.n) if q != puzzle.seat for c in deal.hand(q)]
    assert hidden and not [c for c in hidden if _card_in(c, page)]
    assert all(_card_in(c, page) for c in deal.hand(puzzle.seat))  # the check finds cards
    # nothing of the answer, the verdict or the explanation before an answer
    secret = _explained(puzzle, _wrong(puzzle))
    assert secret and not [s for s in secret if s in page]
    assert "✓" not in page and "✗" not in page and "streak 1" not in page
    # the clock is the server's, shown with the time the position has
    assert re.search(r'id="clock" data-left="(19|20)\.\d"', html)
    html = _send(client, html, puzzle.expected_answer_text())
    page = _words(html)
    assert "✓" in page and "streak 1" in page
    assert len(puzzles) == 2  # the next position, with the verdict on this one above it
    (a,) = _answers(web)
    assert (a.puzzle_id, a.correct) == (puzzle.id, True)
    assert a.seconds is not None and 0 <= a.seconds < 10  # timed by the server


def test_a_wrong_answer_ends_the_streak_explained_with_the_terminals_result(streak):
    from tutor.teaching.drills.oversights import judged

    web, client, puzzles = streak
    html = client.get(f"/s/{TOKEN}/drill/streak").text
    right = 0
    for _ in range(12):  # right answers until one judged by counting or the ruleset
        p = puzzles[-1]
        if judged(p) and right:
            break
        html = _send(client, html, p.expected_answer_text())
        right += 1
    puzzle = puzzles[-1]
    assert judged(puzzle), "no position judged by counting or the ruleset in twelve"
    secret = _explained(puzzle, _wrong(puzzle))
    assert not [s for s in secret if s in _words(html)]
    html = _send(client, html, _wrong(puzzle))
    page = _words(html)
    assert [s for s in secret if s in page]  # now it is explained
    assert f"Streak: {right}" in page
    # the line on the positions judged by counting, as the terminal's drill says it
    judged_right = sum(1 for p in puzzles[:-1] if judged(p))
    n = judged_right + 1
    assert f"Judged by counting or the ruleset: {judged_right} of {n} right" in page
    assert "Another streak?" in page
    html = _send(client, html, "no")
    page = _words(html)
    assert "Take this drill again" in page and f"Streak: {right}" in page  # the result stays
    answers = _answers(web)
    assert [a.correct for a in answers] == [True] * right + [False]
    with ProgressStore(web.solo.store) as store:
        from tutor.teaching.drills.oversights import best_key

        assert store.get_meta(best_key("streak", None)) == repr(right)


def test_a_storm_ends_with_the_terminals_result(streak, monkeypatch):
    web, client, puzzles = streak
    monkeypatch.setitem(web.drills.kinds["storm"].settings, "positions", 3)
    html = client.get(f"/s/{TOKEN}/drill/storm").text
    assert re.search(r'id="clock" data-left="1[78]\d\.\d"', html)  # three minutes, less
    html = _send(client, html, puzzles[-1].expected_answer_text())
    assert "combo 1" in _words(html)
    missed = puzzles[-1]
    html = _send(client, html, _wrong(missed))
    assert "✗ -10 s" in _words(html)
    html = _send(client, html, puzzles[-1].expected_answer_text())
    page = _words(html)
    assert "Storm over: score 2, 1 mistake" in page and "Missed (1):" in page
    missed_line = page.split("Missed (1):")[1].split("Storm over")[0]
    assert "2. passed" in missed_line or "2. said" in missed_line  # the second position
    assert missed.id not in page  # a page gives no id to type at a terminal (test_web_front)
    assert page.index("Missed (1):") < page.index("Storm over")
    assert "Another storm?" in page
    assert [a.correct for a in _answers(web)] == [True, False, True]


def test_an_unknown_or_hostile_word_is_said_and_never_graded(streak):
    web, client, puzzles = streak
    html = client.get(f"/s/{TOKEN}/drill/streak").text
    html = _send(client, html, "claim <script>alert(1)</script> banana")
    assert "<script>alert" not in html  # shown as text
    page = _words(html)
    assert "<script>alert(1)</script>" in page or "banana" in page  # the refusal says it
    assert "✓" not in page and "✗" not in page
    assert _answers(web) == []  # not graded
    assert len(puzzles) == 1 and _form(html) is not None  # the same position, asked again
    html = _send(client, html, "")  # Enter alone passes: graded
    assert len(_answers(web)) == 1


def test_a_positions_time_runs_out_on_the_server(solo, monkeypatch):
    web, client = solo
    monkeypatch.setitem(web.drills.kinds["streak"].settings, "limit", 0.2)
    html = client.get(f"/s/{TOKEN}/drill/streak").text
    action, n = _form(html)
    time.sleep(0.6)  # past the limit by as much as before (it was 0.6 s, 1.0 s)
    late = client.post(action, data={"n": str(n), "text": "pass"})
    page = _words(late.text)
    assert "Time is up" in page and "Streak: 0" in page  # the answer came too late
    (a,) = _answers(web)
    assert (a.correct, a.seconds) == (False, None)


def test_the_time_counts_from_when_the_page_was_sent():
    """WebIO's clock: a question of 4 s posed at 0 and sent to a page at 5 is still asked at
    8.5 (its time runs from 5), and an answer then took 3.5 s; unsent, it would be over."""
    io = WebIO()
    clock = VirtualClock(100.0)
    io.clock = clock
    got: list = []
    t = threading.Thread(target=lambda: got.append(io.read("claim or pass> ", 4.0)))
    t.start()
    for _ in range(200):
        _, prompt = io.screen()
        if prompt is not None:
            break
        time.sleep(0.01)
    clock.advance(5.0)  # the page is sent 5 s after the question was posed
    io.served(prompt.number)
    io.served(prompt.number)  # sent again (a reload): the time still counts from the first
    clock.advance(3.5)
    io.nudge()
    time.sleep(0.05)
    assert t.is_alive() and io.screen()[1] is not None  # still asked
    assert io.submit("pass", prompt.number, wait=0.0)  # no next question comes: none waited for
    t.join(5)
    (reply,) = got
    assert reply is not None and reply.at - 100.0 == pytest.approx(3.5)


def test_an_unsent_questions_time_counts_from_its_posing():
    io = WebIO()
    clock = VirtualClock(0.0)
    io.clock = clock
    got: list = []
    t = threading.Thread(target=lambda: got.append(io.read("claim or pass> ", 4.0)))
    t.start()
    for _ in range(200):
        if io.screen()[1] is not None:
            break
        time.sleep(0.01)
    clock.advance(4.0)
    io.nudge()
    t.join(5)
    assert got == [None] and io.screen()[1] is None


# -- the counting trainer -----------------------------------------------------------------------


def _count_answer(rnd) -> str:
    from tutor.engine.observe import observe

    view = observe(rnd.deal, rnd.seat)
    return " ".join(str(view.unseen[r]) for r in rnd.ranks)


def test_the_counting_trainer_scrolls_then_grades_from_memory(solo, monkeypatch):
    from tutor.teaching.drills.count import CountDrill

    web, client = solo
    rounds = _keep(monkeypatch, CountDrill, "make_round")
    # the most cards a second the drill allows
    monkeypatch.setitem(web.drills.kinds["count"].settings, "speed", 50.0)
    monkeypatch.setitem(web.drills.kinds["count"].settings, "rounds", 1)
    html = client.get(f"/s/{TOKEN}/drill/count").text
    assert "Round 1" in _words(html) and "Start" in html
    html = _send(client, html, "")  # Enter to start: the scroll, and no question meanwhile
    assert 'id="scroll"' in html and _form(html) is None
    # without the page's script, the lines so far, the page loading again each second
    assert '<noscript><meta http-equiv="refresh" content="1"></noscript>' in html
    shown = [html.count("<li>")]
    for _ in range(200):
        if _form(html):
            break
        assert 'id="scroll"' in html  # the scroll's lines, what the learner watches
        time.sleep(0.05)
        html = client.get(f"/s/{TOKEN}/drill/count").text
        if 'id="scroll"' in html:
            shown.append(html.count("<li>"))
    assert len(shown) > 1 and shown[-1] > shown[0]  # one by one, at the drill's pace
    (rnd,) = rounds
    page = _words(html)
    assert "Stop!" in page and "are unseen?" in page
    assert 'id="scroll"' not in html  # the scroll is gone: from memory
    deal = rnd.deal  # no card of another player's hand on the page
    hidden = [c for q in range(deal.n) if q != rnd.seat for c in deal.hand(q)]
    assert not [c for c in hidden if _card_in(c, page)]
    assert all(_card_in(c, page) for c in deal.hand(rnd.seat))
    assert "The answer:" not in page and "✓" not in page and "- table" not in page
    # a word that is not a number: said, never graded
    html = _send(client, html, "banana")
    assert "is not a number" in _words(html) and _answers(web) == []
    want = _count_answer(rnd)
    wrong = " ".join(str((int(x) + 1) % 5) for x in want.split())
    html = _send(client, html, wrong)
    page = _words(html)
    assert f"The answer: {want}" in page and "- table" in page  # the replay of what was missed
    (a,) = _answers(web)
    assert (a.kind, a.correct) == ("count", False)


def test_a_right_count_is_graded_right_and_saved(solo, monkeypatch):
    from tutor.teaching.drills.count import CountDrill

    web, client = solo
    rounds = _keep(monkeypatch, CountDrill, "make_round")
    monkeypatch.setitem(web.drills.kinds["count"].settings, "speed", 200.0)
    html = client.get(f"/s/{TOKEN}/drill/count").text
    html = _send(client, html, "")
    for _ in range(100):
        if _form(html):
            break
        time.sleep(0.05)
        html = client.get(f"/s/{TOKEN}/drill/count").text
    html = _send(client, html, _count_answer(rounds[0]))
    assert "✓" in _words(html)
    a = _answers(web)[0]
    assert (a.kind, a.correct) == ("count", True) and a.seconds is not None


# -- the settlement drill -----------------------------------------------------------------------


def test_a_settlement_is_graded_on_the_server_and_saved(solo, monkeypatch):
    from tutor.teaching.drills.settle import SettleDrill

    web, client = solo
    questions = _keep(monkeypatch, SettleDrill, "make_question")
    html = client.get(f"/s/{TOKEN}/drill/settle").text
    (q,) = questions
    working = q.deal.game.working(q.deal.final_result().settlement[q.seat])
    page = _words(html)
    assert "won in play" in page and "?" in page
    assert working not in page and "✓" not in page and "✗" not in page  # nothing before
    html = _send(client, html, "three <b>")
    assert "<b>" not in html.split('class="screen"')[1] or "&lt;b&gt;" in html
    assert "is not a whole number" in _words(html) and _answers(web) == []
    html = _send(client, html, str(q.answer))
    page = _words(html)
    assert "✓" in page and working in page
    q2 = questions[1]
    w2 = q2.deal.game.working(q2.deal.final_result().settlement[q2.seat])
    assert w2 not in page.split("won in play")[1]  # the next deal, its working unsaid
    html = _send(client, html, str(q2.answer + 1))
    assert f"✗ {w2}" in _words(html)
    answers = _answers(web)
    assert [(a.kind, a.correct) for a in answers] == [("settlement", True), ("settlement", False)]
    html = _send(client, html, "quit")
    assert "Settlement: 1/2 right" in _words(html) and "Take this drill again" in html


# -- the pages --------------------------------------------------------------------------------


def test_the_course_links_the_drills_and_the_pages_keep_the_policy(solo):
    web, client = solo
    course = client.get(f"/s/{TOKEN}/").text
    for name in ("streak", "storm", "count", "settle"):
        assert f'href="/s/{TOKEN}/drill/{name}"' in course
    for path in (f"/s/{TOKEN}/drill/settle", f"/s/{TOKEN}/drill/settle/v"):
        r = client.get(path)
        assert r.headers["content-security-policy"] == CSP
        assert "<script>" not in r.text
    assert client.get(f"/s/{TOKEN}/drill/nonsense").status_code == 404
    assert client.get("/s/nobody-at-all-here/drill/settle").status_code == 404
    assert client.post("/s/nobody-at-all-here/drill/settle", data={"n": "1"}).status_code == 404


def test_a_students_drill_is_theirs_alone(tmp_path):
    room = ClassRoom(tmp_path / "class")
    web = WebApp(room=room)
    try:
        with TestClient(web.app) as client:
            tokens = []
            for name in ("Ann", "Bob"):
                r = client.post(
                    "/join", data={"code": room.code, "name": name}, follow_redirects=False
                )
                tokens.append(r.headers["location"].split("/")[2])
            ann, bob = tokens
            html = client.get(f"/s/{ann}/drill/settle").text
            action, n = _form(html)
            # Bob posting to Ann's form's number answers nothing of Ann's
            client.post(f"/s/{bob}/drill/settle", data={"n": str(n), "text": "0"})
            assert _form(client.get(f"/s/{ann}/drill/settle").text)[1] == n
            client.post(action, data={"n": str(n), "text": "0"})
            (_, fa), (_, fb) = room.roster()
            with ProgressStore(fa) as a, ProgressStore(fb) as b:
                assert len(a.answers()) == 1 and len(b.answers()) == 0
    finally:
        web.close()


def test_the_dashboard_sees_a_students_drill(tmp_path):
    room = ClassRoom(tmp_path / "class")
    web = WebApp(room=room)
    try:
        with TestClient(web.app) as client:
            r = client.post(
                "/join", data={"code": room.code, "name": "Ann"}, follow_redirects=False
            )
            ann = r.headers["location"].split("/")[2]
            client.post("/teacher", data={"code": room.teacher_code})
            before = client.get("/teacher").text  # the grid made, and kept
            assert "Oversight streak" not in _words(before).split("Who is where")[1]
            html = client.get(f"/s/{ann}/drill/settle").text
            _send(client, html, "0")
            (learner,) = web._grid().learners
            assert learner.total.answers == 1  # the drill's answer is in the grid at once
            board = _words(client.get("/teacher").text)
            assert "Rapid settlement arithmetic" in board.split("Who is where")[1]
    finally:
        web.close()


def test_a_class_led_through_a_lesson_goes_to_it_from_a_drill(tmp_path):
    room = ClassRoom(tmp_path / "class")
    web = WebApp(room=room)
    try:
        with TestClient(web.app) as client:
            r = client.post(
                "/join", data={"code": room.code, "name": "Ann"}, follow_redirects=False
            )
            ann = r.headers["location"].split("/")[2]
            v = client.get(f"/s/{ann}/drill/settle/v").json()["v"]
            room.set_pace(mode="led", lesson="history", page=0)
            assert client.get(f"/s/{ann}/drill/settle/v").json()["v"] != v  # the page follows
            r = client.get(f"/s/{ann}/drill/settle", follow_redirects=False)
            assert r.status_code == 303 and r.headers["location"] == f"/s/{ann}/lesson/history"
    finally:
        web.close()


def test_laugh_stats_sees_a_streak_played_on_the_page(streak, tmp_path):
    import os

    from support import ROOT, laugh_process

    web, client, puzzles = streak
    assert web.solo.store == tmp_path / "progress.sqlite3"  # laugh's own file under LAUGH_HOME
    html = client.get(f"/s/{TOKEN}/drill/streak").text
    for _ in range(2):
        html = _send(client, html, puzzles[-1].expected_answer_text())
    html = _send(client, html, _wrong(puzzles[-1]))
    _send(client, html, "no")
    env = dict(os.environ, LAUGH_HOME=str(tmp_path), COLUMNS="80", PYTHONPATH=str(ROOT))
    env["PYTHONIOENCODING"] = "utf-8"
    proc = laugh_process(["stats"], None, env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    flat = " ".join(proc.stdout.split())
    assert "Personal bests of the oversight drill" in flat and "streak mixed 2" in flat
    assert "Statistics: 3 answers recorded" in flat and "67% 2/3" in flat  # 2 right, 1 wrong
    assert "Spotting oversights (play, matches and drills)" in flat


def test_another_drill_opens_at_once_while_a_scroll_runs(solo, monkeypatch):
    web, client = solo
    monkeypatch.setitem(web.drills.kinds["count"].settings, "speed", 0.5)  # a slow scroll
    html = client.get(f"/s/{TOKEN}/drill/count").text
    html = _send(client, html, "")
    assert 'id="scroll"' in html
    t0 = time.monotonic()
    html = client.get(f"/s/{TOKEN}/drill/settle").text  # the scroll's drill is ended
    assert time.monotonic() - t0 < 3.0 and _form(html) is not None


def test_a_scrolls_lines_do_not_move_the_teachers_pages():
    """The teacher's dashboard loads again when its count of changes moves: a student's
    scroll, a line every half second, is not a change it shows."""
    told: list[int] = []
    io = WebIO(changed=lambda: told.append(1))
    with io.ticker() as show:
        before = len(told)
        for k in range(20):
            show(f"line {k}")
        assert len(told) == before and io.ticking() == [f"line {k}" for k in range(20)]
    assert io.ticking() is None
