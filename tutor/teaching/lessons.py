"""Lessons as data: reading and checking the Markdown files in ``lessons/``.

A lesson is a Markdown file with YAML front matter (see ``lessons/README.md`` for the format):

- front matter keys ``id``, ``title``, ``objectives``, ``prerequisites``, ``sources`` (the ids of
  the sources it quotes) and ``minutes``;
- a body in CommonMark (raw HTML is off: ``<b>`` is shown as text), split into pages by
  thematic breaks (a line ``---`` with a blank line before it);
- fenced blocks whose info word names an engine block: ``quote``, ``puzzle``, ``rules``,
  ``odds``, ``simulate`` and ``cards`` (see :data:`BLOCK_KINDS`).

:func:`load_lesson` reads and checks one file and raises :class:`~tutor.engine.errors.DataError`
(``FILE:LINE: KEY: what is wrong``) at the first problem; :func:`check_lessons` collects every
problem of every file instead.  :func:`course_index` reads only the front matter of each file
(no Markdown parser, no sources), for the home screen.

The course is every ``*.md`` file of ``data_dir("lessons")`` except ``README.md``, in file-name
order (``01-history.md``, ``02-terms.md``, ...).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tutor.engine import yamlfile
from tutor.engine.data import data_dir
from tutor.engine.errors import DataError, UsageError

__all__ = [
    "BLOCK_KINDS", "Block", "CourseEntry", "FRONT_MATTER_KEYS", "Lesson", "ODDS_FIGURES",
    "Segment", "check_lessons", "course_index", "find_lesson", "lesson_files", "lesson_keys",
    "load_course", "load_lesson", "match_lesson", "puzzle_seed", "resolve_players",
]

#: Front matter keys, all required: id (slug), title, objectives (list of text), prerequisites
#: (list of lesson ids), sources (list of source ids quoted), minutes (estimated, whole number).
FRONT_MATTER_KEYS = ("id", "title", "objectives", "prerequisites", "sources", "minutes")

#: The blocks a lesson may use: info word -> one-line description.
BLOCK_KINDS = {
    "quote": "quotations by reference (source:id), shown verbatim with their citations",
    "puzzle": "engine-graded puzzles: kind, theme, count, ruleset, players, difficulty",
    "rules": "a side-by-side table of chosen ruleset parameters",
    "odds": "exact odds of the deal from the engine",
    "simulate": "the dealer's advantage measured by simulated deals, or (with skill) how much "
                "an expert seat gains per ruleset, from precomputed figures",
    "cards": "hands or a table of cards, one labelled row each",
}

#: ``odds`` figures: name -> description (see :mod:`tutor.engine.odds`).
ODDS_FIGURES = {
    "table_mournival": "a mournival among the table cards",
    "hand_prial": "a prial in one player's hand",
    "hand_mournival": "a mournival in one player's hand",
    "hand_prial_or_mournival": "a prial or better in one player's hand",
}

_ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_REF_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*:[a-z0-9]+(?:-[a-z0-9]+)*$")
_MAX_PUZZLES = 10
#: A lesson file name (without ``.md``) that places it in the course: ``04-capturing``.
_STEM_RE = re.compile(r"^\d\d-[a-z0-9-]+$")
_MAX_DEALS = 20000


# --------------------------------------------------------------------------------------------
# Data classes


@dataclass(frozen=True)
class Segment:
    """A stretch of Markdown prose: ``text`` (CommonMark source) starting at file line ``line``."""

    text: str
    line: int


@dataclass(frozen=True)
class Block:
    """One engine block: ``kind`` (a key of :data:`BLOCK_KINDS`), its checked ``data`` and the file
    ``line`` of its opening fence.

    ``data`` by kind: ``quote`` -> ``{"refs": [source:id, ...]}``; ``puzzle`` -> ``{"kind",
    "theme", "count", "ruleset", "players", "difficulty"}`` (None where not given), where
    ``kind`` is the puzzle spec to generate, ``KIND[/THEME]@LESSON`` with the lesson's file name
    (:mod:`tutor.puzzles.generators`: only puzzles that need nothing taught after this lesson,
    no harder than it allows), and ``theme`` the theme alone; ``rules`` ->
    ``{"rulesets", "parameters", "players"}``; ``odds`` -> ``{"figures", "rulesets",
    "players"}``; ``simulate`` -> ``{"ruleset", "players", "deals", "seed", "bots"}``, or with
    ``skill`` ``{"skill": [opponents], "rulesets", "deals", "seed", "samples"}``; ``cards``
    -> ``{"rows": [(label, [card, ...]), ...], "caption"}``.  ``index`` numbers the lesson's blocks
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

    ``number`` is its place in the course (1-based; 0 outside it); ``pages`` is a list of pages,
    each a list of :class:`Segment` and :class:`Block` in order; ``path`` is the file.
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


