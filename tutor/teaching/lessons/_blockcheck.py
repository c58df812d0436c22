"""What a lesson's block readers see of the checker (:mod:`tutor.teaching.lessons._blocks`):
the file's path, the library, :meth:`BlockChecker.fail` and the helpers that read a block's
``key: value`` lines.  :class:`~tutor.teaching.lessons._checker._Checker`, which reads the whole
file and calls the readers, is this class and more; the readers import this module, never that
one, so the lessons' modules draw no import circle."""

from __future__ import annotations

from pathlib import Path

from tutor.engine import yamlfile
from tutor.engine.errors import DataError
from tutor.teaching.lessons._common import _display, _shown

__all__ = ["BlockChecker"]


class BlockChecker:
    """The problems of one lesson file (each a one-line message) as its blocks are read.

    The block readers use :meth:`fail`, :attr:`library` and the helpers :meth:`mapping`,
    :meth:`whole_number`, :meth:`ruleset` and :meth:`players`; a quote block counts itself in
    ``quote_blocks`` and the sources it names in ``quoted``.
    """

    def __init__(self, path: Path, library=None):
        self.path = path
        self._library = library
        self.problems: list[str] = []
        self.quoted: set[str] = set()  # sources named by quote blocks, found or not
        self.quote_blocks = 0

    @property
    def library(self):
        """The sources and rulesets the blocks are checked against (loaded when first asked)."""
        if self._library is None:
            from tutor.engine.sources import default_library

            self._library = default_library()
        return self._library

    def fail(self, line: int, key: str, message: str) -> None:
        """Add the problem ``FILE:LINE: KEY: message``, the key and message cut short if a
        mistyped file made them long."""
        key = key if len(key) <= 60 else key[:57] + "..."
        message = message if len(message) <= 400 else message[:397] + "..."
        self.problems.append(f"{_display(self.path)}:{line}: {key}: {message}")

    # -- helpers for the block readers ----------------------------------------------------

    def mapping(
        self,
        kind: str,
        content: str,
        line: int,
        allowed: tuple[str, ...],
        required: tuple[str, ...] = (),
    ) -> tuple[dict, dict] | None:
        """A block of ``key: value`` lines with only ``allowed`` keys and every ``required``
        one, as ``(data, key lines)``; None after a problem."""
        try:
            data, doc = yamlfile.load(content, _display(self.path), line, kind)
        except DataError as exc:
            self.problems.append(str(exc))
            return None
        if data is None:
            data = {}
        if not isinstance(data, dict):
            self.fail(line, kind, "the block must hold 'key: value' lines")
            return None
        lines = doc.key_lines()
        ok = True
        for k in data:
            if k not in allowed:
                self.fail(
                    lines.get(k, line), f"{kind}.{k}", f"unknown key (keys: {', '.join(allowed)})"
                )
                ok = False
        for k in required:
            if k not in data:
                self.fail(line, f"{kind}.{k}", "missing")
                ok = False
        return (data, lines) if ok else None

    def whole_number(
        self,
        kind: str,
        data: dict,
        lines: dict,
        key: str,
        lo: int,
        hi: int,
        default: int | None,
        line: int,
    ) -> tuple[bool, int | None]:
        """``(ok, value)`` of ``key``: a whole number from ``lo`` to ``hi``, ``default`` when
        not given."""
        v = data.get(key, default)
        if v is None:
            return True, None
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            self.fail(
                lines.get(key, line),
                f"{kind}.{key}",
                f"{_shown(v)} is not a whole number from {lo} to {hi}",
            )
            return False, None
        return True, v

    def ruleset(self, kind: str, rid: object, where: int, key: str = "ruleset"):
        """The ruleset ``rid`` of the library, or None after a problem."""
        if not isinstance(rid, str) or rid not in self.library.rulesets:
            self.fail(
                where,
                f"{kind}.{key}",
                f"unknown ruleset {_shown(rid)} (rulesets: {', '.join(self.library.rulesets)})",
            )
            return None
        return self.library.rulesets[rid]

    def players(self, kind: str, rs, players: int | None, where: int) -> bool:
        """True when ``players`` (if given) is a player count ruleset ``rs`` covers."""
        if players is not None and players not in rs.counts:
            self.fail(
                where,
                f"{kind}.players",
                f"ruleset '{rs.id}' does not cover {players} "
                f"players (it covers "
                f"{', '.join(map(str, rs.player_counts))})",
            )
            return False
        return True
