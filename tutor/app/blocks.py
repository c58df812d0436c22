"""The engine blocks of a lesson as rich renderables: every figure comes from the engine.

- ``quote``: each quotation verbatim, with its citation and where it stands in the source.
- ``rules``: chosen parameters side by side across rulesets, each marked read or chosen where
  the source does not state it (stacked instead of a table when the console is narrow).
- ``odds``: exact odds of the deal (:mod:`tutor.engine.odds`).
- ``simulate``: the dealer's advantage from seeded self-play (:func:`tutor.engine.simulate.run_study`),
  cached on disk by its parameters and a fingerprint of the engine's code; with ``skill``, the
  expert seat's gain per ruleset from precomputed figures (:mod:`tutor.teaching.figures`).
- ``cards``: labelled rows of cards.
"""

from __future__ import annotations

import hashlib
import json
import os
from fractions import Fraction
from pathlib import Path

from rich.console import Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from tutor.app.commands.simulate import skill_view
from tutor.engine import jsonfile
from tutor.engine.data import laugh_cache
from tutor.engine.errors import DataError
from tutor.engine.odds import deal_odds, percent
from tutor.engine.parameters import PARAMETERS, value_short
from tutor.engine.rulesets import COUNT_PARAMETERS
from tutor.engine.simulate import run_study
from tutor.puzzles.quoted import quote_text
from tutor.puzzles.board import cards_text
from tutor.teaching.figures import skill_figures
from tutor.teaching.lessons import ODDS_FIGURES, Block

_SMALL = Fraction(1, 1000)     # below this, odds are shown to three decimals


def parameter_label(name: str) -> str:
    """A parameter's label, from the parameter table (``pot``, which is no parameter but the
    antes summed, is named here)."""
    return "pot" if name == "pot" else PARAMETERS[name].label


def render_block(block: Block, ctx, width: int | None = None):
    """The renderable for a non-puzzle ``block`` (puzzles are posed by the runner).

    ``ctx`` is a :class:`tutor.app.context.Context` (for the library, symbols and glyphs).  Raises
    :class:`tutor.engine.errors.DataError` for a kind of block it does not know.
    """
    width = width or ctx.width
    fn = RENDERERS.get(block.kind)
    if fn is None:
        raise DataError(f"a {block.kind!r} block cannot be shown (known: {', '.join(RENDERERS)})")
    return fn(block.data, ctx, width)


# --------------------------------------------------------------------------------------------
# quote


def render_quote(data: dict, ctx, width: int):
    """Each quotation of ``data["refs"]`` verbatim in quotation marks, its markup rendered
    (:func:`tutor.puzzles.quoted.quote_text`), then ``— citation (where)``."""
    lib = ctx.library
    parts = []
    open_q, close_q = ("“", "”") if ctx.symbols else ('"', '"')
    for ref in data["refs"]:
        q = lib.quotation(ref)
        body = Text(open_q, style="italic")          # the quotation's own markup, rendered
        body.append_text(quote_text(q.text, style="italic"))
        body.append(close_q, style="italic")
        cite = Text(f"{ctx.glyphs.dash} {q.citation}; {q.where}", style="dim")
        parts.append(Padding(Group(body, Padding(cite, (0, 0, 0, 2))), (0, 0, 0, 2)))
    return Group(*parts)


# --------------------------------------------------------------------------------------------
# rules


def parameter_value(library, rid: str, name: str, players: int | None) -> tuple[str, str]:
    """One ruleset parameter for display: (value text, status) where status is ``stated``,
    ``read``, ``chosen`` or ``""`` (not covered / derived)."""
    rs = library.ruleset(rid)
    if name in COUNT_PARAMETERS or name == "pot":
        if players not in rs.counts:
            return "—", ""
        pc = rs.counts[players]
        if name == "pot":
            pot = pc.pot
            return ("none" if pot is None else str(pot)), ""
        v = getattr(pc, name)
        prov = pc.provenance.get(name)
        return ("none" if v is None else str(v)), (prov.status if prov else "")
    v = rs.value(name)
    prov = rs.provenance.get(name)
    status = prov.status if prov else ""
    return value_short(name, v), status


