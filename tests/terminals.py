"""Terminals for the tests that drive ``laugh`` as a person at a keyboard does: one harness, two
kinds of terminal with the same interface (``screen``, ``last_line``, ``keys``, ``press``,
``wait``, ``wait_text``, ``rc``, ``close``).

- :class:`PtyTerm`: a pseudo-terminal of the kernel's, the program on its other end as its
  controlling terminal (a ``laugh`` process forked from a warm interpreter, see
  :class:`support.LaughProcess`), the screen drawn by pyte (a VT100 emulator) from every byte the
  program writes, the keys typed through pexpect.  The program sees a terminal as it does in
  any terminal emulator: ``isatty``, the window's size, cursor-position replies (pyte answers
  them), the line discipline's Ctrl-C and Ctrl-D; what it draws wraps at the width.  For the
  tests where the terminal is the place, not the thing tested: no tmux server, no process a
  capture, no Python start-up a program.
- :class:`TmuxTerm`: tmux, a real terminal multiplexer, with a private server (``-L``), for the
  tests where the terminal itself is the point (colours drawn, 40 columns, Ctrl-C and Ctrl-D
  from a real terminal), and panes side by side.

Keys are tmux's names (``Enter``, ``Space``, ``C-c``, ``C-d``, ``Escape``, ``BSpace``, ``Tab``);
any other text is typed as it is.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import threading
import time
import uuid
from collections import deque
from pathlib import Path

from support import ROOT

#: A colour set by an escape sequence (a foreground or background, of 8, 16, 256 or 16 million).
COLOUR = re.compile(r"\x1b\[[0-9;]*(?:3[0-7]|38;|4[0-7]|48;|9[0-7])[0-9;]*m")

#: tmux's key names, as the bytes a terminal sends for them.
KEYS = {
    "Enter": "\r",
    "Space": " ",
    "C-c": "\x03",
    "C-d": "\x04",
    "Escape": "\x1b",
    "BSpace": "\x7f",
    "Tab": "\t",
}


def _env(tmp_path: Path, env: dict[str, str] | None) -> dict[str, str]:
    """A learner's environment: this process's, a folder of its own, no colour, UTF-8, no
    COLUMNS or LINES (the terminal's size is the window's), then ``env`` over it."""
    out = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "LAUGH_HOME")}
    out.update(
        {
            "LAUGH_HOME": str(tmp_path / "home"),
            "NO_COLOR": "1",
            "PYTHONPATH": str(ROOT),
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
        }
    )
    out.update(env or {})
    return out


class _Term:
    """What both terminals share: waiting on the screen."""

    width: int
    step = 0.03  # seconds between looks at the screen

    def screen(self, escapes: bool = False, history: int = 0) -> str:
        raise NotImplementedError

    def keys(self, *keys: str) -> None:
        raise NotImplementedError

    def _pause(self) -> None:
        """Until the screen may have changed (at most :attr:`step` seconds)."""
        time.sleep(self.step)

    def last_line(self) -> str:
        lines = [line for line in self.screen().splitlines() if line.strip()]
        return lines[-1] if lines else ""

    def press(self, *keys: str, timeout: float = 20) -> bool:
        """Send keys, then wait until the program has reacted: the last line is neither the
        prompt we answered nor that prompt with our typing on it (or has been, for a moment:
        see :meth:`_watch_reaction`).  False: no reaction in ``timeout`` seconds."""
        before = self.last_line().rstrip()
        self._watch_reaction(before)
        try:
            self.keys(*keys)
            deadline = time.time() + timeout
            while time.time() < deadline:
                now = self.last_line().rstrip()
                if self._reacted() or (now != before and not now.startswith(before)):
                    return True
                self._pause()
            return False
        finally:
            self._watch_reaction(None)

    def _watch_reaction(self, before: str | None) -> None:
        """Watch (``before``: the last line answered) or stop watching for a reaction drawn
        between two looks at the screen (none here: the screen is only looked at)."""

    def _reacted(self) -> bool:
        """A reaction was drawn since :meth:`_watch_reaction`, even if drawn over since."""
        return False

    def wait(self, pattern: str, timeout: float = 20) -> str:
        """The last line that is not blank, once it matches ``pattern`` (AssertionError with the
        screen after ``timeout`` seconds)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            line = self.last_line()
            if re.search(pattern, line):
                return line
            self._pause()
        raise AssertionError(f"waited for {pattern!r}; the screen is:\n{self.screen()}")

    def wait_text(self, text: str, timeout: float = 30, history: int = 0) -> str:
        """The screen once ``text`` is on it (also where it is wrapped at the width)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            screen = self.screen(history=history)
            if text in screen or text in " ".join(screen.split()):
                return screen
            self._pause()
        raise AssertionError(f"waited for {text!r}; the screen is:\n{self.screen()}")

    def wait_until(self, pred, timeout: float = 20, history: int = 0) -> str:
        """The screen (after ``history`` lines above it) once ``pred`` of it holds."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            screen = self.screen(history=history)
            if pred(screen):
                return screen
            self._pause()
        raise AssertionError(f"waited in vain; the screen is:\n{self.screen()}")


