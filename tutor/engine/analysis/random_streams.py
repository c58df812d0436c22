"""Seeds and random streams of the analysis: the same numbers in pure Python and in the compiled
kernel (:mod:`tutor.engine.analysis.kernel`), on every machine.

A stream is a key (64 bits) and a counter: its ``k``-th number is a hash of the two (splitmix64's
finaliser), so that any seat's ``k``-th number in any sample can be found without drawing the
others, and two implementations agree to the last bit.  Sample ``i`` of an analysis seeded ``b``
has the key ``mix_seed(b, i)``; its stream 0 deals the unseen cards, stream ``q + 1`` is seat
``q``'s (the same for every option of the sample: common random numbers).
"""

from __future__ import annotations

__all__ = ["Stream", "mix_seed", "sample_keys", "unit"]

_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_C1 = 0xBF58476D1CE4E5B9
_C2 = 0x94D049BB133111EB
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


def mix_seed(*parts: int) -> int:
    """A 64-bit hash of whole numbers (splitmix64 steps): the same on every machine, for seeding
    from several parts (negative numbers count as their 64-bit two's complement)."""
    h = _GOLDEN
    for x in parts:
        h = (h ^ (x & _M64)) & _M64
        h = (h ^ (h >> 30)) * _C1 & _M64
        h = (h ^ (h >> 27)) * _C2 & _M64
        h ^= h >> 31
    return h


def unit(key: int, k: int) -> float:
    """The ``k``-th number (from 0) of the stream ``key``: a float in [0, 1) with 53 random bits."""
    z = (key + (k + 1) * _GOLDEN) & _M64
    z = (z ^ (z >> 30)) * _C1 & _M64
    z = (z ^ (z >> 27)) * _C2 & _M64
    return ((z ^ (z >> 31)) >> 11) * _TO_UNIT


def sample_keys(seed_base: int, i: int, players: int) -> list[int]:
    """The stream keys of sample ``i``: ``[deal, seat 0, seat 1, ...]``."""
    s = mix_seed(seed_base, i)
    return [mix_seed(s, q) for q in range(players + 1)]


class Stream:
    """A reader of one stream from its start: the ``rng`` of a computer player in a rollout
    (``random()`` and ``uniform(a, b)``, all that the players use)."""

    __slots__ = ("key", "i")

    def __init__(self, key: int):
        self.key = key
        self.i = 0

    def random(self) -> float:
        """The next number, in [0, 1)."""
        i = self.i
        self.i = i + 1
        z = (self.key + (i + 1) * _GOLDEN) & _M64
        z = (z ^ (z >> 30)) * _C1 & _M64
        z = (z ^ (z >> 27)) * _C2 & _M64
        return ((z ^ (z >> 31)) >> 11) * _TO_UNIT

    def uniform(self, a: float, b: float) -> float:
        """A number between ``a`` and ``b`` (as ``random.Random.uniform``)."""
        return a + (b - a) * self.random()
