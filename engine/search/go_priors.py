"""Priors for new tree nodes in Go: before its first visit each child gets virtual games
(``PRIOR_N`` games, ``PRIOR_W`` wins in ``engine.search.tree``) from what the move looks
like, so the search tries likely moves first and wastes no visits proving that a
self-atari is bad.  This is the progressive-bias scheme of Mango/Fuego in michi's form:
a sum of (games, wins) pairs, one per feature the move has, weights from the knowledge
file (``engine.go_knowledge``).

Features of a move p for the side to move (PASS gets ``even`` alone):
  even          every move
  capture       takes an opponent chain in atari; capture_many instead when more than
                one stone falls
  escape        extends an own chain in atari to two liberties or more
  pattern       its 3x3 neighbourhood matches a pattern
  selfatari     leaves its own chain (of ``selfatari_stones`` stones or more) in atari
  near1..near3  Manhattan distance 1, 2 or 3 from the opponent's last move
  empty_low     on the first or second line with no stone within distance 3
  empty_third   on the third line with no stone within distance 3

The type of ``prior`` picks what is computed while the kernels compile, so a session
compiles only its own kind (a run-time test made every Go session compile the ladder
reader and the learned features):
* a float64 array: the weights above (``priors=hand``, the default; empty: no priors);
* ``core.go_ladder.WithLadders`` of them (``priors=ladder``): the same, and ladders are
  read (``core.go_ladder``): an escape into a working ladder earns no ``escape`` prior,
  and an atari whose chain a ladder then captures earns ``capture``;
* ``core.elo_policy.Elo``, the learned weights (``priors=elo``), in Pachi's form: every
  child gets ``prior_games`` even games (half won), and a move of probability pi (its
  gamma, every feature and its largest known diamond included, over the sum of the
  node's; Bradley-Terry, ``engine.patterns``) also gets sqrt(pi) * ``prior_scale``
  games, all won.  The square root spreads the optimism over the plausible moves: a
  move the model gives 1% still starts ahead of one it gives 0.01%.  PASS gets the even
  games alone.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from ..go_knowledge import (CAPTURE, CAPTURE_MANY, EMPTY_LOW, EMPTY_THIRD, ESCAPE, EVEN, NEAR1,
                            NEAR2, NEAR3, PATTERN, SELFATARI)
from ..core.elo_policy import E_PRIOR_GAMES, E_PRIOR_SCALE, Elo, move_gamma
from ..core.game import GoGame, only_for
from ..core.go_ladder import WithLadders, new_ladder
from ..core.go_tactics import atari_liberty, first_touch, is_self_atari, libs_after
from ..core.move_features import G_ATARI, G_ESCAPE, N_GROUPS, tactical_features
from ..core.layout import (BOARD, EMPTY, LIBS, M_LAST, M_SIZE, M_TO_PLAY, OFFBOARD, PASS,
                           REP, SIZE)
from ..core.patterns3 import code
from ..core.spatial import N_RADII
from .tree import FIRST, MOVE, PRIOR_N, PRIOR_W, nchild

EMPTY_RADIUS = 3
LADDER_NODES = 100


@njit(cache=True)
def _captured(s, w, p, color):
    """Stones that ``color`` at ``p`` captures."""
    total = 0
    nbs = (p - 1, p + 1, p - w, p + w)
    for k in range(4):
        q = nbs[k]
        if s[BOARD, q] == 3 - color and first_touch(s, nbs, k) and atari_liberty(
                s, w, s[REP, q]) == p:
            total += s[SIZE, s[REP, q]]
    return total


@njit(cache=True)
def _near_atari(s, w, p, color):
    """``p`` is the last liberty of an own chain, or one of two of an opponent chain: the
    moves whose ladder status the priors read."""
    for q in (p - 1, p + 1, p - w, p + w):
        c = s[BOARD, q]
        if c == color and atari_liberty(s, w, s[REP, q]) == p:
            return True
        if c == 3 - color and s[LIBS, s[REP, q]] <= 8:
            return True
    return False


@njit(cache=True)
def _escapes(s, w, p, color):
    """``p`` is the last liberty of an own chain and playing it gives two or more."""
    for q in (p - 1, p + 1, p - w, p + w):
        if s[BOARD, q] == color and atari_liberty(s, w, s[REP, q]) == p:
            return libs_after(s, w, p, color) >= 2
    return False


@njit(cache=True)
def _ladder_tactics(s, meta, p, color, lad, levels):
    """(``p`` escapes and no ladder catches it, ``p`` gives an atari that a ladder turns
    into a capture), read with ``move_features``."""
    if not _near_atari(s, meta[M_SIZE] + 2, p, color):
        return False, False
    tactical_features(s, meta, p, color, lad, LADDER_NODES, levels)
    return levels[G_ESCAPE] == 1, levels[G_ATARI] == 1


@njit(cache=True)
def _empty_around(s, w, n, x, y):
    """No stone within Manhattan distance EMPTY_RADIUS of (x, y) (1-based padded)."""
    for dy in range(-EMPTY_RADIUS, EMPTY_RADIUS + 1):
        yy = y + dy
        if yy < 1 or yy > n:
            continue
        span = EMPTY_RADIUS - abs(dy)
        for xx in range(max(1, x - span), min(n, x + span) + 1):
            c = s[BOARD, yy * w + xx]
            if c != EMPTY and c != OFFBOARD:
                return False
    return True


@njit(cache=True, inline='always')   # tiny, called with constants: one compile each else
def _add(ti, tf, i, prior, f):
    ti[PRIOR_N, i] += int(prior[2 * f])
    tf[PRIOR_W, i] += prior[2 * f + 1]


def priors_call(ti, tf, node, s, meta, pat, prior, sa_stones) -> tuple:
    """(kernel, arguments) that set the priors of ``node``'s children; (s, meta) is the
    node's position, ``prior`` the hand-set weights, those with ladders, or the learned
    vector (module docstring).  The kernel is what compiled code reaches through
    ``_priors`` for the same types, so the compile worker compiles it for both."""
    if isinstance(prior, Elo):
        return elo_priors, (ti, tf, node, s, meta, prior.gammas, prior.keys, prior.spatial)
    if isinstance(prior, WithLadders):
        ladders = (new_ladder(s.shape[1], 2 * int(meta[M_SIZE])),
                   np.zeros(N_GROUPS, dtype=np.int8))
        return hand_priors, (ti, tf, node, s, meta, pat, prior.hand, sa_stones, ladders)
    return hand_priors, (ti, tf, node, s, meta, pat, prior, sa_stones, None)


def apply_priors(ti, tf, node, s, meta, pat, prior, sa_stones):
    """Set the priors of ``node``'s children (``priors_call``), from Python."""
    kernel, args = priors_call(ti, tf, node, s, meta, pat, prior, sa_stones)
    kernel(*args)


