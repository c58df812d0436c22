"""Statuses as the course teaches them (issue 42, 7): stated (the source says it), read (a close
reading of its words) and chosen (the source is silent or contradicts itself: the tutor's
choice), the same in the rulesets' data, ``laugh rules`` and every view.

- A sentence is graded alike wherever it decides the same value of the same rule: Parlett's
  "Play ceases when only one player has any cards left in hand." was "stated" under parlett and
  parlett-13 and "read" under parlett-tournament, whose text lists only its differences.
- The Inter-Livery sheet contradicts itself on captures (lesson 4 says so): chosen, not stated.
- Its first dealer, "players choose", is no statement of a sheet that names the Team Leader.
"""

from __future__ import annotations

import pytest

from tutor.app import cli
from tutor.engine import sources
from tutor.engine.sources import default_library

WHOLE = [
    "first_dealer",
    "table_mournival",
    "captures",
    "hand_plays",
    "bonus_to",
    "last_in_plays_on",
    "leftovers_to",
    "scoring",
    "oversights",
    "match_format",
]


@pytest.fixture(autouse=True)
def _plain(tmp_path, monkeypatch):
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("NO_COLOR", "1")
    sources.set_extra_dirs(())
    yield
    sources.set_extra_dirs(())


def _carried(refs) -> tuple[str, ...]:
    """The quotations that decide a value: a "the differences are as follows" line, which only
    says that a text carries the rest over, left out."""
    lib = default_library()
    return tuple(
        sorted(r for r in refs if not lib.quotation(r).text.startswith("The differences are"))
    )


def test_a_sentence_deciding_the_same_rule_has_one_status_in_every_ruleset():
    lib = default_library()
    seen: dict[tuple, list[tuple[str, str]]] = {}
    for rid in lib.rulesets:
        for name in WHOLE:
            try:
                p = lib.parameter(rid, name)
            except (KeyError, ValueError):
                continue
            quotes = _carried(p.quotes)
            if quotes:
                seen.setdefault((name, quotes, repr(p.value)), []).append((rid, p.status))
    mixed = {k: v for k, v in seen.items() if len({s for _, s in v}) > 1}
    assert not mixed, mixed
    # the case the issue found: the same sentence, the same status under all three
    ceases = seen[("last_in_plays_on", ("parlett:play-ceases",), repr(False))]
    assert {r for r, _ in ceases} >= {"parlett", "parlett-13", "parlett-tournament"}


def test_a_self_contradicting_sheet_is_chosen_and_a_named_role_is_read():
    lib = default_library()
    captures = lib.parameter("inter-livery-2018", "captures")
    assert captures.status == "chosen" and "contradicts itself" in (captures.note or "")
    assert "inter-livery-2018:one-card-only" in captures.quotes
    first = lib.parameter("inter-livery-2018", "first_dealer")
    assert first.status == "read" and "Team Leader" in (first.note or "")


def _rule_line(out: str, name: str) -> str:
    """The line (or two) of ``laugh rules`` output that shows parameter ``name`` and its status."""
    lines = out.splitlines()
    i = next(i for i, line in enumerate(lines) if line.strip().startswith(f"{name}:"))
    return " ".join(x.strip() for x in lines[i : i + 2])


def test_laugh_rules_shows_the_statuses_the_lesson_teaches(capsys):
    assert cli.main(["rules", "inter-livery-2018"]) == 0
    out = capsys.readouterr().out
    assert "[chosen]" in _rule_line(out, "captures")
    assert "[read]" in _rule_line(out, "first_dealer")
    assert cli.main(["rules", "parlett-tournament"]) == 0
    out = capsys.readouterr().out
    assert "[stated]" in _rule_line(out, "last_in_plays_on")
