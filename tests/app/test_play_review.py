"""The review after a practice deal counts (issue 10 item 3): the learner's costliest decisions in
stakes by the engine's analysis, each with a sentence of why from the counting facts; the same
figures as ``laugh analyse`` with the review's seed; ``hint`` at the prompt; the expert level;
and the progress bar on a terminal."""

from __future__ import annotations

import io
import random
import re

from rich.console import Console
from test_play import EngineLearner, quiet, run_match, text_of

from tutor.app.clock import VirtualClock
from tutor.app.learner_io import ScriptedIO, TerminalIO
from tutor.app.play import LEVELS
from tutor.app.play.practice_deal import TURN_PROMPT
from tutor.app.play.review import DealReview, hint, review_deal, review_seed
from tutor.app.play.session import PlayOptions, play_match, review_with_progress
from tutor.app.play.sheet import review_renderable
from tutor.engine.analysis import annotate
from tutor.engine.bots import make_bot, play_out
from tutor.engine.cards import parse_cards
from tutor.engine.deal import Action, Deal
from tutor.engine.expert import ExpertBot
from tutor.engine.levels import EXPERT_SAMPLES, seat_names


def _deal_from(rs, players, dealer, hands: dict[int, str], table: str, seed: int = 0) -> Deal:
    """A deal whose pack gives the named seats the named hands and the table the named cards;
    the other seats get the rest, shuffled by ``seed``."""
    pc = rs.count(players)
    named = {q: parse_cards(h) for q, h in hands.items()}
    tab = parse_cards(table)
    used = set(tab).union(*named.values())
    rest = [c for c in range(52) if c not in used]
    random.Random(seed).shuffle(rest)
    full = {q: named.get(q) or [rest.pop() for _ in range(pc.hand)] for q in range(players)}
    eldest = (dealer + 1) % players
    pack = [0] * 52
    for q in range(players):
        for i, c in enumerate(full[q]):
            pack[((q - eldest) % players) + i * players] = c
    pack[players * pc.hand :] = tab
    return Deal(rs, players, dealer, pack)


def _lone_seven(rulesets) -> Deal:
    # the learner (seat 1, eldest) may take a lone seven, whose two unseen twins are in
    # opponents' hands, or all three queens, which nobody else can ever take
    return _deal_from(
        rulesets["parlett"],
        5,
        0,
        {1: "7C QC 6C 6D TC JC KC KD"},
        "7D QD QH QS AC AD 2C 3C 4C 5C 8C 9C",
    )


def test_a_costly_capture_is_named_with_its_loss_and_the_counting_behind_it(rulesets):
    d = _lone_seven(rulesets)
    queens = Action.make(1, "capture", parse_cards("QC"), parse_cards("QD QH QS"))
    d.apply(queens)  # the learner leaves the lone seven
    play_out(d, [make_bot("counter") for _ in range(5)], random.Random(2))
    names = seat_names(5, 1)
    review = review_deal(d, 1, names, samples=200)
    top = review.costly[0]
    assert top.index == 0 and top.played == queens
    assert top.best == Action.make(1, "capture", parse_cards("7C"), parse_cards("7D"))
    assert top.verdict in ("mistake", "blunder") and top.loss - top.loss_ci95 > 0
    assert top.unit == "stakes" and review.unit == "stakes"
    assert top.why.startswith(
        "Take a lone table card that you can match before someone else "
        "does. The lone seven on the table (7♦) is at risk: 2 sevens "
        "unseen, and Anne, Ralph, Mary and Tom move before your next turn; "
        "the queens can wait"
    )
    assert top.clear and top.then is None
    assert len(review.costly) <= 3
    assert review.costly == tuple(sorted(review.costly, key=lambda c: -c.loss))
    # drawn in the review: action number, loss class, loss, what was played, what was best, why
    c = quiet(80)
    c.print(review_renderable([], (), review=review, names=names, seat=1))
    text = " ".join(text_of(c).split())
    assert "Your costliest decisions" in text
    assert re.search(
        rf"1\. Action 1: {top.verdict}, −{top.loss:.2f} stakes \(± "
        rf"{top.loss_ci95:.2f}\)",
        text,
    )
    assert "You capture Q♦ Q♥ Q♠ with Q♣; best: you capture 7♦ with 7♣." in text
    assert "The lone seven on the table (7♦) is at risk" in text


