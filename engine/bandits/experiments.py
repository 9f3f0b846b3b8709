"""The two published bandit experiments as simulators over the kernels of this package;
``engine.reproduce`` runs them one repetition (or problem) a row, resumably, and plots
them; ``docs/bandit-results.md`` reports them.

1. ``halving`` (SHOT paper, sec. 3.1): Sequential Halving against UCB1 at naming the best
   of K Bernoulli arms, arm j (1-based) paying with probability 0.1 + 0.8 (j-1)/(K-1),
   with a fixed pull budget T.  UCB1 recommends its most pulled arm; Sequential Halving
   its last survivor.
2. ``regret`` (LinUCT paper, fig. 1): average pseudo-regret R_t / t = mu* - (1/t) sum
   mu_{a_s} of exact LinUCB, fLinUCB-GD and UCB1 on K arms with feature dimension d.  A
   problem: arm features x_a = (1, s z_a) with z_a uniform on the unit sphere of R^(d-1)
   and s the feature norm; theta* = (0.5, (c/s) w) with w uniform on that sphere and
   c = 0.4 / max_a |z_a . w|, so every mean mu_a = x_a . theta* lies in [0.1, 0.9] (the
   extreme arm on the boundary) whatever d and s; rewards are Bernoulli (mu_a).  Each
   norm sees the same problems (means and random streams); only the features' scale
   differs, which matters to fLinUCB-GD, whose step size 1/(100+t) is not scale-free.

Every random choice flows from one seed: a task's seed is derived from (seed, experiment,
its parameters, its index), so results do not depend on how tasks are spread over
workers.
"""

import numpy as np
from numba import njit

from ..core.rng import make_rng, next_u64
from .flinucb import GD_N, flinucb_init, flinucb_scores, flinucb_update
from .halving import SH_N, sh_done, sh_init, sh_next, sh_recommend, sh_tell
from .linucb import (init_quads, linucb_init, linucb_scores_cached, linucb_update,
                     refresh_quads)
from .ucb import argmax_random_tie, ucb1_recommend, ucb1_select

_TO_UNIT = 1.0 / 9007199254740992.0
_S11 = np.uint64(11)


@njit(cache=True, nogil=True, inline='always')
def _bernoulli(rng, p):
    return 1.0 if np.float64(next_u64(rng) >> _S11) * _TO_UNIT < p else 0.0


# ---- experiment 1: best-arm identification ------------------------------------------


@njit(cache=True, nogil=True)
def halving_hits(probs, budget, trials, rng):
    """How many of ``trials`` Sequential Halving runs name the last arm (the best)."""
    k = probs.shape[0]
    alive = np.empty(k, dtype=np.int64)
    sh = np.empty(SH_N, dtype=np.int64)
    counts = np.empty(k, dtype=np.int64)
    sums = np.empty(k)
    hits = 0
    for _ in range(trials):
        sh_init(alive, sh, counts, sums, budget, rng)
        while not sh_done(sh):
            a = sh_next(alive, sh)
            sh_tell(alive, sh, counts, sums, a, _bernoulli(rng, probs[a]), rng)
        if sh_recommend(alive, sh, counts, sums, rng) == k - 1:
            hits += 1
    return hits


@njit(cache=True, nogil=True)
def ucb1_hits(probs, budget, c, trials, rng):
    """How many of ``trials`` UCB1 runs of ``budget`` pulls recommend the best arm."""
    k = probs.shape[0]
    counts = np.empty(k, dtype=np.int64)
    sums = np.empty(k)
    scratch = np.empty(k)
    hits = 0
    for _ in range(trials):
        counts[:] = 0
        sums[:] = 0.0
        for _ in range(budget):
            a = ucb1_select(counts, sums, c, rng, scratch)
            counts[a] += 1
            sums[a] += _bernoulli(rng, probs[a])
        if ucb1_recommend(counts, sums, rng, scratch) == k - 1:
            hits += 1
    return hits


def arm_probs(k: int) -> np.ndarray:
    return 0.1 + 0.8 * np.arange(k) / (k - 1)


def task_seed(*parts: int) -> int:
    return int(np.random.SeedSequence(list(parts)).generate_state(1, dtype=np.uint64)[0])


# ---- experiment 2: regret of LinUCB, fLinUCB-GD and UCB1 -----------------------------