# --------------------------------------------------------------------------------------------
# Files and the course


def lesson_files(folder: Path | None = None) -> list[Path]:
    """The lesson files of ``folder`` (default the project's ``lessons/``), in name order,
    ``README.md`` excluded."""
    folder = Path(folder) if folder is not None else data_dir("lessons")
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.md") if p.name.lower() != "readme.md")


def course_index(folder: Path | None = None) -> list[CourseEntry]:
    """The course read cheaply: only each file's front matter, without checking the body.

    A file whose front matter cannot be read is listed under its file name (title "(cannot be
    read: run laugh lessons check)") so the home screen still opens.
    """
    out = []
    for n, path in enumerate(lesson_files(folder), 1):
        try:
            fm, _, _ = _split_front_matter(path, yamlfile.read_text(path, _display(path)))
            data = yamlfile.load(fm, _display(path), 2)[0] if fm is not None else None
        except DataError:
            data = None
        if not isinstance(data, dict):
            data = {}
        lid = data.get("id") if isinstance(data.get("id"), str) else path.stem
        title = data.get("title") if isinstance(data.get("title"), str) else \
            "(cannot be read: run laugh lessons check)"
        minutes = data.get("minutes") if isinstance(data.get("minutes"), int) else 0
        out.append(CourseEntry(n, lid, title, minutes, path))
    return out


def load_course(folder: Path | None = None, library=None) -> list[Lesson]:
    """Every lesson of the course, loaded and checked (raises :class:`DataError` at the first
    problem, as :func:`load_lesson`)."""
    lessons = []
    for n, path in enumerate(lesson_files(folder), 1):
        lesson = load_lesson(path, library)
        lesson.number = n
        lessons.append(lesson)
    problems = _course_problems(lessons)
    if problems:
        raise DataError(problems[0])
    return lessons


def lesson_keys(entry: CourseEntry) -> tuple[str, ...]:
    """The names a learner may give for ``entry``: its short id (``oversights``), its number
    (``8``; ``08`` is read as the number too) and its file name with or without ``.md``
    (``08-oversights``, ``08-oversights.md``)."""
    return (entry.id, str(entry.number), entry.path.stem, entry.path.name)


def match_lesson(entries: Iterable[CourseEntry], key: str | int) -> CourseEntry | None:
    """The entry of ``entries`` that ``key`` names (see :func:`lesson_keys`), or None.

    Case and surrounding space do not matter; a number may have leading zeros (``08``); a path
    to a lesson file (``lessons/08-oversights.md``) names that file.
    """
    text = str(key).strip()
    if not text:
        return None
    low = text.lower()
    name = re.split(r"[\\/]", low)[-1]
    number = int(low) if low.isascii() and low.isdigit() and len(low) <= 6 else None
    for e in entries:
        if number is not None and number == e.number:
            return e
        if name in (k.lower() for k in lesson_keys(e)):
            return e
    return None


def find_lesson(key: str | int, folder: Path | None = None) -> CourseEntry:
    """The course entry for ``key``: a lesson's short id (``oversights``), its number in the
    course (``8``, ``"8"`` or ``"08"``) or its file name (``08-oversights``, with or without
    ``.md``); see :func:`match_lesson`.

    Raises :class:`~tutor.engine.errors.UsageError` listing the lessons (number, file name and
    id) when there is none.
    """
    entries = course_index(folder)
    found = match_lesson(entries, key)
    if found is not None:
        return found
    raise UsageError(f"no lesson '{str(key).strip()}'; lessons (give the number, the file name "
                     "or the id): " + ", ".join(e.path.stem for e in entries))


def puzzle_seed(lesson_seed: int, lesson_id: str, block_index: int, n: int) -> int:
    """The seed of puzzle ``n`` (0-based) of the puzzle block ``block_index`` of a lesson taken
    with ``lesson_seed``: the same numbers give the same puzzle on every machine.  The block's
    first seed is a 48-bit int from SHA-256 (not Python's randomised ``hash``); its puzzles' seeds
    lie :data:`tutor.puzzles.SET_STRIDE` apart, so their seed searches never meet and a set
    never repeats a quotation (see :mod:`tutor.puzzles.kinds.source_quiz`)."""
    import hashlib

    from tutor.puzzles.base import SET_STRIDE    # tutor.puzzles is loaded only when puzzles are posed
    digest = hashlib.sha256(f"{lesson_seed}/{lesson_id}/{block_index}/0".encode()).digest()
    return int.from_bytes(digest[:6], "big") + n * SET_STRIDE


