"""The course's pages (Starlette), for one learner (``laugh web``) or a class (``laugh class
serve``).

Routes (``TOKEN`` is a learner's token, from :mod:`secrets`; it alone opens their pages):

- ``GET /s/TOKEN/``: the course, each lesson with the learner's state of it (a class's
  student: their personal code too); ``GET /s/TOKEN/progress.json`` their progress as a file
  ``laugh progress import`` takes;
- ``GET /s/TOKEN/lesson/ID``: the lesson, where the learner is in it (a lesson in progress
  resumes, as ``laugh lesson`` does); ``POST`` the same address answers the question the page
  shows (fields ``n``, the question's number, and ``text``); ``POST .../again`` takes a
  finished lesson again;
- ``GET /s/TOKEN/lesson/ID/v``: ``{"v": ...}``, a count of the page's changes and the
  class's pace (nothing of what the page shows): a page that follows the teacher, or waits
  for them, asks it every few seconds (``static/follow.js``) and loads again when it moves;
- a class only: ``GET /`` the join form, ``POST /join`` (``code``, ``name``) gives a token and
  the course; ``POST /continue`` (``personal``, a student's personal code) a new token for
  that student on another device;
- the teacher's (``POST /teacher`` with the teacher's code sets an HttpOnly, SameSite=Strict
  cookie; without it each answers the code's form): ``GET /teacher`` the live dashboard (the
  grid of ``laugh class report``, where each student is, who is stuck, the weakest themes),
  ``GET /teacher/live`` ``{"v": N}`` (what the dashboard and projector wait on),
  ``POST /teacher/pace`` (teacher-led or self-paced, the page, the projector's answers and
  names), ``GET /projector`` (how the class answered the page led),
  ``GET /teacher/report.csv|.html`` (the class report) and
  ``GET /teacher/progress/N.json`` (student N's progress file);
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
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tutor.app.web.drills import Drills
from tutor.app.web.lesson import LessonSession
from tutor.engine.errors import DataError, LaughError
from tutor.engine.safetext import printable
from tutor.teaching.lessons import CourseEntry, course_index, open_lesson
from tutor.teaching.progress import ProgressStore

__all__ = ["CSP", "CODE_LETTERS", "ClassRoom", "Learner", "WebApp", "make_code", "name_problem"]

HERE = Path(__file__).parent

#: The pages' Content-Security-Policy: their own scripts and styles, no inline script, no other
#: origin, forms sent only here, never framed.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}

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


def make_personal_code() -> str:
    """A student's personal code, to continue on another device: eight letters of
    :data:`CODE_LETTERS` from :mod:`secrets` (some 40 bits), shown as ``ABCD-EFGH``."""
    code = make_code(8)
    return f"{code[:4]}-{code[4:]}"


def code_key(typed: str) -> str:
    """A typed code as it is compared: spaces and dashes out, upper case (``abcd efgh`` and
    ``ABCD-EFGH`` are one code)."""
    return "".join(c for c in typed.upper() if c not in " -\t\u2010\u2011\u2013")


#: Wrong personal codes one address may type in a minute before it is asked to wait (a code
#: is not guessed by trying, and nobody else is locked out).
PERSONAL_TRIES = 10


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
    field -> its first value; empty when the body is longer than :data:`FORM_MAX`, is not
    text, or the client left before sending it all."""
    from urllib.parse import parse_qs

    from starlette.requests import ClientDisconnect

    body = b""
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > FORM_MAX:
                return {}
    except ClientDisconnect:  # gone before its form came: nothing answered
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
    """One learner: ``name``, ``store`` (their progress file), their personal ``code`` (a
    class's student; empty for ``laugh web``) and the lesson they are taking (``session``, or
    None)."""

    name: str
    store: Path
    code: str = ""
    session: LessonSession | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


@dataclass(frozen=True)
class Pace:
    """How a class is run: ``mode`` ``"self"`` (each student at their own page) or ``"led"``
    (the teacher moves the class through ``lesson``, now on ``page``, 0-based: the number of
    pages is the lesson's end); on the projector, ``shown``: how many of the page's puzzles
    have their answers shown, in order (the teacher shows one when the class has answered
    it, so the projector never gives away a puzzle still being answered), ``names``: with the
    students' names."""

    mode: str = "self"
    lesson: str = ""
    page: int = 0
    shown: int = 0
    names: bool = False

    @property
    def led(self) -> bool:
        return self.mode == "led" and bool(self.lesson)


