"""LinUCT's feature deltas (``engine.search.linuct_kernels`` documents their layout): a
child's delta is stored in the tree's ``dpool`` when its parent grows, in the frame of the
child's mover with the mover encoding; tree reuse squeezes out the dropped ones; and the
mover encoding's descent reads a chosen child's delta in the other frame.
"""

import numpy as np
from numba import njit

from ..core import game
from ..core.atomics import atomic_cas, atomic_load
from ..core.features import STONE_FRAME, flip, move_delta
from ..core.layout import M_TO_PLAY, PASS
from .tree import FIRST, MOVE, NCHILD, T_USED, TI_ROWS, expand, nchild

DELTA = TI_ROWS            # the row LinUCT adds to the pool's ti
D_USED = 0                 # dmeta: dpool entries in use


@njit(cache=True, nogil=True)
def attach_deltas(tree, node, g, s, meta, zob, scratch, mover):
    """Store the delta of every child of ``node`` (position s, meta) in the tree's
    ``dpool``, in the children's mover's frame with ``mover``.  Returns False, with
    ``dpool`` as it was, when it lacks room.  Scratch: ``LinuctScratch``'s cs, cmeta,
    added, removed, work and counts."""
    ti, dpool, dmeta = tree.ti, tree.dpool, tree.dmeta
    cs, cmeta, added, removed = scratch.cs, scratch.cmeta, scratch.added, scratch.removed
    work, counts = scratch.work, scratch.counts
    used0 = dmeta[D_USED]
    end = used0
    color = meta[M_TO_PLAY]
    frame = color if mover else STONE_FRAME
    first = ti[FIRST, node]
    for c in range(first, first + nchild(ti, node)):   # hidden while claimed: tree.expand
        p = ti[MOVE, c]
        if p == PASS:
            counts[0] = 0
            counts[1] = 0
        else:
            game.copy_state(g, s, meta, cs, cmeta)
            game.play(g, cs, cmeta, zob, p, color)
            move_delta(s, cs, meta, p, added, removed, work, counts, frame)
        na = counts[0]
        nr = counts[1]
        # each delta reserved on its own, for threads expanding other nodes at once
        while True:
            used = atomic_load(dmeta, D_USED)
            if used + 2 + na + nr > dpool.shape[0]:
                # give the entries back when they are the last ones (always, on one thread)
                atomic_cas(dmeta, D_USED, end, used0)
                return False
            if atomic_cas(dmeta, D_USED, used, used + 2 + na + nr) == used:
                break
        ti[DELTA, c] = used
        dpool[used] = na
        dpool[used + 1] = nr
        used += 2
        for k in range(na):
            dpool[used + k] = added[k]
        used += na
        for k in range(nr):
            dpool[used + k] = removed[k]
        end = used + nr
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


@njit(cache=True, nogil=True)
def expand_with_deltas(tree, node, g, s, meta, zob, rng, scratch, mover):
    """``tree.expand`` (no root filter) plus the children's deltas; the expansion is undone
    when the delta pool lacks room.  Returns the number of children, or -1."""
    ti = tree.ti
    k = expand(ti, tree.tf, tree.tmeta, node, g, s, meta, rng, scratch.cand,
               np.zeros(0, dtype=np.uint8))
    if k > 0 and not attach_deltas(tree, node, g, s, meta, zob, scratch, mover):
        ti[NCHILD, node] = 0     # (also ends a thread's claim: ``tree_search.run``)
        # give the block back when it is still the last one (always, on one thread)
        atomic_cas(tree.tmeta, T_USED, ti[FIRST, node] + k, ti[FIRST, node])
        ti[FIRST, node] = -1
        return -1
    return k


@njit(cache=True, nogil=True)
def carry_flipped(dpool, off, theta, diag, carry):
    """The mover encoding's descent: make the chosen child (delta at ``off``, sums in
    ``carry[0]``, ``carry[1]``) the current node.  Its row in its children's frame is its
    parent's own-frame row (``carry[2:]``) plus its delta flipped."""
    at = carry[2]
    aq = carry[3]
    carry[2] = carry[0]
    carry[3] = carry[1]
    na = dpool[off]
    for k in range(off + 2, off + 2 + na + dpool[off + 1]):
        j = flip(dpool[k])
        sign = 1.0 if k < off + 2 + na else -1.0
        at += sign * theta[j]
        aq += sign * diag[j]
    carry[0] = at
    carry[1] = aq
