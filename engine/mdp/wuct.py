"""Weighted UCT (thesis Algorithm 4, kernel of eqs. 4.1-4.2).

Every simulation stores, for each step it takes below the root, the sample (x, a, r):
the state, the action taken and the return from there on.  A state's statistics for
action a are kernel-weighted sums over the stored samples of the same time step and the
same action: n(x, a) = sum k, r(x, a) = sum k r (eqs. 2.4-2.5), and the action is chosen
by UCB1 on them with n(x) = sum_a n(x, a) (eq. 2.7).  There is no tree and no random
playout: a simulation chooses by these statistics down to the end of the episode.

The kernel is a normalised Gaussian of the state distance whose bandwidth belongs to the
sample: sample i gets sigma_i = sigma0 (1 + sum_{j<i} k_j(x_i))^(-1/2) (eq. 4.1), where the
sum runs over the earlier samples of its step and action, so samples in dense regions
speak only for their close neighbourhood (eq. 4.2: k_i(x) = exp(-d^2 / 2 sigma_i^2) /
(sqrt(2 pi) sigma_i)).  sigma0 is ``problem.kernel_sigma`` (0.5 for Trap).  Each choice
costs O(samples): the price the abstraction tree avoids.

The root chooses by plain UCB1 on exact counts (thesis Algorithm 7): every sample there
comes from the one true state.
"""

import math

import numpy as np

from .common import Decision, UNTRIED, argmax_random, most_visited, run_budget, ucb_index

_ROOT2PI = math.sqrt(2.0 * math.pi)


class _Samples:
    """The samples of one time step, in growing numpy arrays."""

    def __init__(self, dims: int, capacity: int = 256):
        self.size = 0
        self.x = np.empty((capacity, dims))
        self.a = np.empty(capacity, dtype=np.int64)
        self.r = np.empty(capacity)
        self.sigma = np.empty(capacity)

    def kernel(self, coords) -> np.ndarray:
        """k_i(x) for every stored sample i."""
        n = self.size
        d2 = ((self.x[:n] - coords) ** 2).sum(axis=1)
        s = self.sigma[:n]
        return np.exp(-d2 / (2.0 * s * s)) / (_ROOT2PI * s)

    def add(self, coords, action: int, ret: float, sigma0: float):
        n = self.size
        if n == len(self.a):
            for name in ("x", "a", "r", "sigma"):
                old = getattr(self, name)
                new = np.empty((2 * n,) + old.shape[1:], dtype=old.dtype)
                new[:n] = old
                setattr(self, name, new)
        same = self.a[:n] == action
        density = float(self.kernel(coords)[same].sum()) if n else 0.0
        self.x[n], self.a[n], self.r[n] = coords, action, ret
        self.sigma[n] = sigma0 / math.sqrt(1.0 + density)
        self.size = n + 1


class WeightedUCT:
    name = "wuct"

    def __init__(self, c: float = 1.0):
        self.c = c

    def decide(self, problem, state, budget, rng) -> Decision:
        k = len(problem.actions)
        visits, totals = [0] * k, [0.0] * k
        steps = [_Samples(len(state) - 1) for _ in range(problem.horizon)]

        def simulate():
            i = argmax_random([ucb_index(totals[j], visits[j], sum(visits), self.c)
                               for j in range(k)], rng)
            nxt, reward, done = problem.step(state, problem.actions[i], rng)
            value = reward if done else reward + problem.gamma * self._below(
                problem, steps, nxt, rng)
            visits[i] += 1
            totals[i] += value

        count, seconds = run_budget(simulate, budget)
        best = most_visited(problem.actions, visits, totals, rng)
        return Decision(problem.actions[best], count, seconds,
                        totals[best] / max(visits[best], 1),
                        dict(zip(problem.actions, visits)))

    def _below(self, problem, steps, state, rng) -> float:
        samples = steps[state[0]]
        coords = np.asarray(state[1:], dtype=float)
        k = len(problem.actions)
        if samples.size:
            w = samples.kernel(coords)
            a = samples.a[:samples.size]
            n = np.bincount(a, weights=w, minlength=k)
            r = np.bincount(a, weights=w * samples.r[:samples.size], minlength=k)
        else:
            n, r = np.zeros(k), np.zeros(k)
        n_sum = float(n.sum())
        scores = [ucb_index(r[j], n[j], n_sum, self.c) if n[j] > 0 else UNTRIED
                  for j in range(k)]
        i = argmax_random(scores, rng)
        nxt, reward, done = problem.step(state, problem.actions[i], rng)
        value = reward if done else reward + problem.gamma * self._below(
            problem, steps, nxt, rng)
        samples.add(coords, i, value, problem.kernel_sigma)
        return value
