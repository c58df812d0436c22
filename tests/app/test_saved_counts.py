"""What a practice set left early says it saved comes from the store (issue 23): one right answer
then Ctrl-C at "Enter to go on>" said "Saved: 0 answers of this set (0 right)" though the store
had grown by one."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from tutor.app import views
from tutor.app.context import Context, Glyphs
from tutor.app.io import ScriptedIO
from tutor.teaching.progress import FILE_NAME, ProgressStore


@pytest.mark.parametrize("end", [KeyboardInterrupt, EOFError])
def test_a_set_left_after_an_answer_was_recorded_counts_it(tmp_path, monkeypatch, end):
    def pose(ctx, puzzle, heading):             # the answer graded and recorded, then Ctrl-C
        ctx.store.record_answer(f"count.parlett.5.{puzzle}", "count", ["counting"], True, 2.0)
        raise end

    monkeypatch.setattr(views, "pose", pose)
    out = Console(file=io.StringIO(), width=80, color_system=None)
    with ProgressStore(tmp_path / FILE_NAME) as store:
        store.record_answer("earlier", "count", [], False, 1.0)     # not of this set
        ctx = Context(ScriptedIO([], out), Glyphs(), store)
        with pytest.raises(end):
            views._run_set(ctx, lambda i: i)
        assert store.answer_count() == 2
    assert "Of this set: 1 answer saved (1 right)." in out.file.getvalue()
