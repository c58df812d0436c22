"""The analysis's random numbers compiled (numba): the counter-based streams of
:mod:`tutor.engine.analysis.random_streams`, and CPython's Mersenne Twister (MT19937, ``random.Random``)
for self-play that gives the very deals of ``random.Random``.

Split from :mod:`tutor.engine.analysis.kernel` (which re-exports every name here); compiled and
cached with it (:data:`tutor.engine.kernelcache._SOURCES` names both files).  The random state
``rnd`` is a uint64 array of :data:`RLEN`: ``rnd[0]`` the mode (0 the analysis's streams,
1 MT19937); streams: keys ``rnd[1..8]``, counters ``rnd[9..16]``; MT19937: state ``rnd[1..624]``,
index ``rnd[625]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
C1 = np.uint64(0xBF58476D1CE4E5B9)
C2 = np.uint64(0x94D049BB133111EB)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
S11 = np.uint64(11)
ONE = np.uint64(1)
TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53
M32 = np.uint64(0xFFFFFFFF)
UPPER = np.uint64(0x80000000)
LOWER = np.uint64(0x7FFFFFFF)
MATRIX_A = np.uint64(0x9908B0DF)
# the random state ``rnd`` (uint64): [0] the mode; streams: keys [1..8], counters [9..16];
# MT19937: state [1..624], index [625]
R_KEY = 1
R_CTR = 9
MT_INDEX = 625
RLEN = 626


# --- random numbers (tutor.engine.analysis.random_streams in compiled form) --------------------------


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
def mt_next(rnd):
    """CPython's ``genrand_uint32`` (MT19937) on the state in ``rnd[1:625]``, index ``rnd[625]``."""
    idx = np.int64(rnd[MT_INDEX])
    if idx >= 624:
        for kk in range(624):
            y = (rnd[1 + kk] & UPPER) | (rnd[1 + (kk + 1) % 624] & LOWER)
            v = rnd[1 + (kk + 397) % 624] ^ (y >> ONE)
            if y & ONE:
                v ^= MATRIX_A
            rnd[1 + kk] = v
        idx = np.int64(0)
    y = rnd[1 + idx]
    rnd[MT_INDEX] = idx + 1
    y ^= y >> np.uint64(11)
    y ^= (y << np.uint64(7)) & np.uint64(0x9D2C5680)
    y ^= (y << np.uint64(15)) & np.uint64(0xEFC60000)
    y ^= y >> np.uint64(18)
    return y & M32


@njit(cache=True)
def mt_seed(rnd, key, n):
    """CPython's ``init_by_array`` with the first ``n`` words of ``key`` (``random.seed``)."""
    rnd[0] = 1
    rnd[1] = 19650218
    for i in range(1, 624):
        prev = rnd[i]
        rnd[1 + i] = (np.uint64(1812433253) * (prev ^ (prev >> np.uint64(30))) + np.uint64(i)) & M32
    i = 1
    j = 0
    for _ in range(max(624, n)):
        prev = rnd[i]
        rnd[1 + i] = (
            (rnd[1 + i] ^ ((prev ^ (prev >> np.uint64(30))) * np.uint64(1664525)))
            + np.uint64(key[j])
            + np.uint64(j)
        ) & M32
        i += 1
        j += 1
        if i >= 624:
            rnd[1] = rnd[624]
            i = 1
        if j >= n:
            j = 0
    for _ in range(623):
        prev = rnd[i]
        rnd[1 + i] = (
            (rnd[1 + i] ^ ((prev ^ (prev >> np.uint64(30))) * np.uint64(1566083941))) - np.uint64(i)
        ) & M32
        i += 1
        if i >= 624:
            rnd[1] = rnd[624]
            i = 1
    rnd[1] = 0x80000000
    rnd[MT_INDEX] = 624


@njit(cache=True)
def draw(rnd, q):
    """The next number of stream ``q`` (seat ``q - 1``, or 0 for the deal) in [0, 1): the
    analysis's counter-based streams (``rnd[0] == 0``), or one CPython ``random.Random`` shared
    by every seat (``rnd[0] == 1``: ``random()``)."""
    if rnd[0] == 0:
        k = rnd[R_CTR + q]
        rnd[R_CTR + q] = k + ONE
        return unit(rnd[R_KEY + q], k)
    a = mt_next(rnd) >> np.uint64(5)
    b = mt_next(rnd) >> np.uint64(6)
    return (np.float64(a) * 67108864.0 + np.float64(b)) * TO_UNIT


@njit(cache=True)
def below(rnd, n):
    """CPython's ``_randbelow_with_getrandbits(n)`` (n >= 2) on the MT stream."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    shift = np.uint64(32 - k)
    r = np.int64(mt_next(rnd) >> shift)
    while r >= n:
        r = np.int64(mt_next(rnd) >> shift)
    return r
