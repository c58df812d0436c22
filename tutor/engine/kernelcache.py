"""The analysis kernel's compilation, started in the background when the program first starts
on a machine (not when the first analysis asks), and what is known of it without importing
numba: whether it is compiled, whether it is being compiled and how long that should take yet.

numba compiles the kernel (:mod:`tutor.engine.analysis.kernel`) once a machine, in about 30 s
on a laptop's core, and keeps it in its cache; later processes load it in a fraction of a
second.  :func:`start` (called by the command line before every command; a few stat calls when
the kernel is compiled) starts, where numba is installed and ``LAUGH_PURE_PYTHON`` is not set,
a compilation in a process of its own that outlives the command, writes nothing to the
terminal, and holds an exclusive lock (``flock``) on a lock file beside the stamp for as long
as it runs, so two starts never compile twice.  It compiles the analysis's entry point first
(``run_samples``) and writes the stamp after each entry point, so analyses use it as soon as
it is there; then self-play's (``selfplay``) and ``playout_state``.

Until then an analysis runs on the pure engine (the same figures, only slower), and
:func:`compiling` says how many seconds the compilation should take yet: the processor time the
last compilation on this machine took (kept beside the stamp), else :data:`COMPILE_SECONDS`,
less the processor time it has had, at the share of a processor it has been getting (a busy
machine compiles more slowly).

The stamp (``kernel-<key>.ready``, in ``NUMBA_CACHE_DIR`` or the user's cache folder) is keyed
by the kernel's source, numba's installation and Python's version, and lists numba's cache
index of each compiled entry point (a cache deleted by hand means compiling again).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: a lock file's age stands for the lock
    fcntl = None  # type: ignore[assignment]  # None stands for the module's absence

__all__ = [
    "COMPILE_SECONDS",
    "ENTRIES",
    "ENV_PURE",
    "announce",
    "compiling",
    "failed",
    "mark",
    "numba_here",
    "on_compiling",
    "ready",
    "release",
    "start",
    "stamp",
    "wait_for_others",
]

#: Set this environment variable (to any non-empty value) to run every analysis on the pure
#: engine, without the compiled kernel (nothing is compiled either).
ENV_PURE = "LAUGH_PURE_PYTHON"
#: The kernel's entry points, in the order they are compiled: the analysis's first.
ENTRIES = ("run_samples", "selfplay", "playout_state")
#: Processor seconds a compilation is expected to take on a machine that has never compiled
#: the kernel (the analysis's entry point; about 25-30 s on one core of a 2020s laptop).
COMPILE_SECONDS = 30.0
#: A lock file older than this is stale where there is no flock (not POSIX).
_STALE_SECONDS = 600

#: Seconds after a failed compilation before another is started.
_RETRY_SECONDS = 86400

_SOURCES = ("kernel.py", "kernel_random.py", "kernel_rules.py")
_ready_seen: set[tuple[str, str]] = set()  # (folder, entry point) found compiled here
_numba: bool | None = None  # numba importable (looked up once)
_notice = None  # told the seconds left, once: on_compiling
_announced = False


def numba_here() -> bool:
    """Whether the kernel can run here: numba importable (looked up, not imported) and
    :data:`ENV_PURE` not set."""
    global _numba
    if os.environ.get(ENV_PURE):
        return False
    if _numba is None:
        import importlib.util

        try:
            _numba = importlib.util.find_spec("numba") is not None
        except (ImportError, ValueError):
            _numba = False
    return _numba


def _folder() -> Path:
    where = os.environ.get("NUMBA_CACHE_DIR")
    if where:
        return Path(where)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("laugh-and-lie-down"))


_keys: list[str] = []  # the key, worked out once a process


def _key() -> str:
    """What the compiled kernel depends on: its source, numba's installation (where it is and
    when it was installed) and Python's version."""
    if not _keys:
        _keys.append(_work_out_key())
    return _keys[0]


def _work_out_key() -> str:
    import importlib.util

    here = Path(__file__).with_name("analysis")
    h = hashlib.sha256()
    for name in _SOURCES:
        h.update((here / name).read_bytes())
    try:
        spec = importlib.util.find_spec("numba")
        origin = spec.origin if spec is not None else None
        numba_id = f"{origin} {os.stat(origin).st_mtime_ns}" if origin else "-"
    except (ImportError, ValueError, OSError):
        numba_id = "?"
    h.update(f"stamp 3 {numba_id} {sys.version} {here.resolve()}".encode())
    return h.hexdigest()[:16]


def stamp() -> Path:
    """The stamp file of the kernel as it is now (see the module)."""
    return _folder() / f"kernel-{_key()}.ready"


def _lock_path() -> Path:
    return stamp().with_suffix(".lock")


def _seconds_path() -> Path:
    return _folder() / "kernel-compile-seconds"


def _failed_path() -> Path:
    return stamp().with_suffix(".failed")


def failed(why: str) -> None:
    """Note that a compilation failed (``why``): none is started again for a day."""
    try:
        from tutor.engine.atomic import write_atomic

        write_atomic(_failed_path(), why[:2000] + "\n")
    except OSError:
        pass


def _failed_lately() -> bool:
    try:
        return time.time() - os.stat(_failed_path()).st_mtime < _RETRY_SECONDS
    except OSError:
        return False


def _listed() -> dict[str, str]:
    """The entry points the stamp lists, with their cache index files (empty: no stamp)."""
    from tutor.engine.infile import open_input

    try:
        with open_input(stamp()) as fh:
            text = fh.read(65536).decode("utf-8", "replace")
    except OSError:
        return {}
    out = {}
    for line in text.splitlines()[1:]:
        name, _, path = line.partition(" ")
        if name in ENTRIES and path:
            out[name] = path
    return out


