"""Practise weak spots: a set of items on the weakest skills by FSRS (:mod:`tutor.teaching.review`).

Each skill (a puzzle kind, or a theme) is turned into one item: a counting round for ``count``,
a settlement question for ``settlement``, an oversight position for ``spot-oversight``, and a
puzzle of the kind for every other kind (``capture-choice`` from practice deals becomes a
``capture-now`` puzzle, ``declaration`` a ``dead-pair`` puzzle).  A theme becomes the kind it was
most often answered under, and the puzzle is drawn again (a few times) until it carries the
theme.
"""

from __future__ import annotations

import random
from collections import Counter

from rich.text import Text

from tutor.puzzles import KINDS, AnswerError, generate
from tutor.puzzles.render import code_text, render_explanation, render_puzzle
from tutor.teaching.drills.base import QUIT_WORDS, DrillIO
from tutor.teaching.drills.count import CountDrill
from tutor.teaching.drills.oversights import OversightDrill
from tutor.teaching.drills.settle import SettleDrill
from tutor.teaching.review import ReviewBook, render_weak_skills

__all__ = ["practise_weak_spots", "kind_for_skill", "KIND_ALIASES"]

#: Kinds recorded by practice deals, and the puzzle kinds that practise them.
KIND_ALIASES = {"capture-choice": "capture-now", "declaration": "dead-pair"}


def kind_for_skill(skill, store) -> str | None:
    """The kind that practises ``skill`` (a :class:`tutor.teaching.review.SkillState`)."""
    if skill.group == "kind":
        kind = KIND_ALIASES.get(skill.name, skill.name)
        return kind if kind in KINDS else None
    counts = Counter(a.kind for a in store.answers() if skill.name in a.themes)
    for kind, _ in counts.most_common():
        kind = KIND_ALIASES.get(kind, kind)
        if kind in KINDS:
            return kind
    return None


def practise_weak_spots(io: DrillIO, rulesets: list, items: int = 5, seed: int = 1,
                        ruleset=None) -> tuple[int, int]:
    """Pose ``items`` items on the weakest skills; returns (right, asked)."""
    if io.store is None:
        io.say("No progress store: nothing to practise.")
        return 0, 0
    skills = ReviewBook(io.store).skills()
    if not skills:
        io.say("No graded answers yet: play a deal, run a drill or answer some puzzles first.")
        return 0, 0
    weakest = skills[:max(1, min(items, len(skills)))]
    io.say("Practise weak spots (weakest first, by FSRS):", style="bold")
    io.show(render_weak_skills(weakest, width=getattr(io.console, "width", 80)))
    rng = random.Random(f"{seed}:weak")
    right = asked = 0
    for i in range(items):
        skill = weakest[i % len(weakest)]
        kind = kind_for_skill(skill, io.store)
        if kind is None:
            continue
        io.say("")
        io.say(f"Item {i + 1} of {items}: {skill.name} ({skill.group})", style="bold")
        ok = _item(io, kind, skill, rulesets, rng, ruleset)
        if ok is None:
            break
        asked += 1
        right += int(ok)
    io.say(f"Weak spots: {right}/{asked} right.", style="bold")
    return right, asked


def _item(io: DrillIO, kind: str, skill, rulesets, rng, ruleset) -> bool | None:
    seed = rng.randrange(10 ** 9)
    if kind == "count":
        drill = CountDrill(io, rulesets, ruleset=ruleset, seed=seed)
        rnd = drill.make_round()
        if not drill.play_round(rnd):
            return None
        return rnd.perfect
    if kind == "settlement":
        drill = SettleDrill(io, rulesets, ruleset=ruleset, seed=seed)
        a = drill.ask(drill.make_question())
        return None if a is None else a.correct
    puzzle = None
    difficulty = io.store.choose_difficulty(kind)      # the band nearest the learner's rating
    seeds = random.Random(f"{seed}:weak")     # far-apart seeds: each try searches afresh
    for _ in range(12):
        puzzle = generate(kind, ruleset.id if ruleset is not None else None,
                          seed=seeds.randrange(10 ** 9), difficulty=difficulty)
        if skill.group == "kind" or skill.name in puzzle.themes:
            break
    if kind == "spot-oversight":
        drill = OversightDrill(io, seed=seed)
        att = drill.ask(puzzle, None)
        if att.quit or att.correct is None:
            return None
        drill._record(puzzle, att.correct, att.seconds)
        _explain(io, puzzle, att.grade)
        return att.correct
    return ask_puzzle(io, puzzle)


def ask_puzzle(io: DrillIO, puzzle) -> bool | None:
    """Pose any puzzle, grade it, explain, record; None when the learner quits.

    A wrong first answer gets the grade's nudge and a second try before the answer is shown
    (:meth:`tutor.puzzles.Puzzle.grade` with ``attempt``); each try is recorded, the second as a
    retry.  Returns whether the first try was right (the answer that counts)."""
    io.show(render_puzzle(puzzle, symbols=io.symbols))
    start = io.clock.now()
    attempt = 1
    first = None
    while True:
        text = io.read("answer> ", None, words=puzzle.answer_words())
        if text is None or text.strip().lower() in QUIT_WORDS:
            return None
        try:
            grade = puzzle.grade(text, attempt)
        except AnswerError as exc:
            io.show(code_text(str(exc), style="yellow"))
            continue
        secs = io.clock.now() - start
        io.record(puzzle.id, puzzle.kind, puzzle.themes, grade.correct, secs, puzzle.ruleset,
                  difficulty=puzzle.difficulty, retry=attempt > 1)
        if first is None:
            first = grade.correct
        if grade.final:
            break
        io.say(grade.retry or "Not yet.", style="yellow")
        io.say("One more try.", style="dim")
        attempt += 1
        start = io.clock.now()
    _explain(io, puzzle, grade)
    return first


def _explain(io: DrillIO, puzzle, grade) -> None:
    io.show(render_explanation(puzzle, grade, io.symbols))
    io.show(Text(""))
