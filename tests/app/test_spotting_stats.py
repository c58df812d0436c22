"""``laugh stats`` shows the figures of spotting oversights in one small table in plain words,
the answers on the drill's positions judged by counting or the ruleset apart (issue 42), and
the oversight drill's personal bests (issue 19), at 80 and 40 columns."""

from __future__ import annotations

import os

import pytest
from support import ROOT, laugh_process

from tutor.teaching.progress import ProgressStore


@pytest.mark.parametrize("width", [80, 40])
def test_stats_show_spotting_and_bests(tmp_path, width):
    with ProgressStore(tmp_path / "progress.sqlite3") as store:
        store.record_answer(
            "spot-oversight.parlett.5.1", "spot-oversight", ["split-prial"], True, 2.0, difficulty=2
        )
        for outcome, secs in (("hit", 1.5), ("hit", 2.5), ("miss", None)):
            store.record_sighting("play", "split_prial", outcome, secs)
        store.record_sighting("drill", "laid_down_dead_pair", "false_claim")
        store.record_sighting("play", "", "false_claim")
        for right in (True, False, True):  # the drill's positions judged by counting
            store.record_answer(
                "spot-oversight.parlett.4.2",
                "spot-oversight",
                ["oversight", "judged-by-counting"],
                right,
                3.0,
                difficulty=2,
            )
        store.record_answer(
            "spot-oversight.parlett.4.3",
            "spot-oversight",
            ["oversight", "judged-by-ruleset"],
            False,
            4.0,
            difficulty=2,
        )
        store.set_meta("drill.oversights.storm.parlett.best", "17")
        store.set_meta("drill.oversights.streak.mixed.best", "6")
    env = dict(
        os.environ,
        LAUGH_HOME=str(tmp_path),
        PYTHONIOENCODING="utf-8",
        COLUMNS=str(width),
        PYTHONPATH=str(ROOT),
    )
    proc = laugh_process(["stats"], None, env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert all(len(line) <= width for line in out.splitlines())
    flat = " ".join(out.split())
    assert "Spotting oversights (play, matches and drills)" in flat
    assert "claimed missed false time" in flat
    assert "split prial 2 1 0 2.0 s" in flat
    assert (
        "A false claim: nothing of that is claimable 0 0 1 -"
        if width == 80
        else "A false 0 0 1 - claim: nothing of that is claimable"
    ) in flat
    assert ("dead pair laid down 0 0 1 -" if width == 80 else "dead pair 0 0 1 - laid down") in flat
    assert flat.index("split prial") < flat.index("dead pair") < flat.index("A false ")
    assert "Personal bests of the oversight drill" in flat
    assert "Judged by counting: spotting is not counting" in flat
    assert "by counting (is the pair laid down dead?): 2 of 3 right (67%)" in flat
    assert "by the ruleset (may it be claimed under it?): 0 of 1 right (0%)" in flat
    assert (
        flat.index("Spotting oversights")
        < flat.index("Judged by counting: spotting")
        < flat.index("Personal bests")
    )
    assert "storm parlett 17" in flat and "streak mixed 6" in flat
