"""Compiled random playouts for Treasure Hunt, where they are long (up to 10 D steps)
and make most of the cost of UCT, PW and DPW.

``treasure_rollout`` is ``common.rollout`` for ``problems.TreasureHunt`` step for step:
the same dynamics, the same draws in the same order (heading, x noise, y noise), but the
uniform numbers come from the project's xorshift (``engine.core.rng``) seeded by one draw
of the caller's ``random.Random``, so the whole episode still flows from its seed.
``params`` packs the problem: D, G, H, A, eps, R_treasure, R_hole, R_time, T, gamma.
"""

import math

import numpy as np
from numba import njit

from ..core.rng import rand_unit

TWO_PI = 2.0 * math.pi


def treasure_params(problem) -> np.ndarray:
    return np.array([problem.D, problem.G, problem.H, problem.A, problem.eps,
                     problem.R_treasure, problem.R_hole, problem.R_time, problem.T,
                     problem.gamma], dtype=np.float64)


@njit(cache=True)
def treasure_rollout(params, t, x, y, rng):
    """Return of uniformly random headings from step ``t`` at (x, y) to the end."""
    d, g, h, a, eps = params[0], params[1], params[2], params[3], params[4]
    r_treasure, r_hole, r_time, horizon, gamma = (params[5], params[6], params[7],
                                                  params[8], params[9])
    edge, lo, hi = d - g, (d - h) / 2.0, (d + h) / 2.0
    total, discount = 0.0, 1.0
    while True:
        theta = TWO_PI * rand_unit(rng)
        x = x + a * math.cos(theta) + eps * (rand_unit(rng) - 0.5)
        y = y + a * math.sin(theta) + eps * (rand_unit(rng) - 0.5)
        x = min(max(x, 0.0), d)
        y = min(max(y, 0.0), d)
        t += 1
        reward = -r_time
        done = t >= horizon
        if x >= edge and y >= edge:
            reward += r_treasure
            done = True
        elif lo <= x <= hi and lo <= y <= hi:
            reward -= r_hole
            done = True
        total += discount * reward
        if done:
            return total
        discount *= gamma
