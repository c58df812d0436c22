"""The course's pages (Starlette), for one learner (``laugh web``) or a class (``laugh class
serve``).

Routes (``TOKEN`` is a learner's token, from :mod:`secrets`; it alone opens their pages):

- ``GET /s/TOKEN/``: the course, each lesson with the learner's state of it;
- ``GET /s/TOKEN/lesson/ID``: the lesson, where the learner is in it (a lesson in progress
  resumes, as ``laugh lesson`` does); ``POST`` the same address answers the question the page
  shows (fields ``n``, the question's number, and ``text``); ``POST .../again`` takes a
  finished lesson again;
- a class only: ``GET /`` the join form, ``POST /join`` (``code``, ``name``) gives a token and
  the course; ``GET|POST /teacher`` the teacher's grid (with the teacher's code);
- ``/static/...``: the pages' own style sheet and scripts (package data, no build step).

Every page is a Jinja2 template, autoescaped (a name, a lesson's words, an answer are text),
sent with a Content-Security-Policy that allows no inline script and nothing from elsewhere
(:data:`CSP`).  A lesson is taken by :class:`tutor.app.web.lesson.LessonSession` (the
terminal's runner and learner loop, graded on the server): a page gets only what the runner
has said, so no answer, grade or explanation before the learner has answered.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tutor.app.web.lesson import LessonSession
from tutor.engine.errors import DataError, LaughError
from tutor.engine.safetext import printable
from tutor.teaching.lessons import CourseEntry, course_index, open_lesson
from tutor.teaching.progress import ProgressStore

__all__ = ["CSP", "CODE_LETTERS", "ClassRoom", "Learner", "WebApp", "make_code", "name_problem"]

HERE = Path(__file__).parent

#: The pages' Content-Security-Policy: their own scripts and styles, no inline script, no other
#: origin, forms sent only here, never framed.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}

#: The letters of a class code: no 0/O, 1/I/L to misread from a projector.
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

#: The longest name a student may give (characters).
NAME_MAX = 40

#: The most students a class takes (a room of thirty, many times over): whoever holds the code
#: cannot fill the teacher's disk or threads with made-up students.
MAX_STUDENTS = 300


def make_code(length: int = 6) -> str:
    """A class code of ``length`` letters of :data:`CODE_LETTERS`, from :mod:`secrets`."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(length))


def name_problem(name: str) -> str | None:
    """Why ``name`` (stripped) cannot be a student's name, or None: empty, longer than
    :data:`NAME_MAX`, or holding a control or format character."""
    if not name:
        return "Type your name."
    if len(name) > NAME_MAX:
        return f"A name has at most {NAME_MAX} characters."
    if printable(name) != name:
        return "A name is letters, digits, spaces and punctuation only."
    return None


#: The most a form may send (bytes): a name, a code, an answer.
FORM_MAX = 4096


async def read_form(request: Request) -> dict[str, str]:
    """The page's form (``application/x-www-form-urlencoded``, read by :mod:`urllib.parse`):
    field -> its first value; empty when the body is longer than :data:`FORM_MAX` or is not
    text."""
    from urllib.parse import parse_qs
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > FORM_MAX:
            return {}
    try:
        fields = parse_qs(body.decode("utf-8"), max_num_fields=20)
    except (UnicodeDecodeError, ValueError):
        return {}
    return {k: v[0] for k, v in fields.items() if v}


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Learner:
    """One learner: ``name``, ``store`` (their progress file) and the lesson they are taking
    (``session``, or None)."""

    name: str
    store: Path
    session: LessonSession | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