def test_the_review_is_reproducible_and_gives_laugh_analyses_figures(rulesets):
    # the review of a practice deal (in-process, through the prompts) with its seed from the deal
    rs = rulesets["parlett"]
    res, out, _ = run_match(rs, 5, LEVELS["club"], seed=3, rng=random.Random(3), review_samples=100)
    deal, review = res.deals[0], res.reviews[0]
    assert len(review.costly) == 2 and review.samples == 100
    assert review.seed == review_seed(deal)
    # the same figures as laugh analyse RECORD --seat 0 --seed SEED --samples 100
    by_index = {x.index: x for x in annotate(deal, [0], seed=review.seed, samples=100)}
    assert len(by_index) == review.decisions
    for c in review.costly:
        x = by_index[c.index]
        assert (c.loss, c.loss_ci95, c.verdict, c.played) == (
            x.loss,
            x.loss_ci95,
            x.verdict,
            x.played,
        )
    assert abs(review.total_loss - sum(x.loss for x in by_index.values())) < 1e-9
    again = review_deal(deal, 0, res.names, samples=100)
    assert [(c.index, c.loss, c.why) for c in again.costly] == [
        (c.index, c.loss, c.why) for c in review.costly
    ]
    text = " ".join(text_of(out).split())
    assert (
        "Review of your play" in text
        and "Your costliest decisions (the engine's analysis "
        f"of your {review.decisions} decisions, up to 100 deals played out each"
        in text
    )
    for i, c in enumerate(review.costly, 1):
        assert f"{i}. Action {c.index + 1}: {c.verdict}, −{c.loss:.2f} stakes" in text


def test_no_review_when_asked_for_none(rulesets):
    res, out, _ = run_match(rulesets["parlett"], 5, LEVELS["club"], seed=3, review_samples=0)
    assert res.reviews == [None]
    assert "Review of your play" in text_of(out) and "costliest" not in text_of(out)


def test_hint_at_the_prompt_gives_the_best_option_and_its_margin(rulesets):
    d = _lone_seven(rulesets)
    names = seat_names(5, 1)
    got = hint(d, 1, names)
    assert got.analysis.best.action.cards == tuple(parse_cards("7C"))
    second = next(o for o in got.analysis.options if o.group != got.analysis.best.group)
    assert got.text.startswith("Best: capturing 7♦ with 7♣, expected ")
    assert (
        f"{-second.diff:.2f} ± {second.diff_ci95:.2f} stakes better than the next best" in got.text
    )
    assert hint(d, 1, names).text == got.text  # the same position, the same
    assert hint(d, 2, names).text == "Nothing to decide now."  # not seat 2's turn

    # at the prompt of a practice deal: hint, then the move
    holder: dict = {}
    learner = EngineLearner(holder)
    asked = []

    def answers(prompt):
        if prompt == TURN_PROMPT and not asked:
            asked.append(prompt)
            return "hint"
        return learner(prompt)

    import tutor.app.play.session as session

    orig = session.DealPlayer

    class Hooked(orig):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            holder["player"] = self

    session.DealPlayer = Hooked
    try:
        out = quiet(80)
        res = play_match(
            PlayOptions(rulesets["parlett"], 5, 1, 0, LEVELS["club"], 3, 0.0, None, False, 0),
            io=ScriptedIO(answers, out),
        )
    finally:
        session.DealPlayer = orig
    text = " ".join(text_of(out).split())
    assert ("Hint: Best: " in text and "better than the next best" in text) or (
        "Hint: No move is clearly best: " in text and "are about equal" in text
    )
    assert res.players[0].hints == 1 and res.deals[0].is_terminal()


def test_the_review_shows_a_progress_bar_on_a_terminal_only_when_it_takes_a_while(monkeypatch):
    import tutor.app.play.session as session

    empty = DealReview(2, (), 0.0, "stakes", 10, 1, 0.0)

    clock = VirtualClock()  # the terminal's clock, injected: the work takes its time

    def slow(deal, seat, names, samples, symbols, progress=None):
        progress(0, 2, 0)
        clock.advance(0.3)
        progress(1, 2, 5)
        progress(2, 2, 0)
        return empty

    def fast(deal, seat, names, samples, symbols, progress=None):
        for done in (0, 1, 2):
            progress(done, 2, 0)
            clock.advance(0.05)
        return empty

    for fn, shown in ((slow, True), (fast, False)):
        monkeypatch.setattr(session, "review_deal", fn)
        term = Console(file=io.StringIO(), width=80, force_terminal=True, color_system=None)
        assert review_with_progress(None, 0, [], 10, TerminalIO(term, clock, True)) is empty
        assert ("Reviewing your decisions" in term.file.getvalue()) is shown


def test_the_expert_level_plays_the_expert_with_a_sample_budget(rulesets):
    bot = LEVELS["expert"].make()
    assert isinstance(bot, ExpertBot) and bot.samples == EXPERT_SAMPLES and bot.seconds is None
    assert bot.reaction_range == LEVELS["expert"].reaction
    assert "playing it out" in LEVELS["expert"].summary


