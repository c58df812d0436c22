"""The I/O seam (issue 18 item 3): one typed protocol (:mod:`tutor.teaching.io`) that lessons,
drills, play and matches read through, implemented once for a terminal and once for scripted or
piped input; every time the learner takes measured by the injected clock; the drills listed in
one registry that ``laugh drill`` and the home screen both read."""

from __future__ import annotations

import ast
import io
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from support import ROOT

from tutor.app.clock import FakeClock, TerminalClock, VirtualClock
from tutor.app.context import Context, Glyphs
from tutor.app.learner_io import ScriptedIO, TerminalIO
from tutor.teaching.io import Clock, LearnerIO

#: Reads of the wall clock that time something: only the clocks may make them.
TIMING = {
    "monotonic",
    "monotonic_ns",
    "perf_counter",
    "perf_counter_ns",
    "process_time",
    "process_time_ns",
    "thread_time",
    "thread_time_ns",
    "sleep",
}
#: Reads of the calendar (``time.time()``, ``datetime.now()``): a date, never a duration.
CALENDAR = {"time", "time_ns", "now", "utcnow", "today"}

#: Where a wall-clock read is allowed, and why.  A new entry needs a reason that is not timing
#: the learner (that goes through ``io.clock``).
ALLOWED = {
    ("tutor/app/clock.py", "monotonic"): "the terminal's clock itself",
    ("tutor/app/clock.py", "sleep"): "the terminal's clock itself",
    ("tutor/app/play/review.py", "perf_counter"): "how long the program's analysis took (a "
    "figure about the program, not the learner)",
    ("tutor/teaching/progress", "time"): "the date an answer was given or a lesson saved",
    ("tutor/teaching/transfer.py", "time"): "the date of an export",
    ("tutor/teaching/classreport.py", "time"): "the date of a class report",
    ("tutor/teaching/spaced_review.py", "now"): "today, for FSRS's due dates",
    ("tutor/app/views.py", "time"): "the last seven days of the statistics",
    ("tutor/app/matches.py", "time"): "the date a match was started",
    ("tutor/app/tables/_link.py", "monotonic"): "how long a wait for the server's answer has "
    "lasted (a try to reconnect, an organiser's "
    "command: Link.wait_for)",
    ("tutor/app/tables/_hints.py", "sleep"): "the hint worker's wait between two looks at its "
    "parent, the server's process (not the learner's "
    "time)",
    ("tutor/app/tables/_organiser.py", "monotonic"): "the organiser's screen counting a move's "
    "clock down from the server's overview",
    ("tutor/app/track.py", "time"): "the date a track's practice match was started",
}


