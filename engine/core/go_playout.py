"""Go playouts: play a position out to the end with a move policy of ``go_policy`` (light
when ``par`` is empty, heavy otherwise) or the learned softmax policy of ``elo_policy``
(when ``par`` has its ``ELO_LEN`` entries), pass only when the policy finds no move, stop
after two passes in a row (or a move cap that only pathological cycles reach) and score by
area.
"""

import numpy as np
from numba import njit

from .go_kernels import PASS, play, score
from .elo_policy import ELO_LEN, elo_move, elo_scratch
from .go_ladder import new_ladder
from .go_policy import LADDER_NODES, heavy_move, random_move
from .layout import M_MOVES, M_PASSES, M_SIZE, M_TO_PLAY

# the (pat, par) arguments that select the light policy
LIGHT = (np.zeros(0, dtype=np.uint8), np.zeros(0, dtype=np.float64))


@njit(cache=True)
def policy_playout(s, meta, zob, rng, amaf, pat, par):
    """Play the position in (s, meta) out to the end, in place.  When ``amaf`` has P
    entries, each empty point records the colour that played there first (for RAVE);
    pass an empty array otherwise.  ``pat``/``par``: the heavy policy's pattern table and
    parameters, empty for the light policy, or ``par`` the learned policy's vector.  Returns the number of moves played."""
    record = amaf.shape[0] > 0
    elo = par.shape[0] == ELO_LEN
    heavy = par.shape[0] > 0 and not elo
    buf = np.empty(s.shape[1] if heavy else 0, dtype=np.int32)
    ladders = elo or (heavy and par[LADDER_NODES] > 0)
    lad = new_ladder(s.shape[1] if ladders else 0, 2 * meta[M_SIZE] if ladders else 0)
    wbuf, ebuf, levels = elo_scratch(s.shape[1] if elo else 0)
    limit = meta[M_MOVES] + 3 * s.shape[1]
    start = meta[M_MOVES]
    while meta[M_PASSES] < 2 and meta[M_MOVES] < limit:
        color = meta[M_TO_PLAY]
        if elo:
            p = elo_move(s, meta, rng, color, par, wbuf, ebuf, lad, levels)
        elif heavy:
            p = heavy_move(s, meta, rng, color, pat, par, buf, lad)
        else:
            p = random_move(s, meta, rng, color)
        if record and p != PASS and amaf[p] == 0:
            amaf[p] = color
        play(s, meta, zob, p, color)
    return meta[M_MOVES] - start


@njit(cache=True)
def playout(s, meta, zob, rng, amaf):
    """``policy_playout`` with the light policy."""
    return policy_playout(s, meta, zob, rng, amaf, np.zeros(0, dtype=np.uint8),
                          np.zeros(0, dtype=np.float64))


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