class ClassRoom:
    """A class served from ``folder``: its code (what students type), the teacher's code, and
    its students, each with a progress file ``students/NNN.sqlite3`` in the folder (the class
    kept in ``class.json``: the codes, and each student's name and file by a digest of their
    token, never the token itself).  Serving the folder again keeps the codes and tokens."""

    FILE = "class.json"

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        (self.folder / "students").mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        path = self.folder / self.FILE
        data: dict = {}
        if path.exists():
            try:
                data = json.loads(path.read_text("utf-8"))
                if not isinstance(data, dict):
                    raise ValueError("not an object")
            except (ValueError, OSError) as exc:
                raise DataError(f"{path}: cannot be read as a class ({exc})") from None
        self.code = str(data.get("code") or make_code())
        self.teacher_code = str(data.get("teacher") or secrets.token_urlsafe(9))
        self.students: dict[str, dict] = dict(data.get("students") or {})
        self._save()

    def _save(self) -> None:
        from tutor.engine.atomic import write_atomic
        write_atomic(self.folder / self.FILE, json.dumps(
            {"code": self.code, "teacher": self.teacher_code, "students": self.students},
            indent=1), mode=0o600)

    def code_ok(self, code: str) -> bool:
        """True when ``code`` (spaces and case aside) is the class's code."""
        typed = "".join(code.split()).upper()
        return secrets.compare_digest(typed.encode(), self.code.encode())

    def teacher_ok(self, code: str) -> bool:
        """True when ``code`` is the teacher's code."""
        return secrets.compare_digest(code.strip().encode(), self.teacher_code.encode())

    def join(self, name: str) -> tuple[str, Learner] | None:
        """A new student named ``name`` (checked by the caller): their token and learner; None
        when the class has :data:`MAX_STUDENTS` already."""
        token = secrets.token_urlsafe(18)
        with self._lock:
            if len(self.students) >= MAX_STUDENTS:
                return None
            file = f"students/{len(self.students) + 1:03d}.sqlite3"
            self.students[_digest(token)] = {"name": name, "file": file}
            self._save()
        return token, Learner(name, self.folder / file)

    def learner(self, token: str) -> Learner | None:
        """The student whose token is ``token``, or None."""
        with self._lock:
            s = self.students.get(_digest(token))
        return None if s is None else Learner(str(s["name"]), self.folder / str(s["file"]))

    def roster(self) -> list[tuple[str, Path]]:
        """Every student's name and progress file, in the order they joined."""
        with self._lock:
            return [(str(s["name"]), self.folder / str(s["file"])) for s in self.students.values()]


def _environment() -> Environment:
    return Environment(loader=FileSystemLoader(str(HERE / "templates")),
                       autoescape=select_autoescape(default=True, default_for_string=True),
                       trim_blocks=True, lstrip_blocks=True)


