"""The signal-detection figures of spotting oversights in the progress store (issue 19): recorded
through the store's writes (kept while the file is busy), counted per kind, migrated into from a
schema 2 file, exported and merged by uid, and salvaged from a damaged file."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tutor.teaching.progress import ProgressStore, StoreValueError
from tutor.teaching.progress._schema import _MIGRATIONS
from tutor.teaching.transfer import export_data, import_file, parse_export, write_export


def fill(store: ProgressStore) -> None:
    store.record_sighting("play", "split_prial", "hit", 1.5, ruleset="parlett", source="play:1")
    store.record_sighting("match", "split_prial", "hit", 2.5, ruleset="parlett")
    store.record_sighting("drill", "split_prial", "hit", None, ruleset="parlett")
    store.record_sighting("play", "split_prial", "miss", 9.0)  # a miss keeps no time
    store.record_sighting("drill", "laid_down_dead_pair", "false_claim")
    store.record_sighting("play", "", "false_claim")


def test_figures_per_kind(tmp_path):
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        fill(store)
        got = {f.kind: f for f in store.spotting()}
        sp = got["split_prial"]
        assert (sp.hits, sp.misses, sp.false_claims, sp.timed) == (3, 1, 0, 2)
        assert sp.median_seconds == pytest.approx(2.0) and sp.hit_rate == pytest.approx(0.75)
        assert got["laid_down_dead_pair"].false_claims == 1 and got[""].false_claims == 1
        assert [s.seconds for s in store.sightings() if s.outcome == "miss"] == [None]
        drills = {f.kind: f for f in store.spotting(("drill",))}
        assert drills["split_prial"].hits == 1 and "" not in drills
        with pytest.raises(StoreValueError, match="outcome"):
            store.record_sighting("play", "split_prial", "maybe")
        with pytest.raises(StoreValueError, match="context"):
            store.record_sighting("lesson", "split_prial", "hit")


def test_export_and_import_merge_by_uid(tmp_path):
    with ProgressStore(tmp_path / "a.sqlite3") as a:
        fill(a)
        write_export(a, tmp_path / "a.json", "Ann")
        data = export_data(a)
    assert len(data["sightings"]) == 6
    with ProgressStore(tmp_path / "b.sqlite3") as b:
        b.record_sighting("play", "split_prial", "hit", 3.0)
        import_file(b, tmp_path / "a.json")
        import_file(b, tmp_path / "a.json")  # twice changes nothing
        assert len(b.sightings()) == 7
        assert {f.kind: f.hits for f in b.spotting()}["split_prial"] == 4
    bad = (tmp_path / "a.json").read_text().replace('"outcome": "miss"', '"outcome": "oops"')
    with pytest.raises(Exception, match=r"sightings\[\d\]\.outcome: must be one of"):
        parse_export(bad, "a.json")
    old = json.loads((tmp_path / "a.json").read_text())
    del old["sightings"]  # an older export: none
    assert parse_export(json.dumps(old)).sightings == []


def test_a_schema_2_file_migrates_and_a_damaged_row_is_salvaged(tmp_path):
    path = tmp_path / "p.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    for v in (0, 1):
        _MIGRATIONS[v](conn)
    conn.execute("PRAGMA user_version = 2")
    conn.close()
    with ProgressStore(path) as store:
        assert store.schema_version == 3 and store.notice is None and store.spotting() == []
        fill(store)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE sightings SET outcome = 'perhaps' WHERE id = 1")
    conn.close()
    with ProgressStore(path) as store:
        assert "moved to" in store.notice and "5 figures of spotting oversights" in store.notice
        assert len(store.sightings()) == 5
