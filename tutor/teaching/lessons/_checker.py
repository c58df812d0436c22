"""Checking one lesson file: its front matter, its body split into pages, each engine block read
by its kind's reader (:mod:`tutor.teaching.lessons._blocks`), and every problem kept as one line
``FILE:LINE: KEY: what is wrong``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict

from tutor.engine import yamlfile
from tutor.engine.errors import DataError
from tutor.teaching.lessons._blockcheck import BlockChecker
from tutor.teaching.lessons._blocks import BLOCK_KINDS, parse_block
from tutor.teaching.lessons._common import _ID_RE, _display, _shown, _split_front_matter
from tutor.teaching.lessons._model import FRONT_MATTER_KEYS, Block, Item, Lesson, Segment


class FrontMatter(TypedDict):
    """A lesson's front matter as read (:meth:`_Checker.front_matter`), the fields of
    :class:`Lesson` it sets: ``id``, ``title``, the objectives' texts, ``prerequisites`` (lesson
    ids), ``sources`` (source ids), ``minutes``, the objectives' ids and the themes that serve
    each objective (id -> theme ids)."""

    id: str
    title: str
    objectives: list[str]
    prerequisites: list[str]
    sources: list[str]
    minutes: int
    objective_ids: list[str]
    objective_themes: dict[str, list[str]]


class _Checker(BlockChecker):
    """Parses one file and collects its problems (each a one-line message); the block readers
    see it as its base, :class:`~tutor.teaching.lessons._blockcheck.BlockChecker` (which
    imports none of them: no circle)."""

    def __init__(self, path: Path, library=None):
        super().__init__(path, library)
        self._sources_line = 1
        self._objectives_line = 1

    # -- the file --------------------------------------------------------------------------

    def run(self) -> Lesson | None:
        """The lesson, or None when its file or front matter cannot be read (see ``problems``)."""
        if not self.path.exists():
            self.fail(0, "file", "no such lesson file")
            return None
        try:
            text = yamlfile.read_text(self.path, _display(self.path))
            fm, body, body_line = _split_front_matter(self.path, text)
        except DataError as exc:
            self.problems.append(str(exc))
            return None
        if fm is None:
            self.fail(
                1,
                "front matter",
                "missing: the file must begin with a line '---', the "
                "YAML front matter, and another line '---'",
            )
            return None
        meta = self.front_matter(fm)
        if meta is None:
            return None
        lesson = Lesson(path=self.path, **meta)
        lesson.pages = self.body(body, body_line, lesson)
        self._check_objectives(lesson)
        if not self.quote_blocks:
            self.fail(
                body_line,
                "quote",
                "the lesson quotes no source: every lesson needs at least one quote block",
            )
        return lesson

    # -- front matter ----------------------------------------------------------------------

    def front_matter(self, fm: str) -> FrontMatter | None:
        """The front matter's values for :class:`Lesson` (:class:`FrontMatter`), or None after
        a problem."""
        try:
            data, doc = yamlfile.load(fm, _display(self.path), 2, "front matter")
        except DataError as exc:
            self.problems.append(str(exc))
            return None
        if not isinstance(data, dict):
            self.fail(1, "front matter", "must be a mapping of keys (id, title, ...)")
            return None
        lines = doc.key_lines()
        if not self._front_keys(data, lines):
            return None
        line = lambda k: lines.get(k, 1)  # noqa: E731
        out, ok = self._front_values(data, line)
        self._sources_line = line("sources")
        self._objectives_line = line("objectives")
        if not ok:
            return None
        return FrontMatter(
            id=out["id"],
            title=out["title"],
            objectives=out["objectives"],
            prerequisites=out["prerequisites"],
            sources=out["sources"],
            minutes=out["minutes"],
            objective_ids=out["objective_ids"],
            objective_themes=out["objective_themes"],
        )

    def _front_keys(self, data: dict, lines: dict) -> bool:
        """Every key of :data:`FRONT_MATTER_KEYS` and no other."""
        ok = True
        for key in data:
            if key not in FRONT_MATTER_KEYS:
                self.fail(
                    lines.get(key, 1),
                    str(key),
                    f"unknown front matter key (keys: {', '.join(FRONT_MATTER_KEYS)})",
                )
                ok = False
        for key in FRONT_MATTER_KEYS:
            if key not in data:
                self.fail(1, key, "missing from the front matter")
                ok = False
        return ok

    def _front_values(self, data: dict, line: Callable[[str], int]) -> tuple[dict[str, Any], bool]:
        out: dict[str, Any] = {}
        ok = True
        lid = data["id"]
        if not isinstance(lid, str) or not _ID_RE.match(lid):
            self.fail(
                line("id"), "id", f"{_shown(lid)} is not an id (lower-case words joined by '-')"
            )
            ok = False
        out["id"] = lid
        title = data["title"]
        if not isinstance(title, str) or not title.strip():
            self.fail(line("title"), "title", "must be non-empty text")
            ok = False
        out["title"] = str(title).strip()
        ok = self._front_lists(data, line, out) and ok
        ok = self._front_objectives(data, line, out) and ok
        if not out["objectives"] and ok:
            self.fail(line("objectives"), "objectives", "list at least one objective")
            ok = False
        for src in out["sources"]:
            if src not in self.library.sources:
                self.fail(
                    line("sources"),
                    "sources",
                    f"unknown source '{src}' (sources: {', '.join(self.library.sources)})",
                )
                ok = False
        minutes = data["minutes"]
        if not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= 240:
            self.fail(
                line("minutes"),
                "minutes",
                f"{_shown(minutes)} is not a whole number of minutes from 1 to 240",
            )
            ok = False
        out["minutes"] = minutes
        return out, ok

    def _front_lists(self, data: dict, line: Callable[[str], int], out: dict[str, Any]) -> bool:
        """``objectives``, ``prerequisites`` and ``sources``: each a list of text (null is not a
        list: an empty one is ``[]``)."""
        ok = True
        for key in ("prerequisites", "sources"):
            v = data[key]
            if not isinstance(v, list) or not all(isinstance(x, str) and x.strip() for x in v):
                hint = ""
                if isinstance(v, list) and any(isinstance(x, dict) for x in v):
                    hint = " (an item holding ': ' was read as a mapping: put it in quotes)"
                elif v is None and key == "prerequisites":
                    hint = " ([] for none)"
                self.fail(line(key), key, "must be a list of text" + hint)
                ok = False
                v = []
            out[key] = [x.strip() for x in v]
        return ok

    def _front_objectives(
        self, data: dict, line: Callable[[str], int], out: dict[str, Any]
    ) -> bool:
        """``objectives``: a list of ``{id, text, themes}``, the ids unique (puzzle blocks name
        them), the text what the learner reads, ``themes`` (optional in a file, required of the
        course: :func:`~tutor.teaching.lessons._course_checks.serve_problems`) the themes that
        serve it.  Sets ``objectives`` (the texts), ``objective_ids`` and
        ``objective_themes``."""
        v = data["objectives"]
        out["objectives"], out["objective_ids"], out["objective_themes"] = [], [], {}
        form = (
            "must be a list of objectives, each `{id: ..., text: ..., themes: [...]}`: an "
            "id (lower-case words joined by '-'), the words the learner reads, and the "
            "puzzle themes that serve it"
        )
        if not isinstance(v, list):
            self.fail(line("objectives"), "objectives", form)
            return False
        ok = True
        for i, item in enumerate(v):
            key = f"objectives[{i}]"
            if (
                not isinstance(item, dict)
                or not {"id", "text"} <= set(item)
                or set(item) - {"id", "text", "themes"}
            ):
                hint = " (a plain sentence has no id)" if isinstance(item, str) else ""
                self.fail(line("objectives"), key, form + hint)
                ok = False
                continue
            oid, text = item["id"], item["text"]
            if not isinstance(oid, str) or not _ID_RE.match(oid):
                self.fail(
                    line("objectives"),
                    f"{key}.id",
                    f"{_shown(oid)} is not an id (lower-case words joined by '-')",
                )
                ok = False
                continue
            if oid in out["objective_ids"]:
                self.fail(line("objectives"), f"{key}.id", f"objective '{oid}' is listed twice")
                ok = False
                continue
            if not isinstance(text, str) or not text.strip():
                self.fail(line("objectives"), f"{key}.text", "must be non-empty text")
                ok = False
                continue
            if "themes" in item:
                themes = self._objective_themes(item["themes"], line("objectives"), key)
                if themes is None:
                    ok = False
                    continue
                out["objective_themes"][oid] = themes
            out["objective_ids"].append(oid)
            out["objectives"].append(" ".join(text.split()))
        return ok

    def _objective_themes(self, v, where: int, key: str) -> list[str] | None:
        """An objective's ``themes``: a non-empty list of theme ids of
        ``puzzles/themes.yaml``; None after a problem."""
        from tutor.puzzles.themes import theme_table

        table = theme_table()
        if not isinstance(v, list) or not v or not all(isinstance(t, str) for t in v):
            self.fail(
                where,
                f"{key}.themes",
                "must be a list of the puzzle themes that serve "
                "the objective (laugh puzzles themes lists them)",
            )
            return None
        unknown = [t for t in v if t not in table]
        if unknown:
            self.fail(
                where,
                f"{key}.themes",
                f"unknown theme {_shown(unknown[0])} (laugh puzzles themes lists them)",
            )
            return None
        return list(dict.fromkeys(v))

    # -- the body --------------------------------------------------------------------------

    def body(self, body: str, body_line: int, lesson: Lesson) -> list[list[Item]]:
        """The body's pages: prose segments, and each block its reader accepts."""
        from markdown_it import MarkdownIt

        md = MarkdownIt("commonmark", {"html": False}).enable("table")
        lines = body.splitlines()
        pages = _Pages(lines, body_line)
        index = 0
        fences = 0
        for tok in md.parse(body):
            if tok.map is None:
                continue
            if tok.level == 0 and tok.type == "hr":
                pages.page_break(tok.map)
                continue
            if tok.type != "fence":
                continue
            fence_line = body_line + tok.map[0]
            word = self._fence_word(tok, lines, fence_line)
            if not word:
                continue  # not closed, or a plain fenced code block (preformatted text)
            fences += 1
            if not self._block_stands(tok, word, fence_line):
                continue
            pages.skip(tok.map)
            data = parse_block(self, word, tok.content, fence_line + 1)
            if data is not None:
                pages.add(Block(word, data, fence_line, index))
            index += 1
        result = pages.done()
        if not result and not fences:
            self.fail(body_line, "body", "the lesson has no text")
        self._check_sources(lesson)
        return result

    def _fence_word(self, tok, lines: list[str], fence_line: int) -> str:
        """The info word of a fence ("" for none), or "" after reporting a fence never closed."""
        info = tok.info.strip().split()
        word = info[0] if info else ""
        if tok.level == 0 and not _fence_closed(tok, lines):
            self.fail(
                fence_line,
                word or "fence",
                f"the fence {tok.markup}{word} opened here is never closed (end the "
                f"block with a line {tok.markup})",
            )
            return ""
        return word

    def _block_stands(self, tok, word: str, fence_line: int) -> bool:
        """True for a known block at the top level of the body (else a problem)."""
        if word not in BLOCK_KINDS:
            self.fail(fence_line, word, f"unknown block (blocks: {', '.join(BLOCK_KINDS)})")
            return False
        if tok.level != 0:
            self.fail(
                fence_line, word, "a block must stand on its own, not inside a list or quotation"
            )
            return False
        return True

    def _check_objectives(self, lesson: Lesson) -> None:
        """Every puzzle block names one of the lesson's objectives (``objective``), and every
        objective is tested by at least one puzzle block."""
        ids = lesson.objective_ids
        tested = set()
        for b in lesson.blocks("puzzle"):
            oid = b.puzzle()["objective"]
            if oid is None:
                self.fail(
                    b.line,
                    "puzzle.objective",
                    f"missing: name the objective its puzzles test (objectives: {', '.join(ids)})",
                )
            elif oid not in ids:
                self.fail(
                    b.line,
                    "puzzle.objective",
                    f"'{oid}' is not an objective of this lesson (objectives: "
                    f"{', '.join(ids) or 'none'})",
                )
            else:
                tested.add(oid)
                self._check_pinned(lesson, b, oid)
        for oid in ids:
            if oid not in tested:
                self.fail(
                    self._objectives_line,
                    "objectives",
                    f"objective '{oid}' is tested by no puzzle: add a puzzle block with "
                    f"`objective: {oid}`",
                )

    def _check_pinned(self, lesson: Lesson, b, oid: str) -> None:
        """A puzzle block whose objective lists the themes that serve it pins what it asks: a
        ``theme`` of its kind (without one, the kind's questions are drawn as they come, and an
        objective about the hand size gets "who is eldest?").  Whether the puzzles it draws
        serve the objective is :func:`~tutor.teaching.lessons._course_checks.serve_problems`'s
        to say."""
        serving = lesson.objective_themes.get(oid)
        if serving is not None and b.puzzle()["theme"] is None:
            self.fail(
                b.line,
                "puzzle.theme",
                f"missing: pin what the block asks, a theme of "
                f"its kind (the objective '{oid}' is served by "
                f"{', '.join(serving)})",
            )

    def _check_sources(self, lesson: Lesson) -> None:
        """The front matter's ``sources`` are exactly the sources the quote blocks quote."""
        listed = set(lesson.sources)
        for src in sorted(self.quoted - listed):
            self.fail(
                self._sources_line,
                "sources",
                f"the lesson quotes '{src}' but its front matter does not list it",
            )
        for src in sorted(listed - self.quoted):
            self.fail(
                self._sources_line, "sources", f"'{src}' is listed but no quote block quotes it"
            )


