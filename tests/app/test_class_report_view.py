"""``laugh class report`` as a teacher reads it at a terminal (issue 34, finding 1): at 80 and
40 columns every learner's name, answers and rating are shown and no line is wider than the
terminal, the grid of themes going on in pages of learners; one learner's exports given twice
(the same file, another path to it, a copy) are counted once, with a line saying so."""

from __future__ import annotations

import re
import shutil

import pytest
from rich.console import Console
from rich.text import Text

from tutor.app.class_view import Column, paged_columns
from tutor.app.cli import main
from tutor.puzzles.themes import theme_table
from tutor.teaching.classreport import build_report, one_learner_each, render_csv, render_html
from tutor.teaching.progress import FILE_NAME, ProgressStore
from tutor.teaching.transfer import read_export, write_export

T0 = 1_767_225_600.0
NAMES = ["Ana", "Ben", "Cat", "Dorothea Wilhelmina", "Eli", "Fatima-Zahra Benali", "Gus"]


#: Each export made, by its arguments: the bytes ``laugh progress export`` wrote (the same
#: for the same arguments: the answers and their times are given), made once in this module.
_MADE: dict[tuple, bytes] = {}


def _export(tmp_path, name, n, seed, sightings=0):
    """An export of ``n`` answers across the theme table, as ``laugh progress export`` writes
    it; returns its path (a file of its own in ``tmp_path``; made once for the same
    arguments, a copy of its bytes after)."""
    path = tmp_path / f"{name.split()[0].lower()}.json"
    key = (name, n, seed, sightings)
    if key in _MADE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_MADE[key])
        return path
    import random

    rng = random.Random(seed)
    ids = list(theme_table())[:30]
    folder = tmp_path / f"home-{seed}"
    with ProgressStore(folder / FILE_NAME) as s:
        for i in range(n):
            s.record_answer(
                f"count.parlett.5.{i}",
                "count",
                rng.sample(ids, 2),
                rng.random() < 0.7,
                4.0 + i,
                difficulty=2,
                at=T0 + 60 * i,
            )
        for i in range(sightings):
            s.record_sighting(
                "play", "split-prial", ("hit", "miss", "false_claim")[i % 3], 3.0, at=T0 + i
            )
        write_export(s, path, learner=name)
    _MADE[key] = path.read_bytes()
    return path


def _class(tmp_path, names=NAMES):
    return [_export(tmp_path, name, 40 + 9 * i, i + 1, sightings=3) for i, name in enumerate(names)]


def _lines(capsys, monkeypatch, width, args):
    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.setenv("NO_COLOR", "1")
    rc = main(args)
    out = capsys.readouterr().out
    assert rc == 0, out
    return out.splitlines()


@pytest.mark.parametrize("width", [80, 40])
def test_every_learner_is_shown_with_answers_and_rating_at_80_and_40_columns(
    tmp_path, capsys, monkeypatch, width
):
    files = _class(tmp_path)
    report = build_report([(str(f), read_export(f)) for f in files])
    lines = _lines(capsys, monkeypatch, width, ["class", "report", *map(str, files)])
    assert max(len(line) for line in lines) <= width, "\n".join(lines)
    text = "\n".join(lines)
    # the learners' table: a row a learner, its name, answers and rating on it (its first
    # line: a long name may go on over the next)
    for lr in report.learners:
        first = lr.name.split()[0]
        row = next(
            (
                line
                for line in lines
                if line.startswith(first + " ") and f"{lr.total.right}/{lr.total.answers}" in line
            ),
            None,
        )
        if width == 80:
            assert row is not None, text
            assert f"{lr.rating:.0f}" in row and f"{100 * lr.total.accuracy:.0f}%" in row, row
        else:
            assert any(f"{lr.total.right}/{lr.total.answers}" in line for line in lines)
            assert any(re.search(rf"\b{lr.rating:.0f}\??\s±", line) for line in lines), text
    # the grid: every learner's name (every word of it) heads a column above its figures;
    # every theme's row is there on each page
    for lr in report.learners:
        for word in lr.name.split():
            assert re.search(rf"(^|\s){re.escape(word)}(\s|$)", text), (word, text)
    grid = text[text.index("By theme") : text.index("The weakest themes")]
    pages = max(1, grid.count("(page "))
    assert pages > 1  # eight columns of figures fit neither width
    for th in report.themes[:3]:
        assert grid.count(th.label.split()[0]) >= pages
    # the class's totals, once
    assert text.count(f"{report.total.right}/{report.total.answers}") == 1


def test_the_grid_pages_learners_and_keeps_each_cell_under_its_name():
    """paged_columns: the names' column repeated on each page, each page within the width,
    every column on exactly one page, and a row's figure on the row of its name."""
    names = [Text(f"theme {i}") for i in range(5)]
    cols = [
        Column(f"Learner {k}", [Text(f"{10 * k + i}% {i}/{k + 1}") for i in range(5)])
        for k in range(9)
    ]
    pages = paged_columns("theme", names, cols, 40)
    assert len(pages) > 1
    assert sorted(i for page, _ in pages for i in page) == list(range(9))
    console = Console(width=40, no_color=True, record=True, file=open("/dev/null", "w"))
    for _, table in pages:
        console.print(table)
    rendered = console.export_text()
    assert max(len(line) for line in rendered.splitlines()) <= 40
    for i in range(5):
        assert rendered.count(f"theme {i}") == len(pages)
    assert "30% 0/4" in rendered and "theme 0" in next(
        line for line in rendered.splitlines() if "30% 0/4" in line
    )


