"""Views reached from the home screen (and from ``laugh stats``): statistics, practice sets of
puzzles, and the sources.
"""

from __future__ import annotations

import secrets
import time

from rich.table import Table
from rich.text import Text

from tutor.app.commands.sources_cmd import sources_view as source_pages
from tutor.app.io import MenuItem, menu
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
            row.append(f"{x.mean_seconds:.1f} s" if x.timed else ctx.glyphs.dash)
            if recent is not None:
                r = recent.get(x.name)
                row.append(f"week {100 * r.accuracy:.0f}%" if r is not None else "")
        t.add_row(*row)
    return Text(title, style="bold"), t


def weakest_themes(store, limit: int = 3) -> list[str]:
    """Up to ``limit`` themes, weakest first as FSRS schedules them from the graded results
    (:mod:`tutor.teaching.review`), leaving out themes never missed."""
    return fsrs_weakest(store, limit)


def stats_view(ctx, offer_practice: bool = True, from_home: bool = False) -> None:
    """Accuracy and speed by theme and by kind (weakest first, as bars), and by day over time;
    then, when ``offer_practice``, the weakest themes offered as a practice set.  ``from_home``:
    shown from the home screen (its empty state names the home screen's keys, else the shell's
    commands)."""
    store = ctx.store
    n = store.answer_count()
    ctx.say(f"Statistics: {n} answer{'s' if n != 1 else ''} recorded", style="bold")
    if not n:
        if from_home:
            ctx.say("Answer some puzzles first: take a lesson (Enter), or p for puzzles, d for "
                    "drills, g to play a deal.")
        else:
            ctx.say("Answer some puzzles first: take a lesson (laugh lesson 1), a puzzle (laugh "
                    "puzzle), a drill (laugh drill count) or a deal (laugh play).")
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
        if yes_no(ctx, "Practise them now? [yes/no]> "):
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


def yes_no(ctx, prompt: str) -> bool:
    """Ask yes or no (y, n; Enter is yes; q or quit is no)."""
    answer = ctx.asker.ask_checked(
        prompt, lambda t: None if t.lower() in ("", "y", "yes", "n", "no", "q", "quit") else
        "Type yes or no.", words=["yes", "no"], say=lambda m: ctx.say(m, style="yellow")).lower()
    return answer in ("", "y", "yes")


def practice_menu(ctx) -> None:
    """Choose a kind of puzzle (or a mix, or the weakest themes) by number, letter or word, and
    practise in sets of five; after each set the menu comes back (and offers the missed puzzles
    again, as fresh puzzles of the same kinds and themes), until Enter or ``q``.  Ctrl-C and
    Ctrl-D in a set come back to this menu."""
    kinds = _kinds()
    items = [MenuItem(str(i), "", (k,), _kind_title(k), ("kind", k))
             for i, k in enumerate(kinds, 1)]
    items += [MenuItem(str(len(kinds) + 1), "m", ("mix",), "a mix of every kind", ("mix", None)),
              MenuItem(str(len(kinds) + 2), "w", ("weak",), "your weakest themes",
                       ("weak", None))]
    missed: list = []
    while True:
        shown = list(items)
        if missed:
            shown.append(MenuItem(str(len(kinds) + 3), "r", ("retry",),
                                  f"the {len(missed)} missed, as fresh puzzles of the same "
                                  "kinds and themes", ("retry", None)))
        item = menu(ctx, shown, "puzzles> ", title="Puzzles")
        if item is None:
            return
        what, kind = item.value
        try:
            if what == "retry":
                missed = practice_again(ctx, missed)
            elif what == "weak":
                weak = weakest_themes(ctx.store)
                if not weak:
                    ctx.say("No weak themes yet: here is a mix.", style="dim")
                    missed = practice_kinds(ctx, kinds)
                else:
                    missed = practice_themes(ctx, weak)
            elif what == "mix":
                missed = practice_kinds(ctx, kinds)
            else:
                missed = practice_kinds(ctx, [kind])
        except KeyboardInterrupt:
            ctx.console.print()
        except EOFError:
            if not ctx.asker.interactive:
                raise
        ctx.console.print()


