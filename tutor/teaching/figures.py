"""Figures a lesson shows that take too long to compute while the lesson is open.

The table of how much an expert seat gains in each reconstruction (``laugh simulate --skill``,
:func:`tutor.engine.simulate.run_skill`) plays thousands of deals with the engine's analysis
behind every decision of one seat: about ten minutes on one core with the analysis's compiled
kernel (half an hour on two cores before it).  Its figures are computed
once, by the command, and kept in ``lessons/figures/skill.json`` exactly as ``laugh simulate
--skill --json`` prints them, every deal's figures included, so that they can be checked (the
summaries against the deals, and any deal replayed: the figures are reproducible on any
machine).  No figure is typed by hand; a lesson's ``simulate`` block with ``skill`` names the
study's parameters and is refused by ``laugh lessons check`` when the file holds other figures.
"""

from __future__ import annotations

from pathlib import Path

from tutor.engine import jsonfile
from tutor.engine.data import data_dir
from tutor.engine.errors import DataError
from tutor.engine.simulate import SKILL_FORMAT

#: The precomputed skill figures, relative to the lessons folder.
SKILL_FILE = Path("figures") / "skill.json"


def skill_path() -> Path:
    """Where the precomputed skill figures are (``lessons/figures/skill.json``)."""
    return data_dir("lessons") / SKILL_FILE


def skill_command(opponents: list[str], deals: int, seed: int, samples: int) -> str:
    """The command that makes the figures of a skill block."""
    return (
        f"laugh simulate --skill --opponents {','.join(opponents)} --deals {deals} "
        f"--seed {seed} --samples {samples} --json > lessons/{SKILL_FILE.as_posix()}"
    )


def skill_figures(
    opponents: list[str],
    deals: int,
    seed: int,
    samples: int,
    rulesets: list[str] | None = None,
    path: Path | None = None,
) -> dict:
    """The figures a skill block asks for, read from ``path`` (default :func:`skill_path`):
    the file's object (:func:`tutor.engine.simulate.skill_json`) with ``rows`` kept to
    ``rulesets`` (default every ruleset in the file) and ``opponents``, in that order.

    Raises :class:`DataError` (one line, naming the command that makes them) when the file is
    missing or unreadable, or holds figures for other parameters or without a row asked for.
    """
    path = path or skill_path()
    make = f"make them with `{skill_command(opponents, deals, seed, samples)}`"
    try:
        raw = jsonfile.load(path, path.name)
    except jsonfile.JSONError as exc:
        if not path.is_file():
            raise DataError(f"{path.name}: no precomputed skill figures; {make}") from None
        raise DataError(f"{exc}; {make}") from None
    if not isinstance(raw, dict) or raw.get("format") != SKILL_FORMAT:
        raise DataError(f"{path.name}: not skill figures (format {SKILL_FORMAT}); {make}")
    asked = {"deals": deals, "seed": seed, "samples": samples}
    got = {k: raw.get(k) for k in asked}
    if got != asked or not set(opponents) <= set(raw.get("opponents") or []):
        have = ", ".join(f"{k} {v}" for k, v in got.items())
        raise DataError(
            f"{path.name}: the figures are for {have}, opponents "
            f"{','.join(raw.get('opponents') or [])}; {make}"
        )
    rows = [r for r in raw.get("rows", []) if isinstance(r, dict)]
    if rulesets is None:
        rulesets = list(dict.fromkeys(str(r.get("ruleset")) for r in rows))
    out = []
    for rid in rulesets:
        for opp in opponents:
            row = next(
                (r for r in rows if r.get("ruleset") == rid and r.get("opponent") == opp), None
            )
            if row is None:
                raise DataError(f"{path.name}: no figures for {rid} against {opp}; {make}")
            out.append(row)
    return {**raw, "opponents": list(opponents), "rows": out}
