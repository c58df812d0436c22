"""The pack for one class on source criticism (``laugh class pack [--for teacher|students]
--seed S --out FILE.html|.md``): made from the sources and the engine, never typed by hand, in
two parts: the teacher's notes (plan, readings, notes, key) and the students' handout
(passages, glossary, tasks, quiz, room to write; :mod:`tutor.teaching._class_handout`).

What the pack holds, and where each part comes from:

- **the comparison table**: every ruleset parameter of every ruleset with its status (stated,
  read, chosen), from ``sources/*.yaml`` through :class:`tutor.engine.sources.Library`;
- **the contested rules**: each whole-game parameter on which the rulesets differ, every
  source's reading of it in its own words (the quotations its provenance cites) side by side,
  with citations, and our note where the value is read or chosen;
- **the family tree and the timeline of the texts**: the sources' ``dated`` and ``based_on``
  fields, with the quotations they rest on, and the records of the game (1522 to
  c. 1825); for a relation read from copied words, the sentences side by side with the share
  of their words in common (:func:`word_diff`);
- **the transcription differences**: every pair of quotations of Willughby that two texts
  give of one sentence, compared word by word (Parlett's "Game", du Coeur's "game");
- **ours**: the 50-minute plan, the causes of disagreement, the discussion questions and the
  open tasks with notes for the teacher, from ``lessons/class/source-criticism.yaml``
  (:func:`load_class_data`, checked: its quotation references exist, its plan fills the
  session, and every phrase it puts in double quotation marks stands in a quotation);
- **for students**: passages long enough for a group to read, cut from the source texts exactly
  as their files hold them (markup kept, and what it is said in our words), and a glossary of
  the game's words, each with a source's quotation;
- **the quiz**: puzzles of the source-criticism kinds (``timeline``, ``source-quiz``,
  ``reading``) seeded
  from the pack's seed, so the whole class gets the same, and the answer key.

Every quotation is a library quotation, verified against its text when the library loads
(``laugh sources check``).  :func:`render_html` prints it through ``classpack.html.j2``
(Jinja2, autoescaped), :func:`render_markdown` as Markdown with every text escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from tutor.engine.atomic import write_atomic
from tutor.engine.data import data_dir
from tutor.engine.errors import UsageError
from tutor.engine.models import refusal, validate
from tutor.teaching._class_data import SECTIONS, SOURCE_KINDS, ClassData
from tutor.teaching._class_handout import GlossaryItem, Passage, StudentsContested
from tutor.teaching._class_sources import (
    STATUS_MARKS,
    Comparison,
    Contested,
    FamilyTree,
    TimelineEntry,
    Transcription,
    _plain_words,
    _short,
    comparison,
    contested,
    family_tree,
    timeline,
    transcriptions,
    word_diff,
)

__all__ = [
    "AUDIENCES",
    "CLASS_FILE",
    "ClassData",
    "ClassPack",
    "SECTIONS",
    "SOURCE_KINDS",
    "build_pack",
    "load_class_data",
    "render_html",
    "render_markdown",
    "transcriptions",
    "word_diff",
    "write_pack",
]

#: The pack's data (ours), relative to the lessons folder.
CLASS_FILE = Path("class") / "source-criticism.yaml"
#: Who a pack is printed for: the teacher's notes (plan, readings, notes, key) or the students'
#: handout (passages, glossary, tasks, quiz, room to write; no answers).
AUDIENCES = ("teacher", "students")


# --------------------------------------------------------------------------------------------
# Our part: the plan, causes, questions and tasks


def class_path() -> Path:
    """``lessons/class/source-criticism.yaml``."""
    return data_dir("lessons") / CLASS_FILE


def load_class_data(library, path: Path | None = None) -> ClassData:
    """Read and check the pack's data (ours): see the file's header for its keys.

    Raises :class:`DataError` ``FILE:LINE: KEY: what is wrong`` for a missing or unknown key,
    a value of the wrong type, a plan whose minutes do not add up to ``minutes`` or that names
    an unknown section, a quiz kind that is not one of :data:`SOURCE_KINDS`, a quotation
    reference no source defines, a passage whose words do not stand in its source's text, or
    a phrase in double quotation marks that stands in no quotation (our words may quote a
    source only in its own words)."""
    from tutor.engine import yamlfile

    path = path or class_path()
    name = path.name
    raw, doc = yamlfile.load(yamlfile.read_text(path, name), name)
    phrases = {
        _plain_words(q.text) for s in library.sources.values() for q in s.quotations.values()
    }
    data = validate(ClassData, raw, doc=doc, context={"library": library, "phrases": phrases})
    total = sum(step.minutes for step in data.plan)
    if total != data.minutes:
        raise refusal(doc, f"the plan's steps take {total} minutes, not {data.minutes}", "plan")
    from tutor.teaching._class_handout import passages

    data._cut = passages(
        library,
        data.passages,
        lambda i, key: f"{name}:{doc.line_of('passages', i, key)}: passages.{i}.{key}",
    )
    return data


# --------------------------------------------------------------------------------------------
# The pack


class CauseShown(TypedDict):
    """A cause of disagreement as the pack prints it (:meth:`ClassPack.causes`): the class
    data's ``cause``, ``summary``, ``quotes`` (refs) and ``stored``, with ``quoted`` (each
    quotation's words and its short citation) and ``markup`` (each markup note's text and what
    it is, ours; empty unless ``stored``)."""

    cause: str
    summary: str
    quotes: tuple[str, ...]
    stored: bool
    quoted: list[tuple[str, str]]
    markup: list[tuple[str, str]]


@dataclass
class ClassPack:
    """Everything the pack prints (see the module docstring); ``data`` is our part, read by
    :func:`load_class_data`; ``quiz`` the puzzles as printed
    (:class:`tutor.teaching.worksheet.WorksheetPuzzle`) and ``quiz_pages`` them by page."""

    seed: int
    title: str
    data: ClassData
    comparison: Comparison
    contested: list[Contested]
    tree: FamilyTree
    timeline: list[TimelineEntry]
    transcriptions: list[Transcription]
    quiz: list = field(default_factory=list)
    passages: list[Passage] = field(default_factory=list)
    glossary: list[GlossaryItem] = field(default_factory=list)
    students_contested: list[StudentsContested] = field(default_factory=list)

    @property
    def quiz_pages(self) -> list[list]:
        from tutor.teaching.worksheet import page_groups

        return page_groups(self.quiz)

    def causes(self, library) -> list[CauseShown]:
        """The causes of disagreement (ours) with their quotations' words and citations, and
        for a cause marked ``stored``, each quotation's markup as its file holds it
        (:func:`tutor.teaching._class_handout.markup_notes`)."""
        from tutor.teaching._class_handout import markup_notes

        return [
            CauseShown(
                cause=c.cause,
                summary=c.summary,
                quotes=tuple(c.quotes),
                stored=c.stored,
                quoted=[(q.text, _short(library, q)) for q in library.quotations_of(c.quotes)],
                markup=[
                    note for q in library.quotations_of(c.quotes) for note in markup_notes(q.text)
                ]
                if c.stored
                else [],
            )
            for c in self.data.causes
        ]


def build_pack(seed: int, library=None, symbols: bool = True) -> ClassPack:
    """The pack for ``seed`` (the quiz's puzzles; the same seed gives every student the same
    quiz).  Raises :class:`DataError` for a problem in the class data or a source file, and
    what :func:`tutor.puzzles.generate` raises."""
    from tutor.engine.sources import default_library
    from tutor.puzzles import generate
    from tutor.teaching.lessons import puzzle_seed
    from tutor.teaching.worksheet import worksheet_puzzles

    if library is None:
        library = default_library()
    if seed < 0:
        raise UsageError(f"a seed is a whole number of at least 0, not {seed}")
    data = load_class_data(library)
    rulesets = list(library.rulesets)
    generated = []
    for i, entry in enumerate(data.quiz):
        for n in range(entry.count):
            generated.append(generate(entry.kind, seed=puzzle_seed(seed, "class-pack", i, n)))
    from tutor.teaching._class_handout import glossary, students_contested

    disputed = contested(library, rulesets)
    return ClassPack(
        seed,
        data.title,
        data,
        comparison(library, rulesets),
        disputed,
        family_tree(library),
        timeline(library),
        transcriptions(library),
        worksheet_puzzles(generated, library, symbols),
        data.cut_passages,
        glossary(library, data.glossary),
        students_contested(disputed),
    )


# --------------------------------------------------------------------------------------------
# Printing


def render_html(pack: ClassPack, library=None, audience: str = "teacher") -> str:
    """The pack as one printable HTML page (autoescaped): the teacher's notes
    (``classpack.html.j2``) or the students' handout (``classhandout.html.j2``)."""
    from tutor.engine.sources import default_library
    from tutor.teaching.html import render

    library = library or default_library()
    if audience == "students":
        return render("classhandout.html.j2", pack=pack, sections=SECTIONS, quoted=_quoted(library))
    return render(
        "classpack.html.j2",
        pack=pack,
        sections=SECTIONS,
        marks=STATUS_MARKS,
        causes=pack.causes(library),
        quoted=_quoted(library),
    )


