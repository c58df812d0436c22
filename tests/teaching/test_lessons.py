"""The lesson format: the course as shipped, and every kind of problem ``laugh lessons check``
must report with its file and line."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support import ROOT

from tutor.app.cli import main
from tutor.engine.errors import DataError
from tutor.teaching.lessons import (
    BLOCK_KINDS,
    Block,
    Segment,
    check_lessons,
    course_index,
    find_lesson,
    load_course,
    load_lesson,
    puzzle_seed,
)

GOOD_FRONT = """\
---
id: sample
title: A sample lesson
objectives:
  - {id: try, text: Try the format.}
prerequisites: []
sources: [parlett]
minutes: 5
---
"""


#: A puzzle block that tests the sample's objective, put at the end of a sample body that names
#: no objective (every objective is tested by a puzzle: issue 24).
TESTED = "\n```puzzle\nobjective: try\nkind: deal-setup\n```\n"


def write(tmp_path: Path, body: str, front: str = GOOD_FRONT, name: str = "05-sample.md") -> Path:
    path = tmp_path / name
    body = textwrap.dedent(body)
    if "objective:" not in body and "```" in body:
        body += TESTED
    path.write_text(front + body, encoding="utf-8")
    return path


def problems_of(path: Path) -> list[str]:
    count, problems = check_lessons([path])
    assert count == 1
    return problems


# --- the course as shipped ------------------------------------------------------------------


def test_the_course_has_eleven_checked_lessons():
    lessons = load_course()
    assert len(lessons) >= 11
    assert [lesson.number for lesson in lessons] == list(range(1, len(lessons) + 1))
    for lesson in lessons:
        assert lesson.quotes, f"{lesson.id} quotes no source"
        if lesson.number > 1:
            assert lesson.puzzle_count >= 3, f"{lesson.id} poses fewer than three puzzles"


@pytest.mark.xdist_group("course_check")  # the shared check: tests/conftest.py
def test_lessons_check_command_passes(course_check):
    """``laugh lessons check`` (run in-process once, shared: tests/conftest.py)."""
    status, out, _ = course_check
    assert status == 0, out
    assert "lessons checked: no problems" in out


def test_every_course_lesson_runs_through_the_engine_blocks():
    """Each lesson's rules/odds/cards blocks name real rulesets and parameters; the dealer's
    advantage of lesson 10 comes from a simulate block (never a typed number)."""
    lessons = {lesson.id: lesson for lesson in load_course()}
    kinds = {b.kind for lesson in lessons.values() for b in lesson.blocks()}
    assert kinds == set(BLOCK_KINDS)
    compared = lessons["sources-compared"]
    sims = list(compared.blocks("simulate"))
    assert sims and sims[0].data["ruleset"] == "parlett"
    assert "du-coeur:dealer-advantage" in compared.quotes


def test_course_index_reads_front_matter_only():
    entries = course_index()
    assert [e.number for e in entries] == list(range(1, len(entries) + 1))
    assert entries[0].id == "history" and entries[0].title
    code = (
        "import sys, tutor.teaching.lessons as L; L.course_index(); "
        "print('markdown_it' in sys.modules, 'tutor.engine.sources' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=str(ROOT), check=True
    ).stdout.split()
    assert out == ["False", "False"]


def test_find_lesson_by_number_or_id():
    assert find_lesson("3").id == find_lesson(find_lesson(3).id).id
    from tutor.engine.errors import UsageError

    with pytest.raises(
        UsageError,
        match=r"unknown lesson 'nope' \(lessons, by number, file name "
        r"or id: 01-history, 02-terms",
    ):
        find_lesson("nope")


@pytest.mark.parametrize(
    "key",
    [
        8,
        "8",
        "08",
        " 8 ",
        "08-oversights",
        "08-oversights.md",
        "oversights",
        "OVERSIGHTS",
        "lessons/08-oversights.md",
    ],
)
def test_a_lesson_is_named_by_number_file_name_or_id(key):
    entry = find_lesson(key)
    assert (entry.number, entry.id, entry.path.name) == (8, "oversights", "08-oversights.md")


@pytest.mark.parametrize("key", ["", "80", "0", "09-oversights", "oversight", "08-"])
def test_a_name_that_is_no_lesson_is_refused(key):
    from tutor.engine.errors import UsageError

    with pytest.raises(UsageError, match="unknown lesson"):
        find_lesson(key)


def test_every_command_that_names_a_lesson_takes_all_three_names(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path / "home"))
    for key in ("8", "08-oversights", "oversights"):
        out = tmp_path / f"{key}.md"
        assert main(["worksheet", key, "--seed", "3", "--out", str(out)]) == 0
        assert out.read_text(encoding="utf-8").startswith("# Lesson 8: Oversights")
        assert main(["lessons", "check", key]) == 0
        assert "1 lesson checked: no problems" in capsys.readouterr().out
    assert main(["lessons", "check", "no-such-lesson"]) == 2
    assert "unknown lesson 'no-such-lesson'" in capsys.readouterr().err
    assert main(["lessons", "list"]) == 0
    listing = capsys.readouterr().out
    assert "08-oversights" in listing and "oversights" in listing


def test_puzzle_seed_is_stable_and_distinct():
    assert puzzle_seed(1, "terms", 4, 0) == puzzle_seed(1, "terms", 4, 0)
    seeds = {puzzle_seed(s, "terms", b, n) for s in (1, 2) for b in (3, 4) for n in (0, 1)}
    assert len(seeds) == 8
    assert puzzle_seed(1, "terms", 4, 0) == 266208988846911  # pinned: the same on every machine


# --- the format -----------------------------------------------------------------------------


def test_pages_blocks_and_lines(tmp_path, library):
    path = write(
        tmp_path,
        """
        # First page

        Some text with `7H 7D`.

        ```quote
        parlett:deal-eight
        ```

        ---

        ## Still a heading, not a page break
        Heading
        ---

        ```cards
        Hand: 7H 7S
        caption: a caption: with a colon
        ```

        ```
        plain preformatted text
        ```
        """,
    )
    lesson = load_lesson(path, library)
    assert len(lesson.pages) == 2
    first, second = lesson.pages
    assert isinstance(first[0], Segment) and first[0].line == 11
    quote = first[1]
    assert isinstance(quote, Block) and quote.kind == "quote" and quote.line == 15
    assert quote.data == {"refs": ["parlett:deal-eight"]}
    cards = next(i for i in second if isinstance(i, Block))
    assert cards.data["caption"] == "a caption: with a colon"
    assert isinstance(second[-2], Segment) and "plain preformatted" in second[-2].text
    assert [b.index for b in lesson.blocks()] == [0, 1, 2]  # the last tests the objective


@pytest.mark.parametrize(
    "body, expected",
    [
        ("```chart\nx: 1\n```\n", r"05-sample.md:10: chart: unknown block \(blocks: quote"),
        (
            "```quote\nparlett:no-such-words\n```\n",
            r"05-sample.md:11: quote: unknown quotation 'parlett:no-such-words'",
        ),
        (
            "```quote\nnobody:deal-eight\n```\n",
            r"05-sample.md:11: quote: unknown quotation 'nobody:deal-eight' \(sources: ",
        ),
        (
            "```quote\nparlett:deal-eight\n```\n\n```puzzle\nkind: juggling\n```\n",
            r"05-sample.md:15: puzzle.kind: unknown puzzle kind 'juggling' \(kinds: spot-oversight",
        ),
        (
            "```quote\nparlett:deal-eight\n```\n\n```puzzle\nkind: count\nruleset: parlet\n```\n",
            r"05-sample.md:16: puzzle.ruleset: unknown ruleset 'parlet' \(rulesets: ",
        ),
        (
            "```quote\nparlett:deal-eight\n```\n\n```puzzle\nkind: count\nruleset: porges\n"
            "players: 6\n```\n",
            r"05-sample.md:17: puzzle.players: ruleset 'porges' does not cover 6 players",
        ),
        (
            "```quote\nparlett:deal-eight\n```\n\n```puzzle\nkind: spot-oversight\n"
            "ruleset: wolffauer\n```\n",
            r"05-sample.md:16: puzzle.ruleset: puzzles of kind 'spot-oversight' cannot be set under "
            r"'wolffauer'",
        ),
        (
            "```quote\nparlett:deal-eight\n```\n\n```puzzle\nkind: count\ncount: 50\n```\n",
            r"05-sample.md:16: puzzle.count: 50 is not a whole number from 1 to 10",
        ),
        (
            "```quote\nparlett:deal-eight\n```\n\n```rules\nparameters: [captures, colour]\n```\n",
            r"05-sample.md:15: rules.parameters: unknown parameter 'colour'",
        ),
        (
            "```quote\nparlett:deal-eight\n```\n\n```odds\nfigure: royal_flush\n```\n",
            r"05-sample.md:15: odds.figure: unknown figure 'royal_flush'",
        ),
        (
            "```quote\nparlett:deal-eight\n```\n\n```cards\nHand: 7H 7X\n```\n",
            r"05-sample.md:15: cards.Hand: '7X' is not a card",
        ),
        (
            "```quote\nparlett:deal-eight\n```\n\n```cards\nHand: 7H\nTable: 7h\n```\n",
            r"05-sample.md:16: cards.Table: 7H is also in 'Hand'",
        ),
        (
            "```quote\nparlett:deal-eight\n```\n\n```simulate\nruleset: parlett\nbots: genius\n```\n",
            r"05-sample.md:16: simulate.bots: unknown computer player 'genius'",
        ),
        (
            "```quote\nparlett:deal-eight\ndu-coeur:stakes\n```\n",
            r"05-sample.md:7: sources: the lesson quotes 'du-coeur' but its front matter does not",
        ),
        ("Just prose.\n", r"05-sample.md:10: quote: the lesson quotes no source"),
        (
            "```quote\nparlett:deal-eight\n```\n\n- item\n\n  ```odds\n  figure: hand_prial\n  ```\n",
            r"05-sample.md:16: odds: a block must stand on its own",
        ),
        # values of the wrong shape are named, never a traceback
        (
            "```quote\nparlett:deal-eight\n```\n\n```puzzle\nkind: count\ntheme: [counting]\n```\n",
            r"05-sample.md:16: puzzle.theme: puzzles of kind 'count' have no theme \['counting'\]",
        ),
        (
            "```quote\nparlett:deal-eight\n```\n\n```odds\nfigure: [[hand_prial]]\n```\n",
            r"05-sample.md:15: odds.figure: unknown figure \['hand_prial'\]",
        ),
        (
            "```quote\nparlett:deal-eight\n```\n\n```odds\nfigure: [{hand_prial: 1}]\n```\n",
            r"05-sample.md:15: odds.figure: unknown figure \{'hand_prial': 1\}",
        ),
    ],
)
def test_each_problem_names_file_and_line(tmp_path, body, expected):
    path = write(tmp_path, body)
    found = problems_of(path)
    assert any(__import__("re").search(expected, p) for p in found), found


@pytest.mark.parametrize(
    "front, expected",
    [
        (GOOD_FRONT.replace("minutes: 5\n", ""), r":1: minutes: missing from the front matter"),
        (
            GOOD_FRONT.replace("minutes: 5", "minutes: soon"),
            r":8: minutes: 'soon' is not a whole number of minutes",
        ),
        (
            GOOD_FRONT.replace("minutes: 5", "minutes: 5\ncolour: red"),
            r":9: colour: unknown front matter key",
        ),
        (GOOD_FRONT.replace("id: sample", "id: Sample Lesson"), r":2: id: 'Sample Lesson' is not"),
        (
            GOOD_FRONT.replace("  - {id: try, text: Try the format.}", "  - Try the format."),
            r":4: objectives\[0\]: must be a list of objectives, each `\{id: ..., text: ..., "
            r"themes: \[...\]\}`.* "
            r"\(a plain sentence has no id\)",
        ),
        (
            GOOD_FRONT.replace("{id: try,", "{id: Try It,"),
            r":4: objectives\[0\].id: 'Try It' is not an id",
        ),
        (
            GOOD_FRONT.replace(
                "  - {id: try, text: Try the format.}",
                "  - {id: try, text: Try the format.}\n  - {id: try, text: Again.}",
            ),
            r":4: objectives\[1\].id: objective 'try' is listed twice",
        ),
        (
            GOOD_FRONT.replace("sources: [parlett]", "sources: [parlett, nobody]"),
            r":7: sources: unknown source 'nobody'",
        ),
        (
            GOOD_FRONT.replace("title: A sample lesson", "title: [unclosed"),
            r":3: front matter: not valid YAML",
        ),
        ("# No front matter\n", r":1: front matter: missing"),
        ("---\nid: x\n", r":1: front matter: not closed"),
    ],
)
def test_bad_front_matter(tmp_path, front, expected):
    path = write(tmp_path, "```quote\nparlett:deal-eight\n```\n", front=front)
    found = problems_of(path)
    assert any(__import__("re").search(expected, p) for p in found), found


def test_load_lesson_raises_the_first_problem_with_all_attached(tmp_path):
    from tutor.engine.errors import DataError

    path = write(tmp_path, "```quote\nparlett:nope\n```\n\n```nonsense\n```\n")
    with pytest.raises(DataError) as info:
        load_lesson(path)
    assert str(info.value).endswith("quote: unknown quotation 'parlett:nope'")
    assert len(info.value.problems) == 2


def test_lessons_check_command_on_a_bad_file(tmp_path, capsys):
    path = write(tmp_path, "```quote\nparlett:nope\n```\n")
    assert main(["lessons", "check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("05-sample.md:11: quote: unknown quotation 'parlett:nope'")
    assert out[-1] == "1 lesson checked: 1 problem"


@pytest.mark.parametrize("value", ["null", "~", ""])
def test_lessons_check_refuses_null_prerequisites_and_sources(tmp_path, capsys, value):
    """Null is not a list: ``prerequisites: null`` (or left empty) is refused as any other
    wrong type is, on one line naming the file, the line and the key."""
    for key, line, say in (
        ("prerequisites", 6, "must be a list of text ([] for none)"),
        ("sources", 7, "must be a list of text"),
    ):
        before = "prerequisites: []" if key == "prerequisites" else "sources: [parlett]"
        path = write(
            tmp_path,
            "```quote\nparlett:deal-eight\n```\n",
            front=GOOD_FRONT.replace(before, f"{key}: {value}".rstrip()),
        )
        assert main(["lessons", "check", str(path)]) == 1
        out = capsys.readouterr().out.splitlines()
        assert out[0].endswith(f"05-sample.md:{line}: {key}: {say}"), out
        assert out[-1] == "1 lesson checked: 1 problem"
        with pytest.raises(DataError, match=f"05-sample.md:{line}: {key}: "):
            load_lesson(path)


def test_course_checks_prerequisites_and_duplicate_ids(tmp_path, library, monkeypatch):
    import tutor.teaching.lessons._index as lessons_mod

    write(tmp_path, "```quote\nparlett:deal-eight\n```\n", name="01-a.md")
    write(
        tmp_path,
        "```quote\nparlett:deal-eight\n```\n",
        name="02-b.md",
        front=GOOD_FRONT.replace("prerequisites: []", "prerequisites: [later, ghost]"),
    )
    write(
        tmp_path,
        "```quote\nparlett:deal-eight\n```\n",
        name="03-c.md",
        front=GOOD_FRONT.replace("id: sample", "id: later"),
    )
    monkeypatch.setattr(lessons_mod, "data_dir", lambda name: tmp_path)
    count, problems = check_lessons(library=library)
    assert count == 3
    text = "\n".join(problems)
    assert "02-b.md:2: id: lesson id 'sample' is also used by" in text
    assert "prerequisites: 'later' does not come before 'sample'" in text
    assert "prerequisites: unknown lesson 'ghost'" in text


def test_raw_html_is_shown_as_text(library):
    from rich.console import Console

    from tutor.app.markdown import render_markdown

    console = Console(width=60, record=True, color_system=None)
    console.print(render_markdown("Hello <b>bold</b> <script>alert(1)</script>\n\n<div>x</div>\n"))
    text = console.export_text()
    assert "<b>bold</b>" in text and "<script>alert(1)</script>" in text and "<div>x</div>" in text


def test_inline_card_codes_render_as_cards_only_when_canonical():
    from rich.console import Console

    from tutor.app.markdown import render_markdown

    console = Console(width=60, record=True, color_system=None)
    console.print(render_markdown("`7H 7D` and `qc` and `code`", symbols=True))
    text = console.export_text()
    assert "7♦ 7♥" in text and "qc" in text and "code" in text


# --------------------------------------------------------------------------------------------
# Faithful wording: what a lesson says a source says is in that source's words


#: Words a lesson puts in quotation marks that are not quoted from a source (scare quotes).
SCARE_QUOTES = {"fish"}


def _prose(lesson) -> str:
    text = " ".join(
        item.text for page in lesson.pages for item in page if isinstance(item, Segment)
    )
    return " ".join(re.sub(r"`[^`]*`", "", text).split())


def test_words_a_lesson_quotes_in_its_prose_stand_in_a_quotation(library):
    from tutor.puzzles.quoted import quote_plain

    quoted = [
        t
        for s in library.sources.values()
        for q in s.quotations.values()
        for t in (q.text, quote_plain(q.text))
    ]
    missing = [
        (lesson.id, phrase)
        for lesson in load_course(library=library)
        for phrase in re.findall(r'"([^"]+)"', _prose(lesson))
        if phrase not in SCARE_QUOTES and not any(phrase in t for t in quoted)
    ]
    assert missing == []


def test_statements_the_sources_do_not_support_stay_out(library):
    """Issue 9's list: each statement is gone, or kept with its hedge and marked as a reading."""
    course = {lesson.id: _prose(lesson) for lesson in load_course(library=library)}
    history = course["history"]
    for unsupported in (
        "Willughby also explains the name",
        "naturalist",
        "re-enactors",
        "wrote for himself",
        "John Skelton",
        "John Lyly",
        "Robert Forby",
        "games historian",
        "one-page",
    ):
        assert unsupported not in history
    assert "du Coeur reports that Willughby himself explains the name" in history
    assert "Besides the OED's, the list holds records from elsewhere" in history
    assert "That sentence is du Coeur's, written in 1996, not Florio's" in history
    for lid in ("terms", "settlement", "strategy"):
        assert "in every ruleset" not in course[lid]
        assert "whoever matched the last pair" in course[lid]
    assert "The last player in takes the **bonus**" not in course["settlement"]
    oversights = course["oversights"]
    assert "**First in time wins, in our reading**" in oversights
    assert '"probably" mean first in time' in oversights
    assert "one-page" not in oversights
    tournament = course["tournament"]
    assert "give each of five players the deal once per round" not in tournament
    assert "The sheet leaves one thing open" in tournament


