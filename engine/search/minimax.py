"""Minimax-flavoured values for UCT (its ``minimax`` option, meant for tsumego): a node's
value mixes its Monte Carlo mean with the value of the best reply below it, so that a
refutation found deep in the tree reaches the root without waiting for the averages.

Why: a tsumego's wrong first move often collects most of the root's visits at a mean
near 0.5 while the side to move after it has one reply that wins almost surely (the
refutation); the mean of the move falls only as fast as the refutation's visits outweigh
the early ones spent on other replies, which at a few thousand playouts is too slow
(``docs/tsumego-results.md``).  Backing up the best reply's value is the implicit
minimax of Lanctot, Winands, Pepels and Sturtevant (2014), with the node's own mean in
place of a heuristic evaluation at the frontier.

``MINIMAX`` (a ``tf`` row of ``engine.search.tree``) holds, like ``WINS``, the value for the
player who made the node's move.  With ``q`` the node's mean (its prior games counted, as
selection counts them) and ``b`` the largest value among its *qualified* children -- those
with at least ``min_visits`` visits, and proven ones (a proven win counts 1, a proven
loss 0, whatever their visits) -- it is ``(1 - alpha) q + alpha (1 - b)``, or ``q`` when no
child qualifies.  The backup recomputes it for every node of the simulation's path,
leaf first, after the counts (``backup``); selection then reads a visited child's
``MINIMAX`` where it would read its mean (``uct_kernels.select_child``).  Nothing else
reads the row, so a search with ``alpha`` 0 never touches it and searches as before.
"""

from numba import njit

from .tree import FIRST, LOSS, NCHILD, PRIOR_N, PRIOR_W, PROVEN, VISITS, WIN, WINS, MINIMAX


@njit(cache=True, nogil=True)
def node_value(ti, tf, node, alpha, min_visits):
    """``node``'s minimax-flavoured value (module docstring) from its children's."""
    n = ti[VISITS, node] + ti[PRIOR_N, node]
    q = (tf[WINS, node] + tf[PRIOR_W, node]) / n if n > 0 else 0.5
    best = -1.0
    first = ti[FIRST, node]
    for i in range(first, first + max(ti[NCHILD, node], 0)):
        proven = ti[PROVEN, i]
        if proven == WIN:
            v = 1.0
        elif proven == LOSS:
            v = 0.0
        elif ti[VISITS, i] >= min_visits:
            v = tf[MINIMAX, i]
        else:
            continue
        if v > best:
            best = v
    if best < 0.0:
        return q
    return (1.0 - alpha) * q + alpha * (1.0 - best)


@njit(cache=True, nogil=True)
def backup(ti, tf, path, depth, alpha, min_visits):
    """Recompute ``MINIMAX`` along ``path[0..depth]``, leaf first (a node's value rests on
    its children's); after the simulation's counts are in."""
    for d in range(depth, -1, -1):
        node = path[d]
        tf[MINIMAX, node] = node_value(ti, tf, node, alpha, min_visits)
