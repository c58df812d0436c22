"""Runs many ``laugh`` commands, each in its own process, without paying for Python's start-up
and the tutor's imports every time: this process imports the tutor once, then forks a child
per command.  Each child sets up its file descriptors 0, 1 and 2 as a shell would (closed, the
null device, a pipe with typed input, ``/dev/full``, a pipe whose reader has gone, or a file),
builds ``sys.stdin``, ``sys.stdout`` and ``sys.stderr`` on them as CPython does at start-up
(``None`` for a closed descriptor; the encoding and error handler CPython chooses under the
run's environment, ``backslashreplace`` on standard error), runs :func:`tutor.app.cli.main` as ``python -m tutor``
does, flushes as the interpreter does at exit (status 120 if standard output cannot be flushed),
and exits with the status.

Protocol: one JSON request a line on standard input (``id``, ``argv``, ``condition``, ``home``,
``env``, ``typed``; optionally ``cwd``, ``timeout`` in seconds, and ``out``, the folder of its
output, default ``home``), until end of input; then one JSON result a line on standard output
(``id``, ``status``, ``seconds`` of wall time and ``cpu`` seconds), each as its child ends.  The
child's output is in ``out/stdout`` and ``out/stderr``.  Used by ``test_streams.py``, run as
``python stream_zygote.py [--serve-draws N]`` (N: the lesson seeds ``laugh lessons check`` draws
each puzzle block at, as the suite's own in-process runs do; default the program's 50), every
request at once, run side by side; and by ``tests/support.py``'s :func:`run_laugh`, as ``python
stream_zygote.py --serve``: one run at a time, each answered as it ends.
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import io
import json
import os
import pkgutil
import signal
import sys
import time
import traceback
import types

# Everything a command may need, imported once here (the children share it): every module of
# the tutor (a command's own imports, websockets, Starlette, Jinja2, numba among them), as a
# long-running interpreter would have them.
import tutor
import tutor.app.cli as cli
from tutor.engine import sources

for _mod in pkgutil.walk_packages(tutor.__path__, "tutor."):
    if not _mod.name.endswith("__main__"):
        importlib.import_module(_mod.name)

from tutor.app.markdown import parser as _markdown  # noqa: E402
from tutor.engine.analysis import fast  # noqa: E402
from tutor.puzzles.model import definition  # noqa: E402
from tutor.puzzles.registry import KINDS  # noqa: E402
from tutor.puzzles.themes import theme_table  # noqa: E402
from tutor.teaching import html  # noqa: E402
from tutor.teaching.lessons import course_index  # noqa: E402
from tutor.teaching.prose import _parser as _prose  # noqa: E402


def _warm() -> None:
    """What every command would load again otherwise and that depends on nothing a run sets
    (neither its folder nor its streams): the puzzle definitions, the themes, the Markdown
    parsers, the page templates compiled, numba's kernel loaded from its cache (each entry
    point called once), the library of sources of a learner's folder without sources of
    its own (what :func:`child` hands a run whose folder has none, see there), and the
    course's front matter parsed (:func:`course_index`; each run still reads the files, and
    parses a front matter again where its text differs)."""
    for kind in KINDS:
        definition(kind)
    theme_table()
    _markdown()
    _prose()
    env = html.environment()
    for name in env.list_templates():
        env.get_template(name)
    k = fast.kernel(wait=True)
    if k is not None:
        for warm in getattr(fast, "_WARM", {}).values():
            warm(k)
    sources.default_library()
    course_index()


_warm()
gc.freeze()  # the warm objects out of the collector's reach: a child copies fewer pages
#: The library of sources as :func:`tutor.engine.sources.default_library` read it here, with a
#: learner's folder that has no ``sources`` folder: a child whose folder has none, with the same
#: source texts, finds it in the library's cache.
LIBRARY = sources.default_library()

#: The variables gettext reads (argparse's words are translated as the parser is built), and
#: ``laugh``'s argument parser built here under them: a child whose environment gives them the
#: same values parses with it rather than building its own (the same parser: what the command
#: modules register depends on nothing else a run sets, its terminal's width included, since
#: help is laid out as it is shown); any other child builds its own.
_GETTEXT_ENV = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
PARSER = (tuple(os.environ.get(k) for k in _GETTEXT_ENV), cli.build_parser())

CHILD_SECONDS = 60  # a child still running after this is killed (SIGALRM)


def _std(fd: int, mode: str, encoding: str, errors: str):
    """The stream CPython makes for descriptor ``fd`` at start-up (None when it is closed)."""
    try:
        os.fstat(fd)
    except OSError:
        return None
    raw = open(fd, mode + "b", closefd=False)
    tty = raw.isatty()
    return io.TextIOWrapper(
        raw,
        encoding=encoding,
        errors=errors,
        newline="\n",
        line_buffering=tty or fd == 2,
        write_through=fd == 2,
    )


def _redirect(fd: int, path: str, flags: int) -> None:
    new = os.open(path, flags, 0o644)
    os.dup2(new, fd)
    os.close(new)


_LOCALE = ("PYTHONIOENCODING", "PYTHONUTF8", "LC_ALL", "LC_CTYPE", "LANG")
_stdio_seen: dict[tuple, tuple[str, str]] = {}


def _stdio(env: dict[str, str]) -> tuple[str, str]:
    """The encoding and error handler CPython gives standard input and output under ``env``
    (PYTHONIOENCODING, else the locale's: ``surrogateescape`` under a C locale), asked of a
    Python started with the variables that decide it, once for each set of them."""
    key = tuple(env.get(k) for k in _LOCALE)
    if key not in _stdio_seen:
        import subprocess

        probe = subprocess.run(
            [sys.executable, "-c", "import sys; print(sys.stdout.encoding, sys.stdout.errors)"],
            capture_output=True,
            text=True,
            check=True,
            env={k: v for k, v in zip(_LOCALE, key) if v is not None},
        )
        encoding, errors = probe.stdout.split()
        _stdio_seen[key] = (encoding, errors)
    return _stdio_seen[key]


def child(req: dict) -> None:
    """Become the command of ``req`` (never returns)."""
    status = 1
    try:
        seconds = req.get("timeout", CHILD_SECONDS)  # 0: none (a process left running)
        if seconds:
            signal.alarm(max(1, int(seconds)))
        os.environ.clear()
        os.environ.update(req["env"])
        if tuple(os.environ.get(k) for k in _GETTEXT_ENV) == PARSER[0]:
            cli.build_parser = lambda: PARSER[1]
        if req.get("cwd"):
            os.chdir(req["cwd"])
        home, cond = req["home"], req["condition"]
        out = req.get("out") or home  # where its standard output and error go
        # The library is cached on what it is read from (sources._cache_key): a learner's folder
        # without sources of its own (most runs' here) has the library this process read and
        # checked above, with the same source texts.
        if cond == "fds":  # given: 0, 1 and 2 are set up already
            pass
        elif cond == "stdin-closed":
            os.close(0)
        elif req.get("typed") is not None:
            r, w = os.pipe()
            data = req["typed"].encode("utf-8")
            if len(data) < 60_000:  # within the pipe's buffer
                os.write(w, data)
                os.close(w)
            else:  # a writer of its own, as a shell's would be
                import threading

                def feed(w=w, data=data):
                    try:
                        with open(w, "wb") as pipe:
                            pipe.write(data)
                    except OSError:  # the command stopped reading
                        pass

                threading.Thread(target=feed, daemon=True).start()
            os.dup2(r, 0)
            os.close(r)
        else:
            _redirect(0, os.devnull, os.O_RDONLY)
        if cond == "fds":
            pass
        elif cond == "stdout-closed":
            os.close(1)
        elif cond == "stdout-full":
            _redirect(1, "/dev/full", os.O_WRONLY)
        elif cond == "closed-pipe":  # the reader has gone before the first write
            r, w = os.pipe()
            os.close(r)
            os.dup2(w, 1)
            os.close(w)
        else:
            _redirect(1, os.path.join(out, "stdout"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        if cond != "fds":
            _redirect(2, os.path.join(out, "stderr"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        encoding, errors = req.get("stdio") or _stdio(req["env"])
        sys.stdin = sys.__stdin__ = _std(0, "r", encoding, errors)
        sys.stdout = sys.__stdout__ = _std(1, "w", encoding, errors)
        sys.stderr = sys.__stderr__ = _std(2, "w", encoding, "backslashreplace")
        sys.argv = [os.path.join(os.path.dirname(tutor.__file__), "__main__.py"), *req["argv"]]
        # ``__main__`` as ``python -m tutor`` has it (multiprocessing's spawned helpers, the
        # table's hint workers, read it: they start from it, never from this file)
        main = types.ModuleType("__main__")
        main.__spec__ = importlib.util.find_spec("tutor.__main__")
        main.__file__, main.__package__ = sys.argv[0], "tutor"
        sys.modules["__main__"] = main
        try:
            status = cli.main(req["argv"])
        except SystemExit as exc:  # as the interpreter ends on one
            status = exc.code
            if status is None:
                status = 0
            elif not isinstance(status, int):
                print(status, file=sys.stderr)
                status = 1
        except BaseException:  # noqa: BLE001 - as the interpreter would
            traceback.print_exc()
            status = 1
        for name in ("stdout", "stderr"):  # the interpreter's flush at exit
            stream = getattr(sys, name)
            if stream is None:
                continue
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - reported as CPython does
                if name == "stdout":
                    try:
                        print("Exception ignored on flushing sys.stdout:", file=sys.stderr)
                        traceback.print_exc()
                        sys.stderr.flush()
                    except Exception:  # noqa: BLE001
                        pass
                    status = 120
    finally:
        os._exit(status if isinstance(status, int) else 1)


def serve() -> int:
    """One request a line on standard input, one run at a time, its result line as it ends
    (``tests/support.py``'s :func:`run_laugh`); until end of input."""
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        sys.stdout.flush()
        req["stdio"] = _stdio(req["env"])
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            child(req)
        _, wait_status, usage = os.wait4(pid, 0)
        sys.stdout.write(
            json.dumps(
                {
                    "id": req["id"],
                    "status": os.waitstatus_to_exitcode(wait_status),
                    "seconds": round(time.monotonic() - started, 3),
                    "cpu": round(usage.ru_utime + usage.ru_stime, 3),
                }
            )
            + "\n"
        )
        sys.stdout.flush()
    return 0


def spawn(fd: int) -> int:
    """Processes started and left running (``tests/support.py``'s :class:`LaughProcess`): on
    the SOCK_SEQPACKET socket ``fd``, a request (JSON, with ``env``, ``argv``, ``cwd``; ``tty``
    true when the three are a terminal's, which becomes the process's controlling terminal in a
    session of its own, as a terminal emulator starts its command; ``timeout`` in seconds, 0
    none) carrying the descriptors of the new process's standard input, output and error is answered with its
    ``pid``; ``{"status": PID}`` with its exit status (None while it runs).  At the end of the
    socket (the test process gone), every process it started still running is killed."""
    import select
    import socket

    sock = socket.socket(fileno=fd)
    ended: dict[int, int] = {}
    living: set[int] = set()
    while True:
        ready, _, _ = select.select([sock], [], [], 0.05)
        while living:
            try:
                pid, wait_status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            living.discard(pid)
            ended[pid] = os.waitstatus_to_exitcode(wait_status)
        if not ready:
            continue
        data, fds, _, _ = socket.recv_fds(sock, 1 << 20, 3)
        if not data:
            for pid in living:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            return 0
        req = json.loads(data)
        if "status" in req:
            pid = req["status"]
            if pid in living:  # not yet reaped: ask once more now
                got, wait_status = os.waitpid(pid, os.WNOHANG)
                if got:
                    living.discard(pid)
                    ended[pid] = os.waitstatus_to_exitcode(wait_status)
            sock.send(json.dumps({"status": ended.get(pid)}).encode())
            continue
        sys.stdout.flush()
        stdio = _stdio(req["env"])  # asked here, once for each locale: a child cannot keep it
        pid = os.fork()
        if pid == 0:
            sock.close()
            for n, given in enumerate(fds):
                os.dup2(given, n)
            for given in fds:
                if given > 2:
                    os.close(given)
            if req.get("tty"):  # a terminal's: a session of its own, the terminal its own
                import fcntl
                import termios

                os.setsid()
                fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            child(
                {
                    **req,
                    "condition": "fds",
                    "home": "",
                    "stdio": stdio,
                    "timeout": req.get("timeout") or 0,
                }
            )
        for given in fds:
            os.close(given)
        living.add(pid)
        sock.send(json.dumps({"pid": pid}).encode())


def main() -> int:
    if sys.argv[1:2] == ["--serve"]:
        return serve()
    if sys.argv[1:2] == ["--spawn"]:
        return spawn(int(sys.argv[2]))
    if sys.argv[1:2] == ["--serve-draws"]:  # the suite's draws (tests/conftest.py), not 50
        from tutor.teaching.lessons import _course_checks

        _course_checks.SERVE_DRAWS = int(sys.argv[2])
    requests = [json.loads(line) for line in sys.stdin if line.strip()]
    limit = max(2, (os.cpu_count() or 2) + 1)
    running: dict[int, int] = {}
    started: dict[int, float] = {}
    queue = list(requests)
    while queue or running:
        while queue and len(running) < limit:
            req = queue.pop(0)
            req["stdio"] = _stdio(req["env"])
            sys.stdout.flush()
            pid = os.fork()
            if pid == 0:
                child(req)
            running[pid] = req["id"]
            started[pid] = time.monotonic()
        pid, wait_status, usage = os.wait3(0)
        rid = running.pop(pid)
        status = os.waitstatus_to_exitcode(wait_status)
        sys.stdout.write(
            json.dumps(
                {
                    "id": rid,
                    "status": status,
                    "seconds": round(time.monotonic() - started.pop(pid), 3),
                    "cpu": round(usage.ru_utime + usage.ru_stime, 3),
                }
            )
            + "\n"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
