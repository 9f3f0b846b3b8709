"""Sequential Halving (Karnin, Koren & Somekh 2013), a fixed-budget best-arm identifier, as
an ask/tell state machine over arrays, so any compiled loop can drive it arm pull by arm
pull.

Budget T, K arms, L = ceil(log2 K) rounds.  Round r pulls every surviving arm

    n_r = max(1, floor(T / (|S_r| * L)))

times (one arm at a time, in the survivors' current order), then keeps the best
ceil(|S_r| / 2) survivors by empirical mean.  The last survivor is the answer.

Choices where the sources leave room:

* Means are over *all* of an arm's pulls so far, not over the current round's alone
  (Karnin et al. rank by the round's samples; SHOT, which this engine also runs, reuses
  every playout, and more samples can only sharpen the ranking).
* Ties in the ranking are broken uniformly at random: the survivors are shuffled from the
  caller's rng before each stable sort.  An arm that was never pulled ranks last.
* The budget is a hard cap.  With T < K * L the max(1, .) above asks for more pulls than
  T; the machine then stops when T pulls are spent and ``sh_recommend`` names the best
  survivor by empirical mean.

State (the caller allocates, ``sh_init`` fills):

* ``alive`` int64[K]: a permutation of the arms; the first ``sh[SH_ALIVE]`` survive.
* ``sh`` int64[SH_N]: the scalars, indexed by the ``SH_*`` constants.
* ``counts`` int64[K], ``sums`` float64[K]: pulls and summed reward per arm.
"""

import numpy as np
from numba import njit

from ..core.rng import rand_below

SH_BUDGET, SH_ROUNDS, SH_ROUND, SH_ALIVE, SH_CURSOR, SH_LEFT, SH_PULLS, SH_USED = range(8)
SH_N = 8


@njit(cache=True, nogil=True, inline='always')
def ceil_log2(k):
    """ceil(log2 k) for k >= 1, in integers (0 for a single arm)."""
    r = 0
    while (1 << r) < k:
        r += 1
    return r


@njit(cache=True, nogil=True, inline='always')
def round_pulls(budget, n_alive, n_arms):
    """n_r = max(1, floor(T / (|S_r| * ceil(log2 K)))): pulls per survivor this round."""
    return max(1, budget // (n_alive * ceil_log2(n_arms)))


@njit(cache=True, nogil=True)
def _shuffle(a, m, rng):
    for i in range(m - 1, 0, -1):
        j = rand_below(rng, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


@njit(cache=True, nogil=True)
def _rank(alive, m, counts, sums, rng):
    """Order ``alive[:m]`` best mean first, ties at random, never-pulled arms last."""
    _shuffle(alive, m, rng)
    keys = np.empty(m)
    for i in range(m):
        a = alive[i]
        keys[i] = -(sums[a] / counts[a]) if counts[a] > 0 else np.inf
    order = np.argsort(keys, kind='mergesort')
    ranked = alive[:m][order]
    alive[:m] = ranked


@njit(cache=True, nogil=True)
def sh_init(alive, sh, counts, sums, budget, rng):
    """Start a run with ``budget`` pulls over ``alive.shape[0]`` arms."""
    k = alive.shape[0]
    for a in range(k):
        alive[a] = a
        counts[a] = 0
        sums[a] = 0.0
    _shuffle(alive, k, rng)
    rounds = ceil_log2(k)
    sh[SH_BUDGET] = budget
    sh[SH_ROUNDS] = rounds
    sh[SH_ROUND] = 0
    sh[SH_ALIVE] = k
    sh[SH_CURSOR] = 0
    sh[SH_USED] = 0
    pulls = round_pulls(budget, k, k) if rounds > 0 else 0
    sh[SH_PULLS] = pulls
    sh[SH_LEFT] = pulls


@njit(cache=True, nogil=True, inline='always')
def sh_done(sh):
    """No more pulls: one survivor is left, or the budget is spent."""
    return sh[SH_ALIVE] <= 1 or sh[SH_USED] >= sh[SH_BUDGET]


@njit(cache=True, nogil=True, inline='always')
def sh_next(alive, sh):
    """The arm to pull next, or -1 when the run is over."""
    if sh_done(sh):
        return -1
    return alive[sh[SH_CURSOR]]


@njit(cache=True, nogil=True)
def sh_tell(alive, sh, counts, sums, arm, reward, rng):
    """Record the reward of the arm ``sh_next`` named; closes the round when every survivor
    has had its n_r pulls."""
    counts[arm] += 1
    sums[arm] += reward
    sh[SH_USED] += 1
    sh[SH_LEFT] -= 1
    if sh[SH_LEFT] > 0:
        return
    sh[SH_LEFT] = sh[SH_PULLS]
    sh[SH_CURSOR] += 1
    m = sh[SH_ALIVE]
    if sh[SH_CURSOR] < m:
        return
    _rank(alive, m, counts, sums, rng)
    m = (m + 1) // 2
    sh[SH_ALIVE] = m
    sh[SH_ROUND] += 1
    sh[SH_CURSOR] = 0
    pulls = round_pulls(sh[SH_BUDGET], m, alive.shape[0])
    sh[SH_PULLS] = pulls
    sh[SH_LEFT] = pulls


@njit(cache=True, nogil=True)
def sh_recommend(alive, sh, counts, sums, rng):
    """The answer: the last survivor, or the best survivor by mean when the budget ran out
    first."""
    m = sh[SH_ALIVE]
    if m > 1:
        _rank(alive, m, counts, sums, rng)
    return alive[0]
