"""The node pool that the tree back ends (UCT, SHOT) search, and the Searcher plumbing they
share: options, seed, reset, tree reuse between moves and reading the root out as a
``SearchResult``.

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

import time

import numpy as np
from numba import njit

from ..game import registry
from ..game.coords import PASS
from .. import go_knowledge
from ..patterns import weights as pattern_weights
from ..core import game
from ..core.atomics import atomic_add, atomic_cas, atomic_load
from ..core.elo_policy import Elo
from ..core.go_ladder import WithLadders
from ..core.go_playout import LIGHT, heavy_par
from ..core.layout import (BOARD, M_GAME, M_KO, M_KO_COLOR, M_N_EMPTY, M_PASSES, M_RULE,
                           M_TO_PLAY, M_WINNER)
from ..core.rng import make_rng, rand_below, stream_rng
from . import decide
from .base import MAX_VISITS, Candidate, SearchResult
from .bundles import Knowledge, Tree
from .options import as_dict, set_option

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

CHUNK_SECONDS = 0.025      # one compiled call; bounds the reaction time to stop/deadline
PROGRESS_SECONDS = 0.1     # least time between two progress reports
NO_LIMIT = np.iinfo(np.int64).max


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


class TreeSearcher:
    """The Searcher methods every NodePool back end shares.  A subclass sets ``name``,
    ``Options`` (a dataclass of ``engine.search.options``) and implements ``search``,
    calling ``_prepare`` first and ``_result`` last."""

    name = ""
    Options = None

    def __init__(self, seed: int = 0, options: dict[str, str] | None = None):
        self.params = self.Options(seed=seed)
        for key, value in (options or {}).items():
            set_option(self.params, self.name, key, value)
        if getattr(self.params, "knowledge", go_knowledge.BUILTIN) != go_knowledge.BUILTIN:
            self.knowledge()   # a bad file is refused now, not at the first search
        if getattr(self.params, "patterns", pattern_weights.BUILTIN) != pattern_weights.BUILTIN:
            pattern_weights.load(self.params.patterns)
        self.reset()

    def reset(self):
        self.rng = make_rng(self.params.seed)
        self._streams: list[np.ndarray] = []   # the generators of threads 1, 2, ...
        self.pool: NodePool | None = None   # allocated at the first search
        self._region, self._region_root = None, None   # last ``allowed`` mask, its root
        self.kept = False                    # whether the last search kept its tree

    def set_option(self, key: str, value: str):
        old = getattr(self.params, key, None)
        set_option(self.params, self.name, key, value)
        if key in ("knowledge", "patterns"):
            try:
                self.knowledge() if key == "knowledge" else pattern_weights.load(value.strip())
            except ValueError:
                setattr(self.params, key, old)
                raise
        if key in ("seed", "max_nodes"):
            self.reset()

    def thread_rngs(self) -> list[np.ndarray]:
        """One generator per search thread: the searcher's own, then stream i of the seed
        for thread i, each kept from one search to the next as the searcher's is."""
        while len(self._streams) < self.params.threads - 1:
            self._streams.append(stream_rng(self.params.seed, len(self._streams) + 1))
        return [self.rng] + self._streams[:self.params.threads - 1]

    def knowledge(self):
        """The Go knowledge file the ``knowledge`` option names, loaded and checked."""
        return go_knowledge.load(self.params.knowledge)

    def _playout_policy(self, go: bool) -> tuple:
        """(pattern table, playout parameters) for ``policy_playout_winner`` in a Go
        (``go``) or Gobang session: parameters None select the light playout, and on Go
        their type the policy (``engine.core.go_playout``; Gobang reads only whether
        they are None)."""
        if self.params.playout == "light":
            return LIGHT
        kn = self.knowledge()
        if go and self.params.playout == "elo":
            return kn.patterns, Elo(pattern_weights.policy_vector(self.params.patterns))
        return kn.patterns, heavy_par(kn.playout) if go else kn.playout

    def _knowledge_arrays(self, go: bool) -> Knowledge:
        """The playout policy, and the priors when the back end's ``prior`` option is on
        (an empty array otherwise: no priors): the knowledge file's weights, on Go
        wrapped by the ``priors`` option to pick the kind (``engine.search.go_priors``)."""
        pat, policy = self._playout_policy(go)
        if not getattr(self.params, "prior", False):
            return Knowledge(pat, policy, np.zeros(0))
        prior = self.knowledge().prior
        if go and self.params.priors == "elo":
            prior = Elo(pattern_weights.policy_vector(self.params.patterns))
        elif go and self.params.priors == "ladder":
            prior = WithLadders(prior)
        return Knowledge(self.knowledge().patterns, policy, prior)

    def options(self) -> dict:
        return as_dict(self.params)

    def notify_play(self, state, move: int, color: int):
        if self.pool is not None:
            self.pool.follow(state, move, color)

    def _prepare(self, state, allowed=None) -> np.ndarray:
        """Make the pool's root stand for ``state``, its moves the legal ones inside
        ``allowed`` (a uint8 mask, or None); returns scratch for candidate moves (P + 1)."""
        if self.pool is None:
            self.pool = NodePool(self.params.max_nodes)
        cand = np.empty(state.s.shape[1] + 1, dtype=np.int32)
        mask = decide.root_allowed(state)
        if allowed is not None:
            mask &= allowed
        region = None if allowed is None else allowed.tobytes()
        # another region cannot use a tree it shaped below the root, nor the root it cut
        # down; a root re-rooted since into a child was never cut (Gobang's ``near``)
        in_tree = getattr(self.params, "region", "root") == "tree"
        if region != self._region and (in_tree or self.pool.key == self._region_root):
            self.pool.key = None
        self._region = region
        self.kept = self.pool.begin(state, mask, self.rng, cand)
        self._region_root = self.pool.key
        return cand

    def _preferred(self) -> list[int]:
        """Root children best first by the ``final`` option: visits, or mean."""
        kids = self.pool.by_visits()
        if self.params.final == "mean":
            kids.sort(key=lambda c: -self.pool.mean(c))   # stable: ties keep the visit order
        return kids

    def _search_in_chunks(self, state, budget, stop, progress, t0, first_chunk, run_chunk):
        """Call the compiled ``run_chunk(playouts, max_sim_moves) -> (playouts, moves)`` in
        chunks of about CHUNK_SECONDS until the budget is spent or ``stop`` is set, reporting
        ``progress`` between chunks.  Chunking does not change the result: the same seed and
        playout budget give the same tree whatever the chunk sizes."""
        max_playouts = min(budget.playouts or NO_LIMIT, MAX_VISITS - int(self.pool.ti[VISITS, 0]))
        max_sim = budget.sim_moves or NO_LIMIT
        done = sim = 0
        chunk = first_chunk
        last_report = t0
        live = not game.is_terminal(registry.kernels(state), state.s, state.meta)
        while live and done < max_playouts and sim < max_sim:
            if stop is not None and stop.is_set():
                break
            if self.pool.proven(0):   # the solver settled the root: nothing left to learn
                break
            start = time.perf_counter()
            # one small first chunk always runs, so a nearly spent clock still searches
            if done > 0 and budget.seconds is not None and start - t0 >= budget.seconds:
                break
            d, m = run_chunk(min(chunk, max_playouts - done), max_sim - sim)
            done += d
            sim += m
            now = time.perf_counter()
            rate = d / max(now - start, 1e-6)
            chunk = max(1, int(rate * CHUNK_SECONDS))
            if budget.seconds is not None:
                chunk = max(1, min(chunk, int(rate * (budget.seconds - (now - t0))) + 1))
            if progress is not None and now - last_report >= PROGRESS_SECONDS:
                progress(self._result(state, self._preferred(), done, now - t0, sim))
                last_report = now
        return self._result(state, self._preferred(), done, time.perf_counter() - t0, sim)

    def _result(self, state, preferred: list[int], playouts: int, seconds: float,
                sim_moves: int) -> SearchResult:
        """Candidates most visited first; the move is the first of ``preferred`` (root
        children, best first) that the decision rules of ``engine.search.decide`` accept."""
        pool = self.pool
        known = {c: pool.candidate(c) for c in pool.by_visits()}
        # proven wins first, proven losses last (the solver's verdict beats any count)
        candidates = sorted(known.values(), key=lambda c: -c.proven)
        # no playout reached a child (stopped at once, or SHOT's budget of 1 spent on
        # the root): fall back on the first child, a random one
        ranked = ([known[c] for c in preferred] if preferred
                  else [pool.candidate(int(c)) for c in pool.children()[:1]])
        ranked.sort(key=lambda c: -c.proven)
        move, winrate = decide.choose(state, ranked, self.params.resign_threshold)
        return SearchResult(move=move, winrate=winrate, playouts=playouts, seconds=seconds,
                            nodes=pool.used, sim_moves=sim_moves, candidates=candidates)
