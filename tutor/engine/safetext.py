"""Text from outside (files, exports, names, typed input) made safe for where it goes.

- :func:`printable`: for a terminal.  Control characters (C0 but tab and newline, DEL, C1) are
  shown as ``\\x1b``-style escapes, so a source file, an export or a learner's name cannot clear
  the screen, set the window title or move the cursor (ESC, BEL, CSI...).  The console
  (:class:`tutor.app.streams.Console`) passes everything it prints through it, and the
  command line's error lines too.
- :func:`csv_cell`: for a spreadsheet.  A cell that a spreadsheet would read as a formula
  (starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, unless it is a plain
  number) gets a leading ``'`` (the OWASP advice), so ``=HYPERLINK(...)`` in a learner's name
  stays text.  :mod:`tutor.teaching.classreport` writes every CSV cell through it.
- :func:`clip`: for a one-line message that quotes input: at most ``width`` characters, the
  rest said as ``...`` (a 3,000-character input is never echoed whole).
"""

from __future__ import annotations

import re

__all__ = ["printable", "has_controls", "csv_cell", "clip"]

#: Control characters that a terminal acts on: C0 except tab and newline, DEL, and C1.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: What a spreadsheet reads as the start of a formula (OWASP: CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: A plain signed number, which a spreadsheet reads as that number and nothing more.
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def _escape(match: re.Match) -> str:
    return f"\\x{ord(match.group()):02x}"


def has_controls(text: str) -> bool:
    """Whether ``text`` holds a control character a terminal would act on (see
    :func:`printable`)."""
    return _CONTROLS.search(text) is not None


def printable(text: str) -> str:
    """``text`` with every control character a terminal acts on (C0 but tab and newline, DEL,
    C1: ESC, BEL, CSI...) written as a visible ``\\x1b``-style escape; other text unchanged."""
    return _CONTROLS.sub(_escape, text) if _CONTROLS.search(text) else text


def csv_cell(value: object) -> object:
    """``value`` safe for a CSV cell: text that a spreadsheet would take for a formula
    (starting with ``=``, ``+``, ``-``, ``@``, tab or carriage return) gets a leading ``'``;
    numbers, text of a plain signed number (``-3``, ``+1.5``) and other text are returned
    unchanged."""
    if isinstance(value, str) and value.startswith(_FORMULA_START) \
            and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def clip(text: str, width: int = 60) -> str:
    """``text`` cut to at most ``width`` characters, ending ``...`` when cut (for messages that
    quote what was typed or read)."""
    text = str(text)
    return text if len(text) <= width else text[:max(0, width - 3)] + "..."
