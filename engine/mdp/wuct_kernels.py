"""Weighted UCT's simulation below the root, compiled (see ``wuct`` for the method).

The samples of step t are ``pos[t, i] = (x, y)``, ``act[t, i]``, ``val[t, i] = (return,
sigma_i)``, ``size[t]`` of them; a simulation adds at most one per step, so the caller
keeps one free slot per step before each call.  ``cfg`` = (C_UCB, sigma0, dimensions).
"""

import math

import numpy as np
from numba import njit

from .kernels import env_step, ucb_choice

ROOT_2PI = math.sqrt(2.0 * math.pi)


def new_samples(horizon: int, capacity: int):
    """(pos, act, val, size) with room for ``capacity`` samples per step."""
    return (np.zeros((horizon, capacity, 2)), np.zeros((horizon, capacity), np.int64),
            np.zeros((horizon, capacity, 2)), np.zeros(horizon, np.int64))


@njit(cache=True, inline='always')
def _kernel(samples, t, i, x, y, dims):
    pos, _, val, _ = samples
    dx = x - pos[t, i, 0]
    d2 = dx * dx
    if dims == 2:
        dy = y - pos[t, i, 1]
        d2 += dy * dy
    s = val[t, i, 1]
    return math.exp(-d2 / (2.0 * s * s)) / (ROOT_2PI * s)


@njit(cache=True)
def wuct_add(samples, t, x, y, a, ret, sigma0, dims):
    """Store sample (x, y, a, ret) at step t with the bandwidth of eq. 4.1."""
    pos, act, val, size = samples
    density = 0.0
    for i in range(size[t]):
        if act[t, i] == a:
            density += _kernel(samples, t, i, x, y, dims)
    i = size[t]
    pos[t, i, 0], pos[t, i, 1], act[t, i] = x, y, a
    val[t, i, 0], val[t, i, 1] = ret, sigma0 / math.sqrt(1.0 + density)
    size[t] = i + 1


@njit(cache=True)
def wuct_stats(samples, t, x, y, dims, n, r):
    """Fill n[a] = sum k_i(x), r[a] = sum k_i(x) ret_i over step t's samples of action a."""
    _, act, val, size = samples
    n[:] = 0.0
    r[:] = 0.0
    for i in range(size[t]):
        w = _kernel(samples, t, i, x, y, dims)
        n[act[t, i]] += w
        r[act[t, i]] += w * val[t, i, 0]


@njit(cache=True)
def wuct_simulate(kind, params, acts, cfg, start, samples, rng):
    """One simulation from ``start`` = (t, x, y) to the episode's end, choosing by UCB1 on
    the kernel-weighted statistics; stores a sample per step; returns the return."""
    c, sigma0, dims = cfg[0], cfg[1], int(cfg[2])
    k = acts.shape[0]
    t, x, y = int(start[0]), start[1], start[2]
    horizon = int(params[1] if kind == 0 else params[8])
    gamma = params[2] if kind == 0 else params[9]
    steps = horizon - t
    where = np.empty((steps, 3))          # (t, x, y) of each step
    chosen = np.empty(steps, np.int64)
    rewards = np.empty(steps)
    n = np.empty(k)
    r = np.empty(k)
    scores = np.empty(k)
    s = 0
    while True:
        wuct_stats(samples, t, x, y, dims, n, r)
        log_n = math.log(max(n.sum(), 1.0))
        i = ucb_choice(n, r, c, log_n, 1.0, scores, rng)
        where[s, 0], where[s, 1], where[s, 2] = t, x, y
        x, y, reward, done = env_step(kind, params, t, x, y, acts[i], rng)
        chosen[s], rewards[s] = i, reward
        s += 1
        if done:
            break
        t += 1
    value = 0.0
    for u in range(s - 1, -1, -1):
        value = rewards[u] + gamma * value
        wuct_add(samples, int(where[u, 0]), where[u, 1], where[u, 2], chosen[u], value,
                 sigma0, dims)
    return value
