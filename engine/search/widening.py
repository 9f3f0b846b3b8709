"""Progressive widening of the tree's children (Coulom 2007's "progressive unpruning";
Chaslot et al. 2008), UCT's and LinUCT's ``widen`` option: a node's children are ranked
by their priors once, when they are made, and its tree policy chooses only among the
first ``width(N)`` of them, N the node's visits -- ``widen`` children at first, one more
each time N passes ``widen_after * widen_rate^j`` (j = 0, 1, ...), so a node of 40 visits
opens ``widen + 1`` with the defaults, one of 1,000 ``widen + 10``, one of 100,000
``widen + 24``.

Why: on a big board most of a node's legal moves are hopeless, and a tree policy that
must try each of them (UCB1's first visits, LinUCB's exploration term over 362 children)
spends its visits there; the priors already know which few deserve them.  Proven losses
(MCTS-Solver) do not count against the width, so a node whose open children are all
refuted opens the next ones rather than choosing a lost one.

The ranking is the prior mean (virtual wins / virtual games, ``engine.search.go_priors``),
best first; children of equal prior mean keep the block's shuffled order.  With the
``bias`` option off the priors only rank: their virtual games are dropped once the block
is ordered, so the values are the real statistics alone (the LinUCT paper's program
widened by its playout policy's probabilities and gave no virtual games; with
``priors=elo`` the ranking is that softmax policy's).  Ranking moves
whole columns of the node pool, so everything a child holds (its own children's block,
LinUCT's delta) goes with it.
"""

import numpy as np
from numba import njit

from .options import OptionConflict
from .tree import FIRST, PRIOR_N, PRIOR_W, nchild

ALL = -1   # ``width`` of a node that is not widened: every child is open


@njit(cache=True, nogil=True, inline='always')
def width(widen, after, rate, visits):
    """How many children a node of ``visits`` opens (``ALL`` with ``widen`` 0)."""
    if widen <= 0:
        return ALL
    if visits < after:
        return widen
    return widen + 1 + int(np.log(visits / after) / np.log(rate))


@njit(cache=True, nogil=True)
def rank_children(ti, tf, node, bias):
    """Order ``node``'s block by prior mean, best first (stable); without ``bias`` the
    priors then leave the children (they ranked them, they count nowhere else)."""
    first = ti[FIRST, node]
    k = nchild(ti, node)
    key = np.empty(k)
    order = np.empty(k, dtype=np.int64)
    for j in range(k):
        n = ti[PRIOR_N, first + j]
        key[j] = tf[PRIOR_W, first + j] / n if n > 0 else 0.5
        order[j] = j
    # insertion sort: k is at most a board's points, the keys take few distinct values
    for j in range(1, k):
        o = order[j]
        m = j
        while m > 0 and key[order[m - 1]] < key[o]:
            order[m] = order[m - 1]
            m -= 1
        order[m] = o
    ci = ti[:, first:first + k].copy()
    cf = tf[:, first:first + k].copy()
    for j in range(k):
        for r in range(ti.shape[0]):
            ti[r, first + j] = ci[r, order[j]]
        for r in range(tf.shape[0]):
            tf[r, first + j] = cf[r, order[j]]
        if not bias:
            ti[PRIOR_N, first + j] = 0
            tf[PRIOR_W, first + j] = 0.0


def check_widening(widen: int, ranked: bool):
    """OptionConflict when widening is asked for where no priors rank the children (``ranked``:
    the search gives its Go children priors): widening a shuffled block would prune moves
    at random."""
    if widen > 0 and not ranked:
        raise OptionConflict("option widen needs priors to rank the moves it opens "
                         "(prior=1 on Go, shape_prior > 0 on Gobang)")
