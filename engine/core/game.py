"""One compiled face for both games: every kernel here dispatches on ``meta[M_GAME]``
(GAME_GO or GAME_GOBANG) to ``go_kernels``/``go_playout`` or ``gobang_kernels``, so a single
compiled search serves Go and Gobang without knowing which it plays.

Winners are BLACK (1), WHITE (2) or 0 for a Go jigo or a drawn (full) Gobang board.
Superko is not seen here (it needs the history; ``engine.game.go_state`` checks it).
"""

import numpy as np
from numba import njit

from . import go_kernels as go
from . import go_playout as gop
from . import gobang_kernels as gb
from . import gobang_tactics as gbtac
from . import gobang_threats as gbt
from .layout import BOARD, DRAW, EMPTIES, EPOS, GAME_GO, M_GAME, M_N_EMPTY, M_PASSES, \
    M_SIZE, M_TO_PLAY, M_WINNER, PASS



@njit(cache=True, nogil=True)
def copy_state(src_s, src_meta, dst_s, dst_meta):
    """Copy a position into scratch arrays of the same size (Gobang uses three rows only).
    Element loops, not slice assignments: an array-to-array assignment compiles numba's
    shape-mismatch message, its string formatting included (seconds of a cold start)."""
    if src_meta[M_GAME] == GAME_GO:
        for r in range(src_s.shape[0]):
            _copy_row(src_s, dst_s, r)
    else:
        _copy_row(src_s, dst_s, BOARD)
        _copy_row(src_s, dst_s, EMPTIES)
        _copy_row(src_s, dst_s, EPOS)
    for i in range(src_meta.shape[0]):
        dst_meta[i] = src_meta[i]


@njit(cache=True, nogil=True, inline='always')
def _copy_row(src, dst, r):
    for i in range(src.shape[1]):
        dst[r, i] = src[r, i]


@njit(cache=True, nogil=True)
def play(s, meta, zob, p, color):
    """Play a move that ``candidate_moves`` offered (or a Go PASS)."""
    if meta[M_GAME] == GAME_GO:
        go.play(s, meta, zob, p, color)
    else:
        gb.play(s, meta, zob, p, color)


@njit(cache=True, nogil=True)
def is_terminal(s, meta):
    """Go: two passes in a row; Gobang: somebody won or the board is full."""
    if meta[M_GAME] == GAME_GO:
        return meta[M_PASSES] >= 2
    return meta[M_WINNER] != 0


@njit(cache=True, nogil=True)
def terminal_winner(s, meta, komi):
    """The winner of a finished position: Go by area score with komi, Gobang as recorded."""
    if meta[M_GAME] == GAME_GO:
        sc = go.score(s, meta, komi)
        if sc > 0:
            return 1
        if sc < 0:
            return 2
        return 0
    w = meta[M_WINNER]
    if w == DRAW:
        return 0
    return w


@njit(cache=True, nogil=True)
def policy_playout_winner(s, meta, zob, rng, komi, amaf, pat, par):
    """Play the position out in place; returns the winner.  ``amaf``: int8[P] that records
    the colour first to play on each point, or empty.  ``par`` empty: the light playout of
    either game; else the heavy one: Go's policy (``par``, ``pat`` from
    ``engine.go_knowledge``), Gobang's threat-aware playout (``gobang_threats``)."""
    if meta[M_GAME] == GAME_GO:
        w, _ = gop.playout_winner(s, meta, zob, rng, komi, amaf, pat, par)
        return w
    if par.shape[0] > 0:
        w, _ = gbt.threat_playout_winner(s, meta, zob, rng, amaf)
    else:
        w, _ = gb.playout_winner(s, meta, zob, rng, amaf)
    return w


@njit(cache=True, nogil=True)
def playout_winner(s, meta, zob, rng, komi, amaf):
    """``policy_playout_winner`` with the light playout."""
    return policy_playout_winner(s, meta, zob, rng, komi, amaf, np.zeros(0, dtype=np.uint8),
                                 np.zeros(0, dtype=np.float64))


@njit(cache=True, nogil=True)
def candidate_moves(s, meta, out):
    """Moves a tree node may expand into for the side to move, written to ``out`` (needs
    room for P + 1 entries); returns their count.  Go: the legal moves (simple ko) that do
    not fill the mover's own true eye, then PASS.  Gobang: the mover's winning points when
    it has any, else the blocks of the opponent's, else every legal point, none once the
    game is decided (``gobang_tactics.forced_candidates``)."""
    color = meta[M_TO_PLAY]
    k = 0
    empties = s[EMPTIES]
    n_empty = meta[M_N_EMPTY]
    if meta[M_GAME] == GAME_GO:
        w = meta[M_SIZE] + 2
        for i in range(n_empty):
            p = empties[i]
            if not go.is_eye(s, w, p, color) and go.is_legal(s, meta, p, color):
                out[k] = p
                k += 1
        out[k] = PASS
        return k + 1
    return gbtac.forced_candidates(s, meta, out)
