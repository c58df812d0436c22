"""What every puzzle kind shares: the :class:`PuzzleKind` base class, the :class:`Ctx` one
generation attempt works with, the :class:`Candidate` a generator returns, the
:class:`Verdict` a grader returns, and wording helpers.

A kind is one module in :mod:`tutor.puzzles.kinds` holding one :class:`PuzzleKind` subclass:
its generator (:meth:`~PuzzleKind.plan`, :meth:`~PuzzleKind.build`), the engine's answer
(:meth:`~PuzzleKind.solve`), its grader (:meth:`~PuzzleKind.check`), its completion words, its
wrong-answer example and the facts its explanation is filled with; its wording is in
``puzzles/<kind>.yaml``.  :mod:`tutor.puzzles.registry` lists the kinds.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias, TypedDict

from tutor.engine.analysis import Analysis, analyse, decision_options, option_class
from tutor.engine.bots import Bot, make_bot, play_out
from tutor.engine.cards import pretty_cards
from tutor.engine.deal import Action, Deal
from tutor.engine.player_count import PlayerCount
from tutor.engine.rulesets import Ruleset
from tutor.engine.seats import player_name as player_name  # the puzzle kinds name seats here
from tutor.engine.seats import seat_names as _seat_names
from tutor.engine.sources import Library, default_library
from tutor.puzzles.model import TRIES, AnswerError, Definition, Grade, Puzzle
from tutor.puzzles.reader import letters_answer

#: Letters that label listed choices.
LETTERS = "ABCDEFGH"
#: Puzzles of one set (a lesson block's, see :func:`tutor.teaching.lessons.puzzle_seed`) have
#: seeds this far apart: more than any seed search goes, so their searches never meet.
SET_STRIDE = 1000


def set_index(seed: int) -> int:
    """A seed's place in its set: seeds one apart, and seeds :data:`SET_STRIDE` apart (a lesson
    block's), get neighbouring places, so a kind that cycles through cases by this index gives a
    set of puzzles every case in turn."""
    return seed % SET_STRIDE + seed // SET_STRIDE


#: A run of :func:`set_place` holds at least this many places.
SET_RUN = 16


def set_place(seed: int, cycle: int) -> int:
    """A seed's place in its set (:func:`set_index`), shuffled within its run: the places are cut
    into runs of ``cycle`` times as many as make at least :data:`SET_RUN` (a whole number of
    cycles), and each run's places are put in an order drawn from the run's own number
    (:class:`random.Random` keyed on it, the same on every machine).  A kind that takes its case
    as ``cases[set_place(seed, len(cases)) % len(cases)]`` (and a second draw from the place
    divided by ``len(cases)``, and so on, with ``cycle`` their product) still gives every run
    each case equally often, but in an order no learner can follow: issue 42, a block's
    claim-window puzzles were answered A, B, C, D in turn, and "the letter after the last
    one's" was right every time.  Returns an int >= 0, in the same run as ``set_index(seed)``.
    Raises ValueError when ``cycle`` < 1."""
    if cycle < 1:
        raise ValueError(f"a cycle of {cycle} places")
    length = cycle * -(-SET_RUN // cycle)
    run, within = divmod(set_index(seed), length)
    return run * length + _run_order(length, run)[within]


@functools.lru_cache(maxsize=1024)
def _run_order(length: int, run: int) -> tuple[int, ...]:
    """The order of the places of run ``run`` of ``length`` places (:func:`set_place`), drawn
    once: a drill's search asks it of seed after seed of the same run."""
    order = list(range(length))
    random.Random(f"set-place/{length}/{run}").shuffle(order)
    return tuple(order)


# --------------------------------------------------------------------------------------------
# Wording


def seat_names(players: int, you: int | None) -> list[str]:
    """:func:`player_name` for every seat (:func:`tutor.engine.seats.seat_names`, ``numbered``)."""
    return _seat_names(players, you, style="numbered")


