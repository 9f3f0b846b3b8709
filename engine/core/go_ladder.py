"""Ladder reading: can a chain be captured by a ladder, the attacker giving atari at
every move and the defender running (or capturing an attacking stone in atari)?

Two questions, one reader:
* a chain in atari, its owner to move: does every escape fail (``attacker=False``)?  An
  escape is extending at the last liberty or capturing an adjacent attacking chain that
  is itself in atari; after either, three liberties or more is out, one is caught, two
  hands the question to the attacker;
* a chain with two liberties, the attacker to move (``attacker=True``): does an atari at
  one of the two liberties lead to a capture?  (A chain in atari with the attacker to
  move is simply taken.)

The reader plays the sequence out on a stack of copies of the position (``Ladder``
scratch: one copy per ply), iteratively (numba's cache mislinks recursive kernels), and stops at
``max_nodes`` positions read or at the stack's depth; an unfinished reading counts as *not
captured*, so a caller never treats a chain as dead on a guess. Simple ko only (positional superko
is not read here).
"""

from collections import namedtuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from .go_kernels import is_legal, play
from .go_tactics import NONE
from .layout import BOARD, EMPTY, LIBS, M_SIZE, NEXT, NMETA, NROWS, REP

# ``ss``/``sm``: the stack of position copies; ``zob``: a zero key table (the reader
# needs no hashes); ``cand``: each ply's escape candidates
# ``ctl``: each ply's node kind (1 attacker to move), next candidate and candidate count
Ladder = namedtuple("Ladder", "ss sm zob cand ctl")
C_KIND, C_NEXT, C_COUNT = range(3)
# Hand-set parameters that ask for ladder reading: the heavy policy's (``go_policy``) or
# the tree priors' weights (``engine.search.go_priors``).  The kernels that take them pick
# by type while they compile: a plain array compiles none of the reader.
WithLadders = namedtuple("WithLadders", "hand")
MAX_CAND = 8
DEFAULT_NODES = 200


def ladder_scratch(n: int, depth: int | None = None) -> Ladder:
    """Scratch for boards of size ``n``; ``depth`` plies (default 4n, enough for a
    ladder across the board and back)."""
    return new_ladder((n + 2) ** 2, depth or 4 * n)


@njit(cache=True)
def new_ladder(n_points, depth):
    """Scratch for boards of ``n_points`` padded points, ``depth`` plies (compiled, so
    kernels make their own)."""
    return Ladder(np.empty((depth, NROWS, n_points), dtype=np.int32),
                  np.empty((depth, NMETA), dtype=np.int64),
                  np.zeros((3, n_points), dtype=np.int64),
                  np.empty((depth, MAX_CAND), dtype=np.int32),
                  np.empty((depth, 3), dtype=np.int32))


@njit(cache=True)
def liberties_upto3(s, w, r):
    """(count capped at 3, first liberty, second liberty) of chain ``r``; the liberties
    are NONE when the count is 3 by the pseudo-liberty count alone (each liberty touches
    the chain at most 4 times, so more than 8 pairs mean 3 liberties or more)."""
    if s[LIBS, r] > 8:
        return 3, NONE, NONE
    a = NONE
    b = NONE
    q = r
    while True:
        for d in (q - 1, q + 1, q - w, q + w):
            if s[BOARD, d] == EMPTY and d != a and d != b:
                if a == NONE:
                    a = d
                elif b == NONE:
                    b = d
                else:
                    return 3, a, b
        q = s[NEXT, q]
        if q == r:
            return (0 if a == NONE else 1 if b == NONE else 2), a, b


@njit(cache=True)
def _push_ply(lad, d, p, color):
    """Copy ply ``d`` to ``d + 1`` and play ``color`` at ``p`` there."""
    src = lad.ss[d]
    dst = lad.ss[d + 1]
    for r in range(src.shape[0]):
        for i in range(src.shape[1]):
            dst[r, i] = src[r, i]
    for i in range(lad.sm.shape[1]):
        lad.sm[d + 1, i] = lad.sm[d, i]
    play(dst, lad.sm[d + 1], lad.zob, p, color)


@njit(cache=True)
def _escape_points(lad, d, q, lib):
    """The defender's candidates at ply ``d``: captures of adjacent attacking chains in
    atari, then the extension at ``lib``; returns their count."""
    s = lad.ss[d]
    w = lad.sm[d, M_SIZE] + 2
    color = s[BOARD, q]
    n = 0
    r = s[REP, q]
    x = r
    while True:
        for y in (x - 1, x + 1, x - w, x + w):
            if s[BOARD, y] == 3 - color and n < MAX_CAND - 1:
                k, a, _ = liberties_upto3(s, w, s[REP, y])
                if k == 1:
                    seen = False
                    for j in range(n):
                        seen = seen or lad.cand[d, j] == a
                    if not seen:
                        lad.cand[d, n] = a
                        n += 1
        x = s[NEXT, x]
        if x == r:
            break
    lad.cand[d, n] = lib
    return n + 1


