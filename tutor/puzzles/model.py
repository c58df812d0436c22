"""The puzzle model: :class:`Puzzle`, :class:`Grade`, :class:`AnswerError`, and the kind
definitions read from ``puzzles/*.yaml`` (:class:`Definition`).

A puzzle is a position reached by legal play (a deal record cut at some action), the seat whose
view the learner takes, a question, the answer the engine computes from that position, an
explanation that cites the rule and quotes its source, themes and a difficulty from 1 to 5.
Its id ``KIND.RULESET.PLAYERS.SEED`` regenerates it exactly (see :mod:`tutor.puzzles.generators`).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Protocol, TypedDict, TypeVar, overload

from pydantic import AfterValidator, BeforeValidator, Discriminator, Field, PrivateAttr, Tag

from tutor.engine import yamlfile
from tutor.engine.data import data_dir
from tutor.engine.deal import Action, Deal, DealResult
from tutor.engine.errors import DataError, LaughError, NotationError
from tutor.engine.models import Model, refusal, validate
from tutor.engine.observe import Observation, observe
from tutor.engine.records import replay

FORMAT = "laugh-and-lie-down/puzzle@1"

#: How many tries a puzzle allows before its answer is shown (see :attr:`Grade.final`).
TRIES = 2


class AnswerError(NotationError):
    """An answer that cannot be read (or names cards the learner cannot see or hold).

    It is not graded wrong: the message explains what was expected, and the caller asks again.
    """


class PuzzleJson(TypedDict):
    """A puzzle in the ``laugh-and-lie-down/puzzle@1`` format (:meth:`Puzzle.to_json`): its
    id, kind, ruleset id, player count and the learner's seat, the deal record up to the
    position (:mod:`tutor.engine.records`), the question, the kind's answer (JSON), the accepted
    answers as a learner types them, the explanation, quotation refs, themes and difficulty
    (1-5 stars)."""

    format: str
    id: str
    kind: str
    ruleset: str
    players: int
    seat: int
    record: dict[str, Any]
    question: str
    answer: dict[str, Any]
    accepted: list[str]
    explanation: str
    quotes: list[str]
    themes: list[str]
    difficulty: int


@dataclass(frozen=True)
class Grade:
    """The grading of one answer.

    ``correct``: the answer is right.  ``message``: what was right or wrong, in words (it may
    name the answer: show it only when the puzzle is over).  ``credit``: the share of the answer
    that was right, from 0 to 1 (1 when correct; partial for a choice among listed moves).
    ``final``: the puzzle is over (right, or no try left): show ``message`` and the explanation.
    When ``final`` is False the learner gets another try: show ``retry`` (a nudge that does not
    give the answer away) and grade the next answer with ``attempt`` one higher
    (:meth:`Puzzle.grade`).
    """

    correct: bool
    message: str
    credit: float = -1.0
    final: bool = True
    retry: str = ""

    def __post_init__(self) -> None:
        if self.credit < 0:
            object.__setattr__(self, "credit", 1.0 if self.correct else 0.0)


# --------------------------------------------------------------------------------------------
# Definitions (puzzles/<kind>.yaml)

_LESSON = re.compile(r"^\d\d-[a-z0-9-]+$")
_PAGE = re.compile(r"^\d\d-[a-z0-9-]+#\S.*$")


class _Formatter(string.Formatter):
    def __init__(self, where: str) -> None:
        self.where = where

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, str) and key not in kwargs:
            raise DataError(
                f"{self.where}: unknown placeholder {{{key}}} (known: {', '.join(sorted(kwargs))})"
            )
        return super().get_value(key, args, kwargs)


def _lesson_name(value: str) -> str:
    if not _LESSON.match(value):
        raise ValueError(
            f"must be a lesson file name without .md, such as 04-capturing, not {value!r}"
        )
    return value


def _page_name(value: str) -> str:
    if not _PAGE.match(value):
        raise ValueError(
            "must be a lesson page, `NN-name#Page heading` (the lesson's file name "
            "without .md, then the heading of the page)"
        )
    return value


#: A lesson named by its file name without ``.md``: ``04-capturing``.
LessonName = Annotated[str, AfterValidator(_lesson_name)]
#: A lesson page: ``NN-name#Page heading``.
PageName = Annotated[str, AfterValidator(_page_name)]


def _variants(shorthand: type, what: str) -> Callable[[object], object]:
    """A before-validator: null is no entry, a bare ``shorthand`` value is the ``default``
    variant's, a mapping is checked as variant -> value."""

    def read(value: object) -> object:
        if value is None:
            return {}
        if isinstance(value, shorthand) and not isinstance(value, dict):
            return {"default": value}
        if not isinstance(value, dict):
            raise ValueError(f"must be {what}, or a mapping of variant to {what}")
        return value

    return read


