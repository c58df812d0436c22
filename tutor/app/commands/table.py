"""``laugh table serve|join|watch``: live tables, where people play people (and computer
players) with claim races decided by the server's clock.

:func:`serve` starts the server (:mod:`tutor.app.tables.server`), :func:`join` a player's
terminal, :func:`watch` the organiser's view (:mod:`tutor.app.tables.client`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tutor.app.commands._common import add_ruleset_options, resolve, seed_type, whole
from tutor.engine.errors import UsageError
from tutor.engine.levels import LEVELS, level
from tutor.engine.limits import MAX_MATCH_DEALS

DEFAULT_PORT = 7470
DEFAULT_LEVEL = "casual"


def _seconds(high: float):
    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number of seconds") \
                from None
        if not 0 <= v <= high:
            raise argparse.ArgumentTypeError(f"{text[:20]} is not from 0 to {high:g} seconds")
        return v
    parse.__name__ = "a number of seconds"
    return parse


def register(sub, parent) -> None:
    """Add the ``table`` subcommand and its actions."""
    p = sub.add_parser("table", parents=[parent], help="live tables: people play people",
                       description="Live tables on a network: a server that referees every "
                                   "deal (claim races by its clock), players' terminals, and "
                                   "the organiser's view of every table.")
    tsub = p.add_subparsers(dest="table_command", metavar="ACTION")
    s = tsub.add_parser("serve", parents=[parent], help="start the tables' server",
                        description="Start one or more tables. Prints one line per table with "
                                    "the address and its join code, and the organiser's code. "
                                    "Computer players take the seats nobody takes; a person "
                                    "who joins takes a computer player's seat between deals. "
                                    "Ctrl-C or SIGTERM stops it after saving; --resume plays "
                                    "on from where it stopped.")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default "
                                                       "%(default)s: this machine only)")
    s.add_argument("--port", type=whole(0, 65535, "a port"), default=DEFAULT_PORT,
                   help="port (default %(default)s; 0 chooses a free one)")
    add_ruleset_options(s, default=None, shown="parlett")
    s.add_argument("--bots", default=None, metavar="LEVEL",
                   help=f"computer players: {', '.join(LEVELS)} (default {DEFAULT_LEVEL})")
    g = s.add_mutually_exclusive_group()
    g.add_argument("--deals", "-k", type=whole(1, MAX_MATCH_DEALS, "a number of deals"),
                   default=None, metavar="K", help="deals in each table's match")
    g.add_argument("--match", action="store_true",
                   help="the ruleset's match format (inter-livery-2018: two rounds of five "
                        "games, the first a practice game), else one round (the default)")
    s.add_argument("--tables", type=whole(1, 64, "a number of tables"), default=None,
                   metavar="T", help="tables at once (default 1)")
    s.add_argument("--hint", action="store_true", default=None,
                   help="let players ask for the best move (off by default)")
    s.add_argument("--wait", type=_seconds(3600), default=None, metavar="SEC",
                   help="seconds an absent player's turn waits before a computer player moves "
                        "for them (default 20)")
    s.add_argument("--pace", type=_seconds(60), default=None, metavar="SEC",
                   help="seconds before a computer player's move (default 1)")
    s.add_argument("--gap", type=_seconds(600), default=None, metavar="SEC",
                   help="seconds between deals (default 3)")
    s.add_argument("--start", type=_seconds(86400), default=None, metavar="SEC",
                   help="begin the first deal SEC seconds after the server starts, people or "
                        "not (default: --gap seconds after the first person takes a seat)")
    s.add_argument("--seed", type=seed_type, default=None, metavar="S",
                   help="seed for the cut, the deals and the computer players")
    s.add_argument("--dir", metavar="DIR", default=None,
                   help="where the server keeps its files (default: a new folder under "
                        "$LAUGH_HOME/tables; with --resume, the latest there)")
    s.add_argument("--resume", action="store_true",
                   help="play on the saved tables (the settings as saved)")
    s.add_argument("--exit-when-done", action="store_true",
                   help="stop once every table's match is over (else at Ctrl-C)")
    s.add_argument("--json", action="store_true",
                   help="print the address and codes as one JSON line (for scripts)")
    s.set_defaults(handler=run_serve)
    j = tsub.add_parser("join", parents=[parent], help="join a table as a player",
                        description="Join a table: the play screen, the claim key (space, at "
                                    "any moment, then name the cards), the review after each "
                                    "deal. Piped input works: one action a line, read at each "
                                    "of your turns; a claim line is sent as soon as it comes, "
                                    "whoever is to move.")
    j.add_argument("address", metavar="ADDRESS", help="the server's address (ws://host:port)")
    j.add_argument("code", metavar="CODE", help="the table's join code")
    j.add_argument("--name", required=True, help="your name at the table (1-24 characters)")
    j.add_argument("--token", default=None, help="the token a join gave, to take your seat "
                                                 "back")
    j.set_defaults(handler=run_join)
    w = tsub.add_parser("watch", parents=[parent], help="the organiser's view of every table",
                        description="Every table's state and the standings (never a hand "
                                    "while a deal is being played), as they change.")
    w.add_argument("address", metavar="ADDRESS", help="the server's address (ws://host:port)")
    w.add_argument("--admin", required=True, metavar="CODE", help="the organiser's code")
    w.add_argument("--once", action="store_true", help="print the state once and leave")
    w.set_defaults(handler=run_watch)
    p.set_defaults(handler=lambda args: (p.print_help(), 2)[1])


def _address(text: str) -> str:
    text = text.strip()
    if "://" not in text:
        text = "ws://" + text
    if not text.startswith(("ws://", "wss://")) or len(text) > 200:
        raise UsageError(f"{text[:60]!r} is not a table server's address (ws://host:port)")
    return text


def _folder(args) -> Path:
    from tutor.engine.data import laugh_home
    if args.dir:
        return Path(args.dir)
    base = laugh_home() / "tables"
    if args.resume:
        saved = sorted(p.parent for p in base.glob("*/server.json"))
        if not saved:
            raise UsageError(f"nothing to resume: no saved tables under {base}")
        return saved[-1]
    import time
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = base / stamp
    k = 1
    while folder.exists():
        k += 1
        folder = base / f"{stamp}-{k}"
    return folder


def run_serve(args) -> int:
    """The ``laugh table serve`` handler."""
    import asyncio
    import signal

    from tutor.app.tables.server import TableServer, load_state, new_code
    from tutor.app.tables.table import Settings, Table
    from tutor.engine.sources import default_library
    folder = _folder(args)
    if args.resume:
        given = [o for o, v in (("--ruleset", args.ruleset), ("--players", args.players),
                                ("--bots", args.bots), ("--deals", args.deals),
                                ("--tables", args.tables), ("--seed", args.seed),
                                ("--hint", args.hint), ("--wait", args.wait),
                                ("--pace", args.pace), ("--gap", args.gap),
                                ("--start", args.start)) if v is not None and v is not False]
        if args.match:
            given.append("--match")
        if given:
            raise UsageError(f"--resume plays on with the saved settings: leave out "
                             f"{', '.join(given)}")
        tables, admin, published = load_state(folder, default_library().rulesets)
    else:
        if (folder / "server.json").exists():
            raise UsageError(f"{folder} holds saved tables: --resume them, or choose another "
                             "--dir")
        rs, players = resolve(args.ruleset or "parlett", args.players)
        lv = level(args.bots or DEFAULT_LEVEL)
        if args.match or args.deals is None:
            deals = None
        else:
            deals = args.deals
        import random
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**6)
        settings = Settings(rs, players, lv, deals, bool(args.hint),
                            20.0 if args.wait is None else args.wait,
                            1.0 if args.pace is None else args.pace,
                            3.0 if args.gap is None else args.gap, 8.0, seed, args.start)
        from tutor.engine.match import plan_games
        plan_games(rs, players, 0, deals)       # a number of deals the format refuses: say so
        codes: set[str] = set()
        tables = []
        for n in range(1, (args.tables or 1) + 1):
            code = new_code()
            while code in codes:
                code = new_code()
            codes.add(code)
            tables.append(Table(n, code, settings))
        admin, published = new_code(), 0
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        from tutor.engine.outputs import cannot_write
        raise cannot_write(folder, exc) from None
    _log_to(folder / "server.log")
    server = TableServer(tables, admin, folder, published, exit_when_done=args.exit_when_done)
    stopped_by: list[int] = []

    def ready(srv: TableServer) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            def stop(sig=sig):
                stopped_by.append(sig)
                srv.stop()
            loop.add_signal_handler(sig, stop)
        if args.json:
            print(json.dumps({"address": srv.address, "admin": admin, "folder": str(folder),
                              "tables": [{"table": t.number, "code": t.code,
                                          "players": t.settings.players,
                                          "ruleset": t.settings.ruleset.id}
                                         for t in tables]}), flush=True)
            return
        s = tables[0].settings
        for t in tables:
            print(f"Table {t.number}: laugh table join {srv.address} {t.code} --name NAME   "
                  f"({s.ruleset.id}, {s.players} seats, computer players {s.level.name})")
        print(f"Organiser: laugh table watch {srv.address} --admin {admin}")
        print(f"Saving in {folder}; Ctrl-C stops the server after saving.", flush=True)

    asyncio.run(server.run(args.host, args.port, ready))
    if not args.json:
        print(f"Stopped; saved in {folder}.", flush=True)
    return 130 if stopped_by and stopped_by[0] == signal.SIGINT else 0


def _log_to(path: Path) -> None:
    import logging                      # the server only (start-up time)
    log = logging.getLogger("tutor.tables")
    log.setLevel(logging.INFO)
    log.propagate = False
    for h in list(log.handlers):
        log.removeHandler(h)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    ws_log = logging.getLogger("websockets")     # the library's own errors, in the same file
    ws_log.propagate = False
    ws_log.setLevel(logging.WARNING)
    ws_log.addHandler(handler)


def run_join(args, *, io=None) -> int:
    """The ``laugh table join`` handler."""
    from tutor.app.io import make_io
    from tutor.app.tables.client import join_table
    from tutor.app.tables.protocol import MAX_NAME
    name = " ".join(args.name.split())
    if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
        raise UsageError(f"--name: 1 to {MAX_NAME} printable characters")
    io = io or make_io()
    return join_table(io, _address(args.address), args.code, name, args.token)


def run_watch(args, *, io=None) -> int:
    """The ``laugh table watch`` handler."""
    from tutor.app.io import make_io
    from tutor.app.tables.client import watch_tables
    io = io or make_io()
    return watch_tables(io, _address(args.address), args.admin, once=args.once)


