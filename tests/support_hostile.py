"""The hostile-text corpus (issue 28, item 3), written once: text that a file, an export or the
network may hand the program, and what a person must see of it wherever it is shown.

Each :class:`Payload` is one attack: rich markup (a closing tag that ends the program, a
hyperlink), an emoji code, raw escape sequences (an OSC 8 hyperlink, an OSC 52 clipboard write,
a screen clear, a C1 CSI), bidi overrides and other format characters, formulas behind a
no-break space or a space, and HTML.  :attr:`Payload.shown` is what must stand in the output,
literally: the brackets of markup as typed, a control or format character as its escape
(``\\x1b``, ``\\u202e``; rich drops BEL, backspace, VT, FF and CR from any text it is given, so
on the terminal those are gone rather than escaped: never acted on either way).  The checks
(:func:`assert_terminal`, :func:`assert_html`, :func:`assert_markdown`, :func:`assert_csv`,
:func:`assert_json`) say what an output may and may not hold; :func:`write_sources` and
:func:`write_export` put the corpus in a source file and in progress exports."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Payload:
    """One hostile text: ``id``, the ``text`` itself, and ``shown``: fragments (without spaces,
    in lower case where a theme's spelling lowers them) that must appear literally wherever the
    text is shown."""

    id: str
    text: str
    shown: tuple[str, ...]


CORPUS: tuple[Payload, ...] = (
    Payload("markup", "[/b] oops [bold]b[/bold]", ("[/b]", "[bold]b[/bold]")),
    Payload("link", "[link=https://e.example/]c[/link]", ("[link=https://e.example/]c[/link]",)),
    Payload("emoji", "x :skull: y", (":skull:",)),
    Payload(
        "osc8", "\x1b]8;;https://e.example/\x1b\\c\x1b]8;;\x1b\\", ("\\x1b]8;;https://e.example/",)
    ),
    Payload("osc52", "\x1b]52;c;cm0gbhjnih4k\x07", ("\\x1b]52;c;cm0gbhjnih4k",)),
    Payload("csi", "\x1b[2j\x9b31m red", ("\\x1b[2j\\x9b31m",)),
    Payload("bidi", "abc\u202edef\u2066ghi\u2069\u200fjkl", ("abc\\u202edef\\u2066ghi\\u2069",)),
    Payload(
        "format",
        "zero\u200bwidth\ufeffbom\u2028line\u00adshy",
        ("zero\\u200bwidth\\ufeffbom", "line\\xadshy"),
    ),  # U+2028 splits a theme
    Payload("nbsp-formula", '\u00a0=hyperlink("https://evil.example")', ("=hyperlink(",)),
    Payload("space-formula", " =1+2", ("=1+2",)),
    Payload("html", "<script>x</script>", ("<script>x</script>",)),
)

#: The payloads that must stand first in a text to do harm (a spreadsheet's formula).
FORMULAS = tuple(p for p in CORPUS if p.id.endswith("formula"))
#: Every payload but the formulas, in one text (for a field shown whole in one place).
ALL_IN_ONE = " ".join(p.text for p in CORPUS if p not in FORMULAS)

#: Rich's own codes, the only escape sequences a terminal output may hold: colours (SGR), and
#: a progress bar's cursor moves (return, erase the line, one line up, hide or show the cursor).
_RICH_CODES = re.compile(r"\x1b\[[0-9;]*m|\r?\x1b\[2K|\x1b\[1A|\x1b\[\?25[hl]|\r(?=\x1b\[)")


def unsafe_characters(text: str, allowed: str = "\n\t") -> list[str]:
    """The characters of ``text`` that a person must never receive raw: control characters
    (Unicode Cc) but those ``allowed``, format characters (Cf: bidi overrides and isolates,
    zero-width, BOM, soft hyphen), line and paragraph separators, and lone surrogates."""
    return [
        ch
        for ch in text
        if ch not in allowed and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs")
    ]


def _shown_all(text: str, payloads, where: str) -> None:
    """Each payload's fragments stand in ``text``, whole but for line breaks and indents (a
    table may fold a long word)."""
    joined = re.sub(r"\s+", "", text)
    missing = [(p.id, s) for p in payloads for s in p.shown if s not in joined]
    assert not missing, f"{where}: not shown literally: {missing}\n{text[:3000]}"


def assert_terminal(text: str, payloads=CORPUS, where: str = "terminal") -> None:
    """Terminal output: no escape sequence but rich's own (:data:`_RICH_CODES`: so no OSC 8
    hyperlink, no OSC 52, no screen clear), no raw control, bidi or format character, no
    traceback; every payload shown literally (markup as typed, controls as escapes)."""
    assert "Traceback" not in text and "MarkupError" not in text, f"{where}: {text[-2000:]}"
    plain = _RICH_CODES.sub("", text)
    assert "\x1b]8;" not in text, f"{where}: an OSC 8 hyperlink"
    bad = unsafe_characters(plain)
    assert not bad, f"{where}: raw {sorted(set(map(ascii, bad)))}"
    _shown_all(plain, payloads, where)


def assert_html(page: str, payloads=CORPUS, where: str = "HTML") -> None:
    """An HTML page: no raw control or format character; every payload's text escaped and
    shown literally (``<script>`` as ``&lt;script&gt;``)."""
    bad = unsafe_characters(page)
    assert not bad, f"{where}: raw {sorted(set(map(ascii, bad)))}"
    assert "<script>x" not in page, f"{where}: markup from data"
    _shown_all(html.unescape(re.sub(r"<[^>]+>", "", page)), payloads, where)


def assert_markdown(text: str, payloads=CORPUS, where: str = "Markdown") -> None:
    """A Markdown handout: no raw control or format character; rendered by a CommonMark reader
    (markdown-it-py, raw HTML off), every payload shown literally and no link to the evil site
    made."""
    from markdown_it import MarkdownIt

    bad = unsafe_characters(text)
    assert not bad, f"{where}: raw {sorted(set(map(ascii, bad)))}"
    page = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    assert 'href="https://e.example' not in page, f"{where}: a link made from data"
    assert_html(page, payloads, where)


def csv_cells(path: Path) -> list[str]:
    """Every cell of a CSV file (its header too)."""
    rows = csv.reader(io.StringIO(path.read_bytes().decode("utf-8"), newline=""))
    return [c for row in rows for c in row]


def assert_csv(path: Path, payloads=CORPUS, where: str = "CSV") -> None:
    """A CSV file: no cell that a spreadsheet reads as a formula, even after the spaces,
    no-break spaces and format characters it may skip; no raw control or format character in
    a cell; every payload shown literally."""
    cells = csv_cells(path)
    for c in cells:
        bad = unsafe_characters(c, allowed="")
        assert not bad, f"{where}: raw {sorted(set(map(ascii, bad)))} in {c!r}"
        lead = c.lstrip(
            "".join(ch for ch in set(c) if ch.isspace() or unicodedata.category(ch) == "Cf")
        )
        assert not lead.startswith(
            ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20")
        ) or re.fullmatch(r"[+-]?\d+(\.\d+)?", c), f"{where}: a formula cell {c!r}"
    _shown_all("\n".join(cells), payloads, where)


def assert_json(text: str, where: str = "JSON") -> object:
    """JSON output: valid JSON, no raw control or format character (they are ``\\uXXXX``
    escapes, which read back as the same text); returns the value."""
    bad = unsafe_characters(text)
    assert not bad, f"{where}: raw {sorted(set(map(ascii, bad)))}"
    return json.loads(text)


def write_export(path: Path, learner: str, themes: list[str]) -> Path:
    """A progress export (``laugh-and-lie-down/progress@1``) of one answer, by ``learner``, on
    ``themes``."""
    path.write_text(
        json.dumps(
            {
                "format": "laugh-and-lie-down/progress@1",
                "exported_at": 0,
                "learner": learner,
                "answers": [
                    {
                        "uid": f"{path.stem}-{k}",
                        "at": 1_700_000_000 + k,
                        "puzzle_id": f"count.parlett.5.{k}",
                        "kind": "count",
                        "themes": [theme],
                        "correct": k % 2 == 0,
                        "seconds": 5.0,
                        "hints": 0,
                        "lesson": None,
                        "ruleset": "parlett",
                        "retry": False,
                        "difficulty": 2,
                        "revealed": False,
                    }
                    for k, theme in enumerate(themes)
                ],
                "lessons": [],
                "meta": {},
                "ratings": {},
            }
        ),
        encoding="utf-8",
    )
    return path


#: The id of the hostile source's ruleset (ids are checked: only the free text is hostile).
RULESET = "hx"


def write_sources(folder: Path) -> Path:
    """A source file in ``folder`` whose every free text (citation, summary, quotations and
    where they stand, the dating and lineage notes, an attestation of the name, a problem, the
    ruleset's title, summary and notes) is from the corpus; its ruleset :data:`RULESET` cites
    the quotations.  Returns ``folder``."""
    q = json.dumps  # a JSON string is a YAML double-quoted string
    p = {x.id: x.text for x in CORPUS}
    params4 = dict(hand=10, table=12, ante_dealer=3, ante_other=2, last_in_bonus=3, breakeven=10)
    params5 = dict(hand=8, table=12, ante_dealer=3, ante_other=2, last_in_bonus=5, breakeven=8)

    def counts(values):
        return "\n".join(
            f"        {k}: {{value: {v}, status: chosen, note: {q(p['bidi'])}}}"
            for k, v in values.items()
        )

    rules = {
        "first_dealer": "lowest_cut",
        "table_mournival": "dealer_takes",
        "captures": "[one_for_one, one_for_three, pair_for_pair, prial_for_one]",
        "hand_plays": "free",
        "bonus_to": "last_in",
        "last_in_plays_on": "false",
        "leftovers_to": "dealer",
        "scoring": "stakes",
        "oversights": "[overlooked_table_mournival, split_prial, laid_down_dead_pair]",
        "captures_per_turn": "one",
        "declarations": "[prial, mournival, dead_pair]",
        "lie_down_pays": "null",
        "pot_to": "null",
        "match_format": "null",
    }
    notes = [p["link"], p["osc52"], p["markup"], p["format"]]
    lines = "\n".join(
        f"    {k}: {{value: {v}, status: stated, quotes: [q{i % 4 + 1}], note: {q(notes[i % 4])}}}"
        for i, (k, v) in enumerate(rules.items())
    )
    (folder / "hostile.yaml").write_text(
        f"""\
id: hostile
kind: house
citation: {{author: {q(p["markup"] + " " + p["link"])}, title: {q(p["osc8"] + " " + p["bidi"])},
           in: {q(p["emoji"])}, date: {q(p["osc52"])}}}
text: null
summary: {q(ALL_IN_ONE)}
dated: {{year: 1990, date: {q(p["csi"])}, status: stated, quotes: [q1], note: {q(p["format"])}}}
based_on:
  - {{source: willughby, status: read, quotes: [q2], note: {q(p["link"] + " " + p["html"])}}}
quotations:
  q1: {{text: {q(p["markup"] + " " + p["osc8"] + " " + p["osc52"])}, where: {q(p["link"])}}}
  q2: {{text: {q(p["bidi"] + " " + p["format"] + " " + p["csi"])}, where: {q(p["emoji"])}}}
  q3: {{text: {q(p["link"] + " " + p["emoji"] + " " + p["html"])}, where: {q(p["markup"])}}}
  q4: {{text: {q(p["nbsp-formula"] + " " + p["space-formula"])}, where: {q(p["bidi"])}}}
records:
  - {{id: hostile-record, kind: name, date: 1700,
     citation: {{author: {q(p["markup"])}, title: {q(p["link"] + " " + p["osc52"])}}},
     quote: q4, reported_by: hostile, note: {q(p["bidi"])}}}
problems:
  - {{id: hostile-problem, summary: {q(ALL_IN_ONE)}, quotes: [q3]}}
rulesets:
  {RULESET}:
    title: {q(p["markup"] + " " + p["link"] + " " + p["bidi"])}
    summary: {q(ALL_IN_ONE)}
    players:
      4:
{counts(params4)}
      5:
{counts(params5)}
{lines}
""",
        encoding="utf-8",
    )
    return folder
