"""Practice deals (``laugh play``): whole deals through prompts, the claim race decided both ways
with an injected clock, input, the review of mistakes, the screen and the score sheet."""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from rich.console import Console
from support import position

from tutor.app.clock import FakeClock, VirtualClock
from tutor.app.learner_io import ScriptedIO
from tutor.app.play import LEVELS, DealPlayer
from tutor.app.play.inputs import action_code, interpret
from tutor.app.play.practice_deal import (
    NAME_PROMPT,
    TURN_PROMPT,
    WATCH_PROMPT,
    WHICH_PROMPT,
    watch_label,
)
from tutor.app.play.session import PlayOptions, play_match
from tutor.engine.bots import Bot
from tutor.engine.cards import parse_cards
from tutor.engine.deal import Action
from tutor.engine.race import Reaction
from tutor.engine.records import replay, to_record


def quiet(width: int = 80) -> Console:
    return Console(file=io.StringIO(), width=width, color_system=None, highlight=False)


def text_of(console: Console) -> str:
    return console.file.getvalue()


class EngineLearner:
    """Answers every prompt from the engine: the first legal turn move (or a random one), a
    claim whenever one is open (when ``claims``), and any declaration it holds (when
    ``declares``); Enter otherwise.  Without ``watch`` it lets every watch prompt go (Enter),
    and :attr:`answers` holds only what it typed elsewhere: the lines a pipe gives in step."""

    def __init__(self, holder, rng=None, claims=True, declares=True, watch=True):
        self.holder = holder
        self.rng = rng
        self.claims = claims
        self.declares = declares
        self.watch = watch
        self.answers: list[str] = []

    def __call__(self, prompt: str) -> str:
        if prompt == WATCH_PROMPT and not self.watch:
            return ""  # (not kept: piped, the lines are the turns', none the watch's)
        ans = self.answer(prompt)
        self.answers.append(ans)
        return ans

    def answer(self, prompt: str) -> str:
        p = self.holder["player"]
        d, seat = p.deal, p.seat
        free = d.free_actions(seat)
        if prompt == WHICH_PROMPT:
            return "1"
        claims = [a for a in free if a.kind == "claim"]
        if prompt == NAME_PROMPT:
            return claims[0].notation() if claims else ""
        if self.claims and claims:
            return claims[0].notation()
        decl = [a for a in free if a.kind.startswith("declare") or a.kind == "take_table_mournival"]
        if self.declares and decl:
            return action_code(decl[0])
        if prompt == TURN_PROMPT:
            legal = d.legal_actions()
            a = self.rng.choice(legal) if self.rng else legal[0]
            return action_code(a)
        return ""


def run_match(
    ruleset,
    players,
    lv,
    seed,
    deals=1,
    claims=True,
    declares=True,
    rng=None,
    clock=None,
    store=None,
    width=80,
    seat=0,
    review_samples=0,
):
    """Play a match with an :class:`EngineLearner`; ``review_samples`` 0 leaves the analysis
    of the learner's decisions out (the tests of the review ask for it)."""
    holder = {}
    learner = EngineLearner(holder, rng, claims, declares)
    import tutor.app.play.session as session

    orig = session.DealPlayer

    class Hooked(orig):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            holder["player"] = self

    session.DealPlayer = Hooked
    try:
        out = quiet(width)
        res = play_match(
            PlayOptions(ruleset, players, deals, seat, lv, seed, 0.0, None, False, review_samples),
            io=ScriptedIO(learner, out, clock or VirtualClock()),
            store=store,
        )
    finally:
        session.DealPlayer = orig
    return res, out, learner


# -- whole deals through the prompts ------------------------------------------------------------


@pytest.mark.parametrize("lv", list(LEVELS))
def test_every_ruleset_plays_to_settlement_at_each_level(library, lv, monkeypatch):
    import tutor.engine.levels as levels

    monkeypatch.setattr(levels, "EXPERT_SAMPLES", 24)  # the expert, on a small budget
    for rid, rs in sorted(library.rulesets.items()):
        n = 5 if 5 in rs.counts else rs.player_counts[-1]
        res, out, learner = run_match(rs, n, LEVELS[lv], seed=len(rid) + 7, rng=random.Random(rid))
        deal = res.deals[0]
        assert deal.is_terminal(), rid
        deal.check_invariants()
        rec = replay(json.loads(json.dumps(to_record(deal))))
        assert rec.result == deal.result
        text = text_of(out)
        assert "Settlement" in text and "Review of your play" in text, rid
        assert learner.answers, rid


def test_a_match_passes_the_deal_left_and_totals_add_up(rulesets):
    rs = rulesets["parlett"]
    res, out, _ = run_match(rs, 4, LEVELS["casual"], seed=5, deals=4)
    assert [d.dealer for d in res.deals] == [(res.deals[0].dealer + k) % 4 for k in range(4)]
    assert res.totals == [sum(d.returns()[q] for d in res.deals) for q in range(4)]
    assert sum(res.totals) == 0
    assert "Match totals after 4 deals" in text_of(out)


