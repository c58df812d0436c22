"""``laugh odds``: exact odds of the deal for each ruleset and player count."""

from __future__ import annotations

import json

from rich.table import Table

from tutor.app.commands._common import console
from tutor.engine.odds import deal_odds, percent
from tutor.engine.sources import default_library


def register(sub, parent) -> None:
    """Add the ``odds`` subcommand."""
    p = sub.add_parser("odds", parents=[parent], help="exact odds of the deal",
                       description="Exact probabilities (fractions, shown as percentages) of a "
                                   "mournival among the table cards, and of a prial or a "
                                   "mournival in one player's hand.")
    p.add_argument("--ruleset", "-r", metavar="R", help="one ruleset (default: all)")
    p.add_argument("--json", action="store_true", help="exact fractions as JSON")
    p.set_defaults(handler=run)


def run(args) -> int:
    """Print the odds table."""
    lib = default_library()
    ids = [lib.ruleset(args.ruleset).id] if args.ruleset else sorted(lib.rulesets)
    rows = sorted((deal_odds(lib.rulesets[i], n) for i in ids for n in lib.rulesets[i].player_counts),
                  key=lambda o: (o.players, o.hand, o.ruleset))
    if args.json:
        print(json.dumps([{"ruleset": o.ruleset, "players": o.players, "hand": o.hand,
                           "table": o.table,
                           **{k: str(getattr(o, k)) for k in ("table_mournival", "hand_prial",
                                                              "hand_mournival",
                                                              "hand_prial_or_mournival")}}
                          for o in rows], indent=1))
        return 0
    out = console()
    groups: dict[tuple[int, int, int], list] = {}
    for o in rows:
        groups.setdefault((o.players, o.hand, o.table), []).append(o)
    if out.width < 72:
        for (n, hand, table), os_ in groups.items():
            o = os_[0]
            out.print(f"[bold]{n} players, {hand} each, {table} on the table[/bold] "
                      f"({', '.join(x.ruleset for x in os_)})")
            out.print(f"  table mournival   {percent(o.table_mournival)}")
            out.print(f"  prial in hand     {percent(o.hand_prial)}")
            out.print(f"  mournival in hand {percent(o.hand_mournival, 3)}")
            out.print(f"  prial or better   {percent(o.hand_prial_or_mournival)}")
    else:
        t = Table(title="Exact odds of the deal", title_justify="left")
        for col in ("players", "hand/\ntable", "table\nmournival", "prial\nin hand",
                    "mournival\nin hand", "prial or\nbetter", "rulesets"):
            t.add_column(col, justify="left" if col == "rulesets" else "right",
                         overflow="fold", min_width=18 if col == "rulesets" else None)
        for (n, hand, table), os_ in groups.items():
            o = os_[0]
            t.add_row(str(n), f"{hand}/{table}", percent(o.table_mournival), percent(o.hand_prial),
                      percent(o.hand_mournival, 3), percent(o.hand_prial_or_mournival),
                      ", ".join(x.ruleset for x in os_))
        out.print(t)
    out.print("Prial: exactly three of a rank; prial or better: three or four. Hand figures are "
              "for one player's hand; the table figure is for the cards dealt face up.")
    return 0
