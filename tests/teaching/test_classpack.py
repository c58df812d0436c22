"""The teacher's pack (``laugh class pack``, issue 21): worked out from the sources and the
engine, every quotation a verified one, our own part marked and checked, the quiz the same for
one seed; and (marked ``chromium``) the pack, worksheets and class report printed to PDF."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from tutor.app.cli import main
from tutor.engine.errors import DataError
from tutor.engine.sources import audit_quotations, source_texts_dir
from tutor.teaching import classpack as C
from tutor.teaching.classpack import (
    SOURCE_KINDS,
    build_pack,
    load_class_data,
    render_html,
    render_markdown,
    word_diff,
)


@pytest.fixture(scope="module")
def pack(library):
    return build_pack(1, library)


def _shown_quotations(pack) -> list[str]:
    """Every quotation text the pack shows, wherever it stands."""
    out = [e["words"] for e in pack.timeline if e["entry"] == "record" and e["words"]]
    out += [e["report"][0] for e in pack.timeline if e["entry"] == "record" and e["report"]]
    out += [t for g in pack.glossary for t, _ in g["quoted"]]
    for c in pack.contested:
        out += [t for r in c["readings"] for t, _ in r["quotes"]]

    def walk(n):
        out.extend(t for t, _ in n.get("quotes", []))
        for child in n["children"]:
            walk(child)

    for r in pack.tree["roots"]:
        walk(r)
    for ev in pack.tree["evidence"]:
        for p in ev["pairs"]:
            out += [p["a"][0]] + ([p["b"][0]] if p["b"] else [])
    for t in pack.transcriptions:
        out += [t["a"][0], t["b"][0]]
    return out


def test_every_quotation_in_the_pack_is_verbatim_in_its_text(pack, library):
    audit = audit_quotations(library, source_texts_dir())
    assert not audit.problems
    verified = {library.quotation(r).text for r in audit.verified}
    shown = _shown_quotations(pack)
    assert len(shown) > 60
    assert set(shown) <= verified


def test_the_contested_rules_in_each_sources_words(pack, library):
    by = {c["name"]: c for c in pack.contested}
    assert {"bonus_to", "hand_plays", "captures", "first_dealer", "oversights"} <= set(by)
    # only rules on which the rulesets differ
    assert all(len({r["value"] for r in c["readings"]}) > 1 for c in pack.contested)
    bonus = {r["source"]: r for r in by["bonus_to"]["readings"]}
    assert (
        "last capture" in bonus["porges"]["value"] and "last player" in bonus["du-coeur"]["value"]
    )
    assert any("last pair" in t for t, _ in bonus["porges"]["quotes"])
    # the dead-pair rule in the words of the sources that state it
    dead = " ".join(t for r in by["hand_plays"]["readings"] for t, _ in r["quotes"])
    assert "even out of turn" in dead
    # a reading, never stated, carries our note
    for c in pack.contested:
        for r in c["readings"]:
            assert (r["status"] == "stated") == (r["note"] is None), (c["name"], r["source"])
            assert all(library.sources[r["source"]] for _ in r["rulesets"])


def test_the_family_tree_and_timeline_come_from_the_source_files(pack, library):
    roots = pack.tree["roots"]
    assert [r["id"] for r in roots] == ["willughby"]
    children = {c["id"]: c for c in roots[0]["children"]}
    assert set(children) == {"du-coeur", "parlett", "porges"}
    assert [c["id"] for c in children["du-coeur"]["children"]] == ["wolffauer"]
    assert [c["id"] for c in children["parlett"]["children"]] == ["inter-livery-2018"]
    il = children["parlett"]["children"][0]
    assert il["status"] == "read" and il["note"] and il["quotes"] == []
    # the copied sentences side by side, and how much of them is the same
    (ev,) = pack.tree["evidence"]
    assert len(ev["pairs"]) >= 5 and all(p["same"] >= 0.5 for p in ev["pairs"])
    assert any(p["verbatim"] for p in ev["pairs"])  # pair for pair, in the tips
    keys = [e["key"] for e in pack.timeline]
    assert keys == sorted(keys) and pack.timeline[0]["date"] == "1522"
    texts = {e["citation"].split(",")[0]: e["date"] for e in pack.timeline if e["entry"] == "text"}
    assert (
        texts["Justin du Coeur"] == "August 1996"
        and texts["Michel Wolffauer"] == "10 December 2009"
    )
    assert texts["games.porg.es (a card-games compendium)"] == "undated"
    # only a record of this game's name is tagged as the name (issue 33): du Coeur's aside on
    # another game is tagged as another meaning, Willughby's as a description of play
    tags = {e["id"]: e["tag"] for e in pack.timeline if e["entry"] == "record"}
    assert tags["florio-andar-a-pisciare"].startswith("another meaning")
    assert tags["willughby-1665"] == "a description of play" and tags["skelton-1522"] == "the name"


def test_the_transcriptions_of_willughby_are_compared(pack):
    (t,) = pack.transcriptions
    assert "Game at cards" in t["a"][0] and "game at cards" in t["b"][0]
    assert ("capital", "Game", "game") in t["differences"]
    assert word_diff("a **pair** of aces", "a pair of Aces.")["differences"] == [
        ("capital", "aces", "Aces"),
        ("punctuation", "", "."),
    ]


def test_the_comparison_table_has_every_parameter_and_status(pack, library):
    cmp_ = pack.comparison
    assert cmp_["columns"] == list(library.rulesets)
    labels = [r["label"] for r in cmp_["rows"]]
    assert (
        "bonus to" in labels
        and "5 players: hand/table; antes dealer/others; bonus; breakeven" in labels
    )
    bonus = next(r for r in cmp_["rows"] if r["label"] == "bonus to")
    statuses = {rid: c[1] for rid, c in zip(cmp_["columns"], bonus["cells"])}
    assert statuses["porges"] == "read" and statuses["parlett"] == "stated" and bonus["differs"]


def test_ours_is_marked_and_the_quiz_is_seeded(pack, library):
    page = render_html(pack, library)
    assert page.count("Ours, not the sources'") >= 4
    assert "Defend a reading of" in page and "For the teacher:" in page
    handout = render_html(pack, library, "students")
    assert handout.count("Ours, not the sources'") >= 3
    assert sum(s.minutes for s in pack.data.plan) == pack.data.minutes == 50
    assert {p.id.split(".")[0] for p in pack.quiz} <= set(SOURCE_KINDS)
    assert len(pack.quiz) == sum(q.count for q in pack.data.quiz)
    again = build_pack(1, library)
    assert [p.id for p in again.quiz] == [p.id for p in pack.quiz]
    assert [p.id for p in build_pack(2, library).quiz] != [p.id for p in pack.quiz]
    # the quiz in the students' handout, its key in the teacher's notes only
    assert handout.count('<div class="puzzle">') == len(pack.quiz)
    assert '<section class="key">' not in handout and '<section class="key">' in page
    assert "For the teacher:" not in handout and "Our reading:" not in handout.replace(
        "<em>Our reading:</em> The page carries no date", ""
    )
    assert "<script" not in page and "<script" not in handout


def test_markdown_pack_is_safe(pack, library):
    text = render_markdown(pack, library)
    html = MarkdownIt("commonmark").render(text)
    assert "<script" not in html and "<cite>" not in html.replace("&lt;cite&gt;", "")
    assert "## The family tree of the texts" in text and "## Answer key: Quiz" in text
    handout = render_markdown(pack, library, "students")
    assert "## Quiz" in handout and "Answer key" not in handout
    assert "<script" not in MarkdownIt("commonmark").render(handout)


def test_the_handout_has_passages_a_glossary_and_room_to_write(pack, library):
    """Issue 33: passages long enough for a group, exactly as the files hold them (markup
    kept and said what it is), a glossary of the game's words, and room to write."""
    from tutor.engine.sources import source_text

    assert [p["source"] for p in pack.passages] == ["parlett", "du-coeur", "porges"]
    for p in pack.passages:
        assert len(p["text"]) > 1200
        raw = source_text(library.sources[p["source"]]).replace("\r\n", "\n")
        assert all(line in raw for line in p["text"].splitlines())
    porges = pack.passages[2]
    assert "{%a glossary#mournival,murnivall %}" in porges["text"]
    assert any(raw.startswith("{%a glossary#mournival") for raw, _ in porges["markup"])
    terms = {g["term"] for g in pack.glossary}
    assert {"pair", "prial (pair royal)", "mournival", "lie down (lay down)", "breakeven"} <= terms
    assert all(g["quoted"] for g in pack.glossary)
    page = render_html(pack, library, "students")
    assert page.count('class="answer-line"') > 30
    assert "{%a glossary#mournival,murnivall %}" in page
    # a citation of the compendium is never rewritten inside quotation marks
    notes = render_html(pack, library)
    assert "[@FrancisWillughby p. 138]" in notes and "(Willughby, p. 138)" not in notes


