"""The class report as a teacher scans it (issue 21): one grid of learners × themes in plain
words with a total row and column, the class's weakest themes, the same grid as CSV; names and
every text from an export inert in HTML and CSV; a place for more columns per learner."""

from __future__ import annotations

import csv
import io
import json
import re

from markupsafe import escape
from support import run_laugh

from tutor.app.cli import main
from tutor.engine.safetext import csv_cell
from tutor.teaching.classreport import ColumnGroup, band, build_report, render_csv, render_html
from tutor.teaching.progress import FILE_NAME, ProgressStore
from tutor.teaching.transfer import read_export, write_export

T0 = 1_767_225_600.0
HOSTILE = '=HYPERLINK("http://evil.example/?x","click")'
SCRIPT = "<script>alert('x')</script>"


def _learner(tmp_path, name, answers):
    """An export of ``answers`` (kind, themes, right) under ``name``."""
    folder = tmp_path / re.sub(r"\W+", "-", name)[:20]
    with ProgressStore(folder / FILE_NAME) as s:
        for i, (kind, themes, right) in enumerate(answers):
            s.record_answer(
                f"{kind}.parlett.5.{i}", kind, themes, right, 4.0 + i, difficulty=2, at=T0 + 60 * i
            )
        path = tmp_path / f"{folder.name}.json"
        write_export(s, path, learner=name)
    return str(path), read_export(path)


def three_learners(tmp_path):
    ann = _learner(
        tmp_path,
        "Ann",
        [
            ("spot-oversight", ["oversight", "split-prial"], True),
            ("spot-oversight", ["oversight", "split-prial"], True),
            ("settlement", ["settlement", "bonus"], False),
        ],
    )
    bob = _learner(
        tmp_path,
        SCRIPT,
        [
            ("spot-oversight", ["oversight", "laid_down_dead_pair"], False),
            ("settlement", ["settlement", "bonus"], False),
            ("settlement", ["settlement"], True),
        ],
    )
    cat = _learner(
        tmp_path,
        HOSTILE,
        [
            ("spot-oversight", ["oversight", "laid-down-dead-pair"], False),
            ("source-quiz", ["sources", "which-source"], True),
        ],
    )
    return [ann, bob, cat]


def test_one_grid_of_learners_and_themes_with_totals(tmp_path):
    report = build_report(three_learners(tmp_path))
    ids = [t.id for t in report.themes]
    # in the table's order (by group), each spelt one way
    assert ids == [
        "oversight",
        "split-prial",
        "laid-down-dead-pair",
        "settlement",
        "bonus",
        "sources",
        "which-source",
    ]
    ann, bob, cat = report.learners
    assert (ann.cells["split-prial"].right, ann.cells["split-prial"].answers) == (2, 2)
    assert "laid-down-dead-pair" in bob.cells and "laid-down-dead-pair" in cat.cells
    assert (
        report.totals["laid-down-dead-pair"].answers,
        report.totals["laid-down-dead-pair"].right,
    ) == (2, 0)
    assert (report.totals["oversight"].answers, report.totals["oversight"].right) == (4, 2)
    assert (report.total.answers, report.total.right) == (8, 4)
    assert (bob.total.answers, bob.total.right) == (3, 1)
    # the class's weakest themes: lowest class accuracy first, with who is below half
    weakest = [(t.id, low) for t, c, low in report.weakest]
    assert weakest[:2] == [("laid-down-dead-pair", [SCRIPT, HOSTILE]), ("bonus", ["Ann", SCRIPT])]
    assert band(ann.cells["split-prial"]) == "strong" and band(bob.cells["bonus"]) == "weak"

    page = render_html(report)
    assert page.count('<table class="grid">') == 1 and "<h2>Kind" not in page
    for t in report.themes:
        assert f'<th class="theme" title="{t.id}"><div>{escape(t.label)}</div></th>' in page
    # a cell: the share right and right/answered; colour (the class) only repeats the number
    assert '<td class="cell strong"><span class="acc">100%</span><span class="n">2/2</span>' in page
    assert '<tr class="class-total"><th class="learner">Class</th>' in page
    assert "A dead pair thrown in</b>: 0% right of 2 answers" in page
    # a rating of a few answers is provisional: marked ? as on every screen, and said once
    assert ann.rd > 110 and f'<span class="n">{ann.rating:.0f}? ± {ann.rd:.0f}</span>' in page
    assert page.count("? marks a provisional rating") == 1

    rows = list(csv.reader(io.StringIO(render_csv(report))))
    assert len(rows) == 1 + 3 + 1 and rows[-1][0] == "Class"
    head = rows[0]
    for t in report.themes:
        assert f"{t.label} [{t.id}]: accuracy" in head and f"{t.label} [{t.id}]: answers" in head
    col = head.index("A dead pair thrown in [laid-down-dead-pair]: accuracy")
    assert [r[col] for r in rows[1:]] == ["", "0.000", "0.000", "0.000"]
    assert [r[2] for r in rows[1:]] == ["3", "3", "2", "8"]  # all answers, and total