def join(items: list[str], word: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (empty items left out)."""
    items = [i for i in items if i]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


#: A JSON value: what the puzzle format stores (answers, data, parameter values).
JSONValue: TypeAlias = "str | int | float | bool | None | list[JSONValue] | dict[str, JSONValue]"
#: A puzzle kind's answer (:meth:`PuzzleKind.solve`): a JSON object whose keys the kind names.
Answer: TypeAlias = "dict[str, JSONValue]"


def signed(v: int) -> str:
    """``+3``, ``−1`` or ``0`` (with a true minus sign), for explanations."""
    return f"+{v}" if v > 0 else (f"−{-v}" if v < 0 else "0")


def jsonable(v: object) -> JSONValue:
    """A parameter value as JSON: tuples and sets as lists, a value of the parameter table's
    enums (:mod:`tutor.engine.values`) as the plain name it stands for.  Raises TypeError for a
    value no parameter holds (a programming error)."""
    if isinstance(v, (tuple, list, frozenset, set)):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, str):
        return str(v)
    if v is None or isinstance(v, (bool, int, float)):
        return v
    raise TypeError(f"not a parameter value: {v!r}")


def describe(a: Action, you: int | None, players: int) -> str:
    """An action in words, the learner's seat marked ``you``."""
    return a.describe(True, seat_names(players, you))


def text_seed(text: str) -> int:
    """A 48-bit seed from ``text`` (SHA-256, the same on every machine): for an analysis whose
    seed comes from a puzzle's id."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


def option_label(a: Action | None, alike: int = 1) -> str:
    """An option of a turn in words: ``7♥ takes 7♠``, ``declare 5♣ 5♦``, ``lie down``, ``end your
    turn``; ``alike`` options that are the same play up to suits are noted after it."""
    if a is None:
        text = "wait (no free action now)"
    elif a.kind in ("capture", "play_on_capture"):
        text = f"{pretty_cards(a.cards)} takes {pretty_cards(a.table)}"
    elif a.kind == "lie_down":
        text = "lie down"
    elif a.kind == "end_turn":
        text = "end your turn"
    elif a.kind == "claim":
        text = f"claim {pretty_cards(a.cards)}"
    elif a.kind == "take_table_mournival":
        text = "take the table mournival"
    else:
        text = f"declare {pretty_cards(a.cards)}"
    if alike > 1:
        text += " (or the same with other suits)"
    return text


def turn_options(deal: Deal, seat: int) -> list[tuple[Action, int]]:
    """The seat's turn options now, one for each class of options that are the same play up to
    suits (:func:`tutor.engine.analysis.option_class`), in the engine's order: ``(the first of
    the class, how many options the class holds)``."""
    classes: dict[object, list[Any]] = {}
    for a in decision_options(deal, seat, "turn"):
        k = option_class(deal, a)
        if k in classes:
            classes[k][1] += 1
        else:
            classes[k] = [a, 1]
    return [(a, k) for a, k in classes.values()]


#: Fixed-budget analyses already made in this process (the figures depend only on the seat's
#: view, the seed and the budget, so a puzzle made twice needs its analysis once).
_ANALYSES: OrderedDict[tuple[object, ...], tuple[Ruleset, Analysis]] = OrderedDict()
_ANALYSES_KEPT = 128


def turn_analysis(
    deal: Deal, seat: int, seed: int, samples: int, policy: str = "counter"
) -> Analysis:
    """The analysis of ``seat``'s turn options at ``deal`` (:func:`tutor.engine.analysis.analyse`
    with ``which="turn"``) on a fixed budget: exactly ``samples`` determinizations, no early
    stop, so the figures depend only on the seat's view, ``seed`` and ``samples`` (the same on
    any machine).  Remembered for the process (the last :data:`_ANALYSES_KEPT`).  Raises
    :class:`tutor.engine.analysis.NoDecision` when the seat is not to move."""
    key = (
        deal.ruleset.id,
        deal.n,
        deal.dealer,
        seat,
        tuple(deal.history),
        deal.table,
        deal.hands[seat],
        deal.wonall,
        deal.aside,
        seed,
        samples,
        policy,
    )
    hit = _ANALYSES.get(key)
    if hit is not None and hit[0] is deal.ruleset:
        _ANALYSES.move_to_end(key)
        return hit[1]
    an = analyse(
        deal,
        seat,
        policy=policy,
        seed=seed,
        samples=samples,
        which="turn",
        stop_when_clear=False,
        min_samples=samples,
    )
    _ANALYSES[key] = (deal.ruleset, an)
    while len(_ANALYSES) > _ANALYSES_KEPT:
        _ANALYSES.popitem(last=False)
    return an


def library() -> Library:
    """The loaded library of sources and rulesets (:func:`tutor.engine.sources.default_library`)."""
    return default_library()


# --------------------------------------------------------------------------------------------
# Generation


class Plan(TypedDict, total=False):
    """The plan a puzzle id draws before a deal is played (:meth:`PuzzleKind.plan`): the
    ``variant`` (every kind but ``best-move``'s decoy-free plans), and what a kind draws besides:
    the ``theme`` (a decoy's or a rule's), the position's ``case`` and the answer the learner
    may ``prefer``, how many ``ranks`` to count, the ``item`` of a pool, the ``value`` a
    reading names (as JSON), whether the settlement has a table ``mournival``, and the ``form``
    of the action a claim-window puzzle asks about and whether the learner made it (``mine``),
    and the ``side`` of a timeline record puzzle's line."""

    variant: str
    theme: str
    case: str
    prefer: str
    ranks: int
    item: int
    value: JSONValue
    mournival: bool
    form: str
    mine: bool
    side: str


@dataclass
class Ctx:
    """What one generation attempt works with: the kind, the ruleset and player count, the seed,
    the attempt's ``rng``, the ``plan`` drawn from the id, the kind's :class:`Definition` and the
    attempt's number (from 0)."""

    kind: str
    rs: Ruleset
    players: int
    seed: int
    rng: random.Random
    plan: Plan
    defn: Definition
    attempt: int = 0

    @property
    def pc(self) -> PlayerCount:
        """The ruleset's parameters for this player count."""
        return self.rs.count(self.players)

    def new_pack(self) -> list[int]:
        """A shuffled pack (from the attempt's rng)."""
        pack = list(range(52))
        self.rng.shuffle(pack)
        return pack

    def bots(
        self,
        rate: float,
        special: dict[int, float] | None = None,
        names: tuple[str, ...] = ("willughby", "counter"),
    ) -> list[Bot]:
        """One computer player per seat: a seeded choice among ``names``, careless at ``rate``
        (``special`` gives some seats their own rate)."""
        special = special or {}
        return [make_bot(self.rng.choice(names), special.get(q, rate)) for q in range(self.players)]

    def play(
        self,
        pack: list[int],
        dealer: int,
        bots: Sequence[Bot],
        observer: Callable[[Deal, Action], None] | None = None,
    ) -> Deal:
        """Deal ``pack`` and play it out with ``bots`` (``observer(deal, action)`` after every
        action)."""
        deal = Deal(self.rs, self.players, dealer, pack)
        return play_out(deal, bots, self.rng, observer)


@dataclass
class Candidate:
    """A suitable position found by a generator, with everything the puzzle needs.

    ``theme`` is the puzzle's main theme; ``themes`` every theme it is tagged with; ``facts``
    fill the kind's templates; ``features`` feed its difficulty formula; ``tags`` are facts the
    definition's ``problems`` may depend on; ``quotes`` quotations the generator adds;
    ``quote_key`` the definition's ``quotes`` entry to use before ``explain_key``'s and
    ``variant``'s (an own-mistake decoy quotes what its ruleset says of the mistake made).
    """

    deal: Deal
    seat: int
    variant: str
    answer: dict[str, Any]
    accepted: list[str]
    facts: dict[str, Any]
    features: dict[str, float] = field(default_factory=dict)
    themes: list[str] = field(default_factory=list)
    theme: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    tags: set[str] = field(default_factory=set)
    quotes: list[str] = field(default_factory=list)
    explain_key: str | None = None
    question_key: str | None = None
    quote_key: str | None = None


@dataclass(frozen=True)
class Verdict:
    """A grader's reading of one answer: ``correct``, ``message`` (the full verdict, which may
    name the answer), ``credit`` (0-1; None: 1 if correct else 0) and ``retry`` (a nudge before
    a second try, which must not give the answer away)."""

    correct: bool
    message: str
    credit: float | None = None
    retry: str = ""


class PuzzleKind:
    """One kind of puzzle (subclass per module of :mod:`tutor.puzzles.kinds`).

    ``name`` is the kind (``legal-play``); :meth:`why_not` says in one line why a ruleset is
    left out (None when the kind applies).  Generation: :meth:`plan` draws the plan from the
    id's base rng (cheaply: themed searches filter plans with :meth:`plan_may_fit` before
    building), :meth:`build` makes one attempt, :meth:`solve` computes the answer from a
    position by engine queries (it must agree after the record is replayed).  Answers:
    :meth:`check` reads and grades one answer (raises :class:`AnswerError` when it cannot be
    read completely); :meth:`answer_words` are completion words; :meth:`wrong_answer` a
    plausible wrong answer; :meth:`late_hints` hints worked out only when shown.
    """

    name = ""
    #: True for a kind whose generation runs the engine's analysis (tenths of a second a puzzle
    #: rather than milliseconds): not for timed drills.
    analysed = False

    def why_not(self, rs: Ruleset) -> str | None:
        """Why the kind does not apply under ``rs`` (one line), or None when it does; decided by
        ruleset parameters only."""
        return None

    def plan(
        self, base: random.Random, rs: Ruleset, players: int, seed: int, defn: Definition
    ) -> Plan:
        """The plan of a puzzle id (which variant, decoy or not), from its base rng."""
        return {"variant": "default"}

    def plan_may_fit(self, plan: Plan, theme: str) -> bool:
        """False when no puzzle of ``plan`` can carry ``theme`` (themed searches skip it)."""
        return True

    def build(self, ctx: Ctx) -> Candidate | None:
        """One generation attempt: a candidate, or None to try the next attempt."""
        raise NotImplementedError

    def solve(
        self, deal: Deal, seat: int, data: Mapping[str, object], rs: Ruleset, players: int
    ) -> Answer:
        """The answer from a position (``seat`` the learner's, ``data`` the puzzle's
        :attr:`Candidate.data`), by engine queries: a JSON object (:data:`Answer`), as the
        ``laugh-and-lie-down/puzzle@1`` format stores it."""
        raise NotImplementedError

    def check(self, puzzle: Puzzle, text: str) -> Verdict:
        """Read and grade ``text``; raises AnswerError when it cannot be read completely."""
        raise NotImplementedError

    def answer_words(self, puzzle: Puzzle) -> list[str]:
        """Completion words for the answer prompt."""
        return ["hint", "quit"]

    def wrong_answer(self, puzzle: Puzzle) -> str | None:
        """A plausible wrong answer that reads (for tests and drills), or None."""
        return None

    def late_hints(self, puzzle: Puzzle) -> list[Callable[[], str]]:
        """Hints worked out only when shown, after the definition's own (each a zero-argument
        callable returning the text; see :class:`tutor.puzzles.model.Hints`): for hints too slow
        to make with every puzzle.  None by default."""
        return []

    def grade(self, puzzle: Puzzle, text: str, attempt: int = 1) -> Grade:
        """The :class:`Grade` of ``text`` at try ``attempt`` (see :meth:`Puzzle.grade`)."""
        if not text or not text.strip():
            raise AnswerError("type an answer (or `hint`, or `quit`)")
        v = self.check(puzzle, text)
        final = v.correct or attempt >= TRIES
        credit = (1.0 if v.correct else 0.0) if v.credit is None else v.credit
        retry = "" if final else (v.retry or "Not yet. Look again, and try once more.")
        return Grade(v.correct, v.message, credit, final, retry)


class OneLetterKind(PuzzleKind):
    """A kind answered by one choice letter: the puzzle's ``data["choices"]`` each carry their
    ``letter``, and ``answer["right"]`` holds the right letter.  One reading of such an answer
    (:meth:`read_letter`), its completion words and a wrong answer that reads."""

    def read_letter(self, puzzle: Puzzle, text: str) -> tuple[str, str, dict[str, Any]]:
        """The letter ``text`` names, the right letter, and the choice named (its dict from
        ``data["choices"]``); raises :class:`AnswerError` unless ``text`` names exactly one
        choice."""
        choices = puzzle.data["choices"]
        letters = "".join(c["letter"] for c in choices)
        expected = f"answer with one letter ({letters[0]} to {letters[-1]})"
        got = letters_answer(text, letters, expected=expected)
        if len(got) != 1:
            raise AnswerError(expected)
        chosen = next(c for c in choices if c["letter"] == got[0])
        return got[0], puzzle.answer["right"][0], chosen

    def answer_words(self, puzzle: Puzzle) -> list[str]:
        """The prompt's words and the choices' letters."""
        return ["hint", "quit"] + [c["letter"] for c in puzzle.data["choices"]]

    def wrong_answer(self, puzzle: Puzzle) -> str | None:
        """The first choice's letter that is not right."""
        letter: str = next(
            c["letter"] for c in puzzle.data["choices"] if c["letter"] not in puzzle.answer["right"]
        )
        return letter
