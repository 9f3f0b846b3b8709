"""LinUCT (ALGORITHMS.md section 4): UCT whose tree policy is a linear bandit over the
features of the children's positions, with one linear model shared by every node.
``linuct`` (alias ``linuct-plain``) selects by LinUCB alone; with ``rave=1`` (alias
``linuct-rave``) by beta LinUCB + (1 - beta) UCB1, beta = sqrt(k / (3 N(a) + k)).  The
iterations are UCT's (``tree_search.run``, with ``linuct_kernels``' tree policy), so
MCTS-Solver (``solver=1``) works here as in UCT; they are called in chunks like UCT's to
serve the clock, ``stop`` and ``progress``; the same seed and playout budget give the same
search whatever the chunks.

Choices where the sources leave room:

* Features: a child's vector x_a is the row of ``engine.core.features`` (the 1944 + 1
  neighbourhood features on 9x9, n*n*24 + 1 on any board, Go and Gobang alike) of the
  position after the child's move.  ``features=stone`` (the default, the paper's words):
  a neighbour's bits say same colour / other colour as the stone on p, so a position and
  its colour-swapped twin share a row.  ``features=mover``: they say the mover's stone /
  the mover's opponent's stone, the mover being the player who made the move into the
  position, whose reward y is observed with the row; the dimension is the same.
* Observations: a playout's result is observed at every node on its path below the root:
  (x of the node, reward of the player who made the node's move: 1 win, 0.5 draw or jigo,
  0 loss).  That is the bandit feedback of each node passed through, whose chosen arm is the
  next node on the path, given to the one shared model; a playout makes ``depth``
  observations, leaf first.
* Without RAVE the policy has no visit counts: an unvisited child is not tried first, it
  is ranked by LinUCB like the others (ties: the first in the block, which is shuffled
  from the seed).  With RAVE: at N(a) = 0, beta = 1, so the value is LinUCB alone (the
  UCB1 term, undefined there, has weight 0).
* ``bandit=exact``: exact LinUCB, A = I + sum x x^T, one shared A^-1 (d x d float64:
  30 MB on 9x9, 600 MB on 19x19) kept by Sherman-Morrison, score
  x^T theta + alpha sqrt(x^T A^-1 x).  Each observation costs O(d^2) (3.8 million
  multiply-adds on 9x9 once A^-1 is dense): 60 to 90 times UCT's time per playout on 9x9
  at 2,000 playouts (``nakade bench search``), so it suits small boards and small
  budgets.
* ``bandit=gd`` (the default, for speed): fLinUCB-GD.  ``width=arm`` (the default, the
  paper's ``paper`` preset): as the LinUCT paper prints it (Algorithm 3, eqs. 4-6).
  Iteration t draws one observation x_i uniformly from those of the iterations before it
  (the paper's i_t ~ U(1..t-1); a reservoir of ``reservoir`` observations that keeps a
  copy of each feature row, ``engine.bandits.flinucb``), theta takes its step (eq. 4),
  and every child a that the descent scores takes its own phi_a step with the same x_i,
  phi_a += gamma_t (x_a / t - (phi_a^T x_i) x_i) (eq. 5), before its score
  x_a^T theta + kappa sqrt(x_a^T phi_a) (eq. 6): "for a in all children of path[i]:
  estimate phi_t using (5)", as Algorithm 3 places it.  phi_a is d float32 for every node
  (7.8 KB on 9x9), so the pool holds at most ``ARM_NODES`` nodes in this mode, the tree is
  not reused between moves (phi_a would have to move with its node) and the search runs
  on one thread; a child costs O(m) a scoring.
  ``width=gd`` (issue 44's "today's variant"; the strong preset's): phi restricted to one
  shared diagonal matrix, phi_a = D x_a: the same stochastic-gradient step projected on
  diagonal matrices, D_j += gamma_t (1/t - [j in x_i] D_j), starting at 0 like phi, one
  step per observation (not per iteration), each from an observation drawn among those
  before it.  Its fixed point is D_j = 1 / (times feature j was observed), the inverse of
  the diagonal of sum x x^T, so the width kappa sqrt(x_a^T D x_a) is the diagonal
  approximation of LinUCB's.  An observation costs O(m) with m active features: the two
  parts of the step that touch every feature, theta's decay (1 - gamma_t lambda_t) and
  D's gamma_t / t, are kept as a scale of theta and a shift of D (``LinearModel.lazy``),
  the same numbers up to rounding.  ``width=count``: D_j = 1 / (1 + n_j) counted.
* The model lives with the tree: a search on a fresh tree starts a fresh model, a kept tree
  (the same position, or the tree reused after the move played) keeps its model
  (``model=keep``, the default; ``model=fresh`` starts a fresh model at every search).

Memory: nodes hold no feature rows.  Each child keeps the delta of its move (the features it
turns on and off, ``linuct_kernels``) in a pool of ``DELTA_ENTRIES`` int32 per node of
``max_nodes``; when that pool is full the tree stops growing, as when the node pool is.
Stored deltas beat recomputing them at selection (a copy, a move and a diff per child: 26 us
for the 56 children of a 9x9 middle-game node, against 1.2 us to score them from stored
deltas) and full rows per child (about 200 indices each there, against up to 18).  The model
adds d floats (gd) or d^2 (exact), the reservoir ``reservoir`` x (n*n*8 + 1) int32.  A
100,000-playout search on 9x9 peaks at about 200 MiB resident, 166 MiB of which a
one-playout search already has (tests/test_linuct.py checks < 2 GiB, marked slow).

Speed (fLinUCB-GD, the empty 9x9 board, ``nakade bench search``): ``linuct-rave`` takes
about 1.4 times UCT's time per playout.  ``linuct-plain`` concentrates on deep lines (the
LinUCT paper's observation): its paths are 7 nodes long on average at 10,000 playouts, 11
at 20,000 and 18 at 40,000 (UCT's: 2), each node costing a selection over its children
and an observation, so it gets slower per playout as the search grows: about 1.6, 1.9 and
2.6 times UCT's time.  Most of the extra time is the selection, a few loads per child
from its stored delta (``linuct_kernels``), then the observations.

Its options (``LinuctOptions``) are declared below, each with its bounds and its line of
help (``nakade gtp --list-options``, docs/options.md; the choices above in detail:
docs/algorithms.md section 9).
"""

