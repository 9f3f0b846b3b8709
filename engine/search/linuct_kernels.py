"""Compiled LinUCT iterations (``engine.search.linuct`` documents the algorithm): the node
pool of ``engine.search.tree`` with one more row, ``DELTA``, a side pool of feature deltas,
and the shared linear model, exact (``engine.bandits.linucb``) or fLinUCB-GD, with a phi_a
per child as the LinUCT paper prints it (``width=arm``, ``arm_values``) or one shared
diagonal phi (``width=gd``/``count``); its learning is in ``engine.search.linuct_model``,
the rest in ``engine.bandits.flinucb``.

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

from ..bandits.linucb import sparse_dot
from ..core.atomics import spin_lock, unlock
from ..core.features import STONE_FRAME, board_row, child_row, flip_row
from ..core.layout import M_TO_PLAY
from .go_priors import prime_children
from .linuct_deltas import DELTA, carry_flipped, expand_with_deltas
# the model's layout and learning; the constants are re-exported for ``linuct``
from .linuct_model import (ARM_GAMMA, ARM_SLOT, ARM_T, COUNT_RIDGE, DIAG_SHIFT,  # noqa: F401
                           N_LAZY, STEP_CAPPED, STEP_NORMALISED, STEP_PAPER, THETA_SCALE,
                           arm_observe, exact_observe, gd_observe)
from .widening import ALL, rank_children, width
from .tree import (FIRST, LOSS, NCHILD, PRIOR_N, PRIOR_W, PROVEN, T_LOCK, T_VLOSS, VISITS, WIN,
                   WINS, record)

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
# vcf_line, points as ``UctScratch``'s; amaf int32[0]: the playouts keep no AMAF record
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
