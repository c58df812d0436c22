"""The standard streams, made safe for the whole program: the one place that knows about them.

- :func:`standard_streams`: makes the standard streams safe for the whole program (the command
  line enters it once).  A closed standard input reads as an empty one (end of input at once);
  input that is not valid in its encoding is read with replacement characters (and ASCII input
  is read as UTF-8, of which it is a subset, so ``7♥`` typed under ``PYTHONIOENCODING=ascii`` is
  still a card).  Output that its encoding cannot show falls back to ASCII (suits as letters,
  quotation marks as ``"``, dashes as ``-``), never an error.  A closed standard output, or one
  that cannot be written (a full disk), raises :class:`OutputError` (one line, exit status 1); a
  reader that went away (``| head``) raises ``BrokenPipeError`` (the command line exits 0,
  quietly).
- :func:`make_console`: a rich console that honours ``NO_COLOR``, a usable width (``COLUMNS=0``
  or nonsense falls back to the terminal's width, else 80; never below :data:`MIN_WIDTH`), and
  the closed-pipe rule above; text is never read as rich markup, and no control, bidi or format
  character from data reaches the terminal (the console escapes it, see
  :mod:`tutor.engine.safetext`); :class:`RStripWriter` drops the padding rich writes, for
  output that is not a terminal.
- :func:`echo` and :func:`echo_json`: a plain line or JSON on standard output without a
  console, escaped as the console escapes.
- :func:`suit_symbols`: whether the output can show ♣♦♥♠ (else cards are written ``7H``).
- :func:`is_terminal`: whether a stream is a terminal (False for a closed one).

Reading answers is :mod:`tutor.app.learner_io`'s (the seam's implementations).
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import re
import sys
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager

from rich.cells import cell_len
from rich.console import Console as _RichConsole
from rich.segment import Segment
from rich.text import Text

from tutor.engine.errors import LaughError
from tutor.engine.safetext import has_controls, json_text, printable

#: The narrowest console the screens are laid out for (``COLUMNS=5`` is read as this).
MIN_WIDTH = 20

#: The codec error handler that writes what an encoding cannot show in ASCII.
ASCII_FALLBACK = "laugh-ascii"

_ASCII = {  # one character for one wherever a mark may stand in a table or a bar
    "♣": "C",
    "♦": "D",
    "♥": "H",
    "♠": "S",
    "“": '"',
    "”": '"',
    "„": '"',
    "‘": "'",
    "’": "'",
    "‚": "'",
    "«": '"',
    "»": '"',
    "—": "-",
    "–": "-",
    "‐": "-",
    "−": "-",
    "·": "-",
    "•": "*",
    "…": "~",
    "≠": "!",
    "✓": "+",
    "✗": "x",
    "▸": ">",
    "▶": ">",
    "█": "#",
    "░": ".",
    "×": "x",
    "÷": "/",
    "\u00a0": " ",
    "ſ": "s",
    "±": "+/-",
    "≤": "<=",
    "≥": ">=",
    "→": "->",
    "←": "<-",
    "½": "1/2",
    "¼": "1/4",
    "¾": "3/4",
    "æ": "ae",
    "Æ": "AE",
    "œ": "oe",
    "Œ": "OE",
    "ß": "ss",
}


def _ascii(ch: str) -> str:
    """``ch`` in ASCII: a table of the tutor's own marks, else its letters without accents, else
    ``?``."""
    if ch in _ASCII:
        return _ASCII[ch]
    plain = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
    return plain or "?"


def _ascii_fallback(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return "".join(_ascii(ch) for ch in exc.object[exc.start : exc.end]), exc.end


codecs.register_error(ASCII_FALLBACK, _ascii_fallback)


class OutputError(LaughError):
    """Standard output cannot be written: it is closed, or the disk is full.  The message says
    which (the command line prints it as one line and exits with status 1)."""


def _is_utf(encoding: str | None) -> bool:
    return (encoding or "").lower().replace("-", "").replace("_", "").startswith("utf")


def is_terminal(stream) -> bool:
    """Whether ``stream`` is a terminal (False for None or a closed stream)."""
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class _GuardedOutput:
    """A text stream in front of standard output that turns a failed write into
    :class:`OutputError` (or lets ``BrokenPipeError`` through).  After a failure the file
    descriptor is pointed at the null device, so that what is still buffered is dropped quietly
    when the program exits, and every later write fails the same way."""

    def __init__(self, stream):
        self._stream = stream
        self._failed: BaseException | None = None

    def _fail(self, exc: OSError) -> BaseException:
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self._stream.fileno())
            os.close(null)
        except (OSError, ValueError, AttributeError):
            pass
        if isinstance(exc, BrokenPipeError):
            self._failed = BrokenPipeError(errno.EPIPE, "the reader of the output has gone")
        else:
            self._failed = OutputError(
                "cannot write to standard output: " + (exc.strerror or str(exc)).lower()
            )
        return self._failed

    def write(self, text: str) -> int:
        if self._failed is not None:
            raise self._failed
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise self._fail(exc) from None

    def flush(self) -> None:
        if self._failed is not None:
            return
        try:
            self._stream.flush()
        except OSError as exc:
            raise self._fail(exc) from None

    def isatty(self) -> bool:
        return is_terminal(self._stream)

    def writable(self) -> bool:
        return True

    def __getattr__(self, name: str):  # encoding, errors, fileno, buffer, ...
        return getattr(self._stream, name)


class _ClosedOutput:
    """Standard output when the program was started with it closed: every write raises
    :class:`OutputError`; flushing (as Python does at exit) has nothing to do."""

    encoding = "utf-8"
    errors = "strict"

    def write(self, text: str) -> int:
        if not text:
            return 0
        raise OutputError("cannot write to standard output: it is closed")

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        raise io.UnsupportedOperation("standard output is closed")


def _fall_back_to_ascii(stream) -> None:
    """Let ``stream`` write what its encoding cannot show in ASCII instead of failing."""
    if (
        isinstance(stream, io.TextIOWrapper)
        and not _is_utf(stream.encoding)
        and stream.errors in ("strict", "surrogateescape")
    ):
        try:
            stream.reconfigure(errors=ASCII_FALLBACK)
        except (ValueError, io.UnsupportedOperation):
            pass


def _readable_input(stream):
    """Standard input that never fails to decode: ASCII is read as UTF-8 (a superset), any
    other encoding with replacement characters for bytes it cannot read."""
    if isinstance(stream, io.TextIOWrapper):
        try:
            if (stream.encoding or "").lower().replace("-", "") in ("ascii", "usascii", "646"):
                stream.reconfigure(encoding="utf-8", errors="replace")
            elif stream.errors == "strict":
                stream.reconfigure(errors="replace")
        except (ValueError, io.UnsupportedOperation):
            pass
    return stream


@contextmanager
def standard_streams() -> Iterator[None]:
    """Make ``sys.stdin``, ``sys.stdout`` and ``sys.stderr`` safe while the block runs (the
    command line runs every command inside it), and put the originals back afterwards.

    - closed standard input (``laugh <&-``): an empty stream, so the first question meets end of
      input (``EOFError``), as with ``</dev/null``;
    - input that its encoding cannot decode: replacement characters, and ASCII read as UTF-8;
    - output that its encoding cannot show: ASCII (see :data:`ASCII_FALLBACK`);
    - standard output closed or not writable (``>&-``, ``>/dev/full``): :class:`OutputError`;
      a reader that went away: ``BrokenPipeError`` (see :class:`_GuardedOutput`).
    """
    saved = sys.stdin, sys.stdout, sys.stderr
    try:
        if sys.stdin is None:
            sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - lives as long as stdin
        else:
            _readable_input(sys.stdin)
        if sys.stderr is None:
            sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
        else:
            _fall_back_to_ascii(sys.stderr)
        if sys.stdout is None:
            sys.stdout = _ClosedOutput()
        else:
            _fall_back_to_ascii(sys.stdout)
            if not is_terminal(sys.stdout):
                sys.stdout = _GuardedOutput(sys.stdout)
        yield
    finally:
        opened = [s for s, old in zip((sys.stdin, sys.stderr), saved[::2]) if old is None]
        sys.stdin, sys.stdout, sys.stderr = saved
        for stream in opened:
            stream.close()


class Console(_RichConsole):
    """A rich console whose closed pipe raises ``BrokenPipeError`` (for the command line to exit
    0, quietly) instead of rich's own exit with status 1, and through which text from data
    reaches the terminal as plain text:

    - no string is ever read as rich markup or emoji codes (``markup`` and ``emoji`` are off,
      whatever a caller asks): ``[/b]`` or ``[link=...]`` in a learner's name is shown as
      typed, never a crash or a hyperlink; the program styles its own words with
      :class:`~rich.text.Text` and styles;
    - every piece of text it renders passes through :func:`tutor.engine.safetext.printable`
      (ESC, BEL, CSI, bidi overrides, zero-width characters... shown as ``\\x1b``,
      ``\\u202e``), so a source file, an export or another player's name cannot clear the
      screen, write the clipboard, retitle the window or turn text round.

    Rich's own styling and cursor codes are not text and pass unchanged."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs["markup"] = False
        kwargs["emoji"] = False
        super().__init__(*args, **kwargs)

    def on_broken_pipe(self) -> None:  # noqa: D102 - rich hook
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, "the reader of the output has gone")

    def print(
        self,
        *objects,
        sep: str = " ",
        end: str = "\n",
        style=None,
        justify=None,
        overflow=None,
        no_wrap=None,
        emoji=None,
        markup=None,
        highlight=None,
        width=None,
        height=None,
        crop: bool = True,
        soft_wrap=None,
        new_line_start: bool = False,
    ) -> None:
        """Rich's ``print``, never reading markup or emoji codes (``markup`` and ``emoji`` are
        ignored); text given directly (strings and :class:`~rich.text.Text`, not inside a table
        or panel) is escaped (:func:`~tutor.engine.safetext.printable`) and wrapped at spaces
        only (:func:`whole_word_text`), so a path, code or token is never broken across
        lines."""
        if (
            objects
            and not soft_wrap
            and not no_wrap
            and overflow is None
            and width is None
            and justify in (None, "default", "left")
            and all(isinstance(o, (str, Text)) for o in objects)
        ):
            texts = [
                self.render_str(o, highlight=highlight)
                if isinstance(o, str)
                else _printable_text(o)
                if has_controls(o.plain)
                else o
                for o in objects
            ]
            joined = Text(sep).join(texts) if len(texts) > 1 else texts[0]
            objects = (whole_word_text(joined, self.width),)
            soft_wrap = True
        super().print(
            *objects,
            sep=sep,
            end=end,
            style=style,
            justify=justify,
            overflow=overflow,
            no_wrap=no_wrap,
            emoji=False,
            markup=False,
            highlight=highlight,
            width=width,
            height=height,
            crop=crop,
            soft_wrap=soft_wrap,
            new_line_start=new_line_start,
        )

    def render_str(self, text: str, **kwargs) -> Text:  # noqa: D102 - plain text, escaped
        kwargs.update(markup=False, emoji=False)
        return super().render_str(printable(text), **kwargs)

    def render(self, renderable, options=None):  # noqa: D102 - the output edge of every console
        if isinstance(renderable, Text) and has_controls(renderable.plain):
            renderable = _printable_text(renderable)  # escaped before it is laid out
        for segment in super().render(renderable, options):
            if segment.control is None and has_controls(segment.text):
                yield Segment(printable(segment.text), segment.style)
            else:
                yield segment