def test_why_a_missed_claim_and_a_dead_pair_laid_down_cost(rulesets):
    # the example deal with oversights: Anne (seat 1) lies down holding a dead pair of threes,
    # and the learner at seat 0 lets the claim go by
    import json
    from pathlib import Path

    from tutor.engine.records import replay

    d = replay(
        json.loads(
            (
                Path(__file__).resolve().parent.parent
                / "data"
                / "examples"
                / "parlett-5-oversights.json"
            ).read_text()
        )
    )
    mine = review_deal(d, 0, seat_names(5, 0), samples=100)
    hold = next(c for c in mine.costly if c.played is None)
    assert hold.best.kind == "claim" and hold.verdict in ("mistake", "blunder")
    assert hold.why == (
        "The claim of 3♣ 3♠ was open, and the first claim takes the cards: "
        "Ralph, Mary and Tom could claim it too."
    )
    theirs = review_deal(d, 1, seat_names(5, 1), samples=100)
    # lying down holding a dead pair is a question of timing: declare it first, or lie down
    # with it (then it is too late)
    laid = next(c for c in theirs.costly if c.played is None and c.then.kind == "lie_down")
    assert laid.best.kind == "declare_dead_pair"
    assert laid.why == (
        "You lay down holding your dead pair (3♣ 3♠). Of the threes: 2 in your "
        "hand, 2 won, 0 on the table, 0 unseen: nobody else holds one."
    )
    c = quiet(80)
    c.print(review_renderable([], (), review=mine, names=seat_names(5, 0), seat=0))
    assert "You neither claim nor declare; best: you claim 3♣ 3♠" in " ".join(text_of(c).split())


def _prial_position(rs):
    """A new parlett deal where eldest holds a prial (a free declaration) and has at least two
    different captures."""
    from tutor.engine.analysis import option_class
    from tutor.engine.deal import new_deal

    k = 0
    while True:
        d = new_deal(rs, 5, 0, random.Random(f"prial/{k}"))
        k += 1
        decl = [a for a in d.free_actions(1) if a.kind == "declare_prial"]
        if decl and len({option_class(d, a) for a in d.legal_actions()}) >= 2:
            return d, decl[0]


def test_a_declaration_is_timed_against_the_turn_never_weighed_against_it(rulesets):
    """Issue 20: "You declare a dead pair" was called an inaccuracy because a capture was best,
    though under Parlett's rules the declaration is free.  A declaration made by the player to
    move is weighed against making the same turn first and declaring after it."""
    from tutor.engine.analysis import decision_points

    d, decl = _prial_position(rulesets["parlett"])
    names = seat_names(5, 1)
    got = hint(d, 1, names)
    first, second = got.text.splitlines()
    assert first.startswith(("Best: capturing", "No move is clearly best"))
    assert second.startswith("Declaring a pair of your prial")
    assert any(w in second for w in ("now or after", " now, before ", "can wait: after"))
    assert got.timing.then == got.analysis.best.action
    assert {o.action for o in got.timing.options} == set(d.free_actions(1)) | {None}
    assert all(o.action.kind in ("capture", "lie_down") for o in got.analysis.options)
    # the learner declares, then captures; the deal is played out and reviewed
    d.apply(decl)
    x = d.legal_actions()[0]
    d.apply(x)
    play_out(d, [make_bot("counter") for _ in range(5)], random.Random(4))
    points = decision_points(d, [1])
    timed = next(p for p in points if p.played == decl)
    assert timed.then == x and timed.which == "free"
    review = review_deal(d, 1, names)
    for c in review.costly:
        if c.played == decl:
            # costly only if making it now rather than after the capture really cost
            assert c.then == x and c.loss - c.loss_ci95 > 0
            assert c.analysis.value_of(None).mean > c.analysis.value_of(decl).mean


def test_ties_are_said_as_ties(rulesets):
    """A hint names a best move only when the intervals separate it; otherwise it says which
    moves are about equal."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from bench_analysis import sample_positions

    seen = set()
    for d, seat in sample_positions(rulesets["parlett"], 14, 5):
        got = hint(d, seat, seat_names(5, seat))
        an = got.analysis
        head = got.text.splitlines()[0]
        if an.forced:
            seen.add("forced")
            assert head.startswith("Only one")
        elif an.identical():
            seen.add("identical")
            assert "gives the same result in every one of" in head
        elif an.separated:
            seen.add("best")
            assert head.startswith("Best: ")
            second = an.runner_up
            assert second.diff + second.diff_ci95 < 0
        else:
            seen.add("tie")
            what = "move" if d.to_move == seat else "choice"  # a free action's timing
            assert head.startswith(f"No {what} is clearly best") and "Best" not in head
            alike = an.alike()
            assert len(alike) >= 2 and all(not o.separated for o in alike[1:])
    assert {"best", "tie"} <= seen


def test_a_position_set_by_hand_has_no_review_seed_and_says_so_in_one_line(rulesets):
    # a review is seeded by the shuffled pack; a position set by hand has none (it was a
    # TypeError from unpacking None)
    import pytest
    from support import position

    from tutor.engine.errors import UsageError

    d = position(
        rulesets["parlett"],
        3,
        hands=["2C 3D", "7H 4C", "5D 6D 9S"],
        table="7C 7D 5C 9H",
        dealer=0,
        to_move=1,
    )
    for ask in (lambda: review_seed(d), lambda: review_deal(d, 0, ["You", "Anne", "Ralph"])):
        with pytest.raises(UsageError, match="^a position set by hand has no shuffled pack"):
            ask()
