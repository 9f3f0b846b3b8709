"""The shared linear model's learning in LinUCT (``engine.search.linuct_kernels`` scores
with it, ``engine.search.linuct`` documents the algorithm): the observations one
simulation makes, leaf first, for exact LinUCB and for fLinUCB-GD with one shared
diagonal phi (``width=gd``/``count``) or a phi_a per arm as the LinUCT paper prints it
(``width=arm``), and the layout of the model's lazy scalars they keep.
"""

import numpy as np
from numba import njit

from ..bandits.flinucb import GD_SEEN, draw_past, draw_step, remember, theta_step_scaled
from ..bandits.linucb import linucb_update_sparse

# lazy: theta = lazy[THETA_SCALE] * theta array, D = diag array + lazy[DIAG_SHIFT]; with
# ``width=arm`` the current iteration's draw for the phi_a steps: its reservoir slot (-1:
# none yet), gamma_t and t
THETA_SCALE, DIAG_SHIFT, ARM_SLOT, ARM_GAMMA, ARM_T = range(5)
N_LAZY = 5
# ``width=count``: D_j = 1 / (COUNT_RIDGE + n_j), the inverse of the diagonal of exact
# LinUCB's A = I + sum x x^T (its ridge term 1), n_j the observations with feature j
COUNT_RIDGE = 1.0
# ``step``: the rate of theta's step (gradient and decay) on the drawn row x_i of m_i
# active features.  STEP_PAPER: gamma_t (the paper's, which overshoots while
# gamma_t m_i > 2); STEP_NORMALISED: gamma_t / m_i (normalised LMS: x_i's own residual
# shrinks by the factor 1 - gamma_t whatever its length); STEP_CAPPED: min(gamma_t,
# 1 / m_i), the paper's rate where it does not overshoot, at most the step that fits x_i
STEP_PAPER, STEP_NORMALISED, STEP_CAPPED = range(3)

@njit(cache=True, nogil=True)
def _theta_step(model, i, yi, gamma, lam, step):
    """theta's step from the reservoir's slot ``i`` (reward yi) at the rate ``step`` sets
    (a STEP_* constant): gamma, gamma / m_i or min(gamma, 1 / m_i) for its m_i features
    (the paper's step scaled, the ridge's balance kept)."""
    table, table_len = model.table, model.table_len
    tstride = table.shape[0] // max(table_len.shape[0], 1)
    mi = table_len[i]
    rate = gamma
    if step == STEP_NORMALISED:
        rate = gamma / mi
    elif step == STEP_CAPPED:
        rate = min(gamma, 1.0 / mi)
    model.lazy[THETA_SCALE] = theta_step_scaled(model.theta, model.lazy[THETA_SCALE], table,
                                                i * tstride, mi, yi, rate, lam)


@njit(cache=True, nogil=True)
def _remember_row(model, rows, start, m, y, rng):
    """Offer the observation (rows[start:start+m], y) to the reservoir, which keeps a copy
    of its row in ``table`` (``tstride`` entries a slot; the reservoir's row ids are its
    slots, since tree nodes keep no rows)."""
    table, table_len = model.table, model.table_len
    tstride = table.shape[0] // max(table_len.shape[0], 1)
    slot = remember(model.mem_row, model.mem_y, model.gd, 0, y, rng)
    if slot >= 0:
        base = slot * tstride
        for k in range(m):
            table[base + k] = rows[start + k]
        table_len[slot] = m
        model.mem_row[slot] = slot


@njit(cache=True, nogil=True)
def gd_observe(model, rows, row_len, stride, depth, root_color, winner, rng, count_width,
               step):
    """fLinUCB-GD's observations of one simulation with the shared diagonal phi
    (``width=gd``, ``width=count``), leaf first: the row of the position at each depth
    d = depth .. 1 of the path (``rows[d * stride:]``, ``row_len[d]`` long), with the
    reward y of the player who made the move there.  Observation number t first makes one
    step from a past observation x_i drawn uniformly from observations 1..t-1 (none for
    t = 1: the LinUCT paper's i_t ~ U(1..t-1), ``flinucb.draw_past``), then goes to the
    reservoir.  The step: theta takes ``_theta_step``, the diagonal phi D the same
    stochastic-gradient step restricted to diagonal matrices, D_j += gamma (1/t - [j in
    x_i] D_j), whose O(d) part, gamma/t added to every D_j, goes into
    ``lazy[DIAG_SHIFT]``.  With ``count_width`` D takes no step: each observation counts
    its features in ``model.seen`` and sets their D_j = 1 / (COUNT_RIDGE + n_j).  D's step
    keeps gamma whatever ``step``."""
    diag, lazy, seen, table = model.diag, model.lazy, model.seen, model.table
    tstride = table.shape[0] // max(model.table_len.shape[0], 1)
    for d in range(depth, 0, -1):
        mover = root_color if d % 2 == 1 else 3 - root_color
        y = 1.0 if winner == mover else 0.5 if winner == 0 else 0.0
        start = d * stride
        m = row_len[d]
        gamma, lam, t, i, yi = draw_past(model.gd, model.mem_row, model.mem_y, rng)
        if i >= 0:
            if not count_width:
                shift = lazy[DIAG_SHIFT]
                keep = 1.0 - gamma
                for k in range(i * tstride, i * tstride + model.table_len[i]):
                    j = np.uint32(table[k])
                    diag[j] = (diag[j] + shift) * keep - shift
                lazy[DIAG_SHIFT] = shift + gamma / t
            _theta_step(model, i, yi, gamma, lam, step)
        if count_width:
            for k in range(start, start + m):
                j = np.uint32(rows[k])
                seen[j] += 1.0
                diag[j] = 1.0 / (COUNT_RIDGE + seen[j])
        _remember_row(model, rows, start, m, y, rng)


@njit(cache=True, nogil=True)
def arm_observe(model, rows, row_len, stride, depth, root_color, winner, rng, step):
    """The per-arm fLinUCB-GD of the LinUCT paper's Algorithm 3 (``width=arm``): the
    simulation's observations (as ``gd_observe``'s) join the reservoir, then the next
    iteration's step is made: iteration t draws one observation x_i of the iterations
    before it (``flinucb.draw_step``: t counts iterations), theta takes its step (eq. 4)
    and ``lazy`` keeps (slot of x_i, gamma_t, t) for the phi_a steps (eq. 5) of the
    children that iteration's descent scores (``arm_values``)."""
    for d in range(depth, 0, -1):
        mover = root_color if d % 2 == 1 else 3 - root_color
        y = 1.0 if winner == mover else 0.5 if winner == 0 else 0.0
        _remember_row(model, rows, d * stride, row_len[d], y, rng)
    if model.gd[GD_SEEN] > 0:
        gamma, lam, t, i, yi = draw_step(model.gd, model.mem_row, model.mem_y, rng)
        _theta_step(model, i, yi, gamma, lam, step)
        model.lazy[ARM_SLOT] = i
        model.lazy[ARM_GAMMA] = gamma
        model.lazy[ARM_T] = t


@njit(cache=True, nogil=True)
def exact_observe(model, rows, row_len, stride, depth, root_color, winner):
    """Exact LinUCB's observations of one simulation, as ``gd_observe``'s."""
    ainv, theta, u = model.ainv, model.theta, model.u
    for d in range(depth, 0, -1):
        mover = root_color if d % 2 == 1 else 3 - root_color
        y = 1.0 if winner == mover else 0.5 if winner == 0 else 0.0
        linucb_update_sparse(ainv, theta, rows, d * stride, row_len[d], y, u)
