"""The import rule, checked by a well-kept tool: import-linter's contracts in pyproject.toml (the
four rooms as layers, no import cycle among the siblings of any room, and ``app.commands``
imported by the command line alone), run on this checkout; and a circle finder of our own that
counts every import, those under ``if TYPE_CHECKING:`` too (which the contracts may ignore)."""

from __future__ import annotations

import ast
import functools
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class _Linted:
    returncode: int
    stdout: str


def _lint(monkeypatch, capsys, config: Path | None = None, path: Path = ROOT) -> _Linted:
    """import-linter run on the checkout at ``path`` (its ``pyproject.toml``, or ``config``),
    its graph built afresh (no cache): the exit status and what it printed.  In this process
    (the tool reads the files: a process of its own checked no more) where the checkout is what
    this process imports (the tool finds a package imported already where it was imported
    from); else in a process of its own, as a checkout imported from elsewhere asks."""
    import tutor

    if path == ROOT and Path(tutor.__file__).resolve().parent != ROOT / "tutor":
        return _lint_apart(config, path)
    from importlinter.cli import lint_imports

    monkeypatch.chdir(path)
    monkeypatch.syspath_prepend(str(path))
    capsys.readouterr()
    code = lint_imports(config_filename=str(config) if config else None, no_cache=True)
    out, err = capsys.readouterr()
    return _Linted(code, out + err)


def _lint_apart(config: Path | None, path: Path) -> _Linted:
    """:func:`_lint` in a process of its own."""
    env = dict(os.environ, PYTHONPATH=str(path) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    args = [
        sys.executable,
        "-c",
        "import sys; from importlinter.cli import lint_imports_command;"
        " sys.exit(lint_imports_command())",
        "--no-cache",
    ]
    if config is not None:
        args += ["--config", str(config)]
    r = subprocess.run(args, cwd=path, env=env, capture_output=True, text=True, timeout=120)
    return _Linted(r.returncode, r.stdout + r.stderr)


def test_every_contract_is_kept(monkeypatch, capsys):
    r = _lint(monkeypatch, capsys)
    assert r.returncode == 0, r.stdout[-5000:]
    assert "BROKEN" not in r.stdout
    assert "4 kept, 0 broken" in r.stdout


def test_a_breach_is_caught(tmp_path, monkeypatch, capsys):
    """The check can fail: a contract the code breaks is reported broken (exit 1)."""
    cfg = tmp_path / "breach.toml"
    cfg.write_text(
        '[tool.importlinter]\nroot_package = "tutor"\n\n'
        '[[tool.importlinter.contracts]]\nname = "a rule the code breaks (cli uses the engine)"\n'
        'type = "forbidden"\nsource_modules = ["tutor.app.cli"]\n'
        'forbidden_modules = ["tutor.engine"]\n'
    )
    r = _lint(monkeypatch, capsys, cfg)
    assert r.returncode != 0 and "BROKEN" in r.stdout


def test_a_module_importing_the_commands_is_caught(tmp_path, monkeypatch, capsys):
    """Only ``tutor.app.cli`` may import ``tutor.app.commands``: with the command line itself left
    off the allowed list, the contract breaks."""
    cfg = tmp_path / "commands.toml"
    cfg.write_text(
        '[tool.importlinter]\nroot_package = "tutor"\n\n'
        '[[tool.importlinter.contracts]]\nname = "commands from nowhere"\n'
        'type = "protected"\nprotected_modules = ["tutor.app.commands"]\n'
        'allowed_importers = ["tutor.app.home"]\n'
    )
    r = _lint(monkeypatch, capsys, cfg)
    assert r.returncode != 0 and "tutor.app.cli -> tutor.app.commands" in r.stdout


def test_a_circle_closed_inside_a_function_is_caught(tmp_path, monkeypatch, capsys):
    """The cycle contract sees an import inside a function: two sibling modules, one importing
    the other at the top and the other importing it back inside a function, break it."""
    pkg = tmp_path / "room"
    (pkg / "part").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "part" / "__init__.py").write_text("")
    (pkg / "part" / "a.py").write_text("from room.part import b\n")
    (pkg / "part" / "b.py").write_text("def late():\n    from room.part import a\n    return a\n")
    cfg = tmp_path / "cycle.toml"
    cfg.write_text(
        '[tool.importlinter]\nroot_package = "room"\n\n'
        '[[tool.importlinter.contracts]]\nname = "no circle"\n'
        'type = "acyclic_siblings"\nancestors = ["room"]\n'
    )
    r = _lint(monkeypatch, capsys, cfg, tmp_path)
    assert r.returncode != 0 and "BROKEN" in r.stdout and "room.part" in r.stdout


