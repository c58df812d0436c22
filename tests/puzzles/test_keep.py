"""The ``keep`` question form, "what does the player keep" (issue 30, item 4): you must lie
down; which cards stay with you, which go onto the table.  The answer is the engine's
(:func:`tutor.engine.keeping.lie_down_keeping`), answers are read exactly, and a learner who
goes by how the answers look (their place, their size, their words, their pairs) scores no
better than chance + 15 % over the 200 puzzles of the shared corpus."""

from __future__ import annotations

import pytest

import tutor.puzzles as P
from tutor.engine.cards import parse_cards, rank_of
from tutor.engine.deal import Deal
from tutor.engine.errors import UsageError
from tutor.engine.keeping import lie_down_keeping
from tutor.engine.sources import default_library
from tutor.puzzles.answers import wrong_answer

CHANCE = 1 / 4  # four answers, one right


def _rs(rid: str = "parlett"):
    return default_library().rulesets[rid]


def test_lying_down_keeps_the_won_cards_and_sends_the_hand_to_the_table():
    """RULES.md 1: the whole hand goes face up onto the table; the won cards stay."""
    cards = lambda s: parse_cards(s.split())  # noqa: E731
    rest = [c for c in range(52) if c not in cards("2C 2D 3C 8D 8S 9H 5H 5S KC KD QH")]
    deal = Deal.from_position(
        _rs(),
        3,
        2,
        hands=[cards("3C 8D 8S"), cards("9H") + rest[:5], rest[5:10]],
        table=cards("QH"),
        won=[cards("2C 2D 5H 5S"), cards("KC KD"), rest[10:]],
        to_move=0,
    )
    k = lie_down_keeping(deal, 0)
    assert k.kept == tuple(sorted(cards("2C 2D 5H 5S")))
    assert k.to_table == tuple(sorted(cards("3C 8D 8S")))  # the pair goes too
    assert not k.ends_play
    with pytest.raises(UsageError, match="may not lie down"):
        lie_down_keeping(deal, 1)  # not to move


def test_lying_down_that_ends_play_keeps_what_the_end_gives():
    """Where lying down leaves one player holding cards, the leftovers move as the ruleset
    says: under Parlett's (to the dealer) the dealer who lies down last keeps the table, its
    own hand among it."""
    cards = lambda s: parse_cards(s.split())  # noqa: E731
    rest = [c for c in range(52) if c not in cards("3C 8D 9H 2C 2D QH")]
    deal = Deal.from_position(
        _rs(),
        3,
        0,
        hands=[cards("3C 8D"), cards("9H"), []],
        table=cards("QH"),
        won=[cards("2C 2D"), [], rest],
        to_move=0,
    )
    k = lie_down_keeping(deal, 0)
    assert k.ends_play
    assert k.kept == tuple(sorted(cards("2C 2D 3C 8D 9H QH")))


def test_the_answer_is_the_engines_and_graded_exactly(corpus):
    for p in corpus("keep")[:40]:
        d = p.deal()
        k = lie_down_keeping(d, p.seat)
        right = [
            c
            for c in p.answer["choices"]
            if sorted(c["kept"]) == list(k.kept) and sorted(c["to_table"]) == list(k.to_table)
        ]
        assert [c["letter"] for c in right] == p.answer["right"]
        assert set(k.kept) == set(d.won_cards(p.seat)) and set(k.to_table) == set(d.hand(p.seat))
        assert any(
            v > 1
            for v in [sum(1 for c in k.to_table if rank_of(c) == rank_of(x)) for x in k.to_table]
        )  # a pair in the hand
        assert p.grade(right[0]["letter"]).correct
        wrong = wrong_answer(p)
        assert not p.grade(wrong).correct
        # every answer names the table, and splits the same cards
        for c in p.answer["choices"]:
            assert "onto the table" in c["text"]
            assert sorted(c["kept"] + c["to_table"]) == sorted(k.kept + k.to_table)