def resolve_players(ruleset, players: int | None) -> int:
    """``players`` if given, else 5 where ``ruleset`` covers five, else its smallest count."""
    if players is not None:
        return players
    return 5 if 5 in ruleset.counts else ruleset.player_counts[0]


# --------------------------------------------------------------------------------------------
# Loading and checking


def load_lesson(path: Path | str, library=None) -> Lesson:
    """Read and check one lesson file.

    ``library`` is a :class:`tutor.engine.sources.Library` (default :func:`tutor.engine.sources.default_library`).
    Raises :class:`~tutor.engine.errors.DataError` whose message is the first problem, one line
    ``FILE:LINE: KEY: what is wrong``; its ``problems`` attribute lists them all.
    """
    path = Path(path)
    checker = _Checker(path, library)
    lesson = checker.run()
    if checker.problems:
        err = DataError(checker.problems[0])
        err.problems = list(checker.problems)  # type: ignore[attr-defined]
        raise err
    assert lesson is not None
    return lesson


def check_lessons(paths: Iterable[Path | str] | None = None, library=None) -> tuple[int, list[str]]:
    """Check lesson files (default: the whole course, with course-wide checks too).

    Returns ``(files_checked, problems)``, each problem one line ``FILE:LINE: KEY: message``.
    Course-wide checks (on the default set): lesson ids unique, prerequisites name lessons that
    come earlier in the course, and no puzzle is set before its teaching or harder than its
    lesson allows (:func:`teaching_problems`).  Raises only what loading the sources raises.
    """
    whole_course = paths is None
    files = lesson_files() if whole_course else [Path(p) for p in paths]
    problems: list[str] = []
    lessons: list[Lesson] = []
    for n, path in enumerate(files, 1):
        checker = _Checker(path, library)
        lesson = checker.run()
        problems.extend(checker.problems)
        if lesson is not None:
            lesson.number = n
            lessons.append(lesson)
    if whole_course:
        known = [e.id for e in course_index()]
        problems.extend(_course_problems(lessons, known))
    return len(files), problems


def _course_problems(lessons: list[Lesson], known: list[str] | None = None) -> list[str]:
    """Duplicate ids and bad prerequisites.  ``known`` lists the ids of every file in course
    order, read from front matter alone (so a lesson that fails to load still counts)."""
    problems = teaching_problems(lessons)
    seen: dict[str, Lesson] = {}
    for lesson in lessons:
        where = f"{_display(lesson.path)}:2: id"
        if lesson.id in seen:
            problems.append(f"{where}: lesson id '{lesson.id}' is also used by "
                            f"{_display(seen[lesson.id].path)}")
        seen.setdefault(lesson.id, lesson)
    order = {lid: i for i, lid in enumerate(known if known is not None else
                                             [lesson.id for lesson in lessons])}
    for lesson in lessons:
        i = order.get(lesson.id, len(order))
        for pre in lesson.prerequisites:
            if pre not in order:
                problems.append(f"{_display(lesson.path)}:1: prerequisites: unknown lesson "
                                f"'{pre}' (lessons: {', '.join(order)})")
            elif order[pre] >= i:
                problems.append(f"{_display(lesson.path)}:1: prerequisites: '{pre}' does not "
                                f"come before '{lesson.id}' in the course")
    return problems


