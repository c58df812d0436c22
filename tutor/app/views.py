"""Views reached from the home screen (and from ``laugh stats``): statistics, practice sets of
puzzles, and the sources.
"""

from __future__ import annotations

import secrets
import time

from rich.table import Table
from rich.text import Text

from tutor.app.commands.sources_cmd import sources_view as source_pages
from tutor.app.puzzling import Quit, generate, pose
from tutor.engine.errors import LaughError
from tutor.puzzles import KINDS, definition
from tutor.teaching.review import render_weak_skills, weak_skills
from tutor.teaching.review import weakest_themes as fsrs_weakest

SET_SIZE = 5


# --------------------------------------------------------------------------------------------
# Statistics


def _bar(ctx, share: float, width: int):
    filled = round(width * share)
    t = Text()
    style = "green" if share >= 0.8 else "yellow" if share >= 0.5 else "red"
    t.append(ctx.glyphs.full * filled, style=style)
    t.append(ctx.glyphs.empty * (width - filled), style="dim")
    return t


def _tally_table(ctx, tallies, title: str, recent: dict | None = None):
    """A titled grid: name, bar, accuracy, right/answered, and on wide screens the mean seconds
    and (with ``recent``, name -> Tally of the last week) the accuracy of the last seven days."""
    narrow = ctx.width < 60
    bar_w = 6 if narrow else 12
    t = Table.grid(padding=(0, 1))
    t.add_column(overflow="fold", ratio=1)
    t.add_column(no_wrap=True)
    t.add_column(justify="right", no_wrap=True)
    t.add_column(justify="right", no_wrap=True, style="dim")
    if not narrow:
        t.add_column(justify="right", no_wrap=True, style="dim")
        if recent is not None:
            t.add_column(justify="right", no_wrap=True)
    for x in tallies:
        row = [Text(x.name), _bar(ctx, x.accuracy, bar_w), f"{100 * x.accuracy:.0f}%",
               f"{x.right}/{x.n}"]
        if not narrow:
            row.append(f"{x.mean_seconds:.1f} s")
            if recent is not None:
                r = recent.get(x.name)
                row.append(f"week {100 * r.accuracy:.0f}%" if r is not None else "")
        t.add_row(*row)
    return Text(title, style="bold"), t


def weakest_themes(store, limit: int = 3) -> list[str]:
    """Up to ``limit`` themes, weakest first as FSRS schedules them from the graded results
    (:mod:`tutor.teaching.review`), leaving out themes never missed."""
    return fsrs_weakest(store, limit)


def stats_view(ctx, offer_practice: bool = True) -> None:
    """Accuracy and speed by theme and by kind (weakest first, as bars), and by day over time;
    then, when ``offer_practice``, the weakest themes offered as a practice set."""
    store = ctx.store
    n = store.answer_count()
    ctx.say(f"Statistics: {n} answer{'s' if n != 1 else ''} recorded", style="bold")
    if not n:
        ctx.say("Answer some puzzles first: take a lesson, or p for puzzles.")
        return
    parts: list = [Text("Accuracy (bar and %), right of answered"
                        + ("" if ctx.width < 60 else ", mean seconds"), style="dim")]
    week_ago = time.time() - 7 * 86400
    older = any(a.at < week_ago for a in store.answers())
    recent = {by: ({t.name: t for t in store.tallies(by, since=week_ago)} if older else None)
              for by in ("theme", "kind")}
    if older and ctx.width >= 60:
        parts.append(Text("'week': accuracy over the last seven days", style="dim"))
    sections = [("By theme, weakest first", store.tallies("theme"), recent["theme"]),
                ("By kind, weakest first", store.tallies("kind"), recent["kind"])]
    days = store.timeline()
    if days:
        sections.append(("Over time, by day", days[-14:], None))
    for title, tallies, rec in sections:
        head, table = _tally_table(ctx, tallies, title, rec)
        parts += [Text(""), head, table]
    skills = weak_skills(store)
    if skills:
        parts += [Text(""), Text("Skills by review schedule (FSRS), weakest first", style="bold"),
                  render_weak_skills(skills[:12], width=ctx.width)]
    ctx.show(*parts)
    weak = weakest_themes(store)
    ctx.console.print()
    if not weak:
        ctx.say("Every theme answered right so far.", style="green")
        return
    ctx.say(f"Weakest themes: {', '.join(weak)}.", style="bold")
    if offer_practice:
        answer = ctx.asker.ask_checked(
            "Practise them now? [yes/no]> ",
            lambda t: None if t.lower() in ("", "y", "yes", "n", "no") else "Type yes or no.",
            words=["yes", "no"], say=lambda m: ctx.say(m, style="yellow")).lower()
        if answer in ("", "y", "yes"):
            practice_themes(ctx, weak)
    else:
        ctx.say("Practise them: laugh stats --practice", style="dim")


# --------------------------------------------------------------------------------------------
# Practice


def _kinds():
    return list(KINDS)


def _kind_title(kind: str) -> str:
    try:
        return definition(kind).title
    except LaughError:              # a broken definition file: the kind's name will do here
        return kind.replace("-", " ")