def test_same_seed_same_deals_and_same_computer_choices(rulesets):
    rs = rulesets["porges"]
    a, _, la = run_match(rs, 5, LEVELS["beginner"], seed=11, deals=2)
    b, _, lb = run_match(rs, 5, LEVELS["beginner"], seed=11, deals=2)
    assert [d.history for d in a.deals] == [d.history for d in b.deals]
    assert la.answers == lb.answers


# -- the watch: claims at any moment, timed to the naming (issue 19) ----------------------------


class Scripted(Bot):
    """A computer player for hand-built positions: ``pick`` chooses its turn (default: the first
    legal)."""

    def __init__(self, pick=None):
        self.pick = pick

    def choose(self, deal, legal, rng):
        if self.pick:
            for a in legal:
                if self.pick(a):
                    return a
        return legal[0]


def split_prial_position(rulesets):
    """Parlett, 3 players, the learner at seat 0; seat 1 (Anne, to move) will split the table
    prial of sevens, and seat 2 (Ralph) claims 1.0 s after."""
    rs = rulesets["parlett"]
    d = position(
        rs, 3, hands=["2C 3D", "7H 4C", "5D 6D 9S"], table="7C 7D 7S 5C 9H", dealer=0, to_move=1
    )
    split = lambda a: a.kind == "capture" and a.table == tuple(parse_cards("7C"))  # noqa: E731
    return d, [None, Scripted(split), Scripted()], {1: Reaction(2.5, 2.5), 2: Reaction(1.0, 1.0)}


def then_play(script, holder):
    """The lines of ``script``, then the rest of the deal: the first legal move at the
    learner's turn, Enter at every other prompt."""
    lines = list(script)

    def answer(prompt):
        if lines:
            return lines.pop(0)
        d = holder["player"].deal
        if prompt == TURN_PROMPT and d.to_move == 0 and d.phase != "over":
            return d.legal_actions()[0].notation()
        return ""

    return answer


def at_turns(script, holder=None):
    """The lines of ``script`` at the learner's turn prompts (then ``ld``), Enter at the watch
    before each computer player's move."""
    lines = list(script)

    def answer(prompt):
        if prompt in (TURN_PROMPT, WHICH_PROMPT):
            return lines.pop(0) if lines else "ld"
        return ""

    return answer


def race(rulesets, answers, delays=(), realtime=False, pace=0.8, clock=None):
    d, bots, claiming = split_prial_position(rulesets)
    clock = clock or FakeClock(delays, realtime=realtime)
    out = quiet()
    holder = {}
    io = ScriptedIO(then_play(answers, holder), out, clock)
    p = DealPlayer(
        d,
        0,
        bots,
        bot_rng=random.Random(1),
        reaction_rng=random.Random(2),
        io=io,
        names=["You", "Anne", "Ralph"],
        pace=pace,
        claiming=claiming,
    )
    holder["player"] = p
    p.run()
    return p, clock, " ".join(text_of(out).split())


AFTER: list[str] = []  # the rest of the deal: then_play's


def test_the_learner_names_the_cards_first_and_the_time_includes_the_naming(rulesets):
    # the watch before Anne's move (nothing open: Enter), then before Ralph's: the claim key
    # after 0.5 s, the cards named 0.3 s later, before Ralph's 1.0 s
    p, clock, text = race(rulesets, ["", "claim", "7d 7s"] + AFTER, [0.2, 0.5, 0.3])
    first = p.races[0]
    assert first.kind == "split_prial" and first.offender == 1 and first.winner == 0
    assert first.learner == pytest.approx(0.8)  # claimable to named, naming included
    assert first.reactions == {2: 1.0} and first.margin == pytest.approx(0.2)
    assert (
        "You claimed first, in 0.80 s: 0.20 s ahead of Ralph, who took 1.00 s (timed from "
        "the moment it could be claimed until you pressed Enter)." in text
    )
    assert [r[0] for r in clock.reads[:3]] == [WATCH_PROMPT, WATCH_PROMPT, NAME_PROMPT]
    assert p.deal.history[1] == Action.make(0, "claim", parse_cards("7D 7S"), (), "split_prial")
    assert [(s.outcome, s.kind, s.seconds) for s in p.sightings] == [
        ("hit", "split_prial", pytest.approx(0.8))
    ]
    assert not [m for m in p.mistakes if m.kind in ("missed_claim", "false_claim")]


def test_naming_slowly_loses_the_race_and_the_late_claim_says_so(rulesets):
    # the claim key at once, but the cards named 1.2 s later: Ralph claims at 1.0 s, above the
    # naming prompt, and the learner's claim comes too late
    p, clock, text = race(rulesets, ["", "claim", "7d 7s"] + AFTER, [0.0, 0.0, 1.2])
    assert p.races[0].winner == 2 and p.races[0].window == pytest.approx(1.0)
    assert "Ralph claimed first, in 1.00 s; you did not claim." in text
    assert "Too late: Ralph claimed it first, 200 ms before this claim." in text
    assert [s.outcome for s in p.sightings] == ["miss"]
    missed = [m for m in p.mistakes if m.kind == "missed_claim"]
    assert len(missed) == 1 and "Ralph claimed it after 1.00 s" in missed[0].text


