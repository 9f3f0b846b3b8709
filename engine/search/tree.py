"""The node pool that the tree back ends (UCT, SHOT, LinUCT) search: its arrays, the
compiled expansion and backup helpers, and tree reuse between moves.  The Searcher
plumbing around it (options, seed, the root steps, reading the root out) is
``engine.search.searcher``.

Representation: a preallocated pool of ``capacity`` nodes as two arrays,
``ti`` int32 ``[TI_ROWS, capacity]`` and ``tf`` float64 ``[TF_ROWS, capacity]``, indexed by
the row constants below, plus ``tmeta`` int64 ``[T_NMETA]`` (nodes in use, SHOT's choice).
The root is always node 0.  A node's children are one contiguous block
``FIRST .. FIRST + NCHILD - 1``, allocated all at once when the node is expanded, in a
random order drawn from the searcher's seed (so "first unvisited child" is a uniformly
random one).  ``NCHILD == 0`` means not expanded.  Nodes hold no positions: a search
replays the moves from the root.

``WINS`` is the reward summed from the point of view of the player who made ``MOVE``
(a win 1, a draw or jigo 0.5, a loss 0); the root's is from the view of the player who
moved last, so every child's mean is from the view of the side to move at its parent.
``AMAF_N``/``AMAF_W`` are the all-moves-as-first statistics of RAVE; ``SPENT`` is SHOT's
``budget_used_before``; ``PRIOR_N``/``PRIOR_W`` are virtual games and wins a node starts
with (``engine.search.go_priors``), kept apart from the real ones; ``PROVEN`` is the
node's game-theoretic value when the solver has proven one (``engine.search.solver``);
``MINIMAX`` its value with the best reply's backed up (``engine.search.minimax``, UCT's
``minimax`` option; untouched otherwise).

A full pool allocates nothing: expansion reports no room and the caller searches on from
the leaves.  Tree reuse (``NodePool.follow``) moves the played child's subtree to the front
of the pool (breadth first: blocks stay contiguous); a position the tree was not built for
starts it afresh.
"""

import numpy as np
from numba import njit

from ..game import registry
from ..game.coords import PASS
from ..core import game
from ..core.atomics import atomic_add, atomic_cas, atomic_load
from ..core.layout import (BOARD, M_GAME, M_KO, M_KO_COLOR, M_N_EMPTY, M_PASSES, M_RULE,
                           M_TO_PLAY, M_WINNER)
from ..core.rng import rand_below
from .base import Candidate
from .bundles import Tree

FIRST, NCHILD, MOVE, VISITS, AMAF_N, SPENT, PRIOR_N, PROVEN = range(8)
TI_ROWS = 8
CLAIMED = -1               # NCHILD of a leaf a thread is expanding (``expand``)
WIN, LOSS = 1, -1          # PROVEN values (``engine.search.solver``); 0: not proven
WINS, AMAF_W, PRIOR_W, MINIMAX = range(4)
TF_ROWS = 4
# tmeta: nodes in use, SHOT's choice; and for a search on several threads
# (``engine.search.parallel``): the virtual loss a descent adds (0 with one thread), the
# iterations of the current chunk not yet handed out, the moves simulated in it, and the
# lock word of LinUCT's shared model
T_USED, T_CHOICE, T_VLOSS, T_LEFT, T_SIM, T_LOCK = range(6)
T_NMETA = 6

PV_LENGTH = 12


@njit(cache=True, nogil=True)
def nchild(ti, node):
    """The children of ``node``, also while its expansion is claimed (``expand``)."""
    k = ti[NCHILD, node]
    return k if k >= 0 else -1 - k


@njit(cache=True, nogil=True)
def _init_node(ti, tf, i, move):
    ti[FIRST, i] = -1
    ti[NCHILD, i] = 0
    ti[MOVE, i] = move
    ti[VISITS, i] = 0
    ti[AMAF_N, i] = 0
    ti[SPENT, i] = 0
    ti[PRIOR_N, i] = 0
    ti[PROVEN, i] = 0
    tf[WINS, i] = 0.0
    tf[AMAF_W, i] = 0.0
    tf[PRIOR_W, i] = 0.0
    tf[MINIMAX, i] = 0.0


@njit(cache=True, nogil=True)
def clear_pool(ti, tf, tmeta):
    """An empty tree: a lone unvisited root."""
    _init_node(ti, tf, np.int64(0), np.int32(PASS))   # expand's types: one compile, not two
    tmeta[T_USED] = 1
    tmeta[T_CHOICE] = -1


