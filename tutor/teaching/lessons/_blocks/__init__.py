"""The engine blocks a lesson may use, each read and checked by its own module beside its
description: ``quote``, ``puzzle``, ``rules``, ``odds``, ``simulate`` (with ``skill``),
``cards``, ``records`` (the records of the game, from the data), and ``coach`` (a deal played
with a coach).

A block's module has ``DESCRIPTION`` (one line) and ``parse(checker, content, line)``, which
reads the fenced block's ``content`` (its first line is file line ``line``) and returns the
block's checked data (see :class:`tutor.teaching.lessons.Block`), or None after reporting each
problem through the checker (:class:`tutor.teaching.lessons._blockcheck.BlockChecker`).  A new block:
a module here, one entry in :data:`_READERS`, and its renderer in :mod:`tutor.app.blocks`.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from tutor.teaching.lessons._blocks import (
    cards,
    coach,
    odds,
    puzzle,
    quote,
    records,
    rules,
    simulate,
)
from tutor.teaching.lessons._model import BlockData

if TYPE_CHECKING:
    from tutor.teaching.lessons._blockcheck import BlockChecker

#: Info word -> the module that reads the block, in the order the blocks are listed.
_READERS: dict[str, ModuleType] = {
    "quote": quote,
    "puzzle": puzzle,
    "rules": rules,
    "odds": odds,
    "simulate": simulate,
    "cards": cards,
    "records": records,
    "coach": coach,
}

#: The blocks a lesson may use: info word -> one-line description.
BLOCK_KINDS = {word: module.DESCRIPTION for word, module in _READERS.items()}


def parse_block(checker: BlockChecker, word: str, content: str, line: int) -> BlockData | None:
    """The checked data of the block ``word`` (a key of :data:`BLOCK_KINDS`), or None after a
    problem."""
    return _READERS[word].parse(checker, content, line)
