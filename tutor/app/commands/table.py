"""``laugh table serve|join|watch``: live tables, where people play people (and computer
players) with claim races decided by the server's clock.

:func:`serve` starts the server (:mod:`tutor.app.tables.server`), :func:`join` a player's
terminal, :func:`watch` the organiser's view (:mod:`tutor.app.tables.client`).
"""

from __future__ import annotations

import argparse

from tutor.app.commands._common import add_ruleset_options, seed_type, whole
from tutor.app.sessions import resolve
from tutor.engine.errors import UsageError
from tutor.engine.game import DEFAULT_RULESET
from tutor.engine.levels import LEVELS, level
from tutor.engine.limits import MAX_MATCH_DEALS

DEFAULT_PORT = 7470
DEFAULT_LEVEL = "casual"


def _seconds(high: float):
    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number of seconds") from None
        if not 0 <= v <= high:
            raise argparse.ArgumentTypeError(f"{text[:20]} is not from 0 to {high:g} seconds")
        return v

    parse.__name__ = "a number of seconds"
    return parse


def register(sub, parent) -> None:
    """Add the ``table`` subcommand and its actions."""
    p = sub.add_parser(
        "table",
        parents=[parent],
        help="live tables: people play people",
        description="Live tables on a network: a server that referees every "
        "deal (claim races by its clock), players' terminals, and "
        "the organiser's view of every table.",
    )
    tsub = p.add_subparsers(dest="table_command", metavar="ACTION")
    s = tsub.add_parser(
        "serve",
        parents=[parent],
        help="start the tables' server",
        description="Start one or more tables. Prints one line per table with "
        "the address and its join code, and the organiser's code. "
        "Computer players take the seats nobody takes; a person "
        "who joins takes a computer player's seat between deals. "
        "Ctrl-C or SIGTERM stops it after saving; --resume plays "
        "on from where it stopped.",
    )
    s.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default %(default)s: this machine only)",
    )
    s.add_argument(
        "--port",
        type=whole(0, 65535, "a port"),
        default=DEFAULT_PORT,
        help="port (default %(default)s; 0 chooses a free one)",
    )
    add_ruleset_options(s, default=None, shown=DEFAULT_RULESET)
    s.add_argument(
        "--bots",
        default=None,
        metavar="LEVEL",
        help=f"computer players: {', '.join(LEVELS)} (default {DEFAULT_LEVEL})",
    )
    g = s.add_mutually_exclusive_group()
    g.add_argument(
        "--deals",
        "-k",
        type=whole(1, MAX_MATCH_DEALS, "a number of deals"),
        default=None,
        metavar="K",
        help="deals in each table's match",
    )
    g.add_argument(
        "--match",
        action="store_true",
        help="the ruleset's match format (inter-livery-2018: two rounds of five "
        "games, the first a practice game), else one round (the default)",
    )
    s.add_argument(
        "--tables",
        type=whole(1, 64, "a number of tables"),
        default=None,
        metavar="T",
        help="tables at once (default 1)",
    )
    s.add_argument(
        "--hint",
        action="store_true",
        default=None,
        help="let players ask for the best move (off by default)",
    )
    s.add_argument(
        "--wait",
        type=_seconds(3600),
        default=None,
        metavar="SEC",
        help="seconds an absent player's turn waits before a computer player moves "
        "for them (default 20)",
    )
    s.add_argument(
        "--pace",
        type=_seconds(60),
        default=None,
        metavar="SEC",
        help="seconds before a computer player's move (default 1)",
    )
    s.add_argument(
        "--gap",
        type=_seconds(600),
        default=None,
        metavar="SEC",
        help="seconds between deals (default 3)",
    )
    s.add_argument(
        "--start",
        type=_seconds(86400),
        default=None,
        metavar="SEC",
        help="begin the first deal SEC seconds after the server starts, people or "
        "not (default: --gap seconds after its --people-th person sits)",
    )
    s.add_argument(
        "--seed",
        type=seed_type,
        default=None,
        metavar="S",
        help="a public seed every table's own seed is drawn from (the cut, the deals, "
        "the computer players): whoever knows it can know every deal; "
        "recorded in each table's match (default: a secret one, 128 bits)",
    )
    s.add_argument(
        "--duplicate",
        action="store_true",
        default=None,
        help="duplicate play: every table is dealt the same cards, a deal at a "
        "time (no table begins a deal before every table has finished the "
        "one before), and the standings compare each seat's results with "
        "those of the same cards at the other tables",
    )
    s.add_argument(
        "--move-time",
        type=_seconds(3600),
        default=None,
        metavar="SEC",
        help="seconds a player has for each move (default 30; 0: no clock); "
        "then the reserve runs, then a computer player moves for them",
    )
    s.add_argument(
        "--reserve",
        type=_seconds(3600),
        default=None,
        metavar="SEC",
        help="seconds of reserve a player has in each deal once a move's time is "
        "spent (default 120)",
    )
    s.add_argument(
        "--hints",
        type=whole(0, 1000, "a number of hints"),
        default=None,
        metavar="N",
        help="with --hint: hints a player may ask in a deal, at most one a turn (default 3)",
    )
    s.add_argument(
        "--people",
        type=whole(0, 52, "a number of people"),
        default=None,
        metavar="N",
        help="a table's first deal begins --gap seconds after its N-th "
        "person sits (default: every seat, --players; the "
        "organiser may start it sooner: laugh table admin "
        "ADDRESS start)",
    )
    s.add_argument(
        "--hold",
        action="store_true",
        default=None,
        help="each table waits for the organiser to start it (laugh table admin ADDRESS start)",
    )
    s.add_argument(
        "--first-dealer",
        action="append",
        default=None,
        metavar="NAME",
        help="the person who deals first at a table (the Team Leader), once a "
        "table in order: the first for table 1, the second for table 2; "
        "that seat is kept for them",
    )
    s.add_argument(
        "--max-connections",
        type=whole(8, 100_000, "a number of connections"),
        default=1000,
        metavar="N",
        help="connections at once, in all (default %(default)s; fewer if the "
        "system allows fewer open files)",
    )
    s.add_argument(
        "--per-address",
        type=whole(1, 100_000, "a number of connections"),
        default=50,
        metavar="N",
        help="connections from one address that have not joined yet (default "
        "%(default)s; beyond it its oldest is closed to make room)",
    )
    s.add_argument(
        "--origin",
        action="append",
        default=None,
        metavar="URL",
        help="a page's origin (https://host[:port]) whose browsers may sit at the "
        "tables besides this server's own pages: behind a TLS proxy that "
        "changes the host; once for each",
    )
    s.add_argument(
        "--proxy",
        action="store_true",
        help="the server is behind a proxy you run (a TLS proxy): each connection's "
        "address is the last its X-Forwarded-For header names, so the limits "
        "on connections and wrong codes apply to each player, not to the "
        "proxy (without it that header is ignored: anyone could write it)",
    )
    s.add_argument(
        "--dir",
        metavar="DIR",
        default=None,
        help="where the server keeps its files (default: a new folder under "
        "$LAUGH_HOME/tables; with --resume, the latest there)",
    )
    s.add_argument(
        "--resume", action="store_true", help="play on the saved tables (the settings as saved)"
    )
    s.add_argument(
        "--exit-when-done",
        action="store_true",
        help="stop once every table's match is over (else at Ctrl-C)",
    )
    s.add_argument(
        "--json",
        action="store_true",
        help="print the address and codes as one JSON line (for scripts)",
    )
    s.set_defaults(handler=run_serve)
    j = tsub.add_parser(
        "join",
        parents=[parent],
        help="join a table as a player",
        description="Join a table: the play screen, the claim key (space, at "
        "any moment, then name the cards), the review after each "
        "deal. Piped input works: one action a line, read at each "
        "of your turns; a claim line is sent as soon as it comes, "
        "whoever is to move.",
    )
    j.add_argument("address", metavar="ADDRESS", help="the server's address (ws://host:port)")
    j.add_argument("code", metavar="CODE", help="the table's join code")
    j.add_argument(
        "--name",
        default=None,
        help="your name at the table (1-24 characters; not needed with --seat-code)",
    )
    j.add_argument(
        "--token",
        "--seat-code",
        dest="token",
        default=None,
        metavar="CODE",
        help="your seat code (shown when you took the seat, or given by the "
        "organiser): it alone takes your seat back",
    )
    j.add_argument(
        "--livery",
        default=None,
        metavar="NAME",
        help="your club or livery company (on the score sheets and the standings)",
    )
    j.add_argument(
        "--tries",
        type=whole(0, 1000, "a number of tries"),
        default=20,
        metavar="N",
        help="times to reconnect when the connection drops, waiting "
        "longer each time (default %(default)s); then exit 1",
    )
    j.set_defaults(handler=run_join)
    w = tsub.add_parser(
        "watch",
        parents=[parent],
        help="the organiser's view of every table",
        description="Every table's state and the standings (never a hand "
        "while a deal is being played), as they change.",
    )
    w.add_argument("address", metavar="ADDRESS", help="the server's address (ws://host:port)")
    w.add_argument("--admin", required=True, metavar="CODE", help="the organiser's code")
    w.add_argument("--once", action="store_true", help="print the state once and leave")
    w.set_defaults(handler=run_watch)
    a = tsub.add_parser(
        "admin",
        parents=[parent],
        help="the organiser's commands",
        description="start: begin a table's first deal now (every waiting "
        "table without --table); release: a seat's code no longer "
        "takes it back, a new one does (said here: give it to the "
        "seat's person, for a lost code); empty: the seat's person "
        "leaves it, a computer player takes it and it is free for "
        "the next person.",
    )
    a.add_argument("address", metavar="ADDRESS", help="the server's address (ws://host:port)")
    a.add_argument(
        "action",
        choices=("start", "release", "empty"),
        metavar="ACTION",
        help="start, release or empty",
    )
    a.add_argument("--admin", required=True, metavar="CODE", help="the organiser's code")
    a.add_argument(
        "--table",
        type=whole(1, 64, "a table"),
        default=None,
        metavar="T",
        help="the table (1, 2, ...): start it alone, or release or empty a seat at it",
    )
    a.add_argument(
        "--seat",
        type=whole(0, 51, "a seat"),
        default=None,
        metavar="S",
        help="the seat to release or empty (0 is the first seat)",
    )
    a.set_defaults(handler=run_admin)
    p.set_defaults(handler=lambda args: (p.print_help(), 2)[1])


