"""Compiled LinUCT iterations (``engine.search.linuct`` documents the algorithm): the node
pool of ``engine.search.tree`` with one more row, ``DELTA``, a side pool of feature deltas,
and the shared linear model, exact (``engine.bandits.linucb``) or fLinUCB-GD with a diagonal
phi (the step is here, the rest in ``engine.bandits.flinucb``).

Feature rows (``engine.core.features``) are never stored per node.  A child keeps the
*delta* of its move, the indices its move turns on and off, in ``dpool`` at
``ti[DELTA, child]``: ``[n_added, n_removed, added..., removed...]`` (a stone's delta is at
most 16 entries without captures).  The descent keeps the row of every position on the path
in ``rows`` (flat, ``stride`` entries per depth): the root's comes from ``board_row``, each
next one from its parent's and the child's delta.  So a child's score is its parent's plus
the delta's contribution, O(delta) per child for fLinUCB-GD and O(delta^2) for exact
LinUCB (after an O(d m) product per node):

    x_a = x_p + 1_added - 1_removed   (added is disjoint from x_p, removed inside it)
    x_a^T theta   = x_p^T theta + sum_added theta - sum_removed theta
    x_a^T M x_a   = x_p^T M x_p + 2 (sum_added (M x_p) - sum_removed (M x_p))
                    + sum_{added x added} M - 2 sum_{added x removed} M
                    + sum_{removed x removed} M
    x_a^T D x_a   = x_p^T D x_p + sum_added D - sum_removed D      (D diagonal)

Parameters arrive as a float64 array indexed by the constants below; ``WIDTH`` is alpha for
exact LinUCB and kappa for fLinUCB-GD.
"""

import math

import numpy as np
from numba import njit

from ..bandits.flinucb import draw_step, remember, theta_step_sparse
from ..bandits.linucb import linucb_update_sparse, sparse_dot
from ..core import game
from ..core.features import board_row, child_row, move_delta
from ..core.layout import M_MOVES, M_TO_PLAY
from .tree import FIRST, MOVE, NCHILD, T_USED, TI_ROWS, VISITS, WINS, expand

DELTA = TI_ROWS            # the row LinUCT adds to the pool's ti
D_USED = 0                 # dmeta: dpool entries in use
WIDTH, EXPAND_AFTER, RAVE, C, RAVE_K, EXACT = range(6)
N_PARAMS = 6
PASS = -1


# ---- feature deltas --------------------------------------------------------------------


@njit(cache=True, nogil=True)
def attach_deltas(ti, node, s, meta, zob, dpool, dmeta, cs, cmeta, added, removed, work,
                  counts):
    """Store the delta of every child of ``node`` (position s, meta).  Returns False, with
    ``dpool`` as it was, when it lacks room.  Scratch: cs/cmeta like the position, added and
    removed int32[max_active], work from ``features.new_work``, counts int64[2]."""
    used0 = dmeta[D_USED]
    used = used0
    color = meta[M_TO_PLAY]
    first = ti[FIRST, node]
    for c in range(first, first + ti[NCHILD, node]):
        p = ti[MOVE, c]
        if p == PASS:
            counts[0] = 0
            counts[1] = 0
        else:
            game.copy_state(s, meta, cs, cmeta)
            game.play(cs, cmeta, zob, p, color)
            move_delta(s, cs, meta, p, added, removed, work, counts)
        na = counts[0]
        nr = counts[1]
        if used + 2 + na + nr > dpool.shape[0]:
            dmeta[D_USED] = used0
            return False
        ti[DELTA, c] = used
        dpool[used] = na
        dpool[used + 1] = nr
        used += 2
        for k in range(na):
            dpool[used + k] = added[k]
        used += na
        for k in range(nr):
            dpool[used + k] = removed[k]
        used += nr
    dmeta[D_USED] = used
    return True


@njit(cache=True, nogil=True)
def compact_deltas(ti, tmeta, dpool, dmeta):
    """Squeeze out the deltas of nodes the pool no longer holds (after tree reuse): every
    node but the root keeps its delta, packed in node order."""
    used = tmeta[T_USED]
    total = 0
    for i in range(1, used):
        off = ti[DELTA, i]
        total += 2 + dpool[off] + dpool[off + 1]
    packed = np.empty(total, dtype=np.int32)
    o = 0
    for i in range(1, used):
        off = ti[DELTA, i]
        n = 2 + dpool[off] + dpool[off + 1]
        for k in range(n):
            packed[o + k] = dpool[off + k]
        ti[DELTA, i] = o
        o += n
    dpool[:total] = packed
    dmeta[D_USED] = total


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


