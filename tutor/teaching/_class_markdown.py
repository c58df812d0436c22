"""The class pack as Markdown (see :mod:`tutor.teaching.classpack`): the teacher's notes
(:func:`teacher_markdown`) and the students' handout (:func:`students_markdown`), every text of
ours and every citation escaped, quotations with their own bold and emphasis, and the passages
in fences exactly as their files hold them (markup kept, and said what it is)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tutor.teaching._class_sources import STATUS_MARKS, TimelineEntry
from tutor.teaching.worksheet import (
    PAGE_BREAK,
    key_markdown,
    md_document,
    md_quotation,
    md_table,
    puzzle_markdown,
    quote_markdown,
)
from tutor.teaching.worksheet import md_escape as m

__all__ = ["students_markdown", "teacher_markdown"]

_OURS = "*Ours, not the sources'.*"
_ROOM = [
    "",
    "______________________________________________________________________",
    "",
    "______________________________________________________________________",
    "",
]


def _timeline(entries: Sequence[TimelineEntry]) -> list[str]:
    out = []
    for e in entries:
        out += [f"- **{m(e['date'])}**: *{m(e['citation'])}* ({m(e['tag'])})", ""]
        if e["entry"] == "record":
            out.append(
                f"  > “{quote_markdown(e['words'])}”"
                if e["words"] is not None
                else "  *cited, with none of its words given*"
            )
            out.append("")
            if e["given_by"]:
                out += [f"  as given by {m(e['given_by'])}", ""]
            if e["report"]:
                out += [f"  {m(e['report'][1])} writes: “{quote_markdown(e['report'][0])}”", ""]
            if not e["checked"]:
                out += ["  cited, not checked: no text here to check its words against", ""]
            if e["note"]:
                out += [f"  *{m(e['note'])}*", ""]
        elif e["note"]:
            out += [f"  *Our reading:* {m(e['note'])}", ""]
    return out


def _markup(notes: list[tuple[str, str]]) -> list[str]:
    if not notes:
        return []
    return md_table(
        ["in the file", "what it is (ours)"],
        [[f"`{raw}`" if "`" not in raw else m(raw), what] for raw, what in notes],
    )


def _fence(text: str) -> list[str]:
    ticks = "`" * max(3, max((len(r) for r in _runs(text)), default=0) + 1)
    return [ticks + "text", text, ticks, ""]


def _runs(text: str) -> list[str]:
    import re

    return re.findall(r"`+", text)


def _passages(pack) -> list[str]:
    out = []
    for i, p in enumerate(pack.passages, 1):
        out += [
            f"### {i}. {m(p['title'])}",
            "",
            m(p["citation"]) + (f" · *Ours:* {m(p['note'])}" if p["note"] else ""),
            "",
        ]
        out += _fence(p["text"]) + _markup(p["markup"])
    return out


def teacher_markdown(
    pack,
    library,
    sections: dict[str, str],
    quoted: Callable[[Sequence[str]], list[tuple[str, str]]],
) -> str:
    """The teacher's notes: the plan, the timeline, the family tree, the transcriptions and
    their differences, where the passages come from and their markup, the contested rules with
    our readings, the comparison table, the causes, the questions and tasks with notes, and the
    quiz's key."""
    out = [
        f"# {m(pack.title)}: the teacher's notes",
        "",
        f"Laugh and Lie Down · the teacher's notes for one {pack.data.minutes}-minute "
        f"class · quiz seed {pack.seed} · the students' handout: `laugh class pack --for "
        f"students --seed {pack.seed}`",
        "",
    ]
    out += [f"## The plan ({pack.data.minutes} minutes)", "", _OURS, ""]
    out += md_table(
        ["minutes", "activity", "section"],
        [[str(s.minutes), s.activity, sections[s.section]] for s in pack.data.plan],
    )
    out += [f"## {sections['timeline']}", ""] + _timeline(pack.timeline)
    out += [f"## {sections['tree']}", ""]

    def tree(n, depth=0):
        pad = "  " * depth
        line = f"{pad}- **{m(n['who'])}** ({m(n['date'])}): {m(n['citation'])}"
        if "status" in n:
            line += f" — based on the text above: {n['status']}"
        out.append(line)
        for text, cite in n.get("quotes", []):
            out.append(f"{pad}  > “{quote_markdown(text)}” — {m(cite)}")
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
            out += (
                md_quotation(*p["b"])
                if p["b"]
                else [f"*word for word in {m(ev['parent'])}'s text*", ""]
            )
            if p["b"]:
                out += [f"*{round(100 * p['same'])}% of the words the same*", ""]
    out += [f"## {sections['transcriptions']}", ""]
    for t in pack.transcriptions:
        out += md_quotation(*t["a"]) + md_quotation(*t["b"])
        out += [f"- {m(kind)}: “{m(a)}” / “{m(b)}”" for kind, a, b in t["differences"]] + [""]
    out += [
        f"## {sections['passages']}",
        "",
        "*Printed in full in the students' handout, exactly as the text files hold them.*",
        "",
    ]
    for p in pack.passages:
        out += [
            f"### {m(p['title'])}",
            "",
            f"{m(p['citation'])} · {len(p['text'])} characters",
            "",
        ] + _markup(p["markup"])
    out += [PAGE_BREAK, "", f"## {sections['contested']}", ""]
    for c in pack.contested:
        out += [f"### {m(c['label'])}", "", f"*{m(c['meaning'])}*", ""]
        for r in c["readings"]:
            out += [
                f"**{m(r['who'])}** ({m(', '.join(r['rulesets']))}): {m(r['value'])} "
                f"({r['status']})",
                "",
            ]
            for text, cite in r["quotes"]:
                out += md_quotation(text, cite)
            if r["note"]:
                out += [f"*Our reading:* {m(r['note'])}", ""]
    out += [f"## {sections['comparison']}", ""]
    out += md_table(
        [""] + pack.comparison["columns"],
        [
            [("≠ " if row["differs"] else "") + row["label"]]
            + ["·" if c is None else c[0] + STATUS_MARKS[c[1]] for c in row["cells"]]
            for row in pack.comparison["rows"]
        ],
        "Unmarked: stated; ~ read; * chosen; ≠ the rulesets differ; · not for "
        "that many players; – no stakes.",
    )
    out += [f"## {sections['causes']}", "", _OURS, ""]
    for c in pack.causes(library):
        out += [f"**{m(c['cause'])}**: {m(c['summary'])}", ""]
        for text, cite in c["quoted"]:
            if c.get("stored"):
                out += [
                    f"As its file holds it: `{text}`"
                    if "`" not in text
                    else f"As its file holds it: {m(text)}",
                    "",
                ]
            out += md_quotation(text, cite)
        out += _markup(c["markup"])
    for key, field_ in (("questions", "question"), ("tasks", "task")):
        out += [f"## {sections[key]}", "", _OURS, ""]
        for i, q in enumerate(getattr(pack.data, key), 1):
            out += [f"{i}. {m(getattr(q, field_))}", ""]
            for text, cite in quoted(q.quotes):
                out += md_quotation(text, cite)
            out += [f"*For the teacher:* {m(q.note)}", ""]
    if pack.quiz:
        out += [PAGE_BREAK, ""] + key_markdown(pack.quiz, sections["quiz"])
    return md_document(out)


