"""The ``laugh`` command line.

Each subcommand lives in a module of :mod:`tutor.app.commands` that exposes ``register(subparsers,
parent)``, where ``parent`` is the parser holding the options every command shares (``--sources
DIR``), and a handler that prints what a function of the same module builds (the home screen
calls those functions too).  Errors the program raises on purpose
(:class:`tutor.engine.errors.LaughError`) become a one-line message; Ctrl-C and Ctrl-D leave
cleanly.  The standard streams are made safe first (:func:`tutor.app.std_streams.standard_streams`:
closed, full, piped into ``head``, or unable to show Unicode).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import NoReturn

from tutor import __version__
from tutor.app.commands import (
    analyse,
    coach_cmd,
    drill,
    lesson,
    match,
    odds,
    play,
    progress_cmd,
    puzzle,
    records,
    rules,
    simulate,
    sources_cmd,
    stats,
    table,
    tutor_app,
    web,
    worksheet,
)
from tutor.app.commands._common import resolve_names
from tutor.app.std_streams import standard_streams
from tutor.engine import kernelcache, sources
from tutor.engine.errors import LaughError, UsageError
from tutor.engine.names import find_name
from tutor.engine.outputs import unsaved
from tutor.engine.safetext import clip, printable

#: Command modules, in the order ``laugh --help`` lists them.
COMMAND_MODULES = (
    tutor_app,
    lesson,
    coach_cmd,
    puzzle,
    play,
    match,
    drill,
    rules,
    sources_cmd,
    simulate,
    records,
    analyse,
    odds,
    stats,
    progress_cmd,
    worksheet,
    table,
    web,
)

#: Exit statuses (also listed by ``laugh --help`` and in docs/COMMANDS.md, "Exit status").
OK, FAILED, USAGE, INTERRUPTED = 0, 1, 2, 130

EPILOG = (
    "Exit status: 0 done (also at end of input, after q, and when the reader of the "
    "output goes away, as with | head); 1 a check failed, bad data, the output could "
    "not be written, or progress, a deal record or a match could not be saved (a full "
    "or read-only disk: said at once); 2 a usage error; 130 interrupted (Ctrl-C)."
)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit with status 2: a value quoted from
    the command line is cut short (:func:`tutor.engine.safetext.clip`), and an option whose
    value was taken for an option (``--name -1+1``) says how to give it."""

    def _get_values(self, action, arg_strings):  # noqa: D102 - argparse hook
        # A choice (a command, a drill, a drill's mode...) typed in another case, or mistyped,
        # is read as names are read everywhere (tutor.engine.names: "did you mean ...").  Of a
        # command's arguments only the first is its name; the rest go to its own parser.
        if action.choices is not None and action.type is None and arg_strings:
            if action.nargs == argparse.PARSER:
                arg_strings = [_choice(action, arg_strings[0]), *arg_strings[1:]]
            elif action.nargs != argparse.REMAINDER:
                arg_strings = [_choice(action, a) for a in arg_strings]
        return super()._get_values(action, arg_strings)

    def error(self, message: str) -> NoReturn:  # noqa: D102 - argparse hook
        message = _shorten_quoted(message)
        option = re.match(r"argument (\S+?)(?:/\S+)?: expected one argument$", message)
        if option:
            message += (
                f" (a value that starts with '-' goes after an equals sign: "
                f"{option.group(1)}=-VALUE)"
            )
        self.exit(USAGE, f"laugh: {printable(clip(message, 400))}\n")


