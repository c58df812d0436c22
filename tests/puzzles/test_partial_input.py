"""No multiple-choice puzzle is answered from its wording alone (issue 42 finding 1).

A partial-input learner (:mod:`partial_input`: a logistic regression over the question's and
options' words, positions, lengths and repeated values; no board, no rules, no sources),
cross-validated by quotation, answers every multiple-choice kind's puzzles: its accuracy is at
most chance + 0.10 (best-move + 0.15, where rules of thumb are real knowledge), chance worked
out per item.  A few hundred puzzles a kind by default (fewer for best-move, whose generation
analyses positions), 2,000 a kind under ``-m slow``.  Each kind's accuracy and chance are
printed (``-s`` shows them).

Why it is grouped as it is.  A puzzle with no position (reading, source-quiz, deal-setup,
timeline) tests a fact: how a source's sentence gives a rule, which source wrote a sentence,
what a ruleset does, when a record was made.  A learner that answers "which two of these do
Parlett's stakes and the Inter-Livery sheet disagree on?" from other puzzles asking about the
same rulesets has learnt their rules, as a flash card teaches them; that is knowledge, not a
cue, and the puzzle asked again is answered by whoever learnt it.  So items that test a fact
in common (:func:`partial_input.facts`: the ruleset's source and the parameter; a quoted
sentence; a dated record) are in one group, as are those showing one quotation: what is tested
was never in the training half, and what the learner still knows is what the wording gives
away (a base rate the question's words select, a word shared with the right option, a value
named more often with one answer).  Puzzles about a position are grouped by quotation only:
their fact is the position, new each time.  The stem x option pairs leave the quotations out
(the quoted text is the evidence the puzzle asks to read: pairing a sentence's words with its
source or its value is reading it).

Before the generators were changed (issue 42), over 300 puzzles a kind (48 best-move, 1,000
legal-play): claim-window 1.00 (chance 0.25), deal-setup's choice form 0.87 (0.33), reading 0.66
(0.28) and its words 0.88 (0.40), legal-play with one right letter 0.82 (0.37), source-quiz 0.55
(0.30), keep 0.31 (0.25), timeline 0.31 (0.33).  Deal-setup's choice form was later asked
either way round over its two real rules (0.87 of 0.33 -> 0.39 of 0.50; with the stem x option
pairs below, 0.87 of 0.50 again: the way round told the answer), then of two rulesets side by
side, which does what (0.87 -> 0.57 of 0.50 over 300, 0.50 over 1,200), and legal-play's
one-allowed-move puzzles given decoys worded as the move is (0.75 of 0.36 -> 0.34 of 0.33),
and source-quiz's "which source" asked of each source in turn (0.48 of 0.30 -> 0.27 of 0.30).
"""

from __future__ import annotations

import pytest
from drawn import drawn
from partial_input import Item, cross_validate, items, score_puzzles

import tutor.puzzles as P
from tutor.engine.sources import default_library

#: The partial-input and nudge-probe tests in one xdist worker (``--dist loadgroup``): they draw
#: the same puzzles (tests/puzzles/drawn.py keeps one drawing a process), so one worker draws
#: them once instead of each worker drawing them again.
pytestmark = pytest.mark.xdist_group("choice_puzzles")

#: How far above chance the learner may score, and best-move's allowance.
MARGIN = 0.10
MARGINS = {"best-move": 0.15}

#: The kinds with single-choice questions (``test_no_other_kind_asks_a_single_choice`` keeps
#: the list whole), and the spec drawn for each (deal-setup: its choice form only).
CHOICE_KINDS = {
    "best-move": "best-move",
    "claim-window": "claim-window",
    "deal-setup": "deal-setup/mournival-dealt",
    "keep": "keep",
    "legal-play": "legal-play",
    "reading": "reading",
    "source-quiz": "source-quiz",
    "timeline": "timeline",
}

#: The kinds that ask questions of several forms, and each puzzle's form: each form is scored
#: apart (source-quiz's "which two rulesets disagree" scored 0.59 of 0.29 beside its "which
#: source" at 0.14 of 0.30, 0.27 of 0.30 together).
FORMS = {
    "reading": lambda p: p.theme,
    "source-quiz": lambda p: p.variant,
    "timeline": lambda p: p.variant,
}

