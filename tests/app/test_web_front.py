"""A browser page says nothing only a terminal user can act on (issue 44): the learner loop's
I/O seam tells the drawings which front they are on (``LearnerIO.front``, set ``"terminal"`` by
the terminal's implementations and ``"web"`` by :class:`tutor.app.web.webio.WebIO`), so a
puzzle's explanation gives no ``Puzzle id:`` line nor a ``laugh lesson`` command on a page, and
a drill's result no ``laugh puzzle --id ID``; the terminal keeps them (``tests/app`` and
``tests/teaching`` check its lines).  Lesson 1's pages and every drill's pages are walked in
process through Starlette's test client, answering as a student would (wrong and right), and
the text of every page is searched for the terminal's instructions listed below."""

from __future__ import annotations

import re
import time
import warnings
from html import unescape

import pytest

from tutor.app.web.server import WebApp

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

TOKEN = "t0ken-of-the-browsing-learner"

#: What a terminal user can act on and a browser student cannot: commands, keys, terminal words.
TERMINAL_ONLY = (
    "Puzzle id",
    "laugh puzzle",
    "--id",
    "laugh lesson",
    "laugh drill",
    "laugh stats",
    "Ctrl-C",
    "Ctrl-D",
    "press Enter",
    "Enter on",
    "Enter for",
    "Enter alone",
    "(Enter)",
    "or :q",
    "type quit",
    "more>",
    "from the home screen",
)


def _form(html: str) -> tuple[str, int] | None:
    m = re.search(
        r'<form method="post" action="([^"]+)" class="prompt"[^>]*>\s*'
        r'<input type="hidden" name="n" value="(\d+)">',
        html,
    )
    return (m.group(1), int(m.group(2))) if m else None


def _words(html: str) -> str:
    """The page's text as a reader sees it: tags out, entities read."""
    return unescape(re.sub(r"<[^>]+>", "", html))


def _said(pages: list[str]) -> list[tuple[str, str]]:
    """Each terminal-only phrase found in the pages' text, with its line."""
    return [
        (phrase, line.strip())
        for page in pages
        for line in _words(page).splitlines()
        for phrase in TERMINAL_ONLY
        if phrase.lower() in line.lower()
    ]


@pytest.fixture
def solo(tmp_path):
    web = WebApp(store=tmp_path / "progress.sqlite3", token=TOKEN)
    with TestClient(web.app) as client:
        yield web, client
    web.close()


def _walk(client, path: str, answer, steps: int = 80) -> list[str]:
    """Every page of ``path`` until it asks nothing more (its end: the drill or lesson to take
    again): ``answer(html, k)`` is the k-th answer; a page still running (a drill's scroll)
    is loaded again."""
    html = client.get(path).text
    pages = [html]
    for k in range(steps):
        for _ in range(100):
            if _form(html) or "Take this drill again" in html or "Take this lesson again" in html:
                break  # a question, or the end (a lesson's end waited 5 s here, as if running)
            time.sleep(0.05)
            html = client.get(path).text
            pages.append(html)
        found = _form(html)
        if found is None:
            return pages
        action, n = found
        html = client.post(action, data={"n": str(n), "text": answer(html, k)}).text
        pages.append(html)
    raise AssertionError(f"{path} did not end in {steps} answers")


def test_lesson_1_says_nothing_only_a_terminal_can_act_on(solo):
    web, client = solo
    tries = [0]
    extra: list[str] = []
    at_page: list[str] = []

    def answer(html: str, k: int) -> str:
        if 'id="answer"' in html:  # a puzzle: wrong twice (explained), then right
            if asked_for := [w for w in ("help", "hint") if w not in extra]:
                extra.append(asked_for[0])  # at the first puzzle, help and a hint
                return asked_for[0]
            tries[0] += 1
            p = web.learner(TOKEN).session.runner.current
            return p._the_kind().wrong_answer(p) if tries[0] % 3 else p.expected_answer_text()
        if 'value="no"' in html:
            return "no"
        if asked_for := [w for w in ("banana", "help") if w not in at_page]:
            at_page.append(asked_for[0])  # at the first page's end, a word not offered and help
            return asked_for[0]
        return "next"

    pages = _walk(client, f"/s/{TOKEN}/lesson/history", answer)
    text = _words("".join(pages))
    assert tries[0] >= 3 and "Taught in lesson 1" in text  # explained
    assert "hint: the next hint" in text and "Hint 1 of" in text  # the help and a hint said
    assert "At the end of a page: next, back or quit." in text  # a page's words said
    assert _said(pages) == []


@pytest.mark.parametrize(
    ("drill", "answers"),
    [
        ("streak", ["pass", "pass", "pass", "no"]),
        ("storm", ["pass", "pass", "pass", "no"]),
        ("count", ["", "", "9 9", "", "no"]),
        ("settle", ["1", "2", "quit"]),
    ],
)
def test_a_drills_pages_say_nothing_only_a_terminal_can_act_on(solo, monkeypatch, drill, answers):
    from tutor.teaching.drills.oversights import OversightDrill

    web, client = solo
    puzzles: list = []
    real = OversightDrill.next_puzzle

    def keeping(self, *a, **kw):
        puzzles.append(real(self, *a, **kw))
        return puzzles[-1]

    monkeypatch.setattr(OversightDrill, "next_puzzle", keeping)
    web.drills.kinds["count"].settings.update(speed=200.0, rounds=1)
    web.drills.kinds["storm"].settings["positions"] = 3
    said: list[str] = []

    def answer(html: str, k: int) -> str:
        if 'value="no"' in html and 'value="yes"' in html:
            said.append("no")
            return "no"
        if drill != "count" and not said:  # the first question: its help
            said.append("help")
            return "help"
        if 'id="keys"' in html and said == ["help"]:  # the first position: missed, explained
            p = puzzles[-1]
            said.append("pass" if p.answer["claims"] else p._the_kind().wrong_answer(p))
        else:
            said.append(answers[min(k, len(answers) - 1)])
        return said[-1]

    pages = _walk(client, f"/s/{TOKEN}/drill/{drill}", answer)
    text = _words("".join(pages))
    assert "Take this drill again" in text
    assert drill == "count" or "quit: leave" in text  # the help was said
    assert drill != "count" or "You answered: nothing" in text  # an empty answer shown
    if drill in ("streak", "storm"):
        assert "Missed (" in text and "✗" in text  # a result with the positions missed
    assert _said(pages) == []


def test_the_seam_says_which_front_it_is_on():
    import io

    from rich.console import Console

    from tutor.app.learner_io import ScriptedIO
    from tutor.app.web.webio import WebIO
    from tutor.teaching.io import TERMINAL, WEB, at_terminal

    scripted = ScriptedIO([], Console(file=io.StringIO()))
    assert (scripted.front, WebIO().front) == (TERMINAL, WEB)
    assert at_terminal(scripted) and not at_terminal(WebIO())
