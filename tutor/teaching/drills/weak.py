"""Practise weak spots: a set of items on the weakest skills by FSRS (:mod:`tutor.teaching.spaced_review`).

Each skill (a puzzle kind, or a theme) is turned into one item: a counting round for ``count``,
a settlement question for ``settlement``, and a puzzle of the kind for every other kind (posed by
the learner loop, :func:`tutor.teaching.loop.ask`, as a lesson poses it: hints, a second try,
the explanation) (``capture-choice`` from practice deals becomes a
``capture-now`` puzzle, ``declaration`` a ``dead-pair`` puzzle).  A theme becomes the kind it was
most often answered under, and the puzzle is drawn again (a few times) until it carries the
theme.
"""

from __future__ import annotations

import random
from collections import Counter

from tutor.puzzles import KINDS, generate
from tutor.teaching.drills.count import CountDrill
from tutor.teaching.drills.settle import SettleDrill
from tutor.teaching.io import LearnerIO
from tutor.teaching.loop import PuzzleQuestion, ask
from tutor.teaching.spaced_review import ReviewBook, render_weak_skills, skill_label

__all__ = ["practise_weak_spots", "kind_for_skill", "run", "KIND_ALIASES"]

#: Kinds recorded by practice deals, and the puzzle kinds that practise them.
KIND_ALIASES = {"capture-choice": "capture-now", "declaration": "dead-pair"}


def kind_for_skill(skill, store) -> str | None:
    """The kind that practises ``skill`` (a :class:`tutor.teaching.spaced_review.SkillState`)."""
    if skill.group == "kind":
        kind = KIND_ALIASES.get(skill.name, skill.name)
        return kind if kind in KINDS else None
    counts = Counter(a.kind for a in store.answers() if skill.name in a.themes)
    for kind, _ in counts.most_common():
        kind = KIND_ALIASES.get(kind, kind)
        if kind in KINDS:
            return kind
    return None


def practise_weak_spots(
    io: LearnerIO, rulesets: list, items: int = 5, seed: int = 1, ruleset=None, *, store=None
) -> tuple[int, int]:
    """Pose ``items`` items on the weakest skills in ``store`` (a progress store: where the
    skills come from and the answers go) through ``io``; returns (right, asked)."""
    if store is None:
        io.say("No progress store: nothing to practise.")
        return 0, 0
    skills = ReviewBook(store).skills()
    if not skills:
        io.say("No graded answers yet: play a deal, run a drill or answer some puzzles first.")
        return 0, 0
    weakest = skills[: max(1, min(items, len(skills)))]
    io.say("Practise weak spots (weakest first, by when each is due for review):", style="bold")
    io.show(render_weak_skills(weakest, width=io.width))
    rng = random.Random(f"{seed}:weak")
    right = asked = 0
    for i in range(items):
        skill = weakest[i % len(weakest)]
        kind = kind_for_skill(skill, store)
        if kind is None:
            continue
        io.say("")
        io.say(f"Item {i + 1} of {items}: {skill_label(skill.name, skill.group)}", style="bold")
        ok, stop = _item(io, store, kind, skill, rulesets, rng, ruleset)
        if ok is not None:
            asked += 1
            right += int(ok)
        if stop:
            break
    io.say(f"Weak spots: {right}/{asked} right.", style="bold")
    return right, asked


def _item(
    io: LearnerIO, store, kind: str, skill, rulesets, rng, ruleset
) -> tuple[bool | None, bool]:
    """One item on ``skill``: (right at the first try, or None when not answered; whether the
    learner asked to leave)."""
    seed = rng.randrange(10**9)
    if kind == "count":
        drill = CountDrill(io, rulesets, ruleset=ruleset, seed=seed, store=store)
        rnd = drill.make_round()
        if not drill.play_round(rnd):
            return None, True
        return rnd.perfect, False
    if kind == "settlement":
        settle = SettleDrill(io, rulesets, ruleset=ruleset, seed=seed, store=store)
        a = settle.ask(settle.make_question())
        return (None, True) if a is None else (a.correct, False)
    puzzle = None
    difficulty = store.choose_difficulty(kind)  # the band nearest the learner's rating
    seeds = random.Random(f"{seed}:weak")  # far-apart seeds: each try searches afresh
    for _ in range(12):
        puzzle = generate(
            kind,
            ruleset.id if ruleset is not None else None,
            seed=seeds.randrange(10**9),
            difficulty=difficulty,
        )
        if skill.group == "kind" or skill.name in puzzle.themes:
            break
    outcome = ask(io, PuzzleQuestion(puzzle), store=store, pause=True)
    return (outcome.first if outcome.answered else None), outcome.left


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
            io.say("Skills, weakest first:", style="bold")
            io.show(render_weak_skills(skills, width=io.width))
        return
    practise_weak_spots(
        io, request.rulesets, s["items"], request.seed, request.ruleset, store=store
    )