def _address(text: str) -> str:
    text = text.strip()
    if "://" not in text:
        text = "ws://" + text
    if not text.startswith(("ws://", "wss://")) or len(text) > 200:
        raise UsageError(f"{text[:60]!r} is not a table server's address (ws://host:port)")
    return text


def run_serve(args) -> int:
    """The ``laugh table serve`` handler: new tables from the options (or the saved ones with
    ``--resume``), served until stopped (:func:`tutor.app.tables.serve.serve`)."""
    from tutor.app.tables.serve import own_folder, tables_folder

    folder = tables_folder(args.dir, args.resume)
    held = own_folder(folder, args.resume)  # one process a folder (issue 41)
    try:
        return _serve(args, folder)
    finally:
        if held is not None:
            held.release()


def _serve(args, folder) -> int:
    from tutor.app.tables.serve import new_tables, saved_tables, serve

    if args.resume:
        given = _settings_given(args)
        if given:
            raise UsageError(
                f"--resume plays on with the saved settings: leave out {', '.join(given)}"
            )
        tables, admin, published = saved_tables(folder)
    else:
        if (folder / "server.json").exists():
            raise UsageError(f"{folder} holds saved tables: --resume them, or choose another --dir")
        n_tables = args.tables or 1
        tables, admin, published = new_tables(_settings(args, n_tables), n_tables)
    return serve(
        tables,
        admin,
        published,
        folder,
        host=args.host,
        port=args.port,
        as_json=args.json,
        exit_when_done=args.exit_when_done,
        per_address=args.per_address,
        max_connections=args.max_connections,
        origins=tuple(args.origin or ()),
        proxy=args.proxy,
    )


