"""Compiled LinUCT iterations (``engine.search.linuct`` documents the algorithm): the node
pool of ``engine.search.tree`` with one more row, ``DELTA``, a side pool of feature deltas,
and the shared linear model, exact (``engine.bandits.linucb``) or fLinUCB-GD, with a phi_a
per child as the LinUCT paper prints it (``width=arm``, ``arm_values``) or one shared
diagonal phi (``width=gd``/``count``) (the steps are here, the rest in
``engine.bandits.flinucb``).

Feature rows (``engine.core.features``) are never stored per node.  A child keeps the
*delta* of its move (``engine.search.linuct_deltas``), the indices its move turns on and
off, in ``dpool`` at ``ti[DELTA, child]``: ``[n_added, n_removed, added..., removed...]``
(a stone's delta is at most 16 entries without captures).  The descent keeps the row of
every position on the path in ``rows`` (flat, ``stride`` entries per depth): the root's
comes from ``board_row``, each next one from its parent's and the child's delta.  So a
child's score is its parent's plus the delta's contribution, O(delta) per child for
fLinUCB-GD and O(delta^2) for exact LinUCB (after an O(d m) product per node):

    x_a = x_p + 1_added - 1_removed   (added is disjoint from x_p, removed inside it)
    x_a^T theta   = x_p^T theta + sum_added theta - sum_removed theta
    x_a^T M x_a   = x_p^T M x_p + 2 (sum_added (M x_p) - sum_removed (M x_p))
                    + sum_{added x added} M - 2 sum_{added x removed} M
                    + sum_{removed x removed} M
    x_a^T D x_a   = x_p^T D x_p + sum_added D - sum_removed D      (D diagonal)

With fLinUCB-GD the descent does not even sum the rows: the chosen child's sums become the
next node's x_p^T theta and x_p^T D x_p.  Its model is kept lazily, so that an observation
costs O(m), not O(d): theta = lazy[THETA_SCALE] * (the theta array) takes the decay of
every step in the scale, and D = (the diag array) + lazy[DIAG_SHIFT] takes the gamma / t
every entry gets in the shift.  With ``width=count`` D is a count's inverse, set entry by
entry for the features an observation has (O(m) too), and the shift stays 0.

The mover encoding (``mover``) writes each node's row and delta in the frame of the player
who made its move (``engine.core.features``), so that siblings, which share a mover, are
scored in one frame and the model's y, that player's reward, comes with rows that say
whose stones are where.  Frames alternate down the path: a child's row is its parent's
flipped (``flip_row``) plus its delta, and with fLinUCB-GD the descent carries each node's
sums in both frames (``carry``: its children's frame, then its own), the chosen child's
other-frame sums being its parent's own-frame sums plus its delta flipped.

Parameters arrive as ``LinuctParams``; ``width`` is alpha for exact LinUCB and kappa for
fLinUCB-GD.  The descent, expansion and backup are UCT's (``engine.search.tree_search``);
the hooks at the end of this module are what LinUCT puts in them.
"""

import math
from collections import namedtuple

import numpy as np
from numba import njit

from ..bandits.flinucb import GD_SEEN, draw_past, draw_step, remember, theta_step_scaled
from ..bandits.linucb import linucb_update_sparse, sparse_dot
from ..core.atomics import spin_lock, unlock
from ..core.features import STONE_FRAME, board_row, child_row, flip_row
from ..core.layout import M_TO_PLAY
from .go_priors import prime_children
from .linuct_deltas import DELTA, carry_flipped, expand_with_deltas
from .widening import ALL, rank_children, width
from .tree import (FIRST, LOSS, NCHILD, PRIOR_N, PRIOR_W, PROVEN, T_LOCK, T_VLOSS, VISITS, WIN,
                   WINS, record)

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
_U1, _U2, _U8 = np.uint32(1), np.uint32(2), np.uint32(8)   # gd_values' unsigned offsets

