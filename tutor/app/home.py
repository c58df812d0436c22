"""The home screen: continue where you left off, the course with each lesson's state, puzzles,
drills and play (where those commands exist), sources and statistics.

It is a menu read by the asker, so it works the same when piped (a class can script it):

- Enter, ``c`` or ``continue``: the lesson in progress (or the next one not yet done);
- a lesson number, or ``lesson N``: that lesson (``lesson N again`` starts it afresh);
- ``p`` puzzles, ``d`` drills, ``g`` play a deal, ``m`` a match, ``f`` a first deal with a
  coach, ``r`` the tournament track (:mod:`tutor.app.track`), ``s`` sources, ``t`` statistics,
  ``h`` help, ``q`` quit (each also by its word).

The same keys hold on every screen reached from here: Ctrl-C goes back to the screen above (and
from this one leaves the program); Ctrl-D saves and goes back, saying in one line what was saved
(at the end of piped input the program then ends, as nothing more can be read); ``q`` or
``quit`` goes back from a menu, ``quit`` (or ``:q``) from an answer prompt, where a single letter
could be a card (``q`` is the queen).

Only the lessons' front matter is read before the screen is drawn (no lesson is parsed).  Each
choice calls the function its command calls (:func:`tutor.app.runner.take_lesson`,
:func:`tutor.app.sessions.run_drill`, :func:`tutor.app.sessions.start_play`,
:func:`tutor.app.matches.play_saved_match`, the views of :mod:`tutor.app.views`), in this
process and with this screen's console.
"""

from __future__ import annotations

import difflib

from rich.table import Table
from rich.text import Text

from tutor.app.context import MenuItem, menu
from tutor.app.matches import START_AFRESH, latest_unfinished, load_match, play_saved_match
from tutor.app.sessions import DrillOptions, run_drill, start_play
from tutor.engine.errors import DataError, LaughError, UsageError
from tutor.engine.safetext import clip
from tutor.teaching.drills.registry import DRILLS
from tutor.teaching.lessons import CourseEntry, course_index, match_lesson, open_lesson
from tutor.teaching.words import is_quit

HELP = (
    "Enter or c: continue  ·  a number (or lesson N, lesson N again): that lesson  ·  "
    "p puzzles  ·  d drills  ·  g play a deal  ·  m a match (resumes an unfinished one)  ·  "
    "f a first deal with a coach  ·  r the tournament track (every lesson, puzzle and deal "
    "under inter-livery-2018, then a practice match)  ·  s sources  ·  t statistics  ·  h help  ·  "
    "q quit.  Everywhere: Ctrl-C goes back to the screen above (here: leaves)  ·  Ctrl-D "
    "saves and goes back  ·  q or quit leaves a menu, quit or :q an answer prompt  ·  "
    "in a deal, the space bar claims at any moment."
)

#: The menu entries beside the course and puzzles: (key, label, word).
EXTRAS = (
    ("d", "Drills", "drill"),
    ("g", "Play a deal", "play"),
    ("m", "Match", "match"),
    ("f", "Deal with a coach", "coach"),
    ("r", "Tournament track", "track"),
)

#: Shorter labels where the menu line is narrow (under 60 columns), so it takes no more lines.
NARROW_LABELS = {"Deal with a coach": "Coach", "Tournament track": "Track"}

#: The home screen's words, as a mistyped one is compared with them.
MENU_WORDS = (
    "continue",
    "lesson",
    "puzzles",
    "drills",
    "play",
    "match",
    "coach",
    "track",
    "sources",
    "statistics",
    "help",
    "quit",
)


