"""``cards``: hands or a table of cards, one labelled row each."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.teaching.lessons._common import _shown
from tutor.teaching.lessons._model import CardsData

if TYPE_CHECKING:
    from tutor.teaching.lessons._blockcheck import BlockChecker

DESCRIPTION = "hands or a table of cards, one labelled row each"


def parse(ck: BlockChecker, content: str, line: int) -> CardsData | None:
    """``{"rows": [(label, [card, ...]), ...], "caption"}``: one ``label: cards`` per line
    (split at the first colon, so a caption may hold colons), no card in two rows;
    ``caption: text`` is shown under the cards."""
    from tutor.engine.cards import code, parse_cards
    from tutor.engine.errors import NotationError

    rows = []
    caption = None
    seen: dict[int, str] = {}
    ok = True
    for i, raw in enumerate(content.splitlines()):
        where = line + i
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        if ":" not in text:
            ck.fail(
                where, "cards", f"{_shown(text)} is not 'label: cards' (e.g. 'Your hand: 7H 7D QS')"
            )
            ok = False
            continue
        label, value = (part.strip() for part in text.split(":", 1))
        if not label:
            ck.fail(where, "cards", "the label before ':' is empty")
            ok = False
            continue
        if label == "caption":
            caption = value
            continue
        try:
            cards = parse_cards(value) if value else []
        except NotationError as exc:
            ck.fail(where, f"cards.{label}", str(exc))
            ok = False
            continue
        for c in cards:
            if c in seen:
                ck.fail(where, f"cards.{label}", f"{code(c)} is also in '{seen[c]}'")
                ok = False
            seen[c] = label
        rows.append((label, cards))
    if not rows and ok:
        ck.fail(line - 1, "cards", "the block shows no cards")
        ok = False
    return {"rows": rows, "caption": caption} if ok else None