# Each field is the LinUCT option of its name (``linuct.LinuctOptions``, where it is
# described), but the ones ``linuct.LinuctSearcher._kernel_params`` derives: width, the
# exploration factor of the bandit in use (alpha or kappa); exact: exact LinUCB, else
# fLinUCB-GD; sa_stones: the self-atari size the priors penalise (``know.prior`` empty: no
# priors); mover: the mover encoding of the rows; count_width (fLinUCB-GD): D counts
# observations (``width=count``), takes no gradient step; arm (fLinUCB-GD): a phi_a per
# child, the paper's (``width=arm``); step: a STEP_* constant; bias:
# the priors count in the values only with rave
LinuctParams = namedtuple("LinuctParams",
                          "width expand_after exact rave c rave_k solver sa_stones "
                          "threat_nodes mover count_width arm step widen widen_after widen_rate "
                          "bias")

# The shared linear model: theta, plus ainv/u/uq (exact) or diag/lazy/gd/mem_row/mem_y/
# table/table_len (fLinUCB-GD); the other kind's arrays are empty; seen float64[d] the
# observations each feature was active in (``width=count``; empty otherwise); phi
# float32[nodes, d] each node's phi_a (``width=arm``: the pool's rows; [0, 0] otherwise)
LinuctModel = namedtuple("LinuctModel",
                         "theta ainv u uq diag lazy gd mem_row mem_y table table_len seen phi")

# Work arrays of one search: ss/smeta (the simulation) and cs/cmeta (a child, for its
# delta) like the position; path int32[max depth + 1]; rows int32[(max depth + 1) *
# max_active] the feature row of each position on the path, row_len int64[max depth + 1];
# added/removed int32[max_active], work (``features.new_work``), counts int64[2] for
# ``move_delta``; cand int32[P + 1]; values float64[P + 1] the children's scores, sums
# float64[2, P + 1] their row sums (fLinUCB-GD), carry float64[4] the current node's (the
# mover encoding: in its children's frame, then in its own); flipped int32[max_active] a
# row seen from the other frame, xa int32[max_active] a child's row (``width=arm``);
# vcf_line, points as ``UctScratch``'s; amaf int8[0]: the playouts keep no AMAF record
LinuctScratch = namedtuple("LinuctScratch", "ss smeta cs cmeta path rows row_len added removed "
                                            "work counts cand values sums carry flipped xa "
                                            "vcf_line points amaf")


# ---- exact LinUCB's block sums over deltas --------------------------------------------


@njit(cache=True, nogil=True, inline='always')
def _block_sum(ainv, dpool, a0, na, b0, nb):
    """sum over i in dpool[a0:a0+na], j in dpool[b0:b0+nb] of ainv[i, j]."""
    s = 0.0
    for k in range(a0, a0 + na):
        i = dpool[k]
        for l in range(b0, b0 + nb):
            s += ainv[i, dpool[l]]
    return s


# ---- selection -------------------------------------------------------------------------
#
# The kernels below run once per node on the path, in ``tree_search.run``'s hot loop,
# where numba's atomic reference counting would cost as much as their arithmetic.
# Compiled as separate functions whose bodies are loops, they keep none: numba prunes the
# counts of a callee's arguments that live through its whole body, but not those of an
# inlined function (inline='always') whose arrays die on some branches only, nor those of
# array slices.


