"""Gobang threats as board facts: winning points, the fours a stone makes, and the moves a
tree node needs to consider (a win when there is one, else the forced blocks).

A *winning point* of a colour is an empty point where its stone makes a winning line under
the rule (``gobang_kernels.exact_five``: exactly five for exact-five and for renju's black,
five or more otherwise).  A *four* is a stone after which its colour has a winning point
through that stone; its *completions* are those points.  Only the new stone's lines can
gain one, and each completion is the first empty cell past one end of the run through the
stone (the cells between the stone and the completion of a five are all its colour), so a
stone has at most two completions a line.

``forced_candidates`` is what ``engine.core.game.candidate_moves`` offers for Gobang: the
mover's winning points when it has any (each wins at once); else, when the opponent has
winning points, the blocks the mover may play (every other move loses at once; if the
mover cannot block them all it loses anyway, and restricting the node to the blocks keeps
its value); else every legal point.  Under renju black's forbidden points are never
offered; a block black may not play is no block.
"""

from numba import njit

from .gobang_kernels import _makes_win, exact_five, forbids
from .layout import BOARD, EMPTIES, EMPTY, M_N_EMPTY, M_RULE, M_SIZE, M_TO_PLAY, M_WINNER


@njit(cache=True)
def winning_points(s, meta, color, out):
    """The winning points of ``color`` written to ``out``; returns their count."""
    board = s[BOARD]
    w = meta[M_SIZE] + 2
    exact = exact_five(meta[M_RULE], color)
    k = 0
    for i in range(meta[M_N_EMPTY]):
        p = s[EMPTIES, i]
        if _makes_win(board, w, p, color, exact):
            out[k] = p
            k += 1
    return k


@njit(cache=True, inline='always')
def _run(board, x, step, color):
    k = 0
    while board[x] == color:
        x += step
        k += 1
    return k


@njit(cache=True)
def completions(board, w, q, color, exact, out):
    """The completions of the ``color`` stone at ``q`` (on the board): distinct empty points
    that make a winning line through ``q``, written to ``out`` (room for 8); returns their
    count."""
    k = 0
    for d in (1, w, w + 1, w - 1):
        up = _run(board, q + d, d, color)
        down = _run(board, q - d, -d, color)
        run = 1 + up + down
        for step, x in ((d, q + (up + 1) * d), (-d, q - (down + 1) * d)):
            if board[x] != EMPTY:
                continue
            total = run + 1 + _run(board, x + step, step, color)
            if total == 5 or (total > 5 and not exact):
                seen = False
                for j in range(k):
                    seen = seen or out[j] == x
                if not seen:
                    out[k] = x
                    k += 1
    return k


@njit(cache=True)
def forced_candidates(s, meta, out):
    """The moves a node offers the side to move (see the module docstring), written to
    ``out`` (room for the empty points); returns their count, 0 once the game is decided
    or (renju) when black has no legal point."""
    if meta[M_WINNER] != 0:
        return 0
    color = meta[M_TO_PLAY]
    k = winning_points(s, meta, color, out)
    if k > 0:
        return k
    k = winning_points(s, meta, 3 - color, out)
    j = 0
    for i in range(k):
        if not forbids(s, meta, out[i], color):
            out[j] = out[i]
            j += 1
    if j > 0:
        return j
    j = 0
    for i in range(meta[M_N_EMPTY]):
        p = s[EMPTIES, i]
        if not forbids(s, meta, p, color):
            out[j] = p
            j += 1
    return j