@njit(cache=True, nogil=True)
def expand(ti, tf, tmeta, node, g, s, meta, rng, cand, allow):
    """Give ``node`` (whose position is s, meta in the game of marker ``g``) one child per
    candidate move, shuffled.
    ``allow``: uint8[P] mask of the board points allowed (PASS always is), or empty for no
    filter.  Returns the number of children, or -1 when the pool may lack room for them
    (the node stays a leaf).

    Safe on several threads: the block is reserved by compare-and-swap on ``T_USED``, and
    a node whose expansion a thread has claimed (``NCHILD == CLAIMED``, see
    ``tree_search.run``) keeps its children hidden: ``NCHILD`` becomes ``-1 - k`` (read by
    ``nchild``), for the claimer to publish once the back end's hooks have finished them."""
    if tmeta[T_USED] + meta[M_N_EMPTY] + 1 > ti.shape[1]:
        return -1   # the most children a node can have (every empty point and a pass)
    k = game.candidate_moves(g, s, meta, cand)
    if allow.shape[0] > 0:
        j = 0
        for i in range(k):
            p = cand[i]
            if p == PASS or allow[p] != 0:
                cand[j] = p
                j += 1
        k = j
    for i in range(k - 1, 0, -1):
        r = rand_below(rng, i + 1)
        t = cand[i]
        cand[i] = cand[r]
        cand[r] = t
    if k == 0:
        return 0
    while True:
        used = atomic_load(tmeta, T_USED)
        if used + k > ti.shape[1]:
            return -1   # other threads took the room since the test above
        if atomic_cas(tmeta, T_USED, used, used + k) == used:
            break
    for i in range(k):
        _init_node(ti, tf, used + i, cand[i])
    ti[FIRST, node] = used
    ti[NCHILD, node] = k if ti[NCHILD, node] != CLAIMED else -1 - k
    return k


@njit(cache=True, nogil=True)
def restrict_children(ti, tf, node, allow):
    """Drop the children of ``node`` whose move ``allow`` refuses, keeping the others in
    order (their subtrees become unreachable garbage).  Returns the count kept."""
    first = ti[FIRST, node]
    j = 0
    for i in range(ti[NCHILD, node]):
        c = first + i
        p = ti[MOVE, c]
        if p == PASS or allow[p] != 0:
            if j != i:   # element loops: a slice assignment compiles numba's shape-mismatch
                for r in range(ti.shape[0]):   # message (some 2 s of a cold start)
                    ti[r, first + j] = ti[r, c]
                for r in range(tf.shape[0]):
                    tf[r, first + j] = tf[r, c]
            j += 1
    ti[NCHILD, node] = j
    if j == 0:
        ti[FIRST, node] = -1
    return j


@njit(cache=True, nogil=True)
def settle(ti, node) -> int:
    """MCTS-Solver's rule (``engine.search.solver``): ``node``'s value from its children's,
    unchanged while any child is unknown and none wins."""
    first = ti[FIRST, node]
    all_lost = ti[NCHILD, node] > 0
    for i in range(first, first + ti[NCHILD, node]):
        v = ti[PROVEN, i]
        if v == WIN:
            ti[PROVEN, node] = LOSS
            return LOSS
        if v != LOSS:
            all_lost = False
    if all_lost:
        ti[PROVEN, node] = WIN
    return ti[PROVEN, node]


@njit(cache=True, nogil=True)
def record(ti, tf, path, depth, root_color, winner, visit=1):
    """Back a simulation's result up the path: ``visit`` for every node (0 when the
    descent counted it already, as a virtual loss) and, as ``WINS`` holds it, the reward
    of the player who made the node's move (the root's mover is the side not to move at
    the root).  Atomic adds, so that threads sharing the tree lose no count."""
    for d in range(depth, -1, -1):
        node = path[d]
        mover = root_color if d % 2 == 1 else 3 - root_color
        if visit != 0:
            atomic_add(ti, (VISITS, node), visit)
        atomic_add(tf, (WINS, node), 1.0 if winner == mover else 0.5 if winner == 0 else 0.0)


@njit(cache=True, nogil=True)
def subtree_order(ti, top, order, new_first):
    """Breadth-first order of the subtree under ``top``; ``new_first[k]`` is where the
    children block of ``order[k]`` lands when node ``order[k]`` moves to index k.  Returns
    the subtree's size."""
    order[0] = top
    m = 1
    k = 0
    while k < m:
        v = order[k]
        nch = ti[NCHILD, v]
        if nch > 0:
            new_first[k] = m
            first = ti[FIRST, v]
            for i in range(nch):
                order[m + i] = first + i
            m += nch
        else:
            new_first[k] = -1
        k += 1
    return m


def position_key(s, meta, komi) -> bytes:
    """What a tree depends on: stones, side to move, ko, passes, outcome, rules and komi."""
    fields = meta[[M_GAME, M_RULE, M_TO_PLAY, M_KO, M_KO_COLOR, M_PASSES, M_WINNER]]
    return s[BOARD].tobytes() + fields.tobytes() + np.float64(komi).tobytes()


