"""The teacher's pack for one class on source criticism (``laugh class pack --seed S --out
FILE.html|.md``): made from the sources and the engine, never typed by hand.

What the pack holds, and where each part comes from:

- **the comparison table**: every ruleset parameter of every ruleset with its status (stated,
  read, chosen), from ``sources/*.yaml`` through :class:`tutor.engine.sources.Library`;
- **the contested rules**: each whole-game parameter on which the rulesets differ, every
  source's reading of it in its own words (the quotations its provenance cites) side by side,
  with citations, and our note where the value is read or chosen;
- **the family tree and the timeline of the texts**: the sources' ``dated`` and ``based_on``
  fields, with the quotations they rest on, and the attestations of the name (1522 to
  c. 1825); for a relation read from copied words, the sentences side by side with the share
  of their words in common (:func:`word_diff`);
- **the transcription differences**: every pair of quotations of Willughby that two texts
  give of one sentence, compared word by word (Parlett's "Game", du Coeur's "game");
- **ours**: the 50-minute plan, the causes of disagreement, the discussion questions and the
  open tasks with notes for the teacher, from ``lessons/class/source-criticism.yaml``
  (:func:`load_class_data`, checked: its quotation references exist, its plan fills the
  session, and every phrase it puts in double quotation marks stands in a quotation);
- **the quiz**: puzzles of the source-criticism kinds (``source-quiz``, ``reading``) seeded
  from the pack's seed, so the whole class gets the same, and the answer key.

Every quotation is a library quotation, verified against its text when the library loads
(``laugh sources check``).  :func:`render_html` prints it through ``classpack.html.j2``
(Jinja2, autoescaped), :func:`render_markdown` as Markdown with every text escaped.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tutor.engine.atomic import write_atomic
from tutor.engine.data import data_dir, source_texts_dir
from tutor.engine.errors import DataError, UsageError
from tutor.engine.parameters import COUNT_PARAMETERS, PARAMETERS, value_short, value_words

__all__ = ["CLASS_FILE", "ClassPack", "SECTIONS", "SOURCE_KINDS", "build_pack",
           "load_class_data", "render_html", "render_markdown", "transcriptions", "word_diff",
           "write_pack"]

#: The pack's data (ours), relative to the lessons folder.
CLASS_FILE = Path("class") / "source-criticism.yaml"
#: The puzzle kinds a quiz may draw on: those of source criticism.
SOURCE_KINDS = ("source-quiz", "reading")
#: The pack's sections, in order (a plan step names one).
SECTIONS = {"timeline": "The timeline", "tree": "The family tree of the texts",
            "transcriptions": "One sentence, two transcriptions",
            "contested": "The contested rules, in the sources' own words",
            "comparison": "Every rule, source by source", "causes": "Why readings differ",
            "questions": "Discussion questions", "tasks": "Open tasks", "quiz": "Quiz"}
#: The most quotations a source's reading of a contested rule shows (its provenance's first):
#: one where the source states the rule, two where we read it.
QUOTES_PER_READING = {"stated": 1, "read": 2, "chosen": 2}
#: The status marks of the comparison table (stated is unmarked).
STATUS_MARKS = {"stated": "", "read": "~", "chosen": "*"}


# --------------------------------------------------------------------------------------------
# Our part: the plan, causes, questions and tasks


def class_path() -> Path:
    """``lessons/class/source-criticism.yaml``."""
    return data_dir("lessons") / CLASS_FILE


_TOP = {"title": str, "minutes": int, "quiz": list, "plan": list, "causes": list,
        "questions": list, "tasks": list}
_ENTRY = {"plan": ({"minutes", "activity", "section"}, ()),
          "causes": ({"cause", "summary"}, ("quotes",)),
          "questions": ({"question", "note"}, ("quotes",)),
          "tasks": ({"task", "note"}, ("quotes",)),
          "quiz": ({"kind", "count"}, ())}
_QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”')


def _plain_words(text: str) -> str:
    """Text as words to compare: markup removed, quotation marks dropped, lower case."""
    from tutor.puzzles.quoted import quote_plain
    text = quote_plain(text)
    text = re.sub(r"[\"“”‘’']", "", text)
    return " ".join(text.lower().split())


def load_class_data(library, path: Path | None = None) -> dict[str, Any]:
    """Read and check the pack's data (ours): see the file's header for its keys.

    Raises :class:`DataError` ``FILE:LINE: KEY: what is wrong`` for a missing or unknown key,
    a value of the wrong type, a plan whose minutes do not add up to ``minutes`` or that names
    an unknown section, a quiz kind that is not one of :data:`SOURCE_KINDS`, a quotation
    reference no source defines, or a phrase in double quotation marks that stands in no
    quotation (our words may quote a source only in its own words)."""
    from tutor.engine import yamlfile
    path = path or class_path()
    name = path.name
    raw, doc = yamlfile.load(yamlfile.read_text(path, name), name)

    def fail(message: str, *keys) -> DataError:
        where = ".".join(str(k) for k in keys)
        return DataError(f"{name}:{doc.line_of(*keys)}: {where + ': ' if where else ''}{message}")

    if not isinstance(raw, dict):
        raise fail("the class data is a mapping (see the file's header)")
    for key in raw:
        if key not in _TOP:
            raise fail(f"unknown key (keys: {', '.join(_TOP)})", key)
    for key, kind in _TOP.items():
        if key not in raw:
            raise fail(f"missing key {key!r}")
        if not isinstance(raw[key], kind) or isinstance(raw[key], bool):
            raise fail(f"expected {'a list' if kind is list else kind.__name__}", key)
    phrases = {_plain_words(q.text) for s in library.sources.values()
               for q in s.quotations.values()}
    for group, (required, optional) in _ENTRY.items():
        for i, entry in enumerate(raw[group]):
            if not isinstance(entry, dict):
                raise fail("expected a mapping", group, i)
            for key in entry:
                if key not in required | set(optional):
                    raise fail(f"unknown key (keys: {', '.join(sorted(required))}"
                               f"{', ' + ', '.join(optional) if optional else ''})",
                               group, i, key)
            for key in sorted(required):
                if key not in entry:
                    raise fail(f"missing key {key!r}", group, i)
            for key, value in entry.items():
                if key == "quotes":
                    if not isinstance(value, list):
                        raise fail("expected a list of quotation references", group, i, key)
                    for j, ref in enumerate(value):
                        try:
                            library.quotation(str(ref))
                        except KeyError:
                            raise fail(f"no source defines the quotation {ref!r}",
                                       group, i, key, j) from None
                elif key in ("minutes", "count"):
                    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                        raise fail("expected a whole number of at least 1", group, i, key)
                elif not isinstance(value, str) or not value.strip():
                    raise fail("expected some words", group, i, key)
                else:
                    for m in _QUOTED.finditer(value):
                        words = _plain_words(m.group(1) or m.group(2))
                        if not any(words in p for p in phrases):
                            raise fail(f"{m.group(0)} is in quotation marks but stands in no "
                                       "source's quotation: quote a source only in its words",
                                       group, i, key)
            if group == "plan" and entry["section"] not in SECTIONS:
                raise fail(f"{entry['section']!r} is not a section of the pack "
                           f"({', '.join(SECTIONS)})", group, i, "section")
            if group == "quiz" and entry["kind"] not in SOURCE_KINDS:
                raise fail(f"{entry['kind']!r} is not a kind of source criticism "
                           f"({', '.join(SOURCE_KINDS)})", group, i, "kind")
    total = sum(step["minutes"] for step in raw["plan"])
    if total != raw["minutes"]:
        raise fail(f"the plan's steps take {total} minutes, not {raw['minutes']}", "plan")
    return raw


# --------------------------------------------------------------------------------------------
# Worked out from the sources


def _cite(q) -> str:
    return f"{q.citation} ({q.where})"


def _short(library, q) -> str:
    """A quotation's citation in short, for a pack whose family tree gives every text in full:
    who wrote the text it stands in (quoting whom), and where in it."""
    owners = {s.text: s for s in library.sources.values() if s.text}
    owner = owners.get(q.in_) if q.in_ else None
    owner = owner or library.sources[q.source]
    who = _who(owner) + (f", quoting {q.quoting}" if q.quoting else "")
    return f"{who} ({q.where})"


def _who(source) -> str:
    """A source named in a few words: its author, else the larger work or the place it
    appeared in, else its title."""
    return source.author or source.in_ or source.published or source.title


def comparison(library, rulesets: list[str]) -> dict[str, Any]:
    """Every parameter of ``rulesets`` side by side: ``columns`` (ruleset ids), ``rows`` of
    ``{label, cells: [(value, status) or None], differs}``: the whole-game parameters any of
    them sets, then a row for each player count any of them covers: its deal (hand/table),
    antes (dealer/others), bonus and breakeven in cards, marked with the weakest status of the
    four (None where a ruleset is not for that count)."""
    rows = []
    from tutor.engine.parameters import RULESET_PARAMETERS
    for name in RULESET_PARAMETERS:
        ps = [library.parameter(r, name) for r in rulesets]
        if all(p.implicit for p in ps):
            continue
        rows.append((PARAMETERS[name].label, [(value_short(name, p.value), p.status)
                                             for p in ps]))
    counts = sorted({n for r in rulesets for n in library.ruleset(r).counts})
    groups = (("hand", "table"), ("ante_dealer", "ante_other"), ("last_in_bonus",),
              ("breakeven",))
    for n in counts:
        cells = []
        for r in rulesets:
            if n not in library.ruleset(r).counts:
                cells.append(None)
                continue
            parts, statuses = [], []
            for names in groups:
                ps = [library.parameter(r, x, n) for x in names]
                statuses += [p.status for p in ps]
                parts.append("–" if all(p.value is None for p in ps) else
                             "/".join("–" if p.value is None else str(p.value) for p in ps))
            cells.append(("; ".join(parts),
                          max(statuses, key=list(STATUS_MARKS).index)))
        rows.append((f"{n} players: hand/table; antes dealer/others; bonus; breakeven",
                     cells))
    out = []
    for label, cells in rows:
        values = {c[0] for c in cells if c is not None}
        out.append({"label": label, "cells": cells, "differs": len(values) > 1})
    return {"columns": list(rulesets), "rows": out}


def contested(library, rulesets: list[str]) -> list[dict[str, Any]]:
    """Each whole-game parameter on which ``rulesets`` differ (the per-player-count numbers
    and the match format aside: the comparison table has them), with every reading of it:
    ``{name, label, meaning, readings}``, each reading ``{source, who, rulesets, value, status,
    quotes: [(text, short citation)], note}``: one a source, value and status (its rulesets
    that read it alike together), with the first
    :data:`QUOTES_PER_READING` of the source's own quotations their provenance cites and our
    note where it is read or chosen."""
    from tutor.engine.parameters import RULESET_PARAMETERS
    out = []
    for name in RULESET_PARAMETERS:
        if name in COUNT_PARAMETERS or name == "match_format":
            continue
        ps = {r: library.parameter(r, name) for r in rulesets}
        if all(p.implicit for p in ps.values()):
            continue
        if len({repr(p.value) for p in ps.values()}) < 2:
            continue
        readings: dict[tuple, dict[str, Any]] = {}
        for r, p in ps.items():
            src = library.source_of(r)
            key = (src.id, repr(p.value), p.status)
            got = readings.setdefault(key, {"source": src.id, "who": _who(src), "rulesets": [],
                                            "value": value_words(name, p.value),
                                            "status": p.status, "refs": [], "note": None})
            got["rulesets"].append(r)
            for ref in p.quotes:
                if ref not in got["refs"] and ref.split(":")[0] == src.id:
                    got["refs"].append(ref)
            if p.status != "stated" and got["note"] is None:
                got["note"] = p.note
        for got in readings.values():
            refs = got.pop("refs")[:QUOTES_PER_READING[got["status"]]]
            got["quotes"] = [(q.text, _short(library, q)) for q in library.quotations_of(refs)]
        spec = PARAMETERS[name]
        out.append({"name": name, "label": spec.label, "meaning": spec.meaning,
                    "readings": list(readings.values())})
    return out


def _tokens(text: str) -> list[str]:
    from tutor.puzzles.quoted import quote_plain
    return re.findall(r"\w+(?:['’]\w+)*|[^\w\s]", quote_plain(text))


def word_diff(a: str, b: str) -> dict[str, Any]:
    """Two quotations compared word by word (markup as the page shows it): ``same``, the share
    of their words in common (0..1), and ``differences``, each ``(kind, words in a, words in
    b)`` with kind ``capital`` (only the case differs), ``punctuation``, ``missing`` (only in
    a), ``added`` (only in b) or ``words``."""
    ta, tb = _tokens(a), _tokens(b)
    sm = difflib.SequenceMatcher(a=[t.lower() for t in ta], b=[t.lower() for t in tb],
                                 autojunk=False)
    diffs = []
    same = 0
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        wa, wb = " ".join(ta[i1:i2]), " ".join(tb[j1:j2])
        if op == "equal":
            same += i2 - i1
            for x, y in zip(ta[i1:i2], tb[j1:j2]):
                if x != y:
                    diffs.append(("capital", x, y))
            continue
        letters = re.compile(r"\w")
        if not letters.search(wa + wb):
            kind = "punctuation"
        elif op == "delete":
            kind = "missing"
        elif op == "insert":
            kind = "added"
        else:
            kind = "words"
        diffs.append((kind, wa, wb))
    words = max(len(ta), len(tb)) or 1
    return {"same": same / words, "differences": diffs}


def transcriptions(library) -> list[dict[str, Any]]:
    """Every sentence of Willughby's that two texts quote: the quotations whose ``speaker`` is
    Willughby, from different texts, alike in most of their words (three in four), each pair
    ``{a, b: (text, citation), same, differences}`` (:func:`word_diff`)."""
    quotes = [q for s in library.sources.values() for q in s.quotations.values()
              if q.speaker == "willughby"]
    out = []
    for i, qa in enumerate(quotes):
        for qb in quotes[i + 1:]:
            if (qa.in_ or qa.source) == (qb.in_ or qb.source):
                continue
            d = word_diff(qa.text, qb.text)
            if d["same"] >= 0.75:
                out.append({"a": (qa.text, _short(library, qa)),
                            "b": (qb.text, _short(library, qb)), **d})
    return out


def _text_of(source) -> str | None:
    """A source's collected text, whitespace normalised (None where there is none)."""
    from tutor.engine.sources import normalise
    if not source.text:
        return None
    here = Path(source.path).parent / source.text
    folder = source_texts_dir()
    path = here if here.is_file() else (folder / source.text if folder else None)
    if path is None or not path.is_file():
        return None
    try:
        return normalise(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError):
        return None