def _none_is(empty: object) -> Callable[[object], object]:
    return lambda value: empty if value is None else value


class Difficulty(Model):
    """A kind's difficulty knobs: stars are ``base`` plus each feature's value times its
    weight (``weights``: feature -> weight), rounded and kept within 1-5; ``formula`` the rule
    in words."""

    base: float = 1.0
    weights: Annotated[dict[str, float], BeforeValidator(_none_is({}))] = {}
    formula: str = ""


class QuoteSpec(Model):
    """A definition's quotation entry that picks by a parameter: up to ``limit`` of the
    quotations behind the ruleset's ``parameter`` (refs), only those ``among`` the refs listed
    when given; ``fallback`` refs quoted when that leaves nothing."""

    parameter: str
    among: list[str] | None = None
    limit: Annotated[int, Field(ge=0)] = 2
    fallback: list[str] = []


def _quote_tag(value: object) -> str:
    return "spec[mapping]" if isinstance(value, dict | QuoteSpec) else "ref[text]"


#: A definition's quotation entry: a ref (``source:id``), or a :class:`QuoteSpec` (a mapping);
#: the tags hold brackets so that a refusal names the entry's keys alone
#: (:func:`tutor.engine.models.problem`).
QuoteEntry = Annotated[
    Annotated[QuoteSpec, Tag("spec[mapping]")] | Annotated[str, Tag("ref[text]")],
    Discriminator(_quote_tag),
]


#: A definition's piece of wording (``words``): text, a list of texts, or a mapping of texts.
Wording = str | list[str] | dict[str, str]
_W = TypeVar("_W", str, list[str], dict[str, str])


