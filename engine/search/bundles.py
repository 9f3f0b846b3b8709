"""The named tuples of arrays that the compiled search kernels take, so that a kernel's
signature says what it works on (the tree, the position, the knowledge) instead of listing
a score of arrays.  numba passes a ``collections.namedtuple`` as one argument and compiles
a kernel once per tuple type; field access is free in compiled code.

Each back end adds its own: ``uct_kernels`` and ``linuct_kernels`` their parameters
(``UctParams``, ``LinuctParams``, whose type also picks the tree policy of the shared
iteration, ``engine.search.tree_search``), scratch and model; ``shot_kernels`` its stack.
"""

from collections import namedtuple

import numpy as np

from ..game import registry

# The node pool (``engine.search.tree``): ``ti``, ``tf``, ``tmeta``, and LinUCT's pool of
# feature deltas ``dpool`` with its fill ``dmeta`` (both empty for the other back ends).
Tree = namedtuple("Tree", "ti tf tmeta dpool dmeta")

# The root position: the game's marker (``engine.core.game``: the kernels of its game), the
# state arrays, the Zobrist table and the komi; and a tsumego's fight
# (``engine.search.solver.fight_winner``): ``target`` int32, the points of the defender's
# stones at stake (None: no fight, a whole game, whose search then compiles no fight
# reading), ``attacker`` the side that must capture them, ``allow`` uint8[P] the points
# tree nodes may expand into below the root (empty: every point).
Position = namedtuple("Position", "game s meta zob komi target attacker allow")

NO_MASK = np.zeros(0, dtype=np.uint8)


def position(state, target=None, allow=None) -> Position:
    """The ``Position`` of ``state``; ``target`` (``base.Target``) or None for a whole
    game, ``allow`` a uint8 mask for the moves below the root or None."""
    points = None if target is None else np.asarray(target.points, dtype=np.int32)
    attacker = 0 if target is None else int(target.attacker)
    return Position(registry.kernels(state), state.s, state.meta, state.zob,
                    float(state.komi), points, attacker, NO_MASK if allow is None else allow)

# Go knowledge (``engine.go_knowledge``): the pattern table, the playout policy's
# parameters (None: light playouts) and the prior weights (empty: no priors).
Knowledge = namedtuple("Knowledge", "pat policy prior")
