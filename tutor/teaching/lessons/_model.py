"""The lesson as data: its pages of prose :class:`Segment` and engine :class:`Block` items, the
:class:`Lesson` they make, and a :class:`CourseEntry` as the home screen lists it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
class Block:
    """One engine block: ``kind`` (a key of :data:`tutor.teaching.lessons.BLOCK_KINDS`), its checked ``data`` and the file
    ``line`` of its opening fence.

    ``data`` by kind: ``quote`` -> ``{"refs": [source:id, ...]}``; ``puzzle`` -> ``{"kind",
    "theme", "count", "ruleset", "players", "difficulty", "objective"}`` (None where not given;
    ``objective`` is the id of the lesson objective its puzzles test), where
    ``kind`` is the puzzle spec to generate, ``KIND[/THEME]@LESSON`` with the lesson's file name
    (:mod:`tutor.puzzles.generators`: only puzzles that need nothing taught after this lesson,
    no harder than it allows), and ``theme`` the theme alone; ``rules`` ->
    ``{"rulesets", "parameters", "players"}``; ``odds`` -> ``{"figures", "rulesets",
    "players"}``; ``simulate`` -> ``{"ruleset", "players", "deals", "seed", "bots"}``, or with
    ``skill`` ``{"skill": [opponents], "rulesets", "deals", "seed", "samples"}``; ``cards``
    -> ``{"rows": [(label, [card, ...]), ...], "caption"}``; ``coach`` -> ``{"level",
    "players", "deals": {ruleset: seed}, "stops": {situation: Stop}}`` (see
    :mod:`tutor.teaching.coach`).  ``index`` numbers the lesson's blocks
    from 0 in file order (puzzle seeds use it).
    """

    kind: str
    data: dict[str, Any]
    line: int
    index: int = 0


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
        return [b for b in self.blocks("puzzle") if b.data.get("objective") == objective]

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
        return sum(b.data["count"] for b in self.blocks("puzzle"))

    def puzzle_slots(self) -> list[tuple[Block, int]]:
        """Every puzzle the lesson poses, in order, as ``(block, n)`` (``n`` from 0 within its
        block)."""
        return [(b, n) for b in self.blocks("puzzle") for n in range(b.data["count"])]

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
            for r in b.data["refs"]:
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
