"""Reading learners' answers: lenient about case, spaces, suit symbols and 10/T; equivalent
answers accepted; unreadable ones explained (AnswerError), never graded wrong."""

from __future__ import annotations

import pytest

import tutor.puzzles as P
from tutor.engine.cards import codes, parse_card, pretty, rank_code
from tutor.engine.errors import NotationError
from tutor.puzzles.answers import read, tokens


def first(kind, pred, tries=200, **kw):
    for s in range(tries):
        p = P.generate(kind, seed=s, **kw)
        if pred(p):
            return p
    raise AssertionError(f"no {kind} puzzle found")


def symbol_form(code: str) -> str:
    return pretty(parse_card(code), True)


def test_answer_error_is_a_notation_error():
    assert issubclass(P.AnswerError, NotationError)


def test_tokens_and_reading():
    assert tokens("10 ♥, 7h7s") == ["10♥", "7h", "7s"]
    r = read("Claim TH 10♠ and sevens")
    assert r.cards == [parse_card("TH"), parse_card("TS")]
    assert r.ranks == [6]
    assert "claim" in r.words
    assert read("a pair").ranks == []            # the article is not an ace
    assert read("A").ranks == [0]
    with pytest.raises(P.AnswerError):
        read("7h 7H")                            # a card named twice
    with pytest.raises(P.AnswerError) as exc:
        read("claim 7x")                         # a mistyped card is explained, not ignored
    assert "not a suit" in str(exc.value)
    assert read("take 7h to 7s").words == ["take", "to"]


def test_empty_answer_is_not_graded():
    for kind in P.KINDS:
        p = P.generate(kind, seed=3)
        for text in ("", "   "):
            with pytest.raises(P.AnswerError):
                p.grade(text)


def test_spot_oversight_answers():
    p = first("spot-oversight", lambda p: p.answer["claims"], ruleset="parlett")
    cards = p.answer["claims"][0]["cards"]
    right = [" ".join(cards), "CLAIM " + " ".join(reversed(cards)).lower(),
             ", ".join(symbol_form(c) for c in cards), f"claim {cards[0]}",
             "claim " + " ".join(c.replace("T", "10") for c in cards)]
    for text in right:
        assert p.grade(text).correct, text
    assert not p.grade("nothing").correct
    with pytest.raises(P.AnswerError):
        p.grade("maybe")
    table = set(codes(p.deal().table_cards()))
    off = next(c for c in codes(range(52)) if c not in table)
    with pytest.raises(P.AnswerError) as exc:
        p.grade(f"claim {off}")
    assert "not on the table" in str(exc.value)
    decoy = first("spot-oversight", lambda p: p.variant == "decoy")
    for text in ("nothing", "None", "no"):
        assert decoy.grade(text).correct
    g = decoy.grade(f"claim {codes(decoy.deal().table_cards())[0]}")
    assert not g.correct and "nothing to claim" in g.message


def test_capture_now_accepts_any_capture_of_the_rank():
    p = P.generate("capture-now", seed=4)
    rank = p.answer["at_risk"][0]
    deal = p.deal()
    mine = [c for c in codes(deal.hand(p.seat)) if c[0] == rank]
    theirs = [c for c in codes(deal.table_cards()) if c[0] == rank]
    for text in (f"{theirs[0]} {mine[0]}", mine[0].lower(), rank,
                 symbol_form(mine[0]), f"take {mine[0]} with {theirs[0]}"):
        assert p.grade(text).correct, text
    safe = p.answer["safe"][0]
    g = p.grade(safe)
    assert not g.correct and "can wait" in g.message
    with pytest.raises(P.AnswerError):
        p.grade(f"{rank} {safe}")                # two ranks: which one?


def test_settlement_answers():
    p = first("settlement", lambda p: len(p.answer["asked"]) == 1 and "net" in p.answer)
    v = p.answer["net"][p.answer["asked"][0]]
    for text in (f"{v:+d}", str(v), f"{v}".replace("-", "−"), f" {v:+d} stakes"):
        assert p.grade(text).correct, text
    assert not p.grade(str(v + 2)).correct
    with pytest.raises(P.AnswerError):
        p.grade("lots")
    allp = first("settlement", lambda p: len(p.answer["asked"]) > 1 and "net" in p.answer)
    vals = allp.answer["net"]
    assert allp.grade(" ".join(map(str, vals))).correct
    assert allp.grade(", ".join(f"p{q}: {v:+d}" for q, v in enumerate(vals))).correct
    with pytest.raises(P.AnswerError):
        allp.grade(" ".join(map(str, vals[:-1])))


