"""What comes in from outside the program, checked one way: the answers, sightings and lessons
of a progress export (:mod:`tutor.teaching.transfer`), and the lines of the journal of changes
kept for later (:mod:`tutor.teaching.progress._pending`), which a person or another program
could have written as well.  Each check returns the value as the store keeps it, or raises
:class:`Bad` naming where it stands (``answers[3].kind``) and what is wrong.  The models
(:mod:`._incoming_models`) are loaded with the first answer or sighting checked."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from tutor.engine.errors import LaughError
from tutor.teaching.progress._schema import LATEST_TIME, MAX_TEXT, PLAY_KINDS, known_kinds
from tutor.teaching.progress._store_rows import Answer, Sighting

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = [
    "MAX_TEXT",
    "PLAY_KINDS",
    "Bad",
    "answer",
    "boolean",
    "known_kinds",
    "moment",
    "number",
    "opt",
    "sighting",
    "text",
    "whole",
]


class Bad(LaughError):
    """A value this program could not have written (the message says where and why)."""


def _fields(model: type[BaseModel], value: object) -> object:
    """``value`` with only the keys of ``model`` (a journal line holds the change's own too)."""
    return (
        {k: v for k, v in value.items() if k in model.model_fields}
        if isinstance(value, dict)
        else value
    )


def answer(a: object, where: str, kinds: frozenset[str] | None = None) -> Answer:
    """A journal line's answer as the store keeps it (other keys of the line not read);
    :class:`Bad` naming ``where`` and the first value wrong.  ``kinds``: the kinds known
    (default :func:`known_kinds`)."""
    from tutor.engine.models import validate
    from tutor.teaching.progress._incoming_models import AnswerIn

    return validate(
        AnswerIn, _fields(AnswerIn, a), where=where, error=Bad, context={"kinds": kinds}
    ).record()


def sighting(x: object, where: str) -> Sighting:
    """A journal line's sighting as the store keeps it (other keys of the line not read);
    :class:`Bad` naming ``where`` and the first value wrong."""
    from tutor.engine.models import validate
    from tutor.teaching.progress._incoming_models import SightingIn

    return validate(SightingIn, _fields(SightingIn, x), where=where, error=Bad).record()


def opt(obj: dict, key: str, check, where: str):
    value = obj.get(key)
    return None if value is None else check(value, where)


def text(value, where: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
        raise Bad(f"{where} must be text of 1 to {MAX_TEXT} characters")
    return value


def boolean(value, where: str) -> bool:
    if not isinstance(value, bool):
        raise Bad(f"{where} must be true or false")
    return value


def whole(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Bad(f"{where} must be a whole number")
    if not -(2**63) <= value < 2**63:
        raise Bad(f"{where} is a number of {len(str(abs(value)))} digits, out of range")
    return value


def number(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Bad(f"{where} must be a number")
    if isinstance(value, int) and abs(value) >= 2**63:
        raise Bad(f"{where} is a number of {len(str(abs(value)))} digits, out of range")
    if not math.isfinite(float(value)):
        raise Bad(f"{where} must be a number")
    return float(value)


def moment(value, where: str) -> float:
    t = number(value, where)
    if not 0 <= t <= LATEST_TIME:
        raise Bad(f"{where} must be a Unix time from 0 to {LATEST_TIME}")
    return t
