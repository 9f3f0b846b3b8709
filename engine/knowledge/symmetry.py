"""Patterns up to symmetry: ``CANON`` maps a 3x3 code (``core.patterns3``) to the least
code among its 8 rotations and reflections."""

import numpy as np

# neighbour cells in code order (NW, N, NE, W, E, SW, S, SE) as (row, col) of the 3x3
_CELLS = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))


def _symmetries():
    """The 8 permutations of the code's cells under rotation and reflection."""
    perms = []
    for k in range(8):
        def f(r, c, k=k):
            for _ in range(k % 4):
                r, c = c, 2 - r
            return (r, 2 - c) if k >= 4 else (r, c)
        perms.append([_CELLS.index(f(r, c)) for r, c in _CELLS])
    return perms


def _canon_table() -> np.ndarray:
    codes = np.arange(1 << 16, dtype=np.int64)
    cells = [(codes >> (2 * i)) & 3 for i in range(8)]
    best = codes.copy()
    for perm in _symmetries():
        moved = sum(cells[i] << (2 * perm[i]) for i in range(8))
        best = np.minimum(best, moved)
    return best.astype(np.int32)


CANON = _canon_table()
