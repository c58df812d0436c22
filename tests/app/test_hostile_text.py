"""Issue 28, item 3: one rule for text that reaches a person.  The hostile-text corpus
(:mod:`support_hostile`: rich markup, OSC 8, OSC 52, CSI, bidi and format characters, formulas
behind a no-break space or a space, HTML) goes through every command that prints or writes text
taken from a file, an export or the network, and each output is checked as what it is:

- the terminal (in colour, as a person sees it): no traceback, the expected exit status, no
  escape sequence but rich's colours (no OSC 8 hyperlink, no clipboard write), no raw control,
  bidi or format character, and every payload shown literally (markup's brackets as typed,
  controls as ``\\x1b``/``\\u202e`` escapes);
- HTML and Markdown: the same, the Markdown as a CommonMark reader shows it;
- CSV: no cell that can start a formula, even after spaces and no-break spaces;
- JSON: valid, with every control and format character a ``\\uXXXX`` escape.

The commands run in-process through ``main`` (the live table's client too, fed the messages a
hostile server or player sends); one surface runs a real server, for the settlement a player
named ``[/b]x`` used to crash."""

from __future__ import annotations

import io
import json
import queue
import random

import pytest
from support_hostile import (
    ALL_IN_ONE,
    CORPUS,
    FORMULAS,
    RULESET,
    assert_csv,
    assert_html,
    assert_json,
    assert_markdown,
    assert_terminal,
    write_export,
    write_sources,
)

from tutor.app.cli import main
from tutor.engine import sources

#: The payloads a theme or a learner's name shows whole (a theme's spelling lowers and joins
#: words with hyphens, so each payload's ``shown`` fragments have no spaces and no capitals).
WIDE = "300"


class Run:
    """The commands of one surface, in a folder of its own, on a terminal in colour (rich's
    colours, which a check strips, are the only escape codes allowed) and 300 columns wide (so
    a table cell is not folded inside a fragment the checks look for)."""

    def __init__(self, tmp_path, monkeypatch, capsys):
        self.dir, self.mp, self.capsys = tmp_path, monkeypatch, capsys
        monkeypatch.setenv("COLUMNS", WIDE)
        monkeypatch.setenv("FORCE_COLOR", "1")
        monkeypatch.setenv("TERM", "xterm-256color")
        monkeypatch.delenv("NO_COLOR", raising=False)
        self.sources = write_sources(self._mkdir("sources"))

    def _mkdir(self, name):
        (self.dir / name).mkdir()
        return self.dir / name

    def laugh(
        self, *argv, stdin: str = "", status: int | tuple = 0, hostile_sources: bool = True
    ) -> str:
        """``laugh ARGV`` (with the hostile source folder unless told not), its exit status
        checked; returns standard output and error together."""
        self.mp.setattr("sys.stdin", io.StringIO(stdin))
        extra = ["--sources", str(self.sources)] if hostile_sources else []
        try:
            rc = main([*map(str, argv), *extra])
        finally:
            sources.set_extra_dirs(())
        out, err = self.capsys.readouterr()
        wanted = status if isinstance(status, tuple) else (status,)
        assert rc in wanted, f"laugh {argv}: exit {rc}\n{out[-2000:]}\n{err[-2000:]}"
        return out + err


def _not_text(run: Run):
    """An export whose learner and theme are lone surrogates (``\\ud800`` in its JSON): not
    text, refused in one line."""
    return write_export(run.dir / "surrogate.json", "a\ud800b", ["t\udfffx"])


def _exports(run: Run):
    """One export a formula payload's learner (a formula must stand first to do harm), and one
    whose learner is every other payload; every payload a theme of each."""
    themes = [p.text for p in CORPUS]
    files = [write_export(run.dir / f"[red]{p.id}.json", p.text, themes) for p in FORMULAS]
    files.append(write_export(run.dir / "[b]all.json", ALL_IN_ONE, themes))
    return files


# -- the surfaces ---------------------------------------------------------------------------


def class_report(run: Run) -> None:
    """``class report`` on the terminal, as HTML and as CSV, to files whose names hold markup;
    the 'Wrote ... to' lines name them as they are."""
    html, csv_ = run.dir / "[red]report.html", run.dir / "[red]report.csv"
    said = run.laugh(
        "class", "report", *_exports(run), _not_text(run), "--html", html, "--csv", csv_, status=1
    )
    assert_terminal(said)
    assert "laugh: " in said and "1 file left out" in said
    assert f"to {html}" in said and f"to {csv_}" in said
    assert_html(html.read_text(encoding="utf-8"))
    assert_csv(csv_)


