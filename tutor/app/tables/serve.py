"""Serving live tables from a terminal (``laugh table serve``): the tables made or read back,
the server's log, its start lines (how to join, watch and organise; a QR code on a local
network) and its stop.

:func:`new_tables` and :func:`saved_tables` give the tables; :func:`serve` serves them until
the organiser stops the server or Ctrl-C.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tutor.app.std_streams import terminal_width as _width
from tutor.app.tables._guard import Limits
from tutor.app.tables.protocol import ADMIN_CODE
from tutor.app.tables.server import TableServer, load_state, new_code
from tutor.app.tables.table import Settings, Table


def tables_folder(given: str | None, resume: bool) -> Path:
    """Where a server keeps its tables: ``given`` (``--dir``) as it is; else, to resume, the
    newest folder of saved tables under ``LAUGH_HOME/tables`` (UsageError when there is
    none); else a new folder there named by the date and time (``20261128-213000``, then
    ``-2``, ``-3``... when it exists)."""
    import time

    from tutor.engine.data import laugh_home
    from tutor.engine.errors import UsageError

    if given:
        return Path(given)
    base = laugh_home() / "tables"
    if resume:
        saved = sorted(p.parent for p in base.glob("*/server.json"))
        if not saved:
            raise UsageError(f"nothing to resume: no saved tables under {base}")
        return saved[-1]
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = base / stamp
    k = 1
    while folder.exists():
        k += 1
        folder = base / f"{stamp}-{k}"
    return folder


def own_folder(folder: Path, resume: bool):
    """Take ``folder`` for this process alone (a lock, ``server.lock``, with this process's id
    beside it in ``server.pid``: :func:`tutor.app.owner.hold`), made 0700 when new; None with
    ``resume`` when there is no such folder (the resume says there is nothing to resume).
    Raises :class:`~tutor.app.owner.InUse` in one line naming the process that serves it
    already, and the LaughError of a folder that cannot be written."""
    from tutor.app.owner import hold
    from tutor.engine.outputs import cannot_write

    if resume and not folder.is_dir():
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        return hold(folder / "server.lock", f"the tables' folder {folder}")
    except OSError as exc:
        raise cannot_write(folder, exc) from None


def new_tables(settings: Settings, n_tables: int) -> tuple[list[Table], str, int]:
    """``n_tables`` new tables of ``settings``, each with its own code, the organiser's new
    code, and 0 (nothing published yet)."""
    codes: set[str] = set()
    tables = []
    for n in range(1, n_tables + 1):
        code = new_code()
        while code in codes:
            code = new_code()
        codes.add(code)
        tables.append(Table(n, code, settings))
    return tables, new_code(ADMIN_CODE), 0


def saved_tables(folder: Path) -> tuple[list[Table], str, int]:
    """The tables saved in ``folder`` (``server.json``), the organiser's code and how many
    results were published; raises the state reader's LaughError for a damaged file."""
    from tutor.engine.sources import default_library

    return load_state(folder, default_library().rulesets)


def serve(
    tables: list[Table],
    admin: str,
    published: int,
    folder: Path,
    *,
    host: str,
    port: int,
    as_json: bool,
    exit_when_done: bool,
    per_address: int,
    max_connections: int,
    origins: tuple[str, ...],
    proxy: bool = False,
) -> int:
    """Serve ``tables`` on ``host``:``port`` (saving in ``folder``, logging to its
    ``server.log``) until stopped; the start lines on standard output (one JSON object with
    ``as_json``). Returns 130 when stopped by Ctrl-C, else 0; raises LaughError when
    ``folder`` cannot be written."""
    import asyncio
    import signal

    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        from tutor.engine.outputs import cannot_write

        raise cannot_write(folder, exc) from None
    _log_to(folder / "server.log")
    limits = Limits(per_address=per_address, total=max_connections)
    server = TableServer(
        tables,
        admin,
        folder,
        published,
        exit_when_done=exit_when_done,
        limits=limits,
        pane=None if as_json else _pane,
        origins=origins,
        proxy=proxy,
    )
    stopped_by: list[int] = []

    def ready(srv: TableServer) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):

            def stop(sig=sig):
                stopped_by.append(sig)
                srv.stop()

            loop.add_signal_handler(sig, stop)
        address = srv.address
        assert address is not None  # listening by now
        if as_json:
            _start_json(address, tables, admin, folder)
        else:
            _start_lines(host, address, tables, admin, folder)

    asyncio.run(server.run(host, port, ready))
    if not as_json:
        _pane(f"Stopped; saved in {folder}.")
    return 130 if stopped_by and stopped_by[0] == signal.SIGINT else 0


def _start_json(address: str, tables: list[Table], admin: str, folder: Path) -> None:
    """The start as one JSON line: the address, the page, the organiser's code, the folder and
    each table's code, players, ruleset and seed."""
    from tutor.app.tables._web import page_address

    print(
        json.dumps(
            {
                "address": address,
                "page": page_address(address),
                "admin": admin,
                "folder": str(folder),
                "tables": [
                    {
                        "table": t.number,
                        "code": t.code,
                        "players": t.settings.players,
                        "ruleset": t.settings.ruleset.id,
                        "seed": t.match.seed,
                        "codes": t.codes(),
                    }
                    for t in tables
                ],
            }
        ),
        flush=True,
    )


