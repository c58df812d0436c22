"""The first deal with a coach (issue 24, item 2): the situations are found by asking the
engine, the coach speaks the course's words (the lesson page, its quotations) and the engine's
(its moves, its parameter table's sentences), says plainly what the deal did not show, and is
silent in the second deal unless asked.  Driven as a user would: a scripted learner through the
I/O seam, and ``laugh coach`` / ``laugh lesson 6`` with answers piped in."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from support import ROOT, run_laugh

from tutor.app.coached_deal import (
    ASK_WORDS,
    CoachedSession,
    course_coach_block,
    scripted_learner,
    survey,
)
from tutor.app.context import Context, Glyphs
from tutor.app.learner_io import ScriptedIO
from tutor.app.play.practice_deal import TURN_PROMPT
from tutor.engine.cards import RANK_PLURALS
from tutor.engine.parameters import rule_words, value_words
from tutor.teaching.coach import SITUATIONS, situations, stop_problems
from tutor.teaching.lessons import load_course

#: The lessons the coach quotes, opened once for the module's sessions (the course's files do
#: not change while it runs): ``lessons`` of :class:`CoachedSession`.
LESSONS: dict = {}


@pytest.fixture(scope="module")
def block():
    lesson, b = course_coach_block()
    assert lesson.id == "lying-down"
    return b


def _session(data, answer, ruleset=None, width=80):
    """A coached session with a scripted learner; returns (session, the console's text)."""
    holder = {}
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, highlight=False)
    sio = ScriptedIO(lambda prompt: answer(holder["s"].player, prompt), console)
    holder["s"] = s = CoachedSession(
        Context(sio, Glyphs()), data, ruleset, pace=0.0, lessons=LESSONS
    )
    return s, out, sio


def test_the_course_seed_shows_every_situation_but_a_table_mournival(block):
    """The seed the lesson gives (parlett 42) shows each situation to every scripted learner
    (random, never declaring, never claiming, Willughby's advice, a card counter); a mournival
    dealt to the table does not arise, and the coach says so."""
    from tutor.app.coached_deal import sure_situations

    for ruleset in ("parlett", "inter-livery-2018"):
        assert block.data["deals"][ruleset] == 42
        assert sure_situations(block.data, ruleset) == [
            s for s in SITUATIONS if s != "table-mournival"
        ]


def test_each_situation_agrees_with_the_engine(block):
    """At every prompt, each situation reported holds by the engine's own answers: a capture
    listed is a legal action, a prial on the table is three of a rank by ``table_count``, a
    claim is an open oversight of another player, a dead pair is a declaration the engine
    offers, lying down is the only legal move."""
    checked = set()
    base = scripted_learner(seed=1)

    def answer(player, prompt):
        if player is not None and player.deal.phase != "over":
            d = player.deal
            for s in situations(d, 0, player.names):
                checked.add(s.situation)
                if s.situation == "capture":
                    assert d.to_move == 0
                    assert any(a.kind in ("capture", "play_on_capture") for a in d.legal_actions())
                if s.situation == "table-prial":
                    assert any(d.table_count(r) == 3 for r in range(13))
                if s.situation == "claim":
                    assert [o for o in d.open_oversights() if o.offender != 0]
                if s.situation == "lie-down" and any("only move" in f for f in s.facts):
                    assert {a.kind for a in d.legal_actions()} == {"lie_down"}
        return base(player, prompt)

    arisen, deal = survey(block.data, "parlett", answer, lessons=LESSONS)
    assert deal.is_terminal()
    assert {"capture", "table-prial", "claim", "lie-down"} <= checked