def test_a_claim_with_nothing_open_is_a_false_claim_and_play_goes_on(rulesets):
    # before Anne's move nothing is claimable: the claim key is answered as a false claim
    p, clock, text = race(rulesets, ["claim", "7d 7s", "", "claim 7d 7s"] + AFTER)
    assert "A false claim: nothing of that is claimable (no open oversight covers 7♦ 7♠)." in text
    assert p.races[0].winner == 0  # the real one, claimed afterwards
    assert [s.outcome for s in p.sightings] == ["false_claim", "hit"]
    (false,) = [m for m in p.mistakes if m.kind == "false_claim"]
    assert "You claimed '7d 7s': nothing of that was claimable." in false.text


def test_a_false_claim_does_not_end_the_chance_at_a_real_one(rulesets):
    p, clock, text = race(rulesets, ["", "claim 9h 9s", "claim zz", "claim sevens"] + AFTER)
    assert "A false claim: nothing of that is claimable (no open oversight covers 9♥ 9♠)." in text
    assert "could not read 'zz': not a card, a rank or a word of a claim" in text  # never graded
    assert p.races[0].winner == 0
    assert [s.outcome for s in p.sightings] == ["false_claim", "hit"]


def test_on_a_terminal_the_watch_is_the_same_with_and_without_an_oversight(rulesets):
    # a real-time clock: before each computer player's move, the watch prompt for the pace with
    # its countdown, whether or not anything is claimable (here: nothing, then the split prial)
    p, clock, text = race(rulesets, ["claim", "7d 7s"] + AFTER, [5.0, 0.3, 0.3], realtime=True)
    watch = [(r, c) for r, c in zip(clock.reads, clock.shown) if r[0] == WATCH_PROMPT]
    assert len(watch) >= 2
    for (_, timeout, _, _), shown in watch:
        assert timeout == pytest.approx(0.8) and shown.total == pytest.approx(0.8)
        assert shown.label in (watch_label("Anne"), watch_label("Ralph"))
    assert clock.reads[0][3] is True  # nothing open: the pace ran out
    assert p.races[0].winner == 0 and p.races[0].learner == pytest.approx(0.6)


def test_piped_input_claim_typed_first_wins(rulesets):
    p, clock, text = race(rulesets, ["", "claim 7d 7s"] + AFTER)
    assert p.races[0].winner == 0 and p.races[0].piped is False  # a fake clock
    p, _, text = race(rulesets, ["", "claim 7d 7s"], clock=VirtualClock())
    assert p.races[0].winner == 0 and p.races[0].piped
    assert (
        "You claimed first (piped input: no real time, your line is read first); Ralph "
        "would have claimed in 1.00 s."
    ) in text
    assert p.sightings[0].seconds is None


def test_a_pass_lets_the_computer_claim(rulesets):
    p, _, _ = race(rulesets, ["", ""], clock=VirtualClock(), pace=1.0)
    assert p.races[0].winner == 2
    assert [m.kind for m in p.mistakes].count("missed_claim") == 1


def test_a_careless_level_sometimes_misses_an_oversight_altogether(rulesets):
    d, bots, _ = split_prial_position(rulesets)
    out = quiet()
    holder = {}
    p = DealPlayer(
        d,
        0,
        bots,
        bot_rng=random.Random(1),
        reaction_rng=random.Random(2),
        io=ScriptedIO(then_play([], holder), out),
        names=["You", "Anne", "Ralph"],
        claiming={1: Reaction(1, 2, 1.0), 2: Reaction(1, 2, 1.0)},
    )
    holder["player"] = p
    p.run()
    assert not [r for r in p.races if r.kind == "split_prial"]
    (w,) = [w for w in p.watch.closed if w.oversight.kind == "split_prial"]
    assert w.missed == {2} and w.how in ("lapsed", "ended")


# -- what the learner types ---------------------------------------------------------------------

NAMES = ["You", "Anne", "Ralph"]


@pytest.fixture
def sevens(rulesets):
    return position(
        rulesets["parlett"],
        3,
        hands=["7H 7D 4C", "2C", "3C"],
        table="7C 7S 9H",
        dealer=2,
        to_move=0,
    )


@pytest.mark.parametrize(
    "text,kind,detail",
    [
        ("7h", "actions", 2),  # two table sevens: asks which
        ("7h 7s", "actions", 1),
        ("7H 7D 7C 7S", "actions", 1),  # a pair takes a pair
        ("capture 7d 7c", "actions", 1),
        ("4c", "error", "there is no four on the table"),
        ("9h", "error", "name a card from your hand first"),
        ("5s", "error", "not in your hand"),
        ("5s 7c", "error", "neither in your hand nor on the table"),
        ("7h 9h", "error", "same rank"),
        ("ld", "error", "you can capture"),
        ("declare", "error", "name the cards to declare"),
        ("7h 7d 7c", "actions", 1),  # incomplete: the one capture it could mean is asked
        ("declare 7h 7d", "error", "is not dead"),
        ("claim", "claim", ""),  # the watch referees every claim
        ("zz", "error", "is not a card"),
        ("c 7c 7s", "claim", "7c 7s"),
        ("", "pass", None),
        ("pass", "pass", None),
        ("quit", "quit", None),
        (":q", "quit", None),
        ("q", "error", "q alone is a rank: to leave the deal, type quit"),
        ("help", "info", None),
        ("moves", "info", None),
        ("hand", "info", None),
    ],
)
def test_interpret(sevens, text, kind, detail):
    intent = interpret(text, sevens, 0, NAMES)
    assert intent.kind == kind
    if kind == "actions":
        assert len(intent.actions) == detail
        assert all(sevens.why_illegal(a) is None for a in intent.actions)
    elif kind == "error":
        assert detail in intent.message
    elif kind == "claim":
        assert intent.name == detail