import time
from dataclasses import dataclass

import numpy as np

from ..bandits.flinucb import GD_N
from ..bandits.linucb import linucb_init
from ..core import features
from ..game import registry
from ..core.go_policy import SELFATARI_STONES
from ..core.layout import GAME_GO, M_GAME
from . import linuct_deltas
from . import linuct_kernels as lk
from . import parallel
from .bundles import Knowledge, position
from .go_priors import apply_priors, gives_priors
from .memory import check_pool
from .options import WideningOptions, kernel_params, option, threads_option
from .solver import threat_scratch
from .searcher import TreeSearcher
from .tree import FIRST, NCHILD, TF_ROWS, TI_ROWS, NodePool, clear_pool
from .widening import check_widening, rank_children

FIRST_CHUNK = 8            # playouts in the first call, before the speed is known
DELTA_ENTRIES = 32         # delta pool entries per node: a header of 2, then ~10-26 indices
ARM_NODES = 262_144        # ``width=arm``: the pool's capacity at most (phi: 2 GB on 9x9,
                           # only the rows in use resident; 8,000 playouts use ~60,000)
NODE_BYTES = 4 * (TI_ROWS + 1) + 8 * TF_ROWS + 4 * DELTA_ENTRIES   # a FeatureNodePool node
STEPS = {"paper": lk.STEP_PAPER, "normalised": lk.STEP_NORMALISED, "capped": lk.STEP_CAPPED}


