"""``laugh rules`` and ``laugh sources`` through the command line's ``main``."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from tutor.app import cli
from tutor.engine import data, sources

RULESET_IDS = [
    "du-coeur",
    "inter-livery-2018",
    "parlett",
    "parlett-13",
    "parlett-tournament",
    "porges",
    "wolffauer",
]


@pytest.fixture(autouse=True)
def _plain_terminal(tmp_path, monkeypatch):
    """An 80-column, colourless terminal and no learner's sources."""
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    sources.set_extra_dirs(())
    yield
    sources.set_extra_dirs(())


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_lists_the_rulesets(capsys):
    code, out, err = run(capsys, "rules")
    assert code == 0 and err == ""
    for rid in RULESET_IDS:
        assert rid in out
    assert "3-7" in out  # wolffauer's player counts
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80


def test_rules_parlett_shows_values_statuses_quotations_and_notes(capsys):
    code, out, err = run(capsys, "rules", "parlett")
    assert code == 0 and err == ""
    flat = " ".join(out.split())
    assert "lowest_cut" in flat and "[stated]" in flat
    # A verbatim quotation, with where it stands and the source's citation.
    assert "Whoever cuts the lowest card (Ace low) from the 52-card pack deals first" in flat
    assert 'David Parlett, "Laugh and Lie Down", Historic Card Games' in flat
    # Willughby, quoted by Parlett, is cited as such.
    assert "Whatever is overseen [i.e. overlooked] is his that can catch it first" in flat
    assert "quoting Willughby" in flat
    # Every player count, and a note.
    for n in (3, 4, 5, 6):
        assert f"{n} players" in flat
    assert "Note:" in flat


def test_rules_shows_chosen_values_with_the_source_value(capsys):
    code, out, _ = run(capsys, "rules", "porges", "--players", "4")
    assert code == 0
    flat = " ".join(out.split())
    assert "breakeven 10 (the text gives 8) [chosen]" in flat
    assert "4 stakes short" in flat  # the note
    assert "5 players" not in flat


def test_rules_compare(capsys):
    code, out, err = run(capsys, "rules", "--compare")
    assert code == 0 and err == ""
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80
    for rid in ("du-coeur", "porges", "wolffauer", "parlett"):
        assert rid in out
    assert "≠" in out  # rows that differ are marked without colour
    assert "last pair~" in out  # porges' read bonus_to, with its status mark
    assert "10*" in out  # porges' chosen four-player breakeven
    assert "Status:" in out and "chosen" in out  # the legend
    assert "\x1b[" not in out  # NO_COLOR and no terminal: no escape codes


