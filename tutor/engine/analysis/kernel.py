"""The engine's rules compiled (numba): whole rollouts of a deal between ``counter`` players.

This module is the compiled form of :class:`tutor.engine.deal.Deal`'s rules (RULES.md 3.3-3.5, 4)
and of the ``counter`` computer player (:class:`tutor.engine.rule_bots.CounterBot`), for the
rulesets whose parameters it covers (:func:`tutor.engine.analysis.fast.supported`): one capture a
turn, the declarations prial, mournival and dead pair, no payment for lying down, stakes or pairs
scoring.  It is loaded only when an analysis runs (importing it imports numba), and only
through :mod:`tutor.engine.analysis.fast`, which falls back to the pure engine when numba is
missing or ``LAUGH_PURE_PYTHON`` is set.  The tests hold its results equal to the pure engine's
on the same seeds, position by position and rollout by rollout (``tests/engine/
test_analysis_kernel.py``): the same actions in the same order, the same random numbers read
(:mod:`tutor.engine.analysis.random_streams`), the same settlement.

The deal's rules on one state array are in :mod:`tutor.engine.analysis.kernel_rules`; the random
numbers (the analysis's streams, and CPython's Mersenne Twister for self-play that gives the very
deals of ``random.Random``) in :mod:`tutor.engine.analysis.kernel_random` (re-exported here); here
are the counter player, rollouts, the analysis's sample loop and results-only self-play.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tutor.engine.analysis.kernel_random import (  # noqa: F401 (re-exported: the streams)
    R_CTR,
    R_KEY,
    RLEN,
    below,
    draw,
    mix2,
    mt_next,
    mt_seed,
    unit,
)
from tutor.engine.analysis.kernel_rules import (  # noqa: F401 (the layout, for fast.py)
    ASIDE,
    DISCARD,
    H0,
    IN_PLAY,
    K_CAPTURE,
    K_CLAIM,
    K_DECLARE,
    K_LIE,
    K_NONE,
    K_PLAY_ON,
    K_TAKE,
    LASTCAP,
    LASTIN,
    MAXOV,
    MAXP,
    MAXTM,
    NIB,
    NOV,
    NTM,
    OV0,
    OVER,
    P_ANTE_D,
    P_ANTE_O,
    P_BONUS,
    P_BONUS_TO,
    P_BREAKEVEN,
    P_C11,
    P_C13,
    P_C22,
    P_C31,
    P_DEALER,
    P_DEALER_TAKES,
    P_FREE,
    P_LEFTOVERS,
    P_N,
    P_OV_DEAD,
    P_OV_MOURN,
    P_OV_PRIAL,
    P_OV_SPLIT,
    P_OV_TABLE,
    P_PAIRS,
    P_PLAYS_ON,
    P_REACT_HI,
    P_REACT_LO,
    PHASE,
    PLAY,
    PLAY_ON,
    PLEN,
    SLEN,
    STARTED,
    TABLE,
    TM0,
    TO_MOVE,
    W0,
    WONALL,
    apply,
    count_declarations,
    counts,
    dead_bits,
    first_declaration,
    first_free,
    free_pending,
    has_declaration,
    low_index,
    pop,
    presence,
)

# --- the counter player ---------------------------------------------------------------------------


@njit(cache=True)
def at_risk_to_move(S, P, seat):
    """``Deal.at_risk_ranks`` for the seat to move."""
    h = S[H0 + seat]
    if h == 0 or S[PHASE] != PLAY or P[P_C11] == 0:
        return 0
    t = S[TABLE]
    tc = counts(t)
    lone = tc & ~(tc >> 1) & ~(tc >> 2) & NIB & presence(h)
    if lone == 0:
        return 0
    sc = counts(t | S[WONALL] | S[ASIDE] | h)
    lone &= ~(sc >> 2)
    if lone == 0:
        return 0
    if P[P_PLAYS_ON] != 0:
        if S[IN_PLAY] <= 1:
            return 0
        for q in range(P[P_N]):
            m = S[H0 + q]
            if q != seat and m & (m - 1) != 0:
                return lone
        return lone & ~((sc >> 1) & ~sc)  # every opponent holds one card: two unseen safe
    for q in range(P[P_N]):
        m = S[H0 + q]
        if q != seat and m & (m - 1) != 0:
            return lone
    return 0


@njit(cache=True)
def choose(S, P, rnd, act, cm_buf, tm_buf):
    """``CounterBot.choose`` over the engine's legal turn actions, into ``act`` = (kind, player,
    hand cards, table cards); reads the mover's random numbers as the player does."""
    p = S[TO_MOVE]
    h = S[H0 + p]
    t = S[TABLE]
    kind = K_CAPTURE if S[PHASE] == PLAY else K_PLAY_ON
    act[1] = p
    # the captures, in the engine's order (Deal._captures)
    L = 0
    common = presence(h) & presence(t)
    c = common
    while c:
        low = c & -c
        c ^= low
        shift = low_index(low)
        hn = (h >> shift) & 15
        tn = (t >> shift) & 15
        nh = pop(hn)
        nt = pop(tn)
        if P[P_C11] != 0:
            hh = hn
            while hh:
                a = hh & -hh
                hh ^= a
                tt = tn
                while tt:
                    b = tt & -tt
                    tt ^= b
                    cm_buf[L] = a << shift
                    tm_buf[L] = b << shift
                    L += 1
        if nt == 3 and P[P_C13] != 0:
            hh = hn
            while hh:
                a = hh & -hh
                hh ^= a
                cm_buf[L] = a << shift
                tm_buf[L] = tn << shift
                L += 1
        if nh == 2 and nt == 2 and P[P_C22] != 0:
            cm_buf[L] = hn << shift
            tm_buf[L] = tn << shift
            L += 1
        if nh == 3 and nt == 1 and P[P_C31] != 0:
            cm_buf[L] = hn << shift
            tm_buf[L] = tn << shift
            L += 1
    D = 0
    if kind == K_CAPTURE and P[P_FREE] == 0:
        D = count_declarations(h, S[WONALL])
    if L + D == 0:
        act[0] = K_LIE
        act[2] = h
        act[3] = 0
        return
    if L + D == 1:
        if L == 1:
            act[0] = kind
            act[2] = cm_buf[0]
            act[3] = tm_buf[0]
        else:
            act[0] = K_DECLARE
            act[2] = first_declaration(h, S[WONALL])
            act[3] = 0
        return
    act[0] = kind
    act[3] = 0
    if kind == K_CAPTURE and L > 0:
        risky = at_risk_to_move(S, P, p)
        if risky != 0:
            k = 0
            for i in range(L):
                if pop(cm_buf[i]) == 1 and (risky >> (low_index(tm_buf[i]) & ~3)) & 1:
                    k += 1
            if k > 0:
                pick = int(draw(rnd, p + 1) * k)
                for i in range(L):
                    if pop(cm_buf[i]) == 1 and (risky >> (low_index(tm_buf[i]) & ~3)) & 1:
                        if pick == 0:
                            act[2] = cm_buf[i]
                            act[3] = tm_buf[i]
                            return
                        pick -= 1
    if D > 0:
        act[0] = K_DECLARE
        act[2] = first_declaration(h, S[WONALL])
        return
    # WillughbyBot._capture_by_table_count: all three of a rank, else a lone table card, else
    # the rest (one-for-one from two table cards first, in reverse order, then the others)
    n3 = 0
    n1 = 0
    n2 = 0
    for i in range(L):
        nt = pop((t >> (low_index(tm_buf[i]) & ~3)) & 15)
        ntab = pop(tm_buf[i])
        if ntab == 3:
            n3 += 1
        elif nt == 1 and pop(cm_buf[i]) == 1:
            n1 += 1
        elif nt == 2 and ntab == 1:
            n2 += 1
    if n3 > 0:
        want, group = int(draw(rnd, p + 1) * n3), 3
    elif n1 > 0:
        want, group = int(draw(rnd, p + 1) * n1), 1
    else:
        k = int(draw(rnd, p + 1) * L)
        if k < n2:  # the prepended ones, latest first
            want, group = n2 - 1 - k, 2
        else:
            want, group = k - n2, 0
    for i in range(L):
        nt = pop((t >> (low_index(tm_buf[i]) & ~3)) & 15)
        ntab = pop(tm_buf[i])
        if ntab == 3:
            g = 3
        elif nt == 1 and pop(cm_buf[i]) == 1:
            g = 1
        elif nt == 2 and ntab == 1:
            g = 2
        else:
            g = 0
        if g == group:
            if want == 0:
                act[2] = cm_buf[i]
                act[3] = tm_buf[i]
                return
            want -= 1


