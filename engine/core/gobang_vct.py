"""The first level of a VCT (victory by continuous threats): a *threat move*, after which
the mover has a VCF (``gobang_vcf``) whatever single stone the opponent answers with.  A
three that becomes an open four, a four-three, two threes: each is such a move when every
answer still leaves a VCF.

The answers tried are the empty points within two king moves of a stone: an answer that
matters either takes a point of the mover's VCF lines or makes a four of the answerer's
own, and both kinds lie within two points of a stone (a four's window of five holds four
stones; a completion or a four point of the line is next to or one gap from its stones).
A found threat move is a proof within the VCF's limits (each ``find``-ing of a VCF is a
proof; a VCF not found within its limit counts as a refutation), so it is played like a
VCF.  The search is bounded as a whole, since a tactical position can hold dozens of
candidates that threaten, each with dozens of answers: each VCF asked may try
``VCF_NODES`` fours, and once ``max_nodes`` work units are spent (a VCF asked is one, each
four it tries another) the search gives up with no threat move found.
"""

import numpy as np
from numba import njit

from .gobang_kernels import _makes_win, exact_five
from .gobang_vcf import _first_win, _may_play, _search
from .layout import BOARD, EMPTIES, EMPTY, GOBANG_RENJU, M_N_EMPTY, M_RULE, M_SIZE, PASS

NEAR = 2         # answers and threat moves within this many king moves of a stone
VCF_NODES = 300  # the most fours each VCF asked may try


@njit(cache=True)
def _near_stone(board, w, p):
    r0, c0 = p // w, p % w
    for dr in range(-NEAR, NEAR + 1):
        for dc in range(-NEAR, NEAR + 1):
            r, c = r0 + dr, c0 + dc
            if (dr or dc) and 0 <= r < w and 0 <= c < w:
                v = board[r * w + c]
                if v == 1 or v == 2:
                    return True
    return False


@njit(cache=True)
def _has_vcf(board, w, pts, n_pts, a, renju, ex_a, ex_d, depth, line, spent):
    """Whether ``a`` has a VCF; its work is added to ``spent[0]``."""
    found, _, tried = _search(board.copy(), w, pts, n_pts, a, renju, ex_a, ex_d, depth,
                              VCF_NODES, line)
    spent[0] += tried + 1
    return found


@njit(cache=True)
def _refuted(board, w, pts, n_pts, a, renju, ex_a, ex_d, depth, line, spent):
    """Whether some answer of the opponent (near a stone) leaves ``a`` no VCF."""
    d = 3 - a
    for j in range(n_pts):
        r = pts[j]
        if board[r] != EMPTY or not _near_stone(board, w, r) or \
                not _may_play(board, w, r, d, renju):
            continue
        board[r] = d
        escaped = _makes_win(board, w, r, d, ex_d) or \
            not _has_vcf(board, w, pts, n_pts, a, renju, ex_a, ex_d, depth, line, spent)
        board[r] = EMPTY
        if escaped:
            return True
    return False


# nogil: the search can outlast a short move, and the brain's deadline guard must be able to
# answer meanwhile (holding the interpreter lock, a 0.3 s move took 0.8 s and lost on time)
@njit(cache=True, nogil=True)
def find_threat_move(s, meta, color, max_depth, max_nodes, line):
    """A threat move of ``color`` (the module docstring) in (s, meta), or PASS; PASS too
    when the opponent holds a winning point (a four to block comes first) and when
    ``max_nodes`` work units are spent.  ``line``: room for 2 * max_depth + 3 points,
    scratch."""
    rule = meta[M_RULE]
    n_pts = meta[M_N_EMPTY]
    board = s[BOARD].copy()
    pts = s[EMPTIES, :n_pts].copy()
    w = meta[M_SIZE] + 2
    renju = rule == GOBANG_RENJU
    ex_a, ex_d = exact_five(rule, color), exact_five(rule, 3 - color)
    if _first_win(board, w, pts, n_pts, 3 - color, ex_d)[1] > 0:
        return PASS
    spent = np.zeros(1, dtype=np.int64)
    for i in range(n_pts):
        t = pts[i]
        if not _near_stone(board, w, t) or not _may_play(board, w, t, color, renju):
            continue
        board[t] = color
        threatens = _has_vcf(board, w, pts, n_pts, color, renju, ex_a, ex_d, max_depth, line,
                             spent)
        if threatens and not _refuted(board, w, pts, n_pts, color, renju, ex_a, ex_d,
                                      max_depth, line, spent):
            if spent[0] <= max_nodes:   # a refutation cut short by the limit proves nothing
                return t
        board[t] = EMPTY
        if spent[0] > max_nodes:
            return PASS
    return PASS


def new_line(max_depth: int) -> np.ndarray:
    return np.zeros(2 * max_depth + 3, dtype=np.int32)