def test_moves_are_typed_back_as_themselves(sevens):
    for a in sevens.legal_actions():
        intent = interpret(action_code(a), sevens, 0, NAMES)
        assert intent.kind == "actions" and intent.actions == [a], action_code(a)


def test_not_your_turn_is_explained_with_names(rulesets):
    d = position(rulesets["parlett"], 3, hands=["7H", "2C", "3C"], table="7C", dealer=0, to_move=1)
    assert interpret("7h", d, 0, NAMES).message == "it is Anne's turn, not yours."


def test_illegal_input_is_explained_and_asked_again(sevens):
    out = quiet()
    lines = ["ld", "7h", "9", "2", "", "ld"] + [""] * 10
    p = DealPlayer(
        sevens,
        0,
        [None, Scripted(), Scripted()],
        bot_rng=random.Random(1),
        reaction_rng=random.Random(1),
        io=ScriptedIO(lines, out),
        names=NAMES,
    )
    p.run()
    text = text_of(out)
    assert "you can capture (" in text and "so you may not lie down" in text  # to the learner
    assert "Which table cards?" in text and "Type a number from 1 to 2" in text
    assert "7H 7C;" not in text  # the candidates are listed once, as cards
    assert p.deal.history[0] == Action.make(0, "capture", parse_cards("7H"), parse_cards("7S"))


# -- the review of mistakes ---------------------------------------------------------------------


def test_at_risk_capture_left_for_another(rulesets):
    # fives: two on the table, safe; the lone seven is at risk, and Anne holds the other one
    d = position(
        rulesets["parlett"],
        3,
        hands=["7H 5C 2D", "7C 3S", "4D 8H"],
        table="7S 5D 5S KH",
        dealer=2,
        to_move=0,
    )
    p = DealPlayer(
        d,
        0,
        [None, Scripted(), Scripted()],
        bot_rng=random.Random(1),
        reaction_rng=random.Random(1),
        io=ScriptedIO(at_turns(["5c 5d"]), quiet()),
        names=NAMES,
    )
    p.run()
    m = next(m for m in p.mistakes if m.kind == "at_risk_left")
    assert "Anne took it before your next turn" in m.text
    assert "a lone seven on the table" in m.reason and "2 fives on the table" in m.reason
    assert m.index == 0


def test_safe_capture_taken_too_early(rulesets):
    d = position(
        rulesets["parlett"],
        3,
        hands=["7H 5C 2D", "3S 3H", "4D 8H"],
        table="7S 5D 5S KH",
        dealer=2,
        to_move=0,
    )
    p = DealPlayer(
        d,
        0,
        [None, Scripted(), Scripted()],
        bot_rng=random.Random(1),
        reaction_rng=random.Random(1),
        io=ScriptedIO(at_turns(["5c 5d"] + ["ld", "7h"] * 5), quiet()),
        names=NAMES,
    )
    p.run()
    kinds = [m.kind for m in p.mistakes]
    assert kinds[0] == "safe_too_early"
    assert "while sevens was at risk" in p.mistakes[0].text


def test_laying_down_a_dead_pair_is_a_missed_declaration_and_claimable(rulesets):
    d = position(
        rulesets["parlett"],
        3,
        hands=["9C 9D 2H", "KD", "QS QH"],
        table="KS 3C",
        won=["", "9H 9S", ""],
        dealer=2,
        to_move=0,
    )
    out = quiet()
    p = DealPlayer(
        d,
        0,
        [None, Scripted(), Scripted()],
        bot_rng=random.Random(1),
        reaction_rng=random.Random(1),
        io=ScriptedIO(["ld"] + [""] * 9, out),
        names=NAMES,
    )
    p.run()
    m = [m for m in p.mistakes if m.kind == "missed_declaration"]
    assert len(m) == 1 and "dead pair of nines" in m[0].text
    assert "could be declared at once" in m[0].reason and "declare_dead_pair" not in m[0].reason
    claims = [a for a in p.deal.history if a.kind == "claim"]
    assert claims and claims[0].oversight == "laid_down_dead_pair" and claims[0].player != 0


def test_declaring_in_time_is_no_mistake(rulesets):
    d = position(
        rulesets["parlett"],
        3,
        hands=["9C 9D 2H", "KD", "QS QH"],
        table="KS 3C",
        won=["", "9H 9S", ""],
        dealer=2,
        to_move=0,
    )
    p = DealPlayer(
        d,
        0,
        [None, Scripted(), Scripted()],
        bot_rng=random.Random(1),
        reaction_rng=random.Random(1),
        io=ScriptedIO(["declare 9c 9d", "ld"] + [""] * 9, quiet()),
        names=NAMES,
    )
    p.run()
    assert not [m for m in p.mistakes if m.kind == "missed_declaration"]
    assert p.deal.history[0].kind == "declare_dead_pair"


