"""Gobang shape scores: how much a stone on an empty point makes and breaks, by the
five-cell windows through it (the "tuple" evaluation of classic Gomoku programs).

A *window* is five cells in a row along one of the four directions.  The stone at p lies
in twenty of them (four directions, five offsets).  A window counts for colour c when it
holds no stone of the other colour and no off-board cell: only such windows can still
become a five of c.  With k of c's stones already in it, a stone of c at p turns it into a
window of k + 1, so ``ATTACK[k]`` scores what the stone makes (k = 4: a five, 3: a four,
2: a three -- an open three lies in two or three such windows, a broken one in one or
two) and ``DEFEND[k]`` what it takes from the opponent (the same window of the
opponent's is dead once our stone is in it).  A point's score for the side to move is
the sum over its windows of ATTACK by its own count plus DEFEND by the opponent's
count.  Open shapes score more than closed ones by themselves, since they lie in more
live windows: no pattern table is needed.

Why windows: every five-in-a-row threat (five, four, three, two, broken or not) is a
window with that many stones and the rest empty, so one sum covers them all, and a
plain-Python recount of the windows is the test's oracle.  Overlines (exact five, renju)
are not told apart: these scores order moves and give priors, they prove nothing.

``board_value`` is the static value of a position for the side to move, the same window
sums over the whole board, and the side to move gets its tempo (``TEMPO``).
"""

from collections import namedtuple

import numpy as np
from numba import njit

from .amaf import note_first
from .gobang_kernels import forbids, play, random_move
from .layout import (BLACK, BOARD, DRAW, EMPTIES, EMPTY, GOBANG_RENJU, M_MOVES, M_N_EMPTY,
                     M_RULE, M_SIZE, M_TO_PLAY, M_WINNER, OFFBOARD, PASS, WHITE)
from .rng import rand_unit

# by the stones of the scoring colour already in a live window: the attacker's gain from
# a stone there, and the defender's (a stone that kills the opponent's window); a four
# made (k = 3) outweighs any number of twos, a five (k = 4) any other shape, and blocking
# the opponent's five comes right after making one's own
ATTACK = np.array([2.0, 15.0, 400.0, 12000.0, 1.0e7])
DEFEND = np.array([1.0, 10.0, 300.0, 3000.0, 1.0e6])


@njit(cache=True, nogil=True, inline='always')
def _window(board, start, d, color):
    """The stones of ``color`` in the window of five from ``start`` by step ``d``, or -1
    when the window holds the other colour or leaves the board."""
    k = 0
    for j in range(5):
        b = board[start + j * d]
        if b == color:
            k += 1
        elif b != EMPTY:
            return -1
    return k


@njit(cache=True, nogil=True)
def point_score(board, w, p, color):
    """The score of a ``color`` stone on the empty point ``p`` (module docstring); ``w``:
    the padded row width."""
    total = 0.0
    for d in (1, w, w + 1, w - 1):
        for o in range(5):
            start = p - o * d
            if start < 0 or start + 4 * d >= board.shape[0]:
                continue
            k = _window(board, start, d, color)
            if k >= 0:
                total += ATTACK[k]
            k = _window(board, start, d, 3 - color)
            if k >= 0:
                total += DEFEND[k]
    return total


@njit(cache=True, nogil=True)
def move_scores(s, meta, moves, k, out):
    """``out[i]``: the score of the side to move's stone on ``moves[i]``, i < k (a move off
    the board, a pass, scores 0)."""
    board = s[BOARD]
    w = meta[M_SIZE] + 2
    color = meta[M_TO_PLAY]
    for i in range(k):
        p = moves[i]
        out[i] = point_score(board, w, p, color) if p >= 0 and board[p] == EMPTY else 0.0


TEMPO = 2.0     # the side to move's windows weigh this much more: it moves first


@njit(cache=True, nogil=True)
def board_value(s, meta):
    """The position's shape balance for the side to move: over every live window of each
    colour with k >= 1 stones, ATTACK[k] for the side to move (times TEMPO) less ATTACK[k]
    for the other side."""
    board = s[BOARD]
    w = meta[M_SIZE] + 2
    color = meta[M_TO_PLAY]
    n = board.shape[0]
    total = 0.0
    for p in range(n):
        if board[p] == OFFBOARD:
            continue
        for d in (1, w, w + 1, w - 1):
            if p + 4 * d >= n:
                continue
            for c in (color, 3 - color):
                k = _window(board, p, d, c)
                if k >= 1:
                    total += ATTACK[k] * TEMPO if c == color else -ATTACK[k]
    return total


