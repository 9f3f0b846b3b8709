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
the winning stone, or with the four whose one completion the defender may not play.
Renju: the attacker's fours are legal moves (black never plays a forbidden point, so never
a double four), its fives are exact fives for black.
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
def _next_four(board, w, pts, n_pts, start, a, block, renju, ex_a, comp):
    """The first index from ``start`` of ``pts`` that is a legal four for ``a`` (on
    ``block`` only, when the defender holds a winning point there), with its completions
    in ``comp``; returns (index or n_pts, completion count)."""
    for i in range(start, n_pts):
        q = pts[i]
        if board[q] != EMPTY or (block >= 0 and q != block):
            continue
        board[q] = a
        k = completions(board, w, q, a, ex_a, comp)
        board[q] = EMPTY
        if k > 0 and _may_play(board, w, q, a, renju):
            return i, k
    return n_pts, 0


@njit(cache=True)
def _search(board, w, pts, n_pts, a, renju, ex_a, ex_d, max_depth, max_nodes, line):
    """The depth-first search of the module docstring on an explicit stack (numba's cache
    does not keep recursive functions reliably): level k is the attacker node after k
    fours, scanning ``pts`` from ``nxt[k]`` with the defender's winning point
    ``block[k]``.  Returns (found, length of the line, fours tried); ``board`` is scratch
    and left dirty."""
    d = 3 - a
    nxt = np.zeros(max_depth + 1, dtype=np.int64)
    block = np.zeros(max_depth + 1, dtype=np.int64)
    comp = np.empty(_COMPLETIONS, dtype=np.int64)
    tried = 0
    level = 0
    entering = True
    while True:
        if entering:
            entering = False
            win, _ = _first_win(board, w, pts, n_pts, a, ex_a)
            if win >= 0:
                line[2 * level] = win
                return True, 2 * level + 1, tried
            threat, n_threats = _first_win(board, w, pts, n_pts, d, ex_d)
            nxt[level] = n_pts if level == max_depth or n_threats >= 2 else 0
            block[level] = threat
        i, k = _next_four(board, w, pts, n_pts, nxt[level], a, block[level], renju, ex_a,
                          comp)
        if k > 0 and tried >= max_nodes:
            return False, 0, tried
        if k == 0:   # no four left here: back to the previous level's next four
            if level == 0:
                return False, 0, tried
            level -= 1
            board[line[2 * level]] = EMPTY
            board[line[2 * level + 1]] = EMPTY
            continue
        tried += 1
        nxt[level] = i + 1
        q = pts[i]
        r = comp[0]
        board[q] = a
        line[2 * level] = q
        if k >= 2:   # the defender blocks one completion, the attacker takes the other
            line[2 * level + 1] = r
            line[2 * level + 2] = comp[1]
            return True, 2 * level + 3, tried
        if not _may_play(board, w, r, d, renju):
            return True, 2 * level + 1, tried
        board[r] = d
        line[2 * level + 1] = r
        level += 1
        entering = True


@njit(cache=True)
def find_vcf(s, meta, color, max_depth, max_nodes, line):
    """A VCF for ``color`` in the position (s, meta), or PASS when none is proven within
    ``max_depth`` fours and ``max_nodes`` fours tried.  ``line`` (room for 2 * max_depth + 3
    points) receives the sequence; returns (first move, length of the line, fours tried)."""
    rule = meta[M_RULE]
    n_pts = meta[M_N_EMPTY]
    found, length, tried = _search(s[BOARD].copy(), meta[M_SIZE] + 2,
                                   s[EMPTIES, :n_pts].copy(), n_pts, color,
                                   rule == GOBANG_RENJU, exact_five(rule, color),
                                   exact_five(rule, 3 - color), max_depth, max_nodes, line)
    if not found:
        return PASS, 0, tried
    return line[0], length, tried