def practice_menu(ctx) -> None:
    """Choose a kind of puzzle (or a mix, or the weakest themes) and practise in sets of five."""
    kinds = _kinds()
    ctx.say("Puzzles", style="bold")
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right")
    grid.add_column(overflow="fold")
    for i, k in enumerate(kinds, 1):
        grid.add_row(str(i), Text(_kind_title(k)))
    grid.add_row("m", Text("a mix of every kind"))
    grid.add_row("w", Text("your weakest themes"))
    ctx.console.print(grid)
    words = [str(i) for i in range(1, len(kinds) + 1)] + kinds + ["mix", "weak", "back"]

    def check(text: str) -> str | None:
        low = text.lower()
        if low in ("", "b", "back", "m", "mix", "w", "weak") or low in kinds:
            return None
        if low.isdigit() and 1 <= int(low) <= len(kinds):
            return None
        return f"Type 1-{len(kinds)}, m, w, or Enter to go back."

    choice = ctx.asker.ask_checked("puzzles> ", check, words=words,
                                   say=lambda m: ctx.say(m, style="yellow")).lower()
    if choice in ("", "b", "back"):
        return
    if choice in ("w", "weak"):
        weak = weakest_themes(ctx.store)
        if not weak:
            ctx.say("No weak themes yet: here is a mix.", style="dim")
            practice_kinds(ctx, kinds)
        else:
            practice_themes(ctx, weak)
        return
    if choice in ("m", "mix"):
        practice_kinds(ctx, kinds)
        return
    kind = kinds[int(choice) - 1] if choice.isdigit() else choice
    practice_kinds(ctx, [kind])


def _another(ctx) -> bool:
    answer = ctx.asker.ask_checked(
        "Another set? [yes/no]> ",
        lambda t: None if t.lower() in ("", "y", "yes", "n", "no", "q", "quit") else
        "Type yes or no.", words=["yes", "no"], say=lambda m: ctx.say(m, style="yellow")).lower()
    return answer in ("", "y", "yes")


def _run_set(ctx, make) -> bool:
    """Pose :data:`SET_SIZE` puzzles from ``make(i)``; False if the learner quit."""
    right = 0
    for i in range(SET_SIZE):
        try:
            outcome = pose(ctx, make(i), heading=f"Puzzle {i + 1} of {SET_SIZE}")
        except Quit:
            return False
        right += outcome.correct
        ctx.console.print()
    ctx.say(f"{right} of {SET_SIZE} right.", style="bold")
    return True


def practice_kinds(ctx, kinds: list[str]) -> None:
    """Sets of puzzles of ``kinds`` (in turn), freshly seeded, until the learner stops."""
    while True:
        base = secrets.randbelow(10**9)
        if not _run_set(ctx, lambda i: generate(kinds[i % len(kinds)], seed=base + i)):
            return
        if not _another(ctx):
            return


def practice_themes(ctx, themes: list[str]) -> None:
    """Sets of puzzles on ``themes`` (in turn): each is generated from a kind that has produced
    that theme before, retrying seeds until the puzzle carries the theme (or after a few tries,
    taking what came)."""
    store = ctx.store
    all_kinds = _kinds()
    kinds_for: dict[str, list[str]] = {}
    for a in store.answers():
        if a.kind not in all_kinds:     # drills record kinds of their own
            continue
        for t in a.themes:
            kinds_for.setdefault(t, [])
            if a.kind not in kinds_for[t]:
                kinds_for[t].append(a.kind)

    def make(i: int):
        theme = themes[i % len(themes)]
        kinds = kinds_for.get(theme) or all_kinds
        puzzle = None
        for attempt in range(12):
            kind = kinds[(i + attempt) % len(kinds)]
            puzzle = generate(kind, seed=secrets.randbelow(10**9))
            if theme in puzzle.themes:
                break
        return puzzle

    ctx.say(f"Practice: {', '.join(themes)}", style="bold")
    while True:
        if not _run_set(ctx, make):
            return
        if not _another(ctx):
            return


# --------------------------------------------------------------------------------------------
# Sources


def sources_view(ctx) -> None:
    """List the sources; show one (or all, with the attestations as a timeline) through the
    ``laugh sources`` command, a screenful at a time on a terminal, until the learner goes back."""
    lib = ctx.library
    ctx.say("Sources", style="bold")
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column(overflow="fold")
    for s in lib.sources.values():
        grid.add_row(s.id, Text(s.citation_text))
    ctx.console.print(grid)
    ids = list(lib.sources)
    hint = "Type a source id, all (every source and the timeline), or Enter to go back."
    ctx.say(hint, style="dim")

    def check(text: str) -> str | None:
        if text.lower() in ("", "b", "back", "all", "q") or text in ids:
            return None
        return f"Type a source id ({', '.join(ids)}), all, or Enter to go back."

    while True:
        choice = ctx.asker.ask_checked("sources> ", check, words=ids + ["all", "back"],
                                       say=lambda m: ctx.say(m, style="yellow"))
        if choice.lower() in ("", "b", "back", "q"):
            return
        show_sources_command(ctx, None if choice.lower() == "all" else choice)
        ctx.say(hint, style="dim")


def show_sources_command(ctx, source_id: str | None) -> None:
    """Show what ``laugh sources [ID]`` shows (:func:`tutor.app.commands.sources_cmd.sources_view`),
    a screenful at a time on a terminal; an unknown id is one line, and the view goes on."""
    try:
        pages = source_pages(ctx.library, source_id)
    except LaughError as exc:
        ctx.say(str(exc), style="red")
        return
    ctx.show(*pages)