def wall_clock_reads(path: Path):
    """``(line, name)`` for every call of ``time.<name>`` or ``datetime.<name>`` (or a name
    imported from ``time``) in ``path`` that reads the clock."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {
        a.asname or a.name: a.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "time"
        for a in node.names
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if (
            isinstance(f, ast.Attribute)
            and isinstance(f.value, ast.Name)
            and f.value.id in ("time", "datetime", "date")
            and f.attr in TIMING | CALENDAR
        ):
            yield node.lineno, f.attr
        elif isinstance(f, ast.Name) and imported.get(f.id) in TIMING | CALENDAR:
            yield node.lineno, imported[f.id]


def test_only_the_clocks_read_the_wall_clock_to_time_anything():
    """Every time the learner takes (an answer, a claim, a pace, a progress bar's delay) is a
    reading of the injected clock, ``io.clock.now()``, or a :class:`Reply`'s ``at``; in the
    teaching and app rooms the wall clock is read only by the clocks, and the calendar only for
    dates."""
    found = []
    for room in ("teaching", "app"):
        for path in sorted((ROOT / "tutor" / room).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for line, name in wall_clock_reads(path):
                if not any(rel.startswith(where) and name == what for where, what in ALLOWED):
                    found.append(f"{rel}:{line}: {name}()")
    assert not found, "wall-clock reads outside the clocks (use io.clock.now()):\n" + "\n".join(
        found
    )


def test_the_grep_would_catch_a_stopwatch(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import time\nfrom time import perf_counter as pc\n"
        "t0 = time.monotonic()\nx = pc()\ny = time.time() - t0\n"
    )
    assert sorted(wall_clock_reads(bad)) == [(3, "monotonic"), (4, "perf_counter"), (5, "time")]


def test_every_implementation_is_a_learner_io_and_every_clock_a_clock():
    out = Console(file=io.StringIO(), width=60, color_system=None)
    scripted = ScriptedIO(["x"], out)
    for impl in (scripted, TerminalIO(out, VirtualClock(), True), Context(scripted, Glyphs())):
        assert isinstance(impl, LearnerIO), impl
    for clock in (TerminalClock(), VirtualClock(), FakeClock()):
        assert isinstance(clock, Clock)
    assert TerminalClock().realtime and not TerminalClock().piped
    assert VirtualClock().piped and not FakeClock().piped


def test_scripted_io_says_shows_and_asks_through_one_console():
    out = Console(file=io.StringIO(), width=40, color_system=None)
    refused = []
    seam = ScriptedIO(["", "7h", "yes"], out)
    seam.say("[bold]not markup[/bold]", style="bold")
    seam.say("a/very/long/path/" * 5, wrap=False)
    assert seam.ask_checked("> ", lambda t: None if t else "Type something.") == "7h"
    assert seam.ask_checked("> ", lambda t: None, refuse=refused.append) == "yes"
    with seam.ticker() as tick:
        tick("one")
        tick("two")
    with seam.progress("work") as bar:
        bar(1, 2)
    text = out.file.getvalue()
    assert "[bold]not markup[/bold]" in text and "Type something." in text
    assert ("a/very/long/path/" * 5) in text  # one line, not wrapped
    assert "one\ntwo\n" in text and "work" not in text
    assert seam.log == ["> ", "> 7h", "> yes"] and refused == []


def test_piped_standard_input_is_echoed_as_a_transcript():
    written = io.StringIO()
    seam = ScriptedIO(io.StringIO("claim 7h 7s\n"), Console(file=io.StringIO()), stdout=written)
    reply = seam.read("claim window> ", 3.0, keys={" ": "claim"})
    assert reply.text == "claim 7h 7s" and reply.key is None and reply.at == 0.0
    try:
        seam.ask("next> ")
    except EOFError:
        pass
    else:
        raise AssertionError("end of input must raise EOFError")
    assert written.getvalue() == "claim window> claim 7h 7s\nnext> \n"


def test_a_piped_line_read_ahead_is_seen_before_a_prompt_takes_it():
    import os
    import threading

    r, w = os.pipe()
    stream = os.fdopen(r, "r", encoding="utf-8")
    written = io.StringIO()
    seam = ScriptedIO(stream, Console(file=io.StringIO()), stdout=written)
    assert seam.waiting() is None  # not looked at before read_ahead
    came = threading.Event()
    seam.read_ahead(came.set)
    assert seam.waiting() is None and not came.is_set()
    os.write(w, b"  claim kings \n7h\n")
    assert came.wait(5)
    for _ in range(100):  # both lines read, in order
        if seam.waiting() == "claim kings" and len(seam._stream._lines) == 2:
            break
        threading.Event().wait(0.02)
    assert seam.waiting() == "claim kings"  # looking takes nothing
    assert seam.read("watch> ", None).text == "claim kings"
    assert seam.waiting() == "7h" and seam.ask("Your move> ") == "7h"
    os.close(w)
    try:
        seam.ask("Your move> ")
    except EOFError:
        pass
    else:
        raise AssertionError("end of input must raise EOFError")
    assert seam.waiting() is None
    assert written.getvalue() == "watch>   claim kings \nYour move> 7h\nYour move> \n"
    stream.close()


def test_the_command_line_starts_without_loading_a_drill():
    """The registry is read at start-up (``laugh drill``'s subcommands, the home screen's drill
    menu); the drills themselves load only when one runs (start-up time)."""
    code = (
        "import sys, tutor.app.cli as c; c.build_parser(); import tutor.app.home; "
        "print(sorted(m for m in sys.modules if m.startswith('tutor.teaching.drills')))"
    )
    got = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=str(ROOT), timeout=60
    )
    assert got.returncode == 0, got.stderr
    assert got.stdout.strip() == "['tutor.teaching.drills', 'tutor.teaching.drills.registry']"


def test_laugh_drill_and_the_home_menu_list_the_registry():
    from tutor.app.cli import build_parser
    from tutor.teaching.drills.registry import DRILLS

    parser = build_parser()
    sub = next(a for a in parser._subparsers._group_actions if a.dest == "command")
    drill = sub.choices["drill"]
    kinds = next(a for a in drill._subparsers._group_actions if a.dest == "drill_kind")
    assert list(kinds.choices) == list(DRILLS) == ["oversights", "count", "settle", "weak"]
    for name, kind in DRILLS.items():
        args = parser.parse_args(["drill", name])
        for s in kind.settings:
            assert getattr(args, s.dest) == s.default, (name, s.name)
        module = __import__(kind.module, fromlist=["run"])
        assert callable(module.run)
    # the home screen's menu: every entry of the registry, numbered in order
    from tutor.app.home import Home

    seen = []

    class Stop(Exception):
        pass

    def fake_menu(ctx, items, prompt, title=None, back=""):
        seen.extend((i.number, i.letter, i.words[0], i.value) for i in items)
        raise Stop

    import tutor.app.home as home

    real, home.menu = home.menu, fake_menu
    try:
        Home(None).drills()
    except Stop:
        pass
    finally:
        home.menu = real
    assert seen == [
        ("1", "o", "streak", ("oversights", {"mode": "streak"})),
        ("2", "m", "storm", ("oversights", {"mode": "storm"})),
        ("3", "c", "count", ("count", {})),
        ("4", "s", "settle", ("settle", {})),
        ("5", "w", "weak", ("weak", {})),
    ]


def test_enter_alone_never_answers_yes():
    """A learner paging on with Enter at "[yes/no]>" is asked again: Enter is no answer
    (issue 24), in the home screen's question and the lesson's offer of the missed puzzles."""
    from tutor.app.views import yes_no

    out = Console(file=io.StringIO(), width=60, color_system=None)
    ctx = Context(ScriptedIO(["", "no"], out), Glyphs())
    assert yes_no(ctx, "Practise them now? [yes/no]> ") is False
    ctx = Context(ScriptedIO(["", "", "yes"], out), Glyphs())
    assert yes_no(ctx, "[yes/no]> ") is True
    assert out.file.getvalue().count("Type yes or no.") == 3


def test_enter_at_the_lessons_offer_of_missed_puzzles_is_asked_again(tmp_path, monkeypatch):
    from tutor.app.runner import LessonRunner
    from tutor.teaching.lessons import load_course

    monkeypatch.setenv("LAUGH_HOME", str(tmp_path))
    lesson = next(x for x in load_course() if x.id == "terms")
    out = Console(file=io.StringIO(), width=80, color_system=None)
    ctx = Context(ScriptedIO(["", "no"], out), Glyphs())
    runner = LessonRunner(ctx, lesson, seed=1)
    runner.state = ctx.store.start_lesson(lesson.id, 1)
    first = next(iter(lesson.blocks("puzzle")))
    runner.state.answered[f"{first.index}.0"] = False
    runner.finish()
    text = out.file.getvalue()
    assert "Try again now" in text and "Type yes or no." in text
    assert "Again, 1 of 1" not in text  # Enter did not start a retry
    ctx.close()


def test_a_piped_line_that_is_not_text_is_said_in_one_line_and_asked_again():
    from tutor.app.learner_io import ScriptedIO

    piped = io.StringIO("7h \udcff\n7h\n")  # as stdin decodes bytes that are not UTF-8
    echo = io.StringIO()
    seam = ScriptedIO(piped, stdout=echo)
    assert seam.ask("move> ") == "7h"
    said = seam.console.file.getvalue()
    assert said.count("That line is not text (bytes that are not UTF-8): type it again.") == 1
    assert echo.getvalue() == "move> \nmove> 7h\n" and seam.log == ["move> 7h"]


def test_a_quit_word_at_the_pagers_stop_shows_no_more():
    """``q`` (or any quit word) at ``more>`` stops the page, as in ``less``; Enter shows the next
    screenful and ``s`` the rest of it (issue 29: quit meant "go on" there before)."""
    lines = [f"line {i}" for i in range(40)]

    def shown(replies: list[str]) -> tuple[str, list[str]]:
        out = io.StringIO()
        term = TerminalIO(
            Console(file=out, height=12, width=60, color_system=None), VirtualClock(), True
        )
        asked: list[str] = []

        def ask(prompt: str = "> ", words=(), cards: bool = False) -> str:
            asked.append(prompt)
            return replies.pop(0)

        term.ask = ask  # type: ignore[method-assign]
        term.page(*lines)
        return out.getvalue(), asked

    text, asked = shown(["q"])
    assert "line 9" in text and "line 10" not in text and len(asked) == 1
    assert asked[0] == "more (Enter; s skips, q stops)> "
    text, asked = shown(["quit"])
    assert "line 10" not in text
    text, asked = shown(["", "s"])
    assert "line 39" in text and len(asked) == 2
    text, asked = shown(["", "", ""])
    assert "line 39" in text and len(asked) == 3


def test_the_command_line_starts_without_the_puzzles_model_or_pydantic():
    """Every command module is imported at start-up (its arguments): none may load the puzzles'
    model and generators (~0.25 s) or pydantic; they load when a puzzle is made or a file or
    message is checked (the start-up time: benchmarks/bench_startup.py).  Moving ``laugh
    puzzle``'s work into app/puzzle_pages.py once loaded both at every start."""
    heavy = (
        "tutor.puzzles.model",
        "tutor.puzzles.generators",
        "pydantic",
        "tutor.app.tables.messages",
    )
    code = (
        "import sys, tutor.app.cli as c; c.build_parser(); import tutor.app.home; "
        f"print(sorted(m for m in {heavy!r} if m in sys.modules))"
    )
    got = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=str(ROOT), timeout=60
    )
    assert got.returncode == 0, got.stderr
    assert got.stdout.strip() == "[]"
