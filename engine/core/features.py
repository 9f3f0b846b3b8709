"""The LinUCT neighbourhood features ("1944-dimensional" on 9x9) as sparse binary rows.

For every point p of an n x n board and each of its 8 neighbours q, in the order
N, NE, E, SE, S, SW, W, NW, three bits describe q relative to the stone on p:

    bit 0  q holds a stone of the same colour as p
    bit 1  q holds a stone of the other colour
    bit 2  q is empty or off the board

and a last, constant feature is always 1.  Feature index ``((i * 8) + dir) * 3 + bit`` with
i = row * n + col the on-board point, so the dimension is n*n*24 + 1 (1945 on 9x9,
8665 on 19x19) and the constant is the last index.

Encoding of empty points (the source leaves it open; ``docs/algorithms.md`` section 9): an
empty p sets no bit, which gives the all-zero triples of the paper's example; a stone sets
exactly one bit per direction, the third one for an empty or off-board neighbour, as the
source words it.  Why this reading and not "empty sets no bit":

* every stone then shows in the row with 8 bits of its own point, so each move gives its
  child a distinct feature vector.  With "empty sets no bit" a stone played in open space
  set no bit at all: every such move had its parent's vector, only edge moves looked new,
  and LinUCB's exploration width pulled the search to the first line (seen in matches
  against UCT: LinUCT opened on A1, J9, H9 and lost every game);
* a row has 8 active indices per stone plus the constant: an empty board is the constant
  alone and a dot product costs 8 per stone, not the dimension.

A property to know about: "same" and "other" are relative to the stone on p, so the row
does not change when every stone changes colour; it describes shape, not whose it is.

That is the default *frame* (``STONE_FRAME``, the LinUCT paper's words).  The kernels also
take a colour as the frame: then bit 0 means q holds a stone of that colour, bit 1 a stone
of the other colour, and bit 2 stays empty or off the board (still only for a stone on p).
LinUCT's mover encoding (``docs/algorithms.md`` section 9) writes each position's row in the
frame of the player who made its move, so that rows say whose stones are where.  Seen from
the other colour a row is the same row with bits 0 and 1 swapped (``flip``); since a row
has at most one bit per (point, direction), flipping keeps it sorted.

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

    m = board_row(s, meta, row, STONE_FRAME)         # once per node
    copy_state(g, s, meta, s2, meta2); play(g, s2, meta2, zob, move, color)   # core.game
    move_delta(s, s2, meta, move, added, removed, work, counts, STONE_FRAME)
    m2 = child_row(row, 0, m, added, 0, counts[0], removed, 0, counts[1], child, 0)

and x_child . theta = x_parent . theta - sum(theta[removed]) + sum(theta[added]).
"""

import numpy as np
from numba import njit

from .layout import BOARD, EMPTY, M_SIZE, OFFBOARD

N_DIRS = 8
N_BITS = 3
SAME, OTHER, EMPTY_OR_EDGE = range(3)
NO_BIT = -1
STONE_FRAME = EMPTY        # bits relative to the stone on p; BLACK or WHITE: to that colour


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
def _bit_of(c, cq, frame):
    """The bit a point of colour c sets for a neighbour of colour cq in ``frame``, or NO_BIT.
    Colours, not the board: an inlined helper that takes arrays and branches keeps numba's
    atomic reference counts on them, and ``move_delta`` calls this 32 times per changed
    point."""
    if c == EMPTY:
        return NO_BIT
    if cq == EMPTY or cq == OFFBOARD:
        return EMPTY_OR_EDGE
    if cq == (c if frame == STONE_FRAME else frame):
        return SAME
    return OTHER


@njit(cache=True, nogil=True, inline='always')
def flip(j):
    """Feature index j (not the constant) seen from the other colour's frame: bits 0 and 1
    swapped."""
    b = j % N_BITS
    if b == SAME:
        return j + 1
    if b == OTHER:
        return j - 1
    return j


