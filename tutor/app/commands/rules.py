"""``laugh rules``: the rulesets, each parameter with its status, the sources' words and our notes.

``laugh rules`` lists the rulesets; ``laugh rules RULESET...`` shows each one in full;
``laugh rules --compare [RULESET...]`` sets them side by side (parameters as rows) with the
differences marked; ``--json`` prints the same information for programs. The views are
:mod:`tutor.app.rules_view`'s.
"""

from __future__ import annotations

import argparse

from tutor.app.commands._common import players_type, ruleset_name
from tutor.app.rules_view import (
    chosen_rulesets,
    compare_json,
    parameters_json,
    parameters_view,
    rules_view,
    ruleset_json,
)
from tutor.app.std_streams import echo_json, make_console
from tutor.engine.sources import default_library


def register(subparsers: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:
    """Add the ``rules`` command to ``subparsers`` (``parent`` holds the shared options)."""
    p = subparsers.add_parser(
        "rules",
        parents=[parent],
        help="show the rulesets and where each rule comes from",
        description="Show the rulesets: each parameter's value, whether the source states it, "
        "we read it from the source's words, or chose it, with the source's own "
        "words and our notes. Without RULESET, list the rulesets.",
    )
    p.add_argument(
        "ruleset", nargs="*", type=ruleset_name, metavar="RULESET", help="ruleset id(s) to show"
    )
    p.add_argument(
        "--compare", action="store_true", help="set the rulesets (all, or those named) side by side"
    )
    p.add_argument(
        "--players", "-p", type=players_type, metavar="N", help="only the parameters for N players"
    )
    p.add_argument(
        "--parameters",
        action="store_true",
        help="list every ruleset parameter with its values and meaning",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``laugh rules``; raises UsageError (from :func:`chosen_rulesets`) for an unknown ruleset or player count."""
    if args.parameters:
        if args.json:
            echo_json(parameters_json(), indent=2)
        else:
            console = make_console()
            for renderable in parameters_view():
                console.print(renderable)
        return 0
    lib = default_library()
    ids = chosen_rulesets(lib, list(args.ruleset), args.players)
    if args.json:
        if args.compare:
            data = compare_json(lib, ids, args.players)
        else:
            data = {"rulesets": [ruleset_json(lib, r, args.players) for r in ids]}
        echo_json(data, indent=2)
        return 0
    console = make_console()
    for renderable in rules_view(
        lib,
        ids,
        compare=args.compare,
        named=bool(args.ruleset),
        players=args.players,
        width=console.width,
    ):
        console.print(renderable)
    return 0
