"""Threat-aware Gobang playouts: a compiled alternative to the uniform light playout of
``engine.core.gobang_kernels``.

Policy at each move: (1) if the mover has a *winning point* (an empty point where its stone
completes a winning line under M_RULE: five or more for GOBANG_FREESTYLE and for white in
GOBANG_RENJU, exactly five for GOBANG_EXACT5 and for black in GOBANG_RENJU), play one; (2)
else if the opponent has one, block it (one of them, chosen at random, when there are
several; under renju black blocks only on a point it may play); (3) else a uniformly random
legal point (``gobang_kernels.random_move``).  An exact five is never a forbidden point, so
(1) needs no renju test.  A random choice
among several winning points of the mover changes only which point AMAF records, not the
result; it keeps the policy free of any order bias of the lists below.

Threat lists, not board scans.  Each colour keeps a list of points, ``pts[color, :cnt[color]]``
(``pts`` int32[3, P], row 0 unused), that always holds every winning point of that colour
and may hold stale entries.  Why a list stays complete:

* Whether an empty point p is a winning point of c depends on c's stones alone.  An
  opponent stone only fills the point it lands on; a c stone at q can take winning points
  away (q itself; under exact five, a five through p growing into an overline) and can add
  one only along a line where q joins the run through p.  Then every cell between p and q is
  a c stone, so p is the first empty cell past one end of q's run on that line: at most
  eight points per move (two ends, four lines) to test, with the run lengths the walk from q
  has just measured (``note_stone``).
* Removal is lazy: an entry is re-validated each time its list is read (``prune_threats``):
  gone if occupied, and under exact five re-tested with the full win test, since a five may
  have grown into an overline while another line through p may still win.  A dropped point
  cannot become a winning point again except by a new c stone joining a run beside it, and
  that stone's ``note_stone`` adds it back.
* At the start of a playout the history is unknown, so ``find_threats`` passes every stone
  on the board through ``note_stone`` once: a winning point always lies just past the end of
  a run of its colour along its winning line, and any stone of that run finds it.

So a threat made earlier and left standing -- the far end of an open four after the
opponent blocked the near end, or the second of two fours -- stays in its list until the
point is filled, wherever the threat-maker's later stones went; the lists never depend on
the last move of either side.  The per-move cost is one ``note_stone`` (the walks of
``gobang_kernels.play``'s own win test plus a short look past each end) and a glance at each
list, which is almost always empty or holds a point or two.  Entries are kept distinct, so a
list never holds more than the n*n on-board points.  The per-move kernels are
``inline='always'``: the call overhead of passing the arrays was a measurable share of a
move.
"""

import numpy as np
from numba import njit, uintp

from .amaf import note_first
from .gobang_kernels import PASS, _makes_win, exact_five, forbids, play, random_move
from .layout import (BLACK, BOARD, DRAW, EMPTIES, EMPTY, EPOS, GOBANG_RENJU, M_MOVES,
                     M_N_EMPTY, M_RULE, M_SIZE, M_TO_PLAY, M_WINNER, WHITE)
from .rng import rand_below


@njit(cache=True)
def new_threat_lists(p):
    """Empty threat lists for a board of ``p`` padded points: (pts int32[3, p], cnt
    int64[3])."""
    return np.empty((3, p), dtype=np.int32), np.zeros(3, dtype=np.int64)


@njit(cache=True)
def _add_point(pts, cnt, color, p):
    k = cnt[color]
    for i in range(k):
        if pts[color, i] == p:
            return
    pts[color, k] = p
    cnt[color] = k + 1


@njit(cache=True, inline='always')
def _count_run(board, x, step, color):
    """How many ``color`` stones lie in a row from ``x`` on, walking by ``step``.  The index
    goes unsigned: every walk here stays inside the padded array (the OFFBOARD frame ends
    it), and an unsigned index spares numba's negative-index wraparound test, a measurable
    share of the per-move cost."""
    k = 0
    while board[uintp(x)] == color:
        x += step
        k += 1
    return k


@njit(cache=True, inline='always')
def _wins_past_end(board, end, step, color, run, exact):
    """Whether ``end``, the cell just past a run of ``run`` ``color`` stones (walking by
    ``step``), is empty and would join that run and the stones beyond it into a win."""
    if board[uintp(end)] != EMPTY:
        return False
    total = run + 1 + _count_run(board, end + step, step, color)
    return total == 5 or (total > 5 and not exact)


@njit(cache=True, inline='always')
def note_stone(s, meta, pts, cnt, q, color):
    """Add to ``color``'s list the winning points its stone at ``q`` may have created: along
    each line, the first empty point past either end of the run through ``q``."""
    board = s[BOARD]
    w = meta[M_SIZE] + 2
    exact = exact_five(meta[M_RULE], color)
    for d in (1, w, w + 1, w - 1):
        up = _count_run(board, q + d, d, color)
        down = _count_run(board, q - d, -d, color)
        run = 1 + up + down
        hi = q + (up + 1) * d
        lo = q - (down + 1) * d
        if _wins_past_end(board, hi, d, color, run, exact):
            _add_point(pts, cnt, color, hi)
        if _wins_past_end(board, lo, -d, color, run, exact):
            _add_point(pts, cnt, color, lo)


