"""``laugh puzzle`` (one interactive puzzle) and ``laugh puzzles`` (export, list)."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from typing import Any

from rich.table import Table
from rich.text import Text

from tutor import puzzles
from tutor.app.commands._common import players_type, ruleset_name, seed_type, whole
from tutor.app.io import make_io
from tutor.app.streams import echo, echo_json, make_console
from tutor.engine.errors import LaughError, UsageError
from tutor.engine.outputs import check_output
from tutor.puzzles.themes import kinds_with, label, resolve_theme, theme_table
from tutor.teaching.progress import ProgressStore

#: The answer prompt of ``laugh puzzle``.
PROMPT = "Your answer (hint, answer, quit): "
#: ``laugh puzzles export``'s count and first seed when not given.
EXPORT_COUNT, EXPORT_SEED = 20, 1


def register(sub, parent) -> None:
    """Add the ``puzzle`` and ``puzzles`` subcommands."""
    p = sub.add_parser("puzzle", parents=[parent], help="one puzzle, graded by the rules engine",
                       description="Pose one puzzle from a real deal: type your answer in plain "
                                   "words and card codes (7h 7s, 10♥, claim 9s, nothing, lie "
                                   "down, +2), `hint` for a hint, `quit` to leave. A wrong "
                                   "answer gets a nudge and a second try; then the answer, "
                                   "the explanation and the source are shown whether you are "
                                   "right or wrong.")
    p.add_argument("kind", nargs="?", type=kind_name, metavar="KIND",
                   help="puzzle kind (`laugh puzzles` lists them; default: any)")
    p.add_argument("--theme", "-t", metavar="T",
                   help="a puzzle on one theme, by its id or its words (laugh puzzles themes "
                        "lists them); the kind is chosen among those that carry it")
    p.add_argument("--ruleset", "-r", type=ruleset_name, metavar="R",
                   help="ruleset id (default: chosen from the seed)")
    p.add_argument("--players", "-n", type=players_type, metavar="N", help="player count")
    p.add_argument("--difficulty", "-d", type=whole(1, 5, "a difficulty"), metavar="D",
                   help="difficulty from 1 to 5 (default: the band nearest your rating)")
    p.add_argument("--seed", type=seed_type, metavar="S",
                   help="seed: exactly that seed's puzzle (default: random)")
    p.add_argument("--id", metavar="ID", dest="puzzle_id",
                   help="a puzzle id KIND.RULESET.PLAYERS.SEED: exactly that puzzle")
    p.add_argument("--json", action="store_true",
                   help="print the puzzle as JSON (laugh-and-lie-down/puzzle@1) instead of asking")
    p.set_defaults(handler=run_puzzle)

    q = sub.add_parser("puzzles", parents=[parent],
                       help="the puzzle kinds, themes and sets; export puzzles",
                       description="List the puzzle kinds and the curated sets (list), every "
                                   "theme in plain words (themes), or export puzzles as JSON "
                                   "Lines (export).")
    qs = q.add_subparsers(dest="puzzles_command", metavar="ACTION", parser_class=type(q))
    e = qs.add_parser("export", parents=[parent], help="write puzzles as JSON Lines",
                      description="Write puzzles in the laugh-and-lie-down/puzzle@1 format, one "
                                  "JSON object a line: COUNT puzzles of KIND with seeds S, S+1, "
                                  "..., or every puzzle of a curated set.")
    e.add_argument("--kind", "-k", type=kind_name, metavar="K",
                   help="puzzle kind (`laugh puzzles` lists them)")
    e.add_argument("--set", dest="set_name", metavar="NAME", help="a curated set instead of --kind")
    e.add_argument("--count", "-c", type=whole(1, 10_000, "a count of puzzles"), default=None,
                   metavar="N", help=f"how many puzzles (default {EXPORT_COUNT})")
    e.add_argument("--seed", type=seed_type, default=None, metavar="S",
                   help=f"first seed (default {EXPORT_SEED})")
    e.add_argument("--ruleset", "-r", type=ruleset_name, metavar="R",
                   help="ruleset id (default: chosen per seed)")
    e.add_argument("--players", "-n", type=players_type, metavar="N", help="player count")
    e.add_argument("--out", "-o", metavar="FILE.jsonl", default="-",
                   help="output file (default: standard output)")
    e.set_defaults(handler=run_export)
    ls = qs.add_parser("list", parents=[parent], help="the puzzle kinds and curated sets")
    ls.add_argument("--json", action="store_true", help="as JSON")
    ls.set_defaults(handler=run_list)
    th = qs.add_parser("themes", parents=[parent], help="every theme, in plain words",
                       description="Every theme a puzzle can carry: its id (the one name used "
                                   "in puzzles, drills, statistics, exports and the class "
                                   "report), its plain words, and the kinds of puzzle that "
                                   "carry it. Practise one with: laugh puzzle --theme ID.")
    th.add_argument("--json", action="store_true", help="as JSON")
    th.set_defaults(handler=run_themes)
    q.set_defaults(handler=run_list)


def kind_name(text: str) -> str:
    """argparse type of a puzzle kind (or a spec ``KIND/THEME``): the kind in any case, or one
    line naming the nearest kinds (:func:`tutor.engine.names.find_name`)."""
    import re

    from tutor.engine.names import find_name
    from tutor.puzzles import KINDS  # loaded only when a kind is typed (start-up time)
    cut = re.search(r"[/@]", text)                                  # KIND, then /THEME
    head, rest = (text[:cut.start()], text[cut.start():]) if cut else (text, "")
    try:
        return find_name(head, KINDS, "puzzle kind") \
            + rest
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _make_puzzle(args, store=None):
    """The puzzle asked for.  Without ``--difficulty``, ``--seed`` or ``--id``, and with a
    progress ``store``, its difficulty band is the one nearest the learner's rating."""
    from tutor.puzzles.generators import check_kind  # this command only (start-up time)
    if args.puzzle_id:
        extra = [name for name, v in (("KIND", args.kind), ("--ruleset", args.ruleset),
                                      ("--players", args.players),
                                      ("--difficulty", args.difficulty), ("--seed", args.seed),
                                      ("--theme", getattr(args, "theme", None)))
                 if v is not None]
        if extra:
            raise UsageError(f"--id names one puzzle exactly; leave out {', '.join(extra)}")
        return puzzles.from_id(args.puzzle_id)
    kind = args.kind
    theme = getattr(args, "theme", None)
    rng = random.Random(args.seed) if args.seed is not None else random
    if theme is not None:
        theme = resolve_theme(theme)
        carrying = kinds_with(theme)
        if kind is not None and kind not in carrying:
            check_kind(kind)
            raise UsageError(f"{kind} puzzles have no theme {theme} ({label(theme)}); kinds "
                             f"with it: {', '.join(carrying)}")
        if kind is None:
            kind = rng.choice(carrying)
    if kind is None:
        kind = rng.choice(puzzles.KINDS)
    difficulty = args.difficulty
    if difficulty is None and args.seed is None and store is not None:
        difficulty = store.choose_difficulty(kind)
    spec = f"{kind}/{theme}" if theme is not None else kind
    return puzzles.generate(spec, args.ruleset, args.players, args.seed, difficulty)


