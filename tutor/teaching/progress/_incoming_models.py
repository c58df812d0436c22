"""The models of what comes in from outside the program (:mod:`._incoming`): an answer, a
sighting and a lesson's state as an export or a journal line gives them, checked by pydantic
and turned into what the store keeps.  Kept apart from :mod:`._incoming` so that opening the
store does not load pydantic: it is loaded with the first answer or sighting checked."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field, ValidationInfo, model_validator

from tutor.engine.models import Model
from tutor.puzzles.themes import theme_ids
from tutor.teaching.progress._schema import (
    CONTEXTS,
    LATEST_TIME,
    LONGEST_ANSWER,
    MAX_TEXT,
    OUTCOMES,
    known_kinds,
)
from tutor.teaching.progress._store_rows import Answer, LessonState, Sighting

__all__ = ["AnswerIn", "LessonIn", "Moment", "Seconds", "SightingIn", "Text", "Whole"]


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("must be a whole number")
    if not -(2**63) <= value < 2**63:
        raise ValueError(f"is a number of {len(str(abs(value)))} digits, out of range")
    return value


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("must be a number")
    if isinstance(value, int) and abs(value) >= 2**63:
        raise ValueError(f"is a number of {len(str(abs(value)))} digits, out of range")
    if not math.isfinite(float(value)):
        raise ValueError("must be a number")
    return float(value)


def _within(low: float, high: float, what: str) -> Callable[[float], float]:
    def check(value: float) -> float:
        if not low <= value <= high:
            raise ValueError(what)
        return value

    return check


def _one_of(names: tuple[str, ...]) -> Callable[[str], str]:
    def check(value: str) -> str:
        if value not in names:
            raise ValueError(f"must be one of {', '.join(names)}")
        return value

    return check


def _kind(value: str, info: ValidationInfo) -> str:
    kinds = (info.context or {}).get("kinds") or known_kinds()
    if value not in kinds:
        raise ValueError(
            f"{value!r} is not a kind of answer this program records (one of "
            f"{', '.join(sorted(kinds))})"
        )
    return value


#: A name, id or theme: text of 1 to :data:`MAX_TEXT` characters.
Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
#: A whole number SQLite keeps (a signed 64-bit integer).
Whole = Annotated[int, BeforeValidator(_whole)]
#: A time: Unix seconds from 0 to :data:`LATEST_TIME`.
Moment = Annotated[
    float,
    BeforeValidator(_number),
    AfterValidator(_within(0, LATEST_TIME, f"must be a Unix time from 0 to {LATEST_TIME}")),
]
#: The seconds an answer took: from 0 to :data:`LONGEST_ANSWER`.
Seconds = Annotated[
    float,
    BeforeValidator(_number),
    AfterValidator(_within(0, LONGEST_ANSWER, f"must be from 0 to {LONGEST_ANSWER}, or null")),
]


class AnswerIn(Model):
    """An answer of an export (or a journal line) as it comes in; :meth:`record` as the store
    keeps it.  The kinds known come from the context (``{"kinds": ...}``; default
    :func:`known_kinds`)."""

    uid: Text
    at: Moment
    puzzle_id: Text
    kind: Annotated[Text, AfterValidator(_kind)]
    themes: list[Text]
    correct: bool
    seconds: Seconds | None = None
    hints: Annotated[Whole, Field(ge=0)] = 0
    lesson: Text | None = None
    ruleset: Text | None = None
    retry: bool = False
    difficulty: (
        Annotated[Whole, AfterValidator(_within(1, 5, "must be from 1 to 5, or null"))] | None
    ) = None
    revealed: bool = False

    def record(self) -> Answer:
        """The answer as the store keeps it (its themes by one name each, old spellings too)."""
        return Answer(
            at=self.at,
            puzzle_id=self.puzzle_id,
            kind=self.kind,
            themes=tuple(theme_ids(self.themes)),
            correct=self.correct,
            seconds=self.seconds,
            hints=self.hints,
            lesson=self.lesson,
            ruleset=self.ruleset,
            retry=self.retry,
            uid=self.uid,
            difficulty=self.difficulty,
            revealed=self.revealed,
        )


class SightingIn(Model):
    """A sighting of an export (or a journal line) as it comes in (see :class:`Sighting`)."""

    uid: Text
    at: Moment
    context: Annotated[str, AfterValidator(_one_of(CONTEXTS))]
    kind: Annotated[str, Field(max_length=MAX_TEXT)]
    outcome: Annotated[str, AfterValidator(_one_of(OUTCOMES))]
    seconds: Seconds | None = None
    ruleset: Text | None = None
    source: Text | None = None

    def record(self) -> Sighting:
        """The sighting as the store keeps it."""
        return Sighting(**self.model_dump())


class LessonIn(Model):
    """A lesson's state of an export as it comes in (see :class:`LessonState`): a score
    (``right`` of ``total``) only with ``completed_at``, and ``right`` within ``total``."""

    lesson: Text
    seed: Whole
    page: Annotated[Whole, Field(ge=0)] = 0
    answered: dict[str, bool] = {}
    started_at: Moment
    updated_at: Moment
    completed_at: Moment | None = None
    right: Whole | None = None
    total: Whole | None = None
    in_progress: bool = False

    @model_validator(mode="after")
    def _score(self) -> LessonIn:
        scored = self.right is not None or self.total is not None
        if self.completed_at is None and scored:
            raise ValueError("has a score (right, total) but no completed_at")
        if self.completed_at is not None and (self.right is None or self.total is None):
            raise ValueError("right and total must be given with completed_at")
        if self.right is not None and self.total is not None and not 0 <= self.right <= self.total:
            raise ValueError(f"right must be from 0 to total ({self.total}), not {self.right}")
        return self

    def record(self) -> LessonState:
        """The lesson's state as the store keeps it."""
        return LessonState(**self.model_dump())
