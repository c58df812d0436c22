"""``rules``: a side-by-side table of chosen ruleset parameters."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.teaching.lessons._common import _shown
from tutor.teaching.lessons._model import RulesData

if TYPE_CHECKING:
    from tutor.teaching.lessons._blockcheck import BlockChecker

DESCRIPTION = "a side-by-side table of chosen ruleset parameters"


def parse(ck: BlockChecker, content: str, line: int) -> RulesData | None:
    """``{"rulesets", "parameters", "players"}``: every ruleset when none is named, and five
    players when a per-player-count parameter (or the pot) is shown and no count is given."""
    from tutor.engine.rulesets import COUNT_PARAMETERS, RULESET_PARAMETERS

    got = ck.mapping("rules", content, line, ("rulesets", "parameters", "players"), ("parameters",))
    if got is None:
        return None
    data, lines = got
    ok = True
    rids = data.get("rulesets")
    if rids is None:
        rids = list(ck.library.rulesets)
    if not isinstance(rids, list) or not rids:
        ck.fail(lines.get("rulesets", line), "rules.rulesets", "must be a list of ruleset ids")
        return None
    for rid in rids:
        ok &= ck.ruleset("rules", rid, lines.get("rulesets", line), "rulesets") is not None
    params = data["parameters"]
    known = RULESET_PARAMETERS + COUNT_PARAMETERS + ("pot",)
    if isinstance(params, str):
        params = [params]
    if not isinstance(params, list) or not params:
        ck.fail(
            lines.get("parameters", line), "rules.parameters", "must be a list of parameter names"
        )
        return None
    for p in params:
        if p not in known:
            ck.fail(
                lines.get("parameters", line),
                "rules.parameters",
                f"unknown parameter {_shown(p)} (parameters: {', '.join(known)})",
            )
            ok = False
    good, players = ck.whole_number("rules", data, lines, "players", 2, 8, None, line)
    ok &= good
    if ok and players is None and any(p in COUNT_PARAMETERS + ("pot",) for p in params):
        players = 5
    return {"rulesets": rids, "parameters": params, "players": players} if ok else None
