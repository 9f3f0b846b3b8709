"""Compiled pieces of ``engine.mdp``: the problems' transition (``env_step``) for the
searches that run below the root in numba (``tree_kernels``, ``wuct_kernels``), and
Treasure Hunt's random playouts, which are long (up to 10 D steps) and make most of the
cost of UCT, PW and DPW.

``env_params(problem)`` packs a problem as (kind, float array): Trap [R, T, gamma],
Treasure Hunt the ``treasure_params`` below.  ``env_step`` draws its noise from the
project's xorshift (``engine.core.rng``).

``treasure_rollout`` is ``common.rollout`` for ``problems.TreasureHunt`` step for step:
the same dynamics, the same draws in the same order (heading, x noise, y noise), but the
uniform numbers come from the project's xorshift (``engine.core.rng``) seeded by one draw
of the caller's ``random.Random``, so the whole episode still flows from its seed.
``params`` packs the problem: D, G, H, A, eps, R_treasure, R_hole, R_time, T, gamma.
"""

import math

import numpy as np
from numba import njit

from ..core.rng import rand_below, rand_unit

TWO_PI = 2.0 * math.pi
TRAP, TREASURE = 0, 1


def env_params(problem):
    """(kind, packed parameters, the finite actions as an array) of ``problem``."""
    acts = np.array(problem.actions, dtype=np.float64)
    if problem.name == "trap":
        return TRAP, np.array([problem.R, problem.T, problem.gamma]), acts
    return TREASURE, treasure_params(problem), acts


@njit(cache=True)
def env_step(kind, params, t, x, y, action, rng):
    """(x', y', reward, done) of ``action`` at step ``t`` in state (x, y)."""
    if kind == TRAP:
        x2 = x + action + params[0] * rand_unit(rng)
        reward = 0.7 if x2 < 1.0 else (1.0 if x2 >= 1.7 else 0.0)
        return x2, 0.0, reward, t + 1 >= params[1]
    d, g, h, a, eps = params[0], params[1], params[2], params[3], params[4]
    x2 = min(max(x + a * math.cos(action) + eps * (rand_unit(rng) - 0.5), 0.0), d)
    y2 = min(max(y + a * math.sin(action) + eps * (rand_unit(rng) - 0.5), 0.0), d)
    reward = -params[7]
    done = t + 1 >= params[8]
    lo, hi = (d - h) / 2.0, (d + h) / 2.0
    if x2 >= d - g and y2 >= d - g:
        reward += params[5]
        done = True
    elif lo <= x2 <= hi and lo <= y2 <= hi:
        reward -= params[6]
        done = True
    return x2, y2, reward, done


def gamma_of(kind, params) -> float:
    return float(params[2] if kind == TRAP else params[9])


@njit(cache=True)
def ucb_choice(n, r, c, log_n, scale, scores, rng):
    """UCB1 over the actions' counts ``n`` and reward sums ``r`` (untried actions first),
    counts weighted by ``scale`` in the exploration term (1 for plain counts); the scores
    are written to ``scores`` and the best index returned (``pick_best``)."""
    for j in range(n.shape[0]):
        scores[j] = (np.inf if n[j] <= 0 else
                     r[j] / n[j] + c * math.sqrt(2.0 * log_n / (n[j] * scale)))
    return pick_best(scores, rng)


@njit(cache=True)
def pick_best(scores, rng):
    """Index of the largest score, ties broken uniformly with ``rng``."""
    best = -np.inf
    ties = 0
    for j in range(scores.shape[0]):
        if scores[j] > best:
            best, ties = scores[j], 1
        elif scores[j] == best:
            ties += 1
    pick = rand_below(rng, ties)
    for j in range(scores.shape[0]):
        if scores[j] == best:
            if pick == 0:
                return j
            pick -= 1
    return 0


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