def family_tree(library) -> dict[str, Any]:
    """The texts and who drew on whom: ``roots`` (sources based on none, each
    ``{id, who, title, date, children: [...]}``, a child with the ``status``, ``note`` and
    ``quotes`` of its relation), and ``evidence``: for each relation read from copied words,
    its sentences side by side (``{child, parent, pairs: [{a, b, same}]}``: each quotation of
    the child beside the parent's most alike, or the note that it stands word for word in the
    parent's text)."""
    sources = library.sources
    children: dict[str, list] = {}
    for s in sources.values():
        for b in s.based_on:
            children.setdefault(b["source"], []).append((s, b))

    def node(s, relation=None, seen=()) -> dict[str, Any]:
        n = {"id": s.id, "who": _who(s), "title": s.title, "citation": s.citation_text,
             "date": s.dated["date"] if s.dated else "undated",
             "dated_status": s.dated["status"] if s.dated else None, "children": []}
        if relation is not None:
            shown = [] if relation["status"] == "read" else relation["quotes"]
            n.update(status=relation["status"], note=relation["note"],
                     quotes=[(q.text, _short(library, q)) for q in library.quotations_of(shown)])
        for child, rel in sorted(children.get(s.id, []),
                                 key=lambda x: (x[0].dated or {}).get("year") or 9999):
            if child.id not in seen:
                n["children"].append(node(child, rel, seen + (s.id,)))
        return n

    roots = [node(s) for s in sources.values() if not s.based_on]
    evidence = []
    for s in sources.values():
        for b in s.based_on:
            if b["status"] != "read":
                continue
            parent = sources[b["source"]]
            qs = library.quotations_of(b["quotes"])
            mine = [q for q in qs if q.source == s.id]
            theirs = [q for q in qs if q.source == parent.id]
            text = _text_of(parent)
            pairs = []
            for q in mine:
                best = max(theirs, key=lambda t: word_diff(q.text, t.text)["same"], default=None)
                d = word_diff(q.text, best.text) if best is not None else {"same": 0}
                if best is not None and d["same"] >= 0.5:
                    pairs.append({"a": (q.text, _short(library, q)),
                                  "b": (best.text, _short(library, best)),
                                  "same": d["same"], "verbatim": False})
                elif text is not None and _plain_words(q.text) in _plain_words(text):
                    pairs.append({"a": (q.text, _short(library, q)), "b": None, "same": 1.0,
                                  "verbatim": True})
            evidence.append({"child": _who(s), "parent": _who(parent), "pairs": pairs,
                             "note": b["note"]})
    return {"roots": roots, "evidence": evidence}


