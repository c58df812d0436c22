"""The sources and rulesets as data: quotations verbatim, RULES.md 5's values, validation."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tutor.engine import data, sources
from tutor.engine.errors import DataError, LaughError, UsageError
from tutor.engine.rulesets import COUNT_PARAMETERS, RULESET_PARAMETERS, Ruleset

PROJECT_SOURCES = data.data_dir("sources")

ALL_CAPTURES = {"one_for_one", "one_for_three", "pair_for_pair", "prial_for_one"}
SINGLE_CAPTURES = {"one_for_one", "one_for_three"}
PARLETT_OVERSIGHTS = {"overlooked_table_mournival", "split_prial", "laid_down_dead_pair"}
ALL_OVERSIGHTS = PARLETT_OVERSIGHTS | {"laid_down_prial", "laid_down_mournival"}

# RULES.md 5, per player count: (hand, table, ante_dealer, ante_other, last_in_bonus, breakeven).
COUNTS = {
    "parlett": {
        3: (13, 13, 4, 3, 5, 14),
        4: (10, 12, 3, 2, 3, 10),
        5: (8, 12, 3, 2, 5, 8),
        6: (7, 10, 3, 2, 5, 6),
    },
    "parlett-13": {4: (10, 12, 4, 3, 7, 10)},
    "parlett-tournament": {5: (8, 12, None, None, None, None)},
    "porges": {4: (10, 12, 3, 2, 3, 10), 5: (8, 12, 3, 2, 5, 8)},
    "du-coeur": {4: (10, 12, 3, 2, 3, 10), 5: (8, 12, 3, 2, 5, 8)},
    "wolffauer": {
        3: (14, 10, 4, 3, 5, 14),
        4: (10, 12, 3, 2, 3, 10),
        5: (8, 12, 3, 2, 5, 8),
        6: (6, 16, 3, 2, 5, 6),
        7: (6, 10, 2, 1, 3, 6),
    },
    "inter-livery-2018": {5: (8, 12, None, None, None, None)},
}

# RULES.md 5, whole-ruleset parameters:
# (first_dealer, table_mournival, captures, hand_plays, bonus_to, last_in_plays_on,
#  leftovers_to, scoring, oversights)
WHOLE = {
    "parlett": (
        "lowest_cut",
        "dealer_takes",
        ALL_CAPTURES,
        "free",
        "last_in",
        False,
        "dealer",
        "stakes",
        PARLETT_OVERSIGHTS,
    ),
    "parlett-13": (
        "lowest_cut",
        "dealer_takes",
        ALL_CAPTURES,
        "free",
        "last_in",
        False,
        "dealer",
        "stakes",
        PARLETT_OVERSIGHTS,
    ),
    "parlett-tournament": (
        "lowest_cut",
        "set_aside_for_last_in",
        ALL_CAPTURES,
        "free",
        None,
        False,
        "last_in",
        "pairs",
        PARLETT_OVERSIGHTS,
    ),
    "porges": (
        "chosen",
        "dealer_takes",
        SINGLE_CAPTURES,
        "free",
        "last_pair",
        False,
        "dealer",
        "stakes",
        ALL_OVERSIGHTS,
    ),
    "du-coeur": (
        "highest_cut",
        "dealer_takes",
        SINGLE_CAPTURES,
        "free",
        "last_in",
        False,
        "dealer",
        "stakes",
        PARLETT_OVERSIGHTS,
    ),
    "wolffauer": (
        "chosen",
        "dealer_takes",
        SINGLE_CAPTURES,
        "turn",
        "last_in",
        False,
        "dealer",
        "stakes",
        set(),
    ),
    "inter-livery-2018": (
        "chosen",
        "set_aside_for_last_in",
        ALL_CAPTURES,
        "free",
        None,
        True,
        "nobody",
        "pairs",
        PARLETT_OVERSIGHTS,
    ),
}

# Statuses RULES.md 5 gives explicitly as read or chosen (the rest of what it marks is stated).
STATUSES = {
    ("porges", "ante_dealer", 4): "read",
    ("porges", "ante_other", 4): "read",
    ("porges", "breakeven", 4): "chosen",
    ("porges", "captures", None): "read",
    ("porges", "hand_plays", None): "read",
    ("porges", "bonus_to", None): "read",
    ("du-coeur", "hand_plays", None): "read",
    ("du-coeur", "oversights", None): "read",
    ("parlett-tournament", "leftovers_to", None): "read",
    ("inter-livery-2018", "leftovers_to", None): "chosen",
    ("parlett", "first_dealer", None): "stated",
    ("parlett", "captures", None): "stated",
    ("wolffauer", "hand_plays", None): "stated",
    ("inter-livery-2018", "last_in_plays_on", None): "stated",
    ("parlett-13", "breakeven", 4): "read",
    ("wolffauer", "bonus_to", None): "read",
}


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """Never read the real learner's folder; reset the module cache around each test."""
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path / "home"))
    sources.set_extra_dirs(())
    yield
    sources.set_extra_dirs(())


