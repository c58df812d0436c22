"""``laugh web`` (the course in the learner's own browser, for their own progress) and ``laugh
class serve`` (a class takes the course in its browsers, joining by a short code): the pages of
:mod:`tutor.app.web`, served by uvicorn until Ctrl-C.

``laugh web`` listens on loopback (127.0.0.1) on a free port, and its address holds a token
from :mod:`secrets` (another user of the machine cannot open the learner's progress); it opens
the learner's browser unless ``--no-browser``.  ``laugh class serve`` listens on ``--host``
(0.0.0.0 for a classroom's network) and prints the join address, the class code and a QR code
(segno) to share, and the teacher's code for ``/teacher`` and ``/projector``; the class is
kept in ``--folder`` (default ``laugh_home()/class``), a progress file per student, and one
server at a time serves a folder.  ``--lead LESSON`` starts the class teacher-led on that
lesson's first page (else it is as it was left, self-paced at first).
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path

from tutor.app.commands._common import whole
from tutor.app.std_streams import echo, whole_word_lines
from tutor.app.std_streams import terminal_width as _width
from tutor.engine.errors import LaughError, UsageError

__all__ = ["register", "register_class_serve", "run_class_serve", "run_web", "serve"]


def register(sub, parent) -> None:
    """Add ``laugh web``."""
    p = sub.add_parser(
        "web",
        parents=[parent],
        help="take the course in your browser",
        description="Open the course in your own browser, for your own "
        "progress (the same as laugh keeps). The server listens "
        "on this computer only; Ctrl-C stops it, with everything "
        "answered saved.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default %(default)s: this computer only)",
    )
    p.add_argument(
        "--port", type=whole(0, 65535, "a port"), default=0, help="port (default: a free one)"
    )
    p.add_argument(
        "--no-browser",
        action="store_true",
        help="print the address only, without opening a browser",
    )
    p.set_defaults(handler=run_web)


def register_class_serve(actions, parent) -> None:
    """Add ``serve`` to the actions of ``laugh class``."""
    p = actions.add_parser(
        "serve",
        parents=[parent],
        help="serve the course to a class",
        description="Serve the course to a class: students open the "
        "address, type the class code and their name, and "
        "take the lessons in their browsers; their progress "
        "is kept here, one file each. The teacher's page "
        "(/teacher, with the teacher's code) shows the grid of "
        "laugh class report. Ctrl-C stops it.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default %(default)s: this computer only; "
        "0.0.0.0 for the classroom's network)",
    )
    p.add_argument(
        "--port", type=whole(0, 65535, "a port"), default=0, help="port (default: a free one)"
    )
    p.add_argument(
        "--folder",
        metavar="DIR",
        default=None,
        help="where the class is kept (default: the class folder of laugh's home)",
    )
    p.add_argument(
        "--lead",
        metavar="LESSON",
        default=None,
        help="start teacher-led: you move the whole class through LESSON (a number "
        "or id) page by page from /projector (default: self-paced, or as the "
        "class was left)",
    )
    p.set_defaults(handler=run_class_serve)


def _course() -> list:
    """The course's lessons (:func:`tutor.teaching.lessons.course_index`), imported when a
    class is served."""
    from tutor.teaching.lessons import course_index

    return list(course_index())


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``; LaughError in one line when it cannot be (the
    port taken, an address not this machine's)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise LaughError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def _address(host: str, sock: socket.socket) -> str:
    port = sock.getsockname()[1]
    shown = host if host not in ("0.0.0.0", "::", "") else _own_ip()
    return f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}"


def _own_ip() -> str:
    """This machine's address on its network (the route to a private address; nothing sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
    except OSError:
        return socket.gethostname()


def serve(web, sock: socket.socket, stopped: str) -> None:
    """Serve ``web`` (a :class:`tutor.app.web.server.WebApp`) on ``sock`` until Ctrl-C or
    SIGTERM; then end every lesson in progress (what is answered is saved) and say
    ``stopped``.  Ctrl-C passes on as ``KeyboardInterrupt`` (exit status 130)."""
    import uvicorn

    config = uvicorn.Config(web.app, log_level="warning", lifespan="off", access_log=False)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        web.close()
        sock.close()
        _say(stopped)


def _say(text: str) -> None:
    """A line of words for the person at the server's terminal: wrapped at spaces to its width
    (a word, an address or a code, is never broken: one wider than the line stands whole on a
    line of its own); one line as it is when standard output is not a terminal."""
    width = _width()
    for line in whole_word_lines(text, width) if width else [text]:
        echo(line)


def run_web(args) -> int:
    """``laugh web``: serve the learner's own course on loopback, open the browser."""
    from tutor.app.web.server import WebApp

    sock = _listen(args.host, args.port)
    web = WebApp()
    page = f"{_address(args.host, sock)}/s/{web.token}/"
    _say(f"The course is at {page}")
    _say("It opens your own progress: keep the address to yourself. Ctrl-C stops the server.")
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        _say(f"Listening on {args.host}: anyone on the network with the address can open it.")
    sys.stdout.flush()
    if not args.no_browser:
        import webbrowser

        try:
            webbrowser.open(page)
        except Exception:  # noqa: BLE001 - no browser: the address is printed
            _say("No browser could be opened: open the address above.")
    serve(web, sock, "Stopped; everything answered is saved.")
    return 0


def run_class_serve(args) -> int:
    """``laugh class serve``: print the join address, the class code and its QR code, and the
    teacher's code; serve until Ctrl-C."""
    import filelock

    from tutor.app.web.server import ClassRoom, WebApp
    from tutor.engine.data import laugh_home

    folder = Path(args.folder) if args.folder else laugh_home() / "class"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(
            f"the class folder {folder} cannot be made ({exc.strerror or exc})"
        ) from None
    lock = filelock.FileLock(str(folder / ".serve.lock"))
    try:
        lock.acquire(timeout=0)
    except filelock.Timeout:
        raise LaughError(f"another server is serving the class in {folder}") from None
    try:
        room = ClassRoom(folder)
        if args.lead is not None:
            entry = next((e for e in _course() if args.lead in (e.id, str(e.number))), None)
            if entry is None:
                raise UsageError(f"no lesson {args.lead!r}: laugh lessons list shows them")
            room.set_pace(mode="led", lesson=entry.id, page=0)
        sock = _listen(args.host, args.port)
        web = WebApp(room=room)
        join = _address(args.host, sock) + "/"
        _say(f"Students open {join} and type the class code {room.code} and their name.")
        if args.host in ("127.0.0.1", "localhost", "::1"):
            _say("(This computer only: serve with --host 0.0.0.0 for the classroom's network.)")
        else:
            _say("Or scan:")
            _qr(join)
        _say(
            f"Teacher's page: {join}teacher with the teacher's code {room.teacher_code} "
            "(keep it to yourself); the projector: {join}projector.".replace("{join}", join)
        )
        pace = room.pace
        led = next((e for e in _course() if e.id == pace.lesson), None) if pace.led else None
        _say(
            f"Teacher-led: lesson {led.number}, {led.title}, page {pace.page + 1}; move the "
            "class from the projector."
            if led is not None
            else "Self-paced: each student at their own page (lead the class from the teacher's "
            "page)."
        )
        _say(f"The class is kept in {folder}. Ctrl-C stops the server.")
        sys.stdout.flush()
        serve(web, sock, f"Stopped; every student's answers are saved in {folder}.")
    finally:
        lock.release()
    return 0


def _qr(text: str) -> None:
    """``text`` as a QR code on the terminal (segno), two rows of modules a line."""
    import io

    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    echo(out.getvalue().rstrip("\n"))
