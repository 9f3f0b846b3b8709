"""Gobang (gomoku) rules and light playouts over the layout of ``engine.core.layout``.

Representation: the same padded board as Go (BOARD row, OFFBOARD frame) plus the empty-point
list (EMPTIES / EPOS); the chain rows are unused.  meta holds M_GAME = GAME_GOBANG, M_RULE
(the variant), M_WINNER and the usual move counters and Zobrist hash.

Win rule: a player wins by making an unbroken line of their stones along a row, a column or
a diagonal.  GOBANG_FREESTYLE: five or more in a row wins.  GOBANG_EXACT5: exactly five wins;
an overline of six or more does not (and does not end the game), though an exact five made
by the same stone along another line still does.  GOBANG_RENJU: black wins with exactly
five and may not play its forbidden points (``engine.core.renju``: overline, double four,
double three); white has no forbidden points and wins with five or more.  A full board
without a win is a DRAW, and so is a renju board where black has only forbidden points left
to play.
Stones never leave the board, so a new line can only run through the stone just placed:
``play`` measures the four lines through that stone alone, and the OFFBOARD frame ends every
run without a bounds test.
"""

import numpy as np
from numba import njit

from .amaf import note_first
from .go_kernels import clear_board as clear_padded_board
from .go_kernels import remove_empty
from .layout import (BLACK, BOARD, DRAW, EMPTIES, EMPTY, EPOS, GAME_GOBANG, GOBANG_EXACT5,
                     GOBANG_RENJU, M_GAME, M_HASH, M_LAST, M_MOVES, M_N_EMPTY, M_RULE, M_SIZE,
                     M_TO_PLAY, M_WINNER, PASS)
from .renju import is_forbidden
from .rng import rand_below



@njit(cache=True)
def clear_board(s, meta, n, variant):
    """Empty n x n board, black to play, undecided, under ``variant`` (GOBANG_FREESTYLE,
    GOBANG_EXACT5 or GOBANG_RENJU)."""
    meta[:] = 0
    clear_padded_board(s, meta, n)
    meta[M_GAME] = GAME_GOBANG
    meta[M_RULE] = variant
    meta[M_WINNER] = 0
    meta[M_LAST] = PASS
    meta[M_HASH] = 0


@njit(cache=True, inline='always')
def exact_five(rule, color):
    """Whether only exactly five wins for ``color`` under ``rule``."""
    return rule == GOBANG_EXACT5 or (rule == GOBANG_RENJU and color == BLACK)


@njit(cache=True)
def forbids(s, meta, p, color):
    """Whether the empty point ``p`` is a renju forbidden point that ``color`` may not play."""
    return (meta[M_RULE] == GOBANG_RENJU and color == BLACK
            and is_forbidden(s[BOARD], meta[M_SIZE] + 2, p))


@njit(cache=True)
def is_legal(s, meta, p, color):
    """An empty on-board point while the game is undecided, and not a forbidden point of
    black under renju; there is no pass in Gobang."""
    if meta[M_WINNER] != 0 or p < 0 or p >= s.shape[1]:
        return False
    return s[BOARD, p] == EMPTY and not forbids(s, meta, p, color)


@njit(cache=True)
def _makes_win(board, w, p, color, exact):
    """Whether the ``color`` stone at ``p`` completes a winning line through ``p``."""
    for d in (1, w, w + 1, w - 1):
        run = 1
        q = p + d
        while board[q] == color:
            run += 1
            q += d
        q = p - d
        while board[q] == color:
            run += 1
            q -= d
        if run == 5 or (run > 5 and not exact):
            return True
    return False


@njit(cache=True)
def play(s, meta, zob, p, color):
    """Place ``color`` at ``p``, assuming ``is_legal``; the other side moves next and
    M_WINNER records a win or a draw.  Returns 0 (Go's ``play`` returns captures)."""
    board = s[BOARD]
    board[p] = color
    remove_empty(s, meta, p)
    meta[M_HASH] ^= zob[color, p]
    meta[M_MOVES] += 1
    meta[M_LAST] = p
    meta[M_TO_PLAY] = 3 - color
    if _makes_win(board, meta[M_SIZE] + 2, p, color, exact_five(meta[M_RULE], color)):
        meta[M_WINNER] = color
    elif meta[M_N_EMPTY] == 0:
        meta[M_WINNER] = DRAW
    return 0


@njit(cache=True)
def random_move(s, meta, rng, color):
    """A uniformly random legal move for ``color``, or PASS (-1) when there is none: the
    board is full, the game is decided, or (renju) only black's forbidden points are left.
    A forbidden draw is replaced by the next legal point of the empty list, cyclically:
    forbidden points are rare, so the bias this gives them is too."""
    k = meta[M_N_EMPTY]
    if k == 0 or meta[M_WINNER] != 0:
        return PASS
    i = rand_below(rng, k)
    p = s[EMPTIES, i]
    if meta[M_RULE] != GOBANG_RENJU or color != BLACK:
        return p
    for j in range(k):
        p = s[EMPTIES, (i + j) % k]
        if not forbids(s, meta, p, color):
            return p
    return PASS


@njit(cache=True)
def playout(s, meta, zob, rng, amaf):
    """Play uniformly random stones, in place, until the game is decided.  When ``amaf`` has
    P entries, each point records who played it first and when (``engine.core.amaf``); pass an
    empty array otherwise.  Returns the number of moves played.

    Outside renju every empty point is legal, so a move is one random index into the empty
    list and ``play``'s swap-with-last removal keeps the list dense: no rejection, no
    allocation."""
    renju = meta[M_RULE] == GOBANG_RENJU
    start = meta[M_MOVES]
    while meta[M_WINNER] == 0:
        color = meta[M_TO_PLAY]
        if renju and color == BLACK:
            p = random_move(s, meta, rng, color)
            if p == PASS:   # black has only forbidden points left
                meta[M_WINNER] = DRAW
                break
        else:   # ``random_move``'s draw, without a call at every move (and its counts)
            p = s[EMPTIES, rand_below(rng, meta[M_N_EMPTY])]
        note_first(amaf, p, color, meta)
        play(s, meta, zob, p, color)
    return meta[M_MOVES] - start


@njit(cache=True)
def playout_winner(s, meta, zob, rng, amaf):
    """Play out and return the winner (BLACK=1, WHITE=2, 0 for a draw) and a score of 0.0
    (Go's ``playout_winner`` returns the area score there)."""
    playout(s, meta, zob, rng, amaf)
    winner = meta[M_WINNER]
    if winner == DRAW:
        winner = 0
    return winner, 0.0


@njit(cache=True)
def run_playouts(s, meta, zob, rng, count, scratch_s, scratch_meta):
    """``count`` playouts from the same position (a benchmark and test driver); returns the
    black wins and the total moves played.  Only the rows Gobang uses are copied."""
    wins = 0
    moves = 0
    none = np.zeros(0, dtype=np.int32)
    for _ in range(count):
        scratch_s[BOARD, :] = s[BOARD]
        scratch_s[EMPTIES, :] = s[EMPTIES]
        scratch_s[EPOS, :] = s[EPOS]
        scratch_meta[:] = meta
        moves += playout(scratch_s, scratch_meta, zob, rng, none)
        if scratch_meta[M_WINNER] == BLACK:
            wins += 1
    return wins, moves