@pytest.fixture(scope="module")
def lib() -> sources.Library:
    return sources.load_library()


def test_a_pinned_library_is_one_library_until_the_cache_is_cleared(tmp_path, monkeypatch):
    """Within ``pinned_library`` the library is not looked for again (a learner's sources
    folder made meanwhile is read after the block), and a cleared cache still reloads."""
    a = sources.default_library()
    with sources.pinned_library() as pinned:
        assert pinned is a
        monkeypatch.setenv("LAUGH_HOME", str(tmp_path / "another"))
        (tmp_path / "another" / "sources").mkdir(parents=True)
        (tmp_path / "another" / "sources" / "tuesday.yaml").write_text(HOUSE, encoding="utf-8")
        assert sources.default_library() is a
        with sources.pinned_library() as inner:
            assert inner is a
        sources.clear_cache()
        b = sources.default_library()
        assert b is not a and "tuesday" in b.rulesets
    assert "tuesday" in sources.default_library().rulesets


# ---------------------------------------------------------------------------------------------
# The project's own files


def test_every_quotation_is_verbatim(lib):
    texts = data.source_texts_dir()
    assert texts is not None and Path(texts).is_dir()
    assert sources.check_quotations(lib, texts) == []


def test_the_six_sources_and_seven_rulesets(lib):
    assert set(lib.sources) == {
        "parlett",
        "porges",
        "du-coeur",
        "wolffauer",
        "inter-livery-2018",
        "willughby",
    }
    assert set(lib.rulesets) == set(COUNTS)
    assert lib.sources["parlett"].rulesets == ("parlett", "parlett-13", "parlett-tournament")
    assert lib.sources["willughby"].rulesets == ()
    for rs in lib.rulesets.values():
        assert isinstance(rs, Ruleset)
        assert rs.origin.endswith(".yaml")


@pytest.mark.parametrize("rid", sorted(COUNTS))
def test_player_counts_match_rules_md(lib, rid):
    rs = lib.ruleset(rid)
    assert rs.player_counts == tuple(sorted(COUNTS[rid]))
    for n, expected in COUNTS[rid].items():
        pc = rs.count(n)
        got = tuple(getattr(pc, name) for name in COUNT_PARAMETERS)
        assert got == expected, f"{rid} {n}p"
        assert set(pc.provenance) == set(COUNT_PARAMETERS)


@pytest.mark.parametrize("rid", sorted(WHOLE))
def test_whole_ruleset_parameters_match_rules_md(lib, rid):
    rs = lib.ruleset(rid)
    got = (
        rs.first_dealer,
        rs.table_mournival,
        set(rs.captures),
        rs.hand_plays,
        rs.bonus_to,
        rs.last_in_plays_on,
        rs.leftovers_to,
        rs.scoring,
        set(rs.oversights),
    )
    assert got == WHOLE[rid]
    assert set(rs.provenance) == set(RULESET_PARAMETERS)


def test_statuses_rules_md_names(lib):
    for (rid, name, n), status in STATUSES.items():
        assert lib.parameter(rid, name, n).status == status, (rid, name, n)