def timeline(library) -> list[dict[str, Any]]:
    """The attestations of the name and the dated texts, oldest first (undated ones last):
    each ``{year, date, kind ("name" or "text"), who, work, quote: (text, citation) or None,
    note}``."""
    out = []
    for s in library.sources.values():
        for a in s.attestations:
            q = library.quotation(a["quote"])
            out.append({"year": a["year"], "date": a["date"], "kind": "name",
                        "who": a["author"], "work": a["work"],
                        "quote": (q.text, _short(library, q)),
                        "note": a["note"]})
        if s.id and s.kind != "primary":
            d = s.dated
            out.append({"year": d["year"] if d else None, "date": d["date"] if d else "undated",
                        "kind": "text", "who": _who(s), "work": s.title,
                        "quote": None, "note": (d["note"] if d and d["status"] == "read"
                                                else None)})
    return sorted(out, key=lambda e: (e["year"] is None, e["year"] or 0, e["kind"] != "text"))


# --------------------------------------------------------------------------------------------
# The pack


@dataclass
class ClassPack:
    """Everything the pack prints (see the module docstring); ``data`` is our part, read by
    :func:`load_class_data`; ``quiz`` the puzzles as printed
    (:class:`tutor.teaching.worksheet.WorksheetPuzzle`) and ``quiz_pages`` them by page."""

    seed: int
    title: str
    data: dict[str, Any]
    comparison: dict[str, Any]
    contested: list[dict[str, Any]]
    tree: dict[str, Any]
    timeline: list[dict[str, Any]]
    transcriptions: list[dict[str, Any]]
    quiz: list = field(default_factory=list)

    @property
    def quiz_pages(self) -> list[list]:
        from tutor.teaching.worksheet import page_groups
        return page_groups(self.quiz)

    def causes(self, library) -> list[dict[str, Any]]:
        """The causes of disagreement (ours) with their quotations' words and citations."""
        return [dict(c, quoted=[(q.text, _short(library, q))
                                for q in library.quotations_of(c.get("quotes") or [])])
                for c in self.data["causes"]]