@njit(cache=True)
def _open(lad, d, q, attacker):
    """Enter the node at ply ``d``: its result (1 captured, 0 not) when the liberties
    settle it, else -1 with its candidate moves listed."""
    s = lad.ss[d]
    w = lad.sm[d, M_SIZE] + 2
    k, a, b = liberties_upto3(s, w, s[REP, q])
    lad.ctl[d, C_KIND] = 1 if attacker else 0
    lad.ctl[d, C_NEXT] = 0
    if attacker:
        if k <= 1:
            return 1
        if k >= 3:
            return 0
        lad.cand[d, 0] = a
        lad.cand[d, 1] = b
        lad.ctl[d, C_COUNT] = 2
        return -1
    if k != 1:
        return 1 if k == 0 else 0
    lad.ctl[d, C_COUNT] = _escape_points(lad, d, q, a)
    return -1


@njit(cache=True)
def read_ply0(lad, q, attacker, max_nodes):
    """``ladder_captured`` for the position already in the scratch's first ply.  A
    depth-first AND-OR search over the plies of the scratch, without recursion: ``res``
    is the result of the node at ply ``d`` (1 captured, 0 not) or -1 while it is open."""
    color = lad.ss[0, BOARD, q]
    w = lad.sm[0, M_SIZE] + 2
    deepest = lad.ss.shape[0] - 1
    d = 0
    res = _open(lad, 0, q, attacker)
    nodes = 1
    while True:
        if res != -1:
            if d == 0:
                return res == 1
            d -= 1   # the attacker's node is won by one capture, the defender's by one escape
            if (lad.ctl[d, C_KIND] == 1) != (res == 1):
                res = -1
            continue
        if lad.ctl[d, C_NEXT] >= lad.ctl[d, C_COUNT]:
            res = 0 if lad.ctl[d, C_KIND] == 1 else 1
            continue
        if nodes >= max_nodes or d >= deepest:
            return False
        x = lad.cand[d, lad.ctl[d, C_NEXT]]
        lad.ctl[d, C_NEXT] += 1
        attacking = lad.ctl[d, C_KIND] == 1
        mover = 3 - color if attacking else color
        if not is_legal(lad.ss[d], lad.sm[d], x, mover):
            continue
        _push_ply(lad, d, x, mover)
        nodes += 1
        d += 1
        t = lad.ss[d]
        if t[BOARD, q] != color:
            res = 1
        elif attacking:
            res = _open(lad, d, q, False)
        else:
            k, _, _ = liberties_upto3(t, w, t[REP, q])
            res = 0 if k >= 3 else _open(lad, d, q, True) if k == 2 else 1


@njit(cache=True)
def _load(s, meta, lad):
    """Copy the position into the scratch's first ply."""
    ply = lad.ss[0]
    for r in range(s.shape[0]):
        for i in range(s.shape[1]):
            ply[r, i] = s[r, i]
    for i in range(meta.shape[0]):
        lad.sm[0, i] = meta[i]


@njit(cache=True)
def load_after(s, meta, p, color, lad):
    """Put the position after ``color`` at ``p`` in the scratch's first ply."""
    _load(s, meta, lad)
    play(lad.ss[0], lad.sm[0], lad.zob, p, color)


@njit(cache=True)
def escape_caught(s, meta, p, color, lad, max_nodes):
    """``color`` at ``p`` extends a chain to exactly two liberties, and a ladder then
    captures it (the caller knows the move extends a chain in atari)."""
    load_after(s, meta, p, color, lad)
    k, _, _ = liberties_upto3(lad.ss[0], meta[M_SIZE] + 2, lad.ss[0, REP, p])
    return k == 2 and read_ply0(lad, p, True, max_nodes)


@njit(cache=True)
def ladder_captured(s, meta, p, attacker, lad, max_nodes):
    """Is the chain at ``p`` captured by a ladder?  ``attacker``: the attacker moves
    first (the chain has two liberties), else the chain's owner (it is in atari).  False
    when the reading is cut off by ``max_nodes`` or the stack's depth."""
    _load(s, meta, lad)
    return read_ply0(lad, p, attacker, max_nodes)


def escape_caught_if(lad, s, meta, p, color, max_nodes):
    """For compiled code: ``escape_caught`` when ``lad`` is a ``Ladder`` and ``max_nodes``
    > 0, else False; with ``lad`` None the reader is not compiled at all."""
    raise NotImplementedError("compiled code only")


@overload(escape_caught_if, inline="always")
def _escape_caught_if(lad, s, meta, p, color, max_nodes):
    if isinstance(lad, types.NoneType):
        return lambda lad, s, meta, p, color, max_nodes: False
    return (lambda lad, s, meta, p, color, max_nodes:
            max_nodes > 0 and escape_caught(s, meta, p, color, lad, max_nodes))
