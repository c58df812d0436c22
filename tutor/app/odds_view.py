"""``laugh odds``'s figures and pages: exact odds of the deal for each ruleset and player count
(:mod:`tutor.engine.odds`).  :func:`odds_rows` gives the figures (data), :func:`odds_json` them
for programs and :func:`odds_view` them as renderables laid out for a width; the command
(:mod:`tutor.app.commands.odds`) prints one or the other.
"""

from __future__ import annotations

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tutor.engine.odds import DealOdds, deal_odds, percent
from tutor.engine.sources import Library

__all__ = ["FIGURES", "TABLE_WIDTH", "odds_json", "odds_rows", "odds_view"]

FIGURES = ("table_mournival", "hand_prial", "hand_mournival", "hand_prial_or_mournival")
#: The narrowest console that gets the table (below it, a paragraph per deal).
TABLE_WIDTH = 78


def odds_rows(lib: Library, ruleset: str | None = None) -> list[DealOdds]:
    """The odds of every player count of ``ruleset`` (None: of every ruleset), by players, hand
    size and ruleset.  Raises UsageError for an unknown ruleset."""
    rulesets = (
        [lib.ruleset(ruleset)] if ruleset else [lib.rulesets[i] for i in sorted(lib.rulesets)]
    )
    return sorted(
        (deal_odds(rs, n) for rs in rulesets for n in rs.player_counts),
        key=lambda o: (o.players, o.hand, o.ruleset),
    )


def odds_json(rows: list[DealOdds]) -> list[dict[str, str | int]]:
    """``rows`` for JSON: each figure an exact fraction as a string (``"1/342"``)."""
    return [
        {
            "ruleset": o.ruleset,
            "players": o.players,
            "hand": o.hand,
            "table": o.table,
            **{k: str(getattr(o, k)) for k in FIGURES},
        }
        for o in rows
    ]


def odds_view(rows: list[DealOdds], width: int = 80) -> list[RenderableType]:
    """``rows`` as renderables laid out for ``width`` columns: a table (one row per player count
    and deal, with the rulesets that share it, which wrap between names within their column and
    never past the width), or below :data:`TABLE_WIDTH` columns a paragraph each; then what the
    figures mean."""
    groups: dict[tuple[int, int, int], list[DealOdds]] = {}
    for o in rows:
        groups.setdefault((o.players, o.hand, o.table), []).append(o)
    out: list[RenderableType] = []
    if width < TABLE_WIDTH:
        for (n, hand, table), os_ in groups.items():
            o = os_[0]
            head = Text(f"{n} players, {hand} each, {table} on the table", style="bold")
            head.append(f" ({', '.join(x.ruleset for x in os_)})", style="")
            out += [
                head,
                Text(f"  table mournival   {percent(o.table_mournival)}"),
                Text(f"  prial in hand     {percent(o.hand_prial)}"),
                Text(f"  mournival in hand {percent(o.hand_mournival, 3)}"),
                Text(f"  prial or better   {percent(o.hand_prial_or_mournival)}"),
            ]
    else:
        # No vertical rules: the rulesets column keeps room for its longest name at 80 columns.
        t = Table(
            title="Exact odds of the deal",
            title_justify="left",
            box=box.SIMPLE_HEAD,
            pad_edge=False,
            padding=(0, 1),
            collapse_padding=True,
        )
        for col in (
            "players",
            "hand/\ntable",
            "table\nmournival",
            "prial\nin hand",
            "mournival\nin hand",
            "prial or\nbetter",
        ):
            t.add_column(col, justify="right", no_wrap=True)
        t.add_column(
            "rulesets",
            justify="left",
            overflow="fold",
            ratio=1,
            min_width=max(len(o.ruleset) + 1 for o in rows),
        )
        for (n, hand, table), os_ in groups.items():
            o = os_[0]
            t.add_row(
                str(n),
                f"{hand}/{table}",
                percent(o.table_mournival),
                percent(o.hand_prial),
                percent(o.hand_mournival, 3),
                percent(o.hand_prial_or_mournival),
                ", ".join(x.ruleset for x in os_),
            )
        out.append(t)
    out.append(
        Text(
            "Prial: exactly three of a rank; prial or better: three or four. Hand figures "
            "are for one player's hand; the table figure is for the cards dealt face up."
        )
    )
    return out