class _Checker:
    """Parses one file and collects its problems (each a one-line message)."""

    def __init__(self, path: Path, library=None):
        self.path = path
        self._library = library
        self.problems: list[str] = []
        self._quoted: set[str] = set()      # sources named by quote blocks, found or not
        self._quote_blocks = 0

    # -- helpers ---------------------------------------------------------------------------

    @property
    def library(self):
        if self._library is None:
            from tutor.engine.sources import default_library
            self._library = default_library()
        return self._library

    def fail(self, line: int, key: str, message: str) -> None:
        """Add the problem ``FILE:LINE: KEY: message``, the key and message cut short if a
        mistyped file made them long."""
        key = key if len(key) <= 60 else key[:57] + "..."
        message = message if len(message) <= 400 else message[:397] + "..."
        self.problems.append(f"{_display(self.path)}:{line}: {key}: {message}")

    # -- the file --------------------------------------------------------------------------

    def run(self) -> Lesson | None:
        if not self.path.exists():
            self.fail(0, "file", "no such lesson file")
            return None
        try:
            text = yamlfile.read_text(self.path, _display(self.path))
        except DataError as exc:
            self.problems.append(str(exc))
            return None
        try:
            fm, body, body_line = _split_front_matter(self.path, text)
        except DataError as exc:
            self.problems.append(str(exc))
            return None
        if fm is None:
            self.fail(1, "front matter", "missing: the file must begin with a line '---', the "
                                         "YAML front matter, and another line '---'")
            return None
        meta = self.front_matter(fm)
        if meta is None:
            return None
        lesson = Lesson(path=self.path, **meta)
        lesson.pages = self.body(body, body_line, lesson)
        if not self._quote_blocks:
            self.fail(body_line, "quote", "the lesson quotes no source: every lesson needs at "
                                          "least one quote block")
        return lesson

    def front_matter(self, fm: str) -> dict[str, Any] | None:
        try:
            data, doc = yamlfile.load(fm, _display(self.path), 2, "front matter")
        except DataError as exc:
            self.problems.append(str(exc))
            return None
        if not isinstance(data, dict):
            self.fail(1, "front matter", "must be a mapping of keys (id, title, ...)")
            return None
        lines = doc.key_lines()
        ok = True
        for key in data:
            if key not in FRONT_MATTER_KEYS:
                self.fail(lines.get(key, 1), str(key),
                          f"unknown front matter key (keys: {', '.join(FRONT_MATTER_KEYS)})")
                ok = False
        for key in FRONT_MATTER_KEYS:
            if key not in data:
                self.fail(1, key, "missing from the front matter")
                ok = False
        if not ok:
            return None
        out: dict[str, Any] = {}
        line = lambda k: lines.get(k, 1)  # noqa: E731
        lid = data["id"]
        if not isinstance(lid, str) or not _ID_RE.match(lid):
            self.fail(line("id"), "id", f"{_shown(lid)} is not an id (lower-case words joined by '-')")
            ok = False
        out["id"] = lid
        title = data["title"]
        if not isinstance(title, str) or not title.strip():
            self.fail(line("title"), "title", "must be non-empty text")
            ok = False
        out["title"] = str(title).strip()
        for key in ("objectives", "prerequisites", "sources"):
            v = data[key]
            if v is None and key != "objectives":
                v = []
            if not isinstance(v, list) or not all(isinstance(x, str) and x.strip() for x in v):
                hint = ""
                if isinstance(v, list) and any(isinstance(x, dict) for x in v):
                    hint = " (an item holding ': ' was read as a mapping: put it in quotes)"
                self.fail(line(key), key, "must be a list of text" + hint)
                ok = False
                v = []
            out[key] = [x.strip() for x in v]
        if not out["objectives"] and ok:
            self.fail(line("objectives"), "objectives", "list at least one objective")
            ok = False
        for src in out["sources"]:
            if src not in self.library.sources:
                self.fail(line("sources"), "sources", f"unknown source '{src}' (sources: "
                                                      f"{', '.join(self.library.sources)})")
                ok = False
        minutes = data["minutes"]
        if not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= 240:
            self.fail(line("minutes"), "minutes", f"{_shown(minutes)} is not a whole number of "
                                                  "minutes from 1 to 240")
            ok = False
        out["minutes"] = minutes
        self._sources_line = line("sources")
        return out if ok else None

    def body(self, body: str, body_line: int, lesson: Lesson) -> list[list[Item]]:
        from markdown_it import MarkdownIt
        md = MarkdownIt("commonmark", {"html": False}).enable("table")
        tokens = md.parse(body)
        lines = body.splitlines()
        pages: list[list[Item]] = [[]]
        start = 0           # first body line (0-based) not yet put in a segment
        index = 0
        fences = 0

        def flush(upto: int) -> None:
            text = "\n".join(lines[start:upto]).strip("\n")
            if text.strip():
                first = start + next(i for i, s in enumerate(lines[start:upto]) if s.strip())
                pages[-1].append(Segment(text, body_line + first))

        for tok in tokens:
            if tok.map is None:
                continue
            if tok.level == 0 and tok.type == "hr":
                flush(tok.map[0])
                start = tok.map[1]
                if pages[-1]:
                    pages.append([])
                continue
            if tok.type != "fence":
                continue
            info = tok.info.strip().split()
            word = info[0] if info else ""
            fence_line = body_line + tok.map[0]
            if tok.level == 0 and not _fence_closed(tok, lines):
                self.fail(fence_line, word or "fence",
                          f"the fence {tok.markup}{word} opened here is never closed (end the "
                          f"block with a line {tok.markup})")
                continue
            if not word:
                continue        # a plain fenced code block: shown as preformatted text
            fences += 1
            if word not in BLOCK_KINDS:
                self.fail(fence_line, word, f"unknown block (blocks: {', '.join(BLOCK_KINDS)})")
                continue
            if tok.level != 0:
                self.fail(fence_line, word, "a block must stand on its own, not inside a list "
                                            "or quotation")
                continue
            flush(tok.map[0])
            start = tok.map[1]
            data = getattr(self, "block_" + word)(tok.content, fence_line + 1)
            if data is not None:
                pages[-1].append(Block(word, data, fence_line, index))
            index += 1
        flush(len(lines))
        if not pages[-1]:
            pages.pop()
        if not pages and not fences:
            self.fail(body_line, "body", "the lesson has no text")
        listed = set(lesson.sources)
        quoted = self._quoted
        for src in sorted(quoted - listed):
            self.fail(self._sources_line, "sources", f"the lesson quotes '{src}' but its front "
                                                     "matter does not list it")
        for src in sorted(listed - quoted):
            self.fail(self._sources_line, "sources", f"'{src}' is listed but no quote block "
                                                     "quotes it")
        return pages

    # -- blocks ----------------------------------------------------------------------------

    def _mapping(self, kind: str, content: str, line: int, allowed: tuple[str, ...],
                 required: tuple[str, ...] = ()) -> tuple[dict, dict] | None:
        try:
            data, doc = yamlfile.load(content, _display(self.path), line, kind)
        except DataError as exc:
            self.problems.append(str(exc))
            return None
        if data is None:
            data = {}
        if not isinstance(data, dict):
            self.fail(line, kind, "the block must hold 'key: value' lines")
            return None
        lines = doc.key_lines()
        ok = True
        for k in data:
            if k not in allowed:
                self.fail(lines.get(k, line), f"{kind}.{k}",
                          f"unknown key (keys: {', '.join(allowed)})")
                ok = False
        for k in required:
            if k not in data:
                self.fail(line, f"{kind}.{k}", "missing")
                ok = False
        return (data, lines) if ok else None

    def _int(self, kind: str, data: dict, lines: dict, key: str, lo: int, hi: int,
             default: int | None, line: int) -> tuple[bool, int | None]:
        v = data.get(key, default)
        if v is None:
            return True, None
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            self.fail(lines.get(key, line), f"{kind}.{key}",
                      f"{_shown(v)} is not a whole number from {lo} to {hi}")
            return False, None
        return True, v

    def _ruleset(self, kind: str, rid: Any, where: int, key: str = "ruleset"):
        if not isinstance(rid, str) or rid not in self.library.rulesets:
            self.fail(where, f"{kind}.{key}", f"unknown ruleset {_shown(rid)} (rulesets: "
                                              f"{', '.join(self.library.rulesets)})")
            return None
        return self.library.rulesets[rid]

    def _players(self, kind: str, rs, players: int | None, where: int) -> bool:
        if players is not None and players not in rs.counts:
            self.fail(where, f"{kind}.players", f"ruleset '{rs.id}' does not cover {players} "
                                                f"players (it covers "
                                                f"{', '.join(map(str, rs.player_counts))})")
            return False
        return True

    def block_quote(self, content: str, line: int) -> dict | None:
        refs = []
        ok = True
        self._quote_blocks += 1
        for i, raw in enumerate(content.splitlines()):
            ref = raw.strip()
            if ref.startswith("- "):
                ref = ref[2:].strip()
            if not ref or ref.startswith("#"):
                continue
            if not _REF_RE.match(ref):
                self.fail(line + i, "quote", f"{_shown(ref)} is not a quotation reference "
                                             "(source:id, e.g. parlett:deal-eight)")
                ok = False
                continue
            self._quoted.add(ref.split(":", 1)[0])
            try:
                self.library.quotation(ref)
            except KeyError:
                src = ref.split(":", 1)[0]
                hint = "" if src in self.library.sources else \
                    f" (sources: {', '.join(self.library.sources)})"
                self.fail(line + i, "quote", f"unknown quotation '{ref}'{hint}")
                ok = False
                continue
            refs.append(ref)
        if not refs and ok:
            self.fail(line - 1, "quote", "the block names no quotation")
            ok = False
        return {"refs": refs} if ok else None

    def block_puzzle(self, content: str, line: int) -> dict | None:
        got = self._mapping("puzzle", content, line,
                            ("kind", "theme", "count", "ruleset", "players", "difficulty"),
                            ("kind",))
        if got is None:
            return None
        data, lines = got
        ok = True
        kinds, applicable = _puzzle_api()
        kind = data["kind"]
        theme = data.get("theme")
        if kind not in kinds:
            self.fail(lines.get("kind", line), "puzzle.kind",
                      f"unknown puzzle kind {_shown(kind)} (kinds: {', '.join(kinds)})")
            ok = False
        elif theme is not None:
            themes = _puzzle_themes(kind)
            if theme not in themes:
                self.fail(lines.get("theme", line), "puzzle.theme",
                          f"puzzles of kind '{kind}' have no theme {theme!r} (themes: "
                          f"{', '.join(themes)})")
                ok = False
        good, count = self._int("puzzle", data, lines, "count", 1, _MAX_PUZZLES, 1, line)
        ok &= good
        good, players = self._int("puzzle", data, lines, "players", 2, 8, None, line)
        ok &= good
        good, difficulty = self._int("puzzle", data, lines, "difficulty", 1, 5, None, line)
        ok &= good
        rid = data.get("ruleset")
        if rid is not None:
            rs = self._ruleset("puzzle", rid, lines.get("ruleset", line))
            if rs is None:
                ok = False
            else:
                ok &= self._players("puzzle", rs, players, lines.get("players", line))
                if ok:
                    allowed = _applicable_ids(applicable, kind)
                    if rid not in allowed:
                        self.fail(lines.get("ruleset", line), "puzzle.ruleset",
                                  f"puzzles of kind '{kind}' cannot be set under '{rid}' "
                                  f"(rulesets: {', '.join(allowed) or 'none'})")
                        ok = False
        if not ok:
            return None
        spec = kind + (f"/{theme}" if theme else "")
        if _STEM_RE.match(self.path.stem):
            spec += f"@{self.path.stem}"
        return {"kind": spec, "theme": theme, "count": count, "ruleset": rid,
                "players": players, "difficulty": difficulty}

    def block_rules(self, content: str, line: int) -> dict | None:
        from tutor.engine.rulesets import COUNT_PARAMETERS, RULESET_PARAMETERS
        got = self._mapping("rules", content, line, ("rulesets", "parameters", "players"),
                            ("parameters",))
        if got is None:
            return None
        data, lines = got
        ok = True
        rids = data.get("rulesets")
        if rids is None:
            rids = list(self.library.rulesets)
        if not isinstance(rids, list) or not rids:
            self.fail(lines.get("rulesets", line), "rules.rulesets", "must be a list of ruleset ids")
            return None
        for rid in rids:
            ok &= self._ruleset("rules", rid, lines.get("rulesets", line), "rulesets") is not None
        params = data["parameters"]
        known = RULESET_PARAMETERS + COUNT_PARAMETERS + ("pot",)
        if isinstance(params, str):
            params = [params]
        if not isinstance(params, list) or not params:
            self.fail(lines.get("parameters", line), "rules.parameters",
                      "must be a list of parameter names")
            return None
        for p in params:
            if p not in known:
                self.fail(lines.get("parameters", line), "rules.parameters",
                          f"unknown parameter {_shown(p)} (parameters: {', '.join(known)})")
                ok = False
        good, players = self._int("rules", data, lines, "players", 2, 8, None, line)
        ok &= good
        if ok and players is None and any(p in COUNT_PARAMETERS + ("pot",) for p in params):
            players = 5
        return {"rulesets": rids, "parameters": params, "players": players} if ok else None

    def block_odds(self, content: str, line: int) -> dict | None:
        got = self._mapping("odds", content, line, ("figure", "ruleset", "rulesets", "players"),
                            ("figure",))
        if got is None:
            return None
        data, lines = got
        ok = True
        figures = data["figure"]
        if isinstance(figures, str):
            figures = [figures]
        if not isinstance(figures, list) or not figures:
            self.fail(lines.get("figure", line), "odds.figure", "must name a figure")
            return None
        for f in figures:
            if f not in ODDS_FIGURES:
                self.fail(lines.get("figure", line), "odds.figure",
                          f"unknown figure {_shown(f)} (figures: {', '.join(ODDS_FIGURES)})")
                ok = False
        if "ruleset" in data and "rulesets" in data:
            self.fail(lines.get("rulesets", line), "odds.rulesets", "give ruleset or rulesets, "
                                                                    "not both")
            return None
        rids = data.get("rulesets", [data.get("ruleset", "parlett")])
        if isinstance(rids, str):
            rids = [rids]
        if not isinstance(rids, list) or not rids:
            self.fail(lines.get("rulesets", line), "odds.rulesets", "must be a list of rulesets")
            return None
        good, players = self._int("odds", data, lines, "players", 2, 8, None, line)
        ok &= good
        for rid in rids:
            key = "rulesets" if "rulesets" in data else "ruleset"
            rs = self._ruleset("odds", rid, lines.get(key, line), key)
            if rs is None:
                ok = False
            elif len(rids) == 1:
                ok &= self._players("odds", rs, players, lines.get("players", line))
        return {"figures": figures, "rulesets": rids, "players": players} if ok else None

    def block_simulate(self, content: str, line: int) -> dict | None:
        from tutor.engine.bots import BOT_NAMES
        if re.search(r"^skill\s*:", content, re.MULTILINE):
            return self.block_skill(content, line)
        got = self._mapping("simulate", content, line,
                            ("ruleset", "players", "deals", "seed", "bots"), ("ruleset",))
        if got is None:
            return None
        data, lines = got
        ok = True
        rs = self._ruleset("simulate", data["ruleset"], lines.get("ruleset", line))
        good, players = self._int("simulate", data, lines, "players", 2, 8, None, line)
        ok &= good and rs is not None
        if rs is not None:
            ok &= self._players("simulate", rs, players, lines.get("players", line))
        good, deals = self._int("simulate", data, lines, "deals", 10, _MAX_DEALS, 2000, line)
        ok &= good
        good, seed = self._int("simulate", data, lines, "seed", 0, 2**31, 1, line)
        ok &= good
        bots = data.get("bots", "willughby")
        if not isinstance(bots, str) or bots not in BOT_NAMES:
            self.fail(lines.get("bots", line), "simulate.bots",
                      f"unknown computer player {_shown(bots)} (players: {', '.join(BOT_NAMES)})")
            ok = False
        if not ok:
            return None
        return {"ruleset": rs.id, "players": resolve_players(rs, players), "deals": deals,
                "seed": seed, "bots": bots}

    def block_skill(self, content: str, line: int) -> dict | None:
        """A ``simulate`` block with ``skill``: the expert seat's gain per ruleset, from the
        precomputed figures (:mod:`tutor.teaching.figures`), which must hold these parameters."""
        # here, as block_simulate's BOT_NAMES: course_index must not load the engine's sources
        from tutor.engine.simulate import SKILL_OPPONENTS
        from tutor.teaching.figures import skill_figures
        got = self._mapping("simulate", content, line,
                            ("skill", "rulesets", "deals", "seed", "samples"), ("skill",))
        if got is None:
            return None
        data, lines = got
        opps = data["skill"]
        if isinstance(opps, str):
            opps = [opps]
        if (not isinstance(opps, list) or not opps
                or not all(o in SKILL_OPPONENTS for o in opps)):
            self.fail(lines.get("skill", line), "simulate.skill",
                      f"must list the players an expert seat is measured against (from "
                      f"{', '.join(SKILL_OPPONENTS)}), not {_shown(data['skill'])}")
            return None
        ok = True
        rids = data.get("rulesets")
        if rids is not None:
            if isinstance(rids, str):
                rids = [rids]
            if not isinstance(rids, list) or not rids:
                self.fail(lines.get("rulesets", line), "simulate.rulesets",
                          "must be a list of rulesets")
                return None
            for rid in rids:
                ok &= self._ruleset("simulate", rid, lines.get("rulesets", line),
                                    "rulesets") is not None
        good, deals = self._int("simulate", data, lines, "deals", 10, _MAX_DEALS, 1000, line)
        ok &= good
        good, seed = self._int("simulate", data, lines, "seed", 0, 2**31, 1, line)
        ok &= good
        good, samples = self._int("simulate", data, lines, "samples", 1, 100000, 200, line)
        ok &= good
        if not ok:
            return None
        try:
            skill_figures(opps, deals, seed, samples, rids)
        except DataError as exc:
            self.fail(lines.get("skill", line), "simulate.skill", str(exc))
            return None
        return {"skill": opps, "rulesets": rids, "deals": deals, "seed": seed,
                "samples": samples}

    def block_cards(self, content: str, line: int) -> dict | None:
        """One ``label: cards`` per line (split at the first colon, so a caption may hold
        colons); ``caption: text`` is shown under the cards."""
        from tutor.engine.cards import code, parse_cards
        from tutor.engine.errors import NotationError
        rows = []
        caption = None
        seen: dict[int, str] = {}
        ok = True
        for i, raw in enumerate(content.splitlines()):
            where = line + i
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            if ":" not in text:
                self.fail(where, "cards", f"{_shown(text)} is not 'label: cards' (e.g. 'Your hand: "
                                          "7H 7D QS')")
                ok = False
                continue
            label, value = (part.strip() for part in text.split(":", 1))
            if not label:
                self.fail(where, "cards", "the label before ':' is empty")
                ok = False
                continue
            if label == "caption":
                caption = value
                continue
            try:
                cards = parse_cards(value) if value else []
            except NotationError as exc:
                self.fail(where, f"cards.{label}", str(exc))
                ok = False
                continue
            for c in cards:
                if c in seen:
                    self.fail(where, f"cards.{label}", f"{code(c)} is also in '{seen[c]}'")
                    ok = False
                seen[c] = label
            rows.append((label, cards))
        if not rows and ok:
            self.fail(line - 1, "cards", "the block shows no cards")
            ok = False
        return {"rows": rows, "caption": caption} if ok else None


