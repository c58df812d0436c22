"""The drills on a page (issue 44, item 2): the oversight streak and storm with their clock and
claim key, the counting trainer and the settlement drill, for ``laugh web`` and ``laugh class
serve``.

A drill is the terminal's own (:data:`tutor.teaching.drills.registry.DRILLS`, each run by its
``run(io, store, request)``, every question put by the learner loop
:func:`tutor.teaching.loop.ask` and graded there by the engine) in a thread of its own
(:class:`DrillSession`), talking to a :class:`DrillIO`: the page holds only what the drill has
said, so a position's answer, the hidden cards and the grade come after the answer, never
before.  Every graded answer goes to the learner's progress store as at a terminal (``laugh
stats``, the dashboard and ``laugh class report`` read them there); the result page is the
drill's own last words (its score, its best, the line on the positions judged by counting).

Time is the server's: a timed question's seconds run from when the page holding it was sent
(:meth:`tutor.app.web.webio.WebIO.served`) to when its answer came, measured by the server's
clock; a time that runs out is the drill's, not the page's.  The page's script
(``static/drill.js``) only shows the countdown, loads the page again when it ends, plays the
counting trainer's scroll one line in place, and gives the claim key (the space bar on an
empty answer, as at a table: it starts a claim, to be named); without it the forms work alone
(the scroll is then shown as it grows, the page loading again each second).

Routes (``TOKEN`` a learner's token, ``NAME`` a drill's word: an entry of the home screen's
drill menu, such as ``streak``, ``storm``, ``count``, ``settle``):

- ``GET /s/TOKEN/drill/NAME``: the drill, where the learner is in it (a new one when none
  runs); ``POST`` the same address answers the question shown (fields ``n``, ``text``);
- ``POST /s/TOKEN/drill/NAME/again``: a new one;
- ``GET /s/TOKEN/drill/NAME/v``: ``{"v": N, "line": ...}``: a count of the page's changes and
  the scroll's current line (what the page already shows, nothing else).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from jinja2 import Environment
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from tutor.app.clock import TerminalClock
from tutor.app.web.webio import Item, Prompt, WebIO
from tutor.engine.errors import LaughError
from tutor.engine.safetext import printable
from tutor.teaching.drills.registry import DRILLS, DrillKind, DrillRequest
from tutor.teaching.progress import ProgressStore


class Site(Protocol):
    """What the drills use of the pages' server (:class:`tutor.app.web.server.WebApp`, which
    mounts them: imported by it, they import nothing of it)."""

    env: Environment
    room: Any

    def learner(self, token: str) -> Any:
        """The :class:`~tutor.app.web.server.Learner` whose token is ``token``, or None."""

    def render(self, template: str, status: int = 200, **values: Any) -> Response: ...

    def missing(self, why: str = "") -> Response: ...

    def changed(self) -> None: ...

    def _led_entry(self) -> Any: ...

    def _pace_version(self) -> str: ...


__all__ = ["DrillIO", "DrillSession", "Drills", "WebDrill", "form_of", "web_drills"]


class WebDrill(NamedTuple):
    """A drill as the pages offer it: ``name`` (its word in the address), ``title`` (the
    page's heading), ``label`` (the course page's words), the registry's ``kind`` and the
    ``settings`` its menu entry sets (the others take the registry's defaults)."""

    name: str
    title: str
    label: str
    kind: DrillKind
    settings: dict


def web_drills() -> dict[str, WebDrill]:
    """Every entry of the home screen's drill menu (:meth:`DrillKind.entries`), by its first
    word, in the registry's order."""
    out: dict[str, WebDrill] = {}
    for kind in DRILLS.values():
        for entry in kind.entries():
            label = entry.label[:1].upper() + entry.label[1:]
            title = label.split(":")[0] if ":" in label else label
            out[entry.words[0]] = WebDrill(entry.words[0], title, label, kind, dict(entry.settings))
    return out


def form_of(prompt: Prompt) -> str:
    """How the page answers ``prompt``: ``"go"`` (one button: the terminal's ``Enter to
    ...>``), ``"choice"`` (buttons only: a menu, or yes and no) or ``"answer"`` (a field)."""
    if prompt.prompt.startswith("Enter to"):
        return "go"
    if prompt.menu or (prompt.words and set(prompt.words) <= {"yes", "no", "quit"}):
        return "choice"
    return "answer"


class DrillIO(WebIO):
    """The seam for a drill's page (:class:`WebIO`, with a drill's screens): what was said
    since the last answer, and the answer (so a position's page holds the verdict on the last
    one above it).  A blank line after an answer (a drill's next position, question or round
    begins with one) starts a new screen; an answer by a button (``yes``, ``no``, a menu)
    starts one with what follows it; ``Enter to ...`` keeps the screen (a round's table and
    hand stay above its scroll)."""

    def __init__(self, changed: Callable[[], None] | None = None):
        super().__init__(changed=changed)
        self._cut: int | None = None
        self.clock = _ClosingClock(self)

    def answered(self, prompt: Prompt, text: str) -> None:
        form = form_of(prompt)
        if form == "go":
            return
        self._cut = len(self._items)
        if form == "answer":
            self._items.append(Item("answer", printable(text)))

    def _blank(self) -> None:
        with self._cond:
            if self._cut is not None:
                self._items = self._items[self._cut :]
                self._cut = None
                self._bump()

    def say(self, text: str = "", style: str = "", *, wrap: bool = True) -> None:
        if not text.strip():
            self._blank()
        super().say(text, style, wrap=wrap)

    def show(self, *renderables) -> None:
        from rich.text import Text

        if renderables and all(isinstance(r, Text) and not r.plain.strip() for r in renderables):
            self._blank()
        super().show(*renderables)

    def wait_past(self, number: int, wait: float = 2.0) -> None:
        """Wait up to ``wait`` seconds until question ``number`` is no longer asked (its time
        ran out: the drill goes on)."""
        with self._cond:
            self._cond.wait_for(
                lambda: (
                    self._prompt is None
                    or self._prompt.number != number
                    or self.finished
                    or self._closed
                ),
                wait,
            )

    def left(self, prompt: Prompt) -> float | None:
        """Seconds left for ``prompt`` on the server's clock (None: no limit)."""
        if prompt.ends is None:
            return None
        return prompt.ends + prompt.lag - self.clock.now()


class _ClosingClock(TerminalClock):
    """The server's clock (:class:`~tutor.app.clock.TerminalClock`) for a drill's page, whose
    :meth:`sleep` (the counting trainer's scroll) ends early once ``io`` is closed: a drill
    left mid-scroll ends at once, and the learner's next drill does not wait for it."""

    def __init__(self, io: DrillIO):
        self._io = io

    def sleep(self, seconds: float) -> None:
        io = self._io
        if seconds > 0:
            with io._cond:
                io._cond.wait_for(lambda: io._closed, seconds)


class _TellingStore(ProgressStore):
    """The learner's progress store, which also says ``told()`` at each answer it records
    (a class's dashboard looks again)."""

    def __init__(self, path: Path | None, told: Callable[[], None]):
        super().__init__(path)
        self._tell = told

    def record_answer(self, *args, **kw):
        change = super().record_answer(*args, **kw)
        self._tell()
        return change


class DrillSession:
    """One learner at ``drill`` (a :class:`WebDrill`, run as asked by ``request``), their
    progress in the store at ``store_path``.  :meth:`start` runs the drill in a daemon thread;
    ``result`` is ``"completed"``, ``"closed"`` or ``"failed"`` once it ends (``error``: the
    one line said for a failure).  ``changed``: called (no arguments, from any thread)
    whenever the page changes or an answer is recorded; :attr:`answers` counts the answers
    recorded; :attr:`serial` tells this session from every other of the process."""

    _serials = itertools.count(1)

    def __init__(
        self,
        drill: WebDrill,
        request: DrillRequest,
        store_path: Path,
        changed: Callable[[], None] | None = None,
    ):
        self.drill = drill
        self.request = request
        self.store_path = store_path
        self.changed = changed
        self.io = DrillIO(changed=changed)
        self.result: str | None = None
        self.error: str | None = None
        self.answers = 0
        self.serial = next(self._serials)
        self._thread = threading.Thread(target=self._run, daemon=True, name=f"drill {drill.name}")

    def start(self) -> DrillSession:
        """Start the drill and wait until it asks its first question (or ends)."""
        self._thread.start()
        self.io.wait_ready()
        return self

    def _told(self) -> None:
        self.answers += 1
        if self.changed is not None:
            self.changed()

    def _run(self) -> None:
        io = self.io
        store = None
        try:
            store = _TellingStore(self.store_path, self._told)  # opened in the drill's thread
            if store.notice:
                io.say(store.notice, style="yellow")
            self.drill.kind.run(io, store, self.request)
            self.result = "completed"
        except EOFError:
            self.result = "closed"
        except LaughError as exc:
            self.result, self.error = "failed", str(exc)
            io.say(str(exc), style="yellow")
        except Exception as exc:  # noqa: BLE001 - a bug: said on the page, the server goes on
            self.result, self.error = "failed", f"{type(exc).__name__}: {exc}"
            io.say(
                f"The drill stopped on an error ({self.error}); what you answered is saved.",
                style="yellow",
            )
        finally:
            try:
                if store is not None:
                    store.close()
            finally:
                io.end()

    @property
    def alive(self) -> bool:
        """True while the drill's thread runs."""
        return self._thread.is_alive()

    def close(self, wait: float = 5.0) -> None:
        """End the drill (what is answered is already saved) and wait up to ``wait`` seconds
        for its thread to leave."""
        self.io.close()
        if self._thread.is_alive():
            self._thread.join(wait)


class Drills:
    """The drills of ``web`` (a :class:`~tutor.app.web.server.WebApp`): one drill at a time
    for each learner (:attr:`sessions`, by their progress file); :meth:`routes` are mounted by
    the server, :meth:`close` ends every drill; ``read_form`` reads a page's form (the server's
    :func:`~tutor.app.web.server.read_form`: a short body of text, or nothing)."""

    def __init__(self, web: Site, read_form: Callable[[Request], Awaitable[dict[str, str]]]):
        self.web = web
        self.read_form = read_form
        self.kinds = web_drills()
        self.sessions: dict[Path, DrillSession] = {}
        self._lock = threading.Lock()
        web.env.globals["web_drills"] = list(self.kinds.values())

    def routes(self) -> list[Route]:
        """The drills' routes (see the module docstring), for the server's list."""
        return [
            Route("/s/{token}/drill/{name}", self.page, methods=["GET", "POST"]),
            Route("/s/{token}/drill/{name}/again", self.again, methods=["POST"]),
            Route("/s/{token}/drill/{name}/v", self.version),
        ]

    def close(self) -> None:
        """End every learner's drill (what is answered is already saved)."""
        with self._lock:
            sessions = list(self.sessions.values())
        for s in sessions:
            s.close()

    # -- sessions --------------------------------------------------------------------------

    def session_of(self, learner: Any) -> DrillSession | None:
        """The learner's drill (running or ended), or None."""
        with self._lock:
            return self.sessions.get(learner.store)

    def doing(self, store: Path) -> str | None:
        """The drill the learner whose progress file is ``store`` is at now (its title, with
        the answers it has recorded), or None (the teacher's dashboard)."""
        with self._lock:
            s = self.sessions.get(store)
        if s is None or not s.alive or s.io.finished:
            return None
        return f"{s.drill.title}, {s.answers} answer{'' if s.answers == 1 else 's'}"

    def answers_key(self, store: Path) -> tuple:
        """What changes when the drill of the learner whose progress file is ``store``
        records another answer (the dashboard's grid is made again)."""
        with self._lock:
            s = self.sessions.get(store)
        return () if s is None else (s.serial, s.answers)

    def _session(self, learner: Any, drill: WebDrill, again: bool = False) -> DrillSession:
        """The learner's session of ``drill``: the one there, else a new one (another drill's
        is ended first)."""
        from tutor.app.sessions import DrillOptions, drill_request

        with learner.lock:
            s = self.session_of(learner)
            if s is not None and s.drill.name == drill.name and not again:
                return s
            if s is not None:
                s.close()
            _, request = drill_request(DrillOptions(drill.kind.name, settings=drill.settings))
            s = DrillSession(drill, request, learner.store, changed=self.web.changed)
            with self._lock:
                self.sessions[learner.store] = s
            s.start()
            self.web.changed()
            return s

    def _find(self, request: Request) -> tuple[str, Any, WebDrill | None]:
        token = request.path_params["token"]
        return token, self.web.learner(token), self.kinds.get(request.path_params["name"])

    # -- pages -----------------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        """``GET``: the learner's drill as it stands (started when none is running), a timed
        question's time counted from now; ``POST`` (``n``, ``text``): answer question ``n``
        and go back to the page.  404 for an unknown token or drill; a class led through a
        lesson goes to it."""
        import anyio.to_thread

        token, learner, drill = self._find(request)
        if learner is None or drill is None:
            return self.web.missing()
        led = self.web._led_entry()
        if led is not None:  # the teacher leads the class through a lesson
            return RedirectResponse(f"/s/{token}/lesson/{led.id}", status_code=303)
        here = f"/s/{token}/drill/{drill.name}"
        if request.method == "POST":
            form = await self.read_form(request)
            s = self.session_of(learner)
            if s is not None and s.drill.name == drill.name:
                try:
                    number = int(str(form.get("n") or "0"))
                except ValueError:
                    number = 0
                await anyio.to_thread.run_sync(s.io.submit, str(form.get("text") or ""), number)
            return RedirectResponse(here + "#now", status_code=303)
        try:
            s = await anyio.to_thread.run_sync(self._session, learner, drill)
        except LaughError as exc:
            return self.web.render(
                "message.html.j2",
                500,
                title="This drill cannot be opened",
                message=str(exc),
                join=False,
            )
        io = s.io
        await anyio.to_thread.run_sync(io.wait_ready, 2.0)
        version = io.version  # read first: a change while the page is made loads it again
        items, prompt = io.screen()
        left = io.left(prompt) if prompt is not None else None
        if prompt is not None and left is not None and left <= 0:  # its time ran out: the
            await anyio.to_thread.run_sync(io.wait_past, prompt.number)  # drill goes on
            version = io.version
            items, prompt = io.screen()
        if prompt is not None:
            io.served(prompt.number)
        left = io.left(prompt) if prompt is not None else None
        lines = io.ticking()
        return self.web.render(
            "drill.html.j2",
            token=token,
            drill=drill,
            items=items,
            prompt=prompt,
            form=form_of(prompt) if prompt is not None else None,
            left=None if left is None else max(0.0, left),
            lines=lines,
            done=prompt is None and lines is None and io.finished,
            result=s.result,
            remember=self.web.room is not None,
            watch=f"{here}/v",
            v=f"{version}:{self.web._pace_version()}",
        )

    async def again(self, request: Request) -> Response:
        """``POST``: a new drill of the same kind (the one running ends, its answers saved)."""
        import anyio.to_thread

        token, learner, drill = self._find(request)
        if learner is None or drill is None:
            return self.web.missing()
        await anyio.to_thread.run_sync(self._session, learner, drill, True)
        return RedirectResponse(f"/s/{token}/drill/{drill.name}", status_code=303)

    async def version(self, request: Request) -> Response:
        """``{"v": N, "line": ...}``: what the drill's page waits on (its count of changes,
        the scroll's line shown now), nothing it does not show."""
        _, learner, drill = self._find(request)
        if learner is None or drill is None:
            return JSONResponse({"v": None}, status_code=404)
        s = self.session_of(learner)
        pace = self.web._pace_version()
        if s is None or s.drill.name != drill.name:
            return JSONResponse({"v": pace, "line": None, "n": 0})
        lines = s.io.ticking()
        return JSONResponse(
            {
                "v": f"{s.io.version}:{pace}",
                "line": lines[-1] if lines else None,
                "n": len(lines or []),
            }
        )
