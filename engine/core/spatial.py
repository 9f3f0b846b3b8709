"""Large spatial patterns of a Go move: the diamonds of growing size around a point (every
point within Manhattan distance d, d = 2 .. ``MAX_RADIUS``; the 3x3 of ``patterns3`` lies
inside d = 2), each matched by a Zobrist hash of its contents seen from the side to move
(empty, own stone, other's stone, off the board), least over the 8 rotations and
reflections, so a shape has one hash whatever its orientation (Coulom's and Pachi's
nested patterns; the learned model keeps the largest one it knows, ``engine.patterns``).

The hash of a diamond is the XOR over its cells of ``TABLE[t, cell, contents]``, with
``t`` the symmetry: ``TABLE[t]`` is the random table ``ZOB`` with its cells moved by
``t``, so hashing the board as it lies under ``TABLE[t]`` hashes its image under ``t``.
The cells come ring by ring, so each diamond's hash extends the last.  ``ZOB`` comes from
a fixed seed: a hash written to a weights file means the same shape in every session.
"""

import numpy as np
from numba import njit

from .layout import BLACK, BOARD, M_SIZE, OFFBOARD, WHITE

MIN_RADIUS, MAX_RADIUS = 2, 5
N_RADII = MAX_RADIUS - MIN_RADIUS + 1
SEED = 20070519     # the hashes in a weights file depend on it: never change it


def _cells():
    """(dx, dy) of the diamond cells, ring by ring from distance 1, and each ring's end."""
    cells, ends = [], []
    for d in range(1, MAX_RADIUS + 1):
        ring = sorted((dx, dy) for dx in range(-d, d + 1) for dy in range(-d, d + 1)
                      if abs(dx) + abs(dy) == d)
        cells += ring
        ends.append(len(cells))
    return cells, ends


def _tables():
    cells, ends = _cells()
    index = {c: i for i, c in enumerate(cells)}
    zob = np.random.default_rng(SEED).integers(-2**63, 2**63 - 1, size=(len(cells), 4),
                                               dtype=np.int64)
    zob[:, 0] = 0   # empty cells hash to nothing, so a diamond's empty rim costs nothing
    table = np.empty((8, len(cells), 4), dtype=np.int64)
    for t in range(8):
        for i, (dx, dy) in enumerate(cells):
            x, y = dx, dy
            for _ in range(t % 4):
                x, y = -y, x
            if t >= 4:
                x = -x
            table[t, i] = zob[index[(x, y)]]
    # a diamond of radius d salted by d, so diamonds of two sizes never share a hash
    salt = np.random.default_rng(SEED + 1).integers(-2**63, 2**63 - 1, size=MAX_RADIUS + 1,
                                                    dtype=np.int64)
    return (np.array(cells, dtype=np.int64), np.array(ends, dtype=np.int64), table, salt)


CELLS, RING_END, TABLE, SALT = _tables()


@njit(cache=True)
def diamond_hashes(s, meta, p, color, cells, ring_end, table, salt, out):
    """The canonical hashes of the diamonds of radius MIN_RADIUS .. MAX_RADIUS around
    board point ``p``, seen from ``color``, into ``out`` (int64[N_RADII])."""
    n = meta[M_SIZE]
    w = n + 2
    x0 = p % w
    y0 = p // w
    h = np.zeros(8, dtype=np.int64)
    ring = 0
    for i in range(cells.shape[0]):
        x = x0 + cells[i, 0]
        y = y0 + cells[i, 1]
        if x < 1 or y < 1 or x > n or y > n:
            v = OFFBOARD
        else:
            v = s[BOARD, y * w + x]
            if v == BLACK or v == WHITE:
                v = 1 if v == color else 2
        if v != 0:
            for t in range(8):
                h[t] ^= table[t, i, v]
        if i + 1 == ring_end[ring]:
            ring += 1
            if ring >= MIN_RADIUS:
                best = h[0]
                for t in range(1, 8):
                    if h[t] < best:
                        best = h[t]
                out[ring - MIN_RADIUS] = best ^ salt[ring]
    return out


@njit(cache=True)
def candidate_hashes(s, meta, color, cands, n_cand, cells, ring_end, table, salt, out):
    """``diamond_hashes`` of the first ``n_cand`` moves of ``cands`` into the rows of
    ``out`` (int64[>= n_cand, N_RADII])."""
    for i in range(n_cand):
        diamond_hashes(s, meta, cands[i], color, cells, ring_end, table, salt, out[i])


@njit(cache=True)
def largest_known_gamma(s, meta, p, color, keys, gammas, hashes):
    """The gamma of the largest diamond around ``p`` that ``keys`` (sorted hashes, their
    gammas in ``gammas``) lists, 1.0 for none, as the model is fitted
    (``engine.patterns.mm.largest_known``); ``hashes``: int64[N_RADII] scratch."""
    if keys.shape[0] == 0:
        return 1.0
    diamond_hashes(s, meta, p, color, CELLS, RING_END, TABLE, SALT, hashes)
    for r in range(N_RADII - 1, -1, -1):
        i = np.searchsorted(keys, hashes[r])
        if i < keys.shape[0] and keys[i] == hashes[r]:
            return gammas[i]
    return 1.0