# --------------------------------------------------------------------------------------------
# Helpers


def _split_front_matter(path: Path, text: str) -> tuple[str | None, str, int]:
    """Split ``text`` into (front matter YAML or None, body, file line of the body's first line)."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return None, text, 1
    for i in range(1, len(lines)):
        if lines[i].strip() in ("---", "..."):
            return "\n".join(lines[1:i]), "\n".join(lines[i + 1:]), i + 2
    raise DataError(f"{_display(path)}:1: front matter: not closed (no second line '---')")


def _shown(value: Any) -> str:
    """``value`` as a problem names it: its repr, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _fence_closed(tok, lines: list[str]) -> bool:
    """True when the fence token ``tok`` (at the top level of the body) ends with a closing
    fence: CommonMark runs an unclosed fence to the end of the file, swallowing the rest."""
    start, end = tok.map
    if end - start < 2:
        return False
    last = lines[end - 1].strip()
    return bool(last) and set(last) == {tok.markup[0]} and len(last) >= len(tok.markup)


def _puzzle_api():
    """(KINDS, applicable_rulesets) from :mod:`tutor.puzzles`."""
    from tutor import puzzles
    return tuple(puzzles.KINDS), puzzles.applicable_rulesets


def _puzzle_themes(kind: str) -> dict[str, str | None]:
    """The themes of puzzles of ``kind`` and the lesson that teaches each."""
    from tutor import puzzles
    return puzzles.themes_of(kind)


