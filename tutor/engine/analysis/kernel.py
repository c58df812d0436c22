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
(:mod:`tutor.engine.analysis.streams`), the same settlement.

A state is one int64 array (the slots below); a ruleset one int64 array of parameters (``P_``);
an action four numbers (kind, player, hand cards mask, table cards mask).  Card ``c`` is bit
``c`` of a mask, rank ``r`` the nibble at bit ``4r`` (as in the engine).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# --- layout --------------------------------------------------------------------------------

MAXP = 7            # seats
MAXOV = 26          # open oversights (each needs two table cards of its rank: at most 2 a rank)
MAXTM = 13          # table mournivals at the deal
H0 = 0              # hands[0..6]
W0 = 7              # won[0..6]
TABLE = 14
WONALL = 15
ASIDE = 16
DISCARD = 17
TO_MOVE = 18        # -1: nobody
STARTED = 19
PHASE = 20          # 0 play, 1 play on, 2 over
LASTCAP = 21        # -1: nobody captured yet
IN_PLAY = 22
NOV = 23
OV0 = 24            # oversights: (kind, offender, mask, take) each
NTM = OV0 + 4 * MAXOV
TM0 = NTM + 1
SLEN = TM0 + MAXTM

PLAY, PLAY_ON, OVER = 0, 1, 2

P_N = 0
P_DEALER = 1
P_C11 = 2
P_C13 = 3
P_C22 = 4
P_C31 = 5
P_FREE = 6
P_OV_SPLIT = 7
P_OV_TABLE = 8      # overlooked_table_mournival
P_OV_DEAD = 9       # laid_down_dead_pair (where a declaration could have taken it)
P_OV_PRIAL = 10
P_OV_MOURN = 11
P_DEALER_TAKES = 12
P_BONUS_TO = 13     # 0 none, 1 last_in, 2 last_pair
P_BONUS = 14        # last_in_bonus, -1 none
P_PLAYS_ON = 15
P_LEFTOVERS = 16    # 0 dealer, 1 last_in, 2 nobody
P_PAIRS = 17        # 1: pairs scoring, 0: stakes
P_ANTE_D = 18
P_ANTE_O = 19
P_BREAKEVEN = 20
P_REACT_LO = 21     # the counter player's reaction range, in microseconds (whole numbers)
P_REACT_HI = 22
PLEN = 23

K_NONE = -1
K_CAPTURE = 0
K_PLAY_ON = 1
K_LIE = 2
K_CLAIM = 3
K_TAKE = 4
K_DECLARE = 5

OV_TABLE, OV_SPLIT, OV_DEAD, OV_PRIAL, OV_MOURN = 0, 1, 2, 3, 4

NIB = sum(1 << (4 * r) for r in range(13))
N5 = NIB * 5
N3 = NIB * 3

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
C1 = np.uint64(0xBF58476D1CE4E5B9)
C2 = np.uint64(0x94D049BB133111EB)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
S11 = np.uint64(11)
ONE = np.uint64(1)
TO_UNIT = 1.0 / 9007199254740992.0      # 2**-53


# --- random numbers (tutor.engine.analysis.streams in compiled form) --------------------------

@njit(cache=True)
def mix2(h0, x):
    """``mix_seed`` of two parts, on uint64 (``h0`` the first part)."""
    h = GOLDEN
    for part in (h0, x):
        h = h ^ part
        h = (h ^ (h >> S30)) * C1
        h = (h ^ (h >> S27)) * C2
        h = h ^ (h >> S31)
    return h


@njit(cache=True)
def unit(key, k):
    """The ``k``-th number (from 0) of the stream ``key``: a float in [0, 1)."""
    z = key + (np.uint64(k) + ONE) * GOLDEN
    z = (z ^ (z >> S30)) * C1
    z = (z ^ (z >> S27)) * C2
    z = z ^ (z >> S31)
    return np.float64(z >> S11) * TO_UNIT


@njit(cache=True)
def draw(keys, ctr, q):
    k = ctr[q]
    ctr[q] = k + 1
    return unit(keys[q], k)


# --- bits ---------------------------------------------------------------------------------------

