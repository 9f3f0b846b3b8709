"""fLinUCB-GD (Korda, Prashanth & Munos 2013/2015 as used by Mandai & Kaneko's LinUCT): LinUCB
whose ridge regression and confidence widths are tracked by stochastic gradient steps,
O(d) per arm and step (O(m) for binary rows with m active indices) instead of O(d^2).

At step t = 1, 2, ... a past observation (x_i, y_i) is drawn uniformly at random and

    gamma_t = 1 / (100 + t),   lambda_t = 1 / t^0.4   (= 1/t^(1-alpha), alpha = 0.6)
    theta  <-  theta + gamma_t * ((y_i - theta^T x_i) x_i - lambda_t theta)
    phi_a  <-  phi_a + gamma_t * (x_a / t - (phi_a^T x_i) x_i)        for every arm a
    score(a) = x_a^T theta + kappa * sqrt(max(0, x_a^T phi_a))        (kappa = 1 in LinUCT)

phi_a is the gradient-descent estimate of A_t^-1 x_a (its fixed point solves
(sum_s x_s x_s^T / t) phi = x_a / t), so x_a^T phi_a stands in for LinUCB's x_a^T A^-1 x_a.
theta and every phi_a start at 0.  Observation number t makes its step from one of the
t - 1 observations before it (the LinUCT paper's i_t ~ U(1..t-1)), then joins the past;
the first makes no step.  (Until issue 44 the observation joined first and could be drawn
itself; LinUCT had the fix, these kernels had not.)

Past observations: a reservoir of M slots (Vitter's algorithm R).  Each slot holds a row id
(int64: which feature row of the caller's table the observation had) and the reward
(float64), so the memory is 16*M bytes plus the caller's table of feature rows, whatever
the number of steps.  While t <= M the reservoir holds every observation and the draw is
exactly uniform over the past; after that every past observation is in the reservoir with
probability M/t, so a draw still picks each with probability 1/t (successive draws are
then no longer independent).  A caller that reuses a table row for new features must
forget the reservoir (``flinucb_init``).

State the caller allocates: ``theta`` float64[d], ``phi`` float64[K, d] (one row per arm),
``gd`` float64[GD_N] (the step count and the number of observations remembered, indexed by
the ``GD_*`` constants), ``mem_row`` int64[M], ``mem_y`` float64[M].

Dense kernels take real-valued features: arms are the rows of ``X`` [K, d], observation rows
those of a table ``F`` [R, d] (the same array when the observations are arm pulls).  Sparse
kernels take binary rows as in ``engine.bandits.linucb``: row r of a table is
``idx[row_start[r] : row_start[r] + row_len[r]]``; arm a has row ``arm_rows[a]``.  With
binary rows the theta step is O(m) but for its decay, which ``theta_step_scaled`` moves
into a scale kept beside theta (LinUCT's model does so).
"""

import math

import numpy as np
from numba import njit

from ..core.rng import rand_below
from .linucb import row_dot, rows_dot, sparse_dot

GD_T, GD_SEEN = range(2)
GD_N = 2

GAMMA_OFFSET = 100.0
LAMBDA_POWER = 0.4


@njit(cache=True, nogil=True)
def flinucb_init(theta, phi, gd):
    """Start afresh: theta = 0, every phi_a = 0, no step taken, nothing remembered."""
    theta[:] = 0.0
    phi[:, :] = 0.0
    gd[:] = 0.0


@njit(cache=True, nogil=True, inline='always')
def _reservoir_slot(seen, cap, rng):
    """Algorithm R: where observation number ``seen`` (from 0) goes; ``cap`` or more means
    nowhere.  Kept apart from the arrays it fills, so numba can drop the reference counts
    of ``remember``'s arrays when it is inlined in a loop."""
    return seen if seen < cap else rand_below(rng, seen + 1)


@njit(cache=True, nogil=True, inline='always')
def remember(mem_row, mem_y, gd, row, y, rng):
    """Offer observation (row id, y) to the reservoir; returns the slot it went to, or -1
    when algorithm R left it out (a caller keeping its own copies of rows needs to know)."""
    seen = int(gd[GD_SEEN])
    gd[GD_SEEN] = seen + 1
    slot = _reservoir_slot(seen, mem_row.shape[0], rng)
    if slot < mem_row.shape[0]:
        mem_row[slot] = row
        mem_y[slot] = y
        return slot
    return -1


@njit(cache=True, nogil=True, inline='always')
def draw_step(gd, mem_row, mem_y, rng):
    """Advance t; returns (gamma_t, lambda_t, t, drawn row id, drawn reward)."""
    t = gd[GD_T] + 1.0
    gd[GD_T] = t
    held = min(int(gd[GD_SEEN]), mem_row.shape[0])
    k = rand_below(rng, held)
    return 1.0 / (GAMMA_OFFSET + t), t ** -LAMBDA_POWER, t, mem_row[k], mem_y[k]


