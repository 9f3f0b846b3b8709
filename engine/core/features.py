"""The LinUCT neighbourhood features ("1944-dimensional" on 9x9) as sparse binary rows.

For every point p of an n x n board and each of its 8 neighbours q, in the order
N, NE, E, SE, S, SW, W, NW, three bits describe q relative to the stone on p:

    bit 0  q holds a stone of the same colour as p
    bit 1  q holds a stone of the other colour
    bit 2  q is empty or off the board

and a last, constant feature is always 1.  Feature index ``((i * 8) + dir) * 3 + bit`` with
i = row * n + col the on-board point, so the dimension is n*n*24 + 1 (1945 on 9x9,
8665 on 19x19) and the constant is the last index.

Encoding of empty points (the source leaves it open; ALGORITHMS.md sec. 4): an empty p sets
no bit, which gives the all-zero triples of the paper's example; a stone sets exactly one
bit per direction, the third one for an empty or off-board neighbour, as the source words
it.  Why this reading and not "empty sets no bit":

* every stone then shows in the row with 8 bits of its own point, so each move gives its
  child a distinct feature vector.  With "empty sets no bit" a stone played in open space
  set no bit at all: every such move had its parent's vector, only edge moves looked new,
  and LinUCB's exploration width pulled the search to the first line (seen in matches
  against UCT: LinUCT opened on A1, J9, H9 and lost every game);
* a row has 8 active indices per stone plus the constant: an empty board is the constant
  alone and a dot product costs 8 per stone, not the dimension.

A property to know about: "same" and "other" are relative to the stone on p, so the row
does not change when every stone changes colour; it describes shape, not whose it is.

Rows are written as sorted int32 index lists into a preallocated array (``max_active``
entries suffice); kernels return the count.  The board is read from ``s[BOARD]`` of the
layout of ``engine.core.layout``, so Go and Gobang positions are handled alike.

The row of a child (the position after a move) differs from its parent's only in the
triples of points whose colour changed (the played stone, captured stones) and in the one
triple bit by which each of their 8 neighbours looks at them.  ``move_delta`` finds those
points by a flood from the move through the points whose colour differs between the two
positions (captured chains touch the move; so does a suicided chain) and lists the bits
turned off and on; ``child_row`` merges that delta into the parent's row.  The cost is
proportional to the points that changed, not to the board.  From a compiled search:

    m = board_row(s, meta, row)                      # once per node
    copy_state(s, meta, s2, meta2); play(s2, meta2, zob, move, color)   # engine.core.game
    move_delta(s, s2, meta, move, added, removed, work, counts)
    m2 = child_row(row, m, added, counts[0], removed, counts[1], child)

and x_child . theta = x_parent . theta - sum(theta[removed]) + sum(theta[added]).
"""

import numpy as np
from numba import njit

from .layout import BOARD, EMPTY, M_SIZE, OFFBOARD

N_DIRS = 8
N_BITS = 3
SAME, OTHER, EMPTY_OR_EDGE = range(3)
NO_BIT = -1


def dimension(n: int) -> int:
    """Length of a feature vector on an n x n board (with the constant)."""
    return n * n * N_DIRS * N_BITS + 1


def max_active(n: int) -> int:
    """Room a row needs: at most one bit per (point, direction), plus the constant."""
    return n * n * N_DIRS + 1


@njit(cache=True, nogil=True, inline='always')
def _offset(w, d):
    """Padded-index step of direction d: N, NE, E, SE, S, SW, W, NW."""
    if d == 0:
        return -w
    if d == 1:
        return -w + 1
    if d == 2:
        return 1
    if d == 3:
        return w + 1
    if d == 4:
        return w
    if d == 5:
        return w - 1
    if d == 6:
        return -1
    return -w - 1


@njit(cache=True, nogil=True, inline='always')
def _bit(s, p, q):
    """The bit p's triple sets for neighbour q, or NO_BIT."""
    c = s[BOARD, p]
    if c == EMPTY:
        return NO_BIT
    cq = s[BOARD, q]
    if cq == EMPTY or cq == OFFBOARD:
        return EMPTY_OR_EDGE
    if cq == c:
        return SAME
    return OTHER


@njit(cache=True, nogil=True, inline='always')
def _index(p, w, n, d, bit):
    r = p // w - 1
    c = p - (r + 1) * w - 1
    return ((r * n + c) * N_DIRS + d) * N_BITS + bit


