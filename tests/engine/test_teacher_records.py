"""Records of the game as data, and a teacher's own folder (issue 33).

A teacher adds, as data only, in ``LAUGH_HOME/sources``: a record dated by century, one "by
YEAR", one without a quotation and one with a page citation.  They are found in ``laugh
sources``, the timeline puzzles (sorted right), lesson 1 and both parts of the class pack,
with their attributions as given.  A broken or hostile file of the teacher's folder gives one
line (file, line, key) and never stops the program, and nothing a teacher adds changes whose
words a shipped quotation is.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console

from tutor.app.cli import main
from tutor.engine import sources
from tutor.engine.sources import parse_date

FOUND = """\
# Records a teacher found since: each date form, a record without words, a page citation.
id: found-records
kind: records
citation: {author: null, title: Newly found records of the name}
text: null
summary: Records found in the county archive.
quotations:
  ballad-words:
    text: "A game at laugh and lie down the boys would play"
    where: "Verse 3"
  almanac-words:
    text: "Cards, and Laugh and lay downe, in every alehouse"
    where: "December"
records:
  - id: ballad-century
    kind: name
    date: 18th century
    citation: {title: A broadside ballad of the fair}
    quote: ballad-words
    reported_by: {author: A. Historian, title: Notes on old games, date: "2021"}
  - id: inventory-by-1784
    kind: name
    date: by 1784
    citation: {title: A shop's inventory}
    note: Known from a citation only, in a pamphlet of that year.
  - id: sermon-1702
    kind: name
    date: 1702
    citation: {author: T. Preacher, title: A Sermon against Idleness}
  - id: almanac-page
    kind: name
    date: c. 1801
    citation: {author: J. Almanack, title: The Country Almanack, page: p. 17}
    quote: almanac-words
"""

OWN_CITATIONS = {
    "ballad-century": "A broadside ballad of the fair",
    "inventory-by-1784": "A shop's inventory",
    "sermon-1702": "T. Preacher, A Sermon against Idleness",
    "almanac-page": "J. Almanack, The Country Almanack, p. 17",
}


@pytest.fixture
def teacher(tmp_path, monkeypatch):
    home = tmp_path / "teacher"
    (home / "sources").mkdir(parents=True)
    (home / "sources" / "found.yaml").write_text(FOUND, encoding="utf-8")
    monkeypatch.setenv("LAUGH_HOME", str(home))
    sources.set_extra_dirs(())
    sources.clear_cache()
    yield home
    sources.clear_cache()


def _run(capsys, *args) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------------------------
# Dates


@pytest.mark.parametrize(
    "written, form, lo, hi",
    [
        (1522, "year", 1522, 1522),
        ("c. 1665", "circa", 1655, 1675),
        ("c.1665", "circa", 1655, 1675),
        ("by 1784", "by", None, 1784),
        ("after 2004", "after", 2004, None),
        ("1590-1600", "range", 1590, 1600),
        ("1590–1600", "range", 1590, 1600),
        ("1590s", "decade", 1590, 1599),
        ("18th century", "century", 1700, 1799),
        ("late 16th century", "century", 1567, 1599),
        ("mid-17th century", "century", 1633, 1666),
        (None, "undated", None, None),
    ],
)
def test_every_date_form_is_a_span_of_years(written, form, lo, hi):
    d = parse_date(written)
    assert (d.form, d.lo, d.hi) == (form, lo, hi)


@pytest.mark.parametrize(
    "bad", ["sometime", "1600-1590", "23rd century", "c. 99", "12th-ish", True, 1.5, "21th century"]
)
def test_a_date_that_is_no_date_is_refused_in_words(bad):
    with pytest.raises(ValueError):
        parse_date(bad)


def test_dates_sort_and_order_only_where_they_cannot_overlap():
    by, y1784, y1800, c18 = (parse_date(x) for x in ("by 1784", 1784, 1800, "18th century"))
    assert by.key < y1784.key  # "by 1784" is before 1784 in a list
    assert not by.apart(y1784) and by.before(y1800) and not c18.apart(y1800 and parse_date(1750))
    assert parse_date("c. 1665").like(1634).text == "c. 1634"
    assert parse_date("18th century").like(1634).text == "17th century"
    assert parse_date("by 1784").like(1700) is None  # "by 1700" could be true of it


# ---------------------------------------------------------------------------------------------
# A teacher's records, everywhere, with their attributions as given


def test_the_teachers_records_are_loaded_without_flags(teacher):
    lib = sources.default_library()
    assert not lib.refused
    got = {r.id: r for r in lib.records.values() if r.source == "found-records"}
    assert {k: r.citation_text for k, r in got.items()} == OWN_CITATIONS
    assert got["ballad-century"].date.form == "century"
    assert got["inventory-by-1784"].date.form == "by" and got["inventory-by-1784"].quote is None
    # its words are cited as the reporter gives them, quoting the record: never as the file
    # that lists them ("Newly found records...") nor as anyone else
    ballad = lib.quotation("found-records:ballad-words")
    assert ballad.citation == (
        "A. Historian, Notes on old games, 2021, quoting A broadside ballad of the fair"
    )
    almanac = lib.quotation("found-records:almanac-words")
    assert almanac.citation == "J. Almanack, The Country Almanack, p. 17"
    assert "Newly found" not in ballad.citation + almanac.citation
    # listed as cited, not checked, and never counted as verified
    assert {"found-records:ballad-words", "found-records:almanac-words"} <= lib.unchecked
    order = [r.id for r in lib.timeline()]
    assert (
        order.index("sermon-1702")
        < order.index("inventory-by-1784")
        < order.index("almanac-page")
        < order.index("forby-1825")
    )


def test_laugh_sources_shows_them_as_given(teacher, capsys):
    code, out, err = _run(capsys, "sources")
    flat = " ".join(out.split())
    assert code == 0 and err == ""
    for citation in OWN_CITATIONS.values():
        assert citation in flat
    assert "as given by A. Historian, Notes on old games, 2021" in flat
    assert flat.count("cited, with none of its words given") >= 3  # by-1784, 1702, Florio
    assert "cited, not checked" in flat
    assert "Newly found records" not in flat.split("The game on record")[1]
    code, out, _ = _run(capsys, "sources", "--json")
    recs = {r["id"]: r for r in json.loads(out)["records"]}
    assert recs["inventory-by-1784"]["text"] is None and recs["inventory-by-1784"]["latest"] == 1784
    assert recs["almanac-page"]["page"] == "p. 17"
    code, out, err = _run(capsys, "sources", "check")
    assert code == 0, out + err
    assert "found-records:ballad-words cited, not checked (no text)" in out


def test_the_timeline_puzzles_ask_them_sorted_right(teacher):
    from tutor import puzzles as P

    lib = sources.default_library()
    mine = {"ballad-century", "inventory-by-1784", "sermon-1702", "almanac-page"}
    seen: set[str] = set()
    for s in range(0, 240):
        p = P.generate("timeline", seed=s)
        if p.variant == "order":
            ids = p.answer["records"]
            seen |= mine & set(ids)
            by_letter = dict(zip("ABCD", ids))
            ordered = [lib.records[by_letter[x]].date for x in p.answer["order"]]
            assert all(a.before(b) for a, b in zip(ordered, ordered[1:])), ids
            assert p.grade(" ".join(p.answer["order"])).correct
            for rid in mine & set(ids):
                assert OWN_CITATIONS[rid].split(", ")[-1] in p.question
        elif p.variant == "when":
            rec = lib.records[p.answer["record"]]
            if rec.id in mine:
                seen.add(rec.id)
                forms = {parse_date(t).form for t in p.answer["options"]}
                # every option alike: a year or a c. year as the year alone
                assert forms == {"year" if rec.date.form in ("year", "circa") else rec.date.form}
                if rec.quote is None:
                    assert "none of its words" in p.question
    assert mine - {"inventory-by-1784"} <= seen and "inventory-by-1784" in seen


def test_lesson_one_teaches_them_before_it_asks(teacher):
    from tutor.app.blocks import render_block
    from tutor.app.context import Context, Glyphs
    from tutor.app.learner_io import ScriptedIO
    from tutor.teaching.lessons import check_lessons, find_lesson, load_lesson

    lesson = load_lesson(find_lesson("history").path)
    (block,) = lesson.blocks("records")
    con = Console(file=io.StringIO(), width=100, color_system=None)
    ctx = Context(ScriptedIO([], con), Glyphs())
    con.print(render_block(block, ctx, 100))
    shown = " ".join(con.file.getvalue().split())
    for citation in OWN_CITATIONS.values():
        assert citation in shown
    assert "as given by A. Historian, Notes on old games, 2021" in shown
    n, problems = check_lessons([lesson.path])
    assert problems == []


def test_a_lesson_that_does_not_show_a_record_fails_the_check(teacher, tmp_path):
    from tutor.teaching.lessons import check_lessons, find_lesson

    text = find_lesson("history").path.read_text(encoding="utf-8")
    bad = text.replace("```records\n```", "```records\nkinds: [play]\n```")
    path = tmp_path / "01-history.md"
    path.write_text(bad, encoding="utf-8")
    _, problems = check_lessons([path])
    assert any("which the lesson does not show" in p and "skelton-1522" in p for p in problems), (
        problems
    )
    assert all(
        re.match(rf"{re.escape(str(path))}:\d+: puzzle: ", p) or "does not show" not in p
        for p in problems
    )


def test_the_class_pack_prints_them_as_given(teacher):
    from tutor.teaching.classpack import build_pack, render_html, render_markdown

    lib = sources.default_library()
    pack = build_pack(1, lib)
    for audience in ("teacher", "students"):
        page = " ".join(render_html(pack, lib, audience).split())
        md = render_markdown(pack, lib, audience)
        for citation in OWN_CITATIONS.values():
            assert citation.replace("'", "&#39;") in page and citation.replace("'", "'") in md
        assert "as given by A. Historian, Notes on old games, 2021" in page
        # the file of records is no text of the rules: not in the timeline or family tree
        assert "Newly found records" not in page
    tags = {e["id"]: e["tag"] for e in pack.timeline if e["entry"] == "record"}
    assert tags["inventory-by-1784"] == "the name"


# ---------------------------------------------------------------------------------------------
# A broken or hostile teacher's file: one line, never a stop, no shipped attribution changed


def _shipped_citations() -> dict[str, str]:
    lib = sources.load_library()
    return {
        q.ref: q.citation
        for s in lib.sources.values()
        if s.origin == "own"
        for q in s.quotations.values()
    }


BROKEN = {
    "syntax": ("id: x\nkind: records\ncitation: {title: [\n", "YAML syntax error"),
    "unknown-key": (
        FOUND.replace("    kind: name\n    date: 1702", "    kind: name\n    year: 1702"),
        "records[2].year: is not a key here (keys: id, kind, date, citation",
    ),
    "bad-date": (
        FOUND.replace("date: by 1784", "date: sometime"),
        "records[1].date: 'sometime' is not",
    ),
    "bad-kind": (
        FOUND.replace("    kind: name\n    date: 1702", "    kind: rumour\n    date: 1702"),
        "records[2].kind: 'rumour' is not one of name (a record of the name)",
    ),
    "shipped-id": (FOUND.replace("id: found-records", "id: parlett"), "id: duplicate source id"),
    "shipped-record": (
        FOUND.replace("id: sermon-1702", "id: skelton-1522"),
        "duplicate record id 'skelton-1522'",
    ),
    "others-words": (
        FOUND.replace("quote: almanac-words", "quote: willughby:skelton-1522"),
        "records[3].quote: 'willughby:skelton-1522' is another file's quotation",
    ),
    "unknown-reporter": (
        FOUND.replace("    note: Known from", "    reported_by: nobody\n    note: Known from"),
        "records[1].reported_by: unknown",
    ),
    "not-utf8": (b"id: x\n\xff\xfe\n", "found.yaml:"),
    "empty": ("", "found.yaml:1"),
    "not-a-mapping": ("- just\n- a list\n", "found.yaml:1"),
    "alias-bomb": (
        "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
        "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
        "e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n",
        "found.yaml:",
    ),
}


#: The problems of one record: that record is left out, the file's others kept (issue 45,
#: finding 9: one typo no longer takes a teacher's four records away).
ONE_RECORD = {
    "unknown-key": "sermon-1702",
    "bad-date": "inventory-by-1784",
    "bad-kind": "sermon-1702",
    "others-words": "almanac-page",
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_teachers_file_is_one_line_and_never_a_stop(teacher, capsys, case):
    text, where = BROKEN[case]
    path = teacher / "sources" / "found.yaml"
    (
        path.write_bytes
        if isinstance(text, bytes)
        else lambda t: path.write_text(t, encoding="utf-8")
    )(text)
    sources.clear_cache()
    lib = sources.default_library()
    assert "parlett" in lib.rulesets
    if case in ONE_RECORD:
        kept = {r.id for r in lib.records.values() if r.source == "found-records"}
        assert kept == set(OWN_CITATIONS) - {ONE_RECORD[case]}, lib.refused
        assert len(lib.refused) == 1 and "this record is left out" in lib.refused[0]
    else:
        assert "found-records" not in lib.sources
    assert lib.refused and all("\n" not in line for line in lib.refused)
    assert any(where in line for line in lib.refused), lib.refused
    assert all(re.match(r".*found\.yaml:\d+: ", line) for line in lib.refused), lib.refused
    # every command runs, saying so in one line a problem on standard error
    sources.clear_cache()
    code, out, err = _run(capsys, "rules", "parlett")
    assert code == 0 and "Traceback" not in err
    lines = err.strip().splitlines()
    assert lines and all(line.startswith("laugh: ") and "left out" in line for line in lines)
    # the check names the file, line and key, and fails
    sources.clear_cache()
    code, out, err = _run(capsys, "sources", "check")
    assert code == 1 and any(where in line and "left out" in line for line in out.splitlines())


def test_many_bad_records_are_each_named(teacher):
    text = (
        FOUND.replace("date: by 1784", "date: sometime")
        .replace("date: 18th century", "date: 45th century")
        .replace("kind: name\n    date: 1702", "kind: gossip\n    date: 1702")
    )
    (teacher / "sources" / "found.yaml").write_text(text, encoding="utf-8")
    lib = sources.load_library()
    keys = {re.search(r": (records\[\d+\]\.\w+):", line).group(1) for line in lib.refused}
    assert keys == {"records[0].date", "records[1].date", "records[2].kind"}
    # each left out on its own: the fourth is kept
    assert {r.id for r in lib.records.values() if r.source == "found-records"} == {"almanac-page"}


def test_nothing_a_teacher_adds_changes_a_shipped_attribution(teacher, tmp_path):
    before = _shipped_citations()
    folder = teacher / "sources"
    # a text file laid beside the teacher's file under the name of Parlett's text, with words
    # Parlett never wrote, claimed as the teacher's source's own text and as Parlett's
    (folder / "parlett-historic-card-games.txt").write_text(
        "Willughby says the dealer always wins.", encoding="utf-8"
    )
    (folder / "hijack.yaml").write_text(
        "id: hijack\nkind: reconstruction\ncitation: {author: Mallory, title: Forged notes}\n"
        "text: parlett-historic-card-games.txt\nsummary: A hostile file.\n"
        "quotations:\n  forged:\n    text: Willughby says the dealer always wins.\n"
        "    where: nowhere\n    in: parlett-historic-card-games.txt\n    speaker: willughby\n",
        encoding="utf-8",
    )
    sources.clear_cache()
    lib = sources.default_library()
    after = {
        q.ref: q.citation
        for s in lib.sources.values()
        if s.origin == "own"
        for q in s.quotations.values()
    }
    assert after == before
    # the forged quotation is checked against Parlett's own text, not the file laid beside it,
    # so it is refused, and never cited as Parlett's
    assert "hijack" not in lib.sources
    assert any("hijack.yaml" in line and "quotations.forged" in line for line in lib.refused)
    assert lib.quotation("parlett:lowest-cut").cited_in.startswith("David Parlett")


def test_laugh_sources_new_records_writes_a_template_that_loads(teacher, capsys):
    (teacher / "sources" / "found.yaml").unlink()
    code, out, _ = _run(capsys, "sources", "new", "--records", "county-archive")
    path = teacher / "sources" / "county-archive.yaml"
    assert code == 0 and path.is_file() and str(path) in out
    sources.clear_cache()
    lib = sources.default_library()
    assert "county-archive" in lib.sources and not lib.refused
    assert not [r for r in lib.records.values() if r.source == "county-archive"]
    # every example, uncommented, loads as it stands: one record of each kind of date
    text = path.read_text(encoding="utf-8")
    live = re.sub(r"^#(  .*)$", r"\1", text, flags=re.M)
    path.write_text(live, encoding="utf-8")
    sources.clear_cache()
    lib = sources.default_library()
    assert not lib.refused, lib.refused
    forms = {r.date.form for r in lib.records.values() if r.source == "county-archive"}
    assert forms == {"year", "century", "by"}
    code, _, err = _run(capsys, "sources", "new", "--records", "county-archive")
    assert code == 2 and "exists" in err
    code, _, err = _run(capsys, "sources", "new", "--records", "Bad Name")
    assert code == 2 and "not an id" in err


@pytest.mark.parametrize(
    "text,shown,lo,hi",
    [
        ("1665-70", "1665–1670", 1665, 1670),
        ("c. 1665-70", "c. 1665–1670", 1655, 1680),
        ("1590-1600", "1590–1600", 1590, 1600),
        ("before 1600", "before 1600", None, 1599),
    ],
)
def test_the_date_forms_historians_write_are_read(text, shown, lo, hi):
    """Issue 45, finding 9: "c. 1665-70" and "1665-70" were refused."""
    from tutor.engine.sources._historical_records import parse_date

    d = parse_date(text)
    assert (d.text, d.lo, d.hi) == (shown, lo, hi)
    with pytest.raises(ValueError):
        parse_date("1665-60")


def test_a_record_without_an_author_is_named_once_in_an_explanation(teacher):
    """Issue 45, finding 6: "It is 1603: Popish Impostures, Popish Impostures, after ..." (its
    title stood for its author too)."""
    from tutor import puzzles as P

    said = []
    for s in range(240):
        p = P.generate("timeline", seed=s)
        if p.variant == "when" and p.answer["record"] in ("ballad-century", "inventory-by-1784"):
            said.append(p.explanation)
    assert said
    for text in said:
        title = next(
            t for t in ("A broadside ballad of the fair", "A shop's inventory") if t in text
        )
        assert text.count(title) == 1 or f"{title}, {title}" not in text, text
        assert f"{title}, {title}" not in text


def test_lesson_ones_counts_are_worked_out_from_the_list(teacher):
    """Issue 45, finding 9: lesson 1 said "four of them before Willughby ... one long after",
    "two of them come from elsewhere" and "from 1522 to about 1825" of a list a teacher may
    extend; the counts are now worked out from the list, under it, and the prose names none."""
    from tutor.app.blocks import render_block
    from tutor.app.context import Context, Glyphs
    from tutor.app.learner_io import ScriptedIO
    from tutor.teaching.lessons import Segment, find_lesson, load_lesson

    lesson = load_lesson(find_lesson("history").path)
    prose = " ".join(
        " ".join(it.text.split()) for page in lesson.pages for it in page if isinstance(it, Segment)
    )
    for stale in (
        "Two of them come from elsewhere",
        "the records run from 1522",
        "name, four of them before Willughby",
    ):
        assert stale not in prose
    (block,) = lesson.blocks("records")
    con = Console(file=io.StringIO(), width=100, color_system=None)
    con.print(render_block(block, Context(ScriptedIO([], con), Glyphs()), 100))
    shown = " ".join(con.file.getvalue().split())
    lib = sources.default_library()
    assert (
        f"{len(lib.records)} records, from 1522 to c. 1825: 5 records of the name before "
        "the description of play (Willughby, c. 1665) and 4 after it; 1 undated." in shown
    )


def test_a_record_dated_by_a_year_says_why_its_date_is_never_asked(teacher, capsys):
    """Issue 45, finding 9: the record dated "by 1784" is put in order by the timeline
    puzzles but never asked for its date, and nothing said why; the list says it."""
    code, out, err = _run(capsys, "sources")
    flat = " ".join(out.split())
    assert code == 0, err
    assert (
        "dated only “by 1784”: the timeline puzzles put it in order among the others, but "
        "never ask its date" in flat
    )


def test_a_bare_word_of_a_record_is_never_a_line_that_names_the_game(teacher):
    """Issue 45, finding 9: a teacher's record whose words were the bare "old-fashioned" was
    shown as a line whose answer is "a record that only names the game"; a record of the name
    joins the record question's lines only where its words name the game."""
    text = FOUND.replace(
        '''  almanac-words:
    text: "Cards, and Laugh and lay downe, in every alehouse"''',
        '''  almanac-words:
    text: "old-fashioned"''',
    )
    (teacher / "sources" / "found.yaml").write_text(text, encoding="utf-8")
    sources.clear_cache()
    from tutor.puzzles.kinds.timeline import record_lines

    lines = {ref for refs in record_lines().values() for ref in refs}
    assert "found-records:almanac-words" not in lines
    assert "found-records:ballad-words" in lines  # it names the game: it stays