class ClassRoom:
    """A class served from ``folder``: its code (what students type), the teacher's code, the
    class's seed (every student gets the same puzzles), its :class:`Pace`, and its students,
    each with a progress file ``students/NNN.sqlite3`` in the folder and a personal code (the
    class kept in ``class.json``, mode 0600: the codes, the pace, and each student's name, file
    and personal code by a digest of each of their tokens, never a token itself).  Serving the
    folder again keeps all of it."""

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
        for s in self.students.values():
            if not isinstance(s, dict) or "name" not in s or "file" not in s:
                raise DataError(f"{path}: a student without a name or a file")
            s.setdefault("code", make_personal_code())
        seed = data.get("seed")
        self.seed = (
            seed
            if isinstance(seed, int) and not isinstance(seed, bool)
            else secrets.randbelow(10**6)
        )
        kept = data.get("pace")
        pace: dict = kept if isinstance(kept, dict) else {}
        try:
            self._pace = Pace(
                mode="led" if pace.get("mode") == "led" else "self",
                lesson=str(pace.get("lesson") or ""),
                page=max(0, int(pace.get("page") or 0)),
                shown=max(0, int(pace.get("shown") or 0)),
                names=bool(pace.get("names")),
            )
        except (TypeError, ValueError):
            self._pace = Pace()
        self._save()

    def _save(self) -> None:
        from dataclasses import asdict

        from tutor.engine.atomic import write_atomic

        write_atomic(
            self.folder / self.FILE,
            json.dumps(
                {
                    "code": self.code,
                    "teacher": self.teacher_code,
                    "seed": self.seed,
                    "pace": asdict(self._pace),
                    "students": self.students,
                },
                indent=1,
            ),
            mode=0o600,
        )

    # -- the pace --------------------------------------------------------------------------

    @property
    def pace(self) -> Pace:
        """How the class is run now."""
        with self._lock:
            return self._pace

    def set_pace(self, **changes) -> Pace:
        """Change the pace (the :class:`Pace` fields given), kept in the class's file; the new
        pace.  Moving to another page hides its answers again."""
        from dataclasses import replace

        with self._lock:
            new = replace(self._pace, **changes)
            if (new.lesson, new.page) != (
                self._pace.lesson,
                self._pace.page,
            ) and "shown" not in changes:
                new = replace(new, shown=0)
            self._pace = new
            self._save()
            return new

    def page_for(self, lesson_id: str) -> int | None:
        """The page the teacher has the class on in ``lesson_id``, or None (self-paced, or the
        teacher leads another lesson)."""
        pace = self.pace
        return pace.page if pace.led and pace.lesson == lesson_id else None

    def code_ok(self, code: str) -> bool:
        """True when ``code`` (spaces and case aside) is the class's code."""
        typed = "".join(code.split()).upper()
        return secrets.compare_digest(typed.encode(), self.code.encode())

    def teacher_ok(self, code: str) -> bool:
        """True when ``code`` is the teacher's code."""
        return secrets.compare_digest(code.strip().encode(), self.teacher_code.encode())

    def name_taken(self, name: str) -> bool:
        """True when a student of the class has the name ``name`` already (case aside): a
        dashboard with two rows "Ann" tells the teacher nothing."""
        key = name.casefold()
        with self._lock:
            return any(str(s["name"]).casefold() == key for s in self.students.values())

    def join(self, name: str) -> tuple[str, Learner] | None:
        """A new student named ``name`` (checked by the caller): their token and learner; None
        when the class has :data:`MAX_STUDENTS` already."""
        token = secrets.token_urlsafe(18)
        with self._lock:
            files = {s["file"] for s in self.students.values()}
            if len(files) >= MAX_STUDENTS:
                return None
            file = f"students/{len(files) + 1:03d}.sqlite3"
            entry = {"name": name, "file": file, "code": make_personal_code()}
            self.students[_digest(token)] = entry
            self._save()
        return token, self._learner(entry)

    def _learner(self, s: dict) -> Learner:
        return Learner(str(s["name"]), self.folder / str(s["file"]), str(s["code"]))

    def learner(self, token: str) -> Learner | None:
        """The student whose token is ``token``, or None."""
        with self._lock:
            s = self.students.get(_digest(token))
        return None if s is None else self._learner(s)

    def resume(self, typed: str) -> tuple[str, Learner] | None:
        """A new token for the student whose personal code is ``typed`` (case, spaces and
        dashes aside), so they go on from another device; None when no student has it."""
        key = code_key(typed).encode()
        with self._lock:
            found = None
            for s in self.students.values():  # every code compared, in constant time each
                if secrets.compare_digest(code_key(str(s["code"])).encode(), key):
                    found = s
            if found is None or len(key) < 8:
                return None
            token = secrets.token_urlsafe(18)
            self.students[_digest(token)] = found
            self._save()
        return token, self._learner(found)

    def roster(self) -> list[tuple[str, Path]]:
        """Every student's name and progress file, in the order they joined (a student
        with a token on each of two devices once)."""
        with self._lock:
            files = {str(s["file"]): str(s["name"]) for s in self.students.values()}
        return [(name, self.folder / file) for file, name in files.items()]


