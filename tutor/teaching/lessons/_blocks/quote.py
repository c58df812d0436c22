"""``quote``: quotations by reference (``source:id``), one a line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.teaching.lessons._common import _REF_RE, _shown
from tutor.teaching.lessons._model import QuoteData

if TYPE_CHECKING:
    from tutor.teaching.lessons._blockcheck import BlockChecker

DESCRIPTION = "quotations by reference (source:id), shown verbatim with their citations"


def parse(ck: BlockChecker, content: str, line: int) -> QuoteData | None:
    """``{"refs": [source:id, ...]}``: each a quotation of the library."""
    refs = []
    ok = True
    ck.quote_blocks += 1
    for i, raw in enumerate(content.splitlines()):
        ref = raw.strip()
        if ref.startswith("- "):
            ref = ref[2:].strip()
        if not ref or ref.startswith("#"):
            continue
        if not _REF_RE.match(ref):
            ck.fail(
                line + i,
                "quote",
                f"{_shown(ref)} is not a quotation reference (source:id, e.g. parlett:deal-eight)",
            )
            ok = False
            continue
        ck.quoted.add(ref.split(":", 1)[0])
        try:
            ck.library.quotation(ref)
        except KeyError:
            src = ref.split(":", 1)[0]
            hint = (
                "" if src in ck.library.sources else f" (sources: {', '.join(ck.library.sources)})"
            )
            ck.fail(line + i, "quote", f"unknown quotation '{ref}'{hint}")
            ok = False
            continue
        refs.append(ref)
    if not refs and ok:
        ck.fail(line - 1, "quote", "the block names no quotation")
        ok = False
    return {"refs": refs} if ok else None