def teaching_problems(lessons: list[Lesson]) -> list[str]:
    """Puzzles set before their teaching: for each puzzle block of ``lessons`` (the course, in
    order), a problem when its theme is taught in a later lesson
    (:func:`tutor.puzzles.taught_in`), or without a theme when the kind's question is first
    taught in a later lesson (the block's puzzles are then drawn from what its own lesson has
    taught: see :class:`Block`), when no lesson teaches it, or when its difficulty is
    above what the lesson's place allows (:func:`tutor.puzzles.max_stars`: lessons 1-2 two
    stars, 3-4 three, 5-6 four).  Also a problem for every lesson the puzzle kinds' definitions
    name that is not a lesson of the course.  Each problem is one line ``FILE:LINE: KEY:
    message``."""
    from tutor import puzzles
    stems = {lesson.path.stem: lesson for lesson in lessons}
    problems = []
    for lesson in lessons:
        stem = lesson.path.stem
        if not _STEM_RE.match(stem):
            continue
        for b in lesson.blocks("puzzle"):
            d = b.data
            kind = d["kind"].partition("/")[0].partition("@")[0]
            theme = d.get("theme")
            where = f"{_display(lesson.path)}:{b.line}: puzzle"
            need = (puzzles.taught_in(kind, theme) if theme else
                    puzzles.definition(kind).lesson)
            what = f"'{kind}'" + (f" on '{theme}'" if theme else "")
            if need is None:
                problems.append(f"{where}.theme: no lesson teaches puzzles of {what}")
            elif need > stem:
                taught = stems.get(need)
                name = f"lesson {taught.number}, {taught.title}" if taught else need
                problems.append(f"{where}.{'theme' if theme else 'kind'}: puzzles of {what} "
                                f"are taught in {name}, which comes after this lesson")
            cap = puzzles.max_stars(stem)
            if d.get("difficulty") is not None and d["difficulty"] > cap:
                problems.append(f"{where}.difficulty: {d['difficulty']} stars is above what "
                                f"lesson {lesson.number or stem[:2]} allows ({cap})")
    if lessons and all(_STEM_RE.match(x.path.stem) for x in lessons):
        for kind in puzzles.KINDS:
            defn = puzzles.definition(kind)
            named = [defn.lesson] + [v for v in defn.themes.values() if v]
            for name in dict.fromkeys(n for n in named if n):
                if name not in stems:
                    problems.append(f"{defn.path.name}:1: lesson: '{name}' is not a lesson of "
                                    f"the course (lessons: {', '.join(stems)})")
    return problems


def _applicable_ids(applicable, kind: str) -> list[str]:
    """The ids of the rulesets puzzles of ``kind`` can be set under."""
    return [getattr(r, "id", r) for r in applicable(kind)]


def _display(path: Path) -> str:
    import os
    try:
        p = Path(path)
        return os.path.relpath(p) if p.resolve().is_relative_to(Path.cwd()) else str(p)
    except (ValueError, OSError):
        return str(path)
