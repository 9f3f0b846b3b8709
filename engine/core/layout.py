"""The state layout shared by every kernel of both games.

A position is two arrays, so a copy is two ``np.copyto`` calls and a kernel signature stays
short:

``s``: int32 ``[NROWS, P]`` with ``P = (n+2)**2`` (the padded board of ``engine.game.coords``)

====== ============================================================================
row    meaning
====== ============================================================================
BOARD  EMPTY / BLACK / WHITE / OFFBOARD for every padded point
NEXT   Go: next stone of the same chain (a circular linked list through the chain)
REP    Go: the chain's representative stone (valid on stones only)
LIBS   Go: pseudo-liberties of the chain, indexed by its representative: the number of
       (stone, adjacent empty point) pairs, so a point adjacent to two stones of the chain
       counts twice.  A chain is captured exactly when this reaches 0.
SIZE   Go: number of stones of the chain, indexed by its representative
EMPTY  the first ``meta[N_EMPTY]`` entries list the empty on-board points, in any order
EPOS   position of an empty point inside the EMPTY row (valid on empty points only)
====== ============================================================================

``meta``: int64 ``[NMETA]``, the scalars, indexed by the ``M_*`` constants below.
Gobang uses BOARD, EMPTY and EPOS only.
"""

import numpy as np

EMPTY, BLACK, WHITE, OFFBOARD = 0, 1, 2, 3
# moves that are not board points (never valid padded indices); defined here, the lowest
# layer, so kernels and Python code share one definition
PASS, RESIGN = -1, -2
DRAW = 3  # value of M_WINNER for a Gobang board filled without five in a row

GAME_GO, GAME_GOBANG = 0, 1
GOBANG_FREESTYLE, GOBANG_EXACT5, GOBANG_RENJU = 0, 1, 2

BOARD, NEXT, REP, LIBS, SIZE, EMPTIES, EPOS = range(7)
NROWS = 7

(M_GAME, M_SIZE, M_TO_PLAY, M_N_EMPTY, M_KO, M_KO_COLOR, M_PASSES, M_HASH, M_MOVES,
 M_CAPS_B, M_CAPS_W, M_LAST, M_WINNER, M_RULE, M_LAST2) = range(15)
NMETA = 16
# M_LAST2 (Go): the move before the last, for the learned features' second distance

# M_RULE bits for Go
RULE_SUICIDE = 1


def new_arrays(n: int):
    """Zeroed state arrays for an n x n board."""
    p = (n + 2) * (n + 2)
    return np.zeros((NROWS, p), dtype=np.int32), np.zeros(NMETA, dtype=np.int64)


def zobrist_table(n: int, seed: int = 20141123) -> np.ndarray:
    """Random int64 keys [3, P]; row 0 unused.  Fixed seed, so hashes are stable across runs."""
    p = (n + 2) * (n + 2)
    rng = np.random.default_rng(seed + n)
    return rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=(3, p),
                        dtype=np.int64)
