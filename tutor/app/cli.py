"""The ``laugh`` command line.

Each subcommand lives in a module of :mod:`tutor.app.commands` that exposes ``register(subparsers,
parent)``, where ``parent`` is the parser holding the options every command shares (``--sources
DIR``).  Errors the program raises on purpose (:class:`tutor.engine.errors.LaughError`) become a one-line
message; Ctrl-C and Ctrl-D leave cleanly.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from tutor.engine.errors import LaughError, UsageError

#: Command modules, in the order ``laugh --help`` lists them.
COMMAND_MODULES = ("tutor_app", "lesson", "puzzle", "play", "drill", "rules", "sources_cmd",
                   "simulate", "records", "analyse", "odds", "stats", "worksheet")


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit with status 2."""

    def error(self, message: str) -> None:  # noqa: D102 - argparse hook
        self.exit(2, f"laugh: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """Build the full argument parser from every available command module."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("--sources", metavar="DIR", action="append", default=argparse.SUPPRESS,
                        help="also load source files (house rules, other reconstructions) from DIR")
    parser = _Parser(prog="laugh", parents=[parent],
                     description="Learn and practise Laugh and Lie Down, the earliest known "
                                 "European fishing game (Willughby, c. 1665).")
    from tutor import __version__
    parser.add_argument("--version", action="version", version=f"laugh {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"tutor.app.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"tutor.app.commands.{name}":
                continue
            raise
        module.register(sub, parent)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``laugh`` command with ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:          # --help, --version, or a one-line usage error (status 2)
        return exc.code if isinstance(exc.code, int) else 0
    extra = getattr(args, "sources", None)
    if extra:
        from tutor.engine import sources
        sources.set_extra_dirs(extra)
    handler = getattr(args, "handler", None)
    if handler is None:
        if "tutor_app" in sys.modules or _has_module("tutor.app.commands.tutor_app"):
            from tutor.app.commands import tutor_app
            handler = tutor_app.run_default
        else:
            parser.print_help()
            return 0
    try:
        return int(handler(args) or 0)
    except UsageError as exc:
        print(f"laugh: {exc}", file=sys.stderr)
        return 2
    except LaughError as exc:
        print(f"laugh: {exc}", file=sys.stderr)
        return 1
    except EOFError:                   # end of input: leave quietly, as a finished session
        print(file=sys.stderr)
        return 0
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130 if os.name != "nt" else 1
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0


def _has_module(name: str) -> bool:
    import importlib.util
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False