@njit(cache=True, nogil=True)
def board_row(s, meta, out):
    """Write the feature row of the position (sorted active indices, the constant last)
    into ``out``; returns its length."""
    n = meta[M_SIZE]
    w = n + 2
    k = 0
    for r in range(n):
        for col in range(n):
            p = (r + 1) * w + col + 1
            if s[BOARD, p] == EMPTY:
                continue
            base = (r * n + col) * N_DIRS * N_BITS
            for d in range(N_DIRS):
                b = _bit(s, p, p + _offset(w, d))
                if b != NO_BIT:
                    out[k] = base + d * N_BITS + b
                    k += 1
    out[k] = n * n * N_DIRS * N_BITS
    return k + 1


@njit(cache=True, nogil=True, inline='always')
def _compare(before, after, p, q, w, n, d, added, removed, counts):
    """Record the change of p's bit toward q between the two positions."""
    old = _bit(before, p, q)
    new = _bit(after, p, q)
    if old != new:
        if old != NO_BIT:
            removed[counts[1]] = _index(p, w, n, d, old)
            counts[1] += 1
        if new != NO_BIT:
            added[counts[0]] = _index(p, w, n, d, new)
            counts[0] += 1


@njit(cache=True, nogil=True, inline='always')
def _sort(a, m):
    """Insertion sort of a[:m]: deltas are a few dozen entries."""
    for i in range(1, m):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


@njit(cache=True, nogil=True)
def move_delta(before, after, meta, move, added, removed, work, counts):
    """The indices a move turns on (``added``) and off (``removed``), both sorted, for
    ``after`` = ``before`` with ``move`` played (and its captures made).  ``meta`` gives the
    board size; ``work`` is int32 scratch of 2*P entries whose second half must be zero
    (it is left zero again); ``counts`` (int64[2]) receives the two lengths.  ``added`` and
    ``removed`` need ``max_active(n)`` entries.  A pass changes nothing."""
    counts[0] = 0
    counts[1] = 0
    if move < 0:
        return
    n = meta[M_SIZE]
    w = n + 2
    big_p = w * w
    mv = np.int64(move)  # one integer type for the tuple below, whatever the caller passes
    # work[:m] lists the changed points, work[P + p] marks p as listed
    m = 0
    for p in (mv, mv - w, mv + w, mv - 1, mv + 1):
        if before[BOARD, p] != after[BOARD, p] and work[big_p + p] == 0:
            work[big_p + p] = 1
            work[m] = p
            m += 1
    j = 0
    while j < m:
        p = work[j]
        j += 1
        for q in (p - w, p + w, p - 1, p + 1):
            if before[BOARD, q] != after[BOARD, q] and work[big_p + q] == 0:
                work[big_p + q] = 1
                work[m] = q
                m += 1
    for j in range(m):
        p = work[j]
        for d in range(N_DIRS):
            off = _offset(w, d)
            _compare(before, after, p, p + off, w, n, d, added, removed, counts)
            # the neighbour looking back at p, unless it changed too (then it is done above)
            q = p - off
            if before[BOARD, q] != OFFBOARD and work[big_p + q] == 0:
                _compare(before, after, q, p, w, n, d, added, removed, counts)
    for j in range(m):
        work[big_p + work[j]] = 0
    _sort(added, counts[0])
    _sort(removed, counts[1])


@njit(cache=True, nogil=True)
def child_row(parent, m, added, n_added, removed, n_removed, out):
    """Merge a delta into a sorted parent row: (parent minus removed) plus added, sorted,
    into ``out``; returns its length.  O(length of the parent row)."""
    i = 0
    j = 0
    k = 0
    o = 0
    while i < m or k < n_added:
        if i < m and j < n_removed and parent[i] == removed[j]:
            i += 1
            j += 1
        elif k >= n_added or (i < m and parent[i] < added[k]):
            out[o] = parent[i]
            o += 1
            i += 1
        else:
            out[o] = added[k]
            o += 1
            k += 1
    return o


def new_work(n: int) -> np.ndarray:
    """Zeroed scratch for ``move_delta`` on an n x n board."""
    return np.zeros(2 * (n + 2) * (n + 2), dtype=np.int32)