@njit(cache=True)
def find_threats(s, meta, pts, cnt):
    """Fill both lists from scratch with the winning points of the position on the board."""
    cnt[:] = 0
    board = s[BOARD]
    for p in range(board.shape[0]):
        c = board[p]
        if c == BLACK or c == WHITE:
            note_stone(s, meta, pts, cnt, p, c)


@njit(cache=True)
def prune_threats(s, meta, pts, cnt, color):
    """Drop the entries of ``color``'s list that are no longer winning points, keeping the
    order of the rest; returns how many remain, which are then exactly ``color``'s winning
    points."""
    board = s[BOARD]
    w = meta[M_SIZE] + 2
    exact = exact_five(meta[M_RULE], color)
    k = 0
    for i in range(cnt[color]):
        p = pts[color, i]
        if board[p] == EMPTY and (not exact or _makes_win(board, w, p, color, True)):
            pts[color, k] = p
            k += 1
    cnt[color] = k
    return k


@njit(cache=True, inline='always')
def threat_move(s, meta, rng, pts, cnt):
    """The policy's move for the side to move, given complete threat lists: a win, else a
    block, else a uniformly random legal point; PASS (-1) once the game is decided or when
    (renju) black has no legal point left."""
    if meta[M_WINNER] != 0 or meta[M_N_EMPTY] == 0:
        return PASS
    color = meta[M_TO_PLAY]
    if cnt[color] > 0 and prune_threats(s, meta, pts, cnt, color) > 0:
        return pts[color, rand_below(rng, cnt[color])]
    other = 3 - color
    k = cnt[other]
    if k > 0 and prune_threats(s, meta, pts, cnt, other) > 0:
        k = cnt[other]
        i = rand_below(rng, k)
        for j in range(k):
            p = pts[other, (i + j) % k]
            if not forbids(s, meta, p, color):
                return p
    if meta[M_RULE] != GOBANG_RENJU or color != BLACK:
        return s[EMPTIES, rand_below(rng, meta[M_N_EMPTY])]   # random_move's, without a call
    return random_move(s, meta, rng, color)


@njit(cache=True, inline='always')
def threat_step(s, meta, zob, rng, pts, cnt, amaf):
    """Play the policy's move for the side to move in an undecided game and keep the lists
    complete; ``amaf`` as in ``threat_playout``."""
    color = meta[M_TO_PLAY]
    p = threat_move(s, meta, rng, pts, cnt)
    if p == PASS:   # renju: black has only forbidden points left
        meta[M_WINNER] = DRAW
        return
    note_first(amaf, p, color, meta)
    play(s, meta, zob, p, color)
    if meta[M_WINNER] == 0:
        note_stone(s, meta, pts, cnt, p, color)


@njit(cache=True)
def threat_playout(s, meta, zob, rng, amaf, pts, cnt):
    """Play the policy, in place, until the game is decided; ``pts``/``cnt`` are scratch
    threat lists (``new_threat_lists``).  When ``amaf`` has P entries, each point records
    who played it first and when (``engine.core.amaf``); pass an empty array otherwise.  Returns
    the number of moves played."""
    start = meta[M_MOVES]
    if meta[M_WINNER] == 0:
        find_threats(s, meta, pts, cnt)
        while meta[M_WINNER] == 0:
            threat_step(s, meta, zob, rng, pts, cnt, amaf)
    return meta[M_MOVES] - start


@njit(cache=True)
def threat_playout_winner(s, meta, zob, rng, amaf):
    """``gobang_kernels.playout_winner`` with the threat policy: play out in place and return
    the winner (BLACK=1, WHITE=2, 0 for a draw) and a score of 0.0."""
    pts, cnt = new_threat_lists(s.shape[1])
    threat_playout(s, meta, zob, rng, amaf, pts, cnt)
    winner = meta[M_WINNER]
    if winner == BLACK or winner == WHITE:
        return winner, 0.0
    return 0, 0.0


@njit(cache=True)
def run_threat_playouts(s, meta, zob, rng, count, scratch_s, scratch_meta):
    """``count`` threat playouts from the same position (a benchmark and test driver);
    returns the black wins and the total moves played.  Only the rows Gobang uses are
    copied."""
    wins = 0
    moves = 0
    none = np.zeros(0, dtype=np.int32)
    pts, cnt = new_threat_lists(s.shape[1])
    for _ in range(count):
        scratch_s[BOARD, :] = s[BOARD]
        scratch_s[EMPTIES, :] = s[EMPTIES]
        scratch_s[EPOS, :] = s[EPOS]
        scratch_meta[:] = meta
        moves += threat_playout(scratch_s, scratch_meta, zob, rng, none, pts, cnt)
        if scratch_meta[M_WINNER] == BLACK:
            wins += 1
    return wins, moves