def _settings_given(args) -> list[str]:
    """The options that set a table's settings given in ``args`` (refused with ``--resume``)."""
    given = [
        o
        for o, v in (
            ("--ruleset", args.ruleset),
            ("--players", args.players),
            ("--bots", args.bots),
            ("--deals", args.deals),
            ("--tables", args.tables),
            ("--seed", args.seed),
            ("--hint", args.hint),
            ("--wait", args.wait),
            ("--pace", args.pace),
            ("--gap", args.gap),
            ("--start", args.start),
            ("--duplicate", args.duplicate),
            ("--move-time", args.move_time),
            ("--reserve", args.reserve),
            ("--hints", args.hints),
            ("--people", args.people),
            ("--hold", args.hold),
            ("--first-dealer", args.first_dealer),
        )
        if v is not None and v is not False
    ]
    if args.match:
        given.append("--match")
    return given


def _first_dealers(args, n_tables: int) -> tuple[str, ...]:
    """``--first-dealer``'s names, one a table in order; UsageError for too many or a bad one."""
    from tutor.app.tables.protocol import MAX_NAME

    leads = [" ".join(x.split()) for x in args.first_dealer or []]
    if len(leads) > n_tables:
        raise UsageError(
            f"--first-dealer: {len(leads)} names for {n_tables} "
            f"table{'s' if n_tables != 1 else ''} (one a table, in order)"
        )
    for x in leads:
        if not 1 <= len(x) <= MAX_NAME or not x.isprintable():
            raise UsageError(f"--first-dealer: 1 to {MAX_NAME} printable characters")
    return tuple(leads)