# The playout parameters that select the shape playout (``game.policy_playout_winner``'s
# ``par`` on Gobang): noise, the random spread of ``shape_playout``'s choice; depth, the
# moves it plays at most; scale, the ``board_value`` that makes the side to move a 73%
# winner (logistic) when the playout stops undecided
ShapePlayout = namedtuple("ShapePlayout", "noise depth scale")
# a score within half the best's may still be chosen; twelve moves play out the threes
# and fours standing at the leaf (greedy play to the end takes some 95 moves, 1 ms);
# an open three of the side to move (three windows of three) is worth 0.97
SHAPE = ShapePlayout(noise=1.0, depth=12, scale=20000.0)

NEAR = 2    # the shape playout looks at the empty points within this many steps of a stone


@njit(cache=True, nogil=True, inline='always')
def _mark_near(near, board, p, w):
    """Mark the empty points within ``NEAR`` king moves of ``p`` (frame cells are
    OFFBOARD, so a walk past the frame reads them and marks nothing)."""
    n = board.shape[0]
    for dr in range(-NEAR, NEAR + 1):
        for dc in range(-NEAR, NEAR + 1):
            q = p + dr * w + dc
            if 0 <= q < n and board[q] == EMPTY:
                near[q] = 1


@njit(cache=True, nogil=True)
def shape_playout(s, meta, zob, rng, amaf, noise, depth):
    """Play up to ``depth`` moves in place, until the game is decided, each move the empty point near the stones with the
    highest shape score for the mover, each score first multiplied by ``1 + noise * u``
    (u uniform in [0, 1): a random one among the near-best); a five is always taken and a
    five of the opponent's always blocked (their windows outweigh everything else).
    Renju: black's forbidden points are skipped.  ``amaf`` as ``gobang_kernels.playout``.
    An empty board starts at its centre.  Returns the number of moves played."""
    board = s[BOARD]
    w = meta[M_SIZE] + 2
    near = np.zeros(board.shape[0], dtype=np.int8)
    stones = 0
    for p in range(board.shape[0]):
        if board[p] == BLACK or board[p] == WHITE:
            _mark_near(near, board, p, w)
            stones += 1
    if stones == 0:
        near[(w // 2) * w + w // 2] = 1
    renju = meta[M_RULE] == GOBANG_RENJU
    start = meta[M_MOVES]
    while meta[M_WINNER] == 0 and meta[M_MOVES] - start < depth:
        color = meta[M_TO_PLAY]
        best, pick = -1.0, -1
        for i in range(meta[M_N_EMPTY]):
            p = s[EMPTIES, i]
            if near[p] == 0:
                continue
            v = point_score(board, w, p, color) * (1.0 + noise * rand_unit(rng))
            if v > best and not (renju and color == BLACK and forbids(s, meta, p, color)):
                best, pick = v, p
        if pick < 0:   # nothing near (or only black's forbidden points): any legal point
            pick = random_move(s, meta, rng, color)
            if pick == PASS:
                meta[M_WINNER] = DRAW
                break
        note_first(amaf, pick, color, meta)
        play(s, meta, zob, pick, color)
        near[pick] = 0
        _mark_near(near, board, pick, w)
    return meta[M_MOVES] - start


@njit(cache=True, nogil=True)
def shape_playout_winner(s, meta, zob, rng, amaf, par):
    """``shape_playout`` with ``par`` (a ``ShapePlayout``), then the winner (BLACK, WHITE, 0
    for a draw) and a score of 0.0; a playout stopped undecided draws its winner, the side
    to move with the probability logistic(board_value / scale)."""
    shape_playout(s, meta, zob, rng, amaf, par.noise, par.depth)
    winner = meta[M_WINNER]
    if winner == 0:
        color = meta[M_TO_PLAY]
        p = 1.0 / (1.0 + np.exp(-board_value(s, meta) / par.scale))
        return (color if rand_unit(rng) < p else 3 - color), 0.0
    return (winner if winner == BLACK or winner == WHITE else 0), 0.0