def _printable_text(text: Text) -> Text:
    """``text`` with its control characters escaped (:func:`printable`), its styles kept."""
    cuts = sorted(
        {i for span in text.spans for i in (span.start, span.end) if 0 < i < len(text.plain)}
    )
    out = text.copy()
    out.plain = ""
    out.spans = []
    for part in text.divide(cuts):
        piece = Text(printable(part.plain))
        for span in part.spans:
            if span.end > span.start:
                piece.stylize(span.style)
        out.append_text(piece)
    return out


_PIECE = re.compile(r"(\s*)(\S+)")


def _breaks(line: str, width: int) -> list[int]:
    """Where the lines of ``line`` (no newline in it) start after the first, breaking at spaces
    only (see :func:`whole_word_lines`)."""
    starts: list[int] = []
    used = 0
    for match in _PIECE.finditer(line):
        space, word = match.groups()
        cells = cell_len(word)
        if used and used + cell_len(space) + cells > width:
            starts.append(match.start(2))
            used = cells
        else:
            used += cell_len(space) + cells
    return starts


def whole_word_text(text: Text, width: int) -> Text:
    """``text`` (its styles kept) broken into lines of at most ``width`` cells at spaces only: a
    word (a path, a code, a token: anything without a space) is never broken, and one wider
    than ``width`` stands whole on a line of its own (the terminal may fold it, but no line
    break is written inside it, so it can still be copied).  Hard line breaks and a line's
    leading spaces are kept; the spaces at a break are dropped.  Print the result with
    ``soft_wrap=True``."""
    width = max(1, width)
    lines: list[Text] = []
    for line in text.split("\n", allow_blank=True):
        for piece in line.divide(_breaks(line.plain, width)):
            if len(piece.plain) != len(line.plain):
                piece.rstrip()
            lines.append(piece)
    return Text("\n", end=text.end).join(lines)