def test_pot_balance_holds_for_every_stakes_count(lib):
    for rs in lib.rulesets.values():
        for n, pc in rs.counts.items():
            assert pc.hand * n + pc.table == 52
            if rs.scoring == "stakes":
                assert 2 * (pc.pot - pc.last_in_bonus) == 52 - n * pc.breakeven, (rs.id, n)


def test_porges_four_players_records_the_texts_breakeven(lib):
    p = lib.parameter("porges", "breakeven", 4)
    assert (p.value, p.status, p.source_value, p.has_source_value) == (10, "chosen", 8, True)
    assert p.note
    assert lib.ruleset("porges").count(4).provenance["breakeven"].status == "chosen"


def test_porges_with_the_texts_breakeven_fails_the_pot_balance(tmp_path, monkeypatch):
    project = tmp_path / "project"
    project.mkdir()
    text = (PROJECT_SOURCES / "porges.yaml").read_text(encoding="utf-8")
    bad = re.sub(r"breakeven:\n(\s+)value: 10\n", r"breakeven:\n\1value: 8\n", text, count=1)
    assert bad != text
    (project / "porges.yaml").write_text(bad, encoding="utf-8")
    monkeypatch.setattr(sources, "data_dir", lambda name: project)
    with pytest.raises(DataError) as exc:
        sources.load_library()
    msg = str(exc.value)
    line = bad.splitlines().index("        breakeven:") + 1
    assert msg.startswith(
        f"{project / 'porges.yaml'}:{line}: rulesets.porges.players.4.breakeven:"
    ), msg
    assert (
        "pot balance fails for 4 players: antes 9 - bonus 3 = 6 stakes, "
        "but (52 - 4x8)/2 = 10 stakes are won above breakeven"
    ) in msg


def test_every_read_or_chosen_parameter_has_a_note(lib):
    for rid, params in lib.parameters.items():
        for p in params:
            if p.status != "stated":
                assert p.note and p.note.strip(), (rid, p.name, p.players)


def test_every_stated_or_read_parameter_cites_a_quotation(lib):
    for rid, params in lib.parameters.items():
        for p in params:
            if p.status in ("stated", "read"):
                assert p.quotes, (rid, p.name, p.players)
            for ref in p.quotes:
                q = lib.quotation(ref)
                assert q.text and q.citation


def test_quotations_are_short(lib):
    for src in lib.sources.values():
        for q in src.quotations.values():
            assert len(q.text.split()) <= 36, q.ref


def test_provenance_quotes_are_qualified_and_resolve(lib):
    rs = lib.ruleset("parlett")
    prov = rs.provenance["oversights"]
    assert "willughby:overseen" in prov.quotes
    assert all(":" in ref for ref in prov.quotes)
    q = lib.quotation("willughby:overseen")
    assert q.text == "Whatever is overseen [i.e. overlooked] is his that can catch it first"
    assert q.citation == (
        'David Parlett, "Laugh and Lie Down", Historic Card Games, '
        "parlettgames.uk/histocs/laughand.html, quoting Willughby"
    )
    assert lib.quotation("deal-eight", default_source="parlett").source == "parlett"


def test_citations(lib):
    assert lib.sources["parlett"].citation_text == (
        'David Parlett, "Laugh and Lie Down", Historic Card Games, '
        "parlettgames.uk/histocs/laughand.html"
    )
    assert lib.sources["du-coeur"].date == "August 1996, revised 22 August 1996"
    assert lib.quotation("porges:antes").citation == lib.sources["porges"].citation_text


def test_problems_of_rules_md_6_are_recorded(lib):
    ids = {(p["source"], p["id"]) for s in lib.sources.values() for p in s.problems}
    assert {
        ("porges", "mournival-suit"),
        ("porges", "four-player-breakeven"),
        ("parlett", "tournament-scoring"),
        ("inter-livery-2018", "one-card-only"),
        ("inter-livery-2018", "mournival-means-prial"),
        ("willughby", "last-trick"),
        ("du-coeur", "lost-lists"),
        ("du-coeur", "pair-royal-mistake"),
        ("parlett", "dead-pair-own-twin"),
        ("inter-livery-2018", "dead-pair-own-twin"),
        ("du-coeur", "dealer-choice"),
    } <= ids
    porges = {p["id"] for p in lib.ruleset("porges").problems}
    assert {"mournival-suit", "four-player-breakeven", "last-trick"} <= porges
    for s in lib.sources.values():
        for p in s.problems:
            assert p["quotes"], p["id"]
            for ref in p["quotes"]:
                lib.quotation(ref)