def progress_and_stats(run: Run) -> None:
    """An export with hostile themes and name imported (its file name with markup echoed),
    then every screen that shows themes: ``stats`` and the weak-spots list."""
    export = _exports(run)[-1]
    said = run.laugh("progress", "import", export, hostile_sources=False)
    assert f"Imported {export}" in said
    said = run.laugh("progress", "import", _not_text(run), status=1, hostile_sources=False)
    assert "Traceback" not in said and said.count("\n") == 1
    for argv in (["stats"], ["drill", "weak", "--list"]):
        assert_terminal(run.laugh(*argv, hostile_sources=False), where=argv[0])


def rules(run: Run) -> None:
    """A ruleset file's title, summary and notes: ``rules`` (the list), ``rules hx``, side by
    side, and as JSON (every text read back as it was given)."""
    listed = run.laugh("rules")
    assert_terminal(listed, payloads=[p for p in CORPUS if p.id in ("markup", "link", "bidi")])
    assert_terminal(run.laugh("rules", RULESET), where="rules hx")
    assert_terminal(
        run.laugh("rules", "--compare", RULESET, "parlett"), payloads=(), where="rules --compare"
    )
    data = assert_json(run.laugh("rules", "--json", RULESET))
    assert any(ALL_IN_ONE == v for v in _strings(data)), "the JSON changed the text"


def sources_cmd(run: Run) -> None:
    """A source file's citation, summary, quotations, attestation and problem: ``sources``,
    ``sources hostile``, ``sources check`` and ``sources --json``."""
    assert_terminal(run.laugh("sources"), where="sources")
    assert_terminal(run.laugh("sources", "hostile"), where="sources hostile")
    checked = run.laugh("sources", "check", status=(0, 1))
    assert_terminal(checked, payloads=(), where="sources check")
    data = assert_json(run.laugh("sources", "--json"))
    assert ALL_IN_ONE in _strings(data), "the JSON changed the text"


def class_pack(run: Run) -> None:
    """The class pack, from every source (the hostile one too), as Markdown and HTML, written
    to files whose names hold markup."""
    for suffix, check in ((".md", assert_markdown), (".html", assert_html)):
        out = run.dir / f"[red]pack{suffix}"
        said = run.laugh("class", "pack", "--out", out)
        assert_terminal(said, payloads=())
        assert f"to {out}" in said
        check(
            out.read_text(encoding="utf-8"),
            payloads=[
                p for p in CORPUS if p.id in ("markup", "link", "osc8", "osc52", "bidi", "csi")
            ],
            where=f"class pack {suffix}",
        )


def worksheet(run: Run) -> None:
    """A worksheet (lesson 1 quotes every source's record of the name) as Markdown and HTML,
    written to files whose names hold markup."""
    for suffix, check in ((".md", assert_markdown), (".html", assert_html)):
        out = run.dir / f"[red]sheet{suffix}"
        said = run.laugh("worksheet", "1", "--out", out)
        assert f"to {out}" in said
        check(
            out.read_text(encoding="utf-8"),
            payloads=[p for p in CORPUS if p.id in ("markup", "link", "osc52", "bidi")],
            where=f"worksheet {suffix}",
        )


def puzzles(run: Run) -> None:
    """A source quiz whose choices cite the hostile source, piped; exported as JSON."""
    said = "".join(
        run.laugh("puzzle", "source-quiz", "--ruleset", RULESET, "--seed", seed, stdin="quit\n")
        for seed in (1, 2)
    )
    assert "[/b] oops" in said
    assert_terminal(said, payloads=[p for p in CORPUS if p.id in ("markup", "link")])
    out = run.dir / "[red]p.jsonl"
    said = run.laugh(
        "puzzles",
        "export",
        "--kind",
        "source-quiz",
        "--ruleset",
        RULESET,
        "--count",
        "3",
        "--out",
        out,
    )
    assert_terminal(said, payloads=())
    for line in out.read_text(encoding="utf-8").splitlines():
        assert_json(line)


def records_and_analysis(run: Run) -> None:
    """Files whose names and values are hostile: ``simulate --records``, ``records check`` and
    ``analyse`` echo the path and the value they refuse."""
    name = "[red]" + "".join(p.text for p in CORPUS if p.id in ("osc52", "bidi")) + ".jsonl"
    records = run.dir / name
    said = run.laugh("simulate", "--ruleset", RULESET, "--deals", "2", "--records", records)
    shown = [p for p in CORPUS if p.id in ("osc52", "bidi")]
    assert_terminal(said, payloads=shown)
    assert "[red]" in said
    with records.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"format": ALL_IN_ONE}) + "\n")
    said = run.laugh("records", "check", records, status=1)
    assert_terminal(said, payloads=shown)
    said = run.laugh("analyse", records, "--samples", "4", status=1)
    assert_terminal(said, payloads=shown)