def test_a_hostile_name_through_export_import_and_report_is_inert(tmp_path):
    """A learner named with a script and a spreadsheet formula, and an export that carries
    themes of its own: the name travels through ``laugh progress export`` and ``import``,
    and comes out of ``laugh class report`` as text in the HTML and as no formula in CSV."""
    home = tmp_path / "home"
    with ProgressStore(home / FILE_NAME) as s:
        s.record_answer("count.parlett.5.1", "count", ["counting"], True, 3.0, difficulty=1, at=T0)
    for name in (HOSTILE, SCRIPT):
        out = tmp_path / f"{len(name)}.json"
        proc = run_laugh(["progress", "export", str(out), "--name", name], "", home)
        assert proc.returncode == 0, proc.stderr
        # the export itself is JSON data: the name is a string, as given
        assert json.loads(out.read_text(encoding="utf-8"))["learner"] == name
        proc = run_laugh(["progress", "import", str(out)], "", tmp_path / "other")
        assert proc.returncode == 0, proc.stderr
    # themes from an export are text too
    path = tmp_path / f"{len(HOSTILE)}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["answers"][0]["themes"].append("+cmd|' /C calc'!A0")
    data["answers"][0]["themes"].append("<img src=x onerror=alert(1)>")
    path.write_text(json.dumps(data), encoding="utf-8")
    html, csv_path = tmp_path / "r.html", tmp_path / "r.csv"
    assert (
        main(
            [
                "class",
                "report",
                str(path),
                str(tmp_path / f"{len(SCRIPT)}.json"),
                "--html",
                str(html),
                "--csv",
                str(csv_path),
            ]
        )
        == 0
    )
    page = html.read_text(encoding="utf-8")
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page
    assert "=HYPERLINK(&#34;http://evil.example/?x&#34;,&#34;click&#34;)" in page
    tags = set(re.findall(r"<\s*([a-zA-Z0-9]+)", page))
    assert tags <= {
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "h1",
        "h2",
        "p",
        "span",
        "em",
        "b",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "div",
        "ol",
        "li",
        "br",
    }
    cells = [
        c for row in csv.reader(io.StringIO(csv_path.read_text(encoding="utf-8"))) for c in row
    ]
    assert not any(c.startswith(("=", "+", "-", "@")) for c in cells)
    assert "'" + HOSTILE in cells
    assert any(c.startswith("'+cmd|") for c in cells)  # a theme in a header