def ready(entries: Iterable[str] = ("run_samples",)) -> bool:
    """Whether the kernel's ``entries`` are compiled and in numba's cache (their index files
    still there)."""
    folder = str(_folder())
    if all((folder, e) in _ready_seen for e in entries):
        return True
    listed = _listed()
    ok = all(e in listed and os.path.exists(listed[e]) for e in entries)
    if ok:
        _ready_seen.update((folder, e) for e in entries)
    return ok


def mark(indexes: dict[str, str], seconds: float | None = None) -> None:
    """Write the stamp: ``indexes`` maps the entry points compiled to their cache index files;
    ``seconds`` (the processor seconds the analysis's entry point took to compile, the start of
    the process included) is kept for the next estimate."""
    try:
        path = stamp()
        path.parent.mkdir(parents=True, exist_ok=True)
        from tutor.engine.atomic import write_atomic

        write_atomic(
            path,
            "the analysis kernel is compiled and cached in:\n"
            + "".join(f"{name} {p}\n" for name, p in indexes.items()),
        )
        if seconds is not None:
            write_atomic(_seconds_path(), f"{seconds:.1f}\n")
    except OSError:
        pass


def _expected() -> float:
    from tutor.engine.infile import open_input

    try:
        with open_input(_seconds_path()) as fh:
            value = float(fh.read(64).decode("ascii", "replace").strip())
        if 0 < value < 3600:
            return value
    except (OSError, ValueError):
        pass
    return COMPILE_SECONDS


def compiling() -> float | None:
    """Seconds the compilation running now (in any process) should take yet, at least 1;
    None when none is running."""
    try:
        path = _lock_path()
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        import stat as _stat

        if not _stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError:
                held = True
            else:
                fcntl.flock(fd, fcntl.LOCK_UN)
                held = False
        else:
            held = time.time() - os.fstat(fd).st_mtime < _STALE_SECONDS
        if not held:
            return None
        try:
            words = os.read(fd, 64).split()
            started, pid = float(words[0]), int(words[1])
        except (OSError, ValueError, IndexError):
            started, pid = time.time(), None
        return _left(max(0.0, time.time() - started), pid)
    finally:
        os.close(fd)


def _left(elapsed: float, pid: int | None) -> float:
    """Seconds the compilation should take yet, ``elapsed`` seconds after it began in process
    ``pid``: by the processor time it has had and the share of a processor it gets (so a busy
    machine is counted in), where that can be read (Linux), else by the clock; at least 1."""
    need = _expected()
    used = _cpu_seconds(pid) if pid else None
    if used is None or elapsed < 1.0:
        return max(1.0, need - elapsed)
    share = min(1.0, max(0.05, used / elapsed))
    return max(1.0, (need - used) / share)


def _cpu_seconds(pid: int) -> float | None:
    """Processor seconds process ``pid`` has used (user and system), from ``/proc``; None where
    that cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:  # a file of the kernel's: no FIFO
            fields = fh.read(4096).rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def start() -> bool:
    """Start compiling the kernel in a background process, unless it is compiled, being
    compiled, or cannot run here (:func:`numba_here`); True when one was started.  Never
    raises (a folder that cannot be written: nothing is started, analyses run on the pure
    engine)."""
    try:
        if not numba_here() or ready(ENTRIES) or _failed_lately():
            return False
        return _spawn()
    except OSError:
        return False


def on_compiling(tell: Callable[[float], None]) -> None:
    """Have ``tell(seconds)`` called, once a process, when an analysis that could run on the
    kernel runs without it (or waits for it) while it is being compiled: ``seconds`` is how
    long the compilation should take yet (:func:`compiling`).  The command line says it in one
    line."""
    global _notice
    _notice = tell


def announce() -> None:
    """Tell :func:`on_compiling`'s listener how long the compilation running now should take
    yet (once a process; nothing when none is running)."""
    global _announced
    if _notice is None or _announced or not numba_here():
        return
    left = compiling()
    if left is None:
        return
    _announced = True
    _notice(left)


def _spawn() -> bool:
    path = _lock_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return False  # another process compiles it now
        elif time.time() - os.fstat(fd).st_mtime < _STALE_SECONDS and os.fstat(fd).st_size:
            return False
        if ready(ENTRIES):  # finished while this looked
            return False
        began = time.time()
        root = str(Path(__file__).resolve().parents[2])
        env = dict(
            os.environ,
            LAUGH_KERNEL_LOCK_FD=str(fd),
            PYTHONPATH=os.pathsep.join(
                [root] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
            ),
        )
        code = "from tutor.engine.analysis import fast; fast.compile_in_background()"
        child = subprocess.Popen(
            [sys.executable, "-c", code, str(path)],
            env=env,
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            pass_fds=(fd,),
            close_fds=True,
        )
        # when it began, and which process it is
        _rewrite(fd, f"{began:.3f} {child.pid}\n")
        return True
    finally:
        os.close(fd)  # the child's copy holds the lock


def _rewrite(fd: int, text: str) -> None:
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, text.encode())


def wait_for_others() -> int | None:
    """Block until no other process compiles the kernel, and hold the lock (a file
    descriptor, to pass to :func:`release`) so that none starts meanwhile; None where there is
    no flock or the lock file cannot be made."""
    if fcntl is None:
        return None
    try:
        path = _lock_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _rewrite(fd, f"{time.time():.3f} {os.getpid()}\n")
    except OSError:
        os.close(fd)
        return None
    return fd


def release(fd: int | None) -> None:
    """Release the lock :func:`wait_for_others` took."""
    if fd is not None:
        try:
            os.close(fd)
        except OSError:
            pass
