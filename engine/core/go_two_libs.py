"""Two-liberty tactics around the last move, the heavy playout's step after the atari step
(``go_policy``): attack an opponent chain of two liberties that the atari cannot let
escape, and defend an own chain of two liberties by extending it to three or more.

Why: the atari step sees a fight one move before the capture; a chain of two liberties
is decided one move earlier, and random play there gives the loser of the race its
chain back half the time.  Pachi's playouts read the same two-liberty fights (a fact of
its documentation; nothing of its code is here).

Kernels over the state of ``engine.core.layout``: ``two_liberties`` reads a chain's two
liberties, ``libs_if_played`` the liberties a stone would have with one more point taken
away, ``two_lib_moves`` the candidates.  The caller (``go_policy.heavy_move``) keeps the
playable ones that are no self-atari.
"""

import numpy as np
from numba import njit

from .go_ladder import liberties_upto3
from .go_tactics import NONE, atari_liberty, first_touch, push, touches_atari
from .layout import BOARD, EMPTY, LIBS, NEXT, REP

MANY = 3   # libs_if_played's "three or more"


@njit(cache=True)
def two_liberties(s, w, r):
    """The two liberties (a, b) of chain ``r`` (a representative) when it has exactly two,
    else (NONE, NONE)."""
    n, a, b = liberties_upto3(s, w, r)
    if n != 2:
        return np.int64(NONE), np.int64(NONE)
    return np.int64(a), np.int64(b)


@njit(cache=True, inline='always')
def _add(d, l0, l1, n):
    """The liberty set (l0, l1, n) with ``d`` added; n = 3 once a third is seen."""
    if d == l0 or d == l1:
        return l0, l1, n
    if n == 0:
        return d, l1, 1
    if n == 1:
        return l0, d, 2
    return l0, l1, MANY


@njit(cache=True)
def libs_if_played(s, w, p, color, taken):
    """How many liberties ``color``'s chain would have after a stone at empty ``p``, with
    the point ``taken`` occupied by the opponent as well (NONE: no such point): 0, 1, 2,
    or ``MANY`` for three or more.  A stone that captures an adjacent opponent chain (in
    atari at ``p``) counts as ``MANY``: the capture gives it room."""
    other = 3 - color
    l0 = np.int64(NONE)
    l1 = np.int64(NONE)
    n = 0
    nbs = (p - 1, p + 1, p - w, p + w)
    for q in nbs:
        c = s[BOARD, q]
        if c == other and atari_liberty(s, w, s[REP, q]) == p:
            return MANY
        if c == EMPTY and q != taken:
            l0, l1, n = _add(np.int64(q), l0, l1, n)
    for k in range(4):
        if s[BOARD, nbs[k]] != color or not first_touch(s, nbs, k):
            continue
        r = s[REP, nbs[k]]
        if s[LIBS, r] > 16:   # p and taken hold at most 8 pairs: 9 more lie on 3+ points
            return MANY
        x = r
        while n < MANY:
            for d in (x - 1, x + 1, x - w, x + w):
                if d != p and d != taken and s[BOARD, d] == EMPTY:
                    l0, l1, n = _add(np.int64(d), l0, l1, n)
            x = s[NEXT, x]
            if x == r:
                break
    return n


@njit(cache=True)
def _attack(s, w, r, color, buf, n):
    """Candidates against the opponent chain ``r`` of two liberties: a liberty whose atari
    the other liberty cannot answer (extending there leaves the chain one liberty or
    none) and that is not answered by capturing a chain of ``color`` next to ``r``."""
    a, b = two_liberties(s, w, r)
    if a == NONE or touches_atari(s, w, r, color):
        return n
    other = 3 - color
    for m, o in ((a, b), (b, a)):
        if libs_if_played(s, w, o, other, m) <= 1 and libs_if_played(s, w, m, color, NONE) >= 2:
            n = push(buf, n, m)
    return n


@njit(cache=True)
def _defend(s, w, r, color, buf, n):
    """Candidates for the own chain ``r`` of two liberties: a liberty that gives it three
    or more (or captures a neighbour)."""
    a, b = two_liberties(s, w, r)
    if a == NONE:
        return n
    for m in (a, b):
        if libs_if_played(s, w, m, color, NONE) >= MANY:
            n = push(buf, n, m)
    return n


@njit(cache=True)
def two_lib_moves(s, w, last, color, buf):
    """The two-liberty candidates around the opponent's last move ``last`` for ``color``,
    written to ``buf``; returns their count.  Attack: the chain of ``last`` and the
    opponent chains next to own chains that touch ``last``; defence: the own chains that
    touch ``last``."""
    n = 0
    other = 3 - color
    if s[BOARD, last] == other:
        n = _attack(s, w, s[REP, last], color, buf, n)
    nbs = (last - 1, last + 1, last - w, last + w)
    for k in range(4):
        if s[BOARD, nbs[k]] == color and first_touch(s, nbs, k):
            n = _defend(s, w, s[REP, nbs[k]], color, buf, n)
    return n