def test_rules_compare_narrow(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    code, out, _ = run(capsys, "rules", "--compare")
    assert code == 0
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 40
    assert "tournament" in out and "inter-" in out


def test_rules_compare_selected(capsys):
    code, out, _ = run(capsys, "rules", "--compare", "porges", "du-coeur")
    assert code == 0
    assert "porges" in out and "du-coeur" in out and "wolffauer" not in out


def test_rules_json(capsys):
    code, out, err = run(capsys, "rules", "--json")
    assert code == 0 and err == ""
    data_ = json.loads(out)
    by_id = {r["id"]: r for r in data_["rulesets"]}
    assert sorted(by_id) == RULESET_IDS
    porges = by_id["porges"]
    assert porges["counts"]["4"]["breakeven"] == {
        **porges["counts"]["4"]["breakeven"],
        "value": 10,
        "status": "chosen",
        "source_value": 8,
    }
    assert porges["parameters"]["captures"]["value"] == ["one_for_one", "one_for_three"]
    quote = porges["parameters"]["bonus_to"]["quotes"][0]
    assert quote["text"] == "Whoever matched the last pair of the game wins 5 from the pot."
    assert quote["ref"] == "porges:last-pair-bonus" and quote["citation"]
    assert by_id["inter-livery-2018"]["counts"]["5"]["breakeven"]["value"] is None
    assert by_id["inter-livery-2018"]["parameters"]["last_in_plays_on"]["value"] is True


def test_rules_json_one_ruleset_and_compare(capsys):
    code, out, _ = run(capsys, "rules", "wolffauer", "--json")
    assert code == 0
    assert [r["id"] for r in json.loads(out)["rulesets"]] == ["wolffauer"]
    code, out, _ = run(capsys, "rules", "--compare", "--json")
    assert code == 0
    cmp = json.loads(out)
    row = next(r for r in cmp["rows"] if r["parameter"] == "bonus_to")
    assert row["differs"] and row["values"]["porges"] == "last_pair"
    row = next(r for r in cmp["rows"] if r["parameter"] == "hand" and r["players"] == 7)
    assert row["values"] == {"wolffauer": 6}


def test_rules_unknown_ruleset(capsys):
    code, out, err = run(capsys, "rules", "nosuch")
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert "nosuch" in lines[0]
    for rid in RULESET_IDS:
        assert rid in lines[0]


def test_rules_unsupported_player_count(capsys):
    code, _, err = run(capsys, "rules", "parlett-13", "--players", "5")
    assert code == 2
    assert err.strip() == "laugh: ruleset 'parlett-13' is for 4 players, not 5"


def test_sources_lists_citations_quotations_and_the_timeline(capsys):
    code, out, err = run(capsys, "sources")
    assert code == 0 and err == ""
    flat = " ".join(out.split())
    assert 'Justin du Coeur, "Game Report: Laugh and Lie Down"' in flat
    assert "deal-eight" in flat and "After Willughby, c.1665 > Cards and deal" in flat
    heading = "The game on record, 1522 to c. 1825"
    timeline = flat[flat.index(heading) + len(heading) :]
    order = [timeline.index(y) for y in ("1522", "1591", "1594", "1634", "c. 1825")]
    assert order == sorted(order)
    assert "Why not to Court" in timeline and "Calabrache" in timeline


def test_sources_one_source(capsys):
    code, out, _ = run(capsys, "sources", "porges")
    assert code == 0
    assert "games.porg.es" in out and "mournival-suit" in out
    assert "The game on record" not in out
    code, out, _ = run(capsys, "sources", "willughby")
    assert code == 0 and "The game on record, 1522 to c. 1825" in out


def test_sources_check(capsys):
    assert data.source_texts_dir() is not None
    code, out, err = run(capsys, "sources", "check")
    assert code == 0, out + err
    *findings, summary = out.strip().splitlines()
    assert (
        summary.startswith("OK: all ") and " quotations of 6 sources verified verbatim" in summary
    )
    assert summary.endswith("; 1 stands in more than one source text")
    # Inter-Livery's sheet has Parlett's sentence word for word: a finding, one line.
    assert len(findings) == 1 and re.fullmatch(
        r"sources/inter-livery-2018\.yaml:\d+: quotations\.pair-for-pair: "
        r"inter-livery-2018:pair-for-pair stands verbatim in more than one source text: "
        r"inter-livery-2018-rules\.md, parlett-historic-card-games\.txt",
        findings[0],
    ), findings


def test_sources_check_fails_when_a_quotation_of_our_own_has_no_text(capsys, tmp_path, monkeypatch):
    import shutil

    from tutor.app import source_pages

    own = tmp_path / "sources"
    shutil.copytree(data.data_dir("sources"), own, ignore=shutil.ignore_patterns("texts"))
    path = own / "willughby.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("    in: parlett-historic-card-games.txt\n", "", 1), encoding="utf-8"
    )
    line = text.splitlines().index("  no-other-game:") + 1

    def data_dir(name):
        return own if name == "sources" else data.data_dir(name)

    monkeypatch.setattr(sources, "data_dir", data_dir)
    monkeypatch.setattr(source_pages, "data_dir", data_dir)
    sources.clear_cache()
    try:
        code, out, err = run(capsys, "sources", "check")
    finally:
        monkeypatch.undo()
        sources.clear_cache()
    assert code == 1
    assert (
        f"{sources.display_path(path)}:{line}: quotations.no-other-game: "
        "willughby:no-other-game cited, not checked (no text)"
    ) in out.splitlines()
    total = sum(len(s.quotations) for s in sources.load_library().sources.values())
    assert err.strip() == (
        f"laugh: of {total} quotations, 1 of the project's own have no text to be checked against"
    )


def test_a_teachers_quotation_without_a_text_is_listed_not_verified(capsys, tmp_path):
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "club.yaml").write_text(
        "id: club\nkind: house\ncitation: {author: The Club, title: House rules}\n"
        "text: null\nsummary: Our rules.\n"
        "quotations:\n  deal:\n    text: We deal eleven cards each.\n    where: Deal\n",
        encoding="utf-8",
    )
    try:
        code, out, _ = run(capsys, "sources", "check", "--sources", str(extra))
    finally:
        sources.set_extra_dirs(())
    assert code == 0
    lines = out.strip().splitlines()
    assert (
        f"{sources.display_path(extra / 'club.yaml')}:7: quotations.deal: club:deal cited, not checked "
        "(no text)" in lines
    )
    own = sum(len(s.quotations) for s in sources.load_library().sources.values())
    assert lines[-1].startswith(f"OK: {own} of {own + 1} quotations of 7 sources verified verbatim")
    assert "; 1 cited, not checked (no text);" in lines[-1]


