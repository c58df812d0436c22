"""Source puzzles without a tell (issue 30): a learner who answers from surface cues, without
reading the sources, scores no better than chance allows (chance + 15 % at most).

Each learner sees what the screen shows before the answer (the puzzle's header and question,
as :func:`tutor.puzzles.render.render_puzzle` draws it) and answers from one cue:

- record or description: A (a record of the name) when the sentence holds the game's name
  ("laugh"), else B;
- when was it made: the date written in a form of its own ("c. 1825" among plain years);
- which rulesets disagree: a word of one ruleset's name or title that the other's lacks
  ("points", "bonus for the last pair", "plays on", "tournament", "13-stake") points to the
  options it suggests;
- reading: the reading that shares most words with the ruleset's name or title.

The puzzles are drawn by the real generator from fixed seeds, so the figures are the same on
every run.  Before this change (records with the name in every one of them, titles such as
"Inter-Livery 2018 (points, last player plays on)"), the first learner scored 94 % against 50 %
by chance.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from tutor import puzzles as P
from tutor.puzzles.base import SET_STRIDE
from tutor.puzzles.kinds.timeline import seed_plan
from tutor.puzzles.render import render_puzzle

#: How far above chance a cue learner may score.
MARGIN = 0.15
N = 120

_STOP = set(
    """a an the of to in on and or for with by is are be it its this these that which
who what whether how where one about disagree rulesets ruleset player players answer letter
written under reading does support text says their there two""".split()
)
_OPTION = re.compile(r"^([A-H])\) (.*)$", re.M)


def screen(p: P.Puzzle) -> str:
    """What the learner sees before answering: the header and the question, as plain text."""
    buf = io.StringIO()
    Console(file=buf, width=100, color_system=None).print(render_puzzle(p))
    return buf.getvalue()


def _words(text: str) -> set[str]:
    out = set()
    for w in re.findall(r"[a-z]+", text.lower()):
        if w not in _STOP and len(w) > 2:
            out.add(w[:-1] if w.endswith("s") and len(w) > 4 else w)
    return out


def name_learner(p) -> str:
    """A when the quoted sentence holds the game's name, else B."""
    m = re.search(r"“(.*)”", p.question, re.S)
    return "A" if re.search(r"laugh", m.group(1) if m else p.question, re.I) else "B"


def name_any_spelling_learner(p) -> str:
    """A when the quoted sentence holds any word of the name in any spelling, else B."""
    m = re.search(r"“(.*)”", p.question, re.S)
    return (
        "A" if re.search(r"laugh|l[ai]y?e?s? ?-?downe?|lye", m.group(1) if m else "", re.I) else "B"
    )


def odd_form_learner(p) -> str:
    """The date written in a form of its own (a "c." date among plain years, or the reverse),
    else the first."""
    opts = _OPTION.findall(p.question)
    forms = ["c" if t.strip().startswith("c.") else "y" for _, t in opts]
    return next((letter for (letter, _), f in zip(opts, forms) if forms.count(f) == 1), opts[0][0])


#: Old spellings, every one the sources print (the records of the name, Willughby's terms as the
#: compendium keeps them): a line holding one is, to the spelling learner, a record of the name.
_OLD_SPELLING = re.compile(
    r"\b(downe|lye|laughe|nothynge|cyte|borowgh|towne|doo|plaie|asse|"
    r"perryall|murnivall|kin)\b",
    re.I,
)


def spelling_learner(p) -> str:
    """A (a record of the name) when the quoted line holds an old spelling, else B (issue 42:
    every record was in old spelling and every description modern, 21 of 21)."""
    m = re.search(r"“(.*)”", p.question, re.S)
    return "A" if _OLD_SPELLING.search(m.group(1) if m else p.question) else "B"


def circa_learner(p) -> str:
    """When the options carry "c.", the one nearest a record the lesson dates "c." (the answer
    is then a c. record: issue 42), else the first."""
    from tutor.engine.sources import default_library, parse_date

    opts = _OPTION.findall(p.question)
    if not any(t.strip().startswith("c.") for _, t in opts):
        return opts[0][0]
    circa = [r.date.anchor for r in default_library().records.values() if r.date.form == "circa"]
    return min(opts, key=lambda o: min(abs(parse_date(o[1]).key[1] - y) for y in circa))[0]


#: The cue learner's table: a word of one ruleset's name or title, and the options it points to.
CUES = [
    ("point", ["stakes or points", "ante", "breakeven", "bonus"]),
    ("last pair", ["who takes the bonus"]),
    ("bonus", ["who takes the bonus", "size of"]),
    ("plays on", ["goes on capturing"]),
    (
        "tournament",
        [
            "leftovers",
            "mournival",
            "who takes the bonus",
            "stakes or points",
            "breakeven",
            "ante",
            "match",
        ],
    ),
    ("13-stake", ["ante", "size of the bonus"]),
    ("three to seven", ["dealt to each", "dealt to the table"]),
    ("stakes", ["stakes or points"]),
]


def title_cue_learner(p) -> str:
    """Which rulesets disagree: the option most pointed to by a cue word that stands in the
    rulesets' names or titles once (in one of them), the first on a tie."""
    text = screen(p)
    opts = _OPTION.findall(text)
    names = _OPTION.sub("", text).lower()
    return max(
        opts,
        key=lambda o: sum(
            1
            for cue, targets in CUES
            if names.count(cue) == 1
            for x in targets
            if x in o[1].lower()
        ),
    )[0]


