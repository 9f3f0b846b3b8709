"""Trap's exact optimum by dynamic programming on a fine grid: the line the searches should
reach.

The grid has step delta = 1/L, with L chosen so that every action (i + 0.5)/8, the noise
width R and the reward edges 1 and 1.7 are whole numbers of steps.  The noise d ~ U[0, R)
becomes the M = R L grid values 0, delta, ..., (M-1) delta, equally likely, so every state
reachable from x0 = 0 lies on the grid and the recursion

    V_T(x) = 0,  V_t(x) = max_a (1/M) sum_k [ r(x + a + d_k) + V_{t+1}(x + a + d_k) ]

is computed exactly for that noise (the window means by cumulative sums, O(grid) per
action and step).  As L grows the discrete noise tends to the uniform law; the error is
at most the probability mass 1/M next to each reward edge.
"""

import math
from fractions import Fraction

import numpy as np


def grid_steps(R: float, n_actions: int, min_steps: int) -> int:
    """L: a multiple of 2 n_actions (the actions), 10 (the edge 1.7) and of R's
    denominator, at least ``min_steps`` when R > 0."""
    r = Fraction(R).limit_denominator(10**6)
    base = math.lcm(2 * n_actions, 10, r.denominator)
    if R <= 0:
        return base
    # enough noise points: R L >= min_steps
    return base * max(1, math.ceil(min_steps / float(r * base)))


def trap_optimum(R: float, T: int = 2, n_actions: int = 8, noise_points: int = 1000):
    """(optimal expected return from x0 = 0, best first action) of Trap."""
    from .problems import Trap
    L = grid_steps(R, n_actions, noise_points)
    M = max(1, round(R * L))
    offsets = [(2 * i + 1) * L // (2 * n_actions) for i in range(n_actions)]
    span = max(offsets) + M
    size = T * span + span + 1
    j = np.arange(size)
    reward = np.where(j < round(Trap.LOW * L), Trap.LOW_REWARD,
                      np.where(j >= round(Trap.HIGH * L), 1.0, 0.0))
    value = np.zeros(size)
    best = 0
    for _ in range(T):
        g = reward + value
        c = np.concatenate(([0.0], np.cumsum(g)))
        q = np.full((n_actions, size), -np.inf)
        for i, o in enumerate(offsets):
            n = size - o - M + 1     # states whose whole window stays on the grid
            q[i, :n] = (c[o + M: o + M + n] - c[o: o + n]) / M
        value = q.max(axis=0)
        value[np.isinf(value)] = 0.0   # beyond the reachable range; never read
        best = int(np.argmax(q[:, 0]))
    return float(value[0]), (best + 0.5) / n_actions