def test_a_learner_given_twice_is_counted_once_with_a_note(tmp_path, capsys, monkeypatch):
    ana, ben = _class(tmp_path, ["Ana", "Ben"])
    copy = tmp_path / "ana-again.json"
    shutil.copy(ana, copy)
    once = build_report([(str(f), read_export(f)) for f in (ana, ben)])
    args = [str(ana), str(ben), str(ana), f"{tmp_path}/./ben.json", str(copy)]
    report = build_report([(f, read_export(f)) for f in args])
    assert [lr.name for lr in report.learners] == ["Ana", "Ben"]
    assert (report.total.answers, report.total.right) == (once.total.answers, once.total.right)
    assert [lr.total for lr in report.learners] == [lr.total for lr in once.learners]
    assert len(report.notes) == 3
    assert report.notes[0] == f"{ana} was given twice: counted once."
    assert report.notes[1] == f"{args[3]} is {ben} again: counted once."
    assert report.notes[2].startswith(f"{copy} shares ") and "merged as Ana" in report.notes[2]
    assert report.learners[0].file == f"{ana}, {copy}"
    # said at the terminal, in the HTML, and the CSV has one row a learner
    lines = _lines(capsys, monkeypatch, 80, ["class", "report", *args])
    assert lines[0] == f"Class report: 2 learners, {once.total.answers} answers"
    flat = " ".join(" ".join(lines).split())
    assert all(note in flat for note in report.notes)
    page = render_html(report)
    assert page.count('<p class="note">') == 3 and "2 learners" in page
    assert len(render_csv(report).splitlines()) == 1 + 2 + 1


def test_exports_of_one_learner_under_two_names_are_merged_and_both_named(tmp_path):
    """A learner who exported on Monday and again on Friday, the second time under another
    name: one learner (the answers they share counted once), the note names both."""
    monday = _export(tmp_path, "Ana", 30, 1)
    export = read_export(monday)
    friday = tmp_path / "friday.json"
    with ProgressStore(tmp_path / "friday" / FILE_NAME) as s:
        s.merge(export.answers, export.lessons, export.meta, export.sightings)
        s.record_answer("count.parlett.5.99", "count", ["counting"], True, 3.0, at=T0 + 9999)
        write_export(s, friday, learner="Ana P.")
    groups, notes = one_learner_each([(str(monday), export), (str(friday), read_export(friday))])
    assert len(groups) == 1 and len(notes) == 1
    assert notes[0] == (
        f"{friday} (named Ana P.) shares 30 answers or sightings with "
        f"{monday}: one learner's progress, merged as Ana, each answer "
        "counted once."
    )
    report = build_report([(str(monday), export), (str(friday), read_export(friday))])
    assert report.total.answers == 31 and [lr.name for lr in report.learners] == ["Ana"]
    # two learners who share nothing stay two, even under one name
    other = _export(tmp_path / "x", "Ana", 5, 7)
    report = build_report([(str(monday), export), (str(other), read_export(other))])
    assert len(report.learners) == 2 and not report.notes


@pytest.mark.parametrize(
    "width,colour,kind",
    [
        pytest.param(80, False, "pty", id="80-False"),
        pytest.param(
            40,
            True,
            "tmux",
            id="40-True",
            marks=pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
        ),
    ],
)
def test_the_report_on_a_terminal(tmp_path, width, colour, kind):
    """On a terminal, with and without colour: every learner's name and figures on the screen,
    no line cut (a terminal wraps nothing a program wrote within its width).  At 80 columns
    without colour a pseudo-terminal drawn by pyte, at 40 in colour tmux, a real terminal
    (tests/terminals.py)."""
    from terminals import COLOUR, PtyTerm, TmuxTerm

    files = _class(tmp_path, NAMES[:4])
    env = {} if not colour else {"NO_COLOR": ""}
    t = (PtyTerm if kind == "pty" else TmuxTerm)(
        tmp_path,
        width=width,
        height=200,
        env=env,
        args=["class", "report", *(str(f) for f in files)],
    )
    try:
        assert t.rc() == 0
        screen = t.screen(history=2000)
        assert "Class report: 4 learners" in screen and "The weakest themes" in screen
        assert all(len(line) <= width for line in screen.splitlines())
        for name in NAMES[:4]:
            for word in name.split():
                assert re.search(rf"(^|\s){word}(\s|$)", screen), (word, screen)
        assert bool(COLOUR.search(t.screen(escapes=True, history=2000))) == colour
        if kind == "pty":  # nor ever sent
            assert bool(COLOUR.search(t.sent())) == colour
    finally:
        t.close()