@njit(cache=True, nogil=True, inline='always')
def draw_past(gd, mem_row, mem_y, rng):
    """The step of the observation about to be made, number t: (gamma_t, lambda_t, t, row
    id, reward) of one drawn uniformly among the t - 1 before it; row id -1 for the first,
    which has no past to step from."""
    if gd[GD_SEEN] == 0:
        gd[GD_T] = 1.0
        return 0.0, 0.0, 1.0, np.int64(-1), 0.0
    return draw_step(gd, mem_row, mem_y, rng)


# ---- dense feature vectors -------------------------------------------------------------


@njit(cache=True, nogil=True)
def flinucb_scores(X, theta, phi, kappa, out):
    """fLinUCB-GD score of every arm (row of X), O(K d)."""
    for a in range(X.shape[0]):
        width = rows_dot(X, a, phi, a)
        out[a] = row_dot(X, a, theta) + kappa * math.sqrt(max(width, 0.0))


@njit(cache=True, nogil=True)
def flinucb_update(X, F, theta, phi, gd, mem_row, mem_y, row, y, rng):
    """Observe reward ``y`` for features ``F[row]``: one gradient step on theta and on
    every arm's phi from a uniformly drawn earlier observation, then remember this one.
    O(K d)."""
    gamma, lam, t, i, yi = draw_past(gd, mem_row, mem_y, rng)
    if i >= 0:
        _dense_step(X, F, theta, phi, gamma, lam, t, i, yi)
    remember(mem_row, mem_y, gd, row, y, rng)


@njit(cache=True, nogil=True)
def _dense_step(X, F, theta, phi, gamma, lam, t, i, yi):
    d = theta.shape[0]
    err = yi - row_dot(F, i, theta)
    shrink = 1.0 - gamma * lam
    ge = gamma * err
    for j in range(d):
        theta[j] = shrink * theta[j] + ge * F[i, j]
    gt = gamma / t
    for a in range(X.shape[0]):
        c = gamma * rows_dot(phi, a, F, i)
        for j in range(d):
            phi[a, j] += gt * X[a, j] - c * F[i, j]


# ---- sparse binary feature rows --------------------------------------------------------


@njit(cache=True, nogil=True, inline='always')
def flinucb_score_sparse(idx, start, m, theta, phi, a, kappa):
    """fLinUCB-GD score of arm ``a`` (phi row a) whose binary row is idx[start:start+m]."""
    width = 0.0
    for k in range(start, start + m):
        width += phi[a, idx[k]]
    return sparse_dot(idx, start, m, theta) + kappa * math.sqrt(max(width, 0.0))


@njit(cache=True, nogil=True, inline='always')
def theta_step_sparse(theta, idx, start, m, y, gamma, lam):
    """theta <- theta + gamma ((y - theta^T x) x - lambda theta) for the binary row
    x = idx[start:start+m]: O(d) for the decay, O(m) for the gradient."""
    err = y - sparse_dot(idx, start, m, theta)
    shrink = 1.0 - gamma * lam
    for j in range(theta.shape[0]):
        theta[j] *= shrink
    ge = gamma * err
    for k in range(start, start + m):
        theta[idx[k]] += ge


@njit(cache=True, nogil=True, inline='always')
def theta_step_scaled(theta, scale, idx, start, m, y, gamma, lam):
    """``theta_step_sparse`` for a coefficient vector kept as ``scale * theta``: the decay
    (1 - gamma lambda) multiplies the scale, so the step is O(m), not O(d).  Returns the new
    scale.  Starting from 1, the scale is the product of (1 - gamma_t lambda_t) over the
    steps, which converges (sum gamma_t lambda_t = 0.51), so it stays above 0.59 and the
    division by it is harmless."""
    err = y - scale * sparse_dot(idx, start, m, theta)
    scale *= 1.0 - gamma * lam
    g = gamma * err / scale
    for k in range(start, start + m):
        theta[np.uint32(idx[k])] += g   # unsigned: no negative-index handling
    return scale


@njit(cache=True, nogil=True)
def flinucb_update_sparse(idx, row_start, row_len, arm_rows, theta, phi, gd, mem_row, mem_y,
                          row, y, rng):
    """``flinucb_update`` for binary rows: observe ``y`` for table row ``row``, then step
    theta (O(d) for the decay, O(m) for the gradient) and the phi of each arm a, whose row
    is ``arm_rows[a]`` (O(m) each); the observation is remembered after the step."""
    gamma, lam, t, i, yi = draw_past(gd, mem_row, mem_y, rng)
    if i >= 0:
        _sparse_step(idx, row_start, row_len, arm_rows, theta, phi, gamma, lam, t, i, yi)
    remember(mem_row, mem_y, gd, row, y, rng)


@njit(cache=True, nogil=True)
def _sparse_step(idx, row_start, row_len, arm_rows, theta, phi, gamma, lam, t, i, yi):
    si = row_start[i]
    mi = row_len[i]
    theta_step_sparse(theta, idx, si, mi, yi, gamma, lam)
    gt = gamma / t
    for a in range(arm_rows.shape[0]):
        c = 0.0
        for k in range(si, si + mi):
            c += phi[a, idx[k]]
        c *= gamma
        r = arm_rows[a]
        for k in range(row_start[r], row_start[r] + row_len[r]):
            phi[a, idx[k]] += gt
        for k in range(si, si + mi):
            phi[a, idx[k]] -= c