@njit(cache=True)
def pop(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit(cache=True)
def low_index(x):
    """The index of the lowest set bit of a non-empty mask."""
    return pop((x & -x) - 1)


@njit(cache=True)
def counts(x):
    a = (x & N5) + ((x >> 1) & N5)
    return (a & N3) + ((a >> 2) & N3)


@njit(cache=True)
def presence(x):
    y = x | (x >> 1)
    y = y | (y >> 2)
    return y & NIB


@njit(cache=True)
def dead_bits(wonall):
    wc = counts(wonall)
    return (wc >> 1) & ~wc & ~(wc >> 2) & NIB


@njit(cache=True)
def lowest(m, k):
    """The ``k`` lowest cards of mask ``m``, as a mask."""
    out = 0
    for _ in range(k):
        b = m & -m
        out |= b
        m ^= b
    return out


# --- the deal's rules -------------------------------------------------------------------------

@njit(cache=True)
def next_in_play(S, n, seat):
    q = (seat + 1) % n
    while S[H0 + q] == 0:
        q = (q + 1) % n
    return q


@njit(cache=True)
def can_capture_rank(P, nh, nt):
    return ((P[P_C11] != 0 and nh > 0 and nt > 0) or (P[P_C13] != 0 and nh > 0 and nt == 3)
            or (P[P_C22] != 0 and nh == 2 and nt == 2) or (P[P_C31] != 0 and nh == 3 and nt == 1))


@njit(cache=True)
def can_capture(S, P, seat):
    h = S[H0 + seat]
    t = S[TABLE]
    common = presence(h) & presence(t)
    if common == 0:
        return False
    if P[P_C11] != 0:
        return True
    while common:
        low = common & -common
        common ^= low
        shift = low_index(low)
        if can_capture_rank(P, pop((h >> shift) & 15), pop((t >> shift) & 15)):
            return True
    return False


@njit(cache=True)
def add_oversight(S, kind, offender, mask, take):
    k = S[NOV]
    if k >= MAXOV:
        raise ValueError("too many open oversights for the kernel")
    b = OV0 + 4 * k
    S[b] = kind
    S[b + 1] = offender
    S[b + 2] = mask
    S[b + 3] = take
    S[NOV] = k + 1


@njit(cache=True)
def prune(S):
    t = S[TABLE]
    k = 0
    for i in range(S[NOV]):
        b = OV0 + 4 * i
        if pop(t & S[b + 2]) >= S[b + 3]:
            d = OV0 + 4 * k
            S[d] = S[b]
            S[d + 1] = S[b + 1]
            S[d + 2] = S[b + 2]
            S[d + 3] = S[b + 3]
            k += 1
    S[NOV] = k


@njit(cache=True)
def start(S, P):
    S[STARTED] = 1
    if P[P_OV_TABLE] != 0:
        t = S[TABLE]
        for i in range(S[NTM]):
            m = S[TM0 + i]
            if t & m == m:
                add_oversight(S, OV_TABLE, P[P_DEALER], m, 4)


@njit(cache=True)
def finish(S, P, R):
    n = P[P_N]
    dealer = P[P_DEALER]
    last = -1
    for q in range(n):
        if S[H0 + q] != 0:
            last = q
            break
    if last < 0:
        last = S[TO_MOVE]
    left = S[TABLE]
    if last >= 0:
        left |= S[H0 + last]
        S[H0 + last] = 0
    S[TABLE] = 0
    lt = P[P_LEFTOVERS]
    to = dealer if lt == 0 else (last if lt == 1 else -1)
    if to < 0:
        S[DISCARD] |= left
    else:
        S[W0 + to] |= left
    aside = S[ASIDE]
    if aside != 0:
        aside_to = last if last >= 0 else dealer
        S[W0 + aside_to] |= aside
        S[ASIDE] = 0
    wonall = 0
    for q in range(n):
        wonall |= S[W0 + q]
    S[WONALL] = wonall
    bonus_to = -1
    if P[P_BONUS] >= 0 and P[P_BONUS_TO] != 0:
        if P[P_BONUS_TO] == 1 or S[LASTCAP] < 0:
            bonus_to = last
        else:
            bonus_to = S[LASTCAP]
    for q in range(n):
        c = pop(S[W0 + q])
        b = P[P_BONUS] if q == bonus_to else 0
        if P[P_PAIRS] != 0:
            R[q] = c // 2 + b
        else:
            ante = P[P_ANTE_D] if q == dealer else P[P_ANTE_O]
            R[q] = -ante + b + (c - P[P_BREAKEVEN]) // 2
    S[PHASE] = OVER
    S[TO_MOVE] = -1


@njit(cache=True)
def end_play(S, P, R):
    n = P[P_N]
    last = -1
    for q in range(n):
        if S[H0 + q] != 0:
            last = q
            break
    S[NOV] = 0
    if last >= 0 and P[P_PLAYS_ON] != 0 and can_capture(S, P, last):
        S[PHASE] = PLAY_ON
        S[TO_MOVE] = last
        return
    S[TO_MOVE] = last
    finish(S, P, R)


@njit(cache=True)
def after_turn(S, P, R, p):
    if S[IN_PLAY] <= 1:
        end_play(S, P, R)
    else:
        S[TO_MOVE] = next_in_play(S, P[P_N], p)


@njit(cache=True)
def apply(S, P, R, kind, p, cm, tm):
    """``Deal.apply_unchecked`` of the action (kind, player, hand cards, table cards)."""
    if kind == K_CAPTURE or kind == K_PLAY_ON:
        before = S[TABLE]
        S[H0 + p] &= ~cm
        if S[H0 + p] == 0:
            S[IN_PLAY] -= 1
        S[TABLE] = before & ~tm
        S[W0 + p] |= cm | tm
        S[WONALL] |= cm | tm
        S[LASTCAP] = p
        if kind == K_CAPTURE:
            if S[STARTED] == 0:
                start(S, P)
            if pop(cm) == 1 and pop(tm) == 1 and P[P_C13] != 0 and P[P_OV_SPLIT] != 0:
                shift = low_index(tm) & ~3
                if pop((before >> shift) & 15) == 3:
                    add_oversight(S, OV_SPLIT, p, before & (15 << shift) & ~tm, 2)
            if S[NOV] > 0:
                prune(S)
            after_turn(S, P, R, p)
        elif not can_capture(S, P, p):
            finish(S, P, R)
        return
    if kind == K_LIE:
        h = S[H0 + p]
        if S[STARTED] == 0:
            start(S, P)
        S[H0 + p] = 0
        S[IN_PLAY] -= 1
        S[TABLE] |= h
        hc = counts(h)
        if P[P_OV_DEAD] != 0:
            bits = (hc >> 1) & ~hc & ~(hc >> 2) & NIB & dead_bits(S[WONALL])
            while bits:
                low = bits & -bits
                bits ^= low
                add_oversight(S, OV_DEAD, p, h & (15 << low_index(low)), 2)
        if P[P_OV_PRIAL] != 0:
            bits = hc & (hc >> 1) & ~(hc >> 2) & NIB
            while bits:
                low = bits & -bits
                bits ^= low
                add_oversight(S, OV_PRIAL, p, h & (15 << low_index(low)), 2)
        if P[P_OV_MOURN] != 0:
            bits = (hc >> 2) & NIB
            while bits:
                low = bits & -bits
                bits ^= low
                add_oversight(S, OV_MOURN, p, h & (15 << low_index(low)), 4)
        after_turn(S, P, R, p)
        return
    if kind == K_CLAIM:
        S[TABLE] &= ~cm
        S[W0 + p] |= cm
        S[WONALL] |= cm
        prune(S)
        return
    if kind == K_TAKE:
        S[TABLE] &= ~cm
        if P[P_DEALER_TAKES] != 0:
            S[W0 + p] |= cm
            S[WONALL] |= cm
        else:
            S[ASIDE] |= cm
        return
    # a declaration
    S[H0 + p] &= ~cm
    S[W0 + p] |= cm
    S[WONALL] |= cm
    if P[P_FREE] == 0:
        if S[STARTED] == 0:
            start(S, P)
        if S[H0 + p] != 0:
            S[TO_MOVE] = next_in_play(S, P[P_N], p)
            return
    if S[H0 + p] == 0:
        S[IN_PLAY] -= 1
        if S[IN_PLAY] <= 1:
            end_play(S, P, R)
        elif p == S[TO_MOVE]:
            S[TO_MOVE] = next_in_play(S, P[P_N], p)


# --- declarations and free actions --------------------------------------------------------------

@njit(cache=True)
def has_declaration(h, dead):
    hc = counts(h)
    return ((hc & (hc >> 1)) | (hc >> 2) | ((hc >> 1) & ~hc & ~(hc >> 2) & dead)) & NIB != 0


@njit(cache=True)
def first_declaration(h, wonall):
    """The cards of the seat's first declaration in the engine's order (a mournival, else a pair
    of the lowest prial, else the lowest dead pair), or 0."""
    hc = counts(h)
    prial = ((hc & (hc >> 1)) | (hc >> 2)) & NIB
    if prial:
        shift = low_index(prial)
        cs = h & (15 << shift)
        if pop(cs) == 4:
            return cs
        return lowest(cs, 2)
    pairs = (hc >> 1) & ~hc & ~(hc >> 2) & NIB & dead_bits(wonall)
    if pairs:
        return h & (15 << low_index(pairs))
    return 0


@njit(cache=True)
def count_declarations(h, wonall):
    hc = counts(h)
    k = 0
    prial = ((hc & (hc >> 1)) | (hc >> 2)) & NIB
    while prial:
        low = prial & -prial
        prial ^= low
        c = pop(h & (15 << low_index(low)))
        k += 7 if c == 4 else 3          # a mournival and six pairs, or three pairs
    k += pop((hc >> 1) & ~hc & ~(hc >> 2) & NIB & dead_bits(wonall))
    return k


@njit(cache=True)
def free_pending(S, P):
    if S[PHASE] != PLAY:
        return False
    if S[NOV] > 0 or (S[STARTED] == 0 and S[NTM] > 0):
        return True
    if P[P_FREE] == 0:
        return False
    dead = dead_bits(S[WONALL])
    for q in range(P[P_N]):
        h = S[H0 + q]
        if h != 0 and has_declaration(h, dead):
            return True
    return False


@njit(cache=True)
def first_free(S, P, q, out):
    """The counter player's free action for seat ``q`` (``Bot.free_action``: the first of the
    engine's free actions) into ``out`` = (kind, hand cards); False when it makes none."""
    if S[PHASE] != PLAY:
        return False
    dealer_first = q == P[P_DEALER] and S[STARTED] == 0
    if not (S[NOV] > 0 or (dealer_first and S[NTM] > 0)):
        if P[P_FREE] == 0:
            return False
        h = S[H0 + q]
        if h == 0 or not has_declaration(h, dead_bits(S[WONALL])):
            return False
    t = S[TABLE]
    if dealer_first:
        for i in range(S[NTM]):
            m = S[TM0 + i]
            if t & m == m:
                out[0] = K_TAKE
                out[1] = m
                return True
    if P[P_FREE] != 0:
        d = first_declaration(S[H0 + q], S[WONALL])
        if d != 0:
            out[0] = K_DECLARE
            out[1] = d
            return True
    for i in range(S[NOV]):
        b = OV0 + 4 * i
        if S[b + 1] == q:
            continue
        on = t & S[b + 2]
        if pop(on) < S[b + 3]:
            continue
        out[0] = K_CLAIM
        out[1] = lowest(on, S[b + 3])
        return True
    return False


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
        return lone if S[IN_PLAY] > 1 else 0
    for q in range(P[P_N]):
        m = S[H0 + q]
        if q != seat and m & (m - 1) != 0:
            return lone
    return 0


@njit(cache=True)
def choose(S, P, keys, ctr, act, cm_buf, tm_buf):
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
                pick = int(draw(keys, ctr, p + 1) * k)
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
        want, group = int(draw(keys, ctr, p + 1) * n3), 3
    elif n1 > 0:
        want, group = int(draw(keys, ctr, p + 1) * n1), 1
    else:
        k = int(draw(keys, ctr, p + 1) * L)
        if k < n2:                          # the prepended ones, latest first
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
def rollout(S, P, R, keys, ctr, hold, then, seat, act, cm_buf, tm_buf, free_buf):
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
                    r = lo + span * draw(keys, ctr, q + 1)
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
            if (S[TO_MOVE] == p and S[PHASE] == PLAY and S[H0 + p] & then[2] == then[2]
                    and S[TABLE] & then[3] == then[3]):
                apply(S, P, R, then[0], p, then[2], then[3])
                continue
        choose(S, P, keys, ctr, act, cm_buf, tm_buf)
        apply(S, P, R, act[0], act[1], act[2], act[3])


@njit(cache=True)
def shuffle(buf, k, keys, ctr):
    """Fisher-Yates on the first ``k`` entries, with stream 0."""
    for i in range(k - 1, 0, -1):
        j = int(draw(keys, ctr, 0) * (i + 1))
        x = buf[i]
        buf[i] = buf[j]
        buf[j] = x


@njit(cache=True)
def deal_unseen(S, cards, opp_q, opp_k, need_q, need_m, keys, ctr, buf, rest):
    """Deal the unseen ``cards`` to the opponents (``_Determinizer.deal`` of
    :mod:`tutor.engine.analysis.sampling`): shuffles until every proven holding fits (at most
    2000 tries), else places the proven cards first."""
    nc = cards.shape[0]
    tries = 2000 if need_q.shape[0] > 0 else 1
    for i in range(nc):
        buf[i] = cards[i]
    for _ in range(tries):
        shuffle(buf, nc, keys, ctr)
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
        if ok:
            return
    for i in range(nc):
        rest[i] = buf[i]
    shuffle(rest, nc, keys, ctr)
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
def play_option(S, P, R, keys, ctr, opt, seat, act, cm_buf, tm_buf, free_buf):
    """One option played out from ``S``: ``opt`` = (pre kind, player, hand, table; then kind,
    player, hand, table; hold)."""
    hold = -1
    if opt[0] >= 0:
        apply(S, P, R, opt[0], opt[1], opt[2], opt[3])
    if opt[8] != 0:
        hold = seat
    rollout(S, P, R, keys, ctr, hold, opt[4:8], seat, act, cm_buf, tm_buf, free_buf)


@njit(cache=True)
def run_samples(P, S0, seat, cards, opp_q, opp_k, need_q, need_m, opts, active, seed_base,
                i0, i1, out):
    """Samples ``i0`` to ``i1 - 1`` of an analysis: for each, the unseen cards dealt afresh, then
    every active option played out with the same random numbers seat by seat; ``out[i - i0, j]``
    gets ``seat``'s result after option ``j``."""
    n = P[P_N]
    S = np.empty(SLEN, np.int64)
    base = np.empty(SLEN, np.int64)
    R = np.zeros(MAXP, np.int64)
    keys = np.empty(n + 1, np.uint64)
    ctr = np.zeros(n + 1, np.int64)
    buf = np.empty(max(cards.shape[0], 1), np.int64)
    rest = np.empty(max(cards.shape[0], 1), np.int64)
    act = np.zeros(4, np.int64)
    free_buf = np.zeros(2, np.int64)
    cm_buf = np.zeros(160, np.int64)
    tm_buf = np.zeros(160, np.int64)
    for i in range(i0, i1):
        s = mix2(seed_base, np.uint64(i))
        for q in range(n + 1):
            keys[q] = mix2(s, np.uint64(q))
            ctr[q] = 0
        base[:] = S0
        deal_unseen(base, cards, opp_q, opp_k, need_q, need_m, keys, ctr, buf, rest)
        for j in range(opts.shape[0]):
            if not active[j]:
                continue
            S[:] = base
            for q in range(1, n + 1):
                ctr[q] = 0
            play_option(S, P, R, keys, ctr, opts[j], seat, act, cm_buf, tm_buf, free_buf)
            out[i - i0, j] = R[seat]


@njit(cache=True)
def playout_state(P, S0, keys, ctr, opt, seat, R):
    """One option played out from ``S0`` with the given streams: the final state (for the tests
    that hold the kernel equal to the engine)."""
    S = S0.copy()
    act = np.zeros(4, np.int64)
    free_buf = np.zeros(2, np.int64)
    cm_buf = np.zeros(160, np.int64)
    tm_buf = np.zeros(160, np.int64)
    play_option(S, P, R, keys, ctr, opt, seat, act, cm_buf, tm_buf, free_buf)
    return S
