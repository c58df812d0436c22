"""What ``laugh records check`` does once its arguments are read: every deal record of the
files replayed by the engine (:func:`tutor.engine.records.check_record`), a line for each bad
or unfinished one and a summary."""

from __future__ import annotations

from tutor.app.std_streams import echo
from tutor.engine.errors import LaughError
from tutor.engine.records import UnfinishedRecord, check_record, load_records

__all__ = ["check_records"]


def check_records(files: list[str], positions: bool = False) -> int:
    """Check every record of ``files`` by replaying it (RULES.md 9); print ``FILE:LINE:
    message`` for each bad or unfinished one (``FILE: message`` for a file that cannot be read
    at all) and a summary line.  ``positions`` accepts records that stop before the deal is
    over.  Returns 0 when every record is good (and there is at least one), else 1."""
    good = bad = unfinished = unreadable = 0
    for path in files:
        for lineno, rec in _iter(path):
            if lineno is None:
                unreadable += 1
                echo(rec)
                continue
            try:
                if isinstance(rec, Exception):
                    raise rec
                check_record(rec, positions=positions)
                good += 1
            except UnfinishedRecord as exc:
                unfinished += 1
                echo(f"{path}:{lineno}: {exc}")
            except LaughError as exc:
                bad += 1
                echo(f"{path}:{lineno}: {exc}")
    total = good + bad + unfinished
    tail = f", {unfinished} unfinished" if unfinished else ""
    if unreadable:
        tail += f"; {unreadable} file{'s' if unreadable != 1 else ''} could not be read"
    echo(f"{total} record{'s' if total != 1 else ''} checked: {good} good, {bad} bad{tail}")
    return 0 if bad == unfinished == unreadable == 0 and total > 0 else 1


def _iter(path):
    """``load_records(path)``; a file that cannot be read at all yields ``(None, error)``
    (its message names the file)."""
    try:
        yield from load_records(path)
    except LaughError as exc:
        yield None, exc
