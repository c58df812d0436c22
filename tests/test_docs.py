"""The documents run from a clone (issue 43, finding 4 and build item 4).

Every ``laugh …`` command shown in README.md and ``docs/*.md`` (code spans and code blocks) is
read against the real argument parser of :mod:`tutor.app.cli`: its command and subcommands
exist, each option exists for that command and has the values it needs, a value or positional
offered as a choice (``start|release|empty``, ``--for teacher|students``) is one of its choices,
and no command takes more positionals than it has. A command written with no placeholder (no
``FILE``, ``[...]``, ``a|b``) is also parsed whole, as ``laugh`` would parse it (a mention
such as ``laugh progress export`` may leave out a required argument). A ``python``
command must run a script or folder of the clone and, for pytest, a registered marker. Every
relative link points to a file of the clone (and a heading of it, for ``#anchor``). Lines of
prose are at most 100 characters. The status cells of docs/RULES.md's comparison table agree
with the rulesets' data (``sources/*.yaml``: stated, read or chosen).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib.util
import io
import re
import shlex
import tomllib
from pathlib import Path

import pytest
from support import ROOT

from tutor.app.cli import build_parser as _build_parser

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: A word that stands for a value to fill in: FILE, S, HOST:PORT, FILE.html, CODE/SEATCODE.
_PLACEHOLDER = re.compile(r"(?<![A-Za-z])[A-Z][A-Z0-9_]*(?![a-z])")
_STATUS = re.compile(r"\b(stated|read|chosen)\b")


@functools.cache
def build_parser() -> argparse.ArgumentParser:
    """The real ``laugh`` parser, built once (parsing leaves it as it was)."""
    return _build_parser()


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _code(text: str) -> tuple[list[str], list[str]]:
    """The lines of ``text``'s fenced code blocks, and its code spans (a span may run over a
    line break inside a paragraph; its white space is made single)."""
    lines: list[str] = []
    prose: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            prose.append("")
        elif fenced:
            if lines and lines[-1].endswith("\\"):  # a shell line continued
                lines[-1] = lines[-1][:-1].rstrip() + " " + line.strip()
            else:
                lines.append(line.strip())
            prose.append("")
        else:
            prose.append(line)
    rest = "\n".join(prose)
    spans = [" ".join(s.split()) for s in re.findall(r"`([^`]+)`", rest)]
    return lines, spans


def _commands(text: str) -> list[str]:
    """Every command shown in ``text``: each line of a code block and each code span, split at
    ``&&`` and ``;``, that starts with ``laugh``, a path to it, or ``python``."""
    lines, spans = _code(text)
    out = []
    for piece in lines + spans:
        for part in re.split(r"\s*(?:&&|;)\s*", piece):
            part = part.removeprefix("$ ").strip()
            first = part.split(" ", 1)[0]
            if re.fullmatch(r"(?:\S*/)?(?:laugh|python3?)", first):
                out.append(part)
    return out


def _all_commands() -> list[tuple[str, str]]:
    return [(_rel(doc), cmd) for doc in DOCS for cmd in _commands(doc.read_text("utf-8"))]


def _norm(word: str) -> str:
    return word.lower().replace("_", "-").replace(" ", "-")


def _tokens(command: str) -> list[str]:
    """The words of a ``laugh`` command after ``laugh``: brackets taken off, ``...`` dropped,
    ``--opt=value`` split, ending at a shell pipe (a ``|`` not followed by an option)."""
    text = command.replace("\\|", "|")
    try:
        words = shlex.split(text)[1:]  # "Dan Ford": one word, as the shell reads it
    except ValueError:  # an unclosed quote in prose: the words as written
        words = text.split()[1:]
    out: list[str] = []
    for i, word in enumerate(words):
        if word == "|":
            if i + 1 < len(words) and words[i + 1].lstrip("[(").startswith("-"):
                continue  # --deals K | --match: alternatives
            break  # laugh rules | head: a pipe
        word = word.strip("[]")
        if word in ("...", "…") and out and out[-1].startswith("-"):
            word = "VALUES"  # [--bots ...]: some value
        if word.endswith("..."):
            word = word[:-3]
        if word in ("", "…"):
            continue
        if word.startswith("--") and "=" in word:
            out.extend(word.split("=", 1))
        else:
            out.append(word)
    return out


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction | None:
    return next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)


def _check_choice(action: argparse.Action, word: str, where: str) -> list[str]:
    if action.choices is None or _PLACEHOLDER.search(word):
        return []
    choices = {_norm(str(c)) for c in action.choices}
    return [
        f"{where}: {alt!r} is not one of {sorted(choices)}"
        for alt in word.split("|")
        if _norm(alt) not in choices
    ]


def _check(parser: argparse.ArgumentParser, words: list[str], where: str) -> list[str]:
    """What in ``words`` (a command's words after ``laugh`` and its subcommands so far) does
    not fit ``parser``."""
    subs = _subparsers(parser)
    positionals = [
        a
        for a in parser._actions
        if not a.option_strings and not isinstance(a, argparse._SubParsersAction)
    ]
    i = 0
    while i < len(words):
        word = words[i]
        if word.startswith("-") and not re.fullmatch(r"-\d+", word):
            action = parser._option_string_actions.get(word)
            if action is None:
                return [f"{where}: no option {word}"]
            i += 1
            nargs = action.nargs
            if nargs == 0:
                continue
            takes_value = i < len(words) and not words[i].startswith("-")
            if nargs in (None, 1) and not takes_value:
                return [f"{where}: {word} needs a value"]
            if takes_value and nargs in (None, 1, "?"):
                problems = _check_choice(action, words[i], f"{where} {word}")
                if problems:
                    return problems
                i += 1
            elif nargs in ("*", "+"):
                while i < len(words) and not words[i].startswith("-"):
                    i += 1
            continue
        if subs is not None:
            if _PLACEHOLDER.fullmatch(word):
                return []  # laugh COMMAND --help: any command
            problems = []
            for alt in word.split("|"):
                name = next((c for c in subs.choices if _norm(c) == _norm(alt)), None)
                if name is None:
                    problems.append(
                        f"{where}: no command {alt!r} (there are {', '.join(subs.choices)})"
                    )
                else:
                    problems += _check(subs.choices[name], words[i + 1 :], f"{where} {name}")
            return problems
        if not positionals:
            return [f"{where}: a word too many: {word!r}"]
        action = positionals[0]
        problems = _check_choice(action, word, f"{where} {action.dest}")
        if problems:
            return problems
        if action.nargs not in ("*", "+", argparse.REMAINDER):
            positionals.pop(0)
        i += 1
    return []


def _concrete(command: str) -> bool:
    return not re.search(r"[\[\]|…]|\.\.\.|\*", command) and not any(
        _PLACEHOLDER.search(w) for w in command.split()[1:]
    )


def _check_laugh(command: str) -> list[str]:
    words = _tokens(command)
    problems = _check(build_parser(), words, "laugh")
    if not problems and _concrete(command):
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                build_parser().parse_args(words)
        except SystemExit as exc:
            if exc.code and "arguments are required" not in err.getvalue():  # a mention
                problems.append(f"laugh refuses it: {err.getvalue().strip()}")
    return problems


def _markers() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    return {m.split(":")[0] for m in config["tool"]["pytest"]["ini_options"]["markers"]}


def _check_python(command: str) -> list[str]:
    """A ``python`` command runs from the clone's root: a script or folder it names is in the
    clone; pytest's ``-m`` names registered markers."""
    words = command.split()[1:]
    problems = []
    module = words[1] if words[:1] == ["-m"] and len(words) > 1 else None
    if module and importlib.util.find_spec(module) is None:
        problems.append(f"no module {module!r} (pip install '.[test]')")
    for k, word in enumerate(words):
        if k and words[k - 1] == "-m" and module == "pytest" and k > 1:
            unknown = set(re.findall(r"[a-z_]+", word)) - {"and", "or", "not"} - _markers()
            problems += [f"no pytest marker {m!r}" for m in sorted(unknown)]
        if word.startswith("-") or "://" in word or "$" in word:
            continue
        if "/" in word or word.endswith(".py") or (k == 0 and module is None):
            path = (ROOT / word).resolve()
            if not path.is_relative_to(ROOT.resolve()):
                problems.append(f"{word} points outside the repository")
            elif not path.exists():
                problems.append(f"{word} is not in the clone")
    return problems


@pytest.mark.parametrize("doc, command", _all_commands())
def test_every_command_shown_runs_from_a_clone(doc, command):
    first = command.split()[0]
    problems = _check_python(command) if re.search(r"python3?$", first) else _check_laugh(command)
    assert not problems, f"{doc}: `{command}`: {'; '.join(problems)}"


def test_the_documents_show_the_commands_a_user_needs():
    """The finder itself: the README's commands and the long synopses over several lines are
    found (a finder that finds nothing would pass every check above)."""
    commands = [c for _, c in _all_commands()]
    assert ".venv/bin/laugh" in commands
    assert "laugh track tournament" in commands
    assert any(
        c.startswith("laugh table serve [--host H]") and c.endswith("[--json]") for c in commands
    )
    assert len(commands) > 80, len(commands)


@pytest.mark.parametrize(
    "command, problem",
    [
        ("laugh drill weak --limit 5", "no option --limit"),
        ("laugh table admin ADDRESS stop --admin CODE", "'stop' is not one of"),
        ("laugh class pack --for parents --out F.html", "'parents' is not one of"),
        ("laugh tables serve", "no command 'tables'"),
        ("laugh odds extra", "a word too many"),
        ("laugh play --seed", "--seed needs a value"),
        ("laugh play --seed seven", "laugh refuses it"),
    ],
)
def test_a_wrong_command_is_caught(command, problem):
    assert any(problem in p for p in _check_laugh(command)), _check_laugh(command)


def test_a_script_outside_the_clone_is_caught():
    assert _check_python("python3 ../shared/tools/layers") == [
        "../shared/tools/layers points outside the repository"
    ]
    assert _check_python("python benchmarks/bench_nothing.py") == [
        "benchmarks/bench_nothing.py is not in the clone"
    ]
    assert _check_python("python -m pytest -m fast") == ["no pytest marker 'fast'"]
    assert _check_python("python -m pytests") == ["no module 'pytests' (pip install '.[test]')"]


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_relative_link_points_to_a_file_of_the_clone():
    problems = []
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text("utf-8")):
            if re.match(r"[a-z]+:", target):
                continue
            path_part, _, anchor = target.partition("#")
            path = (doc.parent / path_part).resolve() if path_part else doc
            if not path.is_relative_to(ROOT.resolve()) or not path.exists():
                problems.append(f"{_rel(doc)}: {target} is not a file of the clone")
            elif anchor and path.suffix == ".md":
                headings = {
                    _slug(h) for h in re.findall(r"^#+ (.+)$", path.read_text("utf-8"), re.M)
                }
                if anchor not in headings:
                    problems.append(f"{_rel(doc)}: {target}: no heading #{anchor}")
    assert not problems, "\n".join(problems)