def _open_store(out) -> ProgressStore | None:
    """The progress store, its notice printed; None (and one line) when it cannot be opened."""
    try:
        store = ProgressStore()
    except LaughError as exc:
        out.print(Text.assemble(("Progress not saved:", "yellow"), f" {exc}"), highlight=False)
        return None
    if store.notice:
        out.print(store.notice, highlight=False)
    return store


def run_puzzle(args) -> int:
    """Pose one puzzle; grade the answer; show the explanation; record it (moving the ratings
    on a first try) and show the rating as it moved."""
    if args.json:
        echo_json(_make_puzzle(args).to_json(), indent=1)
        return 0
    io = make_io()
    store = _open_store(io.console)
    try:
        return _pose(args, io, store)
    finally:
        if store is not None:
            store.close()


def _pose(args, io, store) -> int:
    """The learner loop (:func:`tutor.teaching.loop.ask`) on the puzzle asked for, as a lesson
    poses one: its prompt, hints, ``show``, a second try, the explanation and the rating line;
    every exit is status 0 (a quit word, or the end of input, which first explains a puzzle
    already tried)."""
    from tutor.teaching.loop import PuzzleQuestion, ask  # this command only
    puzzle = _make_puzzle(args, store)
    # the puzzle's own stars: the same id always shows the same stars (issue 24)
    try:
        ask(io, PuzzleQuestion(puzzle, prompt=PROMPT), store=store)
    except EOFError:
        pass
    return 0


