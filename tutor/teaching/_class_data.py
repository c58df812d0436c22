"""The class pack's data (ours, ``lessons/class/source-criticism.yaml``) as typed models:
:class:`ClassData` and its entries, read and checked by
:func:`tutor.teaching.classpack.load_class_data` with the library of sources as context (a
quotation reference must exist; a phrase of ours in double quotation marks must stand in a
source's quotation)."""

from __future__ import annotations

import re
from typing import Annotated, TypedDict

from pydantic import AfterValidator, Field, PrivateAttr, ValidationInfo

from tutor.engine.models import Listed, Model
from tutor.teaching._class_sources import _plain_words

__all__ = [
    "Cause",
    "ClassData",
    "Passage",
    "GlossaryEntry",
    "PassageEntry",
    "PlanStep",
    "Question",
    "QuizPick",
    "SECTIONS",
    "SOURCE_KINDS",
    "Task",
]

#: The puzzle kinds a quiz may draw on: those of source criticism.
SOURCE_KINDS = ("source-quiz", "reading", "timeline")
#: The pack's sections, in order (a plan step names one).
SECTIONS = {
    "glossary": "The words of the game",
    "timeline": "The timeline",
    "tree": "The family tree of the texts",
    "transcriptions": "One sentence, two transcriptions",
    "passages": "Passages to read",
    "contested": "The contested rules, in the sources' own words",
    "comparison": "Every rule, source by source",
    "causes": "Why readings differ",
    "questions": "Discussion questions",
    "tasks": "Open tasks",
    "quiz": "Quiz",
}

_QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”')


def _words(value: str) -> str:
    if not value.strip():
        raise ValueError("expected some words")
    return value


def _ours(value: str, info: ValidationInfo) -> str:
    """Our words: a phrase in double quotation marks must stand in a source's quotation."""
    phrases = (info.context or {}).get("phrases", ())
    for m in _QUOTED.finditer(value):
        words = _plain_words(m.group(1) or m.group(2))
        if not any(words in p for p in phrases):
            raise ValueError(
                f"{m.group(0)} is in quotation marks but stands in no source's "
                "quotation: quote a source only in its words"
            )
    return value


def _ref(value: str, info: ValidationInfo) -> str:
    library = (info.context or {}).get("library")
    if library is not None:
        try:
            library.quotation(value)
        except KeyError:
            raise ValueError(f"no source defines the quotation {value!r}") from None
    return value


def _one_of(names, what: str):
    def check(value: str) -> str:
        if value not in names:
            raise ValueError(f"{value!r} is not {what} ({', '.join(names)})")
        return value

    return check


#: Words of the sources' own (a passage's opening and closing words, a source id).
_Verbatim = Annotated[str, AfterValidator(_words)]
#: Our words: some, and quoting a source only in its words.
_Ours = Annotated[str, AfterValidator(_words), AfterValidator(_ours)]
_Count = Annotated[int, Field(ge=1)]
_Refs = Listed[Annotated[str, AfterValidator(_ref)]]


class PlanStep(Model):
    """A step of the class: its minutes, what the class does, the pack's section it uses."""

    minutes: _Count
    activity: _Ours
    section: Annotated[str, AfterValidator(_one_of(SECTIONS, "a section of the pack"))]


class GlossaryEntry(Model):
    """A word of the game: the term, our meaning, quotations of a source that uses it."""

    term: _Ours
    meaning: _Ours
    quotes: _Refs = ()


class PassageEntry(Model):
    """A stretch of a source's text to read: from its opening words to its closing words."""

    title: _Ours
    source: _Verbatim
    start: _Verbatim = Field(alias="from")
    to: _Verbatim
    note: _Ours | None = None


class Cause(Model):
    """Why readings differ: the cause, a summary, quotations that show it; ``stored`` shows
    each quotation as its file holds it too."""

    cause: _Ours
    summary: _Ours
    quotes: _Refs = ()
    stored: bool = False


class Question(Model):
    """A discussion question, with a note for the teacher and quotations to read with it."""

    question: _Ours
    note: _Ours
    quotes: _Refs = ()


class Task(Model):
    """An open task, with a note for the teacher and quotations to read with it."""

    task: _Ours
    note: _Ours
    quotes: _Refs = ()


class QuizPick(Model):
    """Puzzles of a source-criticism kind for the quiz: the kind and how many."""

    kind: Annotated[str, AfterValidator(_one_of(SOURCE_KINDS, "a kind of source criticism"))]
    count: _Count


class Passage(TypedDict):
    """A passage for a group to read, cut from its source's text (:func:`passages`)."""

    title: str
    source: str
    who: str
    citation: str
    text: str
    markup: list[tuple[str, str]]
    note: str | None


class ClassData(Model):
    """The pack's data (ours, ``lessons/class/source-criticism.yaml``): see the file's header.
    :attr:`cut_passages` are its passages cut from the source texts
    (:func:`tutor.teaching._class_handout.passages`)."""

    title: str
    minutes: int
    intro: Annotated[str, AfterValidator(_ours)]
    quiz: Listed[QuizPick]
    plan: Listed[PlanStep]
    glossary: Listed[GlossaryEntry]
    passages: Listed[PassageEntry]
    causes: Listed[Cause]
    questions: Listed[Question]
    tasks: Listed[Task]
    _cut: list[Passage] = PrivateAttr(default_factory=list)

    @property
    def cut_passages(self) -> list[Passage]:
        """The passages as cut (:class:`Passage`)."""
        return self._cut