@dataclass
class LinuctOptions(WideningOptions):
    bandit: str = option("gd", choices=("gd", "exact"), help="fLinUCB-GD (O(m) an "
                         "observation) or exact LinUCB (O(d^2))")
    alpha: float = option(1.0, 0.0, 100.0, help="exact LinUCB's exploration factor")
    kappa: float = option(1.0, 0.0, 100.0, help="fLinUCB-GD's exploration factor (the "
                          "LinUCT paper's 1)")
    reservoir: int = option(4096, 1, 1_000_000, help="fLinUCB-GD: the past observations "
                            "its step draws from")
    expand_after: int = option(10, 1, 1_000_000, help="a leaf gets its children at this "
                               "many visits (the LinUCT paper's threshold)")
    final: str = option("visits", choices=("visits", "mean"), help="the move played: the "
                        "most visited root child, or the highest mean")
    rave: bool = option(False, help="beta LinUCB + (1 - beta) UCB1 (the paper's "
                        "LinUCT_RAVE)")
    c: float = option(0.7, 0.0, 100.0, help="with rave: UCB1's exploration constant")
    rave_k: float = option(1000.0, 1e-6, 1e12, help="with rave: k of beta = sqrt(k / (3 N "
                           "+ k)), the paper's 1000")
    solver: bool = option(False, help="MCTS-Solver, as UCT's")
    prior: bool = option(False, help="Go: UCT's virtual games for new nodes (with rave in "
                         "UCB1's half; without, they only rank the children widen opens)")
    threat_nodes: int = option(0, 0, 1_000_000, help="Gobang, with the solver: the leaf "
                               "threat proof's fours, as UCT's")
    features: str = option("stone", choices=("stone", "mover"), help="the frame of the "
                           "feature rows' colour bits: the stone on each point's colour "
                           "(the paper's), or the mover's")
    width: str = option("arm", choices=("arm", "gd", "count"), help="fLinUCB-GD's "
                        "confidence width: a phi_a per child by eq. 5 (arm, the paper's), "
                        "one shared diagonal D by its gradient step (gd), or D_j = 1 / (1 + "
                        "n_j) (count)")
    step: str = option("paper", choices=tuple(STEPS), help="fLinUCB-GD: theta's step rate "
                       "on a row of m features: gamma_t (paper), gamma_t / m (normalised), "
                       "min(gamma_t, 1 / m) (capped)")
    model: str = option("keep", choices=("keep", "fresh"), help="the linear model lives "
                        "with the tree, kept from move to move (keep), or starts afresh at "
                        "every search (fresh)")
    threads: int = threads_option()


class FeatureNodePool(NodePool):
    """A ``NodePool`` whose ``ti`` has LinUCT's ``DELTA`` row, and the pool of deltas it
    points into.  Tree reuse moves whole columns, so the pointers follow their nodes."""

    def __init__(self, capacity: int):
        super().__init__(capacity)
        # the shared kernels index rows by name and copy whole columns, so one more row
        # rides along with everything they do
        self.ti = np.zeros((TI_ROWS + 1, capacity), dtype=np.int32)
        clear_pool(self.ti, self.tf, self.tmeta)
        self.dpool = np.zeros(DELTA_ENTRIES * capacity, dtype=np.int32)
        self.dmeta = np.zeros(1, dtype=np.int64)

    def prepare_deltas(self, state, scratch: lk.LinuctScratch, mover: bool):
        """After ``begin``: give the root's children their deltas when the tree is just
        the root's block (``begin`` expanded it, or nothing grew below it), else squeeze
        out the deltas of the nodes tree reuse dropped."""
        if self.used == 1 + self.ti[NCHILD, 0] and (self.used == 1 or self.ti[FIRST, 0] == 1):
            self.dmeta[linuct_deltas.D_USED] = 0
            if self.used > 1 and not linuct_deltas.attach_deltas(
                    self.arrays(), 0, registry.kernels(state), state.s, state.meta, state.zob,
                    scratch, mover):
                raise MemoryError("the delta pool cannot hold the root's children")
        else:
            linuct_deltas.compact_deltas(self.ti, self.tmeta, self.dpool, self.dmeta)