def _priors(prior, ti, tf, node, s, meta, pat, sa_stones):
    raise NotImplementedError("compiled code only")


@overload(_priors, inline="always")
def _pick_priors(prior, ti, tf, node, s, meta, pat, sa_stones):
    if isinstance(prior, types.Array):
        return (lambda prior, ti, tf, node, s, meta, pat, sa_stones:
                hand_priors(ti, tf, node, s, meta, pat, prior, sa_stones, None))
    if prior.instance_class is WithLadders:
        return (lambda prior, ti, tf, node, s, meta, pat, sa_stones:
                hand_priors(ti, tf, node, s, meta, pat, prior.hand, sa_stones,
                            (new_ladder(s.shape[1], 2 * meta[M_SIZE]),
                             np.zeros(N_GROUPS, dtype=np.int8))))
    assert prior.instance_class is Elo
    return (lambda prior, ti, tf, node, s, meta, pat, sa_stones:
            elo_priors(ti, tf, node, s, meta, prior.gammas, prior.keys, prior.spatial))


def gives_priors(prior) -> bool:
    """Whether ``prior`` (``bundles.Knowledge.prior``) asks for priors: an empty array
    does not.  Also for compiled code, where the type settles it."""
    return not isinstance(prior, np.ndarray) or prior.shape[0] > 0


@overload(gives_priors, inline="always")
def _gives_priors(prior):
    if isinstance(prior, types.Array):
        return lambda prior: prior.shape[0] > 0
    return lambda prior: True