def test_willughby_records_timeline(lib):
    w = lib.sources["willughby"]
    assert w.text is None and w.kind == "primary"
    years = [(r.date.anchor, r.author) for r in w.records]
    for entry in [
        (1522, "Skelton"),
        (1591, "Florio"),
        (1594, "Lyly"),
        (1598, "Florio"),
        (1634, "S. R."),
        (1825, "Forby"),
    ]:
        assert entry in years
    forby = lib.records["forby-1825"]
    assert forby.date.text == "c. 1825" and forby.date.form == "circa"
    assert lib.quotation(forby.quote).text == "Laugh-and-lay-down, a childish game at cards."
    for qid in ("no-other-game", "overseen"):
        q = w.quotations[qid]
        assert q.speaker == "willughby" and q.in_ == "parlett-historic-card-games.txt"
    # Florio's dictionary is known only from du Coeur's sentence, which is du Coeur's words
    florio = lib.records["florio-1598"]
    assert florio.quote is None and florio.reported_by == "du-coeur"
    assert "Calabrache" in lib.quotation(florio.report).text
    assert lib.quotation(florio.report).cited_in.startswith("Justin du Coeur")
    other = lib.records["florio-andar-a-pisciare"]
    assert other.kind == "other" and not other.date.dated
    assert "Andar a pisciare" in lib.quotation(other.report).text
    assert [r.id for r in lib.timeline()][-1] == "florio-andar-a-pisciare"
    assert [r.date.text for r in lib.timeline()][:2] == ["1522", "1591"]


def test_library_ruleset_errors(lib):
    with pytest.raises(UsageError) as exc:
        lib.ruleset("nosuch")
    msg = str(exc.value)
    assert "\n" not in msg and "parlett-tournament" in msg and "wolffauer" in msg
    with pytest.raises(UsageError, match=r"4 or 5 players, not 3"):
        lib.ruleset("porges", 3)
    assert lib.ruleset("wolffauer", 7).count(7).hand == 6
    with pytest.raises(KeyError):
        lib.quotation("parlett:nosuch")
    with pytest.raises(LaughError):
        lib.quotation("nosuch:deal-eight")


def test_module_cache_and_helpers():
    a = sources.default_library()
    assert sources.default_library() is a
    assert sources.get_ruleset("parlett", 4).count(4).breakeven == 10
    assert "inter-livery-2018" in sources.ruleset_ids()
    sources.set_extra_dirs(())
    assert sources.default_library() is not a


def test_the_cache_is_kept_on_what_the_library_is_read_from(tmp_path, monkeypatch):
    """Learners' folders without sources of their own share the project's library (each test's
    own LAUGH_HOME reloaded it); a folder with sources, or other source texts, reloads."""
    a = sources.default_library()
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path / "another"))
    assert sources.default_library() is a
    (tmp_path / "another" / "sources").mkdir(parents=True)
    (tmp_path / "another" / "sources" / "tuesday.yaml").write_text(HOUSE, encoding="utf-8")
    b = sources.default_library()
    assert b is not a and "tuesday" in b.rulesets and "tuesday" not in a.rulesets
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path / "third"))
    c = sources.default_library()
    assert c is not b and "tuesday" not in c.rulesets
    monkeypatch.setenv("LAUGH_SOURCE_TEXTS", str(tmp_path / "texts"))
    assert sources.default_library(verify=False) is not c


# ---------------------------------------------------------------------------------------------
# A teacher's own files, and malformed ones