class _Pages:
    """The pages of a body being read: the prose between blocks and page breaks becomes
    :class:`Segment` items."""

    def __init__(self, lines: list[str], body_line: int):
        self.lines = lines
        self.body_line = body_line
        self.pages: list[list[Item]] = [[]]
        self.start = 0  # first body line (0-based) not yet put in a segment

    def _flush(self, upto: int) -> None:
        text = "\n".join(self.lines[self.start : upto]).strip("\n")
        if text.strip():
            first = self.start + next(
                i for i, s in enumerate(self.lines[self.start : upto]) if s.strip()
            )
            self.pages[-1].append(Segment(text, self.body_line + first))

    def page_break(self, span: list[int]) -> None:
        """A thematic break over body lines ``span``: the prose before it ends the page."""
        self.skip(span)
        if self.pages[-1]:
            self.pages.append([])

    def skip(self, span: list[int]) -> None:
        """Lines ``span`` are not prose (a break or a block): the prose before them is kept."""
        self._flush(span[0])
        self.start = span[1]

    def add(self, item: Item) -> None:
        self.pages[-1].append(item)

    def done(self) -> list[list[Item]]:
        """The pages, the prose after the last block or break included, none empty at the end."""
        self._flush(len(self.lines))
        if not self.pages[-1]:
            self.pages.pop()
        return self.pages


def _fence_closed(tok, lines: list[str]) -> bool:
    """True when the fence token ``tok`` (at the top level of the body) ends with a closing
    fence: CommonMark runs an unclosed fence to the end of the file, swallowing the rest."""
    start, end = tok.map
    if end - start < 2:
        return False
    last = lines[end - 1].strip()
    return bool(last) and set(last) == {tok.markup[0]} and len(last) >= len(tok.markup)