def students_markdown(
    pack,
    library,
    sections: dict[str, str],
    quoted: Callable[[Sequence[str]], list[tuple[str, str]]],
) -> str:
    """The students' handout: what the class does, the game's words, the timeline, the
    passages, the transcriptions, the contested rules in the sources' own words, the questions
    and tasks and the quiz, with room to write and no answers."""
    out = [
        f"# {m(pack.title)}",
        "",
        "Name: ______________________  Group: ________",
        "",
        _OURS,
        "",
        m(pack.data.intro),
        "",
        "*Words in quotation marks are the sources' own, exactly as their texts have them, "
        "with who wrote them; everything else is the course's.*",
        "",
    ]
    out += [f"## {sections['glossary']}", "", _OURS, ""]
    for g in pack.glossary:
        out += [f"**{m(g['term'])}**: {m(g['meaning'])}", ""]
        for text, cite in g["quoted"]:
            out += md_quotation(text, cite)
    out += [f"## {sections['timeline']}", ""] + _timeline(pack.timeline)
    out += [
        "What can a name in a poem tell us about how a game was played, and what can it not?"
    ] + _ROOM
    out += [
        PAGE_BREAK,
        "",
        f"## {sections['passages']}",
        "",
        "*Longer stretches of three texts, exactly as their files hold them: markup is "
        "kept, and the table under a passage says what each piece of it is.*",
        "",
    ]
    out += _passages(pack)
    out += ["Three things the passages agree on, and one they do not:"] + _ROOM + _ROOM[1:]
    out += [PAGE_BREAK, "", f"## {sections['transcriptions']}", ""]
    for t in pack.transcriptions:
        out += md_quotation(*t["a"]) + md_quotation(*t["b"])
        out += [
            "What differs between the two? What is lost when a sentence is copied, and how "
            "would we know?"
        ] + _ROOM
    out += [
        f"## {sections['contested']}",
        "",
        "*For your group's rule: which reading do the words support, and which words decide it?*",
        "",
    ]
    for c in pack.students_contested:
        out += [f"### {m(c['label'])}", "", f"*{m(c['meaning'])}*", ""]
        for s in c["sources"]:
            out += [f"**{m(s['who'])}**", ""]
            for text, cite in s["quotes"]:
                out += md_quotation(text, cite)
        out += _ROOM
    for key, field_ in (("questions", "question"), ("tasks", "task")):
        out += [f"## {sections[key]}", "", _OURS, ""]
        for i, q in enumerate(getattr(pack.data, key), 1):
            out += [f"{i}. {m(getattr(q, field_))}", ""]
            for text, cite in quoted(q.quotes):
                out += md_quotation(text, cite)
            out += _ROOM
    for i, page in enumerate(pack.quiz_pages):
        out += [PAGE_BREAK, ""]
        if i == 0:
            out += [f"## {sections['quiz']}", ""]
        for p in page:
            out += puzzle_markdown(p)
    return md_document(out)