def not_on_menu(choice: str, course: list[CourseEntry]) -> str:
    """The one line that answers a choice the home screen cannot read: the choice (cut to 30
    characters), and the nearest thing it could mean (``did you mean lesson 3?``), or the
    lessons there are for a number that is none of them, then ``h lists every key``."""
    said = f"'{clip(choice, 30)}' is not on the menu"
    low = " ".join(choice.lower().split())
    tail = "h lists every key."
    if len(low) > 40:
        return f"{said}; {tail}"
    rest = low.removeprefix("lesson ").removesuffix(" again").strip()
    if rest.isascii() and rest.isdigit() and course:
        return f"{said}: the lessons are 1 to {len(course)}; {tail}"
    head, _, rest = low.partition(" ")
    lesson_words = [w for e in course for w in (e.id, e.path.stem)]
    if rest and difflib.get_close_matches(head, ["lesson"], n=1, cutoff=0.6):
        entry = match_lesson(course, rest.removesuffix(" again").strip())
        if entry is not None:
            return f"{said}; did you mean lesson {rest}? {tail}"
    near = difflib.get_close_matches(low, list(MENU_WORDS) + lesson_words, n=1, cutoff=0.7)
    if near:
        return f"{said}; did you mean {near[0]}? {tail}"
    return f"{said}; {tail}"