def render_rules(data: dict, ctx, width: int):
    """A table of ``data["parameters"]`` (rows) across ``data["rulesets"]`` (columns); per-count
    parameters for ``data["players"]``.  Values a source does not state are marked."""
    lib = ctx.library
    rids, params, players = data["rulesets"], data["parameters"], data["players"]
    caption = ("Marked: (read) a close reading of the source; (chosen) the source is silent or "
               "contradicts itself, so the engine chooses.")
    if players is not None:
        caption = f"Per-player figures for {players} players. " + caption
    wide = width >= 18 + 14 * len(rids)
    if wide:
        t = Table(show_lines=True, expand=False)
        t.add_column("")
        for rid in rids:
            t.add_column(rid, overflow="fold")
        for p in params:
            row = [Text(parameter_label(p), style="bold")]
            for rid in rids:
                row.append(_value_text(*parameter_value(lib, rid, p, players)))
            t.add_row(*row)
        return Group(t, Text(caption, style="dim"))
    parts = []
    for p in params:
        parts.append(Text(parameter_label(p), style="bold"))
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column(ratio=1)
        for rid in rids:
            grid.add_row(Text("  " + rid, style="dim"), _value_text(*parameter_value(lib, rid, p,
                                                                                     players)))
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


def odds_rows(data: dict, library) -> list[dict]:
    """The exact odds a block asks for: one dict per ruleset and player count, with ``ruleset``,
    ``players``, ``hand``, ``table`` and each figure as a :class:`fractions.Fraction`."""
    rows = []
    for rid in data["rulesets"]:
        rs = library.ruleset(rid)
        counts = [data["players"]] if data["players"] is not None else list(rs.player_counts)
        for n in counts:
            if n not in rs.counts:
                continue
            o = deal_odds(rs, n)
            row = {"ruleset": rid, "players": n, "hand": o.hand, "table": o.table}
            for f in data["figures"]:
                row[f] = getattr(o, f)
            rows.append(row)
    return rows


def odds_sentence(row: dict, figure: str) -> str:
    """One figure in words: ``A mournival among the 12 table cards (parlett, 5 players): 0.29%,
    about 1 deal in 342.``"""
    p = row[figure]
    what = ODDS_FIGURES[figure]
    if figure == "table_mournival":
        what = f"a mournival among the {row['table']} table cards"
    else:
        what = what.replace("one player's hand", f"one player's {row['hand']}-card hand")
    digits = 3 if p and p < _SMALL else 2
    one_in = f", about 1 {'deal' if figure == 'table_mournival' else 'hand'} in {round(1 / p):,}" \
        if p else ""
    return (f"{what[0].upper()}{what[1:]} ({row['ruleset']}, {row['players']} players): "
            f"{percent(p, digits)}{one_in}.")


def render_odds(data: dict, ctx, width: int):
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
        t.add_row(r["ruleset"], str(r["players"]), f"{r['hand']} / {r['table']}",
                  *[percent(r[f], 3 if r[f] < _SMALL else 2) for f in data["figures"]])
    return t


# --------------------------------------------------------------------------------------------
# simulate