def test_csv_cell():
    """The report's CSV cells go through the one neutraliser (a plain number stays a number);
    a formula behind spaces or a no-break space is one too (issue 28), and a control or bidi
    character is shown escaped."""
    assert [
        csv_cell(v) for v in ("=1+1", "+1x", "-1+A1", "@x", "\t=x", "Ann", 3, None, "0.500", "-1")
    ] == ["'=1+1", "'+1x", "'-1+A1", "'@x", "'\t=x", "Ann", 3, None, "0.500", "-1"]
    assert [
        csv_cell(v)
        for v in (
            " =1+1",
            "\u00a0=HYPERLINK(A1)",
            "\u3000@x",
            "\uff1d1",
            "a\x1b]52;c;eA==\x07",
            "\u202eAnn",
        )
    ] == [
        "' =1+1",
        "'\u00a0=HYPERLINK(A1)",
        "'\u3000@x",
        "'\uff1d1",
        "a\\x1b]52;c;eA==\\x07",
        "\\u202eAnn",
    ]


def test_a_column_group_adds_figures_per_learner(tmp_path):
    """The place for more figures per learner (the oversight figures, once exports carry
    them): a group reads each export and adds its columns to the grid and the CSV."""

    def read(export, store):
        if export.learner == "Ann":
            return {"hits": "3", "misses": "1", "false claims": "0", "median time": "2.1 s"}
        return None

    group = ColumnGroup(
        "oversight",
        "Oversights in play",
        ("hits", "misses", "false claims", "median time"),
        read,
        note="Counted in play and drills.",
    )
    report = build_report(three_learners(tmp_path), groups=[group])
    assert report.groups == [group]
    assert report.learners[0].extra == {
        "oversight": {"hits": "3", "misses": "1", "false claims": "0", "median time": "2.1 s"}
    }
    page = render_html(report)
    assert '<th class="group total" colspan="4">Oversights in play</th>' in page
    assert '<td class="extra total">3</td><td class="extra">1</td>' in page
    rows = list(csv.reader(io.StringIO(render_csv(report))))
    assert rows[0][-4:] == [
        "Oversights in play: hits",
        "Oversights in play: misses",
        "Oversights in play: false claims",
        "Oversights in play: median time",
    ]
    assert rows[1][-4:] == ["3", "1", "0", "2.1 s"] and rows[2][-4:] == ["", "", "", ""]
    # no export with figures: no such columns
    assert (
        build_report(
            three_learners(tmp_path / "b"),
            groups=[ColumnGroup("x", "X", ("a",), lambda e, s: None)],
        ).groups
        == []
    )


def test_the_report_carries_each_learners_spotting_figures(tmp_path):
    """Issue 19: hits, misses, false claims and the median time of hits per learner, from
    their exports, as ``laugh stats`` counts them."""
    from tutor.teaching.classreport import SPOTTING
    from tutor.teaching.progress import ProgressStore
    from tutor.teaching.transfer import read_export, write_export

    with ProgressStore(tmp_path / "a.sqlite3") as store:
        store.record_answer(
            "spot-oversight.parlett.5.1", "spot-oversight", ["split-prial"], True, 2.0
        )
        for outcome, secs in (("hit", 1.0), ("hit", 3.0), ("miss", None), ("false_claim", None)):
            store.record_sighting("drill", "split_prial", outcome, secs)
        write_export(store, tmp_path / "ann.json", "Ann")
    with ProgressStore(tmp_path / "b.sqlite3") as store:
        store.record_answer("count.parlett.5.1", "count", ["counting"], True, 2.0)
        write_export(store, tmp_path / "bob.json", "Bob")
    report = build_report([(f, read_export(tmp_path / f)) for f in ("ann.json", "bob.json")])
    assert SPOTTING in report.groups
    ann, bob = report.learners
    assert ann.extra["oversights"] == {
        "claimed first": "2",
        "missed": "1",
        "false claims": "1",
        "median time": "2.0 s",
    }
    assert "oversights" not in bob.extra
    rows = list(csv.reader(io.StringIO(render_csv(report))))
    assert rows[0][-4:] == [
        "Spotting oversights: claimed first",
        "Spotting oversights: missed",
        "Spotting oversights: false claims",
        "Spotting oversights: median time",
    ]