class NodePool:
    """The arrays of one tree and the position its root stands for."""

    def __init__(self, capacity: int):
        self.ti = np.zeros((TI_ROWS, capacity), dtype=np.int32)
        self.tf = np.zeros((TF_ROWS, capacity), dtype=np.float64)
        self.tmeta = np.zeros(T_NMETA, dtype=np.int64)
        self.dpool = np.zeros(0, dtype=np.int32)    # LinUCT's deltas (``FeatureNodePool``)
        self.dmeta = np.zeros(1, dtype=np.int64)
        self.key: bytes | None = None
        clear_pool(self.ti, self.tf, self.tmeta)

    def arrays(self) -> Tree:
        """The pool as the compiled kernels take it."""
        return Tree(self.ti, self.tf, self.tmeta, self.dpool, self.dmeta)

    @property
    def capacity(self) -> int:
        return self.ti.shape[1]

    @property
    def used(self) -> int:
        return int(self.tmeta[T_USED])

    def begin(self, state, allow: np.ndarray, rng: np.ndarray, cand: np.ndarray) -> bool:
        """Make the root stand for ``state``: keep the tree when it was built (or re-rooted)
        for this very position, else start an empty one; expand the root unless the game is
        over and drop the children ``allow`` refuses.  Returns whether the tree was kept."""
        key = position_key(state.s, state.meta, state.komi)
        kept = key == self.key
        if not kept:
            clear_pool(self.ti, self.tf, self.tmeta)
        self.key = key
        g = registry.kernels(state)
        if not game.is_terminal(g, state.s, state.meta):
            if self.ti[NCHILD, 0] == 0:
                if expand(self.ti, self.tf, self.tmeta, 0, g, state.s, state.meta, rng, cand,
                          allow) < 0:   # a kept tree that fills the pool: start afresh
                    clear_pool(self.ti, self.tf, self.tmeta)
                    kept = False
                    expand(self.ti, self.tf, self.tmeta, 0, g, state.s, state.meta, rng,
                           cand, allow)
            else:
                restrict_children(self.ti, self.tf, 0, allow)
                # the root's proof rests on its children, some of which may be gone
                self.ti[PROVEN, 0] = 0
                settle(self.ti, 0)
        return kept

    def follow(self, state, move: int, color: int):
        """``move`` was played on ``state``: re-root into its child when the tree is for
        ``state``, else forget the tree."""
        key, self.key = self.key, None
        if key is None or color != state.to_play or key != position_key(
                state.s, state.meta, state.komi):
            return
        child = self._child(0, move)
        if child < 0:
            return
        order = np.empty(self.used, dtype=np.int64)
        new_first = np.empty(self.used, dtype=np.int64)
        m = subtree_order(self.ti, child, order, new_first)
        order, new_first = order[:m], new_first[:m]
        self.ti[:, :m] = self.ti[:, order]
        self.tf[:, :m] = self.tf[:, order]
        self.ti[FIRST, :m] = new_first
        self.tmeta[T_USED] = m
        self.tmeta[T_CHOICE] = -1
        s, meta = state.s.copy(), state.meta.copy()
        game.play(registry.kernels(state), s, meta, state.zob, move, color)
        self.key = position_key(s, meta, state.komi)

    def _child(self, node: int, move: int) -> int:
        first, nch = self.ti[FIRST, node], self.ti[NCHILD, node]
        hits = np.flatnonzero(self.ti[MOVE, first:first + nch] == move) if nch > 0 else []
        return int(first + hits[0]) if len(hits) else -1

    def children(self, node: int = 0) -> np.ndarray:
        """Indices of the children of ``node``."""
        first, nch = int(self.ti[FIRST, node]), int(self.ti[NCHILD, node])
        return np.arange(first, first + nch) if nch > 0 else np.zeros(0, dtype=np.int64)

    def mean(self, node: int) -> float:
        n = self.ti[VISITS, node]
        return float(self.tf[WINS, node] / n) if n > 0 else 0.0

    def by_visits(self, node: int = 0) -> list[int]:
        """Visited children, most visited first (ties: higher mean, then block order)."""
        kids = self.children(node)
        visits = self.ti[VISITS, kids]
        means = self.tf[WINS, kids] / np.maximum(visits, 1)
        order = np.lexsort((-means, -visits))
        return [int(kids[i]) for i in order if visits[i] > 0]

    def pv(self, node: int) -> list[int]:
        """``node``'s move followed by the most visited line below it."""
        line = [int(self.ti[MOVE, node])]
        while len(line) < PV_LENGTH and self.ti[NCHILD, node] > 0:
            kids = self.children(node)
            visits = self.ti[VISITS, kids]
            if visits.max() == 0:
                break
            node = int(kids[np.argmax(visits)])
            line.append(int(self.ti[MOVE, node]))
        return line

    def candidate(self, node: int) -> Candidate:
        return Candidate(move=int(self.ti[MOVE, node]), visits=int(self.ti[VISITS, node]),
                         winrate=self.mean(node), pv=self.pv(node), proven=self.proven(node))

    def proven(self, node: int) -> int:
        """WIN or LOSS for the player who made ``node``'s move, 0 when not proven."""
        return int(self.ti[PROVEN, node])