@njit(cache=True, nogil=True)
def gd_values(ti, node, dpool, pdot, pq, m, theta, diag, lazy, width, out, sums):
    """fLinUCB-GD's LinUCB(a) = x_a^T theta + width sqrt(x_a^T D x_a) of each child of
    ``node`` (block order) into ``out``, with theta and D as ``lazy`` keeps them.  The
    node's row has m indices, whose theta and diag entries (the arrays, before ``lazy``)
    sum to pdot and pq; the children's sums go to ``sums[0]`` and ``sums[1]``, so the
    descent carries them down the path instead of summing each row afresh.  Returns the
    number of children."""
    scale = lazy[THETA_SCALE]
    shift = lazy[DIAG_SHIFT]
    first = ti[FIRST, node]
    nch = ti[NCHILD, node]
    for a in range(nch):
        # unsigned offsets and indices: numba then drops its negative-index handling,
        # a third of this loop's time (and uint + int would turn signed again)
        off = np.uint32(ti[DELTA, first + a])
        na = np.uint32(dpool[off])
        nr = np.uint32(dpool[off + _U1])
        ad = off + _U2
        rm = ad + na
        # one pass over the delta for both sums (its indices are the costly loads); the
        # first 8 added indices (a stone's own bits) in a loop of fixed length
        at = 0.0
        aq = 0.0
        k0 = ad
        if na >= _U8:
            for k in range(ad, ad + _U8):
                j = np.uint32(dpool[k])
                at += theta[j]
                aq += diag[j]
            k0 = ad + _U8
        for k in range(k0, rm):
            j = np.uint32(dpool[k])
            at += theta[j]
            aq += diag[j]
        rt = 0.0
        rq = 0.0
        for k in range(rm, rm + nr):
            j = np.uint32(dpool[k])
            rt += theta[j]
            rq += diag[j]
        dot = pdot + at - rt
        q = pq + aq - rq
        sums[0, a] = dot
        sums[1, a] = q
        q += (m + (np.int64(na) - np.int64(nr))) * shift
        out[a] = scale * dot + width * math.sqrt(max(q, 0.0))
    return nch


@njit(cache=True, nogil=True)
def exact_values(ti, node, dpool, rows, start, m, theta, ainv, uq, width, out):
    """Exact LinUCB(a) = x_a^T theta + width sqrt(x_a^T A^-1 x_a) of each child of ``node``
    into ``out``, as ``gd_values``; ``uq`` is scratch.  Returns the number of children."""
    for i in range(uq.shape[0]):
        uq[i] = 0.0
    for k in range(start, start + m):
        j = rows[k]
        for i in range(uq.shape[0]):
            uq[i] += ainv[j, i]   # A^-1 x_p as a sum of rows (A^-1 is symmetric)
    pdot = sparse_dot(rows, start, m, theta)
    pq = sparse_dot(rows, start, m, uq)
    first = ti[FIRST, node]
    nch = ti[NCHILD, node]
    for a in range(nch):
        off = ti[DELTA, first + a]
        na = dpool[off]
        nr = dpool[off + 1]
        ad = off + 2
        rm = ad + na
        dot = pdot + sparse_dot(dpool, ad, na, theta) - sparse_dot(dpool, rm, nr, theta)
        q = (pq + 2.0 * (sparse_dot(dpool, ad, na, uq) - sparse_dot(dpool, rm, nr, uq))
             + _block_sum(ainv, dpool, ad, na, ad, na)
             - 2.0 * _block_sum(ainv, dpool, ad, na, rm, nr)
             + _block_sum(ainv, dpool, rm, nr, rm, nr))
        out[a] = dot + width * math.sqrt(max(q, 0.0))
    return nch


@njit(cache=True, nogil=True)
def arm_values(ti, node, dpool, prow, p0, m, theta, phi, model, width, out, xa):
    """The LinUCT paper's fLinUCB-GD with a phi_a per arm (``width=arm``; Algorithm 3):
    each child a of ``node`` (whose row is prow[p0:p0+m], in the children's frame) first
    takes its phi step with the iteration's draw x_i (``arm_observe``),

        phi_a <- phi_a + gamma_t (x_a / t - (phi_a^T x_i) x_i)          (eq. 5)

    then LinUCB(a) = x_a^T theta + width sqrt(x_a^T phi_a) goes into ``out``.  phi_a is
    row a of ``phi`` (float32, one row per node: ``FeatureNodePool``'s); x_a is built in
    ``xa`` from the parent's row and the child's delta.  O(m) per child.  Returns the
    number of children."""
    lazy, table, table_len = model.lazy, model.table, model.table_len
    tstride = table.shape[0] // max(table_len.shape[0], 1)
    slot = np.int64(lazy[ARM_SLOT])
    gamma, t = lazy[ARM_GAMMA], lazy[ARM_T]
    scale = lazy[THETA_SCALE]
    si = slot * tstride
    mi = table_len[slot] if slot >= 0 else 0
    first = ti[FIRST, node]
    nch = ti[NCHILD, node]
    for a in range(nch):
        c = first + a
        off = ti[DELTA, c]
        na = dpool[off]
        nr = dpool[off + 1]
        ma = child_row(prow, p0, m, dpool, off + 2, na, dpool, off + 2 + na, nr, xa, 0)
        if mi > 0:
            g = 0.0
            for k in range(si, si + mi):
                g += phi[c, table[k]]
            g *= gamma
            gt = gamma / t
            for k in range(ma):
                phi[c, xa[k]] += gt
            for k in range(si, si + mi):
                phi[c, table[k]] -= g
        dot = 0.0
        q = 0.0
        for k in range(ma):
            j = xa[k]
            dot += theta[j]
            q += phi[c, j]
        out[a] = scale * dot + width * math.sqrt(max(q, 0.0))
    return nch