def test_the_coach_speaks_the_course_and_the_engine(block):
    """A stop shows the lesson page that teaches it (number, title, page) with that page's
    words verbatim, the quotations on it, and the engine's rule sentences; the end says what
    the deal did not show."""
    s, out, _ = _session(block.data, scripted_learner(seed=1))
    assert s.first()
    text = out.getvalue()
    flat = " ".join(text.split())
    assert "The coach · Your first capture" in text
    assert "Lesson 4, Capturing, page 1: A turn: you must capture" in flat
    # the page's own words, as the lesson file has them
    course = {lesson.id: lesson for lesson in load_course()}
    page = (ROOT / "lessons" / "04-capturing.md").read_text(encoding="utf-8")
    assert "Eldest plays first and the turn passes to the left." in " ".join(page.split())
    assert "Eldest plays first and the turn passes to the left." in flat
    # the engine's sentence for the ruleset's captures, from the parameter table
    rs = s.rs
    assert " ".join(value_words("captures", rs.captures).split()) in flat
    assert "The coach · The settlement" in text
    assert "This deal did not show: a mournival dealt to the table" in flat
    for stop in block.data["stops"].values():
        assert stop_problems(stop, course) == []


def test_a_claim_stop_names_the_oversight_in_the_engine_words(block):
    s, out, _ = _session(block.data, scripted_learner(seed=1))
    s.first()
    flat = " ".join(out.getvalue().split())
    assert "The coach · An oversight to claim" in flat
    from tutor.engine.parameters import spec

    said = []
    for k in spec("oversights").rules:
        tail = " ".join(rule_words("oversights", k, who="X").split("X", 1)[-1].split())
        if tail[:40] in flat:
            said.append(k)
    assert said, "the claim stop gives no oversight in the parameter table's words"


def test_the_second_deal_is_silent_until_asked(block):
    """In the second deal the coach says nothing by itself; ``why`` at a prompt makes it
    speak of what is present now, and is not read as a move."""
    asked = {"n": 0}
    base = scripted_learner(seed=2)

    def answer(player, prompt):
        if (
            player is not None
            and "Second deal" in player.title
            and prompt == TURN_PROMPT
            and asked["n"] == 0
        ):
            asked["n"] = 1
            return "why"
        return base(player, prompt)

    s, out, sio = _session(block.data, answer)
    assert s.first()
    first_len = len(out.getvalue())
    assert s.second()
    second = out.getvalue()[first_len:]
    assert asked["n"] == 1
    coach_lines = [m.start() for m in re.finditer("The coach ·", second)]
    why_at = second.index("Your move> why") if "Your move> why" in second else None
    assert coach_lines, "asking did not make the coach speak"
    # nothing before the question: the coach was silent until asked
    if why_at is not None:
        assert all(at > why_at for at in coach_lines)
    assert len(s.result.deals) == 2 and all(d.is_terminal() for d in s.result.deals)


def test_the_inter_livery_deal_is_played_under_its_rules(block):
    s, out, _ = _session(block.data, scripted_learner(seed=1), ruleset="inter-livery-2018")
    assert s.first()
    flat = " ".join(out.getvalue().split())
    assert "A deal with a coach · inter-livery-2018" in flat
    assert "Lesson 10" in flat or "Lesson 11" in flat  # the tournament lesson's page
    assert s.result.deals[0].ruleset.id == "inter-livery-2018"


def test_an_unknown_ruleset_is_one_clear_line(block):
    from tutor.engine.errors import UsageError

    with pytest.raises(UsageError, match="no deal under porges"):
        CoachedSession(Context(ScriptedIO([]), Glyphs()), block.data, "porges")


# -- the real program, piped -------------------------------------------------------------