# --- hardening: byte-order marks, unclosed fences, duplicate keys, alias bombs -------------------


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = write(tmp_path, "Prose.\n\n```quote\nparlett:deal-eight\n```\n")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert problems_of(path) == []
    assert load_lesson(path).id == "sample"
    assert course_index(tmp_path)[0].title == "A sample lesson"


def test_an_unclosed_fence_is_refused_at_its_line(tmp_path):
    path = write(
        tmp_path,
        "```quote\nparlett:deal-eight\n```\n\n```puzzle\nobjective: try\n"
        "kind: count\n\nMore prose, swallowed by the open fence.\n",
    )
    assert problems_of(path) == [
        f"{path}:14: puzzle: the fence ```puzzle opened here is never "
        "closed (end the block with a line ```)",
        f"{path}:4: objectives: objective 'try' is tested by no puzzle: "
        "add a puzzle block with `objective: try`",
    ]


def test_a_closed_fence_with_a_longer_closing_line_is_fine(tmp_path):
    path = write(tmp_path, "```quote\nparlett:deal-eight\n`````\n\nProse.\n")
    assert problems_of(path) == []


def test_a_duplicate_key_in_a_puzzle_block_is_refused_with_both_lines(tmp_path):
    path = write(
        tmp_path,
        "```quote\nparlett:deal-eight\n```\n\n```puzzle\nkind: count\ncount: 2\ncount: 3\n```\n",
    )
    assert problems_of(path) == [f"{path}:17: puzzle.count: duplicate key (first at line 16)"]