def _or(value, default):
    return default if value is None else value


def _settings(args, n_tables: int):
    """The tables' :class:`~tutor.app.tables.table.Settings` from the options (defaults for
    those left out; a secret seed when none is given); UsageError for a bad option."""
    from tutor.app.tables._state import secret_seed
    from tutor.app.tables.table import Settings
    from tutor.engine.match import plan_games

    rs, players = resolve(args.ruleset or DEFAULT_RULESET, args.players)
    lv = level(args.bots or DEFAULT_LEVEL)
    deals = None if args.match or args.deals is None else args.deals
    leads = _first_dealers(args, n_tables)
    seed = args.seed if args.seed is not None else secret_seed()
    settings = Settings(
        rs,
        players,
        lv,
        deals,
        bool(args.hint),
        _or(args.wait, 20.0),
        _or(args.pace, 1.0),
        _or(args.gap, 3.0),
        8.0,
        seed,
        args.start,
        move_time=_or(args.move_time, 30.0),
        reserve=_or(args.reserve, 120.0),
        hints=_or(args.hints, 3),
        people=_or(args.people, players),
        hold=bool(args.hold),
        duplicate=bool(args.duplicate),
        first_dealers=leads,
    )
    plan_games(rs, players, 0, deals)  # a number of deals the format refuses: say so
    return settings


def _name(text: str, what: str, most: int) -> str:
    name = " ".join(text.split())
    if not 1 <= len(name) <= most or not name.isprintable():
        raise UsageError(f"{what}: 1 to {most} printable characters")
    return name


def run_join(args, *, io=None) -> int:
    """The ``laugh table join`` handler."""
    from tutor.app.learner_io import make_io
    from tutor.app.tables.client import join_table
    from tutor.app.tables.protocol import MAX_LIVERY, MAX_NAME

    if args.name is None and args.token is None:
        raise UsageError(
            "--name: give your name at the table (or --seat-code, to take a seat back)"
        )
    name = _name(args.name, "--name", MAX_NAME) if args.name is not None else None
    livery = _name(args.livery, "--livery", MAX_LIVERY) if args.livery is not None else None
    io = io or make_io()
    return join_table(
        io, _address(args.address), args.code, name, args.token, livery=livery, tries=args.tries
    )


def run_watch(args, *, io=None) -> int:
    """The ``laugh table watch`` handler."""
    from tutor.app.learner_io import make_io
    from tutor.app.tables.client import watch_tables

    io = io or make_io()
    return watch_tables(io, _address(args.address), args.admin, once=args.once)


def run_admin(args, *, io=None) -> int:
    """The ``laugh table admin`` handler: one of the organiser's commands, its answer in one
    line (exit 1 when refused)."""
    from tutor.app.learner_io import make_io
    from tutor.app.tables.client import organise

    if args.action in ("release", "empty") and (args.table is None or args.seat is None):
        raise UsageError(f"{args.action}: name the seat with --table T --seat S")
    io = io or make_io()
    return organise(io, _address(args.address), args.admin, args.action, args.table, args.seat)