class LinearModel:
    """The shared linear model: theta, and A^-1 (exact) or the diagonal phi with the
    reservoir (fLinUCB-GD); the other kind's arrays are empty.  fLinUCB-GD keeps theta and
    D lazily, ``coefficients()`` and ``diagonal()`` give their values; with ``count`` its
    D counts observations (``width=count``)."""

    def __init__(self, n: int, exact: bool, reservoir: int, count: bool = False,
                 arm_nodes: int = 0):
        d = features.dimension(n)
        self.key = (n, exact, reservoir, count, arm_nodes)
        # one phi_a per node of the pool (``width=arm``); np.zeros maps pages on first use
        self.phi = np.zeros((arm_nodes, d) if arm_nodes else (0, 0), dtype=np.float32)
        self.dirty = 0     # phi rows from here on are still zero
        self.theta = np.zeros(d)
        self.exact = exact
        self.count = count and not exact
        self.seen = np.zeros(d if self.count else 0)
        self.ainv = np.zeros((d, d) if exact else (0, 0))
        self.u = np.zeros(d if exact else 0)
        self.uq = np.zeros(d if exact else 0)
        self.diag = np.zeros(0 if exact else d)
        self.lazy = np.zeros(lk.N_LAZY)
        self.gd = np.zeros(GD_N)
        m = 0 if exact else reservoir
        self.mem_row = np.zeros(m, dtype=np.int64)
        self.mem_y = np.zeros(m)
        self.table = np.zeros(m * features.max_active(n), dtype=np.int32)
        self.table_len = np.zeros(m, dtype=np.int64)
        self.clear()

    def clear(self):
        """No observation yet."""
        if self.exact:
            linucb_init(self.ainv, self.theta)
        else:
            self.theta[:] = 0.0
            # count: D is the inverse of A's diagonal, A = I before any observation
            self.diag[:] = 1.0 / lk.COUNT_RIDGE if self.count else 0.0
            self.seen[:] = 0.0
            self.gd[:] = 0.0
        self.lazy[lk.THETA_SCALE] = 1.0
        self.lazy[lk.DIAG_SHIFT] = 0.0
        self.lazy[lk.ARM_SLOT] = -1.0
        self.clean_phi(0)

    def clean_phi(self, keep: int):
        """Zero the phi_a of nodes ``keep`` and up that a search has touched: a new node's
        phi_a starts at 0."""
        self.phi[keep:self.dirty] = 0.0
        self.dirty = min(self.dirty, keep)
    def arrays(self) -> lk.LinuctModel:
        """The model as the compiled kernels take it."""
        return lk.LinuctModel(self.theta, self.ainv, self.u, self.uq, self.diag, self.lazy,
                              self.gd, self.mem_row, self.mem_y, self.table, self.table_len,
                              self.seen, self.phi)

    def coefficients(self) -> np.ndarray:
        """theta as the model means it (the array times its lazy scale)."""
        return self.theta * self.lazy[lk.THETA_SCALE]

    def diagonal(self) -> np.ndarray:
        """fLinUCB-GD's D as the model means it (the array plus its lazy shift)."""
        return self.diag + self.lazy[lk.DIAG_SHIFT]

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.theta, self.ainv, self.u, self.uq, self.diag,
                                      self.lazy, self.mem_row, self.mem_y, self.table,
                                      self.table_len, self.seen, self.phi))


def new_scratch(state, cand: np.ndarray) -> lk.LinuctScratch:
    """Work arrays of one search on the board of ``state``; ``cand`` holds P + 1 moves."""
    n, big_p = state.size, state.s.shape[1]
    max_depth = 4 * big_p
    width = features.max_active(n)
    vcf_line, points = threat_scratch(big_p)
    return lk.LinuctScratch(
        ss=np.empty_like(state.s), smeta=np.empty_like(state.meta),
        cs=np.empty_like(state.s), cmeta=np.empty_like(state.meta),
        path=np.empty(max_depth + 1, dtype=np.int32),
        rows=np.empty((max_depth + 1) * width, dtype=np.int32),
        row_len=np.zeros(max_depth + 1, dtype=np.int64),
        added=np.empty(width, dtype=np.int32), removed=np.empty(width, dtype=np.int32),
        work=features.new_work(n), counts=np.zeros(2, dtype=np.int64), cand=cand,
        values=np.empty(big_p + 1), sums=np.empty((2, big_p + 1)), carry=np.zeros(4),
        flipped=np.empty(width, dtype=np.int32), xa=np.empty(width, dtype=np.int32),
        vcf_line=vcf_line, points=points,
        amaf=np.zeros(0, dtype=np.int32))


