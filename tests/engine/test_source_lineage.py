"""When each text was written and what it draws on (``dated``, ``based_on`` in the source
files): the family tree and timeline of the texts come from these fields, checked like every
other field, with ``FILE:LINE: KEY: what is wrong``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.engine import sources
from tutor.engine.errors import DataError

SHEET = """\
id: club-sheet
kind: rules-sheet
citation: {author: The Tuesday Club, title: Our sheet}
summary: A club's one-page sheet, copied from another.
dated:
  year: 2021
  date: March 2021
  status: stated
  quotes: [signed]
based_on:
  - source: wolffauer
    status: read
    quotes: [copied, "wolffauer:settle"]
    note: Its scoring sentence is Wolffauer's, word for word.
quotations:
  signed:
    text: "The Tuesday Club, March 2021"
    where: Signature
  copied:
    text: "For every pair less than the breakeven point, pay one stake to the pot"
    where: Scoring
"""


def _load(tmp_path: Path, text: str):
    folder = tmp_path / "extra"
    folder.mkdir(exist_ok=True)
    (folder / "club.yaml").write_text(text, encoding="utf-8")
    return sources.load_library([folder])


def _error(tmp_path: Path, text: str) -> str:
    with pytest.raises(DataError) as exc:
        _load(tmp_path, text)
    msg = str(exc.value)
    assert "\n" not in msg and "Traceback" not in msg
    return msg


def _line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_the_shipped_texts_family_tree_and_dates(library):
    s = library.sources
    tree = {sid: [b["source"] for b in src.based_on] for sid, src in s.items()}
    assert tree == {
        "willughby": [],
        "parlett": ["willughby"],
        "porges": ["willughby"],
        "du-coeur": ["willughby"],
        "wolffauer": ["du-coeur"],
        "inter-livery-2018": ["parlett"],
    }
    years = {sid: src.dated["year"] for sid, src in s.items() if src.dated}
    assert years == {
        "willughby": 1665,
        "parlett": 2004,
        "du-coeur": 1996,
        "wolffauer": 2009,
        "inter-livery-2018": 2018,
    }
    assert s["porges"].dated is None  # the compendium gives no date
    assert s["wolffauer"].based_on[0]["quotes"] == ("wolffauer:based-on",)
    assert "based on Justin du Coeur" in library.quotation("wolffauer:based-on").text
    # a reading says so, in our words; what is stated rests on the source's own words
    for src in s.values():
        for ground in [src.dated] * bool(src.dated) + list(src.based_on):
            assert ground["quotes"] and (ground["status"] == "stated" or ground["note"])
            for ref in ground["quotes"]:
                library.quotation(ref)


def test_a_teachers_file_adds_to_the_tree(tmp_path):
    lib = _load(tmp_path, SHEET)
    club = lib.sources["club-sheet"]
    assert club.dated == {
        "year": 2021,
        "date": "March 2021",
        "status": "stated",
        "quotes": ("club-sheet:signed",),
        "note": None,
    }
    assert club.based_on == (
        {
            "source": "wolffauer",
            "status": "read",
            "quotes": ("club-sheet:copied", "wolffauer:settle"),
            "note": "Its scoring sentence is Wolffauer's, word for word.",
        },
    )


@pytest.mark.parametrize(
    "old, new, key, message, at",
    [
        (
            "year: 2021",
            "year: twenty",
            "dated.year",
            "must be a whole number, got 'twenty'",
            "year: twenty",
        ),
        (
            "  status: stated\n  quotes: [signed]",
            "  status: chosen\n  quotes: [signed]",
            "dated.status",
            "must be 'stated' or 'read', got 'chosen'",
            "status: chosen",
        ),
        (
            "  quotes: [signed]",
            "  quotes: []",
            "dated.quotes",
            "give at least one quotation",
            "quotes: []",
        ),
        (
            "  quotes: [signed]",
            "  quotes: [nowhere]",
            "dated.quotes[0]",
            "quotation 'nowhere' is not defined",
            "quotes: [nowhere]",
        ),
        (
            "  date: March 2021\n",
            "  date: March 2021\n  month: 3\n",
            "dated.month",
            "is not a key here (keys: status, quotes, note, year, date)",
            "month: 3",
        ),
        (
            "  - source: wolffauer",
            "  - source: nobody",
            "based_on[0].source",
            "unknown source 'nobody'",
            "source: nobody",
        ),
        (
            "  - source: wolffauer",
            "  - source: club-sheet",
            "based_on[0].source",
            "a source is not based on itself",
            "source: club-sheet",
        ),
        (
            "    note: Its scoring sentence is Wolffauer's, word for word.\n",
            "",
            "based_on[0].note",
            "a reading needs a note",
            "status: read",
        ),
        (
            "    status: read",
            "    status: maybe",
            "based_on[0].status",
            "must be 'stated' or 'read', got 'maybe'",
            "status: maybe",
        ),
    ],
)
def test_bad_lineage_is_one_line_with_file_line_and_key(tmp_path, old, new, key, message, at):
    text = SHEET.replace(old, new)
    assert text != SHEET
    msg = _error(tmp_path, text)
    assert f"club.yaml:{_line(text, at)}: {key}: " in msg and message in msg, msg


def test_no_source_is_based_on_itself_through_another(tmp_path):
    folder = tmp_path / "extra"
    folder.mkdir()
    a = SHEET.replace("id: club-sheet", "id: sheet-a").replace(
        "source: wolffauer", "source: sheet-b"
    )
    a = a.replace('"wolffauer:settle"', '"sheet-b:copied"')
    b = SHEET.replace("id: club-sheet", "id: sheet-b").replace(
        "source: wolffauer", "source: sheet-a"
    )
    b = b.replace('"wolffauer:settle"', '"sheet-a:copied"')
    (folder / "a.yaml").write_text(a, encoding="utf-8")
    (folder / "b.yaml").write_text(b, encoding="utf-8")
    with pytest.raises(
        DataError,
        match=r"a\.yaml:\d+: based_on\[0\]\.source: 'sheet-a' would be "
        r"based on itself \(through 'sheet-b'\)",
    ):
        sources.load_library([folder])
