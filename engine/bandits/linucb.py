"""Exact LinUCB (Li, Chu, Langford & Schapire 2010) with one shared coefficient vector, over
arrays, in a dense form (real-valued feature vectors) and a sparse form (binary feature
rows given as lists of active indices, as ``engine.core.features`` writes them).

Model: E[r | x] = x^T theta*.  After observations (x_s, r_s)

    A = I + sum_s x_s x_s^T,   b = sum_s r_s x_s,   theta = A^-1 b
    LinUCB(x) = x^T theta + alpha * sqrt(x^T A^-1 x)

State the caller allocates: ``ainv`` float64[d, d] (A^-1, starts as I, see ``linucb_init``)
and ``theta`` float64[d] (starts at 0).  b is never stored: an observation updates both by
the Sherman-Morrison formula and its recursive-least-squares twin, with u = A^-1 x taken
before the update and denom = 1 + x^T u,

    A^-1  <-  A^-1 - u u^T / denom
    theta <-  theta + u (r - x^T theta) / denom

which is O(d^2) per observation (the rank-one update; u costs O(d^2) dense and O(d m) for m
active indices).  Scoring one arm costs O(d^2) dense and O(m^2) sparse.  When the same arms
are scored again and again (a fixed arm set, a tree node's children) their quadratic forms
q_a = x_a^T A^-1 x_a can be cached and kept exact in O(d) (O(m) sparse) per arm and update:

    q_a  <-  q_a - (x_a^T u)^2 / denom

(``linucb_update`` leaves u in its ``u`` argument for that).

Sparse rows: a row is ``idx[start : start + m]``, the indices whose feature is 1; passing the
flat array with an offset lets a caller keep many rows in one buffer without making views
in its hot loop.
"""

import math

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def linucb_init(ainv, theta):
    """No observations yet: A^-1 = I, theta = 0."""
    d = theta.shape[0]
    for i in range(d):
        for j in range(d):
            ainv[i, j] = 0.0
        ainv[i, i] = 1.0
        theta[i] = 0.0


@njit(cache=True, nogil=True, inline='always')
def _rank_one(ainv, u, denom):
    """A^-1 -= u u^T / denom, a row at a time so the inner loop is contiguous."""
    d = u.shape[0]
    inv = 1.0 / denom
    for i in range(d):
        ui = u[i] * inv
        if ui != 0.0:
            for j in range(d):
                ainv[i, j] -= ui * u[j]


@njit(cache=True, nogil=True, inline='always')
def _rls_step(ainv, theta, u, pred, xu, r):
    """Shared tail of both updates once u = A^-1 x, x^T theta and x^T u are known."""
    denom = 1.0 + xu
    gain = (r - pred) / denom
    for i in range(theta.shape[0]):
        theta[i] += gain * u[i]
    _rank_one(ainv, u, denom)
    return denom


# ---- dense feature vectors -------------------------------------------------------------


@njit(cache=True, nogil=True, inline='always')
def dot(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * y[i]
    return s


@njit(cache=True, nogil=True, inline='always')
def row_dot(m, a, y):
    """m[a] . y without making the view m[a]."""
    s = 0.0
    for i in range(y.shape[0]):
        s += m[a, i] * y[i]
    return s


@njit(cache=True, nogil=True, inline='always')
def rows_dot(m, a, n, b):
    """m[a] . n[b] without making views."""
    s = 0.0
    for i in range(m.shape[1]):
        s += m[a, i] * n[b, i]
    return s


@njit(cache=True, nogil=True)
def quad_form(ainv, x):
    """x^T A^-1 x, O(d^2)."""
    d = x.shape[0]
    s = 0.0
    for i in range(d):
        xi = x[i]
        if xi != 0.0:
            s += xi * row_dot(ainv, i, x)
    return s


@njit(cache=True, nogil=True)
def linucb_score(x, theta, ainv, alpha):
    """LinUCB of one dense feature vector, O(d^2)."""
    return dot(x, theta) + alpha * math.sqrt(max(quad_form(ainv, x), 0.0))


@njit(cache=True, nogil=True)
def linucb_update(ainv, theta, x, r, u):
    """Observe reward ``r`` for dense features ``x``; ``u`` (float64[d]) receives A^-1 x as it
    was before the update.  Returns denom = 1 + x^T u (for ``refresh_quads``)."""
    d = x.shape[0]
    for i in range(d):
        u[i] = 0.0
    # A^-1 is symmetric, so A^-1 x is a sum of rows: contiguous, and skips zero features.
    for j in range(d):
        xj = x[j]
        if xj != 0.0:
            for i in range(d):
                u[i] += xj * ainv[j, i]
    return _rls_step(ainv, theta, u, dot(x, theta), dot(x, u), r)


@njit(cache=True, nogil=True)
def init_quads(X, ainv, q):
    """q[a] = X[a]^T A^-1 X[a] for every row of X (O(K d^2), once)."""
    for a in range(X.shape[0]):
        s = 0.0
        for i in range(X.shape[1]):
            xi = X[a, i]
            if xi != 0.0:
                t = 0.0
                for j in range(X.shape[1]):
                    t += ainv[i, j] * X[a, j]
                s += xi * t
        q[a] = s


@njit(cache=True, nogil=True)
def refresh_quads(X, q, u, denom):
    """Keep cached q[a] = X[a]^T A^-1 X[a] exact after ``linucb_update`` returned u, denom."""
    for a in range(X.shape[0]):
        xu = row_dot(X, a, u)
        q[a] -= xu * xu / denom


@njit(cache=True, nogil=True)
def linucb_scores_cached(X, theta, q, alpha, out):
    """LinUCB of every row of X from cached quadratic forms q, O(K d)."""
    for a in range(X.shape[0]):
        out[a] = row_dot(X, a, theta) + alpha * math.sqrt(max(q[a], 0.0))


# ---- sparse binary feature rows --------------------------------------------------------


@njit(cache=True, nogil=True, inline='always')
def sparse_dot(idx, start, m, v):
    """x^T v for the binary row idx[start:start+m]: m loads, not d.  The indices are read
    unsigned, so numba leaves out its negative-index handling."""
    s = 0.0
    for k in range(start, start + m):
        s += v[np.uint32(idx[k])]
    return s


@njit(cache=True, nogil=True)
def sparse_quad_form(ainv, idx, start, m):
    """x^T A^-1 x for a binary row, O(m^2)."""
    s = 0.0
    for k in range(start, start + m):
        i = idx[k]
        for l in range(start, start + m):
            s += ainv[i, idx[l]]
    return s


@njit(cache=True, nogil=True, inline='always')
def linucb_score_sparse(idx, start, m, theta, ainv, alpha):
    """LinUCB of one binary feature row, O(m^2)."""
    return (sparse_dot(idx, start, m, theta)
            + alpha * math.sqrt(max(sparse_quad_form(ainv, idx, start, m), 0.0)))


@njit(cache=True, nogil=True)
def linucb_update_sparse(ainv, theta, idx, start, m, r, u):
    """``linucb_update`` for a binary row: u = A^-1 x costs O(d m), the rank-one update
    O(d^2).  Returns denom = 1 + x^T u."""
    d = theta.shape[0]
    for i in range(d):
        u[i] = 0.0
    for k in range(start, start + m):
        j = idx[k]
        for i in range(d):
            u[i] += ainv[j, i]
    return _rls_step(ainv, theta, u, sparse_dot(idx, start, m, theta),
                     sparse_dot(idx, start, m, u), r)