def build_pack(seed: int, library=None, symbols: bool = True) -> ClassPack:
    """The pack for ``seed`` (the quiz's puzzles; the same seed gives every student the same
    quiz).  Raises :class:`DataError` for a problem in the class data or a source file, and
    what :func:`tutor.puzzles.generate` raises."""
    from tutor.engine.sources import default_library
    from tutor.puzzles import generate
    from tutor.teaching.lessons import puzzle_seed
    from tutor.teaching.worksheet import worksheet_puzzles
    if library is None:
        library = default_library()
    if seed < 0:
        raise UsageError(f"a seed is a whole number of at least 0, not {seed}")
    data = load_class_data(library)
    rulesets = list(library.rulesets)
    generated = []
    for i, entry in enumerate(data["quiz"]):
        for n in range(entry["count"]):
            generated.append(generate(entry["kind"], seed=puzzle_seed(seed, "class-pack", i, n)))
    return ClassPack(seed, data["title"], data, comparison(library, rulesets),
                     contested(library, rulesets), family_tree(library), timeline(library),
                     transcriptions(library), worksheet_puzzles(generated, library, symbols))


# --------------------------------------------------------------------------------------------
# Printing


def render_html(pack: ClassPack, library=None) -> str:
    """The pack as one printable HTML page (``classpack.html.j2``, autoescaped)."""
    from tutor.engine.sources import default_library
    from tutor.teaching.html import render
    library = library or default_library()
    return render("classpack.html.j2", pack=pack, sections=SECTIONS, marks=STATUS_MARKS,
                  causes=pack.causes(library), quoted=_quoted(library))


