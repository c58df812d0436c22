"""Wording a new user tripped on (issue 45, finding 6), grepped in generated output over many
seeds, and fixed where the words are made: "after the last seat seat 0" and "the table cards
is off" in the set-up puzzle's nudges; a record without an author named twice in a timeline
explanation; card codes in a figure's caption where the figures write symbols; the coach's
words pointing at a page "below" that is not there; a review lowering a rank letter."""

from __future__ import annotations

import re

import pytest

from tutor import puzzles as P
from tutor.engine.sources import default_library

SEEDS = range(60)


@pytest.fixture(scope="module")
def setups():
    return [P.generate("deal-setup", seed=s) for s in SEEDS]


def test_set_up_nudges_read_right(setups):
    said = []
    for p in setups:
        if p.answer.get("asked") == ["eldest"]:
            n, dealer = p.players, p.answer["dealer"]
            said.append(p.grade(str((dealer - 1) % n), 1).retry or "")
        elif len(p.answer.get("asked", ())) > 1:
            words = p.accepted[0].split()
            words[1] = str(int(words[1]) + 1)  # the table cards wrong, the rest right
            said.append(p.grade(" ".join(words), 1).retry or "")
    text = "\n".join(said)
    assert "the table cards are off" in text and "Count to the left" in text
    assert not re.search(r"\b(\w+) \1\b", text), re.search(r"\b(\w+) \1\b", text)
    assert "cards is" not in text


def test_a_timeline_explanation_names_a_record_once():
    seen = 0
    for s in range(200):
        p = P.generate("timeline", seed=s)
        m = re.search(r"It is [^:]+: (.+?) in the list of records", p.explanation)
        if not m:
            continue
        seen += 1
        parts = [x.strip() for x in m.group(1).split(",")]
        assert len(parts) == len(set(parts)), p.explanation
    assert seen >= 10


def test_captions_write_cards_as_the_figures_do():
    from tutor.teaching.blockdata import block_view
    from tutor.teaching.lessons import load_course

    lib = default_library()
    captions = [
        block_view(b, lib)["caption"]
        for lesson in load_course()
        for b in lesson.blocks("cards")
        if b.data.get("caption")
    ]
    assert any("♦" in c for c in captions)
    code = re.compile(r"(?<![\w-])(?:[A2-9TJQK]|10)[CDHS](?![\w-])")
    assert not [c for c in captions if code.search(c)]


def test_what_the_coach_quotes_points_at_nothing_below_or_above():
    from tutor.teaching.lessons import load_course
    from tutor.teaching.lessons._stops import page_words

    course = {lesson.id: lesson for lesson in load_course()}
    shown = []
    for lesson in course.values():
        for b in lesson.blocks("coach"):
            for stop in b.coach()["stops"].values():
                got = page_words(course[stop.lesson], stop.page, stop.phrase)
                if got:
                    shown.append(got[1])
    assert len(shown) >= 5
    assert not [w for w in shown if re.search(r"\b(below|above)\)", w)]


def test_an_action_mid_sentence_keeps_its_rank_letters():
    from tutor.app.play.sheet import _mid_sentence

    assert _mid_sentence("You capture A♦ with A♣") == "you capture A♦ with A♣"
    assert _mid_sentence("You capture AD with AC") == "you capture AD with AC"


#: Words a new user tripped on, never in any generated puzzle's question, explanation or hints.
TRIPS = {
    "a title's The mid-sentence": re.compile(r"[Uu]nder The |, but The "),
    "at most 0 unseen": re.compile(r"at most 0 unseen"),
    "a word twice": re.compile(r"\b(seat|the|a) \1\b"),
    "a rank letter lowered": re.compile(r"(?<![\w])[ajqkt][♠♥♦♣]"),
    "a plural with is": re.compile(r"cards is off"),
}


def test_no_generated_puzzle_trips_a_new_user():
    from tutor.puzzles.registry import KINDS

    seen, found = 0, []
    for kind in KINDS:
        for seed in range(12):
            try:
                p = P.generate(kind, seed=seed)
            except Exception:  # a kind that cannot be set at this seed: not wording
                continue
            seen += 1
            text = "\n".join([p.question, p.explanation, *p.hints])
            found += [(name, p.id) for name, pat in TRIPS.items() if pat.search(text)]
    assert seen >= 150 and found == [], found
