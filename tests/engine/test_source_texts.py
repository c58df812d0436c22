"""A source's collected text is read only inside its sources folder (or the source-texts folder)
and within a size limit (issue 28 item 5): ``text: ../../../../etc/passwd`` (before: read whole,
and a quotation of it "verified"), an absolute path, a link out of the folder, and a text over
2 MB (before: a 400 MB text took 850 MB and 12 s in every command) are refused in one line."""

from __future__ import annotations

import os

import pytest

from tutor.engine import sources
from tutor.engine.data import source_texts_dir
from tutor.engine.errors import DataError
from tutor.engine.sources import _texts

CLUB = (
    "id: club\nkind: house\ncitation: {author: The Club, title: House rules}\n"
    "text: TEXT\nsummary: Our rules.\n"
    "quotations:\n  deal:\n    text: QUOTE\n    where: Deal\n"
)


def _club(folder, text: str, quote: str = "We deal eleven cards each."):
    folder.mkdir(exist_ok=True)
    (folder / "club.yaml").write_text(
        CLUB.replace("TEXT", text).replace("QUOTE", quote), encoding="utf-8"
    )
    return folder


def _problems(folder) -> list[str]:
    lib = sources.load_library([folder])
    audit = sources.audit_quotations(lib, None)
    return [p for p in audit.problems if "club" in p]


def test_a_text_in_its_folder_is_read_and_its_quotation_checked(tmp_path):
    folder = _club(tmp_path / "club", "club.txt")
    (folder / "club.txt").write_text("We deal eleven cards each.\n", encoding="utf-8")
    assert _problems(folder) == []
    assert (
        sources.source_text(sources.load_library([folder]).sources["club"])
        == "We deal eleven cards each.\n"
    )


@pytest.mark.parametrize("name", ["../" * 40 + "etc/passwd", "/etc/passwd", "../outside.txt"])
def test_a_text_named_outside_its_folder_is_refused_unread(tmp_path, name):
    (tmp_path / "outside.txt").write_text("root:x:0:0\n", encoding="utf-8")
    folder = _club(tmp_path / "club", name, "root:x:0:0")
    got = _problems(folder)
    assert len(got) == 1 and "is not read: it leads out of the folder" in got[0], got
    assert sources.source_text(sources.load_library([folder]).sources["club"]) is None
    with pytest.raises(DataError, match="leads out of the folder"):
        sources.verify_quotations(sources.load_library([folder]), source_texts_dir())


def test_a_link_out_of_the_folder_is_refused_a_link_inside_is_read(tmp_path):
    (tmp_path / "outside.txt").write_text("root:x:0:0\n", encoding="utf-8")
    folder = _club(tmp_path / "club", "club.txt", "root:x:0:0")
    os.symlink(tmp_path / "outside.txt", folder / "club.txt")
    assert "leads out of the folder" in _problems(folder)[0]
    (folder / "club.txt").unlink()
    (folder / "real.txt").write_text("root:x:0:0\n", encoding="utf-8")
    os.symlink("real.txt", folder / "club.txt")
    assert _problems(folder) == []


def test_a_text_over_the_limit_is_refused_after_reading_one_byte_more(tmp_path, monkeypatch):
    monkeypatch.setattr(_texts, "MAX_TEXT_BYTES", 1000)
    folder = _club(tmp_path / "club", "club.txt")
    (folder / "club.txt").write_bytes(b"We deal eleven cards each. " + b"x" * 2000)
    got = _problems(folder)
    assert len(got) == 1 and "larger than 1,000 bytes" in got[0]
    assert sources.source_text(sources.load_library([folder]).sources["club"]) is None