def test_the_class_data_is_checked(tmp_path, library):
    good = C.class_path().read_text(encoding="utf-8")

    def error(text):
        path = tmp_path / "source-criticism.yaml"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(DataError) as exc:
            load_class_data(library, path)
        return str(exc.value)

    def line_of(text, needle):
        return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)

    bad = good.replace("  - minutes: 6\n", "  - minutes: 7\n", 1)
    assert "the plan's steps take 51 minutes, not 50" in error(bad)
    bad = good.replace(
        'from: "Whoever cuts the lowest card', 'from: "Whoever cuts the highest card'
    )
    msg = error(bad)
    assert msg.startswith(
        f"source-criticism.yaml:{line_of(bad, 'Whoever cuts the highest')}: "
        "passages.0.from: 'Whoever cuts the highest card"
    )
    bad = good.replace('"du-coeur:dealer-not-explicit"', '"du-coeur:nowhere"')
    msg = error(bad)
    assert msg.startswith(f"source-criticism.yaml:{line_of(bad, 'du-coeur:nowhere')}: ")
    assert "no source defines the quotation 'du-coeur:nowhere'" in msg
    bad = good.replace("Defend a reading of", 'Defend a "fine reading" of')
    assert '"fine reading" is in quotation marks but stands in no source' in error(bad)
    bad = good.replace("{kind: reading, count: 2}", "{kind: count, count: 2}")
    assert "'count' is not a kind of source criticism" in error(bad)
    bad = good.replace("    section: tree\n", "    section: trees\n")
    assert "'trees' is not a section of the pack" in error(bad)