def _choice(action: argparse.Action, text: str) -> str:
    """``text``, one of ``action``'s choices in any case (:func:`tutor.engine.names.
    find_name`); ArgumentError (one line, the nearest choices) for none of them."""
    choices = [c for c in action.choices or () if isinstance(c, str)]
    if text in choices:
        return text
    metavar = action.metavar if isinstance(action.metavar, str) else None
    what = (
        (action.dest if action.dest not in (None, argparse.SUPPRESS) else metavar or "choice")
        .replace("_", " ")
        .lower()
    )
    try:
        return find_name(text, choices, what)
    except UsageError as exc:
        raise argparse.ArgumentError(action, str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    """Build the full argument parser from every command module."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--sources",
        metavar="DIR",
        action="append",
        default=argparse.SUPPRESS,
        help="also load source files (house rules, other reconstructions) from DIR",
    )
    parser = _Parser(
        prog="laugh",
        parents=[parent],
        epilog=EPILOG,
        description="Learn and practise Laugh and Lie Down, the earliest known "
        "European fishing game (Willughby, c. 1665).",
    )
    parser.add_argument("--version", action="version", version=f"laugh {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in COMMAND_MODULES:
        module.register(sub, parent)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``laugh`` command with ``argv`` (default ``sys.argv[1:]``); returns the exit status
    (:data:`OK`, :data:`FAILED`, :data:`USAGE` or :data:`INTERRUPTED`)."""
    unsaved(clear=True)
    with standard_streams():
        try:
            status = _run(argv)
            sys.stdout.flush()  # a failure to write the end of the output counts too
            if status == OK and unsaved():
                status = FAILED  # something it keeps could not be kept: one line
                _unsaved_line()
        except BrokenPipeError:  # the reader went away (| head): done, quietly
            return OK
        except KeyboardInterrupt:  # before a command began (its own Ctrl-C is handled below)
            print(file=sys.stderr)
            return INTERRUPTED if os.name != "nt" else FAILED
        except LaughError as exc:  # the output could not be written
            _error(exc)
            return FAILED
        return status


def _run(argv: list[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a one-line usage error (status 2)
        return exc.code if isinstance(exc.code, int) else OK
    extra = getattr(args, "sources", None)
    if extra:
        sources.set_extra_dirs(extra)
    kernelcache.on_compiling(_compiling_line)
    kernelcache.start()  # the analysis kernel, compiled in the background
    sources.set_notice(_left_out)
    handler = getattr(args, "handler", None) or tutor_app.run_default
    try:
        resolve_names(args)  # a ruleset or source typed in any case, or mistyped
        return int(handler(args) or OK)
    except UsageError as exc:
        _error(exc)
        return USAGE
    except LaughError as exc:
        _error(exc)
        return FAILED
    except EOFError:  # end of input: leave quietly, as a finished session
        if sys.stderr.isatty():  # (after Ctrl-D, end the prompt's line)
            print(file=sys.stderr)
        return OK
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return INTERRUPTED if os.name != "nt" else FAILED


def _compiling_line(seconds: float) -> None:
    """Say, once, that analyses wait on the kernel's compilation (see
    :func:`tutor.engine.kernelcache.on_compiling`)."""
    try:
        print(
            f"laugh: the analysis kernel is being compiled, once on this machine (about "
            f"{max(1, round(seconds))} s more); until then analyses run on the slower pure "
            "engine, then on it",
            file=sys.stderr,
            flush=True,
        )
    except (OSError, ValueError):
        pass


def _unsaved_line() -> None:
    """One line on standard error for what could not be saved and was said only on standard
    output (:func:`tutor.engine.outputs.not_saved`)."""
    what = list(dict.fromkeys(w for w, said in unsaved() if not said))
    if what:
        try:
            print(f"laugh: {printable('; '.join(what))}", file=sys.stderr)
        except OSError:
            pass


def _shorten_quoted(message: str) -> str:
    """``message`` with every quoted value over 60 characters cut short (an input of thousands
    of characters is never echoed whole)."""
    return re.sub(r"'([^']{60})[^']+'", lambda m: f"'{m.group(1)[:57]}...'", message)


def _left_out(line: str) -> None:
    """Say on standard error, in one line, that a file of the teacher's folder is left out (or,
    where the line says so, one record of it)."""
    said = printable(_shorten_quoted(line))
    tail = "laugh sources check lists every problem"
    try:
        print(
            f"laugh: {said[:-1]}; {tail})"
            if said.endswith("file are kept)")
            else f"laugh: {said} (the file is left out; {tail})",
            file=sys.stderr,
        )
    except OSError:
        pass


def _error(exc: LaughError) -> None:
    """Print ``exc`` as one line on standard error (nothing more can be done if that fails)."""
    text = "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())
    try:
        print(f"laugh: {printable(_shorten_quoted(text))}", file=sys.stderr)
    except OSError:
        pass
