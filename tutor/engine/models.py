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

import types
from collections.abc import Callable
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError
from pydantic_core import ErrorDetails

from tutor.engine.errors import DataError, LaughError
from tutor.engine.jsonfile import describe
from tutor.engine.yamlfile import Document

__all__ = [
    "Listed",
    "Model",
    "describe",
    "first_error",
    "key_path",
    "listed",
    "problem",
    "refusal",
    "validate",
    "whole_number",
]

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


class Model(BaseModel):
    """The base of the project's models: unknown keys refused, strict types, frozen values."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


def listed(value: object) -> object:
    """A before-validator for a tuple field: a file's list taken as a tuple (strict pydantic
    takes only a tuple as a tuple); anything else left for the field to refuse."""
    return tuple(value) if isinstance(value, list) else value


#: A list in a file, a tuple of ``T`` in the model: ``Listed[Step]``.
Listed = Annotated[tuple[T, ...], BeforeValidator(listed)]


def whole_number(low: int, high: int) -> Callable[[object], int]:
    """A plain validator for a whole number from ``low`` to ``high`` (not a boolean, a float or
    text), refusing with the range and the value given: ``must be a whole number from 1 to
    1,000, got '6'``.  Use as ``Annotated[int, PlainValidator(whole_number(1, 1_000))]``."""

    def check(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(
                f"must be a whole number from {low:,} to {high:,}, got {describe(value)}"
            )
        return value

    return check


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
#: The refusals of a value's type, after which the value given is worth saying.
_TYPES = frozenset(_WORDS) - {"missing", "extra_forbidden"}

#: Refusals of a bound, said with the bound (pydantic's context names it).
_BOUNDS = {
    "greater_than_equal": "must be at least {ge}",
    "less_than_equal": "must be at most {le}",
    "greater_than": "must be more than {gt}",
    "less_than": "must be less than {lt}",
    "too_short": "must hold at least {min_length} entries",
    "too_long": "must hold at most {max_length} entries",
    "string_too_short": "must be text of at least {min_length} characters",
    "string_too_long": "must be text of at most {max_length} characters",
    "literal_error": "must be {expected}",
}


def problem(exc: ValidationError, *, given: bool = False) -> tuple[tuple[int | str, ...], str]:
    """The first problem of a refusal: its location (keys and list indexes, pydantic's
    tagged-union and validator steps left out) and a short message; with ``given``, a value of
    the wrong type or out of range is said too (``must be text, got a list``).  Which problem:
    :func:`first_error`."""
    err = first_error(exc)
    loc = tuple(p for p in err["loc"] if isinstance(p, int) or not _internal(p))
    kind = err["type"]
    if kind in _WORDS:
        message = _WORDS[kind]
    elif kind in ("too_short", "string_too_short") and err.get("ctx", {}).get("min_length") == 1:
        message = "must not be empty"
    elif kind in _BOUNDS and "ctx" in err:
        message = _BOUNDS[kind].format(
            **{k: f"{v:g}" if isinstance(v, float) else v for k, v in err["ctx"].items()}
        )
        message = message.replace(" 1 entries", " 1 entry").replace(" 1 characters", " 1 character")
    else:
        message = " ".join(str(err["msg"]).split())
        for lead in ("Value error, ", "Assertion failed, "):
            if message.startswith(lead):
                message = message[len(lead) :]
    if given and (kind in _TYPES or kind in _BOUNDS):
        message += f", got {describe(err['input'])}"
    return loc, message


def first_error(exc: ValidationError) -> ErrorDetails:
    """The error of ``exc`` to say: its first, but where a key is missing and another is not a
    key of the place, the unknown key (most often the missing one misspelt, and its message
    lists the keys the place takes)."""
    errors = exc.errors(include_url=False)
    if any(e["type"] == "missing" for e in errors):
        return next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    return errors[0]


def _internal(part: str) -> bool:
    # pydantic names union members and validator steps in a location: "function-after[...]",
    # "tagged-union[...]", "list[str]", "int"; a data file's keys never hold brackets.
    return "[" in part or part in {"int", "str", "float", "bool"}


def validate(
    model: type[M],
    value: object,
    *,
    doc: Document | None = None,
    where: str = "",
    error: type[LaughError] = DataError,
    context: object = None,
    given: bool = False,
    at: tuple[int | str, ...] = (),
) -> M:
    """``value`` checked and built as ``model``.

    ``doc`` (a YAML text's :class:`Document`) gives the file and line of the key at fault, and
    an unknown key or a value that is not a mapping is told the keys the place takes;
    otherwise ``where`` (a file name, "message") leads the line.  ``context`` is handed to the
    model's validators (pydantic's validation context: what a rule checks against, such as the
    library of sources); ``given`` says the value given after a wrong type or range; ``at`` is
    where ``value`` stands in ``doc`` (the keys from its root), when it is a part of it.  Raises
    ``error`` (default :class:`DataError`) with one line naming
    the key path; never a pydantic error.
    """
    try:
        return model.model_validate(value, context=context)
    except ValidationError as exc:
        loc, message = problem(exc, given=given)
        loc = at + loc
        if doc is None:
            path = key_path(loc)
            raise error(": ".join(p for p in (where, path, message) if p)) from None
        kind = first_error(exc)["type"]
        if kind == "extra_forbidden":
            keys = _keys_at(model, loc[len(at) : -1])
            message += f" (keys: {', '.join(keys)})" if keys else ""
        elif kind in ("model_type", "model_attributes_type"):
            keys = _keys_at(model, loc[len(at) :])
            message = f"must be a mapping of keys ({', '.join(keys)})" if keys else message
        raise refusal(doc, message, *loc, error=error) from None


def refusal(
    doc: Document,
    message: str,
    *keys: int | str,
    error: type[LaughError] = DataError,
    line: int | None = None,
) -> LaughError:
    """``error`` with the line ``FILE:LINE: KEY.PATH: message`` for the value at ``keys`` of
    ``doc`` (the line of that key, else of the nearest enclosing one, unless ``line`` is
    given): the one form of a refusal a model's checks cannot make, a rule across keys checked
    after it."""
    place = f"{doc.display}:{line if line is not None else doc.line_of(*keys)}"
    return error(": ".join(p for p in (place, doc.path(key_path(keys)), message) if p))


def _keys_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """The keys (aliases where given) of the model found at ``loc`` from ``model``, walking
    fields, lists, mappings and optional values; [] when no model is there."""
    kinds: list[Any] = [model]
    for part in (*loc, None):
        models = [k for k in kinds if isinstance(k, type) and issubclass(k, BaseModel)]
        if part is None:
            break
        nxt: list[Any] = []
        for k in kinds:
            if k in models and isinstance(part, str) and part in _aliases(k):
                nxt.append(k.model_fields[_aliases(k)[part]].annotation)
            elif get_origin(k) in (list, tuple) and isinstance(part, int):
                nxt += [a for a in get_args(k) if a is not Ellipsis]
            elif get_origin(k) is dict and get_args(k):
                nxt.append(get_args(k)[1])
        kinds = _flat(nxt)
    return list(_aliases(models[0])) if models else []


def _aliases(model: type[BaseModel]) -> dict[str, str]:
    return {f.alias or name: name for name, f in model.model_fields.items()}


def _flat(kinds: list[Any]) -> list[Any]:
    out: list[Any] = []
    for k in kinds:
        origin = get_origin(k)
        if origin is Union or origin is types.UnionType:
            out += _flat(list(get_args(k)))
        elif origin is Annotated:
            out += _flat([get_args(k)[0]])
        else:
            out.append(k)
    return out
