"""A score sheet laid out as the Inter-Livery 2018 sheet, for printing: a player's filled-in
sheet of a match (``laugh match --sheet``) and a blank one for a worksheet.

The sheet (``inter-livery-2018:round-scores``, ``inter-livery-2018:cumulative-score``) has
"Game Number | Round 1 scores | Game Number | Round 2 scores", a "Total score" under each round
and "Cumulative Score over both rounds"; which game is the practice game comes from the engine's
plan (:func:`tutor.engine.match.plan_games`), and its score is shown in brackets and left out of
the totals ("The first game is for practice only and is not scored").
"""

from __future__ import annotations

from typing import TypedDict

from tutor.engine.match import Game, plan_games

__all__ = [
    "BlankSheet",
    "Sheet",
    "SheetCell",
    "SheetTable",
    "blank_sheet",
    "over_words",
    "sheet_layout",
]


class SheetCell(TypedDict):
    """One game's cell of a score sheet: its ``number``, the ``text`` written (a score, in
    brackets for the practice game) and whether it is the ``practice`` game."""

    number: int
    text: str
    practice: bool


class SheetTable(TypedDict):
    """Two rounds side by side: their ``rounds`` numbers, ``rows`` of cells (None: no game
    there) and each round's total (None: nothing played)."""

    rounds: list[int]
    rows: list[list[SheetCell | None]]
    totals: list[int | None]


class Sheet(TypedDict):
    """A score sheet as the templates' ``score_sheet`` macro shows it (:func:`sheet_layout`)."""

    title: str
    name: str | None
    head: str | None
    tables: list[SheetTable]
    cumulative: int | None
    over: str
    livery: str | None
    team: int | None


class BlankSheet(Sheet):
    """A blank sheet on a worksheet: a :class:`Sheet` and the ruleset's title."""

    ruleset_title: str


def over_words(rounds: int) -> str:
    """``both rounds``, ``the round``, ``3 rounds``."""
    return {1: "the round", 2: "both rounds"}.get(rounds, f"{rounds} rounds")


def _cell(game: Game, score: int | None) -> str:
    if score is None:
        return ""
    return f"({score}) practice" if game.practice else str(score)


def _total(games) -> int | None:
    scores = [score for g, score in games if score is not None and not g.practice]
    played = any(score is not None for _, score in games)
    return sum(scores) if played else None


def sheet_layout(
    rounds: list[list[tuple[Game, int | None]]],
    name: str | None = None,
    head: str | None = None,
    livery: str | None = None,
    team: int | None = None,
) -> Sheet:
    """The sheet of ``rounds`` (each round's games in order with the player's score, None for a
    game not yet played) as the ``score_sheet`` macro of the templates shows it: ``title``,
    ``name`` (None: a line to write on), ``head``, ``tables`` (two rounds side by side: their
    ``rounds`` numbers, ``rows`` of cells ``{number, text, practice}`` or None, ``totals``, None
    for a round with no game played), ``cumulative`` (None when nothing is played),
    ``over``, ``livery`` (the player's livery company or club, None: a line to write on) and
    ``team`` (that livery's total over every table, or None)."""
    practice = any(g.practice for games in rounds for g, _ in games)
    tables: list[SheetTable] = []
    cumulative: int | None = None
    for b in range(0, len(rounds), 2):
        pair = rounds[b : b + 2]
        rows = []
        for i in range(max(len(games) for games in pair)):
            row: list[SheetCell | None] = []
            for games in pair:
                if i < len(games):
                    g, score = games[i]
                    row.append(
                        {
                            "number": g.number or i + 1,
                            "text": _cell(g, score),
                            "practice": g.practice,
                        }
                    )
                else:
                    row.append(None)
            rows.append(row)
        totals = [_total(games) for games in pair]
        for t in totals:
            if t is not None:
                cumulative = (cumulative or 0) + t
        tables.append(
            {"rounds": [b + r + 1 for r in range(len(pair))], "rows": rows, "totals": totals}
        )
    title = (
        "Score sheet (The first game is for practice only and is not scored)"
        if practice
        else "Score sheet"
    )
    return {
        "title": title,
        "name": name,
        "head": head,
        "tables": tables,
        "cumulative": cumulative,
        "over": over_words(len(rounds)),
        "livery": livery,
        "team": team,
    }


def blank_sheet(ruleset, players: int) -> Sheet:
    """A blank sheet for a match of ``ruleset`` (one with a ``match_format``) and ``players``:
    every game numbered, the practice game marked, nothing filled in."""
    rounds: dict[int, list] = {}
    for g in plan_games(ruleset, players, 0):
        rounds.setdefault(g.round or 1, []).append((g, None))
    sheet = sheet_layout([rounds[r] for r in sorted(rounds)])
    for t in sheet["tables"]:
        for row in t["rows"]:
            for cell in row:
                if cell and cell["practice"]:
                    cell["text"] = "practice"
    return sheet