def test_dealer_must_take_the_table_mournival_themselves(rulesets):
    rs = rulesets["parlett"]
    # find a deal whose table holds a mournival, with the learner dealing
    rng = random.Random(0)
    from tutor.engine.deal import new_deal

    while True:
        d = new_deal(rs, 5, 0, rng)
        if d.table_mournivals:
            break
    bots = [None] + [Scripted() for _ in range(4)]
    p = DealPlayer(
        d,
        0,
        bots,
        bot_rng=random.Random(1),
        reaction_rng=random.Random(1),
        io=ScriptedIO(EngineLearner({}, declares=False), quiet()),
        names=["You", "Anne", "Ralph", "Mary", "Tom"],
    )
    p.io._fn.holder["player"] = p
    p.run()
    assert any(m.kind == "mournival_not_taken" for m in p.mistakes)
    assert not any(a.kind == "take_table_mournival" for a in p.deal.history)


# -- the screen and the score sheet ---------------------------------------------------------------


def test_screen_fits_40_columns_and_has_letters_without_symbols(rulesets):
    from tutor.puzzles.board import render_screen

    rs = rulesets["parlett"]
    from tutor.engine.deal import new_deal

    d = new_deal(rs, 5, 3, random.Random(4))
    names = ["You", "Anne", "Ralph", "Mary", "Tom"]
    for width, symbols in ((40, True), (80, False)):
        c = quiet(width)
        c.print(render_screen(d, 0, names, symbols, title="Deal 1 of 1 · parlett · Mary deals"))
        lines = text_of(c).splitlines()
        assert all(len(x.rstrip()) <= width for x in lines)
        seat_lines = [x for x in lines if "hand 8" in x]
        assert len(seat_lines) == 5  # one line per seat, never wrapped
        assert any(x.startswith("Your hand:") for x in lines)
        if not symbols:
            assert not set("♣♦♥♠") & set(text_of(c))


def test_points_match_has_a_practice_game_and_the_sheet(rulesets):
    # the engine's plan (plan_games), as laugh match: the practice game is game 1 of round 1,
    # and the sheet is laugh match's sheet
    rs = rulesets["inter-livery-2018"]
    res, out, _ = run_match(rs, 5, LEVELS["club"], seed=3, deals=3)
    scored = [sum(d.returns()[q] for d in res.deals[1:]) for q in range(5)]
    assert res.totals == scored
    text = text_of(out)
    assert "Deal 1 of 3 (practice game)" in text
    assert "Deal 2 of 3 (game 2, round 1)" in text and "Deal 3 of 3 (game 3, round 1)" in text
    sheet = text[text.index("Score sheet: You") :]
    assert "3 of 3 games played" in sheet and "practice" in sheet
    rows = [line for line in sheet.splitlines() if line.startswith("│")]
    assert rows[0].split("│")[1].strip() == "1"  # game 1 ...
    assert f"({res.deals[0].returns()[0]}) practice" in rows[0]  # ... is the practice game
    mine = sum(d.returns()[0] for d in res.deals[1:])
    assert f"Cumulative score over the round: {mine}" in sheet


def test_a_format_match_longer_than_its_rounds_is_refused_before_any_deal(rulesets):
    from tutor.engine.errors import UsageError

    with pytest.raises(UsageError, match=r"2 rounds of 5 games \(10 deals\)"):
        run_match(rulesets["inter-livery-2018"], 5, LEVELS["club"], seed=3, deals=11)


def test_every_player_count_and_seat(library):
    for rid, rs in sorted(library.rulesets.items()):
        for n in rs.player_counts:
            seat = (len(rid) + n) % n
            res, out, _ = run_match(
                rs, n, LEVELS["beginner"], seed=n, seat=seat, rng=random.Random(n)
            )
            deal = res.deals[0]
            assert deal.is_terminal(), (rid, n)
            deal.check_invariants()
            assert f"seat {seat}" in text_of(out)


# -- the claim race, live (issue 14 item 2) --------------------------------------------------------


def test_claims_during_the_learners_turn_are_shown_as_they_happen(rulesets):
    # Ralph splits the table prial of sevens just before the learner's turn; Anne claims after
    # 1.0 s, while the learner (1.5 s) is still at the turn prompt: the claim appears above it
    # as it happens, and the learner's line is then read (the prompt was not closed)
    d = position(
        rulesets["parlett"],
        3,
        hands=["2C 3D", "4C 8H", "7H 5D 9S"],
        table="7C 7D 7S 5C 9H",
        dealer=0,
        to_move=2,
    )
    split = lambda a: a.kind == "capture" and a.table == tuple(parse_cards("7C"))  # noqa: E731
    out = quiet()
    clock = FakeClock([0.0, 1.5])
    p = DealPlayer(
        d,
        0,
        [None, Scripted(), Scripted(split)],
        bot_rng=random.Random(1),
        reaction_rng=random.Random(2),
        io=ScriptedIO(["", "ld"] + [""] * 10, out, clock),
        names=NAMES,
        claiming={1: Reaction(1.0, 1.0), 2: Reaction(2.5, 2.5)},
    )
    p.run()
    text = text_of(out)
    assert clock.reads[1] == (TURN_PROMPT, None, 1.5, False)
    assert clock.shown[1] is None  # no countdown: the same as any turn
    claim_at = text.index("Anne claims 7♦ 7♠")
    assert claim_at < text.index("You lie down")
    assert "Anne claimed first, in 1.00 s; you did not claim." in text
    assert p.races[0].winner == 1 and p.deal.history[2].kind == "lie_down"


