"""The quotation audit: every quotation compared with the source text it stands in (verbatim,
whitespace aside), and with every other source text."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tutor.engine.errors import DataError
from tutor.engine.sources import _texts
from tutor.engine.sources._library import Library, Quotation
from tutor.engine.sources._source_file import display_path


def normalise(text: str) -> str:
    """``text`` with every run of whitespace (newlines, tabs, no-break spaces) made one space."""
    return " ".join(text.split())


@dataclass(frozen=True)
class QuotationAudit:
    """What :func:`audit_quotations` found, every list entry one line ``FILE:LINE: KEY: ...``.

    ``verified`` holds the references (``source:id``) of the quotations compared with their
    text and found verbatim, and no others; ``unchecked`` a line for each quotation with no text
    to compare it with (its source has ``text: null`` and it names no ``in`` file), ending
    ``cited, not checked (no text)``, with ``unchecked_refs`` their references; ``problems`` a line for
    each quotation that is not verbatim or whose text is missing or unreadable; ``shared`` a
    finding for each quotation that stands verbatim in more than one source text (naming them);
    ``total`` the number of quotations.
    """

    verified: tuple[str, ...]
    unchecked: tuple[str, ...]
    unchecked_refs: tuple[str, ...]
    problems: tuple[str, ...]
    shared: tuple[str, ...]
    total: int


class _Texts:
    """The source texts read so far, normalised (None for one that cannot be read), with the
    name each was given by; a text that cannot be read adds a line to ``problems``."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        self.texts: dict[Path, str | None] = {}
        self.names: dict[Path, str] = {}

    def read(self, path: Path, name: str, where: str) -> str | None:
        self.names[path] = name
        if path not in self.texts:
            try:
                self.texts[path] = normalise(_texts.read(path))
            except (OSError, UnicodeDecodeError, _texts.TextRefused) as exc:
                self.texts[path] = None
                why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
                self.problems.append(f"{where}: cannot read {path}: {why}")
        return self.texts[path]

    def holding(self, quote: str) -> list[str]:
        """The names of the readable texts that hold ``quote`` (normalised), sorted."""
        return sorted(
            self.names[path]
            for path, text in self.texts.items()
            if text is not None and quote in text
        )


def audit_quotations(
    library: Library, texts_dir: Path | None, only: list[Quotation] | None = None
) -> QuotationAudit:
    """Compare every quotation (or ``only`` these) with its text, and each with every other
    source text.

    A quotation is looked for (after :func:`normalise` on both sides) in its ``in`` file if
    given, else in its source's ``text``; a file name is resolved first beside the YAML file of
    the source that first names it as its ``text`` (else of the quotation's own source: a
    teacher's own texts), then in ``texts_dir``, so a file laid beside a teacher's YAML file
    never stands in for a text of the project's sources.  A quotation with neither is not
    checked, and is listed as such, never counted as verified.  The source texts are every text
    file the sources and quotations name that can be read; a quotation found verbatim in more
    than one of them is reported in :attr:`QuotationAudit.shared`.  Returns a
    :class:`QuotationAudit`; raises nothing for missing or unreadable texts (they are problems).
    """
    verified: list[str] = []
    unchecked: list[str] = []
    unchecked_refs: list[str] = []
    problems: list[str] = []
    texts = _Texts(problems)
    located: list[tuple[Quotation, str]] = []
    owners: dict[str, Path] = {}
    for source in library.sources.values():
        if source.text:
            owners.setdefault(source.text, source.path)
    wanted = None if only is None else {q.ref for q in only}
    # where each text file is, found once per name and folder (a source's quotations mostly
    # name one text): the path, or why it is not read
    found_at: dict[tuple[str, Path], Path | None | _texts.TextRefused] = {}
    for source in library.sources.values():
        shown = None
        for q in source.quotations.values():
            if wanted is not None and q.ref not in wanted:
                continue
            if shown is None:
                shown = display_path(source.path)
            where = f"{shown}:{q.line}: quotations.{q.id}"
            located.append((q, where))
            name = q.in_ or source.text
            if not name:
                unchecked.append(f"{where}: {q.ref} cited, not checked (no text)")
                unchecked_refs.append(q.ref)
                continue
            key = (name, owners.get(name, source.path))
            if key not in found_at:
                try:
                    found_at[key] = _texts.locate(name, key[1], texts_dir)
                except _texts.TextRefused as exc:
                    found_at[key] = exc
            path = found_at[key]
            if isinstance(path, _texts.TextRefused):
                problems.append(f"{where}: text file '{name}' of {q.ref} is not read: {path}")
                continue
            if path is None:
                problems.append(
                    f"{where}: text file '{name}' of {q.ref} not found"
                    + ("" if texts_dir else " (no source-texts folder)")
                )
                continue
            text = texts.read(path, name, where)
            if text is None:
                continue
            quote = normalise(q.text)
            if quote and quote in text:
                verified.append(q.ref)
                continue
            problems.append(
                f"{where}: {q.ref} is not verbatim in {name}: " + _first_difference(quote, text)
            )

    shared: list[str] = []
    for q, where in located:
        quote = normalise(q.text)
        found = texts.holding(quote) if quote else []
        if len(found) > 1:
            shared.append(
                f"{where}: {q.ref} stands verbatim in more than one source text: "
                + ", ".join(found)
            )
    return QuotationAudit(
        tuple(verified),
        tuple(unchecked),
        tuple(unchecked_refs),
        tuple(problems),
        tuple(shared),
        len(located),
    )


def check_quotations(library: Library, texts_dir: Path | None) -> list[str]:
    """The problems :func:`audit_quotations` finds: a list of one-line problems (file, quotation
    reference, and the first stretch where quotation and text part), empty when every
    quotation that has a text stands verbatim in it.  Quotations without a text are not
    problems here, and not verified either: see :attr:`QuotationAudit.unchecked`."""
    return list(audit_quotations(library, texts_dir).problems)


def verify_quotations(library: Library, texts_dir: Path | None) -> None:
    """Check every quotation that names a text (its ``in`` file, or its source's ``text``)
    against that text, and note in ``library.unchecked`` the references of those with none.

    Raises :class:`~tutor.engine.errors.DataError` ``FILE:LINE: quotations.ID: ...`` for the first
    quotation that is not verbatim in its text, or whose text cannot be found or read.
    """
    audit = audit_quotations(library, texts_dir)
    if audit.problems:
        extra = len(audit.problems) - 1
        raise DataError(
            audit.problems[0]
            + (f" (and {extra} more: laugh sources check lists them)" if extra else "")
        )
    library.unchecked = frozenset(audit.unchecked_refs)


def _first_difference(quote: str, text: str) -> str:
    """Describe where ``quote`` stops matching ``text`` (both normalised)."""
    lo, hi = 0, len(quote)
    while lo < hi:  # longest prefix of quote found in text
        mid = (lo + hi + 1) // 2
        if quote[:mid] in text:
            lo = mid
        else:
            hi = mid - 1
    if lo == 0:
        return f"no part of it is found (it begins {quote[:40]!r})"
    pos = text.find(quote[:lo])
    before = quote[max(0, lo - 30) : lo]
    return (
        f"after {before!r} the quotation has {quote[lo : lo + 30]!r} "
        f"but the text has {text[pos + lo : pos + lo + 30]!r}"
    )