def _start_lines(host: str, address: str, tables: list[Table], admin: str, folder: Path) -> None:
    """The start in words on the server's terminal: the settings, how to sit at each table,
    watch and organise, and where the tables are saved."""
    from tutor.app.tables._web import page_address
    from tutor.app.tables.protocol import spaced

    page = page_address(address)
    s = tables[0].settings
    clock = (
        f"{s.move_time:g} s a move, {s.reserve:g} s reserve a deal"
        if s.move_time
        else "no move clock"
    )
    _pane(
        f"{s.ruleset.id}, {s.players} seats a table, computer players {s.level.name}, "
        f"{clock}" + ("; duplicate: the same deals at every table" if s.duplicate else "") + "."
    )
    if isinstance(s.seed, int):  # chosen with --seed (or an older server's): public
        _pane(
            f"Seed {s.seed} chosen with --seed: the deals can be known by anyone who knows "
            "it (leave --seed out for a secret one)."
        )
    shared = _shared_page(host, address)
    where = "ws://" + shared.split("://", 1)[1].rstrip("/") if shared else address
    for t in tables:
        lead = t._first_dealer_name()
        _pane(f"Table {t.number}:" + (f" (first dealer {lead})" if lead else ""))
        _command(["laugh", "table", "join", where, t.code, "--name", "NAME"])
        _pane(f"In a browser: {shared or page}#{t.code}")
        for code in t.codes():  # given by the organiser, never taken by a name
            if code:
                _pane(
                    f"  {lead}'s seat (give it to them alone): seat code {spaced(code)}, "
                    f"or {shared or page}#{t.code}/{code}"
                )
    if shared:
        _pane(f"On the local network, scan to sit at table 1 ({shared}#{tables[0].code}):")
        _qr(f"{shared}#{tables[0].code}")
    _pane("Organiser:")
    _command(["laugh", "table", "watch", where, "--admin", admin])
    _pane(f"In a browser: {shared or page}admin (the organiser's code asked there)")
    if s.hold:
        _command(["laugh", "table", "admin", address, "start", "--admin", admin])
    _pane(f"Saving in {folder}; Ctrl-C stops the server after saving.")


def _shared_page(host: str, address: str) -> str | None:
    """The page's address to share on the local network when the server listens on every
    address (``0.0.0.0``, ``::``): this machine's address on its network (found by the route
    to a private address, nothing sent), else None."""
    import socket

    from tutor.app.tables._web import page_address

    if host not in ("0.0.0.0", "::", ""):
        return None
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # UDP: no packet leaves for a connect
            ip = s.getsockname()[0]
    except OSError:
        ip = socket.gethostname()
    return page_address(address, ip)


def _qr(text: str) -> None:
    """``text`` as a QR code on the server's terminal (segno), two rows of modules a line."""
    import io

    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    _print(out.getvalue().rstrip("\n"))


def _pane(text: str) -> None:
    """A line of words on the server's terminal, wrapped at spaces to its width (a word never
    broken); nothing at all when standard output is closed or full."""
    from tutor.app.std_streams import whole_word_lines

    width = _width()
    _print("\n".join(whole_word_lines(text, width)) if width else text)


def _command(words: list[str]) -> None:
    """A command on the server's terminal: one line where it fits, else continued lines a
    shell reads as one (:func:`~tutor.app.tables._link.shell_lines`); never a word broken."""
    from tutor.app.tables._link import shell_lines

    _print("\n".join(shell_lines(words, _width() or 10_000)))


def _print(text: str) -> None:
    """``text`` on the server's terminal, control characters escaped (a folder's name may hold
    any); nothing at all when standard output is closed or full."""
    import sys

    from tutor.engine.safetext import printable

    try:
        print(printable(text), flush=True)
    except (OSError, ValueError):
        try:
            sys.stdout = open(os.devnull, "w")  # never again: the server goes on
        except OSError:
            pass


def _log_to(path: Path) -> None:
    """The server's log (``server.log``): its own lines, the websockets library's and the
    asyncio loop's warnings, each one line (never a traceback), at most once a second for each
    message (:class:`~tutor.app.tables._guard.OneLine`), never on the terminal."""
    import logging  # the server only (start-up time)

    from tutor.app.tables._guard import OneLine

    try:  # only its owner reads it, as every file of the folder
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
        os.chmod(path, 0o600)
    except OSError:
        pass  # (the handler below says why it cannot be opened)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    handler.addFilter(OneLine())
    for name, level_ in (
        ("tutor.tables", logging.INFO),
        ("websockets", logging.WARNING),
        ("asyncio", logging.WARNING),
    ):
        lg = logging.getLogger(name)
        lg.setLevel(level_)
        lg.propagate = False
        for h in list(lg.handlers):
            lg.removeHandler(h)
        lg.addHandler(handler)
