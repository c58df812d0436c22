"""Puzzles: every kind under every ruleset it applies to generates, replays legally, has the
answer the engine computes from the position, grades its own answers right and a wrong one wrong;
decoy rates hold; ids are reproducible; definitions cite real quotations."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import re
from collections import Counter

import pytest
import yaml

import tutor.puzzles as P
from tutor.engine.cards import RANKS, parse_card, parse_rank, pretty
from tutor.engine.deal import Action
from tutor.engine.records import action_from_json, replay
from tutor.engine.sources import default_library
from tutor.puzzles.answers import wrong_answer
from tutor.puzzles.model import puzzles_dir

from support import JSON_KEYS, engine_answer

LIB = default_library()
#: Seeds per kind, spread over every (ruleset, players) the kind applies to.
PER_KIND = 200

def combos(kind: str) -> list[tuple[str, int]]:
    return [(r, n) for r in P.applicable_rulesets(kind) for n in LIB.rulesets[r].player_counts]


def seeds_for(kind: str) -> list[tuple[str, int, int]]:
    cs = combos(kind)
    per = max(4, -(-PER_KIND // len(cs)))
    return [(r, n, s) for r, n in cs for s in range(per)]



def check_puzzle(p: P.Puzzle) -> None:
    """Everything a generated puzzle must satisfy."""
    kind, rid, players, seed = p.id.split(".")
    assert (kind, rid, int(players)) == (p.kind, p.ruleset, p.players) and seed.isdigit()
    obj = p.to_json()
    assert set(obj) == JSON_KEYS
    assert obj["format"] == "laugh-and-lie-down/puzzle@1"
    json.dumps(obj)
    assert "result" not in p.record
    deal = replay(p.record)                     # legal, action by action
    assert len(deal.history) == len(p.record["actions"])
    assert 0 <= p.seat < p.players
    assert P.recompute_answer(p) == p.answer
    assert engine_answer(obj) == p.answer
    assert 1 <= p.difficulty <= 5
    assert p.themes and p.hints and p.explanation and p.question
    for ref in p.quotes:
        LIB.quotation(ref)
    assert p.quotes, f"{p.id} quotes no source"
    for text in p.accepted:
        g = p.grade(text)
        assert g.correct, (p.id, text, g.message)
    w = wrong_answer(p)
    if w is not None:
        g = p.grade(w)
        assert not g.correct, (p.id, w, g.message)
    assert p.expected_answer_text() == p.accepted[0]
    assert "hint" in p.answer_words()


@pytest.mark.parametrize("kind", P.KINDS)
def test_every_kind_and_ruleset(kind):
    seen_rulesets = set()
    for rid, n, s in seeds_for(kind):
        p = P.generate(kind, rid, n, s)
        check_puzzle(p)
        seen_rulesets.add(rid)
    assert seen_rulesets == set(P.applicable_rulesets(kind))


def test_kind_specific_answers_match_the_position():
    # spot-oversight: a real claim is among the seat's free actions; a decoy has none
    for s in range(40):
        p = P.generate("spot-oversight", seed=s)
        deal = p.deal()
        claims = [a for a in deal.free_actions(p.seat) if a.kind == "claim"]
        if p.variant == "decoy":
            assert p.answer == {"claims": []} and not claims and not deal.open_oversights()
        else:
            assert len(p.answer["claims"]) == 1
            c = p.answer["claims"][0]
            assert c["oversight"] == p.variant
            act = Action.make(p.seat, "claim", [parse_card(x) for x in c["cards"]], (),
                              c["oversight"])
            assert deal.why_illegal(act) is None
            # the mistake was made by the last action, by someone else
            assert deal.history[-1].kind in ("capture", "lie_down")
            assert all(o.offender != p.seat for o in deal.open_oversights())
    # capture-now: exactly one at-risk option among at least one safe one, and it is our turn
    for s in range(30):
        p = P.generate("capture-now", seed=s)
        deal = p.deal()
        assert deal.to_move == p.seat
        opts = deal.capture_options(p.seat)
        assert sum(o.at_risk for o in opts) == 1 and len(opts) >= 2
    # legal-play: every listed action is legal for the seat
    for s in range(30):
        p = P.generate("legal-play", seed=s)
        deal = p.deal()
        for a in p.answer["actions"]:
            assert deal.why_illegal(action_from_json(a, 0)) is None


def test_source_quiz_options_are_unambiguous():
    for s in range(60):
        p = P.generate("source-quiz", seed=s)
        opts = p.answer["options"]
        assert len(set(opts)) == len(opts) >= 3
        if p.variant == "which":
            q = LIB.quotation(p.quotes[0])
            assert p.answer["source"] == q.source and q.source in opts
            assert q.text in p.question
            assert q.citation not in p.question           # shown without its citation
        else:
            r1, r2 = list(p.answer["values"])
            pl = p.players
            differing = []
            for o in opts:
                count = o in ("hand", "table", "ante_dealer", "ante_other", "last_in_bonus",
                              "breakeven")
                a = LIB.parameter(r1, o, pl if count else None).value
                b = LIB.parameter(r2, o, pl if count else None).value
                if a != b:
                    differing.append(o)
            assert differing == [p.answer["parameter"]]


def test_every_oversight_kind_under_every_ruleset_that_allows_it():
    for rid in P.applicable_rulesets("spot-oversight"):
        rs = LIB.rulesets[rid]
        n = 5 if 5 in rs.counts else rs.player_counts[0]
        variants = Counter(P.generate("spot-oversight", rid, n, s).variant for s in range(80))
        for k in rs.oversights:
            assert variants[k] > 0, (rid, k, variants)
        assert variants["decoy"] > 0


def test_spot_oversight_never_applies_without_oversights():
    applicable = set(P.applicable_rulesets("spot-oversight"))
    for rid, rs in LIB.rulesets.items():
        assert (rid in applicable) == bool(rs.oversights)
    from tutor.engine.errors import UsageError
    with pytest.raises(UsageError):
        P.generate("spot-oversight", "wolffauer", 5, 1)


def test_decoy_rates_hold():
    spot = [P.generate("spot-oversight", seed=s).variant == "decoy" for s in range(300)]
    rate = P.definition("spot-oversight").decoy_rate
    assert abs(sum(spot) / len(spot) - rate) < 0.08
    dead = [P.generate("dead-pair", seed=s).answer["dead_pairs"] == [] for s in range(200)]
    assert abs(sum(dead) / len(dead) - P.definition("dead-pair").decoy_rate) < 0.1


def test_capture_forms_allowed_and_forbidden_are_exercised():
    themes: dict[str, set] = {}
    for rid in ("parlett", "du-coeur", "wolffauer"):
        rs = LIB.rulesets[rid]
        got = set()
        for s in range(150):
            got |= set(P.generate("legal-play", rid, 5, s).themes)
        themes[rid] = got
        for form in ("one_for_three", "pair_for_pair", "prial_for_one"):
            name = form.replace("_", "-")
            expect = name if form in rs.captures else f"no-{name}"
            assert expect in got, (rid, expect)
    assert "lie-down" in themes["parlett"] and "declaration" in themes["parlett"]


def test_same_id_same_puzzle():
    for kind in P.KINDS:
        for s in (0, 17, 123456):
            a = P.generate(kind, seed=s)
            b = P.from_id(a.id)
            assert a.to_json() == b.to_json()
            assert P.generate(kind, a.ruleset, a.players, s).to_json() == a.to_json()


#: Positions and answers of a few ids, fixed: a change means puzzles changed under the same
#: generator version (bump ``generator_version`` in ``puzzles/<kind>.yaml`` and update these).
GOLDEN = {
    "spot-oversight.parlett.5.100": "42c5622e2bb48b38",
    "capture-now.du-coeur.5.100": "6ccb351369537dea",
    "settlement.porges.5.100": "265265bf4f3e4848",
    "legal-play.wolffauer.4.100": "fa62dfebb4c3d81a",
    "dead-pair.wolffauer.5.101": "926e771e101f6a6c",
    "count.parlett.5.100": "6075074dfbfe718d",
    "deal-setup.porges.4.100": "ccc28125be0d7459",
    "source-quiz.du-coeur.5.100": "df904b4e99eb13c1",
}


def _fingerprint(p: P.Puzzle) -> str:
    body = json.dumps({"record": p.record, "seat": p.seat, "answer": p.answer}, sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def test_golden_ids_are_stable():
    got = {i: _fingerprint(P.from_id(i)) for i in GOLDEN}
    assert got == GOLDEN


def test_difficulty_search():
    for kind in ("count", "legal-play", "spot-oversight"):
        for d in (1, 3, 5):
            p = P.generate(kind, seed=1000, difficulty=d)
            assert p.difficulty == d, (kind, d, p.id)
            assert P.from_id(p.id).difficulty == d
    with pytest.raises(Exception) as exc:
        P.generate("count", difficulty=7)
    assert "1 to 5" in str(exc.value)


def test_bad_choices_are_usage_errors():
    from tutor.engine.errors import UsageError
    for args in (("nope",), ("count", "nope"), ("count", "parlett", 9)):
        with pytest.raises(UsageError) as exc:
            P.generate(*args)
        assert "\n" not in str(exc.value)
    for bad in ("count", "count.parlett.5", "count.parlett.five.1", "nope.parlett.5.1",
                "count.nope.5.1", "count.parlett.9.1", "count.parlett.5.-1"):
        with pytest.raises(UsageError):
            P.from_id(bad)


def test_definitions_cite_real_quotations_and_problems():
    problem_ids = {p["id"] for s in LIB.sources.values() for p in s.problems}
    files = sorted(puzzles_dir().glob("*.yaml"))
    assert {f.stem for f in files} == set(P.KINDS)
    refs = []
    for f in files:
        raw = yaml.safe_load(f.read_text(encoding="utf-8"))
        quotes = raw.get("quotes") or {}
        specs = quotes.values() if isinstance(quotes, dict) else [quotes]
        for spec in specs:
            for item in spec if isinstance(spec, list) else [spec]:
                if isinstance(item, str):
                    refs.append(item)
                else:
                    refs += list(item.get("among") or []) + list(item.get("fallback") or [])
                    for rs in LIB.rulesets.values():
                        LIB.parameter(rs.id, item["parameter"])
        problems = raw.get("problems") or {}
        for lst in (problems.values() if isinstance(problems, dict) else [problems]):
            for item in lst:
                pid = item["id"] if isinstance(item, dict) else item
                assert pid in problem_ids, (f.name, pid)
        assert isinstance(raw["generator_version"], int)
    assert refs
    for ref in refs:
        LIB.quotation(ref)          # raises for an unknown one


def test_curated_sets_generate():
    sets = P.curated_sets()
    assert "classroom" in sets
    ids = sets["classroom"]["ids"]
    assert len(ids) == 20 and len(set(ids)) == 20
    assert {i.split(".")[0] for i in ids} == set(P.KINDS)
    for i in ids:
        p = P.from_id(i)
        assert p.id == i
        check_puzzle(p)


_CARD_TOKEN = re.compile(r"(?<![0-9A-Z])(?:10|[2-9AJQK])[CDHS](?![A-Za-z0-9])")


@pytest.mark.parametrize("kind", [k for k in P.KINDS if k not in ("deal-setup", "source-quiz")])
def test_render_shows_only_what_the_seat_can_see(kind):
    from rich.console import Console

    from tutor.puzzles.render import render_explanation, render_puzzle
    for s in range(12):
        p = P.generate(kind, seed=s)
        deal = p.deal()
        hidden = set()
        if not deal.is_terminal():
            for q in range(p.players):
                if q != p.seat:
                    hidden |= {pretty(c, False) for c in deal.hand(q)}
        for width in (80, 40):
            con = Console(width=width, record=True, color_system=None, file=io.StringIO())
            con.print(render_puzzle(p, width, symbols=False))
            text = con.export_text()
            # the position alone (the question's wording holds example card codes)
            bare = Console(width=width, record=True, color_system=None, file=io.StringIO())
            bare.print(render_puzzle(dataclasses.replace(p, question=""), width, symbols=False))
            assert max(len(line) for line in text.splitlines()) <= width
            shown = set(_CARD_TOKEN.findall(bare.export_text()))
            assert not (shown & hidden), (p.id, shown & hidden)
            if not deal.is_terminal():
                for c in deal.hand(p.seat):
                    assert pretty(c, False) in shown
            con.print(render_explanation(p, p.grade(p.accepted[0]), symbols=False))
            assert p.id in con.export_text()
