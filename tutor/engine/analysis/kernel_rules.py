"""The engine's rules compiled (numba): the state of a deal as one array, and what an action does
to it (:meth:`tutor.engine.deal.Deal.apply_unchecked`), the declarations and free actions of a
seat, and the settlement (RULES.md 3.3-3.5, 4).  The counter player and the rollouts built on
them are in :mod:`tutor.engine.analysis.kernel`; see there for when this runs and how the tests
hold it equal to the engine.

A state is one int64 array (the slots below); a ruleset one int64 array of parameters (``P_``);
an action four numbers (kind, player, hand cards mask, table cards mask).  Card ``c`` is bit
``c`` of a mask, rank ``r`` the nibble at bit ``4r`` (as in the engine).
"""

from __future__ import annotations

from numba import njit

# --- layout --------------------------------------------------------------------------------

MAXP = 7  # seats
MAXOV = 26  # open oversights (each needs two table cards of its rank: at most 2 a rank)
MAXTM = 13  # table mournivals at the deal
H0 = 0  # hands[0..6]
W0 = 7  # won[0..6]
TABLE = 14
WONALL = 15
ASIDE = 16
DISCARD = 17
TO_MOVE = 18  # -1: nobody
STARTED = 19
PHASE = 20  # 0 play, 1 play on, 2 over
LASTCAP = 21  # -1: nobody captured yet
IN_PLAY = 22
NOV = 23
OV0 = 24  # oversights: (kind, offender, mask, take) each
NTM = OV0 + 4 * MAXOV
TM0 = NTM + 1
LASTIN = TM0 + MAXTM  # after the settlement: the last player in (-1: nobody)
SLEN = LASTIN + 1

PLAY, PLAY_ON, OVER = 0, 1, 2

P_N = 0
P_DEALER = 1
P_C11 = 2
P_C13 = 3
P_C22 = 4
P_C31 = 5
P_FREE = 6
P_OV_SPLIT = 7
P_OV_TABLE = 8  # overlooked_table_mournival
P_OV_DEAD = 9  # laid_down_dead_pair (where a declaration could have taken it)
P_OV_PRIAL = 10
P_OV_MOURN = 11
P_DEALER_TAKES = 12
P_BONUS_TO = 13  # 0 none, 1 last_in, 2 last_pair
P_BONUS = 14  # last_in_bonus, -1 none
P_PLAYS_ON = 15
P_LEFTOVERS = 16  # 0 dealer, 1 last_in, 2 nobody
P_PAIRS = 17  # 1: pairs scoring, 0: stakes
P_ANTE_D = 18
P_ANTE_O = 19
P_BREAKEVEN = 20
P_REACT_LO = 21  # the counter player's reaction range, in microseconds (whole numbers)
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
    return (
        (P[P_C11] != 0 and nh > 0 and nt > 0)
        or (P[P_C13] != 0 and nh > 0 and nt == 3)
        or (P[P_C22] != 0 and nh == 2 and nt == 2)
        or (P[P_C31] != 0 and nh == 3 and nt == 1)
    )


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
    S[LASTIN] = last


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
        k += 7 if c == 4 else 3  # a mournival and six pairs, or three pairs
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
