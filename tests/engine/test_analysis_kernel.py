"""The compiled kernel (tutor.engine.analysis.kernel) is the engine's rules and the counter
player, number for number: from the same positions and random streams it plays the same deals to
the same settlement as the pure engine (Deal + CounterBot), and every analysis gives the same
figures on both paths, in every shipped ruleset and player count, oversights and all.  The
environment variable LAUGH_PURE_PYTHON forces the pure path; rulesets the kernel does not cover
(house rules) run on the pure path."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tutor.engine.analysis import NoDecision, Stream, analyse, decision_options, fast, rollout
from tutor.engine.analysis.random_streams import mix_seed, sample_keys, unit
from tutor.engine.bots import make_bot, play_out
from tutor.engine.deal import new_deal
from tutor.engine.errors import UsageError
from tutor.engine.rule_bots import rule_bot

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def kernel():
    k = fast.kernel(wait=True)
    if k is None:
        pytest.skip("numba is not installed here: the analysis runs on the pure engine")
    return k


def _positions(rs, players, deals, seed):
    """Every third position of a few seeded self-play deals (careless counters every other deal,
    so that oversights are made and claimed)."""
    out = []
    for j in range(deals):
        rng = random.Random(f"{seed}/{j}")
        d = new_deal(rs, players, j % players, rng)
        bots = [make_bot("counter", 0.6 if j % 2 else 0.0) for _ in range(players)]
        out.append(d.clone())  # before anyone's free actions
        play_out(d, bots, rng, observer=lambda dd, a: out.append(dd.clone()))
    return [p for i, p in enumerate(out) if not p.is_terminal() and (i % 3 == 0 or p.oversights)]


def _fresh_deals(rs, players, count):
    """New deals where the seat to move holds a free declaration (before any race)."""
    out = []
    k = 0
    while len(out) < count:
        d = new_deal(rs, players, k % players, random.Random(f"fresh/{k}"))
        k += 1
        if any(a.kind.startswith("declare") for a in d.free_actions(d.to_move)):
            out.append(d)
    return out


class _NoUnseen:
    cards, opponents, needs, undeclared = [], [], [], False


def test_streams_are_the_same_numbers_in_both(kernel):
    for key, k in ((0, 0), (1, 5), (mix_seed(7, 3), 12345), ((1 << 64) - 1, 2)):
        assert kernel.unit(np.uint64(key), k) == unit(key, k)
        s = Stream(key)
        for _ in range(k):
            s.random()
        assert s.random() == unit(key, k)
    for a, b in ((0, 0), (5, 9), ((1 << 64) - 3, 77)):
        assert int(kernel.mix2(np.uint64(a), np.uint64(b))) == mix_seed(a, b)


def test_rollouts_settle_as_the_engine_does(kernel, rulesets):
    checked = oversights = 0
    for rid in sorted(rulesets):
        rs = rulesets[rid]
        for players in rs.player_counts:
            for d in _positions(rs, players, 3, rid):
                assert fast.supported(d, "counter")
                oversights += bool(d.oversights)
                keys = sample_keys(checked, 0, d.n)
                x = d.clone()
                rollout(x, [rule_bot("counter") for _ in range(d.n)], [Stream(k) for k in keys[1:]])
                run = fast.KernelRun(kernel, d, 0, _NoUnseen, [(None, None, False)], 0)
                R = np.zeros(kernel.MAXP, np.int64)
                rnd = np.zeros(kernel.RLEN, np.uint64)
                rnd[kernel.R_KEY : kernel.R_KEY + d.n + 1] = keys
                S = kernel.playout_state(run.P, run.S, rnd, run.opts[0], 0, R)
                assert [int(S[kernel.W0 + q]) for q in range(d.n)] == list(x.won), (rid, players)
                assert [int(r) for r in R[: d.n]] == list(x.result.returns()), (rid, players)
                checked += 1
    assert checked > 400 and oversights > 50


def test_every_analysis_has_the_same_figures_on_both_paths(kernel, rulesets):
    checked = timing = 0
    for rid in sorted(rulesets):
        rs = rulesets[rid]
        fresh = _fresh_deals(rs, rs.player_counts[-1], 2) if rs.hand_plays == "free" else []
        for players in rs.player_counts[:2]:
            for d in _positions(rs, players, 2, rid) + fresh:
                for seat in range(d.n):
                    then = None
                    which = "all"
                    if d.to_move == seat and d.free_actions(seat):
                        which, then = "free", d.legal_actions()[-1]
                        timing += 1
                    try:
                        one = analyse(
                            d,
                            seat,
                            samples=6,
                            seed=checked,
                            which=which,
                            then=then,
                            stop_when_clear=False,
                            engine="kernel",
                        )
                    except NoDecision:
                        continue
                    two = analyse(
                        d,
                        seat,
                        samples=6,
                        seed=checked,
                        which=which,
                        then=then,
                        stop_when_clear=False,
                        engine="pure",
                    )
                    assert (one.engine, two.engine) == ("kernel", "pure")
                    a, b = one.to_json(), two.to_json()
                    a.pop("seconds"), b.pop("seconds")
                    assert a == b, (rid, players, len(d.history), seat)
                    checked += 1
    assert checked > 200 and timing > 5


def test_early_stops_and_pruning_are_the_same_on_both_paths(kernel, rulesets):
    d = _positions(rulesets["parlett"], 5, 1, "stops")[1]
    seat = d.to_move
    for kw in (
        {"samples": 300},
        {"samples": 300, "prune": True, "min_samples": 16},
        {"samples": 200, "stop_when_clear": False, "target": 0.5},
    ):
        one = analyse(d, seat, seed=4, engine="kernel", **kw).to_json()
        two = analyse(d, seat, seed=4, engine="pure", **kw).to_json()
        one.pop("seconds"), two.pop("seconds")
        assert one == two


def test_the_kernel_runs_by_default_and_the_environment_forces_the_pure_engine(
    kernel, rulesets, house
):
    d = _positions(rulesets["parlett"], 5, 1, "default")[0]
    assert analyse(d, d.to_move, samples=8).engine == "kernel"
    assert analyse(d, d.to_move, samples=8, policy="willughby").engine == "pure"
    code = (
        "from tutor.engine.analysis import fast; import sys; "
        "sys.exit(0 if fast.kernel(wait=True) is None else 1)"
    )
    env = {"LAUGH_PURE_PYTHON": "1", "PATH": "/usr/bin:/bin"}
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, timeout=60)
    assert r.returncode == 0
    # house rules the kernel does not cover: several captures a turn, payments for lying down
    unsupported = [
        rs
        for rs in house.values()
        if rs.captures_per_turn == "any" or rs.lie_down_pays is not None or rs.scoring == "pot"
    ]
    assert unsupported
    for rs in unsupported:
        players = rs.player_counts[0]
        d = new_deal(rs, players, 0, random.Random(1))
        assert not fast.supported(d, "counter")
        an = analyse(d, d.to_move, samples=4)
        assert an.engine == "pure" and an.samples == 4
        with pytest.raises(UsageError):
            analyse(d, d.to_move, samples=4, engine="kernel")


def test_options_played_with_then_keep_free_and_turn_actions_apart(kernel, rulesets):
    """A free action while the seat is to move is timed against its turn action, never weighed
    against it: "it now, then X" and "X now, it later", both with the same X."""
    for d in _fresh_deals(rulesets["parlett"], 5, 3):
        seat = d.to_move
        free = d.free_actions(seat)
        x = d.legal_actions()[0]
        an = analyse(d, seat, samples=20, seed=2, which="free", then=x, stop_when_clear=False)
        assert an.then == x
        assert {o.action for o in an.options} == set(free) | {None}
        assert decision_options(d, seat) == d.legal_actions()
        return
    pytest.fail("no position with a free action for the seat to move")


def test_the_mersenne_twister_is_cpythons(kernel):
    """Self-play on the kernel reads CPython's own generator: the same seeding, numbers, and
    shuffles as random.Random."""
    for text in ("1/0", "7/123456", "seed/99"):
        words = fast.seed_words(text)
        rnd = np.zeros(kernel.RLEN, np.uint64)
        kernel.mt_seed(rnd, np.array(words, np.int64), len(words))
        state = random.Random(text).getstate()[1]
        assert [int(x) for x in rnd[1:625]] == list(state[:624]) and rnd[625] == state[624]
        py = random.Random(text)
        assert [kernel.draw(rnd, 0) for _ in range(700)] == [py.random() for _ in range(700)]
        assert [kernel.below(rnd, n) for n in range(2, 60)] == [
            py._randbelow(n) for n in range(2, 60)
        ]


def test_self_play_of_counter_players_is_the_engines(kernel, rulesets):
    """laugh simulate's counter studies on the kernel: every deal's results and last-in seat as
    play_out gives them, in every ruleset and player count."""
    from tutor.engine.simulate import run_chunk

    checked = 0
    for rid in sorted(rulesets):
        rs = rulesets[rid]
        for players in rs.player_counts:
            got = fast.counter_selfplay(rs, players, 11, 5, 12)
            assert got is not None
            rets, lasts = got
            for i, j in enumerate(range(5, 17)):
                rng = random.Random(f"11/{j}")
                d = play_out(
                    new_deal(rs, players, j % players, rng),
                    [make_bot("counter") for _ in range(players)],
                    rng,
                )
                assert rets[i] == d.returns() and lasts[i] == d.result.last_in, (rid, players, j)
                checked += 1
            # the study's figures are the same whichever path played the deals
            one, _ = run_chunk(rs, players, ["counter"], 0.0, 11, 5, 12, False)
            two, _ = run_chunk(rs, players, ["counter"], 0.0, 11, 5, 12, True)
            assert one.to_json() == two.to_json()
    assert checked > 150


def test_undeclared_determinizations_are_the_same_on_both_paths(kernel, rulesets):
    """The expert's inference from declarations (no opponent could declare at its turn) deals
    the same hands and gives the same figures on the kernel as on the pure engine."""
    checked = 0
    for d in _positions(rulesets["parlett"], 5, 4, "undeclared"):
        seat = d.to_move
        if seat is None or len(d.legal_actions()) < 2 or d.free_pending():
            continue
        kw = dict(samples=8, seed=checked, which="turn", stop_when_clear=False, undeclared=True)
        one = analyse(d, seat, engine="kernel", **kw).to_json()
        two = analyse(d, seat, engine="pure", **kw).to_json()
        one.pop("seconds"), two.pop("seconds")
        assert one == two
        checked += 1
    assert checked > 5


def test_an_analysis_moves_to_the_kernel_when_its_background_compilation_ends(
    kernel, rulesets, monkeypatch
):
    """A fixed budget begun while the kernel is being compiled runs on the pure engine in short
    batches and on the kernel from the batch after it is ready: the same figures as either
    alone (issue 28: the first analysis on a new machine no longer runs wholly on the pure
    engine while the compilation takes the other core)."""
    from tutor.engine import kernelcache
    from tutor.engine.analysis import core

    d = _positions(rulesets["parlett"], 5, 1, "stops")[1]
    seat = d.to_move
    kw = {"samples": 60, "stop_when_clear": False}
    alone = analyse(d, seat, seed=7, engine="pure", **kw).to_json()
    asked: list[int] = []

    def ready_at_third_look(wait=False, entry="run_samples"):
        asked.append(1)
        return kernel if len(asked) >= 3 else None

    monkeypatch.setattr(kernelcache, "compiling", lambda: 12.0)
    monkeypatch.setattr(fast, "kernel", ready_at_third_look)
    switched = analyse(d, seat, seed=7, **kw)
    assert switched.engine == "kernel" and len(asked) == 3  # the first look, then two batches
    one = switched.to_json()
    one.pop("seconds"), alone.pop("seconds")
    assert one == alone
    assert core._AWAIT_STEP < kw["samples"]