HOUSE = """\
id: tuesday-club
kind: house
citation: {author: The Tuesday Club, title: Our house rules}
text: null
summary: Willughby's four-player game, but the last player in goes on capturing.
quotations: {}
problems: []
rulesets:
  tuesday:
    title: Tuesday club (four players, play on)
    summary: Willughby's four-player stakes; the last player in captures alone.
    players:
      4:
        hand: {value: 10, status: stated, quotes: ["parlett:four-deal"]}
        table: {value: 12, status: stated, quotes: ["parlett:four-deal"]}
        ante_dealer: {value: 3, status: stated, quotes: ["parlett:four-pot"]}
        ante_other: {value: 2, status: stated, quotes: ["parlett:four-pot"]}
        last_in_bonus: {value: 3, status: stated, quotes: ["parlett:four-bonus-breakeven"]}
        breakeven: {value: 10, status: stated, quotes: ["parlett:four-bonus-breakeven"]}
    first_dealer: {value: chosen, status: chosen, note: Whoever arrives first deals.}
    table_mournival: {value: dealer_takes, status: stated, quotes: ["parlett:table-mournival"]}
    captures: {value: [one_for_one, one_for_three], status: chosen, note: No pair for pair.}
    hand_plays: {value: free, status: stated, quotes: ["parlett:dead-pair"]}
    bonus_to: {value: last_in, status: stated, quotes: ["parlett:last-in-bonus"]}
    last_in_plays_on: {value: true, status: chosen, note: Our club's own rule.}
    leftovers_to: {value: dealer, status: stated, quotes: ["parlett:leftovers-dealer"]}
    scoring: {value: stakes, status: stated, quotes: ["parlett:antes-five"]}
    oversights:
      value: [overlooked_table_mournival, split_prial, laid_down_dead_pair]
      status: stated
      quotes: ["parlett:oversight-mournival"]
"""


def _write(folder: Path, text: str, name: str = "house.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _line_of(text: str, needle: str) -> int:
    for i, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(f"{needle!r} not in the text")


def _load_error(tmp_path: Path, text: str) -> tuple[str, Path]:
    path = _write(tmp_path / "extra", text)
    with pytest.raises(DataError) as exc:
        sources.load_library([tmp_path / "extra"])
    msg = str(exc.value)
    assert "\n" not in msg and "Traceback" not in msg
    return msg, path


def test_house_rules_in_laugh_home_are_usable_by_id(tmp_path, monkeypatch):
    home = tmp_path / "teacher"
    monkeypatch.setenv("LAUGH_HOME", str(home))
    _write(home / "sources", HOUSE)
    rs = sources.get_ruleset("tuesday", 4)
    assert rs.last_in_plays_on is True and rs.source == "tuesday-club"
    assert rs.origin == str(home / "sources" / "house.yaml")
    assert "tuesday" in sources.ruleset_ids()
    assert "parlett" in sources.ruleset_ids()


def test_extra_dirs_add_sources(tmp_path):
    _write(tmp_path / "extra", HOUSE)
    lib = sources.load_library([tmp_path / "extra"])
    assert lib.ruleset("tuesday").provenance["first_dealer"].status == "chosen"
    sources.set_extra_dirs([tmp_path / "extra"])
    assert "tuesday" in sources.ruleset_ids()


def test_a_file_read_again_gives_an_equal_library_of_its_own_and_an_edited_file_is_read_anew(
    tmp_path,
):
    """The files already read are not composed again (:data:`tutor.engine.sources._parse.
    _parsed`): a second load is equal to the first, shares nothing that can change with it,
    and a file edited in between (same length, same folder) is read as it now stands."""
    path = _write(tmp_path / "extra", HOUSE)
    first = sources.load_library([tmp_path / "extra"])
    second = sources.load_library([tmp_path / "extra"])
    assert first == second and repr(first) == repr(second)
    for sid, source in first.sources.items():
        other = second.sources[sid]
        assert source.problems is not other.problems or not source.problems
        assert all(a is not b for a, b in zip(source.records, other.records, strict=True))
        assert all(
            a is not b
            for a, b in zip(source.quotations.values(), other.quotations.values(), strict=True)
        )
    first.sources["parlett"].problems.clear()
    assert second.sources["parlett"].problems
    assert sources.load_library().sources["parlett"].problems
    summary = "Willughby's four-player game, but the last player in goes on capturing."
    edited = summary.replace("goes on", "GOES ON")
    path.write_text(HOUSE.replace(summary, edited), encoding="utf-8")
    assert sources.load_library([tmp_path / "extra"]).sources["tuesday-club"].summary == edited


def test_the_readme_example_loads(tmp_path):
    readme = (PROJECT_SOURCES / "README.md").read_text(encoding="utf-8")
    example = readme.split("```yaml\n", 1)[1].split("```", 1)[0]
    _write(tmp_path / "extra", example)
    assert "tuesday" in sources.load_library([tmp_path / "extra"]).rulesets


def test_missing_extra_dir_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="no such folder"):
        sources.load_library([tmp_path / "nowhere"])


