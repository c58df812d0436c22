"""Issue 24: puzzles that teach their lesson.  Quotations from the puzzle's own ruleset and
player count, source questions that do not give their answer away and follow each ruleset's
status, the breakeven in the sheet's unit, retries that ask a new question, stars that are the
puzzle's own, the statuses read from the sources' words, and the compendium's citation shown as
its page shows it."""

from __future__ import annotations

import io

import pytest
from learner_text import spread
from rich.console import Console

import tutor.puzzles as P
from tutor.engine.sources import default_library
from tutor.puzzles.generators import own_quotes
from tutor.puzzles.render import render_puzzle

LIB = default_library()


@pytest.mark.parametrize(
    "kind", [k for k in P.KINDS if P.definition(k).options.get("own_quotes", True)]
)
def test_explanations_quote_the_puzzles_own_ruleset_and_player_count(kind):
    """Every quotation of a puzzle about the rules is its own ruleset's source's, or one its
    ruleset cites, and none is bound to another player count; where the ruleset's source gives
    nothing, only the kind's stated fallback (Willughby's advice as Parlett sums it up)."""
    fallback = {
        r
        for s in (P.definition(kind).quote_spec("default") or [])
        if not isinstance(s, str)
        for r in s.fallback
    }
    for r, n, s in spread(kind, 30):
        p = P.generate(kind, r, n, s)
        allowed = own_quotes(p.ruleset, p.players)
        for ref in p.quotes:
            assert ref in allowed or (ref in fallback and not set(p.quotes) & allowed), (p.id, ref)


def test_the_quotations_issue_24_found_out_of_place_are_gone():
    for s in range(40):
        p = P.generate("deal-setup", "wolffauer", 3, s)
        assert "parlett:deal-eight" not in p.quotes and "parlett:lowest-cut" not in p.quotes
        q = P.generate("settlement", "parlett", 4, s)
        assert "parlett:antes-five" not in q.quotes, q.id  # "making a pot of 11p"
        assert not any("11p" in LIB.quotation(x).text for x in q.quotes)
    eldest = next(
        p
        for p in (P.generate("deal-setup/eldest", "parlett", 5, s) for s in range(40))
        if p.variant == "eldest"
    )
    assert eldest.quotes == ["parlett:eldest-starts"]
    silent = P.generate("deal-setup/eldest", "wolffauer", 3, 0)
    assert "does not say who plays first" in silent.explanation


def test_a_which_source_header_never_names_the_answer():
    """Neither the header nor the ruleset line above a quotation names a ruleset (the id shows
    with the answer), and the explanation says what in the text gives its source away."""
    seen = told = 0
    for s in range(60):
        p = P.generate("source-quiz", seed=s)
        if p.variant != "which":
            continue
        seen += 1
        con = Console(width=80, record=True, color_system=None, file=io.StringIO())
        con.print(render_puzzle(p, 80))
        shown = con.export_text()
        assert p.id not in shown and LIB.rulesets[p.ruleset].title not in shown, shown
        assert "cannot be right" not in p.explanation
        told += "What gives it away" in p.explanation
    assert seen and told >= seen * 2 // 3


def test_reading_puzzles_agree_with_each_rulesets_status():
    """Where a ruleset's value is read, "a close reading gives it" is right and "the text says
    it" wrong; where it is chosen, "it leaves it open" (whatever the value named); where stated,
    "the text says it"; and "some other value" where the value named is not the ruleset's."""
    from tutor.puzzles.kinds.reading import OPEN, OTHER, READ, SAYS

    hows = set()
    for rid in P.applicable_rulesets("reading"):
        for s in range(30):
            p = P.generate("reading", rid, None, s)
            if p.variant == "compare":
                continue
            par = LIB.parameter(rid, p.answer["parameter"])
            how = p.answer["how"]
            if par.status == "chosen":
                assert how == OPEN, p.id
            elif p.answer["value"] != (
                list(par.value) if isinstance(par.value, tuple) else par.value
            ):
                assert how == OTHER, p.id
            else:
                assert how == {"stated": SAYS, "read": READ}[par.status], p.id
            assert p.answer["letter"] == "ABCD"[[SAYS, READ, OPEN, OTHER].index(how)]
            hows.add(how)
    assert hows == {SAYS, READ, OPEN, OTHER}
    # issue 24's cases: Parlett's tournament leftovers are read, the sheet's are chosen
    t = next(
        p
        for p in (P.generate("reading", "parlett-tournament", 5, s) for s in range(60))
        if p.variant != "compare" and p.answer["parameter"] == "leftovers_to"
    )
    assert t.grade(t.accepted[0]).correct and "close reading" in t.explanation
    c = next(
        p
        for p in (P.generate("reading", "inter-livery-2018", 5, s) for s in range(60))
        if p.variant == "open"
    )
    assert "the engine chose" in c.explanation and "from other words" not in c.explanation