@njit(cache=True, nogil=True, inline='always')
def child_values(ti, tf, node, dpool, rows, start, m, theta, ainv, uq, diag, params, out):
    """The tree-policy value of each child of ``node`` (block order) into ``out``; the
    node's feature row is rows[start:start+m].  Returns the number of children.
    LinUCB(a) = x_a^T theta + width sqrt(x_a^T A^-1 x_a) (exact) or sqrt(x_a^T D x_a)
    (fLinUCB-GD); with RAVE, value = beta LinUCB + (1 - beta) UCB1, beta = sqrt(k / (3 n
    + k)), and an unvisited child (beta = 1) scores LinUCB alone.  ``uq`` is scratch."""
    width = params[WIDTH]
    exact = params[EXACT] != 0.0
    rave = params[RAVE] != 0.0
    pdot = sparse_dot(rows, start, m, theta)
    if exact:
        for i in range(uq.shape[0]):
            uq[i] = 0.0
        for k in range(start, start + m):
            j = rows[k]
            for i in range(uq.shape[0]):
                uq[i] += ainv[j, i]   # A^-1 x_p as a sum of rows (A^-1 is symmetric)
        pq = sparse_dot(rows, start, m, uq)
    else:
        pq = sparse_dot(rows, start, m, diag)
    explore = params[C] * math.sqrt(math.log(max(ti[VISITS, node], 1)))
    rave_k = params[RAVE_K]
    first = ti[FIRST, node]
    nch = ti[NCHILD, node]
    for a in range(nch):
        c = first + a
        off = ti[DELTA, c]
        na = dpool[off]
        nr = dpool[off + 1]
        ad = off + 2
        rm = ad + na
        dot = pdot + sparse_dot(dpool, ad, na, theta) - sparse_dot(dpool, rm, nr, theta)
        if exact:
            q = (pq + 2.0 * (sparse_dot(dpool, ad, na, uq) - sparse_dot(dpool, rm, nr, uq))
                 + _block_sum(ainv, dpool, ad, na, ad, na)
                 - 2.0 * _block_sum(ainv, dpool, ad, na, rm, nr)
                 + _block_sum(ainv, dpool, rm, nr, rm, nr))
        else:
            q = pq + sparse_dot(dpool, ad, na, diag) - sparse_dot(dpool, rm, nr, diag)
        v = dot + width * math.sqrt(max(q, 0.0))
        n = ti[VISITS, c]
        if rave and n > 0:
            beta = math.sqrt(rave_k / (3.0 * n + rave_k))
            ucb = tf[WINS, c] / n + explore / math.sqrt(n)
            v = beta * v + (1.0 - beta) * ucb
        out[a] = v
    return nch


# ---- the linear model's observations ---------------------------------------------------