class Home:
    """The home screen loop for ``ctx`` (:class:`tutor.app.context.Context`); ``seed``, when given,
    seeds the puzzles of every lesson started from here (``laugh tutor --seed S``)."""

    def __init__(self, ctx, seed: int | None = None):
        self.ctx = ctx
        self.seed = seed
        self.extras = list(EXTRAS)
        #: The track step Enter continues with (the track's screen, the step), when the lesson
        #: opened last was a track's step and the track is not complete; else None.
        self.on_track: tuple | None = None

    # -- state -----------------------------------------------------------------------------

    def course(self) -> list[CourseEntry]:
        """The course (front matter only)."""
        return course_index()

    def next_lesson(self, course: list[CourseEntry], states: dict) -> CourseEntry | None:
        """Where to continue: the last lesson opened if it is in progress, else the first lesson
        in progress, else the first not completed; None when everything is done."""
        last = self.ctx.store.last_lesson()
        by_id = {e.id: e for e in course}
        if last in by_id and last in states and states[last].in_progress:
            return by_id[last]
        for e in course:
            s = states.get(e.id)
            if s is not None and s.in_progress:
                return e
        for e in course:
            s = states.get(e.id)
            if s is None or not s.completed:
                return e
        return None

    def track_step(self) -> tuple | None:
        """Where Enter continues when the lesson opened last was a step of a track:
        (:class:`tutor.app.track.TrackScreen`, the step's number, its lesson's title, the page
        it is at or None when it is not begun); None when the last lesson is the course's, or
        the track's lessons are all done (the match is then the track screen's to offer)."""
        last = self.ctx.store.last_lesson()
        if not last or "/" not in last:
            return None
        from tutor.app.track import TrackScreen  # lazily: only a track's learner needs it
        from tutor.teaching.lessons import find_lesson
        from tutor.teaching.tracks import step_key, track_names

        name = last.partition("/")[0]
        if name not in track_names():
            return None
        try:
            screen = TrackScreen(self.ctx, name, seed=self.seed)
        except LaughError:
            return None
        states = screen.states()
        step = screen.next_step(states)
        if step is None or step > len(screen.track.steps):
            return None
        lesson = screen.track.steps[step - 1].lesson
        s = states.get(step_key(screen.track, lesson))
        page = s.page if s is not None and s.in_progress else None
        return screen, step, find_lesson(lesson).title, page

    def due_today(self) -> list[str]:
        """What is waiting for the learner today, each a few words with its key: the skills
        FSRS has due for review (the weak-spots drill: d, then w) and an unfinished match
        (m resumes it).  Nothing is read for a learner with no answers and no matches."""
        out = []
        store = self.ctx.store
        if store.answer_count():
            from tutor.teaching.spaced_review import (
                ReviewBook,  # lazily: FSRS loads only when needed
            )

            try:
                n = len(ReviewBook(store).due())
            except LaughError:
                n = 0
            if n:
                out.append(f"{n} skill{'s' if n != 1 else ''} to review (d, then w)")
        try:
            latest_unfinished()
        except UsageError:
            pass
        else:
            out.append("a match to finish (m resumes it)")
        return out

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, clear: bool = True) -> tuple[list[CourseEntry], CourseEntry | None]:
        """Print the home screen (clearing the terminal first unless ``clear`` is False, so that
        a line just said stays in view); returns the course and the lesson to continue."""
        ctx = self.ctx
        if clear:
            ctx.clear()
        g = ctx.glyphs
        course = self.course()
        states = ctx.store.lesson_states()
        done = sum(1 for e in course if e.id in states and states[e.id].completed)
        nxt = self.next_lesson(course, states)
        ctx.show(Text.assemble(("Laugh and Lie Down", "bold"), (" · a tutor", "dim")))
        bar_w = max(8, min(30, ctx.width - 22))
        filled = round(bar_w * done / len(course)) if course else 0
        bar = Text("Course ")
        bar.append(g.full * filled, style="green")
        bar.append(g.empty * (bar_w - filled), style="dim")
        bar.append(f" {done}/{len(course)} lessons")
        ctx.show(bar)
        if ctx.result:  # what the screen just left said, kept in view
            said = Text(ctx.result, style="bold green" if ctx.result.startswith(g.done) else "dim")
            said.truncate(ctx.width, overflow="ellipsis")  # one line: the screen fits 24
            ctx.show(said)
            ctx.result = None
        self.on_track = self.track_step()
        if self.on_track is not None:
            screen, step, title, page = self.on_track
            verb = "Continue" if page is not None else "Start"
            where = f", page {page + 1}" if page is not None else ""
            which = screen.track.title.lower() if ctx.width >= 60 else "track"  # narrow: short
            cont = Text(f"c  {verb}: {which} step {step}, {title}{where}", style="bold")
            cont.truncate(ctx.width, overflow="ellipsis")
            ctx.show(cont)
        elif nxt is not None:
            s = states.get(nxt.id)
            where = f", page {s.page + 1}" if s is not None and s.in_progress else ""
            verb = "Continue" if s is not None and s.in_progress else "Start"
            cont = Text(f"c  {verb}: lesson {nxt.number}, {nxt.title}{where}", style="bold")
            cont.truncate(ctx.width, overflow="ellipsis")  # one line, whatever the width
            ctx.show(cont)
        else:
            ctx.say(
                f"{g.done} Course complete. Practise with p, or retake any lesson.",
                style="bold green",
            )
        grid = Table.grid(padding=(0, 1))
        grid.add_column(justify="right", no_wrap=True)
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_column(justify="right", no_wrap=True, style="dim")
        for e in course:
            s = states.get(e.id)
            if s is not None and s.completed:  # reopened, it stays done: ✓ 3/4 p.2
                mark, style = g.done, "green"
                note = f"{s.right}/{s.total}" if s.total else "done"
                if s.in_progress and s.page:
                    note += f" p.{s.page + 1}"
            elif s is not None and s.in_progress:
                mark, style = g.current, "bold"
                note = f"p.{s.page + 1}"
            else:
                mark, style = g.todo, ""
                note = f"{e.minutes}m" if e.minutes else ""
            title = Text(e.title)
            title.truncate(max(8, ctx.width - 10), overflow="ellipsis")  # one line a lesson
            grid.add_row(str(e.number), Text(mark, style=style), title, note)
        ctx.show(grid)
        due = self.due_today()
        if due:
            ctx.say("Due today: " + "  ·  ".join(due))
        narrow = NARROW_LABELS if ctx.width < 60 else {}
        items = (
            [("p", "Puzzles")]
            + [(k, narrow.get(label, label)) for k, label, _ in self.extras]
            + [("s", "Sources"), ("t", "Statistics"), ("h", "Help"), ("q", "Quit")]
        )
        line = Text()
        for k, label in items:  # never split an item across lines
            piece = len(k) + 1 + len(label)
            if line.plain and len(line.plain) + 3 + piece > ctx.width:
                ctx.show(line)
                line = Text()
            if line.plain:
                line.append("   ")
            line.append(k, style="bold")
            line.append(" " + label)
        ctx.show(line)
        ctx.say("Enter: continue. Or a number, letter or word; h for every key.", style="dim")
        return course, nxt

    # -- the loop --------------------------------------------------------------------------

    def run(self) -> int:
        """Show the screen and act on choices until ``q``; returns the exit status (0).
        ``EOFError`` and ``KeyboardInterrupt`` at this screen pass through (everything is
        already saved); from the screens reached from here they come back here."""
        ctx = self.ctx
        self._redraw = "clear"
        course: list[CourseEntry] = []
        nxt = None
        keys = [
            "continue",
            "lesson",
            "p",
            "puzzles",
            "d",
            "drills",
            "g",
            "play",
            "m",
            "match",
            "f",
            "coach",
            "r",
            "track",
            "s",
            "sources",
            "t",
            "statistics",
            "h",
            "help",
            "q",
            "quit",
        ]
        while True:
            if self._redraw:
                course, nxt = self.draw(clear=self._redraw == "clear")
            self._redraw = "clear"
            words = (
                keys
                + [str(e.number) for e in course]
                + [e.id for e in course]
                + [e.path.stem for e in course]
            )
            choice = ctx.ask("home> ", words=words).strip()
            low = choice.lower()
            if is_quit(low, menu=True):
                return 0
            if low in ("", "c", "continue"):
                if self.on_track is not None:
                    screen, step = self.on_track[:2]
                    self._screen(lambda screen=screen, step=step: screen.take(step))
                elif nxt is None:
                    self._screen(self.practice)
                else:
                    self._screen(lambda nxt=nxt: self.open_lesson(nxt.id))
                continue
            again = low.endswith(" again")
            if again:
                low = low[: -len(" again")].strip()
            if low.startswith("lesson "):
                low = low[len("lesson ") :].strip()
            entry = match_lesson(course, low)  # number, file name or id
            if entry is not None:
                self._screen(
                    lambda entry=entry, again=again: self.open_lesson(entry.id, restart=again)
                )
                continue
            if low in ("p", "puzzles", "puzzle"):
                self._screen(self.practice)
                continue
            if low in ("s", "sources"):
                self._screen(self.sources, nothing_saved=True)
                continue
            if low in ("t", "stats", "statistics"):
                self._screen(self.stats)
                continue
            if low in ("d", "drill", "drills"):
                self._screen(self.drills)
                continue
            if low in ("g", "play"):
                self._screen(self.play)
                continue
            if low in ("m", "match"):
                self._screen(self.match)
                continue
            if low in ("f", "coach"):
                self._screen(self.coach, nothing_saved=True)
                continue
            if low in ("r", "track", "tournament"):
                self._screen(self.track)
                continue
            if low in ("h", "help", "?"):
                ctx.say(HELP, style="dim")
                self._redraw = ""
                continue
            ctx.say(not_on_menu(choice, course), style="yellow")
            self._redraw = ""

    def _screen(self, body, nothing_saved: bool = False) -> None:
        """Run a screen reached from here.  A problem it raises on purpose is one line; Ctrl-C
        and Ctrl-D come back here (the screen has said what it saved; ``nothing_saved``: there
        was nothing to save, which is said here); at the end of piped input ``EOFError`` passes
        on, as nothing more can be read."""
        ctx = self.ctx
        try:
            body()
        except LaughError as exc:
            ctx.say(str(exc), style="red")
            self._redraw = "keep"
        except KeyboardInterrupt:
            ctx.say()
            if nothing_saved:
                ctx.say("Back to the home screen (nothing to save).", style="dim")
            self._redraw = "keep"
        except EOFError:
            if nothing_saved:
                ctx.say("Back to the home screen (nothing to save).", style="dim")
            if not ctx.interactive:
                raise
            self._redraw = "keep"
        else:
            ctx.say()

    # -- actions ---------------------------------------------------------------------------

    def open_lesson(self, lesson_id: str, restart: bool = False) -> None:
        """Load, check and take a lesson (a broken lesson file is reported, not fatal)."""
        try:
            lesson = open_lesson(lesson_id)
        except DataError as exc:
            self.ctx.say(f"This lesson cannot be opened: {exc}", style="red")
            self._redraw = "keep"
            return
        from tutor.app.runner import take_lesson  # lazily: see practice()

        take_lesson(self.ctx, lesson, seed=self.seed, restart=restart)

    def practice(self) -> None:
        """Puzzles outside the course (see :func:`tutor.app.views.practice_menu`)."""
        # The views (FSRS, puzzles, rendering) load only when chosen: the home screen must
        # appear quickly (benchmarks/bench_startup.py); likewise in stats() and sources().
        from tutor.app.views import practice_menu

        practice_menu(self.ctx)

    def stats(self) -> None:
        """The statistics view, with the weakest themes offered as practice."""
        from tutor.app.views import stats_view  # lazily: see practice()

        stats_view(self.ctx, offer_practice=True, at_home=True)

    def sources(self) -> None:
        """The sources view (what ``laugh sources`` shows)."""
        from tutor.app.views import sources_view  # lazily: see practice()

        sources_view(self.ctx)

    def drills(self) -> None:
        """The drills menu: the registry's entries
        (:data:`tutor.teaching.drills.registry.DRILLS`), numbered in order, by number, letter or
        word; each drill runs with the defaults of ``laugh drill KIND`` and comes back to this
        menu, Ctrl-C and Ctrl-D included; Enter or ``q`` goes back home."""
        ctx = self.ctx
        entries = [(kind.name, e) for kind in DRILLS.values() for e in kind.entries()]
        items = [
            MenuItem(str(i), e.letter, e.words, e.label, (name, dict(e.settings)))
            for i, (name, e) in enumerate(entries, 1)
        ]
        title = "Drills"
        while True:
            item = menu(ctx, items, "drill> ", title=title)
            if item is None:
                return
            name, settings = item.value
            ctx.guarded(
                lambda name=name, settings=settings: run_drill(
                    DrillOptions(name, settings=settings), io=ctx.io, next_line=False
                )
            )
            title = "Drills (another, or Enter for home)"

    def play(self) -> None:
        """Play a deal as ``laugh play`` does with its defaults, and come back here."""
        start_play(io=self.ctx.io, next_line=False)

    def coach(self) -> None:
        """The course's first deal with a coach (:func:`tutor.app.coached_deal.home_coached_deals`)."""
        from tutor.app.coached_deal import home_coached_deals  # lazily: see practice()

        home_coached_deals(self.ctx)

    def track(self) -> None:
        """The tournament track (:class:`tutor.app.track.TrackScreen`)."""
        from tutor.app.track import TrackScreen  # lazily: see practice()

        TrackScreen(self.ctx, seed=self.seed).run()

    def match(self) -> None:
        """Play on the most recent unfinished match (``laugh match --resume``), else start one
        with ``laugh match``'s defaults; come back here when it ends or is saved."""
        resume = None  # none unfinished: a new match
        try:
            path = latest_unfinished()
        except UsageError:
            path = None
        if path is not None:
            try:
                load_match(path)
                resume = str(path)
            except LaughError as exc:  # a damaged file stays where it is, said once
                said = str(exc).removesuffix(START_AFRESH)
                self.ctx.say(f"{said}; starting a new match instead.", style="yellow")
        play_saved_match(resume=resume, io=self.ctx.io)