def _environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(str(HERE / "templates")),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )


class WebApp:
    """The pages for one learner (``solo``: ``token`` opens their own progress ``store``) or a
    class (``room``).  :attr:`app` is the ASGI application; :meth:`close` ends every lesson in
    progress (what is answered is saved)."""

    def __init__(
        self, *, room: ClassRoom | None = None, store: Path | None = None, token: str | None = None
    ):
        self.room = room
        self.token = token or secrets.token_urlsafe(18)
        self.solo = (
            None if room is not None else Learner("", Path(store) if store else _default_store())
        )
        self.learners: dict[str, Learner] = {}
        self._by_file: dict[Path, Learner] = {}
        self._lock = threading.Lock()
        self.env = _environment()
        self.version = 0  # counts every change a teacher's page shows
        self._cache: dict[str, tuple[object, object]] = {}
        self._exports: dict[Path, tuple[tuple, object]] = {}
        self._index: list[CourseEntry] | None = None
        self._lessons: dict[str, object] = {}
        self._wrong_codes: dict[str, list[float]] = {}
        self.drills = Drills(self, read_form)  # the drills' pages: tutor/app/web/drills.py
        routes = [
            Route("/", self.home),
            Route("/favicon.ico", lambda request: Response(status_code=204)),
            Route("/join", self.join, methods=["POST"]),
            Route("/continue", self.resume, methods=["POST"]),
            Route("/teacher", self.teacher, methods=["GET", "POST"]),
            Route("/teacher/live", self.live),
            Route("/teacher/pace", self.set_pace, methods=["POST"]),
            Route("/teacher/report.csv", self.report_csv),
            Route("/teacher/report.html", self.report_html),
            Route("/teacher/progress/{n:int}.json", self.student_export),
            Route("/projector", self.projector),
            Route("/s/{token}/", self.course),
            Route("/s/{token}/progress.json", self.own_export),
            Route("/s/{token}/lesson/{lesson}", self.lesson, methods=["GET", "POST"]),
            Route("/s/{token}/lesson/{lesson}/v", self.lesson_version),
            Route("/s/{token}/lesson/{lesson}/again", self.again, methods=["POST"]),
            *self.drills.routes(),
            Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
        ]
        self.app = Starlette(routes=routes)
        self.app.add_middleware(_Headers)

    # -- learners --------------------------------------------------------------------------

    def learner(self, token: str) -> Learner | None:
        """The learner whose token is ``token`` (kept while the server runs), or None.  A
        learner first seen by this server changes the dashboard (no longer "not seen")."""
        with self._lock:
            if token in self.learners:
                return self.learners[token]
        found = self._learner_of(token)
        if found is not None:
            self.changed()
        return found

    def _learner_of(self, token: str) -> Learner | None:
        with self._lock:
            if token in self.learners:
                return self.learners[token]
            if self.solo is not None:
                found = (
                    self.solo
                    if secrets.compare_digest(token.encode(), self.token.encode())
                    else None
                )
            else:
                assert self.room is not None
                found = self.room.learner(token)
            if found is not None:  # one Learner a student, whichever device's token
                found = self._by_file.setdefault(found.store, found)
                self.learners[token] = found
            return found

    def index(self) -> list[CourseEntry]:
        """The course's lessons (read once: the files do not change while the server runs)."""
        if self._index is None:
            self._index = course_index()
        return self._index

    def lesson_of(self, lesson_id: str):
        """Lesson ``lesson_id`` read once (for the teacher's pages; each learner's runner
        reads its own)."""
        if lesson_id not in self._lessons:
            self._lessons[lesson_id] = open_lesson(lesson_id)
        return self._lessons[lesson_id]

    def changed(self) -> None:
        """Something a teacher's page shows changed (an answer, a page, a join)."""
        with self._lock:
            self.version += 1

    def _cached(self, key: str, make):
        """``make()``, made again only when :attr:`version` has moved since it was made."""
        v = self.version
        hit = self._cache.get(key)
        if hit is not None and hit[0] == v:
            return hit[1]
        value = make()
        self._cache[key] = (v, value)
        return value

    def close(self) -> None:
        """End every lesson and drill in progress."""
        with self._lock:
            learners = list(self.learners.values())
        for ln in learners:
            if ln.session is not None:
                ln.session.close()
        self.drills.close()

    # -- pages -----------------------------------------------------------------------------

    def render(self, template: str, status: int = 200, **values) -> HTMLResponse:
        """The page ``template`` with ``values`` (escaped)."""
        html = self.env.get_template(template).render(**values)
        return HTMLResponse(html, status_code=status)

    def missing(self, why: str = "This address opens nothing.") -> HTMLResponse:
        return self.render(
            "message.html.j2", 404, title="Not found", message=why, join=self.room is not None
        )

    async def home(self, request: Request) -> Response:
        if self.room is None:
            return self.render(
                "message.html.j2",
                404,
                title="Laugh and Lie Down",
                message="Open the address that laugh web printed: it holds "
                "the key to your progress.",
                join=False,
            )
        return self.render("join.html.j2", problem=None, name="", code="")

    async def join(self, request: Request) -> Response:
        if self.room is None:
            return self.missing()
        form = await read_form(request)
        code, name = str(form.get("code") or ""), " ".join(str(form.get("name") or "").split())
        problem = (
            None
            if self.room.code_ok(code)
            else "That is not this class's code: look again at the board."
        )
        problem = problem or name_problem(name)
        if not problem and self.room.name_taken(name):
            problem = (
                f"A student of this class is called {name} already: add an initial, or, if "
                "that is you, type your personal code below."
            )
        if problem:
            return self.render("join.html.j2", 400, problem=problem, name=name, code=code)
        joined = self.room.join(name)
        if joined is None:
            return self.render(
                "join.html.j2",
                403,
                problem="The class is full: ask your teacher.",
                name=name,
                code=code,
            )
        token, learner = joined
        with self._lock:
            self.learners[token] = self._by_file.setdefault(learner.store, learner)
        self.changed()
        return RedirectResponse(f"/s/{token}/", status_code=303)

    def course(self, request: Request) -> Response:
        token = request.path_params["token"]
        learner = self.learner(token)
        if learner is None:
            return self.missing("No learner has this address: join the class again.")
        led = self._led_entry()
        if led is not None:  # the teacher leads the class: to the lesson led
            return RedirectResponse(f"/s/{token}/lesson/{led.id}", status_code=303)
        entries = self.index()
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
        return self.render(
            "course.html.j2",
            token=token,
            rows=rows,
            name=learner.name,
            remember=self.room is not None,
            personal=learner.code,
            poll=f"/s/{token}/lesson/-/v" if self.room is not None else "",
            v=self._pace_version(),
        )

    def _entry(self, key: str) -> CourseEntry | None:
        return next((e for e in self.index() if e.id == key or str(e.number) == key), None)

    def _session(self, learner: Learner, entry: CourseEntry, again: bool = False) -> LessonSession:
        """The learner's session of ``entry``'s lesson: the one running, else a new one (the
        runner resumes the attempt in progress); another lesson's is ended first."""
        with learner.lock:
            s = learner.session
            if s is not None and s.lesson.id == entry.id and not again:
                return s
            if s is not None:
                s.close()
            room = self.room
            pace = None if room is None else (lambda: room.page_for(entry.id))
            # a class's students share the class's puzzles (taken again: fresh ones)
            seed = (
                room.seed
                if room is not None and not again and not _in_progress(learner.store, entry.id)
                else None
            )
            learner.session = LessonSession(
                open_lesson(entry.id), learner.store, seed=seed, pace=pace, changed=self.changed
            ).start()
            self.changed()
            return learner.session

    def _led_entry(self) -> CourseEntry | None:
        """The lesson the teacher leads the class through, or None (self-paced)."""
        if self.room is None:
            return None
        pace = self.room.pace
        return self._entry(pace.lesson) if pace.led else None

    def _pace_version(self) -> str:
        """What a student's page that follows no lesson waits on: the lesson led, if any."""
        led = self._led_entry()
        return f"led:{led.id}" if led is not None else "self"

    def lesson(self, request: Request) -> Response:
        token = request.path_params["token"]
        learner = self.learner(token)
        entry = self._entry(request.path_params["lesson"])
        if learner is None or entry is None:
            return self.missing()
        led = self._led_entry()
        if led is not None and led.id != entry.id:
            return RedirectResponse(f"/s/{token}/lesson/{led.id}", status_code=303)
        if request.method == "POST":
            return self._answer(request, learner, entry)
        try:
            session = self._session(learner, entry)
        except LaughError as exc:
            return self.render(
                "message.html.j2",
                500,
                title="This lesson cannot be opened",
                message=str(exc),
                join=False,
            )
        session.io.wait_ready(2.0)
        version = session.io.version
        items, prompt = session.io.screen()
        entries = self.index()
        nxt = next((e for e in entries if e.number == entry.number + 1), None)
        follow = self.room is not None or session.io.waiting  # a class follows its pace
        return self.render(
            "lesson.html.j2",
            token=token,
            entry=entry,
            items=items,
            prompt=prompt,
            done=prompt is None and session.io.finished,
            result=session.result,
            next=nxt,
            remember=self.room is not None,
            waiting=session.io.waiting,
            led=led is not None,
            poll=f"/s/{token}/lesson/{entry.id}/v" if follow else "",
            v=f"{version}:{self._pace_version()}",
        )

    def lesson_version(self, request: Request) -> Response:
        """``{"v": ...}``: what the learner's page waits on (a count of its changes and the
        class's pace), nothing of what it shows; a page whose ``v`` moved loads again."""
        learner = self.learner(request.path_params["token"])
        if learner is None:
            return JSONResponse({"v": None}, status_code=404)
        session = learner.session
        key = request.path_params["lesson"]
        here = session is not None and (
            session.lesson.id == key or key.isdigit() and str(session.lesson.number) == key
        )
        v = f"{session.io.version}:" if here and session is not None else ""
        if key == "-":
            v = ""
        return JSONResponse({"v": v + self._pace_version()})

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
        return RedirectResponse(
            f"/s/{request.path_params['token']}/lesson/{entry.id}", status_code=303
        )

    def own_export(self, request: Request) -> Response:
        """The learner's progress as a file ``laugh progress import`` takes."""
        learner = self.learner(request.path_params["token"])
        if learner is None:
            return self.missing()
        return self._export(learner.name, learner.store)

    def _export(self, name: str, path: Path) -> Response:
        from tutor.teaching.transfer import export_data

        with ProgressStore(path) as store:
            data = export_data(store, name or None)
        return Response(
            json.dumps(data, indent=1),
            media_type="application/json",
            headers={"Content-Disposition": _attachment(f"progress-{name or 'laugh'}.json")},
        )

    async def resume(self, request: Request) -> Response:
        """``POST /continue`` (``personal``): a student's personal code opens their progress
        on this device (a new token); a wrong code is said, and an address that types
        :data:`PERSONAL_TRIES` wrong ones in a minute waits."""
        if self.room is None:
            return self.missing()
        from tutor.app.clock import TerminalClock

        form = await read_form(request)
        who = request.client.host if request.client else "?"
        now = TerminalClock().now()  # the server's time, not a learner's
        with self._lock:
            if len(self._wrong_codes) > 10_000:
                self._wrong_codes.clear()
            recent = [t for t in self._wrong_codes.get(who, []) if now - t < 60]
            self._wrong_codes[who] = recent
        if len(recent) >= PERSONAL_TRIES:
            return self.render(
                "join.html.j2",
                429,
                problem=None,
                name="",
                code="",
                personal_problem="Too many wrong codes: wait a minute.",
            )
        found = self.room.resume(str(form.get("personal") or ""))
        if found is None:
            with self._lock:
                self._wrong_codes.setdefault(who, []).append(now)
            return self.render(
                "join.html.j2",
                400,
                problem=None,
                name="",
                code="",
                personal_problem="No student has that personal code: look "
                "again at your other device.",
            )
        token, learner = found
        self.learner(token)
        return RedirectResponse(f"/s/{token}/", status_code=303)

    # -- the teacher's pages ---------------------------------------------------------------

    def _teacher_key(self) -> str:
        """The teacher's cookie: a digest of the teacher's code (so it outlives a restart of
        the server, and the code itself is never sent again)."""
        import hmac

        assert self.room is not None
        return hmac.new(
            self.room.teacher_code.encode(), b"laugh teacher's page", hashlib.sha256
        ).hexdigest()

    def is_teacher(self, request: Request) -> bool:
        """True when the request carries the teacher's cookie."""
        if self.room is None:
            return False
        got = request.cookies.get(TEACHER_COOKIE, "")
        return secrets.compare_digest(got.encode(), self._teacher_key().encode())

    def _login(self, path: str, status: int = 200, problem: str | None = None) -> Response:
        return self.render("teacher.html.j2", status, board=None, problem=problem, path=path)

    async def teacher(self, request: Request) -> Response:
        if self.room is None:
            return self.missing()
        if request.method == "POST":
            form = await read_form(request)
            path = str(form.get("to") or "/teacher")
            path = path if path in ("/teacher", "/projector") else "/teacher"
            if not self.room.teacher_ok(str(form.get("code") or "")):
                return self._login(path, 403, "That is not the teacher's code.")
            r = RedirectResponse(path, status_code=303)
            r.set_cookie(
                TEACHER_COOKIE, self._teacher_key(), httponly=True, samesite="strict", path="/"
            )
            return r
        if not self.is_teacher(request):
            return self._login("/teacher")
        import anyio.to_thread

        board = await anyio.to_thread.run_sync(self.board)
        led = self._led_entry()
        return self.render(
            "teacher.html.j2",
            board=board,
            problem=None,
            path="/teacher",
            pace=self.room.pace,
            led=led,
            led_pages=len(self.lesson_of(led.id).pages) if led is not None else 0,
            lessons=self.index(),
            v=self.version,
            poll="/teacher/live",
        )

    async def live(self, request: Request) -> Response:
        """``{"v": N}``: the count of changes a teacher's page shows (the teacher's only)."""
        if not self.is_teacher(request):
            return JSONResponse({"v": None}, status_code=403)
        return JSONResponse({"v": self.version})

    async def set_pace(self, request: Request) -> Response:
        """``POST /teacher/pace`` (``do``: ``lead`` with ``lesson``, ``next``, ``back``,
        ``self``, ``show`` (the next puzzle's answers), ``hide`` (all of the page's),
        ``names``, ``nonames``; ``to``: the page to go back
        to): the teacher changes the class's pace, and every student's page follows."""
        if self.room is None:
            return self.missing()
        if not self.is_teacher(request):
            return self._login(
                "/teacher", 403, "Open the teacher's page with the teacher's code first."
            )
        form = await read_form(request)
        do = str(form.get("do") or "")
        pace = self.room.pace
        led = self._entry(pace.lesson) if pace.lesson else None
        pages = len(self.lesson_of(led.id).pages) if led is not None else 0
        if do == "lead":
            entry = self._entry(str(form.get("lesson") or ""))
            if entry is not None:
                self.room.set_pace(mode="led", lesson=entry.id, page=0, shown=0)
        elif do == "next" and pace.led:
            self.room.set_pace(page=min(pace.page + 1, pages))
        elif do == "back" and pace.led:
            self.room.set_pace(page=max(pace.page - 1, 0))
        elif do == "self":
            self.room.set_pace(mode="self")
        elif do == "show":
            self.room.set_pace(shown=pace.shown + 1)
        elif do == "hide":
            self.room.set_pace(shown=0)
        elif do in ("names", "nonames"):
            self.room.set_pace(names=do == "names")
        self._nudge()
        to = str(form.get("to") or "/projector")
        return RedirectResponse(
            to if to in ("/teacher", "/projector") else "/projector", status_code=303
        )

    def _nudge(self) -> None:
        """The pace changed: every runner waiting on it looks again."""
        self.changed()
        with self._lock:
            learners = list(self._by_file.values())
        for ln in learners:
            if ln.session is not None:
                ln.session.io.nudge()

    async def projector(self, request: Request) -> Response:
        if self.room is None:
            return self.missing()
        if not self.is_teacher(request):
            return self._login("/projector")
        import anyio.to_thread

        view = await anyio.to_thread.run_sync(self.projection)
        return self.render(
            "projector.html.j2",
            view=view,
            pace=self.room.pace,
            lessons=self.index(),
            v=self.version,
            poll="/teacher/live",
        )

    def projection(self) -> dict:
        """What the projector shows: the lesson led and its page (``entry``, ``page`` 1-based,
        ``pages``), and a :class:`tutor.app.web.live.Tally` for each puzzle of the page
        (empty while self-paced)."""
        return self._cached("projector", self._projection)

    def _projection(self) -> dict:
        from tutor.app.web import live

        assert self.room is not None
        pace = self.room.pace
        entry = self._entry(pace.lesson) if pace.led else None
        if entry is None:
            return {"entry": None, "page": 0, "pages": 0, "tallies": [], "here": 0}
        lesson = self.lesson_of(entry.id)
        students = self._students()
        tallies = [
            live.tally(h, p, students)
            for h, p in live.page_puzzles(lesson, pace.page, self.room.seed)
        ]
        here = sum(
            1
            for ln in self._live_learners()
            if ln.session is not None
            and ln.session.lesson.id == entry.id
            and ln.session.runner is not None
            and ln.session.runner.page_now == pace.page
        )
        return {
            "entry": entry,
            "page": pace.page + 1,
            "pages": len(lesson.pages),
            "tallies": tallies,
            "here": here,
            "sources": live.source_words,
            "question": live.question_text,
            "students": len(students),
        }

    def _live_learners(self) -> list[Learner]:
        with self._lock:
            return list(self._by_file.values())

    def _students(self) -> list[tuple[str, list, list]]:
        """Each student: name, the answers their store keeps, this server's tries."""
        assert self.room is not None
        live = {ln.store: ln for ln in self._live_learners()}
        out = []
        for name, path in self.room.roster():
            with ProgressStore(path) as store:
                answers = store.answers()
            ln = live.get(path)
            out.append((name, answers, ln.session.tries if ln and ln.session else []))
        return out

    def board(self):
        """The dashboard: ``report`` (``laugh class report``'s over every student's progress,
        None before anyone joined) and ``rows``: each student's name, where they are (lesson
        and page, or None) and whether they are stuck (:func:`tutor.app.web.live.stuck`)."""
        return self._cached("board", self._board)

    def _board(self) -> dict:
        from tutor.app.web import live

        assert self.room is not None
        learners = {ln.store: ln for ln in self._live_learners()}
        rows = []
        for name, path in self.room.roster():
            ln = learners.get(path)
            s = ln.session if ln is not None else None
            where, is_stuck, done = None, False, False
            if s is not None and s.runner is not None and (s.alive or s.io.finished):
                page = s.runner.page_now
                where = (s.lesson, None if page is None else page + 1, len(s.lesson.pages))
                is_stuck = live.stuck(s.tries)
                done = s.io.finished
            rows.append(
                {
                    "name": name,
                    "where": where,
                    "stuck": is_stuck,
                    "done": done,
                    # no lesson open on this server (or not seen since it started): where
                    # their store last had them
                    "last": self._last_place(path) if where is None else None,
                    "seen": ln is not None,
                    "drill": self.drills.doing(path),
                }
            )
        return {"report": self._grid(), "rows": rows}

    def _last_place(self, path: Path) -> tuple[CourseEntry, int | None, int] | None:
        """Where the student whose progress is at ``path`` last was, as their store keeps it
        (for a student not seen since this server started): the lesson they opened last, its
        page (1-based; None: at its end) and its number of pages; None before any lesson.
        (So a restart of the server does not make a class's students look idle.)"""
        with ProgressStore(path) as store:
            last = store.last_lesson()
            state = store.lesson_state(last) if last else None
        entry = self._entry(last) if last else None
        if entry is None or state is None:
            return None
        pages = len(self.lesson_of(entry.id).pages)
        return entry, (min(state.page, pages - 1) + 1 if state.in_progress else None), pages

    async def report_csv(self, request: Request) -> Response:
        """The class report as CSV (``laugh class report --csv``'s)."""
        if not self.is_teacher(request):
            return self._login("/teacher", 403)
        import anyio.to_thread

        from tutor.teaching.classreport import render_csv

        report = await anyio.to_thread.run_sync(self._grid)
        if report is None:
            return self.missing("No student has joined yet.")
        return Response(
            render_csv(report),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": _attachment("class-report.csv")},
        )

    async def report_html(self, request: Request) -> Response:
        """The class report as one printable HTML page (``laugh class report --html``'s)."""
        if not self.is_teacher(request):
            return self._login("/teacher", 403)
        import anyio.to_thread

        from tutor.teaching.classreport import render_html

        report = await anyio.to_thread.run_sync(self._grid)
        if report is None:
            return self.missing("No student has joined yet.")
        return Response(
            render_html(report),
            media_type="text/html; charset=utf-8",
            headers={"Content-Disposition": _attachment("class-report.html")},
        )

    async def student_export(self, request: Request) -> Response:
        """Student ``n`` (1-based, in the order they joined)'s progress, as a file ``laugh
        progress import`` takes."""
        if not self.is_teacher(request):
            return self._login("/teacher", 403)
        assert self.room is not None
        roster = self.room.roster()
        n = request.path_params["n"]
        if not 1 <= n <= len(roster):
            return self.missing()
        name, path = roster[n - 1]
        import anyio.to_thread

        return await anyio.to_thread.run_sync(self._export, name, path)

    def _grid(self):
        """The class report over every student's progress (as ``laugh class report`` makes it
        from their exports), made again only when a student joined or answered since."""
        assert self.room is not None
        roster = self.room.roster()
        keys = tuple((name, path, self._answers_key(name, path)) for name, path in roster)
        hit = self._cache.get("grid")
        if hit is not None and hit[0] == keys:
            return hit[1]
        report = self._make_grid()
        self._cache["grid"] = (keys, report)
        return report

    def _make_grid(self):
        from tutor.teaching.classreport import build_report

        assert self.room is not None
        exports = [
            (path.name, self._student_export(name, path)) for name, path in self.room.roster()
        ]
        return build_report(exports) if exports else None

    def _answers_key(self, name: str, path: Path) -> tuple:
        """What changes when the student's store has another answer: their lesson on this
        server and the tries it recorded, their drill and its answers."""
        ln = self._by_file.get(path)
        s = ln.session if ln is not None else None
        key = (name, s.serial, len(s.tries)) if s is not None else (name, None, 0)
        return key + self.drills.answers_key(path)

    def _student_export(self, name: str, path: Path):
        """The student's progress as their export reads (:func:`export_data` then
        :func:`parse_export`, as ``laugh class report`` reads the file), made again only when
        their lesson on this server has recorded another answer since."""
        from tutor.teaching.transfer import export_data, parse_export

        key = self._answers_key(name, path)
        hit = self._exports.get(path)
        if hit is not None and hit[0] == key:
            return hit[1]
        with ProgressStore(path) as store:
            data = export_data(store, name)
        export = parse_export(json.dumps(data), path.name)
        self._exports[path] = (key, export)
        return export


#: The teacher's cookie (HttpOnly, SameSite=Strict).
TEACHER_COOKIE = "laugh_teacher"


def _attachment(name: str) -> str:
    """A Content-Disposition that saves ``name`` (its unsafe characters made ``_``)."""
    import re

    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", name)[:80] or "download"
    return f'attachment; filename="{safe}"'


def _in_progress(store: Path, lesson_id: str) -> bool:
    """True when the store at ``store`` holds an attempt of ``lesson_id`` in progress."""
    with ProgressStore(store) as s:
        state = s.lesson_state(lesson_id)
    return state is not None and state.in_progress


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