def table_client(run: Run) -> None:
    """A player at a live table, fed what a hostile server or another player sends: names with
    markup (``[/b]x`` crashed every other client at each settlement) and, from a server that
    does not check them, with escapes and bidi; says, replies and refusals of free text."""
    from tutor.app.learner_io import ScriptedIO
    from tutor.app.std_streams import make_console
    from tutor.app.tables.client import PlayerClient
    from tutor.engine.deal import new_deal
    from tutor.engine.observe import observe
    from tutor.engine.records import result_to_json

    class Link:
        inbox: queue.Queue = queue.Queue()

        def send(self, message):
            pass

        def close(self):
            pass

    names = ["Ann", "[/b]x", ALL_IN_ONE]
    rs = sources.default_library().ruleset("parlett", 3)
    deal = new_deal(rs, 3, 2, random.Random(4))
    while not deal.is_terminal():
        deal.apply(deal.legal_actions()[0])
    buf = io.StringIO()
    seam = ScriptedIO([], make_console(file=buf))
    client = PlayerClient(seam, Link(), "ws://127.0.0.1:1", "CODE", "Ann")
    state = {
        "type": "state",
        "table": 1,
        "deal": 1,
        "game": ALL_IN_ONE,
        "names": names,
        "totals": [1, -2, 1],
        "away": [False, True, False],
        "cause": None,
        "played": 0,
        "games": 1,
        "seated": True,
        "clock": None,
        "obs": observe(deal, 0).to_json(),
    }
    messages = [
        {
            "type": "welcome",
            "table": 1,
            "seat": 0,
            "token": "tok",
            "name": "Ann",
            "seated": True,
            "back": False,
            "names": names,
            "ruleset": "parlett",
            "players": 3,
            "level": ALL_IN_ONE,
            "hint": False,
            "hints": 3,
            "wait": 30,
            "move_time": 0,
            "reserve": 0,
            "games": 1,
            "played": 0,
            "duplicate": False,
            "livery": ALL_IN_ONE,
            "scoring": ALL_IN_ONE,
        },
        state,
        {"type": "say", "table": 1, "text": ALL_IN_ONE},
        {"type": "reply", "seq": 1, "ok": False, "text": ALL_IN_ONE, "to": "act"},
        {"type": "refused", "text": ALL_IN_ONE},
        {
            "type": "deal_over",
            "table": 1,
            "game": ALL_IN_ONE,
            "practice": False,
            "names": names,
            "unit": ALL_IN_ONE,
            "settlement": [row._asdict() for row in deal.result.settlement],
            "result": result_to_json(deal),
            "dealer": 2,
            "pot_to": [],
            "set_aside": [],
            "set_aside_to": None,
            "totals": [1, -2, 1],
            "deals": 1,
            "of": 1,
            "review": {
                "hits": [],
                "misses": 0,
                "false_claims": 0,
                "median_hit": None,
                "stood_in": 0,
                "timed_out": 0,
                "items": [
                    {
                        "kind": ALL_IN_ONE,
                        "title": ALL_IN_ONE,
                        "index": 3,
                        "text": ALL_IN_ONE,
                        "why": ALL_IN_ONE,
                    }
                ],
            },
        },
        {
            "type": "standings",
            "round": 1,
            "rounds": 1,
            "final": True,
            "duplicate": False,
            "rows": [
                {
                    "place": 1,
                    "name": n,
                    "table": 1,
                    "seat": q,
                    "person": True,
                    "livery": ALL_IN_ONE,
                    "score": 3,
                    "games": 1,
                }
                for q, n in enumerate(names)
            ],
            "teams": [{"place": 1, "livery": ALL_IN_ONE, "score": 3, "people": 3}],
        },
        {"type": "bye", "text": ALL_IN_ONE},
    ]
    from tutor.app.tables.protocol import read_server

    for m in messages:
        client.handle(read_server(json.dumps({"v": 1, **m})))
    said = buf.getvalue()
    assert "Settlement" in said and "Final standings" in said
    assert_terminal(said, payloads=[p for p in CORPUS if p not in FORMULAS], where="table client")


