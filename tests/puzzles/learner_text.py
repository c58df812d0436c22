"""What a learner reads of a puzzle, and the check that none of it is a code name (issue 24).

:func:`learner_texts` gathers every text a puzzle shows: its question, hints, explanation, the
verdicts and nudges of a right and of a wrong answer (first and second try), the one-line
refusals of answers it cannot read, and the board and explanation as the terminal draws them.
:func:`problems_in` finds in a text what must never reach a learner: an identifier
(``pair_for_pair``, ``declare_dead_pair``, a ruleset id such as ``du-coeur``), a doubled
bracket (``((no single winner))``), a bad plural (``1 points``), a card code outside what the
learner is told to type (``TC TH``), a rank code read as a count (``Right: 2: 3.``), a Python
value (``None``, ``['7H']``) or a template placeholder left unfilled.
"""

from __future__ import annotations

import io
import re

import tutor.puzzles as P
from tutor.engine.cards import EXPECTED
from tutor.engine.sources import default_library, pinned_library
from tutor.puzzles.answers import wrong_answer

#: Answers a learner might type that a puzzle cannot read: each is refused in one line.
BAD_ANSWERS = ("zz", "7X", "A B C D E F G H", "99 99 99 99 99 99 99 99", "yes no")

_IDENT = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
_DOUBLED = re.compile(r"\(\s*\(|\)\s*\)|\[\s*\[|\]\s*\]")
_PLURAL = re.compile(
    r"(?<![\d.,/−+-])\b1 (points|stakes|cards|pairs|players|puzzles|seats|"
    r"ranks|games)\b|(?<![\d.,/])\b(?:0|[2-9]|[1-9]\d+) (point|stake|card|pair|"
    r"player|game)\b(?!s|-)"
)
_CARD = re.compile(r"(?<![\w`/])(?:10|[2-9TJQKA])[CDHS](?![\w`/])")
_RANK_COUNT = re.compile(r"(?:Right|Not quite): (?:10|[2-9TJQKA]): \d")
_PYTHON = re.compile(r"\bNone\b(?! of)|\bTrue\b|\bFalse\b|\['|\('|'\]|'\)|\{[a-z_]+\}")


def _ruleset_ids() -> list[str]:
    return sorted((r for r in default_library().rulesets if "-" in r), key=len, reverse=True)


def problems_in(text: str, where: str = "") -> list[str]:
    """What in ``text`` must not reach a learner (see the module docstring), one line each."""
    bare = re.sub(r"`[^`]*`", "``", text)  # what the learner is told to type is theirs
    bare = bare.replace(EXPECTED, "")  # how to type a card: its forms, on purpose
    bare = re.sub(
        r"(?m)^.*(?:Puzzle id:|Puzzle |laugh lesson \d+).*$", "", bare
    )  # the id line names the ruleset, on purpose
    bare = re.sub(r"\b[a-z-]+\.[a-z0-9-]+\.\d+\.\d+\b", "", bare)  # a puzzle id
    out = []
    for name, pattern in (
        ("identifier", _IDENT),
        ("doubled bracket", _DOUBLED),
        ("bad plural", _PLURAL),
        ("card code", _CARD),
        ("rank code as a count", _RANK_COUNT),
        ("Python value", _PYTHON),
    ):
        m = pattern.search(bare)
        if m:
            out.append(
                f"{where}: {name} {m.group(0)!r} in {bare[max(0, m.start() - 40) : m.end() + 40]!r}"
            )
    for rid in _ruleset_ids():
        if re.search(rf"(?<![\w.-]){re.escape(rid)}(?![\w-])", bare):
            out.append(f"{where}: ruleset id {rid!r} in {bare[:120]!r}")
            break
    return out


def _rendered(p: P.Puzzle, grade) -> str:
    from rich.console import Console

    from tutor.puzzles.render import render_explanation, render_puzzle

    con = Console(width=80, record=True, color_system=None, file=io.StringIO())
    con.print(render_puzzle(p, 80, symbols=True))
    con.print(render_explanation(p, grade, symbols=True))
    return con.export_text()


def learner_texts(p: P.Puzzle, late_hints: bool = False) -> list[tuple[str, str]]:
    """``(where, text)`` for every text puzzle ``p`` shows a learner (see the module
    docstring); hints worked out only when shown (an analysis) are included with
    ``late_hints``."""
    out = [("question", p.question), ("explanation", p.explanation)]
    for i in range(len(p.hints)):
        if late_hints or p.hints.known(i) if hasattr(p.hints, "known") else True:
            out.append((f"hint {i + 1}", p.hints[i]))
    right = p.grade(p.accepted[0])
    out.append(("verdict, right", right.message))
    w = wrong_answer(p)
    grade = right
    if w is not None:
        first = p.grade(w)
        out += [("verdict, wrong", first.message), ("nudge", first.retry)]
        grade = p.grade(w, attempt=2)
        out.append(("verdict, second try", grade.message))
    for bad in BAD_ANSWERS:
        try:
            p.grade(bad)
        except P.AnswerError as exc:
            out.append((f"refusal of {bad!r}", str(exc)))
        # an answer that reads is graded: a verdict, checked like the others
    out.append(("screen", _rendered(p, grade)))
    return out


def spread(kind: str, total: int) -> list[tuple[str, int, int]]:
    """``(ruleset, players, seed)`` for ``total`` puzzles of ``kind``, round-robin over every
    ruleset and player count it applies to (one a ruleset, five players where it can, for a
    kind whose generation analyses positions)."""
    lib = default_library()
    rulesets = P.applicable_rulesets(kind)
    if P.generators.kind_of(kind).analysed:
        return [
            (r, 5 if 5 in lib.rulesets[r].counts else lib.rulesets[r].player_counts[0], i)
            for i, r in enumerate(rulesets)
        ]
    combos = [(r, n) for r in rulesets for n in lib.rulesets[r].player_counts]
    return [(*combos[i % len(combos)], i // len(combos)) for i in range(total)]


def scan(puzzles) -> list[str]:
    """Every problem in the learner texts of ``puzzles``, ``id: where: what`` (one library
    throughout: each text is checked for every ruleset's id)."""
    found = []
    with pinned_library():
        for p in puzzles:
            for where, text in learner_texts(p):
                found += problems_in(text, f"{p.id}: {where}")
    return found
