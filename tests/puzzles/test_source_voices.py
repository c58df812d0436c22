"""Teach before asking (issue 42, 5): lesson 10 has a page on each source's voice, in its own
words, before any "which source?" puzzle, and a "which source?" puzzle asks only what that page
teaches (before: over 177 such puzzles the explanation's tell was, in 113, words no other source
uses, knowable only by reading every source whole, and in 24 "no word of it is found only
there")."""

from __future__ import annotations

import pytest

from tutor import puzzles as P
from tutor.engine.sources import default_library, source_text
from tutor.puzzles.kinds.source_quiz import has_word, voices, which_pool
from tutor.puzzles.quoted import quote_plain
from tutor.teaching.lessons import Block, Segment, load_course

PAGE = "Each source's voice"


@pytest.fixture(scope="module")
def course():
    return load_course()


def _heading(page) -> str | None:
    for item in page:
        if isinstance(item, Segment):
            for line in item.text.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return None


def _asks_which(block: Block) -> bool:
    data = block.puzzle()
    return data["kind"].partition("/")[0] == "source-quiz" and data.get("theme") in (
        None,
        "which-source",
        "sources",
    )


def test_each_voice_word_is_its_sources_alone():
    lib = default_library()
    texts = {
        s.id: quote_plain(source_text(s) or "") for s in lib.sources.values() if s.is_text_of_rules
    }
    assert set(voices()) == set(texts)
    for sid, voice in voices().items():
        for w in voice["words"]:
            assert has_word(texts[sid], w), (sid, w)
            assert not [o for o, t in texts.items() if o != sid and has_word(t, w)], (sid, w)


def test_the_voice_page_comes_before_every_which_source_puzzle_and_shows_every_tell(course):
    seen_page = False
    page_text = ""
    asked = 0
    for lesson in course:
        for page in lesson.pages:
            if _heading(page) == PAGE:
                seen_page = True
                page_text = " ".join(x.text for x in page if isinstance(x, Segment))
                refs = [
                    r
                    for x in page
                    if isinstance(x, Block) and x.kind == "quote"
                    for r in x.quote()["refs"]
                ]
            for item in page:
                if isinstance(item, Block) and item.kind == "puzzle" and _asks_which(item):
                    assert seen_page, f"{lesson.id}: a which-source puzzle before {PAGE!r}"
                    asked += 1
    assert seen_page and asked
    flat = " ".join(page_text.split())
    for sid, voice in voices().items():
        for w in voice["words"]:
            assert f"“{w}”" in flat or f'"{w}"' in flat, (sid, w)
        # and every source is shown in its own words there
        assert any(r.startswith(f"{sid}:") for r in refs), sid
    assert "pence" in flat


def test_every_which_source_question_rests_on_what_the_page_teaches():
    pool = which_pool()
    assert len(pool) >= 50
    lib = default_library()
    n = 0
    for seed in range(120):
        p = P.generate("source-quiz/which-source", seed=seed)
        if p.variant != "which":
            continue
        n += 1
        assert "(lesson 10, “Each source's voice”)" in p.explanation, p.explanation
        src = lib.quotation(p.quotes[0]).source
        voice = voices()[src]
        text = quote_plain(lib.quotation(p.quotes[0]).text)
        assert any(has_word(text, w) for w in voice["words"]) or (
            "pence" in voice["signs"] and "p " in text + " "
        ), text
    assert n >= 60
