"""The library: sources, their quotations and rulesets' parameters as loaded (the public data
classes of :mod:`tutor.engine.sources`), and the questions asked of them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

from tutor.engine.errors import DataError, UsageError
from tutor.engine.rulesets import Provenance, Ruleset

if TYPE_CHECKING:
    from tutor.engine.sources._historical_records import Record

#: The kinds of source a file may describe (``records``: a list of records of the game, a
#: teacher's or a historian's, not itself a text of the rules).
KINDS = ("primary", "reconstruction", "rules-sheet", "house", "records")
PACK_SIZE = 52


class UnknownQuotation(DataError, KeyError):
    """A quotation reference that names no loaded quotation (a :class:`DataError` and a ``KeyError``)."""

    __str__ = Exception.__str__  # a plain message, not KeyError's repr of it


@dataclass(frozen=True)
class Quotation:
    """One short verbatim quotation from a source text.

    ``source`` is the id of the source file that records it and ``id`` its quotation id (so its
    reference is ``source:id``, see :attr:`ref`); ``text`` is verbatim; ``where`` names the section
    it stands in; ``speaker`` is ``"willughby"`` when the source is quoting Willughby, another
    name for other quoted authors, or None; ``in_`` is the text file it is found in when that is
    not the source's own ``text``.  ``cited_in`` is the one-line citation of the source whose
    text holds the words, ``quoting`` the display name of the speaker (``"Willughby"``) or None,
    and ``citation`` the two together (``..., quoting Willughby``).  ``line`` is the line of its
    entry in the YAML file.
    """

    source: str
    id: str
    text: str
    where: str
    speaker: str | None = None
    in_: str | None = None
    cited_in: str = ""
    quoting: str | None = None
    line: int = 0

    @property
    def citation(self) -> str:
        """The citation on one line, ending ``, quoting NAME`` when the source quotes someone."""
        return f"{self.cited_in}, quoting {self.quoting}" if self.quoting else self.cited_in

    @property
    def ref(self) -> str:
        """The qualified reference ``source:id``."""
        return f"{self.source}:{self.id}"


@dataclass(frozen=True)
class Parameter:
    """One ruleset parameter as the source file gives it, with its provenance.

    ``name`` is a name from :data:`tutor.engine.rulesets.RULESET_PARAMETERS` (``players`` is None) or
    :data:`tutor.engine.rulesets.COUNT_PARAMETERS` (``players`` is the player count).  ``value`` is the
    value the engine uses (sets as tuples in canonical order); ``status`` is ``stated``, ``read``
    or ``chosen``; ``quotes`` are qualified quotation references (``source:id``); ``note`` is our
    explanation (always present unless stated); ``source_value`` is what the source's text
    literally gives when we had to choose another value (``has_source_value`` says whether one
    is recorded).
    """

    ruleset: str
    name: str
    players: int | None
    value: Any
    status: str
    quotes: tuple[str, ...] = ()
    note: str | None = None
    source_value: Any = None
    has_source_value: bool = False
    line: int = 0
    implicit: bool = False

    @property
    def provenance(self) -> Provenance:
        """The :class:`tutor.engine.rulesets.Provenance` of this parameter."""
        return Provenance(self.status, self.quotes, self.note)


@dataclass(frozen=True)
class Source:
    """One source file: citation, summary, quotations, records, problems and ruleset ids.

    ``kind`` is one of :data:`KINDS`.  The citation fields are ``author`` (or None for an
    anonymous work), ``title``, ``in_`` (the larger work), ``date`` and ``published`` (where).
    ``text`` is the file name of the collected text the quotations are checked against (None if
    there is none); ``quotations`` maps quotation id to :class:`Quotation`; ``records`` the
    records of the game it lists (:class:`~tutor.engine.sources._historical_records.Record`);
    ``problems`` a list of dicts ``{id, source, summary, quotes, rulesets}``; ``rulesets`` the ids
    of the rulesets the file defines; ``path`` the YAML file.  ``dated`` is when the text was
    written, for the family tree and timeline of the texts: ``{year, date, status, quotes,
    note}`` (None when the text gives no date); ``based_on`` the sources it draws on, each
    ``{source, status, quotes, note}`` (``status`` ``stated`` or ``read``; ``quotes``
    qualified references, the words that show it).  ``origin`` is where its file was found:
    ``own`` (the project's), ``home`` (the teacher's folder) or ``extra`` (``--sources``).
    """

    id: str
    kind: str
    author: str | None
    title: str
    in_: str | None
    date: str | None
    published: str | None
    text: str | None
    summary: str
    quotations: dict[str, Quotation]
    records: list[Record]
    problems: list[dict[str, Any]]
    rulesets: tuple[str, ...]
    path: Path
    dated: dict[str, Any] | None = None
    based_on: tuple[dict[str, Any], ...] = ()
    origin: str = "own"

    @property
    def is_text_of_rules(self) -> bool:
        """True for a text that describes the rules (a reconstruction, a rules sheet, house
        rules): not the primary source, and not a list of records."""
        return self.kind not in ("primary", "records")

    @property
    def who(self) -> str:
        """The source in a few words: its author, else the larger work or the place it
        appeared in, else its title."""
        return self.author or self.in_ or self.published or self.title

    @property
    def citation_text(self) -> str:
        """The citation on one line: ``author, "title", in, date, published`` (empty parts left out)."""
        parts = [self.author, f'"{self.title}"', self.in_, self.date, self.published]
        return ", ".join(p for p in parts if p)


@dataclass
class Library:
    """Every loaded source and ruleset.

    ``sources`` maps source id to :class:`Source` and ``rulesets`` maps ruleset id to
    :class:`tutor.engine.rulesets.Ruleset`, both in load order (the project's files alphabetically, then
    the learner's, then extra folders).  ``parameters`` maps ruleset id to its
    :class:`Parameter` entries in display order (whole-ruleset parameters first, then each
    player count's).  ``ruleset_source`` maps ruleset id to the id of the source defining it.
    """

    sources: dict[str, Source] = field(default_factory=dict)
    rulesets: dict[str, Ruleset] = field(default_factory=dict)
    parameters: dict[str, list[Parameter]] = field(default_factory=dict)
    ruleset_source: dict[str, str] = field(default_factory=dict)
    #: References of quotations with no text to check them against (None: not yet verified).
    unchecked: frozenset[str] | None = None
    #: Every record of the game, by id, in load order (:class:`Record`).
    records: dict[str, Record] = field(default_factory=dict)
    #: One line ``FILE:LINE: KEY: what is wrong`` for each problem of a file of the teacher's
    #: folder that was left out (the program runs without it).
    refused: tuple[str, ...] = ()

    def timeline(self, kinds: Iterable[str] | None = None) -> list[Record]:
        """The records (of ``kinds``, default every kind) in date order, undated last
        (:attr:`RecordDate.key`; records of one date in load order)."""
        wanted = set(kinds) if kinds is not None else None
        items = [r for r in self.records.values() if wanted is None or r.kind in wanted]
        return sorted(items, key=lambda r: r.date.key)

    def reporter(self, record: Record) -> str | None:
        """Who gives ``record``, on one line: the citation of the source whose text holds its
        words where it has words in a text, else of its ``reported_by`` source, else its
        ``reporter``; None when it is cited at first hand."""
        if record.quote:
            q = self.quotation(record.quote)
            if q.in_ or self.sources[q.source].text:
                return q.cited_in
        if record.reported_by:
            return self.sources[record.reported_by].citation_text
        return record.reporter

    def ruleset_name(self, ruleset_id: str) -> str:
        """A name for the ruleset that gives none of its values away (for source puzzles, where
        a title such as "points, last player plays on" would answer the question): ``the
        ruleset of`` the source in a few words, then, where the source gives several rulesets,
        the players each is for (and a letter where that is not enough), e.g. ``the ruleset of
        David Parlett for 4 players``.  Titles stay in ``laugh rules``."""
        rs = self.ruleset(ruleset_id)
        src = self.sources[self.ruleset_source[ruleset_id]]
        siblings = [r for r in src.rulesets if r in self.rulesets]
        name = f"the ruleset of {src.who}"
        if len(siblings) == 1:
            return name
        counts = _count_words(rs.player_counts)
        name += f" for {counts} players"
        alike = [r for r in siblings if _count_words(self.rulesets[r].player_counts) == counts]
        if len(alike) > 1:
            name += f" ({'ABCDEFGHIJ'[alike.index(ruleset_id) % 10]})"
        return name

    def quotation(self, ref: str, default_source: str | None = None) -> Quotation:
        """The quotation ``ref``: ``source:id``, or a bare ``id`` of ``default_source``.

        Raises :class:`UnknownQuotation` (a DataError and KeyError) when there is none.
        """
        src, qid = _split_ref(ref, default_source)
        source = self.sources.get(src) if src else None
        if source is None or qid not in source.quotations:
            raise UnknownQuotation(
                f"unknown quotation '{ref}'"
                + ("" if src else " (a bare id needs a default source)")
            )
        return source.quotations[qid]

    def ruleset(self, ruleset_id: str, players: int | None = None) -> Ruleset:
        """The ruleset ``ruleset_id`` (or that id typed in any case: :func:`tutor.engine.names.
        find_name`); with ``players``, also check that it covers that count.

        Raises :class:`~tutor.engine.errors.UsageError` (one line: the nearest ids and every
        id, or the ruleset's player counts) for an unknown id or an unsupported player count.
        """
        rs = self.rulesets.get(ruleset_id)
        if rs is None:  # typed in another case, or mistyped (did you mean)
            from tutor.engine.names import find_name

            rs = self.rulesets[find_name(ruleset_id, self.rulesets, "ruleset")]
            ruleset_id = rs.id
        if players is not None and players not in rs.counts:
            raise UsageError(
                f"ruleset '{ruleset_id}' is for {_or_list(rs.player_counts)} players, not {players}"
            )
        return rs

    def source(self, source_id: str) -> Source:
        """The source ``source_id`` (in any case); raises UsageError naming the nearest ids and
        listing every id if there is none."""
        src = self.sources.get(source_id)
        if src is None:  # typed in another case, or mistyped (did you mean)
            from tutor.engine.names import find_name

            src = self.sources[find_name(source_id, self.sources, "source")]
        return src

    def source_of(self, ruleset_id: str) -> Source:
        """The :class:`Source` that defines ruleset ``ruleset_id`` (UsageError if unknown)."""
        self.ruleset(ruleset_id)
        return self.sources[self.ruleset_source[ruleset_id]]

    def parameter(self, ruleset_id: str, name: str, players: int | None = None) -> Parameter:
        """One :class:`Parameter` of a ruleset (``players`` for the per-count parameters).

        Raises UsageError for an unknown ruleset or player count, or a name that is not a
        parameter (for that scope).
        """
        self.ruleset(ruleset_id, players)
        for p in self.parameters[ruleset_id]:
            if p.name == name and p.players == players:
                return p
        raise UsageError(
            f"{name!r} is not a {'per-player-count' if players else 'whole-ruleset'} "
            f"parameter of ruleset {ruleset_id} (`laugh rules --parameters` lists "
            "them)"
        )

    def quotations_of(self, refs: Iterable[str]) -> list[Quotation]:
        """The :class:`Quotation` objects for qualified references (unknown ones raise)."""
        return [self.quotation(r) for r in refs]


@overload
def _split_ref(ref: str, default_source: str) -> tuple[str, str]: ...
@overload
def _split_ref(ref: str, default_source: str | None) -> tuple[str | None, str]: ...


def _split_ref(ref: str, default_source: str | None) -> tuple[str | None, str]:
    if ":" in ref:
        src, qid = ref.split(":", 1)
        return src, qid
    return default_source, ref


def _qualify(ref: str, default_source: str) -> str:
    src, qid = _split_ref(ref, default_source)
    return f"{src}:{qid}"


def _count_words(counts: Sequence[int]) -> str:
    """Player counts in words: ``4``, ``4 or 5``, ``3 to 6``."""
    counts = sorted(counts)
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return _or_list(counts)


def _or_list(items: Sequence[Any]) -> str:
    words = [str(i) for i in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