def test_unknown_key(tmp_path):
    text = HOUSE.replace("    hand_plays:", "    hand_play:")
    msg, path = _load_error(tmp_path, text)
    assert msg.startswith(
        f"{path}:{_line_of(text, 'hand_play:')}: rulesets.tuesday.hand_play: "
        "the rules model has no parameter 'hand_play'"
    )
    assert "laugh rules --parameters" in msg and "hand_plays" in msg  # where to look, and the keys


def test_missing_key(tmp_path):
    text = HOUSE.replace(
        '    scoring: {value: stakes, status: stated, quotes: ["parlett:antes-five"]}\n', ""
    )
    msg, path = _load_error(tmp_path, text)
    assert msg == f"{path}:{_line_of(text, '  tuesday:')}: rulesets.tuesday.scoring: missing key"


def test_missing_top_level_key(tmp_path):
    text = HOUSE.replace("kind: house\n", "")
    msg, path = _load_error(tmp_path, text)
    assert msg == f"{path}:1: kind: is missing"


def test_wrong_type(tmp_path):
    text = HOUSE.replace("hand: {value: 10,", "hand: {value: ten,")
    msg, path = _load_error(tmp_path, text)
    assert msg == (
        f"{path}:{_line_of(text, 'value: ten')}: rulesets.tuesday.players.4.hand.value: "
        "expected a whole number, got 'ten'"
    )


def test_wrong_type_list_for_mapping(tmp_path):
    text = HOUSE.replace(
        "citation: {author: The Tuesday Club, title: Our house rules}",
        "citation: [The Tuesday Club]",
    )
    msg, path = _load_error(tmp_path, text)
    assert msg == (
        f"{path}:3: citation: must be a mapping of keys (title, author, in, date, published)"
    )


def test_bad_enum(tmp_path):
    text = HOUSE.replace("scoring: {value: stakes,", "scoring: {value: points,")
    msg, path = _load_error(tmp_path, text)
    assert msg == (
        f"{path}:{_line_of(text, 'value: points')}: rulesets.tuesday.scoring.value: "
        "'points' is not one of stakes, pairs, pot"
    )


def test_bad_status_and_kind(tmp_path):
    text = HOUSE.replace(
        "first_dealer: {value: chosen, status: chosen,",
        "first_dealer: {value: chosen, status: guessed,",
    )
    msg, path = _load_error(tmp_path, text)
    assert msg.endswith(
        "rulesets.tuesday.first_dealer.status: 'guessed' is not one of stated, read, chosen"
    )
    msg, path = _load_error(tmp_path, HOUSE.replace("kind: house", "kind: hearsay"))
    assert msg == (
        f"{path}:2: kind: 'hearsay' is not one of primary, reconstruction, "
        "rules-sheet, house, records"
    )


def test_unknown_quotation_id(tmp_path):
    text = HOUSE.replace('quotes: ["parlett:dead-pair"]', 'quotes: ["parlett:no-such-words"]')
    msg, path = _load_error(tmp_path, text)
    assert msg.startswith(
        f"{path}:{_line_of(text, 'no-such-words')}: "
        "rulesets.tuesday.hand_plays.quotes.0: quotation 'no-such-words' is "
        "not defined in"
    )
    assert msg.endswith("parlett.yaml")
    text = HOUSE.replace('quotes: ["parlett:dead-pair"]', "quotes: [dead-pair]")
    msg, path = _load_error(tmp_path, text)
    assert "quotation 'dead-pair' is not defined in" in msg and str(path) in msg