def run_export(args) -> int:
    """Write puzzles as JSON Lines.  Raises UsageError (exit status 2) for options that do not
    go together (``--set`` names its puzzles exactly: with it, ``--kind``, ``--count``,
    ``--seed``, ``--ruleset`` and ``--players`` would be ignored); CannotWrite (exit status 1),
    before any puzzle is made, for an ``--out`` file that cannot be written."""
    from tutor.puzzles.export import dumps, export_series, write_puzzles  # this command only
    from tutor.puzzles.generators import check_kind, resolve_choice
    if args.out != "-":
        check_output(args.out)
    if args.set_name:
        given = [name for name, v in (("--kind", args.kind), ("--count", args.count),
                                      ("--seed", args.seed), ("--ruleset", args.ruleset),
                                      ("--players", args.players)) if v is not None]
        if given:
            raise UsageError(f"--set exports the set's puzzles exactly as listed; leave out "
                             f"{', '.join(given)} (or export with --kind instead of --set)")
        ids = puzzles.curated_set(args.set_name)["ids"]
        series: Iterator = (puzzles.from_id(i) for i in ids)
    else:
        if not args.kind:
            raise UsageError(f"give --kind K (one of {', '.join(puzzles.KINDS)}) or --set NAME")
        args.count = EXPORT_COUNT if args.count is None else args.count
        args.seed = EXPORT_SEED if args.seed is None else args.seed
        check_kind(args.kind)
        resolve_choice(args.kind, args.ruleset, args.players, args.seed)   # fail fast
        series = export_series(args.kind, args.count, args.seed, args.ruleset, args.players)
    if args.out == "-":
        n = 0
        for p in series:
            sys.stdout.write(dumps(p) + "\n")
            n += 1
        return 0
    n = write_puzzles(args.out, series)
    echo(f"wrote {n} puzzle{'s' if n != 1 else ''} to {args.out}", stderr=True)
    return 0


def run_list(args) -> int:
    """List the kinds (with the rulesets each applies to) and the curated sets."""
    data = kinds_and_sets()
    if getattr(args, "json", False):
        echo_json(data, indent=1)
        return 0
    out = make_console()
    for renderable in kinds_view(data):
        out.print(renderable)
    return 0


def run_themes(args) -> int:
    """List the theme table: each theme's id, plain words and the kinds that carry it."""
    data = themes_data()
    if args.json:
        echo_json(data, indent=1)
        return 0
    from tutor.app.context import make_context  # the screen and its pager: only when shown
    ctx = make_context()
    try:
        ctx.page(*themes_view(data))    # a screenful at a time at a terminal, as sources are
    finally:
        ctx.close()
    return 0


def themes_data() -> list[dict[str, Any]]:
    """``[{id, label, group, kinds}]``: every theme of the table that a puzzle kind carries, in
    the table's order (themes only play or drills record are left out: no puzzle has them)."""
    carried: dict[str, list[str]] = {}
    for k in puzzles.KINDS:
        for t in puzzles.themes_of(k):
            carried.setdefault(t, []).append(k)
    return [{"id": t.id, "label": t.label, "group": t.group_label, "kinds": carried[t.id]}
            for t in theme_table().values() if t.id in carried]


def themes_view(data: list[dict[str, Any]]) -> list[Any]:
    """:func:`themes_data` as a table a group at a time: plain words, id, kinds (a header
    says so first)."""
    out: list[Any] = [Text(f"Puzzle themes ({len(data)}): in plain words, the id to practise "
                           "it by, the puzzle kinds that carry it", style="bold")]
    group = None
    table = None
    for row in data:
        if row["group"] != group:
            group = row["group"]
            table = Table(box=None, pad_edge=False, show_header=False)
            table.add_column(overflow="fold")
            table.add_column(style="bold", overflow="fold")
            table.add_column(style="dim", overflow="fold")
            out += [Text(group, style="bold underline"), table]
        assert table is not None            # the first row starts a group
        table.add_row(row["label"], row["id"], ", ".join(row["kinds"]))
    out.append(Text("Practise one: laugh puzzle --theme ID", style="dim"))
    return out


def kinds_and_sets() -> dict[str, Any]:
    """``{"kinds": [{kind, title, summary, rulesets}], "sets": {name: {title, ids, ...}}}``."""
    return {"kinds": [{"kind": k, "title": puzzles.definition(k).title,
                       "summary": puzzles.definition(k).summary,
                       "rulesets": puzzles.applicable_rulesets(k)} for k in puzzles.KINDS],
            "sets": puzzles.curated_sets()}


def kinds_view(data: dict[str, Any]) -> list[Text]:
    """:func:`kinds_and_sets` as lines of text: each kind with its rulesets, then the sets."""
    out = [Text("Puzzle kinds", style="bold")]
    for k in data["kinds"]:
        line = Text("  ")
        line.append(k["kind"], style="bold")
        line.append(f" ({k['title']}): {k['summary']}")
        out += [line, Text(f"    rulesets: {', '.join(k['rulesets'])}", style="dim")]
    out.append(Text("Curated sets", style="bold"))
    for name, s in data["sets"].items():
        line = Text("  ")
        line.append(name, style="bold")
        line.append(f": {s['title']} ({len(s['ids'])} puzzles)")
        out.append(line)
    out.append(Text("Play one: laugh puzzle KIND; export: laugh puzzles export --kind K --count N "
                    "--seed S --out FILE.jsonl", style="dim"))
    return out
