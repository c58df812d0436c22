"""What ``laugh puzzle`` and ``laugh puzzles`` do once their arguments are read: the puzzle
asked for (by id, kind, theme, ruleset, players, seed or the learner's band), posed by the one
learner loop (:func:`tutor.teaching.loop.ask`); puzzles written as JSON Lines; the kinds, the
curated sets and the theme table as pages.  The command line (:mod:`tutor.app.commands.puzzle`)
only parses arguments and calls these.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, TypedDict

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tutor import puzzles
from tutor.app.learner_io import make_io
from tutor.app.std_streams import echo, make_console
from tutor.engine.errors import LaughError, UsageError
from tutor.engine.outputs import check_output
from tutor.puzzles.themes import kinds_with, label, resolve_theme, theme_table
from tutor.teaching.progress import ProgressStore

if TYPE_CHECKING:  # the puzzles' model loads only when a puzzle is made
    from tutor.puzzles.export import PuzzleSet
    from tutor.puzzles.model import Puzzle

__all__ = [
    "EXPORT_COUNT",
    "EXPORT_SEED",
    "PROMPT",
    "KindRow",
    "KindsAndSets",
    "ThemeRow",
    "export_puzzles",
    "kinds_and_sets",
    "kinds_view",
    "make_puzzle",
    "pose_one",
    "show_kinds",
    "show_themes",
    "themes_data",
    "themes_view",
]

#: The answer prompt of ``laugh puzzle``.
PROMPT = "Your answer (hint, show, quit): "
#: ``laugh puzzles export``'s count and first seed when not given.
EXPORT_COUNT, EXPORT_SEED = 20, 1


class ThemeRow(TypedDict):
    """A theme a puzzle kind carries: its id, plain words, group and the kinds."""

    id: str
    label: str
    group: str
    kinds: list[str]


class KindRow(TypedDict):
    """A puzzle kind: its name, title, one-line summary and the rulesets it applies to."""

    kind: str
    title: str
    summary: str
    rulesets: list[str]


class KindsAndSets(TypedDict):
    """The kinds and the curated sets (name -> ``{title, description, ids}``)."""

    kinds: list[KindRow]
    sets: dict[str, PuzzleSet]


def make_puzzle(
    *,
    puzzle_id: str | None = None,
    kind: str | None = None,
    theme: str | None = None,
    ruleset: str | None = None,
    players: int | None = None,
    difficulty: int | None = None,
    seed: int | None = None,
    store: ProgressStore | None = None,
) -> Puzzle:
    """The puzzle asked for: ``puzzle_id`` exactly (nothing else may be given), or one of
    ``kind`` (or, with ``theme``, of a kind that carries it; else any kind) under ``ruleset``
    and ``players`` at ``seed`` (random without one).  Without ``difficulty`` or ``seed`` and
    with a progress ``store``, its difficulty band is the one nearest the learner's rating.
    Raises :class:`~tutor.engine.errors.UsageError` (one line) for options that do not go
    together, an unknown theme or a kind without it."""
    from tutor.puzzles.generators import check_kind  # this command only (start-up time)

    if puzzle_id:
        extra = [
            name
            for name, v in (
                ("KIND", kind),
                ("--ruleset", ruleset),
                ("--players", players),
                ("--difficulty", difficulty),
                ("--seed", seed),
                ("--theme", theme),
            )
            if v is not None
        ]
        if extra:
            raise UsageError(f"--id names one puzzle exactly; leave out {', '.join(extra)}")
        return puzzles.from_id(puzzle_id)
    rng = random.Random(seed) if seed is not None else random.Random()
    if theme is not None:
        theme = resolve_theme(theme)
        carrying = kinds_with(theme)
        if kind is not None and kind not in carrying:
            check_kind(kind)
            raise UsageError(
                f"{kind} puzzles have no theme {theme} ({label(theme)}); kinds "
                f"with it: {', '.join(carrying)}"
            )
        if kind is None:
            kind = rng.choice(carrying)
    if kind is None:
        kind = rng.choice(puzzles.KINDS)
    if difficulty is None and seed is None and store is not None:
        difficulty = store.choose_difficulty(kind)
    spec = f"{kind}/{theme}" if theme is not None else kind
    return puzzles.generate(spec, ruleset, players, seed, difficulty)


def pose_one(**asked: object) -> int:
    """Pose the puzzle :func:`make_puzzle` makes of ``asked`` by the learner loop
    (:func:`tutor.teaching.loop.ask`), as a lesson poses one: its prompt, hints, ``show``, a
    second try, the explanation, recording (the ratings move on a first try) and the rating
    line.  Every exit is status 0 (a quit word, or the end of input, which first explains a
    puzzle already tried).  A progress store that cannot be opened is said in one line and
    the puzzle is posed unrecorded."""
    from tutor.teaching.loop import PuzzleQuestion, ask  # this command only

    io = make_io()
    store = _open_store(io.console)
    try:
        puzzle = make_puzzle(store=store, **asked)  # type: ignore[arg-type]
        try:
            ask(io, PuzzleQuestion(puzzle, prompt=PROMPT), store=store)
        except EOFError:
            pass
        return 0
    finally:
        if store is not None:
            store.close()


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


def export_puzzles(
    *,
    out: str,
    set_name: str | None = None,
    kind: str | None = None,
    count: int | None = None,
    seed: int | None = None,
    ruleset: str | None = None,
    players: int | None = None,
) -> int:
    """Write puzzles as JSON Lines to ``out`` (``-``: standard output): every puzzle of the
    curated set ``set_name``, or ``count`` puzzles of ``kind`` from ``seed`` on.  Returns the
    exit status.  Raises UsageError (exit status 2) for options that do not go together
    (``--set`` names its puzzles exactly: with it, ``--kind``, ``--count``, ``--seed``,
    ``--ruleset`` and ``--players`` would be ignored); CannotWrite (exit status 1), before any
    puzzle is made, for an ``out`` file that cannot be written."""
    from tutor.puzzles.export import dumps, export_series, write_puzzles  # this command only
    from tutor.puzzles.generators import check_kind, resolve_choice

    if out != "-":
        check_output(out)
    series: Iterator[Puzzle]
    if set_name:
        given = [
            name
            for name, v in (
                ("--kind", kind),
                ("--count", count),
                ("--seed", seed),
                ("--ruleset", ruleset),
                ("--players", players),
            )
            if v is not None
        ]
        if given:
            raise UsageError(
                f"--set exports the set's puzzles exactly as listed; leave out "
                f"{', '.join(given)} (or export with --kind instead of --set)"
            )
        ids = puzzles.curated_set(set_name)["ids"]
        series = (puzzles.from_id(i) for i in ids)
    else:
        if not kind:
            raise UsageError(f"give --kind K (one of {', '.join(puzzles.KINDS)}) or --set NAME")
        count = EXPORT_COUNT if count is None else count
        seed = EXPORT_SEED if seed is None else seed
        check_kind(kind)
        resolve_choice(kind, ruleset, players, seed)  # fail fast
        series = export_series(kind, count, seed, ruleset, players)
    if out == "-":
        for p in series:
            sys.stdout.write(dumps(p) + "\n")
        return 0
    n = write_puzzles(out, series)
    echo(f"wrote {n} puzzle{'s' if n != 1 else ''} to {out}", stderr=True)
    return 0


def show_kinds() -> None:
    """The kinds (with the rulesets each applies to) and the curated sets, on the screen."""
    console = make_console()
    for renderable in kinds_view(kinds_and_sets()):
        console.print(renderable)


def show_themes() -> None:
    """The theme table a screenful at a time (at a terminal), as sources are."""
    from tutor.app.context import make_context  # the screen and its pager: only when shown

    ctx = make_context()
    try:
        ctx.page(*themes_view(themes_data()))
    finally:
        ctx.close()


def themes_data() -> list[ThemeRow]:
    """Every theme of the table that a puzzle kind carries, in the table's order (themes only
    play or drills record are left out: no puzzle has them)."""
    carried: dict[str, list[str]] = {}
    for k in puzzles.KINDS:
        for t in puzzles.themes_of(k):
            carried.setdefault(t, []).append(k)
    return [
        {"id": t.id, "label": t.label, "group": t.group_label, "kinds": carried[t.id]}
        for t in theme_table().values()
        if t.id in carried
    ]


def themes_view(data: list[ThemeRow]) -> list[RenderableType]:
    """:func:`themes_data` as a table a group at a time: plain words, id, kinds (a header
    says so first)."""
    out: list[RenderableType] = [
        Text(
            f"Puzzle themes ({len(data)}): in plain words, the id to "
            "practise it by, the puzzle kinds that carry it",
            style="bold",
        )
    ]
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
        assert table is not None  # the first row starts a group
        table.add_row(row["label"], row["id"], ", ".join(row["kinds"]))
    out.append(Text("Practise one: laugh puzzle --theme ID", style="dim"))
    return out


def kinds_and_sets() -> KindsAndSets:
    """The kinds (name, title, summary, rulesets) and the curated sets."""
    return {
        "kinds": [
            {
                "kind": k,
                "title": puzzles.definition(k).title,
                "summary": puzzles.definition(k).summary,
                "rulesets": puzzles.applicable_rulesets(k),
            }
            for k in puzzles.KINDS
        ],
        "sets": puzzles.curated_sets(),
    }


def kinds_view(data: KindsAndSets) -> list[Text]:
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
    out.append(
        Text(
            "Play one: laugh puzzle KIND; export: laugh puzzles export --kind K --count N "
            "--seed S --out FILE.jsonl",
            style="dim",
        )
    )
    return out