def test_laugh_coach_piped_to_the_end(tmp_path, block):
    """The lines a scripted learner typed in process, piped into ``laugh coach``: the same two
    deals, to the end, the coach speaking in the first only."""
    typed = []
    base = scripted_learner(seed=1)

    def answer(player, prompt):
        typed.append(base(player, prompt))
        return typed[-1]

    s, out, _ = _session(block.data, answer)
    assert s.first() and s.second()
    proc = run_laugh(["coach"], "\n".join(typed) + "\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    first, _, second = proc.stdout.partition("Now a deal on your own")
    assert second, proc.stdout[-2000:]
    assert "The coach · Your first capture" in first
    assert "The coach ·" not in second
    assert "This deal did not show" in first
    assert second.count("Net") >= 1 or "won" in second


def test_end_of_input_mid_deal_leaves_cleanly(tmp_path):
    proc = run_laugh(["coach"], "\n" * 3, tmp_path)
    assert proc.returncode == 0
    assert "Traceback" not in proc.stderr


def test_the_lesson_offers_the_coached_deal_and_enter_alone_does_not_start_it(tmp_path):
    """In lesson 6 the coach block asks; Enter alone is asked again (it never answers), play
    starts the deal, under the block's first ruleset."""
    from support import lesson_script

    from tutor.teaching.lessons import open_lesson

    lesson = open_lesson("lying-down")
    lines = lesson_script(lesson, 5)
    at = lines.index("skip")
    script = lines[:at] + ["", "play"] + [""] * 400
    proc = run_laugh(["lesson", "6", "--seed", "5"], "\n".join(script) + "\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Type play for the deal with a coach, or skip" in out
    assert out.index("Type play for the deal") < out.index("A deal with a coach · parlett")


def test_why_is_a_word_of_the_coach_only():
    assert ASK_WORDS == {"why", "coach"}


# -- asking before telling; back at the table the deal goes on (issues 30.5, 34.3) -----------


def test_back_at_the_table_the_deal_goes_on_by_itself(block):
    """A learner at a terminal who types nothing at the watch: after every coach page the
    watch prompt keeps its countdown (the pace), each one runs out, and the computer players
    move on to the end of the deal; no watch prompt waits for a line (it froze for Enter)."""
    from tutor.app.clock import FakeClock
    from tutor.app.coached_deal import ASK_CLAIM
    from tutor.app.play.practice_deal import WATCH_PROMPT

    base = scripted_learner(seed=1)
    asked = []

    def answer(player, prompt):
        asked.append(prompt)
        return base(player, prompt)

    holder = {}
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None, highlight=False)
    clock = FakeClock(default=100.0, realtime=True)
    sio = ScriptedIO(lambda prompt: answer(holder["s"].player, prompt), console, clock=clock)
    holder["s"] = s = CoachedSession(
        Context(sio, Glyphs()), block.data, None, pace=1.0, lessons=LESSONS
    )
    assert s.first()
    assert {"capture", "claim", "lie-down"} <= set(s.coach.arisen)
    assert ASK_CLAIM in asked  # the coach spoke at a watch prompt
    assert WATCH_PROMPT not in asked, "a watch prompt waited for a line after the coach"
    watch_reads = [r for r in clock.reads if r[0] == WATCH_PROMPT]
    assert watch_reads and all(r[1] == 1.0 and r[3] for r in watch_reads)
    assert s.result.deals[0].is_terminal()


def _ask_session(block, reply_at_ask):
    """The coached deal with a learner who answers the coach's question with
    ``reply_at_ask(player)``; returns (session, output, what had been printed when asked)."""
    from tutor.app.coached_deal import ASK_CLAIM

    base = scripted_learner(seed=1, claims=False)
    seen = {}
    holder = {}

    def answer(player, prompt):
        if prompt == ASK_CLAIM and "before" not in seen:
            seen["before"] = holder["out"].getvalue()
            seen["open"] = [o for o in player.deal.open_oversights() if o.offender != 0]
            return reply_at_ask(player)
        return base(player, prompt)

    s, out, sio = _session(block.data, answer)
    holder["out"] = out
    assert s.first()
    return s, out.getvalue(), seen


def test_the_coach_tells_before_it_asks(block):
    """At the first oversight the coach's box about oversights comes first, then the question
    "anything to claim?" (teach before asking, issue 45 finding 8; it asked first before); the
    learner's right claim at the question takes the cards (a hit, by the watch, as any
    claim)."""

    def right(player):
        acts = [a for a in player.deal.free_actions(0) if a.kind == "claim"]
        return acts[0].notation().removeprefix("claim ")  # the cards alone

    s, text, seen = _ask_session(block, right)
    assert seen["open"], "the coach asked with nothing open"
    assert "The coach · An oversight to claim" in seen["before"]
    after = text[len(seen["before"]) :]
    assert [r for r in s.player.races if r.winner == 0], (
        "the claim typed at the coach's question did not take the cards"
    )
    assert "You claimed first" in after and "The coach · An oversight to claim" not in after


def test_a_claim_of_nothing_at_the_question_is_a_false_claim(block):
    """A claim of nothing at the coach's question is refereed as any claim is (said, and kept
    among the mistakes); Enter alone claims nothing."""
    s, text, seen = _ask_session(block, lambda p: "")
    assert "The coach · An oversight to claim" in seen["before"]
    assert not [m for m in s.player.mistakes if m.kind == "false_claim"]

    def nothing(player):
        d = player.deal
        rank = next(r for r in range(13) if d.table_count(r) == 0)
        return "claim " + RANK_PLURALS[rank]

    s2, text2, seen2 = _ask_session(block, nothing)
    assert "A false claim: nothing of that is claimable" in text2[len(seen2["before"]) :]
    assert any(m.kind == "false_claim" for m in s2.player.mistakes), [
        m.kind for m in s2.player.mistakes
    ]


def test_the_coach_asks_at_every_oversight_the_learner_may_claim(block):
    """In the coached deal the coach asks "anything to claim?" at every oversight the engine
    says the learner may claim (:meth:`Deal.claimants`), not only the first (a later dead pair
    went unprompted, issue 45 finding 8); the second deal says once that nobody asks again."""
    from tutor.app.coached_deal import ASK_CLAIM, ON_YOUR_OWN

    base = scripted_learner(seed=1, claims=False)
    asked: set = set()
    open_at_prompts: set = set()

    def answer(player, prompt):
        d = player.deal
        mine = {o for o in d.open_oversights() if 0 in d.claimants(o)}
        if prompt == ASK_CLAIM:
            asked.update(mine)
            return ""
        open_at_prompts.update(mine)
        return base(player, prompt)

    data = dict(block.data, deals={"parlett": 13})  # two split prials open to the learner
    s, out, _ = _session(data, answer)
    assert s.first()
    assert len(open_at_prompts) >= 2, open_at_prompts
    assert open_at_prompts <= asked, open_at_prompts - asked
    assert s.second()
    assert " ".join(ON_YOUR_OWN.split()) in " ".join(out.getvalue().split())


def test_why_gives_the_advice_for_the_position_at_hand(block):
    """``why`` at a later turn gives the advice applied to this position (the line of advice,
    the moves it picks now by the engine's :meth:`WillughbyBot.advised`, the page named, the
    engine's captures now), not the first capture's box replayed (issue 45 finding 8)."""
    from tutor.engine.rule_bots import ADVICE_WORDS, WillughbyBot
    from tutor.teaching.coach import action_words

    base = scripted_learner(seed=1)
    said = {}
    holder = {}

    def answer(player, prompt):
        coach = holder["s"].coach
        caps = [a for a in player.deal.legal_actions(0) if a.kind == "capture"]
        if (
            prompt == TURN_PROMPT
            and "capture" in coach.arisen
            and caps
            and "mark" not in said
            and player.deal.history
        ):
            said["mark"] = len(holder["out"].getvalue())
            said["facts"] = next(x for x in coach.current if x.situation == "capture").facts
            said["advised"] = WillughbyBot.advised(player.deal, player.deal.legal_actions(0))
            return "why"
        if "mark" in said and "end" not in said:
            said["end"] = len(holder["out"].getvalue())
        return base(player, prompt)

    s, out, _ = _session(block.data, answer)
    holder["s"], holder["out"] = s, out
    assert s.first()
    text = out.getvalue()[said["mark"] : said["end"]]
    flat = " ".join(text.split())
    assert "Your first capture" not in text, text
    assert "The coach · now: Your capture" in text
    assert "One line of advice" in text and "Taught in lesson" in flat
    for f in said["facts"]:
        assert " ".join(f.split()) in flat, f
    advice, acts = said["advised"]  # the advice applied: the engine's picks now
    assert f"Willughby's advice, applied here: {ADVICE_WORDS[advice]}" in flat
    assert " · ".join(action_words(a) for a in acts) in flat


def test_citations_are_source_and_section_and_the_first_capture_gives_willughbys_advice(block):
    """The coach's boxes cite each quotation by source and section alone (the lesson page
    named above it carries the whole citation); the first capture's box gives one line of
    advice, Willughby's as Parlett sums it up, verbatim from Parlett's text with its section."""
    from tutor.app.coached_deal import short_citation
    from tutor.engine.sources import default_library

    s, out, _ = _session(block.data, scripted_learner(seed=1))
    s.first()
    text = out.getvalue()
    boxes = text.split("The coach · ")[1:]
    assert boxes and not any("parlettgames.uk" in b or "waks.org" in b for b in boxes)
    lib = default_library()
    assert (
        short_citation(lib, "parlett:capture-one-or-three") == "Parlett, Cards and deal (the play)"
    )
    assert short_citation(lib, "willughby:overseen").startswith("Willughby, quoted in Parlett")
    capture = " ".join(next(b for b in boxes if b.startswith("Your first capture")).split())
    advice = block.data["stops"]["capture"].advice
    q = lib.quotation(advice)
    parlett = ROOT / "sources" / "texts" / "parlett-historic-card-games.txt"
    assert q.text in parlett.read_text(encoding="utf-8")
    assert f"“{' '.join(q.text.split())}” — {short_citation(lib, advice)}" in capture
    assert "Willughby's advice" in short_citation(lib, advice)
    assert sum("One line of advice" in b for b in boxes) == 1


def test_the_settlement_is_said_under_every_scoring(house):
    """The end of a deal under each house ruleset, pot scoring among them (the coach's
    settlement asked the stakes working's figures alone, and pot scoring raised KeyError)."""
    import random

    from tutor.engine.deal import new_deal

    scorings = set()
    for _rid, rs in sorted(house.items()):
        n = min(rs.counts)
        rng = random.Random(2)
        d = new_deal(rs, n, 0, rng)
        while not d.is_terminal():
            d.apply(rng.choice(d.legal_actions()))
        seen = {s.situation: s.facts for s in situations(d, 0, [f"P{q}" for q in range(n)])}
        assert seen["settlement"][1].startswith(f"You won {d.result.settlement[0].won} cards: ")
        scorings.add(rs.scoring)
    assert {"stakes", "pairs", "pot"} <= scorings


def test_the_coach_names_a_ruleset_by_its_title_not_its_id(rulesets):
    """Issue 45, findings 5 and 6: "Under parlett, declarations are free actions" and "Under
    The games.porg.es compendium" (a capital mid-sentence)."""
    import random

    from tutor.engine.deal import new_deal
    from tutor.puzzles import from_id
    from tutor.puzzles.render import ruleset_line

    for rid in ("parlett", "porges"):
        rs = rulesets[rid]
        rng = random.Random(3)
        d = new_deal(rs, 4, 0, rng)
        while not d.is_terminal():
            d.apply(rng.choice(d.legal_actions()))
        facts = [f for s in situations(d, 0, ["You", "P1", "P2", "P3"]) for f in s.facts]
        under = [f for f in facts if f.startswith("Under ")]
        assert under and not any(f.startswith(f"Under {rid}") for f in under), under
        assert not any(f.startswith("Under The ") for f in under), under
    line = ruleset_line(from_id("spot-oversight.porges.4.81139468373579"))
    assert line.startswith("Under the games.porg.es compendium"), line