class LinuctSearcher(TreeSearcher):
    name = "linuct"
    Options = LinuctOptions
    reads_fights = True     # ``search`` takes a tsumego ``target`` (``tree_search``)

    def __init__(self, seed: int = 0, options: dict[str, str] | None = None):
        super().__init__(seed, options)
        check_pool(self.name, self.params.max_nodes, NODE_BYTES)   # ValueError, up front

    def set_option(self, key: str, value: str):
        old = self.params.max_nodes
        features_before = self.params.features
        super().set_option(key, value)
        if key == "features" and self.params.features != features_before:
            self.reset()   # the tree's deltas and the model are in the other frame
        if key == "max_nodes":
            try:
                check_pool(self.name, self.params.max_nodes, NODE_BYTES)
            except ValueError:
                super().set_option(key, str(old))
                raise

    def reset(self):
        super().reset()
        self.model: LinearModel | None = None

    def _kernel_params(self) -> lk.LinuctParams:
        p = self.params
        exact = p.bandit == "exact"
        sa_stones = self.knowledge().playout[SELFATARI_STONES] if p.prior else 0.0
        return kernel_params(lk.LinuctParams, p, width=float(p.alpha if exact else p.kappa),
                             exact=exact, sa_stones=float(sa_stones),
                             mover=p.features == "mover",
                             count_width=p.width == "count" and not exact,
                             arm=self._arm(),
                             step=STEPS[p.step], bias=bool(p.bias and p.rave))

    def _knowledge_arrays(self, go: bool) -> Knowledge:
        know = super()._knowledge_arrays(go)
        # no UCB1 half for the virtual games to enter: plain LinUCT's priors only rank
        # the children it widens (``_kernel_params`` drops them once they have)
        if not self.params.rave and self.params.widen == 0:
            return know._replace(prior=np.zeros(0))
        return know

    def _arm(self) -> bool:
        """A phi_a per node: the paper's fLinUCB-GD (``width=arm``)."""
        return self.params.bandit == "gd" and self.params.width == "arm"

    def _capacity(self) -> int:
        return min(self.params.max_nodes, ARM_NODES) if self._arm() else self.params.max_nodes

    def notify_play(self, state, move: int, color: int):
        if self._arm() and self.pool is not None:
            self.pool.key = None   # phi_a rows stay with their nodes: no re-rooting
        else:
            super().notify_play(state, move, color)

    def _prepare_model(self, state, kept: bool):
        exact = self.params.bandit == "exact"
        key = (state.size, exact, self.params.reservoir,
               self.params.width == "count" and not exact,
               self.pool.capacity if self._arm() else 0)
        if self.model is None or self.model.key != key:
            self.model = LinearModel(*key)
        elif not kept or self.params.model == "fresh":
            self.model.clear()
        else:
            self.model.clean_phi(self.pool.used)   # a kept tree keeps its nodes' phi_a

    def _search(self, state, budget, stop, progress, allowed, target):
        t0 = time.perf_counter()
        go = state.meta[M_GAME] == GAME_GO
        know = self._knowledge_arrays(go)
        check_widening(self.params.widen, go and gives_priors(know.prior))
        if self.pool is None or self.pool.capacity != self._capacity():
            self.pool = FeatureNodePool(self._capacity())
        cand = self._prepare(state, allowed)
        pool = self.pool
        n = 1 if self._arm() else self.params.threads   # phi_a has no lock (the docstring)
        scratches = [new_scratch(state, cand if i == 0 else np.empty_like(cand))
                     for i in range(n)]
        pool.prepare_deltas(state, scratches[0], self.params.features == "mover")
        # the model stays with the tree: not kept when ``_prepare`` rebuilt the root
        self._prepare_model(state, self.kept)
        model = self.model.arrays()
        params = self._kernel_params()
        if go and gives_priors(know.prior):
            # the root was expanded by ``_prepare``
            apply_priors(pool.ti, pool.tf, 0, state.s, state.meta, know.pat, know.prior,
                         params.sa_stones)
            if params.widen > 0:
                rank_children(pool.ti, pool.tf, 0, params.bias)
        tree = pool.arrays()
        pos = position(state, target)
        # the model is shared; exact LinUCB's ``uq`` is a selection's scratch, one a thread
        models = [model] + [model._replace(uq=np.zeros_like(model.uq)) for _ in range(n - 1)]
        with parallel.search_threads(pool.tmeta, n) as executor:
            run_chunk = parallel.chunk_runner(tree, pos, scratches, models, know, params,
                                              self.thread_rngs(), executor)
            result = self._search_in_chunks(state, budget, stop, progress, t0, FIRST_CHUNK,
                                            run_chunk)
        self.model.dirty = max(self.model.dirty, self.pool.used)
        return result