def test_sources_check_fails_without_the_texts(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("LAUGH_SOURCE_TEXTS", str(tmp_path / "empty"))
    code, out, err = run(capsys, "sources", "check")
    assert code == 1
    assert "not found" in out and "parlett:deal-eight" in out
    assert err.startswith("laugh: ") and len(err.strip().splitlines()) == 1


def test_sources_check_fails_on_a_wrong_quotation(capsys, tmp_path):
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "club.txt").write_text("We deal ten cards each.\n", encoding="utf-8")
    (extra / "club.yaml").write_text(
        "id: club\nkind: house\ncitation: {author: The Club, title: House rules}\n"
        "text: club.txt\nsummary: Our rules.\n"
        "quotations:\n  deal:\n    text: We deal eleven cards each.\n    where: Deal\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "sources", "check", "--sources", str(extra))
    lines = [line for line in out.splitlines() if "club:deal" in line]
    assert code == 1 and len(lines) == 1
    assert "eleven" in lines[0] and "ten" in lines[0]


def test_sources_unknown_id(capsys):
    code, out, err = run(capsys, "sources", "nosuch")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "nosuch" in err and "parlett" in err and "willughby" in err


def test_sources_json(capsys):
    code, out, _ = run(capsys, "sources", "--json")
    assert code == 0
    d = json.loads(out)
    assert {s["id"] for s in d["sources"]} >= {"parlett", "willughby"}
    first = d["records"][0]
    assert (first["date"], first["earliest"], first["author"]) == ("1522", 1522, "Skelton")
    florio = next(r for r in d["records"] if r["id"] == "florio-1598")
    assert florio["text"] is None and "Calabrache" in florio["report"]
    assert florio["given_by"].startswith("Justin du Coeur")


def test_rules_parameters_lists_every_parameter_with_its_values(capsys):
    from tutor.engine.parameters import PARAMETERS

    code, out, _ = run(capsys, "rules", "--parameters")
    assert code == 0
    for name in PARAMETERS:
        assert name in out
    assert "each_in_play" in out and "most_won" in out
    code, out, _ = run(capsys, "rules", "--parameters", "--json")
    assert {p["name"] for p in json.loads(out)["parameters"]} == set(PARAMETERS)


def test_sources_new_writes_a_template_that_loads(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "sources", "new", "tuesday-club")
    assert code == 0 and (tmp_path / "tuesday-club.yaml").is_file()
    try:
        code, out, _ = run(
            capsys, "--sources", str(tmp_path / "tuesday-club.yaml"), "rules", "tuesday-club"
        )
    finally:
        sources.set_extra_dirs(())
    assert code == 0 and "tuesday-club" in out
    code, _, err = run(capsys, "sources", "new", "tuesday-club")
    assert code == 2 and "exists" in err
    code, _, err = run(capsys, "sources", "new", "Bad Id")
    assert code == 2 and "not an id" in err


def _club(tmp_path, quote: str, text: str | None):
    extra = tmp_path / "club"
    extra.mkdir()
    if text is not None:
        (extra / "club.txt").write_text(text, encoding="utf-8")
    (extra / "club.yaml").write_text(
        "id: club\nkind: house\ncitation: {author: The Club, title: House rules}\n"
        f"text: {'club.txt' if text is not None else 'null'}\nsummary: Our rules.\n"
        f"quotations:\n  deal:\n    text: {quote}\n    where: Deal\n"
        "rulesets:\n  club:\n    title: Club\n    summary: Ours.\n    players:\n      4:\n"
        "        hand: {value: 10, status: stated, quotes: [deal]}\n"
        "        table: {value: 12, status: chosen, note: x}\n"
        "        ante_dealer: {value: 3, status: chosen, note: x}\n"
        "        ante_other: {value: 2, status: chosen, note: x}\n"
        "        last_in_bonus: {value: 3, status: chosen, note: x}\n"
        "        breakeven: {value: 10, status: chosen, note: x}\n"
        "    first_dealer: {value: chosen, status: chosen, note: x}\n"
        "    table_mournival: {value: dealer_takes, status: chosen, note: x}\n"
        "    captures: {value: [one_for_one], status: chosen, note: x}\n"
        "    hand_plays: {value: free, status: chosen, note: x}\n"
        "    bonus_to: {value: last_in, status: chosen, note: x}\n"
        "    last_in_plays_on: {value: false, status: chosen, note: x}\n"
        "    leftovers_to: {value: dealer, status: chosen, note: x}\n"
        "    scoring: {value: stakes, status: chosen, note: x}\n"
        "    oversights: {value: [], status: chosen, note: x}\n",
        encoding="utf-8",
    )
    return extra


@pytest.mark.parametrize(
    "command",
    [["rules", "club"], ["simulate", "--ruleset", "club", "--players", "4", "--deals", "2"]],
)
def test_a_made_up_quotation_is_refused_by_every_command(capsys, tmp_path, command):
    extra = _club(tmp_path, "We deal ten cards each.", "Our rule: we deal eleven cards each.")
    try:
        code, out, err = run(capsys, "--sources", str(extra), *command)
    finally:
        sources.set_extra_dirs(())
    assert code == 1 and "club:deal is not verbatim in club.txt" in err
    assert "club.yaml:" in err and len(err.strip().splitlines()) == 1


def test_a_quotation_with_no_text_is_shown_as_not_checked(capsys, tmp_path):
    extra = _club(tmp_path, "We deal ten cards each.", None)
    try:
        code, out, _ = run(capsys, "--sources", str(extra), "rules", "club")
    finally:
        sources.set_extra_dirs(())
    assert code == 0 and "not checked" in " ".join(out.split())


def test_lesson_rules_tables_never_read_chosen_chosen():
    # the first-dealer value "chosen" and the provenance mark "(chosen)" collided; the value
    # is now the parameter table's short word (stacked at 40 columns: one line a ruleset)
    import io as _io

    from rich.console import Console

    from tutor.app.blocks import parameter_value, render_block
    from tutor.app.context import Context, Glyphs
    from tutor.app.learner_io import ScriptedIO
    from tutor.engine.sources import default_library
    from tutor.teaching.lessons import find_lesson, load_lesson

    assert parameter_value(default_library(), "porges", "first_dealer", None) == (
        "players choose",
        "chosen",
    )
    c = Console(file=_io.StringIO(), width=40, color_system=None)
    ctx = Context(ScriptedIO([], c), Glyphs())
    for key in ("the-deal", "sources-compared"):
        for b in load_lesson(find_lesson(key).path).blocks("rules"):
            c.print(render_block(b, ctx, 40))
    out = c.file.getvalue()
    assert re.search(r"The games\.porg\.es +players choose", out) and "chosen (chosen)" not in out
    assert "porges" not in out.replace("games.porg.es", "")  # its name, never its id


def test_what_lessons_send_the_learner_to_says_only_what_the_sources_say(library):
    """Lesson 1 sends the learner to ``laugh sources willughby``; the source summaries, the
    timeline and the quiz's hints keep to the same words as the lessons (issue 9)."""
    from tutor.app.source_pages import sources_view
    from tutor.puzzles.model import definition

    summaries = " ".join(s.summary for s in library.sources.values())
    works = " ".join(r.title for r in library.records.values())
    hints = str(definition("source-quiz"))
    for unsupported in ("naturalist", "manuscript survey", "re-enactor"):
        assert unsupported not in summaries and unsupported not in hints
    assert "Moth. Bomb. (so abbreviated in Parlett's list; our expansion: Mother Bombie)" in works
    assert "Voc. E. Anglia (our expansion: Vocabulary of East Anglia)" in works
    con = Console(file=io.StringIO(), width=100, color_system=None)
    for renderable in sources_view(library, None):
        con.print(renderable)
    shown = con.file.getvalue()
    assert "Francis Willughby’s Book of Games." in shown  # <cite> rendered, not shown
    assert "<cite>" not in shown and "**" not in shown and "<b>" not in shown


def test_a_lie_down_payment_is_glossed_in_words(capsys):
    """Every value of a ruleset shown by ``laugh rules`` carries the parameter table's words,
    the lie-down payment of a house rule included."""
    house = Path(__file__).resolve().parent.parent / "data" / "sources"
    assert cli.main(["rules", "house-pot", "--sources", str(house)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "lie_down_pays: 1 to pot (lying down pays 1 stake into the pot) [chosen]" in out
