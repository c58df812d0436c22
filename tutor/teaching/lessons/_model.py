"""The lesson as data: its pages of prose :class:`Segment` and engine :class:`Block` items, the
:class:`Lesson` they make, and a :class:`CourseEntry` as the home screen lists it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict, cast, final

from tutor.engine.errors import UsageError

#: Front matter keys, all required: id (slug), title, objectives (a list of ``{id, text,
#: themes}``: an id the lesson's puzzle blocks name, the learner-facing words, and the themes
#: that serve it, which every puzzle its blocks draw must ask about), prerequisites (list of lesson
#: ids), sources (list of source ids quoted), minutes (estimated, whole number).
FRONT_MATTER_KEYS = ("id", "title", "objectives", "prerequisites", "sources", "minutes")


@dataclass(frozen=True)
class Segment:
    """A stretch of Markdown prose: ``text`` (CommonMark source) starting at file line ``line``."""

    text: str
    line: int


@dataclass(frozen=True)
class Stop:
    """What the coach says at a situation: the lesson (its id) and the page (its first
    heading) that teach it, the phrase on that page from which the coach shows the page's words
    (to the end of that paragraph), the quotations (``source:id``, each quoted on that
    page) it may show, and ``advice``: one quotation (quoted in some lesson) given as one line
    of advice, or None."""

    situation: str
    lesson: str
    page: str
    phrase: str
    quotes: tuple[str, ...]
    advice: str | None = None


class QuoteData(TypedDict):
    """A ``quote`` block: the quotations it shows (``source:id``, each of the library)."""

    refs: list[str]


class PuzzleData(TypedDict):
    """A ``puzzle`` block (None where not given): ``kind`` the puzzle spec to generate,
    ``KIND[/THEME]@LESSON`` with the lesson's file name (:mod:`tutor.puzzles.generators`: only
    puzzles that need nothing taught after this lesson, no harder than it allows), ``theme``
    the theme alone, ``count`` puzzles, ``objective`` the id of the lesson objective its puzzles
    test."""

    kind: str
    theme: str | None
    count: int
    ruleset: str | None
    players: int | None
    difficulty: int | None
    objective: str | None


class RulesData(TypedDict):
    """A ``rules`` block: the rulesets (ids) and parameters compared, at ``players``."""

    rulesets: list[str]
    parameters: list[str]
    players: int | None


class OddsData(TypedDict):
    """An ``odds`` block: the figures (:data:`ODDS_FIGURES`), under these rulesets."""

    figures: list[str]
    rulesets: list[str]
    players: int | None


@final
class SimulateData(TypedDict):
    """A ``simulate`` block: ``deals`` self-play deals of a ruleset at ``players``, by ``bots``
    (a computer player's name) from ``seed``."""

    ruleset: str
    players: int
    deals: int
    seed: int
    bots: str


@final
class SkillData(TypedDict):
    """A ``simulate`` block with ``skill``: the expert seat's gain per ruleset (None: the
    figures' own rulesets) against these opponents, from the precomputed figures."""

    skill: list[str]
    rulesets: list[str] | None
    deals: int
    seed: int
    samples: int


class CardsData(TypedDict):
    """A ``cards`` block: rows of ``(label, cards)`` (cards as ints) and a caption or None."""

    rows: list[tuple[str, list[int]]]
    caption: str | None


class RecordsData(TypedDict):
    """A ``records`` block: the kinds of record shown (None: every kind)."""

    kinds: list[str] | None


class CoachData(TypedDict):
    """A ``coach`` block: the coach's level, the players, ``deals`` as ``{ruleset: seed}``, and
    the coach's stop at each situation (``situation`` or ``situation/ruleset``)."""

    level: str
    players: int
    deals: dict[str, int]
    stops: dict[str, Stop]


#: A block's checked data, by its kind.
BlockData = (
    QuoteData
    | PuzzleData
    | RulesData
    | OddsData
    | SimulateData
    | SkillData
    | CardsData
    | RecordsData
    | CoachData
)


@dataclass(frozen=True)
class Block:
    """One engine block: ``kind`` (a key of :data:`tutor.teaching.lessons.BLOCK_KINDS`), its
    checked ``data`` (:data:`BlockData`: :class:`QuoteData` for a ``quote`` block,
    :class:`PuzzleData` for a ``puzzle``, ...; read through the accessor of its kind, such as
    :meth:`puzzle`) and the file ``line`` of its opening fence.  ``index`` numbers the lesson's
    blocks from 0 in file order (puzzle seeds use it).
    """

    kind: str
    data: BlockData
    line: int
    index: int = 0

    def _of(self, kind: str) -> BlockData:
        if self.kind != kind:
            raise TypeError(f"a {self.kind} block read as a {kind} block")
        return self.data

    def quote(self) -> QuoteData:
        """The data of a ``quote`` block; TypeError for another kind."""
        return cast(QuoteData, self._of("quote"))

    def puzzle(self) -> PuzzleData:
        """The data of a ``puzzle`` block; TypeError for another kind."""
        return cast(PuzzleData, self._of("puzzle"))

    def rules(self) -> RulesData:
        """The data of a ``rules`` block; TypeError for another kind."""
        return cast(RulesData, self._of("rules"))

    def odds(self) -> OddsData:
        """The data of an ``odds`` block; TypeError for another kind."""
        return cast(OddsData, self._of("odds"))

    def simulate(self) -> SimulateData | SkillData:
        """The data of a ``simulate`` block (:class:`SkillData` when it has ``skill``);
        TypeError for another kind."""
        return cast("SimulateData | SkillData", self._of("simulate"))

    def cards(self) -> CardsData:
        """The data of a ``cards`` block; TypeError for another kind."""
        return cast(CardsData, self._of("cards"))

    def records(self) -> RecordsData:
        """The data of a ``records`` block; TypeError for another kind."""
        return cast(RecordsData, self._of("records"))

    def coach(self) -> CoachData:
        """The data of a ``coach`` block; TypeError for another kind."""
        return cast(CoachData, self._of("coach"))


Item = Segment | Block


@dataclass
class Lesson:
    """A checked lesson.

    ``objectives`` are the learner-facing words of its objectives and ``objective_ids`` their
    ids, in the same order (every objective is tested by at least one puzzle block naming its
    id: :meth:`objective_blocks`); ``objective_themes`` maps an id to the themes that serve the
    objective (ids of ``puzzles/themes.yaml``; an objective that lists none is absent), which
    every puzzle of its blocks must ask about (:attr:`tutor.puzzles.Puzzle.asks`).  ``number`` is its place in the course (1-based; 0 outside
    it); ``pages`` is a list of pages, each a list of :class:`Segment` and :class:`Block` in
    order; ``path`` is the file.
    """

    id: str
    title: str
    objectives: list[str]
    prerequisites: list[str]
    sources: list[str]
    minutes: int
    path: Path
    pages: list[list[Item]] = field(default_factory=list)
    number: int = 0
    objective_ids: list[str] = field(default_factory=list)
    objective_themes: dict[str, list[str]] = field(default_factory=dict)

    def objective_blocks(self, objective: str) -> list[Block]:
        """The puzzle blocks that test the objective ``objective`` (an id), in file order."""
        return [b for b in self.blocks("puzzle") if b.puzzle()["objective"] == objective]

    def objective_text(self, objective: str) -> str:
        """The learner-facing words of the objective ``objective`` (an id); KeyError if the
        lesson has none of that id."""
        if objective not in self.objective_ids:
            raise KeyError(objective)
        return self.objectives[self.objective_ids.index(objective)]

    def page_of(self, block: Block) -> int:
        """The page (0-based) on which ``block`` stands; ValueError when it is not the
        lesson's."""
        for i, page in enumerate(self.pages):
            if any(isinstance(x, Block) and x.index == block.index for x in page):
                return i
        raise ValueError(f"block {block.index} is not in the lesson")

    def blocks(self, kind: str | None = None) -> Iterator[Block]:
        """Every block (or every block of ``kind``) in file order."""
        for page in self.pages:
            for item in page:
                if isinstance(item, Block) and (kind is None or item.kind == kind):
                    yield item

    @property
    def puzzle_count(self) -> int:
        """How many puzzles the lesson poses (the sum of its puzzle blocks' counts)."""
        return sum(b.puzzle()["count"] for b in self.blocks("puzzle"))

    def puzzle_slots(self) -> list[tuple[Block, int]]:
        """Every puzzle the lesson poses, in order, as ``(block, n)`` (``n`` from 0 within its
        block)."""
        return [(b, n) for b in self.blocks("puzzle") for n in range(b.puzzle()["count"])]

    def puzzle_number(self, block: Block, n: int) -> int:
        """The place (from 1) of puzzle ``n`` of ``block`` among all the lesson's puzzles, so a
        heading reads "Puzzle 3 of 5" the same way the lesson's header counts them.  Raises
        UsageError when the block holds no such puzzle."""
        for i, (b, k) in enumerate(self.puzzle_slots(), 1):
            if b.index == block.index and k == n:
                return i
        raise UsageError(f"the lesson has no puzzle {n} in block {block.index}")

    @property
    def quotes(self) -> list[str]:
        """The quotation references of its quote blocks, in order, without repeats."""
        seen: dict[str, None] = {}
        for b in self.blocks("quote"):
            for r in b.quote()["refs"]:
                seen.setdefault(r, None)
        return list(seen)


@dataclass(frozen=True)
class CourseEntry:
    """One lesson as the home screen lists it: number (1-based), id, title, minutes, file."""

    number: int
    id: str
    title: str
    minutes: int
    path: Path


def page_heading(page) -> str | None:
    """A page's first heading (its name in a track's ``pages``)."""
    for item in page:
        if isinstance(item, Segment):
            for line in item.text.splitlines():
                if line.startswith("#"):
                    return line.lstrip("#").strip()
    return None
