"""``laugh analyse FILE``: annotate a deal record with what each decision was worth in stakes."""

from __future__ import annotations

from tutor.app.analysis_view import Settings, analyse_deal, analysis_json, print_analysis
from tutor.app.commands._common import console, seat_type, seed_type, whole
from tutor.app.std_streams import echo, echo_json
from tutor.engine.analysis import LOSS_CLASSES, POLICIES
from tutor.engine.errors import LaughError, RecordError, UsageError
from tutor.engine.records import load_records, replay


def register(sub, parent) -> None:
    """Add the ``analyse`` subcommand."""
    thresholds = ", ".join(f"{name} {at:g}" for name, at in LOSS_CLASSES)
    p = sub.add_parser(
        "analyse",
        parents=[parent],
        help="what each decision of a deal was worth, in stakes",
        description="Annotate a deal record (RULES.md 9): for each decision of a player, every "
        "option's expected final result with a 95% interval (net stakes; points "
        "under pairs scoring), from that player's own view, by playing each option "
        "out many times over random placements of the unseen cards; the best "
        "option when its interval separates it from every other (else the options "
        "about equal, marked ≈); and the played option's loss, classed by its size "
        f"when its interval excludes zero (at least: {thresholds}).  Forced moves are "
        "skipped.  A hold is a free action (a claim, a declaration) left while the "
        "turn went on; a free action of the player to move is weighed on its timing, "
        '"now, then the turn action played" against "that turn action now, it '
        'later".',
        epilog="The figures are reproducible: the same record, seed, samples and policy give the "
        "same figures on any machine.",
    )
    p.add_argument("file", metavar="FILE", help="a deal record (.json), or JSON Lines of several")
    p.add_argument(
        "--seat",
        type=seat_type,
        default=None,
        metavar="S",
        help="analyse only this player's decisions (default: every player)",
    )
    p.add_argument(
        "--at",
        type=whole(0, 1_000_000, "an action index"),
        default=None,
        metavar="K",
        help="analyse only the decisions before action K (counting from 0)",
    )
    p.add_argument(
        "--policy",
        default="counter",
        metavar="P",
        help=f"the computer player that plays each option out: {', '.join(POLICIES)} "
        "(default %(default)s)",
    )
    p.add_argument(
        "--samples",
        type=whole(1, 1_000_000, "a number of samples"),
        default=4000,
        metavar="N",
        help="most random placements of the unseen cards per decision; each decision "
        "stops sooner once every difference is known to ±0.1 (default "
        "%(default)s)",
    )
    p.add_argument(
        "--seed", type=seed_type, default=0, metavar="S", help="seed (default %(default)s)"
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object per deal (JSON Lines) instead of text",
    )
    p.set_defaults(handler=run)


def run(args) -> int:
    """Annotate every record of ``args.file``; exit 0, or 1 for a bad record."""
    from tutor.engine.names import find_name

    args.policy = find_name(args.policy, POLICIES, "policy")
    records = list(load_records(args.file))
    if not records:
        raise LaughError(f"{args.file} holds no deal record")
    settings = Settings(policy=args.policy, seed=args.seed, samples=args.samples)
    out = console()
    err = console(stderr=True)
    status = 0
    for lineno, rec in records:
        try:
            if isinstance(rec, Exception):
                raise rec
            deal = replay(rec)
        except RecordError as exc:
            echo(f"laugh: {args.file}:{lineno}: {exc}", stderr=True)
            status = 1
            continue
        _check_range(deal, args)
        seats = None if args.seat is None else [args.seat]
        decisions = analyse_deal(deal, seats, args.at, settings, err, bar=not args.json)
        if args.json:
            echo_json(analysis_json(deal, decisions, settings), separators=(",", ":"))
        else:
            print_analysis(out, deal, decisions, settings, lineno if len(records) > 1 else None)
    return status


def _check_range(deal, args) -> None:
    """Raise UsageError when ``--seat`` or ``--at`` is outside ``deal``."""
    if args.seat is not None and not 0 <= args.seat < deal.n:
        raise UsageError(f"--seat must be a player from 0 to {deal.n - 1}")
    if args.at is not None and not 0 <= args.at < len(deal.history):
        raise UsageError(f"--at must be an action index from 0 to {len(deal.history) - 1}")