def test_legal_play_answers_in_any_order():
    p = first("legal-play", lambda p: len({(a["action"], a.get("hand", a.get("cards"))[0][0])
                                           for a in p.answer["actions"]}) >= 2)
    parts = [x.strip() for x in p.accepted[0].split(",")]
    assert p.grade(" ; ".join(reversed(parts)).lower()).correct
    assert p.grade(" and ".join(parts)).correct
    assert not p.grade(parts[0]).correct
    with pytest.raises(P.AnswerError):
        p.grade("whatever I like")
    lie = first("legal-play", lambda p: p.accepted[0] == "lie down")
    for text in ("lie down", "Lie Down", "I lie down"):
        assert lie.grade(text).correct
    busy = first("legal-play", lambda p: "lie down" not in p.accepted[0])
    g = busy.grade("lie down")
    assert not g.correct and "may not lie down" in g.message


def test_legal_play_explains_a_forbidden_form():
    p = first("legal-play", lambda p: "no-pair-for-pair" in p.themes, ruleset="du-coeur")
    deal = p.deal()
    hand = deal.hand(p.seat)
    table = deal.table_cards()
    for r in range(13):
        h = [c for c in hand if c >> 2 == r]
        t = [c for c in table if c >> 2 == r]
        if len(h) >= 2 and len(t) == 2:
            g = p.grade(p.accepted[0] + ", " + " ".join(codes(h[:2] + t)))
            assert not g.correct and "pair_for_pair is not allowed" in g.message
            return
    raise AssertionError("no pair facing a pair")


def test_dead_pair_answers():
    p = first("dead-pair", lambda p: len(p.data["pairs"]) == 1 and p.answer["dead_pairs"])
    r = p.answer["dead_pairs"][0]
    for text in (r, r.lower() if r not in "A" else r, "yes", p.accepted[0].lower()):
        assert p.grade(text).correct, text
    assert not p.grade("no").correct
    live = first("dead-pair", lambda p: not p.answer["dead_pairs"])
    assert live.grade("no").correct and live.grade("None").correct
    assert not live.grade(live.data["pairs"][0]).correct
    with pytest.raises(P.AnswerError):
        live.grade("maybe")


def test_count_answers():
    p = first("count", lambda p: len(p.answer["unseen"]) == 2)
    (r1, v1), (r2, v2) = p.answer["unseen"].items()
    for text in (f"{v1} {v2}", f"{v1}, {v2}", f"{r1}: {v1}, {r2}: {v2}",
                 f"{r2}={v2} {r1}={v1}"):
        assert p.grade(text).correct, text
    assert not p.grade(f"{(v1 + 1) % 5} {v2}").correct
    with pytest.raises(P.AnswerError):
        p.grade(f"{v1}")
    with pytest.raises(P.AnswerError):
        p.grade("9 9")


def test_deal_setup_answers():
    ante = first("deal-setup", lambda p: p.answer["asked"] == ["ante"] and
                 p.answer["ante"]["dealer"] is not None)
    d, o = ante.answer["ante"]["dealer"], ante.answer["ante"]["other"]
    for text in (f"{d}/{o}", f"{d} {o}", f"{d} and {o}"):
        assert ante.grade(text).correct, text
    assert not ante.grade("none").correct
    be = first("deal-setup", lambda p: p.answer["asked"] == ["breakeven"] and
               p.answer["breakeven"] is not None)
    n = be.answer["breakeven"]
    assert be.grade(str(n)).correct and be.grade(f"{n // 2} pairs").correct
    pairs = first("deal-setup", lambda p: p.answer["asked"] == ["bonus"] and
                  p.answer["bonus"] is None, ruleset="parlett-tournament")
    assert pairs.grade("none").correct and not pairs.grade("5").correct
    whole = first("deal-setup", lambda p: len(p.answer["asked"]) > 1, ruleset="parlett",
                  players=4)
    assert whole.grade("10 12 3/2 3 10").correct
    with pytest.raises(P.AnswerError):
        whole.grade("10 12")


def test_source_quiz_answers():
    p = first("source-quiz", lambda p: p.variant == "which")
    letter = p.accepted[0]
    for text in (letter, letter.lower(), f"({letter.lower()})", f"{letter})",
                 p.answer["source"]):
        assert p.grade(text).correct, text
    other = "ABCD"[("ABCD".index(letter) + 1) % len(p.answer["options"])]
    assert not p.grade(other).correct
    with pytest.raises(P.AnswerError):
        p.grade("Z")
    d = first("source-quiz", lambda p: p.variant == "disagree")
    assert d.grade(d.answer["parameter"]).correct and d.grade(d.accepted[0]).correct


def test_answer_words_offer_the_visible_cards():
    p = P.generate("legal-play", seed=2)
    words = p.answer_words()
    deal = p.deal()
    assert "lie down" in words and "hint" in words
    for c in codes(deal.hand(p.seat)):
        assert c in words
    assert rank_code(0) == "A"
