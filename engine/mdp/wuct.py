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

The simulation below the root is compiled (``wuct_kernels``).  The root chooses by plain UCB1 on
exact counts (thesis Algorithm 7): every sample there comes from the one true state.
"""

import numpy as np

from ..core.rng import make_rng
from .common import root_ucb_search
from .kernels import env_params
from .wuct_kernels import new_samples, wuct_simulate


class WeightedUCT:
    name = "wuct"

    def __init__(self, c: float = 1.0):
        self.c = c

    def decide(self, problem, state, budget, rng):
        kind, params, acts = env_params(problem)
        dims = len(state) - 1
        cfg = np.array([self.c, problem.kernel_sigma, dims], dtype=np.float64)
        samples = new_samples(problem.horizon, 64)
        krng = make_rng(rng.getrandbits(63))

        def below(nxt):
            nonlocal samples
            if samples[3].max() >= samples[1].shape[1]:
                samples = _grown(samples)
            start = np.array([nxt[0], nxt[1], nxt[2] if dims == 2 else 0.0])
            return wuct_simulate(kind, params, acts, cfg, start, samples, krng)

        return root_ucb_search(problem, state, budget, rng, self.c, below)


def _grown(samples):
    pos, act, val, size = samples
    bigger = new_samples(pos.shape[0], 2 * pos.shape[1])
    n = pos.shape[1]
    bigger[0][:, :n], bigger[1][:, :n], bigger[2][:, :n] = pos, act, val
    bigger[3][:] = size
    return bigger