@njit(cache=True, nogil=True)
def rave_mix(ti, tf, node, c, rave_k, out):
    """Mix UCB1 into the LinUCB values ``out`` of ``node``'s children: beta LinUCB +
    (1 - beta) UCB1, beta = sqrt(k / (3 n + k)); an unvisited child (beta = 1) keeps its
    LinUCB value.  A child's virtual games (priors) count in n and its virtual wins in
    UCB1's mean, as in UCT; the parent's ln N counts real visits."""
    explore = c * math.sqrt(math.log(max(ti[VISITS, node], 1)))
    first = ti[FIRST, node]
    for a in range(ti[NCHILD, node]):
        n = ti[VISITS, first + a] + ti[PRIOR_N, first + a]
        if n > 0:
            beta = math.sqrt(rave_k / (3.0 * n + rave_k))
            ucb = (tf[WINS, first + a] + tf[PRIOR_W, first + a]) / n + explore / math.sqrt(n)
            out[a] = beta * out[a] + (1.0 - beta) * ucb


# ---- the linear model's observations ---------------------------------------------------


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


# ---- hooks of the shared iteration (``tree_search``) ----------------------------------


@njit(cache=True, nogil=True)
def best_child(ti, first, nch, values, solver, width=ALL):
    """The index in the block of the highest value among the first ``width`` children
    (``widening``; proven losses do not count) (the first of equals); with ``solver``
    a proven win at once, proven losses only when nothing else is left."""
    best = -1
    opened = 0
    for a in range(nch):
        if solver:
            v = ti[PROVEN, first + a]
            if v == WIN:
                return a
            if v == LOSS:
                continue
        if opened == width:
            break
        opened += 1
        if best < 0 or values[a] > values[best]:
            best = a
    return max(best, 0)


@njit(cache=True, nogil=True)
def begin(params, model, pos, scratch):
    # the root's mover made the move before it: the player not to play
    frame = 3 - pos.meta[M_TO_PLAY] if params.mover else STONE_FRAME
    scratch.row_len[0] = board_row(pos.s, pos.meta, scratch.rows, frame)


@njit(cache=True, nogil=True, inline='always')
def begin_descent(params, model, scratch):
    if not params.exact and not params.arm:   # the root's row sums, carried by gd_values
        rows, m, carry = scratch.rows, scratch.row_len[0], scratch.carry
        if params.mover:
            carry[2] = sparse_dot(rows, 0, m, model.theta)
            carry[3] = sparse_dot(rows, 0, m, model.diag)
            rows = scratch.flipped
            flip_row(scratch.rows, np.int64(0), m, rows)   # as the other calls: one compile
        carry[0] = sparse_dot(rows, 0, m, model.theta)
        carry[1] = sparse_dot(rows, 0, m, model.diag)


@njit(cache=True, nogil=True)
def grow(params, tree, node, scratch, pos, know, rng):
    """Expand the leaf ``node`` with its children's deltas, and their priors if any."""
    k = expand_with_deltas(tree, node, pos.game, scratch.ss, scratch.smeta, pos.zob, rng,
                           scratch, params.mover)
    if k > 0:
        prime_children(tree, node, scratch, pos, know, params.sa_stones)
        if params.widen > 0:
            rank_children(tree.ti, tree.tf, node, params.bias)
    return k


