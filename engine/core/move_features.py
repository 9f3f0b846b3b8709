"""The features of a Go move that the learned pattern model rates (``engine.patterns``,
docs/patterns.md): its 3x3 neighbourhood (``patterns3.code``, seen from the side to move)
and seven groups of facts, each at one level (0: the move does not have it):

  capture    1 takes a chain touching an own chain in atari (saves it), 2 takes the chain
             of the last move, 3 other captures of one or two stones, 4 of three or more
  escape     extends an own chain in atari to 1 two liberties or more, not caught by a
             ladder, 2 exactly two liberties that a ladder catches
  selfatari  (capturing nothing) leaves its own chain in atari: 1 a lone stone, 2 more
  atari      puts an opponent chain in atari: 1 one a ladder then catches, 2 other
  dist       distance to the last move, dx + dy + max(dx, dy) = 2..9 as levels 1..8
  line       the line the point is on, 1..4 (counted from the edge)
  dist2      distance to the move before the last, as ``dist`` (the mover's own last
             move: strong players answer near both)

Ladders are read by ``go_ladder`` on its scratch, at most ``max_nodes`` positions each.
"""

from numba import njit

from .go_ladder import escape_caught, liberties_upto3, load_after, read_ply0
from .go_tactics import (NONE, atari_liberty, first_touch, is_self_atari, libs_after, size_after,
                         touches_atari)
from .layout import BLACK, BOARD, M_LAST, M_LAST2, M_SIZE, NEXT, REP, SIZE, WHITE
from .patterns3 import code

G_CAPTURE, G_ESCAPE, G_SELFATARI, G_ATARI, G_DIST, G_LINE, G_DIST2 = range(7)
GROUP_NAMES = ("capture", "escape", "selfatari", "atari", "dist", "line", "dist2")
LEVELS = (4, 2, 2, 2, 8, 4, 8)
N_GROUPS = len(LEVELS)
MAX_DIST = 9


@njit(cache=True)
def mover_code(code, color):
    """A 3x3 code seen from ``color``: its stones become BLACK, the other side's WHITE."""
    if color == BLACK:
        return code
    out = 0
    for i in range(8):
        v = (code >> (2 * i)) & 3
        if v == BLACK or v == WHITE:
            v = 3 - v
        out |= v << (2 * i)
    return out


@njit(cache=True)
def _capture_level(s, meta, w, p, color):
    last = meta[M_LAST]
    taken = 0
    saves = False
    last_chain = False
    nbs = (p - 1, p + 1, p - w, p + w)
    for k in range(4):
        q = nbs[k]
        if s[BOARD, q] == 3 - color and first_touch(s, nbs, k) and atari_liberty(
                s, w, s[REP, q]) == p:
            r = s[REP, q]
            taken += s[SIZE, r]
            saves = saves or touches_atari(s, w, r, color)
            last_chain = last_chain or (last >= 0 and s[BOARD, last] == 3 - color
                                        and s[REP, last] == r)
    if taken == 0:
        return 0
    return 1 if saves else 2 if last_chain else 3 if taken <= 2 else 4


@njit(cache=True)
def _chain_features(s, meta, w, p, color, lad, max_nodes, out):
    """The capture, escape, self-atari and atari levels of ``p``."""
    other = 3 - color
    out[G_CAPTURE] = _capture_level(s, meta, w, p, color)
    played = False
    for q in (p - 1, p + 1, p - w, p + w):
        if s[BOARD, q] == color and atari_liberty(s, w, s[REP, q]) == p:
            if libs_after(s, w, p, color) >= 2:
                played = True   # escape_caught leaves the move in the scratch's first ply
                out[G_ESCAPE] = 2 if escape_caught(s, meta, p, color, lad, max_nodes) else 1
            break
    if out[G_CAPTURE] == 0 and is_self_atari(s, w, p, color, 1.0):
        out[G_SELFATARI] = 1 if size_after(s, w, p, color) == 1 else 2
    elif out[G_CAPTURE] == 0:
        for q in (p - 1, p + 1, p - w, p + w):
            if s[BOARD, q] != other:
                continue
            k, a, b = liberties_upto3(s, w, s[REP, q])
            if k == 2 and (a == p or b == p):
                if not played:
                    load_after(s, meta, p, color, lad)
                    played = True
                if read_ply0(lad, q, False, max_nodes):
                    out[G_ATARI] = 1
                    break
                out[G_ATARI] = 2


@njit(cache=True, inline='always')
def _distance_level(w, p, q):
    """``dist``'s level of ``p`` from move ``q`` (0: no move, or farther than MAX_DIST)."""
    if q < 0:
        return 0
    dx = abs(p % w - q % w)
    dy = abs(p // w - q // w)
    d = dx + dy + max(dx, dy)
    return d - 1 if d <= MAX_DIST else 0


@njit(cache=True)
def tactical_features(s, meta, p, color, lad, max_nodes, out):
    """Write the group levels of legal move ``p`` for ``color`` to ``out``."""
    w = meta[M_SIZE] + 2
    n = meta[M_SIZE]
    for g in range(N_GROUPS):
        out[g] = 0
    stones = 0
    for q in (p - 1, p + 1, p - w, p + w):
        stones += s[BOARD, q] == BLACK or s[BOARD, q] == WHITE
    if stones > 0:   # an open point has no tactical feature
        _chain_features(s, meta, w, p, color, lad, max_nodes, out)
    out[G_DIST] = _distance_level(w, p, meta[M_LAST])
    out[G_DIST2] = _distance_level(w, p, meta[M_LAST2])
    x = p % w
    y = p // w
    line = min(min(x, y), min(n + 1 - x, n + 1 - y))
    if line <= LEVELS[G_LINE]:
        out[G_LINE] = line


@njit(cache=True)
def candidate_features(s, meta, color, cands, n_cand, lad, max_nodes, codes, levels):
    """For the first ``n_cand`` moves of ``cands`` (legal board points): their mover
    codes into ``codes`` and group levels into the rows of ``levels``."""
    w = meta[M_SIZE] + 2
    for i in range(n_cand):
        p = cands[i]
        codes[i] = mover_code(code(s, w, p), color)
        tactical_features(s, meta, p, color, lad, max_nodes, levels[i])
    return n_cand