def test_a_word_that_cannot_be_read_is_said_not_graded(corpus):
    p = corpus("keep")[0]
    for text in ("keep the won cards", "E", "A B", "zz"):
        with pytest.raises(P.AnswerError):
            p.grade(text)


def test_the_nudge_does_not_give_the_answer_away(corpus):
    """The nudge depends on the answer chosen only: the won cards given up, or a hand card
    kept; it never names a letter or a card."""
    for p in corpus("keep")[:20]:
        for c in p.answer["choices"]:
            if c["letter"] in p.answer["right"]:
                continue
            g = p.grade(c["letter"], attempt=1)
            assert g.retry.startswith("Not yet:") and not any(
                f" {x} " in f" {g.retry} " for x in "ABCD"
            )


def _whole_pairs(cards) -> bool:
    return bool(cards) and all(
        sum(1 for d in cards if rank_of(d) == rank_of(c)) % 2 == 0 for c in cards
    )


def _cue_learners():
    """Learners who never look at the board: each picks one answer by how the answers look.
    By size they count the cards kept (ties: the first listed)."""

    def by_size(k):
        def pick(ch):
            order = sorted(range(len(ch)), key=lambda i: (-len(ch[i]["kept"]), i))
            return order[k]

        return pick

    def whole(k):
        def pick(ch):
            order = [
                i
                for i in sorted(range(len(ch)), key=lambda i: (-len(ch[i]["kept"]), i))
                if _whole_pairs(ch[i]["kept"])
            ]
            return order[k] if len(order) > abs(k) - (k < 0) else 0

        return pick

    return {
        "the first answer": lambda ch: 0,
        "the last answer": lambda ch: len(ch) - 1,
        "the one keeping the most cards": by_size(0),
        "the one keeping the second most": by_size(1),
        "the one keeping the third most": by_size(2),
        "the one keeping the fewest cards": by_size(-1),
        "the first that mentions the table": lambda ch: next(
            i for i, c in enumerate(ch) if "table" in c["text"]
        ),
        "the one sending the most to the table": lambda ch: max(
            range(len(ch)), key=lambda i: (len(ch[i]["to_table"]), -i)
        ),
        "the first keeping whole pairs only": lambda ch: next(
            (i for i, c in enumerate(ch) if _whole_pairs(c["kept"])), 0
        ),
        "the one keeping the most whole pairs": whole(0),
        "the one keeping the second most whole pairs": whole(1),
        "the one keeping the fewest whole pairs": whole(-1),
    }


def test_cue_learners_score_no_better_than_chance(corpus):
    """Over 200 puzzles every cue learner scores at most chance (1 in 4) + 15 %."""
    puzzles = corpus("keep")
    assert len(puzzles) == 200
    scores = {}
    for name, learner in _cue_learners().items():
        right = 0
        for p in puzzles:
            ch = p.answer["choices"]
            right += ch[learner(ch)]["letter"] in p.answer["right"]
        scores[name] = right / len(puzzles)
    assert all(s <= CHANCE + 0.15 for s in scores.values()), scores


def test_lesson_6_asks_what_a_player_keeps():
    """Lesson 6's objective "Say when a player must lie down, and what they keep" is served
    by the keep form as well as by lying down in legal play."""
    from tutor.teaching.lessons import load_course, puzzle_seed

    lesson = {x.id: x for x in load_course()}["lying-down"]
    assert "keep" in lesson.objective_themes["lie-down"]
    blocks = [b for b in lesson.objective_blocks("lie-down") if b.data["kind"].startswith("keep")]
    assert blocks
    b = blocks[0]
    for s in range(3):
        p = P.generate(
            b.data["kind"], ruleset=b.data["ruleset"], seed=puzzle_seed(s, lesson.id, b.index, 0)
        )
        assert p.kind == "keep" and "keep" in p.asks