# -- a pseudo-terminal drawn by pyte -------------------------------------------------------------


class PtyTerm(_Term):
    """``laugh ARGS`` on a pseudo-terminal ``width`` x ``height``, its screen drawn by pyte.

    ``screen()`` is what a person sees, each line without trailing blanks (as tmux's
    ``capture-pane``); ``history`` lines scrolled off above it come first (a screen cleared
    whole is scrolled into them, as tmux does); ``escapes`` gives every colour the program set
    for the characters on that screen as an SGR sequence.  :meth:`sent` is everything written,
    as written.  :meth:`rc` is the program's exit status (-N: killed by signal N)."""

    def __init__(
        self,
        tmp_path: Path,
        width: int = 80,
        height: int = 24,
        args=(),
        env: dict[str, str] | None = None,
        timeout: float = 300,
    ):
        import fcntl
        import struct
        import termios

        import pexpect.fdpexpect
        import pyte
        from support import LaughProcess

        self.width, self.height = width, height
        self._lock = threading.Condition()
        self._raw = bytearray()
        self._history: deque[str] = deque(maxlen=5000)
        self._screen = _Screen(self, width, height)
        self._stream = pyte.ByteStream(self._screen)
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        try:
            self.proc = LaughProcess(
                list(args), _env(tmp_path, env), terminal=slave, timeout=timeout
            )
        finally:
            os.close(slave)
        self.child = pexpect.fdpexpect.fdspawn(master, timeout=5)
        self._master = master
        self._ended = False
        self._before: str | None = None  # the last line a press answered, while it waits
        self._seen_reaction = False
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        """Everything the program writes, drawn as it comes (a terminal's own thread)."""
        import pexpect

        while True:
            try:
                data = self.child.read_nonblocking(1 << 16, timeout=0.5)
            except pexpect.TIMEOUT:
                if self._ended:
                    break
                continue
            except (pexpect.EOF, OSError, ValueError):
                break
            with self._lock:
                self._raw += data
                if self._before is None or self._seen_reaction:
                    self._stream.feed(data)
                else:
                    self._feed_watching(data, self._before)
                self._lock.notify_all()
        with self._lock:
            self._ended = True
            self._lock.notify_all()

    def _feed_watching(self, data: bytes, before: str) -> None:
        """Draw ``data`` a line at a time while a press waits, looking at the last line after
        each: a reaction the program draws over within one read (the next box of the coach
        ends with the same prompt as the last: its first lines show for a moment only) is
        seen however late the waiting thread looks (under load it looked too late, and the
        press waited out its whole timeout)."""
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            end = len(data) if end < 0 else end + 1
            self._stream.feed(data[start:end])
            start = end
            if not self._seen_reaction:
                rows = (
                    _render(self._screen, self._screen.buffer[y], False)
                    for y in reversed(range(self.height))
                )
                now = next((row for row in rows if row.strip()), "").rstrip()
                if now != before and not now.startswith(before):
                    self._seen_reaction = True
                    self._stream.feed(data[start:])
                    return

    def _watch_reaction(self, before: str | None) -> None:
        with self._lock:
            self._before, self._seen_reaction = before, False

    def _reacted(self) -> bool:
        with self._lock:
            return self._seen_reaction

    def _reply(self, text: str) -> None:
        """A terminal's answer to the program's question (the cursor's position)."""
        try:
            os.write(self._master, text.encode())
        except OSError:
            pass

    def _pause(self) -> None:
        with self._lock:
            self._lock.wait(self.step)

    def screen(self, escapes: bool = False, history: int = 0) -> str:
        with self._lock:
            rows = [
                _render(self._screen, self._screen.buffer[y], escapes) for y in range(self.height)
            ]
            before = list(self._history)[-history:] if history else []
        return "\n".join(before + rows) + "\n"

    def sent(self) -> str:
        """Every byte the program has written, decoded (escape sequences and all)."""
        with self._lock:
            return self._raw.decode("utf-8", "replace")

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.child.send(KEYS.get(key, key))

    def rc(self, timeout: float = 20) -> int:
        """The exit status, once the program has ended and all it wrote is drawn."""
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError("the program did not exit:\n" + self.screen()) from None
        # what it wrote last may still be on its way: read until the terminal's end (every
        # holder of the other end gone), or until nothing more came for a moment
        deadline = time.time() + 10
        with self._lock:
            seen = len(self._raw)
            while not self._ended and time.time() < deadline:
                self._lock.wait(0.3)
                if len(self._raw) == seen:
                    break
                seen = len(self._raw)
        return status

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                pass
        self._ended = True
        self._reader.join(5)
        try:
            os.close(self._master)
        except OSError:
            pass