# --- rollouts -------------------------------------------------------------------------------------


@njit(cache=True)
def rollout(S, P, R, rnd, hold, then, seat, act, cm_buf, tm_buf, free_buf):
    """Play the deal in ``S`` to settlement, every seat a counter player (``rollout`` of
    :mod:`tutor.engine.analysis.sampling`): free-action races after every action, the fastest
    reaction first, then the mover's turn.  ``hold``: a seat that offers nothing in the first
    race; ``then``: a turn action (kind >= 0) ``seat`` makes at its first turn if still legal."""
    n = P[P_N]
    lo = P[P_REACT_LO] / 1e6
    span = P[P_REACT_HI] / 1e6 - lo
    skip = hold
    pending = then[0] >= 0
    while S[PHASE] != OVER:
        while S[PHASE] == PLAY and free_pending(S, P):
            best_q = -1
            best_t = 0.0
            best_kind = 0
            best_cm = 0
            for q in range(n):
                if q == skip:
                    continue
                if first_free(S, P, q, free_buf):
                    r = lo + span * draw(rnd, q + 1)
                    if best_q < 0 or r < best_t:
                        best_q = q
                        best_t = r
                        best_kind = free_buf[0]
                        best_cm = free_buf[1]
            skip = -1
            if best_q < 0:
                break
            apply(S, P, R, best_kind, best_q, best_cm, 0)
        skip = -1
        if S[PHASE] == OVER:
            break
        if pending:
            pending = False
            p = then[1]
            if (
                S[TO_MOVE] == p
                and S[PHASE] == PLAY
                and S[H0 + p] & then[2] == then[2]
                and S[TABLE] & then[3] == then[3]
            ):
                apply(S, P, R, then[0], p, then[2], then[3])
                continue
        choose(S, P, rnd, act, cm_buf, tm_buf)
        apply(S, P, R, act[0], act[1], act[2], act[3])


