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
from tutor.teaching.drills.base import QUIT_WORDS, record_answer
from tutor.teaching.drills.count import CountDrill
from tutor.teaching.drills.oversights import OversightDrill
from tutor.teaching.drills.settle import SettleDrill
from tutor.teaching.io import LearnerIO
from tutor.teaching.review import ReviewBook, render_weak_skills

__all__ = ["practise_weak_spots", "kind_for_skill", "ask_puzzle", "run", "KIND_ALIASES"]

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


def practise_weak_spots(io: LearnerIO, rulesets: list, items: int = 5, seed: int = 1,
                        ruleset=None, *, store=None) -> tuple[int, int]:
    """Pose ``items`` items on the weakest skills in ``store`` (a progress store: where the
    skills come from and the answers go) through ``io``; returns (right, asked)."""
    if store is None:
        io.say("No progress store: nothing to practise.")
        return 0, 0
    skills = ReviewBook(store).skills()
    if not skills:
        io.say("No graded answers yet: play a deal, run a drill or answer some puzzles first.")
        return 0, 0
    weakest = skills[:max(1, min(items, len(skills)))]
    io.say("Practise weak spots (weakest first, by FSRS):", style="bold")
    io.show(render_weak_skills(weakest, width=io.width))
    rng = random.Random(f"{seed}:weak")
    right = asked = 0
    for i in range(items):
        skill = weakest[i % len(weakest)]
        kind = kind_for_skill(skill, store)
        if kind is None:
            continue
        io.say("")
        io.say(f"Item {i + 1} of {items}: {skill.name} ({skill.group})", style="bold")
        ok = _item(io, store, kind, skill, rulesets, rng, ruleset)
        if ok is None:
            break
        asked += 1
        right += int(ok)
    io.say(f"Weak spots: {right}/{asked} right.", style="bold")
    return right, asked


def _item(io: LearnerIO, store, kind: str, skill, rulesets, rng, ruleset) -> bool | None:
    seed = rng.randrange(10 ** 9)
    if kind == "count":
        drill = CountDrill(io, rulesets, ruleset=ruleset, seed=seed, store=store)
        rnd = drill.make_round()
        if not drill.play_round(rnd):
            return None
        return rnd.perfect
    if kind == "settlement":
        drill = SettleDrill(io, rulesets, ruleset=ruleset, seed=seed, store=store)
        a = drill.ask(drill.make_question())
        return None if a is None else a.correct
    puzzle = None
    difficulty = store.choose_difficulty(kind)      # the band nearest the learner's rating
    seeds = random.Random(f"{seed}:weak")     # far-apart seeds: each try searches afresh
    for _ in range(12):
        puzzle = generate(kind, ruleset.id if ruleset is not None else None,
                          seed=seeds.randrange(10 ** 9), difficulty=difficulty)
        if skill.group == "kind" or skill.name in puzzle.themes:
            break
    if kind == "spot-oversight":
        drill = OversightDrill(io, seed=seed, store=store)
        att = drill.ask(puzzle, None)
        if att.quit or att.correct is None:
            return None
        drill._record(puzzle, att, None if drill.piped else att.seconds)
        _explain(io, puzzle, att.grade)
        return att.correct
    return ask_puzzle(io, puzzle, store)


def ask_puzzle(io: LearnerIO, puzzle, store=None) -> bool | None:
    """Pose any puzzle, grade it, explain, record in ``store``; None when the learner quits.

    A wrong first answer gets the grade's nudge and a second try before the answer is shown
    (:meth:`tutor.puzzles.Puzzle.grade` with ``attempt``); each try is recorded, the second as a
    retry.  Returns whether the first try was right (the answer that counts)."""
    io.show(render_puzzle(puzzle, symbols=io.symbols))
    start = io.clock.now()
    attempt = 1
    first = None
    while True:
        reply = io.read("answer> ", None, words=puzzle.answer_words())
        if reply is None or reply.text.strip().lower() in QUIT_WORDS:
            return None
        try:
            grade = puzzle.grade(reply.text, attempt)
        except AnswerError as exc:
            io.show(code_text(str(exc), style="yellow"))
            continue
        secs = reply.at - start
        record_answer(io, store, puzzle.id, puzzle.kind, puzzle.themes, grade.correct, secs,
                      puzzle.ruleset, difficulty=puzzle.difficulty, retry=attempt > 1)
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


def _explain(io: LearnerIO, puzzle, grade) -> None:
    io.show(render_explanation(puzzle, grade, io.symbols))
    io.show(Text(""))


def run(io: LearnerIO, store, request) -> None:
    """The drill as ``laugh drill weak`` and the home screen run it (see
    :mod:`tutor.teaching.drills.registry`): a set on the weakest skills, or with the setting
    ``list_only`` the skills alone, weakest first."""
    s = request.settings
    if s["list_only"]:
        skills = ReviewBook(store).skills()
        if not skills:
            io.say("No graded answers yet.")
        else:
            io.say("Skills, weakest first (FSRS):", style="bold")
            io.show(render_weak_skills(skills, width=io.width))
        return
    practise_weak_spots(io, request.rulesets, s["items"], request.seed, request.ruleset,
                        store=store)