def test_a_duplicate_key_in_front_matter_is_refused(tmp_path):
    path = write(
        tmp_path,
        "```quote\nparlett:deal-eight\n```\n",
        front=GOOD_FRONT.replace("minutes: 5\n", "minutes: 5\nminutes: 6\n"),
    )
    assert problems_of(path) == [f"{path}:9: front matter.minutes: duplicate key (first at line 8)"]


def _bomb(levels: int) -> str:
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("where", ["front matter", "puzzle"])
def test_an_alias_bomb_in_a_lesson_is_refused_with_a_short_line(tmp_path, capsys, where):
    # Seven levels (4.8 million strings) are enough to show it: before, the checker built the
    # whole value and wrote it out in its message; nine levels ran out of memory.
    if where == "front matter":
        path = write(
            tmp_path,
            "```quote\nparlett:deal-eight\n```\n",
            front=GOOD_FRONT.replace("minutes: 5\n", "minutes: 5\n" + _bomb(7)),
        )
    else:
        path = write(
            tmp_path,
            "```quote\nparlett:deal-eight\n```\n\n```puzzle\nkind: count\n" + _bomb(7) + "```\n",
        )
    assert main(["lessons", "check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and len(out[0]) - len(str(path)) < 200, out[0][:300]
    assert re.match(
        rf"{re.escape(str(path))}:\d+: {where}\.l5\.0: more than 100,000 values once "
        r"aliases are expanded \(an alias bomb\?\)",
        out[0],
    )
