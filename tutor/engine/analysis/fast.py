"""The fast path of the analysis: the compiled kernel (:mod:`tutor.engine.analysis.kernel`), when
it can run, and what it is given.

The kernel runs when numba can be imported, ``LAUGH_PURE_PYTHON`` is not set (to any non-empty
value), the rollout player is ``counter`` and the ruleset's parameters are ones it covers
(:func:`supported`) and it is compiled (:mod:`tutor.engine.kernelcache`: in the background,
from the program's first start on a machine); otherwise the analysis plays its rollouts on the
pure engine (:mod:`tutor.engine.analysis.sampling`), with the same figures, only slower.
Importing this module does not import numba: :func:`kernel` does, the first time an analysis
asks.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

import tutor.engine.rule_bots as rule_bots
from tutor.engine import kernelcache
from tutor.engine.deal import Action, Deal
from tutor.engine.rulesets import Ruleset

if TYPE_CHECKING:  # annotations only: numpy is imported when the kernel runs
    import numpy as np
    from numpy.typing import NDArray

    from tutor.engine.analysis.sampling import Determinizer

__all__ = [
    "ENV_PURE",
    "KernelRun",
    "compile_in_background",
    "compiled",
    "counter_selfplay",
    "covers",
    "kernel",
    "supported",
]

#: Set this environment variable (to any non-empty value) to run every analysis on the pure
#: engine, without the compiled kernel.
ENV_PURE = kernelcache.ENV_PURE

_loaded: ModuleType | Literal[False] | None = None  # the kernel, or False: it cannot be imported

_KINDS = {
    "capture": 0,
    "play_on_capture": 1,
    "lie_down": 2,
    "claim": 3,
    "take_table_mournival": 4,
    "declare_prial": 5,
    "declare_mournival": 5,
    "declare_dead_pair": 5,
}
_OVERSIGHTS = {
    "overlooked_table_mournival": 0,
    "split_prial": 1,
    "laid_down_dead_pair": 2,
    "laid_down_prial": 3,
    "laid_down_mournival": 4,
}
_PHASES = {"play": 0, "play_on": 1, "over": 2}
_DEFAULT_DECLARATIONS = frozenset({"prial", "mournival", "dead_pair"})


def kernel(wait: bool = False, entry: str = "run_samples") -> ModuleType | None:
    """The compiled kernel module, or None when it cannot run here (numba missing, or
    :data:`ENV_PURE` set) or its entry point ``entry`` (``run_samples``, ``selfplay``) is not
    compiled yet.

    numba compiles the kernel once a machine (about 30 s; its cache then loads in a fraction of
    a second), in a background process started when the program starts
    (:func:`tutor.engine.kernelcache.start`).  Until it is done, ``wait=False`` (what analyses
    ask) starts it if nobody has and returns None, so that the analysis runs on the pure engine
    meanwhile (the same figures); ``wait=True`` waits for another process's compilation (said
    through :func:`tutor.engine.kernelcache.announce`), or compiles it here."""
    global _loaded
    if _loaded is False or not kernelcache.numba_here():
        return None
    if kernelcache.ready((entry,)):
        if _loaded is None:
            _loaded = _load()
        return _loaded or None
    if not wait:
        kernelcache.start()
        return None
    kernelcache.announce()
    fd = kernelcache.wait_for_others()
    try:
        if kernelcache.ready(kernelcache.ENTRIES):
            _loaded = _load()
        else:
            _loaded = _compile()
    finally:
        kernelcache.release(fd)
    return _loaded or None


def compiled() -> bool:
    """True when analyses run on the compiled kernel now (without waiting for it: on a machine
    where it is not compiled yet, this starts its compilation in the background)."""
    return kernel() is not None


def _load() -> ModuleType | Literal[False]:
    """The kernel module (numba loads each entry point from its cache when first called), or
    False when it cannot be imported."""
    try:
        from tutor.engine.analysis import kernel as k
    except ImportError:
        return False
    return k


def _compile(background: bool = False) -> ModuleType | Literal[False]:
    """Compile (or load from numba's cache) every entry point, the analysis's first, writing
    the stamp after each (with the processor seconds the first took: in the background, the
    whole process's, as :func:`tutor.engine.kernelcache.compiling` counts them); the kernel
    module, or False when numba cannot be imported."""
    t0 = 0.0 if background else time.process_time()  # the import of numba included
    k = _load()
    if not k:
        return k
    indexes: dict[str, str] = {}
    for name in kernelcache.ENTRIES:
        _WARM[name](k)
        index = _index_file(getattr(k, name))
        if index is None:  # numba keeps its cache where this cannot tell
            break
        indexes[name] = index
        took = time.process_time() - t0
        kernelcache.mark(indexes, took if name == "run_samples" and took > 5 else None)
    return k


def compile_in_background() -> None:
    """The body of the background compilation (:func:`tutor.engine.kernelcache.start`): every
    entry point compiled and stamped; a failure noted (not tried again for a day)."""
    try:
        _compile(background=True)
    except Exception as exc:  # noqa: BLE001 - nothing to tell: no terminal
        kernelcache.failed(f"{type(exc).__name__}: {exc}")


def _sample_run(k: ModuleType) -> tuple[Ruleset, KernelRun]:
    import random

    from tutor.engine.analysis.sampling import Determinizer
    from tutor.engine.deal import new_deal
    from tutor.engine.sources import default_library

    rs = default_library().rulesets["parlett"]
    d = new_deal(rs, 5, 0, random.Random(0))
    return rs, KernelRun(k, d, 1, Determinizer(d, 1), [(d.legal_actions()[0], None, False)], 1)


def _warm_samples(k: ModuleType) -> None:
    _sample_run(k)[1].run(0, 1, [0])


def _warm_selfplay(k: ModuleType) -> None:
    counter_selfplay(_sample_run(k)[0], 5, 0, 0, 1, k)


def _warm_playout(k: ModuleType) -> None:
    import numpy as np

    run = _sample_run(k)[1]
    k.playout_state(
        run.P, run.S, np.zeros(k.RLEN, np.uint64), run.opts[0], 1, np.zeros(k.MAXP, np.int64)
    )


#: How each entry point is compiled (or loaded from the cache): called with the types the
#: analysis uses.
_WARM = {"run_samples": _warm_samples, "selfplay": _warm_selfplay, "playout_state": _warm_playout}


def _index_file(fn: Any) -> str | None:
    """numba's cache index file of the entry point ``fn`` (None if numba keeps it somewhere
    this cannot tell)."""
    try:
        return str(fn._cache._cache_file._index_path)
    except AttributeError:
        return None


#: The parameters of the parameter table (:data:`tutor.engine.parameters.PARAMETERS`) whose
#: values the kernel knows (per player count: every one).  A parameter added to the table
#: later runs on the pure engine until the kernel learns it (:func:`covers`).
KNOWN = frozenset(
    {
        "first_dealer",
        "table_mournival",
        "captures",
        "hand_plays",
        "bonus_to",
        "last_in_plays_on",
        "leftovers_to",
        "scoring",
        "oversights",
        "captures_per_turn",
        "declarations",
        "lie_down_pays",
        "pot_to",
        "match_format",
    }
)


def covers(rs: Ruleset, players: int) -> bool:
    """Whether the kernel covers the rules of ``rs`` for ``players``: one capture a turn; the
    declarations prial, mournival and dead pair; no payment for lying down; stakes or pairs
    scoring; at most seven players; and no parameter it does not know (:data:`KNOWN`) away
    from its default."""
    from tutor.engine.parameters import PARAMETERS

    for name, spec in PARAMETERS.items():
        if (
            spec.scope != "count"
            and name not in KNOWN
            and getattr(rs, name, spec.default) != spec.default
        ):
            return False
    return (
        rs.captures_per_turn == "one"
        and rs.declarations == _DEFAULT_DECLARATIONS
        and rs.lie_down_pays is None
        and rs.scoring in ("stakes", "pairs")
        and players <= 7
    )


def supported(d: Deal, policy: str) -> bool:
    """Whether the kernel covers this position and rollout player: ``counter`` players and the
    rules of :func:`covers`."""
    return (
        policy == "counter"
        and covers(d.ruleset, d.n)
        and not d.turn_captures
        and d.outside == 0
        and len(d.table_mournivals) <= 13
        and len(d.oversights) <= 26
    )


def _params(k: ModuleType, rs: Ruleset, players: int, dealer: int) -> NDArray[np.int64]:
    import numpy as np

    pc = rs.count(players)
    lo, hi = rule_bots.CounterBot.reaction_range
    P = np.zeros(k.PLEN, np.int64)
    caps, ov = rs.captures, rs.oversights
    P[k.P_N] = players
    P[k.P_DEALER] = dealer
    P[k.P_C11] = "one_for_one" in caps
    P[k.P_C13] = "one_for_three" in caps
    P[k.P_C22] = "pair_for_pair" in caps
    P[k.P_C31] = "prial_for_one" in caps
    P[k.P_FREE] = rs.hand_plays == "free"
    P[k.P_OV_SPLIT] = "split_prial" in ov
    P[k.P_OV_TABLE] = "overlooked_table_mournival" in ov
    P[k.P_OV_DEAD] = "laid_down_dead_pair" in ov
    P[k.P_OV_PRIAL] = "laid_down_prial" in ov
    P[k.P_OV_MOURN] = "laid_down_mournival" in ov
    P[k.P_DEALER_TAKES] = rs.table_mournival == "dealer_takes"
    P[k.P_BONUS_TO] = {None: 0, "last_in": 1, "last_pair": 2}[rs.bonus_to]
    P[k.P_BONUS] = -1 if pc.last_in_bonus is None else pc.last_in_bonus
    P[k.P_PLAYS_ON] = bool(rs.last_in_plays_on)
    P[k.P_LEFTOVERS] = {"dealer": 0, "last_in": 1, "nobody": 2}[rs.leftovers_to]
    P[k.P_PAIRS] = rs.scoring == "pairs"
    P[k.P_ANTE_D] = pc.ante_dealer or 0
    P[k.P_ANTE_O] = pc.ante_other or 0
    P[k.P_BREAKEVEN] = pc.breakeven or 0
    P[k.P_REACT_LO] = round(lo * 1e6)
    P[k.P_REACT_HI] = round(hi * 1e6)
    if P[k.P_REACT_LO] / 1e6 != lo or P[k.P_REACT_HI] / 1e6 != hi:
        raise ValueError("the counter player's reaction range is not a whole number of µs")
    return P


def encode_state(k: ModuleType, d: Deal) -> NDArray[np.int64]:
    """The kernel's state array of position ``d`` (its public attributes)."""
    import numpy as np

    S = np.zeros(k.SLEN, np.int64)
    for q in range(d.n):
        S[k.H0 + q] = d.hands[q]
        S[k.W0 + q] = d.won[q]
    S[k.TABLE] = d.table
    S[k.WONALL] = d.wonall
    S[k.ASIDE] = d.aside
    S[k.DISCARD] = d.discard
    S[k.TO_MOVE] = -1 if d.to_move is None else d.to_move
    S[k.STARTED] = bool(d.started)
    S[k.PHASE] = _PHASES[d.phase]
    S[k.LASTCAP] = -1 if d.last_capturer is None else d.last_capturer
    S[k.IN_PLAY] = d.in_play
    S[k.NOV] = len(d.oversights)
    for i, o in enumerate(d.oversights):
        b = k.OV0 + 4 * i
        S[b : b + 4] = (_OVERSIGHTS[o.kind], o.offender, o.mask, o.take)
    S[k.NTM] = len(d.table_mournivals)
    for i, m in enumerate(d.table_mournivals):
        S[k.TM0 + i] = m
    return S


def encode_action(a: Action | None) -> tuple[int, int, int, int]:
    """(kind, player, hand cards mask, table cards mask); kind -1 for None."""
    if a is None:
        return (-1, 0, 0, 0)
    cm = 0
    for c in a.cards:
        cm |= 1 << c
    tm = 0
    for c in a.table:
        tm |= 1 << c
    return (_KINDS[a.kind], a.player, cm, tm)


class KernelRun:
    """One analysis on the kernel: the position, the options and the determinization, encoded
    once; :meth:`run` plays samples ``i0`` to ``i1 - 1`` of the active options."""

    def __init__(
        self,
        k: ModuleType,
        d: Deal,
        seat: int,
        det: Determinizer,
        plans: Sequence[tuple[Action | None, Action | None, bool]],
        seed_base: int,
    ):
        import numpy as np

        self.k = k
        self.np = np
        self.P = _params(k, d.ruleset, d.n, d.dealer)
        self.S = encode_state(k, d)
        self.seat = seat
        self.cards = np.array(det.cards, np.int64)
        self.opp_q = np.array([q for q, _ in det.opponents], np.int64)
        self.opp_k = np.array([s for _, s in det.opponents], np.int64)
        self.need_q = np.array([q for q, _ in det.needs], np.int64)
        self.need_m = np.array([m for _, m in det.needs], np.int64)
        self.undeclared = bool(det.undeclared)
        self.past = np.array(det.past if det.undeclared else [0] * len(det.opponents), np.int64)
        self.opts = np.array(
            [encode_action(pre) + encode_action(then) + (int(hold),) for pre, then, hold in plans],
            np.int64,
        ).reshape(len(plans), 9)
        self.seed_base = np.uint64(seed_base)

    def run(self, i0: int, i1: int, active: list[int]) -> list[list[int]]:
        """``rows[i - i0][j]``: the seat's result in sample ``i`` after option ``j`` (only the
        active ones are filled)."""
        np = self.np
        act = np.zeros(len(self.opts), np.bool_)
        act[active] = True
        out = np.zeros((i1 - i0, len(self.opts)), np.int64)
        self.k.run_samples(
            self.P,
            self.S,
            self.seat,
            self.cards,
            self.opp_q,
            self.opp_k,
            self.need_q,
            self.need_m,
            self.undeclared,
            self.past,
            self.opts,
            act,
            self.seed_base,
            i0,
            i1,
            out,
        )
        rows: list[list[int]] = out.tolist()
        return rows


def seed_words(text: str) -> list[int]:
    """The 32-bit words ``random.Random(text)`` seeds its generator with (CPython's version 2
    seeding: the text and its SHA-512 digest as one big-endian number, least significant word
    first)."""
    import hashlib

    b = text.encode()
    n = int.from_bytes(b + hashlib.sha512(b).digest(), "big")
    return [(n >> (32 * i)) & 0xFFFFFFFF for i in range(max(1, (n.bit_length() + 31) // 32))]


def counter_selfplay(
    rs: Ruleset, players: int, seed: object, start: int, count: int, k: ModuleType | None = None
) -> tuple[list[tuple[int, ...]], list[int | None]] | None:
    """Deals ``start`` to ``start + count - 1`` of a self-play study between counter players
    (deal ``j`` shuffled by ``random.Random(f"{seed}/{j}")`` and dealt by seat ``j % players``,
    as :func:`tutor.engine.simulate.run_chunk` plays them), results only, on the kernel:
    ``(returns, last_in)``, a list of per-seat result tuples and a list of last-in seats (None:
    nobody).  None when the kernel cannot run them (:func:`kernel`, :func:`covers`)."""
    import numpy as np

    k = k or kernel(entry="selfplay")
    if k is None or not covers(rs, players):
        return None
    words = [seed_words(f"{seed}/{j}") for j in range(start, start + count)]
    width = max(len(w) for w in words) if words else 1
    keys = np.zeros((count, width), np.int64)
    lens = np.zeros(count, np.int64)
    for i, w in enumerate(words):
        keys[i, : len(w)] = w
        lens[i] = len(w)
    dealers = np.arange(start, start + count, dtype=np.int64) % players
    out = np.zeros((count, k.MAXP), np.int64)
    last = np.zeros(count, np.int64)
    k.selfplay(_params(k, rs, players, 0), rs.count(players).hand, keys, lens, dealers, out, last)
    return (
        [tuple(r[:players]) for r in out.tolist()],
        [None if x < 0 else x for x in last.tolist()],
    )
