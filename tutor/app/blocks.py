"""The engine blocks of a lesson as rich renderables: every figure comes from the engine.

- ``quote``: each quotation verbatim, with its citation and where it stands in the source.
- ``rules``: chosen parameters side by side across rulesets, each marked read or chosen where
  the source does not state it (stacked instead of a table when the console is narrow).
- ``odds``: exact odds of the deal (:mod:`tutor.engine.odds`).
- ``simulate``: the dealer's advantage from seeded self-play (:func:`tutor.engine.simulate.run_study`),
  cached on disk by its parameters and a fingerprint of the engine's code; with ``skill``, the
  expert seat's gain per ruleset from precomputed figures (:mod:`tutor.teaching.figures`).
- ``cards``: labelled rows of cards.
- ``records``: the records of the game from the source files, in date order
  (:func:`tutor.teaching.blockdata.records_view`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from tutor.app.fit import FitTable
from tutor.engine.errors import DataError
from tutor.puzzles.board import cards_text
from tutor.puzzles.quoted import quote_text
from tutor.teaching.blockdata import (
    RULES_CAPTION,
    RecordView,
    odds_percent,
    odds_rows,
    odds_sentence,
    parameter_label,
    parameter_value,
    records_summary,
    records_view,
    ruleset_name,
    simulate,
    simulate_sentence,
    skill_table,
)
from tutor.teaching.figures import skill_figures
from tutor.teaching.lessons import (
    ODDS_FIGURES,
    Block,
    CardsData,
    OddsData,
    QuoteData,
    RecordsData,
    RulesData,
    SimulateData,
    SkillData,
)
from tutor.teaching.prose import cards_in_text

__all__ = [
    "RENDERERS",
    "odds_rows",
    "odds_sentence",
    "parameter_label",
    "parameter_value",
    "record_lines",
    "records_grid",
    "render_block",
    "simulate",
    "simulate_sentence",
]


def render_block(block: Block, ctx, width: int | None = None):
    """The renderable for a non-puzzle ``block`` (puzzles are posed by the runner).

    ``ctx`` is a :class:`tutor.app.context.Context` (for the library, symbols and glyphs).  Raises
    :class:`tutor.engine.errors.DataError` for a kind of block it does not know.
    """
    width = width or ctx.width
    fn = RENDERERS.get(block.kind)
    if fn is None:
        raise DataError(f"a {block.kind!r} block cannot be shown (known: {', '.join(RENDERERS)})")
    return fn(block, ctx, width)


# --------------------------------------------------------------------------------------------
# quote


def render_quote(data: QuoteData, ctx, width: int):
    """Each quotation of ``data["refs"]`` verbatim in quotation marks, its markup rendered
    (:func:`tutor.puzzles.quoted.quote_text`), then ``— citation (where)``."""
    lib = ctx.library
    parts = []
    open_q, close_q = ("“", "”") if ctx.symbols else ('"', '"')
    for ref in data["refs"]:
        q = lib.quotation(ref)
        body = Text(open_q, style="italic")  # the quotation's own markup, rendered
        body.append_text(quote_text(q.text, style="italic"))
        body.append(close_q, style="italic")
        cite = Text(f"{ctx.glyphs.dash} {q.citation}; {q.where}", style="dim")
        parts.append(Padding(Group(body, Padding(cite, (0, 0, 0, 2))), (0, 0, 0, 2)))
    return Group(*parts)


# --------------------------------------------------------------------------------------------
# rules


def render_rules(data: RulesData, ctx, width: int):
    """A table of ``data["parameters"]`` (rows) across ``data["rulesets"]`` (columns); per-count
    parameters for ``data["players"]``.  Values a source does not state are marked."""
    lib = ctx.library
    rids, params, players = data["rulesets"], data["parameters"], data["players"]
    caption = RULES_CAPTION
    if players is not None:
        caption = f"Per-player figures for {players} players. " + caption
    rows = [
        [Text(parameter_label(p), style="bold")]
        + [_value_text(*parameter_value(lib, rid, p, players)) for rid in rids]
        for p in params
    ]
    names = [ruleset_name(lib, rid) for rid in rids]  # never the id: a word of ours
    table = FitTable([""] + names, rows, wrap=range(len(rids) + 1), lines=True)
    if table.laid_out(width) is not None:  # every ruleset's name above its column
        return Group(table, Text(caption, style="dim"))
    parts: list[Text | Table] = []
    for p in params:
        parts.append(Text(parameter_label(p), style="bold"))
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=1)  # the indent, kept on every line
        grid.add_column(max_width=max(12, width // 2))  # a long name wraps, never cut
        grid.add_column(ratio=1)
        for rid, name in zip(rids, names, strict=True):
            grid.add_row(
                "", Text(name, style="dim"), _value_text(*parameter_value(lib, rid, p, players))
            )
        parts.append(grid)
    parts.append(Text(caption, style="dim"))
    return Group(*parts)


def _value_text(text: str, status: str):
    t = Text(text)
    if status in ("read", "chosen"):
        t.append(f" ({status})", style="dim italic")
    return t


# --------------------------------------------------------------------------------------------
# odds


def render_odds(data: OddsData, ctx, width: int):
    """A sentence for a single figure, else a table (rows: ruleset and players)."""
    rows = odds_rows(data, ctx.library)
    if len(rows) == 1 and len(data["figures"]) == 1:
        return Text(odds_sentence(rows[0], data["figures"][0]), style="bold")
    t = Table(title="Exact odds (from the engine)", title_justify="left")
    t.add_column("ruleset", overflow="fold")
    t.add_column("players", justify="right")
    t.add_column("hand / table", justify="right")
    for f in data["figures"]:
        t.add_column(ODDS_FIGURES[f], justify="right", overflow="fold")
    for r in rows:
        t.add_row(
            r["name"],
            str(r["players"]),
            f"{r['hand']} / {r['table']}",
            *[odds_percent(r[f]) for f in data["figures"]],
        )
    return t


# --------------------------------------------------------------------------------------------
# simulate


def render_simulate(data: SimulateData | SkillData, ctx, width: int):
    """The per-seat table and the dealer's-advantage sentence of a simulated study (with
    ``skill``: :func:`render_skill`)."""
    if "skill" in data:
        return render_skill(data, ctx, width)
    result = None
    console = ctx.console
    if console.is_terminal:
        with console.status(f"Dealing {data['deals']:,} deals…"):
            result = simulate(data, ctx.library)
    else:
        result = simulate(data, ctx.library)
    unit = "stakes" if result["measure"] == "net stakes" else "points"
    name = ruleset_name(ctx.library, result["ruleset"])
    title = Text(
        f"{name}, {result['players']} players: mean {unit} a deal, by seat", style="italic"
    )
    t = Table()
    t.add_column("seat")
    t.add_column("mean", justify="right")
    t.add_column("±", justify="right")
    t.add_column("last in", justify="right")
    for s in result["seats"]:
        t.add_row(
            s["seat"], f"{s['mean']:+.2f}", f"{s['ci95']:.2f}", f"{100 * s['last_in_rate']:.0f}%"
        )
    return Group(title, t, Text(simulate_sentence(result, name), style="bold"))


def render_skill(data: SkillData, ctx, width: int):
    """The expert seat's gain per ruleset over each opponent's seat, from the precomputed
    figures (:func:`tutor.teaching.figures.skill_figures`: read, never computed, so the lesson
    opens at once), shown as ``laugh simulate --skill`` shows them."""
    figures = skill_figures(
        data["skill"], data["deals"], data["seed"], data["samples"], data["rulesets"]
    )
    return Group(
        *skill_view(
            figures,
            {r["ruleset"]: ruleset_name(ctx.library, r["ruleset"]) for r in figures["rows"]},
        )
    )


def skill_view(figures: dict, names: dict[str, str] | None = None) -> list[RenderableType]:
    """A ``--skill`` run's figures (:func:`tutor.engine.simulate.skill_json`) as renderables:
    per ruleset, the expert seat's gain per deal over each opponent's seat with its 95%
    interval; a note on the method.  Also used by the lessons' ``simulate`` block with
    ``skill``; ``names``: ruleset id -> the name shown, there)."""
    tab = skill_table(figures, names)
    right = [i for i, c in enumerate(tab["columns"]) if c not in ("ruleset", "unit")]
    return [
        FitTable(tab["columns"], tab["rows"], title=tab["title"], right=right),
        Text(tab["note"]),
    ]


# --------------------------------------------------------------------------------------------
# cards


def render_cards(data: CardsData, ctx, width: int):
    """One row per label: ``Your hand  7♥ 7♠ Q♦``, then the caption if any."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", overflow="fold")
    grid.add_column(ratio=1)
    for label, cards in data["rows"]:
        grid.add_row(label, cards_text(cards, ctx.symbols) if cards else Text("(none)", "dim"))
    parts = [Padding(grid, (0, 0, 0, 2))]
    if data["caption"]:
        parts.append(
            Padding(
                Text(cards_in_text(data["caption"], ctx.symbols), style="dim italic"), (0, 0, 0, 2)
            )
        )
    return Group(*parts)


