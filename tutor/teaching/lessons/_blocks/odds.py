"""``odds``: exact odds of the deal from the engine (:mod:`tutor.engine.odds`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.engine.game import DEFAULT_RULESET
from tutor.teaching.lessons._common import _shown
from tutor.teaching.lessons._model import OddsData

if TYPE_CHECKING:
    from tutor.teaching.lessons._blockcheck import BlockChecker

DESCRIPTION = "exact odds of the deal from the engine"

#: ``odds`` figures: name -> description (see :mod:`tutor.engine.odds`).
ODDS_FIGURES = {
    "table_mournival": "a mournival among the table cards",
    "hand_prial": "a prial in one player's hand",
    "hand_mournival": "a mournival in one player's hand",
    "hand_prial_or_mournival": "a prial or better in one player's hand",
}


def parse(ck: BlockChecker, content: str, line: int) -> OddsData | None:
    """``{"figures", "rulesets", "players"}``: figures of :data:`ODDS_FIGURES`, under one
    ruleset (:data:`~tutor.engine.game.DEFAULT_RULESET` when none is named) or several."""
    got = ck.mapping(
        "odds", content, line, ("figure", "ruleset", "rulesets", "players"), ("figure",)
    )
    if got is None:
        return None
    data, lines = got
    ok = True
    figures = data["figure"]
    if isinstance(figures, str):
        figures = [figures]
    if not isinstance(figures, list) or not figures:
        ck.fail(lines.get("figure", line), "odds.figure", "must name a figure")
        return None
    for f in figures:
        if not isinstance(f, str) or f not in ODDS_FIGURES:
            ck.fail(
                lines.get("figure", line),
                "odds.figure",
                f"unknown figure {_shown(f)} (figures: {', '.join(ODDS_FIGURES)})",
            )
            ok = False
    if "ruleset" in data and "rulesets" in data:
        ck.fail(lines.get("rulesets", line), "odds.rulesets", "give ruleset or rulesets, not both")
        return None
    rids = data.get("rulesets", [data.get("ruleset", DEFAULT_RULESET)])
    if isinstance(rids, str):
        rids = [rids]
    if not isinstance(rids, list) or not rids:
        ck.fail(lines.get("rulesets", line), "odds.rulesets", "must be a list of rulesets")
        return None
    good, players = ck.whole_number("odds", data, lines, "players", 2, 8, None, line)
    ok &= good
    for rid in rids:
        key = "rulesets" if "rulesets" in data else "ruleset"
        rs = ck.ruleset("odds", rid, lines.get(key, line), key)
        if rs is None:
            ok = False
        elif len(rids) == 1:
            ok &= ck.players("odds", rs, players, lines.get("players", line))
    return {"figures": figures, "rulesets": rids, "players": players} if ok else None