def test_unknown_quotation_source(tmp_path):
    text = HOUSE.replace('quotes: ["parlett:dead-pair"]', 'quotes: ["parlet:dead-pair"]')
    msg, path = _load_error(tmp_path, text)
    assert msg.startswith(
        f"{path}:{_line_of(text, 'parlet:dead-pair')}: "
        "rulesets.tuesday.hand_plays.quotes.0: unknown source 'parlet'"
    )


def test_duplicate_ruleset_id_names_both_files(tmp_path):
    text = HOUSE.replace("  tuesday:\n", "  parlett:\n")
    msg, path = _load_error(tmp_path, text)
    assert msg.startswith(
        f"{path}:{_line_of(text, '  parlett:')}: rulesets.parlett: duplicate ruleset id 'parlett'"
    )
    assert str(PROJECT_SOURCES / "parlett.yaml") in msg or "sources/parlett.yaml" in msg


def test_duplicate_source_id_names_both_files(tmp_path):
    text = HOUSE.replace("id: tuesday-club", "id: porges")
    msg, path = _load_error(tmp_path, text)
    assert msg.startswith(f"{path}:1: id: duplicate source id 'porges'")
    assert "porges.yaml" in msg


def test_duplicate_key(tmp_path):
    text = HOUSE.replace(
        "    title: Tuesday club (four players, play on)\n",
        "    title: Tuesday club (four players, play on)\n    title: again\n",
    )
    msg, path = _load_error(tmp_path, text)
    assert msg.startswith(
        f"{path}:{_line_of(text, 'title: again')}: rulesets.tuesday.title: duplicate key"
    )


def test_pot_imbalance_gives_the_numbers(tmp_path):
    text = HOUSE.replace("breakeven: {value: 10,", "breakeven: {value: 8,")
    msg, path = _load_error(tmp_path, text)
    assert msg == (
        f"{path}:{_line_of(text, 'breakeven: {value: 8')}: "
        "rulesets.tuesday.players.4.breakeven: pot balance fails for 4 players: "
        "antes 9 - bonus 3 = 6 stakes, but (52 - 4x8)/2 = 10 stakes are won above "
        "breakeven"
    )


def test_deal_must_use_52_cards(tmp_path):
    text = HOUSE.replace("table: {value: 12,", "table: {value: 11,")
    msg, path = _load_error(tmp_path, text)
    assert msg == (
        f"{path}:{_line_of(text, 'table: {value: 11')}: "
        "rulesets.tuesday.players.4.table: 4 players x 10 cards + 11 on the table = "
        "51, not 52"
    )


def test_stakes_need_numbers_and_pairs_need_none(tmp_path):
    text = HOUSE.replace("ante_other: {value: 2,", "ante_other: {value: null,")
    msg, _ = _load_error(tmp_path, text)
    assert "rulesets.tuesday.players.4.ante_other.value: must be a whole number under stakes" in msg
    text = HOUSE.replace("scoring: {value: stakes,", "scoring: {value: pairs,")
    msg, _ = _load_error(tmp_path, text)
    assert "rulesets.tuesday.players.4.ante_dealer.value: must be null under pairs scoring" in msg


def test_note_required_unless_stated(tmp_path):
    text = HOUSE.replace(
        "first_dealer: {value: chosen, status: chosen, note: Whoever arrives first deals.}",
        "first_dealer: {value: chosen, status: chosen}",
    )
    msg, path = _load_error(tmp_path, text)
    assert msg == (
        f"{path}:{_line_of(text, 'first_dealer:')}: rulesets.tuesday.first_dealer.note: "
        "a note is required when the status is chosen"
    )


def test_stated_needs_a_quotation(tmp_path):
    text = HOUSE.replace(
        'hand_plays: {value: free, status: stated, quotes: ["parlett:dead-pair"]}',
        "hand_plays: {value: free, status: stated}",
    )
    msg, path = _load_error(tmp_path, text)
    assert msg.endswith(
        "rulesets.tuesday.hand_plays.quotes: a stated value must cite at least one quotation"
    )


