"""Every subcommand against broken and unusual terminal streams (issue 13): standard input
closed, standard output closed, standard output on a full disk, an ASCII encoding (with ``7♥``
typed), ``TERM=dumb``, ``COLUMNS=0``, ``COLUMNS=20``, and a reader that has gone away.  Each run is
a real ``laugh`` process: no traceback, and the exit status README documents (0 done, also at
the end of input and when the reader goes away; 1 the output could not be written).

Each run of the table is its own process, forked from one that has imported the tutor once
(``stream_zygote.py`` builds the standard streams as CPython does), so that the whole table runs
in seconds; the examples of the issue are run as whole ``python -m tutor`` processes besides.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from support import ROOT

from tutor.app.cli import build_parser, main

#: The whole module in one xdist worker (``--dist loadgroup``): its module-scoped fixtures run
#: every selected case side by side, so that a second worker running any test of the module
#: would run all of them again (about 20 s of both cores).
pytestmark = pytest.mark.xdist_group("streams")

#: One run of every subcommand (and of each action of those that have actions), with small
#: arguments, and its exit status when nothing is wrong with the streams.
COMMANDS = {
    "laugh": [],
    "tutor": ["tutor", "--seed", "1"],
    "lesson": ["lesson", "2", "--seed", "1"],
    "lessons-list": ["lessons", "list"],
    # every stage of the check (front matter, quote and puzzle blocks, the blocks drawn at the
    # lesson seeds) and its one line; lesson 3's deal-setup blocks draw in a fifth of lesson 2's time
    "lessons-check": ["lessons", "check", "lessons/03-the-deal.md"],
    "coach": ["coach", "--pace", "0"],
    "track": ["track", "--seed", "1"],
    "puzzle": ["puzzle", "count", "--seed", "1"],
    "puzzles-list": ["puzzles", "list"],
    "puzzles-export": ["puzzles", "export", "--kind", "count", "--count", "2"],
    "play": ["play", "--seed", "1", "--no-save"],
    "match": [
        "match",
        "--ruleset",
        "inter-livery-2018",
        "--seed",
        "1",
        "--sheet",
        "{home}/sheet.html",
    ],
    "drill-oversights": ["drill", "oversights", "--seed", "1", "--positions", "1", "--no-save"],
    "drill-count": ["drill", "count", "--rounds", "1", "--seed", "1", "--no-save"],
    "drill-settle": ["drill", "settle", "--rounds", "1", "--seed", "1", "--no-save"],
    "drill-weak": ["drill", "weak", "--list"],
    "rules": ["rules", "parlett"],
    "rules-compare": ["rules", "--compare"],
    "sources": ["sources", "porges"],
    "sources-check": ["sources", "check"],
    "sources-new": ["sources", "new", "tuesday-club", "--out", "{home}/tuesday-club.yaml"],
    "simulate": ["simulate", "--deals", "3"],
    "simulate-json": ["simulate", "--deals", "3", "--json"],
    "records": ["records", "check", "tests/data/examples/parlett-5-clean.json"],
    "analyse": [
        "analyse",
        "tests/data/examples/parlett-5-clean.json",
        "--seat",
        "0",
        "--samples",
        "16",
    ],
    "odds": ["odds"],
    "stats": ["stats"],
    "progress-export": ["progress", "export", "{home}/progress.json"],
    "progress-import": ["progress", "import", "tests/data/progress-export.json"],
    "class-report": ["class", "report", "tests/data/progress-export.json"],
    "class-pack": ["class", "pack", "--seed", "2", "--out", "{home}/pack.md"],
    "puzzles-themes": ["puzzles", "themes"],
    "worksheet": ["worksheet", "1", "--out", "{home}/sheet.md"],
    "table-serve": [
        "table",
        "serve",
        "--port",
        "0",
        "--players",
        "3",
        "--deals",
        "1",
        "--pace",
        "0",
        "--start",
        "0",
        "--seed",
        "1",
        "--exit-when-done",
        "--dir",
        "{home}/srv",
    ],
    "table-join": ["table", "join", "ws://127.0.0.1:9", "CODE2345", "--name", "Ann"],
    "table-watch": ["table", "watch", "ws://127.0.0.1:9", "--admin", "CODE2345", "--once"],
    "table-admin": ["table", "admin", "ws://127.0.0.1:9", "start", "--admin", "CODE2345"],
    "web": ["web", "--no-browser", "--host", "203.0.113.9"],
    "class-serve": ["class", "serve", "--host", "203.0.113.9", "--folder", "{home}/class"],
}
#: Runs that fail whatever the streams, with the one line they say (nothing listens on port 9
#: of this machine, so a player or organiser cannot reach a server there).
FAILING = {
    "table-join": "laugh: cannot reach ws://127.0.0.1:9",
    "table-watch": "laugh: cannot reach ws://127.0.0.1:9",
    "table-admin": "laugh: cannot reach ws://127.0.0.1:9",
    # a documentation address (TEST-NET-3), never this machine's: a server cannot listen
    "web": "laugh: cannot listen on 203.0.113.9:0",
    "class-serve": "laugh: cannot listen on 203.0.113.9:0",
}

#: Exit statuses (README, "Commands"; ``laugh --help``).
OK, FAILED = 0, 1

#: The stream conditions: how the process is started, and the status it must end with.
CONDITIONS = (
    "stdin-closed",
    "stdout-closed",
    "stdout-full",
    "ascii",
    "term-dumb",
    "columns-0",
    "columns-20",
    "closed-pipe",
)

TYPED = "7♥\n"  # what the learner types where input is read (a card in symbols)


@dataclass
class Run:
    status: int
    stdout: bytes
    stderr: str


def _env(home: str, condition: str) -> dict[str, str]:
    env = dict(
        os.environ,
        LAUGH_HOME=home,
        COLUMNS="80",
        LINES="24",
        PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        PYTHONIOENCODING="utf-8",
    )
    env.pop("NO_COLOR", None)
    if condition == "ascii":
        env["PYTHONIOENCODING"] = "ascii"
    elif condition == "term-dumb":
        env["TERM"] = "dumb"
    elif condition == "columns-0":
        env["COLUMNS"] = "0"
    elif condition == "columns-20":
        env["COLUMNS"] = "20"
    return env


@pytest.fixture(scope="module")
def runs(request, tmp_path_factory):
    """Every selected (command, condition) run, each its own process forked from one that has
    imported the tutor already (``stream_zygote.py``), run side by side."""
    wanted = sorted(
        {
            (item.callspec.params["command"], item.callspec.params["condition"])
            for item in request.session.items
            if item.module is request.module
            and hasattr(item, "callspec")
            and "condition" in item.callspec.params
        }
    )
    requests = []
    for n, (command, condition) in enumerate(wanted):
        home = str(tmp_path_factory.mktemp(f"{command}-{condition}"))
        requests.append(
            {
                "id": n,
                "condition": condition,
                "home": home,
                "argv": [a.replace("{home}", home) for a in COMMANDS[command]],
                "env": _env(home, condition),
                "typed": TYPED if condition in ("ascii", "term-dumb") else None,
            }
        )
    from tutor.teaching.lessons import _course_checks  # the suite's draws (tests/conftest.py)

    zygote = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tests" / "app" / "stream_zygote.py"),
            "--serve-draws",
            str(_course_checks.SERVE_DRAWS),
        ],
        input="".join(json.dumps(r) + "\n" for r in requests),
        text=True,
        capture_output=True,
        env=_env(str(tmp_path_factory.mktemp("z")), ""),
        cwd=str(ROOT),
        timeout=600,
    )
    assert zygote.returncode == 0, zygote.stderr
    statuses = {r["id"]: r["status"] for r in map(json.loads, zygote.stdout.splitlines())}
    out = {}
    for req, case in zip(requests, wanted):
        path = Path(req["home"])
        stdout = path / "stdout"
        out[case] = Run(
            statuses[req["id"]],
            stdout.read_bytes() if stdout.exists() else b"",
            (path / "stderr").read_text(encoding="utf-8", errors="replace"),
        )
    return out


def _listed(help_text: str) -> set[str]:
    """The subcommands (or actions) a help text lists under its COMMAND/ACTION/KIND heading."""
    names: set[str] = set()
    listing = False
    for line in help_text.splitlines():
        if re.fullmatch(r"  [A-Z]+", line):
            listing = True
        elif listing and re.match(r"    [a-z]", line):
            names.add(line.split()[0])
        elif listing and not line.startswith("      "):
            listing = False
    return names


def test_every_subcommand_is_covered(capsys):
    """The table above runs every subcommand of ``laugh --help`` and every action of those
    that have actions."""
    top = _listed(build_parser().format_help())
    assert top == {argv[0] for argv in COMMANDS.values() if argv}
    for name in sorted(top):
        assert main([name, "--help"]) == OK
        actions = _listed(capsys.readouterr().out)
        if actions:
            assert actions == {argv[1] for argv in COMMANDS.values() if argv[:1] == [name]}, name


def _stream_cases() -> list:
    """Every (command, condition) pair, 296 runs, in the default run: forked from the warm
    ``stream_zygote.py``, about 15 s of processor time in all (each run some 0.05 s)."""
    return [
        pytest.param(command, condition, id=f"{command}-{condition}")
        for command in sorted(COMMANDS)
        for condition in CONDITIONS
    ]


@pytest.mark.parametrize(("command", "condition"), _stream_cases())
def test_streams(runs, command, condition):
    run = runs[(command, condition)]
    assert "Traceback" not in run.stderr and "Exception ignored" not in run.stderr, run.stderr
    if command in FAILING:  # nothing is written before the failure: it is said alone
        assert run.status == FAILED, run.stderr
        assert run.stderr.splitlines()[-1].startswith(FAILING[command]), run.stderr
        return
    if condition in ("stdout-closed", "stdout-full"):
        reason = "it is closed" if condition == "stdout-closed" else "no space left on device"
        assert run.status == FAILED, run.stderr
        assert run.stderr.splitlines()[-1:] == [f"laugh: cannot write to standard output: {reason}"]
        return
    assert run.status == OK, run.stderr
    if condition == "closed-pipe":
        assert run.stderr == ""  # quietly
        return
    assert run.stdout.strip(), "nothing was shown"
    if condition == "ascii":
        assert max(run.stdout) < 128, "not ASCII"
        assert "♥" not in run.stdout.decode("ascii")
    if command in ("laugh", "tutor"):
        out = run.stdout.decode("utf-8")
        assert "Laugh and Lie Down" in out and "home>" in out
        if condition == "columns-20":
            assert max(len(line) for line in out.splitlines()) <= 20 + len("home> 7H")
        if condition in ("ascii", "term-dumb"):
            assert "'7H' is not on the menu" in out or "'7♥' is not on the menu" in out


#: The examples of issue 13 as a learner types them in a shell (``laugh`` is ``python -m tutor``),
#: each run as a whole process: (shell command, exit status, a line its output must hold or None,
#: a line its standard error must be, or None for empty).
EXAMPLES = {
    "stdin closed, home": ("laugh <&-", OK, "home>", None),
    "stdin closed, lesson": ("laugh lesson 2 <&-", OK, "Lesson 2: Cards and terms", None),
    "stdin closed, puzzle": ("laugh puzzle count <&-", OK, "Your answer", None),
    "stdin closed, drill": ("laugh drill settle --rounds 1 --no-save <&-", OK, "", None),
    "stdin closed, play": ("laugh play --no-save <&-", OK, "", None),
    "stdout closed": (
        "laugh </dev/null >&-",
        FAILED,
        None,
        "laugh: cannot write to standard output: it is closed",
    ),
    "full disk, rules": (
        "laugh rules parlett > /dev/full",
        FAILED,
        None,
        "laugh: cannot write to standard output: no space left on device",
    ),
    "full disk, simulate": (
        "laugh simulate --json > /dev/full",
        FAILED,
        None,
        "laugh: cannot write to standard output: no space left on device",
    ),
    "ascii, sources": ("PYTHONIOENCODING=ascii laugh sources porges", OK, "porges  (", None),
    "ascii, compare": ("PYTHONIOENCODING=ascii laugh rules --compare", OK, "first dealer", None),
    "ascii, lesson": ("PYTHONIOENCODING=ascii laugh lesson 2 </dev/null", OK, "2C 7H 7S", None),
    "ascii, typed 7♥": (
        "printf '7\\342\\231\\245\\n' | PYTHONIOENCODING=ascii laugh puzzle count --seed 1",
        OK,
        "Your answer (hint, show, quit): 7H",
        None,
    ),
    "closed pipe": ("laugh rules parlett | head -c 100 >/dev/null", OK, None, None),
    "COLUMNS=0": ("COLUMNS=0 laugh </dev/null", OK, "Course", None),
}


@pytest.fixture(scope="module")
def examples(request, tmp_path_factory):
    """The selected examples, run side by side in real shells."""
    from concurrent.futures import ThreadPoolExecutor

    wanted = sorted(
        {
            item.callspec.params["example"]
            for item in request.session.items
            if item.module is request.module
            and hasattr(item, "callspec")
            and "example" in item.callspec.params
        }
    )
    laugh = f'laugh() {{ "{sys.executable}" -m tutor "$@"; }}; set -o pipefail; '

    def run(name: str) -> Run:
        home = str(tmp_path_factory.mktemp("example"))
        proc = subprocess.run(
            ["bash", "-c", laugh + EXAMPLES[name][0]],
            capture_output=True,
            env=_env(home, ""),
            cwd=str(ROOT),
            timeout=120,
        )
        return Run(proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace"))

    with ThreadPoolExecutor(max_workers=3) as pool:
        return dict(zip(wanted, pool.map(run, wanted)))


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_issue_examples(examples, example):
    run = examples[example]
    _, status, line, err = EXAMPLES[example]
    assert run.status == status, run.stderr
    assert run.stderr.strip() == (err or ""), run.stderr
    if line is not None:
        out = run.stdout.decode("utf-8")
        assert line in out, out[-1500:]
        if "ascii" in example:
            assert max(run.stdout) < 128