@njit(cache=True, nogil=True)
def flip_row(row, r0, m, out):
    """row[r0:r0+m] (a whole row, the constant last) seen from the other colour's frame,
    into out[:m]; still sorted."""
    for k in range(m - 1):
        out[k] = flip(row[r0 + k])
    out[m - 1] = row[r0 + m - 1]


@njit(cache=True, nogil=True, inline='always')
def _index(p, w, n, d, bit):
    r = p // w - 1
    c = p - (r + 1) * w - 1
    return ((r * n + c) * N_DIRS + d) * N_BITS + bit


@njit(cache=True, nogil=True)
def board_row(s, meta, out, frame):
    """Write the feature row of the position in ``frame`` (sorted active indices, the
    constant last) into ``out``; returns its length."""
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
                b = _bit_of(s[BOARD, p], s[BOARD, p + _offset(w, d)], frame)
                if b != NO_BIT:
                    out[k] = base + d * N_BITS + b
                    k += 1
    out[k] = n * n * N_DIRS * N_BITS
    return k + 1


@njit(cache=True, nogil=True)
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
def move_delta(before, after, meta, move, added, removed, work, counts, frame):
    """The indices a move turns on (``added``) and off (``removed``) in ``frame``, both
    sorted, for ``after`` = ``before`` with ``move`` played (and its captures made).
    ``meta`` gives the board size; ``work`` is int32 scratch of 2*P entries whose second
    half must be zero (it is left zero again); ``counts`` (int64[2]) receives the two
    lengths.  ``added`` and ``removed`` need ``max_active(n)`` entries.  A pass changes
    nothing."""
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
    # int64 from the start: the literal 0 would compile _sort twice
    na = np.int64(0)
    nr = np.int64(0)
    for j in range(m):
        p = work[j]
        for d in range(N_DIRS):
            off = _offset(w, d)
            for look in range(2):
                # p's bit toward its neighbour in direction d, then the bit of the point
                # behind p looking at p in that direction, unless that point changed too
                # (then its own turn covers it)
                a = p if look == 0 else p - off
                if look == 1 and (before[BOARD, a] == OFFBOARD or work[big_p + a] != 0):
                    continue
                old = _bit_of(before[BOARD, a], before[BOARD, a + off], frame)
                new = _bit_of(after[BOARD, a], after[BOARD, a + off], frame)
                if old != new:
                    if old != NO_BIT:
                        removed[nr] = _index(a, w, n, d, old)
                        nr += 1
                    if new != NO_BIT:
                        added[na] = _index(a, w, n, d, new)
                        na += 1
    for j in range(m):
        work[big_p + work[j]] = 0
    _sort(added, na)
    _sort(removed, nr)
    counts[0] = na
    counts[1] = nr


@njit(cache=True, nogil=True)
def child_row(parent, p0, m, added, a0, n_added, removed, r0, n_removed, out, o0):
    """Merge a delta into a sorted parent row: (parent[p0:p0+m] minus
    removed[r0:r0+n_removed]) plus added[a0:a0+n_added], sorted, into out[o0:]; returns its
    length.  O(length of the parent row).  Offsets rather than slices, so a kernel can keep
    rows and deltas in flat buffers without making views in its loop."""
    i = p0
    j = r0
    k = a0
    o = o0
    p_end = p0 + m
    r_end = r0 + n_removed
    a_end = a0 + n_added
    while i < p_end or k < a_end:
        if i < p_end and j < r_end and parent[i] == removed[j]:
            i += 1
            j += 1
        elif k >= a_end or (i < p_end and parent[i] < added[k]):
            out[o] = parent[i]
            o += 1
            i += 1
        else:
            out[o] = added[k]
            o += 1
            k += 1
    return o - o0


def new_work(n: int) -> np.ndarray:
    """Zeroed scratch for ``move_delta`` on an n x n board."""
    return np.zeros(2 * (n + 2) * (n + 2), dtype=np.int32)