def test_yaml_syntax_error_has_file_and_line(tmp_path):
    text = HOUSE.replace(
        "    title: Tuesday club (four players, play on)\n", "    title: [unclosed\n"
    )
    msg, path = _load_error(tmp_path, text)
    assert re.match(rf"{re.escape(str(path))}:\d+: YAML syntax error: ", msg), msg


def test_empty_and_non_utf8_files(tmp_path):
    msg, path = _load_error(tmp_path, "")
    assert msg.startswith(f"{path}:1: the file is empty")
    path = tmp_path / "extra" / "house.yaml"
    path.write_bytes(b"id: caf\xe9\n")
    with pytest.raises(DataError, match=r"house\.yaml:1: not UTF-8 text"):
        sources.load_library([tmp_path / "extra"])


def test_cli_sources_option_reports_data_errors(tmp_path, capsys):
    from tutor.app import cli

    _write(
        tmp_path / "extra", HOUSE.replace("scoring: {value: stakes,", "scoring: {value: points,")
    )
    assert cli.main(["rules", "--sources", str(tmp_path / "extra")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("laugh: ") and "'points' is not one of stakes, pairs" in err
    assert len(err.splitlines()) == 1


def test_check_quotations_reports_a_difference(tmp_path):
    texts = tmp_path / "texts"
    texts.mkdir()
    (texts / "club.txt").write_text(
        "Deal ten cards\neach, and twelve to the table.\n", encoding="utf-8"
    )
    house = HOUSE.replace("text: null", "text: club.txt").replace(
        "quotations: {}",
        "quotations:\n"
        '  deal:\n    text: "Deal ten cards each, and twelve to the table."\n    where: Deal\n'
        '  wrong:\n    text: "Deal ten cards each, and eleven to the table."\n    where: Deal\n',
    )
    _write(tmp_path / "extra", house)
    lib = sources.load_library([tmp_path / "extra"])
    problems = [p for p in sources.check_quotations(lib, texts) if "tuesday-club" in p]
    assert len(problems) == 1
    assert (
        "tuesday-club:wrong" in problems[0] and "eleven" in problems[0] and "twelve" in problems[0]
    )
    # A text beside the YAML file is found first.
    shutil.copy(texts / "club.txt", tmp_path / "extra" / "club.txt")
    problems = [
        p for p in sources.check_quotations(lib, tmp_path / "nowhere") if "tuesday-club" in p
    ]
    assert len(problems) == 1 and "wrong" in problems[0]
    # A missing text file is a problem too.
    (tmp_path / "extra" / "club.txt").unlink()
    problems = [
        p for p in sources.check_quotations(lib, tmp_path / "nowhere") if "tuesday-club" in p
    ]
    assert problems and all("not found" in p for p in problems)


def test_verified_counts_only_quotations_compared_with_a_text(lib, tmp_path):
    texts = data.source_texts_dir()
    audit = sources.audit_quotations(lib, texts)
    every = sorted(q.ref for s in lib.sources.values() for q in s.quotations.values())
    assert sorted(audit.verified) == every and audit.total == len(every)
    assert audit.problems == () and audit.unchecked == ()
    house = HOUSE.replace(
        "quotations: {}",
        'quotations:\n  made-up:\n    text: "Anything at all."\n    where: Nowhere\n',
    )
    path = _write(tmp_path / "extra", house)
    audit = sources.audit_quotations(sources.load_library([tmp_path / "extra"]), texts)
    assert "tuesday-club:made-up" not in audit.verified and len(audit.verified) == len(every)
    assert audit.unchecked_refs == ("tuesday-club:made-up",)
    assert audit.unchecked == (
        f"{path}:{_line_of(house, 'made-up:')}: quotations.made-up: "
        "tuesday-club:made-up cited, not checked (no text)",
    )
    assert audit.total == len(every) + 1


def test_a_quotation_standing_in_two_source_texts_is_a_finding(lib):
    audit = sources.audit_quotations(lib, data.source_texts_dir())
    assert [line.split(": ", 2)[2] for line in audit.shared] == [
        "inter-livery-2018:pair-for-pair stands verbatim in more than one source text: "
        "inter-livery-2018-rules.md, parlett-historic-card-games.txt"
    ]