def four_seat_split(rulesets):
    """Parlett, 4 players: Anne (seat 1) splits the table prial of sevens; Ralph claims after
    1.0 s and Mary after 1.4 s."""
    d = position(
        rulesets["parlett"],
        4,
        hands=["2C 3D", "7H 4C", "5D 6D", "9S 8S"],
        table="7C 7D 7S 5C 9H",
        dealer=0,
        to_move=1,
    )
    split = lambda a: a.kind == "capture" and a.table == tuple(parse_cards("7C"))  # noqa: E731
    return (
        d,
        [None, Scripted(split), Scripted(), Scripted()],
        {1: Reaction(2.5, 2.5), 2: Reaction(1.0, 1.0), 3: Reaction(1.4, 1.4)},
    )


@pytest.mark.parametrize(
    "delay,line",
    [
        (1.5, "Ralph claimed first, in 1.00 s: 0.40 s ahead of Mary (1.40 s); you did not claim."),
        (
            0.5,
            "You claimed first, in 0.50 s: 0.50 s ahead of Ralph, who took 1.00 s (timed from "
            "the moment it could be claimed until you pressed Enter).",
        ),
    ],
)
def test_the_race_result_names_who_was_first_and_by_how_much(rulesets, delay, line):
    d, bots, claiming = four_seat_split(rulesets)
    out = quiet()
    holder = {}
    p = DealPlayer(
        d,
        0,
        bots,
        bot_rng=random.Random(1),
        reaction_rng=random.Random(2),
        io=ScriptedIO(then_play(["", "claim 7d 7s"], holder), out, FakeClock([0.0, delay])),
        names=["You", "Anne", "Ralph", "Mary"],
        claiming=claiming,
    )
    holder["player"] = p
    p.run()
    assert line in " ".join(text_of(out).split())


def test_after_the_claim_key_the_cards_are_named_and_a_wrong_claim_is_false(rulesets):
    p, _, text = race(rulesets, ["", "claim", "zz", "7d", "9h 9s"], clock=VirtualClock(), pace=1.0)
    asker = p.io
    assert "You claim! Name the cards (or the rank)" in text
    # unreadable: asked again
    assert "could not read 'zz': not a card, a rank or a word of a claim" in text
    assert "Which cards? A claim names all the cards it takes" in text  # incomplete: again
    assert "A false claim: nothing of that is claimable (no open oversight covers 9♥ 9♠)." in text
    assert p.races[0].winner == 2
    assert [x for x in asker.log if x.startswith(NAME_PROMPT)] == [
        NAME_PROMPT + "zz",
        NAME_PROMPT + "7d",
        NAME_PROMPT + "9h 9s",
    ]


# -- the parameters of RULES.md 3.6 in play --------------------------------------------------------


def test_house_rules_play_to_settlement(house):
    for rid in ("house-any", "house-pot", "house-most", "house-pairs-pay"):
        rs = house[rid]
        n = rs.player_counts[-1]
        res, out, _ = run_match(
            rs, n, LEVELS["casual"], seed=len(rid), deals=2, rng=random.Random(rid)
        )
        assert all(deal.is_terminal() for deal in res.deals), rid
        for deal in res.deals:
            deal.check_invariants()
        text = text_of(out)
        assert text.count("Settlement") == 2, rid
        flat = " ".join(text.split())
        if rs.lie_down_pays is not None and any(deal.result.payments for deal in res.deals):
            assert "lying down:" in flat or "for lying down" in flat, rid
        if rs.scoring == "pot":
            assert re.search(
                r"Pot \d+ to [A-Za-z, ]+: (the last player in|whoever won most "
                r"cards) takes the pot\.",
                flat,
            ), rid
        if rid == "house-pairs-pay":
            assert "Match totals after 2 deals" in text
            totals = text.split("Match totals after 2 deals")[1]
            assert "points" in totals and "stakes" in totals


def test_settlement_table_reads_the_engines_breakdown(house):
    from tutor.app.play.sheet import settlement_table

    rs = house["house-any"]
    res, _, _ = run_match(rs, 5, LEVELS["beginner"], seed=4, rng=random.Random(4))
    deal = res.deals[0]
    c = quiet(100)
    c.print(settlement_table(deal, ["You", "Anne", "Ralph", "Mary", "Tom"], True))
    lines = text_of(c).splitlines()
    header = next(x for x in lines if x.startswith("player"))
    assert "ante" in header and "net" in header and "cards" in header
    if deal.result.payments:
        assert "paid" in header and "got" in header
    for row in deal.result.settlement:
        name = ["You", "Anne", "Ralph", "Mary", "Tom"][row.seat]
        line = next(x for x in lines if x.startswith(name))
        assert line.split()[-1] == f"{row.net:+d}", line