def _quoted(library):
    def quoted(refs) -> list[tuple[str, str]]:
        return [(q.text, _short(library, q)) for q in library.quotations_of(refs or [])]
    return quoted


def render_markdown(pack: ClassPack, library=None) -> str:
    """The pack as Markdown: the same sections, every text escaped, quotations with their own
    bold and emphasis, page breaks before the quiz and the key."""
    from tutor.engine.sources import default_library
    from tutor.teaching.worksheet import (PAGE_BREAK, _fence, _md_paragraphs, key_markdown,
                                          md_escape as m, md_quotation, md_table)
    library = library or default_library()
    quoted = _quoted(library)
    ours = "*Ours, not the sources'.*"
    out = [f"# {m(pack.title)}", "",
           f"Laugh and Lie Down · a teacher's pack for one {pack.data['minutes']}-minute class "
           f"· quiz seed {pack.seed} (`laugh class pack --seed {pack.seed}`)", ""]
    out += [f"## The plan ({pack.data['minutes']} minutes)", "", ours, ""]
    out += md_table(["minutes", "activity", "section"],
                    [[str(s["minutes"]), s["activity"], SECTIONS[s["section"]]]
                     for s in pack.data["plan"]])
    out += [f"## {SECTIONS['timeline']}", ""]
    for e in pack.timeline:
        line = f"- **{m(e['date'])}**: {m(e['who'])}, *{m(e['work'])}*"
        line += " (the name)" if e["kind"] == "name" else " (a text of the rules)"
        out.append(line)
        if e["quote"]:
            out.append(f"  > “{_qm(e['quote'][0])}” — {m(e['quote'][1])}")
        if e["note"]:
            out.append(f"  *{m(e['note'])}*")
    out += ["", f"## {SECTIONS['tree']}", ""]

    def tree(n, depth=0):
        pad = "  " * depth
        line = f"{pad}- **{m(n['who'])}** ({m(n['date'])}): {m(n['citation'])}"
        if "status" in n:
            line += f" — based on the text above: {n['status']}"
        out.append(line)
        for text, cite in n.get("quotes", []):
            out.append(f"{pad}  > “{_qm(text)}” — {m(cite)}")
        if n.get("note"):
            out.append(f"{pad}  *{m(n['note'])}*")
        for c in n["children"]:
            tree(c, depth + 1)
    for r in pack.tree["roots"]:
        tree(r)
    out.append("")
    for ev in pack.tree["evidence"]:
        out += [f"### {m(ev['child'])}, read as {m(ev['parent'])}'s words", ""]
        for p in ev["pairs"]:
            out += md_quotation(*p["a"])
            out += md_quotation(*p["b"]) if p["b"] else \
                [f"*word for word in {m(ev['parent'])}'s text*", ""]
            if p["b"]:
                out += [f"*{round(100 * p['same'])}% of the words the same*", ""]
    out += [f"## {SECTIONS['transcriptions']}", ""]
    for t in pack.transcriptions:
        out += md_quotation(*t["a"]) + md_quotation(*t["b"])
        out += [f"- {m(kind)}: “{m(a)}” / “{m(b)}”" for kind, a, b in t["differences"]] + [""]
    out += [PAGE_BREAK, "", f"## {SECTIONS['contested']}", ""]
    for c in pack.contested:
        out += [f"### {m(c['label'])}", "", f"*{m(c['meaning'])}*", ""]
        for r in c["readings"]:
            out += [f"**{m(r['who'])}** ({m(', '.join(r['rulesets']))}): {m(r['value'])} "
                    f"({r['status']})", ""]
            for text, cite in r["quotes"]:
                out += md_quotation(text, cite)
            if r["note"]:
                out += [f"*Our reading:* {m(r['note'])}", ""]
    out += [f"## {SECTIONS['comparison']}", ""]
    out += md_table([""] + pack.comparison["columns"],
                    [[("≠ " if row["differs"] else "") + row["label"]] +
                     ["·" if c is None else c[0] + STATUS_MARKS[c[1]] for c in row["cells"]]
                     for row in pack.comparison["rows"]],
                    "Unmarked: stated; ~ read; * chosen; ≠ the rulesets differ; · not for "
                    "that many players; – no stakes.")
    out += [f"## {SECTIONS['causes']}", "", ours, ""]
    for c in pack.causes(library):
        out += [f"**{m(c['cause'])}**: {m(c['summary'])}", ""]
        for text, cite in c["quoted"]:
            out += md_quotation(text, cite)
    for key, field_ in (("questions", "question"), ("tasks", "task")):
        out += [f"## {SECTIONS[key]}", "", ours, ""]
        for i, q in enumerate(pack.data[key], 1):
            out += [f"{i}. {m(q[field_])}", ""]
            for text, cite in quoted(q.get("quotes")):
                out += md_quotation(text, cite)
            out += [f"*For the teacher:* {m(q['note'])}", ""]
    for i, page in enumerate(pack.quiz_pages):
        out += [PAGE_BREAK, ""]
        if i == 0:
            out += [f"## {SECTIONS['quiz']}", "", "Name: ______________________", ""]
        for p in page:
            out += [f"### Puzzle {p.number}", ""]
            if p.about:
                out += [f"*{m(p.about)}*", ""]
            out += [_fence(p.position), ""]
            if p.question:
                out += _md_paragraphs(p.question)
            out += ["Your answer: ______________________", ""]
    if pack.quiz:
        out += [PAGE_BREAK, ""] + key_markdown(pack.quiz, SECTIONS["quiz"])
    return "\n".join(out)


def _qm(text: str) -> str:
    from tutor.teaching.worksheet import quote_markdown
    return quote_markdown(text)


def write_pack(seed: int, out_path, library=None) -> str:
    """Build and write the pack; the format follows the suffix (``.html``/``.htm`` or ``.md``).
    Returns the format written.  Raises :class:`UsageError` for another suffix and
    ``OSError`` when the file cannot be written."""
    path = Path(out_path)
    suffix = path.suffix.lower()
    if suffix in (".html", ".htm"):
        fmt = "html"
    elif suffix in (".md", ".markdown"):
        fmt = "md"
    else:
        raise UsageError(f"{path.name}: the pack is written as .html or .md")
    pack = build_pack(seed, library)
    text = render_html(pack, library) if fmt == "html" else render_markdown(pack, library)
    write_atomic(path, text)                # whole or not at all, through a link
    return fmt
