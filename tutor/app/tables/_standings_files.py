"""The evening's standings as files, written when the last round is over (a part of
:mod:`tutor.app.tables.server`): ``standings.csv`` (one row a player, then one a livery; for a
spreadsheet) and ``standings.html`` (a printable page through Jinja2, autoescaped: a name is
shown as text, never read as markup).  The people are ranked among themselves, the computer
players apart (:meth:`tutor.app.tables.tournament.Tournament.standings`)."""

from __future__ import annotations

import csv
import io

from tutor.app.tables.tournament import StandingData, TeamData

__all__ = ["CSV_COLUMNS", "standings_csv", "standings_html"]

#: The columns of ``standings.csv``: ``kind`` is ``person``, ``computer`` or ``livery``.
CSV_COLUMNS = (
    "kind",
    "place",
    "name",
    "table",
    "seat",
    "livery",
    "score",
    "vs_same_cards",
    "games",
    "people",
)

#: A cell that a spreadsheet would read as a formula begins with one of these.
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str | None) -> str:
    """A name or livery as a spreadsheet cell: text, never a formula (a leading ``'``)."""
    text = text or ""
    return "'" + text if text.startswith(_FORMULA) else text


def standings_csv(rows: list[StandingData], teams: list[TeamData], duplicate: bool) -> str:
    """The standings as CSV text (:data:`CSV_COLUMNS`, a header first): each player's row
    (``vs_same_cards`` empty without duplicate play), then each livery's total."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for r in rows:
        w.writerow(
            [
                "person" if r["person"] else "computer",
                r.get("place", ""),
                _cell(r["name"]),
                r["table"],
                r["seat"],
                _cell(r["livery"]),
                r["score"],
                f"{r.get('dup', 0.0):+g}" if duplicate else "",
                r["games"],
                "",
            ]
        )
    for x in teams:
        w.writerow(
            [
                "livery",
                x.get("place", ""),
                "",
                "",
                "",
                _cell(x["livery"]),
                x["score"],
                f"{x.get('dup', 0.0):+g}" if duplicate else "",
                "",
                x["people"],
            ]
        )
    return out.getvalue()


def standings_html(
    rows: list[StandingData], teams: list[TeamData], duplicate: bool, head: str
) -> str:
    """The standings as one printable HTML page (the template ``standings.html.j2``,
    autoescaped); ``head`` a line under the title (the ruleset, the tables, the time)."""
    from tutor.teaching.html import render

    return render(
        "standings.html.j2",
        title="Laugh and Lie Down: the standings",
        head=head,
        duplicate=duplicate,
        people=[r for r in rows if r["person"]],
        computers=[r for r in rows if not r["person"]],
        teams=teams,
    )
