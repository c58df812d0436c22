"""``laugh odds``: exact odds of the deal for each ruleset and player count; the figures and
their pages are :mod:`tutor.app.odds_view`'s."""

from __future__ import annotations

from tutor.app.commands._common import console, ruleset_name
from tutor.app.odds_view import odds_json, odds_rows, odds_view
from tutor.app.std_streams import echo_json
from tutor.engine.sources import default_library


def register(sub, parent) -> None:
    """Add the ``odds`` subcommand."""
    p = sub.add_parser(
        "odds",
        parents=[parent],
        help="exact odds of the deal",
        description="Exact probabilities (fractions, shown as percentages) of a "
        "mournival among the table cards, and of a prial or a "
        "mournival in one player's hand.",
    )
    p.add_argument(
        "--ruleset", "-r", type=ruleset_name, metavar="R", help="one ruleset (default: all)"
    )
    p.add_argument("--json", action="store_true", help="exact fractions as JSON")
    p.set_defaults(handler=run)


def run(args) -> int:
    """Print the odds table (or, with ``--json``, the exact fractions)."""
    rows = odds_rows(default_library(), args.ruleset)
    if args.json:
        echo_json(odds_json(rows), indent=1)
        return 0
    out = console()
    for renderable in odds_view(rows, out.width):
        out.print(renderable)
    return 0