def test_several_captures_a_turn_end_turn_and_any_pair_declared(house):
    rs = house["house-any"]
    d = position(
        rs,
        4,
        hands=["7H 8H QC QD", "2C 3C", "4C 5C", "6C 2D"],
        table="7C 8C 9D",
        dealer=3,
        to_move=0,
    )
    out = quiet()
    asker = ScriptedIO(at_turns(["declare qc qd", "7h 7c", "moves", "", "8h 8c"]), out)
    p = DealPlayer(
        d,
        0,
        [None, Scripted(), Scripted(), Scripted()],
        bot_rng=random.Random(1),
        reaction_rng=random.Random(1),
        io=asker,
        names=NAMES + ["Mary"],
    )
    p.run()
    kinds = [(a.player, a.kind) for a in p.deal.history]
    assert kinds[:3] == [(0, "declare_pair"), (0, "capture"), (0, "end_turn")]
    text = text_of(out)
    assert "You declare a pair: Q♣ Q♦" in text and "You end the turn" in text
    assert "end turn" in text.split("Your moves:")[1].splitlines()[0]


def test_lying_down_pays_and_the_payment_is_said(house):
    rs = house["house-any"]
    d = position(
        rs, 4, hands=["2C 3D", "KD 3H", "4C 5C", "6C 2D"], table="7C 8C 9D", dealer=3, to_move=0
    )
    out = quiet()
    p = DealPlayer(
        d,
        0,
        [None, Scripted(), Scripted(), Scripted()],
        bot_rng=random.Random(1),
        reaction_rng=random.Random(1),
        io=ScriptedIO(["ld"] + [""] * 20, out),
        names=NAMES + ["Mary"],
    )
    p.run()
    assert "You pay 1 stake to each player still in for lying down: Anne, Ralph, Mary." in " ".join(
        text_of(out).split()
    )
    assert p.deal.result.settlement[0].paid == 3


def test_settlement_at_40_columns_is_a_line_a_seat(house):
    from tutor.app.play.sheet import settlement_table

    rs = house["house-any"]
    res, _, _ = run_match(rs, 5, LEVELS["beginner"], seed=4, rng=random.Random(4))
    deal = res.deals[0]
    c = quiet(40)
    c.print(settlement_table(deal, ["You", "Anne", "Ralph", "Mary", "Tom"], True))
    text = text_of(c)
    assert "…" not in text and all(len(x.rstrip()) <= 40 for x in text.splitlines())
    flat = " ".join(text.split())
    for name, row in zip(["You", "Anne", "Ralph", "Mary", "Tom"], deal.result.settlement):
        assert re.search(rf"{name}( D)?: .*?net {re.escape(f'{row.net:+d}')}", flat), name


# -- the play screen's glue: a claim made for a coach, one claim key, paths kept whole ---------


def test_a_claim_made_beside_the_learner_is_refereed_as_any_claim(rulesets):
    # a coach asks before it speaks and passes the learner's line on (DealPlayer.claim, with
    # or without the word claim): a naming of nothing is a false claim, then the real one wins
    from tutor.app.play.practice_deal import DealObserver

    class Asking(DealObserver):
        def __init__(self, lines):
            self.lines = list(lines)

        def prompt(self, player, where):
            while where == "watch" and player.deal.open_oversights() and self.lines:
                player.claim(self.lines.pop(0), player.clock.now())
            return False

    d, bots, claiming = split_prial_position(rulesets)
    out = quiet()
    holder = {}
    asking = Asking(["9h 9s", "claim 7d 7s"])
    p = DealPlayer(
        d,
        0,
        bots,
        bot_rng=random.Random(1),
        reaction_rng=random.Random(2),
        io=ScriptedIO(then_play([], holder), out, VirtualClock()),
        names=["You", "Anne", "Ralph"],
        pace=1.0,
        claiming=claiming,
        observer=asking,
    )
    holder["player"] = p
    p.run()
    text = " ".join(text_of(out).split())
    assert asking.lines == []
    assert "A false claim: nothing of that is claimable (no open oversight covers 9♥ 9♠)." in text
    assert p.races[0].winner == 0 and p.races[0].kind == "split_prial"
    assert [s.outcome for s in p.sightings] == ["false_claim", "hit"]


def test_the_coach_uses_no_private_part_of_the_play_screen():
    from tutor.app import coached_deal

    source = open(coached_deal.__file__, encoding="utf-8").read()
    assert not re.findall(r"\bplayer\._\w+", source)


def test_the_claim_key_and_the_naming_prompt_are_defined_once():
    # one definition (the play's input words), the table client's and the deal's the same
    import pathlib

    import tutor
    from tutor.app.play import inputs, practice_deal
    from tutor.app.tables import client

    assert client.CLAIM_KEYS is inputs.CLAIM_KEYS
    assert practice_deal.CLAIM_KEYS is inputs.CLAIM_KEYS
    assert client.NAME_PROMPT == practice_deal.NAME_PROMPT == inputs.NAME_PROMPT
    root = pathlib.Path(tutor.__file__).parent
    defined = [
        f
        for f in root.rglob("*.py")
        if re.search(r"^(NAME_PROMPT|CLAIM_KEYS)\s*=", f.read_text("utf-8"), re.M)
    ]
    assert defined == [root / "app" / "play" / "inputs.py"]


