"""The softmax playout policy over learned move features (``engine.patterns``): each
candidate move is drawn with probability proportional to its strength, the product of its
features' gammas (``move_features``).

The gammas reach the kernels as one float64 vector (``ELO_LEN`` entries, built by
``engine.knowledge.pattern_weights.policy_vector``): the priors' even games and their
scale (``engine.search.go_priors``), the ladder reading cap, the group gammas
(``move_features.LEVELS`` per group, level 1 first) and two tables of 2^16 pattern gammas
indexed by a raw 3x3 code, one for each colour to move.  Wrapped in ``Elo`` (with the
large diamonds' sorted hashes and gammas, which only the tree's priors read:
``core.spatial``) where the heavy policy's parameters (or the tree priors' weights) go,
its type selects this policy (``go_playout``) and the learned priors
(``engine.search.go_priors``) while they compile; a session that does not ask for them
compiles none of this.

Per move, what a full feature reading of every point would cost is cut down:
* every empty point gets its pattern's gamma (one table lookup);
* points within distance 9 of the last move get the distance gamma, and those within 4
  (the 12 nearest) and the captures, escapes and counter-captures around the last move
  (``go_policy.atari_moves``) get every group's gamma (``dist2``, the distance to the
  move before the last, and ``line`` only there);
* elsewhere a self-atari is caught after the draw: it is kept with probability
  min(1, its gamma), else refused and the draw repeated (exact rejection sampling for
  gammas below 1); captures and ataris far from the last move are not rated.
A drawn point that is not ``playable`` (illegal, or the mover's own eye) is dropped and
the draw repeated; none left means PASS.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from .go_kernels import PASS
from .go_policy import atari_moves, playable
from .go_tactics import is_self_atari, size_after
from .layout import BLACK, EMPTIES, EMPTY, BOARD, EPOS, M_LAST, M_N_EMPTY, M_SIZE
from .move_features import G_DIST, G_SELFATARI, LEVELS, N_GROUPS, tactical_features
from .patterns3 import N_CODES, code
from .rng import rand_unit
from .spatial import largest_known_gamma

E_PRIOR_GAMES, E_LADDER_NODES, E_PRIOR_SCALE = range(3)
E_GROUPS = 3
GROUP_AT = np.concatenate([[0], np.cumsum(LEVELS)[:-1]]).astype(np.int64) + E_GROUPS
E_PAT = E_GROUPS + int(sum(LEVELS))
ELO_LEN = E_PAT + 2 * N_CODES
# the vector and the diamonds, typed apart from the hand-set parameters
Elo = namedtuple("Elo", "gammas keys spatial")
NEAR = 4          # points this close to the last move get every tactical gamma


@njit(cache=True, inline='always')
def group_gamma(par, levels, skip):
    """The product of the group gammas of ``levels`` (group ``skip`` left out)."""
    g = 1.0
    for k in range(N_GROUPS):
        if levels[k] > 0 and k != skip:
            g *= par[GROUP_AT[k] + levels[k] - 1]
    return g


@njit(cache=True)
def move_gamma(s, meta, p, color, par, keys, spatial, lad, levels, hashes):
    """A legal move's strength with every feature read, its largest known diamond
    included (the tree's priors); ``hashes``: int64[spatial.N_RADII] scratch."""
    w = meta[M_SIZE] + 2
    tactical_features(s, meta, p, color, lad, int(par[E_LADDER_NODES]), levels)
    base = E_PAT + (0 if color == BLACK else N_CODES)
    return (par[base + code(s, w, p)] * group_gamma(par, levels, -1)
            * largest_known_gamma(s, meta, p, color, keys, spatial, hashes))


@njit(cache=True, inline='always')
def _distance(w, p, last):
    dx = abs(p % w - last % w)
    dy = abs(p // w - last // w)
    return dx + dy + max(dx, dy)


@njit(cache=True)
def _rated(w, p, last, buf, n_extra):
    """``p`` had every tactical gamma applied this move."""
    if last >= 0 and _distance(w, p, last) <= NEAR:
        return True
    for j in range(n_extra):
        if buf[j] == p:
            return True
    return False


@njit(cache=True)
def elo_move(s, meta, rng, color, par, wbuf, buf, lad, levels):
    """One move of the policy (module docstring).  Scratch: ``wbuf`` float64[P],
    ``buf`` int32[P], ``lad`` a ladder scratch, ``levels`` int8[N_GROUPS]."""
    n = meta[M_SIZE]
    w = n + 2
    k = meta[M_N_EMPTY]
    base = E_PAT + (0 if color == BLACK else N_CODES)
    max_nodes = int(par[E_LADDER_NODES])
    total = 0.0
    for i in range(k):
        g = par[base + code(s, w, s[EMPTIES, i])]
        wbuf[i] = g
        total += g
    last = meta[M_LAST]
    n_extra = 0
    if last >= 0:
        lx = last % w
        ly = last // w
        for y in range(max(1, ly - 4), min(n, ly + 4) + 1):
            for x in range(max(1, lx - 4), min(n, lx + 4) + 1):
                p = y * w + x
                d = _distance(w, p, last)
                if d > 9 or s[BOARD, p] != EMPTY:
                    continue
                if d <= NEAR:
                    tactical_features(s, meta, p, color, lad, max_nodes, levels)
                    f = group_gamma(par, levels, -1)
                else:
                    f = par[GROUP_AT[G_DIST] + d - 2]
                i = s[EPOS, p]
                total += wbuf[i] * (f - 1.0)
                wbuf[i] *= f
        m = atari_moves(s, meta, w, last, color, buf, None, 0)   # escapes rated by gamma
        for j in range(m):
            p = buf[j]
            if _rated(w, p, last, buf, n_extra):
                continue
            buf[n_extra] = p
            n_extra += 1
            tactical_features(s, meta, p, color, lad, max_nodes, levels)
            f = group_gamma(par, levels, G_DIST)
            i = s[EPOS, p]
            total += wbuf[i] * (f - 1.0)
            wbuf[i] *= f
    while total > 1e-12:
        x = rand_unit(rng) * total
        i = 0
        while i < k - 1 and (x >= wbuf[i] or wbuf[i] == 0.0):
            x -= wbuf[i]
            i += 1
        if wbuf[i] == 0.0:   # rounding left total above the weights still standing
            total = 0.0
            for j in range(k):
                total += wbuf[j]
            continue
        p = s[EMPTIES, i]
        ok = playable(s, meta, w, p, color)
        if ok and not _rated(w, p, last, buf, n_extra) and is_self_atari(s, w, p, color, 1.0):
            g = par[GROUP_AT[G_SELFATARI] + (0 if size_after(s, w, p, color) == 1 else 1)]
            ok = g >= 1.0 or rand_unit(rng) < g
        if ok:
            return p
        total -= wbuf[i]
        wbuf[i] = 0.0
    return PASS


@njit(cache=True)
def elo_scratch(n_points):
    """(wbuf, buf, levels) for ``elo_move`` on a board of ``n_points`` padded points (its
    ladder scratch: ``go_ladder.new_ladder``)."""
    return (np.empty(n_points, dtype=np.float64), np.empty(n_points, dtype=np.int32),
            np.zeros(N_GROUPS, dtype=np.int8))