def live_table(run: Run) -> None:
    """The reproduction over the network: a real ``laugh table serve``, players who join as
    ``[/b]x`` and as ``[link=//e.x]c[/link]``, and a person's piped ``laugh table join`` who
    must see the settlement of the deal with both names as typed (the first crashed every
    other client at each settlement; the second was a hyperlink)."""
    import time

    from tables_net import PipedPlayer, RawClient, Server

    pytest.importorskip("websockets")
    names = ["[/b]x", "[link=//e.x]c[/link]"]
    srv = Server(
        run.dir,
        run.dir / "srv",
        "--players",
        "3",
        "--deals",
        "1",
        "--bots",
        "club",
        "--pace",
        "0",
        "--gap",
        "0.5",
        "--people",
        "3",
        "--seed",
        "5",
    )
    clients, ann = [], None
    try:
        ann = PipedPlayer(run.dir, srv.address, srv.code, "Ann")
        end = time.monotonic() + 30  # the first deal: 0.5 s after all three sit
        while "You are at table" not in ann.out and time.monotonic() < end:
            time.sleep(0.02)
        clients = [
            RawClient(srv.address, {"type": "join", "code": srv.code, "name": n}) for n in names
        ]
        assert ann.wait(60) == 0, ann.out[-2000:] + ann.err
    finally:
        for c in clients:
            c.close()
        if ann is not None:
            ann.kill()
        srv.stop()
    assert "Settlement ·" in ann.out and "The match is over." in ann.out
    assert_terminal(ann.out + ann.err, payloads=(), where="table join")
    settlement = ann.out.split("Settlement ·")[1]
    assert all(n in settlement for n in names), settlement


def _strings(value):
    """Every string in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


SURFACES = {
    f.__name__: f
    for f in (
        class_report,
        progress_and_stats,
        rules,
        sources_cmd,
        class_pack,
        worksheet,
        puzzles,
        records_and_analysis,
        table_client,
        live_table,
    )
}


@pytest.mark.parametrize("surface", SURFACES)
def test_hostile_text_is_shown_as_plain_text_everywhere(surface, tmp_path, monkeypatch, capsys):
    SURFACES[surface](Run(tmp_path, monkeypatch, capsys))


def test_the_escaped_characters_are_every_control_format_and_separator_character():
    """:data:`tutor.engine.safetext.UNSAFE` (ranges, for speed) is exactly the Unicode
    categories Cc (but tab and newline), Cf, Zl, Zp and Cs of this Python's Unicode database
    (a range it names that this database leaves unassigned is allowed: a later Unicode)."""
    import sys
    import unicodedata

    from tutor.engine.safetext import UNSAFE

    every = "".join(map(chr, range(sys.maxunicode + 1)))
    matched = set(UNSAFE.findall(every))
    wanted = {
        ch
        for ch in every
        if ch not in "\t\n" and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs")
    }
    assert not wanted - matched, sorted(map(hex, map(ord, wanted - matched)))
    assert all(unicodedata.category(ch) == "Cn" for ch in matched - wanted)


def test_no_text_is_read_as_rich_markup_anywhere():
    """The console never reads markup or emoji codes, even when a caller asks; and nothing in
    the program reads markup around it (``Text.from_markup``, ``rich.markup``, a progress
    column with markup on, a panel's title, a rich console of its own with markup on)."""
    import re
    from pathlib import Path

    from tutor.app.std_streams import make_console

    buf = io.StringIO()
    out = make_console(file=buf, width=80, plain=True)
    out.print("[/b]x [link=https://e.example/]c[/link] :skull:", markup=True, emoji=True)
    out.print(json.loads('"[bold]b[/bold]"'))
    assert buf.getvalue() == "[/b]x [link=https://e.example/]c[/link] :skull:\n[bold]b[/bold]\n"
    root = Path(__file__).resolve().parents[2] / "tutor"
    found = []
    for path in root.rglob("*.py"):
        if path.name == "std_streams.py":  # the console itself
            continue
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(
            r"from_markup|rich\.markup|markup=True|Panel\(|TextColumn\([^)]*\)"
            r"|(?<![\w.])Console\([^)]*\)",
            text,
            re.S,
        ):
            if "markup=False" not in m.group() and not m.group().startswith("Console(*"):
                found.append(f"{path.relative_to(root)}: {m.group()[:60]}")
    assert not found, found


def test_the_servers_folder_is_shown_with_its_control_characters_escaped(tmp_path):
    """``laugh table serve --dir`` with an escape sequence in the folder's name: the server's
    terminal shows it escaped (it printed the raw ESC before)."""
    import signal
    import subprocess
    import sys
    import threading

    from support import ROOT
    from tables_net import env

    folder = tmp_path / "a\x1b[31mred\u202e"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tutor", "table", "serve", "--port", "0", "--dir", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env(tmp_path),
        cwd=str(ROOT),
    )
    lines: list[str] = []
    started = threading.Event()

    def read() -> None:  # every line as it comes (a pipe is read whole)
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if "Ctrl-C stops" in line:
                started.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        started.wait(60)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
        reader.join(10)
    assert proc.stderr is not None
    out, err = "".join(lines), proc.stderr.read()
    assert "Saving in" in out and "saved in" in out, out + err
    assert "\x1b" not in out and "\u202e" not in out, out
    assert "a\\x1b[31mred\\u202e" in out, out
