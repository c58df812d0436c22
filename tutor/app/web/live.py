"""What the teacher sees while a class works: the projector's count of how the class answered
the puzzles of the page the teacher has the class on, and the dashboard's board (where each
student is, who is stuck).

Nothing here grades or counts a theme: a try's verdict is the one the learner loop recorded
(:func:`tutor.teaching.loop.ask`, the engine's), read back from each student's progress store
(the first try of a puzzle is the one that counts, as ``laugh stats`` counts it); the grid of
learners × themes is ``laugh class report``'s own (:func:`tutor.teaching.classreport.build_report`
over each student's export).  The answers' words are kept only while the server runs (the
stores keep the verdicts, not the words).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from tutor.app.puzzling import generate
from tutor.app.web.lesson import Try
from tutor.puzzles import Puzzle
from tutor.teaching.html import quote_markup
from tutor.teaching.lessons import Lesson, puzzle_seed
from tutor.teaching.progress import Answer

__all__ = [
    "STUCK_TRIES",
    "Tally",
    "page_puzzles",
    "question_text",
    "source_words",
    "stuck",
    "tally",
]

#: Wrong tries at the current puzzle that make a student stuck (a puzzle's two tries).
STUCK_TRIES = 2

#: The most wrong answers the projector lists (the commonest first).
COMMON_WRONG = 4

#: How a first try that gave up (``show``) is listed among the wrong answers.
GAVE_UP = "(gave up: show)"


def page_puzzles(lesson: Lesson, page: int, seed: int) -> list[tuple[str, Puzzle]]:
    """The puzzles page ``page`` (0-based) of ``lesson`` poses under the class's ``seed``, each
    with its heading (``Puzzle k of n``): the very puzzles each student's runner sets
    (:func:`tutor.teaching.lessons.puzzle_seed`, as :meth:`tutor.app.runner.LessonRunner.puzzle`
    makes them).  Empty past the last page or on a page without puzzles.  A puzzle that
    cannot be set is left out (each runner skips it too)."""
    from tutor.engine.errors import LaughError
    from tutor.teaching.lessons import Segment

    if not 0 <= page < len(lesson.pages):
        return []
    out = []
    total = lesson.puzzle_count
    for item in lesson.pages[page]:
        if isinstance(item, Segment) or item.kind != "puzzle":
            continue
        d = item.puzzle()
        for n in range(d["count"]):
            try:
                p = generate(
                    d["kind"],
                    ruleset=d["ruleset"],
                    players=d["players"],
                    seed=puzzle_seed(seed, lesson.id, item.index, n),
                    difficulty=d["difficulty"],
                )
            except LaughError:
                continue
            heading = (
                "Puzzle" if total <= 1 else f"Puzzle {lesson.puzzle_number(item, n)} of {total}"
            )
            out.append((heading, p))
    return out


def source_words(puzzle: Puzzle) -> Markup:
    """The quotations a puzzle's answer rests on, as HTML (each escaped, its own emphasis
    kept, with its citation): what the explanation quotes."""
    from tutor.engine.sources import default_library

    lib = default_library()
    parts = []
    for ref in puzzle.quotes:
        q = lib.quotation(ref)
        where = f"; {escape(q.where)}" if q.where else ""
        parts.append(
            f'<figure class="quote"><blockquote><p>“{quote_markup(q.text)}”</p>'
            f"</blockquote><figcaption>— <cite>{escape(q.citation)}</cite>{where}"
            f"</figcaption></figure>"
        )
    return Markup("".join(parts))


def question_text(puzzle: Puzzle, width: int = 72) -> str:
    """The puzzle as each student's page poses it (its seat's view and the question), as
    plain text ``width`` columns wide: what the projector shows the class (drawn at
    :data:`~tutor.app.web.webio.WIDE` and :data:`~tutor.app.web.webio.WIDTH`, as a lesson's
    page draws it)."""
    from tutor.app.web.webio import plain_text
    from tutor.puzzles.render import render_puzzle

    return plain_text(render_puzzle(puzzle, console_width=width), width=width)


@dataclass
class Tally:
    """How the class answered one puzzle at the first try: ``students`` in the class,
    ``answered`` of them, ``right`` of those; ``wrong``: the commonest wrong answers, counted
    by what they mean as the puzzle's grader reads them (:func:`tutor.puzzles.answers.meaning`:
    ``b`` and ``B`` are one answer), each (its words as typed most often, or
    :data:`GAVE_UP`; how many; the names of those who gave it); ``unread``: wrong first tries
    whose words the grader cannot read now, each (its words; how many; names), never merged
    with a graded answer; ``unknown``: wrong first tries whose words were not kept (answered
    before the server was started again)."""

    heading: str
    puzzle: Puzzle
    students: int
    answered: int
    right: int
    wrong: list[tuple[str, int, list[str]]] = field(default_factory=list)
    unread: list[tuple[str, int, list[str]]] = field(default_factory=list)
    unknown: int = 0

    @property
    def share(self) -> float:
        """Share right of those who answered, 0..1 (0 when none has)."""
        return self.right / self.answered if self.answered else 0.0


def _first(answers: Sequence[Answer], puzzle_id: str) -> Answer | None:
    firsts = [a for a in answers if a.puzzle_id == puzzle_id and not a.retry]
    return min(firsts, key=lambda a: a.at) if firsts else None


def tally(
    heading: str, puzzle: Puzzle, students: Sequence[tuple[str, Sequence[Answer], Sequence[Try]]]
) -> Tally:
    """The :class:`Tally` of ``puzzle`` over ``students``: each (name, the answers their store
    keeps, the tries of their sessions on this server).  A first try counts as the store kept
    it; its words are the session's try of it, grouped by what they mean
    (:func:`tutor.puzzles.answers.meaning`)."""
    from tutor.puzzles.answers import meaning

    out = Tally(heading, puzzle, len(students), 0, 0)
    groups: Counter[Hashable] = Counter()
    who: dict[Hashable, list[str]] = {}
    spellings: dict[Hashable, Counter[str]] = {}
    read: dict[str, Hashable | None] = {}  # each spelling read once
    for name, answers, tries in students:
        first = _first(answers, puzzle.id)
        if first is None:
            continue
        out.answered += 1
        if first.correct:
            out.right += 1
            continue
        tried = next((t for t in tries if t.puzzle_id == puzzle.id and not t.retry), None)
        if tried is None:
            out.unknown += 1
            continue
        typed = GAVE_UP if tried.revealed else " ".join(tried.text.split())
        key: Hashable
        if tried.revealed:
            key = GAVE_UP
        else:
            if typed not in read:
                read[typed] = meaning(puzzle, typed)
            key = read[typed] if read[typed] is not None else ("unread", typed)
        groups[key] += 1
        who.setdefault(key, []).append(name)
        spellings.setdefault(key, Counter())[typed] += 1
    ranked = groups.most_common()

    def row(key: Hashable, n: int) -> tuple[str, int, list[str]]:
        return spellings[key].most_common(1)[0][0], n, who[key]

    unread = [k for k, _ in ranked if isinstance(k, tuple) and k[:1] == ("unread",)]
    out.wrong = [row(k, n) for k, n in ranked if k not in unread][:COMMON_WRONG]
    out.unread = [row(k, groups[k]) for k in unread]
    return out


def stuck(tries: Sequence[Try]) -> bool:
    """True when the student's latest puzzle (the one their last graded try was at) took
    :data:`STUCK_TRIES` wrong tries and none right: they stay stuck until they answer
    another (the runner sets the next puzzle at once, so "the current puzzle" is the one
    just tried)."""
    if not tries:
        return False
    last = tries[-1].puzzle_id
    at = [t for t in tries if t.puzzle_id == last]
    return not any(t.correct for t in at) and sum(not t.correct for t in at) >= STUCK_TRIES
