"""Training examples from game records: every position where the recorded player (not the
random opening) chose a board move among the candidates a tree node would offer
(``game.candidate_moves``: legal, not filling an own eye), with each candidate's features
(``core.move_features``) and which one was played.

Patterns are counted up to symmetry: ``CANON`` maps a mover code to the least code among
its 8 rotations and reflections, so the model has one rating per pattern shape.
"""

from dataclasses import dataclass

import numpy as np

from ..core.game import candidate_moves
from ..core.go_ladder import ladder_scratch
from ..core.layout import PASS
from ..core.move_features import N_GROUPS, candidate_features
from .selfplay import replay

LADDER_NODES = 200
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


@dataclass
class Examples:
    """One row per candidate move: its position's index, canonical pattern code, group
    levels (``move_features``) and whether it was the move played."""
    pos: np.ndarray        # int32[R]
    code: np.ndarray       # int32[R]
    levels: np.ndarray     # int8[R, N_GROUPS]
    chosen: np.ndarray     # bool[R]

    @property
    def n_positions(self) -> int:
        return int(self.pos[-1]) + 1 if len(self.pos) else 0


def examples(records) -> Examples:
    """The training examples of a list of ``selfplay.Record``."""
    pos, codes, levels, chosen = [], [], [], []
    n = 0
    lad = None
    for rec in records:
        lad = lad if lad is not None and lad.ss.shape[2] == (rec.size + 2) ** 2 else \
            ladder_scratch(rec.size)
        cand = np.empty((rec.size + 2) ** 2 + 1, dtype=np.int32)
        for state, move, i in replay(rec):
            if i < rec.n_random or move == PASS:
                continue
            k = candidate_moves(state.s, state.meta, cand) - 1     # PASS is last
            hit = np.flatnonzero(cand[:k] == move)
            if len(hit) == 0:
                continue
            c = np.empty(k, dtype=np.int32)
            lv = np.empty((k, N_GROUPS), dtype=np.int8)
            candidate_features(state.s, state.meta, state.to_play, cand, k, lad,
                               LADDER_NODES, c, lv)
            pos.append(np.full(k, n, dtype=np.int32))
            codes.append(CANON[c])
            levels.append(lv)
            ch = np.zeros(k, dtype=bool)
            ch[hit[0]] = True
            chosen.append(ch)
            n += 1
    if not pos:
        return Examples(np.zeros(0, np.int32), np.zeros(0, np.int32),
                        np.zeros((0, N_GROUPS), np.int8), np.zeros(0, bool))
    return Examples(np.concatenate(pos), np.concatenate(codes), np.concatenate(levels),
                    np.concatenate(chosen))