#: Puzzles drawn a kind by default (best-move analyses positions: a fifth of a second each;
#: about a quarter of legal-play's have one right letter; reading's side by side is a third of
#: its puzzles in six quotation groups: over 300 it read 0.57-0.60 of 0.47, over 600 to 2,000
#: 0.30-0.36).
DEFAULT = {"best-move": 40, "legal-play": 500, "reading": 1000}
DEFAULT_OTHERS = 300
SLOW = 2000

#: Kinds another change of issue 42 (item 4) makes valid: an excess is expected, not asserted.
OTHERS: set[str] = set()
OTHERS_REASON = "issue 42 item 4, another change"
#: Kinds whose generators still give answers away (issue 42 items 1-2, not done): none.
#: Reading was: its status form offered each value as an option (the learner learnt each
#: parameter's majority value from the options' words) and asked which words decide it (an
#: option holding a value's words was right); measured over 300 puzzles, 0.47 of 0.23 and its
#: words 0.73 of 0.37.  Its status form now names a value in the question and offers the same
#: four options every time, the answer drawn in turn (reading.yaml, version 6): 0.27 of 0.25.
#: Its side by side (scored apart since) was 0.45 of 0.31: the wrong sentences all gave one
#: value, and the one least like the others was right; now one sentence a value, every value
#: asked in turn, and the sets where the right sentence shares most words with the question
#: kept only as often as those where it shares fewest: 0.37 of 0.47 over 2,000 puzzles.
#: Best-move, over 200 puzzles: 0.62 of 0.40 when some options ended "(or the same with other
#: suits)" and each showed the class's lowest suit (a club: another of the rank in hand); both
#: gone (best-move.yaml, version 3), 0.43 of 0.39.  The default 40 puzzles are a rough check.
#: The stem x option pairs (issue 42, item 1): the learner above matched the stem's words with
#: an option's only where they were the same words, so it could not learn "a question that
#: names X is answered Y".  With the pairs, 300 puzzles a kind, grouped by quotation alone:
#: reading's status form 0.61 of 0.25, side by side 0.57 of 0.47, source-quiz's disagreement
#: 0.78 of 0.28, deal-setup's choice 0.87 of 0.50, claim-window 0.60 of 0.25 (with the
#: quotations' words in the pairs too, which-source 0.64 of 0.30 and timeline's record 0.69 of
#: 0.50: the learner was reading the evidence, see partial_input).  Grouped by fact as well
#: (partial_input.facts): the disagreement falls to 0.20 of 0.28 (it had learnt which ruleset
#: stands apart on which rule from other pairs of the same rulesets: the rules, not a cue).
#: Reading's status form was 0.70 of 0.25 grouped by fact: the value named and the parameter
#: told the status across sources (free actions are read in every source but one); its plan
#: now draws the puzzles that guess (the answer the other sources give most often for the
#: value named, reading.status_guess) one time in four (reading.yaml, version 7): 0.30.
#: Claim-window was 0.60 of 0.25 (0.66 over 2,000): "you capture ..." was always answered "you
#: made it yourself" (the generator never showed the learner's own move that was no mistake),
#: and "... claims ..." among the actions since mostly "too few of them are still on the
#: table" (a window closes only by a claim: the cards left are ones nobody else holds).  Now
#: the question names the action by its form and how long ago, the board shows who made it and
#: every action since, and the form, the learner's own action or another's and how long ago
#: are drawn whatever the case (claim-window.yaml, version 3): 0.25 of 0.25.
#: The forms still above chance + margin, by form (``kind:form``, or the kind where it has one
#: form), and why: the test asserts every other form and prints these.
NOT_YET: dict[str, str] = {}


