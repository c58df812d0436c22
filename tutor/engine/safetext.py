"""Text from outside (files, exports, names, the network, typed input) made safe for where it
goes: the one place that decides what of such text a person may receive raw.

- :func:`printable`: for a terminal, an HTML page, a Markdown handout or a CSV cell.  Control
  characters (Unicode Cc: C0 but tab and newline, DEL, C1), format characters (Cf: the bidi
  overrides and isolates such as U+202E, zero-width spaces and joiners, the BOM, the soft
  hyphen), line and paragraph separators (U+2028, U+2029) and lone surrogates are shown as
  ``\\x1b``, ``\\u202e`` or ``\\U000e0001`` escapes, so a source file, an export, a file name or
  another player's name cannot clear the screen, write the clipboard (OSC 52), make a hyperlink
  (OSC 8), retitle the window, or turn text round so that it reads other than it is.  The
  console (:class:`tutor.app.std_streams.Console`) passes everything it prints through it (and
  never reads text as rich markup), as do the command line's error lines, the Jinja2
  environment of every HTML page (:mod:`tutor.teaching.html`), the Markdown writers and
  :func:`csv_cell`.
- :func:`csv_cell`: for a spreadsheet.  :func:`printable`, then a cell that a spreadsheet would
  read as a formula (starting with ``=``, ``+``, ``-``, ``@``, or their full-width forms, once
  leading spaces, no-break spaces and other Unicode spaces are skipped; or starting with a tab
  or a carriage return), unless it is a plain number, gets a leading ``'`` (the OWASP advice),
  so ``=HYPERLINK(...)`` in a learner's name stays text.  :mod:`tutor.teaching.classreport`
  writes every CSV cell through it.
- :func:`json_text`: JSON text for output, with the same characters as ``\\uXXXX`` escapes (the
  value read back is unchanged).
- :func:`clip`: for a one-line message that quotes input: at most ``width`` characters, the
  rest said as ``...`` (a 3,000-character input is never echoed whole).
"""

from __future__ import annotations

import re

__all__ = ["UNSAFE", "printable", "one_line", "has_controls", "csv_cell", "json_text", "clip"]

#: The characters a person never receives raw: Unicode categories Cc (but tab and newline), Cf,
#: Zl, Zp and Cs (lone surrogates), as ranges (Unicode 15.1; ``tests`` check them against the
#: running Python's ``unicodedata``).
UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2"
    "\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ud800-\udfff\ufeff"
    "\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]"
)
#: What a spreadsheet reads as the start of a formula (OWASP: CSV injection), full-width forms
#: too; checked after leading spaces.
_FORMULA_START = ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20")
#: A plain signed number, which a spreadsheet reads as that number and nothing more.
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def _escape(match: re.Match[str]) -> str:
    n = ord(match.group())
    return f"\\x{n:02x}" if n <= 0xFF else f"\\u{n:04x}" if n <= 0xFFFF else f"\\U{n:08x}"


def has_controls(text: str) -> bool:
    """Whether ``text`` holds a character :func:`printable` escapes (a control, bidi or format
    character, a line or paragraph separator, a lone surrogate)."""
    return UNSAFE.search(text) is not None


def printable(text: str) -> str:
    """``text`` with every control character (C0 but tab and newline, DEL, C1: ESC, BEL,
    CSI...), format character (bidi overrides and isolates, zero-width characters, BOM, soft
    hyphen), line or paragraph separator and lone surrogate written as a visible escape
    (``\\x1b``, ``\\u202e``, ``\\U000e0001``); other text unchanged."""
    return UNSAFE.sub(_escape, text) if UNSAFE.search(text) else text


def one_line(text: str) -> str:
    """``text`` :func:`printable` and on one line: a newline or tab written as ``\\n``,
    ``\\t`` too (a carriage return is already ``\\x0d``) (a name from a file in a table's cell or row, where a line
    break would start a row of its own)."""
    return printable(text).replace("\n", "\\n").replace("\t", "\\t")


def csv_cell(value: object) -> object:
    """``value`` safe for a CSV cell: text is made :func:`printable`, and text that a
    spreadsheet would take for a formula (starting with ``=``, ``+``, ``-``, ``@`` or a
    full-width form of one after any leading spaces, no-break spaces or other Unicode spaces;
    or starting with a tab or carriage return) gets a leading ``'``; numbers, text of a plain
    signed number (``-3``, ``+1.5``) and other text are returned unchanged."""
    if not isinstance(value, str):
        return value
    text = printable(value)
    if _PLAIN_NUMBER.fullmatch(text):
        return text
    if text.startswith(("\t", "\r")) or text.lstrip().startswith(_FORMULA_START):
        return "'" + text
    return text


def _json_escape(match: re.Match[str]) -> str:
    n = ord(match.group())
    if n <= 0xFFFF:
        return f"\\u{n:04x}"
    n -= 0x10000
    return f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}"


def json_text(text: str) -> str:
    """JSON text (from ``json.dumps``) with every character :func:`printable` escapes written
    as a ``\\uXXXX`` escape: the same JSON value, nothing a terminal acts on.  (Outside its
    strings JSON has only ASCII, and ``json.dumps`` already escapes C0, so every character
    changed stands inside a string.)"""
    return UNSAFE.sub(_json_escape, text) if UNSAFE.search(text) else text


def clip(text: str, width: int = 60) -> str:
    """``text`` cut to at most ``width`` characters, ending ``...`` when cut (for messages that
    quote what was typed or read)."""
    text = str(text)
    return text if len(text) <= width else text[: max(0, width - 3)] + "..."
