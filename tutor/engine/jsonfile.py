"""The one way the tutor reads JSON: deal records, saved matches, progress exports, caches.

Every JSON file is read within limits, as :mod:`tutor.engine.yamlfile` reads YAML:

- every file is opened through :func:`tutor.engine.infile.open_input`: a regular file only, so
  a FIFO, a socket or a device (``/dev/zero``) is refused in one line, never waited on;
- :func:`read_bytes` reads at most :data:`MAX_BYTES` (a whole document) and refuses a file
  larger than that after reading one byte more, so a huge file is refused in one line instead
  of filling memory;
- :func:`iter_lines` reads JSON Lines one line at a time, each line at most
  :data:`MAX_LINE_BYTES`; a longer line stops the reading with one line (a file of any length is
  read in bounded memory);
- :func:`loads` parses one JSON text and refuses, in one line with the line and column where
  that can be said: text that is not JSON, ``NaN``/``Infinity``, a key given twice in one
  object, a number longer than ``max_digits`` digits, nesting deeper than :data:`MAX_DEPTH`,
  and a string that is not text (a lone surrogate escape such as ``\\ud800``, which no file,
  database or terminal can hold);
- :func:`load` is :func:`read_bytes`, UTF-8 decoding and :func:`loads` together, every message
  starting with the file's name.

Every refusal is a :class:`JSONError` (a :class:`~tutor.engine.errors.DataError`): one line;
``reason`` is the message without the file's name, ``line`` and ``column`` where known.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from tutor.engine.errors import DataError
from tutor.engine.infile import open_input

__all__ = [
    "MAX_BYTES",
    "MAX_LINE_BYTES",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "JSONError",
    "read_bytes",
    "decode",
    "describe",
    "iter_lines",
    "lone_surrogate",
    "loads",
    "load",
]

#: The largest whole JSON document read, in bytes (a saved match of 1,000 deals is about 6 MB;
#: a progress export holds about 180,000 answers in this much, at some 370 bytes an answer).
MAX_BYTES = 64 * 1024 * 1024
#: The longest line of a JSON Lines file, in bytes (a whole deal record is under 10 kB).
MAX_LINE_BYTES = 1_000_000
#: The deepest nesting of objects and lists (the deepest of our formats is 5 levels).
MAX_DEPTH = 32
#: The most digits a whole number may have unless the reader says otherwise (Python refuses
#: over 4,300 with a ValueError; no field of our formats needs more than 20).
MAX_DIGITS = 30


def describe(value: object) -> str:
    """A short, safe description of a JSON value for a message, as it was given: ``null``,
    ``true``, ``a list``, ``an object``, else its repr cut to 40 characters (never a long or
    deep repr)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class JSONError(DataError):
    """A JSON file or text that cannot be read within the limits.  ``reason`` says why without
    the file's name; ``line`` and ``column`` (1-based) where the problem is, when known;
    ``more`` is true when the text began with a whole JSON value and went on after it (JSON
    Lines, say)."""

    def __init__(
        self,
        message: str,
        reason: str | None = None,
        line: int | None = None,
        column: int | None = None,
        more: bool = False,
    ):
        super().__init__(message)
        self.reason = reason if reason is not None else message
        self.line = line
        self.column = column
        self.more = more


def _size(n: int) -> str:
    if n >= 1024 * 1024 and n % (1024 * 1024) == 0:
        return f"{n // (1024 * 1024)} MB"
    return f"{n:,} bytes"


def read_bytes(path: str | Path, display: str | None = None, limit: int = MAX_BYTES) -> bytes:
    """The bytes of ``path``, at most ``limit`` of them.

    ``display`` names the file in messages (default ``path`` as given).  Raises
    :class:`JSONError` ``NAME: ...`` when the file cannot be read (missing, a folder, no
    permission) or holds more than ``limit`` bytes (``/dev/zero``, an endless pipe): never more
    than ``limit + 1`` bytes are read.
    """
    name = display if display is not None else str(path)
    try:
        with open_input(path) as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        reason = f"cannot be read ({exc.strerror or exc})"
        raise JSONError(f"{name}: {reason}", reason) from None
    if len(data) > limit:
        reason = (
            f"larger than {_size(limit)}, more than any file of this program; "
            "check that it is the file you meant"
        )
        raise JSONError(f"{name}: {reason}", reason)
    return data


def decode(data: bytes, display: str) -> str:
    """``data`` as UTF-8 text, a leading byte-order mark dropped.  Raises :class:`JSONError`
    naming the line and column of the first byte that is not UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        reason = f"not UTF-8 text: byte 0x{data[exc.start]:02X} at line {line} column {column}"
        raise JSONError(f"{display}: {reason}", reason, line, column) from None
    return text.removeprefix("\ufeff")


def iter_lines(
    path: str | Path, display: str | None = None, limit: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, bytes]]:
    """Yield ``(line_number, line)`` for every line of ``path`` (bytes, the line end dropped),
    reading one line at a time, so a file of any length takes bounded memory.

    Raises :class:`JSONError` ``NAME:LINE: ...`` when the file cannot be read, or at the first
    line longer than ``limit`` bytes (nothing after it is read: a file of one endless line,
    such as ``/dev/zero``, is refused at once)."""
    name = display if display is not None else str(path)
    try:
        fh = open_input(path)  # closed below, also when the caller stops early
    except OSError as exc:
        reason = f"cannot be read ({exc.strerror or exc})"
        raise JSONError(f"{name}: {reason}", reason) from None
    with fh:
        lineno = 0
        while True:
            try:
                line = fh.readline(limit + 1)
            except OSError as exc:
                reason = f"cannot be read ({exc.strerror or exc})"
                raise JSONError(f"{name}: {reason}", reason) from None
            if not line:
                return
            lineno += 1
            if len(line) > limit and not (len(line) == limit + 1 and line.endswith(b"\n")):
                reason = (
                    f"line {lineno} is longer than {_size(limit)}, more than any record "
                    "needs; check that it is the file you meant"
                )
                raise JSONError(f"{name}:{lineno}: {reason}", reason, lineno)
            yield lineno, line.rstrip(b"\r\n")


class _Refused(Exception):
    """Raised inside the decoder's hooks; turned into a :class:`JSONError` by :func:`loads`."""


