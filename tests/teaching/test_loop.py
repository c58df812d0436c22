"""The one learner loop (issue 29): every question of the program is put by
:func:`tutor.teaching.loop.ask`, with one set of words meaning the same everywhere; the loop
words no reply of its own from the position (issue 30: the verdict is the puzzle's, the engine's,
as it is); and what issue 34 found at its prompts (quit at "Enter to go on>", the count after
Ctrl-D, the drills' endings)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import drawn_once
import pytest
from rich.console import Console
from support import lesson_puzzles, run_laugh, wrong_answer

from tutor.app.clock import FakeClock
from tutor.app.context import Context, Glyphs
from tutor.app.learner_io import ScriptedIO
from tutor.engine.cards import codes
from tutor.puzzles import AnswerError, from_id, generate
from tutor.puzzles.render import code_text
from tutor.teaching.loop import PuzzleQuestion, ask, nudge_text
from tutor.teaching.progress import ProgressStore
from tutor.teaching.words import HELP_WORDS, MENU_QUIT_WORDS, QUIT_WORDS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def _drawn_once():
    """The drills' puzzles drawn once for this file's tests (tests/teaching/drawn_once.py): the
    tests that start a drill at the same seed are given the same first puzzles without
    searching for them again."""
    with drawn_once.kept():
        yield


@pytest.fixture
def store(tmp_path):
    s = ProgressStore(tmp_path / "progress.sqlite3")
    yield s
    s.close()


def scripted(answers, clock=None):
    out = Console(file=io.StringIO(), width=80, color_system=None, highlight=False)
    return ScriptedIO(answers, out, clock), out


# -- one set of words ------------------------------------------------------------------------


@pytest.mark.parametrize("word", QUIT_WORDS + ("QUIT", " Exit "))
def test_every_quit_word_leaves_a_puzzle_and_is_never_graded(store, word):
    p = from_id("spot-oversight.parlett.5.100")
    io_, out = scripted([word])
    got = ask(io_, PuzzleQuestion(p), store=store)
    assert got.left and not got.answered and store.answer_count() == 0
    assert "could not read" not in out.file.getvalue()


def test_quit_words_are_in_one_place():
    """No module but ``tutor.teaching.words`` spells a quit word as a literal: every prompt
    reads them there (five sets had grown apart: "exit" left a deal but was graded as an answer
    in a lesson)."""
    found = []
    for path in (ROOT / "tutor").rglob("*.py"):
        if path.name == "words.py" and path.parent.name == "teaching":
            continue
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"""["'](:q|exit)["']""", text):
            found.append(f"{path.relative_to(ROOT)}: {m.group(0)}")
    assert not found, found
    assert not set(QUIT_WORDS) & {"q", "k", "a", "j"}  # no rank letter at a card prompt
    assert set(QUIT_WORDS) < set(MENU_QUIT_WORDS)


@pytest.mark.parametrize("word", HELP_WORDS)
def test_help_says_the_words_and_is_not_graded(store, word):
    p = from_id("spot-oversight.parlett.5.100")
    io_, out = scripted([word, "quit"])
    got = ask(io_, PuzzleQuestion(p), store=store)
    said = " ".join(out.file.getvalue().split())
    assert "hint: the next hint" in said and "show: the answer" in said and "quit (or :q" in said
    assert got.left and store.answer_count() == 0


def test_an_unreadable_answer_is_said_and_never_graded(store):
    p = from_id("spot-oversight.parlett.5.100")
    io_, out = scripted(["7X", "", p.accepted[0]])
    got = ask(io_, PuzzleQuestion(p), store=store)
    text = out.file.getvalue()
    assert "could not read '7x'" in text and "Type your answer (or hint, show, quit)." in text
    assert got.first and got.tries == 1
    assert [(a.correct, a.retry) for a in store.answers()] == [(True, False)]


# -- the verdict is the puzzle's, as it is (issue 30 item 1) ---------------------------------


def _reply(puzzle, text: str) -> str:
    """What the loop says to ``text`` at ``puzzle``'s first try (then the learner leaves)."""
    marks = []

    def answer(prompt):
        marks.append(len(out.file.getvalue()))  # what was said before this prompt
        return text if len(marks) == 1 else "quit"

    io_, out = scripted(answer)
    ask(io_, PuzzleQuestion(puzzle))
    return out.file.getvalue()[marks[0] : marks[1]]


def _verdict(puzzle, text: str) -> str:
    """The puzzle's own verdict on ``text`` as a try, rendered as the loop renders it."""
    out = Console(file=io.StringIO(), width=80, color_system=None, highlight=False)
    try:
        grade = puzzle.grade(text, 1)
    except AnswerError as exc:
        out.print(code_text(str(exc), style="yellow"))
    else:
        assert not grade.final
        out.print(nudge_text(grade, PuzzleQuestion(puzzle)))
    return out.file.getvalue()


@pytest.mark.parametrize("pid", ["spot-oversight.parlett.5.100", "spot-oversight.parlett.5.11"])
def test_a_partial_naming_gets_the_puzzles_verdict_and_nothing_of_the_loops(pid):
    """The loop adds no word of its own to the verdict on a claim naming part of an oversight
    (or a card of nothing), so it can say nothing about what is open that the engine does not
    (the engine's side, judging a partial naming blind, is another change's)."""
    p = from_id(pid)
    table = codes(p.deal().table_cards())
    for text in [f"claim {table[0]}", f"claim {table[-1]}", "claim 2", "7h"]:
        assert _reply(p, text) == _verdict(p, text), text


# -- lessons: quit at the pause, the count after Ctrl-D, the second tries ---------------------


def _lesson(key):
    from tutor.teaching.lessons import find_lesson, load_lesson

    entry = find_lesson(key)
    got = load_lesson(entry.path)
    got.number = entry.number
    return got


def test_quit_at_enter_to_go_on_leaves_the_lesson(tmp_path, monkeypatch):
    """Issue 34: ``quit`` at "Enter to go on>" went on (lesson 11); it leaves, with the puzzle
    answered kept."""
    from tutor.app.runner import LessonRunner

    monkeypatch.setenv("LAUGH_HOME", str(tmp_path))
    les = _lesson("tournament")
    first = lesson_puzzles(les, 5)[0][1]
    prompts = []

    def answer(prompt):
        prompts.append(prompt)
        if prompt == "answer> ":
            return first.accepted[0]
        return "quit" if prompt == "Enter to go on> " else ""

    io_, out = scripted(answer)
    io_.interactive = True  # a terminal: the pause is asked
    ctx = Context(io_, Glyphs())
    try:
        assert LessonRunner(ctx, les, seed=5).run() == "quit"
        state = ctx.store.lesson_state(les.id)
    finally:
        ctx.close()
    assert prompts.count("answer> ") == 1 and prompts[-1] == "Enter to go on> "
    assert "Saved: you can continue" in out.file.getvalue()
    assert list(state.answered.values()) == [True] and state.in_progress


def test_ctrl_d_at_a_second_try_counts_the_puzzle_as_resuming_shows_it(tmp_path):
    """Issue 34: after Ctrl-D in lesson 5 the lesson said "2 of 6 puzzles answered", and on
    resuming "Puzzle 3 of 6: answered (✗ missed)".  The first try is the answer that counts,
    kept when made: the line counts it, and the answer is shown before leaving."""
    les = _lesson("declarations")
    seed = 3
    puzzles = lesson_puzzles(les, seed)
    pages = {}
    lines = []
    for k, (page, p) in enumerate(puzzles):
        for _ in range(page - max(pages.values(), default=0)):
            lines.append("")  # the pages between
        pages[k] = page
        if k == 2:
            lines.append(wrong_answer(p))  # the first try, wrong; then input ends
            break
        lines.append(p.accepted[0])
    n = les.puzzle_count
    proc = run_laugh(["lesson", les.id, "--seed", str(seed)], "\n".join(lines) + "\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"3 of {n} puzzles answered" in " ".join(out.split()), out[-800:]
    saved = out.index("Saved: lesson 5")
    assert out.rindex(f"Puzzle id: {puzzles[2][1].id}") < saved  # explained before leaving
    again = run_laugh(["lesson", les.id], "", tmp_path)
    assert (
        f"Puzzle 3 of {n}: answered (✗ missed)" in again.stdout
        or f"Puzzle 3 of {n}: answered (x missed)" in again.stdout
    )
    assert f"3 of {n} puzzles answered" in " ".join(again.stdout.split())


def test_right_at_the_second_try_is_not_called_missed(tmp_path, monkeypatch):
    """Issue 30: after four puzzles right at the second try the lesson said "You missed 4
    puzzles"."""
    from tutor.app.runner import LessonRunner

    monkeypatch.setenv("LAUGH_HOME", str(tmp_path))
    les = _lesson("history")
    puzzles = [p for _, p in lesson_puzzles(les, 2)]
    tries = {}

    def answer(prompt):
        if prompt == "answer> ":
            i = sum(tries.values()) // 2
            p = puzzles[i]
            tries[p.id] = tries.get(p.id, 0) + 1
            return wrong_answer(p) if tries[p.id] == 1 else p.accepted[0]
        return "no" if prompt == "[yes/no]> " else ""

    io_, out = scripted(answer)
    ctx = Context(io_, Glyphs())
    try:
        assert LessonRunner(ctx, les, seed=2).run() == "completed"
    finally:
        ctx.close()
    said = " ".join(out.file.getvalue().split())
    n = len(puzzles)
    assert (f"{n} puzzles not right at the first try ({n} of them right at the second)") in said
    assert "You missed" not in said and f"0 of {n} puzzles right first time" in said


# -- drills -----------------------------------------------------------------------------------


def _request(**settings):
    from tutor.engine.sources import default_library
    from tutor.teaching.drills.registry import DRILLS, DrillRequest

    lib = default_library()
    kind = DRILLS["oversights"]
    return DrillRequest(
        lib.ruleset("parlett"),
        [r for _, r in sorted(lib.rulesets.items())],
        None,
        4,
        True,
        {**kind.defaults(), **settings},
    )


@pytest.mark.parametrize("mode", ["streak", "storm"])
def test_streak_and_storm_end_with_the_positions_missed_and_again(store, mode):
    """Issue 34: streak and storm ended at the shell with no "again?" and no list of the
    positions missed (lichess storm shows them)."""
    from tutor.teaching.drills import oversights

    seen = []

    def answer(prompt):
        seen.append(prompt)
        if prompt.startswith("Another"):
            return "yes" if seen.count(prompt) == 1 else "no"
        return "pass"

    io_, out = scripted(answer)
    oversights.run(io_, store, _request(mode=mode, positions=4))
    text = out.file.getvalue()
    assert seen.count(f"Another {mode}? [yes/no]> ") == 2  # yes once, then no
    runs = text.count("Streak:" if mode == "streak" else "Storm over:")
    assert runs == 2
    missed = re.findall(
        r"^  (\d+)\. (passed|timed out) → (.+) · "
        r"(spot-oversight\.\S+)$",
        text,
        re.M,
    )
    assert missed, text[-1500:]
    for _, _, _shown, pid in missed:
        p = from_id(pid)
        assert p.answer["claims"]  # pass missed only what could be claimed
    assert "laugh puzzle --id ID" in text


def test_a_drill_left_with_quit_asks_no_again(store):
    from tutor.teaching.drills import oversights

    io_, out = scripted(["quit"])
    oversights.run(io_, store, _request(mode="streak"))
    assert "Another" not in out.file.getvalue() and store.answer_count() == 0


@pytest.mark.parametrize("word", ["exit", ":q"])
def test_the_count_and_settle_drills_leave_on_every_quit_word(store, library, word):
    from tutor.teaching.drills.count import CountDrill
    from tutor.teaching.drills.settle import SettleDrill

    rulesets = [library.rulesets["parlett"]]
    io_, _ = scripted(lambda prompt: word if prompt == "settle> " else None)
    assert SettleDrill(io_, rulesets, seed=2, store=store).session(3).quit
    io_, _ = scripted(lambda prompt: "" if prompt == "Enter to start> " else word, FakeClock())
    assert CountDrill(io_, rulesets, seed=2, store=store).session(2).quit
    assert store.answer_count() == 0


def test_weak_spots_pose_puzzles_with_hints_and_show_as_a_lesson_does(store, library):
    store.record_answer("x", "dead-pair", ["dead-pair"], False, 9, at=1_700_000_000.0)
    from tutor.teaching.drills.weak import practise_weak_spots

    io_, out = scripted(["hint", "show"])
    right, asked = practise_weak_spots(
        io_, [library.rulesets["parlett"]], items=1, seed=4, store=store
    )
    text = out.file.getvalue()
    assert "Hint 1 of" in text and "Shown, and counted as not right." in text
    assert (right, asked) == (0, 1)
    last = store.answers()[-1]
    assert last.revealed and last.hints == 1 and not last.correct


def test_every_kind_is_posed_by_the_one_loop_in_lessons_and_laugh_puzzle():
    """``laugh puzzle`` and the lesson's puzzles are one loop: the same question object."""
    import inspect

    from tutor.app import puzzle_pages, puzzling

    for module in (puzzling, puzzle_pages):
        src = inspect.getsource(module)
        assert "PuzzleQuestion(" in src and ".grade(" not in src
    p = generate("count", seed=3)
    assert PuzzleQuestion(p).tries == 2 and PuzzleQuestion(p).hints == len(p.hints)


def test_a_quotation_shown_in_full_is_named_in_a_line_at_the_next_puzzle():
    # issue 34 finding 10: a set of Inter-Livery legal-play puzzles repeated the same three
    # quotations after every puzzle (a screenful: a `more` stop each time); shown in full once a
    # sitting, then named by their citation in a line
    import io as _io

    from rich.console import Console

    from tutor.app.learner_io import ScriptedIO
    from tutor.puzzles import generate
    from tutor.teaching.loop import PuzzleQuestion, ask

    seam = ScriptedIO(["show", "show"], Console(file=_io.StringIO(), width=80, color_system=None))
    out = seam.console.file
    puzzles = [generate("legal-play", ruleset="inter-livery-2018", seed=s) for s in (1, 2)]
    shared = set(puzzles[0].quotes) & set(puzzles[1].quotes)
    assert shared
    ask(seam, PuzzleQuestion(puzzles[0]))
    first = out.getvalue()
    ask(seam, PuzzleQuestion(puzzles[1]))
    second = out.getvalue()[len(first) :]
    assert first.count("\n  “") >= len(puzzles[0].quotes)
    assert second.count("As quoted above: “") == len(shared)
    # issue 42, 9: never a bare line: the words it rests on come again (the first ones of a
    # long quotation)
    from tutor.engine.sources import default_library
    from tutor.puzzles.render import key_words

    flat = " ".join(second.split())
    for ref in shared:
        words = key_words(default_library().quotation(ref).text)
        assert f"As quoted above: “{words}”" in flat, (words, flat)
    assert second.count("\n  “") == len(set(puzzles[1].quotes) - shared)
    # another terminal (another sitting) sees them in full again
    other = ScriptedIO(["show"], Console(file=_io.StringIO(), width=80, color_system=None))
    ask(other, PuzzleQuestion(puzzles[1]))
    assert "As quoted above" not in other.console.file.getvalue()


def test_the_rating_line_is_explained_once_and_a_lessons_puzzle_moves_no_rating(store):
    """Issue 45, finding 2: "these puzzles" was never explained, and a lesson's first wrong try
    cost hundreds of rating points."""
    io_, out = scripted([])
    for n in (100, 101):
        p = from_id(f"spot-oversight.parlett.5.{n}")
        io_._lines.append(p.accepted[0])
        got = ask(io_, PuzzleQuestion(p), store=store)
        assert got.change is not None
    text = " ".join(out.file.getvalue().split())
    assert text.count("Rating ") == 2 and text.count('"these puzzles" is the rating') == 1
    p = from_id("spot-oversight.parlett.5.102")
    io_._lines.append(wrong_answer(p))
    io_._lines.append(p.accepted[0])
    got = ask(io_, PuzzleQuestion(p), store=store, lesson="terms", slot="3.0")
    assert got.change is None and " ".join(out.file.getvalue().split()).count("Rating ") == 2


def test_a_storm_with_many_misses_ends_with_its_score_on_an_80_by_24_screen(store):
    """Issue 45, finding 7: after a storm with 13 misses, "Storm over: ..." was above the screen
    (the misses were listed after it) and each miss's id wrapped onto a line of its own.  The
    header names the ruleset as the learner knows it, not by its id (finding 5)."""
    from tutor.teaching.drills import oversights

    def answer(prompt):
        if prompt.startswith("Another"):
            return "no"
        return "pass"  # a miss at each position with something to claim

    io_, out = scripted(answer)
    oversights.run(io_, store, _request(mode="storm", positions=24))
    lines = out.file.getvalue().rstrip("\n").split("\n")
    assert sum(1 for ln in lines if re.match(r"^  \d+\. ", ln)) >= 10
    last = lines[-24:]
    assert any(ln.startswith("Storm over: score") for ln in last), "\n".join(last)
    assert not any(re.match(r"^\s*spot-oversight\.", ln) for ln in lines)  # no id alone
    assert all(len(ln) <= 80 for ln in lines)
    assert (
        "parlett ·" not in out.file.getvalue()
        and " players · spot-oversight" not in out.file.getvalue()
    )
