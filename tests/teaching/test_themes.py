"""One name a theme (issue 19, item 5): the theme table covers every theme recorded anywhere,
an older spelling is merged under the one name in the store, on import and in the class
report, and a learner can practise one theme (``laugh puzzle --theme``, the practice menu)."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from support import run_laugh

from tutor.app.cli import main
from tutor.engine.parameters import OVERSIGHT_KINDS
from tutor.puzzles import KINDS, themes_of
from tutor.puzzles.themes import label, resolve_theme, theme, theme_id, theme_ids, theme_table
from tutor.teaching.progress import FILE_NAME, ProgressStore
from tutor.teaching.transfer import parse_export, write_export

T0 = 1_767_225_600.0

#: Themes recorded outside puzzles: play's declarations and captures (tutor/app/play/practice_deal.py),
#: the count and settlement drills (tutor/teaching/drills/).
RECORDED_ELSEWHERE = {
    "dead-pair",
    "prial",
    "mournival",
    "pair",
    "at-risk",
    "counting",
    "unseen",
    "counting-risk",
    "settlement",
    "pairs-scoring",
    "stakes",
    "leftovers",
    "bonus",
}


def test_the_table_names_every_theme_once_in_plain_words():
    table = theme_table()
    carried = {t for k in KINDS for t in themes_of(k)}
    play_oversights = {theme_id(k) for k in OVERSIGHT_KINDS}
    assert carried | RECORDED_ELSEWHERE | play_oversights <= set(table)
    assert set(table) <= carried | RECORDED_ELSEWHERE  # nothing listed for no one
    labels = [t.label for t in table.values()]
    assert len(set(map(str.lower, labels))) == len(labels)
    for t in table.values():
        assert t.id == theme_id(t.id) and t.label != t.id and "_" not in t.label
    # groups in the table's order
    orders = [t.order for t in table.values()]
    assert orders == sorted(orders)


@pytest.mark.parametrize(
    "given, one",
    [
        ("laid_down_dead_pair", "laid-down-dead-pair"),
        ("Laid-Down-Dead-Pair", "laid-down-dead-pair"),
        ("  split prial ", "split-prial"),
        ("split--prial", "split-prial"),
        ('=HYPERLINK("x")', '=hyperlink("x")'),
    ],
)
def test_theme_id_spells_every_theme_one_way(given, one):
    assert theme_id(given) == one


def test_theme_ids_merge_spellings_and_keep_order():
    assert theme_ids(["oversight", "laid_down_dead_pair", "laid-down-dead-pair"]) == [
        "oversight",
        "laid-down-dead-pair",
    ]
    assert label("laid_down_dead_pair") == "A dead pair thrown in"
    unknown = theme("from_a_newer_version")
    assert (unknown.id, unknown.label, unknown.known) == (
        "from-a-newer-version",
        "from-a-newer-version",
        False,
    )
    assert resolve_theme("A dead pair thrown in") == "laid-down-dead-pair"
    with pytest.raises(Exception, match="no puzzle has the theme 'dead pairs'"):
        resolve_theme("dead pairs")


def test_the_store_records_one_name(tmp_path):
    with ProgressStore(tmp_path / FILE_NAME) as s:
        s.record_answer(
            "play:1", "spot-oversight", ["laid_down_dead_pair"], False, None, difficulty=2, at=T0
        )
        s.record_answer(
            "spot-oversight.parlett.5.1",
            "spot-oversight",
            ["oversight", "laid-down-dead-pair"],
            True,
            4.0,
            difficulty=2,
            at=T0 + 1,
        )
        tallies = {t.name: (t.right, t.n) for t in s.tallies("theme")}
        assert tallies["laid-down-dead-pair"] == (1, 2) and "laid_down_dead_pair" not in tallies
        assert set(s.ratings("theme:")) == {"theme:laid-down-dead-pair", "theme:oversight"}


def test_an_older_file_is_respelled_and_its_ratings_merged(tmp_path):
    path = tmp_path / FILE_NAME
    with ProgressStore(path) as s:
        for i, spelt in enumerate(["laid-down-dead-pair", "split-prial", "laid-down-dead-pair"]):
            s.record_answer(
                f"p{i}", "spot-oversight", [spelt], i != 1, 3.0, difficulty=2, at=T0 + i
            )
    # as an older version wrote it: play's spelling, and its own rating subject
    conn = sqlite3.connect(path)
    conn.execute(
        "UPDATE answers SET themes = ? WHERE puzzle_id = 'p0'",
        (json.dumps(["laid_down_dead_pair"]),),
    )
    conn.execute(
        "INSERT INTO ratings VALUES ('theme:laid_down_dead_pair', 1500, 300, 0.06, 1, ?)", (T0,)
    )
    conn.commit()
    conn.close()
    with ProgressStore(path, read_only=True) as s:  # respelled in the copy read
        assert {t.name for t in s.tallies("theme")} == {"laid-down-dead-pair", "split-prial"}
    with ProgressStore(path) as s:
        assert {t.name: t.n for t in s.tallies("theme")} == {
            "laid-down-dead-pair": 2,
            "split-prial": 1,
        }
        assert set(s.ratings("theme:")) == {"theme:laid-down-dead-pair", "theme:split-prial"}
        assert s.rating("theme:laid-down-dead-pair").games == 2
    conn = sqlite3.connect(path)  # and written to the file
    rows = [r[0] for r in conn.execute("SELECT themes FROM answers ORDER BY id")]
    conn.close()
    assert rows == ['["laid-down-dead-pair"]', '["split-prial"]', '["laid-down-dead-pair"]']


def test_an_old_export_imports_merged_under_the_one_name(tmp_path):
    with ProgressStore(tmp_path / "a" / FILE_NAME) as s:
        s.record_answer(
            "x1", "spot-oversight", ["laid-down-dead-pair"], True, 3.0, difficulty=2, at=T0
        )
        write_export(s, tmp_path / "new.json")
    data = json.loads((tmp_path / "new.json").read_text(encoding="utf-8"))
    old = dict(
        data,
        answers=[
            dict(
                data["answers"][0], uid="other", puzzle_id="play:9", themes=["laid_down_dead_pair"]
            )
        ],
    )
    export = parse_export(json.dumps(old))
    assert export.answers[0].themes == ("laid-down-dead-pair",)
    with ProgressStore(tmp_path / "b" / FILE_NAME) as s:
        s.merge(parse_export(json.dumps(data)).answers, [], {})
        s.merge(export.answers, [], {})
        assert [(t.name, t.n) for t in s.tallies("theme")] == [("laid-down-dead-pair", 2)]


def test_laugh_puzzle_theme(capsys):
    assert main(["puzzle", "--theme", "laid_down_dead_pair", "--seed", "3", "--json"]) == 0
    p = json.loads(capsys.readouterr().out)
    assert p["kind"] in ("spot-oversight", "dead-pair") and "laid-down-dead-pair" in p["themes"]
    assert main(["puzzle", "dead-pair", "--theme", "decoy", "--seed", "1", "--json"]) == 0
    p = json.loads(capsys.readouterr().out)
    assert p["kind"] == "dead-pair" and "decoy" in p["themes"]
    assert main(["puzzle", "capture-now", "--theme", "decoy"]) == 2
    err = capsys.readouterr().err
    assert "capture-now puzzles have no theme decoy" in err and "spot-oversight" in err
    assert main(["puzzle", "--theme", "nope"]) == 2
    assert "`laugh puzzles themes` lists every theme" in capsys.readouterr().err
    assert main(["puzzle", "--id", "count.parlett.5.1", "--theme", "unseen"]) == 2
    assert main(["puzzles", "themes"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"A dead pair thrown in +laid-down-dead-pair +spot-oversight", out)
    assert "Mistakes to claim" in out


def test_practice_menu_offers_one_theme(tmp_path):
    groups = list(dict.fromkeys(t.group_label for t in theme_table().values()))
    n = groups.index("Mistakes to claim") + 1
    # home, puzzles, theme, a group by number, a theme by its id; five answers shown; home; quit
    script = f"p\nt\n{n}\nlaid-down-dead-pair\n" + "show\n" * 5 + "\nq\n"
    proc = run_laugh([], script, tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Practise a theme: which part of the game?" in out
    assert "Practice: A dead pair thrown in" in out
    with ProgressStore(tmp_path / FILE_NAME) as s:
        answers = s.answers()
    assert len(answers) == 5 and all("laid-down-dead-pair" in a.themes for a in answers)


def test_a_damaged_older_file_is_salvaged_in_the_one_spelling(tmp_path):
    """What the salvage of a damaged file keeps is respelled with it, its ratings one."""
    path = tmp_path / FILE_NAME
    with ProgressStore(path) as s:
        for i in range(3):
            s.record_answer(
                f"p{i}",
                "spot-oversight",
                ["laid-down-dead-pair"],
                i != 1,
                3.0,
                difficulty=2,
                at=T0 + i,
            )
    conn = sqlite3.connect(path)
    conn.execute(
        "UPDATE answers SET themes = ? WHERE puzzle_id = 'p0'",
        (json.dumps(["Laid_Down_Dead_Pair"]),),
    )
    conn.execute("UPDATE answers SET themes = '[oops' WHERE puzzle_id = 'p2'")  # damage
    conn.commit()
    conn.close()
    with ProgressStore(path) as s:
        assert "could not be read" in s.notice and s.answer_count() == 2
        assert [a.themes for a in s.answers()] == [("laid-down-dead-pair",)] * 2
        assert set(s.ratings("theme:")) == {"theme:laid-down-dead-pair"}
        assert s.rating("theme:laid-down-dead-pair").games == 2


def test_a_store_in_the_one_spelling_is_not_decoded_at_open(tmp_path):
    """Only answers whose themes may be spelt otherwise are read back at open: not one of
    several themes (JSON's ", " between them is no space in a theme)."""
    from tutor.teaching.theme_names import _MAYBE_OLD

    with ProgressStore(tmp_path / FILE_NAME) as s:
        s.record_answer(
            "a",
            "spot-oversight",
            ["oversight", "split-prial", "decoy"],
            True,
            3.0,
            difficulty=2,
            at=T0,
        )
        assert s.conn.execute(_MAYBE_OLD).fetchall() == []
        for old in (["split prial"], ["oversight", "Split-Prial"], ["a, b"], ["x "]):
            s.conn.execute("UPDATE answers SET themes = ?", (json.dumps(old),))
            assert len(s.conn.execute(_MAYBE_OLD).fetchall()) == 1, old


def test_the_themes_at_a_terminal_are_paged_under_a_header(monkeypatch):
    # issue 34 finding 10: laugh puzzles themes goes through the one pager (as sources and
    # stats do), a screenful at a time at a terminal, under a header that says what it lists
    import tutor.app.context as context
    from tutor.app.cli import main

    paged = []
    real = context.make_context

    def made(*a, **k):
        ctx = real(*a, **k)
        monkeypatch.setattr(ctx, "page", lambda *r: paged.append(r))
        return ctx

    monkeypatch.setattr(context, "make_context", made)
    assert main(["puzzles", "themes"]) == 0
    assert len(paged) == 1 and len(paged[0]) > 10
    assert str(paged[0][0]).startswith("Puzzle themes (")