def _describe_key(key: str) -> str:
    text = repr(key)
    return text if len(text) <= 40 else text[:37] + "..."


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Refused(f"the key {_describe_key(key)} is given twice in one object")
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON value")


def _depth_over(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists and objects more than ``limit`` deep (no recursion)."""
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        items: Iterable[Any]
        if isinstance(v, dict):
            items = v.values()
        elif isinstance(v, list):
            items = v
        else:
            continue
        if depth > limit:
            return True
        stack.extend((x, depth + 1) for x in items if isinstance(x, (dict, list)))
    return False


#: A JSON escape of a UTF-16 surrogate (``\\ud800``): only such a text may hold a lone one.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(value: object, text: str | None = None) -> bool:
    """Whether a string in ``value`` (a key or a value, at any depth) holds a lone surrogate:
    text that no file, database or terminal can hold (a pair of escapes is read as one
    character, so any left is lone).  With ``text`` (the JSON ``value`` was read from), False at
    once when it has no surrogate escape."""
    if text is not None and not _SURROGATE_ESCAPE.search(text):
        return False
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if _SURROGATE.search(v):
                return True
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def loads(
    text: str, *, max_digits: int = MAX_DIGITS, max_depth: int = MAX_DEPTH, what: str = "a value"
) -> object:
    """Parse one JSON text within the limits (see the module docstring).

    ``max_digits`` is the most digits a whole number may have (a decimal number at most
    ``max_digits + 70`` characters); ``what`` names what the text should hold in messages
    (``a deal record``).  Raises :class:`JSONError` whose message (and ``reason``) is one line,
    ``not JSON: Expecting value at line 3 column 5`` or ``a number of 400 digits (no field of a
    deal record needs more than 30)``, with ``line`` and ``column`` where the parser stopped.
    """

    def parse_int(digits: str) -> int:
        n = len(digits.lstrip("-"))
        if n > max_digits:
            raise _Refused(
                f"a number of {n} digits (no field of {what} needs more than {max_digits})"
            )
        return int(digits)

    def parse_float(digits: str) -> float:
        if len(digits) > max_digits + 70:
            raise _Refused(
                f"a number of {len(digits)} characters (no field of {what} needs so many)"
            )
        return float(digits)

    try:
        value = json.loads(
            text,
            parse_int=parse_int,
            parse_float=parse_float,
            parse_constant=_constant,
            object_pairs_hook=_object,
        )
    except json.JSONDecodeError as exc:
        where = (
            f"line {exc.lineno} column {exc.colno}"
            if exc.lineno > 1 or "\n" in text
            else f"column {exc.colno}"
        )
        if not text[exc.pos :].strip() or exc.msg.startswith("Unterminated string"):
            end = len(text.rstrip())
            lineno = text.count("\n", 0, end) + 1
            colno = end - (text.rfind("\n", 0, end) + 1) + 1
            reason = (
                f"not JSON: the text ends at line {lineno} column {colno} before the "
                "JSON does (was the file cut short?)"
            )
            raise JSONError(reason, reason, lineno, colno) from None
        msg = exc.msg.removesuffix(" at")
        reason = f"not JSON: {msg} at {where}"
        raise JSONError(
            reason, reason, exc.lineno, exc.colno, more=exc.msg == "Extra data"
        ) from None
    except _Refused as exc:
        reason = f"not {what}: {exc}"
        raise JSONError(reason, reason) from None
    except RecursionError:
        reason = f"not {what}: nested too deeply (more than {max_depth} levels)"
        raise JSONError(reason, reason) from None
    if _depth_over(value, max_depth):
        reason = f"not {what}: nested too deeply (more than {max_depth} levels)"
        raise JSONError(reason, reason)
    if lone_surrogate(value, text):
        reason = f"not {what}: a string that is not text (a lone surrogate escape, \\udXXX)"
        raise JSONError(reason, reason)
    return value


def load(
    path: str | Path,
    display: str | None = None,
    *,
    limit: int = MAX_BYTES,
    max_digits: int = MAX_DIGITS,
    max_depth: int = MAX_DEPTH,
    what: str = "a value",
) -> object:
    """The JSON document in ``path``: :func:`read_bytes` (at most ``limit`` bytes), UTF-8
    (:func:`decode`) and :func:`loads`.  Raises :class:`JSONError` ``NAME: reason`` (one line)
    for anything that keeps it from being read whole."""
    name = display if display is not None else str(path)
    text = decode(read_bytes(path, name, limit), name)
    try:
        return loads(text, max_digits=max_digits, max_depth=max_depth, what=what)
    except JSONError as exc:
        raise JSONError(f"{name}: {exc.reason}", exc.reason, exc.line, exc.column) from None
