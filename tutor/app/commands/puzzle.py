"""``laugh puzzle`` (one interactive puzzle) and ``laugh puzzles`` (export, list, themes): the
arguments only; what they do is :mod:`tutor.app.puzzle_pages`."""

from __future__ import annotations

import argparse

from tutor.app.commands._common import players_type, ruleset_name, seed_type, whole
from tutor.app.puzzle_pages import (
    EXPORT_COUNT,
    EXPORT_SEED,
    export_puzzles,
    kinds_and_sets,
    make_puzzle,
    pose_one,
    show_kinds,
    show_themes,
    themes_data,
)
from tutor.app.std_streams import echo_json
from tutor.engine.errors import UsageError


def register(sub, parent) -> None:
    """Add the ``puzzle`` and ``puzzles`` subcommands."""
    p = sub.add_parser(
        "puzzle",
        parents=[parent],
        help="one puzzle, graded by the rules engine",
        description="Pose one puzzle from a real deal: type your answer in plain "
        "words and card codes (7h 7s, 10♥, claim 9s, nothing, lie "
        "down, +2), `hint` for a hint, `quit` to leave. A wrong "
        "answer gets a nudge and a second try; then the answer, "
        "the explanation and the source are shown whether you are "
        "right or wrong.",
    )
    p.add_argument(
        "kind",
        nargs="?",
        type=kind_name,
        metavar="KIND",
        help="puzzle kind (`laugh puzzles` lists them; default: any)",
    )
    p.add_argument(
        "--theme",
        "-t",
        metavar="T",
        help="a puzzle on one theme, by its id or its words (laugh puzzles themes "
        "lists them); the kind is chosen among those that carry it",
    )
    p.add_argument(
        "--ruleset",
        "-r",
        type=ruleset_name,
        metavar="R",
        help="ruleset id (default: chosen from the seed)",
    )
    p.add_argument("--players", "-n", type=players_type, metavar="N", help="player count")
    p.add_argument(
        "--difficulty",
        "-d",
        type=whole(1, 5, "a difficulty"),
        metavar="D",
        help="difficulty from 1 to 5 (default: the band nearest your rating)",
    )
    p.add_argument(
        "--seed",
        type=seed_type,
        metavar="S",
        help="seed: exactly that seed's puzzle (default: random)",
    )
    p.add_argument(
        "--id",
        metavar="ID",
        dest="puzzle_id",
        help="a puzzle id KIND.RULESET.PLAYERS.SEED: exactly that puzzle",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print the puzzle as JSON (laugh-and-lie-down/puzzle@1) instead of asking",
    )
    p.set_defaults(handler=run_puzzle)

    q = sub.add_parser(
        "puzzles",
        parents=[parent],
        help="the puzzle kinds, themes and sets; export puzzles",
        description="List the puzzle kinds and the curated sets (list), every "
        "theme in plain words (themes), or export puzzles as JSON "
        "Lines (export).",
    )
    qs = q.add_subparsers(dest="puzzles_command", metavar="ACTION", parser_class=type(q))
    e = qs.add_parser(
        "export",
        parents=[parent],
        help="write puzzles as JSON Lines",
        description="Write puzzles in the laugh-and-lie-down/puzzle@1 format, one "
        "JSON object a line: COUNT puzzles of KIND with seeds S, S+1, "
        "..., or every puzzle of a curated set.",
    )
    e.add_argument(
        "--kind", "-k", type=kind_name, metavar="K", help="puzzle kind (`laugh puzzles` lists them)"
    )
    e.add_argument("--set", dest="set_name", metavar="NAME", help="a curated set instead of --kind")
    e.add_argument(
        "--count",
        "-c",
        type=whole(1, 10_000, "a count of puzzles"),
        default=None,
        metavar="N",
        help=f"how many puzzles (default {EXPORT_COUNT})",
    )
    e.add_argument(
        "--seed",
        type=seed_type,
        default=None,
        metavar="S",
        help=f"first seed (default {EXPORT_SEED})",
    )
    e.add_argument(
        "--ruleset",
        "-r",
        type=ruleset_name,
        metavar="R",
        help="ruleset id (default: chosen per seed)",
    )
    e.add_argument("--players", "-n", type=players_type, metavar="N", help="player count")
    e.add_argument(
        "--out",
        "-o",
        metavar="FILE.jsonl",
        default="-",
        help="output file (default: standard output)",
    )
    e.set_defaults(handler=run_export)
    ls = qs.add_parser("list", parents=[parent], help="the puzzle kinds and curated sets")
    ls.add_argument("--json", action="store_true", help="as JSON")
    ls.set_defaults(handler=run_list)
    th = qs.add_parser(
        "themes",
        parents=[parent],
        help="every theme, in plain words",
        description="Every theme a puzzle can carry: its id (the one name used "
        "in puzzles, drills, statistics, exports and the class "
        "report), its plain words, and the kinds of puzzle that "
        "carry it. Practise one with: laugh puzzle --theme ID.",
    )
    th.add_argument("--json", action="store_true", help="as JSON")
    th.set_defaults(handler=run_themes)
    q.set_defaults(handler=run_list)


def kind_name(text: str) -> str:
    """argparse type of a puzzle kind (or a spec ``KIND/THEME``): the kind in any case, or one
    line naming the nearest kinds (:func:`tutor.engine.names.find_name`)."""
    import re

    from tutor.engine.names import find_name
    from tutor.puzzles import KINDS  # loaded only when a kind is typed (start-up time)

    cut = re.search(r"[/@]", text)  # KIND, then /THEME
    head, rest = (text[: cut.start()], text[cut.start() :]) if cut else (text, "")
    try:
        return find_name(head, KINDS, "puzzle kind") + rest
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run_puzzle(args) -> int:
    """Pose one puzzle (:func:`tutor.app.puzzle_pages.pose_one`), or print it as JSON."""
    asked = {
        "puzzle_id": args.puzzle_id,
        "kind": args.kind,
        "theme": args.theme,
        "ruleset": args.ruleset,
        "players": args.players,
        "difficulty": args.difficulty,
        "seed": args.seed,
    }
    if args.json:
        echo_json(make_puzzle(**asked).to_json(), indent=1)
        return 0
    return pose_one(**asked)


def run_export(args) -> int:
    """Write puzzles as JSON Lines (:func:`tutor.app.puzzle_pages.export_puzzles`)."""
    return export_puzzles(
        out=args.out,
        set_name=args.set_name,
        kind=args.kind,
        count=args.count,
        seed=args.seed,
        ruleset=args.ruleset,
        players=args.players,
    )


def run_list(args) -> int:
    """List the kinds (with the rulesets each applies to) and the curated sets."""
    if getattr(args, "json", False):
        echo_json(kinds_and_sets(), indent=1)
    else:
        show_kinds()
    return 0


def run_themes(args) -> int:
    """List the theme table: each theme's id, plain words and the kinds that carry it."""
    if args.json:
        echo_json(themes_data(), indent=1)
    else:
        show_themes()
    return 0