@njit(cache=True, nogil=True, inline='always')
def choose(params, model, tree, node, depth, scratch):
    # called from the iteration as one function, with ``stepped``, ``begin_descent`` and
    # ``observe`` compiled without reference counts (``tree_search._inline_uct``)
    ti = tree.ti
    rows = scratch.rows
    values = scratch.values
    m = scratch.row_len[depth]
    if params.exact or params.arm:
        start = depth * (rows.shape[0] // scratch.path.shape[0])
        if params.mover:   # the children's frame
            flip_row(rows, start, m, scratch.flipped)
            rows = scratch.flipped
            start = 0
        if params.arm:
            nch = arm_values(ti, node, tree.dpool, rows, start, m, model.theta, model.phi,
                             model, params.width, values, scratch.xa)
        else:
            nch = exact_values(ti, node, tree.dpool, rows, start, m, model.theta,
                               model.ainv, model.uq, params.width, values)
    else:
        nch = gd_values(ti, node, tree.dpool, scratch.carry[0], scratch.carry[1], m,
                        model.theta, model.diag, model.lazy, params.width, values,
                        scratch.sums)
    if params.rave:
        rave_mix(ti, tree.tf, node, params.c, params.rave_k, values)
    first = ti[FIRST, node]
    best = best_child(ti, first, nch, values, params.solver,
                      width(params.widen, params.widen_after, params.widen_rate,
                            ti[VISITS, node]))
    if not params.exact and not params.arm:
        scratch.carry[0] = scratch.sums[0, best]
        scratch.carry[1] = scratch.sums[1, best]
        if params.mover:
            carry_flipped(tree.dpool, ti[DELTA, first + best], model.theta, model.diag,
                          scratch.carry)
    return first + best


@njit(cache=True, nogil=True, inline='always')
def stepped(params, tree, node, depth, scratch):
    """The row of the position at ``depth``: its parent's (flipped into its frame with
    ``mover``) with ``node``'s delta."""
    rows = scratch.rows
    stride = rows.shape[0] // scratch.path.shape[0]
    dpool = tree.dpool
    off = tree.ti[DELTA, node]
    na = dpool[off]
    nr = dpool[off + 1]
    start = (depth - 1) * stride
    m = scratch.row_len[depth - 1]
    parent, p0 = rows, start
    if params.mover:
        flip_row(rows, start, m, scratch.flipped)
        parent, p0 = scratch.flipped, 0
    scratch.row_len[depth] = child_row(parent, p0, m, dpool, off + 2, na, dpool,
                                       off + 2 + na, nr, rows, start + stride)


@njit(cache=True, nogil=True, inline='always')
def observe(params, model, tree, depth, root_color, winner, scratch, rng):
    """Visits and rewards up the path (``tree.record``); every node below the root is an
    observation of the linear model, leaf first: its feature row and the reward y of the
    player who made its move."""
    path, rows, row_len = scratch.path, scratch.rows, scratch.row_len
    stride = rows.shape[0] // path.shape[0]
    tmeta = tree.tmeta
    shared = tmeta[T_VLOSS] != 0
    record(tree.ti, tree.tf, path, depth, root_color, winner, 1 - tmeta[T_VLOSS])
    # on several threads the model's step is a critical section (its reservoir, lazy
    # scale and Sherman-Morrison update are read-modify-writes of many entries); the
    # selections reading it meanwhile may see a step half made: a score a little off
    if shared:
        spin_lock(tmeta, T_LOCK)
    if params.exact:
        exact_observe(model, rows, row_len, stride, depth, root_color, winner)
    elif params.arm:
        arm_observe(model, rows, row_len, stride, depth, root_color, winner, rng, params.step)
    else:
        gd_observe(model, rows, row_len, stride, depth, root_color, winner, rng,
                   params.count_width, params.step)
    if shared:
        unlock(tmeta, T_LOCK)
