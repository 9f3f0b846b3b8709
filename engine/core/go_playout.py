"""Go playouts: play a position out to the end with a move policy of ``go_policy`` (light
when ``par`` is None, heavy otherwise), pass only when the policy finds no move, stop
after two passes in a row (or a move cap that only pathological cycles reach) and score by
area.

The type of ``par`` picks the policy while the playout compiles (``policy_move``), so a
session compiles only the policy it plays (the light one cost a heavy session's cold start
some 3 s of compiling).
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from .go_kernels import PASS, play, score
from .go_policy import heavy_move, random_move
from .layout import M_MOVES, M_PASSES, M_TO_PLAY

# the (pat, par) arguments that select the light policy
LIGHT = (np.zeros(0, dtype=np.uint8), None)


def policy_move(par, s, meta, rng, color, pat, buf):
    """For compiled code: the move of the light policy (``par`` None) or of the heavy one
    for ``color``, PASS if none."""
    raise NotImplementedError("compiled code only")


# A call (which LLVM inlines), compiled without reference counts: inlined by numba, the
# policy's arguments are rebound at every move, and their counts (not pruned around the
# policy's call) cost light playouts some 7%
@overload(policy_move, jit_options={"_nrt": False})
def _policy_move(par, s, meta, rng, color, pat, buf):
    if isinstance(par, types.NoneType):
        return lambda par, s, meta, rng, color, pat, buf: random_move(s, meta, rng, color)
    return (lambda par, s, meta, rng, color, pat, buf:
            heavy_move(s, meta, rng, color, pat, par, buf))


@njit(cache=True)
def policy_playout(s, meta, zob, rng, amaf, pat, par):
    """Play the position in (s, meta) out to the end, in place.  When ``amaf`` has P
    entries, each empty point records the colour that played there first (for RAVE);
    pass an empty array otherwise.  ``pat``/``par``: the heavy policy's pattern table and
    parameters, or ``LIGHT`` (``par`` None) for the light policy.  Returns the number of
    moves played."""
    record = amaf.shape[0] > 0
    buf = np.empty(0 if par is None else s.shape[1], dtype=np.int32)
    limit = meta[M_MOVES] + 3 * s.shape[1]
    start = meta[M_MOVES]
    while meta[M_PASSES] < 2 and meta[M_MOVES] < limit:
        color = meta[M_TO_PLAY]
        p = policy_move(par, s, meta, rng, color, pat, buf)
        if record and p != PASS and amaf[p] == 0:
            amaf[p] = color
        play(s, meta, zob, p, color)
    return meta[M_MOVES] - start


@njit(cache=True)
def playout(s, meta, zob, rng, amaf):
    """``policy_playout`` with the light policy."""
    return policy_playout(s, meta, zob, rng, amaf, np.zeros(0, dtype=np.uint8), None)


@njit(cache=True)
def playout_winner(s, meta, zob, rng, komi, amaf, pat, par):
    """Play out and return the winner (BLACK=1, WHITE=2, 0 for a jigo) and the score."""
    policy_playout(s, meta, zob, rng, amaf, pat, par)
    sc = score(s, meta, komi)
    if sc > 0:
        return 1, sc
    if sc < 0:
        return 2, sc
    return 0, sc


@njit(cache=True)
def run_playouts(s, meta, zob, rng, komi, count, scratch_s, scratch_meta, pat, par):
    """``count`` playouts from the same position (a benchmark and test driver); returns the
    black wins and the total moves played."""
    wins = 0
    moves = 0
    none = np.zeros(0, dtype=np.int8)
    for _ in range(count):
        scratch_s[:, :] = s
        scratch_meta[:] = meta
        moves += policy_playout(scratch_s, scratch_meta, zob, rng, none, pat, par)
        if score(scratch_s, scratch_meta, komi) > 0:
            wins += 1
    return wins, moves