def _sections() -> dict[str, str]:
    """docs/COMMANDS.md's sections by the commands their heading names (``laugh lesson, laugh
    lessons`` is both)."""
    text = (ROOT / "docs" / "COMMANDS.md").read_text("utf-8")
    return {
        name: m.group(2)
        for m in re.finditer(r"^## (laugh[^\n]*)\n(.*?)(?=^## |\Z)", text, re.M | re.S)
        for name in m.group(1).split(", ")
    }


def _leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ("laugh",)):
    subs = _subparsers(parser)
    if subs is None:
        yield path, parser
        return
    for name, sub in subs.choices.items():
        yield from _leaves(sub, (*path, name))


def test_every_command_and_option_is_in_commands_md():
    """Every command in full: each command of the parser has its section in docs/COMMANDS.md
    (the nearest heading naming it or the command above it), and each of its options is named
    there."""
    sections = _sections()
    missing = []
    for path, parser in _leaves(build_parser()):
        heading = next(
            (" ".join(path[:k]) for k in range(len(path), 0, -1) if " ".join(path[:k]) in sections),
            None,
        )
        body = sections.get(heading or "", "")
        if heading is None or (heading == "laugh" and len(path) > 1 and path[1] != "tutor"):
            missing.append(f"{' '.join(path)}: no section")
            continue
        if len(path) > 2 and not re.search(rf"\b{path[-1]}\b", body):  # drill oversights|count
            missing.append(f"{' '.join(path)}: not named in its section {heading!r}")
        for action in parser._actions:
            names = [o for o in action.option_strings if o.startswith("--")]
            if not names or names[0] in ("--help", "--sources"):
                continue  # --sources: "What every command shares"
            if not any(re.search(re.escape(o) + r"(?![\w-])", body) for o in names):
                missing.append(f"{' '.join(path)} {names[0]}: not in section {heading!r}")
    assert not missing, "\n".join(missing)