def test_the_same_rule_side_by_side():
    p = next(
        p
        for p in (P.generate("reading", "porges", 5, s) for s in range(120))
        if p.variant == "compare"
        and p.answer["parameter"] == "bonus_to"
        and "whoever made the last capture" in p.question  # asked either way round
    )
    assert "Which of these says: whoever made the last capture takes the bonus?" in p.question
    assert "porges:last-pair-bonus" in p.answer["quotes"]
    assert p.answer["letter"] == "ABCD"[p.answer["quotes"].index("porges:last-pair-bonus")]
    assert p.grade(p.answer["letter"]).correct


def test_the_breakeven_accepts_the_sheets_unit():
    p = next(
        p
        for p in (P.generate("deal-setup", "wolffauer", 7, s) for s in range(60))
        if p.variant == "all"
    )
    assert "or in pairs with the word `pairs`" in p.question
    for answer in ("6 10 2/1 3 3", "6 10 2/1 3 6", "6 10 2/1 3 3 pairs"):
        assert p.grade(answer).correct, answer
    with pytest.raises(P.AnswerError):
        P.generate("deal-setup", "wolffauer", 7, 5).grade("3 pairs")  # a bonus in pairs


def test_a_retry_never_asks_the_same_question():
    p = P.generate("deal-setup/eldest@02-terms", "parlett", 5, 3)
    for n in range(1, 6):
        fresh = P.another(p, n, lesson="02-terms")
        assert fresh.question != p.question or fresh.answer != p.answer
        assert fresh.theme == "eldest" and fresh.difficulty <= P.max_stars("02-terms")
    d = P.generate("dead-pair/out-of-turn@05-declarations", "wolffauer", None, 0)
    again = P.another(d, 1, lesson="05-declarations", theme="out-of-turn")
    assert "out-of-turn" in again.themes and again.id != d.id


def test_the_statuses_read_from_the_sources_words():
    mf = LIB.parameter("parlett", "match_format")
    assert (mf.value, mf.status) == (None, "read") and "parlett:multiple-of-five" in mf.quotes
    assert LIB.parameter("parlett-tournament", "match_format").status == "read"
    assert LIB.parameter("parlett-13", "breakeven", 4).status == "read"
    # the rules the four-player option carries over from the five-player text are keyed alike
    # (issue 30): the cut for the first dealer as the end of play, the mournival, the leftovers
    carried = {
        name: LIB.parameter("parlett-13", name)
        for name in ("first_dealer", "table_mournival", "last_in_plays_on", "leftovers_to")
    }
    assert {p.status for p in carried.values()} == {"stated"}, carried
    for name, p in carried.items():
        assert p.quotes == LIB.parameter("parlett", name).quotes[: len(p.quotes)], name
    problem = next(
        x
        for x in LIB.rulesets["inter-livery-2018"].problems
        if x["id"] == "permissible-from-question"
    )
    assert "parlett:wonder-permissible" in problem["quotes"]


def test_the_compendiums_citation_is_kept_as_it_stands():
    """A quotation is never rewritten inside its quotation marks (issue 33): the compendium's
    citation markup is shown word for word, as code, not as a page we have not seen."""
    from tutor.puzzles.quoted import quote_plain, quote_spans

    stored = LIB.quotation("willughby:book-of-games-p138").text
    assert quote_plain(stored) == "Francis Willughby’s Book of Games.[@FrancisWillughby p. 138]"
    assert [s.text for s in quote_spans(stored) if s.code] == ["[@FrancisWillughby p. 138]"]
    assert "(Willughby, p. 138)" not in quote_plain(stored)
