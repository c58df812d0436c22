"""The track screen: a path through the course under one ruleset (``r`` on the home screen, or
``laugh track [NAME]``).

It lists the track's steps with the learner's state of each: the lessons as the track poses
them (:func:`tutor.teaching.tracks.fixed_lesson`: the pages kept, every puzzle and the coached
deal set under the track's ruleset, what was left out said under the header), then the
practice match under the ruleset (:class:`tutor.app.matches.MatchSession`, the match
code of ``laugh match``, its format the ruleset's: under ``inter-livery-2018`` two rounds of
five games and the tournament score sheet).  A menu read by the asker, so it works the same
when piped:

- Enter, ``c`` or ``continue``: the first step not completed (the match once every lesson is);
- a step's number: that step (``N again`` starts a lesson afresh);
- ``m`` or ``match``: the practice match (an unfinished one of this track resumes);
- ``q`` or ``quit``: back to the home screen.

A step's progress is kept under ``TRACK/LESSON`` (:func:`tutor.teaching.tracks.step_key`) apart
from the course's; the match is marked done there (``TRACK/match``) when it ends, and its file is
named after the track, so the track resumes its own match.  Ctrl-C and Ctrl-D come back to this
screen from a step (what was answered is saved) and leave it from here.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from rich.table import Table
from rich.text import Text

from tutor.app.matches import MatchSession, load_match, matches_dir
from tutor.app.sessions import resolve
from tutor.engine.errors import DataError, LaughError
from tutor.engine.levels import level
from tutor.engine.match import Match
from tutor.teaching.lessons import open_lesson
from tutor.teaching.tracks import (
    MATCH,
    Track,
    fixed_lesson,
    load_track,
    step_key,
    taught_in_track,
)
from tutor.teaching.words import is_quit

__all__ = ["TrackScreen", "track_match_path", "DEFAULT_TRACK", "MATCH_LEVEL"]

DEFAULT_TRACK = "tournament"
#: The computer players of a track's practice match.
MATCH_LEVEL = "casual"
PROMPT = "track> "


def track_match_path(track: Track, folder: Path) -> Path | None:
    """The newest unfinished practice match of ``track`` in ``folder`` (files named
    ``track-ID-...json``), or None."""
    for path in sorted(folder.glob(f"track-{track.id}-*.json"), reverse=True):
        try:
            if not load_match(path).is_over:
                return path
        except LaughError:  # a damaged file is left where it is
            continue
    return None


class TrackScreen:
    """The screen of the track ``name`` for ``ctx`` (:class:`tutor.app.context.Context`);
    ``seed`` seeds the puzzles of every step started here, ``pace`` the seconds before each
    computer player's move in the match.  Raises :class:`~tutor.engine.errors.UsageError` for
    an unknown track and :class:`DataError` for a broken track file."""

    def __init__(self, ctx, name: str = DEFAULT_TRACK, seed: int | None = None, pace: float = 1.0):
        self.ctx = ctx
        self.track = load_track(name, ctx.library)
        self.seed = seed
        self.pace = pace

    # -- state -------------------------------------------------------------------------------

    def states(self) -> dict:
        """Step key -> :class:`tutor.teaching.progress.LessonState` of this track's steps."""
        states = self.ctx.store.lesson_states()
        keys = [step_key(self.track, s.lesson) for s in self.track.steps] + [
            step_key(self.track, MATCH)
        ]
        return {k: states[k] for k in keys if k in states}

    def next_step(self, states: dict) -> int | None:
        """The number (1-based, the match last) of the first step not completed; None when
        all are."""
        t = self.track
        keys = [step_key(t, s.lesson) for s in t.steps] + ([step_key(t, MATCH)] if t.match else [])
        for i, k in enumerate(keys, 1):
            if k not in states or not states[k].completed:
                return i
        return None

    # -- drawing -----------------------------------------------------------------------------

    def draw(self) -> int | None:
        """Show the track; returns the step to continue with."""
        ctx, t, g = self.ctx, self.track, self.ctx.glyphs
        states = self.states()
        name = ctx.library.rulesets[t.ruleset].name_in_text  # its name, never its id
        ctx.show(Text.assemble((t.title, "bold"), (f" · under {name}", "dim")))
        ctx.say(t.about)
        grid = Table.grid(padding=(0, 1))
        grid.add_column(justify="right", no_wrap=True)
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_column(justify="right", no_wrap=True, style="dim")
        from tutor.teaching.lessons import find_lesson

        rows = [(step_key(t, s.lesson), find_lesson(s.lesson).title) for s in t.steps]
        if t.match:
            rows.append((step_key(t, MATCH), f"Practice match under {name}"))
        for i, (key, title) in enumerate(rows, 1):
            s = states.get(key)
            if s is not None and s.in_progress and not key.endswith("/" + MATCH):
                mark, style, note = g.current, "bold", f"p.{s.page + 1}"
            elif s is not None and s.completed:
                mark, style = g.done, "green"
                note = f"{s.right}/{s.total}" if s.total else "done"
            else:
                mark, style, note = g.todo, "", ""
            cell = Text(title)  # wrapped, never cut (a track is short)
            grid.add_row(str(i), Text(mark, style=style), cell, note)
        ctx.show(grid)
        nxt = self.next_step(states)
        if nxt is None:
            ctx.say(
                f"{g.done} Track complete: retake any step, or play another match (m).",
                style="bold green",
            )
        ctx.say(
            "Enter: continue. A number: that step (N again: afresh). m: the match. q: home.",
            style="dim",
        )
        return nxt

    # -- the loop ----------------------------------------------------------------------------

    def run(self) -> None:
        """Show the screen and act on choices until ``q`` (or ``EOFError`` /
        ``KeyboardInterrupt`` at this prompt, which pass on: everything is saved)."""
        ctx, n = self.ctx, len(self.track.steps)
        words = ["continue", "match", "quit"] + [str(i) for i in range(1, n + 2)]
        redraw = True
        while True:
            nxt = self.draw() if redraw else self.next_step(self.states())
            redraw = True
            low = " ".join(ctx.ask(PROMPT, words=words).lower().split())
            if is_quit(low, menu=True) or low == "home":
                return
            again = low.endswith(" again")
            low = low.removesuffix(" again").strip()
            if low in ("", "c", "continue"):
                step = nxt if nxt is not None else n + 1
            elif low in ("m", "match"):
                step = n + 1
            elif low.isascii() and low.isdigit() and 1 <= int(low) <= n + self.track.match:
                step = int(low)
            else:
                ctx.say(
                    f"Type a step from 1 to {n + self.track.match}, Enter, m or q.", style="yellow"
                )
                redraw = False
                continue
            ctx.guarded(lambda step=step, again=again: self.take(step, restart=again))

    def take(self, step: int, restart: bool = False) -> None:
        """Take step ``step`` (1-based; one past the lessons is the match)."""
        t = self.track
        if step > len(t.steps):
            self.match()
            return
        from tutor.app.runner import LessonRunner

        s = t.steps[step - 1]
        try:
            lesson = open_lesson(s.lesson)
        except DataError as exc:
            self.ctx.say(f"This lesson cannot be opened: {exc}", style="red")
            return
        fixed = fixed_lesson(t, s, lesson, self.ctx.library)
        notes = tuple(f"Left out here: {why}." for why in fixed.left_out)
        LessonRunner(
            self.ctx,
            fixed.lesson,
            seed=self.seed,
            restart=restart,
            ruleset=t.ruleset,
            notes=notes,
            resume=f"r from the home screen, step {step}",
            taught=lambda puzzle: taught_in_track(t, puzzle.teaches),
        ).run()

    def match(self) -> None:
        """The practice match under the track's ruleset (its unfinished one resumes), played by
        :class:`tutor.app.matches.MatchSession`; marked done in the track when it ends."""
        ctx, t = self.ctx, self.track
        folder = matches_dir()
        path = track_match_path(t, folder) if folder.is_dir() else None
        if path is not None:
            match = load_match(path)
            pace = match.meta.get("pace", self.pace)
        else:
            rs, players = resolve(t.ruleset, None)
            seed = random.SystemRandom().randrange(1, 10**6) if self.seed is None else self.seed
            pace = self.pace
            meta = {
                "seat": 0,
                "level": level(MATCH_LEVEL).name,
                "pace": pace,
                "started_at": time.time(),
                "track": t.id,
            }
            match = Match.start(rs, players, seed, meta=meta)
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = folder / f"track-{t.id}-{stamp}-seed{seed}.json"
        MatchSession(match, path, io=ctx.io, store=ctx.store, pace=pace).run()
        if match.is_over:
            key = step_key(t, MATCH)
            ctx.store.start_lesson(key, 0)
            ctx.store.complete_lesson(key, 0, 0)