@njit(cache=True)
def shuffle(buf, k, rnd):
    """Fisher-Yates on the first ``k`` entries, with stream 0."""
    for i in range(k - 1, 0, -1):
        j = int(draw(rnd, 0) * (i + 1))
        x = buf[i]
        buf[i] = buf[j]
        buf[j] = x


@njit(cache=True)
def deal_unseen(S, cards, opp_q, opp_k, need_q, need_m, undeclared, past, rnd, buf, rest):
    """Deal the unseen ``cards`` to the opponents (``Determinizer.deal`` of
    :mod:`tutor.engine.analysis.sampling`): shuffles until every proven holding fits and, with
    ``undeclared``, no opponent could declare anything now nor with the cards ``past`` it has
    played from hand (at most 2000 tries), else places the proven cards first."""
    nc = cards.shape[0]
    tries = 2000 if need_q.shape[0] > 0 or undeclared else 1
    dead = dead_bits(S[WONALL]) if undeclared else 0
    for i in range(nc):
        buf[i] = cards[i]
    for _ in range(tries):
        shuffle(buf, nc, rnd)
        i = 0
        for o in range(opp_q.shape[0]):
            m = 0
            for _k in range(opp_k[o]):
                m |= 1 << buf[i]
                i += 1
            S[H0 + opp_q[o]] = m
        ok = True
        for x in range(need_q.shape[0]):
            if S[H0 + need_q[x]] & need_m[x] == 0:
                ok = False
                break
        if ok and undeclared:
            for o in range(opp_q.shape[0]):
                h = S[H0 + opp_q[o]]
                if has_declaration(h, dead) or has_declaration(h | past[o], 0):
                    ok = False
                    break
        if ok:
            return
    for i in range(nc):
        rest[i] = buf[i]
    shuffle(rest, nc, rnd)
    nr = nc
    for o in range(opp_q.shape[0]):
        S[H0 + opp_q[o]] = 0
    room = opp_k.copy()
    for x in range(need_q.shape[0]):
        q = need_q[x]
        if S[H0 + q] & need_m[x] != 0:
            continue
        for i in range(nr):
            if (1 << rest[i]) & need_m[x]:
                S[H0 + q] |= 1 << rest[i]
                for j in range(i, nr - 1):
                    rest[j] = rest[j + 1]
                nr -= 1
                break
        for o in range(opp_q.shape[0]):
            if opp_q[o] == q:
                room[o] -= 1
    i = 0
    for o in range(opp_q.shape[0]):
        for _k in range(room[o]):
            S[H0 + opp_q[o]] |= 1 << rest[i]
            i += 1


@njit(cache=True)
def play_option(S, P, R, rnd, opt, seat, act, cm_buf, tm_buf, free_buf):
    """One option played out from ``S``: ``opt`` = (pre kind, player, hand, table; then kind,
    player, hand, table; hold)."""
    hold = -1
    if opt[0] >= 0:
        apply(S, P, R, opt[0], opt[1], opt[2], opt[3])
    if opt[8] != 0:
        hold = seat
    rollout(S, P, R, rnd, hold, opt[4:8], seat, act, cm_buf, tm_buf, free_buf)