class Definition(Model):
    """One kind's definition as data (``puzzles/<kind>.yaml``), read and checked by
    :func:`load_definition`.

    ``questions``, ``hints``, ``explanations``, ``quotes`` and ``problems`` map a variant name (or
    ``default``) to templates, lists of hint templates, explanation templates, quotation
    references and problem ids (a bare value in the file is the ``default`` variant's);
    ``difficulty`` holds the knobs (:class:`Difficulty`); ``decoy_rate`` is the share of decoys;
    ``words`` and ``options`` are other wording and knobs the kind needs (each kind reads its
    own); ``items`` is data a kind draws from (the sentences of the reading kind).  ``lesson``
    is the lesson (its file name without ``.md``, such as ``04-capturing``) that first teaches
    the kind's question; ``themes`` maps each theme its puzzles are tagged with to the lesson
    that teaches it (None: a theme of house rules that no lesson teaches).  Templates are
    ``str.format`` strings filled with facts the generator reads from the engine.  ``path`` is
    the file read.
    """

    kind: str
    title: str
    generator_version: Annotated[int, Field(ge=1)]
    lesson: LessonName | None
    questions: Annotated[dict[str, str], BeforeValidator(_variants(str, "text"))]
    hints: Annotated[dict[str, list[str]], BeforeValidator(_variants(list, "a list"))]
    explanations: Annotated[dict[str, str], BeforeValidator(_variants(str, "text"))]
    summary: Annotated[str, BeforeValidator(_none_is(""))] = ""
    decoy_rate: Annotated[float, Field(ge=0, le=1)] = 0.0
    themes: Annotated[dict[str, LessonName | None], BeforeValidator(_none_is({}))] = {}
    difficulty: Annotated[Difficulty, BeforeValidator(_none_is({}))] = Difficulty()
    quotes: Annotated[dict[str, list[QuoteEntry]], BeforeValidator(_variants(list, "a list"))] = {}
    problems: Annotated[
        dict[str, list[str | dict[str, str]]], BeforeValidator(_variants(list, "a list"))
    ] = {}
    words: Annotated[dict[str, Wording], BeforeValidator(_none_is({}))] = {}
    options: Annotated[dict[str, Any], BeforeValidator(_none_is({}))] = {}
    items: Annotated[list[Any], BeforeValidator(_none_is([]))] = []
    pages: Annotated[dict[str, PageName], BeforeValidator(_variants(str, "a lesson page"))] = {}
    _path: Path = PrivateAttr(default=Path("definition.yaml"))

    @property
    def path(self) -> Path:
        """The file the definition was read from."""
        return self._path

    def page_for(self, *keys: str) -> str:
        """The lesson page that teaches a puzzle's point, ``NN-name#Page heading``: the entry of
        ``pages`` for the first of ``keys`` (a variant, a theme) that has one, else
        ``default``; "" when there is none."""
        for k in keys:
            if k and k != "default" and k in self.pages:
                return self.pages[k]
        return self.pages.get("default", "")

    def _pick(self, table: dict[str, str], variant: str, what: str) -> str:
        if variant in table:
            return table[variant]
        if "default" in table:
            return table["default"]
        raise DataError(f"{self.path.name}: {what} has no entry for {variant!r} and no default")

    def fill(self, template: str, facts: Mapping[str, object], where: str) -> str:
        """``template`` filled with ``facts``; raises DataError naming an unknown placeholder."""
        try:
            return _Formatter(f"{self.path.name}: {where}").vformat(template, (), facts).strip()
        except (IndexError, ValueError) as exc:
            raise DataError(f"{self.path.name}: {where}: bad template: {exc}") from None

    def question(self, variant: str, facts: Mapping[str, object]) -> str:
        """The question for ``variant``, filled."""
        return self.fill(
            self._pick(self.questions, variant, "questions"), facts, f"questions.{variant}"
        )

    def hint_list(self, variant: str, facts: Mapping[str, object]) -> list[str]:
        """The hints for ``variant`` (the variant's own, else the default list), filled."""
        hints = self.hints.get(variant, self.hints.get("default", []))
        return [self.fill(h, facts, f"hints.{variant}") for h in hints]

    def explanation(self, variant: str, facts: Mapping[str, object]) -> str:
        """The explanation for ``variant``, filled."""
        return self.fill(
            self._pick(self.explanations, variant, "explanations"), facts, f"explanations.{variant}"
        )

    def quote_spec(self, *keys: str) -> list[str | QuoteSpec]:
        """The quotations for the first of ``keys`` that has an entry (else ``default``): a list
        of refs and :class:`QuoteSpec` entries."""
        for k in keys:
            if k in self.quotes:
                return self.quotes[k]
        return self.quotes.get("default", [])

    def problem_specs(self, *keys: str) -> list[dict[str, str]]:
        """The source problems (RULES.md 6) that may bear on the puzzle: ``default``'s, then
        those of the first of ``keys`` that has an entry, as ``[{id, when}]``."""
        specs = list(self.problems.get("default", []))
        for k in keys:
            if k in self.problems and k != "default":
                specs += list(self.problems[k])
                break
        return [p if isinstance(p, dict) else {"id": p} for p in specs]

    def word(self, key: str, default: str = "") -> str:
        """A piece of wording from ``words``: text (``default`` when there is none); raises
        DataError when the entry is a list or a mapping."""
        return self._word(key, str, "text", default)

    def word_list(self, key: str) -> list[str]:
        """A list of words from ``words`` (empty when there is none); raises DataError when the
        entry is not a list."""
        return self._word(key, list, "a list", [])

    def word_map(self, key: str) -> dict[str, str]:
        """A mapping of words from ``words`` (empty when there is none); raises DataError when
        the entry is not a mapping."""
        return self._word(key, dict, "a mapping", {})

    def _word(self, key: str, shape: type[_W], what: str, default: _W) -> _W:
        value = self.words.get(key, default)
        if not isinstance(value, shape):
            raise DataError(f"{self.path.name}: words.{key} must be {what}")
        return value

    def rate_difficulty(self, features: dict[str, float]) -> int:
        """Difficulty 1-5: ``base`` plus each feature's value times its weight, rounded (halves
        up) and kept within 1-5."""
        weights = self.difficulty.weights
        score = self.difficulty.base + sum(
            weights.get(k, 0.0) * float(v) for k, v in features.items()
        )
        return max(1, min(5, int(score + 0.5)))

    def lesson_of(self, theme: str | None = None) -> str | None:
        """The lesson that teaches a puzzle of this kind tagged ``theme`` (the later of the
        kind's lesson and the theme's), or with no theme the lesson by which every theme the
        course teaches is taught.  None for a theme no lesson teaches.  Lessons are named by
        file name without ``.md``, which sorts in course order."""
        if theme is None:
            taught = [t for t in self.themes.values() if t]
            return max([self.lesson or ""] + taught) or None
        if theme not in self.themes:
            return self.lesson
        t = self.themes[theme]
        return None if t is None else max(self.lesson or "", t)