@njit(cache=True)
def hand_priors(ti, tf, node, s, meta, pat, prior, sa_stones, ladders):
    """The knowledge file's priors (weights ``prior``); ``ladders``: None, or the ladder
    scratch and feature levels when ladders are read (``_ladder_tactics``)."""
    n = meta[M_SIZE]
    w = n + 2
    color = meta[M_TO_PLAY]
    last = meta[M_LAST]
    lx = last % w
    ly = last // w
    first = ti[FIRST, node]
    for i in range(first, first + nchild(ti, node)):   # hidden while claimed: tree.expand
        ti[PRIOR_N, i] = 0
        tf[PRIOR_W, i] = 0.0
        _add(ti, tf, i, prior, EVEN)
        p = np.int64(ti[MOVE, i])   # the playout policy's type: the tactics compile once
        if p == PASS:
            continue
        taken = _captured(s, w, p, color)
        if taken > 1:
            _add(ti, tf, i, prior, CAPTURE_MANY)
        elif taken == 1:
            _add(ti, tf, i, prior, CAPTURE)
        # ``ladders`` None: numba prunes the reading while compiling (no reader compiled)
        if ladders is None:
            escape, ladder_atari = _escapes(s, w, p, color), False
        else:
            escape, ladder_atari = _ladder_tactics(s, meta, p, color, ladders[0], ladders[1])
        if escape:
            _add(ti, tf, i, prior, ESCAPE)
        if ladder_atari and taken == 0:
            _add(ti, tf, i, prior, CAPTURE)
        if pat[code(s, w, p)] > 0:
            _add(ti, tf, i, prior, PATTERN)
        if taken == 0 and is_self_atari(s, w, p, color, sa_stones):
            _add(ti, tf, i, prior, SELFATARI)
        x = p % w
        y = p // w
        if last >= 0:
            d = abs(x - lx) + abs(y - ly)
            if d == 1:
                _add(ti, tf, i, prior, NEAR1)
            elif d == 2:
                _add(ti, tf, i, prior, NEAR2)
            elif d == 3:
                _add(ti, tf, i, prior, NEAR3)
        line = min(min(x, y), min(n + 1 - x, n + 1 - y))
        if line <= 3 and _empty_around(s, w, n, x, y):
            _add(ti, tf, i, prior, EMPTY_LOW if line <= 2 else EMPTY_THIRD)


@njit(cache=True)
def elo_priors(ti, tf, node, s, meta, par, keys, spatial):
    """The learned priors of the gamma vector ``par`` and the diamonds ``keys`` and
    ``spatial`` (module docstring)."""
    color = meta[M_TO_PLAY]
    even = par[E_PRIOR_GAMES]
    scale = par[E_PRIOR_SCALE]
    lad = new_ladder(s.shape[1], 2 * meta[M_SIZE])
    levels = np.zeros(N_GROUPS, dtype=np.int8)
    hashes = np.zeros(N_RADII, dtype=np.int64)
    first = ti[FIRST, node]
    count = nchild(ti, node)   # hidden while claimed: tree.expand
    gamma = np.zeros(count)
    total = 0.0
    for j in range(count):
        p = ti[MOVE, first + j]
        if p != PASS:
            gamma[j] = move_gamma(s, meta, p, color, par, keys, spatial, lad, levels, hashes)
            total += gamma[j]
    for j in range(count):
        i = first + j
        won = np.floor(np.sqrt(gamma[j] / total) * scale) if total > 0.0 else 0.0
        ti[PRIOR_N, i] = int(even + won)
        tf[PRIOR_W, i] = 0.5 * even + won


@njit(cache=True)
def _tree_priors(ti, tf, node, s, meta, pat, prior, sa_stones):
    """``apply_priors`` for compiled code.  The kind's kernel is a call of its own, which
    the compile worker compiles while this process compiles the search (this level of
    type dispatch, compiled there, cost the worker's lane 0.65 s of a cold start)."""
    _priors(prior, ti, tf, node, s, meta, pat, sa_stones)


# ``_go_priors(g)(...)``: ``_tree_priors`` on Go, nothing on Gobang (never compiled there)
_go_priors = only_for(GoGame, _tree_priors, None)


@njit(cache=True, nogil=True)
def prime_children(tree, node, scratch, pos, know, sa_stones):
    """After a back end's ``grow`` expanded ``node`` (its position in ``scratch``): its
    children's priors, when the knowledge carries prior weights and the game is Go."""
    if gives_priors(know.prior):
        _go_priors(pos.game)(tree.ti, tree.tf, node, scratch.ss, scratch.smeta, know.pat,
                             know.prior, sa_stones)
