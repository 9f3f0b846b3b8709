"""The state-abstraction tree's simulation below the root, compiled (see ``abstraction``
for the method).

The boxes of every time step's tree live in flat arrays: ``ints[b] = (N_s, child 0..3)``
(-1: no child yet; child q covers the upper half of x when q & 1, of y when q & 2),
``geo[b] = (x low, x high, y low, y high)``, ``stats[b, 0, a] = N_{s,a}``,
``stats[b, 1, a] = R_{s,a}``; box t is the root of step t's tree and ``used[0]`` counts
the boxes.  A simulation makes at most one box per step, so the caller keeps ``horizon``
boxes free before each call.  ``cfg`` = (C_UCB, maximum box depth, dimensions).
"""

import math

import numpy as np
from numba import njit

from .kernels import env_step, ucb_choice

N_CHILD = 4


@njit(cache=True)
def weight(depth):
    """w(d): how much a box at depth d counts in the mix."""
    return (depth + 1.0) ** 2


@njit(cache=True)
def threshold(depth):
    """th(d): visits after which a box at depth d passes simulations to its sub-boxes."""
    return 8.0 * 1.5 ** depth


@njit(cache=True)
def count_transform(n):
    """f(n~): the total count UCB sees."""
    return n ** (2.0 / 3.0)


def new_tree(capacity: int, k: int):
    """(ints, geo, stats, used) with room for ``capacity`` boxes."""
    ints = np.full((capacity, 1 + N_CHILD), -1, dtype=np.int64)
    ints[:, 0] = 0
    return ints, np.zeros((capacity, 4)), np.zeros((capacity, 2, k)), np.zeros(1, np.int64)


@njit(cache=True)
def _child(ints, geo, stats, used, box, x, y, dims):
    mx = 0.5 * (geo[box, 0] + geo[box, 1])
    my = 0.5 * (geo[box, 2] + geo[box, 3])
    q = (1 if x >= mx else 0) + (2 if dims == 2 and y >= my else 0)
    child = ints[box, 1 + q]
    if child < 0:
        child = used[0]
        used[0] += 1
        ints[box, 1 + q] = child
        ints[child, 0] = 0
        ints[child, 1:] = -1
        stats[child] = 0.0
        geo[child, 0], geo[child, 1] = (mx, geo[box, 1]) if q & 1 else (geo[box, 0], mx)
        geo[child, 2], geo[child, 3] = ((my, geo[box, 3]) if q & 2
                                        else (geo[box, 2], my if dims == 2 else geo[box, 3]))
    return child


@njit(cache=True)
def tree_simulate(kind, params, acts, cfg, start, tree, rng):
    """One simulation from ``start`` = (t, x, y) to the episode's end, choosing by the
    mixed box statistics; records its return in every box on its path; returns it."""
    ints, geo, stats, used = tree
    c, max_depth, dims = cfg[0], int(cfg[1]), int(cfg[2])
    k = acts.shape[0]
    t, x, y = int(start[0]), start[1], start[2]
    horizon = int(params[1] if kind == 0 else params[8])
    gamma = params[2] if kind == 0 else params[9]
    steps = horizon - t
    path = np.empty((steps, max_depth + 1), np.int64)
    depth_of = np.empty(steps, np.int64)
    chosen = np.empty(steps, np.int64)
    rewards = np.empty(steps)
    n = np.empty(k)
    r = np.empty(k)
    scores = np.empty(k)
    s = 0
    while True:
        n[:] = 0.0
        r[:] = 0.0
        box, depth = t, 0
        while True:
            path[s, depth] = box
            w = weight(depth)
            for j in range(k):
                n[j] += w * stats[box, 0, j]
                r[j] += w * stats[box, 1, j]
            if ints[box, 0] < threshold(depth) or depth >= max_depth:
                break
            box = _child(ints, geo, stats, used, box, x, y, dims)
            depth += 1
        depth_of[s] = depth + 1
        n_tilde = n.sum()
        scale = count_transform(n_tilde) / n_tilde if n_tilde > 0 else 0.0
        log_n = math.log(max(n_tilde * scale, 1.0))
        i = ucb_choice(n, r, c, log_n, scale, scores, rng)
        x, y, reward, done = env_step(kind, params, t, x, y, acts[i], rng)
        chosen[s], rewards[s] = i, reward
        s += 1
        if done:
            break
        t += 1
    value = 0.0
    for u in range(s - 1, -1, -1):
        value = rewards[u] + gamma * value
        a = chosen[u]
        for d in range(depth_of[u]):
            b = path[u, d]
            ints[b, 0] += 1
            stats[b, 0, a] += 1.0
            stats[b, 1, a] += value
    return value
