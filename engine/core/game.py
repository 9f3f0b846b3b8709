"""One compiled face for both games, each session compiling only its own game's kernels.

Every function here takes first ``g``, the game's marker (``GO`` or ``GOBANG``, which the
games registry ``engine.game.registry`` hands out for a state): numba types a namedtuple by
its class, so the marker's type picks the game's kernels while the caller compiles
(``numba.extending.overload``), and a search compiled for Go contains no Gobang kernel and
the reverse.  The search kernels stay game-blind: they pass the marker along.  (Dispatching
on ``meta[M_GAME]`` at run time made every session compile both games, about a third of a
cold start's compile.)

Winners are BLACK (1), WHITE (2) or 0 for a Go jigo or a drawn (full) Gobang board.
Superko is not seen here (it needs the history; ``engine.game.go_state`` checks it).
"""

import inspect
from collections import namedtuple
from types import SimpleNamespace

import numpy as np
from numba import njit
from numba.extending import overload

from . import go_kernels as go
from . import go_playout as gop
from . import gobang_kernels as gb
from . import gobang_tactics as gbtac
from . import gobang_threats as gbt
from .layout import BOARD, DRAW, EMPTIES, EPOS, GAME_GO, GAME_GOBANG, M_N_EMPTY, M_PASSES, \
    M_SIZE, M_TO_PLAY, M_WINNER, PASS

GoGame = namedtuple("GoGame", "code")
GobangGame = namedtuple("GobangGame", "code")
GO = GoGame(GAME_GO)
GOBANG = GobangGame(GAME_GOBANG)


def _by_game(n: int, kernel_of, otherwise=None):
    """For compiled code: ``f(g, a0, ..., a{n-1})`` is ``kernel(a0, ..., a{n-1})`` with
    ``kernel = kernel_of(the class of g)``, or the constant ``otherwise`` where that is
    None; only the kernel of ``g``'s game is compiled.  Its body is inlined into the
    caller: a call of its own would cost every call the reference counts of its array
    arguments (light playouts some 20%); numba's inliner takes no ``*args``, hence the
    arguments spelt out."""
    a = ", ".join(f"a{i}" for i in range(n))
    source = (f"def stub(g, {a}):\n"
              f"    raise NotImplementedError('compiled code only')\n"
              f"def pick(g, {a}):\n"
              f"    kernel = kernel_of(g.instance_class)\n"
              f"    if kernel is None:\n"
              f"        return lambda g, {a}: otherwise\n"
              f"    return lambda g, {a}: kernel({a})\n")
    space = {"__name__": __name__, "kernel_of": kernel_of, "otherwise": otherwise}
    exec(source, space)
    overload(space["stub"], inline="always")(space["pick"])
    return space["stub"]


def only_for(game_class, kernel, otherwise):
    """For compiled code: ``f(g, *args)`` is ``kernel(*args)`` when ``g`` is a marker of
    ``game_class``, else the constant ``otherwise``, and the other game never compiles
    ``kernel`` (a game-specific step of a game-blind kernel: Go's priors, Gobang's threat
    proofs)."""
    n = len(inspect.signature(kernel.py_func).parameters)
    return _by_game(n, lambda cls: kernel if cls is game_class else None, otherwise)


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


@njit(cache=True, nogil=True, inline='always')   # no call of its own per playout
def _gobang_playout_winner(s, meta, zob, rng, komi, amaf, pat, par):
    # ``par`` None: numba prunes the branch while compiling, so a light session compiles
    # no threat playout (the reverse is not pruned: an array's type says nothing of it)
    if par is None:
        return gb.playout_winner(s, meta, zob, rng, amaf)
    return gbt.threat_playout_winner(s, meta, zob, rng, amaf)


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


def _of_game(name: str, n: int):
    """For compiled code: ``f(g, *n args)`` is the kernel ``name`` of ``g``'s game."""
    return _by_game(n, lambda cls: getattr(_KERNELS[cls], name))


_copy_state = _of_game("copy_state", 4)
_play = _of_game("play", 5)
_is_terminal = _of_game("is_terminal", 2)
_terminal_winner = _of_game("terminal_winner", 3)
_playout_winner = _of_game("playout_winner", 8)
_candidate_moves = _of_game("candidate_moves", 3)


# ---- the face ------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def copy_state(g, src_s, src_meta, dst_s, dst_meta):
    """Copy a position into scratch arrays of the same size."""
    _copy_state(g, src_s, src_meta, dst_s, dst_meta)


@njit(cache=True, nogil=True)
def play(g, s, meta, zob, p, color):
    """Play a move that ``candidate_moves`` offered (or a Go PASS)."""
    # the point as the playouts and the rules pass it: the game's play compiles once
    _play(g, s, meta, zob, np.int64(p), color)


@njit(cache=True, nogil=True)
def is_terminal(g, s, meta):
    """Go: two passes in a row; Gobang: somebody won or the board is full."""
    return _is_terminal(g, s, meta)


@njit(cache=True, nogil=True)
def terminal_winner(g, s, meta, komi):
    """The winner of a finished position: Go by area score with komi, Gobang as recorded."""
    return _terminal_winner(g, s, meta, komi)


@njit(cache=True, nogil=True)
def policy_playout_winner(g, s, meta, zob, rng, komi, amaf, pat, par):
    """Play the position out in place; returns the winner.  ``amaf``: int8[P] that records
    the colour first to play on each point, or empty.  ``par`` None: the light playout of
    either game (only it is compiled then); else the heavy one: Go's policy (``par``,
    ``pat`` from ``engine.go_knowledge``), Gobang's threat-aware playout
    (``gobang_threats``)."""
    w, _ = _playout_winner(g, s, meta, zob, rng, komi, amaf, pat, par)   # (winner, score)
    return w


@njit(cache=True, nogil=True)
def playout_winner(g, s, meta, zob, rng, komi, amaf):
    """``policy_playout_winner`` with the light playout."""
    return policy_playout_winner(g, s, meta, zob, rng, komi, amaf,
                                 np.zeros(0, dtype=np.uint8), None)


@njit(cache=True, nogil=True)
def candidate_moves(g, s, meta, out):
    """Moves a tree node may expand into for the side to move, written to ``out`` (needs
    room for P + 1 entries); returns their count.  Go: the legal moves (simple ko) that do
    not fill the mover's own true eye, then PASS.  Gobang: the mover's winning points when
    it has any, else the blocks of the opponent's, else every legal point, none once the
    game is decided (``gobang_tactics.forced_candidates``)."""
    return _candidate_moves(g, s, meta, out)