def _quoted(library):
    def quoted(refs: Sequence[str]) -> list[tuple[str, str]]:
        return [(q.text, _short(library, q)) for q in library.quotations_of(refs or [])]

    return quoted


def render_markdown(pack: ClassPack, library=None, audience: str = "teacher") -> str:
    """The pack as Markdown, every text escaped, quotations with their own bold and emphasis,
    passages as their files hold them: the teacher's notes or the students' handout
    (:mod:`tutor.teaching._class_markdown`)."""
    from tutor.engine.sources import default_library
    from tutor.teaching._class_markdown import students_markdown, teacher_markdown

    library = library or default_library()
    if audience == "students":
        return students_markdown(pack, library, SECTIONS, _quoted(library))
    return teacher_markdown(pack, library, SECTIONS, _quoted(library))


def write_pack(seed: int, out_path, library=None, audience: str = "teacher") -> str:
    """Build and write the pack for ``audience`` (one of :data:`AUDIENCES`); the format follows
    the suffix (``.html``/``.htm`` or ``.md``).  Returns the format written.  Raises
    :class:`UsageError` for another suffix or audience and ``OSError`` when the file cannot be
    written."""
    from tutor.teaching.worksheet import handout_format

    if audience not in AUDIENCES:
        raise UsageError(f"a pack is for {' or '.join(AUDIENCES)}, not {audience!r}")
    path = Path(out_path)
    fmt = handout_format(path, "the pack")
    pack = build_pack(seed, library)
    text = (
        render_html(pack, library, audience)
        if fmt == "html"
        else render_markdown(pack, library, audience)
    )
    write_atomic(path, text)  # whole or not at all, through a link
    return fmt
