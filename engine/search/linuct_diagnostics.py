"""What LinUCT's linear model believes, so that a reader can see why the search plays what
it plays (``scripts/research/linuct_diagnostics.py`` prints it; ``docs/algorithms.md`` section 9
reads it).

* ``root_view``: for each root child, the terms the tree policy adds up -- the LinUCB mean
  x^T theta, the exploration term (kappa sqrt(x^T D x) for fLinUCB-GD, alpha
  sqrt(x^T A^-1 x) for exact LinUCB), UCB1's value and beta (with RAVE) and the value the
  policy ranks by -- recomputed from the dense feature row of the child's position, the
  formulas of ``engine.search.linuct`` (``tests/test_linuct.py`` checks that the compiled
  selection gives the same numbers).
* ``model_view``: theta's norm, the steps taken, and the model's prediction error: the mean
  squared error of x^T theta against y over the observations fLinUCB-GD's reservoir holds
  (a uniform sample of all of them), beside the error of the best constant (their
  variance), so that a model that learned nothing shows an error ratio of 1.
* ``trace``: ``model_view`` at checkpoints of one search (a search continued on the same
  position keeps its tree and model, so the checkpoints cost nothing extra).
* ``exact_replay``: exact LinUCB (ridge regression, A = I + sum x x^T) fed the very
  observations an fLinUCB-GD search made, in order, so the two models can be compared on
  the same data (the reservoir must hold them all: ``reservoir`` at least the observations);
  ``per_arm_phi_widths`` the same for the paper's per-arm phi_a, which the search replaces
  by a shared diagonal.
"""

import math
from dataclasses import dataclass

import numpy as np

from ..bandits.flinucb import GD_N, GD_SEEN, GD_T, flinucb_update
from ..bandits.linucb import linucb_update_sparse
from ..core import features
from ..core.rng import make_rng
from .linuct import LinearModel
from .tree import FIRST, MOVE, NCHILD, PRIOR_N, PRIOR_W, VISITS, WINS


@dataclass
class ChildView:
    move: int
    visits: int
    prior_n: int          # virtual games (priors), 0 without them
    mean: float | None    # UCB1's mean (priors included); None before any game
    xtheta: float         # the LinUCB mean x^T theta
    width: float          # the exploration term
    ucb1: float | None    # UCB1's value (RAVE only); None when n = 0
    beta: float | None    # LinUCB's weight (RAVE only)
    value: float          # what the tree policy ranks by


@dataclass
class ModelView:
    observations: int     # (x, y) pairs given to the model
    t: int                # fLinUCB-GD's step index (= observations; observation 1 makes no
                          # step, having no past)
    theta_norm: float
    mse: float | None     # mean (y - x^T theta)^2 over the reservoir (fLinUCB-GD)
    baseline: float | None   # the variance of those y: the best constant's error
    diag_mean: float | None  # mean of fLinUCB-GD's diagonal D over the features


def dense_row(state, frame: int = features.STONE_FRAME) -> np.ndarray:
    """The feature vector of ``state``'s position in ``frame`` as a dense 0/1 array."""
    idx = np.zeros(features.max_active(state.size), dtype=np.int32)
    m = features.board_row(state.s, state.meta, idx, frame)
    x = np.zeros(features.dimension(state.size))
    x[idx[:m]] = 1.0
    return x


def children_frame(searcher, state) -> int:
    """The frame the searcher's rows of ``state``'s children are written in."""
    return state.to_play if searcher.params.features == "mover" else features.STONE_FRAME


def linucb_terms(searcher, x: np.ndarray, model: LinearModel | None = None
                 ) -> tuple[float, float]:
    """(x^T theta, exploration term) for the row ``x`` of the searcher's model, or of
    ``model`` with the searcher's alpha or kappa."""
    p = searcher.params
    model = searcher.model if model is None else model
    if model.phi.size:
        raise ValueError("the diagnostics read fLinUCB-GD's shared diagonal: search with "
                         "width=gd (a phi_a per node is not one row's width)")
    if model.exact:
        return float(x @ model.theta), p.alpha * math.sqrt(max(x @ model.ainv @ x, 0.0))
    return (float(x @ model.coefficients()),
            p.kappa * math.sqrt(max(x @ (model.diagonal() * x), 0.0)))


def root_view(searcher, state) -> list[ChildView]:
    """The root children of the searcher's last search of ``state``, most visited first."""
    p, pool = searcher.params, searcher.pool
    ti, tf = pool.ti, pool.tf
    big_n = int(ti[VISITS, 0])
    explore = p.c * math.sqrt(math.log(max(big_n, 1)))
    views = []
    first = int(ti[FIRST, 0])
    frame = children_frame(searcher, state)
    for c in range(first, first + int(ti[NCHILD, 0])):
        xtheta, width = linucb_terms(searcher, dense_row(_after(state, int(ti[MOVE, c])),
                                                         frame))
        visits, prior_n = int(ti[VISITS, c]), int(ti[PRIOR_N, c])
        n = visits + prior_n
        mean = (tf[WINS, c] + tf[PRIOR_W, c]) / n if n else None
        value = xtheta + width
        ucb1 = beta = None
        if p.rave:
            beta = math.sqrt(p.rave_k / (3 * n + p.rave_k))
            if n:
                ucb1 = mean + explore / math.sqrt(n)
                value = beta * value + (1 - beta) * ucb1
        views.append(ChildView(int(ti[MOVE, c]), visits, prior_n, mean, xtheta, width,
                               ucb1, beta, value))
    views.sort(key=lambda v: -v.visits)
    return views


