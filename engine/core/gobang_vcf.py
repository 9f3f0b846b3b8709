"""VCF: victory by continuous fours.  The attacker plays only fours, so every defender reply
is forced (the one completion point), and wins when a four cannot be stopped: two
completions at once (an open four, or two fours), a completion the defender may not play
(renju: a forbidden point of black), or a winning point already on the board.

The search is a depth-first AND/OR tree over one scratch copy of the BOARD row: at an
attacker node, every legal four (``gobang_tactics.completions``) is tried; a defender that
holds a winning point of its own must be blocked first, so then only a four on that point
counts, and two such points refute the line.  The defender's block may make a four of its
own; the next attacker node sees it as such a winning point.  ``max_depth`` bounds the
attacker moves of a line and ``max_nodes`` the attacker moves tried in all, so the cost is
bounded whatever the position; a line not proven inside the limits counts as no VCF.

A found VCF is written to ``line`` as attacker, defender, attacker, ... moves ending with
the winning stone.  Renju: the attacker's fours are legal moves (black never plays a
forbidden point, so never a double four), its fives are exact fives for black.
"""

import numpy as np
from numba import njit

from .gobang_kernels import _makes_win, exact_five
from .gobang_tactics import completions
from .layout import BLACK, BOARD, EMPTIES, EMPTY, GOBANG_RENJU, M_N_EMPTY, M_RULE, M_SIZE, PASS
from .renju import is_forbidden

_COMPLETIONS = 8   # the most completions one stone can have: two on each of four lines


@njit(cache=True)
def _may_play(board, w, p, color, renju):
    return not (renju and color == BLACK and is_forbidden(board, w, p))


@njit(cache=True)
def _first_win(board, w, pts, n_pts, color, exact):
    """The first point of ``pts`` where ``color`` wins at once, or -1; and how many there
    are, stopping at two."""
    first = -1
    k = 0
    for i in range(n_pts):
        p = pts[i]
        if board[p] == EMPTY and _makes_win(board, w, p, color, exact):
            if first < 0:
                first = p
            k += 1
            if k == 2:
                break
    return first, k


@njit(cache=True)
def _attack(board, w, pts, n_pts, a, renju, ex_a, ex_d, depth, budget, line, ply):
    """Whether attacker ``a`` (to move) wins by continuous fours within ``depth`` more
    fours; ``budget[0]`` counts down the fours tried.  On success the line from ``ply`` on
    is written and its end returned in ``budget[1]``."""
    win, _ = _first_win(board, w, pts, n_pts, a, ex_a)
    if win >= 0:
        line[ply] = win
        budget[1] = ply + 1
        return True
    if depth == 0:
        return False
    d = 3 - a
    block, n_threats = _first_win(board, w, pts, n_pts, d, ex_d)
    if n_threats >= 2:
        return False
    comp = np.empty(_COMPLETIONS, dtype=np.int64)
    for i in range(n_pts):
        q = pts[i]
        if board[q] != EMPTY or (block >= 0 and q != block):
            continue
        if budget[0] <= 0:
            return False
        board[q] = a
        k = completions(board, w, q, a, ex_a, comp)
        board[q] = EMPTY
        if k == 0 or not _may_play(board, w, q, a, renju):
            continue
        budget[0] -= 1
        board[q] = a
        r = comp[0]
        won = k >= 2 or not _may_play(board, w, r, d, renju)
        if won:
            line[ply] = q
            line[ply + 1] = r if k == 1 else comp[1]
            budget[1] = ply + 2
            board[q] = EMPTY
            return True
        board[r] = d
        won = _attack(board, w, pts, n_pts, a, renju, ex_a, ex_d, depth - 1, budget, line,
                      ply + 2)
        board[r] = EMPTY
        board[q] = EMPTY
        if won:
            line[ply] = q
            line[ply + 1] = r
            return True
    return False


@njit(cache=True)
def find_vcf(s, meta, color, max_depth, max_nodes, line):
    """A VCF for ``color`` in the position (s, meta), or PASS when none is proven within
    ``max_depth`` fours and ``max_nodes`` fours tried.  ``line`` (room for 2 * max_depth + 2
    points) receives the sequence; returns (first move, length of the line, fours tried)."""
    board = s[BOARD].copy()
    w = meta[M_SIZE] + 2
    rule = meta[M_RULE]
    renju = rule == GOBANG_RENJU
    n_pts = meta[M_N_EMPTY]
    pts = s[EMPTIES, :n_pts].copy()
    budget = np.empty(2, dtype=np.int64)
    budget[0] = max_nodes
    budget[1] = 0
    found = _attack(board, w, pts, n_pts, color, renju, exact_five(rule, color),
                    exact_five(rule, 3 - color), max_depth, budget, line, 0)
    if not found:
        return PASS, 0, max_nodes - budget[0]
    return line[0], budget[1], max_nodes - budget[0]
