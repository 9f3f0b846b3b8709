"""The named tuples of arrays that the compiled search kernels take, so that a kernel's
signature says what it works on (the tree, the position, the knowledge) instead of listing
a score of arrays.  numba passes a ``collections.namedtuple`` as one argument and compiles
a kernel once per tuple type; field access is free in compiled code.

Each back end adds its own: ``uct_kernels`` and ``linuct_kernels`` their parameters
(``UctParams``, ``LinuctParams``, whose type also picks the tree policy of the shared
iteration, ``engine.search.tree_search``), scratch and model; ``shot_kernels`` its stack.
"""

from collections import namedtuple

# The node pool (``engine.search.tree``): ``ti``, ``tf``, ``tmeta``, and LinUCT's pool of
# feature deltas ``dpool`` with its fill ``dmeta`` (both empty for the other back ends).
Tree = namedtuple("Tree", "ti tf tmeta dpool dmeta")

# The root position: the state arrays, the Zobrist table and the komi.
Position = namedtuple("Position", "s meta zob komi")

# Go knowledge (``engine.go_knowledge``): the pattern table, the playout policy's
# parameters (empty: light playouts) and the prior weights (empty: no priors).
Knowledge = namedtuple("Knowledge", "pat policy prior")
