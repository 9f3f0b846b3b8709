"""The depth-weighted state-abstraction tree (thesis Algorithms 5 and 7, eqs. 3.1-3.7).

Each time step has its own tree of nested boxes over the state space (``problem.bounds``):
the root box is the whole space, and a box that has been visited th(d) = 8 * 1.5^d times
(d its depth) is split in two along every coordinate (halves in 1-D, quarters in 2-D).
Every box s keeps N_s, and per action N_{s,a} and R_{s,a}.  A state's statistics mix the
boxes on the path from the root to the deepest box containing it, the deep (small, more
specific) boxes weighing more:

    n~(x, a) = sum_s w(d(s)) N_{s,a},   r~(x, a) = sum_s w(d(s)) R_{s,a},   w(d) = (d+1)^2

(eqs. 3.1-3.2).  Because the weights inflate the counts, the total is mapped through
f(n) = n^(2/3) (eq. 3.4) and every action's count and return scaled by f(n~)/n~ (eqs.
3.5-3.6) before UCB1 (eq. 3.7); the mean r~/n~ is unchanged by the scaling, only the
exploration term sees f.  The simulation then steps and recurses into the next step's
tree, down to the end of the episode, and every box on the path records the return.  A
choice costs O(depth x actions), not O(samples) as in Weighted UCT.

The simulation below the root is compiled (``tree_kernels``); the root chooses by plain
UCB1 on exact counts (Algorithm 7), as in ``wuct``.  Boxes are
not split below ``max_depth`` (a floor on their size that the budgets here never reach).
"""

import numpy as np

from ..core.rng import make_rng
from .common import root_ucb_search
from .kernels import env_params
from .tree_kernels import new_tree, tree_simulate


class AbstractionTree:
    name = "tree"

    def __init__(self, c: float = 1.0, max_depth: int = 30):
        self.c, self.max_depth = c, max_depth

    def decide(self, problem, state, budget, rng):
        kind, params, acts = env_params(problem)
        dims = len(state) - 1
        cfg = np.array([self.c, self.max_depth, dims], dtype=np.float64)
        tree = roots(problem, 4 * problem.horizon)
        krng = make_rng(rng.getrandbits(63))

        def below(nxt):
            nonlocal tree
            if tree[3][0] + problem.horizon > tree[0].shape[0]:
                tree = _grown(tree)
            start = np.array([nxt[0], nxt[1], nxt[2] if dims == 2 else 0.0])
            return tree_simulate(kind, params, acts, cfg, start, tree, krng)

        return root_ucb_search(problem, state, budget, rng, self.c, below)


def roots(problem, capacity: int):
    """A tree array set with one root box per time step covering ``problem.bounds``."""
    tree = new_tree(capacity, len(problem.actions))
    box = [v for lo_hi in problem.bounds for v in lo_hi]
    tree[1][:problem.horizon, :len(box)] = box
    tree[3][0] = problem.horizon
    return tree


def _grown(tree):
    ints, geo, stats, used = tree
    n = ints.shape[0]
    bigger = new_tree(2 * n, stats.shape[2])
    bigger[0][:n], bigger[1][:n], bigger[2][:n] = ints, geo, stats
    bigger[3][0] = used[0]
    return bigger