@njit(cache=True, nogil=True, inline='always')
def gd_observe(theta, diag, gd, mem_row, mem_y, table, table_len, rows, start, m, y, rng):
    """One fLinUCB-GD step after observing (rows[start:start+m], y).  The reservoir's row
    ids are its slots: ``table`` keeps a copy of each remembered row (``stride`` entries a
    slot, ``stride = table.shape[0] // table_len.shape[0]``), since tree nodes keep no rows.
    theta takes the library's step; the diagonal phi D takes the same stochastic-gradient
    step restricted to diagonal matrices, D_j += gamma (1/t - [j in x_i] D_j), with the same
    drawn past observation x_i."""
    slot = remember(mem_row, mem_y, gd, 0, y, rng)
    if slot >= 0:
        stride = table.shape[0] // table_len.shape[0]
        base = slot * stride
        for k in range(m):
            table[base + k] = rows[start + k]
        table_len[slot] = m
        mem_row[slot] = slot
    gamma, lam, t, i, yi = draw_step(gd, mem_row, mem_y, rng)
    si = i * (table.shape[0] // table_len.shape[0])
    mi = table_len[i]
    keep = 1.0 - gamma
    for k in range(si, si + mi):
        diag[table[k]] *= keep
    gt = gamma / t
    for j in range(diag.shape[0]):
        diag[j] += gt
    theta_step_sparse(theta, table, si, mi, yi, gamma, lam)


@njit(cache=True, nogil=True)
def backup(ti, tf, path, depth, root_color, winner, rows, stride, row_len, exact, theta,
           ainv, u, diag, gd, mem_row, mem_y, table, table_len, rng):
    """Visits and rewards up the path; every node below the root is an observation of the
    linear model: its feature row and the reward of the player who made its move."""
    for d in range(depth, -1, -1):
        node = path[d]
        mover = root_color if d % 2 == 1 else 3 - root_color
        r = 1.0 if winner == mover else 0.5 if winner == 0 else 0.0
        ti[VISITS, node] += 1
        tf[WINS, node] += r
        if d > 0:
            if exact:
                linucb_update_sparse(ainv, theta, rows, d * stride, row_len[d], r, u)
            else:
                gd_observe(theta, diag, gd, mem_row, mem_y, table, table_len, rows,
                           d * stride, row_len[d], r, rng)


# ---- the iterations --------------------------------------------------------------------


@njit(cache=True, nogil=True)
def expand_with_deltas(ti, tf, tmeta, node, s, meta, zob, rng, cand, dpool, dmeta, cs, cmeta,
                       added, removed, work, counts):
    """``tree.expand`` (no root filter) plus the children's deltas; the expansion is undone
    when the delta pool lacks room.  Returns the number of children, or -1."""
    k = expand(ti, tf, tmeta, node, s, meta, rng, cand, np.zeros(0, dtype=np.uint8))
    if k > 0 and not attach_deltas(ti, node, s, meta, zob, dpool, dmeta, cs, cmeta, added,
                                   removed, work, counts):
        ti[NCHILD, node] = 0     # the children were the last block allocated
        ti[FIRST, node] = -1
        tmeta[T_USED] -= k
        return -1
    return k


@njit(cache=True, nogil=True)
def run(ti, tf, tmeta, dpool, dmeta, root_s, root_meta, zob, rng, komi, params, count,
        max_sim, theta, ainv, u, uq, diag, gd, mem_row, mem_y, table, table_len,
        ss, smeta, cs, cmeta, path, rows, row_len, added, removed, work, counts, cand,
        values):
    """Up to ``count`` iterations from the root position, stopping early once ``max_sim``
    moves have been simulated; the root's children must carry their deltas.  Model: theta,
    plus ainv/u/uq (exact) or diag/gd/mem_row/mem_y/table/table_len (fLinUCB-GD); the other
    kind's arrays may be empty.  Scratch: ss/smeta and cs/cmeta like the position, path
    int32[max depth + 1], rows int32[(max depth + 1) * max_active], row_len int64[max depth
    + 1], added/removed int32[max_active], work, counts int64[2], cand int32[P + 1], values
    float64[P + 1].  Returns (iterations done, moves simulated in tree and playouts)."""
    expand_after = params[EXPAND_AFTER]
    exact = params[EXACT] != 0.0
    no_amaf = np.zeros(0, dtype=np.int8)
    root_color = root_meta[M_TO_PLAY]
    max_depth = path.shape[0] - 1
    stride = rows.shape[0] // path.shape[0]
    row_len[0] = board_row(root_s, root_meta, rows[:stride])
    done = 0
    sim = 0
    while done < count and sim < max_sim:
        game.copy_state(root_s, root_meta, ss, smeta)
        node = 0
        depth = 0
        path[0] = 0
        while depth < max_depth and not game.is_terminal(ss, smeta):
            if ti[NCHILD, node] == 0:
                if ti[VISITS, node] < expand_after:
                    break
                if expand_with_deltas(ti, tf, tmeta, node, ss, smeta, zob, rng, cand, dpool,
                                      dmeta, cs, cmeta, added, removed, work, counts) <= 0:
                    break
            start = depth * stride
            nch = child_values(ti, tf, node, dpool, rows, start, row_len[depth], theta,
                               ainv, uq, diag, params, values)
            best = 0
            for a in range(1, nch):
                if values[a] > values[best]:
                    best = a
            node = ti[FIRST, node] + best
            game.play(ss, smeta, zob, ti[MOVE, node], smeta[M_TO_PLAY])
            off = ti[DELTA, node]
            na = dpool[off]
            nr = dpool[off + 1]
            row_len[depth + 1] = child_row(rows[start:start + stride], row_len[depth],
                                           dpool[off + 2:off + 2 + na], na,
                                           dpool[off + 2 + na:off + 2 + na + nr], nr,
                                           rows[start + stride:start + 2 * stride])
            depth += 1
            path[depth] = node
        sim += depth
        if game.is_terminal(ss, smeta):
            winner = game.terminal_winner(ss, smeta, komi)
        else:
            begin = smeta[M_MOVES]
            winner = game.playout_winner(ss, smeta, zob, rng, komi, no_amaf)
            sim += smeta[M_MOVES] - begin
        backup(ti, tf, path, depth, root_color, winner, rows, stride, row_len, exact, theta,
               ainv, u, diag, gd, mem_row, mem_y, table, table_len, rng)
        done += 1
    return done, sim