def test_the_readme_links_into_docs():
    text = (ROOT / "README.md").read_text("utf-8")
    for name in ("COMMANDS", "ORGANISER", "TEACHER", "DEVELOPMENT"):
        assert f"(docs/{name}.md)" in text, name


def test_lines_of_prose_are_at_most_100_characters():
    long = []
    for doc in DOCS:
        lines, fenced = doc.read_text("utf-8").splitlines(), False
        for n, line in enumerate(lines, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
            elif not fenced and not line.startswith("|") and len(line) > 100:
                long.append(f"{_rel(doc)}:{n}: {len(line)} characters")
    assert not long, "\n".join(long)


# --- docs/RULES.md's comparison table and the rulesets' data ---------------------------------

#: The one-parameter rows of the comparison table: a cell's status words after its value
#: (``chosen`` is also a value of ``first_dealer``), outside brackets (its notes and quotations),
#: name that parameter's status in the column's ruleset (a set whose members differ, as du
#: Coeur's oversights, has the weakest of them: one of those words); a cell with none says
#: nothing of it.
_ROWS = (
    "first_dealer",
    "table_mournival",
    "captures",
    "hand_plays",
    "bonus_to",
    "last_in_plays_on",
    "leftovers_to",
    "scoring",
    "oversights",
)

#: Counts summarised in parlett's "other counts" cell: its segment, the ruleset and players.
_COUNT_SEGMENTS = {
    "4p (Willughby)": ("parlett", 4),
    "4p option": ("parlett-13", 4),
    "3p": ("parlett", 3),
    "6p": ("parlett", 6),
}
_COUNT_WORDS = {"ante": "ante_dealer", "bonus": "last_in_bonus", "be": "breakeven"}


def _unbracketed(cell: str) -> str:
    while re.search(r"\([^()]*\)", cell):
        cell = re.sub(r"\([^()]*\)", "", cell)
    return cell


def _comparison() -> tuple[list[str], dict[str, list[str]]]:
    text = (ROOT / "docs" / "RULES.md").read_text("utf-8")
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| parameter | parlett ("))
    header = [c.strip().split(" ")[0] for c in lines[start].strip("|").split("|")][1:]
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows[cells[0].strip("`")] = cells[1:]
    return header, rows


def _statuses() -> dict[tuple[str, str, int | None], str]:
    from tutor.engine.sources import load_library

    library = load_library()
    return {
        (rid, p.name, p.players): p.status
        for rid, params in library.parameters.items()
        for p in params
    }


def test_the_rules_comparison_says_each_parameters_status_as_the_rulesets_do():
    header, rows = _comparison()
    statuses = _statuses()
    wrong = []
    for name in _ROWS:
        for rid, cell in zip(header, rows[name], strict=True):
            said = set(_STATUS.findall(_unbracketed(cell).partition(" ")[2]))
            if said and statuses[(rid, name, None)] not in said:
                wrong.append(
                    f"{name} of {rid}: {' and '.join(sorted(said))} in RULES.md, "
                    f"{statuses[(rid, name, None)]!r} in sources/"
                )
    cell = rows["other counts"][header.index("parlett")]
    counts, _, overall = cell.partition("—")
    overall_status = _STATUS.search(overall)
    for segment in counts.split(";"):
        label, _, values = segment.strip().partition(":")
        rid, players = _COUNT_SEGMENTS[label.strip()]
        for word, name in _COUNT_WORDS.items():
            at = re.search(rf"\b{word}\b", values)
            if at is None:
                continue
            said = _STATUS.search(values, at.end()) or overall_status
            assert said is not None, segment
            if said.group(1) != statuses[(rid, name, players)]:
                wrong.append(
                    f"{name} of {rid} ({players}p): {said.group(1)!r} in RULES.md, "
                    f"{statuses[(rid, name, players)]!r} in sources/"
                )
    assert not wrong, "\n".join(wrong)


def test_ci_runs_the_readmes_test_command():
    """CI (``.ci/run``) installs ``.[test]`` and runs the README's test command, in its own
    environment: the two must not drift apart."""
    readme = (ROOT / "README.md").read_text("utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    venv, install, run = re.split(r"\s*&&\s*", blocks[1])
    assert venv == "python3 -m venv .venv"
    if not (ROOT / ".ci" / "run").exists():
        pytest.skip("no .ci/run: not a clone (an sdist)")
    ci = (ROOT / ".ci" / "run").read_text("utf-8").splitlines()
    assert 'python -m pip install --quiet ".[test]"' in ci
    assert install == ".venv/bin/pip install '.[test]'"
    assert run.removeprefix(".venv/bin/") in ci
