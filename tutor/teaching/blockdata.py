"""What a lesson's engine blocks show, as data: the same figures on screen and on paper.

The terminal draws them with rich (``tutor.app.blocks``); worksheets and the class pack print
them through the HTML templates and as Markdown (``tutor.teaching.worksheet``).  Every figure
comes from the engine: a parameter and its status from the sources
(:func:`parameter_value`), exact odds (:func:`odds_rows`), a seeded self-play study
(:func:`simulate`, cached on disk), precomputed skill figures (:func:`skill_table`).
:func:`block_view` turns one block into a plain dict a template can show.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path
from typing import Literal, NotRequired, TypedDict

from tutor.engine import jsonfile
from tutor.engine.atomic import write_atomic
from tutor.engine.data import laugh_cache
from tutor.engine.errors import DataError
from tutor.engine.odds import deal_odds, percent
from tutor.engine.parameters import COUNT_PARAMETERS, PARAMETERS, value_short
from tutor.teaching.lessons import OddsData, SimulateData
from tutor.teaching.prose import cards_in_text

__all__ = [
    "RULES_CAPTION",
    "BlockView",
    "CardsView",
    "CoachView",
    "OddsView",
    "PuzzleView",
    "QuoteView",
    "RecordView",
    "RecordsView",
    "RulesView",
    "SimulateView",
    "SkillTable",
    "SkillView",
    "block_view",
    "odds_rows",
    "odds_sentence",
    "parameter_label",
    "parameter_value",
    "record_view",
    "records_view",
    "simulate",
    "simulate_sentence",
    "skill_table",
]

_SMALL = Fraction(1, 1000)  # below this, odds are shown to three decimals

#: What the marks of a rules table mean.
RULES_CAPTION = (
    "Marked: (read) a close reading of the source; (chosen) the source is silent "
    "or contradicts itself, so the engine chooses."
)


class SkillTable(TypedDict):
    """Skill figures as a table (:func:`skill_table`)."""

    title: str
    columns: list[str]
    rows: list[list[str]]
    note: str


class RecordView(TypedDict):
    """One record of the game as shown on screen and on paper (:func:`record_view`)."""

    id: str
    date: str
    kind: str
    kind_words: str
    citation: str
    words: str | None
    given_by: str | None
    report: tuple[str, str] | None
    checked: bool
    note: str | None
    dating: str | None


class QuoteView(TypedDict):
    kind: Literal["quote"]
    quotes: list[tuple[str, str]]


class RulesView(TypedDict):
    kind: Literal["rules"]
    columns: list[str]
    rows: list[tuple[str, list[tuple[str, str]]]]
    caption: str


class OddsView(TypedDict):
    kind: Literal["odds"]
    sentence: str | None
    columns: NotRequired[list[str]]
    rows: NotRequired[list[list[str]]]


class SimulateView(TypedDict):
    kind: Literal["simulate"]
    title: str
    seats: list[tuple[int, str, str, str]]
    sentence: str


class SkillView(SkillTable):
    kind: Literal["skill"]


class CardsView(TypedDict):
    kind: Literal["cards"]
    rows: list[tuple[str, str]]
    caption: str | None


class PuzzleView(TypedDict):
    kind: Literal["puzzle"]
    numbers: list[int]


class RecordsView(TypedDict):
    kind: Literal["records"]
    records: list[RecordView]
    summary: str


class CoachView(TypedDict):
    kind: Literal["coach"]


#: A lesson block for a printed page (:func:`block_view`), told apart by ``kind``.
BlockView = (
    QuoteView
    | RulesView
    | OddsView
    | SimulateView
    | SkillView
    | CardsView
    | PuzzleView
    | RecordsView
    | CoachView
)


def parameter_label(name: str) -> str:
    """A parameter's label, from the parameter table (``pot``, which is no parameter but the
    antes summed, is named here)."""
    return "pot" if name == "pot" else PARAMETERS[name].label


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


# --------------------------------------------------------------------------------------------
# odds


def ruleset_name(library, rid: str) -> str:
    """The name a learner sees for the ruleset ``rid`` in a lesson's table or sentence: its
    title without the bracketed summary (:attr:`tutor.engine.rulesets.Ruleset.short_title`,
    ``Parlett after Willughby``), never the id (``parlett``); an id the library lacks as it
    is."""
    rs = library.rulesets.get(rid)
    return rs.short_title if rs is not None else rid


def odds_rows(data: OddsData, library) -> list[dict]:
    """The exact odds a block asks for: one dict per ruleset and player count, with ``ruleset``
    (its id), ``name`` (:func:`ruleset_name`), ``players``, ``hand``, ``table`` and each
    figure as a :class:`fractions.Fraction`."""
    rows = []
    for rid in data["rulesets"]:
        rs = library.ruleset(rid)
        counts = [data["players"]] if data["players"] is not None else list(rs.player_counts)
        for n in counts:
            if n not in rs.counts:
                continue
            o = deal_odds(rs, n)
            row = {
                "ruleset": rid,
                "name": rs.short_title,
                "players": n,
                "hand": o.hand,
                "table": o.table,
            }
            for f in data["figures"]:
                row[f] = getattr(o, f)
            rows.append(row)
    return rows


def odds_sentence(row: dict, figure: str) -> str:
    """One figure in words: ``A mournival among the 12 table cards (Parlett after Willughby, 5
    players): 0.29%, about 1 deal in 342.``"""
    from tutor.teaching.lessons import ODDS_FIGURES

    p = row[figure]
    what = ODDS_FIGURES[figure]
    if figure == "table_mournival":
        what = f"a mournival among the {row['table']} table cards"
    else:
        what = what.replace("one player's hand", f"one player's {row['hand']}-card hand")
    digits = 3 if p and p < _SMALL else 2
    one_in = (
        f", about 1 {'deal' if figure == 'table_mournival' else 'hand'} in {round(1 / p):,}"
        if p
        else ""
    )
    return (
        f"{what[0].upper()}{what[1:]} ({row.get('name', row['ruleset'])}, "
        f"{row['players']} players): "
        f"{percent(p, digits)}{one_in}."
    )


def odds_percent(p: Fraction) -> str:
    """A figure of an odds table: two decimals, three below 0.1%."""
    return percent(p, 3 if p < _SMALL else 2)


# --------------------------------------------------------------------------------------------
# simulate


def simulate(data: SimulateData, library, cache_dir: Path | None = None) -> dict:
    """The study a ``simulate`` block asks for, as :meth:`tutor.engine.simulate.Study.to_json`,
    read from the cache in ``cache_dir`` (default :func:`tutor.engine.data.laugh_cache`) or run
    and stored there.  The cache key includes a fingerprint of the engine's code, so a changed
    engine is measured afresh."""
    from tutor.engine.simulate import run_study

    key = "/".join(str(data[k]) for k in ("ruleset", "players", "deals", "seed", "bots"))
    key += "/" + _engine_fingerprint()
    cache_dir = cache_dir if cache_dir is not None else laugh_cache()
    cache_file = cache_dir / "simulate.json"
    try:
        cache = jsonfile.load(cache_file)  # a missing, damaged or huge cache: work it out
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
        write_atomic(cache_file, json.dumps(cache, indent=1))  # two runs at once
    except OSError:
        pass
    return result


def _engine_fingerprint() -> str:
    h = hashlib.sha256()
    here = Path(__file__).resolve().parents[1] / "engine"
    for name in ("deal", "bots.py", "simulate.py", "rulesets.py"):
        path = here / name
        for f in sorted(path.glob("*.py")) if path.is_dir() else [path]:  # deal: a package
            try:
                h.update(f.read_bytes())
            except OSError:
                pass
    return h.hexdigest()[:12]


def simulate_sentence(result: dict, name: str | None = None) -> str:
    """The dealer's advantage in one sentence, from a study's JSON: the mean with its 95%
    interval, and whether the interval lies clear of zero.  ``name``: the ruleset as the
    learner sees it (:func:`ruleset_name`; default its id, as ``laugh simulate`` names it)."""
    a = result["dealer_advantage"]
    unit = "stakes" if result["measure"] == "net stakes" else "points"
    mean, ci = a["mean"], a["ci95"]
    if mean - ci > 0:
        verdict = "the dealer has an advantage (the whole interval lies above zero)"
    elif mean + ci < 0:
        verdict = "the dealer is at a disadvantage (the whole interval lies below zero)"
    else:
        verdict = "no advantage to the dealer can be told apart from chance at this many deals"
    return (
        f"Over {result['deals']:,} deals ({name or result['ruleset']}, "
        f"{result['players']} players, "
        f"seed {result['seed']}), the dealer averaged {mean:+.2f} ± {ci:.2f} {unit} a deal "
        f"more than the mean of the other seats: {verdict}."
    )


def skill_table(figures: dict, names: dict[str, str] | None = None) -> SkillTable:
    """Precomputed skill figures (:func:`tutor.teaching.figures.skill_figures`) as a table:
    ``title``, ``columns`` (ruleset, players, one per opponent, unit), ``rows`` of cells (a
    gain ``+m ± ci``, ``?`` when it cannot be told from zero) and the ``note`` on the method,
    as ``laugh simulate --skill`` words them.  ``names``: ruleset id -> the name a lesson
    shows (:func:`ruleset_name`; default the ids, as the command names them)."""
    opps = figures["opponents"]
    by: dict = {}
    for r in figures["rows"]:
        by.setdefault((r["ruleset"], r["players"]), {})[r["opponent"]] = r
    rows = []
    for (rid, n), got in by.items():
        cells = []
        for o in opps:
            r = got.get(o)
            if r is None:
                cells.append("")
                continue
            g = r["gain"]
            ci = g["ci95"]
            cell = f"{g['mean']:+.2f} ± {ci:.2f}" if ci is not None else f"{g['mean']:+.2f}"
            if ci is not None and abs(g["mean"]) <= ci:
                cell += " ?"
            cells.append(cell)
        rows.append([(names or {}).get(rid, rid), str(n), *cells, next(iter(got.values()))["unit"]])
    return {
        "title": f"An expert seat's gain a deal, {figures['deals']:,} paired deals each, "
        f"seed {figures['seed']}",
        "columns": ["ruleset", "players", *[f"over {o}" for o in opps], "unit"],
        "rows": rows,
        "note": f"Each deal is played twice from the same shuffle and random numbers: once "
        f"with an expert (the engine's analysis, {figures['samples']} samples a "
        "decision) in one seat, once with the other player there; the gain is the "
        "difference, with its 95% interval. ? marks a gain that cannot be told apart "
        "from zero.",
    }


# --------------------------------------------------------------------------------------------
# records of the game


def record_view(library, r) -> RecordView:
    """One record of the game (:class:`tutor.engine.sources.Record`) as shown everywhere, on
    screen and on paper: ``id``, ``date`` (as written), ``kind`` and ``kind_words`` (what
    kind of record it is), ``citation`` (its own: author, title, page), ``words`` (the stored
    text of its own words, or None: known from a citation only, never given words),
    ``given_by`` (the reporter's citation, or None), ``report`` (the reporter's own words about
    it and who they are, or None), ``checked`` (False for words no text here could check),
    ``note`` (ours) and ``dating``: why the timeline puzzles never ask its date, for a record
    dated only "by" or "after" a year (any other "by" or "after" date could be true of it
    too, so no wrong date could be offered), else None."""
    from tutor.engine.sources import RECORD_KINDS

    q = library.quotation(r.quote) if r.quote else None
    report = None
    if r.report:
        rq = library.quotation(r.report)
        report = (rq.text, rq.cited_in.split(",")[0].strip('"'))
    unchecked = library.unchecked or frozenset()
    return {
        "id": r.id,
        "date": r.date.text,
        "kind": r.kind,
        "kind_words": RECORD_KINDS[r.kind],
        "citation": r.citation_text,
        "words": q.text if q else None,
        "given_by": library.reporter(r),
        "report": report,
        "checked": not (r.quote and r.quote in unchecked),
        "note": r.note,
        "dating": (
            f"dated only “{r.date.text}”: the timeline puzzles put it in order "
            f"among the others, but never ask its date, as any other “{r.date.form}” "
            "date could be true of it too"
            if r.date.form in ("by", "after")
            else None
        ),
    }


def records_view(library, kinds=None) -> list[RecordView]:
    """The records of ``kinds`` (every kind when None) in date order, each a
    :func:`record_view`."""
    return [record_view(library, r) for r in library.timeline(kinds)]


def records_summary(library, kinds=None) -> str:
    """The list of records (of ``kinds``) counted in one sentence, worked out from the list
    itself, so it stays true when a teacher adds records: how many, the years they run
    between, and how many records of the name stand before and after the description of play
    (``8 records, from 1522 to c. 1825: 5 records of the name before the description of play
    (Francis Willughby, c. 1665) and 1 after it; 1 undated.``); "" for no records."""
    recs = library.timeline(kinds)
    if not recs:
        return ""
    dated = [r for r in recs if r.date.form != "undated"]
    said = f"{len(recs)} record{'s' if len(recs) != 1 else ''}"
    if len(dated) > 1:
        said += f", from {dated[0].date.text} to {dated[-1].date.text}"
    play = next((r for r in dated if r.kind == "play"), None)
    names = [r for r in dated if r.kind == "name"]
    if play is not None and names:
        before = sum(1 for r in names if r.date.before(play.date))
        after = sum(1 for r in names if play.date.before(r.date))
        said += (
            f": {before} record{'s' if before != 1 else ''} of the name before the "
            f"description of play ({play.who}, {play.date.text}) and {after} after it"
        )
    undated = len(recs) - len(dated)
    if undated:
        said += f"; {undated} undated"
    return said + "."


# --------------------------------------------------------------------------------------------
# one block, for paper


def block_view(
    block, library, symbols: bool = True, puzzle_numbers: list[int] | None = None
) -> BlockView:
    """A lesson block as a plain dict for a printed page, ``kind`` first:

    - ``quote``: ``quotes``, (stored text, citation with where it stands) pairs;
    - ``rules``: ``columns`` (the rulesets' names: :func:`ruleset_name`), ``rows`` of (label, [(value, status)]), ``caption``;
    - ``odds``: a ``sentence``, or ``columns`` and ``rows`` of text;
    - ``simulate``: ``title``, ``seats`` (seat, mean, ±, last in) and the ``sentence``;
    - ``skill``: :func:`skill_table`;
    - ``cards``: ``rows`` of (label, cards as text) and a ``caption``;
    - ``puzzle``: ``numbers``, the places of its puzzles among the worksheet's (given);
    - ``records``: ``records``, each a :func:`record_view`, and their ``summary``
      (:func:`records_summary`).

    Raises what the engine raises for a study or figures it cannot make."""
    from tutor.engine.cards import pretty_cards

    d = block.data
    kind = block.kind
    if kind == "quote":
        quotes = []
        for ref in d["refs"]:
            q = library.quotation(ref)
            quotes.append((q.text, f"{q.citation} ({q.where})"))
        return {"kind": "quote", "quotes": quotes}
    if kind == "rules":
        players = d["players"]
        rows = [
            (
                parameter_label(p),
                [parameter_value(library, rid, p, players) for rid in d["rulesets"]],
            )
            for p in d["parameters"]
        ]
        caption = RULES_CAPTION
        if players is not None:
            caption = f"Per-player figures for {players} players. " + caption
        return {
            "kind": "rules",
            "columns": [ruleset_name(library, r) for r in d["rulesets"]],
            "rows": rows,
            "caption": caption,
        }
    if kind == "odds":
        from tutor.teaching.lessons import ODDS_FIGURES

        odds = odds_rows(d, library)
        if len(odds) == 1 and len(d["figures"]) == 1:
            return {"kind": "odds", "sentence": odds_sentence(odds[0], d["figures"][0])}
        return {
            "kind": "odds",
            "sentence": None,
            "columns": [
                "ruleset",
                "players",
                "hand / table",
                *[ODDS_FIGURES[f] for f in d["figures"]],
            ],
            "rows": [
                [
                    r["name"],
                    str(r["players"]),
                    f"{r['hand']} / {r['table']}",
                    *[odds_percent(r[f]) for f in d["figures"]],
                ]
                for r in odds
            ],
        }
    if kind == "simulate":
        if "skill" in d:
            from tutor.teaching.figures import skill_figures

            figures = skill_figures(d["skill"], d["deals"], d["seed"], d["samples"], d["rulesets"])
            names = {r["ruleset"]: ruleset_name(library, r["ruleset"]) for r in figures["rows"]}
            return SkillView(kind="skill", **skill_table(figures, names))
        result = simulate(d, library)
        unit = "stakes" if result["measure"] == "net stakes" else "points"
        return {
            "kind": "simulate",
            "title": f"{ruleset_name(library, result['ruleset'])}, {result['players']} "
            f"players: mean {unit} a deal, by seat",
            "seats": [
                (
                    s["seat"],
                    f"{s['mean']:+.2f}",
                    f"{s['ci95']:.2f}",
                    f"{100 * s['last_in_rate']:.0f}%",
                )
                for s in result["seats"]
            ],
            "sentence": simulate_sentence(result, ruleset_name(library, result["ruleset"])),
        }
    if kind == "cards":
        return {
            "kind": "cards",
            "rows": [
                (label, pretty_cards(cards, symbols) if cards else "(none)")
                for label, cards in d["rows"]
            ],
            "caption": cards_in_text(d["caption"], symbols)
            if d.get("caption")
            else d.get("caption"),
        }
    if kind == "puzzle":
        return {"kind": "puzzle", "numbers": list(puzzle_numbers or [])}
    if kind == "records":
        return {
            "kind": "records",
            "records": records_view(library, d.get("kinds")),
            "summary": records_summary(library, d.get("kinds")),
        }
    return {"kind": "coach"}