def load_definition(path: Path) -> Definition:
    """Read and check one ``puzzles/<kind>.yaml`` (through :mod:`tutor.engine.yamlfile`: safe
    loader, size, depth and alias limits, duplicate keys refused) as a :class:`Definition`.

    Raises :class:`DataError` ``FILE:LINE: KEY: what is wrong`` for a file that cannot be read,
    is not YAML within the limits, has an unknown, missing or ill-typed key, or names another
    kind than its file name's.
    """
    path = Path(path)
    raw, doc = yamlfile.load(yamlfile.read_text(path, path.name), path.name)
    defn = validate(Definition, raw, doc=doc)
    if defn.kind != path.stem:
        raise refusal(
            doc,
            f"{defn.kind!r} is not this file's kind: expected {path.stem!r} (the file name)",
            "kind",
        )
    defn._path = path
    return defn


_DEFS: dict[str, Definition] = {}


def puzzles_dir() -> Path:
    """The folder of puzzle definitions (``puzzles/`` in a checkout, packaged data otherwise)."""
    return data_dir("puzzles")


def definition(kind: str) -> Definition:
    """The :class:`Definition` of ``kind``, read once from ``puzzles/<kind>.yaml``; raises
    DataError when the file is missing or malformed."""
    d = _DEFS.get(kind)
    if d is None:
        path = puzzles_dir() / f"{kind}.yaml"
        if not path.is_file():
            raise DataError(f"missing puzzle definition {path}")
        d = _DEFS[kind] = load_definition(path)
    return d


#: Data files of ``puzzles/`` that are not a kind's definition.
NOT_DEFINITIONS = frozenset({"board.yaml", "themes.yaml"})


def definition_files() -> list[Path]:
    """Every ``puzzles/*.yaml`` definition file, in name order (the curated sets, the board
    table ``board.yaml`` and the theme table ``themes.yaml`` excluded)."""
    return sorted(p for p in puzzles_dir().glob("*.yaml") if p.name not in NOT_DEFINITIONS)


@dataclass(frozen=True)
class BoardFeature:
    """Something a puzzle's board can show besides what its question asks (``puzzles/board.yaml``):
    its ``id``, the ``lesson`` that teaches it (a lesson file name without ``.md``; None for a
    house rule no lesson teaches) and ``words`` for a problem line."""

    id: str
    lesson: str | None
    words: str


class _BoardEntry(Model):
    lesson: LessonName | None
    words: str


class _Board(Model):
    """``puzzles/board.yaml``: feature id -> the lesson that teaches it and its words."""

    features: Annotated[dict[str, _BoardEntry], Field(min_length=1)]


_BOARD: dict[str, BoardFeature] = {}


def board_features_table(path: Path | None = None) -> dict[str, BoardFeature]:
    """``puzzles/board.yaml`` (or ``path``), read once and checked: feature id ->
    :class:`BoardFeature`.  Raises DataError ``board.yaml:LINE: KEY: what is wrong`` for a
    malformed file."""
    if _BOARD and path is None:
        return _BOARD
    path = path or puzzles_dir() / "board.yaml"
    raw, doc = yamlfile.load(yamlfile.read_text(path, path.name), path.name)
    board = validate(_Board, raw, doc=doc)
    out = {k: BoardFeature(k, v.lesson, v.words) for k, v in board.features.items()}
    if path == puzzles_dir() / "board.yaml":
        _BOARD.update(out)
    return out


# --------------------------------------------------------------------------------------------
# Hints