def title_words_learner(p) -> str:
    """The option sharing most words with the rest of the screen (the rulesets' names or
    titles, the header), the first on a tie."""
    text = screen(p)
    opts = _OPTION.findall(text)
    rest = _words(_OPTION.sub("", text))
    best = max(opts, key=lambda o: len(_words(o[1]) & rest))[0]
    return best


def _chance(p) -> float:
    if p.kind == "reading":
        return 1 / 4
    return 1 / len(p.answer.get("options") or p.answer.get("order") or "AB")


def _score(ps, learner) -> tuple[float, float]:
    right = sum(p.grade(learner(p)).correct for p in ps)
    return right / len(ps), sum(_chance(p) for p in ps) / len(ps)


def _timeline(variant: str) -> list:
    """``N`` timeline puzzles of one form (the seeds whose plan takes it)."""
    seeds = [s for s in range(40 * N) if seed_plan(s)["variant"] == variant]
    return [P.generate("timeline", seed=s) for s in seeds[:N]]


def _drawn(kind: str, keep) -> list:
    out, s = [], 0
    while len(out) < N:
        p = P.generate(kind, seed=s * SET_STRIDE + 7)
        s += 1
        if keep(p):
            out.append(p)
    return out


@pytest.fixture(scope="module")
def pools():
    return {
        "record": _timeline("record"),
        "when": _timeline("when"),
        "disagree": _drawn("source-quiz", lambda p: p.variant == "disagree"),
        "reading": _drawn("reading", lambda p: "how" in p.answer),
    }


@pytest.mark.parametrize(
    "pool,learner",
    [
        ("record", name_learner),
        ("record", name_any_spelling_learner),
        ("record", spelling_learner),
        ("when", odd_form_learner),
        ("when", circa_learner),
        ("disagree", title_cue_learner),
        ("disagree", title_words_learner),
        ("reading", title_words_learner),
    ],
)
def test_a_cue_learner_scores_no_better_than_chance_allows(pools, pool, learner):
    ps = pools[pool]
    assert len(ps) == N and {p.variant for p in ps} <= {
        "record",
        "when",
        "disagree",
        "decided",
        "read",
        "open",
        "another",
    }
    got, chance = _score(ps, learner)
    assert got <= chance + MARGIN, (
        f"{learner.__name__} on {pool}: {got:.0%} against {chance:.0%} by chance"
    )


def test_the_record_or_description_question_holds_each_spelling_and_the_name_on_both_sides(pools):
    """Old and modern spelling, and the game's name, stand on both sides: both answers are
    drawn, each with lines in old spelling and lines without it, and descriptions naming the
    game as well as records without the name."""
    ps = pools["record"]
    by: dict[str, list] = {"A": [], "B": []}
    for p in ps:
        by[p.answer["letter"]].append(p)
    assert len(by["A"]) > N // 3 and len(by["B"]) > N // 3
    for side in "AB":
        old = [p for p in by[side] if spelling_learner(p) == "A"]
        assert 0.3 * len(by[side]) <= len(old) <= 0.7 * len(by[side]), (side, len(old))
    assert any(name_any_spelling_learner(p) == "A" for p in by["B"])
    assert any(name_any_spelling_learner(p) == "B" for p in by["A"])


def test_a_line_s_length_does_not_tell_a_record_from_a_description(pools):
    """The record-or-description question: the learner who answers A (a record) when the line
    is shorter than some length, with the length that does best over these very puzzles, scores
    no better than chance allows (issue 42: old-spelling records were short fragments and
    old-spelling descriptions whole sentences; this learner then scored 88 % of 50 %)."""
    ps = pools["record"]
    lengths = [
        (len(re.search(r"“(.*)”", p.question, re.S).group(1)), p.answer["letter"]) for p in ps
    ]
    best = max(
        sum((n < t) == (letter == "A") for n, letter in lengths) / len(ps) for t in range(1, 250)
    )
    chance = sum(_chance(p) for p in ps) / len(ps)
    assert best <= chance + MARGIN, f"a length threshold: {best:.0%} against {chance:.0%}"


def test_dates_are_written_alike_on_every_option(pools):
    """A year and a c. year are both shown as the year alone, so no option carries "c." for a
    c. record only (issue 42: an exact 1522 was shown "c. 1522" whenever the answer was c.)."""
    from tutor.engine.sources import parse_date

    for p in pools["when"]:
        forms = {parse_date(t).form for t in p.answer["options"]}
        assert len(forms) == 1, p.answer["options"]
        assert not any(t.startswith("c.") for t in p.answer["options"]), p.answer["options"]
    asked = {p.answer["record"] for p in pools["when"]}
    from tutor.engine.sources import default_library

    assert any(default_library().records[r].date.form == "circa" for r in asked)


def test_no_source_puzzle_shows_its_id_or_a_ruleset_title_before_the_answer(pools):
    from tutor.engine.sources import default_library

    lib = default_library()
    titles = {rs.title for rs in lib.rulesets.values()}
    for ps in pools.values():
        for p in ps[:30]:
            shown = screen(p)
            assert p.id not in shown and p.ruleset + "." not in shown
            assert not any(t in " ".join(shown.split()) for t in titles), shown