def _screen_class():
    import pyte

    class Screen(pyte.Screen):
        """pyte's screen that keeps the lines scrolled off its top, and a screen cleared whole
        (tmux's ``scroll-on-clear``), as text; and answers the program's questions."""

        def __init__(self, term: PtyTerm, columns: int, lines: int):
            self.term = term
            super().__init__(columns, lines)

        def write_process_input(self, data: str) -> None:
            self.term._reply(data)

        def index(self) -> None:
            top, bottom = self.margins or (0, self.lines - 1)
            if self.cursor.y == bottom and top == 0:
                self.term._history.append(_render(self, self.buffer[0], False))
            super().index()

        def erase_in_display(self, how: int = 0, *args, **kwargs) -> None:
            if how in (2, 3):
                rows = [_render(self, self.buffer[y], False) for y in range(self.lines)]
                while rows and not rows[-1]:
                    rows.pop()
                self.term._history.extend(rows)
            super().erase_in_display(how, *args, **kwargs)

    return Screen


def _Screen(term: PtyTerm, columns: int, lines: int):
    global _SCREEN
    if _SCREEN is None:
        _SCREEN = _screen_class()
    return _SCREEN(term, columns, lines)


_SCREEN = None


def _sgr(char) -> str:
    """The SGR sequence of a character's colours ('' for the default ones)."""
    from pyte.graphics import BG_AIXTERM, BG_ANSI, FG_AIXTERM, FG_ANSI

    codes = []
    for colour, ansi, aixterm, extended in (
        (char.fg, FG_ANSI, FG_AIXTERM, 38),
        (char.bg, BG_ANSI, BG_AIXTERM, 48),
    ):
        if colour == "default":
            continue
        named = {v: k for k, v in ansi.items()} | {v: k for k, v in aixterm.items()}
        if colour in named:
            codes.append(str(named[colour]))
        elif re.fullmatch(r"[0-9a-fA-F]{6}", colour):
            r, g, b = (int(colour[i : i + 2], 16) for i in (0, 2, 4))
            codes.append(f"{extended};2;{r};{g};{b}")
    return f"\x1b[{';'.join(codes)}m" if codes else ""


