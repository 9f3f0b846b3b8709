"""One compiled face for both games, each session compiling only its own game's kernels.

Every function here takes first ``g``, the game's marker (``GO`` or ``GOBANG``, which the
games registry ``engine.game.registry`` hands out for a state): numba types a namedtuple by
its class, so the marker's type picks the game's kernels while the caller compiles
(``engine.core.dispatch``), and a search compiled for Go contains no Gobang kernel and
the reverse.  The search kernels stay game-blind: they pass the marker along.  (Dispatching
on ``meta[M_GAME]`` at run time made every session compile both games, about a third of a
cold start's compile.)  The face's functions are inlined into their callers, which so call
the game's kernel itself: a level of its own would be one more compile of everything below
it (numba links a callee's code into its caller and optimises it again there).

Winners are BLACK (1), WHITE (2) or 0 for a Go jigo or a drawn (full) Gobang board.
Superko is not seen here (it needs the history; ``engine.game.go_state`` checks it).
"""

from collections import namedtuple
from types import SimpleNamespace

import numpy as np
from numba import njit

from . import go_kernels as go
from . import go_playout as gop
from . import gobang_kernels as gb
from . import gobang_shape as gbs
from . import gobang_tactics as gbtac
from . import gobang_threats as gbt
from .dispatch import chosen, constant
from .layout import BOARD, DRAW, EMPTIES, EPOS, GAME_GO, GAME_GOBANG, M_N_EMPTY, M_PASSES, \
    M_SIZE, M_TO_PLAY, M_WINNER, PASS

GoGame = namedtuple("GoGame", "code")
GobangGame = namedtuple("GobangGame", "code")
GO = GoGame(GAME_GO)
GOBANG = GobangGame(GAME_GOBANG)


def only_for(game_class, kernel, otherwise):
    """For compiled code: ``f(g)(*args)`` is ``kernel(*args)`` when ``g`` is a marker of
    ``game_class``, else the constant ``otherwise``, and the other game never compiles
    ``kernel`` (a game-specific step of a game-blind kernel: Go's priors, Gobang's threat
    proofs)."""
    other = constant(otherwise)
    return chosen(lambda g: kernel if g.instance_class is game_class else other)


# ---- each game's kernels behind the face --------------------------------------------


@njit(cache=True, nogil=True, inline='always')
def _copy_row(src, dst, r):
    for i in range(src.shape[1]):
        dst[r, i] = src[r, i]


@njit(cache=True, nogil=True, inline='always')
def _copy_meta(src_meta, dst_meta):
    for i in range(src_meta.shape[0]):
        dst_meta[i] = src_meta[i]


# Element loops, not slice assignments: an array-to-array assignment compiles numba's
# shape-mismatch message, its string formatting included (seconds of a cold start).
@njit(cache=True, nogil=True)
def _go_copy_state(src_s, src_meta, dst_s, dst_meta):
    for r in range(src_s.shape[0]):
        _copy_row(src_s, dst_s, r)
    _copy_meta(src_meta, dst_meta)


@njit(cache=True, nogil=True)
def _gobang_copy_state(src_s, src_meta, dst_s, dst_meta):
    _copy_row(src_s, dst_s, BOARD)     # Gobang uses three rows only
    _copy_row(src_s, dst_s, EMPTIES)
    _copy_row(src_s, dst_s, EPOS)
    _copy_meta(src_meta, dst_meta)


@njit(cache=True, nogil=True)
def _go_is_terminal(s, meta):
    return meta[M_PASSES] >= 2


@njit(cache=True, nogil=True)
def _gobang_is_terminal(s, meta):
    return meta[M_WINNER] != 0


@njit(cache=True, nogil=True)
def _go_terminal_winner(s, meta, komi):
    sc = go.score(s, meta, komi)
    if sc > 0:
        return 1
    if sc < 0:
        return 2
    return 0


@njit(cache=True, nogil=True)
def _gobang_terminal_winner(s, meta, komi):
    w = meta[M_WINNER]
    if w == DRAW:
        return 0
    return w


@njit(cache=True, nogil=True)
def _threat_playout_winner(s, meta, zob, rng, amaf, par):
    return gbt.threat_playout_winner(s, meta, zob, rng, amaf)


@njit(cache=True, nogil=True)
def _shape_playout_winner(s, meta, zob, rng, amaf, par):
    return gbs.shape_playout_winner(s, meta, zob, rng, amaf, par)


# Gobang's heavy playout, by the type of ``par``: the shape playout for
# ``gobang_shape.ShapePlayout``, else the threat playout; only the one chosen compiles
_gobang_heavy = chosen(lambda par: _shape_playout_winner
                       if getattr(par, "instance_class", None) is gbs.ShapePlayout
                       else _threat_playout_winner)