def simulate(data: dict, library, cache_dir: Path | None = None) -> dict:
    """The study a ``simulate`` block asks for, as :meth:`tutor.engine.simulate.Study.to_json`, read from
    the cache in ``cache_dir`` (default :func:`tutor.engine.data.laugh_cache`) or run and stored there.  The cache
    key includes a fingerprint of the engine's code, so a changed engine is measured afresh."""
    key = "/".join(str(data[k]) for k in ("ruleset", "players", "deals", "seed", "bots"))
    key += "/" + _engine_fingerprint()
    cache_dir = cache_dir if cache_dir is not None else laugh_cache()
    cache_file = cache_dir / "simulate.json"
    try:
        cache = jsonfile.load(cache_file)      # a missing, damaged or huge cache: work it out
    except DataError:
        cache = {}
    if not isinstance(cache, dict):
        cache = {}
    if key in cache:
        return cache[key]
    rs = library.ruleset(data["ruleset"])
    study, _ = run_study(rs, data["players"], data["deals"], data["seed"], [data["bots"]])
    result = study.to_json()
    cache[key] = result
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = cache_file.with_name(f"simulate.{os.getpid()}.tmp")   # two runs at once
        tmp.write_text(json.dumps(cache, indent=1), encoding="utf-8")
        tmp.replace(cache_file)
    except OSError:
        pass
    return result


def _engine_fingerprint() -> str:
    h = hashlib.sha256()
    here = Path(__file__).resolve().parents[1] / "engine"
    for name in ("deal", "bots.py", "simulate.py", "rulesets.py"):
        path = here / name
        for f in sorted(path.glob("*.py")) if path.is_dir() else [path]:   # deal: a package
            try:
                h.update(f.read_bytes())
            except OSError:
                pass
    return h.hexdigest()[:12]


def simulate_sentence(result: dict) -> str:
    """The dealer's advantage in one sentence, from a study's JSON: the mean with its 95%
    interval, and whether the interval lies clear of zero."""
    a = result["dealer_advantage"]
    unit = "stakes" if result["measure"] == "net stakes" else "points"
    mean, ci = a["mean"], a["ci95"]
    if mean - ci > 0:
        verdict = "the dealer has an advantage (the whole interval lies above zero)"
    elif mean + ci < 0:
        verdict = "the dealer is at a disadvantage (the whole interval lies below zero)"
    else:
        verdict = "no advantage to the dealer can be told apart from chance at this many deals"
    return (f"Over {result['deals']:,} deals ({result['ruleset']}, {result['players']} players, "
            f"seed {result['seed']}), the dealer averaged {mean:+.2f} ± {ci:.2f} {unit} a deal "
            f"more than the mean of the other seats: {verdict}.")


def render_simulate(data: dict, ctx, width: int):
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
    title = Text(f"{result['ruleset']}, {result['players']} players: mean {unit} a deal, by "
                 "seat", style="italic")
    t = Table()
    t.add_column("seat")
    t.add_column("mean", justify="right")
    t.add_column("±", justify="right")
    t.add_column("last in", justify="right")
    for s in result["seats"]:
        t.add_row(s["seat"], f"{s['mean']:+.2f}", f"{s['ci95']:.2f}",
                  f"{100 * s['last_in_rate']:.0f}%")
    return Group(title, t, Text(simulate_sentence(result), style="bold"))


def render_skill(data: dict, ctx, width: int):
    """The expert seat's gain per ruleset over each opponent's seat, from the precomputed
    figures (:func:`tutor.teaching.figures.skill_figures`: read, never computed, so the lesson
    opens at once), shown as ``laugh simulate --skill`` shows them."""
    figures = skill_figures(data["skill"], data["deals"], data["seed"], data["samples"],
                            data["rulesets"])
    return Group(*skill_view(figures))


# --------------------------------------------------------------------------------------------
# cards


def render_cards(data: dict, ctx, width: int):
    """One row per label: ``Your hand  7♥ 7♠ Q♦``, then the caption if any."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", overflow="fold")
    grid.add_column(ratio=1)
    for label, cards in data["rows"]:
        grid.add_row(label, cards_text(cards, ctx.symbols) if cards else Text("(none)", "dim"))
    parts = [Padding(grid, (0, 0, 0, 2))]
    if data.get("caption"):
        parts.append(Padding(Text(data["caption"], style="dim italic"), (0, 0, 0, 2)))
    return Group(*parts)


#: The renderer of each kind of (non-puzzle) block.
RENDERERS = {"quote": render_quote, "rules": render_rules, "odds": render_odds,
             "simulate": render_simulate, "cards": render_cards}
