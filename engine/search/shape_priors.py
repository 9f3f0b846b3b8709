"""Gobang priors from shapes (UCT's ``shape_prior``): a new node's children start with
virtual games whose mean grows with the shape score of their move
(``engine.core.gobang_shape``), so the tree tries the fours, threes and blocks first, and
progressive widening (``widen``, ``engine.search.widening``) ranks the children by them
and opens only the best few.

Each child gets ``games`` virtual games with the mean ``LOW + (HIGH - LOW) *
sqrt(score / best)``, best the highest score among the node's children: the best move
starts at HIGH, a move with a quarter of its score half way.  The square root keeps the
second-best shapes (a block beside the attack, a two that makes a three later) well
above the quiet moves, whose scores are one or two orders of magnitude lower.
"""

import numpy as np
from numba import njit

from ..core.game import GobangGame, only_for
from ..core.gobang_shape import move_scores
from .tree import FIRST, MOVE, PRIOR_N, PRIOR_W, nchild

LOW, HIGH = 0.2, 0.8


@njit(cache=True, nogil=True)
def apply_shape_priors(ti, tf, node, s, meta, games, scores):
    """Set the priors of ``node``'s children (position s, meta) from their shape scores;
    ``scores`` (float64, at least the board's length) is a work array; nothing with
    ``games`` 0."""
    if games <= 0:
        return
    first = ti[FIRST, node]
    k = nchild(ti, node)
    move_scores(s, meta, ti[MOVE, first:first + k], k, scores)
    best = 0.0
    for j in range(k):
        best = max(best, scores[j])
    for j in range(k):
        v = np.sqrt(scores[j] / best) if best > 0 else 0.5
        ti[PRIOR_N, first + j] = int(games)
        tf[PRIOR_W, first + j] = int(games) * (LOW + (HIGH - LOW) * v)


# ``shape_priors_at(g)(...)``: ``apply_shape_priors`` on Gobang, nothing on Go
shape_priors_at = only_for(GobangGame, apply_shape_priors, None)


def shape_work(n_points: int) -> np.ndarray:
    """The work array of ``apply_shape_priors`` for a board of ``n_points`` points."""
    return np.zeros(n_points, dtype=np.float64)