def _run_set(ctx, make) -> tuple[bool, list]:
    """Pose :data:`SET_SIZE` puzzles from ``make(i)``; ``(finished, missed puzzles)``.
    ``quit`` ends the set (False); Ctrl-C and Ctrl-D end it too, saying in one line what was
    saved, and pass on."""
    right = 0
    missed = []
    done = 0
    try:
        for i in range(SET_SIZE):
            puzzle = make(i)
            try:
                outcome = pose(ctx, puzzle, heading=f"Puzzle {i + 1} of {SET_SIZE}")
            except Quit:
                return False, missed
            done += 1
            right += outcome.correct
            if not outcome.correct:
                missed.append(puzzle)
            ctx.console.print()
    except (EOFError, KeyboardInterrupt):
        ctx.console.print()
        ctx.say(f"Saved: {done} answer{'s' if done != 1 else ''} of this set ({right} right).",
                style="yellow")
        raise
    ctx.say(f"{right} of {SET_SIZE} right."
            + (f" Missed: {len(missed)} (r at the menu tries them again, as fresh puzzles)."
               if missed else ""), style="bold")
    return True, missed


def practice_kinds(ctx, kinds: list[str]) -> list:
    """A set of puzzles of ``kinds`` (in turn), freshly seeded; returns the puzzles missed."""
    base = secrets.randbelow(10**9)
    return _run_set(ctx, lambda i: generate(kinds[i % len(kinds)], seed=base + i))[1]


def _fresh_like(kind: str, themes) -> object:
    """A fresh puzzle of ``kind`` carrying one of ``themes`` (after a few tries, what came)."""
    puzzle = None
    for _ in range(12):
        puzzle = generate(kind, seed=secrets.randbelow(10**9))
        if not themes or set(themes) & set(puzzle.themes):
            break
    return puzzle


def practice_again(ctx, missed: list) -> list:
    """The missed puzzles again, as fresh puzzles of the same kinds and themes (never the same
    position with its answer already shown); returns those missed this time."""
    ctx.say(f"Again: {len(missed)} fresh puzzle{'s' if len(missed) != 1 else ''} of the kinds "
            "and themes you missed.", style="bold")
    again = []
    for i, old in enumerate(missed, 1):
        puzzle = _fresh_like(old.kind, old.themes)
        try:
            outcome = pose(ctx, puzzle, heading=f"Again, {i} of {len(missed)}", retry=True)
        except Quit:
            return again + missed[i - 1:]
        if not outcome.correct:
            again.append(puzzle)
        ctx.console.print()
    ctx.say(f"{len(missed) - len(again)} of {len(missed)} right this time.", style="bold")
    return again


def practice_themes(ctx, themes: list[str]) -> list:
    """A set of puzzles on ``themes`` (in turn): each is generated from a kind that has produced
    that theme before, retrying seeds until the puzzle carries the theme (or after a few tries,
    taking what came).  Returns the puzzles missed."""
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
    return _run_set(ctx, make)[1]


# --------------------------------------------------------------------------------------------
# Sources


def sources_view(ctx) -> None:
    """List the sources (by number, letter-free id, or ``all``); show one (or all, with the
    attestations as a timeline) through the ``laugh sources`` command, a screenful at a time on a
    terminal, until the learner goes back (Enter or ``q``)."""
    lib = ctx.library
    items = [MenuItem(str(i), "", (s.id,), s.citation_text, s.id)
             for i, s in enumerate(lib.sources.values(), 1)]
    items.append(MenuItem(str(len(items) + 1), "a", ("all",),
                          "every source, and the attestations as a timeline", None))
    title = "Sources"
    while True:
        item = menu(ctx, items, "sources> ", title=title)
        if item is None:
            return
        show_sources_command(ctx, item.value)
        title = "Sources (another, or Enter to go back)"


def show_sources_command(ctx, source_id: str | None) -> None:
    """Show what ``laugh sources [ID]`` shows (:func:`tutor.app.commands.sources_cmd.sources_view`),
    a screenful at a time on a terminal; an unknown id is one line, and the view goes on."""
    try:
        pages = source_pages(ctx.library, source_id)
    except LaughError as exc:
        ctx.say(str(exc), style="red")
        return
    ctx.show(*pages)
