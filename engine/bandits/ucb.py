"""UCB1 (Auer, Cesa-Bianchi & Fischer 2002) over arrays, and the tie-breaking argmax every
bandit of this package selects with.

State of a K-armed UCB1 is two arrays the caller owns: ``counts`` (int64[K], pulls per arm)
and ``sums`` (float64[K], reward summed per arm).  Pulling arm ``a`` for reward ``r`` is
``counts[a] += 1; sums[a] += r``; nothing else is kept.

    UCB1(a) = sums[a] / counts[a] + c * sqrt( ln(sum counts) / counts[a] )

An unvisited arm scores +inf, so every arm is tried once first.  Ties (all unvisited arms,
or Bernoulli arms with the same pulls and wins) are broken uniformly at random from the
caller's rng (``engine.core.rng``): a fixed tie rule would favour low or high indices, and
the experiments order their arms by quality.
"""

import math

import numpy as np
from numba import njit

from ..core.rng import rand_below


@njit(cache=True, nogil=True, inline='always')
def argmax_random_tie(scores, k, rng):
    """Index of the largest of ``scores[:k]``, ties broken uniformly at random (reservoir
    style: the j-th equal maximum replaces the current pick with probability 1/j)."""
    best = 0
    top = scores[0]
    ties = 1
    for a in range(1, k):
        v = scores[a]
        if v > top:
            top = v
            best = a
            ties = 1
        elif v == top:
            ties += 1
            if rand_below(rng, ties) == 0:
                best = a
    return best


@njit(cache=True, nogil=True)
def ucb1_scores(counts, sums, c, out):
    """Write UCB1(a) for every arm into ``out`` (+inf for unvisited arms)."""
    k = counts.shape[0]
    total = 0
    for a in range(k):
        total += counts[a]
    root_log = math.sqrt(math.log(total)) if total > 1 else 0.0
    for a in range(k):
        n = counts[a]
        if n == 0:
            out[a] = np.inf
        else:
            out[a] = sums[a] / n + c * root_log / math.sqrt(n)


@njit(cache=True, nogil=True)
def ucb1_select(counts, sums, c, rng, scratch):
    """The arm UCB1 pulls next; ``scratch`` is float64[K] working space."""
    ucb1_scores(counts, sums, c, scratch)
    return argmax_random_tie(scratch, counts.shape[0], rng)


@njit(cache=True, nogil=True)
def ucb1_recommend(counts, sums, rng, scratch):
    """The arm UCB1 recommends at the end: the most pulled, ties by the higher mean, then at
    random (the final-move rule of the Go papers).  ``scratch`` is float64[K]."""
    k = counts.shape[0]
    most = counts.max()
    for a in range(k):
        if counts[a] == most:
            scratch[a] = sums[a] / most if most > 0 else 0.0
        else:
            scratch[a] = -np.inf
    return argmax_random_tie(scratch, k, rng)