def _render(screen, line, escapes: bool) -> str:
    """One line of a pyte screen as text (a wide character's second cell left out), without
    trailing blanks; with ``escapes``, each change of colour as its SGR sequence."""
    from wcwidth import wcwidth

    out: list[str] = []
    wide = False
    colour = ""
    for x in range(screen.columns):
        if wide:
            wide = False
            continue
        char = line[x]
        if escapes:
            now = _sgr(char)
            if now != colour:
                out.append(now or "\x1b[0m")
                colour = now
        out.append(char.data)
        wide = wcwidth(char.data[0]) == 2 if char.data else False
    text = "".join(out).rstrip()
    if escapes and colour:
        text += "\x1b[0m"
    return text


# -- tmux ----------------------------------------------------------------------------------------


class TmuxTerm(_Term):
    """``laugh ARGS`` in a tmux session of a private tmux server, ``width`` x ``height``.

    A shell runs it (``trap : INT``: a Ctrl-C sent to the pane reaches the shell too; trapped,
    not ignored, so the program still gets its own, the shell lives on to write the exit
    status) and writes its exit status for :meth:`rc`.  ``screen(escapes, history)`` is
    ``capture-pane -p`` (``-e``: with its escape sequences; ``-S -N``: N lines of history
    first).  :meth:`pane` starts another ``laugh`` beside it, a :class:`TmuxTerm` of its own."""

    step = 0.05

    def __init__(
        self,
        tmp_path: Path,
        width: int = 80,
        height: int = 24,
        args=(),
        env: dict[str, str] | None = None,
        *,
        _server: str | None = None,
        _target: str | None = None,
    ):
        self.width = width
        self.tmp_path = tmp_path
        self.server = _server or f"laugh-{uuid.uuid4().hex[:8]}"  # nobody else's sessions
        self.rc_file = tmp_path / f"rc-{uuid.uuid4().hex[:8]}"
        envs = {
            "LAUGH_HOME": str(tmp_path / "home"),
            "NO_COLOR": "1",
            "PYTHONPATH": str(ROOT),
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            **(env or {}),
        }  # over the tmux server's environment, which is this process's
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in envs.items())
        cmd = (
            f"trap : INT; cd {shlex.quote(str(ROOT))} && env -u COLUMNS -u LINES {exports} "
            f"{shlex.quote(sys.executable)} -m tutor {' '.join(shlex.quote(str(a)) for a in args)}; "
            f"echo $? > {shlex.quote(str(self.rc_file))}; sleep 60"
        )
        if _target is None:
            self.target = "main"
            self.tmux(
                "new-session",
                "-d",
                "-s",
                "main",
                "-x",
                str(width),
                "-y",
                str(height),
                "sh",
                "-c",
                cmd,
            )
        else:
            self.target = self.tmux(
                "split-window", "-P", "-F", "#{pane_id}", "-t", _target, "-v", "sh", "-c", cmd
            ).stdout.strip()

    def tmux(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["tmux", "-L", self.server, *args], capture_output=True, text=True, check=True
        )

    def pane(self, args=(), env: dict[str, str] | None = None) -> TmuxTerm:
        """``laugh ARGS`` in a new pane below this one (the panes share the window's height)."""
        t = TmuxTerm(
            self.tmp_path, self.width, 0, args, env, _server=self.server, _target=self.target
        )
        self.tmux("select-layout", "-t", "main", "even-vertical")
        return t

    def screen(self, escapes: bool = False, history: int = 0) -> str:
        args = ["capture-pane", "-p", "-t", self.target]
        if escapes:
            args.append("-e")
        if history:
            args += ["-S", f"-{history}"]
        return self.tmux(*args).stdout

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.target, *keys)

    def rc(self, timeout: float = 20) -> int:
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.rc_file.exists() and self.rc_file.read_text().strip():
                return int(self.rc_file.read_text())
            time.sleep(0.05)
        raise AssertionError("the program did not exit:\n" + self.screen())

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.server, "kill-server"], capture_output=True)
