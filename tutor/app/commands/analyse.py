"""``laugh analyse FILE``: annotate a deal record with what each decision was worth in stakes."""

from __future__ import annotations

from rich.text import Text

from tutor.app.commands._common import console, seat_type, seed_type, whole
from tutor.app.streams import echo, echo_json
from tutor.engine.analysis import LOSS_CLASSES, POLICIES, annotate, describe_option
from tutor.engine.errors import LaughError, RecordError, UsageError
from tutor.engine.records import load_records, replay

_CLASS_STYLE = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def register(sub, parent) -> None:
    """Add the ``analyse`` subcommand."""
    thresholds = ", ".join(f"{name} {at:g}" for name, at in LOSS_CLASSES)
    p = sub.add_parser(
        "analyse", parents=[parent], help="what each decision of a deal was worth, in stakes",
        description="Annotate a deal record (RULES.md 9): for each decision of a player, every "
                    "option's expected final result with a 95% interval (net stakes; points "
                    "under pairs scoring), from that player's own view, by playing each option "
                    "out many times over random placements of the unseen cards; the best "
                    "option when its interval separates it from every other (else the options "
                    "about equal, marked ≈); and the played option's loss, classed by its size "
                    f"when its interval excludes zero (at least: {thresholds}).  Forced moves are "
                    "skipped.  A hold is a free action (a claim, a declaration) left while the "
                    "turn went on; a free action of the player to move is weighed on its timing, "
                    "\"now, then the turn action played\" against \"that turn action now, it "
                    "later\".",
        epilog="The figures are reproducible: the same record, seed, samples and policy give the "
               "same figures on any machine.")
    p.add_argument("file", metavar="FILE", help="a deal record (.json), or JSON Lines of several")
    p.add_argument("--seat", type=seat_type, default=None, metavar="S",
                   help="analyse only this player's decisions (default: every player)")
    p.add_argument("--at", type=whole(0, 1_000_000, "an action index"), default=None, metavar="K",
                   help="analyse only the decisions before action K (counting from 0)")
    p.add_argument("--policy", default="counter", metavar="P",
                   help=f"the computer player that plays each option out: {', '.join(POLICIES)} "
                        "(default %(default)s)")
    p.add_argument("--samples", type=whole(1, 1_000_000, "a number of samples"), default=4000,
                   metavar="N",
                   help="most random placements of the unseen cards per decision; each decision "
                        "stops sooner once every difference is known to ±0.1 (default "
                        "%(default)s)")
    p.add_argument("--seed", type=seed_type, default=0, metavar="S", help="seed (default %(default)s)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object per deal (JSON Lines) instead of text")
    p.set_defaults(handler=run)


def run(args) -> int:
    """Annotate every record of ``args.file``; exit 0, or 1 for a bad record."""
    from tutor.engine.names import find_name
    args.policy = find_name(args.policy, POLICIES, "policy")
    records = list(load_records(args.file))
    if not records:
        raise LaughError(f"{args.file} holds no deal record")
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
        if args.seat is not None and not 0 <= args.seat < deal.n:
            raise UsageError(f"--seat must be a player from 0 to {deal.n - 1}")
        if args.at is not None and not 0 <= args.at < len(deal.history):
            raise UsageError(f"--at must be an action index from 0 to {len(deal.history) - 1}")
        seats = None if args.seat is None else [args.seat]
        decisions = _annotate(deal, seats, args, err)
        if args.json:
            echo_json(_to_json(deal, decisions, args), separators=(",", ":"))
        else:
            _print(out, deal, decisions, args, lineno if len(records) > 1 else None)
    return status


def _annotate(deal, seats, args, err):
    """Run the analysis, with a progress bar on a terminal."""
    if not err.is_terminal or args.json:
        return annotate(deal, seats, args.at, policy=args.policy, seed=args.seed,
                        samples=args.samples)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    with Progress(TextColumn("analysing decisions", markup=False), BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=err,
                  transient=True) as bar:
        task = bar.add_task("analyse", total=None)

        def progress(done, total):
            bar.update(task, completed=done, total=total)

        return annotate(deal, seats, args.at, policy=args.policy, seed=args.seed,
                        samples=args.samples, progress=progress)


def _unit(deal) -> str:
    return deal.ruleset.unit


def _to_json(deal, decisions, args) -> dict:
    summary = {}
    for q in range(deal.n):
        mine = [x for x in decisions if x.seat == q]
        summary[str(q)] = {"decisions": len(mine), "loss": round(sum(x.loss for x in mine), 4),
                           **{name: sum(1 for x in mine if x.verdict == name)
                              for name, _ in LOSS_CLASSES}}
    return {"ruleset": deal.ruleset.id, "players": deal.n, "dealer": deal.dealer,
            "unit": _unit(deal), "policy": args.policy, "seed": args.seed,
            "samples": args.samples, "target": 0.1,
            "decisions": [x.to_json() for x in decisions],
            "summary": summary}


def _count(k: int, name: str) -> str:
    """``1 mistake``, ``2 inaccuracies``."""
    if k == 1:
        return f"1 {name}"
    return f"{k} {name[:-1] + 'ies' if name.endswith('y') else name + 's'}"


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def _print(out, deal, decisions, args, lineno) -> None:
    unit = _unit(deal)
    where = f" (record at line {lineno})" if lineno else ""
    out.print(Text.assemble(
        (f"{deal.ruleset.id}, {deal.n} players, dealer {deal.dealer}{where}", "bold"),
        f": expected final result of each option in {unit}, ± 95% interval, each option "
        f"played out by {args.policy} players (seed {args.seed}, up to {args.samples} samples "
        "a decision); best: separated from every other option by the 95% intervals; ≈: not "
        "told apart from the best"))
    if not decisions:
        out.print("No decisions to analyse (every move was forced).")
        return
    for x in decisions:
        an = x.analysis
        played = describe_option(x.played)
        if x.played is None:
            played = f"Player {x.seat} holds (makes no free action before the next turn)"
        style = _CLASS_STYLE.get(x.verdict)
        loss = f"loss {x.loss:.2f} ± {x.loss_ci95:.2f}, " if x.loss > 0 else ""
        then = ""
        if an.then is not None:
            then = f", then {describe_option(an.then)}"
        out.print(Text.assemble("\n", (f"#{x.index}", "bold"), f" {played}{then}: {loss}",
                                (x.verdict, style or "")))
        best_group = an.best.group
        classes: dict[int, list] = {}
        for o in an.options:
            classes.setdefault(o.group, []).append(o)
        for group, members in classes.items():
            mine = [o for o in members if o.action == x.played]
            o = mine[0] if mine else members[0]
            mark = "→" if mine else " "
            if group == best_group:
                diff = "best" if an.separated else "≈ best"
            else:
                diff = f"{_signed(o.diff)} ± {o.diff_ci95:.2f}" + (" ≈" if not o.separated else "")
            more = len(members) - 1
            same = f" (+{more} alike but for suits)" if more else ""
            out.print(f"  {mark} {_signed(o.mean)} ± {o.ci95:.2f}  {diff:>14}  "
                      f"{describe_option(o.action)}{same}")
    out.print()
    for q in sorted({x.seat for x in decisions}):
        mine = [x for x in decisions if x.seat == q]
        counts = ", ".join(_count(sum(1 for x in mine if x.verdict == name), name)
                           for name, _ in LOSS_CLASSES)
        out.print(f"Player {q}: {_count(len(mine), 'decision')}, {counts}; expected loss "
                  f"{sum(x.loss for x in mine):.2f} {unit}")

