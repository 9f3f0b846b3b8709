"""MCTS-Solver (Winands, Bjornsson and Saito 2008): game-theoretic values proven in the tree
and backed up beside the Monte Carlo statistics, so a proven win is played at once and a
proven loss is never sampled again.

``PROVEN`` (a row of the node pool, ``engine.search.tree``) holds a node's value from the
point of view of the player who made its move, like ``WINS``: ``WIN`` when that player
wins whatever follows, ``LOSS`` when they lose, 0 while unknown.  A leaf is proven when
its position is over and not drawn (a Gobang five, a Go game ended by two passes:
area score under the tree's simple-ko rules).  Upwards: a node whose children include a
``WIN`` (for the side to move there) is a ``LOSS`` for its own mover; a node all of whose
children are ``LOSS`` is a ``WIN``.  Draws are never proven.

Selection with the solver on: a ``WIN`` child is taken at once; ``LOSS`` children are
skipped unless nothing else is left.  (``settle``, the upward rule, lives with the node
pool, which re-settles the root when a reused tree loses children.)
"""

from numba import njit

from .tree import LOSS, PROVEN, WIN, settle


@njit(cache=True, nogil=True)
def prove_leaf(ti, path, depth, mover, winner):
    """The simulation ended in the tree, at ``path[depth]`` (whose move ``mover`` made),
    with ``winner`` (0: a draw); prove the leaf and settle its ancestors while they
    change."""
    if winner == 0:
        return
    ti[PROVEN, path[depth]] = WIN if winner == mover else LOSS
    for d in range(depth - 1, -1, -1):
        if settle(ti, path[d]) == 0:
            return