class Hints(Sequence[str]):
    """A puzzle's hints, in the order they are shown: texts, and hints worked out only when first
    shown (a zero-argument callable returning the text, called once; for a hint that needs an
    analysis of the position, which would slow every puzzle's generation down if made then).

    A sequence of strings: ``len(hints)`` never works a hint out; ``hints[i]`` works out hint
    ``i`` if it is not yet known.
    """

    def __init__(self, items: Iterable[str | Callable[[], str]] = ()) -> None:
        self._items: list[str | Callable[[], str]] = list(items)

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...

    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self._items)))]
        x = self._items[i]
        if callable(x):
            x = self._items[i] = str(x())
        return x

    def known(self, i: int) -> bool:
        """True when hint ``i`` is text already (shown, or never deferred)."""
        return not callable(self._items[i])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Hints, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        shown = [x if not callable(x) else "<worked out when shown>" for x in self._items]
        return f"Hints({shown!r})"


# --------------------------------------------------------------------------------------------
# The puzzle


#: How a kind's board is drawn when its definition says nothing (``options.board`` in
#: ``puzzles/<kind>.yaml``): the latest ``recent`` actions in words, and the pot or points line
#: only where the answer depends on it (``scoring``).
BOARD_DEFAULTS = {"recent": 3, "scoring": False}


def board_options(kind: str) -> dict[str, Any]:
    """The kind's board settings: ``recent`` (how many of the latest actions are shown) and
    ``scoring`` (whether the pot or points line is shown), from ``options.board`` of its
    definition."""
    got = definition(kind).options.get("board") or {}
    return {**BOARD_DEFAULTS, **(got if isinstance(got, dict) else {})}


@dataclass(frozen=True)
class Board:
    """What the board of a puzzle about a position shows, worked out once from its position
    (:attr:`Puzzle.board`), so that the puzzle is drawn in one pass
    (:func:`tutor.puzzles.render.render_puzzle`) and its board's features read from the same
    facts (:func:`tutor.puzzles.render.board_features`).

    ``scoring``: the pot or points line is shown (the kind's ``options.board``); ``dealer`` and
    ``to_move`` seats (``to_move`` None once play is over: ``over``); ``view`` the seat's
    observation (RULES.md 8; None once play is over); ``hand`` the seat's cards; ``history``
    every action; ``earlier`` and ``latest`` the indices into it that the board shows in words
    (the earlier actions the puzzle rests on, ``data["history"]``, and the latest
    ``options.board.recent``); ``result`` the deal's final result once play is over;
    ``set_aside`` a table mournival set aside (in play)."""

    scoring: bool
    dealer: int
    to_move: int | None
    over: bool
    view: Observation | None
    hand: tuple[int, ...]
    history: tuple[Action, ...]
    earlier: tuple[int, ...]
    latest: tuple[int, ...]
    result: DealResult | None
    set_aside: bool

    @classmethod
    def of(cls, puzzle: Puzzle) -> Board:
        """The board of ``puzzle``, from its position (:attr:`Puzzle.position`)."""
        deal = puzzle.position
        opts = board_options(puzzle.kind)
        n = len(deal.history)
        first = max(0, n - int(opts["recent"]))
        over = deal.is_terminal()
        return cls(
            scoring=bool(opts["scoring"]),
            dealer=deal.dealer,
            to_move=None if over else deal.to_move,
            over=over,
            view=None if over else observe(deal, puzzle.seat),
            hand=deal.hand(puzzle.seat),
            history=tuple(deal.history),
            earlier=tuple(sorted(i for i in puzzle.data.get("history", ()) if i < first)),
            latest=tuple(range(first, n)),
            result=deal.final_result() if over else None,
            set_aside=not over and bool(deal.set_aside()),
        )


class _Grader(Protocol):
    """What a puzzle asks of its kind (a :class:`tutor.puzzles.base.PuzzleKind`, named here by
    its shape: the kinds' module imports this one)."""

    def grade(self, puzzle: Puzzle, text: str, attempt: int = 1) -> Grade: ...

    def answer_words(self, puzzle: Puzzle) -> list[str]: ...