# --------------------------------------------------------------------------------------------
# records


def record_lines(view: RecordView, quotes: tuple[str, str] = ("“", "”")) -> list[Text]:
    """One record (a :func:`tutor.teaching.blockdata.record_view`) as lines of text: its own
    citation and kind, then its words (or that it is known from a citation only: it is never
    given words), who gives it, the reporter's own words, whether its words could be checked,
    and our note.  Its date goes beside them (:func:`records_grid`)."""
    head = Text()
    head.append(view["citation"], style="italic")
    head.append(f"  ({view['kind_words']})", style="dim")
    out = [head]
    if view["words"] is not None:
        body = Text(quotes[0])
        body.append_text(quote_text(view["words"], style=""))
        body.append(quotes[1])
        out.append(body)
    else:
        out.append(Text("cited, with none of its words given", style="dim italic"))
    if view["given_by"]:
        out.append(Text(f"as given by {view['given_by']}", style="dim"))
    if view["report"]:
        text, who = view["report"]
        body = Text(f"{who} writes: {quotes[0]}", style="dim")
        body.append_text(quote_text(text, style="dim"))
        body.append(quotes[1], style="dim")
        out.append(body)
    if not view["checked"]:
        out.append(Text("cited, not checked: no text here to check its words against", style="dim"))
    if view["note"]:
        out.append(Text(view["note"]))
    dating = view.get("dating")
    if dating:
        out.append(Text(dating, style="dim"))
    return out