def make_problem(seed: int, d: int, run: int, k: int, norm: float):
    """Arm features X [k, d] and means mu [k] = X theta*, as in the module docstring."""
    rng = np.random.default_rng([seed, 2, d, run])
    z = rng.normal(size=(k, d - 1))
    z /= np.linalg.norm(z, axis=1, keepdims=True)
    w = rng.normal(size=d - 1)
    w /= np.linalg.norm(w)
    c = 0.4 / np.abs(z @ w).max()
    x = np.hstack([np.ones((k, 1)), norm * z])
    theta_star = np.concatenate([[0.5], (c / norm) * w])
    return np.ascontiguousarray(x), x @ theta_star


@njit(cache=True, nogil=True)
def linucb_arms(X, mu, steps, alpha, rng):
    """The arm exact LinUCB pulls at each step."""
    k, d = X.shape
    ainv, theta, u, x = np.empty((d, d)), np.empty(d), np.empty(d), np.empty(d)
    linucb_init(ainv, theta)
    q, scores = np.empty(k), np.empty(k)
    init_quads(X, ainv, q)
    arms = np.empty(steps, dtype=np.int64)
    for t in range(steps):
        linucb_scores_cached(X, theta, q, alpha, scores)
        a = argmax_random_tie(scores, k, rng)
        for j in range(d):
            x[j] = X[a, j]
        denom = linucb_update(ainv, theta, x, _bernoulli(rng, mu[a]), u)
        refresh_quads(X, q, u, denom)
        arms[t] = a
    return arms


@njit(cache=True, nogil=True)
def flinucb_arms(X, mu, steps, kappa, rng):
    """The arm fLinUCB-GD pulls at each step; its reservoir holds every past pull."""
    k, d = X.shape
    theta, phi, gd = np.empty(d), np.empty((k, d)), np.empty(GD_N)
    flinucb_init(theta, phi, gd)
    mem_row, mem_y = np.empty(steps, dtype=np.int64), np.empty(steps)
    scores = np.empty(k)
    arms = np.empty(steps, dtype=np.int64)
    for t in range(steps):
        flinucb_scores(X, theta, phi, kappa, scores)
        a = argmax_random_tie(scores, k, rng)
        flinucb_update(X, X, theta, phi, gd, mem_row, mem_y, a, _bernoulli(rng, mu[a]), rng)
        arms[t] = a
    return arms


@njit(cache=True, nogil=True)
def ucb1_arms(mu, steps, c, rng):
    """The arm UCB1 pulls at each step (features ignored)."""
    k = mu.shape[0]
    counts, sums, scratch = np.zeros(k, dtype=np.int64), np.zeros(k), np.empty(k)
    arms = np.empty(steps, dtype=np.int64)
    for t in range(steps):
        a = ucb1_select(counts, sums, c, rng, scratch)
        counts[a] += 1
        sums[a] += _bernoulli(rng, mu[a])
        arms[t] = a
    return arms


def cumulative_regret(mu, arms) -> np.ndarray:
    """Pseudo-regret R_t after each step: the best mean less the mean pulled, summed in
    step order."""
    return np.cumsum(mu.max() - mu[arms])


REGRET_ALGORITHMS = ("LinUCB", "fLinUCB-GD", "UCB1")


def regret_task(seed, d, norm, run, arms, steps, alpha, kappa, c):
    """The regret curves of the three algorithms (REGRET_ALGORITHMS order) on one problem."""
    x, mu = make_problem(seed, d, run, arms, norm)
    pulls = (linucb_arms(x, mu, steps, alpha, make_rng(task_seed(seed, 2, d, run, 0))),
             flinucb_arms(x, mu, steps, kappa, make_rng(task_seed(seed, 2, d, run, 1))),
             ucb1_arms(mu, steps, c, make_rng(task_seed(seed, 2, d, run, 2))))
    return d, norm, run, np.stack([cumulative_regret(mu, p) for p in pulls])


def warm_up():
    """Compile (or load from the numba cache) every kernel once, before a pool forks."""
    rng = make_rng(0)
    halving_hits(arm_probs(4), 16, 1, rng)
    ucb1_hits(arm_probs(4), 16, 1.0, 1, rng)
    x, mu = make_problem(0, 3, 0, 4, 1.0)
    linucb_arms(x, mu, 4, 1.0, rng)
    flinucb_arms(x, mu, 4, 1.0, rng)
    ucb1_arms(mu, 4, 1.0, rng)
