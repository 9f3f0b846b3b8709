"""Local tactical facts about Go chains, read off the state of ``engine.core.layout``: which
chain is in atari and where its last liberty is, how many liberties a stone would have once
played, whether a move is a self-atari.  The heavy playout policy and the tree's priors both
ask these questions; the rules kernels never need them.

``LIBS`` holds pseudo-liberties (one per stone-and-empty-neighbour pair), so it bounds the
distinct liberties but does not count them: a chain is in atari when every pair names the
same point, which needs a walk over the chain.  Each function here exits the walk as soon
as the answer is known (a second distinct liberty), and skips it when the pseudo count
alone settles the question: one point touches a chain at most four times.
"""

import numpy as np
from numba import njit

from .layout import BOARD, EMPTY, LIBS, NEXT, REP, SIZE

NONE = -1


@njit(cache=True)
def atari_liberty(s, w, r):
    """The last liberty of chain ``r`` (a representative) when it has exactly one, else
    NONE."""
    if s[LIBS, r] > 4:
        return NONE
    lib = NONE
    q = r
    while True:
        for d in (q - 1, q + 1, q - w, q + w):
            if s[BOARD, d] == EMPTY:
                if lib == NONE:
                    lib = d
                elif d != lib:
                    return NONE
        q = s[NEXT, q]
        if q == r:
            return lib


@njit(cache=True)
def _other_liberty(s, w, r, p, a):
    """A liberty of chain ``r`` other than ``p`` and ``a`` (NONE when there is none)."""
    q = r
    while True:
        for d in (q - 1, q + 1, q - w, q + w):
            if d != p and d != a and s[BOARD, d] == EMPTY:
                return d
        q = s[NEXT, q]
        if q == r:
            return NONE


@njit(cache=True)
def libs_after(s, w, p, color):
    """How many liberties the chain of a ``color`` stone played at empty ``p`` would have:
    0, 1, or 2 meaning two or more.  Opponent chains the stone captures count as a
    liberty each (the captured stone next to ``p`` becomes one)."""
    a = np.int64(NONE)   # not the literal -1: _other_liberty(a) then compiles once
    other = 3 - color
    for q in (p - 1, p + 1, p - w, p + w):
        c = s[BOARD, q]
        if c == EMPTY:
            lib = q
        elif c == other:
            if atari_liberty(s, w, s[REP, q]) != p:
                continue
            lib = q
        elif c == color:
            r = s[REP, q]
            if s[LIBS, r] > 8:   # p takes at most 4 pairs: 5+ more are another liberty...
                return 2         # ...on at most 4 points, so at least 2 besides p
            lib = _other_liberty(s, w, r, np.int64(p), a)
            if lib == NONE:
                continue
            if a != NONE:
                return 2
            a = lib
            lib = _other_liberty(s, w, r, np.int64(p), a)
            if lib == NONE:
                continue
        else:
            continue
        if a == NONE:
            a = lib
        elif lib != a:
            return 2
    return 0 if a == NONE else 1


@njit(cache=True)
def first_touch(s, nbs, k):
    """The stone at ``nbs[k]`` belongs to a chain that none of ``nbs[0..k-1]`` holds: so
    a loop over a point's neighbours sees each adjacent chain once."""
    r = s[REP, nbs[k]]
    c = s[BOARD, nbs[k]]
    for j in range(k):
        if s[BOARD, nbs[j]] == c and s[REP, nbs[j]] == r:
            return False
    return True


@njit(cache=True)
def size_after(s, w, p, color):
    """Stones in the chain a ``color`` stone at ``p`` would join (itself included)."""
    n = 1
    nbs = (p - 1, p + 1, p - w, p + w)
    for k in range(4):
        if s[BOARD, nbs[k]] == color and first_touch(s, nbs, k):
            n += s[SIZE, s[REP, nbs[k]]]
    return n


@njit(cache=True)
def is_self_atari(s, w, p, color, min_stones):
    """``color`` at ``p`` would leave its chain of at least ``min_stones`` stones with one
    liberty (or none, a suicide) and capture nothing."""
    empty_nbs = 0
    for q in (p - 1, p + 1, p - w, p + w):
        if s[BOARD, q] == EMPTY:
            empty_nbs += 1
    if empty_nbs >= 2:
        return False
    if libs_after(s, w, p, color) >= 2:
        return False
    return size_after(s, w, p, color) >= min_stones


@njit(cache=True)
def makes_atari(s, w, p, color):
    """``color`` at empty ``p`` would leave an adjacent opponent chain with one liberty."""
    other = 3 - color
    for q in (p - 1, p + 1, p - w, p + w):
        if s[BOARD, q] == other:
            r = s[REP, q]
            a = _other_liberty(s, w, r, np.int64(p), np.int64(p))
            if a != NONE and _other_liberty(s, w, r, np.int64(p), np.int64(a)) == NONE:
                return True
    return False


@njit(cache=True)
def touches_atari(s, w, r, color):
    """Chain ``r`` touches a ``color`` chain in atari (for the opponent's ``r``: its owner
    can escape by capturing that chain)."""
    x = r
    while True:
        for d in (x - 1, x + 1, x - w, x + w):
            if s[BOARD, d] == color and atari_liberty(s, w, s[REP, d]) != NONE:
                return True
        x = s[NEXT, x]
        if x == r:
            return False


@njit(cache=True, inline='always')
def push(buf, n, p):
    """Append ``p`` to the first ``n`` entries of ``buf`` while it has room; the new count."""
    if n < buf.shape[0]:
        buf[n] = p
        return n + 1
    return n