def _reservoir(model: LinearModel) -> tuple[list[np.ndarray], np.ndarray]:
    """The rows and rewards fLinUCB-GD's reservoir holds, in slot order."""
    held = min(int(model.gd[GD_SEEN]), model.mem_y.shape[0])
    stride = model.table.shape[0] // max(model.table_len.shape[0], 1)
    rows = [model.table[s * stride: s * stride + model.table_len[s]] for s in range(held)]
    return rows, model.mem_y[:held].copy()


def model_view(searcher) -> ModelView:
    model = searcher.model
    theta = model.theta if model.exact else model.coefficients()
    if model.exact:
        # exact LinUCB keeps no past observations: its error is not measured here
        return ModelView(-1, -1, float(np.linalg.norm(theta)), None, None, None)
    rows, ys = _reservoir(model)
    if rows:
        pred = np.array([theta[r].sum() for r in rows])
        mse, baseline = float(np.mean((ys - pred) ** 2)), float(np.var(ys))
    else:
        mse = baseline = None
    return ModelView(int(model.gd[GD_SEEN]), int(model.gd[GD_T]),
                     float(np.linalg.norm(theta)), mse, baseline,
                     float(np.mean(model.diagonal())))


@dataclass
class Tracking:
    move: int
    gd_xtheta: float
    exact_xtheta: float
    gd_width: float       # kappa sqrt(x^T D x)
    exact_width: float    # alpha sqrt(x^T A^-1 x)
    phi_width: float      # kappa sqrt(x^T phi_a), phi_a the paper's own per-arm vector


def per_arm_phi_widths(searcher, arms: np.ndarray, seed: int = 1) -> np.ndarray:
    """kappa sqrt(x_a^T phi_a) for the dense rows ``arms`` [K, d], each phi_a the paper's
    full vector (not the search's diagonal), stepped by ``engine.bandits.flinucb`` over the
    searcher's observations in order (their draws from ``seed``): what the width would be
    had each arm kept its phi_a.  Dense: O(K d) memory and time per observation."""
    rows, ys = _reservoir(searcher.model)
    d = arms.shape[1]
    table = np.zeros((len(rows), d))
    for i, r in enumerate(rows):
        table[i, r] = 1.0
    theta, phi, gd = np.zeros(d), np.zeros((arms.shape[0], d)), np.zeros(GD_N)
    mem_row, mem_y = np.zeros(len(rows), dtype=np.int64), np.zeros(len(rows))
    rng = make_rng(seed)
    for i, y in enumerate(ys):
        flinucb_update(arms, table, theta, phi, gd, mem_row, mem_y, i, float(y), rng)
    return searcher.params.kappa * np.sqrt(np.maximum((arms * phi).sum(axis=1), 0.0))


def compare_with_exact(searcher, state) -> list[Tracking]:
    """fLinUCB-GD's terms beside exact LinUCB's on the same observations
    (``exact_replay``) and beside the paper's per-arm phi (``per_arm_phi_widths``), for
    each root child of the last search of ``state``."""
    exact = exact_replay(searcher)
    pool = searcher.pool
    kids = pool.by_visits()
    moves = [int(pool.ti[MOVE, c]) for c in kids]
    frame = children_frame(searcher, state)
    arms = np.array([dense_row(_after(state, m), frame) for m in moves])
    phi_widths = per_arm_phi_widths(searcher, arms)
    out = []
    for m, x, phi_w in zip(moves, arms, phi_widths):
        gd_t, gd_w = linucb_terms(searcher, x)
        ex_t, ex_w = linucb_terms(searcher, x, exact)
        out.append(Tracking(m, gd_t, ex_t, gd_w, ex_w, float(phi_w)))
    return out


def _after(state, move: int):
    child = state.clone()
    child.play(move)
    return child


def trace(searcher, state, checkpoints: list[int]) -> list[tuple[int, ModelView]]:
    """Search ``state`` up to each playout count in ``checkpoints`` (increasing), the same
    search continued, and the model after each."""
    from .base import Budget
    out = []
    done = 0
    for target in checkpoints:
        if target > done:
            done += searcher.search(state, Budget(playouts=target - done)).playouts
        out.append((done, model_view(searcher)))
    return out


def replay_mse(searcher, model: LinearModel) -> float:
    """The mean squared error of ``model``'s x^T theta over the observations the
    searcher's reservoir holds (for the exact model of ``exact_replay``: in sample)."""
    rows, ys = _reservoir(searcher.model)
    theta = model.theta if model.exact else model.coefficients()
    return float(np.mean([(y - theta[r].sum()) ** 2 for r, y in zip(rows, ys)]))


def exact_replay(searcher) -> LinearModel:
    """An exact LinUCB model fed, in order, every observation the fLinUCB-GD searcher's
    model has made (ValueError when its reservoir has had to drop some)."""
    model = searcher.model
    if model.exact:
        raise ValueError("the searcher's model is already exact")
    seen = int(model.gd[GD_SEEN])
    if seen > model.mem_y.shape[0]:
        raise ValueError(f"the reservoir ({model.mem_y.shape[0]}) dropped some of the "
                         f"{seen} observations; raise the reservoir option")
    exact = LinearModel(model.key[0], True, 0)
    rows, ys = _reservoir(model)
    for row, y in zip(rows, ys):
        idx = np.ascontiguousarray(row, dtype=np.int32)
        linucb_update_sparse(exact.ainv, exact.theta, idx, 0, idx.shape[0], float(y), exact.u)
    return exact
