"""What every generated puzzle must satisfy (shared by the puzzle tests)."""

from __future__ import annotations

import json

from support import JSON_KEYS, engine_answer

import tutor.puzzles as P
from tutor.engine.records import replay
from tutor.engine.sources import default_library
from tutor.puzzles.answers import wrong_answer

#: Kinds whose generation analyses positions (tenths of a second a puzzle, and their check
#: reruns the analysis): the corpus holds one puzzle per ruleset, and loops over every kind take
#: fewer of them.
SLOW_KINDS = frozenset(k for k in P.KINDS if P.generators.kind_of(k).analysed)


def check_puzzle(p: P.Puzzle, quotes: bool = True) -> None:
    """Everything a generated puzzle must satisfy."""
    kind, rid, players, seed = p.id.split(".")
    assert (kind, rid, int(players)) == (p.kind, p.ruleset, p.players) and seed.isdigit()
    obj = p.to_json()
    assert set(obj) == JSON_KEYS
    assert obj["format"] == "laugh-and-lie-down/puzzle@1"
    json.dumps(obj)
    assert "result" not in p.record
    deal = replay(p.record)  # legal, action by action
    assert len(deal.history) == len(p.record["actions"])
    assert 0 <= p.seat < p.players
    assert P.recompute_answer(p) == p.answer
    assert engine_answer(obj) == p.answer
    assert 1 <= p.difficulty <= 5
    assert p.themes and p.hints and p.explanation and p.question
    assert p.theme and (p.theme in p.themes or p.theme in P.themes_of(p.kind))
    for ref in p.quotes:
        default_library().quotation(ref)
    if quotes:
        assert p.quotes, f"{p.id} quotes no source"
    for text in p.accepted:
        g = p.grade(text)
        assert g.correct and g.final and g.credit == 1.0, (p.id, text, g.message)
    w = wrong_answer(p)
    if w is not None:
        g = p.grade(w)
        assert not g.correct and not g.final and g.retry, (p.id, w, g.message)
        assert p.grade(w, attempt=2).final
    assert p.expected_answer_text() == p.accepted[0]
    assert "hint" in p.answer_words()