@dataclass
class Puzzle:
    """One puzzle (see the module docstring).

    ``record`` is a deal record (RULES.md 9) without ``result``, cut at the position; ``answer`` is
    machine-readable (see ``puzzles/README.md``); ``accepted`` lists answers as a learner would
    type them that are all graded right; ``quotes`` are quotation references ``source:id``;
    ``variant`` names the kind's sub-case (an oversight kind, ``decoy``, a question form);
    ``data`` holds what grading and display need beyond the public fields; ``problems`` are the
    source problems (RULES.md 6) the explanation mentions, as ``{id, source, summary}``;
    ``theme`` is the puzzle's main theme (one of ``themes``: what "try again" keeps);
    ``teaches`` the lesson page that teaches its point, ``NN-name#Page heading`` (the kind's
    ``pages``; "" when none is named);
    ``hints`` are shown one at a time (:class:`Hints`: some are worked out only when shown).
    """

    id: str
    kind: str
    ruleset: str
    players: int
    seat: int
    record: dict[str, Any]
    question: str
    answer: dict[str, Any]
    accepted: list[str]
    explanation: str
    quotes: list[str]
    themes: list[str]
    difficulty: int
    hints: Sequence[str]
    variant: str = "default"
    data: dict[str, Any] = field(default_factory=dict)
    problems: list[dict[str, Any]] = field(default_factory=list)
    theme: str = ""
    teaches: str = ""
    _deal: Any = field(default=None, repr=False, compare=False)
    _kind: Any = field(default=None, repr=False, compare=False)
    _board: Any = field(default=None, repr=False, compare=False)

    # -- the position ---------------------------------------------------------------------

    @property
    def position(self) -> Deal:
        """The position, replayed from :attr:`record` once (by the generator, which checks the
        record replays legally) and carried by the puzzle: read it, never change it
        (:meth:`deal` gives a copy to change)."""
        if self._deal is None:
            self._deal = replay(self.record)
        deal: Deal = self._deal
        return deal

    def deal(self) -> Deal:
        """The position as a fresh :class:`~tutor.engine.Deal` of its own (a copy of
        :attr:`position`), to play on or change."""
        return self.position.clone()

    @property
    def board(self) -> Board:
        """What the board shows (:class:`Board`), worked out once from :attr:`position`.
        Raises LaughError for a puzzle without a position (:attr:`has_position`)."""
        if self._board is None:
            if not self.has_position:
                raise LaughError(f"puzzle {self.id} is not about a position: it has no board")
            self._board = Board.of(self)
        board: Board = self._board
        return board

    @property
    def asks(self) -> set[str]:
        """The themes the puzzle asks about: its main :attr:`theme` and its :attr:`themes`,
        but those carried only by a listed option that is not allowed (a decoy's tag,
        ``data["decoy_tags"]``: a puzzle listing a declaration that may not be made does not
        ask for a declaration)."""
        return ({self.theme} | set(self.themes)) - set(self.data.get("decoy_tags", ())) - {""}

    @property
    def has_position(self) -> bool:
        """True when the puzzle is about a position on the table (not a setup or source quiz)."""
        return bool(self.data.get("position", True))

    # -- answers --------------------------------------------------------------------------

    def grade(self, text: str, attempt: int = 1) -> Grade:
        """Grade a learner's answer (plain words and card codes), read exactly.

        ``attempt`` counts the tries at this puzzle from 1; a wrong answer before the last try
        (:data:`TRIES`) gives a :class:`Grade` that is not ``final``, with a ``retry`` nudge.
        Raises :class:`AnswerError` when the text cannot be read completely (the caller
        explains and asks again; it is not a try).
        """
        return self._the_kind().grade(self, text, attempt)

    def expected_answer_text(self) -> str:
        """The right answer written as a learner would type it."""
        return self.accepted[0]

    def answer_words(self) -> list[str]:
        """Words to offer as completions at the answer prompt."""
        return self._the_kind().answer_words(self)

    def _the_kind(self) -> _Grader:
        if self._kind is None:
            raise LaughError(
                f"puzzle {self.id} was not made by tutor.puzzles.generate, so it cannot be graded"
            )
        kind: _Grader = self._kind
        return kind

    # -- output ---------------------------------------------------------------------------

    def to_json(self) -> PuzzleJson:
        """The puzzle in the ``laugh-and-lie-down/puzzle@1`` format (:class:`PuzzleJson`)."""
        return {
            "format": FORMAT,
            "id": self.id,
            "kind": self.kind,
            "ruleset": self.ruleset,
            "players": self.players,
            "seat": self.seat,
            "record": self.record,
            "question": self.question,
            "answer": self.answer,
            "accepted": list(self.accepted),
            "explanation": self.explanation,
            "quotes": list(self.quotes),
            "themes": list(self.themes),
            "difficulty": self.difficulty,
        }