@njit(cache=True, nogil=True)
def _gobang_playout_winner(s, meta, zob, rng, komi, amaf, pat, par):
    # ``par`` None: numba prunes the branch while compiling, so a light session compiles
    # no heavy playout
    if par is None:
        return gb.playout_winner(s, meta, zob, rng, amaf)
    return _gobang_heavy(par)(s, meta, zob, rng, amaf, par)


@njit(cache=True, nogil=True)
def _go_candidate_moves(s, meta, out):
    color = meta[M_TO_PLAY]
    k = 0
    empties = s[EMPTIES]
    w = meta[M_SIZE] + 2
    for i in range(meta[M_N_EMPTY]):
        p = empties[i]
        if not go.is_eye(s, w, p, color) and go.is_legal(s, meta, p, color):
            out[k] = p
            k += 1
    out[k] = PASS
    return k + 1


_KERNELS = {
    GoGame: SimpleNamespace(copy_state=_go_copy_state, play=go.play,
                            is_terminal=_go_is_terminal, terminal_winner=_go_terminal_winner,
                            playout_winner=gop.playout_winner,
                            candidate_moves=_go_candidate_moves),
    GobangGame: SimpleNamespace(copy_state=_gobang_copy_state, play=gb.play,
                                is_terminal=_gobang_is_terminal,
                                terminal_winner=_gobang_terminal_winner,
                                playout_winner=_gobang_playout_winner,
                                candidate_moves=gbtac.forced_candidates),
}


def kernel(g, name: str):
    """The kernel ``name`` of the game of the marker ``g``, from Python."""
    return getattr(_KERNELS[type(g)], name)


def _of_game(name: str):
    """For compiled code: ``f(g)`` is the kernel ``name`` of ``g``'s game, to be called."""
    return chosen(lambda g: getattr(_KERNELS[g.instance_class], name))


_copy_state = _of_game("copy_state")
_play = _of_game("play")
_is_terminal = _of_game("is_terminal")
_terminal_winner = _of_game("terminal_winner")
_playout_winner = _of_game("playout_winner")
_candidate_moves = _of_game("candidate_moves")


# ---- the face ------------------------------------------------------------------------


@njit(cache=True, nogil=True, inline='always')
def copy_state(g, src_s, src_meta, dst_s, dst_meta):
    """Copy a position into scratch arrays of the same size."""
    _copy_state(g)(src_s, src_meta, dst_s, dst_meta)


@njit(cache=True, nogil=True, inline='always')
def play(g, s, meta, zob, p, color):
    """Play a move that ``candidate_moves`` offered (or a Go PASS)."""
    # the point as the playouts and the rules pass it: the game's play compiles once
    _play(g)(s, meta, zob, np.int64(p), color)


@njit(cache=True, nogil=True, inline='always')
def is_terminal(g, s, meta):
    """Go: two passes in a row; Gobang: somebody won or the board is full."""
    return _is_terminal(g)(s, meta)


@njit(cache=True, nogil=True, inline='always')
def terminal_winner(g, s, meta, komi):
    """The winner of a finished position: Go by area score with komi, Gobang as recorded."""
    return _terminal_winner(g)(s, meta, komi)


@njit(cache=True, nogil=True, inline='always')
def policy_playout_winner(g, s, meta, zob, rng, komi, amaf, pat, par):
    """Play the position out in place; returns the winner.  ``amaf``: the AMAF record,
    int32[P] (``engine.core.amaf``), or empty.  ``par`` None: the light playout of
    either game (only it is compiled then); else the heavy one: Go's policy (``par``,
    ``pat`` from ``engine.go_knowledge``), Gobang's threat-aware playout
    (``gobang_threats``)."""
    w, _ = _playout_winner(g)(s, meta, zob, rng, komi, amaf, pat, par)   # (winner, score)
    return w


@njit(cache=True, nogil=True, inline='always')
def playout_winner(g, s, meta, zob, rng, komi, amaf):
    """``policy_playout_winner`` with the light playout."""
    return policy_playout_winner(g, s, meta, zob, rng, komi, amaf,
                                 np.zeros(0, dtype=np.uint8), None)


@njit(cache=True, nogil=True, inline='always')
def candidate_moves(g, s, meta, out):
    """Moves a tree node may expand into for the side to move, written to ``out`` (needs
    room for P + 1 entries); returns their count.  Go: the legal moves (simple ko) that do
    not fill the mover's own true eye, then PASS.  Gobang: the mover's winning points when
    it has any, else the blocks of the opponent's, else every legal point, none once the
    game is decided (``gobang_tactics.forced_candidates``)."""
    return _candidate_moves(g)(s, meta, out)
