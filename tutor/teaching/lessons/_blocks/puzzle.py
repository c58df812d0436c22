"""``puzzle``: engine-graded puzzles of one kind (and theme), set from what the lesson has
taught."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.teaching.lessons._common import _ID_RE, _STEM_RE, _shown
from tutor.teaching.lessons._model import PuzzleData

if TYPE_CHECKING:
    from tutor.teaching.lessons._blockcheck import BlockChecker

DESCRIPTION = "engine-graded puzzles: objective, kind, theme, count, ruleset, players, difficulty"

_MAX_PUZZLES = 10


def parse(ck: BlockChecker, content: str, line: int) -> PuzzleData | None:
    """``{"kind", "theme", "count", "ruleset", "players", "difficulty", "objective"}`` (None
    where not given): ``kind`` is the puzzle spec ``KIND[/THEME]@LESSON`` (see
    :class:`tutor.teaching.lessons.Block`); ``objective`` the id of the lesson objective the
    puzzles test (checked against the front matter by the lesson's checker)."""
    got = ck.mapping(
        "puzzle",
        content,
        line,
        ("objective", "kind", "theme", "count", "ruleset", "players", "difficulty"),
        ("kind",),
    )
    if got is None:
        return None
    data, lines = got
    kind, theme = data["kind"], data.get("theme")
    ok = _check_kind(ck, kind, theme, lines, line)
    good, count = ck.whole_number("puzzle", data, lines, "count", 1, _MAX_PUZZLES, 1, line)
    ok &= good
    good, players = ck.whole_number("puzzle", data, lines, "players", 2, 8, None, line)
    ok &= good
    good, difficulty = ck.whole_number("puzzle", data, lines, "difficulty", 1, 5, None, line)
    ok &= good
    objective = data.get("objective")
    if objective is not None and not (isinstance(objective, str) and _ID_RE.match(objective)):
        ck.fail(
            lines.get("objective", line),
            "puzzle.objective",
            f"{_shown(objective)} is not an objective id (lower-case words joined by '-')",
        )
        ok = False
    rid = data.get("ruleset")
    if rid is not None:
        ok = _check_ruleset(ck, kind, rid, players, lines, line, ok)
    if not ok:
        return None
    spec = kind + (f"/{theme}" if theme else "")
    if _STEM_RE.match(ck.path.stem):
        spec += f"@{ck.path.stem}"
    assert count is not None  # a default is given
    return PuzzleData(
        kind=spec,
        theme=theme,
        count=count,
        ruleset=rid,
        players=players,
        difficulty=difficulty,
        objective=objective,
    )


def _check_kind(ck: BlockChecker, kind, theme, lines: dict, line: int) -> bool:
    """A puzzle kind, and a theme of it if one is given."""
    from tutor import puzzles

    kinds = tuple(puzzles.KINDS)
    if kind not in kinds:
        ck.fail(
            lines.get("kind", line),
            "puzzle.kind",
            f"unknown puzzle kind {_shown(kind)} (kinds: {', '.join(kinds)})",
        )
        return False
    if theme is not None:
        themes = puzzles.themes_of(kind)
        if not isinstance(theme, str) or theme not in themes:
            shown = repr(theme) if isinstance(theme, str) else _shown(theme)
            ck.fail(
                lines.get("theme", line),
                "puzzle.theme",
                f"puzzles of kind '{kind}' have no theme {shown} (themes: {', '.join(themes)})",
            )
            return False
    return True


def _check_ruleset(
    ck: BlockChecker, kind, rid, players: int | None, lines: dict, line: int, ok: bool
) -> bool:
    """``ok`` and the ruleset ``rid`` known, covering ``players``, and one puzzles of ``kind``
    can be set under (checked only when all else is right)."""
    rs = ck.ruleset("puzzle", rid, lines.get("ruleset", line))
    if rs is None:
        return False
    ok &= ck.players("puzzle", rs, players, lines.get("players", line))
    if ok:
        from tutor import puzzles

        allowed = [getattr(r, "id", r) for r in puzzles.applicable_rulesets(kind)]
        if rid not in allowed:
            ck.fail(
                lines.get("ruleset", line),
                "puzzle.ruleset",
                f"puzzles of kind '{kind}' cannot be set under '{rid}' "
                f"(rulesets: {', '.join(allowed) or 'none'})",
            )
            return False
    return ok