def test_the_puzzles_room_names_its_whole_api_and_loads_it_on_first_use():
    import tutor.puzzles as P
    from tutor.puzzles import _api

    assert P.__all__ == _api.__all__
    assert all(getattr(P, name) is getattr(_api, name) for name in P.__all__)


def _statements(tree: ast.Module) -> list[ast.stmt]:
    """Every statement of ``tree``, at any depth: in a function or a class, under an ``if``, a
    ``try`` (its handlers too), a ``with``, a loop or a ``match`` case.  An import is a
    statement, and a statement stands only in another's list of statements (an expression
    holds none), so these are every place an import can be, without walking the expressions
    that are most of a tree's nodes."""
    out: list[ast.stmt] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(node, field, ()):
                if isinstance(child, ast.stmt):
                    out.append(child)
                    todo.append(child)
                elif isinstance(child, (ast.excepthandler, ast.match_case)):
                    todo.append(child)
    return out


@functools.cache  # the two whole-house tests read one graph (one worker: their xdist group)
def _import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Module -> the package's modules it imports, every import counted: at the top, inside a
    function, under ``if TYPE_CHECKING:``.  ``from a import b`` counts ``a.b`` when that is a
    module, else ``a``; a package is its ``__init__``."""
    mods: dict[str, tuple[Path, str]] = {}
    for path in (root / package).rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
            mods[".".join(parts)] = (path, ".".join(parts))
        else:
            mods[".".join(parts)] = (path, ".".join(parts[:-1]))

    def known(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, (path, pkg) in mods.items():
        for node in _statements(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                names = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names
                ]
            for name in names:
                target = known(name)
                if target is not None and target != mod:
                    graph[mod].add(target)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected components of more than one
    module (Tarjan's algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, edges = work[-1]
            w = next(edges, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


@pytest.mark.xdist_group("import_graph")
def test_the_engine_has_no_import_circle_counting_type_only_imports():
    """Issue 43: no circle among the engine's modules, imports under ``TYPE_CHECKING`` counted
    (the Deal was six mixins and a declared shape importing one another for mypy; the Game
    named the deal's and the rulesets' types the same way)."""
    circles = [
        c
        for c in _circles(_import_graph(ROOT, "tutor"))
        if any(m.startswith("tutor.engine") for m in c)
    ]
    assert circles == []


@pytest.mark.xdist_group("import_graph")
def test_the_house_has_no_import_circle_counting_type_only_imports():
    """Issue 43 item 2: no circle among any of ``tutor``'s modules, imports under
    ``TYPE_CHECKING`` and inside functions counted.  Before: three, each closed by imports
    for the type checker or a late import: the live Table's parts (``_shape``, ``_people``,
    ``_intents``, ``_review``, ``table``: now one module), a lesson's block readers and the
    checker that calls them (now reading a base of it, ``_blockcheck``), and the lessons'
    package with its course and track checks (``puzzle_seed`` now in ``_common``)."""
    assert _circles(_import_graph(ROOT, "tutor")) == []


def test_a_type_only_circle_is_caught(tmp_path):
    """The finder sees a circle closed only for the type checker: ``a`` imports ``b`` at the
    top, ``b`` imports ``a`` under ``if TYPE_CHECKING:``; and a one-way import is no circle."""
    pkg = tmp_path / "room"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from room.b import B\n")
    (pkg / "b.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    from room.a import A\n\nclass B: ...\n"
    )
    (pkg / "c.py").write_text("from room import a\n")
    assert _circles(_import_graph(tmp_path, "room")) == [["room.a", "room.b"]]


def test_the_engine_imports_no_argparse():
    """Issue 43: the command line's library stays in the app (``tutor.engine.names`` imported
    argparse for a ``type=`` helper); the engine raises its own errors, the app words them."""
    graph_roots = sorted((ROOT / "tutor" / "engine").rglob("*.py"))
    importers = [
        str(p.relative_to(ROOT))
        for p in graph_roots
        if any(
            isinstance(n, (ast.Import, ast.ImportFrom))
            and "argparse"
            in ([a.name for a in n.names] if isinstance(n, ast.Import) else [n.module or ""])
            for n in _statements(ast.parse(p.read_text(encoding="utf-8")))
        )
    ]
    assert importers == []
