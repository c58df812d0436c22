"""``laugh simulate``: self-play studies between computer players (:func:`study_view` is the
summary it shows)."""

from __future__ import annotations

import json
from typing import Any

from rich.table import Table
from rich.text import Text

from tutor.app.commands._common import add_ruleset_options, console, positive_int, rate, resolve
from tutor.engine.bots import BOT_NAMES
from tutor.engine.errors import UsageError
from tutor.engine.records import write_records
from tutor.engine.simulate import Study, run_study, seat_names


def register(sub, parent) -> None:
    """Add the ``simulate`` subcommand."""
    p = sub.add_parser("simulate", parents=[parent], help="play many deals between computer players",
                       description="Play seeded deals between computer players and report, per "
                                   "seat relative to the dealer, the mean result with a 95% "
                                   "interval, how often each seat is last in, and the dealer's "
                                   "advantage.")
    add_ruleset_options(p)
    p.add_argument("--deals", "-k", type=positive_int, default=1000, metavar="K",
                   help="deals to play (default %(default)s)")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="seed (default %(default)s)")
    p.add_argument("--bots", default="willughby", metavar="NAMES",
                   help="computer players by seat, comma-separated: random, willughby, counter "
                        "(one name for all seats; default %(default)s)")
    p.add_argument("--mistakes", type=rate, default=0.0, metavar="P",
                   help="careless players' mistake rate from 0 to 1 (default 0)")
    p.add_argument("--records", metavar="FILE.jsonl", help="write every deal record here")
    p.add_argument("--workers", type=positive_int, default=1, metavar="W",
                   help="worker processes (results do not depend on it)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(handler=run)


def run(args) -> int:
    """Run a study and print its summary."""
    rs, players = resolve(args.ruleset, args.players)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    bad = [b for b in bots if b not in BOT_NAMES]
    if bad or not bots:
        raise UsageError(f"unknown computer player {bad[0] if bad else args.bots!r}; choose from "
                         f"{', '.join(BOT_NAMES)}")
    if len(bots) not in (1, players):
        raise UsageError(f"--bots names {len(bots)} players; give one name, or {players}")
    out = console()
    err = console(stderr=True)
    progress_cb = None
    bar = None
    if err.is_terminal and args.deals >= 2000 and not args.json:
        from rich.progress import Progress      # rich's progress bar: only on a terminal
        bar = Progress(console=err, transient=True)
        bar.start()
        task = bar.add_task(f"{rs.id}, {players} players", total=args.deals)
        progress_cb = lambda k: bar.advance(task, k)  # noqa: E731
    try:
        study, records = run_study(rs, players, args.deals, args.seed, bots, args.mistakes,
                                   args.workers, bool(args.records), progress_cb)
    finally:
        if bar is not None:
            bar.stop()
    if args.records:
        try:
            write_records(args.records, records)
        except OSError as exc:
            raise UsageError(f"cannot write {args.records}: {exc.strerror or exc}") from None
    if args.json:
        print(json.dumps(study.to_json(), indent=1))
        return 0
    for renderable in study_view(study, rs.id, players, args.deals, args.seed, bots,
                                 args.mistakes):
        out.print(renderable)
    if args.records:
        out.print(f"Wrote {len(records)} deal records to {args.records}")
    return 0


def study_view(study: Study, ruleset_id: str, players: int, deals: int, seed: int,
               bots: list[str], mistakes: float = 0.0) -> list[Any]:
    """A study's summary as renderables: per seat the mean result, its 95% interval and how
    often the seat is last in; the dealer's advantage with the verdict; the players."""
    unit = "net stakes" if study.scoring == "stakes" else "points"
    t = Table(title=f"{ruleset_id}, {players} players, {deals} deals, seed {seed}",
              title_justify="left")
    t.add_column("seat")
    t.add_column(f"mean {unit}", justify="right")
    t.add_column("95% ±", justify="right")
    t.add_column("last in", justify="right")
    for name, s in zip(seat_names(players), study.seats):
        t.add_row(name, f"{s.mean:+.3f}", f"{s.ci95:.3f}", f"{100 * s.last_in / s.n:.1f}%")
    a = study.advantage
    return [t,
            Text(f"Dealer's advantage: {a.mean:+.3f} ± {a.ci95:.3f} {unit} a deal over the mean "
                 f"of the others: {study.verdict()}."),
            Text(f"Players: {', '.join(bots)}"
                 + (f", careless at {mistakes:g}" if mistakes else ""))]