@njit(cache=True)
def run_samples(
    P,
    S0,
    seat,
    cards,
    opp_q,
    opp_k,
    need_q,
    need_m,
    undeclared,
    past,
    opts,
    active,
    seed_base,
    i0,
    i1,
    out,
):
    """Samples ``i0`` to ``i1 - 1`` of an analysis: for each, the unseen cards dealt afresh, then
    every active option played out with the same random numbers seat by seat; ``out[i - i0, j]``
    gets ``seat``'s result after option ``j``."""
    n = P[P_N]
    S = np.empty(SLEN, np.int64)
    base = np.empty(SLEN, np.int64)
    R = np.zeros(MAXP, np.int64)
    rnd = np.zeros(RLEN, np.uint64)
    buf = np.empty(max(cards.shape[0], 1), np.int64)
    rest = np.empty(max(cards.shape[0], 1), np.int64)
    act = np.zeros(4, np.int64)
    free_buf = np.zeros(2, np.int64)
    cm_buf = np.zeros(160, np.int64)
    tm_buf = np.zeros(160, np.int64)
    for i in range(i0, i1):
        s = mix2(seed_base, np.uint64(i))
        for q in range(n + 1):
            rnd[R_KEY + q] = mix2(s, np.uint64(q))
            rnd[R_CTR + q] = 0
        base[:] = S0
        deal_unseen(base, cards, opp_q, opp_k, need_q, need_m, undeclared, past, rnd, buf, rest)
        for j in range(opts.shape[0]):
            if not active[j]:
                continue
            S[:] = base
            for q in range(1, n + 1):
                rnd[R_CTR + q] = 0
            play_option(S, P, R, rnd, opts[j], seat, act, cm_buf, tm_buf, free_buf)
            out[i - i0, j] = R[seat]


@njit(cache=True)
def playout_state(P, S0, rnd, opt, seat, R):
    """One option played out from ``S0`` with the random state ``rnd``: the final state (for the
    tests that hold the kernel equal to the engine)."""
    S = S0.copy()
    act = np.zeros(4, np.int64)
    free_buf = np.zeros(2, np.int64)
    cm_buf = np.zeros(160, np.int64)
    tm_buf = np.zeros(160, np.int64)
    play_option(S, P, R, rnd, opt, seat, act, cm_buf, tm_buf, free_buf)
    return S


@njit(cache=True)
def selfplay(P0, hand, keys, key_len, dealers, out_ret, out_last):
    """Results-only self-play between counter players: deal ``i`` is the deal that
    ``random.Random`` seeded with the words ``keys[i, :key_len[i]]`` shuffles and plays
    (:func:`tutor.engine.deal.new_deal` dealt by ``dealers[i]``, then
    :func:`tutor.engine.rule_bots.play_out`, every seat a counter player drawing on that one
    generator).  ``out_ret[i]`` gets every seat's result, ``out_last[i]`` the last-in seat
    (-1: nobody)."""
    n = P0[P_N]
    P = P0.copy()
    S = np.zeros(SLEN, np.int64)
    R = np.zeros(MAXP, np.int64)
    rnd = np.zeros(RLEN, np.uint64)
    pack = np.empty(52, np.int64)
    act = np.zeros(4, np.int64)
    then = np.full(4, -1, np.int64)
    free_buf = np.zeros(2, np.int64)
    cm_buf = np.zeros(160, np.int64)
    tm_buf = np.zeros(160, np.int64)
    for i in range(keys.shape[0]):
        mt_seed(rnd, keys[i], key_len[i])
        for c in range(52):
            pack[c] = c
        for c in range(51, 0, -1):  # random.shuffle
            j = below(rnd, c + 1)
            x = pack[c]
            pack[c] = pack[j]
            pack[j] = x
        dealer = dealers[i]
        P[P_DEALER] = dealer
        S[:] = 0
        eldest = (dealer + 1) % n
        end = n * hand
        in_play = 0
        for q in range(n):
            m = 0
            for x in range(q, end, n):
                m |= 1 << pack[x]
            S[H0 + (eldest + q) % n] = m
            if m != 0:
                in_play += 1
        t = 0
        for x in range(end, 52):
            t |= 1 << pack[x]
        S[TABLE] = t
        S[IN_PLAY] = in_play
        four = (counts(t) >> 2) & NIB
        k = 0
        while four:
            low = four & -four
            four ^= low
            S[TM0 + k] = 15 << low_index(low)
            k += 1
        S[NTM] = k
        S[TO_MOVE] = eldest
        S[LASTCAP] = -1
        S[PHASE] = PLAY
        rollout(S, P, R, rnd, -1, then, 0, act, cm_buf, tm_buf, free_buf)
        for q in range(n):
            out_ret[i, q] = R[q]
        out_last[i] = S[LASTIN]
