"""A small xorshift64* generator whose whole state is one uint64 in an array.

Kernels take the array and advance it in place, so every random choice of a search or a
playout flows from the seed the caller put there, and a run can be repeated exactly.
"""

import numpy as np
from numba import njit

_S12 = np.uint64(12)
_S25 = np.uint64(25)
_S27 = np.uint64(27)
_S32 = np.uint64(32)
_MUL = np.uint64(0x2545F4914F6CDD1D)


def make_rng(seed: int) -> np.ndarray:
    """State array for ``seed``; a zero state would stick, so the seed is mixed first."""
    x = (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (1 << 64)
    return np.array([x or 1], dtype=np.uint64)


@njit(cache=True, inline='always')
def next_u64(rng):
    x = rng[0]
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
    rng[0] = x
    return x * _MUL


@njit(cache=True, inline='always')
def rand_below(rng, k):
    """Uniform integer in [0, k) for 0 < k < 2**32 (multiply-shift, no modulo bias worth
    measuring at board sizes)."""
    hi = next_u64(rng) >> _S32
    return np.int64((hi * np.uint64(k)) >> _S32)


@njit(cache=True, inline='always')
def rand_unit(rng):
    """Uniform float in [0, 1)."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def stream_rng(seed: int, stream: int) -> np.ndarray:
    """State array of stream ``stream`` of ``seed``: stream 0 is ``make_rng(seed)``, the
    others (a search's extra threads) start elsewhere in the sequence of seeds."""
    return make_rng((int(seed) + int(stream) * 0xD1B54A32D192ED03) % (1 << 64))