def _saved_lines(out: Console, path) -> list[str]:
    lines = [x.rstrip() for x in text_of(out).splitlines()]
    assert len(str(path)) > 40  # (a temporary folder: wider than the screen)
    assert all(len(x) <= 40 for x in lines if str(path) not in x)
    return lines


def test_leaving_a_deal_at_40_columns_says_the_saved_path_whole_on_its_own_line(rulesets):
    # the end of input (Ctrl-D) at the learner's first prompt: the record is saved, then said
    from tutor.app.play.session import records_dir

    out = quiet(40)
    with pytest.raises(EOFError):
        play_match(
            PlayOptions(rulesets["parlett"], 3, 1, 0, LEVELS["beginner"], 2, 0.0, None, True, 0),
            io=ScriptedIO([""], out, VirtualClock()),
        )
    (path,) = records_dir().glob("play-*.jsonl")
    lines = _saved_lines(out, path)
    at = lines.index(f"{path}.")
    assert lines[at - 1].startswith("Saved deal 1 so far (") and lines[at - 1].endswith(" to")


def test_a_finished_deal_at_40_columns_says_the_saved_path_whole_on_its_own_line(rulesets):
    from tutor.app.play.session import records_dir

    holder: dict = {}
    learner = EngineLearner(holder)
    import tutor.app.play.session as session

    orig = session.DealPlayer

    class Hooked(orig):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            holder["player"] = self

    out = quiet(40)
    session.DealPlayer = Hooked
    try:
        play_match(
            PlayOptions(rulesets["parlett"], 3, 1, 0, LEVELS["beginner"], 2, 0.0, None, True, 0),
            io=ScriptedIO(learner, out, VirtualClock()),
        )
    finally:
        session.DealPlayer = orig
    (path,) = records_dir().glob("play-*.jsonl")
    lines = _saved_lines(out, path)
    at = lines.index(str(path))
    assert lines[at - 1] == "Deal record saved to"


def test_a_live_tables_settlement_is_drawn_as_offline_plays(house):
    """One drawing (issue 29): what a table client makes of the server's ``deal_over`` is the
    sheet offline play makes of the deal itself, for every ruleset (set-aside mournivals,
    payments, pots and leftovers among them), and draws the same lines."""
    from tutor.app.play.sheet import SettlementSheet, settlement_renderable, settlement_table
    from tutor.app.tables._screens import settlement_view, sheet_of_message
    from tutor.app.tables.messages import DealOver
    from tutor.app.tables.protocol import read_server
    from tutor.app.tables.table import settlement_fields
    from tutor.engine.deal import new_deal

    seen: set[str] = set()
    for rid, rs in sorted(house.items()):
        n = min(rs.counts)
        aside = rs.game(n).sets_aside_table_mournival
        for seed in range(4 if aside else 3):
            rng = random.Random(seed)
            deal = new_deal(rs, n, seed % n, rng) if seed < 3 else _mournival_aside(rs, n, rng)
            while not deal.is_terminal():
                deal.apply(rng.choice(deal.legal_actions()))
            msg = read_server(
                json.dumps(
                    {
                        "v": 1,
                        "type": "deal_over",
                        "table": 1,
                        "game": "Deal 1",
                        "practice": False,
                        "names": [],
                        "unit": rs.unit,
                        "totals": [0] * n,
                        "deals": 1,
                        "of": 1,
                        **settlement_fields(deal),
                    }
                )
            )
            assert isinstance(msg, DealOver)
            sheet = sheet_of_message(msg, rs)
            assert sheet == SettlementSheet.of_deal(deal), rid
            names = [f"P{q}" for q in range(n)]
            offline, live = quiet(100), quiet(100)
            offline.print(settlement_table(deal, names, True))
            live.print(settlement_renderable(sheet, names, True))
            assert text_of(offline) == text_of(live)
            shown = quiet(100)
            totals = [7 - 5 * q for q in range(n)]  # a loser's running total too
            shown.print(settlement_view(msg.model_copy(update={"totals": totals}), 0, names, rs))
            seen_text = text_of(shown)
            assert "Settlement · Deal 1" in seen_text and "▶ P0" in seen_text
            for q in range(n):
                row = next(line for line in seen_text.splitlines() if f" P{q}" in line)
                assert row.split()[-1] == str(totals[q]), (row, totals)
            seen |= {
                k for k in ("payments", "set_aside", "pot_to", "leftovers") if getattr(sheet, k)
            }
    assert seen == {"payments", "set_aside", "pot_to", "leftovers"}, seen


def _mournival_aside(rs, n, rng):
    """A deal of ``rs`` for ``n`` whose table mournival (the four 6s) is set aside at the deal
    (RULES.md 3.1, ``table_mournival: set_aside_for_last_in``)."""
    from tutor.engine.cards import RANKS, make_card
    from tutor.engine.deal import Deal

    count = rs.count(n)
    sixes = [make_card(RANKS.index("6"), s) for s in range(4)]
    rest = [c for c in range(52) if c not in sixes]
    rng.shuffle(rest)
    hands = [rest[q * count.hand : (q + 1) * count.hand] for q in range(n)]
    table = rest[n * count.hand : n * count.hand + count.table - 4]
    return Deal.from_position(rs, n, 0, hands=hands, table=table, set_aside=sixes)