def records_grid(views: list[RecordView], symbols: bool = True) -> Padding:
    """Records (:func:`tutor.teaching.blockdata.records_view`) as a grid: each date beside its
    lines (:func:`record_lines`), which wrap under themselves at any width."""
    quotes = ("“", "”") if symbols else ('"', '"')
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column(ratio=1, overflow="fold")  # a long address folds, never cut short
    for v in views:
        grid.add_row(v["date"], Group(*record_lines(v, quotes)))
    return Padding(grid, (0, 0, 0, 2))


def render_records(data: RecordsData, ctx, width: int):
    """The records of the game (of ``data["kinds"]``), in date order, from the source files:
    the same list ``laugh sources`` shows and the timeline puzzles ask about."""
    views = records_view(ctx.library, data.get("kinds"))
    if not views:
        return Text("(no records)", style="dim")
    summary = records_summary(ctx.library, data.get("kinds"))  # counted, never written
    return Group(records_grid(views, ctx.symbols), Text(summary, style="dim"))


#: The renderer of each kind of (non-puzzle) block.
#: Each kind of block (but ``puzzle`` and ``coach``) -> its drawing, given the block, the
#: context and the width in columns.
RENDERERS: dict[str, Callable[[Block, Any, int], object]] = {
    "quote": lambda b, ctx, width: render_quote(b.quote(), ctx, width),
    "rules": lambda b, ctx, width: render_rules(b.rules(), ctx, width),
    "odds": lambda b, ctx, width: render_odds(b.odds(), ctx, width),
    "simulate": lambda b, ctx, width: render_simulate(b.simulate(), ctx, width),
    "cards": lambda b, ctx, width: render_cards(b.cards(), ctx, width),
    "records": lambda b, ctx, width: render_records(b.records(), ctx, width),
}