def test_a_wrong_type_a_missing_key_and_an_unknown_key_name_the_file_line_and_key(
    tmp_path, library
):
    good = C.class_path().read_text(encoding="utf-8")
    path = tmp_path / "source-criticism.yaml"

    def error(text):
        path.write_text(text, encoding="utf-8")
        with pytest.raises(DataError) as exc:
            load_class_data(library, path)
        assert "\n" not in str(exc.value)
        return str(exc.value)

    def line_of(text, needle):
        return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)

    bad = good.replace("{kind: reading, count: 2}", "{kind: reading, count: two}")
    assert error(bad) == (
        f"source-criticism.yaml:{line_of(bad, 'count: two')}: quiz[2].count: must be a whole number"
    )
    bad = good.replace("minutes: 50\n", "")
    assert error(bad) == "source-criticism.yaml:1: minutes: is missing"
    bad = good.replace("{kind: reading, count: 2}", "{kind: reading, count: 2, level: 3}")
    assert error(bad) == (
        f"source-criticism.yaml:{line_of(bad, 'level: 3')}: quiz[2].level: "
        "is not a key here (keys: kind, count)"
    )
    bad = good.replace("minutes: 50\n", "minutes: 50\nhomework: none\n")
    assert error(bad).startswith(
        f"source-criticism.yaml:{line_of(bad, 'homework')}: homework: "
        "is not a key here (keys: title, minutes, intro, quiz, plan,"
    )


def test_laugh_class_pack(tmp_path, capsys):
    out = tmp_path / "pack.html"
    assert main(["class", "pack", "--seed", "4", "--out", str(out)]) == 0
    assert "Wrote the HTML class pack, the teacher's notes (quiz seed 4)" in capsys.readouterr().out
    assert "<h2>The family tree of the texts</h2>" in out.read_text(encoding="utf-8")
    assert main(["class", "pack", "--out", str(tmp_path / "x.pdf")]) == 2
    assert "x.pdf: the pack is written as .html or .md" in capsys.readouterr().err
    # an output that cannot be written: exit 1, said before the pack is worked out
    assert main(["class", "pack", "--out", str(tmp_path / "no" / "where.md")]) == 1
    err = capsys.readouterr().err
    assert "cannot write" in err and "does not exist; create it or choose another file" in err
    assert main(["class", "pack", "--seed", "1" + "0" * 40, "--out", str(out)]) == 2


# --------------------------------------------------------------------------------------------
# Printed with headless Chromium: page counts (and the pictures, looked at by hand)


def _chromium():
    return next(
        (
            shutil.which(n)
            for n in ("chromium", "chromium-browser", "google-chrome")
            if shutil.which(n)
        ),
        None,
    )


def print_pdf(html_file: Path, tmp_path: Path) -> int:
    """Print ``html_file`` to PDF with headless Chromium; returns the number of pages."""
    pdf = html_file.with_suffix(".pdf")
    subprocess.run(
        [
            _chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            html_file.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf.read_bytes()))


chromium = [
    pytest.mark.chromium,
    pytest.mark.skipif(_chromium() is None, reason="Chromium is not installed"),
]


@pytest.mark.parametrize(
    "args, pages",
    [
        # the lesson over four pages, six puzzles on two, the key
        (["worksheet", "10", "--seed", "1"], 7),
        # the lesson over two pages, four puzzles on two, the blank score sheet, the key
        (["worksheet", "11", "--seed", "1"], 6),
        # the teacher's notes: plan, timeline, tree, transcriptions and passages; the contested
        # rules with our readings; the comparison table (a landscape page); causes; questions and
        # tasks with notes; the key
        (["class", "pack", "--seed", "1"], 16),
        # the students' handout: glossary and timeline; the passages; transcriptions and the
        # contested rules; questions and tasks; the quiz on three pages
        (["class", "pack", "--for", "students", "--seed", "1"], 16),
    ],
)
@pytest.mark.chromium
@pytest.mark.skipif(_chromium() is None, reason="Chromium is not installed")
def test_printed_page_counts(tmp_path, args, pages):
    html = tmp_path / "out.html"
    assert main(args + ["--out", str(html)]) == 0
    assert print_pdf(html, tmp_path) == pages


@pytest.mark.chromium
@pytest.mark.skipif(_chromium() is None, reason="Chromium is not installed")
def test_printed_class_report_is_one_landscape_page(tmp_path):
    from test_classreport import three_learners

    from tutor.teaching.classreport import build_report
    from tutor.teaching.classreport import render_html as report_html

    html = tmp_path / "report.html"
    html.write_text(report_html(build_report(three_learners(tmp_path))), encoding="utf-8")
    assert print_pdf(html, tmp_path) == 1
    data = html.with_suffix(".pdf").read_bytes()
    box = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert float(box.group(1)) > float(box.group(2))  # landscape