def whole_word_lines(text: str, width: int) -> list[str]:
    """``text`` broken into lines as :func:`whole_word_text` breaks it."""
    return whole_word_text(Text(text), width).plain.split("\n")


def terminal_width() -> int | None:
    """The terminal's width in columns when standard output is one, else None (piped, closed
    or replaced): a server's lines for the person at its terminal are wrapped to it."""
    import shutil

    try:
        if sys.stdout.isatty():
            return shutil.get_terminal_size().columns
    except (OSError, ValueError, AttributeError):
        pass
    return None


def console_width() -> int | None:
    """The width to give a console, or None to let rich follow the terminal (and ``COLUMNS``).

    ``COLUMNS`` that is not a positive number (``COLUMNS=0``) is ignored, and a width below
    :data:`MIN_WIDTH` is raised to it.
    """
    columns = os.environ.get("COLUMNS")
    if columns is None:
        return None
    if columns.strip().isdigit() and int(columns) > 0:
        return max(MIN_WIDTH, int(columns))
    for stream in (sys.__stdout__, sys.__stdin__, sys.__stderr__):
        if stream is None:
            continue
        try:
            width = os.get_terminal_size(stream.fileno()).columns
        except (AttributeError, ValueError, OSError):
            continue
        if width > 0:
            return max(MIN_WIDTH, width)
    return 80


