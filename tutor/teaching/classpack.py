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

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tutor.engine.atomic import write_atomic
from tutor.engine.data import data_dir
from tutor.engine.errors import DataError, UsageError
from tutor.teaching._class_sources import (STATUS_MARKS, _plain_words, _short,
                                           comparison, contested, family_tree, timeline,
                                           transcriptions, word_diff)

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
    from tutor.teaching.worksheet import (PAGE_BREAK, key_markdown, md_document, md_escape as m,
                                          md_quotation, md_table, puzzle_markdown)
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
            out += puzzle_markdown(p)
    if pack.quiz:
        out += [PAGE_BREAK, ""] + key_markdown(pack.quiz, SECTIONS["quiz"])
    return md_document(out)


def _qm(text: str) -> str:
    from tutor.teaching.worksheet import quote_markdown
    return quote_markdown(text)


def write_pack(seed: int, out_path, library=None) -> str:
    """Build and write the pack; the format follows the suffix (``.html``/``.htm`` or ``.md``).
    Returns the format written.  Raises :class:`UsageError` for another suffix and
    ``OSError`` when the file cannot be written."""
    from tutor.teaching.worksheet import handout_format
    path = Path(out_path)
    fmt = handout_format(path, "the pack")
    pack = build_pack(seed, library)
    text = render_html(pack, library) if fmt == "html" else render_markdown(pack, library)
    write_atomic(path, text)                # whole or not at all, through a link
    return fmt
