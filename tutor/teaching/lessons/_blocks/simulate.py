"""``simulate``: the dealer's advantage measured by simulated deals, or (with ``skill``) how much
an expert seat gains per ruleset, from precomputed figures (:mod:`tutor.teaching.figures`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tutor.engine.errors import DataError
from tutor.teaching.lessons._common import _shown, resolve_players
from tutor.teaching.lessons._model import SimulateData, SkillData

if TYPE_CHECKING:
    from tutor.teaching.lessons._blockcheck import BlockChecker

DESCRIPTION = (
    "the dealer's advantage measured by simulated deals, or (with skill) how much "
    "an expert seat gains per ruleset, from precomputed figures"
)

_MAX_DEALS = 20000


def parse(ck: BlockChecker, content: str, line: int) -> SimulateData | SkillData | None:
    """``{"ruleset", "players", "deals", "seed", "bots"}``, or for a block with ``skill``
    what :func:`parse_skill` reads."""
    # imported here, not above: course_index must not load the engine's sources
    from tutor.engine.bots import BOT_NAMES

    if re.search(r"^skill\s*:", content, re.MULTILINE):
        return parse_skill(ck, content, line)
    got = ck.mapping(
        "simulate", content, line, ("ruleset", "players", "deals", "seed", "bots"), ("ruleset",)
    )
    if got is None:
        return None
    data, lines = got
    ok = True
    rs = ck.ruleset("simulate", data["ruleset"], lines.get("ruleset", line))
    good, players = ck.whole_number("simulate", data, lines, "players", 2, 8, None, line)
    ok &= good and rs is not None
    if rs is not None:
        ok &= ck.players("simulate", rs, players, lines.get("players", line))
    good, deals = ck.whole_number("simulate", data, lines, "deals", 10, _MAX_DEALS, 2000, line)
    ok &= good
    good, seed = ck.whole_number("simulate", data, lines, "seed", 0, 2**31, 1, line)
    ok &= good
    bots = data.get("bots", "willughby")
    if not isinstance(bots, str) or bots not in BOT_NAMES:
        ck.fail(
            lines.get("bots", line),
            "simulate.bots",
            f"unknown computer player {_shown(bots)} (players: {', '.join(BOT_NAMES)})",
        )
        ok = False
    if not ok:
        return None
    assert rs is not None and deals is not None and seed is not None  # defaults given
    return SimulateData(
        ruleset=rs.id, players=resolve_players(rs, players), deals=deals, seed=seed, bots=bots
    )


def parse_skill(ck: BlockChecker, content: str, line: int) -> SkillData | None:
    """``{"skill": [opponents], "rulesets", "deals", "seed", "samples"}``: the expert seat's
    gain per ruleset, from the precomputed figures (:mod:`tutor.teaching.figures`), which must
    hold these parameters."""
    from tutor.engine.simulate import SKILL_OPPONENTS
    from tutor.teaching.figures import skill_figures

    got = ck.mapping(
        "simulate", content, line, ("skill", "rulesets", "deals", "seed", "samples"), ("skill",)
    )
    if got is None:
        return None
    data, lines = got
    opps = data["skill"]
    if isinstance(opps, str):
        opps = [opps]
    if not isinstance(opps, list) or not opps or not all(o in SKILL_OPPONENTS for o in opps):
        ck.fail(
            lines.get("skill", line),
            "simulate.skill",
            f"must list the players an expert seat is measured against (from "
            f"{', '.join(SKILL_OPPONENTS)}), not {_shown(data['skill'])}",
        )
        return None
    ok = True
    rids = data.get("rulesets")
    if rids is not None:
        if isinstance(rids, str):
            rids = [rids]
        if not isinstance(rids, list) or not rids:
            ck.fail(lines.get("rulesets", line), "simulate.rulesets", "must be a list of rulesets")
            return None
        for rid in rids:
            ok &= ck.ruleset("simulate", rid, lines.get("rulesets", line), "rulesets") is not None
    good, deals = ck.whole_number("simulate", data, lines, "deals", 10, _MAX_DEALS, 1000, line)
    ok &= good
    good, seed = ck.whole_number("simulate", data, lines, "seed", 0, 2**31, 1, line)
    ok &= good
    good, samples = ck.whole_number("simulate", data, lines, "samples", 1, 100000, 200, line)
    ok &= good
    if not ok:
        return None
    assert deals is not None and seed is not None and samples is not None  # defaults given
    try:
        skill_figures(opps, deals, seed, samples, rids)
    except DataError as exc:
        ck.fail(lines.get("skill", line), "simulate.skill", str(exc))
        return None
    return SkillData(skill=opps, rulesets=rids, deals=deals, seed=seed, samples=samples)
