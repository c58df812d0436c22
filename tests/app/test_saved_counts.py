"""What a practice set left early says it saved comes from the store (issue 23): one right answer
then Ctrl-C at "Enter to go on>" said "Saved: 0 answers of this set (0 right)" though the store
had grown by one."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from tutor.app import views
from tutor.app.context import Context, Glyphs
from tutor.app.learner_io import ScriptedIO
from tutor.teaching.progress import FILE_NAME, ProgressStore


@pytest.mark.parametrize("end", [KeyboardInterrupt, EOFError])
def test_a_set_left_after_an_answer_was_recorded_counts_it(tmp_path, monkeypatch, end):
    def pose(ctx, puzzle, heading):  # the answer graded and recorded, then Ctrl-C
        ctx.store.record_answer(f"count.parlett.5.{puzzle}", "count", ["counting"], True, 2.0)
        raise end

    monkeypatch.setattr(views, "pose", pose)
    out = Console(file=io.StringIO(), width=80, color_system=None)
    with ProgressStore(tmp_path / FILE_NAME) as store:
        store.record_answer("earlier", "count", [], False, 1.0)  # not of this set
        ctx = Context(ScriptedIO([], out), Glyphs(), store)
        with pytest.raises(end):
            views._run_set(ctx, lambda i: i)
        assert store.answer_count() == 2
    assert "Of this set: 1 answer saved (1 right)." in out.file.getvalue()


def test_stats_with_laugh_home_a_regular_file_warn_that_nothing_is_saved(tmp_path):
    # issue 34 finding 6: LAUGH_HOME a regular file: a puzzle warned, but laugh stats then said
    # "0 answers recorded" as if answers had been kept somewhere; now it says why there are none
    from support import run_laugh

    home = tmp_path / "home"
    home.write_text("not a folder\n")
    proc = run_laugh(["stats"], "", home)
    assert proc.returncode == 0, proc.stderr
    flat = " ".join(proc.stdout.split())
    assert f"Your progress cannot be saved: {home} is not a folder; nothing is saved there." in flat
    assert flat.index("cannot be saved") < flat.index("0 answers recorded")
    assert home.read_text() == "not a folder\n"


def test_a_tournament_track_player_practises_weak_themes_under_the_track_rules(
    tmp_path, monkeypatch
):
    # issue 34 finding 10: from laugh stats, a player on the tournament track got Parlett with
    # six players; the practice set is now under the track's ruleset and its player count
    made = []
    real = views.generate

    def generate(kind, **kw):
        made.append((kind, kw.get("ruleset"), kw.get("players")))
        return real(kind, **kw)

    monkeypatch.setattr(views, "generate", generate)
    monkeypatch.setattr(views, "_run_set", lambda ctx, make: (None, [make(i) for i in range(3)]))
    out = Console(file=io.StringIO(), width=80, color_system=None)
    with ProgressStore(tmp_path / FILE_NAME) as store:
        ctx = Context(ScriptedIO([], out), Glyphs(), store)
        views.practice_themes(ctx, ["counting"])
        assert made and all(r is None for _, r, _ in made)  # on no track: any ruleset
        made.clear()
        store.start_lesson("tournament/capturing", 1)
        assert views.track_rules(ctx) == ("inter-livery-2018", 5)
        puzzles = views.practice_themes(ctx, ["counting"])
        assert made and all((r, n) == ("inter-livery-2018", 5) for _, r, n in made)
        assert all(p.ruleset == "inter-livery-2018" for p in puzzles)