class WebApp:
    """The pages for one learner (``solo``: ``token`` opens their own progress ``store``) or a
    class (``room``).  :attr:`app` is the ASGI application; :meth:`close` ends every lesson in
    progress (what is answered is saved)."""

    def __init__(self, *, room: ClassRoom | None = None, store: Path | None = None,
                 token: str | None = None):
        self.room = room
        self.token = token or secrets.token_urlsafe(18)
        self.solo = None if room is not None else Learner("", Path(store) if store else
                                                          _default_store())
        self.learners: dict[str, Learner] = {}
        self._lock = threading.Lock()
        self.env = _environment()
        routes = [
            Route("/", self.home),
            Route("/favicon.ico", lambda request: Response(status_code=204)), Route("/join", self.join, methods=["POST"]),
            Route("/teacher", self.teacher, methods=["GET", "POST"]),
            Route("/s/{token}/", self.course),
            Route("/s/{token}/lesson/{lesson}", self.lesson, methods=["GET", "POST"]),
            Route("/s/{token}/lesson/{lesson}/again", self.again, methods=["POST"]),
            Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
        ]
        self.app = Starlette(routes=routes)
        self.app.add_middleware(_Headers)

    # -- learners --------------------------------------------------------------------------

    def learner(self, token: str) -> Learner | None:
        """The learner whose token is ``token`` (kept while the server runs), or None."""
        with self._lock:
            if token in self.learners:
                return self.learners[token]
            if self.solo is not None:
                found = self.solo if secrets.compare_digest(token.encode(), self.token.encode()) \
                    else None
            else:
                assert self.room is not None
                found = self.room.learner(token)
            if found is not None:
                self.learners[token] = found
            return found

    def close(self) -> None:
        """End every lesson in progress."""
        with self._lock:
            learners = list(self.learners.values())
        for ln in learners:
            if ln.session is not None:
                ln.session.close()

    # -- pages -----------------------------------------------------------------------------

    def render(self, template: str, status: int = 200, **values) -> HTMLResponse:
        """The page ``template`` with ``values`` (escaped)."""
        html = self.env.get_template(template).render(**values)
        return HTMLResponse(html, status_code=status)

    def missing(self, why: str = "This address opens nothing.") -> HTMLResponse:
        return self.render("message.html.j2", 404, title="Not found", message=why,
                           join=self.room is not None)

    async def home(self, request: Request) -> Response:
        if self.room is None:
            return self.render("message.html.j2", 404, title="Laugh and Lie Down",
                               message="Open the address that laugh web printed: it holds "
                                       "the key to your progress.", join=False)
        return self.render("join.html.j2", problem=None, name="", code="")

    async def join(self, request: Request) -> Response:
        if self.room is None:
            return self.missing()
        form = await read_form(request)
        code, name = str(form.get("code") or ""), " ".join(str(form.get("name") or "").split())
        problem = None if self.room.code_ok(code) else \
            "That is not this class's code: look again at the board."
        problem = problem or name_problem(name)
        if problem:
            return self.render("join.html.j2", 400, problem=problem, name=name, code=code)
        joined = self.room.join(name)
        if joined is None:
            return self.render("join.html.j2", 403, problem="The class is full: ask your "
                               "teacher.", name=name, code=code)
        token, learner = joined
        with self._lock:
            self.learners[token] = learner
        return RedirectResponse(f"/s/{token}/", status_code=303)

    def course(self, request: Request) -> Response:
        token = request.path_params["token"]
        learner = self.learner(token)
        if learner is None:
            return self.missing("No learner has this address: join the class again.")
        entries = course_index()
        with ProgressStore(learner.store) as store:
            states = store.lesson_states()
        rows = []
        for e in entries:
            s = states.get(e.id)
            if s is not None and s.in_progress:
                state = f"in progress, page {s.page + 1}"
            elif s is not None and s.completed:
                state = f"done, {s.right} of {s.total} right first time" if s.total else "done"
            else:
                state = "not begun"
            rows.append((e, state))
        return self.render("course.html.j2", token=token, rows=rows, name=learner.name,
                           remember=self.room is not None)

    def _entry(self, key: str) -> CourseEntry | None:
        return next((e for e in course_index() if e.id == key or str(e.number) == key), None)

    def _session(self, learner: Learner, entry: CourseEntry, again: bool = False
                 ) -> LessonSession:
        """The learner's session of ``entry``'s lesson: the one running, else a new one (the
        runner resumes the attempt in progress); another lesson's is ended first."""
        with learner.lock:
            s = learner.session
            if s is not None and s.lesson.id == entry.id and not again:
                return s
            if s is not None:
                s.close()
            learner.session = LessonSession(open_lesson(entry.id), learner.store).start()
            return learner.session

    def lesson(self, request: Request) -> Response:
        token = request.path_params["token"]
        learner = self.learner(token)
        entry = self._entry(request.path_params["lesson"])
        if learner is None or entry is None:
            return self.missing()
        if request.method == "POST":
            return self._answer(request, learner, entry)
        try:
            session = self._session(learner, entry)
        except LaughError as exc:
            return self.render("message.html.j2", 500, title="This lesson cannot be opened",
                               message=str(exc), join=False)
        items, prompt = session.io.screen()
        entries = course_index()
        nxt = next((e for e in entries if e.number == entry.number + 1), None)
        return self.render("lesson.html.j2", token=token, entry=entry, items=items,
                           prompt=prompt, done=prompt is None and session.io.finished,
                           result=session.result, next=nxt, remember=self.room is not None)

    def _answer(self, request: Request, learner: Learner, entry: CourseEntry) -> Response:
        import anyio.from_thread
        form = anyio.from_thread.run(read_form, request)
        session = learner.session
        here = f"/s/{request.path_params['token']}/lesson/{entry.id}"
        if session is None or session.lesson.id != entry.id:
            return RedirectResponse(here, status_code=303)
        try:
            number = int(str(form.get("n") or "0"))
        except ValueError:
            number = 0
        session.io.submit(str(form.get("text") or ""), number)
        return RedirectResponse(here + "#now", status_code=303)

    def again(self, request: Request) -> Response:
        learner = self.learner(request.path_params["token"])
        entry = self._entry(request.path_params["lesson"])
        if learner is None or entry is None:
            return self.missing()
        self._session(learner, entry, again=True)
        return RedirectResponse(f"/s/{request.path_params['token']}/lesson/{entry.id}",
                                status_code=303)

    async def teacher(self, request: Request) -> Response:
        if self.room is None:
            return self.missing()
        if request.method == "GET":
            return self.render("teacher.html.j2", grid=None, problem=None)
        form = await read_form(request)
        if not self.room.teacher_ok(str(form.get("code") or "")):
            return self.render("teacher.html.j2", 403, grid=None,
                               problem="That is not the teacher's code.")
        import anyio.to_thread
        grid = await anyio.to_thread.run_sync(self._grid)
        return self.render("teacher.html.j2", grid=grid, problem=None,
                           code=str(form.get("code") or ""))

    def _grid(self):
        """The class report over every student's progress (as ``laugh class report`` makes it
        from their exports)."""
        from tutor.teaching.classreport import build_report
        from tutor.teaching.transfer import export_data, parse_export
        assert self.room is not None
        exports = []
        for name, path in self.room.roster():
            with ProgressStore(path) as store:
                data = export_data(store, name)
            exports.append((path.name, parse_export(json.dumps(data), path.name)))
        return build_report(exports) if exports else None


class _Headers:
    """Every response with :data:`HEADERS`."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {k.lower() for k, _ in headers}
                for k, v in HEADERS.items():
                    if k.lower().encode() not in have:
                        headers.append((k.lower().encode(), v.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)


def _default_store() -> Path:
    from tutor.teaching.progress._store import default_path
    return default_path()
