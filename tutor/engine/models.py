"""Typed models of the tutor's data files and messages, and the one way a model's refusal
becomes one line a person can act on.

Every data file (puzzle definitions, tracks, class data, sources, saved states) and every
message of a live table is checked by a pydantic model derived from :class:`Model`: unknown
keys refused, no silent coercion of a string into a number, values frozen once read.  A
refusal is never a pydantic traceback: :func:`validate` turns the first problem into the
project's own line,

- ``FILE:LINE: KEY.PATH: what is wrong`` for a YAML text (the line from the
  :class:`~tutor.engine.yamlfile.Document`, so the message names the line of the key at fault,
  as the hand-written checks did), or
- ``WHERE: KEY.PATH: what is wrong`` for JSON (a message, a saved file),

raised as the :class:`~tutor.engine.errors.LaughError` subclass the caller names (default
:class:`~tutor.engine.errors.DataError`).
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from tutor.engine.errors import DataError, LaughError
from tutor.engine.yamlfile import Document

__all__ = ["Model", "key_path", "problem", "validate"]

M = TypeVar("M", bound=BaseModel)


class Model(BaseModel):
    """The base of the project's models: unknown keys refused, strict types, frozen values."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def key_path(loc: tuple[int | str, ...]) -> str:
    """A pydantic location as the project writes a key path: ``players[0].name``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


#: pydantic's messages for the common refusals, said in the project's words.
_WORDS = {
    "missing": "is missing",
    "extra_forbidden": "is not a key here",
    "string_type": "must be text",
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "float_type": "must be a number",
    "bool_type": "must be true or false",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
    "dict_type": "must be a mapping of keys to values",
    "model_type": "must be a mapping of keys to values",
    "model_attributes_type": "must be a mapping of keys to values",
}


def problem(exc: ValidationError) -> tuple[tuple[int | str, ...], str]:
    """The first problem of a refusal: its location (keys and list indexes, pydantic's
    tagged-union and validator steps left out) and a short message."""
    err = exc.errors(include_url=False)[0]
    loc = tuple(p for p in err["loc"] if isinstance(p, int) or not _internal(p))
    kind = err["type"]
    if kind in _WORDS:
        message = _WORDS[kind]
    else:
        message = " ".join(str(err["msg"]).split())
        for lead in ("Value error, ", "Assertion failed, "):
            if message.startswith(lead):
                message = message[len(lead):]
    return loc, message


def _internal(part: str) -> bool:
    # pydantic names union members and validator steps in a location: "function-after[...]",
    # "tagged-union[...]", "list[str]", "int"; a data file's keys never hold brackets.
    return "[" in part or part in {"int", "str", "float", "bool"}


def validate(model: type[M], value: Any, *, doc: Document | None = None, where: str = "",
             error: type[LaughError] = DataError) -> M:
    """``value`` checked and built as ``model``.

    ``doc`` (a YAML text's :class:`Document`) gives the file and line of the key at fault;
    otherwise ``where`` (a file name, "message") leads the line.  Raises ``error`` (default
    :class:`DataError`) with one line naming the key path; never a pydantic error.
    """
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        loc, message = problem(exc)
        path = key_path(loc)
        if doc is not None:
            line = doc.line_of(*loc)
            place = f"{doc.display}:{line}"
            path = doc.path(path)
        else:
            place = where
        parts = [p for p in (place, path, message) if p]
        raise error(": ".join(parts)) from None
