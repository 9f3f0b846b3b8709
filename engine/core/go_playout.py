"""Light Go playouts: uniform random among the legal moves that do not fill the mover's own
single-point eye (``go_kernels.is_eye``); pass only when none is left; stop after two
passes in a row (or a move cap that only pathological cycles reach) and score by area.

A move is drawn uniformly by rejection without replacement: draw an index into the first
k entries of the empty-point list; if that point is unplayable, swap it behind the window
and shrink k.  So each candidate costs one random number and is tested at most once.
"""

import numpy as np
from numba import njit

from .go_kernels import PASS, is_eye, is_legal, play, score
from .layout import BOARD, EMPTIES, EMPTY, OFFBOARD, EPOS, M_MOVES, M_N_EMPTY, M_PASSES, M_SIZE, M_TO_PLAY
from .rng import rand_below


@njit(cache=True, inline='always')
def playable(s, meta, w, p, color):
    """Legal for ``color`` and not filling its own eye.  An empty neighbour settles both at
    once (a ko point never has one), which is the common case."""
    all_own = True
    for q in (p - 1, p + 1, p - w, p + w):
        c = s[BOARD, q]
        if c == EMPTY:
            return True
        if c != color and c != OFFBOARD:
            all_own = False
    if all_own and is_eye(s, w, p, color):
        return False
    return is_legal(s, meta, p, color)


@njit(cache=True)
def random_move(s, meta, rng, color):
    """A uniformly random legal non-eye-filling move for ``color``, or PASS."""
    w = meta[M_SIZE] + 2
    k = meta[M_N_EMPTY]
    while k > 0:
        i = rand_below(rng, k)
        p = s[EMPTIES, i]
        if playable(s, meta, w, p, color):
            return p
        k -= 1
        q = s[EMPTIES, k]
        s[EMPTIES, k] = p
        s[EMPTIES, i] = q
        s[EPOS, p] = k
        s[EPOS, q] = i
    return PASS


@njit(cache=True)
def playout(s, meta, zob, rng, amaf):
    """Play the position in (s, meta) out to the end, in place.  When ``amaf`` has P
    entries, each empty point records the colour that played there first (for RAVE);
    pass an empty array otherwise.  Returns the number of moves played."""
    record = amaf.shape[0] > 0
    limit = meta[M_MOVES] + 3 * s.shape[1]
    start = meta[M_MOVES]
    while meta[M_PASSES] < 2 and meta[M_MOVES] < limit:
        color = meta[M_TO_PLAY]
        p = random_move(s, meta, rng, color)
        if record and p != PASS and amaf[p] == 0:
            amaf[p] = color
        play(s, meta, zob, p, color)
    return meta[M_MOVES] - start


@njit(cache=True)
def playout_winner(s, meta, zob, rng, komi, amaf):
    """Play out and return the winner (BLACK=1, WHITE=2, 0 for a jigo) and the score."""
    playout(s, meta, zob, rng, amaf)
    sc = score(s, meta, komi)
    if sc > 0:
        return 1, sc
    if sc < 0:
        return 2, sc
    return 0, sc


@njit(cache=True)
def run_playouts(s, meta, zob, rng, komi, count, scratch_s, scratch_meta):
    """``count`` playouts from the same position (a benchmark and test driver); returns the
    black wins and the total moves played."""
    wins = 0
    moves = 0
    none = np.zeros(0, dtype=np.int8)
    for _ in range(count):
        scratch_s[:, :] = s
        scratch_meta[:] = meta
        moves += playout(scratch_s, scratch_meta, zob, rng, none)
        if score(scratch_s, scratch_meta, komi) > 0:
            wins += 1
    return wins, moves
