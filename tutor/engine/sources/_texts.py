"""Finding and reading a source's collected text (its ``text``, or a quotation's ``in``): only a
file inside the sources folder it is named from (beside the source's YAML file) or inside the
source-texts folder, only a regular file (:func:`tutor.engine.infile.open_input`), and at most
:data:`MAX_TEXT_BYTES` of it.  A name that leads elsewhere (``../../../../etc/passwd``, an
absolute path, a link out of the folder) is refused, never read."""

from __future__ import annotations

import os
from pathlib import Path

from tutor.engine.infile import open_input

#: The largest source text read, in bytes (the largest shipped is about 12 kB; a whole book in
#: plain text is under 2 MB).
MAX_TEXT_BYTES = 2_000_000


class TextRefused(Exception):
    """A source text that is not read: ``str(exc)`` says why in words (no file name)."""


def _inside(path: Path, folder: Path) -> bool:
    """Whether ``path``, every link followed, is inside ``folder`` (links followed too)."""
    try:
        return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))
    except (OSError, ValueError):
        return False


def locate(name: str, yaml_path: Path | str, texts_dir: Path | str | None) -> Path | None:
    """The text file ``name`` of the source file ``yaml_path``: beside it, else in
    ``texts_dir``; None when it is in neither.  Raises :class:`TextRefused` when ``name`` leads
    out of the folder it is looked for in (by ``..``, an absolute path, or a link)."""
    folders = [Path(yaml_path).parent] + ([Path(texts_dir)] if texts_dir is not None else [])
    escaped = None
    for folder in folders:
        candidate = folder / name
        if not os.path.lexists(candidate):
            continue
        if not _inside(candidate, folder):
            escaped = escaped or folder
            continue
        return candidate
    if escaped is not None:
        raise TextRefused(
            f"it leads out of the folder {escaped} (the text of a source is a file "
            "in its sources folder or in the source-texts folder)"
        )
    return None


def read(path: Path) -> str:
    """The text of ``path`` (UTF-8, a byte-order mark dropped).  Raises :class:`TextRefused`
    for a file larger than :data:`MAX_TEXT_BYTES`, :class:`OSError` when it cannot be read
    (not a regular file among them: :class:`tutor.engine.infile.NotRegularFile`), and
    :class:`UnicodeDecodeError` when it is not UTF-8."""
    with open_input(path) as fh:
        data = fh.read(MAX_TEXT_BYTES + 1)
    if len(data) > MAX_TEXT_BYTES:
        raise TextRefused(
            f"it is larger than {MAX_TEXT_BYTES:,} bytes, more than a source text "
            "needs; check that it is the file you meant"
        )
    return data.decode("utf-8-sig")
