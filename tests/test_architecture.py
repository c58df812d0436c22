"""The import rule, checked by a well-kept tool: import-linter's contracts in pyproject.toml (the
four rooms as layers, no import cycle among the siblings of any room, and ``app.commands``
imported by the command line alone), run on this checkout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _lint(config: Path | None = None, path: Path = ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(path) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    args = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command;"
            " sys.exit(lint_imports_command())", "--no-cache"]
    if config is not None:
        args += ["--config", str(config)]
    return subprocess.run(args, cwd=path, env=env, capture_output=True, text=True, timeout=120)


def test_every_contract_is_kept():
    r = _lint()
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "BROKEN" not in r.stdout
    assert "4 kept, 0 broken" in r.stdout


def test_a_breach_is_caught(tmp_path):
    """The check can fail: a contract the code breaks is reported broken (exit 1)."""
    cfg = tmp_path / "breach.toml"
    cfg.write_text('[tool.importlinter]\nroot_package = "tutor"\n\n'
                   '[[tool.importlinter.contracts]]\nname = "a rule the code breaks (cli uses the engine)"\n'
                   'type = "forbidden"\nsource_modules = ["tutor.app.cli"]\n'
                   'forbidden_modules = ["tutor.engine"]\n')
    r = _lint(cfg)
    assert r.returncode != 0 and "BROKEN" in r.stdout


def test_a_module_importing_the_commands_is_caught(tmp_path):
    """Only ``tutor.app.cli`` may import ``tutor.app.commands``: with the command line itself left
    off the allowed list, the contract breaks."""
    cfg = tmp_path / "commands.toml"
    cfg.write_text('[tool.importlinter]\nroot_package = "tutor"\n\n'
                   '[[tool.importlinter.contracts]]\nname = "commands from nowhere"\n'
                   'type = "protected"\nprotected_modules = ["tutor.app.commands"]\n'
                   'allowed_importers = ["tutor.app.home"]\n')
    r = _lint(cfg)
    assert r.returncode != 0 and "tutor.app.cli -> tutor.app.commands" in r.stdout


def test_a_circle_closed_inside_a_function_is_caught(tmp_path):
    """The cycle contract sees an import inside a function: two sibling modules, one importing
    the other at the top and the other importing it back inside a function, break it."""
    pkg = tmp_path / "room"
    (pkg / "part").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "part" / "__init__.py").write_text("")
    (pkg / "part" / "a.py").write_text("from room.part import b\n")
    (pkg / "part" / "b.py").write_text("def late():\n    from room.part import a\n    return a\n")
    cfg = tmp_path / "cycle.toml"
    cfg.write_text('[tool.importlinter]\nroot_package = "room"\n\n'
                   '[[tool.importlinter.contracts]]\nname = "no circle"\n'
                   'type = "acyclic_siblings"\nancestors = ["room"]\n')
    r = _lint(cfg, tmp_path)
    assert r.returncode != 0 and "BROKEN" in r.stdout and "room.part" in r.stdout


def test_the_puzzles_room_names_its_whole_api_and_loads_it_on_first_use():
    import tutor.puzzles as P
    from tutor.puzzles import _api
    assert P.__all__ == _api.__all__
    assert all(getattr(P, name) is getattr(_api, name) for name in P.__all__)
