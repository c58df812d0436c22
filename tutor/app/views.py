"""Views reached from the home screen (and from ``laugh stats``): statistics, practice sets of
puzzles, and the sources.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from rich.table import Table
from rich.text import Text

from tutor.app.context import MenuItem, menu
from tutor.app.puzzling import generate, pose
from tutor.app.source_pages import sources_view as source_pages
from tutor.engine.errors import LaughError
from tutor.engine.reasons import false_claim_words
from tutor.puzzles import KINDS, another, applicable_rulesets, definition
from tutor.puzzles.themes import label as theme_label
from tutor.teaching import ratings as R
from tutor.teaching.loop import yes_no
from tutor.teaching.ratings import PROVISIONAL_NOTE, PROVISIONAL_RD, shown_rating
from tutor.teaching.spaced_review import render_weak_skills, skill_label, weak_skills

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


def _seconds(value: float | None) -> str:
    """A median time, or a dash when no answer of the tally was timed."""
    return "-" if value is None else f"{value:.1f} s"


def _tally_table(
    ctx, tallies, title: str, recent: dict | None = None, rated: dict | None = None, shown=str
):
    """A titled grid: name, bar, accuracy, right/answered, and on wide screens the median
    seconds of the timed answers, (with ``rated``, name -> SubjectRating) the learner's rating,
    and (with ``recent``, name -> Tally of the last week) the accuracy of the last seven days.
    ``shown`` gives the words shown for a name (a theme's plain words)."""
    narrow = ctx.width < 60
    bar_w = 6 if narrow else 12
    t = Table.grid(padding=(0, 1))
    t.add_column(overflow="fold", ratio=1)
    t.add_column(no_wrap=True)
    t.add_column(justify="right", no_wrap=True)
    t.add_column(justify="right", no_wrap=True, style="dim")
    if not narrow:
        t.add_column(justify="right", no_wrap=True, style="dim")
        if rated is not None:
            t.add_column(justify="right", no_wrap=True)
        if recent is not None:
            t.add_column(justify="right", no_wrap=True)
    for x in tallies:
        row = [
            Text(shown(x.name)),
            _bar(ctx, x.accuracy, bar_w),
            f"{100 * x.accuracy:.0f}%",
            f"{x.right}/{x.n}",
        ]
        if not narrow:
            row.append(_seconds(x.median_seconds))
            if rated is not None:
                got = rated.get(x.name)
                row.append(
                    shown_rating(got.rating.rating, got.rating.rd) if got is not None else ""
                )
            if recent is not None:
                r = recent.get(x.name)
                row.append(f"week {100 * r.accuracy:.0f}%" if r is not None else "")
        t.add_row(*row)
    return Text(title, style="bold"), t


#: The row of the false claims that took nothing (their kind is none), in the spotting table:
#: the engine's one wording of a false claim.
_NO_KIND = false_claim_words()


def spotting_table(ctx, figures):
    """The signal-detection figures of spotting oversights (:meth:`tutor.teaching.progress.
    ProgressStore.spotting`) as one small table in plain words: per oversight kind, how many
    the learner claimed first, missed and claimed falsely, and the median time of the timed
    hits (claimable to named)."""
    from tutor.engine.parameters import OVERSIGHT_KINDS, value_short

    order = {k: i for i, k in enumerate(OVERSIGHT_KINDS)}
    figures = sorted(figures, key=lambda f: (order.get(f.kind, len(order)), f.kind == "", f.kind))
    t = Table.grid(padding=(0, 1))
    t.add_column(overflow="fold", ratio=1)
    for _ in range(4):
        t.add_column(justify="right", no_wrap=True)
    t.add_row(*(Text(h, style="dim") for h in ("", "claimed", "missed", "false", "time")))
    for f in figures:
        name = value_short("oversights", f.kind) if f.kind else _NO_KIND
        t.add_row(
            Text(name), str(f.hits), str(f.misses), str(f.false_claims), _seconds(f.median_seconds)
        )
    return t


def drill_bests(store) -> list[tuple[str, str, str]]:
    """The oversight drill's personal bests: ``(mode, ruleset, best)``, by mode then ruleset
    (``mixed``: a mixture of rulesets; ``earlier``: a best kept before bests were kept per
    ruleset)."""
    out = []
    for key, value in store.meta_items().items():
        parts = key.split(".")
        if parts[:2] != ["drill", "oversights"] or parts[-1] != "best":
            continue
        if len(parts) == 4 and parts[2] in ("streak", "storm"):
            out.append((parts[2], "earlier", value))
        elif len(parts) == 5 and parts[2] in ("streak", "storm"):
            out.append((parts[2], parts[3], value))
    return sorted(out)


#: The themes of the oversight positions judged by counting or the ruleset (issue 42).
JUDGED_THEMES = {
    "judged-by-counting": "by counting (is the pair laid down dead?)",
    "judged-by-ruleset": "by the ruleset (may it be claimed under it?)",
}


def judged_parts(store) -> list:
    """The answers on oversight positions judged by counting or the ruleset, apart from
    spotting (the themes :data:`JUDGED_THEMES`): a heading and a line for each, right of
    answered; nothing when there is none."""
    tallies = {t.name: t for t in store.tallies("theme") if t.name in JUDGED_THEMES}
    if not tallies:
        return []
    out: list = [Text(""), Text("Judged by counting: spotting is not counting", style="bold")]
    for name, words in JUDGED_THEMES.items():
        t = tallies.get(name)
        if t is not None:
            out.append(Text(f"{words}: {t.right} of {t.n} right ({100 * t.right / t.n:.0f}%)"))
    return out


def spotting_parts(ctx, store) -> list:
    """The spotting table, the answers judged by counting (:func:`judged_parts`) and the drill's
    personal bests, with their headings (nothing when there is none of them)."""
    parts: list = []
    figures = store.spotting()
    if figures:
        parts += [
            Text(""),
            Text("Spotting oversights (play, matches and drills)", style="bold"),
            Text(
                "claimed: you claimed it first; missed: it was yours to claim and you "
                "did not; false: a claim of nothing claimable; time: the median from "
                "claimable to named, at a terminal (- none)",
                style="dim",
            ),
            spotting_table(ctx, figures),
        ]
    parts += judged_parts(store)
    bests = drill_bests(store)
    if bests:
        grid = Table.grid(padding=(0, 1))
        grid.add_column()
        grid.add_column(overflow="fold")
        grid.add_column(justify="right")
        for mode, ruleset, value in bests:
            grid.add_row(mode, ruleset, value)
        parts += [Text(""), Text("Personal bests of the oversight drill", style="bold"), grid]
    return parts


def weakest_of(tallies, limit: int = 3) -> list[str]:
    """The first ``limit`` names of ``tallies`` (already weakest first, as the statistics show
    them) that were ever answered wrong."""
    return [t.name for t in tallies if t.right < t.n][:limit]


def weakest_themes(store, limit: int = 3) -> list[str]:
    """Up to ``limit`` themes, weakest first as the statistics' theme table orders them (lowest
    accuracy, then slowest median time), leaving out themes never missed: the list agrees with
    the numbers shown."""
    return weakest_of(store.tallies("theme"), limit)


#: Eighths of a block, for the rating chart's partly filled cells.
_EIGHTHS = " ▁▂▃▄▅▆▇█"


def rating_chart(points, width: int, height: int = 5, unicode: bool = True) -> Text | None:
    """The rating's history as a small bar chart: one column a rated answer (the latest that
    fit in ``width`` columns, oldest left), ``height`` rows between the lowest and highest
    rating shown (at least 100 points apart), labelled at the top and bottom.  ``points`` are
    :class:`tutor.teaching.progress.RatingPoint`; None when there are fewer than two."""
    if len(points) < 2:
        return None
    values = [p.rating for p in points]
    label_w = max(len(f"{v:.0f}") for v in values)
    shown = values[-max(8, width - label_w - 2) :]
    lo, hi = min(shown), max(shown)
    labels = (f"{hi:.0f}", f"{lo:.0f}")
    if hi - lo < 100:
        mid = (hi + lo) / 2
        lo, hi = mid - 50, mid + 50
    t = Text()
    for r in range(height - 1, -1, -1):
        label = labels[0] if r == height - 1 else labels[1] if r == 0 else ""
        t.append(f"{label:>{label_w}} ", style="dim")
        t.append("|" if not unicode else "│", style="dim")
        for v in shown:
            # rows filled: an eighth of a row for the lowest rating shown, all for the highest
            level = 0.125 + (v - lo) / (hi - lo) * (height - 0.125)
            fill = min(1.0, max(0.0, level - r))
            if unicode:
                cell = _EIGHTHS[round(fill * 8)]
            else:
                cell = "#" if fill >= 0.5 else "." if fill > 0 else " "
            t.append(cell, style="cyan")
        t.append("\n")
    t.append(" " * label_w + " ")
    t.append(("└" if unicode else "+") + ("─" if unicode else "-") * len(shown), style="dim")
    t.append(f"\n{' ' * label_w}  the last {len(shown)} rated answers, oldest left", style="dim")
    return t


def rating_lines(ctx, store) -> list:
    """The learner's overall rating, its deviation and 95% interval, how many answers moved
    it, and its history as a chart (:func:`rating_chart`)."""
    got = store.rating(R.OVERALL)
    if got is None:
        return [
            Text(
                "Rating: not yet rated (first tries at puzzles of a known difficulty move "
                "it; a retry, a hint or a shown answer does not)",
                style="dim",
            )
        ]
    r = got.rating
    lo, hi = r.interval
    head = Text("Rating ", style="bold")
    head.append(shown_rating(r.rating, r.rd), style="bold cyan")
    head.append(
        f"  deviation {r.rd:.0f} (95%: {lo:.0f} to {hi:.0f}), "
        f"{got.games} rated answer{'s' if got.games != 1 else ''}"
    )
    out: list = [head]
    if any(
        x.rating.rd > PROVISIONAL_RD
        for x in [got, *store.ratings("theme:").values(), *store.ratings("kind:").values()]
    ):
        out.append(Text(PROVISIONAL_NOTE, style="dim"))
    chart = rating_chart(store.rating_history(R.OVERALL), min(ctx.width, 72), unicode=ctx.symbols)
    if chart is not None:
        out.append(chart)
    return out


def stats_view(ctx, offer_practice: bool = True, at_home: bool = True) -> None:
    """The learner's rating and its history; accuracy and median time by theme and by kind
    (weakest first, as bars, with the learner's rating of each), and by day over time; how the
    learner spots oversights (:func:`spotting_parts`: hits, misses, false claims and the median
    time of hits per kind) and the oversight drill's personal bests; skills as FSRS schedules
    them for review; then the weakest themes of the theme table, offered as a
    practice set when ``offer_practice``.  ``at_home`` says whether the view was reached from
    the home screen (its keys are named) or from the shell (commands are named)."""
    store = ctx.store
    n = store.answer_count()
    ctx.say(f"Statistics: {n} answer{'s' if n != 1 else ''} recorded", style="bold")
    if not n:
        if at_home:
            ctx.say(
                "Answer some puzzles first: take a lesson (Enter), or p for puzzles, d for "
                "drills, g to play a deal."
            )
        else:
            ctx.say("Answer some puzzles first: laugh lesson 1, or laugh puzzle.")
        return
    parts: list = rating_lines(ctx, store) + [Text("")]
    parts.append(
        Text(
            "Accuracy (bar and %), right of answered"
            + (
                ""
                if ctx.width < 60
                else ", median seconds of the answers typed at a terminal (- none), your rating"
            ),
            style="dim",
        )
    )
    week_ago = time.time() - 7 * 86400
    older = store.answer_count(before=week_ago) > 0
    recent = {
        by: ({t.name: t for t in store.tallies(by, since=week_ago)} if older else None)
        for by in ("theme", "kind")
    }
    if older and ctx.width >= 60:
        parts.append(Text("'week': accuracy over the last seven days", style="dim"))
    themes = store.tallies("theme")
    rated_themes = {k.partition(":")[2]: v for k, v in store.ratings("theme:").items()}
    rated_kinds = {k.partition(":")[2]: v for k, v in store.ratings("kind:").items()}
    sections: list[tuple[str, Any, dict | None, dict | None, Callable[[str], str]]] = [
        ("By theme, weakest first", themes, recent["theme"], rated_themes, theme_label),
        (
            "By kind, weakest first",
            store.tallies("kind"),
            recent["kind"],
            rated_kinds,
            lambda k: skill_label(k, "kind"),
        ),
    ]
    days = store.timeline()
    if days:
        sections.append(("Over time, by day", days[-14:], None, None, str))
    for title, tallies, rec, rated, shown in sections:
        head, table = _tally_table(ctx, tallies, title, rec, rated, shown)
        parts += [Text(""), head, table]
    parts += spotting_parts(ctx, store)
    skills = weak_skills(store)
    if skills:
        parts += [
            Text(""),
            Text("Skills by review schedule (FSRS), weakest first", style="bold"),
            Text(
                "recall tomorrow: the chance FSRS gives of recalling it a day from now", style="dim"
            ),
            render_weak_skills(skills[:12], width=ctx.width),
        ]
    ctx.page(*parts)
    weak = weakest_of(themes)
    ctx.say()
    if not weak:
        ctx.say("Every theme answered right so far.", style="green")
        return
    ctx.say(f"Weakest themes: {'; '.join(theme_label(t) for t in weak)}.", style="bold")
    if offer_practice:
        if yes_no(ctx.io, "Practise them now? [yes/no]> "):
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
    except LaughError:  # a broken definition file: the kind's name will do here
        return kind.replace("-", " ")


def practice_menu(ctx) -> None:
    """Choose a kind of puzzle (or a mix, or the weakest themes) by number, letter or word, and
    practise in sets of five; after each set the menu comes back (and offers the missed puzzles
    again, as fresh puzzles of the same kinds and themes), until Enter or ``q``.  Ctrl-C and
    Ctrl-D in a set come back to this menu."""
    kinds = _kinds()
    items = [
        MenuItem(str(i), "", (k,), _kind_title(k), ("kind", k)) for i, k in enumerate(kinds, 1)
    ]
    items += [
        MenuItem(str(len(kinds) + 1), "m", ("mix",), "a mix of every kind", ("mix", None)),
        MenuItem(str(len(kinds) + 2), "w", ("weak",), "your weakest themes", ("weak", None)),
        MenuItem(str(len(kinds) + 3), "t", ("theme",), "one theme of your choice", ("theme", None)),
    ]
    missed: list = []
    while True:
        shown = list(items)
        if missed:
            shown.append(
                MenuItem(
                    str(len(kinds) + 4),
                    "r",
                    ("retry",),
                    f"the {len(missed)} missed, as fresh puzzles of the same kinds and themes",
                    ("retry", None),
                )
            )
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
            elif what == "theme":
                theme = choose_theme(ctx)
                if theme is not None:
                    missed = practice_theme(ctx, theme)
            else:
                missed = practice_kinds(ctx, [kind])
        except KeyboardInterrupt:
            ctx.say()
        except EOFError:
            if not ctx.interactive:
                raise
        ctx.say()


def _run_set(ctx, make) -> tuple[bool, list]:
    """Pose :data:`SET_SIZE` puzzles from ``make(i)``; ``(finished, missed puzzles)``.
    ``quit`` ends the set (False); Ctrl-C and Ctrl-D end it too, saying in one line what was
    saved, and pass on."""
    right = second = 0
    missed = []
    mark = ctx.store.save_mark()
    try:
        for i in range(SET_SIZE):
            puzzle = make(i)
            outcome = pose(ctx, puzzle, heading=f"Puzzle {i + 1} of {SET_SIZE}")
            right += outcome.first
            second += outcome.correct and not outcome.first
            if outcome.answered and not outcome.first:
                missed.append(puzzle)
            if outcome.left:
                return False, missed
            ctx.say()
    except (EOFError, KeyboardInterrupt):
        ctx.say()
        got = ctx.store.saved_since(mark)  # what the store wrote, not what was asked
        ctx.say(f"Of this set: {got.words()}", style="yellow")
        raise
    ctx.say(
        f"{right} of {SET_SIZE} right at the first try"
        + (f", {second} more at the second" if second else "")
        + "."
        + (
            f" Missed at the first try: {len(missed)} (r at the menu tries them again, as "
            "fresh puzzles of the same kinds and themes)."
            if missed
            else ""
        ),
        style="bold",
    )
    return True, missed


def practice_kinds(ctx, kinds: list[str]) -> list:
    """A set of puzzles of ``kinds`` (in turn), freshly seeded, each of the difficulty band
    nearest the learner's rating (:meth:`tutor.teaching.progress.ProgressStore.choose_difficulty`);
    returns the puzzles missed."""

    def make(i: int):
        # A seed of its own for each puzzle: with a difficulty asked for, the engine searches
        # the seeds from the one given, so neighbouring seeds would search overlapping runs and
        # could serve one puzzle twice in a set, or all miss the band together.
        kind = kinds[i % len(kinds)]
        return generate(
            kind, seed=secrets.randbelow(10**9), difficulty=ctx.store.choose_difficulty(kind)
        )

    return _run_set(ctx, make)[1]


def _fresh_like(ctx, kind: str, themes) -> object:
    """A fresh puzzle of ``kind`` carrying one of ``themes`` (after a few tries, what came), in
    the difficulty band nearest the learner's rating."""
    puzzle = None
    for _ in range(12):
        puzzle = generate(
            kind, seed=secrets.randbelow(10**9), difficulty=ctx.store.choose_difficulty(kind)
        )
        if not themes or set(themes) & set(puzzle.themes):
            break
    return puzzle


def practice_again(ctx, missed: list) -> list:
    """The missed puzzles again, as fresh puzzles of the same kinds and themes
    (:func:`tutor.puzzles.another`: the same kind, main theme, ruleset, players and difficulty;
    never the same position with its answer already shown); returns those missed this time."""
    ctx.say(
        f"Again: {len(missed)} fresh puzzle{'s' if len(missed) != 1 else ''} of the kinds "
        "and themes you missed.",
        style="bold",
    )
    again = []
    for i, old in enumerate(missed, 1):
        try:
            puzzle = another(old, 1)
        except LaughError:  # none in the bounded search: any of the kind and themes
            puzzle = _fresh_like(ctx, old.kind, old.themes)
        outcome = pose(ctx, puzzle, heading=f"Again, {i} of {len(missed)}", retry=True)
        if outcome.answered and not outcome.first:
            again.append(puzzle)
        if outcome.left:
            return again + (missed[i:] if outcome.answered else missed[i - 1 :])
        ctx.say()
    ctx.say(
        f"{len(missed) - len(again)} of {len(missed)} right at the first try this time.",
        style="bold",
    )
    return again


def practice_themes(ctx, themes: list[str]) -> list:
    """A set of puzzles on ``themes`` (in turn): each is generated from a kind that has produced
    that theme before, in the difficulty band nearest the learner's rating, retrying seeds until
    the puzzle carries the theme (or after a few tries, taking what came).  Returns the puzzles
    missed."""
    store = ctx.store
    all_kinds = _kinds()
    kinds_for: dict[str, list[str]] = {}
    for a in store.answers():
        if a.kind not in all_kinds:  # drills record kinds of their own
            continue
        for t in a.themes:
            kinds_for.setdefault(t, [])
            if a.kind not in kinds_for[t]:
                kinds_for[t].append(a.kind)

    ruleset, players = track_rules(ctx)

    def make(i: int):
        theme = themes[i % len(themes)]
        kinds = kinds_for.get(theme) or all_kinds
        puzzle = None
        for attempt in range(12):
            kind = kinds[(i + attempt) % len(kinds)]
            fits = ruleset is not None and ruleset in applicable_rulesets(kind)
            puzzle = generate(
                kind,
                ruleset=ruleset if fits else None,
                players=players if fits else None,
                seed=secrets.randbelow(10**9),
                difficulty=store.choose_difficulty(kind),
            )
            if theme in puzzle.themes:
                break
        return puzzle

    ctx.say(f"Practice: {'; '.join(theme_label(t) for t in themes)}", style="bold")
    return _run_set(ctx, make)[1]


def track_rules(ctx) -> tuple[str | None, int | None]:
    """The ruleset and player count a learner on a track practises under: the track's ruleset
    (the one of the track step the learner worked on last; a tournament player's is the event's
    rules), and its player count when it has one alone; ``(None, None)`` for a learner on no
    track (any ruleset, as the course's puzzles are)."""
    from tutor.teaching.tracks import load_track

    states = ctx.store.lesson_states()
    on = [k for k in states if "/" in k]
    if not on:
        return None, None
    latest = max(on, key=lambda k: states[k].updated_at)
    try:
        rid = load_track(latest.split("/", 1)[0], ctx.library).ruleset
        counts = ctx.library.rulesets[rid].player_counts
    except (LaughError, KeyError):
        return None, None
    return rid, counts[0] if len(counts) == 1 else None


def practisable_themes() -> dict[str, list]:
    """The themes a learner may choose to practise, by group label, in the table's order
    (:func:`tutor.puzzles.themes.theme_table`): those a puzzle kind carries and a lesson of the
    course teaches (house rules' themes need a ruleset of one's own)."""
    from tutor.puzzles import taught_in, themes_of
    from tutor.puzzles.themes import theme_table

    taught = {t for k in KINDS for t in themes_of(k) if taught_in(k, t) is not None}
    out: dict[str, list] = {}
    for t in theme_table().values():
        if t.id in taught:
            out.setdefault(t.group_label, []).append(t)
    return out


def choose_theme(ctx) -> str | None:
    """A theme chosen from two short menus, a group and then one of its themes, each entry in
    plain words (its id is a word that chooses it too); None when the learner goes back."""
    groups = practisable_themes()
    items = [MenuItem(str(i), "", (), g, g) for i, g in enumerate(groups, 1)]
    item = menu(ctx, items, "theme> ", title="Practise a theme: which part of the game?")
    if item is None:
        return None
    themes = groups[item.value]
    items = [MenuItem(str(i), "", (t.id,), t.label, t.id) for i, t in enumerate(themes, 1)]
    item = menu(ctx, items, "theme> ", title=f"{item.value}: which theme?")
    return None if item is None else item.value


def practice_theme(ctx, theme: str) -> list:
    """A set of puzzles on one ``theme`` (what ``laugh puzzle --theme`` poses): each from a kind
    that carries it, in turn, in the difficulty band nearest the learner's rating.  Returns the
    puzzles missed."""
    from tutor.puzzles.themes import kinds_with, label

    kinds = [k for k in kinds_with(theme) if taught_in_course(k, theme)]

    def make(i: int):
        kind = kinds[i % len(kinds)]
        return generate(
            f"{kind}/{theme}",
            seed=secrets.randbelow(10**9),
            difficulty=ctx.store.choose_difficulty(kind),
        )

    ctx.say(f"Practice: {label(theme)}", style="bold")
    return _run_set(ctx, make)[1]


def taught_in_course(kind: str, theme: str) -> bool:
    """True when a lesson of the course teaches ``theme`` of ``kind``."""
    from tutor.puzzles import taught_in

    return taught_in(kind, theme) is not None


# --------------------------------------------------------------------------------------------
# Sources


def sources_view(ctx) -> None:
    """List the sources (by number, letter-free id, or ``all``); show one (or all, with the
    records of the game as a timeline) through the ``laugh sources`` command, a screenful at a time on a
    terminal, until the learner goes back (Enter or ``q``)."""
    lib = ctx.library
    items = [
        MenuItem(str(i), "", (s.id,), s.citation_text, s.id)
        for i, s in enumerate(lib.sources.values(), 1)
    ]
    items.append(
        MenuItem(
            str(len(items) + 1),
            "a",
            ("all",),
            "every source, and the records of the game as a timeline",
            None,
        )
    )
    title = "Sources"
    while True:
        item = menu(ctx, items, "sources> ", title=title)
        if item is None:
            return
        show_sources_command(ctx, item.value)
        title = "Sources (another, or Enter to go back)"


def show_sources_command(ctx, source_id: str | None) -> None:
    """Show what ``laugh sources [ID]`` shows (:func:`tutor.app.source_pages.sources_view`),
    a screenful at a time on a terminal; an unknown id is one line, and the view goes on."""
    try:
        pages = source_pages(ctx.library, source_id)
    except LaughError as exc:
        ctx.say(str(exc), style="red")
        return
    ctx.page(*pages)