def make_console(
    stderr: bool = False, width: int | None = None, *, file=None, plain: bool = False
) -> Console:
    """A :class:`Console` for output (standard output, standard error with ``stderr``, or
    ``file``): colour off under ``NO_COLOR`` or when not a terminal, a usable width (see
    :func:`console_width`).  ``plain``: no colour and no escape codes whatever the output is.
    Standard output that is not a terminal gets whole lines without trailing spaces."""
    width = width if width is not None else console_width()
    if file is None and not stderr and not is_terminal(sys.stdout):
        file = RStripWriter(sys.stdout)
    if plain:
        return Console(
            file=file,
            stderr=stderr,
            highlight=False,
            width=width,
            no_color=True,
            color_system=None,
            force_terminal=False,
        )
    return Console(
        file=file,
        stderr=stderr,
        highlight=False,
        width=width,
        no_color=bool(os.environ.get("NO_COLOR")) or None,
    )


def echo(text: object = "", *, stderr: bool = False, flush: bool = False) -> None:
    """Print ``text`` as one plain line (no markup, no wrapping, so a line meant for a program
    to read, ``FILE:LINE: message``, stays whole) on standard output or, with ``stderr``,
    standard error; every control, bidi or format character in it escaped
    (:func:`~tutor.engine.safetext.printable`): the way to print text that quotes a file name or
    a value read from data without a console."""
    print(printable(str(text)), file=sys.stderr if stderr else sys.stdout, flush=flush)


def echo_json(value, **dumps) -> None:
    """Print ``value`` as JSON text (``json.dumps(value, ensure_ascii=False, **dumps)``) on
    standard output, every control, bidi or format character in its strings a ``\\uXXXX``
    escape (:func:`~tutor.engine.safetext.json_text`: the same value, read back)."""
    import json

    print(json_text(json.dumps(value, ensure_ascii=False, **dumps)))


def suit_symbols() -> bool:
    """True when suit symbols can be printed: the output encoding is UTF-8 and
    ``LAUGH_ASCII`` is not set."""
    if os.environ.get("LAUGH_ASCII"):
        return False
    return _is_utf(getattr(sys.stdout, "encoding", None))


class RStripWriter:
    """A text stream that drops the spaces rich pads lines with, for clean piped output (every
    console on a standard output that is not a terminal writes through one, so a redirected
    ``laugh sources`` has no line ending in spaces).

    Whole lines are written with trailing spaces removed (only spaces: a CSV's ``\\r\\n`` line
    ends are kept); a partial line waits for its end (or :meth:`flush`).
    """

    def __init__(self, stream):
        self.stream = stream
        self._buf = ""

    def write(self, text: str) -> int:
        self._buf += text
        if "\n" in self._buf:
            *lines, self._buf = self._buf.split("\n")
            self.stream.write("".join(line.rstrip(" ") + "\n" for line in lines))
        return len(text)

    def flush(self) -> None:
        if self._buf:
            self.stream.write(self._buf)
            self._buf = ""
        self.stream.flush()

    def isatty(self) -> bool:
        return False

    def __getattr__(self, name: str):  # encoding, errors, fileno, ...
        return getattr(self.stream, name)