def draw(kind: str, total: int) -> list[P.Puzzle]:
    """``total`` puzzles of ``kind`` (fewer where a themed search lands twice on one), seeds
    round-robin over every ruleset and player count the kind applies to."""
    lib = default_library()
    spec = CHOICE_KINDS[kind]
    combos = [(r, n) for r in P.applicable_rulesets(kind) for n in lib.rulesets[r].player_counts]
    stride = 64 if "/" in spec else 1  # a themed search runs on from its seed
    out: dict[str, P.Puzzle] = {}
    for i in range(total):
        r, n = combos[i % len(combos)]
        p = drawn(spec, r, n, (i // len(combos)) * stride)
        out.setdefault(p.id, p)
    return list(out.values())


def _check(kind: str, total: int) -> None:
    scores = score_puzzles(draw(kind, total), FORMS.get(kind))
    assert scores, f"{kind}: no single-choice item found"
    lines = [s.line() for s in scores.values()]
    print("\n" + "\n".join(lines))
    margin = MARGINS.get(kind, MARGIN)
    over = [
        s.line()
        for s in scores.values()
        if s.accuracy > s.chance + margin and s.name not in NOT_YET
    ]
    known = [f"{s.name}: {NOT_YET[s.name]}" for s in scores.values() if s.name in NOT_YET]
    if known:
        print("not yet (issue 42): " + "; ".join(known))
    assert not over, f"learner above chance + {margin:.2f}: {over}"


def _params(kinds) -> list:
    return [
        pytest.param(k, marks=pytest.mark.xfail(strict=False, reason=OTHERS_REASON))
        if k in OTHERS
        else k
        for k in kinds
    ]


@pytest.mark.parametrize("kind", _params(CHOICE_KINDS))
def test_the_wording_alone_answers_no_better_than_chance(kind):
    _check(kind, DEFAULT.get(kind, DEFAULT_OTHERS))


@pytest.mark.slow
@pytest.mark.parametrize("kind", _params(CHOICE_KINDS))
def test_the_wording_alone_answers_no_better_than_chance_over_2000(kind):
    _check(kind, SLOW)


@pytest.mark.parametrize("kind", [k for k in P.KINDS if k not in CHOICE_KINDS])
def test_no_other_kind_asks_a_single_choice(kind):
    """Every kind with lettered options is in :data:`CHOICE_KINDS` (a new one is measured)."""
    lib = default_library()
    combos = [(r, n) for r in P.applicable_rulesets(kind) for n in lib.rulesets[r].player_counts]
    count = 4 if P.generators.kind_of(kind).analysed else 24
    sample = [drawn(kind, *combos[i % len(combos)], i // len(combos)) for i in range(count)]
    assert [it.pid for p in sample for it in items(p)] == []


def _planted(cue: str, count: int = 200) -> list[Item]:
    """Items whose right option carries ``cue``; their words otherwise alike."""
    out = []
    for i in range(count):
        right = (i * 7) % 4
        opts = [f"the value {(i + j) % 5} of the rule" for j in range(4)]
        if cue == "longest":
            opts[right] += " as written in the source"
        elif cue == "shown twice":
            opts[right] = "the text says: " + opts[right]
            opts[(right + 1) % 4] = "a close reading gives: " + opts[right].split(": ")[1]
        out.append(Item("planted", str(i), f"Question {i}: which?", opts, right))
    return out


@pytest.mark.parametrize("cue", ["longest", "shown twice"])
def test_the_learner_finds_a_planted_cue(cue):
    """The learner is not blind: where the right option is the longest, or its value is shown
    twice (issue 42 finding 5), it answers nearly every item."""
    score = cross_validate("planted", _planted(cue))
    assert score.accuracy >= 0.9, score.line()


def test_items_are_read_from_the_question():
    """A reading puzzle gives one item, with one right option; a legal-play puzzle with several
    legal moves gives none."""
    p = P.generate("reading", "porges", 4, 0)
    its = items(p)
    assert [it.name for it in its] == ["reading"]
    assert [it.options[it.right] for it in its] == [
        p.question.split(f"{p.accepted[0]}) ")[1].splitlines()[0]
    ]
    several = next(
        q
        for s in range(40)
        if len((q := P.generate("legal-play", "parlett", 4, s)).answer["right"]) > 1
    )
    assert items(several) == []


def test_items_testing_one_fact_share_a_group():
    """Setup questions about one source's rule (Parlett's, under two of his rulesets) are in
    one group, and never with another source's; a setup question naming a second ruleset
    tests its source's rule too; a which-source item is grouped by its sentence.  Without the
    grouping by fact, the learner had answered a fact from others asking the same
    (source-quiz's disagreement 0.78 of 0.28 by quotation alone, 0.20 so)."""
    from partial_input import _groups

    spec = CHOICE_KINDS["deal-setup"]
    its = [
        it for r in ("parlett", "parlett-13", "du-coeur") for it in items(P.generate(spec, r, 4, 0))
    ]
    assert [it.facts for it in its] == [
        ["parlett|mournival"],  # beside Parlett's tournament scoring: one source
        ["parlett|mournival"],
        ["du-coeur|mournival", "inter-livery-2018|mournival"],  # two rulesets named
    ]
    g = _groups(its)
    assert g[0] == g[1] != g[2]
    which = next(
        p for s in range(12) if (p := P.generate("source-quiz", "parlett", 4, s)).variant == "which"
    )
    assert items(which)[0].facts == [f"quote|{which.data['quote']}"]
