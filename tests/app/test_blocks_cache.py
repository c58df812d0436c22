"""The cache of the studies that lessons' ``simulate`` blocks show (tutor.app.blocks.simulate):
what it serves is what a fresh run of the engine gives, a damaged cache file is worked out
again, and it lives where the environment says."""

from __future__ import annotations

import json

from tutor.app import blocks
from tutor.engine.data import laugh_cache
from tutor.engine.simulate import run_study

DATA = {"ruleset": "parlett", "players": 4, "deals": 120, "seed": 5, "bots": "willughby"}


def test_the_cache_serves_what_a_fresh_run_gives(tmp_path, library):
    fresh, _ = run_study(library.ruleset("parlett"), 4, 120, 5, ["willughby"])
    first = blocks.simulate(DATA, library, tmp_path)
    assert first == json.loads(json.dumps(fresh.to_json()))
    stored = json.loads((tmp_path / "simulate.json").read_text(encoding="utf-8"))
    assert list(stored.values()) == [first]
    # served from the file: change what is stored and the change is what comes back
    (key,) = stored
    stored[key] = dict(first, deals=999)
    (tmp_path / "simulate.json").write_text(json.dumps(stored), encoding="utf-8")
    assert blocks.simulate(DATA, library, tmp_path)["deals"] == 999
    # another seed is another study
    assert blocks.simulate(dict(DATA, seed=6), library, tmp_path) != first
    assert len(json.loads((tmp_path / "simulate.json").read_text(encoding="utf-8"))) == 2


def test_a_damaged_cache_is_worked_out_again(tmp_path, library):
    (tmp_path / "simulate.json").write_text("{not json", encoding="utf-8")
    result = blocks.simulate(DATA, library, tmp_path)
    assert result["deals"] == 120
    assert json.loads((tmp_path / "simulate.json").read_text(encoding="utf-8"))
    assert not list(tmp_path.glob("*.tmp"))


def test_an_unwritable_cache_still_shows_the_study(tmp_path, library):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    assert blocks.simulate(DATA, library, blocker / "cache")["deals"] == 120


def test_where_the_cache_lives(tmp_path, monkeypatch):
    monkeypatch.setenv("LAUGH_CACHE", str(tmp_path / "c"))
    assert laugh_cache() == tmp_path / "c"
    monkeypatch.delenv("LAUGH_CACHE")
    monkeypatch.setenv("LAUGH_HOME", str(tmp_path / "h"))
    assert laugh_cache() == tmp_path / "h" / "cache"
    monkeypatch.delenv("LAUGH_HOME")
    assert laugh_cache().name == "laugh-and-lie-down"
